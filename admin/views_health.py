"""The panel's operations endpoints, plain JSON without login or personal data: `/healthz`
(the process answers) and `/readyz` (core.services.installation.health: database, migrations,
periodic job, outboxes; 503 naming the failing checks), for a load balancer or a monitor; and
`/metrics` (core.services.installation.metrics), Prometheus text only to
`Authorization: Bearer <METRICS_TOKEN>`, a 404 otherwise. `metrics_middleware` times every
request (face "panel")."""
from __future__ import annotations

import time

from aiohttp import web

from admin.web import CORE, SETTINGS
from core.services.installation import metrics
from core.services.installation.health import readiness


async def healthz(_request: web.Request) -> web.Response:
    return web.json_response({"status": "ok", "face": "panel"})


async def readyz(request: web.Request) -> web.Response:
    ready = await readiness(request.app[CORE])
    return web.json_response(ready.as_json(), status=200 if ready.ok else 503)


async def metrics_page(request: web.Request) -> web.Response:
    if not metrics.allowed(request.app[SETTINGS], request.headers.get("Authorization")):
        raise web.HTTPNotFound()  # as if there were no such page
    body = await metrics.render(request.app[CORE])
    return web.Response(body=body, headers={"Content-Type": metrics.CONTENT_TYPE})


@web.middleware
async def metrics_middleware(request: web.Request, handler) -> web.StreamResponse:
    started = time.perf_counter()
    try:
        return await handler(request)
    finally:
        metrics.UPDATES.labels("panel").observe(time.perf_counter() - started)


def setup(app: web.Application) -> None:
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.router.add_get("/metrics", metrics_page)
