"""The public Open311 GeoReport v2 API (http://wiki.open311.org/GeoReport_v2), every endpoint in
XML (the spec's default) and JSON: discovery, services, services/{service_code}, requests (GET
and POST) and requests/{service_request_id}; plus the public copies of case photos. Public data
only (core.services.public.open311); errors in the spec's shape with the HTTP status."""
from __future__ import annotations

import asyncio
import functools
import re
from datetime import datetime, timezone

from aiohttp import web

from admin.files import file_response
from admin.open311_fetch import EGRESS, Egress, fetch_media
from admin.open311_format import error, respond, status_of
from admin.web import SETTINGS, Handler, core_of
from core.parsing import YEARS, ParseError, parse_text
from core.services.public import open311 as o3
from core.services.public import open311_post as post311
from core.services.public import open311_services as svc
from core.services.errors import USER_ERRORS, Forbidden, InvalidInput
from core.services.cases.evidence import EvidenceIn
from core.services.context import Core

ATTRIBUTE = re.compile(r"^attribute\[([A-Za-z0-9_]{1,40})\](\[\])?$")
BAD_KEY = "api_key inválida."
#: The discovery document's changeset: when this API last changed its shape.
CHANGESET = "2026-11-30T00:00:00Z"


#: The installation acting for the city the request's jurisdiction_id names.
CITY = web.RequestKey("open311_city", Core)


def api(handler: Handler | None = None, *, per_city: bool = True):
    """A user error (bad parameter, unknown code, refused key) → the spec's error list in the
    path's format, 400/403/404; the jurisdiction_id is read first (per_city: it selects the
    city, required when the installation serves more than one: city_of)."""

    def deco(handler: Handler) -> Handler:
        @functools.wraps(handler)
        async def wrapped(request: web.Request) -> web.StreamResponse:
            try:
                core, given = core_of(request), request.query.get("jurisdiction_id")
                if per_city:
                    request[CITY] = svc.jurisdiction_core(core, given)
                elif not core.many_cities:
                    svc.check_jurisdiction(core, given)
                return await handler(request)
            except USER_ERRORS as exc:
                return error(request, status_of(exc), exc.message)

        return wrapped

    return deco(handler) if handler is not None else deco


def city_of(request: web.Request) -> Core:
    return request[CITY]


def _api_url(request: web.Request) -> str:
    return f"{request.scheme}://{request.host}/open311/v2"


def _when(raw: str | None) -> datetime | None:
    """A W3C date-time (e.g. 2010-01-01T00:00:00Z) as the spec writes them."""
    if not raw:
        return None
    try:
        moment = datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        raise InvalidInput(f"Data inválida: {raw[:40]} (use W3C/ISO 8601).") from None
    if moment.tzinfo is None:
        raise InvalidInput(f"Data sem fuso horário: {raw[:40]}.")
    if not YEARS[0] < moment.year < YEARS[1]:
        raise InvalidInput(f"Data fora do intervalo aceito ({YEARS[0]} a {YEARS[1]}): {raw[:40]}.")
    return moment.astimezone(timezone.utc)


@api(per_city=False)
async def discovery(request: web.Request) -> web.Response:
    return respond(request, "discovery", svc.discovery(core_of(request), _api_url(request),
                                                       CHANGESET))


@api
async def services(request: web.Request) -> web.Response:
    return respond(request, "services", svc.services(city_of(request)))


@api
async def service_definition(request: web.Request) -> web.Response:
    body = svc.service_definition(city_of(request), request.match_info["code"])
    return respond(request, "service_definition", body)


@api
async def requests_list(request: web.Request) -> web.Response:
    q, core = request.query, city_of(request)
    query = o3.request_query(core, ids=q.get("service_request_id", ""),
                             service_code=q.get("service_code", ""), status=q.get("status", ""),
                             start=_when(q.get("start_date")), end=_when(q.get("end_date")),
                             page=q.get("page", ""), page_size=q.get("page_size", ""))
    rows = await o3.open311_requests(core, query, media_base=_api_url(request) + "/media")
    return respond(request, "service_requests", rows)


@api
async def request_one(request: web.Request) -> web.Response:
    row = await o3.open311_request(city_of(request), request.match_info["id"],
                                   media_base=_api_url(request) + "/media")
    return respond(request, "service_requests", [row])


async def media_file(request: web.Request) -> web.Response:
    """GET /open311/v2/media/{protocol}/{sha}.{ext}: only the public copy (EXIF/GPS stripped)
    of a case's photo; an original, a document or anything unknown → 404."""
    copy = await o3.public_media(core_of(request), request.match_info["protocol"],
                                 request.match_info["sha"])
    if copy is None or o3.MEDIA_EXT.get(copy.mime) != request.match_info["ext"]:
        return error(request, 404, "Imagem não encontrada.")
    return file_response(copy.data, copy.sha256[:12], cache="public, max-age=86400, immutable")


def _str(value: object) -> str:
    """A form field's text ("" when absent or a file)."""
    return value if isinstance(value, str) else ""


def _account_id(raw: str) -> str | None:
    """The client's own account_id, echoed back as the spec shows (never stored)."""
    try:
        return parse_text(raw, 120) if raw.strip() else None
    except ParseError as exc:
        raise InvalidInput(f"account_id: {exc.message}") from None


@api(per_city=False)
async def post_request(request: web.Request) -> web.Response:
    """POST requests: form-encoded (the spec's fields) or multipart with the photo as `media`.
    The API key is checked first, then its rate limit, then every field (text XML cannot carry
    is refused) and the whole report, before any file is stored or any media_url fetched; the
    report then goes through the same core service as the bot's, with a synthetic reporter,
    and the bot's duplicate check (core.services.public.open311_post). email, first_name, last_name,
    phone and device_id are accepted and not stored (LGPD: Via Livre never contacts an Open311
    reporter; the client that holds the key does). A media_url is recorded by reference, and
    downloaded and checked as an upload only when OPEN311_FETCH_MEDIA is true."""
    core, settings = core_of(request), request.app[SETTINGS]
    form = await request.post()
    given = _str(form.get("api_key"))
    if not any(svc.key_opens(core.for_city(c), given) for c in core.cities):
        raise Forbidden(BAD_KEY)
    await post311.hit(core, given)
    core = svc.jurisdiction_core(core, _str(form.get("jurisdiction_id"))
                                 or request.query.get("jurisdiction_id"))
    if not svc.key_opens(core, given):  # another city's key: as a wrong one
        raise Forbidden(BAD_KEY)
    post311.check_xml_text((k, v) for k, v in form.items() if isinstance(v, str))
    urls = [svc.media_url(u) for u in form.getall("media_url", []) if isinstance(u, str)
            and u.strip()]
    files = [item for item in form.getall("media", []) if hasattr(item, "file")]
    attrs: dict[str, list[str]] = {}
    for name in set(form.keys()):
        m = ATTRIBUTE.match(name)
        if m:
            attrs.setdefault(m.group(1), []).extend(
                v for v in form.getall(name) if isinstance(v, str))
    report = svc.report_in(core, service_code=_str(form.get("service_code")),
                           lat=_str(form.get("lat")), long=_str(form.get("long")),
                           address=_str(form.get("address_string")),
                           description=_str(form.get("description")), attrs=attrs,
                           photos=[EvidenceIn(post311.PENDING)] * len(files), media_urls=urls)
    account = _account_id(_str(form.get("account_id")))
    post311.check_report(core, report)
    if files:
        sources = [functools.partial(_read, item) for item in files]
    elif settings.open311_fetch_media:
        egress = request.app.get(EGRESS) or Egress()
        sources = [functools.partial(fetch_media, url, settings, egress)
                   for url in urls[:svc.MAX_PHOTOS]]
    else:
        sources = []
    done = await post311.post(core, report, sources)
    notice = o3.notice(done.protocol, done.state_label)
    if done.joined:
        notice = (f"Já havia um caso aberto desta categoria a {done.distance_m:.0f} m deste "
                  "ponto: esta solicitação foi juntada a ele. " + notice)
    return respond(request, "service_requests", [{
        "service_request_id": done.protocol, "service_notice": notice,
        "account_id": account}], status=201)


async def _read(item) -> bytes:
    """An uploaded part's bytes (aiohttp already holds them, within client_max_size)."""
    return await asyncio.to_thread(item.file.read)
