"""Telegram's limits across workers: three senders sharing one database (on
PostgreSQL each with its own connection pool, as three worker processes have) push 300
messages — outbox notifications and direct replies — through the real rate limiter
(bot.ratelimit, core.services.messaging.send_limits) to the Bot API stand-in. By the stand-in's arrival
times no one-second window holds more than 30 messages and no chat gets two within a second,
and the stand-in, told to answer 429 past those limits, never has to."""
from __future__ import annotations

import asyncio
from collections import defaultdict
from dataclasses import dataclass

from sqlalchemy import func, select, update
from telegram.ext import ExtBot

from bot.loops import LoopSettings, outbox_loop
from bot.ratelimit import RateLimiter
from bot.replies import send_or_queue
from bot.sender import DeliveryState, sender_is_dead
from sandbox.standin.botapi import SEND_METHODS, BotApiStandIn, User
from core.laws import get_law
from core.services.context import Core, utc_clock
from core.services.messaging.send_limits import SendLimits
from core.settings import Settings
from core.storage import send_limits as store
from core.storage.evidence import EvidenceStore
from core.storage.models import ChatPace, OutboxMessage
from core.storage.outbox import SENT, enqueue

RATE, INTERVAL_S = 30, 1.0
CHATS = [User(700_000 + i, f"Pessoa {i}") for i in range(60)]
QUEUED_PER_CHAT = 4  # 240 outbox messages, plus one direct reply per chat: 300


@dataclass
class Outlet:
    """What a direct reply needs (bot.replies.Outlet): the core and the delivery state."""
    core: Core
    delivery: DeliveryState
    outbox_wake: None = None


def busiest_second(times: list[float]) -> int:
    times = sorted(times)
    most, start = 0, 0
    for end, t in enumerate(times):
        while times[start] <= t - 1.0:
            start += 1
        most = max(most, end - start + 1)
    return most


async def test_three_senders_keep_telegrams_limits_together(db_factory, data_dir):
    first = db_factory()
    await first.migrate()
    # PostgreSQL: three pools, as three processes; SQLite: one process, one Database
    dbs = [first] + [db_factory() if db_factory.engine_name == "postgresql" else first
                     for _ in range(2)]
    async with first.unit_of_work() as s:
        for n in range(QUEUED_PER_CHAT):
            for chat in CHATS:
                await enqueue(s, chat.id, "reply", {"text": f"Aviso {n + 1}"}, f"{chat.id}:{n}")
    async with BotApiStandIn() as api:
        for chat in CHATS:
            api.add_user(chat)
        api.add_rate_rule(RATE, 1.0, per_chat=False)  # Telegram's 429s, were we to exceed
        api.add_rate_rule(1, INTERVAL_S)
        settings = Settings(_env_file=None, data_dir=data_dir)
        senders = []
        for db in dbs:
            core = Core(db, get_law("dores-do-indaia"), settings, EvidenceStore(data_dir),
                        utc_clock)
            state = DeliveryState()
            limits = SendLimits(db, RATE, INTERVAL_S, state.name)
            await limits.start(sender_is_dead)
            bot = ExtBot(api.token, base_url=api.bot_base_url,
                         rate_limiter=RateLimiter(overall_max_rate=RATE, shared=limits))
            senders.append((bot, core, state))
        loops = LoopSettings(outbox_interval_s=0.1)
        tasks = [asyncio.create_task(outbox_loop(bot, core, loops, asyncio.Event(), state))
                 for bot, core, state in senders]
        replies = [send_or_queue(bot, Outlet(core, state), chat.id, "Resposta")
                   for i, chat in enumerate(CHATS)
                   for bot, core, state in [senders[i % len(senders)]]]
        try:
            await asyncio.gather(*replies)
            await api.wait_for(lambda c: _sent(api) >= 300, timeout=60)
            for _ in range(100):  # the last sends' outcomes recorded
                if await _unsent(first) == 0:
                    break
                await asyncio.sleep(0.1)
        finally:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    unsent = await _unsent(first)
    calls = [c for c in api.calls if c.method.lower() in SEND_METHODS]
    assert [c for c in calls if not c.ok] == []  # no 429: the limits were kept
    assert len(calls) == 300 and unsent == 0  # 240 queued + 60 direct replies, all delivered
    assert busiest_second([c.time for c in calls]) <= RATE
    by_chat: dict[int, list[float]] = defaultdict(list)
    for c in calls:
        by_chat[int(c.params["chat_id"])].append(c.time)
    closest = min(b - a for times in by_chat.values()
                  for a, b in zip(sorted(times), sorted(times)[1:]))
    assert closest >= INTERVAL_S


def _sent(api: BotApiStandIn) -> int:
    return sum(1 for c in api.calls if c.method.lower() in SEND_METHODS and c.ok)


async def _unsent(db) -> int:
    async with db.read() as s:
        return (await s.execute(select(func.count()).select_from(OutboxMessage).where(
            OutboxMessage.status != SENT))).scalar()


async def test_a_chat_waits_its_turn_and_a_dead_workers_claims_are_freed(db):
    """The claims themselves: one message in flight per chat, the next one a second after
    Telegram answered; a slot busy until one second after; a dead worker's claims freed at
    the next start on its host instead of after the lease."""
    assert await store.claim_chat(db, 5, "bot@h:1:a") == 0
    assert 1 < await store.claim_chat(db, 5, "bot@h:2:b") <= store.LEASE_S  # in flight
    await store.release(db, "bot@h:1:a", [], 5, interval_s=1.0)
    assert 0 < await store.claim_chat(db, 5, "bot@h:2:b") <= 1.0  # answered: one second
    await store.ensure_slots(db, 2)
    dead, _ = await store.claim_slot(db, 2, "bot@h:3:dead")
    alive, _ = await store.claim_slot(db, 2, "bot@h:4:alive")
    assert {dead, alive} == {0, 1}
    none, wait = await store.claim_slot(db, 2, "bot@h:5:new")
    assert none is None and wait > 1
    assert await store.free_dead(db, lambda name: name.endswith(":dead")) == 1
    none, wait = await store.claim_slot(db, 2, "bot@h:5:new")
    assert none is None and 0 < wait <= 1.0  # freed, after its one second


async def test_the_pace_of_quiet_chats_is_forgotten_not_of_one_in_flight(db):
    assert await store.claim_chat(db, 6, "bot@h:1:a") == 0  # in flight
    assert await store.claim_chat(db, 7, "bot@h:1:a") == 0
    await store.release(db, "bot@h:1:a", [], 7, interval_s=1.0)
    assert await store.forget_idle_chats(db) == 0  # a day: nobody is that quiet yet
    assert await store.forget_idle_chats(db, older_than_s=-5) == 1  # chat 7 only
    assert await store.claim_chat(db, 7, "bot@h:1:a") == 0
    assert await store.claim_chat(db, 6, "bot@h:2:b") > 0


async def test_a_chat_gets_a_short_burst_then_one_a_second(db):
    """Telegram asks for about one message a second in a chat and allows short bursts: a step's
    answer in three parts (album, pin, text) goes at once, the fourth waits its second, and a
    chat quiet for a while has its burst back."""
    for _ in range(3):
        assert await store.claim_chat(db, 9, "bot@h:1:a") == 0
        await store.release(db, "bot@h:1:a", [], 9, interval_s=1.0, burst=3)
    assert 0 < await store.claim_chat(db, 9, "bot@h:1:a") <= 1.0  # the fourth: its second
    async with db.unit_of_work() as s:  # ten seconds later: quiet long enough
        await s.execute(update(ChatPace).values(tat=ChatPace.tat - 10,
                                                busy_until=ChatPace.busy_until - 10))
    for _ in range(3):
        assert await store.claim_chat(db, 9, "bot@h:1:a") == 0
        await store.release(db, "bot@h:1:a", [], 9, interval_s=1.0, burst=3)
    assert await store.claim_chat(db, 9, "bot@h:1:a") > 0  # its second again
