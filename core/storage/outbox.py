"""Transactional outbox for Telegram messages.

`enqueue` writes the message in the same transaction as the change it reports, so a change
is never committed without its notification nor a notification sent for a rolled-back change.
A unique `dedupe_key` (e.g. "case:42:event:7:chat:123") makes a second enqueue of the same
logical message a no-op.

Delivery is at-least-once. `claim_due` marks messages `sending` with a lease
(`next_attempt_at = now + lease`) and commits before anything is sent. The sender then calls
`mark_sent` or `mark_failed`. If it crashes after sending but before `mark_sent`, the lease
expires and the message is claimed and sent again: a duplicate is possible in that window
(Telegram has no idempotency key for sendMessage), a lost message is not. Exactly-once would
need the receiver to deduplicate, which a chat cannot. Senders are meant to be one process;
on PostgreSQL the claim also uses FOR UPDATE SKIP LOCKED, so two senders never claim the
same message within a lease.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Mapping

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from core.storage.db import Database
from core.storage.dialect import insert_ignore
from core.storage.models import OutboxMessage
from core.storage.types import utcnow

PENDING, SENDING, SENT, FAILED = "pending", "sending", "sent", "failed"
LEASE = timedelta(seconds=60)
BACKOFF_BASE = timedelta(seconds=5)
BACKOFF_MAX = timedelta(hours=1)
MAX_ATTEMPTS = 8


@dataclass(frozen=True)
class ClaimedMessage:
    id: int
    chat_id: int
    kind: str
    payload: dict[str, Any]
    dedupe_key: str
    attempts: int  # including this one


async def enqueue(session: AsyncSession, chat_id: int, kind: str, payload: Mapping[str, Any],
                  dedupe_key: str, not_before: datetime | None = None) -> bool:
    """Queue a message in the caller's transaction. False if `dedupe_key` was already queued."""
    now = utcnow()
    values = {"chat_id": chat_id, "kind": kind, "payload": dict(payload),
              "dedupe_key": dedupe_key, "status": PENDING, "attempts": 0,
              "created_at": now, "next_attempt_at": not_before or now}
    result = await session.execute(
        insert_ignore(session, OutboxMessage.__table__, values, ["dedupe_key"]))
    return result.rowcount == 1


def backoff(attempts: int) -> timedelta:
    """Delay before retry number `attempts` + 1: 5 s, 10 s, 20 s … capped at one hour."""
    return min(BACKOFF_BASE * (2 ** max(0, attempts - 1)), BACKOFF_MAX)


async def claim_due(db: Database, limit: int = 20, now: datetime | None = None,
                    lease: timedelta = LEASE) -> list[ClaimedMessage]:
    """Claim up to `limit` messages due at `now` (pending, or sending with an expired lease),
    oldest due first, in a short transaction of their own."""
    now = now or utcnow()
    due = (OutboxMessage.status.in_((PENDING, SENDING)), OutboxMessage.next_attempt_at <= now)
    async with db.read() as session:  # nothing due (the usual case): no write lock taken
        if (await session.execute(select(OutboxMessage.id).where(*due).limit(1))).first() is None:
            return []
    async with db.unit_of_work() as session:
        rows = (await session.execute(
            select(OutboxMessage).where(*due)
            .order_by(OutboxMessage.next_attempt_at, OutboxMessage.id)
            .limit(limit).with_for_update(skip_locked=True))).scalars().all()
        if not rows:
            return []
        ids = [r.id for r in rows]
        await session.execute(
            update(OutboxMessage).where(OutboxMessage.id.in_(ids))
            .values(status=SENDING, attempts=OutboxMessage.attempts + 1,
                    next_attempt_at=now + lease)
            .execution_options(synchronize_session=False))
        return [ClaimedMessage(r.id, r.chat_id, r.kind, dict(r.payload), r.dedupe_key,
                               r.attempts + 1) for r in rows]


async def mark_sent(db: Database, message_id: int, now: datetime | None = None) -> bool:
    """Record delivery. False if the message was not being sent (already sent or failed)."""
    async with db.unit_of_work() as session:
        result = await session.execute(
            update(OutboxMessage)
            .where(OutboxMessage.id == message_id, OutboxMessage.status == SENDING)
            .values(status=SENT, sent_at=now or utcnow(), last_error=None))
        return result.rowcount == 1


async def mark_failed(db: Database, message_id: int, error: str,
                      retry_after: timedelta | float | None = None, *, permanent: bool = False,
                      now: datetime | None = None, max_attempts: int = MAX_ATTEMPTS) -> str:
    """Record a failed attempt; return the new status. The retry waits `retry_after` (e.g.
    Telegram's 429 `retry_after`) or the exponential backoff; after `max_attempts`, or when
    `permanent` (the user blocked the bot), the message is given up as failed."""
    now = now or utcnow()
    if isinstance(retry_after, (int, float)):
        retry_after = timedelta(seconds=retry_after)
    async with db.unit_of_work() as session:
        msg = await session.get(OutboxMessage, message_id, with_for_update=True)
        if msg is None or msg.status != SENDING:
            return msg.status if msg else FAILED
        msg.last_error = error[:2000]
        if permanent or msg.attempts >= max_attempts:
            msg.status = FAILED
        else:
            msg.status = PENDING
            msg.next_attempt_at = now + (retry_after or backoff(msg.attempts))
        return msg.status
