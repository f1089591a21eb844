"""What a municipality record must be before it is written: each field read and checked, the
refusal in Portuguese naming the field (the panel shows it beside it, the CLI prints it).

Pure: no database. `clean_fields` returns the values to store; the boundary is read strictly
(core.area.read_boundary) and kept as its geometry alone."""
from __future__ import annotations

import hashlib
import re
from typing import Any, Mapping

from core.area import BoundaryError, boundary_text, read_boundary, valid_point
from core.parsing import ParseError, parse_cpf_cnpj, parse_email, parse_text
from core.pix import CITY_MAX, KEY_MAX, NAME_MAX, PixError, static_brcode
from core.services.errors import InvalidInput

#: The states and their IBGE codes (the first two digits of a municipality's code)
UF_CODES = {"RO": "11", "AC": "12", "AM": "13", "RR": "14", "PA": "15", "AP": "16", "TO": "17",
            "MA": "21", "PI": "22", "CE": "23", "RN": "24", "PB": "25", "PE": "26", "AL": "27",
            "SE": "28", "BA": "29", "MG": "31", "ES": "32", "RJ": "33", "SP": "35", "PR": "41",
            "SC": "42", "RS": "43", "MS": "50", "MT": "51", "GO": "52", "DF": "53"}
#: The municipalities whose IBGE code does not follow the check digit (IBGE's own exceptions,
#: as the NF-e validation lists them)
IBGE_CHECK_EXCEPTIONS = frozenset({"2201919", "2201988", "2202251", "2611533", "3117836",
                                   "3152131", "4305871", "5203939", "5203962"})
SLUG_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
JURISDICTION_RE = re.compile(r"^[A-Za-z0-9._-]{1,120}$")
_EVP_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
_PHONE_KEY_RE = re.compile(r"^\+55[1-9][0-9]{9,10}$")

#: Text fields: (limit in characters, line breaks kept), as the table holds them
TEXTS = {"name": (120, False), "office_address": (300, False), "office_phone": (60, False),
         "office_hours": (200, False), "depot_address": (300, False),
         "depot_hours": (200, False), "dpo_contact": (200, False),
         "pix_merchant_name": (NAME_MAX, False), "pix_merchant_city": (CITY_MAX, False),
         "payment_guia_instructions": (2000, True)}
#: How each field is named to a person
LABELS = {"slug": "Identificador", "law": "Lei", "name": "Nome", "uf": "UF",
          "ibge_code": "Código IBGE", "boundary": "Contorno", "centre_lat": "Latitude do centro",
          "centre_lon": "Longitude do centro", "radius_m": "Raio",
          "office_address": "Endereço do setor", "office_phone": "Telefone do setor",
          "office_hours": "Horário do setor", "office_lat": "Latitude do setor",
          "office_lon": "Longitude do setor", "depot_address": "Endereço do pátio",
          "depot_hours": "Horário do pátio", "dpo_contact": "Encarregado de dados (LGPD)",
          "pix_key": "Chave PIX", "pix_merchant_name": "Nome do recebedor PIX",
          "pix_merchant_city": "Cidade do recebedor PIX",
          "payment_guia_instructions": "Instruções da guia",
          "open311_jurisdiction_id": "Jurisdição Open311", "open311_key": "Chave Open311"}
MIN_OPEN311_KEY = 16


def check_slug(slug: str) -> str:
    value = (slug or "").strip()
    if not (2 <= len(value) <= 60) or not SLUG_RE.match(value):
        raise InvalidInput("Identificador inválido: use letras minúsculas sem acento, números e "
                           "hífens, de 2 a 60 caracteres (ex.: dracena, dores-do-indaia).",
                           "slug")
    return value


def check_uf(uf: str) -> str:
    value = (uf or "").strip().upper()
    if value not in UF_CODES:
        raise InvalidInput(f"UF inválida: {value[:10]!r}. Use a sigla do estado (ex.: SP, MG).",
                           "uf")
    return value


def ibge_check_digit(first_six: str) -> int:
    """The 7th digit of an IBGE municipality code: weights 1,2,1,2,1,2, a product over 9 has
    its digits summed, then what the sum lacks to a multiple of 10."""
    total = 0
    for i, ch in enumerate(first_six):
        p = int(ch) * (1 if i % 2 == 0 else 2)
        total += p // 10 + p % 10
    return (10 - total % 10) % 10


def check_ibge(code: str, uf: str) -> str:
    value = (code or "").strip()
    if not re.fullmatch(r"[0-9]{7}", value):
        raise InvalidInput("Código IBGE inválido: são 7 dígitos (ex.: 3514403, Dracena/SP).",
                           "ibge_code")
    if value[:2] != UF_CODES.get(uf):
        raise InvalidInput(f"Código IBGE {value} não é de um município de {uf}: os códigos de "
                           f"{uf} começam com {UF_CODES.get(uf, '??')}.", "ibge_code")
    if value not in IBGE_CHECK_EXCEPTIONS and int(value[6]) != ibge_check_digit(value[:6]):
        raise InvalidInput(f"Código IBGE {value} inválido: o dígito verificador não confere. "
                           "Confira o código na lista de municípios do IBGE.", "ibge_code")
    return value


def check_pix_key(key: str) -> str:
    """A PIX key of one of the kinds the Banco Central defines: CPF or CNPJ (check digits),
    e-mail, phone (+55 and DDD) or random key (EVP, a UUID)."""
    value = (key or "").strip()
    if not value:
        return ""
    refused = InvalidInput("Chave PIX inválida: use o CPF ou CNPJ (com dígitos verificadores "
                           "válidos), um e-mail, um telefone no formato +5518999998888 ou a "
                           "chave aleatória (formato 123e4567-e89b-12d3-a456-426614174000).",
                           "pix_key")
    if len(value) > KEY_MAX:
        raise refused
    if _EVP_RE.match(value.lower()):
        return value.lower()
    if _PHONE_KEY_RE.match(value):
        return value
    if "@" in value:
        try:
            return parse_email(value)
        except ParseError:
            raise refused from None
    if re.fullmatch(r"[0-9A-Za-z./-]{11,18}", value):
        try:
            return parse_cpf_cnpj(value)
        except ParseError:
            raise refused from None
    raise refused


def _text(field: str, value: Any) -> str:
    limit, lines = TEXTS[field]
    raw = "" if value is None else str(value)
    if not raw.strip():
        return ""
    try:
        return parse_text(raw, limit, lines=lines)
    except ParseError as exc:
        raise InvalidInput(f"{LABELS[field]}: {exc.message}", field) from None


def _number(field: str, value: Any) -> float | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    try:
        number = float(str(value).strip().replace(",", "."))
    except ValueError:
        raise InvalidInput(f"{LABELS[field]}: não é um número ({str(value)[:20]!r}).",
                           field) from None
    return number


def clean_fields(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of a record, checked one by one (what can be checked without the others:
    the UF/IBGE pair, the PIX trio and the overlap come after, in `check_record`)."""
    out: dict[str, Any] = {}
    for field, value in fields.items():
        if field in TEXTS:
            out[field] = _text(field, value)
        elif field == "uf":
            out[field] = check_uf(value)
        elif field == "ibge_code":
            out[field] = (value or "").strip()
        elif field == "pix_key":
            out[field] = check_pix_key(value)
        elif field == "open311_jurisdiction_id":
            value = (value or "").strip()
            if value and not JURISDICTION_RE.match(value):
                raise InvalidInput("Jurisdição Open311: use letras, números, ponto, hífen ou "
                                   "sublinhado (até 120).", field)
            out[field] = value
        elif field == "boundary":
            out[field] = clean_boundary(value)
        elif field in ("centre_lat", "centre_lon", "office_lat", "office_lon"):
            out[field] = _number(field, value)
        elif field == "radius_m":
            radius = _number(field, value)
            if radius is not None and not 100 <= radius <= 100_000:
                raise InvalidInput("Raio: entre 100 e 100.000 metros.", field)
            out[field] = radius
        elif field == "active":
            out[field] = bool(value)
        else:
            out[field] = value
    for lat, lon, what in (("centre_lat", "centre_lon", "centro"),
                           ("office_lat", "office_lon", "setor")):
        if lat in out or lon in out:
            a, b = out.get(lat), out.get(lon)
            if (a is None) != (b is None) or (a is not None and not valid_point(a, b)):
                raise InvalidInput(f"Ponto do {what}: informe latitude e longitude, em graus "
                                   "(ex.: -21,4843 e -51,5353).", lat)
    return out


def clean_boundary(value: Any) -> str | None:
    """A boundary file (text or bytes) as the GeoJSON geometry to keep; empty: none."""
    if value is None or (isinstance(value, (str, bytes)) and not value.strip()):
        return None
    try:
        return boundary_text(read_boundary(value))
    except BoundaryError as exc:
        raise InvalidInput(str(exc), "boundary") from None


def check_record(record: Mapping[str, Any], settings: Any) -> None:
    """The checks across fields of a whole record (the settings fill what it leaves empty):
    the IBGE code is of the record's state; a PIX key comes with the name and city the BR
    Code needs, and makes one (core.pix)."""
    check_ibge(record.get("ibge_code") or "", record.get("uf") or "")
    key = record.get("pix_key") or getattr(settings, "pix_key", "")
    name = record.get("pix_merchant_name") or getattr(settings, "pix_merchant_name", "")
    city = record.get("pix_merchant_city") or getattr(settings, "pix_merchant_city", "")
    if key or record.get("pix_merchant_name") or record.get("pix_merchant_city"):
        if not (key and name and city):
            raise InvalidInput("PIX: informe a chave, o nome do recebedor (até 25 caracteres) e "
                               "a cidade (até 15) — os três, ou nenhum.", "pix_key")
        try:
            static_brcode(key, name, city)
        except PixError as exc:
            raise InvalidInput(f"PIX: {exc}", "pix_key") from None


def open311_key_hash(key: str) -> str:
    """What is kept of a city's Open311 API key: its SHA-256 (the key itself never)."""
    value = (key or "").strip()
    if len(value) < MIN_OPEN311_KEY or len(value) > 200 or not value.isprintable():
        raise InvalidInput(f"Chave Open311: de {MIN_OPEN311_KEY} a 200 caracteres imprimíveis "
                           "(gere uma com `openssl rand -hex 24`).", "open311_key")
    return hashlib.sha256(value.encode()).hexdigest()
