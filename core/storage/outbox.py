"""Transactional outbox for Telegram messages.

`enqueue` writes the message in the same transaction as the change it reports, so a change
is never committed without its notification nor a notification sent for a rolled-back change.
A unique `dedupe_key` (e.g. "case:42:event:7:chat:123") makes a second enqueue of the same
logical message a no-op.

Per-chat order: `claim_due` only ever claims the *head* of a chat, the oldest message of that
chat not yet delivered (pending, backing off, or being sent). A chat's later message therefore
waits while an earlier one is undelivered, across restarts (the order lives in the table, by
id) and across several senders: on PostgreSQL the claim locks with FOR UPDATE SKIP LOCKED, and
a message being sent by another sender is `sending` (committed) and still blocks its chat.
A dead letter (`failed`) no longer blocks its chat.

Delivery is at-least-once. `claim_due` marks messages `sending` with a lease
(`next_attempt_at = now + lease`) and commits before anything is sent. The sender then calls
`mark_sent`, `release` (the destination failed: Telegram down, or this chat rate-limited; the
attempt is not counted against the message) or `mark_failed` (the message itself failed).
If the sender crashes after sending but before `mark_sent`, the message is claimed and sent
again (at once by the sender's next process on the same host, `release_claims_of` and
`release_orphaned_claims`; by another sender when the lease expires): a duplicate is possible in that window (Telegram has no idempotency key for
sendMessage), a lost message is not. A message in parts saves its progress after each part
(`save_progress`), so only the part in flight can be duplicated. Exactly-once would need the receiver to
deduplicate, which a chat cannot.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Callable, Mapping

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from core.storage.db import Database
from core.storage.dialect import insert_ignore
from core.storage.models import ChatPace, OutboxMessage, Person
from core.storage.types import utcnow

PENDING, SENDING, SENT, FAILED = "pending", "sending", "sent", "failed"
TELEGRAM, WHATSAPP = "telegram", "whatsapp"  # the channels; each has its own sender
UNDELIVERED = (PENDING, SENDING)
LEASE = timedelta(seconds=60)
BACKOFF_BASE = timedelta(seconds=5)
BACKOFF_MAX = timedelta(hours=1)
MAX_ATTEMPTS = 5  # failures of the message itself (a destination outage does not count)
MAX_AGE = timedelta(days=3)  # undelivered for this long (e.g. a long outage): a dead letter
EXPIRED = "Não entregue em {days} dias: {error}"


@dataclass(frozen=True)
class ClaimedMessage:
    id: int
    chat_id: int
    kind: str
    payload: dict[str, Any]
    dedupe_key: str
    attempts: int  # including this one
    progress: dict[str, Any] = field(default_factory=dict)  # parts done / refused so far
    blocked: bool = False  # the recipient blocked the bot (Person.blocked_bot_at)


async def enqueue(session: AsyncSession, chat_id: int, kind: str, payload: Mapping[str, Any],
                  dedupe_key: str, not_before: datetime | None = None,
                  channel: str = TELEGRAM) -> bool:
    """Queue a message in the caller's transaction. False if `dedupe_key` was already queued.
    (A message with `not_before` in the future holds its chat's later messages until then.)
    `chat_id` is a chat of `channel` (on WhatsApp, the person's number as digits)."""
    now = utcnow()
    values = {"channel": channel, "chat_id": chat_id, "kind": kind, "payload": dict(payload),
              "dedupe_key": dedupe_key, "status": PENDING, "attempts": 0,
              "created_at": now, "next_attempt_at": not_before or now}
    result = await session.execute(
        insert_ignore(session, OutboxMessage.__table__, values, ["dedupe_key"]))
    return result.rowcount == 1


def backoff(attempts: int) -> timedelta:
    """Delay before retry number `attempts` + 1: 5 s, 10 s, 20 s … capped at one hour."""
    return min(BACKOFF_BASE * (2 ** max(0, attempts - 1)), BACKOFF_MAX)


def _heads(now: datetime, channel: str):
    """Due messages that are the oldest undelivered one of their chat, in chats not paused
    by Telegram's per-chat limit (core.storage.send_limits: a claimed message never waits
    for its chat while other chats could go)."""
    earlier = aliased(OutboxMessage)
    ahead = select(earlier.id).where(
        earlier.channel == OutboxMessage.channel, earlier.chat_id == OutboxMessage.chat_id,
        earlier.status.in_(UNDELIVERED),
        earlier.id < OutboxMessage.id).exists()
    paused = select(ChatPace.chat_id).where(ChatPace.chat_id == OutboxMessage.chat_id,
                                            ChatPace.busy_until > now.timestamp()).exists()
    if channel != TELEGRAM:  # Telegram's per-chat pace is Telegram's alone
        return (OutboxMessage.channel == channel, OutboxMessage.status.in_(UNDELIVERED),
                OutboxMessage.next_attempt_at <= now, ~ahead)
    return (OutboxMessage.channel == channel, OutboxMessage.status.in_(UNDELIVERED),
            OutboxMessage.next_attempt_at <= now, ~ahead, ~paused)


async def claim_due(db: Database, limit: int = 20, now: datetime | None = None,
                    lease: timedelta = LEASE, sender: str | None = None,
                    channel: str = TELEGRAM) -> list[ClaimedMessage]:
    """Claim up to `limit` chat heads due at `now` (pending, or sending with an expired lease),
    at most one per chat, oldest due first, in a short transaction of their own, for
    `sender` (see `release_claims_of`)."""
    now = now or utcnow()
    due = _heads(now, channel)
    async with db.read() as session:  # nothing due (the usual case): no write lock taken
        if (await session.execute(select(OutboxMessage.id).where(*due).limit(1))).first() is None:
            return []
    async with db.unit_of_work() as session:
        rows = (await session.execute(
            select(OutboxMessage).where(*due)
            .order_by(OutboxMessage.next_attempt_at, OutboxMessage.id)
            .limit(limit).with_for_update(skip_locked=True, of=OutboxMessage))).scalars().all()
        if not rows:
            return []
        ids = [r.id for r in rows]
        await session.execute(
            update(OutboxMessage).where(OutboxMessage.id.in_(ids))
            .values(status=SENDING, attempts=OutboxMessage.attempts + 1,
                    next_attempt_at=now + lease, claimed_by=sender)
            .execution_options(synchronize_session=False))
        blocked = set((await session.execute(select(Person.telegram_id).where(
            Person.telegram_id.in_({r.chat_id for r in rows}),
            Person.blocked_bot_at.is_not(None)))).scalars().all()) if channel == TELEGRAM else set()
        return [ClaimedMessage(r.id, r.chat_id, r.kind, dict(r.payload), r.dedupe_key,
                               r.attempts + 1, dict(r.progress or {}), r.chat_id in blocked)
                for r in rows]


async def release_claims_of(db: Database, sender: str, now: datetime | None = None) -> int:
    """At a sender's start: the messages its previous run claimed and never settled (it was
    killed mid-delivery) are due again now instead of when their lease ends. Each may have
    reached Telegram already: that is the at-least-once window (one duplicate at most per
    message in flight). Only this sender's own claims: another sender's lease is left alone."""
    async with db.unit_of_work() as session:
        result = await session.execute(
            update(OutboxMessage)
            .where(OutboxMessage.status == SENDING, OutboxMessage.claimed_by == sender)
            .values(status=PENDING, next_attempt_at=now or utcnow()))
        return result.rowcount


async def release_orphaned_claims(db: Database, sender: str,
                                  is_dead: Callable[[str], bool],
                                  now: datetime | None = None) -> int:
    """At a sender's start: the claims of other senders that `is_dead` recognises as gone
    (e.g. an earlier process on this host, killed) are due again now, not when their lease
    ends. Claims of senders it cannot tell about (another host) wait for their lease."""
    async with db.read() as session:
        names = set((await session.execute(
            select(OutboxMessage.claimed_by).where(OutboxMessage.status == SENDING,
                                                   OutboxMessage.claimed_by.is_not(None),
                                                   OutboxMessage.claimed_by != sender)
            .distinct())).scalars().all())
    released = 0
    for name in sorted(n for n in names if is_dead(n)):
        released += await release_claims_of(db, name, now)
    return released


async def mark_sent(db: Database, message_id: int, now: datetime | None = None,
                    progress: Mapping[str, Any] | None = None) -> bool:
    """Record delivery. False if the message was not being sent (already sent or failed)."""
    values: dict[str, Any] = {"status": SENT, "sent_at": now or utcnow(), "last_error": None}
    if progress:
        values["progress"] = dict(progress)
    async with db.unit_of_work() as session:
        result = await session.execute(
            update(OutboxMessage)
            .where(OutboxMessage.id == message_id, OutboxMessage.status == SENDING)
            .values(**values))
        return result.rowcount == 1


async def save_progress(db: Database, message_id: int, progress: Mapping[str, Any]) -> None:
    """Record the parts of a message delivered so far (while it is being sent), so a sender
    killed between parts resends only the part in flight."""
    async with db.unit_of_work() as session:
        await session.execute(
            update(OutboxMessage)
            .where(OutboxMessage.id == message_id, OutboxMessage.status == SENDING)
            .values(progress=dict(progress)))


async def release(db: Database, message_ids: list[int], error: str | None = None, *,
                  retry_at: datetime | None = None, progress: Mapping[str, Any] | None = None,
                  now: datetime | None = None) -> None:
    """Give claimed messages back, their attempt not counted: the destination failed (Telegram
    down, or the chat is rate-limited until `retry_at`), or they were not tried at all. A
    message undelivered for longer than MAX_AGE becomes a dead letter instead."""
    if not message_ids:
        return
    now = now or utcnow()
    async with db.unit_of_work() as session:
        rows = (await session.execute(select(OutboxMessage).where(
            OutboxMessage.id.in_(message_ids), OutboxMessage.status == SENDING)
            .with_for_update())).scalars().all()
        for msg in rows:
            msg.attempts = max(0, msg.attempts - 1)
            if progress is not None:
                msg.progress = dict(progress)
            if error is not None:
                msg.last_error = error[:2000]
            if error is not None and now - msg.created_at > MAX_AGE:
                msg.status, msg.failed_at = FAILED, now
                msg.last_error = EXPIRED.format(days=MAX_AGE.days, error=error)[:2000]
            else:
                msg.status, msg.next_attempt_at = PENDING, retry_at or now


async def mark_failed(db: Database, message_id: int, error: str,
                      retry_after: timedelta | float | None = None, *, permanent: bool = False,
                      now: datetime | None = None, max_attempts: int = MAX_ATTEMPTS,
                      progress: Mapping[str, Any] | None = None) -> str:
    """Record a failed attempt of the message itself; return the new status. The retry waits
    `retry_after` or the exponential backoff (and holds the chat's later messages); after
    `max_attempts`, or when `permanent`, the message becomes a dead letter (`failed`)."""
    now = now or utcnow()
    if isinstance(retry_after, (int, float)):
        retry_after = timedelta(seconds=retry_after)
    async with db.unit_of_work() as session:
        msg = await session.get(OutboxMessage, message_id, with_for_update=True)
        if msg is None or msg.status != SENDING:
            return msg.status if msg else FAILED
        msg.last_error = error[:2000]
        if progress is not None:
            msg.progress = dict(progress)
        if permanent or msg.attempts >= max_attempts:
            msg.status, msg.failed_at = FAILED, now
        else:
            msg.status = PENDING
            msg.next_attempt_at = now + (retry_after or backoff(msg.attempts))
        return msg.status
