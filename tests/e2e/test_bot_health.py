"""/healthz and /readyz on the bot: the real `python -m bot` process in polling mode serves
them on a listener of its own (BOT_HEALTH_PORT), and in webhook mode the webhook's listener
does; plain JSON without login. /readyz turns unready, naming the sweep, once the periodic job
has not run within READY_SWEEP_LATE_S."""
from __future__ import annotations

import asyncio
import time

from aiohttp import ClientSession

from sandbox.harness import BotHarness
from tests.support.bot_process import BotProcess
from tests.support.smtp import free_port

SECRET = "segredo_do-webhook_123"


async def _until(http: ClientSession, url: str, status: int, timeout: float = 30) -> dict:
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            async with http.get(url) as resp:
                last = (resp.status, await resp.json())
                if resp.status == status:
                    return last[1]
        except OSError:
            pass
        await asyncio.sleep(0.2)
    raise AssertionError(f"{url} never answered {status}; last {last}")


async def test_polling_bot_serves_health_on_its_own_port_and_turns_unready_when_the_sweep_is_late(
        tmp_path):
    port = free_port()
    async with BotProcess.around(tmp_path, BOT_HEALTH_PORT=str(port),
                                 READY_SWEEP_LATE_S="25") as bot:
        await bot.start()
        async with ClientSession() as http:
            health = await _until(http, f"http://127.0.0.1:{port}/healthz", 200)
            assert health == {"status": "ok", "face": "bot"}
            ready = await _until(http, f"http://127.0.0.1:{port}/readyz", 200)
            assert ready["status"] == "ready"
            # the job runs every 300 s: 25 s after its run at start-up it counts as late
            late = await _until(http, f"http://127.0.0.1:{port}/readyz", 503, timeout=40)
            assert late["failing"] == ["sweep"] and late["status"] == "unready"
            async with http.get(f"http://127.0.0.1:{port}/healthz") as resp:
                assert resp.status == 200  # the process still answers


async def test_webhook_listener_serves_health_beside_the_hook(core):
    async with BotHarness(core, webhook_secret=SECRET) as hooked:
        base = f"http://127.0.0.1:{hooked.webhook.port}"
        async with ClientSession() as http:
            assert (await _until(http, f"{base}/healthz", 200))["face"] == "bot"
            ready = await _until(http, f"{base}/readyz", 200, timeout=10)  # swept at start
            assert set(ready["checks"]) == {"database", "migrations", "sweep", "outbox"}
