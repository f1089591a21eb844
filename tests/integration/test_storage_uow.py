"""One transaction per use case: all or nothing; busy/unreachable → retryable error."""
from __future__ import annotations

import sqlite3

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from core.storage.db import UNAVAILABLE_MESSAGE, Database, StorageUnavailable, create_engine
from core.storage.models import Case, CaseOwner, Event, ProtocolCounter
from core.storage.timeline import ActorRef, append_event


async def _counts(db) -> tuple[int, int, int]:
    async with db.read() as s:
        return tuple([await s.scalar(select(func.count()).select_from(m))
                      for m in (Case, Event, CaseOwner)])


async def test_failing_unit_of_work_leaves_no_partial_write(db, add_case):
    with pytest.raises(KeyError):
        async with db.unit_of_work() as s:
            case = await add_case(s)
            await append_event(s, case, ActorRef("citizen", 1), "report", "Art. 2º")
            s.add(CaseOwner(case_id=case.id, owner_name="Fulano", owner_cpf="52998224725"))
            await s.flush()
            raise KeyError("geocoder failed after the writes")
    assert await _counts(db) == (0, 0, 0)
    async with db.read() as s:
        assert await s.scalar(select(func.coalesce(func.max(ProtocolCounter.last), 0))) == 0


async def test_successful_unit_of_work_commits_everything(db, add_case):
    async with db.unit_of_work() as s:
        case = await add_case(s)
        await append_event(s, case, ActorRef("citizen", 1), "report", "Art. 2º")
        s.add(CaseOwner(case_id=case.id, owner_name="Fulano"))
    assert await _counts(db) == (1, 1, 1)


async def test_foreign_keys_are_enforced(db):
    with pytest.raises(IntegrityError):
        async with db.unit_of_work() as s:
            s.add(CaseOwner(case_id=999_999, owner_name="Ninguém"))


async def test_locked_sqlite_becomes_storage_unavailable_in_portuguese(data_dir):
    path = data_dir / "locked.sqlite3"
    url = f"sqlite+aiosqlite:///{path}"
    setup = Database(create_engine(url))
    await setup.migrate()
    await setup.dispose()
    other_process = sqlite3.connect(path, isolation_level=None)
    other_process.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    db = Database(create_engine(url, busy_timeout_ms=100))
    try:
        with pytest.raises(StorageUnavailable) as err:
            async with db.unit_of_work() as s:
                s.add(ProtocolCounter(year=2026, last=0))
        assert err.value.message == UNAVAILABLE_MESSAGE
        assert str(err.value) == "O sistema está temporariamente indisponível. Tente novamente em instantes."
        async with db.read() as s:  # reading does not wait for the write lock
            assert await s.get(ProtocolCounter, 2026) is None
        other_process.execute("ROLLBACK")
        async with db.unit_of_work() as s:  # retry succeeds once the lock is gone
            s.add(ProtocolCounter(year=2026, last=0))
        async with db.read() as s:
            assert await s.get(ProtocolCounter, 2026) is not None
    finally:
        other_process.close()
        await db.dispose()


async def test_unreachable_postgresql_becomes_storage_unavailable():
    db = Database.from_url("postgresql+asyncpg://postgres@127.0.0.1:1/test")
    try:
        with pytest.raises(StorageUnavailable):
            async with db.unit_of_work() as s:
                await s.get(ProtocolCounter, 2026)
        with pytest.raises(StorageUnavailable):
            await db.migrate()
    finally:
        await db.dispose()


def test_in_memory_sqlite_is_refused():
    with pytest.raises(ValueError):
        create_engine("sqlite+aiosqlite:///:memory:")
