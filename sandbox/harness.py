"""The real bot against the local stand-ins (Bot API and Nominatim), for end-to-end tests,
the benchmark and a local sandbox::

    async with BotHarness(core) as h:          # stand-ins started, Application polling
        await h.api.send_command(maria, "denunciar")
        await h.restart()                      # stop the Application, build a new one

With `webhook_secret` the bot runs in webhook mode instead (bot.webhook on a free local port,
registered with the stand-in by setWebhook with that secret); `h.webhook` is then the
running bot.webhook.Webhook.
"""
from __future__ import annotations

import asyncio
import logging
import socket
from typing import Any, Awaitable

from telegram.ext import Application

from bot.app import build_application, start, stop
from bot.flood import FloodLimit
from bot.geocoding import Geocoder
from bot.loops import LoopSettings
from sandbox.standin.botapi import BotApiStandIn
from sandbox.standin.nominatim import NominatimStandIn
from bot.webhook import Webhook, start_webhook, stop_webhook
from core.services.context import Core

log = logging.getLogger(__name__)
#: A stop that takes longer is abandoned with a warning naming what was still running (seen
#: once in a full test run: a test's teardown waiting forever after its assertions passed).
STOP_WITHIN_S = 30.0


async def _bounded(what: str, step: Awaitable[None]) -> None:
    try:
        await asyncio.wait_for(step, STOP_WITHIN_S)
    except asyncio.TimeoutError:
        running = [t.get_coro() for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        log.warning("harness: %s did not finish within %.0f s; still running: %s", what,
                    STOP_WITHIN_S, running[:20])


class BotHarness:
    def __init__(self, core: Core, *, geocoding_timeout_s: float = 1.0,
                 album_delay_s: float = 0.3, outbox_interval_s: float = 0.1,
                 sweep_interval_s: float = 3600.0, flood: FloodLimit | None = None,
                 overall_max_rate: float = 10_000.0, webhook_secret: str | None = None,
                 **app_kwargs: Any) -> None:
        self.core = core
        self.api = BotApiStandIn()
        self.osm = NominatimStandIn()
        self.geocoding_timeout_s = geocoding_timeout_s
        self.album_delay_s = album_delay_s
        self.loops = LoopSettings(outbox_interval_s=outbox_interval_s,
                                  sweep_interval_s=sweep_interval_s)
        self.flood = flood
        self.overall_max_rate = overall_max_rate
        self.app_kwargs = app_kwargs
        self.webhook_secret = webhook_secret
        self.app: Application | None = None
        self.webhook: Webhook | None = None

    async def __aenter__(self) -> "BotHarness":
        await self.api.start()
        await self.osm.start()
        s = self.core.settings
        self.core.settings = s.model_copy(update={
            "telegram_bot_token": self.api.token, "telegram_api_url": self.api.base_url,
            "nominatim_url": self.osm.base_url, "geocoding_timeout_s": self.geocoding_timeout_s})
        await self.start_app()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await _bounded("the bot's stop", self.stop_app())
        await _bounded("the Nominatim stand-in's stop", self.osm.stop())
        await _bounded("the Bot API stand-in's stop", self.api.stop())

    async def start_app(self) -> Application:
        s = self.core.settings
        geocoder = Geocoder(s.nominatim_url, self.core.area, timeout_s=s.geocoding_timeout_s,
                            min_interval_s=0.0)
        self.app = build_application(
            self.core, s, geocoder=geocoder, loops=self.loops,
            flood=self.flood or FloodLimit(capacity=1000, rate=1000),
            overall_max_rate=self.overall_max_rate, album_delay_s=self.album_delay_s,
            updater=self.webhook_secret is None, **self.app_kwargs)
        if self.webhook_secret is None:
            await start(self.app, poll_interval=0, timeout=1)
            return self.app
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        settings = s.model_copy(update={
            "webhook_url": f"http://127.0.0.1:{sock.getsockname()[1]}/telegram",
            "webhook_secret": self.webhook_secret})
        self.webhook = await start_webhook(self.app, settings, sock=sock)
        return self.app

    async def stop_app(self) -> None:
        if self.app is None:
            return
        app, self.app = self.app, None
        hook, self.webhook = self.webhook, None
        if hook is not None:
            await stop_webhook(hook)
        else:
            await stop(app)

    async def restart(self) -> Application:
        await self.stop_app()
        return await self.start_app()
