"""Deadline warnings for inspectors, run periodically after the deadline sweep.

The day before and on the day a deadline lapses (in America/Sao_Paulo), the inspector holding
the case is warned; when a lapse made removal due (Dores Art. 6º, caput: "O não cumprimento dos
prazos dispostos no Art. 4º desta lei implicará na remoção"), the task returns to the inspector
as "remoção devida". Everything is driven by the database and each message has a dedupe key
(case + deadline + kind), so running it twice, or after a restart, never sends one twice.
Informational deadlines (no on_lapse, e.g. the affixed notice, Art. 4º, II, a) are not warned.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from sqlalchemy import select

from core.formatting import fmt_date, local_date
from core.lifecycle import Actor, Lifecycle
from core.services.context import Core
from core.services.inspectors.tasks import AUTO, chat_of, current_task, offer_task, rank_inspectors, \
    task_payload
from core.storage import outbox
from core.storage.models import Case, Event, Inspector

DAY_BEFORE, DUE_TODAY, REMOVAL_DUE = "day_before", "due_today", "removal_due"


@dataclass
class WarningReport:
    queued: list[tuple[str, str]] = field(default_factory=list)  # (protocol, kind)
    unassigned: list[str] = field(default_factory=list)  # protocols nobody holds


def lapse_targets(lifecycle: Lifecycle) -> set[str]:
    """States a lapse leads to in which an inspector has work (e.g. removal_due)."""
    out = set()
    for t in lifecycle.transitions.values():
        if (Actor.SYSTEM in t.actors
                and any(Actor.INSPECTOR in n.actors for n in lifecycle.available(t.target))
                and any(r.deadline and r.deadline.on_lapse == t.code
                        for r in lifecycle.transitions.values())):
            out.add(t.target)
    return out


async def inspector_warnings(core: Core, now: datetime | None = None) -> WarningReport:
    now = now or core.now()
    today = local_date(now)
    report = WarningReport()
    horizon = now + timedelta(days=3)
    async with core.db.read() as s:  # `core`'s city (the periodic job runs it for each city)
        soon = (await s.execute(select(Case.id).where(
            Case.municipality == core.municipality,
            Case.is_open.is_(True), Case.next_deadline_at.is_not(None),
            Case.next_deadline_at >= now, Case.next_deadline_at <= horizon))).scalars().all()
        lapsed_states = {st for lc in core.law.tracks.values() for st in lapse_targets(lc)}
        returned = (await s.execute(select(Case.id).where(
            Case.municipality == core.municipality, Case.is_open.is_(True),
            Case.state.in_(sorted(lapsed_states))))).scalars().all()
    for case_id in soon:
        async with core.db.unit_of_work() as s:
            case = await s.get(Case, case_id)
            await _deadline_warning(core, s, case, today, report)
    for case_id in returned:
        async with core.db.unit_of_work() as s:
            case = await s.get(Case, case_id, with_for_update=True)
            await _removal_due(core, s, case, report)
    return report


async def _deadline_warning(core: Core, s, case: Case, today: date, report: WarningReport) -> None:
    d = case.deadline_json or {}
    if not d.get("on_lapse") or not d.get("due"):
        return
    due = date.fromisoformat(d["due"])
    kind = DAY_BEFORE if today == due - timedelta(days=1) else DUE_TODAY if today == due else None
    if kind is None:
        return
    task = await current_task(s, case.id)
    if task is None:
        report.unassigned.append(case.protocol)
        return
    inspector = await s.get(Inspector, task.inspector_id)
    when = "vence amanhã" if kind == DAY_BEFORE else "vence hoje"
    text = (f"Aviso de prazo — protocolo {case.protocol}\n"
            f"O prazo para {d['description']} ({d['article']}) {when}, {d['due_in_full']} "
            f"({fmt_date(due)}).\n"
            f"Se não for cumprido, o caso segue para: "
            f"{_next_label(core, case, d['on_lapse'])}.")
    payload = {"text": text, "protocol": case.protocol, "task_id": task.id,
               "buttons": [[{"text": "Abrir caso", "intent": "task.open", "task": task.id}]]}
    key = f"warn:case:{case.id}:{d.get('transition')}:{d['due']}:{kind}"
    if await outbox.enqueue(s, await chat_of(s, inspector), "deadline_warning", payload, key):
        report.queued.append((case.protocol, kind))


def _next_label(core: Core, case: Case, on_lapse: str) -> str:
    lifecycle = core.for_case(case).law.tracks[case.track]
    t = lifecycle.transitions.get(on_lapse)
    return lifecycle.state(t.target).label if t else on_lapse


async def tell_lapse(core: Core, s, case: Case) -> bool:
    """Right after the sweep moved `case` on a lapse (same transaction): when the lapse left
    an inspector's step (e.g. removal due, Dores Art. 6º, caput), the inspector is told at
    once, with the message the hourly run would send (same dedupe key: never twice)."""
    core = core.for_case(case)
    lapsed = {st for lc in core.law.tracks.values() for st in lapse_targets(lc)}
    if not case.is_open or case.state not in lapsed:
        return False
    report = WarningReport()
    await _removal_due(core, s, case, report)
    return bool(report.queued)


async def _removal_due(core: Core, s, case: Case, report: WarningReport) -> None:
    """The lapse that made removal due, once per lapse event: the task comes back to its
    inspector (or to the next best one, if nobody holds the case any more)."""
    core = core.for_case(case)
    seq = (await s.execute(select(Event.seq).where(
        Event.case_id == case.id, Event.actor_kind == Actor.SYSTEM.value,
        Event.action.in_([t.code for t in core.law.tracks[case.track].transitions.values()
                          if t.target == case.state]))
        .order_by(Event.seq.desc()).limit(1))).scalar_one_or_none()
    if seq is None:
        return  # reached by a person, not by a lapse: they already know
    task = await current_task(s, case.id)
    if task is None:
        ranked = await rank_inspectors(core, s, case)
        if not ranked:
            report.unassigned.append(case.protocol)
            return
        task = await offer_task(core, s, case, ranked[0], AUTO)
    inspector = await s.get(Inspector, task.inspector_id)
    payload = await task_payload(core, s, case, task, "Remoção devida", buttons=False)
    payload["buttons"] = [[{"text": "Abrir caso", "intent": "task.open", "task": task.id}]]
    key = f"warn:case:{case.id}:ev:{seq}:{REMOVAL_DUE}"
    if await outbox.enqueue(s, await chat_of(s, inspector), "task_removal_due", payload, key):
        report.queued.append((case.protocol, REMOVAL_DUE))
