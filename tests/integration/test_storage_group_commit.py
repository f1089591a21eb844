"""Group commit: concurrent writes share transactions, each all-or-nothing, in order per key."""
from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select

from core.storage.group_commit import GroupCommit
from core.storage.models import ProtocolCounter


async def test_concurrent_items_share_transactions_and_a_failure_stays_alone(db):
    groups: list[list[int]] = []

    async def write_group(s, items):
        groups.append(list(items))
        if 13 in items:
            raise ValueError("unlucky")
        for year in items:
            s.add(ProtocolCounter(year=year, last=0))
        await s.flush()
        return [f"ok {y}" for y in items]

    gc = GroupCommit(write_group, max_group=8)
    results = await asyncio.gather(*[gc.submit(db, y) for y in range(1, 21)],
                                   return_exceptions=True)
    assert [r for r in results if isinstance(r, Exception)][0].args == ("unlucky",)
    assert [r for r in results if not isinstance(r, Exception)] == [
        f"ok {y}" for y in range(1, 21) if y != 13]
    assert max(len(g) for g in groups) > 1  # they did share transactions
    async with db.read() as s:
        years = sorted((await s.execute(select(ProtocolCounter.year))).scalars())
    assert years == [y for y in range(1, 21) if y != 13]


async def test_one_keys_items_never_share_a_group_and_keep_their_order(db):
    seen: list[tuple[str, int]] = []

    async def write_group(s, items):
        keys = [k for k, _ in items]
        assert len(keys) == len(set(keys))
        seen.extend(items)
        return [None] * len(items)

    gc = GroupCommit(write_group, key=lambda item: item[0])
    await asyncio.gather(*[gc.submit(db, (k, i)) for i in range(5) for k in "abc"])
    for k in "abc":
        assert [i for key, i in seen if key == k] == list(range(5))


async def test_an_exception_result_is_raised_to_its_caller_only(db):
    async def write_group(s, items):
        return [KeyError(i) if i == 2 else i for i in items]

    gc = GroupCommit(write_group)
    results = await asyncio.gather(*[gc.submit(db, i) for i in range(4)],
                                   return_exceptions=True)
    assert results[:2] == [0, 1] and isinstance(results[2], KeyError) and results[3] == 3
    with pytest.raises(KeyError):
        await gc.submit(db, 2)
