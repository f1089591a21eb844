"""The WhatsApp face as one running piece: the webhook at /whatsapp/webhook on its own
listener (WHATSAPP_WEBHOOK_LISTEN:WHATSAPP_WEBHOOK_PORT), the citizen's conversation behind it,
and the outbox's WhatsApp sender. `python -m bot` starts it whenever the WhatsApp settings are
set, beside the Telegram face or alone; the tests start it on a free port.

    face = await WhatsAppFace.start(core, geocoder, port=0)
    ... face.url ...
    await face.stop()
"""
from __future__ import annotations

import asyncio
import logging
from contextlib import suppress

from aiohttp import ClientSession, ClientTimeout, web

from core.services.context import Core
from core.services.geocoding import Geocoder
from whatsapp import sender, webhook
from whatsapp.citizen import CitizenFace
from whatsapp.graph import Graph

log = logging.getLogger(__name__)


class WhatsAppFace:
    def __init__(self, core: Core, geocoder: Geocoder) -> None:
        self.core, self.geocoder = core, geocoder
        self.runner: web.AppRunner | None = None
        self.session: ClientSession | None = None
        self.tasks: list[asyncio.Task] = []
        self.wake = asyncio.Event()
        self.stopping = asyncio.Event()
        self.url = ""

    @classmethod
    async def start(cls, core: Core, geocoder: Geocoder, *, host: str | None = None,
                    port: int | None = None) -> WhatsAppFace:
        face = cls(core, geocoder)
        await face._start(host or core.settings.whatsapp_webhook_listen,
                          core.settings.whatsapp_webhook_port if port is None else port)
        return face

    async def _start(self, host: str, port: int) -> None:
        s = self.core.settings
        self.session = ClientSession(timeout=ClientTimeout(total=30))
        graph = Graph(self.session, s.whatsapp_phone_number_id, s.whatsapp_access_token,
                      s.whatsapp_graph_url)
        self.citizen = CitizenFace(self.core, graph, self.geocoder)
        app = web.Application()

        async def receive(messages: list[webhook.Inbound],
                          statuses: list[webhook.Status]) -> None:
            await self.citizen.receive(messages, statuses)
            if messages:
                self.wake.set()  # a person wrote: their waiting updates may go now

        webhook.routes(app, app_secret=s.whatsapp_app_secret,
                       verify_token=s.whatsapp_verify_token, receive=receive)
        self.runner = web.AppRunner(app, access_log=None, shutdown_timeout=2)
        await self.runner.setup()
        await web.TCPSite(self.runner, host, port).start()
        bound_host, bound_port = self.runner.addresses[0][:2]
        self.url = f"http://{bound_host}:{bound_port}{webhook.PATH}"
        self.tasks.append(asyncio.get_running_loop().create_task(
            sender.run(self.core, graph, self.wake, self.stopping), name="whatsapp-outbox"))
        log.info("WhatsApp webhook listening on %s:%s", bound_host, bound_port)

    async def stop(self) -> None:
        """The listener closed first (no message half taken), then the sender's pass ends."""
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None
        self.stopping.set()
        if self.tasks:
            _, late = await asyncio.wait(self.tasks, timeout=10)
            for task in late:
                task.cancel()
            for task in self.tasks:
                with suppress(asyncio.CancelledError):
                    await task
        self.tasks.clear()
        if self.session is not None:
            await self.session.close()
            self.session = None
