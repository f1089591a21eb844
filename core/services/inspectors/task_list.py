"""What the inspector sees of their tasks: the open tasks by deadline then distance, a case
card with ONLY the steps the lifecycle allows now for their agency (and the law's category
guards), and earlier cases of the same plate or chassis (Dores Art. 6º, §5º, recidivism)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from sqlalchemy import or_, select

from core.formatting import fmt_date
from core.identifiers import InvalidIdentifier, normalize_plate, validate_chassis
from core.lifecycle import Actor, Lifecycle
from core.services.cases.transitions import load_case
from core.services.context import Core
from core.services.errors import Forbidden, InvalidInput
from core.services.inspectors.accounts import NOT_INSPECTOR, active_inspector, inspector_core
from core.services.inspectors.tasks import OPEN, distance_to_case, deadline_text
from core.services.inspectors.warnings import lapse_targets
from core.storage.models import Case, CaseOwner, Event, Evidence, Task


@dataclass(frozen=True)
class TaskSummary:
    task_id: int
    status: str
    protocol: str
    category_label: str
    state_label: str
    address: str | None
    lat: float
    lon: float
    due: date | None
    due_text: str | None  # "retirar o veículo do espaço público até 11/12/2026 (Art. 4º, I)"
    distance_m: float | None
    lapsed: bool = False  # a lapsed deadline made the removal due: the most urgent


@dataclass(frozen=True)
class PreviousCase:
    protocol: str
    state_label: str
    created_at: datetime
    plate: str | None
    chassis: str | None


@dataclass(frozen=True)
class CardAction:
    code: str
    label: str
    article: str
    requires: tuple[str, ...]
    button: str = ""  # the short label for a phone's button (Transition.button)


@dataclass(frozen=True)
class CaseCard:
    protocol: str
    task_id: int
    task_status: str
    category: str
    category_label: str
    state: str
    state_label: str
    address: str | None
    neighbourhood: str | None
    lat: float
    lon: float
    plate: str | None
    chassis: str | None
    description: str | None
    report: dict[str, Any]
    photos: list[str]
    deadline: dict[str, Any] | None  # due, due_in_full, description, article, explanation
    owner_name: str | None
    previous_cases: list[PreviousCase] = field(default_factory=list)
    actions: list[CardAction] = field(default_factory=list)


# -- what the inspector sees ------------------------------------------------------------------

async def open_tasks(core: Core, telegram_id: int) -> list[TaskSummary]:
    """/tarefas, most urgent first: removals a lapsed deadline made due (e.g. Dores Art. 6º,
    caput), the oldest lapse first; then by due date (none last); then by distance from the
    inspector's last shared location. Each shows its due date (the lapsed one for a removal
    due). Only the inspector's city's cases, with its law."""
    async with core.db.read() as s:
        inspector = await active_inspector(s, telegram_id)
        if inspector is None:
            raise Forbidden(NOT_INSPECTOR)
        core = inspector_core(core, inspector)
        law = core.law
        lapse_states = {st for lc in law.tracks.values() for st in lapse_targets(lc)}
        rows = (await s.execute(select(Task, Case).join(Case, Case.id == Task.case_id).where(
            Task.inspector_id == inspector.id, Task.status.in_(OPEN),
            Case.municipality == core.municipality, Case.is_open.is_(True)))).all()
        lapsed = await _lapsed_deadlines(
            s, [c.id for _, c in rows if c.state in lapse_states])
    out = []
    for task, case in rows:
        d = case.deadline_json or {}
        due, text = (date.fromisoformat(d["due"]) if d.get("due") else None), deadline_text(case)
        was = lapsed.get(case.id)
        if was is not None:
            due = date.fromisoformat(was["due"])
            text = (f"VENCIDO em {fmt_date(due)} ({was.get('description', '')}, "
                    f"{was.get('article', '')}): remoção autorizada")
        out.append(TaskSummary(
            task.id, task.status, case.protocol, law.categories[case.category].label,
            law.tracks[case.track].state(case.state).label, case.address, case.lat, case.lon,
            due, text, distance_to_case(inspector, case), lapsed=was is not None))
    return sorted(out, key=lambda t: (not t.lapsed, t.due or date.max,
                                      math.inf if t.distance_m is None else t.distance_m,
                                      t.task_id))


async def _lapsed_deadlines(s, case_ids: list[int]) -> dict[int, dict]:
    """The deadline that lapsed on each case (the latest one its timeline recorded)."""
    if not case_ids:
        return {}
    out: dict[int, dict] = {}
    for case_id, data in (await s.execute(select(Event.case_id, Event.data).where(
            Event.case_id.in_(case_ids)).order_by(Event.seq.desc()))).all():
        deadline = (data or {}).get("deadline")
        if case_id not in out and isinstance(deadline, dict) and deadline.get("due"):
            out[case_id] = deadline
    return out


async def case_card(core: Core, telegram_id: int, protocol: str) -> CaseCard:
    """A case the inspector holds, with ONLY the steps the lifecycle allows now for their
    agency (Lifecycle.available). Steps needing a previous case (Art. 6º, §5º, recidivism)
    are offered only when one exists. Another city's protocol is answered as a missing one."""
    async with core.db.read() as s:
        inspector = await active_inspector(s, telegram_id)
        if inspector is None:
            raise Forbidden(NOT_INSPECTOR)
        core = inspector_core(core, inspector)
        law = core.law
        case = await load_case(s, protocol, municipality=core.municipality)
        task = (await s.execute(select(Task).where(
            Task.case_id == case.id, Task.inspector_id == inspector.id,
            Task.status.in_(OPEN)))).scalar_one_or_none()
        if task is None or not case.is_open:
            raise Forbidden("Este caso não está atribuído a você. Veja suas tarefas em /tarefas.")
        photos = (await s.execute(select(Evidence.sha256).where(
            Evidence.case_id == case.id, Evidence.kind == "photo")
            .order_by(Evidence.id))).scalars().all()
        owner = (await s.execute(select(CaseOwner.owner_name).where(
            CaseOwner.case_id == case.id))).scalar_one_or_none()
    previous = []
    if case.plate or case.chassis:
        previous = await previous_cases_for(core, case.plate, case.chassis,
                                            exclude_case_id=case.id)
    lifecycle = law.tracks[case.track]
    actions = [CardAction(t.code, t.label, t.article, t.requires, t.button or t.label)
               for t in lifecycle.available(case.state, Actor.INSPECTOR, inspector.agency)
               if (previous or "previous_case" not in t.requires)
               and law.category_refuses(t.code, case.category) is None]
    d = case.deadline_json
    deadline = {k: d.get(k) for k in ("due", "due_in_full", "description", "article",
                                      "explanation")} if d else None
    report = {k: v for k, v in (case.details or {}).get("report", {}).items() if v}
    return CaseCard(case.protocol, task.id, task.status, case.category,
                    law.categories[case.category].label, case.state,
                    lifecycle.state(case.state).label, case.address, case.neighbourhood,
                    case.lat, case.lon, case.plate, case.chassis, case.description, report,
                    list(photos), deadline, owner, previous, actions)


# -- recidivism (Dores Art. 6º, §5º) ----------------------------------------------------------

def _removal_states(lifecycle: Lifecycle) -> set[str]:
    """States that mean the object was taken off the street: in the depot, or a non-final
    state off the public space reached from one on it (removal started)."""
    states = lifecycle.states
    out = {c for c, st in states.items() if st.in_depot}
    if not out:
        return out  # a track without a depot removes nothing (e.g. Dracena's autos)
    for t in lifecycle.transitions.values():
        target = states[t.target]
        if not target.final and not target.in_public_space and \
                all(states[src].in_public_space for src in t.sources):
            out.add(t.target)
    return out


async def previous_cases_for(core: Core, plate: str | None = None, chassis: str | None = None,
                             *, exclude_case_id: int | None = None) -> list[PreviousCase]:
    """Earlier cases of the same plate or chassis in which abandonment was established or the
    object was removed. Art. 6º, §5º: "O veículo, chassi ou carroceria que for flagrado em
    situação que caracterize reincidência, será removido imediatamente"."""
    try:
        plate = normalize_plate(plate).value if plate else None
        chassis = validate_chassis(chassis).value if chassis else None
    except InvalidIdentifier as exc:
        raise InvalidInput(str(exc)) from None
    conds = [c for c in ((Case.plate == plate) if plate else None,
                         (Case.chassis == chassis) if chassis else None) if c is not None]
    if not conds:
        return []
    q = select(Case).where(Case.municipality == core.municipality, or_(*conds))
    if exclude_case_id is not None:
        q = q.where(Case.id != exclude_case_id)
    async with core.db.read() as s:
        cases = (await s.execute(q.order_by(Case.created_at))).scalars().all()
        if not cases:
            return []
        events = (await s.execute(select(Event.case_id, Event.data).where(
            Event.case_id.in_([c.id for c in cases])))).all()
    established: set[int] = set()
    by_id = {c.id: c for c in cases}
    for case_id, data in events:
        lifecycle = core.law.tracks[by_id[case_id].track]
        data = data or {}
        if "abandonment_criteria" in data or data.get("to") in _removal_states(lifecycle):
            established.add(case_id)
    return [PreviousCase(c.protocol, core.law.tracks[c.track].state(c.state).label,
                         c.created_at, c.plate, c.chassis)
            for c in cases if c.id in established]
