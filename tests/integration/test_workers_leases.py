"""Several workers, one periodic job at a time: the lease on the sweep is
held by one worker; another takes it only once the holder's lease ran out (the holder died),
and a new holder does not run the job again before it is due. On SQLite and PostgreSQL."""
from __future__ import annotations

import asyncio
from datetime import timedelta

from core.storage import leases
from core.storage.types import utcnow

JOB = "periodic"
EVERY = timedelta(minutes=5)


async def test_one_holder_at_a_time_and_a_dead_holders_lease_is_taken_over(db):
    now = utcnow()
    assert await leases.hold(db, JOB, "a", now)
    assert not await leases.hold(db, JOB, "b", now + timedelta(seconds=10))
    assert await leases.hold(db, JOB, "a", now + timedelta(seconds=30))  # renewed
    assert not await leases.hold(db, JOB, "b", now + timedelta(seconds=60))
    # "a" died at +30 s: its lease ends at +30 s + LEASE; "b" takes over within a minute.
    takeover = now + timedelta(seconds=30) + leases.LEASE + timedelta(seconds=1)
    assert (takeover - (now + timedelta(seconds=30))) < timedelta(minutes=1)
    assert await leases.hold(db, JOB, "b", takeover)
    assert not await leases.hold(db, JOB, "a", takeover + timedelta(seconds=1))


async def test_the_job_runs_once_per_interval_whoever_holds_it(db):
    now = utcnow()
    assert await leases.hold(db, JOB, "a", now)
    assert await leases.due(db, JOB, EVERY, now)  # never ran
    assert await leases.record_run(db, JOB, "a", now)
    taken = now + leases.LEASE * 2
    assert await leases.hold(db, JOB, "b", taken)
    assert not await leases.due(db, JOB, EVERY, taken)  # "a" ran it 80 s ago
    assert not await leases.record_run(db, JOB, "a", taken)  # "a" lost the lease
    assert await leases.due(db, JOB, EVERY, now + EVERY)
    assert await leases.runs(db, JOB) == 1


async def test_racing_workers_never_both_hold_it(db):
    now = utcnow()
    holders = [f"w{i}" for i in range(6)]
    got = await asyncio.gather(*(leases.hold(db, JOB, h, now) for h in holders))
    assert sum(got) == 1


async def test_a_worker_stopping_cleanly_frees_it_at_once(db):
    now = utcnow()
    assert await leases.hold(db, JOB, "a", now)
    await leases.give_up(db, JOB, "a")
    assert await leases.hold(db, JOB, "b", now + timedelta(seconds=1))
