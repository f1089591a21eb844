"""/healthz, /readyz and /metrics on the bot: the real `python -m bot` process in polling mode
serves them on a listener of its own (BOT_HEALTH_PORT), and in webhook mode the webhook's
listener does; health in plain JSON without login, metrics only with the token. /readyz turns
unready, naming the sweep, once the periodic job has not run within READY_SWEEP_LATE_S; the
outbox depth rises during a Bot API outage and falls after it."""
from __future__ import annotations

import asyncio
import time

from aiohttp import ClientSession

from sandbox.harness import BotHarness
from tests.support.bot_chat import MARIA
from tests.support.bot_process import BotProcess
from tests.support.fault_figures import queue
from tests.support.metrics import TOKEN, samples
from tests.support.smtp import free_port

SECRET = "segredo_do-webhook_123"
DEPTH = ("vialivre_outbox_depth", (("channel", "telegram"),))


async def _metrics(http: ClientSession, base: str) -> dict:
    async with http.get(f"{base}/metrics", headers={"Authorization": f"Bearer {TOKEN}"}) as resp:
        assert resp.status == 200
        return samples(await resp.text())


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
    async with BotProcess.around(tmp_path, BOT_HEALTH_PORT=str(port), METRICS_TOKEN=TOKEN,
                                 READY_SWEEP_LATE_S="25") as bot:
        await bot.start()
        async with ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{port}/metrics") as resp:
                assert resp.status == 404
            await bot.api.send_command(MARIA, "start")
            await bot.api.wait_for(method="sendMessage", chat_id=MARIA, timeout=15)
            got = await _metrics(http, f"http://127.0.0.1:{port}")
            assert got[("vialivre_updates_handled_seconds_count", (("face", "telegram"),))] >= 1
            assert got[("vialivre_sweep_last_run_timestamp_seconds", ())] > 0
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


async def test_outbox_depth_rises_during_a_bot_api_outage_and_falls_after(make_core):
    core = await make_core(metrics_token=TOKEN)
    async with BotHarness(core, webhook_secret=SECRET) as hooked:
        base = f"http://127.0.0.1:{hooked.webhook.port}"
        async with ClientSession() as http:
            assert (await _metrics(http, base))[DEPTH] == 0
            hooked.api.fail_next("*", 502, times=20_000)  # the Bot API answers 502 to all
            await queue(core.db, [4001, 4002], 3)
            await asyncio.sleep(1.5)  # the sender tries, fails, and backs off
            during = (await _metrics(http, base))[DEPTH]
            assert during == 6
            hooked.api.clear_faults()
            deadline = time.monotonic() + 30
            while (await _metrics(http, base))[DEPTH] and time.monotonic() < deadline:
                await asyncio.sleep(0.3)
            assert (await _metrics(http, base))[DEPTH] == 0
