"""Open311 with a third-party client (the `georeport` package from PyPI, pinned in the test
extras: it reads services, definitions and requests, in JSON and XML; it cannot post, so the
POST is the spec's form-encoded request sent as raw HTTP), and a POST's media_url downloaded
only when OPEN311_FETCH_MEDIA allows it, from a local HTTP server."""
from __future__ import annotations

import asyncio

from georeport import GeoReport
from sqlalchemy import select

from admin.open311_fetch import FAILED
from core.storage.models import Case, Evidence
from tests.support.lgpd_fixtures import approve_photos
from tests.support.panel import Panel, new_case
from tests.support.open311 import KEY, PERSONAL, PUBLIC_NAME, PhotoHost, SPEC_POST, panel_with

API = "/open311/v2"


async def test_a_third_party_client_reads_everything_in_both_formats(make_core, photo):
    core = await make_core(open311_api_key=KEY)
    s = await new_case(core, photo, 1, plate="ABC1D23", description="O dono é o Sr. Fulano")
    async with Panel(core).client() as c:
        apart = {**SPEC_POST, "lat": str(float(SPEC_POST["lat"]) - 0.003)}  # ~330 m: no duplicate
        posted = await c.post(f"{API}/requests.xml", data=apart)
        assert posted.status == 201, await posted.text()
        await approve_photos(core)  # public only once staff reviewed them (LGPD)
        root = str(c.make_url(API))
        for fmt in ("json", "xml"):
            client = GeoReport(root, jurisdiction="city.gov", output_format=fmt)
            services = await asyncio.to_thread(client.get_service_list)
            assert {x["service_code"] for x in services} == set(core.law.categories)
            definition = await asyncio.to_thread(client.get_service_definition, "trailer")
            assert definition["service_code"] == "trailer"
            rows = await asyncio.to_thread(client.get_service_requests, status="open",
                                           service_code="motor_vehicle")
            assert len(rows) == 2 and all(r["status"] == "open" for r in rows)
            one = await asyncio.to_thread(client.get_service_request, s.protocol)
            assert one["service_request_id"] == s.protocol
            assert one["media_url"].startswith(f"{root}/media/{s.protocol}/")
            blob = str(services) + str(definition) + str(rows) + str(one)
            for secret in PERSONAL:
                assert secret not in blob, (fmt, secret)


async def test_media_url_is_not_downloaded_unless_the_setting_allows_it(make_core):
    host = PhotoHost()
    async with host.server:
        core = await make_core(open311_api_key=KEY)
        async with Panel(core).client() as c:
            r = await c.post(f"{API}/requests.json",
                             data={**SPEC_POST, "media_url": host.url("foto.jpg")})
            assert r.status == 201, await r.text()
    assert host.hits == []


async def test_media_url_downloaded_when_allowed_passes_the_upload_check(make_core):
    host = PhotoHost()
    async with host.server:
        core = await make_core(open311_api_key=KEY, open311_fetch_media=True,
                               open311_fetch_timeout_s=1, open311_fetch_max_bytes=200_000)
        async with panel_with(core).client() as c:
            r = await c.post(f"{API}/requests.json",
                             data={**SPEC_POST, "media_url": host.url("foto.jpg", PUBLIC_NAME)})
            assert r.status == 201, await r.text()
            protocol = (await r.json())[0]["service_request_id"]
            await approve_photos(core)  # public only once staff reviewed them (LGPD)
            one = (await (await c.get(f"{API}/requests/{protocol}.json")).json())[0]
            photo_resp = await c.get(one["media_url"].split(str(c.make_url("")), 1)[1])
            assert photo_resp.status == 200 and photo_resp.content_type == "image/jpeg"
            refused = {}
            for name in ("pagina.jpg", "enorme.jpg", "lenta.jpg", "ausente:99"):
                url = (host.url(name, PUBLIC_NAME) if ":" not in name
                       else f"http://{PUBLIC_NAME}:9/x.jpg")
                r = await c.post(f"{API}/requests.json", data={**SPEC_POST, "media_url": url})
                refused[name] = (r.status, (await r.json())[0]["description"])
    assert {k: v[0] for k, v in refused.items()} == dict.fromkeys(refused, 400)
    assert "fotos" in refused["pagina.jpg"][1]  # the upload check: not a photo
    # too big, too slow, a closed port: one same answer (nothing tells them apart)
    assert refused["enorme.jpg"][1] == refused["lenta.jpg"][1] == refused["ausente:99"][1] \
        == FAILED
    async with core.db.read() as s:
        case = (await s.execute(select(Case).where(Case.protocol == protocol))).scalar_one()
        kinds = (await s.execute(select(Evidence.kind).where(Evidence.case_id == case.id))
                 ).scalars().all()
        cases = (await s.execute(select(Case.id))).scalars().all()
    assert kinds == ["photo"] and len(cases) == 1  # the refused posts opened nothing
