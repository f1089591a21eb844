"""Panel accounts of an installation serving Dores do Indaiá (MG) and Dracena (SP): a staff
account belongs to one city; a city's administrator sees and manages only its city's
accounts; an installation administrator manages all, creates installation administrators and
chooses the city it acts as (a CSRF-protected POST kept in the signed session)."""
from __future__ import annotations

import html

import pytest
from sqlalchemy import select

from core.services.errors import InvalidInput
from core.services.staff.accounts import create_user, list_users
from core.storage.models import StaffUser, Tariff
from tests.support.city_panel import (DORES, DRACENA, INSTALLATION_ADMIN,
                                      cities_panel)
from tests.support.panel import PASSWORD, csrf_of, post_form

_ = cities_panel


async def _city_of(core, username: str) -> str | None:
    async with core.db.read() as s:
        return (await s.execute(select(StaffUser.municipality).where(
            StaffUser.username == username))).scalar_one()


async def test_a_servant_always_has_a_city_and_an_unknown_city_is_refused(make_two_cities):
    core = await make_two_cities()
    servant = await create_user(core.for_city(DRACENA), "edu", PASSWORD, "staff")
    assert servant.municipality == DRACENA  # the Core's city when none is named
    boss = await create_user(core, "fabi", PASSWORD, "admin")
    assert boss.municipality is None and boss.is_installation_admin
    with pytest.raises(InvalidInput, match="Município desconhecido"):
        await create_user(core, "gil", PASSWORD, "staff", "atlantida")
    city_admin = await create_user(core, "hugo", PASSWORD, "admin", DORES)
    with pytest.raises(InvalidInput, match="só pode criar contas do seu município"):
        await create_user(core, "ivo", PASSWORD, "staff", DRACENA, by=city_admin)
    assert [u.username for u in await list_users(core, city_admin)] == ["hugo"]


async def test_a_city_admin_sees_and_creates_only_its_citys_accounts(cities_panel):
    panel = cities_panel
    async with panel.client("carla") as c:  # Dracena's administrator
        page = html.unescape(await (await c.get("/usuarios")).text())
        assert "carla" in page and "davi" in page
        assert "ana" not in page and "bruno" not in page and INSTALLATION_ADMIN not in page
        assert "A conta será de Dracena (SP)." in page
        r = await post_form(c, "/usuarios", "/usuarios", {
            "username": "joana", "password": PASSWORD, "role": "admin",
            "municipality": "instalacao"})  # a hand-made choice is ignored: its own city
        assert r.status == 302
        bruno = panel.objects[DORES].user_ids["staff"]
        r = await post_form(c, "/usuarios", f"/usuarios/{bruno}/ativo", {"active": "0"})
        assert r.status == 404 and "Usuário não encontrado." in await r.text()
    assert await _city_of(panel.core, "joana") == DRACENA
    async with panel.core.db.read() as s:
        assert (await s.get(StaffUser, bruno)).active


async def test_the_installation_admin_manages_every_account(cities_panel):
    panel = cities_panel
    async with panel.client(INSTALLATION_ADMIN) as c:
        page = html.unescape(await (await c.get("/usuarios")).text())
        for name in ("ana", "bruno", "carla", "davi", INSTALLATION_ADMIN):
            assert name in page
        assert "Toda a instalação" in page and "Dracena (SP)" in page
        r = await post_form(c, "/usuarios", "/usuarios", {
            "username": "kleber", "password": PASSWORD, "role": "admin",
            "municipality": "instalacao"})
        assert r.status == 302
        r = await post_form(c, "/usuarios", "/usuarios", {
            "username": "lara", "password": PASSWORD, "role": "staff",
            "municipality": "instalacao"})
        assert r.status == 400
        assert "precisa de um município" in html.unescape(await r.text())
        r = await post_form(c, "/usuarios", "/usuarios", {
            "username": "lara", "password": PASSWORD, "role": "staff", "municipality": DRACENA})
        assert r.status == 302
    assert await _city_of(panel.core, "kleber") is None
    assert await _city_of(panel.core, "lara") == DRACENA


async def test_the_city_switch_is_a_csrf_protected_post_for_installation_admins(cities_panel):
    panel = cities_panel
    async with panel.client(INSTALLATION_ADMIN) as c:
        home = await (await c.get("/")).text()
        assert "Agindo como: <strong>Dores do Indaiá (MG)</strong>" in home  # the first city
        r = await c.post("/municipio", data={"municipio": DRACENA}, allow_redirects=False)
        assert r.status == 403 and "CSRF" in await r.text()
        r = await c.post("/municipio", data={"municipio": "atlantida", "csrf": csrf_of(home)},
                         allow_redirects=False)
        assert r.status == 400 and "Município desconhecido" in html.unescape(await r.text())
        r = await c.post("/municipio", data={"municipio": DRACENA, "csrf": csrf_of(home),
                                             "voltar": "/tarifas"}, allow_redirects=False)
        assert r.status == 302 and r.headers["Location"] == "/tarifas"
        page = await (await c.get("/tarifas")).text()
        assert "Agindo como: <strong>Dracena (SP)</strong>" in page
        # what it changes now is Dracena's: a tariff of Dracena's law
        code = panel.core.for_city(DRACENA).law.tariffs[0].code
        r = await post_form(c, "/tarifas", "/tarifas", {
            "code": code, "amount": "77,00", "valid_from": "01/01/2030",
            "article": "Art. 7º", "source": "Decreto 9/2029"})
        assert r.status == 302, await r.text()
    async with panel.core.db.read() as s:
        assert (await s.execute(select(Tariff.municipality).where(Tariff.amount == 77))
                ).scalar_one() == DRACENA
    async with panel.client("ana") as c:  # a city's own account has no city to choose
        home = await (await c.get("/")).text()
        assert "Município: <strong>Dores do Indaiá (MG)</strong>" in home
        assert 'action="/municipio"' not in home
        r = await c.post("/municipio", data={"municipio": DRACENA, "csrf": csrf_of(home)},
                         allow_redirects=False)
        assert r.status == 403
