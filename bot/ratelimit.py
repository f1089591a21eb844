"""Telegram's overall limit (about 30 messages a second to different chats) shared fairly
between chats.

PTB's AIORateLimiter queues every message behind the overall limiter in arrival order: when
20 accounts keep the bot answering 40 messages a second, each answer waits behind theirs.
`FairRateLimiter` is AIORateLimiter (group limits, retry_after handling, max_retries) with the
overall limiter replaced by `FairLimiter`: the same leaky bucket, but when messages wait, the
next free slot goes to the chat that used fewest slots recently (usage decays with a time
constant of `memory_s`), so a quiet chat's answer goes first.

Calls that ask for no retry (`rate_limit_args=NO_RETRY`) skip AIORateLimiter's retry. It
answers a 429 by sleeping retry_after and retrying, and while it sleeps it holds *every* other
request of the bot. That is right for a button's answer, wrong for messages that have a durable
queue: a 429 is about one chat, so the outbox and the direct replies pass NO_RETRY, get the
RetryAfter at once and reschedule only that chat (bot/sender.py, bot/replies.py).

Across workers the limits are counted in the database (core.services.messaging.send_limits):
before a message the chat's turn is taken (one message in flight per chat, the next one
TELEGRAM_CHAT_INTERVAL_S after Telegram answered), and each turn `FairLimiter` grants costs
one of the bot's shared send slots. The limiter still chooses, inside the worker, which
waiting chat gets the next slot (least used first); the database only says when there is one.
"""
from __future__ import annotations

import asyncio
import heapq
import itertools
import math
import time
import contextlib
import logging
from collections import OrderedDict, deque
from contextvars import ContextVar
from typing import Any, Hashable

from telegram.ext import AIORateLimiter

from core.services.messaging.send_limits import Grant, SendLimits

log = logging.getLogger(__name__)
_CHAT: ContextVar[Hashable] = ContextVar("rate_limited_chat", default=None)
_GRANTS: ContextVar[list | None] = ContextVar("send_grants", default=None)
REMEMBERED_CHATS = 10_000
NO_RETRY = "no-retry"
# Calls that put a message in a chat: one per TELEGRAM_CHAT_INTERVAL_S per chat.
MESSAGE_ENDPOINTS = frozenset({
    "sendMessage", "sendPhoto", "sendDocument", "sendMediaGroup", "sendLocation", "sendVenue",
    "sendVideo", "sendAnimation", "sendAudio", "sendVoice", "sendSticker", "sendContact",
    "sendPoll", "sendDice", "sendInvoice", "copyMessage", "copyMessages", "forwardMessage",
    "forwardMessages"})


class FairLimiter:
    """`async with limiter:` at most `max_rate` entries per `time_period` (bursts up to
    `max_rate`), waiting chats served least-used first. The chat is read from a context
    variable set by FairRateLimiter.process_request. With `shared` each entry also takes one
    of the bot's send slots (core.services.messaging.send_limits), given back by the caller (see
    FairRateLimiter.process_request) or on exit."""

    def __init__(self, max_rate: float, time_period: float = 1.0, *, memory_s: float = 10.0,
                 clock=time.monotonic, shared: SendLimits | None = None) -> None:
        self.capacity = float(max_rate)
        self.rate = max_rate / time_period
        self.memory_s = memory_s
        self._clock = clock
        self._level = 0.0
        self._at = clock()
        self._queues: dict[Hashable, deque[asyncio.Future]] = {}
        self._ready: list[tuple[float, int, Hashable]] = []
        self._seq = itertools.count()
        self._usage: OrderedDict[Hashable, tuple[float, float]] = OrderedDict()  # (uses, at)
        self._timer: asyncio.TimerHandle | None = None
        self.shared = shared if shared is not None and shared.slots else None
        self._drainer: asyncio.Task | None = None

    def _leak(self) -> float:
        now = self._clock()
        self._level = max(0.0, self._level - (now - self._at) * self.rate)
        self._at = now
        return now

    def _key(self, chat: Hashable) -> float:
        """Orders chats by recent use: log(uses) + at / memory_s is, up to a term common to
        all chats, the log of the use count decayed to now."""
        uses, at = self._usage.get(chat, (0.0, 0.0))
        return -math.inf if uses <= 0 else math.log(uses) + at / self.memory_s

    def _take(self, chat: Hashable, now: float) -> None:
        self._level += 1
        uses, at = self._usage.pop(chat, (0.0, now))
        self._usage[chat] = (uses * math.exp(-(now - at) / self.memory_s) + 1, now)
        while len(self._usage) > REMEMBERED_CHATS:
            self._usage.popitem(last=False)

    async def __aenter__(self) -> None:
        chat = _CHAT.get()
        now = self._leak()
        if self.shared is None and not self._ready and self._level + 1 <= self.capacity:
            self._take(chat, now)
            return
        turn = asyncio.get_running_loop().create_future()
        queue = self._queues.setdefault(chat, deque())
        queue.append(turn)
        if len(queue) == 1:
            heapq.heappush(self._ready, (self._key(chat), next(self._seq), chat))
        self._schedule()
        try:
            grant = await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._level = max(0.0, self._level - 1)  # granted but never used
                self._give_back(turn.result())
            turn.cancel()
            raise
        if grant is not None:
            grants = _GRANTS.get()
            if grants is not None:
                grants.append(grant)  # given back with the chat's turn, in one transaction
            else:
                self._give_back(grant)

    async def __aexit__(self, *exc: object) -> None:
        return None

    def _give_back(self, grant: Grant | None) -> None:
        if self.shared is not None and grant is not None and grant.slot is not None:
            task = asyncio.get_running_loop().create_task(self.shared.done(None, [grant]))
            task.add_done_callback(lambda t: t.cancelled() or t.exception())

    def _schedule(self) -> None:
        if self.shared is not None:
            if self._drainer is None or self._drainer.done():
                self._drainer = asyncio.get_running_loop().create_task(self._drain_shared())
            return
        if self._timer is None and self._ready:
            wait = max(0.0, (self._level + 1 - self.capacity) / self.rate)
            self._timer = asyncio.get_running_loop().call_later(wait, self._drain)

    def _next_chat(self) -> tuple[Hashable, deque[asyncio.Future]] | None:
        """The least-used waiting chat and its queue (cancelled waiters dropped), popped."""
        while self._ready:
            _, _, chat = heapq.heappop(self._ready)
            queue = self._queues.get(chat)
            while queue and queue[0].done():
                queue.popleft()  # cancelled while waiting
            if queue:
                return chat, queue
            self._queues.pop(chat, None)
        return None

    def _grant(self, chat: Hashable, queue: deque[asyncio.Future], now: float,
               grant: Grant | None) -> None:
        queue.popleft().set_result(grant)
        self._take(chat, now)
        if queue:
            heapq.heappush(self._ready, (self._key(chat), next(self._seq), chat))
        else:
            del self._queues[chat]

    def _drain(self) -> None:
        self._timer = None
        now = self._leak()
        while self._ready and self._level + 1 <= self.capacity + 1e-9:
            picked = self._next_chat()
            if picked is None:
                break
            self._grant(*picked, now, None)
        self._schedule()

    async def _drain_shared(self) -> None:
        """Shared limits: one slot at a time from the database, each to the least-used
        waiting chat at the moment it is free (so the choice stays fair inside the worker)."""
        while self._ready:
            self._leak()
            if self._level + 1 > self.capacity + 1e-9:
                await asyncio.sleep((self._level + 1 - self.capacity) / self.rate)
                continue
            try:
                grant, wait = await self.shared.try_slot()
            except Exception:  # a bug must not leave the waiters hanging: they go unshared
                log.exception("send limits: no slot could be claimed")
                grant, wait = Grant(), 0.0
            if grant is None:
                await asyncio.sleep(wait)
                continue
            picked = self._next_chat()
            if picked is None:  # every waiter gave up meanwhile
                await self.shared.done(None, [grant])
                break
            self._grant(*picked, self._leak(), grant)


class FairRateLimiter(AIORateLimiter):
    """AIORateLimiter whose overall limit is shared fairly between chats (see module doc)."""

    def __init__(self, overall_max_rate: float = 30.0, overall_time_period: float = 1.0, *,
                 shared: SendLimits | None = None, **kwargs: Any) -> None:
        super().__init__(overall_max_rate=overall_max_rate,
                         overall_time_period=overall_time_period, **kwargs)
        self.shared = shared
        if self._base_limiter is not None:  # PTB 22's overall limiter, used as `async with`
            self._base_limiter = FairLimiter(overall_max_rate, overall_time_period,
                                             shared=shared)

    async def process_request(self, callback, args, kwargs, endpoint, data, rate_limit_args):
        chat_id = data.get("chat_id")
        token, grants = _CHAT.set(chat_id), []
        grants_token = _GRANTS.set(grants)
        paced = _paced_chat(chat_id) if self.shared is not None and \
            endpoint in MESSAGE_ENDPOINTS else None
        turn = False
        try:
            if paced is not None:
                turn = await self.shared.chat_turn(paced)  # one a chat_interval_s, all workers
            if rate_limit_args != NO_RETRY:
                return await super().process_request(callback, args, kwargs, endpoint, data,
                                                     rate_limit_args)
            return await self._once(callback, args, kwargs, data)
        finally:
            _GRANTS.reset(grants_token)
            _CHAT.reset(token)
            if turn or grants:  # Telegram answered: the chat's pause and the slot's second
                await asyncio.shield(self.shared.done(paced if turn else None, grants))

    async def _once(self, callback, args, kwargs, data):
        """The same throttles as AIORateLimiter._run_request, without its retry and without
        waiting for another request's 429 pause (pinned python-telegram-bot 22.8)."""
        chat_id = data.get("chat_id")
        with contextlib.suppress(ValueError, TypeError):
            chat_id = int(chat_id)
        group = chat_id if (isinstance(chat_id, int) and chat_id < 0) or isinstance(chat_id, str) \
            else False
        base = self._base_limiter if (chat_id is not None and self._base_limiter) \
            else contextlib.nullcontext()
        group_ctx = self._get_group_limiter(group) if group and self._group_max_rate \
            else contextlib.nullcontext()
        async with group_ctx, base:
            return await callback(*args, **kwargs)


def _paced_chat(chat_id: Any) -> int | None:
    """The chat's id when it is a number (the chats paced; an "@channel" name is not)."""
    with contextlib.suppress(ValueError, TypeError):
        return int(chat_id)
    return None


#: The bot's rate limiter (the name the delivery code and its tests use).
RateLimiter = FairRateLimiter
