"""Group commit: concurrent small writes committed together in one transaction.

On SQLite every statement is several hops to aiosqlite's thread and the write lock lets one
transaction write at a time, so one transaction per small write (a citizen's report, the
bot's per-update state) queues writers behind each other. A `GroupCommit` lets concurrent
callers share transactions instead: each caller queues its item; the oldest queued caller
leads, takes up to `max_group` queued items (at most one per `key`, so one key's items stay
in order) and writes them with `write_group(session, items)` in ONE unit of work, then hands
the lead to the oldest caller still queued. Each caller returns once its transaction has
committed, with its own result.

All-or-nothing per item: if the group's transaction fails, nothing of it is written and each
member is retried alone, in a transaction of its own, by its own caller; so a failure reaches
only the caller it belongs to. A result that is an exception is raised to its caller (e.g. a
duplicate the group left out). Without concurrency a group is just one item: the same path,
one transaction.
"""
from __future__ import annotations

import asyncio
import weakref
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Generic, Hashable, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession

from core.storage.db import Database

T = TypeVar("T")
R = TypeVar("R")

_LEAD = object()  # a queued caller is told to lead the next group
_RETRY_ALONE = object()  # its group failed: the caller retries alone


@dataclass(eq=False)
class _Entry(Generic[T]):
    item: T
    future: asyncio.Future


@dataclass
class _Queue:
    loop: asyncio.AbstractEventLoop
    pending: list[_Entry] = field(default_factory=list)
    leader: _Entry | None = None

    def take(self, max_group: int, key: Callable[[Any], Hashable] | None) -> list[_Entry]:
        batch, keys, rest = [], set(), []
        for e in self.pending:
            if e.future.cancelled():
                continue
            k = key(e.item) if key else None
            if len(batch) >= max_group or (key and k in keys):
                rest.append(e)
            else:
                keys.add(k)
                batch.append(e)
        self.pending = rest
        return batch

    def hand_over(self) -> None:
        """Make the oldest queued caller the next leader (or nobody)."""
        self.pending = [e for e in self.pending if not e.future.done()]
        self.leader = self.pending[0] if self.pending else None
        if self.leader is not None:
            self.leader.future.set_result(_LEAD)


class GroupCommit(Generic[T, R]):
    def __init__(self, write_group: Callable[[AsyncSession, list[T]], Awaitable[list[R]]], *,
                 max_group: int = 64, key: Callable[[T], Hashable] | None = None):
        self.write_group = write_group
        self.max_group = max_group
        self.key = key
        self._queues: "weakref.WeakKeyDictionary[Database, _Queue]" = \
            weakref.WeakKeyDictionary()

    async def submit(self, db: Database, item: T) -> R:
        """Write `item` (grouped with concurrent ones); its result once committed."""
        outcome = await self._grouped(db, item)
        if outcome is _RETRY_ALONE:
            async with db.unit_of_work() as s:
                outcome = (await self.write_group(s, [item]))[0]
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    async def _grouped(self, db: Database, item: T) -> Any:
        loop = asyncio.get_running_loop()
        q = self._queues.get(db)
        if q is None or q.loop is not loop:
            q = self._queues[db] = _Queue(loop)
        entry = _Entry(item, loop.create_future())
        q.pending.append(entry)
        try:
            if q.leader is None:
                q.leader = entry
            elif await entry.future is not _LEAD:
                return entry.future.result()
            # Leading: our entry is the oldest queued, so it is in this group. Yield once so
            # callers whose group just finished can queue their next item and join.
            await asyncio.sleep(0)
            entry.future = loop.create_future()
            batch = q.take(self.max_group, self.key)
            try:
                await self._run(db, batch)
            finally:
                q.hand_over()
            return entry.future.result()
        except asyncio.CancelledError:
            if entry in q.pending:
                q.pending.remove(entry)
            if q.leader is entry:
                q.hand_over()
            raise

    async def _run(self, db: Database, batch: list[_Entry]) -> None:
        try:
            async with db.unit_of_work() as s:
                results = await self.write_group(s, [e.item for e in batch])
        except BaseException as exc:
            single = len(batch) == 1 and isinstance(exc, Exception)
            for e in batch:
                if not e.future.done():
                    e.future.set_result(exc if single else _RETRY_ALONE)
            if not isinstance(exc, Exception):
                raise
            return
        for e, result in zip(batch, results):
            if not e.future.done():  # a caller cancelled meanwhile gets nothing
                e.future.set_result(result)
