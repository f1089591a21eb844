"""Webhook mode: an aiohttp server receives Telegram's POSTs, checks the secret header on
every request, and queues the update for the Application (which has no Updater)."""
from __future__ import annotations

import asyncio
import hmac
import logging
from urllib.parse import urlsplit

from aiohttp import web
from telegram import Update
from telegram.ext import Application

from core.settings import Settings

log = logging.getLogger(__name__)
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


def webhook_app(application: Application, secret: str, path: str = "/telegram") -> web.Application:
    async def receive(request: web.Request) -> web.Response:
        given = request.headers.get(SECRET_HEADER, "")
        if not hmac.compare_digest(given.encode(), secret.encode()):
            return web.Response(status=403, text="forbidden")
        try:
            data = await request.json()
        except ValueError:
            return web.Response(status=400, text="bad json")
        await application.update_queue.put(Update.de_json(data, application.bot))
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_post(path, receive)
    return app


async def serve(settings: Settings, stop: asyncio.Event | None = None) -> None:
    from bot.app import build_application, start, stop
    from core.services.context import Core

    core = await Core.open(settings)
    application = build_application(core, settings, updater=False)
    path = urlsplit(settings.webhook_url).path or "/telegram"
    runner = web.AppRunner(webhook_app(application, settings.webhook_secret, path))
    await start(application, polling=False)
    try:
        await application.bot.set_webhook(settings.webhook_url,
                                          secret_token=settings.webhook_secret,
                                          allowed_updates=["message", "callback_query"])
        await runner.setup()
        await web.TCPSite(runner, settings.webhook_listen, settings.webhook_port).start()
        log.info("webhook listening on %s:%s%s", settings.webhook_listen,
                 settings.webhook_port, path)
        await (stop or asyncio.Event()).wait()
    finally:
        await runner.cleanup()
        await stop(application)
        await core.close()
