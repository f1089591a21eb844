"""The installation administrator's cities (core.services.installation.municipalities): a city
is added with its boundary and routes the pins inside it; an area overlapping another active
city's is refused naming it; a deactivated city gets no new pin but keeps its cases; another
process sees a change within its cache time; a single-city installation is as before."""
from __future__ import annotations

import json

import pytest

from core.services.errors import InvalidInput, NotFound
from core.services.installation.municipalities import (activate_municipality,
                                                       add_municipality,
                                                       deactivate_municipality,
                                                       list_municipalities,
                                                       municipality_record, set_municipality)
from core.services.staff.accounts import create_user, get_user

#: A square east of Dracena's circle (Tupi Paulista's side), clear of it
EAST = {"type": "Polygon", "coordinates": [[[-51.40, -21.45], [-51.30, -21.45],
                                             [-51.30, -21.35], [-51.40, -21.35],
                                             [-51.40, -21.45]]]}
#: A square over Dracena's centre
OVER_DRACENA = {"type": "Polygon", "coordinates": [[[-51.56, -21.50], [-51.50, -21.50],
                                                     [-51.50, -21.46], [-51.56, -21.46],
                                                     [-51.56, -21.50]]]}


async def test_a_city_added_with_its_boundary_routes_the_pins_inside_it(make_two_cities):
    core = await make_two_cities()
    city = await add_municipality(core, "tupi-paulista", law="dracena", name="Tupi Paulista",
                                  uf="SP", ibge_code="3555000",
                                  boundary=json.dumps(EAST).encode(),
                                  depot_address="Pátio de Tupi, Rua 2")
    assert city.label == "Tupi Paulista (SP)" and city.depot_address == "Pátio de Tupi, Rua 2"
    assert core.city_at(-21.40, -51.35).slug == "tupi-paulista"
    assert core.city_at(-21.4843, -51.5353).slug == "dracena"
    assert core.cities_named() == "Dores do Indaiá (MG), Dracena (SP) e Tupi Paulista (SP)"
    # its own tariff book, seeded from its law (Dracena Art. 7º)
    assert (await core.for_city("tupi-paulista").tariff_book()).codes()


async def test_an_area_overlapping_another_city_is_refused_naming_it(make_two_cities):
    core = await make_two_cities()
    with pytest.raises(InvalidInput) as refused:
        await add_municipality(core, "intrusa", law="dracena", name="Intrusa", uf="SP",
                               ibge_code="3555000", boundary=json.dumps(OVER_DRACENA))
    assert "Dracena (SP)" in refused.value.message and "sobrepõe" in refused.value.message
    assert refused.value.field == "boundary"
    assert core.city_named("intrusa") is None and core.city_at(-21.48, -51.53).slug == "dracena"
    # neighbours may share a border line
    west = {"type": "Polygon", "coordinates": [[[-51.50, -21.45], [-51.40, -21.45],
                                                 [-51.40, -21.35], [-51.50, -21.35],
                                                 [-51.50, -21.45]]]}
    await add_municipality(core, "leste", law="dracena", name="Leste", uf="SP",
                           ibge_code="3555000", boundary=json.dumps(EAST))
    with pytest.raises(InvalidInput, match="Dracena"):  # west touches Dracena's 7 km circle
        await add_municipality(core, "oeste", law="dracena", name="Oeste", uf="SP",
                               ibge_code="3514106", boundary=json.dumps(west))


async def test_refusals_name_the_field_and_write_nothing(make_two_cities):
    core = await make_two_cities()
    cases = [
        (dict(slug="Nova Cidade"), "Identificador inválido"),
        (dict(slug="nova", law="nenhuma"), "Lei municipal desconhecida"),
        (dict(slug="dracena"), "já está cadastrado"),
        (dict(slug="nova", law="dracena", ibge_code="3514403"), "já é de Dracena"),
        (dict(slug="nova", law="dracena", ibge_code="3106200"), "não é de um município de SP"),
        (dict(slug="nova", law="dracena", ibge_code="3555000", boundary="{}"),
         "nenhum polígono"),
        (dict(slug="nova", law="dracena", ibge_code="3555000", pix_key="abc"),
         "Chave PIX inválida"),
    ]
    for fields, reason in cases:
        slug = fields.pop("slug")
        with pytest.raises(InvalidInput, match=reason):
            await add_municipality(core, slug, **fields)
    assert [r.city.slug for r in await list_municipalities(core)] == \
        ["dores-do-indaia", "dracena"]


async def test_a_field_left_empty_keeps_the_installation_setting(make_two_cities):
    core = await make_two_cities(depot_address="Pátio da instalação")
    city = await set_municipality(core, "dracena", depot_address="Pátio de Dracena, Rua 9")
    assert city.depot_address == "Pátio de Dracena, Rua 9"
    assert core.city_named("dores-do-indaia").depot_address == "Pátio da instalação"
    city = await set_municipality(core, "dracena", depot_address="")
    assert city.depot_address == "Pátio da instalação"
    with pytest.raises(NotFound):
        await set_municipality(core, "atlantida", depot_address="x")


async def test_a_new_boundary_replaces_the_circle_and_is_checked_too(make_two_cities):
    core = await make_two_cities()
    await set_municipality(core, "dracena", boundary=json.dumps(OVER_DRACENA))
    assert (await municipality_record(core, "dracena"))["boundary"]
    assert core.city_at(-21.48, -51.53).slug == "dracena"
    assert core.city_at(-21.4843, -51.60) is None  # in the old circle, out of the boundary
    bow_tie = {"type": "Polygon", "coordinates": [[[-51.6, -21.6], [-51.4, -21.4],
                                                    [-51.4, -21.6], [-51.6, -21.4],
                                                    [-51.6, -21.6]]]}
    with pytest.raises(InvalidInput, match="cruza a si mesmo"):
        await set_municipality(core, "dracena", boundary=json.dumps(bow_tie))
    await set_municipality(core, "dracena", boundary="")  # back to the law's circle
    assert core.city_at(-21.4843, -51.60).slug == "dracena"


async def test_a_deactivated_city_gets_no_new_pin_but_keeps_its_cases(make_two_cities):
    core = await make_two_cities()
    await deactivate_municipality(core, "dracena")
    assert core.city_at(-21.4843, -51.5353) is None
    assert [c.slug for c in core.cities] == ["dores-do-indaia"]
    assert core.city_named("dracena") is not None  # its cases still reach their city
    with pytest.raises(InvalidInput, match="único município ativo"):
        await deactivate_municipality(core, "dores-do-indaia")
    await activate_municipality(core, "dracena")
    assert core.city_at(-21.4843, -51.5353).slug == "dracena"


async def test_another_process_sees_a_new_city_within_its_cache_time(make_two_cities, make_core):
    panel = await make_two_cities()
    bot = await make_core("dores-do-indaia", )  # another process: caches of its own
    bot.cache_seconds = 0
    assert await bot.cities_if_stale()
    assert bot.city_at(-21.40, -51.35) is None
    await add_municipality(panel, "leste", law="dracena", name="Leste", uf="SP",
                           ibge_code="3555000", boundary=json.dumps(EAST))
    assert await bot.cities_if_stale()
    assert bot.city_at(-21.40, -51.35).slug == "leste"
    bot.cache_seconds = 3600
    assert not await bot.cities_if_stale()  # read a moment ago: nothing to do


async def test_a_single_city_installation_needs_no_record_and_adopts_its_own(make_core):
    """MUNICIPALITY= alone: before the first start recorded it, the Core serves the settings'
    city; after, the one record is that city, with the law's name, state and IBGE code."""
    core = await make_core("dracena")
    assert [c.label for c in core.cities] == ["Dracena (SP)"]
    await core.cities_if_stale()  # nothing recorded yet: still the settings' city
    assert [c.label for c in core.cities] == ["Dracena (SP)"] and not core.many_cities
    await core.load_cities(adopt=True)
    (row,) = await list_municipalities(core)
    assert (row.city.slug, row.city.uf, row.city.ibge_code) == ("dracena", "SP", "3514403")
    assert core.city_at(-21.4843, -51.5353).slug == "dracena"


async def test_only_an_administrator_without_a_city_manages_the_cities(make_two_cities):
    from sqlalchemy import update

    from core.storage.models import StaffUser
    core = await make_two_cities()
    ana = await create_user(core, "ana", "senha-muito-secreta", "admin")
    bia = await create_user(core, "bia", "senha-muito-secreta", "admin")
    caio = await create_user(core, "caio", "senha-muito-secreta", "staff")
    async with core.db.unit_of_work() as s:
        await s.execute(update(StaffUser).where(StaffUser.id == bia.id)
                        .values(municipality="dracena"))
    assert (await get_user(core, ana.id)).is_installation_admin
    assert not (await get_user(core, bia.id)).is_installation_admin  # Dracena's own admin
    assert not (await get_user(core, caio.id)).is_installation_admin
    assert await get_user(core, 999_999) is None
