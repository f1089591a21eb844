"""The staff's queue: open cases that need an inspector and have none who knows of it, each with
why, oldest first. Reasons: nobody competent was active when the case came in (or staff were
asked to assign, tasks.NO_INSPECTOR); the inspector refused the task and nobody else competent
was left (tasks.refuse_task); the task was withdrawn (the inspector was deactivated) and nobody
took it over; the inspector holds the task but its message is a dead letter
(delivery.untold_cases); the photo of the notice affixed is still missing some business days
after the step (core.services.inspectors.notice_photo.overdue_for_staff: the inspector was reminded and
did not send it). Staff assign from the list through tasks.assign_case. Beside them, the
objects in the depot with a date the law sets for staff to act by (Law.depot_terms, e.g.
Dracena Art. 6º, §2º: gêneros and semoventes auctioned within three days). Reads only."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

from sqlalchemy import and_, exists, or_, select

from core.formatting import fmt_date, local_date
from core.services.messaging import delivery
from core.services.context import Core
from core.services.inspectors.notice_photo import overdue_for_staff
from core.services.cases.transitions import case_facts
from core.services.cases.depot_dates import depot_dates
from core.services.staff.common import (ACTIVE_TASK, depot_pairs, in_pairs, needs_inspector,
                                        state_label)
from core.services.staff.depot import collected_moments
from core.services.inspectors.tasks import REFUSED, WITHDRAWN, allowed_agencies
from core.storage.models import Case, Inspector, Task

NO_INSPECTOR, REFUSED_BY, WITHDRAWN_FROM, UNTOLD = "none", "refused", "withdrawn", "untold"
NO_NOTICE_PHOTO = "notice_photo"
#: The reasons in the order the dashboard lists them, with their Portuguese label.
REASONS = {NO_INSPECTOR: "Sem fiscal ativo competente",
           REFUSED_BY: "Recusado pelo fiscal",
           WITHDRAWN_FROM: "Tarefa retirada do fiscal",
           UNTOLD: "Fiscal não avisado da tarefa",
           NO_NOTICE_PHOTO: "Notificação afixada sem foto"}
LIMIT = 500


@dataclass
class QueueItem:
    protocol: str
    category: str
    state: str
    address: str | None
    neighbourhood: str | None
    created_at: datetime
    since: datetime  # when it started waiting for staff
    reason: str  # a REASONS key
    detail: str  # who refused and why, the delivery error... (Portuguese)
    agencies: frozenset = frozenset()  # agencies competent for the case's next step

    @property
    def reason_label(self) -> str:
        return REASONS[self.reason]


@dataclass
class LawDateItem:
    """An object in the depot the law sets a date for staff to act by (DepotTerm.staff_due:
    Dracena Art. 6º, §2º — gêneros and semoventes auctioned within three days)."""

    protocol: str
    category: str
    state: str
    due: date
    line: str  # Portuguese, with the date and the article


@dataclass
class StaffQueue:
    items: list[QueueItem] = field(default_factory=list)
    #: Law dates staff must act by, soonest first (they need no inspector: staff act).
    law_dates: list[LawDateItem] = field(default_factory=list)

    @property
    def counts(self) -> list[tuple[str, str, int]]:
        """(reason, label, count) of the reasons present, in REASONS order."""
        n: dict[str, int] = {}
        for it in self.items:
            n[it.reason] = n.get(it.reason, 0) + 1
        return [(r, label, n[r]) for r, label in REASONS.items() if n.get(r)]

    @property
    def total(self) -> int:
        return len(self.items)


def _brief(core: Core, c: Case, since: datetime, reason: str, detail: str) -> QueueItem:
    cat = core.law.categories[c.category].label if c.category in core.law.categories \
        else c.category
    return QueueItem(c.protocol, cat, state_label(core, c.track, c.state), c.address,
                     c.neighbourhood, c.created_at, since, reason, detail,
                     allowed_agencies(core, core.law.tracks[c.track], c.state))


async def staff_queue(core: Core) -> StaffQueue:
    """Every open case waiting for staff to give it to an inspector, oldest wait first."""
    pairs = needs_inspector(core)
    need = or_(*[and_(Case.track == t, Case.state == st) for t, st in pairs]) \
        if pairs else Case.id.is_(None)
    held = exists().where(Task.case_id == Case.id, Task.status.in_(ACTIVE_TASK))
    async with core.db.read() as s:
        cases = (await s.execute(select(Case).where(Case.municipality == core.municipality,
                                                    Case.is_open.is_(True), need, ~held)
                                 .order_by(Case.created_at, Case.id).limit(LIMIT))
                 ).scalars().all()
        last: dict[int, tuple[Task, str]] = {}
        if cases:
            for task, name in (await s.execute(
                    select(Task, Inspector.name).join(Inspector, Inspector.id == Task.inspector_id)
                    .where(Task.case_id.in_([c.id for c in cases])).order_by(Task.id))).all():
                last[task.case_id] = (task, name)
        untold = await delivery.untold_cases(core)
        told = {u.protocol for u in untold}
        here = Case.municipality == core.municipality
        untold_cases = {c.protocol: c for c in (await s.execute(select(Case).where(
            here, Case.protocol.in_(sorted(told))))).scalars().all()} if told else {}
        no_photo = await overdue_for_staff(core, s)
        no_photo_cases = {c.id: c for c in (await s.execute(select(Case).where(
            here, Case.id.in_([m.case_id for m in no_photo])))).scalars().all()} \
            if no_photo else {}
        holders = dict((await s.execute(select(Inspector.id, Inspector.name).where(
            Inspector.id.in_([m.inspector_id for m in no_photo if m.inspector_id]))))
            .all()) if no_photo else {}
    items = []
    for c in cases:
        task, name = last.get(c.id, (None, ""))
        if task is not None and task.status == REFUSED:
            items.append(_brief(core, c, task.updated_at, REFUSED_BY,
                                f"{name}: {task.reason or 'sem motivo informado'}"))
        elif task is not None and task.status == WITHDRAWN:
            items.append(_brief(core, c, task.updated_at, WITHDRAWN_FROM, name))
        else:
            flag = (c.details or {}).get("needs_assignment") or {}
            since = datetime.fromisoformat(flag["since"]) if flag.get("since") else c.created_at
            items.append(_brief(core, c, since, NO_INSPECTOR, ""))
    for u in untold:
        c = untold_cases.get(u.protocol)
        if c is not None:
            items.append(_brief(core, c, u.failed_at or c.created_at, UNTOLD,
                                f"{u.inspector}: {u.error}"))
    listed = {it.protocol for it in items}
    for m in no_photo:
        c = no_photo_cases.get(m.case_id)
        if c is not None and c.protocol not in listed:
            who = holders.get(m.inspector_id) or "nenhum fiscal com o caso"
            items.append(_brief(core, c, m.since, NO_NOTICE_PHOTO,
                                f"{who}: afixada em {fmt_date(local_date(m.since))}, foto não "
                                f"enviada ({m.article})"))
    items.sort(key=lambda it: (it.since, it.protocol))
    return StaffQueue(items, await law_dates(core))


async def law_dates(core: Core) -> list[LawDateItem]:
    """Open objects in the depot with a date the law sets for staff to act by, soonest first
    (core.services.cases.depot_dates, the owner's view's and the papers' dates too)."""
    async with core.db.read() as s:
        held = (await s.execute(select(Case).where(
            Case.municipality == core.municipality, Case.is_open.is_(True),
            in_pairs(depot_pairs(core))).order_by(Case.id)
            .limit(LIMIT))).scalars().all()
        due = [c for c in held if any(t.staff_due for t in core.law.terms_in_depot(
            c.category, case_facts(c)))]
        collected = await collected_moments(s, core, due)
    out = []
    for c in due:
        for d in await depot_dates(core, c.category, case_facts(c), collected.get(c.id)):
            if d.staff_due and d.due:
                out.append(LawDateItem(c.protocol, core.law.categories[c.category].label,
                                       state_label(core, c.track, c.state), d.due, d.staff))
    out.sort(key=lambda it: (it.due, it.protocol))
    return out
