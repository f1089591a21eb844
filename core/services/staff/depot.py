"""The panel's depot and auction: what is in the depot and what each object owes today (the
one statement, core.services.cases.fee_statement), and how an auction's proceeds are shared (the law's
split). Reads only."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core.fees import Share, Statement
from core.services.cases import fee_statement as statements
from core.services.cases.transitions import case_facts
from core.services.staff.scope import load_here
from core.services.context import Core
from core.services.staff.common import depot_pairs, in_pairs, state_label
from core.storage.models import Case


# -- depot and auction -----------------------------------------------------------------------

@dataclass
class DepotItem:
    protocol: str
    category: str
    state: str
    state_code: str
    track: str
    entered_at: datetime | None
    days: int
    statement: Statement | None
    fee_error: str | None
    auction_eligible: bool
    facts: dict[str, Any]


async def statement_for(core: Core, case: Case, collected_at: datetime,
                        as_of: datetime) -> Statement:
    """What is owed to take the object back: the one statement (core.services.cases.fee_statement),
    the owner's view's too (Dores Art. 3º, §3º, II; Dracena Art. 7º)."""
    return await statements.case_statement(core, case, collected_at, as_of)


def _auction_pairs(core: Core) -> set[tuple[str, str]]:
    return {(lc.track, st) for lc in core.law.tracks.values()
            for code in ("auction",) if code in lc.transitions
            for st in lc.transitions[code].sources}


async def collected_moments(s: AsyncSession, core: Core, cases: list[Case]) -> dict[int, datetime]:
    """When each case's object was collected (Dores Art. 3º, caput), else when its depot
    entry was registered."""
    registered = await statements.depot_entries(s, core, cases)
    return {c.id: statements.collected_at(core, c, registered[c.id])
            for c in cases if c.id in registered}


async def depot_inventory(core: Core) -> list[DepotItem]:
    now = core.now()
    auction = _auction_pairs(core)
    async with core.db.read() as s:
        cases = list((await s.execute(select(Case).where(
            Case.municipality == core.municipality, Case.is_open.is_(True),
            in_pairs(depot_pairs(core) | auction))
            .order_by(Case.created_at))).scalars().all())
        entered = await collected_moments(s, core, cases)
    items = []
    for c in cases:
        at = entered.get(c.id)
        facts = case_facts(c)
        stmt, err = await statements.statement_or_error(core, c, at, now)
        days = (now - at).days if at else 0
        items.append(DepotItem(c.protocol, core.law.categories[c.category].label,
                               state_label(core, c.track, c.state), c.state, c.track, at, days,
                               stmt, err, (c.track, c.state) in auction, facts))
    return items


async def auction_split(core: Core, ref: str, gross: Decimal, taxes: Decimal = Decimal(0)
                        ) -> list[Share]:
    """How an auction's proceeds are shared, as the law orders (Law.proceeds_split: Dores
    Art. 8º, § único; Dracena Art. 6º, §3º), over the statement owed now."""
    async with core.db.read() as s:
        case = await load_here(s, core, ref)
        entered = (await collected_moments(s, core, [case])).get(case.id) or case.created_at
    return await statements.proceeds_split(core, case, entered, gross, taxes)
