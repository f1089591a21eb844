"""LGPD (Lei 13.709/2018, art. 6º, III) on every path anyone can open without logging in: the
test lists the panel's routes from the aiohttp router, keeps those whose handler needs no
login (no `required_role`, admin.web.require), fills their path parameters with real values of
the seeded cases, opens each with many query strings (and POSTs the public forms), and greps
every answer for the seeded personal values: the reporter's name and Telegram id (Lei
13.460/2017, art. 10, §7º), the owner's name, CPF and contact (phone, e-mail), the plate,
the chassis and the citizen's description.

The address as typed is personal too (it may name a neighbour or the reporter): every public
output shows only the neighbourhood and the point rounded to ≈ 110 m (the one projection,
core.services.public_case; tests/test_public_projection.py walks a case full of such markers).
The owner's page with the right case code alone shows that projection and asks for the proof;
the test reaches it with wrong codes too, as a stranger would.
"""
from __future__ import annotations

import re

from aiohttp.web_urldispatcher import DynamicResource, PlainResource
from sqlalchemy import select

from core.services import public_access
from core.services.reports import ReportIn, submit_report
from core.storage.models import Case, CaseOwner
from tests.core_fixtures import clock, core, make_core, photo  # noqa: F401
from tests.test_admin_fixtures import CENTRE, csrf_of, panel, to_notice_affixed  # noqa: F401

REPORTER_NAME = "Zuleica Denunciante Quintanilha"
REPORTER_TID = 987654321
OWNER_NAME = "Godofredo Proprietario Xavante"
OWNER_CPF = "52998224725"
OWNER_CONTACT = "godofredo.xavante@example.org (37) 99876-5432"
PLATE = "QWE4R56"
CHASSIS = "9BWZZZ377VT004251"
DESCRIPTION = "Descricao sigilosa do cidadao: carro do vizinho Zebedeu"

PERSONAL = [REPORTER_NAME, "Quintanilha", str(REPORTER_TID), OWNER_NAME, "Xavante", OWNER_CPF,
            "529.982.247-25", "godofredo.xavante@example.org", "99876-5432", "998765432",
            PLATE, "QWE-4R56", "QWE 4R56", CHASSIS, "VT004251", DESCRIPTION, "Zebedeu",
            "Rua Goiás, 120"]

QUERIES = ["", "?bbox=-19.47,-45.61,-19.45,-45.59", "?categoria=motor_vehicle",
           "?situacao=abertos", "?situacao=encerrados", "?situacao=notice_affixed",
           "?fields=plate,description,reporter,owner_name,owner_cpf&debug=1&format=json",
           "?q=QWE4R56&plate=QWE4R56", "?status=open", "?status=closed", "?extensions=true",
           "?jurisdiction_id=dores", "?service_code=motor_vehicle", "?page_size=1000",
           "?start_date=2020-01-01T00:00:00Z&end_date=2030-01-01T00:00:00Z",
           "?format=xml", "?next=/casos&protocolo=2026-000001", "?bbox=%00", "?x=" + "a" * 300]
PLACEHOLDER = re.compile(r"\{([^}:]+)(?::[^}]*)?\}")


async def _seed(core, photo) -> dict[str, list[str]]:
    shown, codes = [], []
    for i, (plate, chassis) in enumerate(((PLATE, None), (None, CHASSIS))):
        report = ReportIn(category="motor_vehicle", lat=CENTRE[0] + i * 1e-4, lon=CENTRE[1],
                          photos=[photo(i)], address="Rua Goiás, 120", neighbourhood="Centro",
                          plate=plate, chassis=chassis, description=DESCRIPTION,
                          make_model="Gol", colour="prata")
        done = await submit_report(core, REPORTER_TID, report, display_name=REPORTER_NAME)
        await to_notice_affixed(core, done.protocol)
        async with core.db.unit_of_work() as s:
            case_id = (await s.execute(select(Case.id).where(Case.protocol == done.protocol))
                       ).scalar_one()
            owner = (await s.execute(select(CaseOwner).where(CaseOwner.case_id == case_id))
                     ).scalar_one_or_none()
            if owner is None:
                owner = CaseOwner(case_id=case_id)
                s.add(owner)
            owner.owner_name, owner.owner_cpf = OWNER_NAME, OWNER_CPF
            owner.owner_contact = OWNER_CONTACT
        shown.append(done.protocol)
        codes.append(done.case_code)
    public_sha = core.evidence.public_copy(photo(0).sha256).sha256
    return {"protocol": shown, "id": shown, "service_request_id": shown,
            "sha": [public_sha], "ext": ["jpg"], "code": ["CODIGO-ERRADO", shown[0]],
            "service_code": ["motor_vehicle"], "format": ["json", "xml"],
            "kind": ["leilao"], "jurisdiction_id": ["dores"], "owner_codes": codes}


def _public_routes(app) -> list[tuple[str, str]]:
    """(method, path formatter) of every route whose handler needs no login."""
    out = []
    for resource in app.router.resources():
        if not isinstance(resource, (PlainResource, DynamicResource)):
            continue  # /static/: the panel's own CSS/JS/Leaflet files
        info = resource.get_info()
        path = info.get("path") or info.get("formatter")
        for route in resource:
            if route.method in ("HEAD", "OPTIONS"):
                continue
            if getattr(route.handler, "required_role", None) is None:
                out.append((route.method, path))
    return out


def _paths(formatter: str, values: dict[str, list[str]]) -> list[str]:
    names = PLACEHOLDER.findall(formatter)
    paths = [formatter]
    for name in names:
        options = values.get(name, values["protocol"])  # an unknown parameter: a protocol
        paths = [PLACEHOLDER.sub(lambda m: v, p, count=1) for p in paths for v in options]
    return paths


def _leaks(body: str) -> list[str]:
    low = body.lower()
    return [v for v in PERSONAL if v.lower() in low]


async def test_no_personal_data_on_any_public_route(panel, photo, monkeypatch, clock):
    monkeypatch.setattr(public_access, "RATE_LIMIT", 100_000)
    values = await _seed(panel.core, photo)
    routes = _public_routes(panel.app)
    paths = {p for _, p in routes}
    # the public face is there, and the staff pages are not reachable without login
    assert {"/publico", "/publico/mapa.json", "/publico/casos.geojson",
            "/publico/protocolo/{protocol}", "/publico/proprietario"} <= paths
    assert "/casos" not in paths and "/exportar/casos.csv" not in paths
    checked = 0
    async with panel.client() as client:
        form = await client.get("/publico/proprietario")
        token = csrf_of(await form.text())
        for method, formatter in routes:
            for path in _paths(formatter, values):
                for query in QUERIES if method == "GET" else [""]:
                    if method == "GET":
                        resp = await client.get(path + query)
                    else:
                        resp = await client.post(path, data={
                            "csrf": token, "codigo": "CODIGO-ERRADO", "placa": PLATE,
                            "username": "x", "password": "y", "service_code": "motor_vehicle",
                            "lat": str(CENTRE[0]), "long": str(CENTRE[1])})
                    body = (await resp.read()).decode("utf-8", "replace")
                    assert resp.status < 500, (method, path + query, body[:300])
                    leaks = _leaks(body) + _leaks(str(dict(resp.headers)))
                    assert not leaks, (method, path + query, leaks)
                    checked += 1
    assert checked > 50
    # the owner, with the right code, sees the bot's owner view: never the reporter, nor the
    # owner's CPF and contact (the bot's view has neither); the wrong codes above locked this
    # IP for an hour (the owner cool-down)
    clock.advance(hours=1, minutes=1)
    async with panel.client() as client:
        for code in values["owner_codes"]:
            page = await client.get(f"/publico/proprietario/{code}")
            body = await page.text()
            assert page.status == 200 and "Prazo:" in body
            for value in (REPORTER_NAME, str(REPORTER_TID), OWNER_CPF, "529.982.247-25",
                          "godofredo.xavante@example.org", "99876-5432", OWNER_NAME):
                assert value not in body, value
    # the seeded values do appear where staff may see them (the grep can find them)
    async with panel.client("ana") as staff:
        page = await staff.get(f"/casos/{values['protocol'][0]}")
        assert _leaks(await page.text())
