"""Webhook mode: an aiohttp server receives Telegram's POSTs, checks the secret header on
every request, and queues the update for the Application (which has no Updater).

    hook = await start_webhook(application, settings)          # listen, then setWebhook
    ...
    await stop_webhook(hook)

With several workers (PostgreSQL: see README, "Vários workers") each call is answered only
once its update was handled (bot.dispatch.done), not as soon as it is queued: what a worker had
accepted when it died was never answered, and Telegram delivers it again; the processed
update ids make that redelivery harmless: it re-asks the pending question, never re-does
the step (bot/redelivery.py).

`start_webhook` takes an already bound socket too (`sock=`), so a test or a sandbox can
listen on a free port it chose itself (see sandbox.harness.BotHarness(webhook_secret=...)).
"""
from __future__ import annotations

import asyncio
import hmac
import logging
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from aiohttp import web
from telegram.ext import Application

from bot.intake import Unparsable, parse
from bot.state import state_of
from core.settings import Settings

log = logging.getLogger(__name__)
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
ALLOWED_UPDATES = ["message", "callback_query"]
HANDLED_WITHIN_S = 50.0  # with several workers, a webhook call waits this long for its update


def webhook_app(application: Application, secret: str, path: str = "/telegram") -> web.Application:
    """The aiohttp app: POST `path` with the right secret header queues the update; a
    missing or wrong secret gets 403, a body that is not an update 400 (counted and logged
    under a throttle: bot.intake), and nothing is queued."""
    if not secret:
        raise ValueError("a webhook needs a secret token")
    expected = secret.encode()
    state = state_of(application)
    unparsable: Unparsable = state.unparsable

    async def receive(request: web.Request) -> web.Response:
        # a header that is not UTF-8 arrives with its bytes escaped: compared as bytes, refused
        given = request.headers.get(SECRET_HEADER, "")
        if not hmac.compare_digest(given.encode("utf-8", "surrogateescape"), expected):
            log.warning("webhook call refused: wrong or missing secret (from %s)",
                        request.remote)
            return web.Response(status=403, text="forbidden")
        try:
            data = await request.json()
            if _too_deep(data):
                raise ValueError("nested too deep")
        except (ValueError, RecursionError):  # not JSON (nor UTF-8), or nested past reason
            unparsable.record(None, ValueError("body is not JSON"), "webhook")
            return web.Response(status=400, text="bad json")
        update = parse(data, application.bot, unparsable, "webhook")
        if update is None:  # [], "x", {} without update_id, an update PTB cannot read
            return web.Response(status=400, text="not an update")
        if not state.shared:
            await application.update_queue.put(update)
            return web.Response(text="ok")
        # Several workers (PostgreSQL): answer once the update is handled, so a worker killed
        # meanwhile leaves it unanswered and Telegram delivers it again (to another worker).
        waiters = state.webhook_waiters
        waiter = waiters.get(update.update_id)
        if waiter is None:
            waiter = waiters[update.update_id] = asyncio.get_running_loop().create_future()
        await application.update_queue.put(update)
        try:
            await asyncio.wait_for(asyncio.shield(waiter), HANDLED_WITHIN_S)
        except TimeoutError:
            log.warning("update %s still being handled: answered anyway", update.update_id)
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_post(path, receive)
    from bot.health import add_routes
    add_routes(app, lambda: state.core)  # /healthz, /readyz (and /metrics) beside the hook
    return app


#: No Telegram update nests deeper than this (a message inside a reply inside a message...).
MAX_DEPTH = 64


def _too_deep(data: object) -> bool:
    """Whether `data` nests more than MAX_DEPTH lists/objects (walked without recursion)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth > MAX_DEPTH:
                return True
            stack.extend((v, depth + 1) for v in (value.values() if isinstance(value, dict)
                                                  else value))
    return False


@dataclass
class Webhook:
    application: Application
    runner: web.AppRunner
    port: int  # the port actually listened on


async def start_webhook(application: Application, settings: Settings, *,
                        sock: socket.socket | None = None) -> Webhook:
    """Start `application` (no polling), listen on settings.webhook_listen/webhook_port (or
    on `sock`), then register settings.webhook_url with the secret (setWebhook)."""
    from bot.app import start, stop
    path = urlsplit(settings.webhook_url).path or "/telegram"
    runner = web.AppRunner(webhook_app(application, settings.webhook_secret, path))
    await start(application, polling=False)
    try:
        await runner.setup()
        site = (web.SockSite(runner, sock) if sock is not None
                else web.TCPSite(runner, settings.webhook_listen, settings.webhook_port))
        await site.start()
        port = (sock.getsockname()[1] if sock is not None
                else _bound_port(site, settings.webhook_port))
        await application.bot.set_webhook(settings.webhook_url,
                                          secret_token=settings.webhook_secret,
                                          allowed_updates=ALLOWED_UPDATES)
    except BaseException:
        await runner.cleanup()
        await stop(application)
        raise
    log.info("webhook listening on port %s%s", port, path)
    return Webhook(application, runner, port)


def _bound_port(site: web.TCPSite, default: int) -> int:
    server = getattr(site, "_server", None)
    sockets = getattr(server, "sockets", None) or ()
    return sockets[0].getsockname()[1] if sockets else default


async def stop_webhook(hook: Webhook) -> None:
    """Stop listening, then stop the Application (post_shutdown included). The webhook stays
    registered with Telegram, which keeps the updates until the bot is back."""
    from bot.app import stop
    await hook.runner.cleanup()
    await stop(hook.application)


async def serve(settings: Settings, stop_event: asyncio.Event | None = None) -> None:
    """`python -m bot` with WEBHOOK_URL set: run until `stop_event` is set (or forever)."""
    from bot.app import build_application
    from core.services.context import Core

    core = await Core.open(settings)
    try:
        hook = await start_webhook(build_application(core, settings, updater=False), settings)
        try:
            await (stop_event or asyncio.Event()).wait()
        finally:
            await stop_webhook(hook)
    finally:
        await core.close()
