"""The installation administrator's pages: the cities served (/municipios), add one, change
one (its fields and its boundary, a GeoJSON upload), deactivate or reactivate one.

Only an administrator with no city of their own reaches them; anyone else logged in gets a
404, as for a page that does not exist. Each change reloads this process's cities
(core.services.installation.municipalities); a refused form comes back as typed with the
reason beside the field (admin.kept_form), a hostile file is a 400 with the reason."""
from __future__ import annotations

import functools

from aiohttp import web

from admin.web import Handler, core_of, redirect, render, require, user_of
from core.area import MAX_BOUNDARY_BYTES
from core.laws import registry
from core.services.errors import InvalidInput, NotFound
from core.services.installation import municipalities as m
from core.services.installation.checks import LABELS

#: The form's text fields, in order (each falls back to the setting of the same name)
FORM_FIELDS = ("name", "uf", "ibge_code", "office_address", "office_phone", "office_hours",
               "office_lat", "office_lon", "depot_address", "depot_hours", "dpo_contact",
               "pix_key", "pix_merchant_name", "pix_merchant_city", "payment_guia_instructions",
               "open311_jurisdiction_id")


def installation_admin(handler: Handler) -> Handler:
    """Anonymous → the login page; logged in but not the installation's administrator → 404."""
    @require()
    @functools.wraps(handler)
    async def wrapped(request: web.Request) -> web.StreamResponse:
        if not user_of(request).is_installation_admin:
            raise web.HTTPNotFound()
        return await handler(request)
    return wrapped


def _slug(raw: object) -> str:
    value = str(raw or "").strip()
    if not value or len(value) > 60:
        raise web.HTTPNotFound()
    return value


async def _boundary(form) -> bytes | str | None:
    """The uploaded boundary file's bytes (None: no file chosen)."""
    field = form.get("boundary")
    if field is None or isinstance(field, str):
        return field or None
    data = field.file.read(MAX_BOUNDARY_BYTES + 1)
    if not data:
        return None
    if len(data) > MAX_BOUNDARY_BYTES:
        raise InvalidInput(f"Arquivo de contorno grande demais (o máximo é "
                           f"{MAX_BOUNDARY_BYTES // 1024 ** 2} MB). Baixe a malha de um só "
                           "município, ou simplifique-a (mapshaper, QGIS).", "boundary")
    return data


def _fields(form) -> dict[str, str]:
    """The text fields the form sent (a field left out is left as it is)."""
    return {f: form[f] for f in FORM_FIELDS if isinstance(form.get(f), str)}


@installation_admin
async def municipalities_page(request: web.Request) -> web.Response:
    return render(request, "municipalities.html", {
        "rows": await m.list_municipalities(core_of(request))})


@installation_admin
async def new_page(request: web.Request) -> web.Response:
    return render(request, "municipality_form.html", {
        "record": None, "laws": sorted(registry().values(), key=lambda law: law.city),
        "fields": FORM_FIELDS, "labels": LABELS, "settings": core_of(request).settings,
        "action": "/municipios/novo"})


@installation_admin
async def add(request: web.Request) -> web.StreamResponse:
    form = await request.post()
    fields = {k: v for k, v in _fields(form).items() if v.strip()}
    city = await m.add_municipality(core_of(request), str(form.get("slug", "")),
                                    law=str(form.get("law", "")) or None,
                                    boundary=await _boundary(form), **fields)
    raise redirect(request, "/municipios", f"Município cadastrado: {city.label}.")


@installation_admin
async def edit_page(request: web.Request) -> web.Response:
    slug = _slug(request.query.get("municipio"))
    try:
        record = await m.municipality_record(core_of(request), slug)
    except NotFound:
        raise web.HTTPNotFound() from None
    return render(request, "municipality_form.html", {
        "record": record, "laws": [], "fields": FORM_FIELDS, "labels": LABELS,
        "settings": core_of(request).settings, "action": "/municipios/salvar"})


@installation_admin
async def save(request: web.Request) -> web.StreamResponse:
    form = await request.post()
    slug = _slug(form.get("municipio"))
    fields: dict[str, object] = dict(_fields(form))
    boundary = await _boundary(form)
    if boundary is not None:
        fields["boundary"] = boundary
    elif form.get("remove_boundary") == "1":
        fields["boundary"] = ""
    try:
        city = await m.set_municipality(core_of(request), slug, **fields)
    except NotFound:
        raise web.HTTPNotFound() from None
    raise redirect(request, "/municipios", f"Município alterado: {city.label}.")


@installation_admin
async def set_active(request: web.Request) -> web.StreamResponse:
    form = await request.post()
    slug = _slug(form.get("municipio"))
    active = form.get("active") == "1"
    fn = m.activate_municipality if active else m.deactivate_municipality
    try:
        city = await fn(core_of(request), slug)
    except NotFound:
        raise web.HTTPNotFound() from None
    raise redirect(request, "/municipios", f"{city.label}: atendido de novo." if active else
                   f"{city.label}: desativado; novos pedidos não vão mais para ele (os casos "
                   "abertos continuam).")


def setup(app: web.Application) -> None:
    r = app.router
    r.add_get("/municipios", municipalities_page)
    r.add_get("/municipios/novo", new_page)
    r.add_post("/municipios/novo", add)
    r.add_get("/municipios/editar", edit_page)
    r.add_post("/municipios/salvar", save)
    r.add_post("/municipios/ativo", set_active)
