"""Open311 GeoReport v2: public data only (never the reporter, the owner, the description or
the plate), and reports posted with the API key go through the core's report service."""
from __future__ import annotations

import json

import io

import aiohttp
from PIL import Image
from sqlalchemy import select

from admin.app import create_app
from core.services.cases.transitions import apply_transition
from core.services.cases.evidence import EvidenceIn, attach
from core.storage.models import Case, OutboxMessage, Subscription
from core.storage.timeline import ActorRef
from tests.support.lgpd_fixtures import approve_photos
from tests.support.core_fixtures import jpeg
from tests.support.panel import CENTRE, Panel, new_case

KEY = "chave-open311-teste"


async def test_services_and_requests_expose_only_public_data(panel, photo):
    core = panel.core
    s = await new_case(core, photo, 1, plate="ABC1D23", description="O dono é o Sr. Fulano")
    await apply_transition(core, s.protocol, "open_diligence", ActorRef("staff", 1, "x"))
    async with panel.client() as c:  # anonymous: the API is public
        services = await (await c.get("/open311/v2/services.json")).json()
        assert {x["service_code"] for x in services} == set(core.law.categories)
        rows = await (await c.get("/open311/v2/requests.json")).json()
        one = await (await c.get(f"/open311/v2/requests/{s.protocol}.json")).json()
        missing = await c.get("/open311/v2/requests/2026-999999.json")
        assert missing.status == 404
        closed = await (await c.get("/open311/v2/requests.json?status=closed")).json()
    assert closed == []
    assert one[0]["service_request_id"] == s.protocol and one[0]["status"] == "open"
    blob = str(rows) + str(one)
    for secret in ("Fulano", "ABC1D23", "Cidadão", "reporter", "owner"):
        assert secret not in blob


async def test_post_request_needs_the_api_key_and_creates_a_case(make_core, data_dir):
    core = await make_core(open311_api_key=KEY)
    app_panel = Panel(core)
    async with app_panel.client() as c:
        def form(key):
            f = aiohttp.FormData()
            f.add_field("api_key", key)
            f.add_field("service_code", "motor_vehicle")
            f.add_field("lat", str(CENTRE[0]))
            f.add_field("long", str(CENTRE[1]))
            f.add_field("address_string", "Rua das Flores, 10")
            f.add_field("media", jpeg(), filename="foto.jpg", content_type="image/jpeg")
            return f
        bad = await c.post("/open311/v2/requests.json", data=form("errada"))
        assert bad.status == 403
        r = await c.post("/open311/v2/requests.json", data=form(KEY))
        assert r.status == 201, await r.text()
        protocol = (await r.json())[0]["service_request_id"]
        got = await (await c.get(f"/open311/v2/requests/{protocol}.json")).json()
        # the address as typed stays with staff; the public reads the neighbourhood only
        assert got[0]["address"] is None and "Flores" not in json.dumps(got)
    async with core.db.read() as s:
        case = (await s.execute(select(Case).where(Case.protocol == protocol))).scalar_one()
        subs = (await s.execute(select(Subscription).where(
            Subscription.case_id == case.id))).scalars().all()
        queued = (await s.execute(select(OutboxMessage).where(
            OutboxMessage.chat_id < 0))).scalars().all()
    assert subs == [] and queued == []  # the synthetic reporter is not messaged


async def test_open311_post_is_refused_when_no_key_is_configured(panel):
    async with panel.client() as c:
        r = await c.post("/open311/v2/requests.json", data={"api_key": ""})
        assert r.status == 403


def test_create_app_without_core_opens_one_in_cleanup_ctx(data_dir):
    from core.settings import Settings
    app = create_app(settings=Settings(_env_file=None, data_dir=data_dir))
    assert app.cleanup_ctx and (data_dir / "admin_secret_key").is_file()


def _gps_jpeg() -> bytes:
    img, exif = Image.new("RGB", (64, 48), (200, 30, 30)), Image.Exif()
    exif[0x010F] = "CameraMaker"
    exif[0x8825] = {1: "S", 2: (19.0, 27.0, 38.0), 3: "W", 4: (45.0, 36.0, 1.0)}  # GPS IFD
    buf = io.BytesIO()
    img.save(buf, "JPEG", exif=exif.tobytes())
    return buf.getvalue()


async def test_media_url_serves_only_the_exif_free_copy_of_the_first_photo(panel, photo):
    """LGPD: the citizen's photo reaches the public only without EXIF/GPS; the route serves
    public copies of case photos and nothing else (originals, documents, unknown → 404)."""
    core = panel.core
    original, _ = core.evidence.put_image(_gps_jpeg())  # as every upload path stores it
    assert Image.open(io.BytesIO(core.evidence.get(original))).getexif().get_ifd(0x8825)
    s = await new_case(core, photo, 1, photos=[EvidenceIn(original, "image/jpeg", "photo",
                                                          "f-gps", "u-gps"), photo(2)])
    other = await new_case(core, photo, 3)
    doc = core.evidence.put(b"%PDF-1.4 termo de recolhimento")
    async with core.db.unit_of_work() as ses:
        case = (await ses.execute(select(Case).where(Case.protocol == s.protocol))).scalar_one()
        await attach(core, ses, case.id, EvidenceIn(doc, "application/pdf", "document",
                                                    None, None), None)
    async with panel.client() as c:  # no photo is public before staff reviewed it
        one = (await (await c.get(f"/open311/v2/requests/{s.protocol}.json")).json())[0]
        assert one["media_url"] is None
    await approve_photos(core)
    async with panel.client() as c:  # anonymous: the media route is public
        one = (await (await c.get(f"/open311/v2/requests/{s.protocol}.json")).json())[0]
        listed = await (await c.get("/open311/v2/requests.json")).json()
        url = one["media_url"]
        assert url and url.startswith(f"http://{c.host}:{c.port}/open311/v2/media/{s.protocol}/")
        assert {r["service_request_id"]: r["media_url"] for r in listed}[s.protocol] == url
        path = url.split(f"{c.port}", 1)[1]
        got = await c.get(path)
        assert got.status == 200 and got.content_type == "image/jpeg"
        body = await got.read()
        public_sha = path.rsplit("/", 1)[1].split(".")[0]
        refused = [await c.get(f"/open311/v2/media/{s.protocol}/{original}.jpg"),  # original
                   await c.get(f"/open311/v2/media/{s.protocol}/{doc}.jpg"),  # a document
                   await c.get(f"/open311/v2/media/{other.protocol}/{public_sha}.jpg"),
                   await c.get(f"/open311/v2/media/{s.protocol}/{'0' * 64}.jpg"),
                   await c.get(f"/open311/v2/media/2026-999999/{public_sha}.jpg")]
    img = Image.open(io.BytesIO(body))
    assert img.size == (64, 48)
    assert not img.getexif() and b"Exif" not in body and b"CameraMaker" not in body
    assert [r.status for r in refused] == [404] * 5
