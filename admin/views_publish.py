"""Diário Oficial (editais to publish) and the depot with the auction."""
from __future__ import annotations

from core.formatting import plural

from decimal import Decimal

from aiohttp import web

from admin.files import file_response
from admin.web import core_of, redirect, render, require, user_of
from core.parsing import parse_date, parse_money
from core.services import staff as pq
from core.services.errors import InvalidInput
from core.services.staff.editais import publish_edital


def _kind(request: web.Request) -> str:
    kind = request.match_info["kind"]
    if kind not in pq.EDITAL_STEPS:
        raise web.HTTPNotFound()
    return kind


@require()
async def editais_page(request: web.Request) -> web.Response:
    core = core_of(request)
    lists = [(k, pq.edital_label(core, k), await pq.edital_cases(core, k))
             for k in pq.edital_kinds(core)]
    return render(request, "editais.html", {"lists": lists, "today": pq.today(core)})


@require()
async def edital_file(request: web.Request) -> web.StreamResponse:
    core = core_of(request)
    kind = _kind(request)
    protocols = request.query.getall("p", []) or [c.protocol for c in
                                                  await pq.edital_cases(core, kind)]
    if not protocols:
        raise InvalidInput("Não há casos para este edital.")
    text, pdf = await pq.edital_documents(core, kind, protocols, request.query.get("number", ""),
                                          request.query.get("signer", ""),
                                          request.query.get("role", ""))
    name = f"edital-{kind}"
    if request.match_info["ext"] == "pdf":
        return file_response(pdf, name, cache="no-store")
    return file_response(text.encode(), name, cache="no-store", text=True)


@require()
async def edital_publish(request: web.Request) -> web.StreamResponse:
    core = core_of(request)
    kind = _kind(request)
    form = await request.post()
    day = parse_date(str(form.get("date", "")))  # a ParseError is answered as a 400
    published = await publish_edital(core, kind, [str(p) for p in form.getall("p", [])], day,
                                     str(form.get("reference", "")), user_of(request))
    msg = f"Publicação registrada em {plural(len(published.done), 'caso', 'casos')}."
    if published.refused:
        raise redirect(request, "/diario-oficial",
                       msg + " Recusados — " + " | ".join(published.refused), "error")
    raise redirect(request, "/diario-oficial", msg)


@require()
async def depot_page(request: web.Request) -> web.Response:
    core = core_of(request)
    items = await pq.depot_inventory(core)
    split = None
    q = request.query
    if q.get("split") and q.get("gross"):
        split = (q["split"], await pq.auction_split(core, q["split"], parse_money(q["gross"]),
                                                    parse_money(q.get("taxes") or "0")))
    total = sum((i.statement.total for i in items if i.statement), Decimal(0))
    return render(request, "depot.html", {"items": items, "split": split, "total": total,
                                          "eligible": [i for i in items if i.auction_eligible]})

