"""The staff panel's aiohttp application: `create_app(core)`.

Middlewares, outermost first: each request timed for the metrics (admin.views_health);
security headers; session (signed cookie → request user,
refused when the user's session version moved on); CSRF check on every POST (except the
Open311 API, which uses its API key); user errors from the core shown as a 400 message and
anything unexpected as a plain 500 page, never a stack trace; the parameter check
(admin.params: control characters and oversized values are a 400).
"""
from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import AsyncIterator

import aiohttp_jinja2
import jinja2
from aiohttp import web

from admin import filters, open311_format
from admin.kept_form import render_back
from admin.views_email import EMAIL_SECRET, STOP_PREFIX
from admin.views_health import metrics_middleware
from admin.params import params_middleware
from admin.security import (HSTS, SECURITY_HEADERS, csp, SESSION_COOKIE, SESSION_HOURS,
                            LoginThrottle, Session, Signer, load_secret, local_referer,
                            read_session)
from admin.web import (BOUND, CORE, PLACEHOLDERS, SESSION, SETTINGS, SIGNER, THROTTLE, USER,
                       city_core, render)
from core import logs
from core.services.papers import placeholders
from core.services.context import Core
from core.services.errors import USER_ERRORS, NotFound
from core.services.staff.accounts import get_user
from core.settings import Settings, get_settings

HERE = Path(__file__).resolve().parent
log = logging.getLogger(__name__)
CSRF_EXEMPT_PREFIX = "/open311/"


#: The largest request body the panel reads (photos at the counter, a city's boundary file)
MAX_BODY_MB = 12


@web.middleware
async def headers_middleware(request: web.Request, handler) -> web.StreamResponse:
    try:
        resp = await handler(request)
    except web.HTTPException as exc:
        resp = exc
        _decorate(request, resp)
        raise
    _decorate(request, resp)
    return resp


def _decorate(request: web.Request, resp: web.StreamResponse) -> None:
    for k, v in SECURITY_HEADERS.items():
        resp.headers.setdefault(k, v)
    resp.headers.setdefault("Content-Security-Policy", csp(request.app[SETTINGS].map_tile_url))
    if request.app[SETTINGS].admin_cookie_secure:  # served over HTTPS: browsers keep to it
        resp.headers.setdefault("Strict-Transport-Security", HSTS)
    if not request.path.startswith("/static/"):
        resp.headers.setdefault("Cache-Control", "no-store")
    session: Session | None = request.get(SESSION)
    if session is not None and session.fresh and not resp.prepared:
        settings = request.app[SETTINGS]
        resp.set_cookie(SESSION_COOKIE, request.app[SIGNER].sign(session.payload()),
                        httponly=True, samesite="Lax", path="/",
                        secure=settings.admin_cookie_secure, max_age=SESSION_HOURS * 3600)


@web.middleware
async def request_id_middleware(request: web.Request, handler) -> web.StreamResponse:
    """Each request's id on its log lines (core.logs): a sane incoming X-Request-Id (the
    reverse proxy's), else a new one; echoed in the answer's X-Request-Id."""
    rid = logs.new_request_id(request.headers.get("X-Request-Id"))
    token = logs.request_id.set(rid)
    started, status = time.perf_counter(), 500
    try:
        try:
            resp = await handler(request)
        except web.HTTPException as exc:
            status = exc.status
            exc.headers["X-Request-Id"] = rid
            raise
        status = resp.status
        if not resp.prepared:
            resp.headers["X-Request-Id"] = rid
        return resp
    finally:
        # the access line: the route's pattern (/publico/protocolo/{protocol}), never the path
        # or query typed (aiohttp's own access log is quietened: core.logs)
        resource = request.match_info.route.resource
        log.info("%s %s %s %.0f ms", request.method,
                 resource.canonical if resource is not None else "<no route>", status,
                 (time.perf_counter() - started) * 1000)
        logs.request_id.reset(token)


@web.middleware
async def session_middleware(request: web.Request, handler) -> web.StreamResponse:
    if request.path.startswith(("/static/", CSRF_EXEMPT_PREFIX)):
        request[SESSION] = Session(None, "", 0)
        request[USER] = None
        return await handler(request)
    session = read_session(request.app[SIGNER], request.cookies.get(SESSION_COOKIE))
    request[SESSION] = session
    user = None
    if session.user_id is not None:
        user = await get_user(request.app[CORE], session.user_id)
        if user is None or not user.active or user.session_version != session.version:
            user = None
            request[SESSION] = Session.anonymous()
    request[USER] = user
    request[BOUND] = city_core(request.app[CORE], user, request[SESSION].city)
    if user is not None and request.method == "GET":
        # The banner of what legal documents cannot print yet (depot address, tariffs).
        request[PLACEHOLDERS] = await placeholders.warnings(request[BOUND])
    if request.method == "POST" and not request.path.startswith(STOP_PREFIX):
        # (the e-mails' stop: a mail program's one-click POST, RFC 8058; its token is signed)
        try:
            form = await request.post()
        except web.HTTPRequestEntityTooLarge:
            return render(request, "error.html", {
                "title": "Envio grande demais",
                "message": f"O formulário passou do limite de {MAX_BODY_MB} MB (fotos ou "
                           "arquivo de contorno grandes demais). Volte, reduza o arquivo e "
                           "tente de novo."}, status=413)
        if not request.app[SIGNER].csrf_ok(request[SESSION].nonce, form.get("csrf")):
            return render(request, "error.html", {
                "title": "Formulário expirado ou inválido",
                "message": "Por segurança, esta ação foi recusada (token CSRF ausente ou "
                           "inválido). Volte à página, recarregue-a e tente de novo."},
                status=403)
    return await handler(request)


@web.middleware
async def errors_middleware(request: web.Request, handler) -> web.StreamResponse:
    api = request.path.startswith(CSRF_EXEMPT_PREFIX)  # Open311: the spec's error shape
    try:
        return await handler(request)
    except web.HTTPException as exc:
        if api and exc.status >= 400:
            return open311_format.http_error(request, exc)
        raise
    except USER_ERRORS as exc:
        if api:
            return open311_format.error(request, open311_format.status_of(exc), exc.message)
        # not found (another city's object too: the same answer, admin.city_guard): 404
        status = 404 if isinstance(exc, NotFound) else 400
        page = await render_back(request, exc, exc.message)  # the form kept, error inline
        if page is not None:
            return page
        back = local_referer(request)
        if request.method == "POST" and back:
            from admin.web import redirect
            raise redirect(request, back, exc.message, "error") from None
        return render(request, "error.html", {"title": "Não foi possível concluir",
                                              "message": exc.message}, status=status)
    except Exception:  # a bug: logged with its trace, the person sees a plain Portuguese page
        resource = request.match_info.route.resource  # its pattern, as the access line: a
        # path holds what was typed (/publico/protocolo/{protocol})
        log.exception("unexpected error on %s %s", request.method,
                      resource.canonical if resource is not None else "<no route>")
        if api:
            return open311_format.error(request, 500, "Erro interno.")
        return render(request, "error.html", {
            "title": "Erro interno", "message": "Algo deu errado do nosso lado. A equipe técnica "
            "foi avisada pelo registro do servidor; tente de novo mais tarde."}, status=500)


class _Compiled(jinja2.BytecodeCache):
    """The templates' compiled code, kept for the process (keyed by name, checked against the
    source's checksum by jinja): a second app in one process, as the tests make by the
    hundred, loads them instead of compiling them again."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


_COMPILED = _Compiled()


def _jinja(app: web.Application) -> None:
    env = aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(HERE / "templates"),
                               autoescape=jinja2.select_autoescape(["html"]),
                               bytecode_cache=_COMPILED)
    env.filters.update(filters.FILTERS)
    env.globals.update(filters.GLOBALS)


def create_app(core: Core | None = None, settings: Settings | None = None) -> web.Application:
    """The panel for an open `core`; without one, a cleanup context opens (and closes) a Core
    from `settings` when the app starts."""
    settings = settings or (core.settings if core else get_settings())
    app = web.Application(middlewares=[request_id_middleware, metrics_middleware,
                                       headers_middleware,
                                       session_middleware, errors_middleware, params_middleware],
                          client_max_size=MAX_BODY_MB * 1024 ** 2)
    app[SETTINGS] = settings
    secret = load_secret(settings.admin_secret_key, settings.data_dir)
    app[SIGNER] = Signer(secret)
    app[EMAIL_SECRET] = secret  # signs the e-mails' stop links (admin.views_email)
    app[THROTTLE] = LoginThrottle()
    if core is not None:
        app[CORE] = core
    else:
        app.cleanup_ctx.append(_core_ctx)
    _jinja(app)
    from admin import routes
    routes.setup(app)
    app.router.add_static("/static/", HERE / "static", name="static")
    return app


async def _core_ctx(app: web.Application) -> AsyncIterator[None]:
    core = await Core.open(app[SETTINGS])
    app[CORE] = core
    yield
    await core.close()
