"""Open311's POST under the public benchmark's load (benchmarks.public_bench), beside the web
report's submissions: CLIENTS partners at once, each POSTing service requests back to back to
/open311/v2/requests.json — multipart, the spec's fields and one photo as `media`, the city's
API key — over HTTP against the panel's own app on the seeded database. Printed: the POST's
p50/p99 (key check, its rate limit, the report checked, the photo stored, the case opened and
its answer) and the requests created per second.

The key's limit (OPEN311_POST_LIMIT) is raised for the run, as a city does for a partner that
relays many reports; each request's point is ~110 m from the others' (no duplicate joined)."""
from __future__ import annotations

import asyncio
import io
import time

from aiohttp import ClientSession, FormData
from aiohttp.test_utils import TestServer
from PIL import Image

from admin.app import create_app
from benchmarks.storage_bench import _pct
from core.services.context import Core

CLIENTS = 10
POSTS = 200
KEY = "chave-do-parceiro-de-bench"
SETTINGS = {"open311_api_key": KEY, "open311_post_limit": 1_000_000}


def _jpeg(i: int) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (64, 48), (90, i % 256, (i // 256) % 256)).save(buf, "JPEG")
    return buf.getvalue()


def _form(i: int, centre: tuple[float, float], photo: bytes) -> FormData:
    data = FormData()
    data.add_field("api_key", KEY)
    data.add_field("service_code", "motor_vehicle")
    data.add_field("lat", f"{centre[0] + (i // 20) * 0.001:.6f}")
    data.add_field("long", f"{centre[1] + (i % 20) * 0.001:.6f}")
    data.add_field("address_string", f"Rua do Parceiro, {i + 1}")
    data.add_field("description", "Carro parado há semanas, pneus murchos.")
    data.add_field("media", photo, filename="foto.jpg", content_type="image/jpeg")
    return data


async def measure(core: Core, quick: bool) -> dict[str, dict[str, float]]:
    """On a `core` whose settings hold SETTINGS (benchmarks.public_bench._settings)."""
    posts = POSTS // 4 if quick else POSTS
    server = TestServer(create_app(core))
    await server.start_server()
    try:
        url = str(server.make_url("/open311/v2/requests.json"))
        # south-east of the city, away from the web report's walkers (south-west)
        centre = (core.area.centre[0] - 0.02, core.area.centre[1] + 0.01)
        times: list[float] = []
        created = 0
        refused: dict[int, int] = {}  # status → how many (printed: a refusal is a finding)
        gate = asyncio.Semaphore(CLIENTS)
        photos = {i: _jpeg(i) for i in range(-1, posts)}  # made before: the client's work

        async def one(client: ClientSession, i: int) -> None:
            nonlocal created
            async with gate:
                t0 = time.perf_counter()
                async with client.post(url, data=_form(i, centre, photos[i])) as resp:
                    await resp.read()
                    if i >= 0:
                        times.append((time.perf_counter() - t0) * 1000)
                    created += resp.status == 201
                    if resp.status != 201 and i >= 0:
                        refused[resp.status] = refused.get(resp.status, 0) + 1
                        if len(refused) == 1 and refused[resp.status] == 1:
                            print(f"  open311 POST refused: {resp.status} "
                                  f"{(await resp.text())[:300]}", flush=True)

        async with ClientSession() as client:
            await one(client, -1)  # warm-up (not timed)
            created = 0
            t0 = time.perf_counter()
            await asyncio.gather(*[one(client, i) for i in range(posts)])
            elapsed = time.perf_counter() - t0
    finally:
        await server.close()
    return {"open311 POST": {"p50": _pct(times, 50), "p99": _pct(times, 99), "shown": 0},
            "_open311": {"rate": created / elapsed, "posts": posts,
                         "failed": posts - created, "refused": refused}}
