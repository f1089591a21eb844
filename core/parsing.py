"""What a person types, read once: one parser per kind of fact, for the bot's step forms
(core.services.inspectors.step_forms) and the panel's forms (admin/forms.py and the panel's own pages).
core.formatting writes the same kinds; parsing what it writes gives the value back
(tests/unit/test_parsing.py checks it with hypothesis for every kind).

Each parser returns the value or raises `ParseError`, whose `message` is Portuguese that the
person can act on (it names the format and gives an example), safe to show as is.

Decisions where a Brazilian's typing is ambiguous:
- Money is read the Brazilian way by babel (pt_BR, strict): "." groups thousands, "," starts
  the centavos: "1.500,00", "1500,00", "1500", "R$ 1.500", "R$ 1.500,5" (= R$ 1.500,50).
  Anything babel cannot read unambiguously is refused with an example, never guessed:
  "1500.00" and "150.5" (a dot where the centavos' comma goes), "1.500.00", "1,500.00" (the
  American way), "1 500,00". It never multiplies by 100. Negative amounts, more than two
  decimal places and amounts the database cannot hold (Numeric(12, 2)) are refused; zero is a
  value (an auction balance may be R$ 0,00).
- Dates are dd/mm/aaaa; the day and month may have one digit ("1/12/2026") and "-" or "."
  may separate them. The year is required, with four digits: "01/12" near New Year and
  "01/12/26" are refused rather than guessed (a legal deadline counts from this date).
- Times are HH:MM (24 h); "14h30", "14h" and "9:05" are read too.
- A date and time is a date, a space (or " às ", as core.formatting writes it) and a time;
  the time is required (a moment without its hour would be recorded as midnight).
- CPF (11 digits) and CNPJ (14 characters; since 2026 the first 12 may be letters) are checked
  by validate-docbr; the value is the bare digits/letters, upper case.
- Plates are the old ABC-1234 or the Mercosul ABC1D23 (core.identifiers); the value is the
  normalised plate, written back as ABC-1234 / ABC1D23.
- Counts (animals) are whole numbers; weights are kilograms with up to three decimals and an
  optional "kg" ("12,5 kg"), read like money (babel pt_BR).
- Free text is trimmed, without NUL and other control characters (line breaks are kept when
  asked), and refused past its length limit.
"""
from __future__ import annotations

import re
from datetime import date, datetime, time, tzinfo
from decimal import Decimal

from babel.numbers import NumberFormatError, parse_decimal
from validate_docbr import CNPJ, CPF

from core import facts
from core.parse_error import ParseError

LOCALE = "pt_BR"
CENT = Decimal("0.01")
#: The largest amount a money column (Numeric(12, 2)) holds.
MAX_MONEY = Decimal("9999999999.99")
#: Years a typed date may have: deadlines are computed from it, and a year like 9999 would
#: overflow that arithmetic (a crash instead of a clear answer).
YEARS = (1900, 2199)
MAX_KILOGRAMS = Decimal("1000000")
MAX_COUNT = 100_000
DEFAULT_TEXT_LIMIT = 1000
LONG_TEXT_LIMIT = 4000

MONEY_EXAMPLE = "1.500,00"
DATE_EXAMPLE = "10/12/2026"
TIME_EXAMPLE = "14:30"
DATETIME_EXAMPLE = "10/12/2026 14:30"
CPF_EXAMPLE, CNPJ_EXAMPLE = "123.456.789-09", "11.222.333/0001-81"
PLATE_EXAMPLE = "ABC-1234 ou ABC1D23"

_NUMBER = re.compile(r"^[0-9][0-9.,]*$|^,[0-9]+$")
_CURRENCY = re.compile(r"^\s*(?:R\s*\$)?\s*", re.I)
_DOT_AS_COMMA = re.compile(r"^\d+\.\d{1,2}$")
_DATE = re.compile(r"^(\d{1,2})\s*[/.-]\s*(\d{1,2})\s*[/.-]\s*(\d+)$")
_TIME = re.compile(r"^(\d{1,2})\s*(?::|h)\s*(\d{2})?\s*(?:min)?$", re.I)
_DATETIME = re.compile(r"^(\S+)\s+(?:(?:às|as|a)\s+)?(.+)$", re.I)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_KG = re.compile(r"\s*(?:kg|quilos?|kilos?|quilogramas?)\.?\s*$", re.I)


def _shown(text: str) -> str:
    text = " ".join(_CONTROL.sub("", text or "").split())
    return text if len(text) <= 40 else text[:39] + "…"


def _decimal(text: str, what: str, example: str) -> Decimal:
    """A number as a Brazilian writes it (babel, pt_BR, strict), ASCII digits only."""
    raw = text.strip()
    refusal = (f"Não entendi {what} “{_shown(text)}”. Escreva só o número, como no Brasil: "
               f"ponto nos milhares e vírgula nos decimais, por exemplo {example}.")
    if not _NUMBER.match(raw):
        raise ParseError(refusal)
    try:
        return parse_decimal(raw, locale=LOCALE, strict=True)
    except NumberFormatError:
        if _DOT_AS_COMMA.match(raw):
            refusal += f" Para os decimais, use vírgula: {raw.replace('.', ',')}."
        raise ParseError(refusal) from None


# -- money --------------------------------------------------------------------------------

def parse_money(text: str) -> Decimal:
    """`"R$ 1.500,5"` → Decimal("1500.50"). See the module's docstring for what is refused."""
    raw = _CURRENCY.sub("", (text or "").replace("\u00a0", " "), count=1)
    if not raw.strip():
        raise ParseError(f"Informe o valor em reais, por exemplo {MONEY_EXAMPLE}.")
    if raw.strip().startswith("-"):
        raise ParseError(f"O valor não pode ser negativo. Informe, por exemplo, {MONEY_EXAMPLE}.")
    value = _decimal(raw, "o valor", MONEY_EXAMPLE)
    if value.as_tuple().exponent < -2:
        raise ParseError(f"Valor com mais de dois dígitos de centavos: “{_shown(text)}”. "
                         f"Use, por exemplo, {MONEY_EXAMPLE}.")
    if value > MAX_MONEY:
        raise ParseError(f"Valor alto demais: “{_shown(text)}”. Confira o número.")
    return value.quantize(CENT)


# -- dates and times ----------------------------------------------------------------------

def parse_date(text: str) -> date:
    """`10/12/2026` → date(2026, 12, 10); also `1/2/2026`, `10-12-2026`, `10.12.2026`."""
    m = _DATE.match((text or "").strip())
    if not m or len(m.group(3)) != 4:
        raise ParseError(f"Data inválida: “{_shown(text)}”. Use o formato dd/mm/aaaa, com o "
                         f"ano de quatro dígitos, por exemplo {DATE_EXAMPLE}.")
    day, month, year = (int(g) for g in m.groups())
    if not YEARS[0] <= year <= YEARS[1]:
        raise ParseError(f"Ano fora do intervalo aceito ({YEARS[0]} a {YEARS[1]}): confira a "
                         "data (formato dd/mm/aaaa).")
    try:
        return date(year, month, day)
    except ValueError:
        raise ParseError(f"A data {day:02d}/{month:02d}/{year} não existe. Confira o dia e o "
                         "mês (formato dd/mm/aaaa).") from None


def parse_time(text: str) -> time:
    """`14:30` → time(14, 30); also `14h30`, `14h`, `9:05`."""
    m = _TIME.match((text or "").strip())
    hour, minute = (int(m.group(1)), int(m.group(2) or 0)) if m else (-1, -1)
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        raise ParseError(f"Hora inválida: “{_shown(text)}”. Use o formato hh:mm (24 horas), "
                         f"por exemplo {TIME_EXAMPLE}.")
    return time(hour, minute)


def parse_datetime(text: str, tz: tzinfo) -> datetime:
    """`10/12/2026 14:30` (or `10/12/2026 às 14:30`) → an aware datetime in `tz`."""
    m = _DATETIME.match((text or "").strip())
    if not m:
        if _DATE.match((text or "").strip()):
            raise ParseError(f"Informe também a hora: dd/mm/aaaa hh:mm, por exemplo "
                             f"{DATETIME_EXAMPLE}.")
        raise ParseError(f"Data e hora inválidas: “{_shown(text)}”. Use dd/mm/aaaa hh:mm, "
                         f"por exemplo {DATETIME_EXAMPLE}.")
    day = parse_date(m.group(1))
    moment = parse_time(m.group(2))
    return datetime.combine(day, moment, tzinfo=tz)


# -- documents and plates -----------------------------------------------------------------

def parse_cpf_cnpj(text: str) -> str:
    """A CPF (11 digits) or CNPJ (14: twelve letters or digits and two check digits), check
    digits verified by validate-docbr; the value is bare and upper case."""
    raw = re.sub(r"[\s./-]", "", (text or "")).upper()
    if len(raw) == 11 and raw.isdigit():
        if CPF().validate(raw):
            return raw
        raise ParseError("CPF inválido: os dígitos verificadores não conferem. Confira o "
                         f"número (11 números, por exemplo {CPF_EXAMPLE}).")
    if len(raw) == 14 and raw.isascii() and raw.isalnum() and raw[12:].isdigit():
        if CNPJ().validate(raw):
            return raw
        raise ParseError("CNPJ inválido: os dígitos verificadores não conferem. Confira o "
                         f"número (14 caracteres, por exemplo {CNPJ_EXAMPLE}).")
    raise ParseError(f"CPF/CNPJ inválido: informe os 11 números do CPF (por exemplo "
                     f"{CPF_EXAMPLE}) ou os 14 do CNPJ (por exemplo {CNPJ_EXAMPLE}).")


def parse_plate(text: str):
    """Old `ABC-1234` or Mercosul `ABC1D23` (any case, with or without "-" or spaces) → the
    normalised core.identifiers.Plate (whose InvalidIdentifier is a ParseError)."""
    from core.identifiers import normalize_plate  # it imports ParseError from here

    return normalize_plate(text)


# -- contacts -----------------------------------------------------------------------------

PHONE_EXAMPLE, EMAIL_EXAMPLE = "(37) 99999-1234", "nome@exemplo.com.br"
_EMAIL = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$")


def parse_phone(text: str) -> str:
    """A Brazilian phone with its area code (DDD): 10 digits (landline) or 11 (mobile, a 9
    after the DDD), "+55" optional, any spaces, dots, dashes or brackets → "(DD) NNNNN-NNNN"."""
    raw = re.sub(r"[\s().-]", "", text or "")
    if raw.startswith("+55"):
        raw = raw[3:]
    elif raw.startswith("0") and len(raw) in (11, 12):  # 0 DDD, dialled from another city
        raw = raw[1:]
    ok = raw.isascii() and raw.isdigit() and raw[:1] != "0" and (
        len(raw) == 10 or (len(raw) == 11 and raw[2] == "9"))
    if not ok:
        raise ParseError(f"Telefone inválido: informe o DDD e o número, por exemplo "
                         f"{PHONE_EXAMPLE}.")
    return f"({raw[:2]}) {raw[2:-4]}-{raw[-4:]}"


def parse_email(text: str) -> str:
    """An e-mail address (name@domain.tld, at most 200 characters), as typed."""
    raw = (text or "").strip()
    if len(raw) > 200 or not _EMAIL.match(raw):
        raise ParseError(f"E-mail inválido: informe um endereço como {EMAIL_EXAMPLE}.")
    return raw


# -- quantities ---------------------------------------------------------------------------

def parse_count(text: str) -> int:
    """A whole number of things (e.g. animals): `3`, `1.200`."""
    raw = (text or "").strip()
    if raw.startswith("-"):
        raise ParseError("A quantidade não pode ser negativa.")
    value = _decimal(raw, "a quantidade", "3")
    if value != value.to_integral_value():
        raise ParseError(f"Informe um número inteiro, sem vírgula: “{_shown(text)}”.")
    if value > MAX_COUNT:
        raise ParseError(f"Quantidade alta demais: “{_shown(text)}”. Confira o número.")
    return int(value)


def parse_kilograms(text: str) -> Decimal:
    """A weight in kilograms: `12,5`, `12,5 kg`, `1.200 kg` → Decimal (up to grams)."""
    raw = _KG.sub("", (text or "").strip())
    if raw.startswith("-"):
        raise ParseError("O peso não pode ser negativo.")
    value = _decimal(raw, "o peso", "12,5 kg")
    if value.as_tuple().exponent < -3:
        raise ParseError(f"Peso com mais de três casas decimais: “{_shown(text)}”. "
                         "Use, por exemplo, 12,5 kg.")
    if value > MAX_KILOGRAMS:
        raise ParseError(f"Peso alto demais: “{_shown(text)}”. Confira o número.")
    return value


# -- free text ----------------------------------------------------------------------------

def parse_text(text: str, limit: int = DEFAULT_TEXT_LIMIT, *, lines: bool = False) -> str:
    """Trimmed text without NUL or other control characters; spaces collapsed (and, unless
    `lines`, line breaks too). Empty text and text over `limit` characters are refused."""
    raw = _CONTROL.sub("", (text or "").replace("\r\n", "\n").replace("\r", "\n"))
    if lines:
        kept = [" ".join(line.split()) for line in raw.split("\n")]
        value = "\n".join(kept).strip("\n ")
        value = re.sub(r"\n{3,}", "\n\n", value)
    else:
        value = " ".join(raw.split())
    if not value:
        raise ParseError("Escreva o texto pedido.")
    if len(value) > limit:
        raise ParseError(f"Texto longo demais ({len(value)} caracteres; máximo de {limit}).")
    return value


# -- a lifecycle fact, by its kind --------------------------------------------------------

def read_fact(kind: str, text: str, tz: tzinfo, limit: int | None = None) -> object:
    """Typed text as the value a lifecycle fact of `kind` (core.facts) keeps in the case's
    timeline (JSON): a date or moment in ISO 8601, money as "1500.00", a weight as "12.5",
    a CPF/CNPJ and a plate bare. The bot's step forms and the panel's forms both read facts
    here; kinds with their own widgets (photos, toggles, lists) are read by the face."""
    if kind == facts.DATE:
        return parse_date(text).isoformat()
    if kind == facts.DATETIME:
        return parse_datetime(text, tz).isoformat()
    if kind == facts.MONEY:
        return str(parse_money(text))
    if kind == facts.CPF:
        return parse_cpf_cnpj(text)
    if kind == facts.PLATE:
        return parse_plate(text).value
    if kind == facts.COUNT:
        return parse_count(text)
    if kind == facts.WEIGHT:
        return str(parse_kilograms(text))
    long = kind == facts.LONG
    return parse_text(text, limit or (LONG_TEXT_LIMIT if long else DEFAULT_TEXT_LIMIT),
                      lines=long)
