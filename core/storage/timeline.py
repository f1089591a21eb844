"""The case timeline: append-only events chained by SHA-256.

Each event's `hash` is SHA-256 (hex) over a canonical JSON of its content — case id, seq,
time, actor, action, article, data, public flag — together with the previous event's hash.
Editing, deleting or reordering any stored event breaks the chain from that event on, and
`verify_chain` names the first broken `seq`.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import date, datetime, timezone
from decimal import Decimal
from enum import Enum
from typing import Any, Mapping

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core.storage.models import Case, Event
from core.storage.types import utcnow


@dataclass(frozen=True)
class ActorRef:
    """Who did it: kind is a core.lifecycle.Actor value (citizen, inspector, owner, staff,
    system); id and name as the timeline should record them."""

    kind: str
    id: str | int | None = None
    name: str | None = None


@dataclass(frozen=True)
class ChainReport:
    ok: bool
    first_broken_seq: int | None = None
    reason: str = ""
    length: int = 0


def _plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, datetime):
        return value.astimezone(timezone.utc).isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      default=_plain, allow_nan=False)


def normalise_data(data: Mapping[str, Any] | None) -> dict[str, Any]:
    """What the database will give back for `data` (Decimal/date → str), so the hash made
    now is the hash recomputed later."""
    return json.loads(canonical_json(dict(data or {})))


def event_hash(*, case_id: int, seq: int, at: datetime, actor_kind: str, actor_id: str | None,
               actor_name: str | None, action: str, article: str | None, data: Mapping[str, Any],
               public: bool, prev_hash: str | None) -> str:
    content = {
        "case_id": case_id, "seq": seq,
        "at": at.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
        "actor_kind": actor_kind, "actor_id": actor_id, "actor_name": actor_name,
        "action": action, "article": article, "data": data, "public": bool(public),
        "prev_hash": prev_hash,
    }
    return hashlib.sha256(canonical_json(content).encode("utf-8")).hexdigest()


def _hash_of(ev: Event) -> str:
    return event_hash(case_id=ev.case_id, seq=ev.seq, at=ev.at, actor_kind=ev.actor_kind,
                      actor_id=ev.actor_id, actor_name=ev.actor_name, action=ev.action,
                      article=ev.article, data=ev.data, public=ev.public, prev_hash=ev.prev_hash)


async def append_event(session: AsyncSession, case: Case | int, actor: ActorRef, action: str,
                       article: str | None = None, data: Mapping[str, Any] | None = None,
                       public: bool = True, at: datetime | None = None) -> Event:
    """Append an event to the case's timeline (in the caller's transaction) and return it.

    On PostgreSQL the case row is locked first (SELECT ... FOR UPDATE), so two concurrent
    appends to one case queue instead of racing for the same seq; on SQLite the unit of
    work's BEGIN IMMEDIATE already makes this transaction the only writer. Given a Case
    object, its `updated_at` is moved to the event's time (flushed with the caller's other
    changes to the case); given an id, the caller keeps `updated_at` current."""
    case_id = case if isinstance(case, int) else case.id
    at = (at or utcnow()).astimezone(timezone.utc)
    if session.get_bind().dialect.name != "sqlite":
        await session.execute(select(Case.id).where(Case.id == case_id).with_for_update())
    if isinstance(case, Case) and (case.updated_at is None or case.updated_at < at):
        case.updated_at = at
    last = (await session.execute(
        select(Event.seq, Event.hash).where(Event.case_id == case_id)
        .order_by(Event.seq.desc()).limit(1))).first()
    seq, prev_hash = (last.seq + 1, last.hash) if last else (1, None)
    ev = build_event(case_id, seq, prev_hash, actor, action, article, data, public, at)
    session.add(ev)
    await session.flush()
    return ev


def build_event(case_id: int, seq: int, prev_hash: str | None, actor: ActorRef, action: str,
                article: str | None = None, data: Mapping[str, Any] | None = None,
                public: bool = True, at: datetime | None = None) -> Event:
    """The hashed Event that `append_event` would add as number `seq` after `prev_hash`, not
    yet added to any session. Use it directly only for the first event (seq 1, prev_hash None)
    of a case created in the same transaction, so no earlier event can exist."""
    at = (at or utcnow()).astimezone(timezone.utc)
    actor_id = None if actor.id is None else str(actor.id)
    kind = actor.kind.value if isinstance(actor.kind, Enum) else str(actor.kind)
    ev = Event(case_id=case_id, seq=seq, at=at, actor_kind=kind, actor_id=actor_id,
               actor_name=actor.name, action=action, article=article,
               data=normalise_data(data), public=bool(public), prev_hash=prev_hash)
    ev.hash = _hash_of(ev)
    return ev


async def verify_chain(session: AsyncSession, case_id: int) -> ChainReport:
    """Recompute the case's chain; report the first event whose content or link is wrong."""
    events = (await session.execute(
        select(Event).where(Event.case_id == case_id).order_by(Event.seq)
        .execution_options(populate_existing=True))).scalars().all()
    prev: str | None = None
    for expected_seq, ev in enumerate(events, start=1):
        if ev.seq != expected_seq:
            return ChainReport(False, expected_seq, f"evento {expected_seq} ausente", len(events))
        if ev.prev_hash != prev:
            return ChainReport(False, ev.seq, "elo com o evento anterior não confere", len(events))
        if _hash_of(ev) != ev.hash:
            return ChainReport(False, ev.seq, "conteúdo do evento foi alterado", len(events))
        prev = ev.hash
    return ChainReport(True, None, "", len(events))
