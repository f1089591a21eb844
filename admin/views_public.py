"""The public face, without login (paths under /publico): the transparency map and list, the
open data (GeoJSON), a case's status page and the owner's page. The rules (what is public,
the rate limit, the owner's cool-down) are in core.services.public.map and public_access; this
module parses, calls and renders."""
from __future__ import annotations

import json
from urllib.parse import quote

from aiohttp import web

from admin import params
from admin.files import FILE_CSP, file_response
from admin.visitor import visitor_ip
from admin.web import SETTINGS, core_of, render
from core.services.public import map as pub
from core.services.errors import Forbidden, InvalidInput, NotFound
from core.services.messaging.email import OWNER_CONSENT, enabled as email_enabled
from core.services.owners.payments import PIX_HINT
from core.services.public.access import RateLimited, hit, owner_page

PREFIX = "/publico"


def _filters(request: web.Request) -> tuple[str, str]:
    q = request.query
    category = params.text(q.get("categoria"), "Categoria", 60)
    situation = params.text(q.get("situacao"), "Situação", 60)
    pub.check_filters(core_of(request), category, situation)
    return category, situation


def _limited(request: web.Request, exc: RateLimited) -> web.Response:
    return render(request, "public_message.html", {
        "title": "Muitas consultas", "message": exc.message}, status=429)


async def map_page(request: web.Request) -> web.Response:
    """GET /publico: the map (Leaflet, progressive) and the list of the area's cases."""
    core = core_of(request)
    category, situation = _filters(request)
    box = pub.parse_bbox(core, request.query.get("bbox"))
    result = await pub.map_cases(core, box, category, situation)
    return render(request, "public_map.html", {
        "result": result, "options": pub.filter_options(core), "category": category,
        "situation": situation, "box": box, "recent_days": pub.RECENT_DAYS,
        "tiles": request.app[SETTINGS].map_tile_url, "cap": pub.POINT_CAP})


async def map_json(request: web.Request) -> web.Response:
    """GET /publico/mapa.json?bbox=s,w,n,e&categoria=&situacao=: the visible area's cases
    (or clusters) as GeoJSON."""
    core = core_of(request)
    category, situation = _filters(request)
    box = pub.parse_bbox(core, request.query.get("bbox"))
    result = await pub.map_cases(core, box, category, situation)
    return web.json_response(result.geojson())


async def open_data(request: web.Request) -> web.StreamResponse:
    """GET /publico/casos.geojson: every public case as a GeoJSON FeatureCollection (public
    fields only), streamed, for QGIS and the city's GIS."""
    core = core_of(request)
    resp = web.StreamResponse(headers={
        "Content-Type": "application/geo+json; charset=utf-8",
        "Content-Disposition": 'attachment; filename="casos-publicos.geojson"',
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


async def find_protocol(request: web.Request) -> web.Response:
    """GET /publico/protocolo?protocolo=AAAA-NNNNNN (the map page's search form)."""
    protocol = params.text(request.query.get("protocolo"), "Protocolo", 20).upper()
    if not protocol:
        raise web.HTTPFound(PREFIX)
    raise web.HTTPFound(f"{PREFIX}/protocolo/{quote(protocol, safe='')}")


async def status_page(request: web.Request) -> web.Response:
    """GET /publico/protocolo/{protocol}: the case's public status, for citizens without
    Telegram."""
    core = core_of(request)
    try:
        await hit(core, visitor_ip(request))
        st = await pub.status(core, request.match_info["protocol"])
    except RateLimited as exc:
        return _limited(request, exc)
    except NotFound as exc:
        return render(request, "public_message.html", {
            "title": "Protocolo não encontrado", "message": exc.message}, status=404)
    return render(request, "public_status.html", {"c": st})


async def status_photo(request: web.Request) -> web.Response:
    """GET /publico/protocolo/{protocol}/foto: the public photo's EXIF/GPS-free copy (rate
    limited as the status page)."""
    core = core_of(request)
    try:
        await hit(core, visitor_ip(request))
    except RateLimited as exc:
        return _limited(request, exc)
    data = await pub.status_photo(core, request.match_info["protocol"])
    if data is None:
        raise web.HTTPNotFound(text="Foto não encontrada.")
    return file_response(data, "foto", cache="public, max-age=3600")


async def owner_form(request: web.Request) -> web.Response:
    """GET /publico/proprietario: the case code and proof form."""
    return render(request, "public_owner.html", {"page": None})


async def _owner(request: web.Request, code: str, answer: str | None) -> web.Response:
    core = core_of(request)
    try:
        await hit(core, visitor_ip(request))
        page = await owner_page(core, visitor_ip(request), code, answer)
    except RateLimited as exc:
        return _limited(request, exc)
    except (InvalidInput, NotFound, Forbidden) as exc:
        status = 403 if isinstance(exc, Forbidden) else 404 if isinstance(exc, NotFound) \
            else 400
        return render(request, "public_owner.html", {"page": None, "error": exc.message},
                      status=status)
    return render(request, "public_owner.html", {
        "page": page, "c": page.public, "pix_hint": PIX_HINT, "answer": answer,
        "email_offered": email_enabled(request.app[SETTINGS]),
        "owner_consent": OWNER_CONSENT})


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
    r.add_get(PREFIX, map_page)
    r.add_get(f"{PREFIX}/mapa.json", map_json)
    r.add_get(f"{PREFIX}/casos.geojson", open_data)
    r.add_get(f"{PREFIX}/protocolo", find_protocol)
    r.add_get(f"{PREFIX}/protocolo/{{protocol}}", status_page)
    r.add_get(f"{PREFIX}/protocolo/{{protocol}}/foto", status_photo)
    r.add_get(f"{PREFIX}/proprietario", owner_form)
    r.add_post(f"{PREFIX}/proprietario", owner_lookup)
    r.add_get(f"{PREFIX}/proprietario/{{code}}", owner_link)
