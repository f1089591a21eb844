"""The panel's routes and roles: who may open what, CSRF on every form, login throttling,
security headers, and every page rendering on both engines."""
from __future__ import annotations

import pytest
from sqlalchemy import func, select

from admin.security import MAX_FAILURES, SESSION_COOKIE
from core.storage.models import Tariff
from tests.support.panel import PASSWORD, csrf_of, login, new_case, post_form, to_notice_affixed

STAFF_PAGES = ["/", "/casos", "/diario-oficial", "/patio", "/exportar/casos.csv",
               "/diario-oficial/notificacao.txt"]
ADMIN_PAGES = ["/fiscais", "/tarifas", "/usuarios"]
ADMIN_POSTS = ["/fiscais/convidar", "/fiscais/1/desativar", "/tarifas", "/feriados",
               "/feriados/1/remover", "/usuarios", "/usuarios/1/ativo"]


async def test_anonymous_is_sent_to_login_from_every_page(panel, photo):
    s = await new_case(panel.core, photo)
    async with panel.client() as c:
        for url in [*STAFF_PAGES, *ADMIN_PAGES, f"/casos/{s.protocol}"]:
            r = await c.get(url, allow_redirects=False)
            assert r.status == 302, url
            assert r.headers["Location"].startswith("/login?next="), url


async def test_every_page_renders_for_an_admin(panel, photo):
    core = panel.core
    s1 = await new_case(core, photo, 1, plate="ABC1D23")
    s2 = await new_case(core, photo, 2)
    await to_notice_affixed(core, s2.protocol)
    async with panel.client("ana") as c:
        for url in [*STAFF_PAGES, *ADMIN_PAGES, f"/casos/{s1.protocol}",
                    f"/casos/{s2.protocol}", "/diario-oficial/notificacao.pdf"]:
            r = await c.get(url)
            assert r.status == 200, (url, await r.text())
        home = await (await c.get("/")).text()
        assert "Painel de acompanhamento" in home and "ana" in home


async def test_staff_user_is_refused_on_admin_pages_and_actions(panel):
    async with panel.client("bruno") as c:
        for url in ADMIN_PAGES:
            r = await c.get(url)
            assert r.status == 403, url
            assert "só para administradores" in await r.text()
        token = csrf_of(await (await c.get("/")).text())
        for url in ADMIN_POSTS:
            r = await c.post(url, data={"csrf": token, "code": "towing", "amount": "999,00",
                                        "valid_from": "01/01/2030", "article": "x",
                                        "source": "y", "username": "mallory",
                                        "password": "x" * 12, "role": "admin"})
            assert r.status == 403, url
        nav = await (await c.get("/")).text()
        assert "/tarifas" not in nav  # the menu does not offer what the role cannot do
    async with panel.core.db.read() as s:
        n = (await s.execute(select(func.count()).select_from(Tariff).where(
            Tariff.amount == 999))).scalar_one()
    assert n == 0


@pytest.mark.parametrize("token", [None, "", "forged-token-value"])
async def test_post_without_a_valid_csrf_token_is_refused(panel, token):
    async with panel.client("ana") as c:
        data = {"code": "towing", "amount": "999,00", "valid_from": "01/01/2030",
                "article": "Art. 9º, II", "source": "Decreto 1/2030"}
        if token is not None:
            data["csrf"] = token
        r = await c.post("/tarifas", data=data, allow_redirects=False)
        assert r.status == 403
        assert "CSRF" in await r.text()
    async with panel.core.db.read() as s:
        assert not (await s.execute(select(Tariff).where(Tariff.amount == 999))).first()


async def test_token_of_another_session_is_refused(panel):
    async with panel.client("ana") as other:
        stolen = csrf_of(await (await other.get("/tarifas")).text())
    async with panel.client("ana") as c:
        r = await c.post("/tarifas", data={"csrf": stolen, "code": "towing"},
                         allow_redirects=False)
        assert r.status == 403


async def test_login_form_itself_needs_csrf(panel):
    async with panel.client() as c:
        await c.get("/login")
        r = await c.post("/login", data={"username": "ana", "password": PASSWORD},
                         allow_redirects=False)
        assert r.status == 403


async def test_login_is_throttled_per_username_and_ip(panel):
    async with panel.client() as c:
        for _ in range(MAX_FAILURES):
            r = await login(c, "ana", "senha-errada-123")
            assert r.status == 401
            assert "Usuário ou senha incorretos" in await r.text()
        r = await login(c, "ana")  # right password, but locked out
        assert r.status == 429
        assert "Muitas tentativas" in await r.text()
        assert (await c.get("/", allow_redirects=False)).status == 302
        r = await login(c, "bruno")  # another username is not locked
        assert r.status == 302


async def test_login_sets_a_hardened_session_cookie_and_logout_ends_it(panel):
    async with panel.client() as c:
        r = await login(c, "ana")
        assert r.status == 302 and r.headers["Location"] == "/"
        cookie = r.cookies[SESSION_COOKIE]
        assert cookie["httponly"] and cookie["samesite"] == "Lax"
        home = await c.get("/")
        assert home.status == 200
        token = csrf_of(await home.text())
        r = await c.post("/logout", data={"csrf": token}, allow_redirects=False)
        assert r.status == 302
        assert (await c.get("/", allow_redirects=False)).status == 302


async def test_deactivated_user_loses_access_at_once(panel):
    async with panel.client("bruno") as c:
        assert (await c.get("/")).status == 200
        async with panel.client("ana") as admin:
            users = await (await admin.get("/usuarios")).text()
            assert "bruno" in users
            from core.services.staff.accounts import list_users
            bruno = [u for u in await list_users(panel.core) if u.username == "bruno"][0]
            r = await post_form(admin, "/usuarios", f"/usuarios/{bruno.id}/ativo",
                                {"active": "0"})
            assert r.status == 302
        assert (await c.get("/", allow_redirects=False)).status == 302


async def test_security_headers_on_pages(panel):
    async with panel.client() as c:
        r = await c.get("/login")
        csp = r.headers["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in csp and "default-src 'self'" in csp
        assert r.headers["X-Content-Type-Options"] == "nosniff"
        assert r.headers["Referrer-Policy"] == "same-origin"
        assert r.headers["X-Frame-Options"] == "DENY"
        r = await c.get("/casos", allow_redirects=False)
        assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]


async def test_wrong_password_and_unknown_user_get_the_same_answer(panel):
    async with panel.client() as c:
        a = await login(c, "ana", "errada-errada")
        b = await login(c, "ninguem", "errada-errada")
        assert a.status == b.status == 401
        assert "Usuário ou senha incorretos" in await a.text()
        assert "Usuário ou senha incorretos" in await b.text()


async def test_case_page_loads_nothing_from_third_parties(panel, photo):
    """The map library is served by the panel; only tiles come from the tile server."""
    s1 = await new_case(panel.core, photo, 1)
    async with panel.client("ana") as c:
        r = await c.get(f"/casos/{s1.protocol}")
        html = await r.text()
        assert "/static/vendor/leaflet/leaflet.js" in html and "unpkg" not in html
        csp = r.headers["Content-Security-Policy"]
        assert "script-src 'self';" in csp and "https://tile.openstreetmap.org" in csp
        assert (await c.get("/static/vendor/leaflet/leaflet.js")).status == 200
