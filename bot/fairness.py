"""Fair update processing: one user's burst never delays another user's answer.

python-telegram-bot hands every update to an update processor (`concurrent_updates`). Its
own bound (a FIFO semaphore) is taken *before* the processor sees the update, so once a few
hundred updates of busy users are waiting, a quiet user's update waits behind all of them.
`FairUpdates` therefore leaves that bound practically open (it only counts parked tasks) and
does the scheduling itself:

- each user's updates run one at a time and in arrival order (a conversation must never see
  its steps reordered);
- at most `slots` updates run at once, and a free slot goes to the waiting user who was
  served least recently (round robin among busy users; a user who was quiet goes first).

So with 20 accounts each sending 2 messages a second, a citizen doing a report waits at most
for one slot to free, not for the others' backlog.

A user who keeps sending faster than the bot can answer builds a backlog of their own; past
`max_waiting` updates waiting, further ones are dropped (counted in `shed`, and `on_shed` is
called so the bot can say so — the flood limit's answer), so memory stays bounded.
"""
from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Hashable

from telegram import Update
from telegram.ext import BaseUpdateProcessor

PARKED_MAX = 1_000_000  # PTB's semaphore: only counts waiting tasks here


@dataclass
class _User:
    waiting: deque[asyncio.Future] = field(default_factory=deque)
    running: bool = False
    last_started: float = float("-inf")  # never served: first in line


def user_key(update: object) -> Hashable:
    """Whose update this is (None for updates without a user, e.g. skipped unparsable ones)."""
    if isinstance(update, Update) and update.effective_user is not None:
        return update.effective_user.id
    return None


class FairUpdates(BaseUpdateProcessor):
    """Per-user order, `slots` updates at once, least recently served user first."""

    def __init__(self, slots: int = 32, *, max_waiting: int = 50, clock=time.monotonic,
                 on_shed: Callable[[object], None] | None = None) -> None:
        super().__init__(PARKED_MAX)
        if slots < 1:
            raise ValueError("slots must be positive")
        self.slots = slots
        self.max_waiting = max_waiting
        self.on_shed = on_shed
        self.shed = 0
        self._clock = clock
        self._running = 0
        self._users: dict[Hashable, _User] = {}
        self._ready: list[tuple[float, int, Hashable]] = []  # heap of users whose turn may come
        self._seq = itertools.count()

    # -- what the dispatcher and the tests can read ----------------------------------------------

    def waiting(self, key: Hashable) -> int:
        """Updates of `key` not started yet (the running one excluded)."""
        u = self._users.get(key)
        return 0 if u is None else sum(1 for f in u.waiting if not f.done())

    def busy(self, key: Hashable) -> bool:
        """Whether `key` has an update running or waiting (an album's next photo, say)."""
        u = self._users.get(key)
        return u is not None and (u.running or self.waiting(key) > 0)

    @property
    def running(self) -> int:
        return self._running

    # -- BaseUpdateProcessor --------------------------------------------------------------------

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        key = user_key(update)
        if key is not None and self.waiting(key) >= self.max_waiting:
            self.shed += 1
            _close(coroutine)
            if self.on_shed is not None:
                self.on_shed(update)
            return
        user = self._users.get(key)
        if user is None:
            user = self._users[key] = _User()
        turn = asyncio.get_running_loop().create_future()
        user.waiting.append(turn)
        if not user.running and len(user.waiting) == 1:
            self._make_ready(key, user)
        self._grant()
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._release(key)  # granted, then cancelled before it could start
            else:
                turn.cancel()
                self._forget_if_idle(key)
            _close(coroutine)
            raise
        try:
            await coroutine
        finally:
            self._release(key)

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass

    # -- scheduling -----------------------------------------------------------------------------

    def _make_ready(self, key: Hashable, user: _User) -> None:
        heapq.heappush(self._ready, (user.last_started, next(self._seq), key))

    def _grant(self) -> None:
        while self._running < self.slots and self._ready:
            _, _, key = heapq.heappop(self._ready)
            user = self._users.get(key)
            if user is None or user.running:
                continue
            while user.waiting and user.waiting[0].done():
                user.waiting.popleft()  # cancelled while waiting
            if not user.waiting:
                self._forget_if_idle(key)
                continue
            user.waiting.popleft().set_result(None)
            user.running = True
            user.last_started = self._clock()
            self._running += 1

    def _release(self, key: Hashable) -> None:
        user = self._users[key]
        user.running = False
        self._running -= 1
        if any(not f.done() for f in user.waiting):
            self._make_ready(key, user)
        else:
            self._forget_if_idle(key)
        self._grant()

    def _forget_if_idle(self, key: Hashable) -> None:
        user = self._users.get(key)
        if user is not None and not user.running and all(f.done() for f in user.waiting):
            del self._users[key]


def _close(coroutine: Awaitable[Any]) -> None:
    close = getattr(coroutine, "close", None)
    if close is not None:
        close()
