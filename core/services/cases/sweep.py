"""The deadline sweep: one periodic job, driven by the database and idempotent.

Cases whose next deadline has passed are moved on by the transition their deadline names
(e.g. Dores Art. 6º caput: a lapsed notice makes removal due; Art. 3º: 60 days in the depot
make the object eligible for auction). Each case moves in its own unit of work, re-checked
under lock, so a crash or a second sweeper never moves a case twice."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select

from core.lifecycle import TransitionRefused
from core.services.cases.transitions import LAPSE_ACTOR, apply_transition, undo_outdated_step
from core.services.context import Core
from core.services.cases.deadline_recount import recount_if_closed
from core.services.inspectors.warnings import tell_lapse
from core.storage.models import Case
from core.storage.queries import due_cases

SYSTEM = LAPSE_ACTOR


@dataclass
class SweepReport:
    moved: list[tuple[str, str]] = field(default_factory=list)  # (protocol, transition)
    cleared: list[str] = field(default_factory=list)  # informational deadlines that passed
    #: deadlines whose due day became a day without office hours (Lei 9.784/1999, art. 66,
    #: § 1º): recounted instead of lapsed
    recounted: list[str] = field(default_factory=list)
    #: a step recorded from a state the lifecycle no longer takes it from, taken back as its
    #: undo would (core.services.cases.transitions.undo_outdated_step) instead of lapsing into the next
    undone: list[str] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)  # (protocol, reason)


async def sweep_deadlines(core: Core, now: datetime | None = None, limit: int = 500) -> SweepReport:
    """Every city's lapsed deadlines (installation-wide), each case moved by its own city's
    law and counted with its own calendar (core.for_case)."""
    now = now or core.now()
    report = SweepReport()
    async with core.db.read() as s:
        due_ids = [c.id for c in await due_cases(s, now, limit)]
    for case_id in due_ids:
        async with core.db.unit_of_work() as s:
            case = (await s.execute(select(Case).where(Case.id == case_id).with_for_update())
                    ).scalar_one()
            if case.next_deadline_at is None or case.next_deadline_at > now:
                continue  # another sweeper got here first
            core = core.for_case(case)  # each case by ITS city's law and calendar
            if await undo_outdated_step(core, s, case) is not None:
                report.undone.append(case.protocol)
                continue
            if await recount_if_closed(core, s, case, now) is not None:
                report.recounted.append(case.protocol)
                continue
            on_lapse = (case.deadline_json or {}).get("on_lapse")
            if not on_lapse:
                case.next_deadline_at = None
                report.cleared.append(case.protocol)
                continue
            try:
                await apply_transition(core, case.id, on_lapse, SYSTEM, {}, session=s)
                report.moved.append((case.protocol, on_lapse))
                await tell_lapse(core, s, case)  # the inspector knows at once
            except TransitionRefused as exc:
                case.next_deadline_at = None
                report.refused.append((case.protocol, exc.message))
    return report
