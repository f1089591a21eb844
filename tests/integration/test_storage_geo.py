"""Nearby search (indexed cells + exact distance) and the due-deadline sweep query."""
from __future__ import annotations

from datetime import timedelta

import pytest
from geopy.distance import geodesic
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from core.storage.geo import cell_of, cells_around
from core.storage.queries import due_cases, due_query, nearby_open_cases, nearby_query
from core.storage.types import utcnow

CENTRE = (-19.4606, -45.6003)  # Dores do Indaiá


def _at(distance_m: float, bearing: float, origin=CENTRE) -> tuple[float, float]:
    p = geodesic(meters=distance_m).destination(origin, bearing)
    return p.latitude, p.longitude


@settings(max_examples=300, deadline=None)
@given(lat=st.floats(-60, 60), lon=st.floats(-179, 179), r=st.floats(1, 800),
       frac=st.floats(0, 1), bearing=st.floats(0, 360))
def test_cells_around_cover_every_point_within_the_radius(lat, lon, r, frac, bearing):
    point = _at(r * frac, bearing, (lat, lon))
    assert cell_of(*point) in cells_around(lat, lon, r)


def test_cells_are_about_a_hundred_metres_and_the_search_stays_small():
    assert cell_of(*CENTRE) != cell_of(*_at(150, 0))
    assert cell_of(*CENTRE) != cell_of(*_at(150, 90))
    assert len(cells_around(*CENTRE, 50)) <= 9
    assert len(cells_around(*CENTRE, 500)) <= 121


@pytest.mark.parametrize("bearing", [0, 45, 137, 270])
async def test_nearby_finds_points_just_inside_not_just_outside(db, add_case, bearing):
    radius = 50.0
    async with db.unit_of_work() as s:
        inside = await add_case(s, lat=_at(radius - 0.5, bearing)[0], lon=_at(radius - 0.5, bearing)[1])
        await add_case(s, lat=_at(radius + 0.5, bearing)[0], lon=_at(radius + 0.5, bearing)[1])
        await add_case(s, lat=CENTRE[0], lon=CENTRE[1], category="furniture")  # other category
        await add_case(s, lat=CENTRE[0], lon=CENTRE[1], is_open=False)  # closed
        await add_case(s, lat=CENTRE[0], lon=CENTRE[1], municipality="dracena")  # another city
        here = await add_case(s, lat=CENTRE[0], lon=CENTRE[1])
    async with db.read() as s:
        found = await nearby_open_cases(s, "dores-do-indaia", "vehicle", *CENTRE, radius)
    assert [c.id for c, _ in found] == [here.id, inside.id]
    assert found[1][1] == pytest.approx(radius - 0.5, abs=0.01)


async def _plan(db, stmt) -> str:
    sql = str(stmt.compile(db.engine, compile_kwargs={"literal_binds": True}))
    async with db.unit_of_work() as s:
        if db.is_sqlite:
            rows = (await s.execute(text("EXPLAIN QUERY PLAN " + sql))).all()
            return " | ".join(str(r[-1]) for r in rows)
        await s.execute(text("SET LOCAL enable_seqscan = off"))  # tiny table: force the choice
        return " | ".join(r[0] for r in (await s.execute(text("EXPLAIN " + sql))).all())


async def _spread_cases(db, n: int) -> None:
    """`n` cases of three categories spread over ~6 km around CENTRE, then ANALYZE."""
    import random

    from core.storage.models import Case
    rnd = random.Random(7)
    rows = []
    for i in range(n):
        lat, lon = CENTRE[0] + rnd.uniform(-0.05, 0.05), CENTRE[1] + rnd.uniform(-0.05, 0.05)
        rows.append(dict(protocol=f"2020-{i:06d}", case_code=f"c{i:010d}",
                         municipality="dores-do-indaia", category=rnd.choice(
                             ["vehicle", "furniture", "machinery"]), track="t",
                         state="reported", lat=lat, lon=lon, cell=cell_of(lat, lon),
                         is_open=rnd.random() < 0.3, details={},
                         created_at=utcnow(), updated_at=utcnow()))
    async with db.unit_of_work() as s:
        await s.execute(Case.__table__.insert(), rows)
    async with db.engine.connect() as conn:
        await conn.execute(text("ANALYZE cases"))
        await conn.commit()


async def test_due_sweep_uses_the_partial_deadline_index(db):
    plan = await _plan(db, due_query(utcnow(), 100))
    assert "ix_cases_due" in plan
    assert "TEMP B-TREE" not in plan.upper()  # ordered by the index, no sort of all rows


async def test_nearby_query_uses_the_nearby_index(db):
    if not db.is_sqlite:  # PostgreSQL plans by statistics: give it a realistic table
        await _spread_cases(db, 3000)
    plan = await _plan(db, nearby_query("dores-do-indaia", "vehicle", *CENTRE, 50))
    # a grid-cell index led by the city: the nearby one, or the public map's (municipality,
    # is_open, cell), never a full scan
    assert "ix_cases_nearby" in plan or "ix_cases_open_cell" in plan
    assert "Seq Scan" not in plan


async def test_due_cases_returns_only_lapsed_deadlines_earliest_first(db, add_case):
    now = utcnow()
    async with db.unit_of_work() as s:
        late = await add_case(s, next_deadline_at=now - timedelta(days=2), next_deadline_kind="x")
        later = await add_case(s, next_deadline_at=now - timedelta(minutes=1))
        await add_case(s, next_deadline_at=now + timedelta(minutes=1))
        await add_case(s)  # no deadline
    async with db.read() as s:
        due = await due_cases(s, now)
    assert [c.id for c in due] == [late.id, later.id]
    assert due[0].next_deadline_at == now - timedelta(days=2)
