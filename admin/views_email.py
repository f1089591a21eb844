"""E-mail on the public face and in the panel's process: the owner leaves an address on the web
owner page (POST /publico/proprietario/email), the e-mails' one-click stop page
(/publico/email/parar/{token}: GET asks, POST stops — the POST a mail program sends for
List-Unsubscribe-Post, RFC 8058, needs no form token), and the e-mail sender's loop, started
with the panel when e-mail is enabled (core.services.messaging.email_sender)."""
from __future__ import annotations

import asyncio
import logging
from typing import AsyncIterator

from aiohttp import web

from admin import params
from admin.visitor import visitor_ip
from admin.web import CORE, SETTINGS, core_of, render
from core.services.errors import Forbidden, InvalidInput, NotFound
from core.services.messaging import email as mail
from core.services.messaging.email_sender import email_loop
from core.stopping import finish
from core.services.owners.payments import PIX_HINT
from core.services.public.access import RateLimited, hit, owner_page

log = logging.getLogger(__name__)
EMAIL_SECRET = web.AppKey("email_secret", bytes)
STOP_PREFIX = "/publico/email/parar/"


def offered(request: web.Request) -> bool:
    return mail.enabled(request.app[SETTINGS])


async def owner_email(request: web.Request) -> web.Response:
    """POST /publico/proprietario/email (codigo, placa, email, consentimento): the proven
    owner's address for the case's updates. The proof is checked again, as on every path."""
    core = core_of(request)
    form = await request.post()
    code = params.text(form.get("codigo"), "Código do caso", 40)
    answer = params.text(form.get("placa"), "Placa, chassi ou CPF/CNPJ", 40)
    typed = params.text(form.get("email"), "E-mail", 200)
    try:
        await hit(core, visitor_ip(request))
        page = await owner_page(core, visitor_ip(request), code, answer)
    except RateLimited as exc:
        return render(request, "public_message.html", {
            "title": "Muitas consultas", "message": exc.message}, status=429)
    except (InvalidInput, NotFound, Forbidden) as exc:
        status = 403 if isinstance(exc, Forbidden) else 404 if isinstance(exc, NotFound) \
            else 400
        return render(request, "public_owner.html", {"page": None, "error": exc.message},
                      status=status)
    ctx = {"page": page, "c": page.public, "pix_hint": PIX_HINT, "answer": answer,
           "email_offered": offered(request), "email_typed": typed,
           "owner_consent": mail.OWNER_CONSENT}
    if page.view is None:  # the object's proof is still to give: the form asks for it
        return render(request, "public_owner.html", ctx)
    try:
        address = await mail.add_owner_email(core, page.code, typed,
                                             form.get("consentimento") == "sim")
    except InvalidInput as exc:
        field = "consent" if exc.message == mail.NO_CONSENT else "email"
        return render(request, "public_owner.html", {
            **ctx, "email_error": exc.message, "email_error_field": field}, status=400)
    return render(request, "public_owner.html", {
        **ctx, "email_typed": "", "email_done": f"Pronto: os avisos deste caso serão enviados "
        f"para {address}. Cada e-mail traz um link para parar de recebê-los."})


async def stop_page(request: web.Request) -> web.Response:
    """GET: the stop link opened — asks to confirm (link scanners open links too)."""
    core = core_of(request)
    token = request.match_info["token"]
    try:
        page = await mail.stop_page(core, request.app[EMAIL_SECRET], token)
    except (InvalidInput, NotFound) as exc:
        return _message(request, "Link inválido", exc.message, 404)
    return render(request, "public_email_stop.html", {"p": page, "token": token})


async def stop(request: web.Request) -> web.Response:
    """POST: stop (one click, from the page's button or the mail program's List-Unsubscribe
    POST; the signed token is the authority, no form token needed)."""
    core = core_of(request)
    try:
        page = await mail.stop(core, request.app[EMAIL_SECRET], request.match_info["token"])
    except (InvalidInput, NotFound) as exc:
        return _message(request, "Link inválido", exc.message, 404)
    return render(request, "public_email_stop.html", {"p": page, "token": None})


def _message(request: web.Request, title: str, message: str, status: int) -> web.Response:
    return render(request, "public_message.html", {"title": title, "message": message},
                  status=status)


async def _sender_ctx(app: web.Application) -> AsyncIterator[None]:
    """The e-mail sender runs in the panel's process while e-mail is enabled; it stops as the
    bot's loops do (core.stopping.finish)."""
    tasks, stop = [], asyncio.Event()
    if mail.enabled(app[SETTINGS]):
        tasks.append(asyncio.create_task(email_loop(app[CORE], app[EMAIL_SECRET], stop=stop)))
        log.info("e-mail: sender started (SMTP_URL set)")
    elif app[SETTINGS].smtp_url.strip():
        log.warning("e-mail: SMTP_URL is set but PUBLIC_URL is empty: no e-mail is sent")
    yield
    await finish(tasks, stop)  # the pass under way ends (a message sent or due again)


def setup(app: web.Application) -> None:
    r = app.router
    r.add_post("/publico/proprietario/email", owner_email)
    r.add_get(STOP_PREFIX + "{token}", stop_page)
    r.add_post(STOP_PREFIX + "{token}", stop)
    app.cleanup_ctx.append(_sender_ctx)
