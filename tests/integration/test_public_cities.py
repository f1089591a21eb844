"""The public face of an installation serving two cities: /publico lists the cities, each
city's pages (/publico/<city>/…) show its own cases only, in the HTML and in the JSON; another
city's protocol is answered exactly as a missing one; an unknown city is a 404 in Portuguese;
the old status links (e-mails, papers) find the protocol's city. Serving one city, the old
addresses are unchanged and /publico/<slug>/… answers too."""
from __future__ import annotations

import json

from tests.support.panel import CENTRE, Panel, new_case
from tests.support.two_cities import DRACENA, photo_of, two_cities


def _bbox(point) -> str:
    return f"{point[0] - 0.02},{point[1] - 0.02},{point[0] + 0.02},{point[1] + 0.02}"


async def test_the_installation_page_lists_each_city_with_its_open_cases(make_two_cities):
    t = await two_cities(make_two_cities)
    await new_case(t.dores, lambda i: photo_of(t.dores, i), 3)
    async with Panel(t.dores).client() as c:
        r = await c.get("/publico")
        html = await r.text()
        slash = await c.get("/publico/")
    assert r.status == 200 and slash.status == 200
    assert "Municípios atendidos" in html
    rows = ('<a href="/publico/dores-do-indaia">Dores do Indaiá</a></td><td>MG</td><td>2</td>',
            '<a href="/publico/dracena">Dracena</a></td><td>SP</td><td>1</td>')
    assert all(row in html for row in rows)
    # no case of either city on the installation's page
    assert t.dores_case.protocol not in html and t.dracena_case.protocol not in html


async def test_each_citys_pages_show_only_its_own_cases(make_two_cities):
    t = await two_cities(make_two_cities)
    mine, theirs = t.dracena_case.protocol, t.dores_case.protocol
    async with Panel(t.dores).client() as c:
        page = await c.get("/publico/dracena")
        html = await page.text()
        near = await (await c.get(f"/publico/dracena/mapa.json?bbox={_bbox(DRACENA)}")).json()
        # Dracena's map asked for Dores' area: nothing (the other city's cases never leak)
        far = await (await c.get(f"/publico/dracena/mapa.json?bbox={_bbox(CENTRE)}")).json()
        data = await (await c.get("/publico/dracena/casos.geojson")).text()
        dores = await (await c.get("/publico/dores-do-indaia")).text()
        dores_far = await (await c.get(
            f"/publico/dores-do-indaia/mapa.json?bbox={_bbox(DRACENA)}")).json()
    assert page.status == 200
    assert "Veículos e objetos abandonados em Dracena" in html
    assert "Prefeitura de Dracena/SP" in html and "Dores do Indaiá" not in html.split("<main>")[1]
    assert mine in html and theirs not in html and "Vila Dracena" in html
    assert f'href="/publico/dracena/protocolo/{mine}"' in html
    assert [f["properties"]["protocolo"] for f in near["features"]] == [mine]
    assert near["features"][0]["properties"]["foto"] == f"/publico/dracena/protocolo/{mine}/foto"
    assert far["total"] == 0 and far["features"] == []
    assert [f["properties"]["protocolo"] for f in json.loads(data)["features"]] == [mine]
    assert theirs in dores and mine not in dores and "Prefeitura de Dores do Indaiá/MG" in dores
    assert dores_far["total"] == 0
    # the filters are the city's law's categories
    assert 'value="abandoned_vehicle"' in html and 'value="motor_vehicle"' not in html


async def test_another_citys_protocol_is_answered_as_a_missing_one(make_two_cities):
    t = await two_cities(make_two_cities)
    other = t.dracena_case.protocol
    async with Panel(t.dores).client() as c:
        wrong = await c.get(f"/publico/dores-do-indaia/protocolo/{other}")
        missing = await c.get("/publico/dores-do-indaia/protocolo/2026-999999")
        photo = await c.get(f"/publico/dores-do-indaia/protocolo/{other}/foto")
        right = await c.get(f"/publico/dracena/protocolo/{other}")
        own_photo = await c.get(f"/publico/dracena/protocolo/{other}/foto")
        body = await wrong.text()
        assert wrong.status == missing.status == 404
        assert body == await missing.text()  # nothing tells "another city's" from "none"
        assert "Protocolo não encontrado" in body and other not in body
        assert photo.status == 404
        assert right.status == 200 and other in await right.text()
        assert own_photo.status == 200 and own_photo.content_type == "image/jpeg"


async def test_an_unknown_city_is_a_404_in_portuguese(make_two_cities):
    t = await two_cities(make_two_cities)
    async with Panel(t.dores).client() as c:
        for path in ("/publico/sao-paulo", "/publico/sao-paulo/mapa.json",
                     f"/publico/sao-paulo/protocolo/{t.dracena_case.protocol}",
                     "/publico/sao-paulo/casos.geojson"):
            r = await c.get(path)
            assert r.status == 404, path
            assert "Município não encontrado" in await r.text(), path


async def test_old_status_links_find_the_protocols_city(make_two_cities):
    """The e-mails and papers link /publico/protocolo/<protocolo>: serving several cities it
    leads to the case's city's page (installation-wide, as a citizen's /status)."""
    t = await two_cities(make_two_cities)
    p = t.dracena_case.protocol
    async with Panel(t.dores).client() as c:
        r = await c.get(f"/publico/protocolo/{p}", allow_redirects=False)
        photo = await c.get(f"/publico/protocolo/{p}/foto", allow_redirects=False)
        missing = await c.get("/publico/protocolo/2026-999999")
        search = await c.get(f"/publico/dracena/protocolo?protocolo={p.lower()}",
                             allow_redirects=False)
        no_city = await c.get("/publico/mapa.json")
        assert r.status == 302 and r.headers["Location"] == f"/publico/dracena/protocolo/{p}"
        assert photo.headers["Location"] == f"/publico/dracena/protocolo/{p}/foto"
        assert missing.status == 404 and "Protocolo não encontrado" in await missing.text()
        assert search.headers["Location"] == f"/publico/dracena/protocolo/{p}"
        assert no_city.status == 404 and "Escolha o município" in await no_city.text()


async def test_the_owners_page_shows_the_cases_own_city(make_two_cities):
    t = await two_cities(make_two_cities)
    async with Panel(t.dores).client() as c:
        r = await c.get(f"/publico/proprietario/{t.dracena_case.case_code}")
        html = await r.text()
    assert r.status == 200 and t.dracena_case.protocol in html
    assert "Prefeitura de Dracena/SP" in html


async def test_one_city_keeps_its_addresses_and_answers_under_its_slug(core, photo):
    s = await new_case(core, photo, 1)
    async with Panel(core).client() as c:
        home = await c.get("/publico")
        by_slug = await c.get("/publico/dores-do-indaia")
        status = await c.get(f"/publico/dores-do-indaia/protocolo/{s.protocol}")
        old = await c.get(f"/publico/protocolo/{s.protocol}", allow_redirects=False)
        other = await c.get("/publico/dracena")
        home_html = await home.text()
        assert home.status == 200
        assert "Veículos e objetos abandonados em Dores do Indaiá" in home_html
        assert s.protocol in home_html and "Municípios" not in home_html
        assert by_slug.status == 200 and s.protocol in await by_slug.text()
        assert status.status == 200 and old.status == 200
        assert other.status == 404 and "Município não encontrado" in await other.text()
