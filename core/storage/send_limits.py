"""Telegram's limits counted in the database, so every bot worker together keeps them:
about 30 messages a second per bot, one a second per chat.

The bot: `send_slots` holds one row per message a second allowed (TELEGRAM_MAX_RATE). A send
takes a free slot (`busy_until` passed) with one UPDATE (on PostgreSQL the free row is
picked FOR UPDATE SKIP LOCKED, so workers never wait for each other's pick) and keeps it
busy while the message is in flight; when Telegram has answered, `release` leaves it busy
one second more. So the sends that reached Telegram within any one second all held their
slots at one moment (the last of their claims): never more than there are slots, whatever
the network's latency or a worker's pauses.

A chat: `chat_pace` has a row per chat, taken the same way (one message in flight per chat,
across workers). Telegram asks for about one message a second in a chat and allows short
bursts, so the pause is counted as a generic cell rate algorithm: each message answered moves
the chat's theoretical arrival time `tat` on by `interval` (from now, if it lay in the past),
and the next message may go once `tat` is less than `burst` − 1 intervals ahead. A step's
answer of up to `burst` parts (album, pin, text) goes at once; a longer run, one an interval.

Times are seconds since the epoch from one clock: PostgreSQL's (`clock_timestamp()`), so
workers on several hosts agree; on SQLite (one process) this process's. A worker killed
mid-send leaves its claims busy until their lease ends (LEASE_S), or until a worker started
on the same host frees them (`free_dead`). The cost is three short transactions per message
(the chat's turn, a slot, both given back), and messages are at most TELEGRAM_MAX_RATE a
second; on PostgreSQL both tables are UNLOGGED (migration 0012), so those commits wait for no
disk (after a crash the tables are empty: every claim free, which is right).
"""
from __future__ import annotations

import time
from typing import Callable

from sqlalchemy import Float, case, cast, delete, func, literal, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from core.storage.db import Database
from core.storage.dialect import insert_ignore
from core.storage.models import ChatPace, SendSlot

LEASE_S = 30.0  # longer than any one Bot API call (PTB's timeouts are 5 to 20 s)
WINDOW_S = 1.0  # the bot's limit is counted per second


def _now(session: AsyncSession):
    """The shared clock, in seconds since the epoch, as an SQL expression."""
    if session.get_bind().dialect.name == "postgresql":
        return cast(func.extract("epoch", func.clock_timestamp()), Float(53))
    return literal(time.time(), Float(53))


async def ensure_slots(db: Database, slots: int) -> None:
    """Create the rows of slots 0 … `slots` − 1 that do not exist yet (at start-up)."""
    async with db.unit_of_work() as s:
        have = set((await s.execute(select(SendSlot.slot))).scalars())
        for slot in range(slots):
            if slot not in have:
                await s.execute(insert_ignore(s, SendSlot.__table__,
                                              {"slot": slot, "busy_until": 0.0}, ["slot"]))


async def claim_slot(db: Database, slots: int, holder: str,
                     lease_s: float = LEASE_S) -> tuple[int | None, float]:
    """Take a free slot among the first `slots`: (its number, 0), or (None, seconds until the
    first one frees, as far as is known now)."""
    async with db.unit_of_work() as s:
        now = _now(s)
        free = (select(SendSlot.slot)
                .where(SendSlot.slot < slots, SendSlot.busy_until <= now)
                .order_by(SendSlot.busy_until).limit(1)
                .with_for_update(skip_locked=True).scalar_subquery())
        got = (await s.execute(
            update(SendSlot).where(SendSlot.slot == free)
            .values(busy_until=now + lease_s, holder=holder)
            .returning(SendSlot.slot))).scalar()
        if got is not None:
            return got, 0.0
        wait = (await s.execute(select(func.min(SendSlot.busy_until) - now)
                                .where(SendSlot.slot < slots))).scalar()
    return None, max(0.0, wait if wait is not None else WINDOW_S)


async def claim_chat(db: Database, chat_id: int, holder: str,
                     lease_s: float = LEASE_S) -> float:
    """Take the chat's turn: 0 when taken, else seconds until it may be free."""
    async with db.unit_of_work() as s:
        now = _now(s)
        module = postgresql if s.get_bind().dialect.name == "postgresql" else sqlite
        stmt = module.insert(ChatPace).values(chat_id=chat_id, busy_until=now + lease_s,
                                              holder=holder)
        stmt = stmt.on_conflict_do_update(
            index_elements=["chat_id"],
            set_={"busy_until": stmt.excluded.busy_until, "holder": stmt.excluded.holder},
            where=ChatPace.busy_until <= now).returning(ChatPace.chat_id)
        if (await s.execute(stmt)).first() is not None:
            return 0.0
        wait = (await s.execute(select(ChatPace.busy_until - now)
                                .where(ChatPace.chat_id == chat_id))).scalar()
    return max(0.0, wait or 0.0)


async def release(db: Database, holder: str, slots: list[int], chat_id: int | None = None,
                  interval_s: float = 1.0, burst: int = 1) -> None:
    """Telegram answered (or the send failed): the slots stay busy WINDOW_S more; the chat's
    `tat` moves on by `interval_s` and the chat is busy until it is less than `burst` − 1
    intervals ahead. Claims that are no longer `holder`'s (lease over) are left alone."""
    if not slots and chat_id is None:
        return
    async with db.unit_of_work() as s:
        now = _now(s)
        if slots:
            await s.execute(update(SendSlot).where(SendSlot.slot.in_(slots),
                                                   SendSlot.holder == holder)
                            .values(busy_until=now + WINDOW_S, holder=None))
        if chat_id is not None:
            tat = case((ChatPace.tat > now, ChatPace.tat), else_=now) + interval_s
            await s.execute(update(ChatPace).where(ChatPace.chat_id == chat_id,
                                                   ChatPace.holder == holder)
                            .values(tat=tat, busy_until=tat - (burst - 1) * interval_s,
                                    holder=None))


async def free_dead(db: Database, is_dead: Callable[[str], bool]) -> int:
    """At a worker's start: the claims of senders `is_dead` recognises as gone are freed now
    (the chats after one more second), not when their lease ends."""
    async with db.read() as s:
        names = set((await s.execute(select(SendSlot.holder).where(
            SendSlot.holder.is_not(None)).distinct())).scalars())
        names |= set((await s.execute(select(ChatPace.holder).where(
            ChatPace.holder.is_not(None)).distinct())).scalars())
    dead = sorted(n for n in names if is_dead(n))
    freed = 0
    if dead:
        async with db.unit_of_work() as s:
            now = _now(s)
            freed += (await s.execute(update(SendSlot).where(SendSlot.holder.in_(dead))
                                      .values(busy_until=now + WINDOW_S, holder=None))).rowcount
            freed += (await s.execute(update(ChatPace).where(ChatPace.holder.in_(dead))
                                      .values(busy_until=now + WINDOW_S, holder=None))).rowcount
    return freed


async def forget_idle_chats(db: Database, older_than_s: float = 86_400.0) -> int:
    """Drop the pace rows of chats idle for a day (the table stays as small as the chats of a
    day): called by the periodic job."""
    async with db.unit_of_work() as s:
        return (await s.execute(delete(ChatPace).where(
            ChatPace.busy_until < _now(s) - older_than_s, ChatPace.holder.is_(None)))).rowcount
