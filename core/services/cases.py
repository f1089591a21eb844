"""Moving a case through its lifecycle: the one place a case changes state.

`apply_transition` asks the law's lifecycle whether the actor may take the step with the
facts at hand, then in one unit of work: changes the state, counts the deadline the step
starts (core.legal_calendar), appends the hash-chained event with the article, keeps the
owner's personal data apart (CaseOwner), and queues the messages the change causes (outbox).
A refused step raises TransitionRefused and writes nothing.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timezone
from typing import Any, Mapping

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core.formatting import date_in_full, fmt_date
from core.identifiers import case_code_keys, mask_cpf
from core.lifecycle import Actor, DeadlineRule, Lifecycle, Transition
from core.services.context import Core
from core.services.errors import NotFound
from core.services.notifications import notify_subscribers
from core.services.retention import set_retention
from core.storage.models import Case, CaseOwner
from core.storage.protocol import PROTOCOL_RE
from core.storage.timeline import ActorRef, append_event, normalise_data

#: Facts that are the owner's personal data: kept in CaseOwner, never in the case's details.
OWNER_FACTS = {"owner_name": "owner_name", "owner_document": "owner_cpf",
               "owner_contact": "owner_contact"}
#: Facts that stay out of the stored case facts (kept only as masked event data).
PRIVATE_FACTS = set(OWNER_FACTS) | {"owner_address"}

NOT_FOUND = "Não encontramos esse caso. Confira o número do protocolo (formato AAAA-NNNNNN)."


@dataclass(frozen=True)
class TransitionResult:
    case_id: int
    protocol: str
    previous_state: str
    state: str
    event_seq: int
    deadline: dict[str, Any] | None


async def load_case(session: AsyncSession, ref: str | int, *, for_update: bool = False) -> Case:
    """A case by id, protocol (AAAA-NNNNNN) or case code; NotFound otherwise."""
    q = select(Case)
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
    if session is not None:
        return await _apply(core, session, ref, code, actor, dict(facts or {}), agency)
    async with core.db.unit_of_work() as s:
        return await _apply(core, s, ref, code, actor, dict(facts or {}), agency)


async def _apply(core: Core, s: AsyncSession, ref: str | int, code: str, actor: ActorRef,
                 given: dict[str, Any], agency: str | None) -> TransitionResult:
    case = await load_case(s, ref, for_update=True)
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

    event_data = {**stored, **_masked_owner(given), "from": previous, "to": t.target}
    if deadline:
        event_data["deadline"] = {k: deadline[k] for k in ("due", "article", "description")}
    ev = await append_event(s, case, actor, code, t.article, event_data, public=t.public, at=now)
    if t.public:
        await notify_subscribers(s, case, t, target.label, given, deadline, ev.seq)
    return TransitionResult(case.id, case.protocol, previous, t.target, ev.seq, deadline)


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
        event = lifecycle.label_fact(rule.starts_from)
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


