"""Migration 0020 on a database in use by two cities: every case stays, the public map's
counters (map_cells) are counted again per city, each city's map counts only its own cases,
and the triggers keep them per city afterwards (a new case, a closing, a case moved to the
other city). Going back to 0019 loses nothing either."""
from __future__ import annotations

from collections import Counter

from sqlalchemy import func, select, text, update

from core.storage.db import migrate
from core.storage.geo import MAX_LEVEL, level_cell
from core.storage.models import Case, MapCell
from tests.support.migrations import downgrade

DORES = (-19.4628, -45.6003)
DRACENA = (-21.4843, -51.5353)


def _expected(cases) -> Counter:
    """(municipality, level, level cell, category, state) → open cases, from the cases."""
    out: Counter = Counter()
    for city, cell, category, state, is_open in cases:
        if is_open:
            for level in range(MAX_LEVEL + 1):
                out[(city, level, level_cell(cell, level), category, state)] += 1
    return out


async def _cases(s):
    return (await s.execute(select(Case.municipality, Case.cell, Case.category, Case.state,
                                   Case.is_open))).all()


async def _counters(s) -> Counter:
    rows = (await s.execute(select(MapCell.municipality, MapCell.level, MapCell.cell,
                                   MapCell.category, MapCell.state, MapCell.n))).all()
    return Counter({tuple(r[:5]): r[5] for r in rows})


async def test_two_cities_map_counters_are_rebuilt_per_city_and_nothing_is_lost(
        db_factory, add_old_case):
    db = db_factory()
    await migrate(db.engine, "0019_municipalities")
    async with db.unit_of_work() as s:
        for i in range(12):  # the same spot pattern in both cities, some closed
            for city, (lat, lon), category in (("dores-do-indaia", DORES, "motor_vehicle"),
                                               ("dracena", DRACENA, "abandoned_vehicle")):
                await add_old_case(s, municipality=city, category=category, track="t",
                               lat=lat + i * 0.0013, lon=lon, is_open=i % 3 != 0,
                               state="reported" if i % 3 else "closed_unfounded")
        # a Dracena case at Dores's very cell: counted for Dracena only
        await add_old_case(s, municipality="dracena", category="motor_vehicle", lat=DORES[0],
                       lon=DORES[1])
    async with db.read() as s:
        before = sorted(await _cases(s))
        old = (await s.execute(text("SELECT level, cell, category, state, n FROM map_cells"))
               ).all()
    assert sum(r[4] for r in old) == 4 * (8 + 8 + 1)  # 0019's counters, four levels

    await migrate(db.engine)

    async with db.read() as s:
        assert sorted(await _cases(s)) == before  # every case as it was
        counters = await _counters(s)
    assert counters == _expected(before)
    assert sum(n for k, n in counters.items() if k[0] == "dracena" and k[1] == 0) == 9
    assert sum(n for k, n in counters.items() if k[0] == "dores-do-indaia" and k[1] == 0) == 8

    async with db.unit_of_work() as s:  # the triggers keep them per city from now on
        await add_old_case(s, municipality="dracena", category="livestock", lat=DRACENA[0],
                       lon=DRACENA[1])
        first_dores = await s.scalar(select(func.min(Case.id)).where(
            Case.municipality == "dores-do-indaia", Case.is_open.is_(True)))
        await s.execute(update(Case).where(Case.id == first_dores).values(
            is_open=False, state="closed_unfounded"))
        moved = await s.scalar(select(func.max(Case.id)).where(
            Case.municipality == "dores-do-indaia", Case.is_open.is_(True)))
        await s.execute(update(Case).where(Case.id == moved).values(municipality="dracena"))
    async with db.read() as s:
        cases = await _cases(s)
        assert await _counters(s) == _expected(cases)
    level0 = Counter()
    for (city, level, *_), n in (await _read(db)).items():
        if level == 0:
            level0[city] += n
    assert level0 == {"dores-do-indaia": 6, "dracena": 11}

    await downgrade(db, "0019_municipalities")  # and back: the city-blind counters
    async with db.read() as s:
        assert sorted(await _cases(s)) == sorted(cases)
        old = (await s.execute(text("SELECT level, cell, category, state, n FROM map_cells"))
               ).all()
    blind = Counter()
    for (_city, *key), n in _expected(cases).items():
        blind[tuple(key)] += n
    assert Counter({tuple(r[:4]): r[4] for r in old}) == blind


async def _read(db) -> Counter:
    async with db.read() as s:
        return await _counters(s)
