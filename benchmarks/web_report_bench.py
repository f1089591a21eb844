"""The web report under the public benchmark's load (benchmarks.public_bench): WALKERS
visitors at once, each from its own address (X-Forwarded-For through a trusted proxy) and its
own cookie, walk /publico/denunciar as a phone without JavaScript does — the category, a
photo, the pin, the vehicle's questions, the summary, "Confirmar" — over HTTP against the
panel's own app on the seeded database. Printed: the report page (GET) and the receipt (the
"Confirmar" POST that submits the report and renders it) p50/p99, and the web reports
submitted per second, beside the bots' figures of the other suites (bot_bench, whatsapp_bench).

Each walker's pin is ~110 m from the others' (no duplicate offered); the geocoder is a local
Nominatim stand-in with no pause between calls (the pin's street, looked up as a courtesy)."""
from __future__ import annotations

import asyncio
import io
import re
import time

from aiohttp import ClientSession, CookieJar, FormData
from aiohttp.test_utils import TestServer
from PIL import Image

from admin.app import create_app
from admin.views_intake import GEOCODERS
from benchmarks.storage_bench import _pct
from bot.geocoding import Geocoder
from core.services.context import Core
from sandbox.standin.nominatim import NominatimStandIn, default_gazetteer

WALKERS = 10
WALKS = 60
#: each walk's photo, made before the walks (encoding it is the phone's work, not the server's)
PHOTOS: dict[int, bytes] = {}
KEY = re.compile(r'name="key" value="([^"]*)"')
CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def _jpeg(i: int) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (64, 48), (i % 256, (i // 256) % 256, 90)).save(buf, "JPEG")
    return buf.getvalue()


async def _walk(server: TestServer, i: int, centre: tuple[float, float],
                pages: list[float], receipts: list[float]) -> bool:
    visitor = {"X-Forwarded-For": f"203.0.{i // 250}.{i % 250 + 1}"}
    lat, lon = centre[0] + (i // 20) * 0.001, centre[1] + (i % 20) * 0.001
    url = str(server.make_url("/publico/denunciar"))
    async with ClientSession(cookie_jar=CookieJar(unsafe=True)) as client:  # its own cookie
        t0 = time.perf_counter()
        resp = await client.get(url, headers=visitor)
        html = await resp.text()
        pages.append((time.perf_counter() - t0) * 1000)
        answers: list[dict] = [{"choice": "cat:motor_vehicle"}, {"choice": "done",
                                                                  "photos": PHOTOS[i]},
                               {"lat": lat, "lon": lon}, {"text": "ABC1D23"}, {"text": "prata"},
                               {"choice": "skip"}, {"choice": "time:2"},
                               {"choice": "signs:done"}, {"text": "perto da escola"},
                               {"choice": "ok"}]
        n = -1
        while n + 1 < len(answers):
            n += 1
            fields = answers[n]
            data = FormData()
            data.add_field("csrf", CSRF.search(html).group(1))
            data.add_field("key", KEY.search(html).group(1))
            for name, value in fields.items():
                if isinstance(value, bytes):
                    data.add_field(name, value, filename="f.jpg", content_type="image/jpeg")
                else:
                    data.add_field(name, str(value))
            t0 = time.perf_counter()
            resp = await client.post(url, data=data, headers=visitor)
            html = await resp.text()
            if n == len(answers) - 1:
                receipts.append((time.perf_counter() - t0) * 1000)
            if resp.status != 200:
                return False
            if 'data-state="report:duplicates"' in html:  # an open case of the seed nearby
                answers.insert(n + 1, {"choice": "dup:new"})
        return "Denúncia registrada" in html


async def measure(core: Core, quick: bool) -> dict[str, dict[str, float]]:
    walks = WALKERS * 2 if quick else WALKS
    PHOTOS.update((i, _jpeg(i)) for i in [9_999, *range(walks)])
    async with NominatimStandIn(default_gazetteer()) as osm:
        app = create_app(core)
        geocoder = Geocoder(osm.base_url, core.area, min_interval_s=0)
        app[GEOCODERS][core.municipality] = geocoder
        server = TestServer(app)
        await server.start_server()
        try:
            centre = (core.area.centre[0] - 0.03, core.area.centre[1] - 0.03)
            await _walk(server, 9_999, (centre[0] - 0.01, centre[1]), [], [])  # warm-up
            pages: list[float] = []
            receipts: list[float] = []
            gate = asyncio.Semaphore(WALKERS)

            async def one(i: int) -> bool:
                async with gate:
                    return await _walk(server, i, centre, pages, receipts)

            t0 = time.perf_counter()
            done = await asyncio.gather(*[one(i) for i in range(walks)])
            elapsed = time.perf_counter() - t0
        finally:
            await server.close()
            await geocoder.close()
    return {"report page": {"p50": _pct(pages, 50), "p99": _pct(pages, 99), "shown": 0},
            "report receipt": {"p50": _pct(receipts, 50), "p99": _pct(receipts, 99),
                               "shown": 0},
            "_web": {"rate": sum(done) / elapsed, "walks": walks, "failed": done.count(False)}}
