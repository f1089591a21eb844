"""The panel's read models of cases: dashboard figures, the case list (keyset pagination on
(created_at, id), indexed) and CSV rows, a case's full staff view, the inspectors. Reads
only; every change goes through core.services.cases.transitions / staff / tasks. Data only: the panel
words facts and events (admin/fact_text.py)."""
from __future__ import annotations

import base64
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal
from typing import Any, AsyncIterator

from sqlalchemy import and_, exists, func, select, tuple_

from core.fees import Statement
from core.identifiers import InvalidIdentifier, normalize_plate
from core.lifecycle import Actor, Lifecycle, Transition
from core.services.cases import fee_statement as statements
from core.services.staff.payment_records import RecordedPayment, payments_of
from core.services.cases.transitions import case_facts
from core.services.staff.scope import inspector_cities, load_here
from core.services.context import Core
from core.services.cases.depot_dates import StatedDate, depot_dates
from core.services.errors import InvalidInput
from core.services.staff.common import (ACTIVE_TASK, PAGE_SIZE, assignees, day_bounds,
                                        depot_pairs, in_pairs, state_label,
                                        today)
from core.services.staff.depot import collected_moments
from core.storage.models import (Case, CaseOwner, Event, Evidence, Inspector, SupportingReport,
                                 Task)
from core.storage.protocol import PROTOCOL_RE
from core.storage.timeline import ChainReport, verify_chain


# -- dashboard ---------------------------------------------------------------------------------

@dataclass
class Dashboard:
    by_state: list[tuple[str, int]]
    by_category: list[tuple[str, int]]
    due_today: list[dict[str, Any]]
    overdue: list[dict[str, Any]]
    depot_count: int
    reports_week: int
    open_total: int


def _brief(core: Core, c: Case) -> dict[str, Any]:
    return {"protocol": c.protocol, "category": core.law.categories[c.category].label
            if c.category in core.law.categories else c.category,
            "state": state_label(core, c.track, c.state), "address": c.address,
            "neighbourhood": c.neighbourhood, "created_at": c.created_at,
            "deadline_at": c.next_deadline_at,
            "deadline": (c.deadline_json or {}).get("description"),
            "article": (c.deadline_json or {}).get("article")}


async def dashboard(core: Core) -> Dashboard:
    law = core.law
    start, end = day_bounds(core, today(core))
    week_start = start - timedelta(days=today(core).weekday())
    here = Case.municipality == core.municipality
    async with core.db.read() as s:
        rows = (await s.execute(select(Case.track, Case.state, func.count()).where(
            here, Case.is_open.is_(True)).group_by(Case.track, Case.state))).all()
        by_state: dict[str, int] = {}
        for track, state, n in rows:
            label = state_label(core, track, state)
            by_state[label] = by_state.get(label, 0) + n
        cats = (await s.execute(select(Case.category, func.count()).where(
            here, Case.is_open.is_(True)).group_by(Case.category))).all()
        by_category = sorted(((law.categories[c].label if c in law.categories else c, n)
                              for c, n in cats), key=lambda x: -x[1])
        due = select(Case).where(here, Case.next_deadline_at.is_not(None), Case.is_open.is_(True))
        due_today = (await s.execute(due.where(Case.next_deadline_at >= start,
                                               Case.next_deadline_at < end)
                                     .order_by(Case.next_deadline_at).limit(50))).scalars().all()
        overdue = (await s.execute(due.where(Case.next_deadline_at < start)
                                   .order_by(Case.next_deadline_at).limit(50))).scalars().all()
        depot_count = (await s.execute(select(func.count()).select_from(Case).where(
            here, Case.is_open.is_(True), in_pairs(depot_pairs(core))))).scalar_one()
        week = (await s.execute(select(func.count()).select_from(Case).where(
            here, Case.created_at >= week_start))).scalar_one()
    return Dashboard(sorted(by_state.items(), key=lambda x: -x[1]), by_category,
                     [_brief(core, c) for c in due_today], [_brief(core, c) for c in overdue],
                     depot_count, week,
                     sum(n for _, n in by_state.items()))


# -- case list (keyset) -----------------------------------------------------------------------

@dataclass
class CaseFilter:
    state: str = ""
    category: str = ""
    neighbourhood: str = ""
    date_from: date | None = None
    date_to: date | None = None
    inspector_id: int | None = None
    q: str = ""  # protocol or plate
    open_only: bool = False


@dataclass
class CaseRow:
    id: int
    protocol: str
    category: str
    state: str
    state_code: str
    is_open: bool
    neighbourhood: str | None
    address: str | None
    plate: str | None
    created_at: datetime
    updated_at: datetime
    closed_at: datetime | None
    deadline_at: datetime | None
    assignee: str | None = None
    amount_due: Decimal | None = None  # owed today to take it back (objects in the depot)


@dataclass
class CasePage:
    rows: list[CaseRow]
    next_cursor: str | None
    filter: CaseFilter = field(default_factory=CaseFilter)


def encode_cursor(created_at: datetime, case_id: int) -> str:
    raw = f"{created_at.astimezone(timezone.utc).isoformat()}|{case_id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, int]:
    try:
        pad = "=" * (-len(cursor) % 4)
        at, cid = base64.urlsafe_b64decode(cursor + pad).decode().split("|")
        moment = datetime.fromisoformat(at)
        if moment.tzinfo is None:
            raise ValueError
        return moment, int(cid)
    except (ValueError, UnicodeDecodeError):
        raise InvalidInput("Página inválida: volte para a primeira página da lista.") from None


def _filtered(core: Core, f: CaseFilter):
    conds = [Case.municipality == core.municipality]  # no city sees another's
    if f.state:
        conds.append(Case.state == f.state)
    if f.category:
        conds.append(Case.category == f.category)
    if f.neighbourhood.strip():
        conds.append(Case.neighbourhood == f.neighbourhood.strip())
    if f.date_from:
        conds.append(Case.created_at >= day_bounds(core, f.date_from)[0])
    if f.date_to:
        conds.append(Case.created_at < day_bounds(core, f.date_to)[1])
    if f.open_only:
        conds.append(Case.is_open.is_(True))
    if f.inspector_id:
        conds.append(exists().where(Task.case_id == Case.id,
                                    Task.inspector_id == f.inspector_id,
                                    Task.status.in_(ACTIVE_TASK)))
    q = f.q.strip().upper()
    if q:
        if PROTOCOL_RE.match(q):
            conds.append(Case.protocol == q)
        else:
            try:
                conds.append(Case.plate == normalize_plate(q).value)
            except InvalidIdentifier:
                raise InvalidInput("Busca: informe um protocolo (AAAA-NNNNNN) ou uma placa "
                                   "(ABC1234 ou ABC1D23).") from None
    return conds


def _row(core: Core, c: Case, who: dict[int, str]) -> CaseRow:
    label = core.law.categories[c.category].label if c.category in core.law.categories \
        else c.category
    return CaseRow(c.id, c.protocol, label, state_label(core, c.track, c.state), c.state,
                   c.is_open, c.neighbourhood, c.address, c.plate, c.created_at, c.updated_at,
                   c.closed_at, c.next_deadline_at, who.get(c.id))


async def list_cases(core: Core, f: CaseFilter, cursor: str | None = None,
                     limit: int = PAGE_SIZE, *, with_fees: bool = False) -> CasePage:
    """Newest first; `cursor` is the last row of the previous page (keyset: the database seeks
    straight to it through the (created_at, id) index, so page 20,000 costs what page 1 does).
    `with_fees`: each open case in the depot carries what is owed today (the one statement)."""
    conds = _filtered(core, f)
    if cursor:
        at, cid = decode_cursor(cursor)
        conds.append(tuple_(Case.created_at, Case.id) < tuple_(at, cid))
    q = (select(Case).where(*conds).order_by(Case.created_at.desc(), Case.id.desc())
         .limit(limit + 1))
    async with core.db.read() as s:
        cases = list((await s.execute(q)).scalars().all())
        more = len(cases) > limit
        cases = cases[:limit]
        who = await assignees(s, [c.id for c in cases])
        pairs = depot_pairs(core)
        held = [c for c in cases if c.is_open and (c.track, c.state) in pairs] \
            if with_fees else []
        entered = await collected_moments(s, core, held)
    rows = [_row(core, c, who) for c in cases]
    now = core.now()
    for row, c in zip(rows, cases):
        if c.id in entered:
            stmt, _err = await statements.statement_or_error(core, c, entered[c.id], now)
            row.amount_due = stmt.total if stmt else None
    nxt = encode_cursor(cases[-1].created_at, cases[-1].id) if more and cases else None
    return CasePage(rows, nxt, f)


async def iter_cases(core: Core, f: CaseFilter, batch: int = 500) -> AsyncIterator[CaseRow]:
    """Every case matching `f`, newest first, in keyset batches, with what is owed today
    for objects in the depot (the CSV export)."""
    cursor = None
    while True:
        page = await list_cases(core, f, cursor, batch, with_fees=True)
        for row in page.rows:
            yield row
        if not page.next_cursor:
            return
        cursor = page.next_cursor


# -- one case --------------------------------------------------------------------------------

@dataclass
class TimelineItem:
    seq: int
    at: datetime
    actor_kind: str
    actor_name: str | None
    label: str
    article: str | None
    data: dict[str, Any]
    public: bool
    hash: str
    step: bool = False  # a lifecycle step (label from the law), else a bookkeeping event


@dataclass
class CaseDetail:
    case: Case
    category_label: str
    state_label: str
    lifecycle: Lifecycle
    timeline: list[TimelineItem]
    chain: ChainReport
    photos: list[Evidence]
    documents: list[Evidence]
    supports: list[SupportingReport]
    actions: list[Transition]
    assignee: str | None
    facts: dict[str, Any]
    owner_identified: bool
    in_depot: bool
    #: sha256 → (document code, file name) of the documents issued on the case
    issued: dict[str, tuple[str, str]] = field(default_factory=dict)
    collected_at: datetime | None = None  # when the object was collected (in the depot)
    statement: Statement | None = None  # owed today, the owner's view's statement
    fee_error: str | None = None  # Portuguese, when a tariff is missing
    #: The law's dates for the object in the depot, each with its article (the owner's view
    #: and the papers state the same: core.services.cases.depot_dates).
    depot_dates: tuple[StatedDate, ...] = ()
    #: Payments staff recorded (core.services.staff.payment_records), oldest first.
    payments: tuple[RecordedPayment, ...] = ()


async def case_detail(core: Core, ref: str) -> CaseDetail:
    async with core.db.read() as s:
        case = await load_here(s, core, ref)
        lc = core.law.tracks[case.track]
        events = (await s.execute(select(Event).where(Event.case_id == case.id)
                                  .order_by(Event.seq))).scalars().all()
        chain = await verify_chain(s, case.id)
        evidence = (await s.execute(select(Evidence).where(Evidence.case_id == case.id)
                                    .order_by(Evidence.id))).scalars().all()
        supports = (await s.execute(select(SupportingReport).where(
            SupportingReport.case_id == case.id).order_by(SupportingReport.id))).scalars().all()
        who = await assignees(s, [case.id])
        owner = (await s.execute(select(CaseOwner.owner_name).where(
            CaseOwner.case_id == case.id))).scalar_one_or_none()
    timeline = []
    for ev in events:
        label = lc.step_label(ev.action)  # a step's or an undo's (Transition.undo)
        timeline.append(TimelineItem(ev.seq, ev.at, ev.actor_kind, ev.actor_name,
                                     label or ev.action, ev.article, ev.data or {},
                                     ev.public, ev.hash, step=label is not None))
    state = lc.state(case.state)
    facts = case_facts(case)
    issued = {ev.data["sha256"]: (ev.data.get("document") or "", ev.data.get("filename") or "")
              for ev in events if ev.action == "document_issued" and
              isinstance((ev.data or {}).get("sha256"), str)}
    collected = statement = fee_error = None
    if case.is_open and state.in_depot:
        collected = statements.collected_at(
            core, case, statements.depot_entry(events, lc) or case.updated_at)
        statement, fee_error = await statements.statement_or_error(core, case, collected,
                                                                   core.now())
        dates = await depot_dates(core, case.category, facts, collected)
        due = (case.deadline_json or {}).get("due")
        # the running deadline has its own line above, with its explanation: once each
        dates = tuple(d for d in dates if not (due and d.due and d.due.isoformat() == due))
    else:
        dates = ()
    return CaseDetail(
        case, core.law.categories[case.category].label, state.label, lc, timeline, chain,
        [e for e in evidence if e.kind == "photo"], [e for e in evidence if e.kind != "photo"],
        list(supports), lc.available(case.state, Actor.STAFF), who.get(case.id),
        facts, bool(owner), state.in_depot, issued, collected, statement, fee_error, dates,
        tuple(payments_of(events)))


async def evidence_of(core: Core, sha256: str) -> Evidence | None:
    """The evidence row for a file (the panel serves only files attached to a case)."""
    async with core.db.read() as s:
        ev = (await s.execute(select(Evidence).join(Case, Case.id == Evidence.case_id).where(
            Evidence.sha256 == sha256, Case.municipality == core.municipality).limit(1))
              ).scalar_one_or_none()
        return ev


# -- inspectors ------------------------------------------------------------------------------

@dataclass
class InspectorRow:
    id: int
    name: str
    agency: str
    agency_label: str
    active: bool
    open_tasks: int
    last_seen_at: datetime | None
    registration: str | None = None  # matrícula, printed on the documents they sign


async def inspectors(core: Core, only_active: bool = False) -> list[InspectorRow]:
    async with core.db.read() as s:
        q = (select(Inspector, func.count(Task.id))
             .outerjoin(Task, and_(Task.inspector_id == Inspector.id,
                                   Task.status.in_(ACTIVE_TASK)))
             .where(Inspector.municipality.in_(inspector_cities(core)))
             .group_by(Inspector.id).order_by(Inspector.name))
        if only_active:
            q = q.where(Inspector.active.is_(True))
        rows = (await s.execute(q)).all()
    ag = core.law.agencies
    return [InspectorRow(i.id, i.name, i.agency, ag[i.agency].name if i.agency in ag
                         else i.agency, i.active, n, i.last_seen_at, i.registration)
            for i, n in rows]
