"""WhatsApp throughput: N simulated citizens complete reports concurrently through the Cloud
API stand-in and the real WhatsApp face (whatsapp.app: signed webhooks over HTTP, the core's
conversation, real SQLite, real evidence store, the Graph client's sends), beside the same
stand-in driving a bare aiohttp echo face (signature checked, one text sent back). Prints
updates/s, reports/s, per-update p50/p99 latency (from the webhook sent to its answer), the
ratio to the echo face, and the updates lost (must be 0: every report has its protocol).

    python -m benchmarks.whatsapp_bench [--quick]
"""
from __future__ import annotations

import asyncio
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

from aiohttp import ClientSession, web
from PIL import Image
from sqlalchemy import func, select

from bot.geocoding import Geocoder
from core.services.context import Core
from core.settings import Settings
from core.storage.models import Case
from sandbox.standin.nominatim import NominatimStandIn, default_gazetteer
from sandbox.standin.whatsapp.server import WhatsAppStandIn
from whatsapp import webhook
from whatsapp.app import WhatsAppFace
from whatsapp.graph import Graph
from whatsapp.sender import text_message

CENTRE = (-19.4628, -45.6003)
UPDATES = 12  # a report's messages, from "Oi" to "Confirmar"


def _jpeg(i: int) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (80, 60), (i * 41 % 256, 80, 120)).save(buf, "JPEG")
    return buf.getvalue()


async def _tap(wa: WhatsAppStandIn, wa_id: str, label: str) -> None:
    for sent in reversed(wa.sent_to(wa_id)):
        inter = sent.body.get("interactive", {}) if sent.type == "interactive" else {}
        action = inter.get("action", {})
        for b in action.get("buttons", []):
            if label in b["reply"]["title"]:
                await wa.user_button_reply(wa_id, b["reply"]["id"], context=sent.id)
                return
        for section in action.get("sections", []):
            for row in section["rows"]:
                if label in row["title"] + row.get("description", ""):
                    await wa.user_list_reply(wa_id, row["id"], context=sent.id)
                    return
    raise LookupError(label)


async def _citizen(wa: WhatsAppStandIn, i: int, lat: list[float],
                   at: tuple[float, float] | None = None) -> bool:
    wa_id = f"55379{i:08d}"
    # ~110 m apart on a grid, so no report is offered as a duplicate of another
    la, lo = at or (CENTRE[0] + (i // 20) * 0.001, CENTRE[1] + (i % 20) * 0.001)
    steps = [lambda: wa.user_text(wa_id, "Oi"), lambda: _tap(wa, wa_id, "Veículo motorizado"),
             lambda: wa.user_image(wa_id, _jpeg(i)), lambda: _tap(wa, wa_id, "Pronto"),
             lambda: wa.user_location(wa_id, la, lo), lambda: wa.user_text(wa_id, "ABC1D23"),
             lambda: wa.user_text(wa_id, "prata"), lambda: _tap(wa, wa_id, "Pular"),
             lambda: _tap(wa, wa_id, "Mais de 30 dias"), lambda: _tap(wa, wa_id, "Continuar"),
             lambda: wa.user_text(wa_id, "perto da escola"),
             lambda: _tap(wa, wa_id, "Confirmar")]
    for step in steps:
        t0 = time.perf_counter()
        await step()
        lat.append(time.perf_counter() - t0)
    return "Protocolo:" in (wa.sent_to(wa_id)[-1].text or "")


async def _reports(n: int, data_dir: Path) -> tuple[float, list[float], int, int, float]:
    async with WhatsAppStandIn() as wa, NominatimStandIn(default_gazetteer()) as osm:
        settings = Settings(_env_file=None, data_dir=data_dir,
                            whatsapp_phone_number_id=wa.phone_number_id,
                            whatsapp_access_token=wa.token, whatsapp_app_secret=wa.app_secret,
                            whatsapp_graph_url=wa.graph_url, nominatim_url=osm.base_url,
                            whatsapp_webhook_port=0)
        core = await Core.open(settings)
        geocoder = Geocoder(osm.base_url, core.area, min_interval_s=0)
        face = await WhatsAppFace.start(core, geocoder, port=0)
        wa.webhook_url = face.url
        try:
            await _citizen(wa, 10_000, [], at=(CENTRE[0] - 0.018, CENTRE[1]))  # warm-up
            lat: list[float] = []
            t0 = time.perf_counter()
            done = await asyncio.gather(*[_citizen(wa, i, lat) for i in range(n)])
            elapsed = time.perf_counter() - t0
            async with core.db.read() as s:
                cases = await s.scalar(select(func.count()).select_from(Case))
            lost = (n + 1 - (cases or 0)) + done.count(False)
            sends = sum(1 for x in wa.sent if x.to.startswith("55379")) / ((n + 1) * UPDATES)
            return elapsed, lat, len(lat), lost, sends
        finally:
            await face.stop()
            await geocoder.close()
            await core.close()


async def _echo_rate(n: int, per_user: int) -> float:
    """A bare echo face: the signature checked, the text sent back through the Graph API."""
    async with WhatsAppStandIn() as wa, ClientSession() as http:
        graph = Graph(http, wa.phone_number_id, wa.token, wa.graph_url)

        async def echo(messages: list[webhook.Inbound], _statuses) -> None:
            for m in messages:
                await graph.send(text_message(m.wa_id, m.text or ""))

        app = web.Application()
        webhook.routes(app, app_secret=wa.app_secret, verify_token="x", receive=echo)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        host, port = runner.addresses[0][:2]
        wa.webhook_url = f"http://{host}:{port}{webhook.PATH}"
        try:
            async def user_loop(i: int) -> int:
                for k in range(per_user):
                    await wa.user_text(f"55119{i:08d}", f"eco {k}")
                return per_user

            await asyncio.gather(*[wa.user_text(f"55119{i:08d}", "aquecimento")
                                   for i in range(n)])
            t0 = time.perf_counter()
            total = sum(await asyncio.gather(*[user_loop(i) for i in range(n)]))
            return total / (time.perf_counter() - t0)
        finally:
            await runner.cleanup()


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def run(quick: bool) -> list[str]:
    """Medians of interleaved rounds: the machine is shared and one round is noisy."""
    n, rounds = (8, 1) if quick else (40, 3)
    rates, lats, echoes, lost, per = [], [], [], 0, []
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as tmp:
            elapsed, lat, updates, missing, sends_per = await _reports(n, Path(tmp))
        per.append(sends_per)
        rates.append(updates / elapsed)
        lats += lat
        lost += missing
        echoes.append(await _echo_rate(n, UPDATES))
    rate, echo, sends = (statistics.median(x) for x in (rates, echoes, per))
    ratio = rate / echo
    return [
        f"whatsapp: {n} citizens completing reports, {rounds} round(s): {rate:.0f} updates/s "
        f"= {rate / UPDATES:.1f} reports/s (median; {UPDATES} webhooks a report)",
        f"whatsapp: per-update latency p50 {statistics.median(lats) * 1000:.1f} ms, "
        f"p99 {_pct(lats, 0.99) * 1000:.1f} ms",
        f"whatsapp: bare aiohttp echo face, same stand-in: {echo:.0f} updates/s",
        f"whatsapp: ratio report flow / bare echo = {ratio:.2f} (a report's webhook makes "
        f"{sends:.1f} sends and a read receipt, each answered by status webhooks; an echo's "
        "makes one send)",
        f"whatsapp: updates lost {lost} ({'PASS' if lost == 0 else 'FAIL'}: must be 0)",
    ]


if __name__ == "__main__":
    for line in asyncio.run(run("--quick" in sys.argv)):
        print(line)
