"""The legal calendar: which days have office hours, and when a deadline falls due.

Counting rules (docs/law/README.md "Counting deadlines"):

- Lei 9.784/1999 Art. 66: "Os prazos começam a correr a partir da data da cientificação
  oficial, excluindo-se da contagem o dia do começo e incluindo-se o do vencimento."
  `count_days`: the start day is excluded and the due day included.
- Lei 9.784/1999 Art. 66, §1º: "Considera-se prorrogado o prazo até o primeiro dia útil seguinte
  se o vencimento cair em dia em que não houver expediente ou este for encerrado antes da hora
  normal." A due day without office hours moves forward, as many days as needed; a day whose
  office closes before `office_close` (a `Closure` with `closes_at`) counts as one.
- Lei 9.784/1999 Art. 66, §2º: "Os prazos expressos em dias contam-se de modo contínuo."
  Weekends and holidays inside the period count; only the due day is moved. The count starts the
  day after the notice even when that day is a holiday (the text; no CPC-style postponement).
- Código Civil Art. 132, §4º: "Os prazos fixados por hora contar-se-ão de minuto a minuto."
  `count_hours`: exact instants; one ending on a day without office hours moves to the next
  business day (Art. 66, §1º by analogy).

Setting `hours_end_of_day` (the law leaves it open, docs/law/README.md): when an hours deadline is
moved to the next business day, False (default) keeps the clock time it would have ended at
(48 h from Friday 10:00 → Monday 10:00); True gives the whole of that day (Monday 23:59:59).
An hours deadline ending exactly at 00:00 ends with the previous day; if moved, it runs to the
end of the business day in both settings (a 00:00 clock time would give no office hours).
Trade-offs: with the same clock time, a deadline ending at 03:00 on a Sunday is moved to 03:00 on
Monday, before the office opens; with the end of day, the due day is monotone in the start but the
instant is not (ending on a holiday at 01:00 gives until 23:59:59 of the next day, while starting
a day later ends at 01:00 on that business day, unextended).

Days without office hours: Saturdays, Sundays, national and state holidays from the `holidays`
package (always asked in pt_BR), recurring municipal holidays (core.laws.base.MunicipalHoliday,
valid from a date) and `Closure`s the city's staff register (one-off municipal holidays and
decreed closures — pontos facultativos).

Carnival: in the `holidays` package Carnaval (Monday and Tuesday) and Quarta-feira de Cinzas
are not public holidays but "optional" days — pontos facultativos, which is also their legal
status for the federal administration and most municipalities. They are therefore business
days unless the city decrees a closure: register them as `Closure(kind="decreed_closure")`;
`suggested_closures(year)` lists the package's optional days for staff to confirm. A ponto
facultativo that only delays the opening (Cinzas "até as 14h") is not an early closing and does
not move a deadline.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import Iterable, Literal
from zoneinfo import ZoneInfo

import holidays

from core.formatting import TZ_NAME, fmt_date, fmt_datetime, weekday_name
from core.laws.base import Law, MunicipalHoliday

ClosureKind = Literal["municipal_holiday", "decreed_closure"]
CLOSURE_KINDS = ("municipal_holiday", "decreed_closure")
END_OF_DAY = time(23, 59, 59)
RULE_DAYS = "Lei 9.784/1999, art. 66"
RULE_HOURS = "Código Civil, art. 132, § 4º"
_MAX_ROLL = 366  # a calendar with more consecutive closed days is a data error


@dataclass(frozen=True)
class Closure:
    """A one-off day without office hours, registered by the city's staff.

    `closes_at`: the office closes early that day (Lei 9.784/1999 Art. 66, §1º "ou este for
    encerrado antes da hora normal"); None means closed all day.
    """

    day: date
    name: str  # Portuguese, e.g. "Véspera de Natal"
    kind: ClosureKind
    source: str = ""  # the decree or law, e.g. "Decreto nº 123/2026"
    closes_at: time | None = None

    def __post_init__(self) -> None:
        if self.kind not in CLOSURE_KINDS:
            raise ValueError(f"Closure kind must be one of {CLOSURE_KINDS}, got {self.kind!r}")


@dataclass(frozen=True)
class Deadline:
    """A counted deadline with everything needed to show and justify it."""

    event: str  # Portuguese: what it counts from, e.g. "notificação do proprietário"
    start: date | datetime
    plain_due: date  # the day the plain count reaches
    due: date  # after Art. 66 §1º
    due_at: datetime  # aware; the last instant of the deadline
    amount: int
    unit: Literal["days", "hours"]
    article: str  # the municipal law's article, e.g. "Art. 4º, I"
    rule: str  # the counting rule, e.g. "Lei 9.784/1999, art. 66"
    skipped: tuple[tuple[date, str], ...] = ()  # days skipped at the end, and why
    plain_due_at: datetime | None = None  # hours: the exact instant before any extension
    end_of_day: bool = False  # hours: an extended deadline runs to the end of the day

    @property
    def extended(self) -> bool:
        return bool(self.skipped)

    @property
    def label(self) -> str:
        """`10 dias`, `1 dia`, `48 horas`."""
        word = {"days": ("dia", "dias"), "hours": ("hora", "horas")}[self.unit]
        return f"{self.amount} {word[0] if self.amount == 1 else word[1]}"

    def is_lapsed(self, at: datetime) -> bool:
        """True once `at` (aware) is past the last instant of the deadline."""
        if at.tzinfo is None:
            raise ValueError("is_lapsed needs an aware datetime")
        return at > self.due_at

    def days_left(self, today: date) -> int:
        """Calendar days from `today` to the due day: 0 on the due day, negative after."""
        return (self.due - today).days

    def explain(self) -> str:
        """A Portuguese paragraph a citizen can read: the count, the due day and why it moved."""
        event = f" ({self.event})" if self.event else ""
        due_day = f"{weekday_name(self.due)}, {fmt_date(self.due)}"
        if self.unit == "days":
            text = (
                f"Prazo de {self.label} ({self.article}), contado de {fmt_date(self.start)}"
                f"{event}, excluído o dia do início e incluído o do vencimento ({self.rule}): "
                f"vence em {due_day}, até as 23:59."
            )
            plain = f"A contagem terminaria em {fmt_date(self.plain_due)}"
            until = "até o primeiro dia útil seguinte"
        else:
            assert isinstance(self.start, datetime) and self.plain_due_at is not None
            if self.extended and (self.end_of_day or self.due_at.time() == END_OF_DAY):
                ends = "até as 23:59"
                until = "até o fim do primeiro dia útil seguinte"
            else:
                ends = f"às {self.due_at:%H:%M}"
                until = "até o primeiro dia útil seguinte, no mesmo horário"
            text = (
                f"Prazo de {self.label} ({self.article}), contado minuto a minuto ({self.rule}) "
                f"a partir de {fmt_datetime(self.start)}{event}: vence em {due_day}, {ends}."
            )
            plain = f"As {self.label} terminariam em {fmt_datetime(self.plain_due_at)}"
        if not self.extended:
            return text
        reasons = _join_pt([why_sentence(d, why) for d, why in self.skipped])
        return (
            f"{text} {plain}, mas o prazo foi prorrogado {until} "
            f"(Lei 9.784/1999, art. 66, § 1º) porque {reasons}."
        )


def why_sentence(d: date, why: str) -> str:
    """`25/12/2026 é feriado nacional (Natal)` from a non_business_reason."""
    kind, _, name = why.partition(": ")
    verb = "tem" if kind.startswith("expediente") else "é"
    return f"{fmt_date(d)} {verb} {kind} ({name})" if name else f"{fmt_date(d)} {verb} {kind}"


def _join_pt(items: list[str]) -> str:
    """`a`, `a e b`, `a; b e c` (semicolons: holiday names may hold commas)."""
    return items[0] if len(items) == 1 else "; ".join(items[:-1]) + " e " + items[-1]


class LegalCalendar:
    """Business days for one municipality (state `uf`) and deadline counting."""

    def __init__(
        self,
        uf: str,
        municipal_holidays: Iterable[MunicipalHoliday] = (),
        closures: Iterable[Closure] = (),
        tz: str = TZ_NAME,
        hours_end_of_day: bool = False,
        office_close: time = time(17, 0),
    ) -> None:
        self.uf = uf.upper()
        self.tz = ZoneInfo(tz)
        self.hours_end_of_day = hours_end_of_day
        self.office_close = office_close
        self.municipal_holidays = tuple(municipal_holidays)
        self._closures: dict[date, list[Closure]] = {}
        for c in closures:
            self._closures.setdefault(c.day, []).append(c)
        self._years: dict[int, tuple[dict[date, str], dict[date, str], dict[date, str]]] = {}
        self._year(date.today().year)  # fail early on an unknown state

    @classmethod
    def for_law(cls, law: Law, closures: Iterable[Closure] = (), **kwargs) -> "LegalCalendar":
        """The calendar of a law's municipality: its state and its recurring holidays."""
        return cls(law.uf, law.municipal_holidays, closures, **kwargs)

    # -- which days have office hours ------------------------------------------------------

    def _year(self, year: int) -> tuple[dict[date, str], dict[date, str], dict[date, str]]:
        """(national, state-only, recurring municipal) holidays of a year, cached."""
        if year not in self._years:
            national = holidays.country_holidays("BR", language="pt_BR", years=year)
            try:
                state = holidays.country_holidays(
                    "BR", subdiv=self.uf, language="pt_BR", years=year
                )
            except NotImplementedError:
                raise ValueError(f"Unknown Brazilian state (UF): {self.uf!r}") from None
            municipal: dict[date, str] = {}
            for h in self.municipal_holidays:
                try:
                    day = date(year, h.month, h.day)
                except ValueError:  # 29/02 in a common year
                    continue
                if day >= h.valid_from:  # a holiday never applies before the act creating it
                    municipal[day] = f"{municipal[day]}; {h.name}" if day in municipal else h.name
            self._years[year] = (
                dict(national.items()),
                {d: n for d, n in state.items() if d not in national},
                municipal,
            )
        return self._years[year]

    def non_business_reason(self, d: date) -> str | None:
        """Why `d` has no (full) office hours, in Portuguese, or None for a business day."""
        national, state, municipal = self._year(d.year)
        if d in national:
            return f"feriado nacional: {national[d]}"
        if d in state:
            return f"feriado estadual: {state[d]}"
        if d in municipal:
            return f"feriado municipal: {municipal[d]}"
        for c in self._closures.get(d, ()):
            if c.closes_at is not None:
                if c.closes_at < self.office_close:
                    return (
                        f"expediente encerrado às {c.closes_at:%H:%M}, antes do horário "
                        f"normal: {c.name}"
                    )
            elif c.kind == "municipal_holiday":
                return f"feriado municipal: {c.name}"
            else:
                return f"ponto facultativo decretado: {c.name}"
        if d.weekday() == 5:
            return "sábado"
        if d.weekday() == 6:
            return "domingo"
        return None

    def is_business_day(self, d: date) -> bool:
        return self.non_business_reason(d) is None

    def next_business_day(self, d: date) -> date:
        """The first business day strictly after `d` ("primeiro dia útil seguinte")."""
        return self._roll(d + timedelta(days=1))[0]

    def suggested_closures(self, year: int) -> tuple[Closure, ...]:
        """The package's pontos facultativos (Carnaval, Cinzas, Corpus Christi, vésperas…)
        for the year, as decreed closures for staff to confirm; none applies until registered."""
        optional = holidays.country_holidays(
            "BR", subdiv=self.uf, language="pt_BR", years=year, categories=("optional",)
        )
        national, state, _ = self._year(year)
        return tuple(
            Closure(d, name, "decreed_closure", "ponto facultativo usual (sugestão; depende de decreto)")
            for d, name in sorted(optional.items())
            if d not in national and d not in state
        )

    def _roll(self, d: date) -> tuple[date, tuple[tuple[date, str], ...]]:
        """Art. 66, §1º: from `d`, forward to the first business day; the days passed, why."""
        skipped: list[tuple[date, str]] = []
        while (why := self.non_business_reason(d)) is not None:
            skipped.append((d, why))
            if len(skipped) > _MAX_ROLL:
                raise ValueError(f"no business day within a year after {d:%d/%m/%Y}")
            d += timedelta(days=1)
        return d, tuple(skipped)

    # -- deadlines ---------------------------------------------------------------------------

    def _local_day(self, value: date | datetime) -> date:
        if isinstance(value, datetime):
            if value.tzinfo is None or value.utcoffset() is None:
                raise ValueError("a deadline's start datetime must be timezone-aware")
            return value.astimezone(self.tz).date()
        return value

    def count_days(
        self, start: date | datetime, days: int, *, article: str, event: str
    ) -> Deadline:
        """Lei 9.784/1999 Art. 66: from the official notice on `start` (a date, or an aware
        datetime taken as its São Paulo day), the start day excluded, the due day included,
        days running continuously (§2º); a due day without office hours moves to the next
        business day (§1º)."""
        if days < 1:
            raise ValueError("a deadline in days needs at least 1 day")
        plain = self._local_day(start) + timedelta(days=days)
        due, skipped = self._roll(plain)
        return Deadline(
            event=event,
            start=start,
            plain_due=plain,
            due=due,
            due_at=datetime.combine(due, END_OF_DAY, self.tz),
            amount=days,
            unit="days",
            article=article,
            rule=RULE_DAYS,
            skipped=skipped,
        )

    def count_hours(self, start: datetime, hours: int, *, article: str, event: str) -> Deadline:
        """Código Civil Art. 132, §4º: minute to minute from the aware `start`; ending on a day
        without office hours, it moves to the next business day (Lei 9.784/1999 Art. 66, §1º),
        at the same clock time or at the end of that day per `hours_end_of_day`."""
        if not isinstance(start, datetime):
            raise TypeError("a deadline in hours starts at a datetime")
        if hours < 1:
            raise ValueError("a deadline in hours needs at least 1 hour")
        self._local_day(start)  # rejects naive datetimes
        plain_at = (start.astimezone(timezone.utc) + timedelta(hours=hours)).astimezone(self.tz)
        at_midnight = plain_at.time() == time(0, 0)
        # Ending at 00:00 is ending with the previous day (its 24:00).
        plain_day = plain_at.date() - timedelta(days=1) if at_midnight else plain_at.date()
        due, skipped = self._roll(plain_day)
        if not skipped:
            due_at = plain_at
        elif self.hours_end_of_day or at_midnight:
            due_at = datetime.combine(due, END_OF_DAY, self.tz)
        else:
            due_at = datetime.combine(due, plain_at.time(), self.tz)
        return Deadline(
            event=event,
            start=start,
            plain_due=plain_day,
            due=due,
            due_at=due_at,
            amount=hours,
            unit="hours",
            article=article,
            rule=RULE_HOURS,
            skipped=skipped,
            plain_due_at=plain_at,
            end_of_day=self.hours_end_of_day,
        )
