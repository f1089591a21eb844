"""Shared pieces of the panel's handlers: typed app keys, the current user and the city the
request acts for, role checks, flash messages and rendering.

No city sees another's: every request runs with a Core bound to one city (`core_of`): the
user's own, or for an installation administrator (a panel account without a city) the one
chosen in the header, kept in the signed session (default: the first city by name). Before a
handler runs, an object named in its URL or form that belongs to another city is answered
exactly as a missing one (admin.city_guard)."""
from __future__ import annotations

import functools
from typing import Any, Awaitable, Callable
from urllib.parse import quote

import aiohttp_jinja2
from aiohttp import web

from admin.security import FLASH_COOKIE, LoginThrottle, Session, Signer
from core.services.context import Core
from core.services.staff.accounts import StaffUserInfo
from core.settings import Settings

CORE = web.AppKey("core", Core)
SETTINGS = web.AppKey("settings", Settings)
SIGNER = web.AppKey("signer", Signer)
THROTTLE = web.AppKey("throttle", LoginThrottle)

USER = web.RequestKey("vl_user", StaffUserInfo)  # None when anonymous
BOUND = web.RequestKey("vl_city_core", Core)  # the Core bound to the request's city
SESSION = web.RequestKey("vl_session", Session)
PLACEHOLDERS = web.RequestKey("vl_placeholders", list)  # core.services.papers.placeholders.warnings
KEPT = web.RequestKey("vl_kept_form", object)  # admin.kept_form.KeptForm: a refused form

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def core_of(request: web.Request) -> Core:
    """The installation bound to the city this request acts for (admin.web's docstring)."""
    return request.get(BOUND) or request.app[CORE]


def city_core(core: Core, user: StaffUserInfo | None, chosen: str | None) -> Core:
    """The Core a request of `user` acts with: the user's city; for an installation
    administrator, the served city `chosen` in the header, else the first by name. Anonymous:
    the installation's own Core (the public pages choose their city themselves)."""
    if user is None:
        return core
    if user.municipality is not None:
        return core.for_city(user.municipality)
    served = {c.slug: c for c in core.cities}
    if chosen in served:
        return core.for_city(served[chosen])
    return core.for_city(core.cities[0]) if core.cities else core


def user_of(request: web.Request) -> StaffUserInfo | None:
    return request.get(USER)


def require(role: str = "staff") -> Callable[[Handler], Handler]:
    """Anonymous → login page; a staff user on an admin page → 403."""

    def deco(handler: Handler) -> Handler:
        @functools.wraps(handler)
        async def wrapped(request: web.Request) -> web.StreamResponse:
            user = user_of(request)
            if user is None:
                back = request.path_qs if len(request.path_qs) <= 1000 else request.path
                if request.method == "GET" and len(back) <= 1000:
                    raise web.HTTPFound(f"/login?next={quote(back, safe='')}")
                raise web.HTTPFound("/login")
            if role == "admin" and not user.is_admin:
                return render(request, "forbidden.html", {}, status=403)
            from admin.city_guard import guard
            await guard(request)  # another city's object: as a missing one
            return await handler(request)

        wrapped.required_role = role  # type: ignore[attr-defined]
        return wrapped

    return deco


def flash(response: web.StreamResponse, request: web.Request, text: str,
          kind: str = "ok") -> web.StreamResponse:
    token = request.app[SIGNER].sign({"m": text[:500], "k": kind})
    response.set_cookie(FLASH_COOKIE, token, httponly=True, samesite="Lax", path="/",
                        secure=request.app[SETTINGS].admin_cookie_secure)
    return response


def redirect(request: web.Request, location: str, message: str | None = None,
             kind: str = "ok") -> web.HTTPFound:
    resp = web.HTTPFound(location)
    if message:
        flash(resp, request, message, kind)
    return resp


def city_choices(core) -> list[tuple[str, str, bool]]:
    """(slug, "Dracena (SP)", is the city acted for) of every city served, for a selector."""
    return [(c.slug, c.label, core.municipality == c.slug) for c in core.cities]


def render(request: web.Request, template: str, context: dict[str, Any],
           status: int = 200) -> web.Response:
    session: Session = request[SESSION]
    core, user = core_of(request), user_of(request)
    ctx = {"user": user, "csrf": request.app[SIGNER].csrf_token(session.nonce),
           "law": core.law, "path": request.path, "city": core.city,
           "many_cities": core.many_cities, "city_choices": city_choices(core)
           if user is not None and user.is_installation_admin else (),
           "placeholder_warnings": request.get(PLACEHOLDERS, []), **context}
    flashed = request.app[SIGNER].unsign(request.cookies.get(FLASH_COOKIE))
    if flashed:
        ctx["flash"] = flashed
    kept = request.get(KEPT)
    if kept is not None:  # a refused form rendered again (admin.kept_form)
        ctx["kept"] = kept
        ctx["flash"] = {"k": "error", "m": next(iter(kept.errors.values()), "")}
    resp = aiohttp_jinja2.render_template(template, request, ctx, status=status)
    if flashed:
        resp.del_cookie(FLASH_COOKIE, path="/")
    return resp
