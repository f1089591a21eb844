"""Migration 0022 on a database in use: every closure registered before stays a day closed
all day (closes_at NULL) and counts as before; an early closing can be stored after it;
downgrading drops only the column."""
from __future__ import annotations

from datetime import date, time

from sqlalchemy import inspect, select, text

from core.storage.db import migrate
from core.storage.models import Closure
from tests.support.migrations import downgrade


async def _columns(db) -> set[str]:
    async with db.engine.connect() as conn:
        return {c["name"] for c in await conn.run_sync(
            lambda c: inspect(c).get_columns("closures"))}


async def test_closures_registered_before_stay_whole_days(db_factory):
    db = db_factory()
    await migrate(db.engine, "0021_tallies")
    assert "closes_at" not in await _columns(db)
    async with db.engine.begin() as conn:
        await conn.execute(text(
            "INSERT INTO closures (municipality, date, name, kind, source) VALUES "
            "('dores-do-indaia', '2026-12-24', 'Véspera de Natal', 'optional', 'Decreto 1')"))
    await migrate(db.engine)
    async with db.read() as s:
        [old] = (await s.execute(select(Closure))).scalars().all()
    assert (old.date, old.name, old.closes_at) == (date(2026, 12, 24), "Véspera de Natal", None)
    async with db.unit_of_work() as s:
        s.add(Closure(municipality="dores-do-indaia", date=date(2026, 12, 31), name="Réveillon",
                      kind="decree", source="Decreto 2", closes_at=time(12, 0)))
    async with db.read() as s:
        hours = (await s.execute(select(Closure.closes_at).order_by(Closure.date))).scalars()
        assert list(hours) == [None, time(12, 0)]
    await downgrade(db, "0021_tallies")
    assert "closes_at" not in await _columns(db)
    async with db.engine.connect() as conn:
        assert (await conn.execute(text("SELECT count(*) FROM closures"))).scalar() == 2
