"""The bot's operations endpoints, plain JSON without login or personal data: `/healthz` (the
process answers) and `/readyz` (core.services.installation.health: database, migrations,
periodic job, outboxes; 503 naming the failing checks); and `/metrics`
(core.services.installation.metrics), Prometheus text only to
`Authorization: Bearer <METRICS_TOKEN>`, a 404 otherwise. In webhook mode they are served by the
webhook's listener (bot.webhook); in polling mode by a small listener of the bot's own on
BOT_HEALTH_LISTEN:BOT_HEALTH_PORT (`start_listener`), when that port is set.

    listener = await start_listener(core, settings)     # None when BOT_HEALTH_PORT=0
    ...
    await listener.cleanup()
"""
from __future__ import annotations

import logging
from typing import Callable

from aiohttp import web

from core.services.context import Core
from core.services.installation import metrics
from core.services.installation.health import readiness
from core.settings import Settings

log = logging.getLogger(__name__)


def add_routes(app: web.Application, core_of: Callable[[], Core]) -> None:
    """/healthz and /readyz on `app`, reading the installation `core_of()` gives."""

    async def healthz(_request: web.Request) -> web.Response:
        return web.json_response({"status": "ok", "face": "bot"})

    async def readyz(_request: web.Request) -> web.Response:
        ready = await readiness(core_of())
        return web.json_response(ready.as_json(), status=200 if ready.ok else 503)

    async def metrics_page(request: web.Request) -> web.Response:
        core = core_of()
        if not metrics.allowed(core.settings, request.headers.get("Authorization")):
            raise web.HTTPNotFound()  # as if there were no such page
        return web.Response(body=await metrics.render(core),
                            headers={"Content-Type": metrics.CONTENT_TYPE})

    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.router.add_get("/metrics", metrics_page)


async def start_listener(core: Core, settings: Settings) -> web.AppRunner | None:
    """Polling mode: serve the endpoints on BOT_HEALTH_LISTEN:BOT_HEALTH_PORT (none at 0)."""
    if not settings.bot_health_port:
        return None
    app = web.Application()
    add_routes(app, lambda: core)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, settings.bot_health_listen, settings.bot_health_port).start()
    except BaseException:
        await runner.cleanup()
        raise
    log.info("health listener on %s:%s", settings.bot_health_listen, settings.bot_health_port)
    return runner
