"""The staff panel the sandbox serves itself (admin.app over the sandbox's own Core): the same
database and, above all, the same demo clock as the chat, so a case the demo clock moved into
the depot is released in the panel on the demo date (a panel on the real clock would count the
fees before the car was collected).

Also the demo values the sandbox's database carries so the whole case can be walked: a demo
PIX key (sandbox settings only, when the .env names none) and demo tariffs in place of the law
module's reference values (Dores Art. 9º, II; Dracena Art. 7º: the city sets them; with a
reference value in force the owner is offered no PIX and the panel refuses the release). Both
say they are demonstration values wherever a person reads them.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass

from aiohttp import web

from core.services.context import Core
from core.services.owners.payments import pix_configured
from core.services.papers.placeholders import placeholder_tariffs
from core.services.staff.accounts import list_users
from core.services.staff.calendar import add_tariff
from core.services.staff.common import today
from core.settings import Settings

log = logging.getLogger(__name__)

#: The sandbox's PIX receiver when the .env names none: a reserved documentation domain
#: (RFC 2606), so no bank account answers to it.
DEMO_PIX = {"pix_key": "demonstracao@example.com",
            "pix_merchant_name": "VIA LIVRE DEMONSTRACAO",
            "pix_merchant_city": "DEMONSTRACAO"}
DEMO_TARIFF_SOURCE = ("Valor de demonstração do sandbox — não é uma tarifa oficial (a "
                      "Prefeitura cadastra a sua em Tarifas)")


def with_demo_pix(settings: Settings) -> Settings:
    """`settings` with the demo PIX receiver, unless the .env already names one."""
    if pix_configured(settings) or any(getattr(settings, k) for k in DEMO_PIX):
        return settings
    return settings.model_copy(update=DEMO_PIX)


async def demo_tariffs(core: Core, username: str) -> list[str]:
    """Give each fee still at the law module's reference value a demo value from today on (the
    same amount, its source saying it is a demonstration), entered by the demo panel account
    through the panel's own service (core.services.staff.calendar.add_tariff); the labels."""
    users = {u.username: u for u in await list_users(core)}
    by = users.get(username)
    labels = await placeholder_tariffs(core)
    if by is None or not labels:
        return []
    for seed in core.law.tariffs:
        if seed.label in labels and seed.currency == "BRL":
            await add_tariff(core, seed.code, seed.amount, today(core), seed.article,
                             DEMO_TARIFF_SOURCE, by)
    return labels


@dataclass
class Panel:
    """The panel being served (runner None: the port was taken, another process serves it)."""

    runner: web.AppRunner | None
    address: str

    async def close(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None


async def serve_panel(core: Core) -> Panel:
    """Serve the panel of `core` on ADMIN_HOST:ADMIN_PORT (0: a free port); its login address.
    A port already taken (a `python -m admin` of this DATA_DIR) leaves that one serving."""
    from admin.app import create_app

    settings = core.settings
    host = settings.admin_host if settings.admin_host not in ("0.0.0.0", "::", "") \
        else "127.0.0.1"
    runner = web.AppRunner(create_app(core), access_log=None, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, settings.admin_host, settings.admin_port)
    try:
        await site.start()
    except OSError as exc:
        log.info("panel port %s taken (%s): not serving it", settings.admin_port, exc)
        await runner.cleanup()
        return Panel(None, f"http://{host}:{settings.admin_port}/login")
    port = settings.admin_port
    for address in runner.addresses:
        if isinstance(address, tuple) and len(address) >= 2:
            port = address[1]
            break
    return Panel(runner, f"http://{host}:{port}/login")
