"""The static PIX BR Code ("copia e cola"), as the Banco Central's *Manual de Padrões para
Iniciação do Pix* lays it out over EMV® QRCPS: TLV fields, each an ID of two digits, a length
of two digits and the value. Pure: no I/O.

Fields: 00 payload format "01"; 26 merchant account (00 GUI "br.gov.bcb.pix", 01 the key);
52 "0000"; 53 currency "986" (BRL); 54 the amount with a dot and two decimals (left out when
none); 58 "BR"; 59 beneficiary name (≤ 25); 60 city (≤ 15); 62 additional data (05 txid,
≤ 25 alphanumerics, "***" when none); 63 the CRC16-CCITT-FALSE (poly 0x1021, init 0xFFFF)
over everything before it, "6304" included, as four upper hex digits.
"""
from __future__ import annotations

import re
import unicodedata
from decimal import ROUND_HALF_UP, Decimal

GUI = "br.gov.bcb.pix"
NAME_MAX = 25
CITY_MAX = 15
TXID_MAX = 25
KEY_MAX = 77  # the merchant account field (99) less the GUI's TLV and the key's ID and length
NO_TXID = "***"


class PixError(ValueError):
    """A BR Code that cannot be made (a value too long, a bad amount): the message is
    Portuguese."""


def ascii_fold(text: str) -> str:
    """Accents and other marks off, as banks expect the name and city ("São José" →
    "Sao Jose"); characters with no ASCII form dropped; spaces collapsed."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if ord(ch) < 128 and not unicodedata.combining(ch))
    return re.sub(r"\s+", " ", plain).strip()


def txid_of(text: str) -> str:
    """A txid from a case code: its letters and digits only, uppercase, at most 25."""
    return re.sub(r"[^A-Za-z0-9]", "", ascii_fold(text)).upper()[:TXID_MAX]


def crc16(data: str) -> str:
    """CRC16-CCITT-FALSE of `data` (UTF-8) as four upper hex digits."""
    crc = 0xFFFF
    for byte in data.encode("utf-8"):
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return f"{crc:04X}"


def _field(tag: str, value: str) -> str:
    if len(value) > 99:
        raise PixError(f"Campo {tag} do código PIX longo demais ({len(value)} caracteres).")
    return f"{tag}{len(value):02d}{value}"


def amount_text(amount: Decimal) -> str:
    """Field 54: the amount with a dot and two decimals ("280.00")."""
    value = Decimal(amount).quantize(Decimal("0.01"), ROUND_HALF_UP)
    if value <= 0:
        raise PixError("O valor do PIX deve ser maior que zero.")
    text = f"{value:.2f}"
    if len(text) > 13:
        raise PixError("Valor do PIX grande demais.")
    return text


def static_brcode(key: str, name: str, city: str, amount: Decimal | None = None,
                  txid: str | None = None) -> str:
    """The static BR Code (the "copia e cola" text, also the QR code's content)."""
    key = key.strip()
    if not key or len(key) > KEY_MAX:
        raise PixError("Chave PIX vazia ou longa demais.")
    name = ascii_fold(name)[:NAME_MAX].strip()
    city = ascii_fold(city)[:CITY_MAX].strip()
    if not name or not city:
        raise PixError("Nome e cidade do recebedor do PIX são obrigatórios.")
    tx = txid or NO_TXID
    if tx != NO_TXID and not re.fullmatch(r"[A-Za-z0-9]{1,%d}" % TXID_MAX, tx):
        raise PixError("Identificador do PIX (txid): até 25 letras e números.")
    body = (_field("00", "01")
            + _field("26", _field("00", GUI) + _field("01", key))
            + _field("52", "0000") + _field("53", "986")
            + (_field("54", amount_text(amount)) if amount is not None else "")
            + _field("58", "BR") + _field("59", name) + _field("60", city)
            + _field("62", _field("05", tx)) + "6304")
    return body + crc16(body)
