"""Several workers: one chat's updates are handled one at a time
across workers (core.services.messaging.chats), and each worker process sends under a name of its
own, so a restarted worker frees what its killed predecessor left mid-delivery and nothing
that a live worker is sending."""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import pytest

from bot.sender import sender_is_dead, sender_name
from core.services.messaging.chats import ChatLocks
from core.storage.outbox import SENDING, claim_due, enqueue, release_orphaned_claims
from core.storage.models import OutboxMessage
from sqlalchemy import select


def test_each_worker_process_has_its_own_name():
    assert sender_name() != sender_name()
    assert not sender_is_dead(sender_name().split(":", 1)[0] + ":notapid:x")
    assert not sender_is_dead("bot@another-host:1234:abcd")  # unknown: its lease decides


def test_a_finished_process_of_this_host_is_dead_and_a_running_one_is_not():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        host_part = sender_name().split(":", 1)[0]
        assert not sender_is_dead(f"{host_part}:{child.pid}:feedbeef")
    finally:
        child.kill()
        child.wait()
    assert sender_is_dead(f"{host_part}:{child.pid}:feedbeef")
    # our own pid under another name: an earlier process (a container restarted) — dead
    assert sender_is_dead(f"{host_part}:{os.getpid()}:00000000")


async def test_a_restarted_worker_frees_only_dead_senders_claims(db):
    async with db.unit_of_work() as s:
        for chat in (1, 2, 3):
            await enqueue(s, chat, "reply", {"text": "Olá"}, f"k{chat}")
    await claim_due(db, limit=1, sender="bot@elsewhere:10:aaaa")
    await claim_due(db, limit=1, sender="bot@dead:20:bbbb")
    await claim_due(db, limit=1, sender="bot@alive:30:cccc")
    released = await release_orphaned_claims(db, "bot@me:40:dddd",
                                             lambda name: name.startswith("bot@dead"))
    assert released == 1
    async with db.read() as s:
        sending = set((await s.execute(select(OutboxMessage.claimed_by).where(
            OutboxMessage.status == SENDING))).scalars())
    assert sending == {"bot@elsewhere:10:aaaa", "bot@alive:30:cccc"}


async def test_one_chat_at_a_time_across_workers_other_chats_go_on(db_factory):
    if db_factory.engine_name == "sqlite":
        pytest.skip("SQLite: one bot process, bot.fairness orders each user's updates")
    db = db_factory()
    await db.migrate()
    a, b = ChatLocks(db), ChatLocks(db)  # two workers
    order: list[str] = []
    try:
        async with a.hold(7):
            waiting = asyncio.create_task(_take(b, 7, order, "b:7"))
            await _take(b, 8, order, "b:8")  # another chat: not held up
            await asyncio.sleep(0.3)
            assert not waiting.done()
            order.append("a:7 done")
        await asyncio.wait_for(waiting, 5)
    finally:
        await a.close()
        await b.close()
    assert order == ["b:8", "a:7 done", "b:7"]


async def _take(locks: ChatLocks, chat: int, order: list[str], name: str) -> None:
    async with locks.hold(chat):
        order.append(name)
