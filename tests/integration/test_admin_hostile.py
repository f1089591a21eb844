"""Bad input is a 400, never a 500: every route of the panel (taken from the aiohttp router)
gets hostile values (huge integers, non-ASCII digits, quotes, NUL, very long strings, bad
cursors and dates) in every query and form parameter its handler reads, logged in as an admin
and anonymous, and no answer is a 5xx."""
from __future__ import annotations

import base64
import inspect
import re
from urllib.parse import quote

import pytest

from admin import views_auth
from core.services.staff.accounts import create_user
from tests.support.panel import PASSWORD, Panel, csrf_of, login, new_case, to_notice_affixed

KEY = "chave-open311-teste"
HOSTILE = [
    "99999999999999999999999", "-99999999999999999999999", "²", "٣", "1e999999", "NaN",
    "'", '"', "';--", '" OR "1"="1', "a\x00b", "\x00", "x" * 2_500, "%00", "\\", "\r\n",
    "😀" * 20, "\u202e<script>alert(1)</script>", "31/12/9999", "00/00/0000",
    "9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+05:00", "2026-13-45", "ZZZZ",
    base64.urlsafe_b64encode(b"2026-01-01T00:00:00+00:00|99999999999999").decode(),
    base64.urlsafe_b64encode(b"\xff\xfe|1").decode(), "2026-000001,'x',\x00",
]
_READ = re.compile(r'(?:\bq|query|form)\.get(?:all)?\(\s*"(\w+)"|\bq\["(\w+)"\]')


def read_params(handler) -> set[str]:
    """The query/form names a handler reads: in its source and in the module-level helpers of
    the panel it calls (one level, e.g. the case filters shared by the list and the CSV)."""
    fn = inspect.unwrap(handler)
    sources = [inspect.getsource(fn)]
    for name, value in fn.__globals__.items():
        if (inspect.isfunction(value) and value.__module__.startswith("admin")
                and re.search(rf"\b{name}\(", sources[0])):
            sources.append(inspect.getsource(value))
    return {a or b for src in sources for a, b in _READ.findall(src)}


def fill(template: str, values: dict[str, str]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], template)


#: Routes where each request costs a password hash or a PDF: fewer values per parameter.
SLOW = ("/login", "/diario-oficial/{kind}.{ext}")
SHORT = ["99999999999999999999999", "²", "'", "a\x00b", "x" * 2_500, "😀" * 20,
         "\u202e<script>alert(1)</script>", "31/12/9999", "\r\n", "%00"]


def cases_for(template: str, names: set[str], path_values: dict[str, str]) -> list:
    """(query/form values, URL) pairs: each parameter alone with each hostile value, all of
    them at once, and each path parameter hostile."""
    values = SHORT if template in SLOW else HOSTILE
    good = fill(template, path_values)
    out = [({}, good)] + [({n: v}, good) for n in sorted(names) for v in values]
    out += [({n: v for n in names}, good) for v in HOSTILE] if names else []
    out += [({}, fill(template, {**path_values, p: quote(v, safe="")}))
            for p in re.findall(r"\{(\w+)\}", template) for v in HOSTILE[:12]]
    return out


SHARDS = 4  # the routes in four tests, so the workers share them


def _routes(panel: Panel) -> list:
    return [(r.method, r.resource.canonical, r.handler) for r in panel.app.router.routes()
            if r.method in ("GET", "POST") and not r.resource.canonical.startswith("/static")
            and r.handler is not views_auth.logout]  # logout: test_admin_security (on purpose)


def _names(template: str, handler) -> set[str]:
    names = read_params(handler)
    if template.endswith("/acao/{code}"):
        names |= {"duplicate_of", "publication_date", "publication_reference"}
    return names


async def test_the_hostile_run_reaches_the_parameters_the_panel_reads(core):
    """What the shards below try: every route, and the parameters the handlers read."""
    routes = _routes(Panel(core))
    assert len(routes) >= 25
    seen = set().union(*(_names(t, h) for _, t, h in routes))
    assert {"inspector", "after", "date_from", "q", "gross", "inspector_id", "start_date",
            "lat", "next", "p", "number", "reason", "taxes"} <= seen


@pytest.mark.parametrize("shard", range(SHARDS))
async def test_no_route_answers_5xx_to_hostile_parameters(make_core, photo, shard):
    core = await make_core(open311_api_key=KEY)
    await create_user(core, "ana", PASSWORD, "admin")
    other = await create_user(core, "bruno", PASSWORD, "staff")
    s = await new_case(core, photo, 1, plate="ABC1D23")
    await to_notice_affixed(core, s.protocol)
    panel = Panel(core)
    # The case waits for its Diário Oficial publication: a step with a date and a text fact.
    path_values = {"protocol": s.protocol, "sha": photo(1).sha256, "id": str(other.id),
                   "kind": "notificacao", "ext": "pdf", "code": "record_publication",
                   "fmt": "xml", "action": "aprovar", "token": "1.abc",
                   "city": "dores-do-indaia"}
    failures = []
    async with panel.client() as anon, panel.client() as staff:
        await login(staff, "ana")
        tokens = {id(anon): csrf_of(await (await anon.get("/login")).text()),
                  id(staff): csrf_of(await (await staff.get("/usuarios")).text())}
        for method, template, handler in _routes(panel)[shard::SHARDS]:
            names = _names(template, handler)
            cases = cases_for(template, names, path_values)
            if template.endswith("/acao/{code}"):
                cases += cases_for(template, names, {**path_values, "code": "close_duplicate"})
            public = template.startswith(("/open311", "/login"))
            for c in (anon, staff):
                # Anonymous on a staff route is refused before the handler: fewer tries.
                for values, target in cases if public or c is staff else cases[::7]:
                    if method == "GET":
                        r = await c.get(target, params=values, allow_redirects=False)
                    else:
                        data = {"api_key": KEY, **values, "csrf": tokens[id(c)]}
                        r = await c.post(target, data=data, allow_redirects=False)
                    # /readyz: 503 is its answer (the periodic job never ran here)
                    if r.status >= 500 and not (template == "/readyz" and r.status == 503):
                        failures.append(f"{r.status} {method} {target[:60]} {repr(values)[:80]}")
    assert failures == [], "\n".join(sorted(set(failures))[:40])


async def test_a_form_over_the_size_limit_gets_a_portuguese_page(panel):
    async with panel.client("ana") as c:
        token = csrf_of(await (await c.get("/balcao")).text())
        r = await c.post("/balcao", data={"csrf": token, "x": "a" * (13 * 1024 ** 2)})
        assert r.status == 413
        assert "Envio grande demais" in await r.text()
