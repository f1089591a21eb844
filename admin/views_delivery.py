"""Messages that did not reach their person: the dead-letter page and its re-send button
(the rules and queries are core.services.messaging.delivery; this module only renders)."""
from __future__ import annotations

from aiohttp import web

from admin.city_guard import visible_dead_letters
from admin.web import core_of, redirect, render, require, user_of
from core.services.messaging import delivery
from core.services.staff.scope import only_here


@require()
async def dead_letters_page(request: web.Request) -> web.Response:
    core = core_of(request)
    return render(request, "delivery.html", {
        "rows": await visible_dead_letters(request, core),
        "untold": await only_here(core, await delivery.untold_cases(core))})


@require()
async def resend(request: web.Request) -> web.StreamResponse:
    await delivery.resend(core_of(request), int(request.match_info["id"]),
                          user_of(request).username)
    raise redirect(request, "/entregas",
                   "Mensagem colocada de novo na fila de envio; ela sai em instantes.")


@require()
async def resend_email(request: web.Request) -> web.StreamResponse:
    await delivery.resend_email(core_of(request), int(request.match_info["id"]),
                                user_of(request).username)
    raise redirect(request, "/entregas",
                   "E-mail colocado de novo na fila de envio; ele sai em instantes.")
