"""Protocol numbers: sequential per year, unique, never reused; case codes unguessable."""
from __future__ import annotations

import asyncio
import re

import pytest
from sqlalchemy import func, select

from core.storage.models import Case, Event, OutboxMessage
from core.storage.outbox import enqueue
from core.storage.protocol import CASE_CODE_RE, PROTOCOL_RE, new_case_code
from core.storage.timeline import ActorRef, append_event


async def _submit(db, add_case, n: int) -> str:
    """One citizen submission: case + first event + notification, one transaction."""
    async with db.unit_of_work() as s:
        case = await add_case(s, year=2026, description=f"carro {n}")
        await append_event(s, case, ActorRef("citizen", n), "report", "Art. 2º")
        await enqueue(s, 1000 + n, "receipt", {"text": case.protocol}, f"receipt:{case.id}")
        return case.protocol


async def test_fifty_concurrent_submissions_get_1_to_50(db, add_case):
    protocols = await asyncio.gather(*(_submit(db, add_case, n) for n in range(50)))
    assert sorted(protocols) == [f"2026-{i:06d}" for i in range(1, 51)]
    async with db.read() as s:
        assert await s.scalar(select(func.count()).select_from(Case)) == 50
        assert await s.scalar(select(func.count()).select_from(Event)) == 50
        assert await s.scalar(select(func.count()).select_from(OutboxMessage)) == 50


async def test_rolled_back_submission_returns_its_number(db, add_case):
    """A failed submission leaves no case and no gap: the next one gets the same number."""
    with pytest.raises(RuntimeError):
        async with db.unit_of_work() as s:
            case = await add_case(s, year=2026)
            assert case.protocol == "2026-000001"
            raise RuntimeError("photo upload failed")
    assert await _submit(db, add_case, 1) == "2026-000001"
    assert await _submit(db, add_case, 2) == "2026-000002"


async def test_each_year_starts_at_one(db, add_case):
    async with db.unit_of_work() as s:
        a = await add_case(s, year=2026)
        b = await add_case(s, year=2027)
        c = await add_case(s, year=2026)
    assert (a.protocol, b.protocol, c.protocol) == ("2026-000001", "2027-000001", "2026-000002")
    assert all(PROTOCOL_RE.match(p) for p in (a.protocol, b.protocol, c.protocol))


async def test_case_code_is_random_typable_and_not_the_protocol(db, add_case):
    codes = {new_case_code() for _ in range(2000)}
    assert len(codes) == 2000
    # 8 characters of Crockford's base 32: no I, L, O or U to misread
    assert all(re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{8}", c) for c in codes)
    assert all(CASE_CODE_RE.match(c) for c in codes)
    async with db.unit_of_work() as s:
        case = await add_case(s, year=2026)
    assert case.case_code not in case.protocol and "000001" not in case.case_code


async def test_two_processes_submitting_at_once_share_one_sequence(db, db_factory, add_case):
    """Bot and admin panel write the same database: the busy timeout (SQLite) or row lock
    (PostgreSQL) queues them, and the yearly sequence stays 1..n."""
    other = db_factory()  # a second engine and pool on the same database
    jobs = [_submit(db if n % 2 else other, add_case, n) for n in range(40)]
    protocols = await asyncio.gather(*jobs)
    assert sorted(protocols) == [f"2026-{i:06d}" for i in range(1, 41)]
