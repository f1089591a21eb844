"""Login and logout."""
from __future__ import annotations

import time

from aiohttp import web

from admin.security import Session
from admin.web import CORE, SESSION, THROTTLE, USER, redirect, render
from core.services.staff import authenticate


def _client_ip(request: web.Request) -> str:
    return request.remote or "?"


def _safe_next(value: str | None) -> str:
    value = value or "/"
    return value if value.startswith("/") and not value.startswith("//") else "/"


async def login_page(request: web.Request) -> web.Response:
    if request.get(USER):
        raise web.HTTPFound("/")
    return render(request, "login.html", {"next": _safe_next(request.query.get("next"))})


async def login(request: web.Request) -> web.StreamResponse:
    form = await request.post()
    username = str(form.get("username", "")).strip().lower()
    password = str(form.get("password", ""))
    nxt = _safe_next(str(form.get("next", "/")))
    ip = _client_ip(request)
    throttle = request.app[THROTTLE]
    wait = throttle.blocked_for(username, ip)
    if wait:
        minutes = max(1, round(wait / 60))
        return render(request, "login.html", {
            "next": nxt, "username": username,
            "error": f"Muitas tentativas sem sucesso. Aguarde cerca de {minutes} minuto(s) "
                     "e tente de novo."}, status=429)
    user = await authenticate(request.app[CORE], username, password)
    if user is None:
        throttle.failed(username, ip)
        return render(request, "login.html", {"next": nxt, "username": username,
                                              "error": "Usuário ou senha incorretos."},
                      status=401)
    throttle.succeeded(username, ip)
    # A new nonce at login: a token planted before login is worthless afterwards.
    session = Session.anonymous()
    session.user_id, session.issued = user.id, time.time()
    request[SESSION] = session
    request[USER] = user
    raise web.HTTPFound(nxt)


async def logout(request: web.Request) -> web.StreamResponse:
    request[SESSION] = Session.anonymous()
    request[USER] = None
    raise redirect(request, "/login", "Você saiu do painel.")
