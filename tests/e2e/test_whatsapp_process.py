"""`python -m bot` with the WhatsApp settings and no Telegram token: the real process serves
the webhook at /whatsapp/webhook on WHATSAPP_WEBHOOK_PORT, answers the handshake, greets a
person who writes through the strict stand-in, and ends on SIGTERM with no error line."""
from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys

import aiohttp

from sandbox.standin.whatsapp.server import WhatsAppStandIn
from tests.support.bot_process import ROOT
from tests.support.whatsapp import options

MARIA = "5537999990001"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_the_bot_process_serves_whatsapp_alone(tmp_path):
    port, health = _free_port(), _free_port()
    url = f"http://127.0.0.1:{port}/whatsapp/webhook"
    async with WhatsAppStandIn(webhook_url=url) as wa:
        env = {**os.environ, "TELEGRAM_BOT_TOKEN": "", "DATABASE_URL": "",
               "DATA_DIR": str(tmp_path), "MUNICIPALITY": "dores-do-indaia",
               "WHATSAPP_PHONE_NUMBER_ID": wa.phone_number_id,
               "WHATSAPP_ACCESS_TOKEN": wa.token, "WHATSAPP_APP_SECRET": wa.app_secret,
               "WHATSAPP_VERIFY_TOKEN": "verifica", "WHATSAPP_GRAPH_URL": wa.graph_url,
               "WHATSAPP_WEBHOOK_PORT": str(port), "NOMINATIM_URL": "http://127.0.0.1:9",
               "BOT_HEALTH_PORT": str(health)}
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=ROOT, env=env, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        try:
            ready = False
            for _ in range(600):  # migrated and listening (a loaded machine: up to a minute)
                try:
                    ready = (await wa.verify(url, "verifica"))["status"] == 200
                except OSError:
                    pass
                if ready or proc.returncode is not None:
                    break
                await asyncio.sleep(0.1)
            assert ready, "the webhook never answered the handshake"
            assert (await wa.verify(url, "errado"))["status"] == 403
            delivery = await wa.user_text(MARIA, "Oi", name="Maria")
            assert delivery.statuses == [200]
            sent = wa.sent_to(MARIA)
            assert "Olá, Maria!" in (sent[0].text or "")
            assert any("Veículo motorizado" in t for t in options(sent[-1]).values())
            async with aiohttp.ClientSession() as http:  # the operations listener too
                async with http.get(f"http://127.0.0.1:{health}/healthz") as r:
                    assert r.status == 200 and (await r.json())["status"] == "ok"
        finally:
            proc.send_signal(signal.SIGTERM)
            out, _ = await asyncio.wait_for(proc.communicate(), 20)
        log = out.decode()
        assert proc.returncode == 0, log
        assert "Traceback" not in log and " ERROR " not in log, log
