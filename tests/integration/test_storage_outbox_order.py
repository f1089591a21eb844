"""Per-chat order in the outbox: a chat's message is never claimed while an earlier one of the
same chat is undelivered (pending, backing off, or being sent), other chats are not held, a
destination failure does not use up a message's attempts, and a dead letter no longer holds
its chat."""
from __future__ import annotations

import asyncio
from datetime import timedelta

from sqlalchemy import select

from core.storage import outbox
from core.storage.models import OutboxMessage
from core.storage.types import utcnow


async def _queue(db, *chats: int) -> list[int]:
    async with db.unit_of_work() as s:
        for i, chat in enumerate(chats):
            await outbox.enqueue(s, chat, "status", {"text": f"{chat}-{i}"}, f"k{chat}-{i}")
    async with db.read() as s:
        return (await s.execute(select(OutboxMessage.id).order_by(OutboxMessage.id))).scalars().all()


async def test_only_the_head_of_each_chat_is_claimed(db):
    await _queue(db, 1, 1, 2, 1, 2)
    now = utcnow()
    first = await outbox.claim_due(db, now=now)
    assert [(m.chat_id, m.payload["text"]) for m in first] == [(1, "1-0"), (2, "2-2")]
    assert await outbox.claim_due(db, now=now) == []  # both heads are being sent
    await outbox.mark_sent(db, first[0].id)
    [nxt] = await outbox.claim_due(db, now=now)
    assert nxt.payload["text"] == "1-1"  # chat 2's second waits for its head


async def test_a_backing_off_head_holds_its_chat_only(db):
    await _queue(db, 1, 1, 2)
    now = utcnow()
    a, b = await outbox.claim_due(db, now=now)
    assert await outbox.mark_failed(db, a.id, "500 from Telegram", now=now) == "pending"
    await outbox.mark_sent(db, b.id)
    # chat 1's head backs off 5 s: its second message is due but must not overtake it
    assert await outbox.claim_due(db, now=now + timedelta(seconds=4)) == []
    [again] = await outbox.claim_due(db, now=now + timedelta(seconds=6))
    assert again.id == a.id and again.attempts == 2


async def test_a_destination_failure_is_not_counted_and_keeps_the_chat_waiting(db):
    await _queue(db, 7, 7)
    now = utcnow()
    for _ in range(20):  # a long outage: many probes of the same head
        [m] = await outbox.claim_due(db, now=now)
        await outbox.release(db, [m.id], "NetworkError: Bad Gateway", now=now,
                             progress={"done": ["photos"], "refused": []})
    [m] = await outbox.claim_due(db, now=now)
    assert m.payload["text"] == "7-0" and m.attempts == 1  # still the first, never counted
    assert m.progress == {"done": ["photos"], "refused": []}  # resumes after the photos
    await outbox.release(db, [m.id], retry_at=now + timedelta(seconds=30))  # a 429 for chat 7
    assert await outbox.claim_due(db, now=now + timedelta(seconds=29)) == []


async def test_a_dead_letter_stops_holding_its_chat(db):
    await _queue(db, 3, 3)
    now = utcnow()
    [m] = await outbox.claim_due(db, now=now)
    assert await outbox.mark_failed(db, m.id, "400: chat not found", permanent=True,
                                    now=now) == outbox.FAILED
    [nxt] = await outbox.claim_due(db, now=now)
    assert nxt.payload["text"] == "3-1"


async def test_undelivered_for_days_becomes_a_dead_letter(db):
    await _queue(db, 4)
    later = utcnow() + outbox.MAX_AGE + timedelta(minutes=1)
    [m] = await outbox.claim_due(db, now=later)
    await outbox.release(db, [m.id], "NetworkError: Bad Gateway", now=later)
    async with db.read() as s:
        row = await s.get(OutboxMessage, m.id)
    assert row.status == outbox.FAILED and "Não entregue em 3 dias" in row.last_error


async def test_concurrent_senders_never_claim_two_messages_of_one_chat(db):
    """Several senders at once (on PostgreSQL, FOR UPDATE SKIP LOCKED): each chat's messages are
    claimed one at a time, in order, and none twice."""
    chats = [10, 11, 12, 13]
    await _queue(db, *(chats * 5))
    received: dict[int, list[str]] = {c: [] for c in chats}
    in_flight: set[int] = set()

    async def sender() -> None:
        idle = 0
        while idle < 5:
            claimed = await outbox.claim_due(db, limit=3)
            idle = 0 if claimed else idle + 1
            for m in claimed:
                assert m.chat_id not in in_flight, "two messages of one chat in flight"
                in_flight.add(m.chat_id)
                await asyncio.sleep(0.001)
                received[m.chat_id].append(m.payload["text"])
                in_flight.discard(m.chat_id)
                await outbox.mark_sent(db, m.id)
            await asyncio.sleep(0.001)

    await asyncio.gather(sender(), sender(), sender())
    for c in chats:
        expected = [f"{c}-{i}" for i in range(20) if chats[i % 4] == c]
        assert received[c] == expected
