"""The dates the law sets for an object in the depot (Law.depot_terms: Dores Art. 6º, caput
and Art. 3º, caput; Dracena Art. 6º, §2º), counted once from the collection by the law's
calendar, for every channel that states them: the owner's view, the case page, the staff
queue and the papers (termo, auto). Reads only."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Mapping

from core.fees import to_local
from core.formatting import date_in_full, fmt_date
from core.laws.base import DepotTerm
from core.services.context import Core


@dataclass(frozen=True)
class StatedDate:
    """One law date of an object in the depot, as every channel states it."""

    code: str
    article: str
    due: date | None  # None: the term runs from a later act (stated without a date)
    due_in_full: str  # "segunda-feira, 21 de dezembro de 2026"; "" without a date
    explanation: str  # how it was counted (Lei 9.784/1999, art. 66), "" without a date
    owner_template: str
    staff_template: str
    staff_due: bool
    replaces: str

    @property
    def owner(self) -> str:
        """The owner's sentence, with the date as dd/mm/aaaa (chat, public page)."""
        return self.owner_template.format(date=fmt_date(self.due) if self.due else "")

    @property
    def paper(self) -> str:
        """The paper's sentence, with the date in full and as dd/mm/aaaa."""
        return self.owner_template.format(
            date=f"{self.due_in_full} ({fmt_date(self.due)})" if self.due else "")

    @property
    def staff(self) -> str:
        """Staff's line, with the date as dd/mm/aaaa and the article."""
        return f"{self.staff_template.format(date=fmt_date(self.due) if self.due else '')} " \
               f"({self.article})"


async def depot_dates(core: Core, category: str, facts: Mapping[str, Any],
                      collected: datetime | None) -> tuple[StatedDate, ...]:
    """The law's dates for a `category` object with `facts`, counted from the collection the
    facts record (Law.collected_at: the termo's and the lifecycle's start too), else from
    `collected` (the depot entry's registration)."""
    terms = core.law.terms_in_depot(category, facts)
    if not terms:
        return ()
    cal = await core.calendar()
    start = core.law.collected_at(facts) or collected
    return tuple(stated(cal, t, start) for t in terms)


def stated(cal: Any, t: DepotTerm, collected: datetime | None) -> StatedDate:
    """One term counted from `collected` on the law's calendar (no date without a count)."""
    if t.days is None or collected is None:
        return StatedDate(t.code, t.article, None, "", "", t.owner, t.staff, t.staff_due,
                          t.replaces)
    d = cal.count_days(to_local(collected), t.days, article=t.article, event="recolhimento")
    return StatedDate(t.code, t.article, d.due, date_in_full(d.due), d.explain(), t.owner,
                      t.staff, t.staff_due, t.replaces)


def restates(dates: tuple[StatedDate, ...], due: date | None) -> bool:
    """Whether one of `dates` states the deadline due on `due` (the running legal deadline),
    so the channel states it once, in the sentence that relates it to the others."""
    return due is not None and any(d.due == due for d in dates)


def without_restated(conditions: tuple[Any, ...], dates: tuple[StatedDate, ...]
                     ) -> tuple[Any, ...]:
    """The release conditions minus those a dated sentence already states (DepotTerm.replaces):
    each period is stated once."""
    stated = {d.replaces for d in dates if d.replaces}
    return tuple(c for c in conditions if getattr(c, "code", None) not in stated)
