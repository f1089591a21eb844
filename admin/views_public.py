"""The public face, without login (paths under /publico): the transparency map and list, the
open data (GeoJSON), a case's status page and the owner's page. The rules (what is public,
the rate limit, the owner's cool-down) are in core.services.public.map and public_access; this
module parses, calls and renders.

Each city's pages live under /publico/<city>/ (its slug); serving more than one city, /publico
lists them (core.services.public.cities) and the old un-prefixed status links (e-mails, printed
papers) find the protocol in any city and redirect to its city's page. Serving one city, the
un-prefixed addresses are its pages, as they always were. The owner's page is installation-wide
(the case code finds the case in any city)."""
from __future__ import annotations

import functools
import json
from urllib.parse import quote

from aiohttp import web

from admin import params
from admin.files import FILE_CSP, file_response
from admin.visitor import visitor_ip
from admin.web import SETTINGS, Handler, core_of, render
from core.services.context import Core
from core.services.public import map as pub
from core.services.errors import Forbidden, InvalidInput, NotFound
from core.services.messaging.email import OWNER_CONSENT, enabled as email_enabled
from core.services.owners.payments import PIX_HINT
from core.services.public.case import public_base
from core.services.public.access import RateLimited, hit, owner_page
from core.services.public.cities import UNKNOWN_CITY, city_core, city_of_protocol, served_cities

#: A city's part of an address: its slug (lower-case letters, digits, dashes).
CITY_SLUG = "[a-z0-9][a-z0-9-]{0,59}"

PREFIX = "/publico"
CHOOSE_CITY = "Escolha o município na lista dos municípios atendidos."


class _NoCity(Exception):
    """A city's page asked without a city while the installation serves several."""


def _city(request: web.Request) -> Core:
    """The installation acting for the city the path names (/publico/<city>/…); without one,
    the only city served. NotFound for an unknown city; _NoCity when several are served."""
    core, slug = core_of(request), request.match_info.get("city")
    if slug is not None:
        return city_core(core, slug)
    if core.many_cities:
        raise _NoCity()
    return core


def _base(request: web.Request, core: Core | None = None) -> str:
    """Where the page's city lives: as the address says, else as the city's links say."""
    slug = request.match_info.get("city")
    if slug is not None:
        return f"{PREFIX}/{slug}"
    return public_base(core) if core is not None else PREFIX


def page(request: web.Request, template: str, context: dict, core: Core | None = None,
         status: int = 200) -> web.Response:
    """A public page: `core` (bound to the page's city) gives its name and law; without it,
    the only city served, or (serving several) the installation's names."""
    app_core = core_of(request)
    if core is None and not app_core.many_cities:
        core = app_core
    ctx = {"base": _base(request, core), "many": app_core.many_cities,
           "city": core.city if core is not None else None,
           "cities_named": app_core.cities_named(), **context}
    if core is not None:
        ctx["law"] = core.law
    return render(request, template, ctx, status=status)


def _missing(request: web.Request, title: str, message: str) -> web.Response:
    return page(request, "public_message.html", {"title": title, "message": message},
                status=404)


def public_pages(handler: Handler) -> Handler:
    """An unknown city → 404 in Portuguese; a city's page without a city while several are
    served → 404 pointing to the list of cities."""

    @functools.wraps(handler)
    async def wrapped(request: web.Request) -> web.StreamResponse:
        try:
            return await handler(request)
        except NotFound as exc:
            if exc.message != UNKNOWN_CITY:
                raise
            return _missing(request, "Município não encontrado", exc.message)
        except _NoCity:
            return _missing(request, "Escolha o município", CHOOSE_CITY)

    return wrapped


def _filters(request: web.Request, core: Core) -> tuple[str, str]:
    q = request.query
    category = params.text(q.get("categoria"), "Categoria", 60)
    situation = params.text(q.get("situacao"), "Situação", 60)
    pub.check_filters(core, category, situation)
    return category, situation


def _limited(request: web.Request, exc: RateLimited, core: Core | None = None) -> web.Response:
    return page(request, "public_message.html", {
        "title": "Muitas consultas", "message": exc.message}, core, status=429)


@public_pages
async def home(request: web.Request) -> web.Response:
    """GET /publico: serving several cities, the list of them (name, state, open cases);
    serving one, its map."""
    core = core_of(request)
    if not core.many_cities:
        return await _map_page(request, core)
    return page(request, "public_cities.html", {"cities": await served_cities(core)})


@public_pages
async def map_page(request: web.Request) -> web.Response:
    """GET /publico/<city> (and …/mapa): the map (Leaflet, progressive) and the list of the
    area's cases."""
    return await _map_page(request, _city(request))


async def _map_page(request: web.Request, core: Core) -> web.Response:
    category, situation = _filters(request, core)
    box = pub.parse_bbox(core, request.query.get("bbox"))
    result = await pub.map_cases(core, box, category, situation)
    return page(request, "public_map.html", {
        "result": result, "options": pub.filter_options(core), "category": category,
        "situation": situation, "box": box, "recent_days": pub.RECENT_DAYS,
        "tiles": request.app[SETTINGS].map_tile_url, "cap": pub.POINT_CAP}, core)


@public_pages
async def map_json(request: web.Request) -> web.Response:
    """GET /publico/mapa.json?bbox=s,w,n,e&categoria=&situacao=: the visible area's cases
    (or clusters) as GeoJSON."""
    core = _city(request)
    category, situation = _filters(request, core)
    box = pub.parse_bbox(core, request.query.get("bbox"))
    result = await pub.map_cases(core, box, category, situation)
    return web.json_response(result.geojson())


@public_pages
async def open_data(request: web.Request) -> web.StreamResponse:
    """GET /publico/casos.geojson: every public case of the city as a GeoJSON
    FeatureCollection (public fields only), streamed, for QGIS and the city's GIS."""
    core = _city(request)
    name = f"casos-publicos-{core.municipality}" if core.many_cities else "casos-publicos"
    resp = web.StreamResponse(headers={
        "Content-Type": "application/geo+json; charset=utf-8",
        "Content-Disposition": f'attachment; filename="{name}.geojson"',
        "X-Content-Type-Options": "nosniff", "Content-Security-Policy": FILE_CSP})
    await resp.prepare(request)
    await resp.write(b'{"type": "FeatureCollection", "features": [\n')
    first = True
    async for feature in pub.iter_open_data(core):
        await resp.write((("" if first else ",\n") + json.dumps(feature, ensure_ascii=False))
                         .encode())
        first = False
    await resp.write(b"\n]}\n")
    await resp.write_eof()
    return resp


@public_pages
async def find_protocol(request: web.Request) -> web.Response:
    """GET /publico[/<city>]/protocolo?protocolo=AAAA-NNNNNN (the map page's search form)."""
    if request.match_info.get("city") is not None:
        _city(request)
    protocol = params.text(request.query.get("protocolo"), "Protocolo", 20).upper()
    if not protocol:
        raise web.HTTPFound(_base(request))
    raise web.HTTPFound(f"{_base(request)}/protocolo/{quote(protocol, safe='')}")


async def _status_city(request: web.Request, tail: str = "") -> Core:
    """The city of a status page. Serving several cities, an un-prefixed address (an e-mail's
    or a paper's link) finds the protocol in any city and redirects to its city's page."""
    try:
        return _city(request)
    except _NoCity:
        core = core_of(request)
        await hit(core, visitor_ip(request))
        found = await city_of_protocol(core, request.match_info["protocol"])
        if found is None:
            raise NotFound(pub.NOT_FOUND) from None
        protocol = quote(request.match_info["protocol"], safe="")
        raise web.HTTPFound(f"{PREFIX}/{found.municipality}/protocolo/{protocol}{tail}") from None


@public_pages
async def status_page(request: web.Request) -> web.Response:
    """GET /publico[/<city>]/protocolo/{protocol}: the case's public status, for citizens
    without Telegram (another city's protocol: as a missing one)."""
    core = None
    try:
        core = await _status_city(request)
        await hit(core, visitor_ip(request))
        st = await pub.status(core, request.match_info["protocol"])
    except RateLimited as exc:
        return _limited(request, exc, core)
    except NotFound as exc:
        if exc.message == UNKNOWN_CITY:
            raise
        return page(request, "public_message.html", {
            "title": "Protocolo não encontrado", "message": exc.message}, core, status=404)
    return page(request, "public_status.html", {"c": st}, core)


@public_pages
async def status_photo(request: web.Request) -> web.Response:
    """GET /publico[/<city>]/protocolo/{protocol}/foto: the public photo's EXIF/GPS-free copy
    (rate limited as the status page)."""
    try:
        core = await _status_city(request, "/foto")
        await hit(core, visitor_ip(request))
    except RateLimited as exc:
        return _limited(request, exc)
    except NotFound as exc:
        if exc.message == UNKNOWN_CITY:
            raise
        raise web.HTTPNotFound(text="Foto não encontrada.") from None
    data = await pub.status_photo(core, request.match_info["protocol"])
    if data is None:
        raise web.HTTPNotFound(text="Foto não encontrada.")
    return file_response(data, "foto", cache="public, max-age=3600")


async def owner_form(request: web.Request) -> web.Response:
    """GET /publico/proprietario: the case code and proof form."""
    return page(request, "public_owner.html", {"page": None})


async def _owner(request: web.Request, code: str, answer: str | None) -> web.Response:
    core = core_of(request)
    try:
        await hit(core, visitor_ip(request))
        found = await owner_page(core, visitor_ip(request), code, answer)
    except RateLimited as exc:
        return _limited(request, exc)
    except (InvalidInput, NotFound, Forbidden) as exc:
        status = 403 if isinstance(exc, Forbidden) else 404 if isinstance(exc, NotFound) \
            else 400
        return page(request, "public_owner.html", {"page": None, "error": exc.message},
                    status=status)
    return page(request, "public_owner.html", {
        "page": found, "c": found.public, "pix_hint": PIX_HINT, "answer": answer,
        "email_offered": email_enabled(request.app[SETTINGS]),
        "owner_consent": OWNER_CONSENT}, core.for_city(found.city) if found.city else None)


async def owner_lookup(request: web.Request) -> web.Response:
    """POST /publico/proprietario (codigo, placa): the code and a proof, as the bot's
    /proprietario."""
    form = await request.post()
    return await _owner(request, params.text(form.get("codigo"), "Código do caso", 40),
                        params.text(form.get("placa"), "Placa, chassi ou CPF/CNPJ", 40))


async def owner_link(request: web.Request) -> web.Response:
    """GET /publico/proprietario/{code}: the QR code's link — the case's public page and the
    form asking for the proof."""
    return await _owner(request, request.match_info["code"], None)


def setup(app: web.Application) -> None:
    r = app.router
    r.add_get(PREFIX, home)
    r.add_get(f"{PREFIX}/", home)
    r.add_get(f"{PREFIX}/proprietario", owner_form)
    r.add_post(f"{PREFIX}/proprietario", owner_lookup)
    r.add_get(f"{PREFIX}/proprietario/{{code}}", owner_link)
    for base in (PREFIX, f"{PREFIX}/{{city:{CITY_SLUG}}}"):
        if base != PREFIX:
            r.add_get(base, map_page)
        r.add_get(f"{base}/mapa", map_page)
        r.add_get(f"{base}/mapa.json", map_json)
        r.add_get(f"{base}/casos.geojson", open_data)
        r.add_get(f"{base}/protocolo", find_protocol)
        r.add_get(f"{base}/protocolo/{{protocol}}", status_page)
        r.add_get(f"{base}/protocolo/{{protocol}}/foto", status_photo)
