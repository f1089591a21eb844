"""The one fee statement: what is owed to take an object back, line by line, for the owner's
view, the panel (case page, depot, auction split), the documents and the CSV.

The law decides the lines, quantities, counting and cap (Law.fee_statement: Dores Art. 3º,
§3º, II; Dracena Art. 7º) over the case's facts, named once in core.facts. Storage counts
from the collection (Dores Art. 3º, caput: "contado da data de recolhimento"; CTB art. 328):
the collection fact the depot entry or apprehension recorded (Law.collection_facts), else the
moment the depot entry was registered.
"""
from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Sequence

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core.fees import Share, Statement, TariffNotFound, to_local
from core.lifecycle import Lifecycle
from core.services.cases.transitions import case_facts
from core.services.context import Core
from core.storage.models import Case, Event


def depot_entry(events: Sequence[Event], lifecycle: Lifecycle) -> datetime | None:
    """When the depot entry was registered: the last event that moved the case into a depot
    state from outside the depot."""
    entered = None
    for ev in events:
        to, frm = (ev.data or {}).get("to"), (ev.data or {}).get("from")
        if to in lifecycle.states and lifecycle.states[to].in_depot and not (
                frm in lifecycle.states and lifecycle.states[frm].in_depot):
            entered = ev.at
    return entered


def collected_at(core: Core, case: Case, registered: datetime | None) -> datetime | None:
    """When the object was collected: the law's collection fact, else `registered` (the depot
    entry's registration); never after the registration (an object is collected before it is
    entered). Always timezone-aware (naive values are local time)."""
    moment = core.for_case(case).law.collected_at(case_facts(case))
    if moment is None:
        return to_local(registered) if registered is not None else None
    moment = to_local(moment)
    return min(moment, registered) if registered is not None else moment


async def depot_entries(s: AsyncSession, core: Core, cases: Sequence[Case]
                        ) -> dict[int, datetime]:
    """depot_entry() of many cases in one query."""
    if not cases:
        return {}
    events: dict[int, list[Event]] = {c.id: [] for c in cases}
    rows = (await s.execute(select(Event).where(Event.case_id.in_(list(events)))
                            .order_by(Event.case_id, Event.seq))).scalars().all()
    for ev in rows:
        events[ev.case_id].append(ev)
    out = {}
    for c in cases:
        at = depot_entry(events[c.id], core.for_case(c).law.tracks[c.track])
        if at is not None:
            out[c.id] = at
    return out


async def case_statement(core: Core, case: Case, collected: datetime,
                         as_of: datetime) -> Statement:
    """What is owed at `as_of` for `case`, collected at `collected` (the law's statement, over
    the tariff book of the case's own city)."""
    core = core.for_case(case)
    return core.law.statement(await core.tariff_book(), case_facts(case), collected, as_of)


async def statement_or_error(core: Core, case: Case, collected: datetime | None,
                             as_of: datetime) -> tuple[Statement | None, str | None]:
    """(statement, None), or (None, a Portuguese reason) when a tariff is missing."""
    if collected is None:
        return None, None
    try:
        return await case_statement(core, case, collected, as_of), None
    except (TariffNotFound, ValueError) as exc:
        return None, str(exc)


async def per_day(core: Core, case: Case, collected: datetime, as_of: datetime
                  ) -> tuple[Decimal, str]:
    """What each further day adds (the same statement a day later, so the law's counting and
    cap apply) and the article of the last dated line."""
    from datetime import timedelta
    today = await case_statement(core, case, collected, as_of)
    tomorrow = await case_statement(core, case, collected, as_of + timedelta(days=1))
    dated = [ln for ln in tomorrow.lines if ln.tariff_valid_from is not None]
    return tomorrow.total - today.total, dated[-1].article if dated else ""


async def proceeds_split(core: Core, case: Case, collected: datetime, gross: Decimal,
                         taxes: Decimal = Decimal(0)) -> list[Share]:
    """How an auction's proceeds are shared, as the law orders (Law.proceeds_split), over the
    statement owed now."""
    core = core.for_case(case)
    owed = await case_statement(core, case, collected, core.now())
    return core.law.split(gross, owed, case_facts(case), taxes)
