"""The delivery fault suite's hardest case: the real `python -m bot` process is killed with
SIGKILL while the outbox is delivering (under a 429 storm and slow Bot API answers), twice,
and started again. Printed figures: messages queued, delivered, duplicated, out of order, and
the time from the last restart to the last delivery. Nothing is lost, nothing is out of
order, and a duplicate is only a message that was in flight at a kill (the documented
at-least-once window of core/storage/outbox.py)."""
from __future__ import annotations

import asyncio
import os
import time

import pytest

from sandbox.standin.botapi import User
from core.storage.db import Database, create_engine
from tests.support.bot_process import BotProcess
from tests.support.fault_figures import figures, report, queue, received, until_delivered

USERS = [User(4001 + i, f"Pessoa {i}") for i in range(4)]
KILLS = 2
pytestmark = [pytest.mark.faults,
              pytest.mark.skipif(os.name != "posix", reason="needs POSIX signals")]


def _delivered(api) -> int:
    return sum(len(received(api, u.id)) for u in USERS)


async def _until(predicate, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.02)


async def test_sigkill_mid_delivery_loses_nothing_and_keeps_order(tmp_path):
    async with BotProcess.around(tmp_path) as bot:
        api = bot.api
        for u in USERS:
            api.add_user(u)
        await bot.start()  # migrated
        db = Database(create_engine(f"sqlite+aiosqlite:///{bot.database}"))
        try:
            api.add_rate_rule(1, 1.0)  # 429 (retry_after) past one message/s per chat
            api.fail_next("sendMessage", None, delay=0.15, times=10_000)  # slow answers
            expected = await queue(db, [u.id for u in USERS], 10)
            for k in range(KILLS):
                target = (k + 1) * 8
                await _until(lambda: _delivered(api) >= target, 30)
                await bot.kill()  # a call is almost surely in flight
                await bot.start(wait=False)
            restarted = time.time()
            last = await until_delivered(api, expected, 60)
        finally:
            await db.dispose()
    fig = figures(api, expected)
    fig.recovery_s = last - restarted
    too_many = sum(c.error_code == 429 for c in api.sent(ok=False))
    report(fig, f"SIGKILL ×{KILLS} mid-delivery, {too_many} × 429")
    assert fig.lost == 0 and fig.out_of_order == 0
    assert fig.duplicated <= KILLS  # one message at most was in flight at each kill
