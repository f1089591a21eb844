"""The bot's sending limits, shared by every worker through the database: at most
`max_rate` messages a second for the whole bot and one per `chat_interval_s` per chat after a
burst of `chat_burst`, however many workers send (core.storage.send_limits keeps the count). SQLite runs the same statements
(one process). The bot's rate limiter (bot/ratelimit.py) asks here before each message.

If the database cannot be reached the message goes anyway, under the worker's own limit of
`max_rate` a second (logged): a database outage must not silence the apologies a worker sends
while it lasts, and nothing else is sent then (the outbox lives in the database).
"""
from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Callable

from core.services.errors import StorageUnavailable
from core.storage import send_limits as store
from core.storage.db import Database

log = logging.getLogger(__name__)

MAX_SHARED_RATE = 1000  # above this (a local stand-in, a benchmark) each worker counts alone
RETRY_MAX_S = 0.25  # a worker waiting for a slot looks again at least this often


@dataclass
class Grant:
    """What a claim gave: `slot` to give back (None: none was taken)."""
    slot: int | None = None


@dataclass
class SendLimits:
    db: Database
    max_rate: float
    chat_interval_s: float
    holder: str
    chat_burst: int = 1
    _warned_at: float = field(default=float("-inf"))
    _slots_made: bool = False

    @property
    def slots(self) -> int:
        """How many slots the bot has (0: the bot-wide limit is not shared)."""
        return int(self.max_rate) if 1 <= self.max_rate <= MAX_SHARED_RATE else 0

    @property
    def paces_chats(self) -> bool:
        return self.chat_interval_s > 0

    async def start(self, is_dead: Callable[[str], bool]) -> None:
        """At the worker's start: the slot rows exist; a dead sender's claims are freed."""
        try:
            await self._make_slots()
            if freed := await store.free_dead(self.db, is_dead):
                log.info("send limits: %s claim(s) of a dead worker freed", freed)
        except StorageUnavailable as exc:
            self._unavailable(exc)

    async def chat_turn(self, chat_id: int) -> bool:
        """Wait for the chat's turn (its previous message answered `chat_interval_s` ago, by
        any worker) and take it; True if taken (give it back with `done`)."""
        if not self.paces_chats:
            return False
        while True:
            try:
                wait = await store.claim_chat(self.db, chat_id, self.holder)
            except StorageUnavailable as exc:
                self._unavailable(exc)
                return False
            if wait <= 0:
                return True
            await asyncio.sleep(min(wait, 1.0) + 0.001)

    async def try_slot(self) -> tuple[Grant | None, float]:
        """A slot of the bot's limit now: (grant, 0), or (None, seconds to wait)."""
        if not self.slots:
            return Grant(), 0.0
        try:
            await self._make_slots()  # (if the database was down at the start)
            slot, wait = await store.claim_slot(self.db, self.slots, self.holder)
        except StorageUnavailable as exc:
            self._unavailable(exc)
            return Grant(), 0.0
        if slot is None:
            return None, min(max(wait, 0.002), RETRY_MAX_S)
        return Grant(slot), 0.0

    async def done(self, chat_id: int | None, grants: list[Grant]) -> None:
        """Telegram answered (or the call failed): give back the chat's turn and the slots."""
        slots = [g.slot for g in grants if g.slot is not None]
        if not slots and chat_id is None:
            return
        try:
            await store.release(self.db, self.holder, slots, chat_id, self.chat_interval_s,
                                self.chat_burst)
        except StorageUnavailable as exc:  # the leases end them
            self._unavailable(exc)

    async def _make_slots(self) -> None:
        if self.slots and not self._slots_made:
            await store.ensure_slots(self.db, self.slots)
            self._slots_made = True

    def _unavailable(self, exc: StorageUnavailable) -> None:
        now = time.monotonic()
        if now - self._warned_at >= 60:
            self._warned_at = now
            log.warning("send limits: database unavailable (%s): this worker counts alone",
                        exc.detail)
