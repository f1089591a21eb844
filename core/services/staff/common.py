"""What the panel's read models share: the city's clock, state labels, which (track, state)
pairs mean the depot or a task for an inspector, and who holds each case. Reads only."""
from __future__ import annotations

from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

from sqlalchemy import and_, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from core.services.context import Core
from core.services.inspectors.tasks import allowed_agencies
from core.storage.models import Case, Inspector, Task

PAGE_SIZE = 50
ACTIVE_TASK = ("offered", "accepted")


def tz(core: Core) -> ZoneInfo:
    """The city's time zone (Core.tz)."""
    return core.tz


def today(core: Core) -> date:
    return core.now().astimezone(tz(core)).date()


def day_bounds(core: Core, day: date) -> tuple[datetime, datetime]:
    start = datetime.combine(day, time(0), tz(core)).astimezone(timezone.utc)
    return start, start + timedelta(days=1)


def state_label(core: Core, track: str, state: str) -> str:
    lc = core.law.tracks.get(track)
    return lc.states[state].label if lc and state in lc.states else state


def depot_pairs(core: Core) -> set[tuple[str, str]]:
    """(track, state) of objects in the depot. By track: a state code may mean the street in
    one track and the depot in another (e.g. "published": Dores Art. 4º, II, b for vehicles,
    Art. 5º, III for furniture already removed)."""
    return {(lc.track, s.code) for lc in core.law.tracks.values() for s in lc.states.values()
            if s.in_depot}


def in_pairs(pairs: set[tuple[str, str]]):
    return or_(*[and_(Case.track == t, Case.state == st) for t, st in sorted(pairs)]) \
        if pairs else Case.id.is_(None)


def needs_inspector(core: Core) -> list[tuple[str, str]]:
    """(track, state) pairs of open cases whose next step is an inspector's (a task to assign):
    a state with an inspector step of any agency, and the initial state when the diligence it
    opens is an inspector's (a report nobody competent was given, tasks.assign_new_cases).
    Asking `available(st, Actor.INSPECTOR)` without an agency missed every step reserved to
    some agencies, i.e. all of them: the queue was always empty."""
    return [(lc.track, st) for lc in core.law.tracks.values() for st in lc.states
            if not lc.states[st].final and allowed_agencies(core, lc, st)]


async def assignees(s: AsyncSession, case_ids: list[int]) -> dict[int, str]:
    """The inspector currently on each case (the latest offered/accepted task)."""
    if not case_ids:
        return {}
    rows = (await s.execute(
        select(Task.case_id, Inspector.name, Task.status)
        .join(Inspector, Inspector.id == Task.inspector_id)
        .where(Task.case_id.in_(case_ids), Task.status.in_(ACTIVE_TASK))
        .order_by(Task.id))).all()
    out = {}
    for case_id, name, status in rows:
        out[case_id] = name + (" (aguardando aceite)" if status == "offered" else "")
    return out
