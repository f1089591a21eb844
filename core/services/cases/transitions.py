"""Moving a case through its lifecycle: the one place a case changes state.

`apply_transition` asks the law's lifecycle whether the actor may take the step with the
facts at hand, then in one unit of work: changes the state, counts the deadline the step
starts (core.legal_calendar), appends the hash-chained event with the article, keeps the
owner's personal data apart (CaseOwner), and queues the messages the change causes (outbox).
A refused step raises TransitionRefused and writes nothing.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import Any, Mapping
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core.formatting import date_in_full, fmt_date
from core.identifiers import case_code_keys, mask_cpf
from core.laws.common import START_EVENTS
from core.lifecycle import Actor, DeadlineRule, Lifecycle, Transition, TransitionRefused
from core.services.context import Core
from core.services.cases.deadline_recount import recount
from core.services.errors import NotFound
from core.services.messaging.notifications import notify_subscribers
from core.services.cases.retention import clear_retention, set_retention
from core.storage.models import Case, CaseOwner, Event
from core.storage.protocol import PROTOCOL_RE
from core.storage.timeline import ActorRef, append_event, normalise_data

#: Facts that are the owner's personal data: kept in CaseOwner, never in the case's details.
OWNER_FACTS = {"owner_name": "owner_name", "owner_document": "owner_cpf",
               "owner_contact": "owner_contact"}
#: Facts that stay out of the stored case facts (kept only as masked event data).
PRIVATE_FACTS = set(OWNER_FACTS) | {"owner_address"}

#: Event data of an undoable step (Transition.undo): the deadline that was running before it.
PRIOR_DEADLINE = "prior_deadline"
#: Who moves a case when its deadline lapses (the sweep; a withdrawal after the deadline).
LAPSE_ACTOR = ActorRef(Actor.SYSTEM.value, None, "Sistema (prazo vencido)")

NOT_FOUND = "Não encontramos esse caso. Confira o número do protocolo (formato AAAA-NNNNNN)."


@dataclass(frozen=True)
class TransitionResult:
    case_id: int
    protocol: str
    previous_state: str
    state: str
    event_seq: int
    deadline: dict[str, Any] | None


async def load_case(session: AsyncSession, ref: str | int, *, for_update: bool = False,
                    municipality: str | None = None) -> Case:
    """A case by id, protocol (AAAA-NNNNNN) or case code; NotFound otherwise. With
    `municipality`, only that city's cases: another city's is answered exactly as a missing
    one (the inspector's buttons and typed protocols); without it, installation-wide (the
    owner's case code, the workers, a case already known by id)."""
    q = select(Case)
    if municipality is not None:
        q = q.where(Case.municipality == municipality)
    if isinstance(ref, int):
        q = q.where(Case.id == ref)
    elif PROTOCOL_RE.match(ref.strip()):
        q = q.where(Case.protocol == ref.strip())
    else:  # as typed or printed ("k7qm 42xd", "K7QM-42XD"), or an old code exactly
        keys = case_code_keys(ref) or ("",)
        q = q.where(Case.case_code.in_(keys))
    if for_update:
        q = q.with_for_update()
    found = (await session.execute(q)).scalars().all()
    case = min(found, key=lambda c: keys.index(c.case_code)) if len(found) > 1 else \
        (found[0] if found else None)
    if case is None:
        raise NotFound(NOT_FOUND)
    return case


def case_facts(case: Case) -> dict[str, Any]:
    """The facts accumulated on a case, plus what the lifecycle guards read from the case."""
    facts = dict((case.details or {}).get("facts", {}))
    facts.setdefault("category", case.category)
    return facts


async def apply_transition(core: Core, ref: str | int, code: str, actor: ActorRef,
                           facts: Mapping[str, Any] | None = None, *, agency: str | None = None,
                           session: AsyncSession | None = None) -> TransitionResult:
    """Take lifecycle step `code` on a case. In the caller's `session` if given (a larger
    use case), otherwise in a unit of work of its own."""
    async with core.transaction(session) as s:
        return await _apply(core, s, ref, code, actor, dict(facts or {}), agency)


async def _apply(core: Core, s: AsyncSession, ref: str | int, code: str, actor: ActorRef,
                 given: dict[str, Any], agency: str | None) -> TransitionResult:
    case = await load_case(s, ref, for_update=True)
    core = core.for_case(case)  # the case's law, calendar and settings, whoever asks
    lifecycle: Lifecycle = core.law.tracks[case.track]
    owner = (await s.execute(select(CaseOwner).where(CaseOwner.case_id == case.id))
             ).scalar_one_or_none()
    merged = case_facts(case)
    if owner is not None and owner.owner_name:
        merged["owner_name"] = owner.owner_name
    step = lifecycle.transitions.get(code)
    if step is not None:
        given = step.with_defaults(given, merged)
    merged.update(given)
    t = lifecycle.check(case.state, code, Actor(actor.kind), merged, agency=agency)

    now = core.now()
    previous = case.state
    prior_deadline = case.deadline_json
    case.state = t.target
    target = lifecycle.state(t.target)

    stored = {k: v for k, v in normalise_data(given).items() if k not in PRIVATE_FACTS}
    details = dict(case.details or {})
    details["facts"] = {**details.get("facts", {}), **stored}
    case.details = details
    await _keep_owner(s, case, owner, given)

    deadline = None
    if t.deadline is not None:
        deadline = await deadline_for(core, t, merged, now, lifecycle)
        case.deadline_json = deadline
        case.next_deadline_at = datetime.fromisoformat(deadline["due_at"]).astimezone(timezone.utc)
        case.next_deadline_kind = t.deadline.on_lapse or "info"
    elif t.target != previous:
        case.deadline_json = None
        case.next_deadline_at = None
        case.next_deadline_kind = None
    if target.final:
        case.is_open = False
        case.closed_at = now
        case.next_deadline_at = None
        await set_retention(core, s, case.id, now)  # Art. 6º, I, a: kept until the end
    elif not case.is_open:  # a closed case reopened (the law's reopen step): not the end
        case.is_open = True
        case.closed_at = None
        await clear_retention(s, case.id)

    event_data = {**stored, **_masked_owner(given), "from": previous, "to": t.target}
    if deadline:
        event_data["deadline"] = {k: deadline[k] for k in ("due", "article", "description")}
    if t.undo is not None:  # what revert_transition restores, exactly as it was
        event_data[PRIOR_DEADLINE] = prior_deadline
    ev = await append_event(s, case, actor, code, t.article, event_data, public=t.public, at=now)
    if t.public:
        await notify_subscribers(s, case, t, target.label, given, deadline, ev.seq,
                                 core.settings)
    return TransitionResult(case.id, case.protocol, previous, t.target, ev.seq, deadline)


@dataclass(frozen=True)
class RevertResult:
    case_id: int
    protocol: str
    undone: str  # the step taken back
    state: str  # the state restored (the lapse's target when the deadline had passed)
    event_seq: int
    deadline: dict[str, Any] | None  # the deadline restored, as it ran before the step
    deadline_passed: bool  # it had already passed: the case is due as it would have been
    lapsed: str | None  # the lapse step then taken (e.g. "lapse_deadline"), if any


async def revert_transition(core: Core, s: AsyncSession, case: Case, undo_code: str,
                            actor: ActorRef, data: Mapping[str, Any] | None = None, *,
                            outdated: bool = False) -> RevertResult:
    """Take back the step that the law's undo `undo_code` names (Transition.undo): the case
    returns to the state it was in before that step and to the deadline that was running
    then, exactly as it was counted — never extended by the step or by its withdrawal. The
    step must be the case's last lifecycle step (the case is still where it left it). If the
    restored deadline has already passed, its lapse is taken at once, as the sweep would have
    (the case is due as it would have been). In the caller's unit of work; TransitionRefused
    (Portuguese) otherwise."""
    core = core.for_case(case)
    lifecycle: Lifecycle = core.law.tracks[case.track]
    t = lifecycle.check_undo(case.state, undo_code, Actor(actor.kind), outdated=outdated)
    undo = t.undo
    events = (await s.execute(select(Event).where(Event.case_id == case.id)
                              .order_by(Event.seq))).scalars().all()
    steps = [ev for ev in events if lifecycle.is_step(ev.action)]
    last = steps[-1] if steps else None
    if last is None or last.action != t.code:
        raise TransitionRefused(f"“{undo.label}” não é mais possível: “{t.label}” já não é o "
                                "último passo do caso.", code=undo_code)
    before = dict(last.data or {})
    previous = str(before.get("from") or lifecycle.initial)
    prior = (before[PRIOR_DEADLINE] if PRIOR_DEADLINE in before
             else _legacy_prior(steps[:-1], lifecycle, core.tz))
    if prior:  # a closure registered meanwhile moves it (Lei 9.784/1999, art. 66, § 1º)
        prior = recount(dict(prior), await core.calendar(s), lifecycle) or prior
    now = core.now()
    case.state = previous
    case.deadline_json = prior
    due_at = datetime.fromisoformat(prior["due_at"]).astimezone(timezone.utc) if prior else None
    case.next_deadline_at = due_at
    case.next_deadline_kind = (prior.get("on_lapse") or "info") if prior else None
    passed = due_at is not None and due_at <= now
    event_data = {**normalise_data(dict(data or {})), "from": t.target, "to": previous,
                  "undoes": last.seq}
    if prior:
        event_data["deadline"] = {k: prior[k] for k in ("due", "article", "description")}
    if passed:
        event_data["deadline_passed"] = True
    ev = await append_event(s, case, actor, undo.code, undo.article, event_data,
                            public=t.public, at=now)
    if t.public:  # the followers were told of the step, so they are told it was taken back
        await notify_subscribers(s, case, t, lifecycle.state(previous).label, event_data,
                                 prior, ev.seq, core.settings)
    lapsed, state = None, previous
    if passed and prior.get("on_lapse"):
        try:
            res = await _apply(core, s, case.id, prior["on_lapse"], LAPSE_ACTOR, {}, None)
            lapsed, state = prior["on_lapse"], res.state
        except TransitionRefused:
            pass  # the sweep will clear it, as for any deadline it cannot act on
    return RevertResult(case.id, case.protocol, t.code, state, ev.seq, prior, passed, lapsed)


#: Why the system takes back a step recorded from a state the lifecycle no longer takes it from.
OUTDATED = ("Registro anterior desfeito pelo sistema: este passo não é mais dado a partir da "
            "situação em que foi registrado; o prazo que corria antes volta a valer, como "
            "estava.")


async def undo_outdated_step(core: Core, s: AsyncSession, case: Case) -> RevertResult | None:
    """The case's last step, taken back as its undo would (Transition.undo), when it was
    recorded from a state this lifecycle no longer takes it from (e.g. the owner's commitment
    recorded during the notice's period, before it became information beside the legal
    deadline, Dores Art. 6º, caput): the case returns to that state and its deadline. None
    when the last step is still one the law takes from there."""
    core = core.for_case(case)
    lifecycle: Lifecycle = core.law.tracks[case.track]
    steps = (await s.execute(select(Event).where(Event.case_id == case.id)
                             .order_by(Event.seq))).scalars().all()
    last = next((ev for ev in reversed(steps) if lifecycle.is_step(ev.action)), None)
    t = lifecycle.transitions.get(last.action) if last is not None else None
    if t is None or t.undo is None or case.state != t.target:
        return None
    source = (last.data or {}).get("from")
    if not source or source in t.sources:
        return None
    return await revert_transition(core, s, case, t.undo.code, LAPSE_ACTOR, {"reason": OUTDATED},
                                   outdated=True)


def _legacy_prior(steps: list[Event], lifecycle: Lifecycle, tz: ZoneInfo
                  ) -> dict[str, Any] | None:
    """For a step recorded before PRIOR_DEADLINE was kept: the deadline the step before it
    started (from its event), or None when that step started none."""
    if not steps:
        return None
    ev = steps[-1]
    t = lifecycle.transitions.get(ev.action)
    dl = (ev.data or {}).get("deadline")
    if not dl or t is None or t.deadline is None:
        return None
    due = date.fromisoformat(dl["due"])
    due_at = datetime.combine(due, time(23, 59, 59), tz)
    if t.deadline.unit == "hours" and t.deadline.starts_from == "event":
        due_at = ev.at + timedelta(hours=t.deadline.amount)
    return {"transition": t.code, "description": dl["description"], "article": dl["article"],
            "amount": t.deadline.amount, "unit": t.deadline.unit, "due": due.isoformat(),
            "due_at": due_at.isoformat(), "due_in_full": date_in_full(due), "explanation": "",
            "skipped": [], "on_lapse": t.deadline.on_lapse}


async def _keep_owner(s: AsyncSession, case: Case, owner: CaseOwner | None,
                      given: Mapping[str, Any]) -> None:
    values = {col: str(given[f]).strip() for f, col in OWNER_FACTS.items() if given.get(f)}
    if not values:
        return
    if owner is None:
        owner = CaseOwner(case_id=case.id)
        s.add(owner)
    for col, value in values.items():
        setattr(owner, col, value)
    owner.updated_at = datetime.now(timezone.utc)


def _masked_owner(given: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if given.get("owner_name"):
        out["owner_identified"] = True
    doc = str(given.get("owner_document") or "")
    if doc:
        digits = "".join(ch for ch in doc if ch.isdigit())
        out["owner_document"] = mask_cpf(digits) if len(digits) == 11 else "***"
    return out


# -- deadlines --------------------------------------------------------------------------------

async def deadline_for(core: Core, t: Transition, facts: Mapping[str, Any], now: datetime,
                       lifecycle: Lifecycle) -> dict[str, Any]:
    """Count the deadline `t` starts and describe it (JSON-ready)."""
    rule: DeadlineRule = t.deadline  # type: ignore[assignment]
    cal = await core.calendar()
    if rule.starts_from == "event":
        start: date | datetime = now
        event = t.label
    else:
        start = _as_date_or_datetime(facts.get(rule.starts_from))
        event = START_EVENTS.get(rule.starts_from) or lifecycle.label_fact(rule.starts_from)
    if rule.amount == 0:  # a date fixed by the act itself (e.g. agreed with the inspector)
        due = start.astimezone(cal.tz).date() if isinstance(start, datetime) else start
        due_at = datetime.combine(due, time(23, 59, 59), cal.tz)
        explanation = f"Prazo combinado: até {fmt_date(due)} ({rule.article})."
        skipped: list = []
    else:
        count = cal.count_days if rule.unit == "days" else cal.count_hours
        d = count(start, rule.amount, article=rule.article, event=event)
        due, due_at, explanation = d.due, d.due_at, d.explain()
        skipped = [[day.isoformat(), why] for day, why in d.skipped]
    return {"transition": t.code, "description": rule.description, "article": rule.article,
            "amount": rule.amount, "unit": rule.unit, "start": _iso(start),
            "due": due.isoformat(), "due_at": due_at.isoformat(), "due_in_full": date_in_full(due),
            "explanation": explanation, "skipped": skipped, "on_lapse": rule.on_lapse}


def _as_date_or_datetime(value: Any) -> date | datetime:
    if isinstance(value, (date, datetime)):
        return value
    text = str(value)
    if "T" in text or " " in text:
        dt = datetime.fromisoformat(text)
        return dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)
    return date.fromisoformat(text)


def _iso(value: date | datetime) -> str:
    return value.isoformat()


