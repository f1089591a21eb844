"""Vehicle and person identifiers: plates, RENAVAM, chassis (VIN); the CPF's LGPD mask.

Formats are described in docs/law/README.md ("Identifiers"). RENAVAM's check digit is
verified with the `validate-docbr` package (CPF/CNPJ are read by core.parsing.parse_cpf_cnpj).
Every error is an `InvalidIdentifier` (a core.parsing.ParseError, so a ValueError) whose
message is Portuguese a citizen understands, safe to show as is.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from validate_docbr import RENAVAM

from core.parse_error import ParseError

PlateKind = Literal["antiga", "mercosul"]

_OLD_PLATE = re.compile(r"^[A-Z]{3}\d{4}$")
_MERCOSUL_PLATE = re.compile(r"^[A-Z]{3}\d[A-Z]\d{2}$")
_SEPARATORS = re.compile(r"[\s\-.]+")

#: A VIN (ISO 3779, adopted in Brazil from 1988 on) has 17 characters and never I, O or Q.
VIN_LENGTH = 17
VIN_FORBIDDEN = frozenset("IOQ")
#: Shortest pre-VIN chassis number we accept (with a warning). Older Brazilian vehicles carry
#: manufacturer numbers of varying length (e.g. "BH123456"); below this it is surely a typo.
MIN_OLD_CHASSIS_LENGTH = 6


class InvalidIdentifier(ParseError):
    """An identifier the user typed is not valid; `message` (and str(error)) is Portuguese."""


@dataclass(frozen=True)
class Plate:
    value: str  # normalised: upper case, no separators ("ABC1234", "ABC1D23")
    kind: PlateKind

    def __str__(self) -> str:
        return format_plate(self)


@dataclass(frozen=True)
class Chassis:
    value: str  # normalised: upper case, no separators
    warnings: tuple[str, ...] = ()  # Portuguese, to show the person who typed it

    def __str__(self) -> str:
        return self.value


def _compact(s: str) -> str:
    return _SEPARATORS.sub("", s or "").upper()


def normalize_plate(s: str) -> Plate:
    """Old plate ABC1234 or Mercosul ABC1D23, after upper-casing and removing "-" and spaces."""
    value = _compact(s)
    if _OLD_PLATE.match(value):
        return Plate(value, "antiga")
    if _MERCOSUL_PLATE.match(value):
        return Plate(value, "mercosul")
    raise InvalidIdentifier("Placa inválida: use o formato ABC1234 ou ABC1D23.")


def format_plate(plate: Plate | str) -> str:
    """Display form: old plates as "ABC-1234", Mercosul plates as "ABC1D23"."""
    if not isinstance(plate, Plate):
        plate = normalize_plate(plate)
    if plate.kind == "antiga":
        return f"{plate.value[:3]}-{plate.value[3:]}"
    return plate.value


def validate_renavam(s: str) -> str:
    """Return the 11-digit RENAVAM. Old 9- and 10-digit numbers are left-padded with zeros
    (which does not change the check digit, since leading zeros weigh nothing)."""
    raw = _compact(s)
    if not raw.isdigit() or not 9 <= len(raw) <= 11:
        raise InvalidIdentifier("RENAVAM inválido: informe os 11 números do documento do veículo.")
    digits = raw.zfill(11)
    if not RENAVAM().validate(digits):
        raise InvalidIdentifier(
            "RENAVAM inválido: o dígito verificador não confere. Confira o número no documento do veículo."
        )
    return digits


def mask_cpf(s: str) -> str:
    """Display form that hides the identifying ends (LGPD): "***.456.789-**", for a CPF as
    stored (read by core.parsing.parse_cpf_cnpj)."""
    digits = re.sub(r"\D", "", s or "")
    if len(digits) != 11:
        raise InvalidIdentifier("CPF inválido: informe os 11 números, por exemplo 123.456.789-09.")
    return f"***.{digits[3:6]}.{digits[6:9]}-**"


def validate_chassis(s: str) -> Chassis:
    """A 17-character VIN without I, O or Q; shorter old numbers are accepted with a warning.

    - 17 characters containing I, O or Q: rejected (the VIN standard never uses them, so it is
      a typing error, usually 0 or 1).
    - Fewer than 17 (at least MIN_OLD_CHASSIS_LENGTH): accepted as a pre-1988 manufacturer
      number, with a warning to check it against the vehicle's document.
    - More than 17, or anything but letters and digits: rejected.
    """
    value = _compact(s)
    if not value.isascii() or not value.isalnum():
        raise InvalidIdentifier("Chassi inválido: use apenas letras e números, sem símbolos.")
    if len(value) > VIN_LENGTH:
        raise InvalidIdentifier("Chassi inválido: o número do chassi tem no máximo 17 caracteres.")
    if len(value) == VIN_LENGTH:
        bad = sorted(VIN_FORBIDDEN & set(value))
        if bad:
            raise InvalidIdentifier(
                "Chassi inválido: o chassi de 17 caracteres não usa as letras I, O e Q "
                f"(encontrado: {', '.join(bad)}). Confira se não é o número 1 ou 0."
            )
        return Chassis(value)
    if len(value) < MIN_OLD_CHASSIS_LENGTH:
        raise InvalidIdentifier("Chassi inválido: o número está curto demais. Confira no documento do veículo.")
    return Chassis(
        value,
        (
            f"Chassi com {len(value)} caracteres (o padrão atual tem 17): aceito como numeração "
            "antiga. Confira com o documento do veículo.",
        ),
    )


# -- the owner's case code (printed on every document and in the QR deep link) -----------------

#: Crockford's base 32 (no I, L, O, U): nothing a person can misread or mistype as another.
CASE_CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CASE_CODE_LENGTH = 8
#: Codes issued before the typable form: secrets.token_urlsafe(8), 11 case-sensitive
#: characters of [A-Za-z0-9_-]. They keep working, read exactly as printed.
_LEGACY_CASE_CODE = re.compile(r"^[A-Za-z0-9_-]{11}$")
_CROCKFORD_READS = str.maketrans({"O": "0", "I": "1", "L": "1"})
BAD_CASE_CODE = ("Esse não parece um código de caso. Ele tem 8 letras e números, como K7QM-42XD, "
                 "e está impresso no aviso deixado no objeto. Confira e envie de novo.")


def format_case_code(code: str) -> str:
    """The one printed form of a case code: "K7QM-42XD" (an old 11-character code as is).
    Documents, the QR deep link and every message show this."""
    code = code or ""
    if len(code) == CASE_CODE_LENGTH and all(c in CASE_CODE_ALPHABET for c in code):
        half = CASE_CODE_LENGTH // 2
        return f"{code[:half]}-{code[half:]}"
    return code


def case_code_keys(text: str | None) -> tuple[str, ...]:
    """The stored forms `text` may be, best first: the typable code read case-insensitively,
    without spaces, dashes or dots, with O read as 0 and I, L as 1 (Crockford); and an old
    11-character code exactly as typed. Empty when it can be neither."""
    raw = (text or "").strip()
    keys: list[str] = []
    compact = _SEPARATORS.sub("", raw).upper().translate(_CROCKFORD_READS)
    if len(compact) == CASE_CODE_LENGTH and all(c in CASE_CODE_ALPHABET for c in compact):
        keys.append(compact)
    if _LEGACY_CASE_CODE.match(raw) and raw not in keys:
        keys.append(raw)
    return tuple(keys)


def parse_case_code(text: str | None) -> str:
    """A typed or scanned case code as stored ("k7qm 42xd" → "K7QM42XD"; an old code as is),
    or InvalidIdentifier with a Portuguese message. Whether a case has it is the lookup's
    business (core.services.owners.access tries every form case_code_keys gives)."""
    keys = case_code_keys(text)
    if not keys:
        raise InvalidIdentifier(BAD_CASE_CODE)
    return keys[0]
