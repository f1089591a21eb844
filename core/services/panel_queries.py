"""Read models for the staff panel: dashboard figures, the case list (keyset pagination on
(created_at, id), indexed), a case's full staff view, the depot inventory with fees owed, the
editais to publish, CSV rows and the Open311 GeoReport v2 public view.

Reads only; every change goes through core.services.cases / staff / tasks / inspectors.
"""
from __future__ import annotations

import base64
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone
from decimal import Decimal
from typing import Any, AsyncIterator
from zoneinfo import ZoneInfo

from sqlalchemy import and_, exists, func, or_, select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession

from core.documents.data import CityHeader, EditalEntry, EditalInfo, ObjectData
from core.documents.edital import edital_pdf, edital_text
from core.fees import Share, Statement
from core.services import statements
from core.identifiers import InvalidIdentifier, normalize_plate
from core.lifecycle import Actor, Lifecycle, Transition
from core.services.cases import case_facts, load_case
from core.services.context import Core
from core.services.errors import InvalidInput
from core.storage.models import Case, Event, Evidence, Inspector, SupportingReport, Task
from core.storage.evidence import PublicCopy, UnsupportedMedia
from core.storage.protocol import PROTOCOL_RE
from core.storage.timeline import ChainReport, verify_chain

PAGE_SIZE = 50
ACTIVE_TASK = ("offered", "accepted")
#: Lifecycle steps that publish an edital, by edital kind (see core.documents.edital).
EDITAL_STEPS = {"notificacao": "record_publication", "notificacao_bens": "record_publication",
                "remocao": "publish_removal_edital", "leilao": "auction"}
EDITAL_LABELS = {
    "notificacao": "Notificação a proprietário não identificado (Art. 4º, II, b)",
    "notificacao_bens": "Móveis de grande porte e maquinários recolhidos de imediato — "
                        "notificação (Art. 5º, III)",
    "remocao": "Remoção com proprietário não identificado (Art. 6º, §1º)",
    "leilao": "Leilão de objetos não reclamados",
}
#: Facts staff fill in (and the timeline shows) that are dates or moments.
EVENT_LABELS = {"report": "Denúncia registrada", "support": "Apoio de outro cidadão",
                "merge_duplicate": "Denúncia duplicada incorporada",
                "auction_edital": "Edital de leilão publicado",
                "task_offered": "Tarefa oferecida a fiscal", "task_accepted": "Fiscal aceitou a tarefa",
                "task_refused": "Fiscal recusou a tarefa", "task_withdrawn": "Tarefa retirada do fiscal",
                "assignment_pending": "Sem fiscal disponível: aguardando atribuição",
                "document_issued": "Documento emitido",
                "owner_statement": "Declaração do proprietário (a verificar pelo fiscal)",
                "evidence_purged": "Arquivos apagados ao fim do prazo de guarda"}


def tz(core: Core) -> ZoneInfo:
    return ZoneInfo(core.settings.timezone)


def today(core: Core) -> date:
    return core.now().astimezone(tz(core)).date()


def _day_bounds(core: Core, day: date) -> tuple[datetime, datetime]:
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


def _in_pairs(pairs: set[tuple[str, str]]):
    return or_(*[and_(Case.track == t, Case.state == st) for t, st in sorted(pairs)]) \
        if pairs else Case.id.is_(None)


def _needs_inspector(core: Core) -> list[tuple[str, str]]:
    """(track, state) pairs where the next step is an inspector's (a task to assign)."""
    return [(lc.track, st) for lc in core.law.tracks.values() for st in lc.states
            if not lc.states[st].final and lc.available(st, Actor.INSPECTOR)]


# -- dashboard ---------------------------------------------------------------------------------

@dataclass
class Dashboard:
    by_state: list[tuple[str, int]]
    by_category: list[tuple[str, int]]
    due_today: list[dict[str, Any]]
    overdue: list[dict[str, Any]]
    unassigned: int
    unassigned_cases: list[dict[str, Any]]
    depot_count: int
    reports_week: int
    open_total: int


def _active_task():
    return exists().where(Task.case_id == Case.id, Task.status.in_(ACTIVE_TASK))


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
    start, end = _day_bounds(core, today(core))
    week_start = start - timedelta(days=today(core).weekday())
    pairs = _needs_inspector(core)
    async with core.db.read() as s:
        rows = (await s.execute(select(Case.track, Case.state, func.count()).where(
            Case.is_open.is_(True)).group_by(Case.track, Case.state))).all()
        by_state: dict[str, int] = {}
        for track, state, n in rows:
            label = state_label(core, track, state)
            by_state[label] = by_state.get(label, 0) + n
        cats = (await s.execute(select(Case.category, func.count()).where(
            Case.is_open.is_(True)).group_by(Case.category))).all()
        by_category = sorted(((law.categories[c].label if c in law.categories else c, n)
                              for c, n in cats), key=lambda x: -x[1])
        due = select(Case).where(Case.next_deadline_at.is_not(None), Case.is_open.is_(True))
        due_today = (await s.execute(due.where(Case.next_deadline_at >= start,
                                               Case.next_deadline_at < end)
                                     .order_by(Case.next_deadline_at).limit(50))).scalars().all()
        overdue = (await s.execute(due.where(Case.next_deadline_at < start)
                                   .order_by(Case.next_deadline_at).limit(50))).scalars().all()
        need = or_(*[and_(Case.track == t, Case.state == st) for t, st in pairs]) \
            if pairs else Case.id.is_(None)
        unassigned_q = select(Case).where(Case.is_open.is_(True), need, ~_active_task())
        unassigned = (await s.execute(select(func.count()).select_from(
            unassigned_q.subquery()))).scalar_one()
        unassigned_cases = (await s.execute(unassigned_q.order_by(Case.created_at)
                                            .limit(10))).scalars().all()
        depot_count = (await s.execute(select(func.count()).select_from(Case).where(
            Case.is_open.is_(True), _in_pairs(depot_pairs(core))))).scalar_one()
        week = (await s.execute(select(func.count()).select_from(Case).where(
            Case.created_at >= week_start))).scalar_one()
    return Dashboard(sorted(by_state.items(), key=lambda x: -x[1]), by_category,
                     [_brief(core, c) for c in due_today], [_brief(core, c) for c in overdue],
                     unassigned, [_brief(core, c) for c in unassigned_cases], depot_count, week,
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
    conds = []
    if f.state:
        conds.append(Case.state == f.state)
    if f.category:
        conds.append(Case.category == f.category)
    if f.neighbourhood.strip():
        conds.append(Case.neighbourhood == f.neighbourhood.strip())
    if f.date_from:
        conds.append(Case.created_at >= _day_bounds(core, f.date_from)[0])
    if f.date_to:
        conds.append(Case.created_at < _day_bounds(core, f.date_to)[1])
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
        entered = await _entries(s, core, held)
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
    rows: list[tuple[str, str]] = field(default_factory=list)  # readable data


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
    fact_rows: list[tuple[str, str]] = field(default_factory=list)  # readable facts
    document_names: dict[str, str] = field(default_factory=dict)  # sha256 → what it is
    collected_at: datetime | None = None  # when the object was collected (in the depot)
    statement: Statement | None = None  # owed today, the owner's view's statement
    fee_error: str | None = None  # Portuguese, when a tariff is missing


#: Labels for event data the lifecycle's fact labels do not cover.
EXTRA_FACT_LABELS = {
    "to": "nova situação", "deadline": "prazo", "photos": "fotos", "category": "categoria",
    "plate": "placa", "address": "endereço", "signs": "sinais de abandono informados",
    "duplicate": "denúncia duplicada", "duplicate_of": "caso original",
    "auction_edital_at": "data do edital de leilão no Diário Oficial",
    "auction_edital_reference": "edição do Diário Oficial (edital de leilão)",
    "auction_split": "divisão do valor arrecadado", "inspector_name": "fiscal",
    "agency": "órgão", "agencies": "órgãos", "task": "tarefa nº",
    "owner_identified": "proprietário identificado", "document": "documento",
    "filename": "arquivo", "needs_verification": "a verificar pelo fiscal",
    "retention_days": "prazo de guarda (dias)", "sha256": "arquivos",
}
#: Event data that is internal plumbing, not for reading (ids, coordinates, hashes).
HIDDEN_FACTS = {"from", "lat", "lon", "inspector"}
#: Facts that hold stored files (hashes or Telegram ids): shown as a count.
FILE_FACTS = {"photos", "removal_photos", "notice_photo", "sha256"}
MONEY_FACT_KEYS = {"auction_proceeds", "fine_amount", "balance_amount", "taxes_amount"}
DOCUMENT_LABELS = {"notificacao": "Notificação ao proprietário",
                   "notificacao_afixada": "Notificação afixada no objeto",
                   "termo_recolhimento": "Termo de recolhimento",
                   "auto_infracao": "Auto de infração", "intimacao": "Intimação",
                   "nota_apreensao": "Nota de apreensão",
                   "registro_apreensao": "Auto de apreensão"}


def fact_label(lc: Lifecycle, key: str) -> str:
    return EXTRA_FACT_LABELS.get(key) or lc.label_fact(key)


def _as_list(value: Any) -> list:
    if value in (None, ""):
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _moment(text: str) -> str | None:
    """An ISO date or date-time as dd/mm/aaaa (às hh:mm), or None if it is not one."""
    from core.formatting import fmt_date, fmt_datetime
    if not isinstance(text, str) or len(text) < 10 or text[4:5] != "-" or text[7:8] != "-":
        return None
    try:
        if len(text) == 10:
            return fmt_date(date.fromisoformat(text))
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return fmt_datetime(moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc))


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return "sim" if value else "não"
    if value in (None, "", [], {}):
        return "—"
    if isinstance(value, (list, tuple)):
        return ", ".join(_plain(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(_plain(v) for v in value.values())
    return _moment(value) or str(value)


def fact_text(core: Core, lc: Lifecycle, key: str, value: Any) -> str:
    """A fact's value as a clerk reads it: Portuguese labels for codes (abandonment signs,
    categories, missing parts, states, agencies), dd/mm/aaaa dates, R$ amounts; an unknown
    code is shown as it is."""
    from core.documents.data import MISSING_PARTS
    from core.formatting import fmt_money
    law = core.law
    if key in ("abandonment_criteria", "signs"):
        labels = {c.code: c.label for c in law.criteria}
        return "; ".join(labels.get(v, str(v)) for v in _as_list(value)) or "—"
    if key == "category":
        return law.categories[value].label if value in law.categories else _plain(value)
    if key == "missing_parts":
        items = _as_list(value)
        return ", ".join(MISSING_PARTS[v].capitalize() if v in MISSING_PARTS else str(v)
                         for v in items) or "nenhum"
    if key == "to":
        return lc.states[value].label if value in lc.states else _plain(value)
    if key in ("agency", "agencies"):
        return ", ".join(law.agencies[a].name if a in law.agencies else str(a)
                         for a in _as_list(value)) or "—"
    if key in FILE_FACTS:
        n = len(_as_list(value))
        return str(n) if key == "photos" else f"{n} arquivo" + ("s" if n != 1 else "")
    if key == "document":
        return DOCUMENT_LABELS.get(value, _plain(value))
    if key == "deadline" and isinstance(value, dict):
        due = _moment(str(value.get("due") or "")) or "—"
        art = f" ({value['article']})" if value.get("article") else ""
        return f"{value.get('description') or 'prazo'} até {due}{art}"
    if key == "auction_split":
        return "; ".join(f"{who}: {fmt_money(Decimal(str(amount)))}"
                         for who, amount in _as_list(value)) or "—"
    if key in MONEY_FACT_KEYS:
        try:
            return fmt_money(Decimal(str(value)))
        except Exception:
            return _plain(value)
    return _plain(value)


def fact_rows(core: Core, lc: Lifecycle, data: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, text) pairs of an event's data or a case's facts, without plumbing and empty
    values; labels start with a capital letter."""
    out = []
    for key, value in (data or {}).items():
        if key in HIDDEN_FACTS or value in (None, "", [], {}):
            continue
        label = fact_label(lc, key)
        out.append((label[:1].upper() + label[1:], fact_text(core, lc, key, value)))
    return out


async def case_detail(core: Core, ref: str) -> CaseDetail:
    from core.storage.models import CaseOwner
    async with core.db.read() as s:
        case = await load_case(s, ref)
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
        t = lc.transitions.get(ev.action)
        label = t.label if t else EVENT_LABELS.get(ev.action, ev.action)
        timeline.append(TimelineItem(ev.seq, ev.at, ev.actor_kind, ev.actor_name, label,
                                     ev.article, ev.data or {}, ev.public, ev.hash,
                                     fact_rows(core, lc, ev.data or {})))
    state = lc.state(case.state)
    facts = case_facts(case)
    names = {ev.data["sha256"]: DOCUMENT_LABELS.get(ev.data.get("document"),
                                                    ev.data.get("filename") or "Documento")
             for ev in events if ev.action == "document_issued" and
             isinstance((ev.data or {}).get("sha256"), str)}
    collected = statement = fee_error = None
    if case.is_open and state.in_depot:
        collected = statements.collected_at(
            core, case, statements.depot_entry(events, lc) or case.updated_at)
        statement, fee_error = await statements.statement_or_error(core, case, collected,
                                                                   core.now())
    return CaseDetail(
        case, core.law.categories[case.category].label, state.label, lc, timeline, chain,
        [e for e in evidence if e.kind == "photo"], [e for e in evidence if e.kind != "photo"],
        list(supports), lc.available(case.state, Actor.STAFF), who.get(case.id),
        facts, bool(owner), state.in_depot,
        fact_rows(core, lc, {k: v for k, v in facts.items() if k != "category"}), names,
        collected, statement, fee_error)


async def evidence_of(core: Core, sha256: str) -> Evidence | None:
    """The evidence row for a file (the panel serves only files attached to a case)."""
    async with core.db.read() as s:
        ev = (await s.execute(select(Evidence).where(Evidence.sha256 == sha256).limit(1))
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


async def inspectors(core: Core, only_active: bool = False) -> list[InspectorRow]:
    async with core.db.read() as s:
        q = (select(Inspector, func.count(Task.id))
             .outerjoin(Task, and_(Task.inspector_id == Inspector.id,
                                   Task.status.in_(ACTIVE_TASK)))
             .group_by(Inspector.id).order_by(Inspector.name))
        if only_active:
            q = q.where(Inspector.active.is_(True))
        rows = (await s.execute(q)).all()
    ag = core.law.agencies
    return [InspectorRow(i.id, i.name, i.agency, ag[i.agency].name if i.agency in ag
                         else i.agency, i.active, n, i.last_seen_at) for i, n in rows]


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
    """What is owed to take the object back: the one statement (core.services.statements),
    the owner's view's too (Dores Art. 3º, §3º, II; Dracena Art. 7º)."""
    return await statements.case_statement(core, case, collected_at, as_of)


def _auction_pairs(core: Core) -> set[tuple[str, str]]:
    return {(lc.track, st) for lc in core.law.tracks.values()
            for code in ("auction",) if code in lc.transitions
            for st in lc.transitions[code].sources}


async def _entries(s: AsyncSession, core: Core, cases: list[Case]) -> dict[int, datetime]:
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
            Case.is_open.is_(True), _in_pairs(depot_pairs(core) | auction))
            .order_by(Case.created_at))).scalars().all())
        entered = await _entries(s, core, cases)
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
        case = await load_case(s, ref)
        entered = (await _entries(s, core, [case])).get(case.id) or case.created_at
    return await statements.proceeds_split(core, case, entered, gross, taxes)


# -- editais ---------------------------------------------------------------------------------

@dataclass
class EditalCase:
    protocol: str
    case_code: str
    category: str
    state: str
    address: str | None
    since: datetime


def _edital_pairs(core: Core, kind: str) -> list[tuple[str, str]]:
    """(track, state) where the edital of `kind` is the next publication."""
    step = EDITAL_STEPS[kind]
    out = []
    for lc in core.law.tracks.values():
        t = lc.transitions.get(step)
        if t is None:
            continue
        for st in t.sources:
            state = lc.states[st]
            # Art. 4º, II, b is about vehicles still on the street; Art. 5º, III about
            # furniture and machinery already removed to the depot (Art. 5º, II).
            if kind == "notificacao" and not state.in_public_space:
                continue
            if kind == "notificacao_bens" and not state.in_depot:
                continue
            out.append((lc.track, st))
    return out


def edital_label(core: Core, kind: str) -> str:
    """The list's heading; an edital the law words itself cites the law's article (the
    auction: Dores Art. 3º and 8º; Dracena Art. 6º, §1º)."""
    wording = core.law.edital(kind)
    return f"{EDITAL_LABELS[kind]} ({wording.article})" if wording else EDITAL_LABELS[kind]


def edital_kinds(core: Core) -> list[str]:
    """The edital kinds this law has cases for (e.g. Dracena has no Art. 5º, III edital)."""
    return [k for k in EDITAL_STEPS if _edital_pairs(core, k)]


async def edital_cases(core: Core, kind: str) -> list[EditalCase]:
    if kind not in EDITAL_STEPS:
        raise InvalidInput("Tipo de edital desconhecido.")
    pairs = _edital_pairs(core, kind)
    if not pairs:
        return []
    from core.storage.models import CaseOwner
    async with core.db.read() as s:
        cases = (await s.execute(select(Case).where(
            Case.is_open.is_(True), or_(*[and_(Case.track == t, Case.state == st)
                                          for t, st in pairs]))
            .order_by(Case.updated_at))).scalars().all()
        owners = set((await s.execute(select(CaseOwner.case_id).where(
            CaseOwner.case_id.in_([c.id for c in cases]),
            CaseOwner.owner_name.is_not(None)))).scalars().all()) if cases else set()
    out = []
    for c in cases:
        facts = case_facts(c)
        if kind == "remocao" and (c.id in owners or facts.get("edital_date")):
            continue  # Art. 6º, §1º: only unknown owners; published once
        if kind == "leilao" and facts.get("auction_edital_at"):
            continue
        out.append(EditalCase(c.protocol, c.case_code, core.law.categories[c.category].label,
                              state_label(core, c.track, c.state), c.address, c.updated_at))
    return out


def _object(core: Core, c: Case) -> ObjectData:
    cat = core.law.categories[c.category]
    report = (c.details or {}).get("report", {})
    make_model = (report.get("make_model") or "").strip()
    vehicle = cat.has_plate or cat.has_chassis
    # Art. 5º, III: "as características do bem móvel" — its kind, then the inspector's
    # description on the termo de recolhimento (Art. 6º, I, b) rather than the citizen's text.
    described = str(case_facts(c).get("item_description") or c.description or "").strip()
    description = (f"{cat.label} — características: {described}" if described
                   else cat.label) if not vehicle else (c.description or "")
    return ObjectData(plate=c.plate or "", chassis=c.chassis or "",
                      colour=report.get("colour") or "", model=make_model,
                      description=description, is_vehicle=vehicle)


async def edital_documents(core: Core, kind: str, protocols: list[str], number: str,
                           signer_name: str, signer_role: str) -> tuple[str, bytes]:
    """The edital for the chosen cases: (plain text to paste, PDF). No owner, no reporter."""
    from core.formatting import fmt_date, fmt_time
    if kind not in EDITAL_STEPS:
        raise InvalidInput("Tipo de edital desconhecido.")
    async with core.db.read() as s:
        cases = [await load_case(s, p) for p in protocols]
        entered = await _entries(s, core, cases)
    law = core.law
    entries = []
    for c in cases:
        facts = case_facts(c)
        where = c.address or f"coordenadas {c.lat:.5f}, {c.lon:.5f}"
        removed_on = fmt_date(entered[c.id]) if c.id in entered else ""
        if removed_on and kind == "notificacao_bens":  # Art. 5º, III: "data e hora"
            removed_on += f", às {fmt_time(entered[c.id])}"
        entries.append(EditalEntry(c.case_code, _object(core, c), where,
                                   destination=str(facts.get("depot") or
                                                   core.settings.depot_address)
                                   if kind != "notificacao" else "",
                                   removed_on=removed_on))
    info = EditalInfo(CityHeader(law.city, law.uf, law.title, law.slug), number or "____",
                      fmt_date(today(core)), f"{law.city}/{law.uf}", signer_name or "",
                      signer_role or "", core.now().astimezone(tz(core)).replace(tzinfo=None),
                      info=f"{core.settings.depot_address}; {core.settings.depot_hours}",
                      wordings={k: w.intro for k, w in law.editais.items()})
    return edital_text(entries, kind, info), edital_pdf(entries, kind, info)


# -- Open311 GeoReport v2 (public data only) -------------------------------------------------

def _iso(dt: datetime | None) -> str | None:
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ") if dt else None


def open311_services(core: Core) -> list[dict[str, Any]]:
    return [{"service_code": c.code, "service_name": c.label,
             "description": c.examples or c.label, "metadata": False, "type": "realtime",
             "keywords": c.article, "group": core.law.short} for c in core.law.categories.values()]


def _open311(core: Core, c: Case, media_url: str | None = None) -> dict[str, Any]:
    """Only what anyone may know: never the reporter, the owner, the description or the plate;
    the photo only as its public copy (EXIF/GPS stripped)."""
    cat = core.law.categories.get(c.category)
    dj = c.deadline_json or {}
    return {"service_request_id": c.protocol, "status": "open" if c.is_open else "closed",
            "status_notes": state_label(core, c.track, c.state),
            "service_name": cat.label if cat else c.category, "service_code": c.category,
            "agency_responsible": f"Prefeitura Municipal de {core.law.city}",
            "requested_datetime": _iso(c.created_at), "updated_datetime": _iso(c.updated_at),
            "expected_datetime": dj.get("due_at") if c.is_open else None,
            "address": c.address, "lat": round(c.lat, 5), "long": round(c.lon, 5),
            "media_url": media_url}


MEDIA_EXT = {"image/jpeg": "jpg", "image/png": "png", "image/webp": "webp"}


async def _first_photos(s: AsyncSession, case_ids: list[int]) -> dict[int, str]:
    """Each case's first photo (the original's sha256)."""
    if not case_ids:
        return {}
    first = (select(func.min(Evidence.id)).where(Evidence.case_id.in_(case_ids),
                                                 Evidence.kind == "photo")
             .group_by(Evidence.case_id))
    rows = (await s.execute(select(Evidence.case_id, Evidence.sha256).where(
        Evidence.id.in_(first)))).all()
    return dict(rows)


async def _public_copy(core: Core, sha256: str) -> PublicCopy | None:
    """The EXIF/GPS-free copy of a stored photo (made once), or None (missing, not an image)."""
    if not core.evidence.exists(sha256):
        return None
    try:
        return await core.evidence.apublic_copy(sha256)
    except (UnsupportedMedia, ValueError, OSError):
        return None


async def public_media(core: Core, protocol: str, public_sha: str) -> PublicCopy | None:
    """The public copy `public_sha` if it is the public copy of one of this case's photos;
    None otherwise (never an original, never a document, never another case's file)."""
    if not PROTOCOL_RE.match(protocol or ""):
        return None
    async with core.db.read() as s:
        case_id = (await s.execute(select(Case.id).where(Case.protocol == protocol))
                   ).scalar_one_or_none()
        if case_id is None:
            return None
        shas = (await s.execute(select(Evidence.sha256).where(
            Evidence.case_id == case_id, Evidence.kind == "photo").order_by(Evidence.id))
                ).scalars().all()
    for sha in shas:
        copy = await _public_copy(core, sha)
        if copy is not None and copy.sha256 == public_sha:
            return copy
    return None


async def open311_requests(core: Core, *, ids: list[str] = (), service_code: str = "",
                           status: str = "", start: datetime | None = None,
                           end: datetime | None = None, limit: int = 200,
                           media_base: str = "") -> list[dict[str, Any]]:
    """Open311 requests, newest first. With `media_base` (the API's absolute URL prefix, e.g.
    "https://painel.exemplo/open311/v2/media"), each request's media_url points to the public
    copy of its first photo: `<media_base>/<protocol>/<public sha256>.<ext>`."""
    conds = []
    if ids:
        conds.append(Case.protocol.in_(list(ids)))
    if service_code:
        conds.append(Case.category == service_code)
    if status in ("open", "closed"):
        conds.append(Case.is_open.is_(status == "open"))
    if start:
        conds.append(Case.created_at >= start)
    if end:
        conds.append(Case.created_at <= end)
    async with core.db.read() as s:
        cases = (await s.execute(select(Case).where(*conds).order_by(
            Case.created_at.desc(), Case.id.desc()).limit(limit))).scalars().all()
        photos = await _first_photos(s, [c.id for c in cases]) if media_base else {}
    out = []
    for c in cases:
        url = None
        copy = await _public_copy(core, photos[c.id]) if c.id in photos else None
        if copy is not None:
            url = f"{media_base}/{c.protocol}/{copy.sha256}.{MEDIA_EXT.get(copy.mime, 'jpg')}"
        out.append(_open311(core, c, url))
    return out
