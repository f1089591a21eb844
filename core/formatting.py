"""Brazilian formats for everything a person reads: dates dd/mm/aaaa, times in
America/Sao_Paulo, dates in full and money in reais (babel, pt_BR).

Datetimes must be timezone-aware: a naive datetime is ambiguous (UTC from the database? local
from a form?) and a wrong hour on a legal notice is worse than an error, so it raises.
"""
from __future__ import annotations

import re
from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

from babel.dates import format_date
from babel.numbers import format_currency

TZ = ZoneInfo("America/Sao_Paulo")
LOCALE = "pt_BR"

_DATE_BR = re.compile(r"^\s*(\d{1,2})\s*[/.-]\s*(\d{1,2})\s*[/.-]\s*(\d{4})\s*$")
#: Years a typed date may have: deadlines are computed from it, and a year like 9999 would
#: overflow that arithmetic (a crash instead of a clear answer).
YEARS = (1900, 2199)


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


def parse_date_br(text: str) -> date:
    """`10/12/2026` → date(2026, 12, 10). Also accepts `1/2/2026`, `10-12-2026`, `10.12.2026`.

    Raises ValueError with a message a citizen can act on.
    """
    m = _DATE_BR.match(text or "")
    if not m:
        raise ValueError(
            f"Data inválida: “{(text or '').strip()}”. Use o formato dd/mm/aaaa, "
            "por exemplo 10/12/2026."
        )
    day, month, year = (int(g) for g in m.groups())
    if not YEARS[0] <= year <= YEARS[1]:
        raise ValueError(f"Ano fora do intervalo aceito ({YEARS[0]} a {YEARS[1]}): confira "
                         "a data (formato dd/mm/aaaa).")
    try:
        return date(year, month, day)
    except ValueError:
        raise ValueError(
            f"A data {day:02d}/{month:02d}/{year} não existe. Confira o dia e o mês "
            "(formato dd/mm/aaaa)."
        ) from None
