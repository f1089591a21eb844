"""The migrated schema is the models' schema, on every engine; connections are set up right."""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from decimal import Decimal

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import select, text

from core.storage.db import migrate
from core.storage.models import Base, Tariff


def _diff(sync_conn):
    ctx = MigrationContext.configure(sync_conn, opts={"compare_type": True,
                                                      "target_metadata": Base.metadata})
    return compare_metadata(ctx, Base.metadata)


async def test_migrated_schema_matches_models(db):
    async with db.engine.connect() as conn:
        diff = await conn.run_sync(_diff)
    assert diff == []


async def test_migrate_twice_is_a_no_op_and_records_head(db):
    await migrate(db.engine)
    async with db.read() as s:
        versions = (await s.execute(text("SELECT version_num FROM alembic_version"))).scalars().all()
    from alembic.script import ScriptDirectory

    from core.storage.db import alembic_config
    assert versions == [ScriptDirectory.from_config(alembic_config()).get_current_head()]


async def test_workers_migrating_one_postgresql_schema_at_once_take_turns(db_factory):
    """Workers starting together: one migrates, the other waits on the schema's advisory lock
    and finds it at head (the lock is keyed by schema, so another schema's migration, e.g. a
    test's on the same database, waits for none)."""
    if db_factory.engine_name == "sqlite":
        pytest.skip("PostgreSQL: several workers share one database")
    import asyncio
    first, second = db_factory(), db_factory()
    await asyncio.gather(first.migrate(), second.migrate())
    async with second.read() as s:
        assert (await s.execute(text("SELECT count(*) FROM alembic_version"))).scalar() == 1


async def test_sqlite_connections_get_wal_busy_timeout_and_foreign_keys(db):
    if not db.is_sqlite:
        pytest.skip("SQLite pragmas only")
    async with db.read() as s:
        get = lambda p: s.execute(text(f"PRAGMA {p}"))  # noqa: E731
        assert (await get("journal_mode")).scalar() == "wal"
        assert (await get("busy_timeout")).scalar() == 5000
        assert (await get("foreign_keys")).scalar() == 1
        assert (await get("synchronous")).scalar() == 1  # NORMAL
        assert (await get("cache_size")).scalar() == -32768  # 32 MiB a connection
        assert (await get("wal_autocheckpoint")).scalar() == 8000  # pages


async def test_money_is_decimal_and_datetimes_come_back_utc_aware(db):
    """Fees are dated data in BRL, read back as exact Decimal; timestamps keep their instant."""
    brt = timezone(timedelta(hours=-3))
    stamp = datetime(2026, 3, 1, 21, 30, 15, 123456, tzinfo=brt)
    async with db.unit_of_work() as s:
        s.add(Tariff(municipality="dores-do-indaia", code="towing", amount=Decimal("1234.56"),
                     unit="fixed", valid_from=date(2026, 1, 1), article="Art. 5º",
                     source="Decreto de teste", created_at=stamp))
    async with db.read() as s:
        t = (await s.execute(select(Tariff))).scalar_one()
    assert t.amount == Decimal("1234.56") and isinstance(t.amount, Decimal)
    assert t.created_at == stamp and t.created_at.utcoffset() == timedelta(0)
    assert t.created_at.hour == 0 and t.created_at.day == 2  # 21:30 BRT is 00:30 UTC next day
    assert t.valid_from == date(2026, 1, 1)


async def test_naive_datetime_is_refused(db):
    with pytest.raises(Exception, match="naive datetime"):
        async with db.unit_of_work() as s:
            s.add(Tariff(municipality="x", code="towing", amount=Decimal("1"), unit="fixed",
                         valid_from=date(2026, 1, 1), article="Art. 5º", source="s",
                         created_at=datetime(2026, 1, 1, 12, 0)))
