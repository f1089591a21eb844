"""Notifications survive crashes (at-least-once) and are never queued twice."""
from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from core.storage import outbox
from core.storage.models import OutboxMessage
from core.storage.types import utcnow


async def _count(db) -> int:
    async with db.read() as s:
        return await s.scalar(select(func.count()).select_from(OutboxMessage))


async def test_message_survives_sender_crash_and_is_sent_once(db):
    now = utcnow()
    async with db.unit_of_work() as s:
        assert await outbox.enqueue(s, 555, "status", {"text": "Seu caso mudou."}, "case:1:ev:2",
                                    not_before=now)
    # sender A claims the message, then "crashes" before marking it sent
    claimed = await outbox.claim_due(db, now=now)
    assert [m.dedupe_key for m in claimed] == ["case:1:ev:2"]
    assert await outbox.claim_due(db, now=now + timedelta(seconds=5)) == []  # lease held
    # a new sender after the lease: claims it, sends, marks sent
    again = await outbox.claim_due(db, now=now + outbox.LEASE + timedelta(seconds=1))
    assert [m.id for m in again] == [claimed[0].id] and again[0].attempts == 2
    assert again[0].payload == {"text": "Seu caso mudou."} and again[0].chat_id == 555
    assert await outbox.mark_sent(db, again[0].id)
    assert await outbox.claim_due(db, now=now + timedelta(days=1)) == []
    assert not await outbox.mark_sent(db, again[0].id)  # the stale sender's late ack is ignored


async def test_same_dedupe_key_adds_nothing(db):
    async with db.unit_of_work() as s:
        assert await outbox.enqueue(s, 1, "status", {"text": "a"}, "k1")
    async with db.unit_of_work() as s:
        assert not await outbox.enqueue(s, 1, "status", {"text": "b"}, "k1")
        assert not await outbox.enqueue(s, 1, "status", {"text": "c"}, "k1")
    assert await _count(db) == 1
    msgs = await outbox.claim_due(db, now=utcnow())
    assert [m.payload["text"] for m in msgs] == ["a"]


async def test_rolled_back_change_sends_nothing(db):
    with pytest.raises(ValueError):
        async with db.unit_of_work() as s:
            await outbox.enqueue(s, 1, "status", {"text": "x"}, "k2")
            raise ValueError("transition refused")
    assert await _count(db) == 0


async def test_failures_back_off_then_give_up(db):
    now = utcnow()
    async with db.unit_of_work() as s:
        await outbox.enqueue(s, 1, "status", {"text": "x"}, "k3", not_before=now)
    delays = []
    t = now
    for attempt in range(1, 4):
        [m] = await outbox.claim_due(db, now=t)
        assert m.attempts == attempt
        assert await outbox.mark_failed(db, m.id, "timeout", now=t, max_attempts=4) == "pending"
        async with db.read() as s:
            nxt = (await s.get(OutboxMessage, m.id)).next_attempt_at
        delays.append(nxt - t)
        assert await outbox.claim_due(db, now=nxt - timedelta(seconds=1)) == []
        t = nxt
    assert delays == [timedelta(seconds=5), timedelta(seconds=10), timedelta(seconds=20)]
    [m] = await outbox.claim_due(db, now=t)
    assert await outbox.mark_failed(db, m.id, "timeout", now=t, max_attempts=4) == "failed"
    assert await outbox.claim_due(db, now=t + timedelta(days=30)) == []


async def test_telegram_retry_after_and_blocked_user(db):
    now = utcnow()
    async with db.unit_of_work() as s:
        await outbox.enqueue(s, 1, "status", {"text": "x"}, "k4", not_before=now)
        await outbox.enqueue(s, 2, "status", {"text": "y"}, "k5", not_before=now)
    a, b = await outbox.claim_due(db, now=now)
    await outbox.mark_failed(db, a.id, "429 Too Many Requests", retry_after=33, now=now)
    assert await outbox.mark_failed(db, b.id, "403 bot blocked", permanent=True, now=now) == "failed"
    assert await outbox.claim_due(db, now=now + timedelta(seconds=32)) == []
    assert [m.id for m in await outbox.claim_due(db, now=now + timedelta(seconds=33))] == [a.id]
