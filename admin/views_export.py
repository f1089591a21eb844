"""Exports: CSV of cases (staff). The public Open311 API is in admin.views_open311."""
from __future__ import annotations

import csv
import io
from datetime import datetime

from aiohttp import web

from admin.files import FILE_CSP
from admin.views_cases import filter_from
from admin.web import core_of, require
from core.formatting import fmt_datetime
from core.services import staff as pq
from core.services.papers.facts import plate_text

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
    f = filter_from(request)
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
