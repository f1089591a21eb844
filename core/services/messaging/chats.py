"""One user's updates one at a time and in order, across bot workers (the bot holds the
chat's lock while it handles an update).

On PostgreSQL each update is handled while its worker holds a transaction-level advisory lock
on the chat (`pg_advisory_xact_lock(namespace, chat)`) on a connection of a pool of its own (so lock
holders never starve the work of connections). The lock goes with the
transaction: when the update is done, or when the worker dies (its connection closes). On
SQLite there is one bot process (bot.fairness orders each user's updates in it): the lock is
a no-op, so the single-process default pays nothing for it.

`chat_state` reads, under the lock, what another worker may have changed about the chat's
delivery (blocked the bot, a reply waiting in the outbox)."""
from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from typing import AsyncIterator

from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from core.services.messaging.delivery import REPLY
from core.storage.db import Database, translate_errors
from core.storage.models import OutboxMessage, Person
from core.storage.outbox import TELEGRAM, UNDELIVERED

NAMESPACE = 0x5649  # first key of the two-key advisory locks taken per chat ("VI")
LOCK_TIMEOUT_S = 30  # a chat held longer than this (a hung worker): StorageUnavailable


def chat_key(chat_id: int) -> int:
    """The chat's second advisory-lock key (an int4; two chats may share one: harmless)."""
    return int(chat_id) % 2_147_483_647


class ChatLocks:
    """`async with locks.hold(chat_id):` — at most `slots` held at once in this process: as
    many as bot.fairness runs updates at once, so a chat waiting for Telegram's rate limit
    never keeps another chat's update from its lock (4 connections kept, up to `slots`)."""

    def __init__(self, db: Database, slots: int = 32) -> None:
        self.db = db
        self.shared = not db.is_sqlite
        self._slots = asyncio.Semaphore(slots)
        self._engine: AsyncEngine | None = None
        if self.shared:
            self._engine = create_async_engine(
                db.engine.url, pool_size=min(4, slots), max_overflow=max(0, slots - 4),
                pool_pre_ping=True, hide_parameters=True)  # (a chat id: core.storage.db)

    @asynccontextmanager
    async def hold(self, chat_id: int) -> AsyncIterator[None]:
        if self._engine is None:
            yield
            return
        async with self._slots:
            async with translate_errors():
                conn = await self._engine.connect()
            try:
                async with translate_errors():
                    await conn.execute(text(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT_S}s'"))
                    await conn.execute(text("SELECT pg_advisory_xact_lock(:ns, :key)"),
                                       {"ns": NAMESPACE, "key": chat_key(chat_id)})
                yield
            finally:
                try:
                    await conn.rollback()  # ends the transaction: the lock goes with it
                except Exception:
                    await conn.invalidate()
                await conn.close()

    async def close(self) -> None:
        if self._engine is not None:
            await self._engine.dispose()


async def chat_state(db: Database, chat_id: int) -> tuple[bool, bool]:
    """(the person blocked the bot, a reply to them waits in the outbox), as stored now."""
    async with db.read() as s:
        blocked = (await s.execute(select(Person.blocked_bot_at.is_not(None)).where(
            Person.telegram_id == chat_id))).scalar()
        held = (await s.execute(select(OutboxMessage.id).where(
            OutboxMessage.channel == TELEGRAM, OutboxMessage.chat_id == chat_id,
            OutboxMessage.kind == REPLY,
            OutboxMessage.status.in_(UNDELIVERED)).limit(1))).first()
    return bool(blocked), held is not None
