"""Reports of several cities submitted at the same moment are committed together (one group,
core.services.citizens.reports) and still each belongs to its own city, under its own law:
its municipality, its law's category and lifecycle, found by its city's duplicate search only
(two cities under the same law too: the law does not name the city)."""
from __future__ import annotations

import asyncio

from sqlalchemy import select

from core.laws import get_law
from core.services.citizens.reports import ReportIn, find_nearby, submit_report
from core.storage.models import Case

DORES = (-19.4628, -45.6003)
DRACENA = (-21.4843, -51.5353)
NOVA = (-19.9, -45.6)  # a second city under Dores do Indaiá's law, 48 km south


def _report(photo, category: str, at: tuple[float, float], signs: tuple[str, ...], i: int):
    return ReportIn(category=category, lat=at[0] + i * 0.002, lon=at[1], photos=[photo(i)],
                    address=f"Rua {i}, 10", colour="prata", time_there="3 meses", signs=signs)


async def test_concurrent_reports_of_several_cities_each_land_in_their_own_city(
        make_two_cities, photo):
    from core.services.installation.municipalities import add_municipality
    dores = await make_two_cities()
    await add_municipality(dores, "nova-dores", law="dores-do-indaia", name="Nova Dores",
                           ibge_code="3124708", centre_lat=NOVA[0], centre_lon=NOVA[1],
                           radius_m=6000)
    dracena, nova = dores.for_city("dracena"), dores.for_city("nova-dores")
    jobs = []
    for i in range(6):
        jobs.append(submit_report(dores, 500 + i, _report(
            photo, "large_furniture", DORES, ("dented_rusted",), i)))
        jobs.append(submit_report(dracena, 600 + i, _report(
            photo, "abandoned_thing", DRACENA, (), i)))  # no signs in its law
        jobs.append(submit_report(nova, 700 + i, _report(
            photo, "large_furniture", NOVA, ("dented_rusted",), i)))
    done = await asyncio.gather(*jobs)
    async with dores.db.read() as s:
        rows = {c.protocol: c for c in (await s.execute(select(Case))).scalars()}
    dores_law, dracena_law = get_law("dores-do-indaia"), get_law("dracena")
    for k, result in enumerate(done):
        case = rows[result.protocol]
        if k % 3 != 1:
            city = "dores-do-indaia" if k % 3 == 0 else "nova-dores"
            assert (case.municipality, case.category) == (city, "large_furniture")
            assert case.track == dores_law.categories["large_furniture"].track
        else:
            assert (case.municipality, case.category) == ("dracena", "abandoned_thing")
            assert case.track == dracena_law.categories["abandoned_thing"].track
    # the duplicate search asks its own city only
    assert len(await find_nearby(dracena, "abandoned_thing", *DRACENA, 50)) == 1
    assert await find_nearby(dores, "abandoned_thing", *DRACENA, 50) == []
    assert len(await find_nearby(nova, "large_furniture", *NOVA, 50)) == 1
    assert await find_nearby(dores, "large_furniture", *NOVA, 50) == []
