"""Open311 GeoReport v2 for an installation serving two cities: discovery lists one
jurisdiction per city; jurisdiction_id selects the city for services, requests and POST and is
required (the spec: "only required if the endpoint serves multiple jurisdictions"); another
jurisdiction's request is a missing one; each city's API key posts to its own city only; a
POST's point must lie in the city it names. A third-party client (the `georeport` package)
reads one city by its jurisdiction_id."""
from __future__ import annotations

import asyncio
import hashlib

import xmltodict
from georeport import GeoReport

from core.services.installation.municipalities import set_municipality
from tests.support.open311 import KEY, PERSONAL, SPEC_POST
from tests.support.panel import Panel
from tests.support.two_cities import DRACENA, two_cities

API = "/open311/v2"
DRACENA_KEY = "chave-de-dracena"
DRACENA_POST = {**SPEC_POST, "api_key": DRACENA_KEY, "jurisdiction_id": "dracena",
                "service_code": "abandoned_vehicle", "lat": str(DRACENA[0] - 0.003),  # ~330 m
                "long": str(DRACENA[1])}


async def _cities(make_two_cities):
    t = await two_cities(make_two_cities, open311_api_key=KEY)
    await set_municipality(t.dores, "dracena", open311_key_sha256=hashlib.sha256(
        DRACENA_KEY.encode()).hexdigest())
    await set_municipality(t.dores, "dores-do-indaia", open311_jurisdiction_id="dores.mg.gov.br")
    return t


async def test_discovery_lists_one_jurisdiction_per_city(make_two_cities):
    t = await _cities(make_two_cities)
    async with Panel(t.dores).client() as c:
        d = await (await c.get("/open311/discovery.json")).json()
        x = xmltodict.parse(await (await c.get("/open311/v2/discovery.xml")).text())
    ids = [(j["jurisdiction_id"], j["name"]) for j in d["jurisdictions"]]
    assert ids == [("dores.mg.gov.br", "Dores do Indaiá (MG)"), ("dracena", "Dracena (SP)")]
    assert "cada município" in d["key_service"]
    assert [j["jurisdiction_id"] for j in x["discovery"]["jurisdictions"]["jurisdiction"]] \
        == ["dores.mg.gov.br", "dracena"]


async def test_serving_two_cities_the_jurisdiction_id_is_required(make_two_cities):
    t = await _cities(make_two_cities)
    async with Panel(t.dores).client() as c:
        for path in (f"{API}/services.json", f"{API}/requests.json",
                     f"{API}/requests/{t.dracena_case.protocol}.json",
                     f"{API}/services/abandoned_vehicle.json"):
            r = await c.get(path)
            assert r.status == 400, path
            error = (await r.json())[0]
            assert error["code"] == 400
            assert "jurisdiction_id é obrigatório" in error["description"]
            assert "dores.mg.gov.br, dracena" in error["description"]
        unknown = await c.get(f"{API}/services.xml?jurisdiction_id=city.gov")
        body = xmltodict.parse(await unknown.text())["errors"]["error"]
        # the slug of a city with its own jurisdiction_id is not an id
        slug = await c.get(f"{API}/services.json?jurisdiction_id=dores-do-indaia")
        post = await c.post(f"{API}/requests.json",
                            data={k: v for k, v in DRACENA_POST.items() if k != "jurisdiction_id"})
        assert post.status == 400 and "obrigatório" in (await post.json())[0]["description"]
    assert unknown.status == 404 and "jurisdiction_id não encontrado" in body["description"]
    assert slug.status == 404


async def test_each_jurisdiction_reads_its_own_city_only(make_two_cities):
    t = await _cities(make_two_cities)
    mine, theirs = t.dracena_case.protocol, t.dores_case.protocol
    async with Panel(t.dores).client() as c:
        services = await (await c.get(f"{API}/services.json?jurisdiction_id=dracena")).json()
        rows = await (await c.get(f"{API}/requests.json?jurisdiction_id=dracena")).json()
        xml_rows = await (await c.get(f"{API}/requests.xml?jurisdiction_id=dracena")).text()
        by_ids = await (await c.get(f"{API}/requests.json?jurisdiction_id=dracena"
                                    f"&service_request_id={mine},{theirs}")).json()
        other = await c.get(f"{API}/requests/{theirs}.json?jurisdiction_id=dracena")
        missing = await c.get(f"{API}/requests/2026-999999.json?jurisdiction_id=dracena")
        own = await c.get(f"{API}/requests/{theirs}.json?jurisdiction_id=dores.mg.gov.br")
        bad_code = await c.get(f"{API}/requests.json?jurisdiction_id=dracena"
                               "&service_code=motor_vehicle")
        answers = (await other.json(), await missing.json())
    assert {s["service_code"] for s in services} == set(t.dracena.law.categories)
    assert [r["service_request_id"] for r in rows] == [mine]
    assert rows[0]["agency_responsible"] == "Prefeitura Municipal de Dracena"
    assert mine in xml_rows and theirs not in xml_rows
    assert [r["service_request_id"] for r in by_ids] == [mine]
    assert other.status == missing.status == 404
    assert answers[0] == answers[1]  # another city's: as a missing one
    assert own.status == 200
    assert bad_code.status == 400  # Dores' category is not a service of Dracena


async def test_each_citys_key_posts_to_its_own_city_only(make_two_cities):
    t = await _cities(make_two_cities)
    dores_post = {**SPEC_POST, "jurisdiction_id": "dores.mg.gov.br", "lat": str(-19.455)}
    async with Panel(t.dores).client() as c:
        ok = await c.post(f"{API}/requests.json", data=DRACENA_POST)
        body = await ok.json()
        # OPEN311_API_KEY is the settings' city's (Dores): not Dracena's
        cross = await c.post(f"{API}/requests.json", data={**DRACENA_POST, "api_key": KEY})
        cross_back = await c.post(f"{API}/requests.json",
                                  data={**dores_post, "api_key": DRACENA_KEY})
        wrong = await c.post(f"{API}/requests.json", data={**DRACENA_POST, "api_key": "errada"})
        dores_ok = await c.post(f"{API}/requests.json", data=dores_post)
        # a point in Dores sent to Dracena's jurisdiction
        away = await c.post(f"{API}/requests.json", data={
            **DRACENA_POST, "lat": dores_post["lat"], "long": dores_post["long"]})
        rows = await (await c.get(f"{API}/requests.json?jurisdiction_id=dracena")).json()
        errors = {n: (r.status, (await r.json())[0]["description"]) for n, r in (
            ("cross", cross), ("cross_back", cross_back), ("wrong", wrong), ("away", away))}
    assert ok.status == 201 and dores_ok.status == 201, (body, await dores_ok.text())
    assert errors["cross"] == errors["cross_back"] == errors["wrong"] == (403, "api_key inválida.")
    assert errors["away"][0] == 400 and "Dracena" in errors["away"][1]
    assert body[0]["service_request_id"] in {r["service_request_id"] for r in rows}
    assert len(rows) == 2  # the case before and the one posted; none of Dores


async def test_a_third_party_client_reads_one_city_by_its_jurisdiction_id(make_two_cities):
    t = await _cities(make_two_cities)
    async with Panel(t.dores).client() as c:
        root = str(c.make_url(API))
        for fmt in ("json", "xml"):
            client = GeoReport(root, jurisdiction="dracena", output_format=fmt)
            services = await asyncio.to_thread(client.get_service_list)
            assert {x["service_code"] for x in services} == set(t.dracena.law.categories)
            definition = await asyncio.to_thread(client.get_service_definition,
                                                 "abandoned_vehicle")
            assert definition["service_code"] == "abandoned_vehicle"
            rows = await asyncio.to_thread(client.get_service_requests, status="open")
            rows = [rows] if isinstance(rows, dict) else rows  # XML: one request, no list
            assert [r["service_request_id"] for r in rows] == [t.dracena_case.protocol]
            one = await asyncio.to_thread(client.get_service_request, t.dracena_case.protocol)
            assert one["address"] == "Vila Dracena"
            blob = str(services) + str(definition) + str(rows) + str(one)
            assert t.dores_case.protocol not in blob
            for secret in PERSONAL:
                assert secret not in blob, (fmt, secret)
