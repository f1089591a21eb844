"""LGPD in the panel: the review of photos before they are public (approve, hide, blur more
by hand) and the list of the citizens' data requests (the rules: core.services.public.photos
and core.services.citizens.my_data; this module only renders)."""
from __future__ import annotations

from aiohttp import web

from admin.files import file_response
from admin.web import core_of, redirect, render, require, user_of
from core.services.citizens import my_data
from core.services.public import photos as pr
from core.services.errors import InvalidInput
from core.services.staff.scope import only_here

TABS = {"pendentes": pr.PENDING, "aprovadas": pr.APPROVED, "ocultas": pr.HIDDEN}
DONE = {pr.APPROVED: "Foto aprovada: já aparece nas páginas públicas.",
        pr.HIDDEN: "Foto ocultada: não aparece em nenhuma página pública.",
        pr.PENDING: "Áreas borradas na cópia pública. Confira o resultado e aprove a foto."}


@require()
async def photos_page(request: web.Request) -> web.Response:
    core = core_of(request)
    tab = request.query.get("situacao", "pendentes")
    if tab not in TABS:
        raise InvalidInput("Situação desconhecida: use pendentes, aprovadas ou ocultas.")
    items = await only_here(core, await pr.review_list(core, TABS[tab]))
    pending = len(await only_here(core, await pr.review_list(core, pr.PENDING))) \
        if core.many_cities else await pr.pending_count(core)
    return render(request, "photo_review.html", {
        "items": items, "tab": tab, "tabs": TABS,
        "pending": pending, "labels": pr.STATUS_LABELS,
        "detector": pr.detector_available()})


@require()
async def public_copy(request: web.Request) -> web.StreamResponse:
    data = await pr.public_copy_of(core_of(request), int(request.match_info["id"]))
    return file_response(data, f"foto-publica-{request.match_info['id']}", cache="no-store")


@require()
async def photo_action(request: web.Request) -> web.StreamResponse:
    core = core_of(request)
    form = await request.post()
    action = {"aprovar": "approve", "ocultar": "hide", "borrar": "redact"}[
        request.match_info["action"]]
    boxes = pr.parse_boxes(str(form.get("areas", ""))) if action == "redact" else None
    status = await pr.review(core, int(request.match_info["id"]), action, user_of(request),
                             boxes)
    back = str(form.get("voltar", ""))
    tab = back if back in TABS else "pendentes"
    raise redirect(request, f"/fotos?situacao={tab}#foto-{request.match_info['id']}",
                   DONE[status])


@require()
async def requests_page(request: web.Request) -> web.Response:
    core = core_of(request)
    return render(request, "data_requests.html", {
        "rows": await my_data.requests_list(core), "labels": my_data.LABELS,
        "removed": my_data.REMOVED})


def setup(app: web.Application) -> None:
    r = app.router
    r.add_get("/fotos", photos_page)
    r.add_get("/fotos/{id:[0-9]{1,9}}/publica", public_copy)
    r.add_post("/fotos/{id:[0-9]{1,9}}/{action:aprovar|ocultar|borrar}", photo_action)
    r.add_get("/lgpd/pedidos", requests_page)
