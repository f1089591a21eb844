"""Diligence tasks: every new case goes to a competent inspector, who accepts or refuses it.

Competence comes from the lifecycle, never from a list kept here: the agencies allowed for the
inspector steps of the state a case is in (Transition.agencies; e.g. Dores Art. 5º, caput: the
furniture diligence is the Secretaria de Saúde's or a partner's, Art. 10 adds the fiscais de
posturas; Art. 3º, §2º and Art. 10 for vehicles). Among the active inspectors of those agencies
the one with the fewest open tasks gets the case, then the one nearest to it (last shared
location, geodesic distance).

A task is "offered", then "accepted" or "refused" (with a reason; the case goes to the next
best inspector, never back to one who refused it), or "withdrawn" when staff reassign it.
A task is open while offered or accepted and its case is open.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date
from typing import Any

from geopy.distance import geodesic
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from core.formatting import citizen_said, fmt_date
from core.identifiers import format_plate
from core.lifecycle import Actor, Lifecycle
from core.services.cases.transitions import apply_transition, load_case
from core.services.context import Core
from core.services.errors import Forbidden, InvalidInput, NotFound
from core.services.inspectors.accounts import (NOT_INSPECTOR, active_inspector, actor_ref, agency_name,
                                      withdraw_menu)
from core.storage import outbox
from core.storage.models import Case, Event, Evidence, Inspector, Person, Task
from core.storage.timeline import ActorRef, append_event

OFFERED, ACCEPTED, REFUSED, WITHDRAWN = "offered", "accepted", "refused", "withdrawn"
OPEN = (OFFERED, ACCEPTED)
AUTO = ActorRef(Actor.SYSTEM.value, None, "Sistema (atribuição automática)")
OPEN_DILIGENCE = "open_diligence"
MAX_PHOTOS = 10
NO_INSPECTOR = "Nenhum fiscal ativo de órgão competente disponível: atribuir manualmente."


@dataclass(frozen=True)
class Assignment:
    task_id: int | None  # None: nobody competent, the case waits for staff
    protocol: str
    inspector_id: int | None
    inspector_name: str | None


# -- competence (from the lifecycle) ---------------------------------------------------------

def _inspector_agency_sets(core: Core, lifecycle: Lifecycle, state: str) -> list[frozenset]:
    everyone = frozenset(core.law.agencies)
    return [t.agencies or everyone
            for t in lifecycle.available(state) if Actor.INSPECTOR in t.actors]


def _field_state(lifecycle: Lifecycle, state: str) -> str:
    """A case waiting in the initial state is worked in the state open_diligence leads to."""
    t = lifecycle.transitions.get(OPEN_DILIGENCE)
    return t.target if t is not None and state in t.sources else state


def competent_agencies(core: Core, lifecycle: Lifecycle, state: str | None = None) -> frozenset:
    """Agencies allowed for every inspector step of `state` (default: the first field state),
    so whoever gets the task can finish that step whatever its outcome; if no agency is allowed
    for all of them, those allowed for any."""
    field_state = _field_state(lifecycle, state or lifecycle.initial)
    sets = _inspector_agency_sets(core, lifecycle, field_state)
    if not sets:
        return frozenset()
    common = frozenset.intersection(*sets)
    return common or frozenset.union(*sets)


def allowed_agencies(core: Core, lifecycle: Lifecycle, state: str) -> frozenset:
    """Agencies allowed for at least one inspector step of `state` (staff assignment)."""
    sets = _inspector_agency_sets(core, lifecycle, _field_state(lifecycle, state))
    return frozenset.union(*sets) if sets else frozenset()


def distance_to_case(inspector: Inspector, case: Case) -> float | None:
    if inspector.last_lat is None or inspector.last_lon is None:
        return None
    return geodesic((inspector.last_lat, inspector.last_lon), (case.lat, case.lon)).meters


async def _open_counts(s: AsyncSession, inspector_ids: list[int]) -> dict[int, int]:
    """Open tasks (offered or accepted, on open cases) of these inspectors."""
    if not inspector_ids:
        return {}
    rows = (await s.execute(
        select(Task.inspector_id, func.count(Task.id)).join(Case, Case.id == Task.case_id)
        .where(Task.inspector_id.in_(inspector_ids), Task.status.in_(OPEN),
               Case.is_open.is_(True)).group_by(Task.inspector_id))).all()
    return {i: n for i, n in rows}


def _ranked(candidates, case: Case, counts: dict[int, int]) -> list[Inspector]:
    """Fewest open tasks first, then nearest to the case (inspectors who never shared a
    location come after those who did)."""
    def key(i: Inspector):
        d = distance_to_case(i, case)
        return (counts.get(i.id, 0), math.inf if d is None else d, i.id)
    return sorted(candidates, key=key)


async def rank_inspectors(core: Core, s: AsyncSession, case: Case,
                          exclude: set[int] = frozenset()) -> list[Inspector]:
    """Active inspectors of the case's city competent for its current step, best first
    (`_ranked`); never another city's."""
    core = core.for_case(case)
    agencies = competent_agencies(core, core.law.tracks[case.track], case.state)
    if not agencies:
        return []
    found = [i for i in (await s.execute(select(Inspector).where(
        Inspector.active.is_(True), Inspector.municipality == case.municipality,
        Inspector.agency.in_(sorted(agencies))))).scalars().all()
        if i.id not in exclude]
    return _ranked(found, case, await _open_counts(s, [i.id for i in found]))


# -- assignment -------------------------------------------------------------------------------

async def assign_new_case(core: Core, s: AsyncSession, case: Case) -> Assignment:
    """For a case just reported (in the caller's transaction): open the diligence
    (open_diligence, by the system) and offer it to the best inspector; with nobody competent
    the case stays "Denúncia recebida" and is flagged for staff."""
    return (await assign_new_cases(core, s, [case]))[0]


@dataclass
class Roster:
    """Active inspectors and their open-task counts, read once for a group of new cases."""

    inspectors: list[Inspector]
    counts: dict[int, int]

    def candidates(self, core: Core, case: Case) -> list[Inspector]:
        """The case's city's competent inspectors, best first (never another city's)."""
        core = core.for_case(case)
        agencies = competent_agencies(core, core.law.tracks[case.track], case.state)
        return _ranked([i for i in self.inspectors if i.agency in agencies
                        and i.municipality == case.municipality], case, self.counts)


async def load_roster(s: AsyncSession) -> Roster:
    inspectors = list((await s.execute(select(Inspector).where(Inspector.active.is_(True)))
                       ).scalars().all())
    return Roster(inspectors, await _open_counts(s, [i.id for i in inspectors]))


def staff_flag(core: Core) -> dict[str, str]:
    """What `case.details["needs_assignment"]` holds for a case nobody competent can take."""
    return {"since": core.now().isoformat(), "reason": NO_INSPECTOR}


async def assign_new_cases(core: Core, s: AsyncSession, cases: list[Case],
                           roster: Roster | None = None) -> list[Assignment]:
    """`assign_new_case` for a group of new cases (a grouped submission): the roster and the
    open-task counts are read once, and each offer counts for the next case's ranking."""
    roster = roster or await load_roster(s)
    out = []
    for case in cases:
        ranked = roster.candidates(core, case)
        if not ranked:
            # The flag only: a case still "Denúncia recebida" is already in the staff's queue.
            await _flag_for_staff(core, s, case, event=False)
            out.append(Assignment(None, case.protocol, None, None))
            continue
        out.append(await give(core, s, case, ranked[0], roster))
    return out


async def give(core: Core, s, case, best, roster) -> Assignment:
    """Open the diligence and offer `case` to `best`, the roster's first competent inspector
    (a new report, or a waiting case when an inspector binds: core.services.inspectors.queue_flow)."""
    await _open_diligence(core, s, case, AUTO)
    task = await offer_task(core, s, case, best, AUTO)
    roster.counts[best.id] = roster.counts.get(best.id, 0) + 1
    return Assignment(task.id, case.protocol, best.id, best.name)


async def assign_case(core: Core, protocol: str, inspector_id: int, by: ActorRef) -> Assignment:
    """Staff give the case to `inspector_id` (first assignment or reassignment): a case and
    an inspector of `core`'s city (another city's are answered as missing ones)."""
    async with core.db.unit_of_work() as s:
        case = await load_case(s, protocol, for_update=True, municipality=core.municipality)
        if not case.is_open:
            raise InvalidInput(f"O caso {case.protocol} já foi encerrado.")
        inspector = await s.get(Inspector, inspector_id)
        if inspector is None or not inspector.active or \
                inspector.municipality != case.municipality:
            raise NotFound("Fiscal não encontrado ou desativado.")
        lifecycle = core.law.tracks[case.track]
        allowed = allowed_agencies(core, lifecycle, case.state)
        if not allowed:
            raise InvalidInput("Nesta etapa do caso não há ação de fiscal a atribuir "
                               f"({lifecycle.state(case.state).label}).")
        if inspector.agency not in allowed:
            names = ", ".join(sorted(agency_name(core, a) for a in allowed))
            raise InvalidInput(f"{inspector.name} é de {agency_name(core, inspector.agency)}; "
                               f"nesta etapa o caso é competência de: {names}.")
        await _withdraw_open(core, s, case, by, keep=inspector.id)
        await _open_diligence(core, s, case, by)
        current = (await s.execute(select(Task).where(
            Task.case_id == case.id, Task.inspector_id == inspector.id,
            Task.status.in_(OPEN)))).scalar_one_or_none()
        task = current or await offer_task(core, s, case, inspector, by)
        return Assignment(task.id, case.protocol, inspector.id, inspector.name)


async def _open_diligence(core: Core, s: AsyncSession, case: Case, by: ActorRef) -> None:
    core = core.for_case(case)
    t = core.law.tracks[case.track].transitions.get(OPEN_DILIGENCE)
    if t is not None and case.state in t.sources:
        await apply_transition(core, case.id, OPEN_DILIGENCE, by, {}, session=s)


async def _flag_for_staff(core: Core, s: AsyncSession, case: Case, *, event: bool = True) -> None:
    """`case.details["needs_assignment"]` (the staff's queue) and, unless `event` is False,
    a staff-only timeline event."""
    details = dict(case.details or {})
    if details.get("needs_assignment"):
        return
    details["needs_assignment"] = staff_flag(core)
    case.details = details
    if not event:
        return
    core = core.for_case(case)
    agencies = competent_agencies(core, core.law.tracks[case.track], case.state)
    await append_event(s, case, AUTO, "assignment_pending", None,
                       {"reason": NO_INSPECTOR, "agencies": sorted(agencies)},
                       public=False, at=core.now())


async def offer_task(core: Core, s: AsyncSession, case: Case, inspector: Inspector,
                 by: ActorRef, *, heading: str = "Nova tarefa") -> Task:
    now = core.now()
    task = Task(case_id=case.id, inspector_id=inspector.id, status=OFFERED, created_at=now,
                updated_at=now)
    s.add(task)
    await s.flush()
    details = dict(case.details or {})
    if details.pop("needs_assignment", None) is not None:
        case.details = details
    await append_event(s, case, by, "task_offered", None,
                       {"task": task.id, "inspector": inspector.id,
                        "inspector_name": inspector.name, "agency": inspector.agency},
                       public=False, at=now)
    chat_id = await chat_of(s, inspector)
    payload = await task_payload(core, s, case, task, heading)
    await outbox.enqueue(s, chat_id, "task_offer", payload, dedupe_key=f"task:{task.id}:offer")
    return task


async def chat_of(s: AsyncSession, inspector: Inspector) -> int:
    return (await s.execute(select(Person.telegram_id).where(
        Person.id == inspector.person_id))).scalar_one()


async def task_payload(core: Core, s: AsyncSession, case: Case, task: Task, heading: str,
                       *, buttons: bool = True) -> dict[str, Any]:
    """The task message (outbox contract): photos, a venue pin with the address, protocol,
    category, legal step and deadline, and Aceitar / Recusar."""
    law = core.for_case(case).law
    lifecycle = law.tracks[case.track]
    article = (await s.execute(select(Event.article).where(
        Event.case_id == case.id, Event.article.is_not(None))
        .order_by(Event.seq.desc()).limit(1))).scalar_one_or_none()
    step = lifecycle.state(case.state).label + (f" ({article})" if article else "")
    lines = [f"{heading} — protocolo {case.protocol}",
             f"Categoria: {law.categories[case.category].label}",
             f"Endereço: {case.address or 'não informado (veja o mapa)'}",
             f"Etapa: {step}",
             f"Prazo: {deadline_text(case) or 'esta etapa não tem prazo fixado em lei.'}"]
    if case.plate:
        lines.append(f"Placa: {format_plate(case.plate)}")
    if case.description:
        lines.append(f"Descrição: {case.description[:500]}")
    if told := citizen_said((case.details or {}).get("report") or {}):
        lines.append(told)
    photos = (await s.execute(select(Evidence.sha256).where(
        Evidence.case_id == case.id, Evidence.kind == "photo")
        .order_by(Evidence.id).limit(MAX_PHOTOS))).scalars().all()
    payload: dict[str, Any] = {
        "text": "\n".join(lines)[:4096], "photos": list(photos),
        "location": {"lat": case.lat, "lon": case.lon, "title": f"Protocolo {case.protocol}",
                     "address": case.address or f"{case.lat:.5f}, {case.lon:.5f}"},
        "protocol": case.protocol, "task_id": task.id}
    if buttons:
        payload["buttons"] = [[{"text": "Aceitar", "intent": "task.accept", "task": task.id},
                               {"text": "Recusar", "intent": "task.refuse", "task": task.id}]]
    return payload


def deadline_text(case: Case) -> str | None:
    d = case.deadline_json
    if not d or not d.get("due"):
        return None
    return f"{d['description']} até {fmt_date(date.fromisoformat(d['due']))} ({d['article']})"


# -- the inspector's answers ------------------------------------------------------------------

async def _my_task(s: AsyncSession, telegram_id: int, task_id: int) -> tuple[Inspector, Task]:
    inspector = await active_inspector(s, telegram_id)
    if inspector is None:
        raise Forbidden(NOT_INSPECTOR)
    task = await s.get(Task, task_id, with_for_update=True)
    if task is None or task.inspector_id != inspector.id:
        raise Forbidden("Esta tarefa não está com você. Veja suas tarefas em /tarefas.")
    return inspector, task


async def accept_task(core: Core, telegram_id: int, task_id: int) -> Assignment:
    """Aceitar: the task is the inspector's (accepting twice changes nothing)."""
    async with core.db.unit_of_work() as s:
        inspector, task = await _my_task(s, telegram_id, task_id)
        case = await load_case(s, task.case_id, for_update=True)
        if task.status not in OPEN or not case.is_open:
            raise InvalidInput("Esta tarefa não está mais aberta. Veja suas tarefas em /tarefas.")
        if task.status == OFFERED:
            task.status, task.updated_at = ACCEPTED, core.now()
            await append_event(s, case, actor_ref(inspector), "task_accepted", None,
                               {"task": task.id}, public=False, at=core.now())
        return Assignment(task.id, case.protocol, inspector.id, inspector.name)


async def refuse_task(core: Core, telegram_id: int, task_id: int, reason: str) -> Assignment:
    """Recusar (with a reason): the case goes to the next best inspector, excluding everyone
    who refused it; with nobody left it is flagged for staff. Returns the new assignment."""
    reason = " ".join((reason or "").split())
    if not reason:
        raise InvalidInput("Informe o motivo da recusa.")
    if len(reason) > 1000:
        raise InvalidInput("Motivo longo demais (máximo de 1000 caracteres).")
    async with core.db.unit_of_work() as s:
        inspector, task = await _my_task(s, telegram_id, task_id)
        case = await load_case(s, task.case_id, for_update=True)
        if task.status not in OPEN or not case.is_open:
            raise InvalidInput("Esta tarefa não está mais aberta. Veja suas tarefas em /tarefas.")
        task.status, task.reason, task.updated_at = REFUSED, reason, core.now()
        await append_event(s, case, actor_ref(inspector), "task_refused", None,
                           {"task": task.id, "reason": reason}, public=False, at=core.now())
        await s.flush()
        return await _reassign(core, s, case)


async def _reassign(core: Core, s: AsyncSession, case: Case) -> Assignment:
    refused = set((await s.execute(select(Task.inspector_id).where(
        Task.case_id == case.id, Task.status == REFUSED))).scalars().all())
    ranked = await rank_inspectors(core, s, case, exclude=refused)
    if not ranked:
        await _flag_for_staff(core, s, case)
        return Assignment(None, case.protocol, None, None)
    task = await offer_task(core, s, case, ranked[0], AUTO)
    return Assignment(task.id, case.protocol, ranked[0].id, ranked[0].name)


async def _withdraw_open(core: Core, s: AsyncSession, case: Case, by: ActorRef,
                         keep: int | None = None) -> None:
    tasks = (await s.execute(select(Task).where(
        Task.case_id == case.id, Task.status.in_(OPEN)))).scalars().all()
    for t in tasks:
        if t.inspector_id == keep:
            continue
        t.status, t.updated_at = WITHDRAWN, core.now()
        await append_event(s, case, by, "task_withdrawn", None, {"task": t.id},
                           public=False, at=core.now())
        old = await s.get(Inspector, t.inspector_id)
        await outbox.enqueue(
            s, await chat_of(s, old), "task_withdrawn",
            {"text": f"A tarefa do protocolo {case.protocol} foi transferida a outro fiscal. "
                     "Não é preciso fazer nada.", "protocol": case.protocol},
            dedupe_key=f"task:{t.id}:withdrawn")


async def withdraw_and_reassign(core: Core, s: AsyncSession, inspector_id: int,
                                by: ActorRef) -> list[Assignment]:
    """The inspector's open tasks go to the next best (used when staff deactivate them)."""
    tasks = (await s.execute(select(Task).join(Case, Case.id == Task.case_id).where(
        Task.inspector_id == inspector_id, Task.status.in_(OPEN),
        Case.is_open.is_(True)))).scalars().all()
    out = []
    for t in tasks:
        case = await load_case(s, t.case_id, for_update=True)
        t.status, t.updated_at = WITHDRAWN, core.now()
        await append_event(s, case, by, "task_withdrawn", None, {"task": t.id},
                           public=False, at=core.now())
        await s.flush()
        out.append(await _reassign(core, s, case))
    return out


async def deactivate_inspector(core: Core, inspector_id: int, by: ActorRef) -> None:
    """Staff switch an inspector off; their open tasks go back to automatic assignment."""
    async with core.db.unit_of_work() as s:
        inspector = await s.get(Inspector, inspector_id, with_for_update=True)
        if inspector is None or inspector.municipality not in (core.municipality, ""):
            raise NotFound("Fiscal não encontrado.")
        inspector.active = False
        await s.flush()
        await withdraw_and_reassign(core, s, inspector.id, by)
        await withdraw_menu(core, s, inspector)  # no /tarefas menu left in their chat


async def current_task(s: AsyncSession, case_id: int) -> Task | None:
    return (await s.execute(select(Task).where(Task.case_id == case_id, Task.status.in_(OPEN))
                            .order_by(Task.id.desc()).limit(1))).scalar_one_or_none()
