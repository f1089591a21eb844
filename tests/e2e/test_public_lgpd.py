"""LGPD (Lei 13.709/2018, art. 6º, III) on every path anyone can open without logging in: the
test lists the panel's routes from the aiohttp router, keeps those whose handler needs no
login (no `required_role`, admin.web.require), fills their path parameters with real values of
the seeded cases, opens each with many query strings (and POSTs the public forms), and greps
every answer for the seeded personal values: the reporter's name and Telegram id (Lei
13.460/2017, art. 10, §7º), the owner's name, CPF and contact (phone, e-mail), the plate,
the chassis and the citizen's description.

The address as typed is personal too (it may name a neighbour or the reporter): every public
output shows only the neighbourhood and the point rounded to ≈ 110 m (the one projection,
core.services.public.case; tests/integration/test_public_projection.py walks a case full of such markers).
The owner's page with the right case code alone shows that projection and asks for the proof;
the test reaches it with wrong codes too, as a stranger would.
"""
from __future__ import annotations


from sqlalchemy import select

from core.services.public import access as public_access
from core.services.citizens.reports import ReportIn, submit_report
from core.storage.models import Case, CaseOwner
from tests.support.panel import CENTRE, csrf_of, to_notice_affixed
from tests.support.public_pages import QUERIES, public_routes, route_paths

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


def _leaks(body: str) -> list[str]:
    low = body.lower()
    return [v for v in PERSONAL if v.lower() in low]


async def test_no_personal_data_on_any_public_route(panel, photo, monkeypatch, clock):
    monkeypatch.setattr(public_access, "RATE_LIMIT", 100_000)
    values = await _seed(panel.core, photo)
    routes = public_routes(panel.app)
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
            for path in route_paths(formatter, values):
                for query in QUERIES if method == "GET" else [""]:
                    if method == "GET":
                        resp = await client.get(path + query)
                    else:
                        resp = await client.post(path, data={
                            "csrf": token, "codigo": "CODIGO-ERRADO", "placa": PLATE,
                            "username": "x", "password": "y", "service_code": "motor_vehicle",
                            "lat": str(CENTRE[0]), "long": str(CENTRE[1])})
                    body = (await resp.read()).decode("utf-8", "replace")
                    # /readyz: 503 is its answer while the periodic job has not run yet
                    assert resp.status < 500 or (path == "/readyz" and resp.status == 503), \
                        (method, path + query, body[:300])
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


# -- photos: faces and plates blurred, public only after a staff member's review -------------

def _face_and_plate() -> bytes:
    """A drawn face (left) and a number plate (right), as a phone JPEG would bring them."""
    import io

    from PIL import Image, ImageDraw, ImageFilter, ImageFont
    img = Image.new("RGB", (1600, 800), (90, 110, 90))
    d = ImageDraw.Draw(img)
    cx, cy = 400, 400
    d.ellipse([cx - 130, cy - 170, cx + 130, cy + 170], fill=(225, 185, 150))
    for ex in (-55, 55):
        d.rectangle([cx + ex - 40, cy - 75, cx + ex + 40, cy - 62], fill=(60, 40, 30))
        d.ellipse([cx + ex - 32, cy - 50, cx + ex + 32, cy - 22], fill=(250, 250, 250))
        d.ellipse([cx + ex - 14, cy - 50, cx + ex + 14, cy - 22], fill=(40, 30, 20))
    d.polygon([(cx, cy - 30), (cx - 25, cy + 40), (cx + 25, cy + 40)], fill=(200, 160, 130))
    d.ellipse([cx - 55, cy + 70, cx + 55, cy + 100], fill=(150, 60, 60))
    d.rectangle([cx - 140, cy - 200, cx + 140, cy - 150], fill=(50, 35, 25))
    img = img.filter(ImageFilter.GaussianBlur(6))
    d = ImageDraw.Draw(img)
    d.rectangle([1050, 380, 1350, 445], fill=(245, 245, 245), outline=(0, 0, 0), width=4)
    d.text((1070, 385), "ABC1D23", fill=(0, 0, 0), font=ImageFont.load_default(size=48))
    out = io.BytesIO()
    img.save(out, "JPEG", quality=92)
    return out.getvalue()


def _detail(data: bytes, box: tuple[int, int, int, int]) -> float:
    """How much an area still shows: the spread of its grey levels (a blur flattens it)."""
    import io

    from PIL import Image, ImageStat
    img = Image.open(io.BytesIO(data)).convert("L")
    return ImageStat.Stat(img.resize((1600, 800)).crop(box)).stddev[0]


FACE_AREA, PLATE_AREA = (330, 330, 470, 390), (1060, 385, 1340, 440)  # eyes; letters


async def test_faces_and_plates_blurred_and_no_photo_public_before_staff_review(panel):
    """LGPD art. 6º, III: the public copy has the detected face and plate blurred (the
    original is kept as evidence); it is shown on no public page until staff approve it; staff
    can blur more by hand, and hide a photo for good."""
    from core.redact import available
    from core.services.cases.evidence import EvidenceIn
    from core.storage.models import Evidence
    from tests.support.panel import new_case, post_form
    core = panel.core
    original = _face_and_plate()
    sha, copy = core.evidence.put_image(original)  # as every upload path stores a photo
    assert available()
    assert _detail(copy.data, FACE_AREA) < _detail(original, FACE_AREA) / 2
    assert _detail(copy.data, PLATE_AREA) < _detail(original, PLATE_AREA) / 3
    assert core.evidence.get(sha) == original  # the evidence is untouched
    case = await new_case(core, None, 0, photos=[EvidenceIn(sha, "image/jpeg", "photo")])
    async with core.db.read() as s:
        ev_id = (await s.execute(select(Evidence.id))).scalar_one()
    photo_url = f"/publico/protocolo/{case.protocol}/foto"
    async with panel.client() as anon:
        assert (await anon.get(photo_url)).status == 404
        page = await (await anon.get(f"/publico/protocolo/{case.protocol}")).text()
        assert "public-photo" not in page
        for path in ("/fotos", "/lgpd/pedidos", f"/fotos/{ev_id}/publica"):
            r = await anon.get(path, allow_redirects=False)
            assert r.status == 302 and r.headers["Location"].startswith("/login"), path
        r = await anon.post(f"/fotos/{ev_id}/aprovar", allow_redirects=False)
        assert r.status in (302, 403)
        assert (await anon.get(photo_url)).status == 404
    async with panel.client("bruno") as staff:
        listed = await (await staff.get("/fotos")).text()
        assert f"/fotos/{ev_id}/publica" in listed and case.protocol in listed
        assert (await staff.get("/lgpd/pedidos")).status == 200  # the requests: any staff
        bad = await post_form(staff, "/fotos", f"/fotos/{ev_id}/borrar", {"areas": "abc"})
        assert bad.status == 400 and "quatro números" in await bad.text()
        out = await post_form(staff, "/fotos", f"/fotos/{ev_id}/borrar", {"areas": "70,0,30,30"})
        assert out.status == 302
        before = (await staff.get(f"/fotos/{ev_id}/publica"))
        redacted = await before.read()
        assert redacted != copy.data and before.headers["Cache-Control"] == "no-store"
        assert not core.evidence.exists(copy.sha256)  # the earlier copy is gone
        ok = await post_form(staff, "/fotos", f"/fotos/{ev_id}/aprovar", {})
        assert ok.status == 302
    async with panel.client() as anon:
        shown = await anon.get(photo_url)
        assert shown.status == 200 and await shown.read() == redacted
    async with panel.client("bruno") as staff:
        await post_form(staff, "/fotos?situacao=aprovadas", f"/fotos/{ev_id}/ocultar", {})
    async with panel.client() as anon:
        assert (await anon.get(photo_url)).status == 404
    async with panel.client("ana") as admin:
        assert (await admin.get("/lgpd/pedidos")).status == 200
    async with core.db.read() as s:
        from core.storage.models import Event
        actions = (await s.execute(select(Event.action).where(
            Event.action.like("photo_%")).order_by(Event.id))).scalars().all()
    assert actions == ["photo_redact", "photo_approve", "photo_hide"]


async def test_photo_review_in_chromium_drag_to_blur_then_approve(chromium, serve, shots, panel,
                                                                  photo):
    """The review page in a real browser: drag over the photo to mark an area, blur it, approve;
    the photo then appears on the public status page."""
    from core.services.cases.evidence import EvidenceIn
    from tests.support.browser import login
    from tests.support.panel import new_case
    core = panel.core
    sha, _ = core.evidence.put_image(_face_and_plate())  # the detector blurred face and plate
    case = await new_case(core, photo, 0, photos=[EvidenceIn(sha, "image/jpeg", "photo")])
    base = await serve(core)
    page = await chromium.page()
    await login(page, base, "bruno")
    await page.goto(f"{base}/fotos")
    img = page.locator(".redact-area img").first
    await img.wait_for()
    await page.wait_for_function("document.querySelector('.redact-area img').naturalWidth > 0")
    box = await img.bounding_box()
    await page.mouse.move(box["x"] + box["width"] * 0.1, box["y"] + box["height"] * 0.2)
    await page.mouse.down()
    await page.mouse.move(box["x"] + box["width"] * 0.6, box["y"] + box["height"] * 0.7, steps=5)
    await page.mouse.up()
    typed = await page.locator("textarea[name=areas]").first.input_value()
    x, y, w, h = (float(v) for v in typed.split(","))
    assert abs(x - 10) < 3 and abs(y - 20) < 3 and abs(w - 50) < 3 and abs(h - 50) < 3
    await page.screenshot(path=str(shots / "photo_review.png"), full_page=True)
    await page.click("button:has-text('Borrar áreas marcadas')")
    await page.wait_for_selector(".flash.ok")
    assert "Confira o resultado" in await page.inner_text(".flash")
    await page.click("button:has-text('Aprovar')")
    await page.wait_for_selector(".flash.ok")
    assert "já aparece nas páginas públicas" in await page.inner_text(".flash")
    assert "Nenhuma foto aguardando revisão" in await page.inner_text("main")
    public = await chromium.page()
    await public.goto(f"{base}/publico/protocolo/{case.protocol}")
    loaded = await public.locator("img.public-photo").evaluate("i => i.complete && i.naturalWidth")
    assert loaded > 0


async def test_the_panel_lists_the_data_requests_with_their_answers(panel, photo):
    """LGPD art. 18: each request from the bot (access, deletion) is on the staff's page with
    its status and the answer the citizen got, word for word."""
    from core.services.citizens.my_data import delete_my_data, my_data
    core = panel.core
    report = ReportIn(category="motor_vehicle", lat=CENTRE[0], lon=CENTRE[1], photos=[photo(0)])
    protocol = (await submit_report(core, REPORTER_TID, report)).protocol
    await my_data(core, REPORTER_TID)
    answer = "\n".join(await delete_my_data(core, REPORTER_TID))
    async with panel.client() as anon:
        r = await anon.get("/lgpd/pedidos", allow_redirects=False)
        assert r.status == 302 and r.headers["Location"].startswith("/login")
    async with panel.client("bruno") as staff:
        page = await (await staff.get("/lgpd/pedidos")).text()
    assert "Acesso aos dados (art. 18, II)" in page and "Eliminação (art. 18, VI)" in page
    assert "Atendido em parte" in page and str(REPORTER_TID) in page
    assert f"sua denúncia {protocol}, em andamento" in answer
    assert "sua denúncia " + protocol in page  # the answer itself, as the citizen read it
