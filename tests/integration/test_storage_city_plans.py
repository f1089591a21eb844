"""Every per-city query of the storage reads its city's range of an index led by the
municipality (migration 0020), on both engines: the duplicate search, the panel's list pages
(keyset, by state, by category), the public map's counters and its open and recently closed
cases. Another city's cases cost nothing to a city's query. (PostgreSQL plans by statistics,
which on a test-sized table may prefer another index: there no full scan is asserted; the
benchmark (benchmarks/storage_bench.py) shows the figures at 1M cases.)"""
from __future__ import annotations

import random
from datetime import timedelta

import pytest
from sqlalchemy import func, select, text, tuple_

from core.storage.geo import cell_of
from core.storage.models import Case, MapCell
from core.storage.queries import nearby_query
from core.storage.types import utcnow

CITIES = {"dores-do-indaia": (-19.4628, -45.6003), "dracena": (-21.4843, -51.5353),
          "dores-do-indaia-02": (-19.75, -44.0)}
HERE = "dores-do-indaia"


async def _seed(db, n: int) -> None:
    rnd = random.Random(5)
    now = utcnow()
    rows = []
    for i in range(n):
        slug = rnd.choice(list(CITIES))
        lat, lon = (c + rnd.uniform(-0.05, 0.05) for c in CITIES[slug])
        is_open = rnd.random() < 0.3
        rows.append(dict(protocol=f"2020-{i:06d}", case_code=f"c{i:010d}", municipality=slug,
                         category=rnd.choice(["motor_vehicle", "machinery", "trailer"]),
                         track="t", state=rnd.choice(["reported", "diligence", "in_depot"])
                         if is_open else "closed_unfounded", lat=lat, lon=lon,
                         cell=cell_of(lat, lon), is_open=is_open, details={},
                         created_at=now - timedelta(hours=i), updated_at=now,
                         closed_at=None if is_open else now - timedelta(days=i % 90)))
    async with db.unit_of_work() as s:
        await s.execute(Case.__table__.insert(), rows)
    async with db.engine.connect() as conn:
        await conn.execute(text("ANALYZE"))
        await conn.commit()


async def _plan(db, stmt) -> str:
    sql = str(stmt.compile(db.engine, compile_kwargs={"literal_binds": True}))
    async with db.unit_of_work() as s:
        if db.is_sqlite:
            rows = (await s.execute(text("EXPLAIN QUERY PLAN " + sql))).all()
            return " | ".join(str(r[-1]) for r in rows)
        await s.execute(text("SET LOCAL enable_seqscan = off"))
        return " | ".join(r[0] for r in (await s.execute(text("EXPLAIN " + sql))).all())


def _newest(*conds):
    return (select(Case).where(Case.municipality == HERE, *conds)
            .order_by(Case.created_at.desc(), Case.id.desc()).limit(51))


@pytest.mark.parametrize("name, index", [
    ("nearby", "ix_cases_nearby"),
    ("list", "ix_cases_created_id"),
    ("list deep", "ix_cases_created_id"),
    ("list by state", "ix_cases_state_created_id"),
    ("list by category", "ix_cases_category_created_id"),
    ("map counters", "pk_map_cells"),
    ("map open", "ix_cases_open_cell"),
    ("map recently closed", "ix_cases_closed_cell"),
])
async def test_a_city_query_reads_its_city_range_of_a_municipality_led_index(db, name, index):
    await _seed(db, 3000)
    lat, lon = CITIES[HERE]
    lo, hi = cell_of(lat - 0.01, lon - 0.01), cell_of(lat + 0.01, lon + 0.01)
    now = utcnow()
    query = {
        "nearby": nearby_query(HERE, "machinery", lat, lon, 50),
        "list": _newest(),
        "list deep": _newest(tuple_(Case.created_at, Case.id) < tuple_(now - timedelta(days=30),
                                                                       0)),
        "list by state": _newest(Case.state == "in_depot"),
        "list by category": _newest(Case.category == "trailer"),
        "map counters": select(MapCell.cell, func.sum(MapCell.n)).where(
            MapCell.municipality == HERE, MapCell.level == 0, MapCell.cell.between(lo, hi))
        .group_by(MapCell.cell),
        "map open": select(Case.cell).where(Case.municipality == HERE, Case.is_open.is_(True),
                                            Case.cell.between(lo, hi)),
        "map recently closed": select(func.count()).where(
            Case.municipality == HERE, Case.closed_at >= now - timedelta(days=30),
            Case.is_open.is_not(True), Case.cell.between(lo, hi)),
    }[name]
    plan = await _plan(db, query)
    assert "Seq Scan" not in plan and "SCAN cases" not in plan
    if db.is_sqlite:  # rule-based: the city's range of the very index, the city first
        assert (index if index != "pk_map_cells" else "PRIMARY KEY") in plan
        assert "(municipality=?" in plan
    else:  # statistics decide on so small a table; an index, never the whole table
        assert "municipality" in plan
