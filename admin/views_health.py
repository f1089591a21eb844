"""The panel's operations endpoints, plain JSON without login or personal data: `/healthz`
(the process answers) and `/readyz` (core.services.installation.health: database, migrations,
periodic job, outboxes; 503 naming the failing checks), for a load balancer or a monitor."""
from __future__ import annotations

from aiohttp import web

from admin.web import CORE
from core.services.installation.health import readiness


async def healthz(_request: web.Request) -> web.Response:
    return web.json_response({"status": "ok", "face": "panel"})


async def readyz(request: web.Request) -> web.Response:
    ready = await readiness(request.app[CORE])
    return web.json_response(ready.as_json(), status=200 if ready.ok else 503)


def setup(app: web.Application) -> None:
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
