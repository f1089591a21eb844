"""No city sees another's, in the staff panel of an installation serving Dores do Indaiá (MG)
and Dracena (SP): every panel route (taken from the app's router, so a new route without an
entry here fails) × every role (anonymous, servant, the city's administrator, the
installation administrator acting as that city) × both cities. Another city's case, protocol,
photo, document, inspector, closure, account or dead letter is answered exactly as a missing
one (same status, same page), and no list, search or export shows another city's protocol."""
from __future__ import annotations

import re

import pytest

from admin.city_guard import NOT_OBJECTS, OBJECTS
from admin.views_email import STOP_PREFIX
from tests.support.city_panel import (ACCOUNTS, DORES, DRACENA, INSTALLATION_ADMIN,
                                      MISSING_ID, MISSING_PROTOCOL, MISSING_SHA,
                                      CitiesPanel, cities_panel)
from tests.support.panel import csrf_of, login

_ = cities_panel
ROLES = ["anonymous", "staff", "city_admin", "installation_admin"]
CITIES = [DORES, DRACENA]

#: Routes outside the staff panel (their own tests): the public face, Open311, the e-mails'
#: stop page, the files, signing in and out.
OUTSIDE = ("/static", "/open311/", "/publico", STOP_PREFIX, "/login", "/logout",
           # the operations endpoints: no city, no login, no personal data (views_health)
           "/healthz", "/readyz", "/metrics")

#: Every panel route without an object in its path: (who may use it, what a GET lists).
#: "admin": administrators only; "staff": every account; "installation": the installation
#: administrator only (the cities served: anyone else gets a 404, as for a page that isn't).
PAGES = {
    "/": "staff", "/fila": "staff", "/casos": "staff", "/balcao": "staff",
    "/diario-oficial": "staff", "/patio": "staff", "/entregas": "staff", "/fotos": "staff",
    "/lgpd/pedidos": "staff", "/exportar/casos.csv": "staff", "/indicadores": "staff",
    "/indicadores.csv": "staff", "/fiscais/atribuir-area": "staff", "/senha": "staff",
    "/fiscais": "admin", "/tarifas": "admin", "/usuarios": "admin",
    "/fiscais/convidar": "admin", "/feriados": "admin", "/municipio": "staff",
    "/municipios": "installation", "/municipios/novo": "installation",
    "/municipios/editar": "installation", "/municipios/salvar": "installation",
    "/municipios/ativo": "installation",
}

#: Every route with an object in its path (or form): who may use it and the URL naming the
#: other city's object, then a missing one. `o` is the other city's CityObjects.
OBJECT_URLS = {
    "/casos/{protocol}": ("staff", lambda o: f"/casos/{o.protocol}",
                          f"/casos/{MISSING_PROTOCOL}"),
    "/casos/{protocol}/acao/{code}": ("staff", lambda o: f"/casos/{o.protocol}/acao/x",
                                      f"/casos/{MISSING_PROTOCOL}/acao/x"),
    "/casos/{protocol}/atribuir": ("staff", lambda o: f"/casos/{o.protocol}/atribuir",
                                   f"/casos/{MISSING_PROTOCOL}/atribuir"),
    "/casos/{protocol}/pagamento": ("staff", lambda o: f"/casos/{o.protocol}/pagamento",
                                    f"/casos/{MISSING_PROTOCOL}/pagamento"),
    "/casos/{protocol}/liberar": ("staff", lambda o: f"/casos/{o.protocol}/liberar",
                                  f"/casos/{MISSING_PROTOCOL}/liberar"),
    "/casos/{protocol}/documentos/{kind}": (
        "staff", lambda o: f"/casos/{o.protocol}/documentos/notificacao",
        f"/casos/{MISSING_PROTOCOL}/documentos/notificacao"),
    "/balcao/avisado/{protocol}": ("staff", lambda o: f"/balcao/avisado/{o.protocol}",
                                   f"/balcao/avisado/{MISSING_PROTOCOL}"),
    "/evidencias/{sha}": ("staff", lambda o: f"/evidencias/{o.sha}",
                          f"/evidencias/{MISSING_SHA}"),
    "/fiscais/{id}/desativar": ("admin", lambda o: f"/fiscais/{o.inspector_id}/desativar",
                                f"/fiscais/{MISSING_ID}/desativar"),
    "/fiscais/{id}/matricula": ("admin", lambda o: f"/fiscais/{o.inspector_id}/matricula",
                                f"/fiscais/{MISSING_ID}/matricula"),
    "/fiscais/{id}/notificacoes-do-dia": (
        "staff", lambda o: f"/fiscais/{o.inspector_id}/notificacoes-do-dia",
        f"/fiscais/{MISSING_ID}/notificacoes-do-dia"),
    "/fiscais/{id}/rota": ("staff", lambda o: f"/fiscais/{o.inspector_id}/rota",
                           f"/fiscais/{MISSING_ID}/rota"),
    "/feriados/{id}/remover": ("admin", lambda o: f"/feriados/{o.closure_id}/remover",
                               f"/feriados/{MISSING_ID}/remover"),
    "/feriados/{id}/corrigir": ("admin", lambda o: f"/feriados/{o.closure_id}/corrigir",
                                f"/feriados/{MISSING_ID}/corrigir"),
    "/usuarios/{id}/ativo": ("admin", lambda o: f"/usuarios/{o.user_ids['staff']}/ativo",
                             f"/usuarios/{MISSING_ID}/ativo"),
    "/fotos/{id}/publica": ("staff", lambda o: f"/fotos/{o.evidence_id}/publica",
                            f"/fotos/{MISSING_ID}/publica"),
    "/fotos/{id}/{action}": ("staff", lambda o: f"/fotos/{o.evidence_id}/ocultar",
                             f"/fotos/{MISSING_ID}/ocultar"),
    "/entregas/{id}/reenviar": ("staff", lambda o: f"/entregas/{o.outbox_id}/reenviar",
                                f"/entregas/{MISSING_ID}/reenviar"),
    "/entregas/email/{id}/reenviar": ("staff", lambda o: f"/entregas/email/{o.email_id}/reenviar",
                                      f"/entregas/email/{MISSING_ID}/reenviar"),
    "/diario-oficial/{kind}.{ext}": ("staff", None, None),
    "/diario-oficial/{kind}/publicar": ("staff", None, None),
}


def panel_routes(app) -> list[tuple[str, str]]:
    """(method, canonical path) of every staff-panel route the app serves."""
    out = set()
    for route in app.router.routes():
        path = route.resource.canonical if route.resource is not None else ""
        if route.method in ("GET", "POST") and not path.startswith(OUTSIDE):
            out.add((route.method, path))
    return sorted(out)


async def test_every_panel_route_has_an_entry_in_the_matrix(make_two_cities):
    """A route added without an entry here (and, with an object in its path, in the panel's
    city guard) fails: nobody forgets to decide how it keeps to its city."""
    from admin.app import create_app
    routes = panel_routes(create_app(await make_two_cities()))
    assert len(routes) > 30
    missing = [p for _, p in routes if p not in PAGES and p not in OBJECT_URLS]
    assert not missing, f"routes without a city matrix entry: {missing}"
    unguarded = [p for _, p in routes if "{" in p and p not in OBJECTS and p not in NOT_OBJECTS]
    assert not unguarded, f"object routes without a city guard: {unguarded}"


def _same(body: str, *paths: str) -> str:
    for p in paths:
        body = body.replace(p, "URL")
    return re.sub(r'name="voltar" value="[^"]*"', "", body)


async def _sign_in(panel: CitiesPanel, client, role: str, city: str) -> None:
    if role == "anonymous":
        return
    if role == "installation_admin":
        r = await login(client, INSTALLATION_ADMIN)
        assert r.status == 302
        home = await (await client.get("/")).text()
        r = await client.post("/municipio", data={"csrf": csrf_of(home), "municipio": city},
                              allow_redirects=False)
        assert r.status == 302, await r.text()
        return
    r = await login(client, ACCOUNTS[city][role])
    assert r.status == 302


def _may(role: str, who: str) -> bool:
    if who == "installation":
        return role == "installation_admin"
    return role != "anonymous" and (who == "staff" or role != "staff")


def _refused(who: str) -> int:
    """A signed-in account's answer on a page it may not use."""
    return 404 if who == "installation" else 403


@pytest.mark.parametrize("city", CITIES)
@pytest.mark.parametrize("role", ROLES)
async def test_another_citys_object_is_answered_as_a_missing_one(cities_panel, role, city):
    panel = cities_panel
    other = panel.other(city)
    problems = []
    async with panel.client() as c:
        await _sign_in(panel, c, role, city)
        token = csrf_of(await (await c.get("/login" if role == "anonymous" else "/")).text())
        for method, path in panel_routes(panel.app):
            who, theirs, missing = OBJECT_URLS.get(path, (None, None, None))
            if theirs is None:
                continue
            url = theirs(other)
            if role == "installation_admin" and path == "/usuarios/{id}/ativo":
                continue  # an installation administrator manages every city's accounts
            data = {"csrf": token, "inspector_id": str(other.inspector_id), "matricula": "1",
                    "amount": "10,00", "paid_on": "01/12/2026", "reference": "x"}
            send = (lambda u: c.get(u, allow_redirects=False)) if method == "GET" else \
                (lambda u: c.post(u, data=data, allow_redirects=False))
            got, gone = await send(url), await send(missing)
            body = (await got.read()).decode("utf-8", "replace")  # a leaked file is bytes
            gone_body = (await gone.read()).decode("utf-8", "replace")
            if role == "anonymous":
                ok = got.status == 302 and got.headers["Location"].startswith("/login")
            elif not _may(role, who):
                ok = got.status == 403
            else:
                ok = got.status == gone.status and got.status in (400, 404) and \
                    _same(body, url) == _same(gone_body, missing)
            if not ok:
                problems.append(f"{method} {url}: {got.status} (missing: {gone.status})")
            if other.protocol in _same(body, url) or other.inspector_name in body:
                problems.append(f"{method} {url} shows the other city's object")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("city", CITIES)
@pytest.mark.parametrize("role", ROLES)
async def test_no_list_search_or_export_shows_another_citys_protocol(cities_panel, role, city):
    panel = cities_panel
    mine, other = panel.objects[city], panel.other(city)
    problems = []
    pages = [p for m, p in panel_routes(panel.app) if m == "GET" and p in PAGES]
    pages[pages.index("/indicadores.csv")] = "/indicadores.csv?grafico=casos-por-mes"
    pages[pages.index("/municipios/editar")] = f"/municipios/editar?municipio={other.slug}"
    pages += [f"/casos?q={other.protocol}", f"/casos?q={mine.protocol}", "/fotos?situacao=ocultas",
              f"/exportar/casos.csv?q={other.protocol}"]
    async with panel.client() as c:
        await _sign_in(panel, c, role, city)
        for url in pages:
            r = await c.get(url, allow_redirects=False)
            body = await r.read()
            # the search box keeps what was typed: only a result would be a leak
            text = body.decode("utf-8", "replace").replace(f'value="{other.protocol}"', "")
            text = text.replace(f"q={other.protocol}", "")
            who = PAGES.get(url.split("?")[0], "staff")
            expected = 302 if role == "anonymous" else (200 if _may(role, who)
                                                        else _refused(who))
            if r.status != expected:
                problems.append(f"GET {url}: {r.status}, expected {expected}")
            for leak in (other.protocol, other.case_code, other.inspector_name, other.sha):
                if leak and leak in text:
                    problems.append(f"GET {url} shows {leak} of the other city")
        if role != "anonymous":  # the lists are not empty: the city's own case is there
            for url in ("/casos", "/fila", "/exportar/casos.csv", f"/casos?q={mine.protocol}"):
                assert mine.protocol in await (await c.get(url)).text(), url
            # the city's numbers count its own case only (one open case in each city)
            figures = await (await c.get("/indicadores.csv?grafico=abertos-por-situacao")).text()
            assert sum(int(line.rsplit(";", 1)[1])
                       for line in figures.strip().splitlines()[1:]) == 1, figures
    assert not problems, "\n".join(problems)
