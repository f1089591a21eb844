"""Open311 GeoReport v2 as the spec writes it (http://wiki.open311.org/GeoReport_v2): the
spec's own example requests, in XML (its default) and JSON, errors in the spec's shape, the
90-day window and paging, jurisdiction_id, and a form-encoded POST with a media_url. The
public data rule (LGPD) holds in both formats."""
from __future__ import annotations

import json

import xmltodict
from sqlalchemy import select

from core.services.citizens.guidance import citizen_signs
from core.storage.models import Case, Event, Evidence
from tests.support.panel import CENTRE, Panel, new_case
from tests.support.open311 import KEY, PERSONAL, SPEC_POST

API = "/open311/v2"


def xml(body: str) -> dict:
    return xmltodict.parse(body)


async def test_spec_example_requests_in_xml(make_core):
    """GET services.xml, GET services/033.xml, POST requests.xml (form-encoded), GET
    requests.xml?start_date=…&end_date=…&status=open, GET requests/638344.xml — the spec's
    examples, answered in the spec's XML."""
    core = await make_core(open311_api_key=KEY)
    async with Panel(core).client() as c:
        r = await c.get(f"{API}/services.xml?jurisdiction_id=city.gov")
        assert r.status == 200 and r.content_type == "text/xml"
        services = xml(await r.text())["services"]["service"]
        assert {s["service_code"] for s in services} == set(core.law.categories)
        assert {s["metadata"] for s in services} == {"true"}

        r = await c.get(f"{API}/services/033.xml?jurisdiction_id=city.gov")
        assert r.status == 404
        err = xml(await r.text())["errors"]["error"]
        assert err == {"code": "404", "description": "service_code não encontrado."}
        r = await c.get(f"{API}/services/motor_vehicle.xml?jurisdiction_id=city.gov")
        definition = xml(await r.text())["service_definition"]
        attrs = {a["code"]: a for a in definition["attributes"]["attribute"]}
        assert definition["service_code"] == "motor_vehicle"
        assert {"plate", "colour", "make_model", "time_there", "signs", "location_kind"} <= set(
            attrs)
        assert attrs["signs"]["datatype"] == "multivaluelist"
        keys = [v["key"] for v in attrs["signs"]["values"]["value"]]
        assert keys and all(k in {x.code for x in core.law.criteria} for k in keys)

        r = await c.post(f"{API}/requests.xml", data=SPEC_POST)  # form-encoded, no file
        assert r.status == 201, await r.text()
        made = xml(await r.text())["service_requests"]["request"]
        protocol = made["service_request_id"]
        assert made["account_id"] == "123456"
        assert made["service_notice"].startswith(f"Protocolo {protocol}: ")

        r = await c.get(f"{API}/requests.xml?start_date=2026-11-01T00:00:00Z"
                        "&end_date=2026-12-31T00:00:00Z&status=open")
        listed = xml(await r.text())["service_requests"]["request"]
        assert listed["service_request_id"] == protocol and listed["status"] == "open"
        for field in ("status_notes", "service_name", "service_code", "agency_responsible",
                      "service_notice", "requested_datetime", "updated_datetime",
                      "expected_datetime", "address", "lat", "long", "media_url"):
            assert field in listed
        assert listed["requested_datetime"] == "2026-12-01T16:00:00Z"
        # the address as typed is never public (it may name a neighbour); the point is coarse
        assert listed["address"] is None and "5th street" not in await r.text()
        assert listed["lat"] == str(round(CENTRE[0], 3))

        r = await c.get(f"{API}/requests/638344.xml?jurisdiction_id=city.gov")
        assert r.status == 404
        assert xml(await r.text())["errors"]["error"]["code"] == "404"
        r = await c.get(f"{API}/requests/{protocol}.xml?jurisdiction_id=city.gov")
        body = await r.text()
        one = xml(body)["service_requests"]["request"]
        assert one["service_request_id"] == protocol
        assert one["media_url"] is None  # a URL not downloaded is never given out
    for secret in PERSONAL:
        assert secret not in body


async def test_post_records_media_url_by_reference_and_keeps_no_contact_data(make_core):
    """The spec's POST: the media_url stands for the photo (recorded in the report's timeline
    fact, not downloaded by default); email, names, phone and device_id are not stored."""
    core = await make_core(open311_api_key=KEY)
    async with Panel(core).client() as c:
        r = await c.post(f"{API}/requests.json", data=SPEC_POST)
        assert r.status == 201, await r.text()
        made = (await r.json())[0]
        assert set(made) == {"service_request_id", "service_notice", "account_id"}
    async with core.db.read() as s:
        case = (await s.execute(select(Case).where(
            Case.protocol == made["service_request_id"]))).scalar_one()
        events = (await s.execute(select(Event).where(Event.case_id == case.id))
                  ).scalars().all()
        evidence = (await s.execute(select(Evidence).where(Evidence.case_id == case.id))
                    ).scalars().all()
    report = [e for e in events if e.action == "report"][0]
    assert report.data["media_urls"] == ["http://example.com/images/12.jpg"]
    assert report.data["photos"] == [] and evidence == []
    stored = json.dumps([case.details, [e.data for e in events]]) + str(case.address)
    for contact in ("smit333", "tt222111", "john", "smith", "111111111", "123456"):
        assert contact not in stored


async def test_errors_in_the_spec_shape_with_their_status_in_both_formats(make_core):
    core = await make_core(open311_api_key=KEY, open311_jurisdiction_id="dores.mg.gov.br")
    bad_key = {**SPEC_POST, "api_key": "errada", "jurisdiction_id": "dores.mg.gov.br"}
    no_code = {**SPEC_POST, "service_code": "", "jurisdiction_id": "dores.mg.gov.br"}
    no_photo = {k: v for k, v in no_code.items() if k != "media_url"}
    no_photo["service_code"] = "motor_vehicle"
    async with Panel(core).client() as c:
        for fmt in ("json", "xml"):
            got = {}
            for name, call in (
                    ("key", c.post(f"{API}/requests.{fmt}", data=bad_key)),
                    ("code", c.post(f"{API}/requests.{fmt}", data=no_code)),
                    ("photo", c.post(f"{API}/requests.{fmt}", data=no_photo)),
                    ("jurisdiction", c.get(f"{API}/services.{fmt}?jurisdiction_id=city.gov")),
                    ("window", c.get(f"{API}/requests.{fmt}?start_date=2026-01-01T00:00:00Z"
                                     "&end_date=2026-12-01T00:00:00Z")),
                    ("status", c.get(f"{API}/requests.{fmt}?status=aberto")),
                    ("date", c.get(f"{API}/requests.{fmt}?start_date=ontem")),
                    ("page", c.get(f"{API}/requests.{fmt}?page_size=5000")),
                    ("path", c.get(f"{API}/nada.{fmt}")),
                    ("method", c.delete(f"{API}/services.{fmt}"))):
                r = await call
                text = await r.text()
                if fmt == "json":
                    assert r.content_type == "application/json", text
                    [err] = json.loads(text)
                else:
                    assert r.content_type == "text/xml", text
                    err = xml(text)["errors"]["error"]
                assert str(err["code"]) == str(r.status) and err["description"], text
                got[name] = r.status
            assert got == {"key": 403, "code": 400, "photo": 400, "jurisdiction": 404,
                           "window": 400, "status": 400, "date": 400, "page": 400,
                           "path": 404, "method": 405}
        r = await c.get(f"{API}/services.xml?jurisdiction_id=dores.mg.gov.br")
        assert r.status == 200


async def test_ninety_day_default_window_and_pages(panel, photo, clock):
    core = panel.core
    old = await new_case(core, photo, 1)
    clock.advance(days=100)
    recent = [await new_case(core, photo, i) for i in (2, 3, 4)]
    async with panel.client() as c:
        default = await (await c.get(f"{API}/requests.json")).json()
        assert [r["service_request_id"] for r in default] == [
            s.protocol for s in reversed(recent)]  # newest first, the old one outside
        back = await (await c.get(f"{API}/requests.json?end_date=2026-12-02T00:00:00Z")
                      ).json()
        assert [r["service_request_id"] for r in back] == [old.protocol]
        by_id = await (await c.get(
            f"{API}/requests.json?service_request_id={old.protocol},{recent[0].protocol}")
        ).json()  # the id list overrides the window
        assert {r["service_request_id"] for r in by_id} == {old.protocol, recent[0].protocol}
        pages = [await (await c.get(f"{API}/requests.json?page_size=2&page={p}")).json()
                 for p in (1, 2, 3)]
        assert [len(p) for p in pages] == [2, 1, 0]
        assert {r["service_request_id"] for p in pages for r in p} == {
            s.protocol for s in recent}


async def test_json_and_xml_give_the_same_public_data(panel, photo):
    core = panel.core
    s = await new_case(core, photo, 1, plate="ABC1D23", description="O dono é o Sr. Fulano")
    async with panel.client() as c:
        j = (await (await c.get(f"{API}/requests/{s.protocol}.json")).json())[0]
        body = await (await c.get(f"{API}/requests/{s.protocol}.xml")).text()
        x = xml(body)["service_requests"]["request"]
        d = await (await c.get("/open311/discovery.json")).json()
        dx = xml(await (await c.get("/open311/discovery.xml")).text())["discovery"]
    assert {k: (None if v is None else str(v)) for k, v in j.items()} == {
        k: v for k, v in x.items()}
    assert "description" not in j  # the citizen's text is never published (LGPD)
    for secret in PERSONAL:
        assert secret not in body and secret not in json.dumps(j)
    assert d["endpoints"][0]["url"].endswith("/open311/v2")
    assert d["endpoints"][0]["formats"] == ["text/xml", "application/json"]
    assert dx["endpoints"]["endpoint"]["specification"] == "http://wiki.open311.org/GeoReport_v2"


async def test_attributes_fill_the_report_and_bad_values_are_refused(make_core, photo):
    core = await make_core(open311_api_key=KEY)
    sign = citizen_signs(core.law, "motor_vehicle")[0].code
    form = {**SPEC_POST, "attribute[colour]": "Vermelho", "attribute[make_model]": "Fiat Uno",
            "attribute[location_kind]": "vacant_lot", "attribute[signs][]": sign,
            "attribute[desconhecido]": "ignorado"}
    async with Panel(core).client() as c:
        r = await c.post(f"{API}/requests.json", data=form)
        assert r.status == 201, await r.text()
        protocol = (await r.json())[0]["service_request_id"]
        bad = await c.post(f"{API}/requests.json",
                           data={**SPEC_POST, "attribute[location_kind]": "lua"})
        assert bad.status == 400 and "location_kind" in (await bad.json())[0]["description"]
    async with core.db.read() as s:
        case = (await s.execute(select(Case).where(Case.protocol == protocol))).scalar_one()
    report = case.details["report"]
    assert (report["colour"], report["make_model"], report["location_kind"]) == (
        "Vermelho", "Fiat Uno", "vacant_lot")
    assert report["signs"] == [sign]


async def test_staff_see_the_media_url_on_the_case_page(make_core):
    """The photo by reference is evidence for staff: the case timeline shows its address."""
    from core.services.staff.accounts import create_user
    from tests.support.panel import PASSWORD
    core = await make_core(open311_api_key=KEY)
    await create_user(core, "ana", PASSWORD, "admin")
    panel = Panel(core)
    async with panel.client() as c:
        r = await c.post(f"{API}/requests.json", data=SPEC_POST)
        protocol = (await r.json())[0]["service_request_id"]
    async with panel.client("ana") as staff:
        page = await (await staff.get(f"/casos/{protocol}")).text()
    assert "http://example.com/images/12.jpg" in page
    assert "media_url" in page
