"""Generic fee engine: dated tariffs, storage days, statements and paying debts in order.

Fee values are data with a valid-from date (a `TariffBook`), never constants: each city sets
them by its own act (Dores do Indaiá Art. 9º, II; Dracena Art. 7º). Every amount is a Decimal
in BRL, rounded to the cent with ROUND_HALF_UP. Pure functions, no I/O.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from itertools import groupby
from typing import Iterable, Literal, NamedTuple, Sequence

from core.formatting import TZ

CENT = Decimal("0.01")
CHARGING_CURRENCY = "BRL"  # 1951 cruzeiro values ("CRZ") are history, never charged

#: CTB art. 328 §5º: storage charges are limited to 6 months. Default cap, in days; a setting
#: the city may change (pass cap_days=None for no cap, e.g. goods outside the CTB).
DEFAULT_STORAGE_CAP_DAYS = 180

Counting = Literal["started_day", "full_day"]


def money(value: Decimal | int | str) -> Decimal:
    """Quantize to the cent, ROUND_HALF_UP (never float)."""
    return Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)


def br_date(day: date) -> str:
    return day.strftime("%d/%m/%Y")


class TariffNotFound(LookupError):
    """No BRL value is in force for a fee on a day; the message is Portuguese, for staff."""


@dataclass(frozen=True)
class TariffSeed:
    """A dated fee value as the law or the city set it (fees are data, not constants)."""

    code: str  # e.g. "towing", "daily_storage", "animal_day", "goods_kg_day"
    label: str  # Portuguese
    amount: Decimal
    currency: str  # "BRL", or "CRZ" for the 1951 cruzeiro history
    valid_from: date
    unit: str  # "fixed", "day", "animal_day", "kg_day"
    article: str
    source: str  # the act that set the value
    #: A reference value still to be confirmed by the city (Dores Art. 9º, II; Dracena
    #: Art. 7º): never printed as a firm amount (core.services.papers.placeholders).
    placeholder: bool = False


@dataclass(frozen=True)
class Tariff:
    code: str
    label: str  # Portuguese
    amount: Decimal
    currency: str
    unit: str  # "fixed", "day", "animal_day", "kg_day"
    valid_from: date
    article: str
    source: str

    @classmethod
    def of(cls, t: "Tariff | TariffSeed") -> Tariff:
        if isinstance(t, Tariff):
            return t
        return cls(t.code, t.label, Decimal(t.amount), t.currency, t.unit, t.valid_from, t.article, t.source)


class TariffBook:
    """All dated values of every fee. A new value never rewrites the days before it."""

    def __init__(self, tariffs: "Iterable[Tariff | TariffSeed]"):
        self._tariffs = sorted((Tariff.of(t) for t in tariffs), key=lambda t: (t.code, t.valid_from))
        seen: set[tuple[str, str, date]] = set()
        for t in self._tariffs:
            key = (t.code, t.currency, t.valid_from)
            if key in seen:
                raise ValueError(f"Two values for {t.code} ({t.currency}) from {t.valid_from}")
            seen.add(key)

    def value_at(self, code: str, day: date) -> Tariff:
        """The BRL entry for `code` with the latest valid_from on or before `day`."""
        if isinstance(day, datetime):
            day = to_local(day).date()
        valid = [t for t in self._tariffs
                 if t.code == code and t.currency == CHARGING_CURRENCY and t.valid_from <= day]
        if not valid:
            known = [t for t in self._tariffs if t.code == code]
            name = known[0].label if known else code
            raise TariffNotFound(
                f"Não há valor em reais vigente para \"{name}\" em {br_date(day)}: "
                "a Prefeitura precisa cadastrar o valor antes de emitir a cobrança."
            )
        return valid[-1]

    def history(self, code: str) -> list[Tariff]:
        """Every value ever set for `code` (all currencies), oldest first."""
        return [t for t in self._tariffs if t.code == code]

    def codes(self) -> list[str]:
        return sorted({t.code for t in self._tariffs})


@dataclass(frozen=True)
class FeeLine:
    label: str  # Portuguese
    article: str
    quantity: Decimal
    unit_value: Decimal
    tariff_valid_from: date | None  # None for amounts not from the tariff book (fine, taxes)
    amount: Decimal
    code: str = ""  # the tariff's code ("towing", "daily_storage", ...); "" for given amounts


@dataclass(frozen=True)
class Statement:
    lines: tuple[FeeLine, ...]
    total: Decimal
    as_of: datetime

    @classmethod
    def of(cls, lines: Iterable[FeeLine], as_of: datetime) -> Statement:
        lines = tuple(lines)
        return cls(lines, money(sum((l.amount for l in lines), Decimal(0))), as_of)


def fixed_line(label: str, article: str, amount: Decimal) -> FeeLine:
    """A line whose value is given (a fine, taxes), not taken from the tariff book."""
    amount = money(amount)
    if amount < 0:
        raise ValueError(f"Negative amount for {label!r}")
    return FeeLine(label, article, Decimal(1), amount, None, amount)


def tariff_line(tariff: Tariff, quantity: Decimal | int = 1, label: str | None = None) -> FeeLine:
    quantity = Decimal(quantity)
    return FeeLine(label or tariff.label, tariff.article, quantity, tariff.amount,
                   tariff.valid_from, money(quantity * tariff.amount), tariff.code)


# --- storage days --------------------------------------------------------------------------

def to_local(moment: datetime) -> datetime:
    """Naive datetimes are local time in America/Sao_Paulo."""
    return moment.replace(tzinfo=TZ) if moment.tzinfo is None else moment.astimezone(TZ)


def storage_days(entered: datetime, as_of: datetime, *, counting: Counting = "started_day",
                 cap_days: int | None = DEFAULT_STORAGE_CAP_DAYS) -> tuple[date, ...]:
    """The days charged for a stay in the depot, one date per charged day.

    Days are 24-hour periods counted from the moment of entry (no daylight saving in
    America/Sao_Paulo since 2019, so a period is also a clock day). Each charged period is
    represented by the local date on which it starts; the fee for it is the tariff valid on
    that date, so a new tariff only applies to periods starting on or after its valid_from.

    counting="started_day": every started period is charged ("por dia ou fração"):
        entry 10/01 14:00, release 11/01 09:00 → 1 day; release 11/01 15:00 → 2 days.
    counting="full_day": only complete 24-hour periods are charged:
        entry 10/01 14:00, release 11/01 15:00 → 1 day; release 11/01 09:00 → 0 days.

    cap_days: at most this many days are charged (the first ones); CTB art. 328 §5º limits
    storage charges to 6 months → DEFAULT_STORAGE_CAP_DAYS = 180. None means no cap.
    """
    start, end = to_local(entered), to_local(as_of)
    if end < start:
        raise ValueError("as_of is before the entry into the depot")
    if counting not in ("started_day", "full_day"):
        raise ValueError(f"Unknown counting mode {counting!r}")
    elapsed = end - start
    full, rest = divmod(elapsed, timedelta(days=1))
    n = full + (1 if counting == "started_day" and rest else 0)
    if cap_days is not None:
        n = min(n, cap_days)
    return tuple((start + timedelta(days=k)).date() for k in range(n))


def storage_lines(book: TariffBook, code: str, days: Sequence[date], *,
                  per_day: Decimal | int = 1, what: str = "") -> list[FeeLine]:
    """One line per tariff period: each day is charged at the value in force ON THAT DAY.

    per_day multiplies the quantity (animals, kilograms); `what` is a Portuguese note added to
    the label (e.g. "3 animais").
    """
    per_day = Decimal(per_day)
    lines: list[FeeLine] = []
    if per_day == 0:
        return lines
    for tariff, group in groupby(days, key=lambda d: book.value_at(code, d)):
        group = list(group)
        span = br_date(group[0]) if len(group) == 1 else f"{br_date(group[0])} a {br_date(group[-1])}"
        n = len(group)
        detail = f"{n} dia" + ("s" if n != 1 else "")
        if what:
            detail = f"{what} × {detail}"
        label = f"{tariff.label} — {detail} ({span})"
        lines.append(tariff_line(tariff, per_day * n, label))
    return lines


# --- auction proceeds ----------------------------------------------------------------------

class Share(NamedTuple):
    recipient: str  # Portuguese
    amount: Decimal


def pay_in_order(available: Decimal, debts: Sequence[tuple[str, Decimal]]
                 ) -> tuple[list[Share], Decimal]:
    """Pay `debts` (recipient, amount) in order out of `available`, each as far as it goes;
    the shares and what is left (never negative). Each law orders its own debts
    (core/laws/<slug>/fees.py)."""
    shares = []
    for recipient, owed in debts:
        owed = money(owed)
        if owed < 0:
            raise ValueError(f"Negative amount for {recipient!r}")
        paid = min(owed, available)
        available -= paid
        shares.append(Share(recipient, paid))
    return shares, available
