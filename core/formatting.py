"""Brazilian formats for everything a person reads: dates dd/mm/aaaa, times in
America/Sao_Paulo, dates in full, money in reais and weights in kilograms (babel, pt_BR),
CPF/CNPJ with their masks. core.parsing reads back what these write.

Datetimes must be timezone-aware: a naive datetime is ambiguous (UTC from the database? local
from a form?) and a wrong hour on a legal notice is worse than an error, so it raises.
"""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any, Mapping
from zoneinfo import ZoneInfo

from babel.dates import format_date
from babel.numbers import format_currency, format_decimal
from validate_docbr import CNPJ, CPF

#: The city's time zone: the one place it is named (both laws' cities keep Brasília time).
TZ_NAME = "America/Sao_Paulo"
TZ = ZoneInfo(TZ_NAME)
LOCALE = "pt_BR"


def now() -> datetime:
    """The current moment, aware, in America/Sao_Paulo."""
    return datetime.now(TZ)


def to_local(dt: datetime) -> datetime:
    """An aware datetime converted to America/Sao_Paulo; naive datetimes raise ValueError."""
    if dt.tzinfo is None or dt.utcoffset() is None:
        raise ValueError(f"naive datetime {dt!r}: pass an aware datetime (tzinfo set)")
    return dt.astimezone(TZ)


def local_date(value: date | datetime) -> date:
    """The São Paulo calendar day of a date or an aware datetime."""
    if isinstance(value, datetime):
        return to_local(value).date()
    return value


def fmt_date(d: date | datetime) -> str:
    """`10/12/2026`. A datetime is first converted to São Paulo time."""
    return local_date(d).strftime("%d/%m/%Y")


def fmt_time(dt: datetime) -> str:
    """`14:30`, São Paulo time."""
    return to_local(dt).strftime("%H:%M")


def fmt_datetime(dt: datetime) -> str:
    """`10/12/2026 às 14:30`, São Paulo time."""
    local = to_local(dt)
    return f"{local:%d/%m/%Y} às {local:%H:%M}"


def weekday_name(d: date | datetime) -> str:
    """`quinta-feira`, `sábado`… (babel, pt_BR)."""
    return format_date(local_date(d), "EEEE", locale=LOCALE)


def date_in_full(d: date | datetime) -> str:
    """`quinta-feira, 10 de dezembro de 2026` (babel's pt_BR full date format)."""
    return format_date(local_date(d), "full", locale=LOCALE)


def fmt_money(value: Decimal | int) -> str:
    """`R$ 1.234,56` exactly as babel writes it (a no-break space, U+00A0, after `R$`).

    Money is Decimal: a float raises TypeError rather than print a rounding error.
    """
    if isinstance(value, float):
        raise TypeError("money must be Decimal, not float")
    return format_currency(Decimal(value), "BRL", locale=LOCALE)


def fmt_kilograms(value: Decimal | int) -> str:
    """`1.200,5 kg` (babel, pt_BR; up to three decimals, i.e. grams)."""
    if isinstance(value, float):
        raise TypeError("weight must be Decimal, not float")
    return f"{format_decimal(Decimal(value), '#,##0.###', locale=LOCALE)} kg"


def fmt_cpf_cnpj(value: str) -> str:
    """`123.456.789-09` for a CPF's 11 digits, `11.222.333/0001-81` for a CNPJ's 14."""
    return CNPJ().mask(value) if len(value) == 14 else CPF().mask(value)


def fmt_place(address: str | None, neighbourhood: str | None) -> str:
    """The address with its neighbourhood once (a geocoded address often already names it);
    "" when neither is known."""
    address, hood = (address or "").strip(), (neighbourhood or "").strip()
    if hood and hood.casefold() not in address.casefold():
        return f"{address} · {hood}" if address else hood
    return address


def citizen_said(report: Mapping[str, Any]) -> str:
    """The citizen's make and model, colour and time in place (case.details["report"]) as they
    wrote them, marked as still to be checked on the spot; "" when they said none."""
    parts = [f"{label}: {str(report[key]).strip()[:200]}" for key, label in (
        ("make_model", "marca/modelo"), ("colour", "cor"), ("time_there", "tempo no local"))
        if str(report.get(key) or "").strip()]
    return "Informado pelo cidadão (confira no local): " + "; ".join(parts) if parts else ""


def plural(n: int, one: str, many: str) -> str:
    """`1 parada`, `2 paradas`, `0 paradas`: the count and the word agreeing with it (Portuguese
    takes the singular for 1 only; 0 reads in the plural)."""
    return f"{n} {one if n == 1 else many}"
