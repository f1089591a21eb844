"""Login and logout, and the city an installation administrator acts as."""
from __future__ import annotations

from core.formatting import plural

import time

from aiohttp import web

from admin.security import Session, safe_next
from admin.visitor import visitor_ip
from admin.web import CORE, SESSION, THROTTLE, USER, redirect, render, require, user_of
from core.services.errors import InvalidInput
from core.services.installation.metrics import LOGINS_REFUSED
from core.services.public.access import client_key
from core.services.staff.accounts import StaffUserInfo, authenticate, change_password, end_sessions


async def login_page(request: web.Request) -> web.Response:
    if request.get(USER):
        raise web.HTTPFound("/")
    return render(request, "login.html", {"next": safe_next(request.query.get("next"))})


async def login(request: web.Request) -> web.StreamResponse:
    form = await request.post()
    username = str(form.get("username", "")).strip().lower()
    password = str(form.get("password", ""))
    nxt = safe_next(str(form.get("next", "/")))
    ip = client_key(visitor_ip(request))  # an IPv6 client by its /64, as the public limits
    throttle = request.app[THROTTLE]
    core = request.app[CORE]
    wait = await throttle.blocked_for(core, username, ip)
    if wait:
        LOGINS_REFUSED.inc()
        minutes = max(1, round(wait / 60))
        return render(request, "login.html", {
            "next": nxt, "username": username,
            "error": f"Muitas tentativas sem sucesso. Aguarde cerca de {plural(minutes, 'minuto', 'minutos')} "
                     "e tente de novo."}, status=429)
    user = await authenticate(core, username, password)
    if user is None:
        LOGINS_REFUSED.inc()
        await throttle.failed(core, username, ip)
        return render(request, "login.html", {"next": nxt, "username": username,
                                              "error": "Usuário ou senha incorretos."},
                      status=401)
    await throttle.succeeded(core, username, ip)
    # A new nonce at login: a token planted before login is worthless afterwards.
    _sign_in(request, user)
    raise web.HTTPFound(nxt)


def _sign_in(request: web.Request, user: StaffUserInfo) -> None:
    """A new session (new nonce) for `user`, at the user's current session version."""
    city = request[SESSION].city if request.get(SESSION) is not None else None
    session = Session.anonymous()
    session.user_id, session.issued = user.id, time.time()
    session.version, session.city = user.session_version, city
    request[SESSION] = session
    request[USER] = user


async def logout(request: web.Request) -> web.StreamResponse:
    """Ends the session server-side: the user's session version is raised, so this cookie —
    and any copy of it — is refused from now on."""
    user = request.get(USER)
    if user is not None:
        await end_sessions(request.app[CORE], user.id)
    request[SESSION] = Session.anonymous()
    request[USER] = None
    raise redirect(request, "/login", "Você saiu do painel.")


@require()
async def password_page(request: web.Request) -> web.Response:
    return render(request, "password.html", {})


@require()
async def password_change(request: web.Request) -> web.StreamResponse:
    """The user's own password; every other session of the user ends, this one goes on."""
    form = await request.post()
    user = await change_password(request.app[CORE], request[USER].id,
                                 str(form.get("current", "")), str(form.get("new", "")),
                                 str(form.get("repeat", "")))
    _sign_in(request, user)
    raise redirect(request, "/", "Senha alterada. As outras sessões abertas com a sua conta "
                                 "foram encerradas.")


#: The pages a city switch may return to (the menu's): an object page of the previous city
#: would only say "não encontrado".
MENU = ("/", "/casos", "/balcao", "/fila", "/diario-oficial", "/patio", "/indicadores",
        "/entregas", "/fotos", "/lgpd/pedidos", "/fiscais", "/tarifas", "/usuarios")


@require()
async def switch_city(request: web.Request) -> web.StreamResponse:
    """An installation administrator chooses the city they act as (header selector, POST
    with CSRF); kept in the signed session. A city's own account has no choice to make."""
    user = user_of(request)
    if not user.is_installation_admin:
        return render(request, "forbidden.html", {}, status=403)
    form = await request.post()
    chosen = request.app[CORE].city_named(str(form.get("municipio", "")))
    if chosen is None or not chosen.active:
        raise InvalidInput("Município desconhecido: escolha um dos municípios da lista.")
    session: Session = request[SESSION]
    session.city, session.fresh = chosen.slug, True
    back = safe_next(str(form.get("voltar", "/")))
    back = back if back in MENU else "/"
    raise redirect(request, back, f"Agora você está agindo como {chosen.label}.")
