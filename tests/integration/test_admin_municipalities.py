"""The installation administrator's pages (/municipios): list, add with a boundary upload,
change, deactivate; a hostile upload is a 400 with the reason in Portuguese, never a 500;
anyone else logged in gets a 404, as for a page that does not exist."""
from __future__ import annotations

import json

from aiohttp import FormData
from sqlalchemy import update

from core.area import MAX_BOUNDARY_BYTES
from core.storage.models import StaffUser
from tests.support.panel import PASSWORD, Panel, csrf_of, login

EAST = {"type": "FeatureCollection", "features": [{
    "type": "Feature", "properties": {},
    "geometry": {"type": "Polygon", "coordinates": [[[-51.40, -21.45], [-51.30, -21.45],
                                                     [-51.30, -21.35], [-51.40, -21.35],
                                                     [-51.40, -21.45]]]}}]}
PAGE = "/municipios/novo"


async def _panel(make_two_cities):
    from core.services.staff.accounts import create_user
    core = await make_two_cities()
    await create_user(core, "ana", PASSWORD, "admin")  # no city: the installation's
    bia = await create_user(core, "bia", PASSWORD, "admin")
    await create_user(core, "bruno", PASSWORD, "staff")
    async with core.db.unit_of_work() as s:
        await s.execute(update(StaffUser).where(StaffUser.id == bia.id)
                        .values(municipality="dracena"))
    return Panel(core)


async def _upload(client, page: str, action: str, fields: dict, boundary: bytes | None,
                  name: str = "contorno.geojson"):
    token = csrf_of(await (await client.get(page)).text())
    form = FormData()
    form.add_field("csrf", token)
    for k, v in fields.items():
        form.add_field(k, v)
    if boundary is not None:
        form.add_field("boundary", boundary, filename=name,
                       content_type="application/geo+json")
    return await client.post(action, data=form, allow_redirects=False,
                             headers={"Referer": str(client.make_url(page))})


async def test_the_installation_administrator_adds_a_city_with_its_boundary(make_two_cities):
    panel = await _panel(make_two_cities)
    async with panel.client("ana") as c:
        page = await c.get("/municipios")
        html = await page.text()
        assert page.status == 200
        assert "Dores do Indaiá (MG)" in html and "Dracena (SP)" in html
        assert (await c.get(PAGE)).status == 200
        r = await _upload(c, PAGE, PAGE, {"slug": "leste", "law": "dracena", "name": "Leste",
                                          "uf": "SP", "ibge_code": "3555000",
                                          "depot_address": "Pátio de Leste, Rua 3"},
                          json.dumps(EAST).encode())
        assert r.status == 302, await r.text()
        assert panel.core.city_at(-21.40, -51.35).slug == "leste"  # this process reloaded
        assert panel.core.city_named("leste").depot_address == "Pátio de Leste, Rua 3"
        listed = await (await c.get("/municipios")).text()
        assert "Leste (SP)" in listed and "contorno desenhado" in listed


async def test_the_administrator_changes_and_deactivates_a_city(make_two_cities):
    panel = await _panel(make_two_cities)
    async with panel.client("ana") as c:
        edit = "/municipios/editar?municipio=dracena"
        page = await (await c.get(edit)).text()
        assert 'value="3514403"' in page
        r = await _upload(c, edit, "/municipios/salvar",
                          {"municipio": "dracena", "name": "Dracena", "uf": "SP",
                           "ibge_code": "3514403", "dpo_contact": "dpo@dracena.sp.gov.br"},
                          None)
        assert r.status == 302, await r.text()
        assert panel.core.city_named("dracena").dpo_contact == "dpo@dracena.sp.gov.br"
        token = csrf_of(await (await c.get("/municipios")).text())
        r = await c.post("/municipios/ativo", data={"csrf": token, "municipio": "dracena",
                                                    "active": "0"}, allow_redirects=False)
        assert r.status == 302
        assert panel.core.city_at(-21.4843, -51.5353) is None
        assert "desativado" in await (await c.get("/municipios")).text()


async def test_a_hostile_boundary_upload_is_a_400_with_the_reason(make_two_cities):
    panel = await _panel(make_two_cities)
    base = {"slug": "leste", "law": "dracena", "name": "Leste", "uf": "SP",
            "ibge_code": "3555000"}
    bow_tie = {"type": "Polygon", "coordinates": [[[-51.6, -21.6], [-51.4, -21.4],
                                                    [-51.4, -21.6], [-51.6, -21.4],
                                                    [-51.6, -21.6]]]}
    over = {"type": "Polygon", "coordinates": [[[-51.56, -21.50], [-51.50, -21.50],
                                                 [-51.50, -21.46], [-51.56, -21.46],
                                                 [-51.56, -21.50]]]}
    files = [
        (b"\x89PNG\r\n\x1a\n" + bytes(200), "não é um texto GeoJSON"),
        (b"{not json", "não é um GeoJSON válido"),
        (b"[" * 200_000, "não é um GeoJSON válido"),
        (json.dumps({"type": "Point", "coordinates": [-51.35, -21.4]}).encode(),
         "nenhum polígono"),
        (json.dumps(bow_tie).encode(), "cruza a si mesmo"),
        (json.dumps(over).encode(), "sobrepõe a de Dracena (SP)"),
        (b" " * (MAX_BOUNDARY_BYTES + 10), "grande demais"),
    ]
    async with panel.client("ana") as c:
        for data, reason in files:
            r = await _upload(c, PAGE, PAGE, base, data)
            text = await r.text()
            assert r.status == 400, (reason, r.status)
            assert reason in text, reason
            assert 'value="3555000"' in text  # the form comes back as typed
        assert panel.core.city_named("leste") is None


async def test_anyone_but_the_installation_administrator_gets_a_404(make_two_cities):
    panel = await _panel(make_two_cities)
    for who in ("bia", "bruno"):  # Dracena's administrator; a servant
        async with panel.client(who) as c:
            for path in ("/municipios", PAGE, "/municipios/editar?municipio=dracena"):
                assert (await c.get(path)).status == 404, (who, path)
            token = csrf_of(await (await c.get("/")).text())
            r = await c.post("/municipios/ativo", data={"csrf": token, "municipio": "dracena",
                                                        "active": "0"}, allow_redirects=False)
            assert r.status == 404
    assert panel.core.city_named("dracena").active
    async with panel.client() as anonymous:
        r = await anonymous.get("/municipios", allow_redirects=False)
        assert r.status == 302 and r.headers["Location"].startswith("/login")


async def test_an_unknown_city_is_a_404(make_two_cities):
    panel = await _panel(make_two_cities)
    async with panel.client("ana") as c:
        assert (await c.get("/municipios/editar?municipio=atlantida")).status == 404
        assert (await c.get("/municipios/editar")).status == 404
        await login(c, "ana")
        token = csrf_of(await (await c.get("/municipios")).text())
        r = await c.post("/municipios/salvar", data={"csrf": token, "municipio": "atlantida",
                                                     "name": "X"}, allow_redirects=False)
        assert r.status == 404
