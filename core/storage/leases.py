"""Leases: one worker at a time runs a periodic job.

A row per job (`job_leases`) names its holder and until when the lease runs. A worker takes
the lease when it is free or expired, or renews it when it holds it already, with one
conditional UPDATE (on PostgreSQL the row lock makes two workers' attempts take turns, and
the second one sees the first one's lease). The holder renews it while it lives; when it
dies, the lease runs out after LEASE and another worker takes the job over. The row also
records when the job last ran, so a new holder does not run it again before it is due, and
how many runs there were (the benchmark checks that none ran twice). SQLite runs the same
statements (one bot process: it simply always holds the lease)."""
from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import or_, select, update

from core.storage.db import Database
from core.storage.dialect import insert_ignore
from core.storage.models import JobLease
from core.storage.types import utcnow

LEASE = timedelta(seconds=40)


async def hold(db: Database, name: str, holder: str, now: datetime | None = None,
               lease: timedelta = LEASE) -> bool:
    """Take or renew the lease on job `name` for `holder`; False if another holds it."""
    now = now or utcnow()
    async with db.unit_of_work() as s:
        await s.execute(insert_ignore(s, JobLease.__table__, {"name": name, "runs": 0},
                                      ["name"]))
        result = await s.execute(
            update(JobLease).where(
                JobLease.name == name,
                or_(JobLease.holder == holder, JobLease.holder.is_(None),
                    JobLease.lease_until.is_(None), JobLease.lease_until < now))
            .values(holder=holder, lease_until=now + lease))
        return result.rowcount == 1


async def due(db: Database, name: str, every: timedelta, now: datetime | None = None) -> bool:
    """Whether job `name` last ran `every` ago or more (or never ran)."""
    now = now or utcnow()
    async with db.read() as s:
        last = (await s.execute(select(JobLease.last_run_at).where(
            JobLease.name == name))).scalar()
    return last is None or now - last >= every


async def record_run(db: Database, name: str, holder: str, now: datetime | None = None) -> bool:
    """The job ran (started at `now`) under `holder`'s lease; False if the lease was lost."""
    async with db.unit_of_work() as s:
        result = await s.execute(
            update(JobLease).where(JobLease.name == name, JobLease.holder == holder)
            .values(last_run_at=now or utcnow(), runs=JobLease.runs + 1))
        return result.rowcount == 1


async def give_up(db: Database, name: str, holder: str) -> None:
    """A worker stopping cleanly frees its lease at once (another takes over on its next try)."""
    async with db.unit_of_work() as s:
        await s.execute(update(JobLease).where(JobLease.name == name, JobLease.holder == holder)
                        .values(holder=None, lease_until=None))


async def runs(db: Database, name: str) -> int:
    async with db.read() as s:
        return (await s.execute(select(JobLease.runs).where(JobLease.name == name))).scalar() or 0
