"""Transactional outbox for e-mails: core.storage.outbox's rules, with an address for a chat.

`enqueue` writes in the caller's transaction (a change is never committed without its e-mail,
nor an e-mail sent for a rolled-back change); a unique `dedupe_key` makes a second enqueue a
no-op. Per-address order: `claim_due` claims only an address's head (its oldest undelivered
message), so a later e-mail waits while an earlier one to the same address is retried, across
restarts and senders (FOR UPDATE SKIP LOCKED on PostgreSQL). A dead letter (`failed`) no
longer blocks its address. Delivery is at-least-once: a sender killed after the SMTP server
took the message but before `mark_sent` leaves it claimed, and a sender sends it again when
the lease (outbox.LEASE) ends.

Outcomes, as for Telegram: `mark_sent`; `release` (the SMTP server is down or unreachable:
the attempt is not counted; undelivered after outbox.MAX_AGE it becomes a dead letter);
`mark_failed` (the server refused the message: counted, retried with outbox.backoff, a dead
letter after outbox.MAX_ATTEMPTS or at once when `permanent`, e.g. a 5xx refusal)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Mapping

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from core.storage.db import Database
from core.storage.dialect import insert_ignore
from core.storage.models_email import EmailMessage
from core.storage.outbox import (EXPIRED, FAILED, LEASE, MAX_AGE, MAX_ATTEMPTS, PENDING, SENDING,
                                 SENT, UNDELIVERED, backoff)
from core.storage.types import utcnow

STOPPED = "stopped"  # not sent: the person stopped this case's e-mails (never a dead letter)

__all__ = ["FAILED", "PENDING", "SENDING", "SENT", "STOPPED", "ClaimedEmail", "enqueue",
           "claim_due", "mark_sent", "release", "mark_failed"]


@dataclass(frozen=True)
class ClaimedEmail:
    id: int
    case_id: int | None
    address: str
    role: str
    kind: str
    payload: dict[str, Any]
    attempts: int  # including this one


async def enqueue(session: AsyncSession, *, case_id: int | None, address: str, role: str,
                  kind: str, payload: Mapping[str, Any], dedupe_key: str) -> bool:
    """Queue an e-mail in the caller's transaction. False if `dedupe_key` was already queued."""
    now = utcnow()
    values = {"case_id": case_id, "address": address, "role": role, "kind": kind,
              "payload": dict(payload), "dedupe_key": dedupe_key, "status": PENDING,
              "attempts": 0, "created_at": now, "next_attempt_at": now}
    result = await session.execute(
        insert_ignore(session, EmailMessage.__table__, values, ["dedupe_key"]))
    return result.rowcount == 1


def _heads(now: datetime):
    earlier = aliased(EmailMessage)
    ahead = select(earlier.id).where(
        earlier.address == EmailMessage.address, earlier.status.in_(UNDELIVERED),
        earlier.id < EmailMessage.id).exists()
    return (EmailMessage.status.in_(UNDELIVERED), EmailMessage.next_attempt_at <= now, ~ahead)


async def claim_due(db: Database, limit: int = 20, now: datetime | None = None,
                    lease: timedelta = LEASE, sender: str | None = None) -> list[ClaimedEmail]:
    """Claim up to `limit` address heads due at `now`, oldest due first, in a short
    transaction of their own."""
    now = now or utcnow()
    due = _heads(now)
    async with db.read() as session:
        if (await session.execute(select(EmailMessage.id).where(*due).limit(1))).first() is None:
            return []
    async with db.unit_of_work() as session:
        rows = (await session.execute(
            select(EmailMessage).where(*due)
            .order_by(EmailMessage.next_attempt_at, EmailMessage.id)
            .limit(limit).with_for_update(skip_locked=True, of=EmailMessage))).scalars().all()
        if not rows:
            return []
        await session.execute(
            update(EmailMessage).where(EmailMessage.id.in_([r.id for r in rows]))
            .values(status=SENDING, attempts=EmailMessage.attempts + 1,
                    next_attempt_at=now + lease, claimed_by=sender)
            .execution_options(synchronize_session=False))
        return [ClaimedEmail(r.id, r.case_id, r.address, r.role, r.kind, dict(r.payload),
                             r.attempts + 1) for r in rows]


async def mark_sent(db: Database, message_id: int, now: datetime | None = None) -> bool:
    async with db.unit_of_work() as session:
        result = await session.execute(
            update(EmailMessage)
            .where(EmailMessage.id == message_id, EmailMessage.status == SENDING)
            .values(status=SENT, sent_at=now or utcnow(), last_error=None))
        return result.rowcount == 1


async def release(db: Database, message_ids: list[int], error: str | None = None, *,
                  now: datetime | None = None) -> None:
    """Give claimed messages back, their attempt not counted (the server is down, or they
    were not tried); undelivered for longer than MAX_AGE: a dead letter instead."""
    if not message_ids:
        return
    now = now or utcnow()
    async with db.unit_of_work() as session:
        rows = (await session.execute(select(EmailMessage).where(
            EmailMessage.id.in_(message_ids), EmailMessage.status == SENDING)
            .with_for_update())).scalars().all()
        for msg in rows:
            msg.attempts = max(0, msg.attempts - 1)
            if error is not None:
                msg.last_error = error[:2000]
            if error is not None and now - msg.created_at > MAX_AGE:
                msg.status, msg.failed_at = FAILED, now
                msg.last_error = EXPIRED.format(days=MAX_AGE.days, error=error)[:2000]
            else:
                msg.status, msg.next_attempt_at = PENDING, now


async def mark_failed(db: Database, message_id: int, error: str, *, permanent: bool = False,
                      now: datetime | None = None, max_attempts: int = MAX_ATTEMPTS) -> str:
    """A failed attempt of the message itself; returns the new status (`failed` after
    `max_attempts`, or at once when `permanent`; else retried after the backoff)."""
    now = now or utcnow()
    async with db.unit_of_work() as session:
        msg = await session.get(EmailMessage, message_id, with_for_update=True)
        if msg is None or msg.status != SENDING:
            return msg.status if msg else FAILED
        msg.last_error = error[:2000]
        if permanent or msg.attempts >= max_attempts:
            msg.status, msg.failed_at = FAILED, now
        else:
            msg.status = PENDING
            msg.next_attempt_at = now + backoff(msg.attempts)
        return msg.status
