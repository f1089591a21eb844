"""The queue moves by itself: cases waiting for an inspector are given to one as soon as one
can take them.

A case waits in the staff's queue (core.services.staff.queue) when nobody competent was active
when it came in, when every competent inspector refused it, or when its inspector was
deactivated and nobody took it over. The moment that changes (an inspector binds, or is bound
again after a deactivation, with an agency competent for the case's step; or the law's
lifecycle now allows an agency that has active inspectors), each waiting case is offered, by
the same rules as a new report (core.services.inspectors.tasks: competence from the lifecycle, fewest
open tasks, then nearest; never back to one who refused it), and the inspector is told at once
(the "Nova tarefa" message, in the same transaction). Oldest wait first."""
from __future__ import annotations

from sqlalchemy import and_, exists, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from core.services.cases.transitions import load_case
from core.services.context import Core
from core.services.inspectors.accounts import BoundInspector, bind_inspector
from core.services.staff.common import needs_inspector
from core.services.inspectors.tasks import OPEN, REFUSED, Assignment, give, load_roster
from core.storage.models import Case, Task

LIMIT = 500  # waiting cases offered in one go (the staff's queue shows as many)


async def waiting_case_ids(core: Core, s: AsyncSession) -> list[int]:
    """Open cases of `core`'s city whose next step is an inspector's and that nobody holds,
    oldest first (the periodic job runs it for each city)."""
    pairs = needs_inspector(core)
    if not pairs:
        return []
    need = or_(*[and_(Case.track == t, Case.state == st) for t, st in pairs])
    held = exists().where(Task.case_id == Case.id, Task.status.in_(OPEN))
    return list((await s.execute(select(Case.id).where(
        Case.municipality == core.municipality, Case.is_open.is_(True), need, ~held)
                                 .order_by(Case.created_at, Case.id).limit(LIMIT))
                 ).scalars().all())


async def assign_waiting(core: Core, s: AsyncSession) -> list[Assignment]:
    """Offer every waiting case someone competent can take now (in the caller's transaction);
    cases nobody can take stay in the queue as they were."""
    ids = await waiting_case_ids(core, s)
    if not ids:
        return []
    roster = await load_roster(s)
    if not roster.inspectors:
        return []
    refused: dict[int, set[int]] = {}
    for case_id, inspector_id in (await s.execute(select(Task.case_id, Task.inspector_id).where(
            Task.case_id.in_(ids), Task.status == REFUSED))).all():
        refused.setdefault(case_id, set()).add(inspector_id)
    out = []
    for case_id in ids:
        case = await load_case(s, case_id, for_update=True)
        ranked = [i for i in roster.candidates(core, case)
                  if i.id not in refused.get(case_id, set())]
        if not ranked:
            continue
        out.append(await give(core, s, case, ranked[0], roster))
    return out


async def bind_and_take_waiting(core: Core, telegram_id: int, code: str,
                                display_name: str | None = None) -> BoundInspector:
    """`/fiscal CÓDIGO` (inspectors.bind_inspector), then every waiting case the inspector
    — new, or bound again after a deactivation — can take is offered at once (the "Nova
    tarefa" is queued for them). Two units of work: a crash between them leaves the cases
    waiting for the periodic job's `move_queue`."""
    bound = await bind_inspector(core, telegram_id, code, display_name)
    await move_queue(core.for_city(bound.municipality) if core.city_named(bound.municipality)
                     else core)  # the inspector's city's waiting cases
    return bound


async def move_queue(core: Core) -> list[Assignment]:
    """`assign_waiting` in its own unit of work (the periodic job: an agency the lifecycle
    now allows, or anything a crash left waiting)."""
    async with core.db.unit_of_work() as s:
        return await assign_waiting(core, s)
