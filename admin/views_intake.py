"""Counter and phone intake (/balcao): staff open a case for a citizen who came in or phoned.

The face only reads the form: the location from a click on the map (Leaflet) or a typed
address geocoded by the bot's geocoder (core.services.geocoding) and shown for staff to
confirm; the photos through the one upload check (core.services.cases.evidence.store_upload); the
category's questions as core.services.citizens.questions lists them. The case is opened by
core.services.staff.counter_intake (the bot's submit_report). Nearby open cases of the category are shown
before anything is written. Every refusal is a 400 with the form kept (uploaded photos stay
as their hashes)."""
from __future__ import annotations

import re

from aiohttp import web
from geopy.adapters import AioHTTPAdapter

from admin.kept_form import KeptForm
from admin.web import KEPT, SETTINGS, core_of, redirect, render, require, user_of
from core import media
from core.area import valid_point
from core.services.staff import counter_intake as intake
from core.services.citizens import questions as rq
from core.services.errors import InvalidInput
from core.services.messaging import whatsapp_held
from core.services.messaging.email import enabled as email_enabled
from core.services.cases.evidence import EvidenceIn, store_upload
from core.services.geocoding import Geocoder, GeocodingUnavailable
from core.services.citizens.reports import MAX_PHOTOS, ReportIn, find_nearby

GEOCODERS = web.AppKey("intake_geocoders", dict)
_SHA = re.compile(r"^[0-9a-f]{64}$")
TEXT_FIELDS = ("address", "neighbourhood", "plate", "colour", "make_model", "time_there",
               "description", "contact_name", "contact_phone", "contact_email", "lat", "lon",
               "category", "channel", "dup_key")


def setup(app: web.Application) -> None:
    app[GEOCODERS] = {}
    app.on_cleanup.append(_close_geocoder)
    r = app.router
    r.add_get("/balcao", intake_page)
    r.add_post("/balcao", intake_post)
    r.add_post("/balcao/avisado/{protocol}", told)


async def _close_geocoder(app: web.Application) -> None:
    for geo in app[GEOCODERS].values():
        await geo.close()


def geocoder(request: web.Request) -> Geocoder:
    """The geocoder of the city acted for (one per city: it searches within its area)."""
    holder, core = request.app[GEOCODERS], core_of(request)
    if core.municipality not in holder:  # one per city: it searches within the city's area
        s = request.app[SETTINGS]
        holder[core.municipality] = Geocoder(s.nominatim_url, core.area,
                                             adapter_factory=AioHTTPAdapter,
                                             timeout_s=s.geocoding_timeout_s)
    return holder[core.municipality]


async def _page(request: web.Request, form: dict, *, status: int = 200, error: str = "",
                field: str | None = None, notice: str = "", nearby=()) -> web.Response:
    core = core_of(request)
    if error:  # shown beside its field (admin.kept_form), the typed form kept below
        request[KEPT] = KeptForm("/balcao", {}, {field or "": error})
    law = core.law
    asked = {code: [q.field for q in rq.questions_for(law, code)] for code in law.categories}
    sign_cats: dict[str, str] = {}  # criterion → the categories that offer it
    for code in law.categories:
        for c in rq.signs_for(law, code):
            sign_cats[c.code] = (sign_cats.get(c.code, "") + " " + code).strip()
    centre = form.get("lat") and form.get("lon")
    return render(request, "intake.html", {
        "form": form, "notice": notice, "nearby": nearby,
        "asked": asked, "sign_cats": sign_cats, "questions": rq.QUESTIONS,
        "time_options": rq.time_options(core.law), "channels": intake.CHANNELS,
        "purpose": intake.CONTACT_PURPOSE, "max_photos": MAX_PHOTOS,
        "email_on": email_enabled(core.settings),
        "tile_url": request.app[SETTINGS].map_tile_url,
        "map_lat": form.get("lat") if centre else core.area.centre[0],
        "map_lon": form.get("lon") if centre else core.area.centre[1],
        "to_tell": await intake.contacts_to_tell(core),
        "held": await whatsapp_held.held_updates(core),
        "held_days": whatsapp_held.HELD_DAYS}, status=status)


@require()
async def intake_page(request: web.Request) -> web.Response:
    return await _page(request, {"channel": "balcao", "photos": [], "signs": []})


def _form_of(post) -> dict:
    form = {k: str(post.get(k, "")).strip() for k in TEXT_FIELDS}
    form["photos"] = list(dict.fromkeys(p for p in (str(x) for x in post.getall("photo", []))
                                        if _SHA.match(p)))
    form["signs"] = [str(x) for x in post.getall("signs", [])]
    return form


async def _store_photos(request: web.Request, post, form: dict) -> None:
    core = core_of(request)
    for item in post.getall("photos", []):
        if not hasattr(item, "file"):
            continue
        data = item.file.read()
        if not data and not item.filename:
            continue  # the empty file input of a form sent without a new photo
        stored = await store_upload(core, data, (media.IMAGE,))
        if stored.sha256 not in form["photos"]:
            form["photos"].append(stored.sha256)
    form["photos"] = [sha for sha in form["photos"] if core.evidence.exists(sha)]
    form["mimes"] = {}
    for sha in form["photos"]:  # the type from the stored bytes, never from the form
        found = media.sniff(await core.evidence.aget(sha))
        if found is not None and found.kind == media.IMAGE:
            form["mimes"][sha] = found.mime
    form["photos"] = list(form["mimes"])


def _point(form: dict) -> tuple[float, float]:
    """The clicked point: finite numbers on Earth (NaN, infinity or 91° are refused)."""
    try:
        lat, lon = float(form["lat"].replace(",", ".")), float(form["lon"].replace(",", "."))
        if valid_point(lat, lon):
            return lat, lon
        raise ValueError
    except ValueError:
        raise InvalidInput("Marque o local clicando no mapa ou busque o endereço digitado "
                           "(botão “Buscar endereço”).", "lat") from None


def _report(core, form: dict, lat: float, lon: float) -> ReportIn:
    if form["category"] not in core.law.categories:
        raise InvalidInput("Escolha a categoria do objeto.", "category")
    asked = {q.field for q in rq.questions_for(core.law, form["category"])}
    keep = {f: (form[f] or None) if f in asked else None
            for f in ("plate", "colour", "make_model", "time_there", "description")}
    allowed = {c.code for c in rq.signs_for(core.law, form["category"])}
    photos = [EvidenceIn(sha, mime, "photo") for sha, mime in form["mimes"].items()]
    return ReportIn(category=form["category"], lat=lat, lon=lon, photos=photos,
                    address=form["address"] or None, neighbourhood=form["neighbourhood"] or None,
                    signs=tuple(s for s in form["signs"] if s in allowed), **keep)


@require()
async def intake_post(request: web.Request) -> web.StreamResponse:
    core = core_of(request)
    post = await request.post()
    form = _form_of(post)
    try:
        try:
            await _store_photos(request, post, form)
        except InvalidInput as exc:
            raise InvalidInput(exc.message, "photos") from None
        if post.get("action") == "geocode":
            return await _geocode(request, form)
        lat, lon = _point(form)
        report = _report(core, form, lat, lon)
        contact = intake.read_contact(form["contact_name"], form["contact_phone"],
                                      form["contact_email"])
        if not report.photos and form["channel"] != intake.PHONE:  # by phone: none to give
            raise InvalidInput(f"Envie de 1 a {MAX_PHOTOS} fotos do objeto (numa ligação "
                               "telefônica as fotos são opcionais: o fiscal fotografa no "
                               "local).", "photos")
        key = f"{report.category}:{lat:.5f}:{lon:.5f}"
        if form["dup_key"] != key or post.get("confirm_new") != "1":
            nearby = await find_nearby(core, report.category, lat, lon)
            if nearby:
                form["dup_key"] = key
                return await _page(request, form, nearby=nearby, notice=(
                    "Já há caso aberto desta categoria perto deste ponto. Se for o mesmo "
                    "objeto, não registre outro: informe ao cidadão o protocolo existente."))
        if not report.address:  # best effort: the street of the clicked point
            try:
                place = await geocoder(request).reverse(lat, lon)
            except GeocodingUnavailable:
                place = None
            if place is not None:
                report.address, report.neighbourhood = place.address, place.neighbourhood
        done = await intake.submit_counter_report(core, report, channel=form["channel"],
                                                  contact=contact, staff=user_of(request))
    except InvalidInput as exc:
        return await _page(request, form, status=400, error=exc.message, field=exc.field)
    told = " Anote o contato: o cidadão aparece na lista de avisos." if contact else ""
    raise redirect(request, f"/casos/{done.protocol}",
                   f"Caso registrado: protocolo {done.protocol}. Informe este número ao "
                   f"cidadão.{told}")


async def _geocode(request: web.Request, form: dict) -> web.Response:
    """The typed address → a point in the city, shown on the map for staff to confirm."""
    query = form["address"]
    if len(query) < 3:
        raise InvalidInput("Digite o endereço (rua, número e bairro) antes de buscar.",
                           "address")
    try:
        place = await geocoder(request).geocode(query)
    except GeocodingUnavailable:
        raise InvalidInput("O serviço de endereços não respondeu agora. Marque o local "
                           "clicando no mapa.", "address") from None
    if place is None or not core_of(request).area.contains(place.lat, place.lon):
        raise InvalidInput(f"Não encontramos “{query}” em {core_of(request).city.name}. "
                           "Confira a rua e o número, ou marque o local clicando no mapa.",
                           "address")
    form.update(lat=f"{place.lat:.6f}", lon=f"{place.lon:.6f}", address=place.address,
                neighbourhood=place.neighbourhood or "")
    return await _page(request, form, notice=(
        f"Endereço encontrado: {place.address}. Confira o ponto no mapa com o cidadão; se "
        "não for ali, clique no lugar certo."))


@require()
async def told(request: web.Request) -> web.StreamResponse:
    label = await intake.mark_told(core_of(request), request.match_info["protocol"],
                                   user_of(request))
    raise redirect(request, "/balcao", f"Registrado: o cidadão foi avisado ({label}).")
