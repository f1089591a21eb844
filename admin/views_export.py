"""Exports: CSV of cases (staff) and the public Open311 GeoReport v2 API."""
from __future__ import annotations

import csv
import hmac
import io
from datetime import datetime

from aiohttp import web

from admin.files import FILE_CSP, file_response
from admin.views_cases import _filter_from
from admin.web import SETTINGS, core_of, require
from core.formatting import fmt_datetime
from core.parsing import YEARS
from core.services import panel_queries as pq
from core.services.document_facts import plate_text
from core.services.errors import InvalidInput
from core import media
from core.services.evidence import EvidenceIn, store_upload
from core.services.reports import ReportIn
from core.services.staff import submit_external_report

CSV_HEADER = ["protocolo", "categoria", "situação", "aberto", "bairro", "endereço", "placa",
              "responsável (fiscal)", "criado em", "atualizado em", "encerrado em",
              "próximo prazo", "valor devido hoje (R$)"]


def _dt(value: datetime | None) -> str:
    return fmt_datetime(value) if value else ""


#: OWASP "CSV injection": a cell that starts with one of these is a formula to a spreadsheet.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> str:
    """A CSV cell safe to open in a spreadsheet: a text starting like a formula is prefixed
    with a single quote, as OWASP recommends (the csv module quotes separators and quotes)."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


@require()
async def cases_csv(request: web.Request) -> web.StreamResponse:
    core = core_of(request)
    f = _filter_from(request)
    rows = pq.iter_cases(core, f)
    first = await anext(rows, None)  # a refused filter is a 400 page, before any byte is sent
    resp = web.StreamResponse(headers={
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": 'attachment; filename="casos.csv"',
        "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store",
        "Content-Security-Policy": FILE_CSP})
    await resp.prepare(request)
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=";")
    buf.write("\ufeff")  # Excel opens UTF-8 with accents correctly
    writer.writerow(CSV_HEADER)
    n = 0
    while first is not None:
        r, first = first, await anext(rows, None)
        writer.writerow([csv_cell(v) for v in (
            r.protocol, r.category, r.state, "sim" if r.is_open else "não", r.neighbourhood,
            r.address, plate_text(r.plate), r.assignee, _dt(r.created_at), _dt(r.updated_at),
            _dt(r.closed_at), _dt(r.deadline_at),
            "" if r.amount_due is None else f"{r.amount_due:.2f}".replace(".", ","))])
        n += 1
        if n % 500 == 0:
            await resp.write(buf.getvalue().encode())
            buf.seek(0)
            buf.truncate()
    await resp.write(buf.getvalue().encode())
    await resp.write_eof()
    return resp


# -- Open311 GeoReport v2 ------------------------------------------------------------------------

def _error(status: int, description: str) -> web.Response:
    return web.json_response([{"code": status, "description": description}], status=status)


async def services_json(request: web.Request) -> web.Response:
    return web.json_response(pq.open311_services(core_of(request)))


def _when(raw: str | None) -> datetime | None:
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
    return moment


def _media_base(request: web.Request) -> str:
    return f"{request.scheme}://{request.host}/open311/v2/media"


async def media_file(request: web.Request) -> web.Response:
    """GET /open311/v2/media/{protocol}/{sha}.{ext}: only the public copy (EXIF/GPS stripped)
    of a case's photo; an original, a document or anything unknown → 404."""
    copy = await pq.public_media(core_of(request), request.match_info["protocol"],
                                 request.match_info["sha"])
    if copy is None or pq.MEDIA_EXT.get(copy.mime) != request.match_info["ext"]:
        return _error(404, "Imagem não encontrada.")
    return file_response(copy.data, copy.sha256[:12], cache="public, max-age=86400, immutable")


async def requests_json(request: web.Request) -> web.Response:
    q = request.query
    ids = [i.strip() for i in q.get("service_request_id", "").split(",") if i.strip()]
    rows = await pq.open311_requests(core_of(request), ids=ids,
                                     service_code=q.get("service_code", ""),
                                     status=q.get("status", ""), start=_when(q.get("start_date")),
                                     end=_when(q.get("end_date")),
                                     media_base=_media_base(request))
    return web.json_response(rows)


async def request_json(request: web.Request) -> web.Response:
    rows = await pq.open311_requests(core_of(request), ids=[request.match_info["id"]],
                                     media_base=_media_base(request))
    if not rows:
        return _error(404, "Solicitação não encontrada.")
    return web.json_response(rows)


async def post_request(request: web.Request) -> web.Response:
    """POST /open311/v2/requests.json (multipart: api_key, service_code, lat, long,
    address_string, description, media = photo file). A report through the same core service
    as the bot's, with a synthetic reporter."""
    core = core_of(request)
    key = request.app[SETTINGS].open311_api_key
    form = await request.post()
    given = str(form.get("api_key", ""))
    if not key or not hmac.compare_digest(key.encode(), given.encode()):
        return _error(403, "api_key inválida.")
    try:
        lat, lon = float(str(form.get("lat", ""))), float(str(form.get("long", "")))
    except ValueError:
        return _error(400, "lat e long são obrigatórios.")
    photos = []
    for item in form.getall("media", []):
        if hasattr(item, "file"):
            data = item.file.read()
            if data:
                stored = await store_upload(core, data, (media.IMAGE,))
                photos.append(EvidenceIn(stored.sha256, stored.mime, "photo", None, None))
    report = ReportIn(category=str(form.get("service_code", "")), lat=lat, lon=lon,
                      photos=photos, address=str(form.get("address_string", "")) or None,
                      description=str(form.get("description", "")) or None)
    done = await submit_external_report(core, report)
    return web.json_response([{"service_request_id": done.protocol,
                               "service_notice": f"Protocolo {done.protocol}: {done.state_label}."}],
                             status=201)
