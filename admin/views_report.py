"""The web report (/publico/denunciar, and /publico/<city>/denunciar serving several cities):
a page anyone can use from a phone, no app and no account, on the same conversation as the
bots (core.services.citizens.conversation.step): one question a page, the answer posted as
the conversation's input (a `Said`), the outcome stored over the version it was read at
(core.services.citizens.web_drafts), the next question rendered. Its words are the bots', as
the page says them (conversation.web).

The visitor's report is kept by a random token in a cookie (no account); a form carries the
key of the question it shows (steps.key), so an answer is stored only for the question it
answers: a form sent twice, or from an older tab, is told where the report stands. Works
without JavaScript (an address typed, plain buttons); with it, the map's pin and "Usar minha
localização". Photos go through the one upload check (store_upload) before anything is kept;
a report refused as a program's leaves no file (orphans.discard)."""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from admin import params
from admin.views_intake import geocoder
from admin.views_public import PREFIX, CITY_SLUG, page, public_pages
from admin.visitor import visitor_ip
from admin.web import SETTINGS, core_of
from core import media
from core.services.cases.evidence import store_upload
from core.services.cases.orphans import discard
from core.services.citizens import web_drafts as drafts
from core.services.citizens.conversation import photos, receipt, step, steps, words
from core.services.citizens.conversation import web as wording
from core.services.citizens.conversation.answers import Refused, Taken
from core.services.citizens.conversation.location import Support
from core.services.citizens.conversation.prompts import (Prompt, candidate_caption, city_core,
                                                         question)
from core.services.citizens.conversation.states import (CATEGORY, DESCRIPTION, DUPLICATES,
                                                        IDLE, LOCATION, PHOTOS, PLATE, SIGNS,
                                                        SUMMARY)
from core.services.citizens.reports import MAX_PHOTOS
from core.services.context import Core
from core.services.errors import InvalidInput, NotFound
from core.services.messaging import email_confirm
from core.services.messaging.conversation import AlreadyProcessed
from core.services.public.access import RateLimited
from core.services.public.cities import UNKNOWN_CITY

log = logging.getLogger(__name__)

COOKIE = "vl_denuncia"
#: The page asks for the visitor's position (its own origin only).
PERMISSIONS = "geolocation=(self), camera=(), microphone=()"
SESSION_LOST = ("Não encontramos sua denúncia em andamento (o navegador não guardou o cookie "
                "da página, ou ela ficou parada por mais de um dia). Comece de novo aqui.")


@dataclass
class Shown:
    """What the page shows now: the conversation's state and draft, what was said above the
    question (an acknowledgement) or why the answer was refused."""
    state: str
    draft: dict[str, Any]
    notice: str = ""
    error: str = ""
    prompt: Prompt | None = None  # the question worded for this moment (a refusal's, a menu)
    status: int = 200
    extra: dict[str, Any] = field(default_factory=dict)


def _fresh(core: Core, chat: drafts.WebChat) -> drafts.WebChat:
    """A chat with no report in progress begins one (in memory: written by its first answer);
    its draft's id comes from the token and the version, so the page's key holds across
    requests."""
    if chat.state == IDLE or not chat.draft.get("id"):
        chat.state = LOCATION if core.many_cities else CATEGORY
        chat.draft = {"id": f"{chat.token_hash[:4]}{chat.version:x}", "photos": []}
        chat.created_at = None  # a new report: its fill time counts from its first answer
    return chat


def _token(request: web.Request) -> str | None:
    token = request.cookies.get(COOKIE)
    return token if drafts.valid_token(token) else None


def _respond(request: web.Request, resp: web.Response, token: str) -> web.Response:
    if request.cookies.get(COOKIE) != token:
        resp.set_cookie(COOKIE, token, httponly=True, samesite="Lax", path=PREFIX,
                        secure=request.app[SETTINGS].admin_cookie_secure,
                        max_age=int(drafts.LIFETIME.total_seconds()))
    resp.headers["Permissions-Policy"] = PERMISSIONS
    return resp


@public_pages
async def report_page(request: web.Request) -> web.Response:
    """GET: the question the visitor's report is at (the first one for a new visitor), or
    the receipt of the report they just sent."""
    core = _installation(request)
    token = _token(request)
    if token is None:
        token = drafts.new_token()
        chat = drafts.WebChat(drafts.hash_of(token))
    else:
        chat = await drafts.load(core, token)
    return _respond(request, await _render(request, core, chat, _shown(core, chat)), token)


@public_pages
async def report_post(request: web.Request) -> web.Response:
    """POST: one answer to the question shown (its key), as the conversation takes it."""
    core = _installation(request)
    form = await request.post()
    token = _token(request)
    if token is None:  # no cookie: nothing to continue; the first question
        token = drafts.new_token()
        chat = _fresh(core, drafts.WebChat(drafts.hash_of(token)))
        return _respond(request, await _render(request, core, chat, Shown(
            chat.state, chat.draft, error=SESSION_LOST, status=400)), token)
    chat = await drafts.load(core, token, visitor_ip(request))  # and the person's count
    try:
        drafts.check_step(core, chat)
        shown = await _answer(request, core, chat, form)
    except RateLimited as exc:
        shown = _shown(core, chat)
        shown.error, shown.status = exc.message, 429
    except InvalidInput as exc:  # a field that cannot be an answer: said, the report kept
        shown = _shown(core, chat)
        shown.error, shown.status = exc.message, 400
    except AlreadyProcessed:  # another request moved the report meanwhile: where it is now
        chat = await drafts.load(core, token)
        shown = _shown(core, chat)
        shown.error, shown.status = wording.for_web(words.STALE_CHOICE), 409
    if not chat.counted:  # nothing written: the answer is counted on its own
        await drafts.count_step(core, visitor_ip(request))
    return _respond(request, await _render(request, core, chat, shown), token)


def _installation(request: web.Request) -> Core:
    """The installation (the pin decides the city); a city in the path must be one served."""
    core = core_of(request)
    slug = request.match_info.get("city")
    if slug is not None and core.city_named(slug) is None:
        raise NotFound(UNKNOWN_CITY)
    return core


def _shown(core: Core, chat: drafts.WebChat) -> Shown:
    if chat.state == drafts.SENT:
        return Shown(drafts.SENT, chat.draft)
    chat = _fresh(core, chat)
    return Shown(chat.state, chat.draft)


# -- an answer ----------------------------------------------------------------------------

async def _answer(request: web.Request, core: Core, chat: drafts.WebChat, form) -> Shown:
    choice = params.text(form.get("choice"), "Resposta", 80)
    if chat.state == drafts.SENT:
        if choice == "new":  # stored, so the next answer is to the new report's question
            chat.created_at = None  # and its fill time counts afresh
            await drafts.save(core, chat, IDLE, {})
        return _shown(core, chat)
    chat = _fresh(core, chat)
    state, d = chat.state, chat.draft
    if params.text(form.get("key"), "Etapa", 40) != steps.key(d):
        return Shown(state, d, error=wording.for_web(words.STALE_CHOICE), status=409)
    try:
        drafts.check_person(core, chat, params.text(form.get("site"), "Site", 200),
                            confirming=False)
    except InvalidInput as exc:  # a program: nothing of its report is kept
        await _drop(core, chat)
        return Shown(IDLE, {}, error=exc.message, status=400)
    if choice == "cancel":
        await _drop(core, chat)
        _fresh(core, chat)
        return Shown(chat.state, chat.draft, notice="Denúncia cancelada. Nada foi registrado.")
    saids, refusal = await _saids(core, state, d, form, choice)
    shown, notices = Shown(state, d), []
    for said in saids:
        outcome = await step.take(core, shown.state, shown.draft, said, geocoder(request))
        if isinstance(outcome, step.Confirmed):
            return await _confirm(request, core, chat, outcome.draft, form)
        if isinstance(outcome, Support):
            return await _support(core, chat, outcome.protocol, shown.draft)
        shown = _outcome(shown, outcome)
        if shown.notice:
            notices.append(shown.notice)
        if shown.error or isinstance(outcome, step.Menu):
            break
    if refusal:  # an upload not kept: said first, above what the rest of the form met
        shown.error = "\n\n".join(e for e in (refusal, shown.error) if e)
        shown.status = 400
    if shown.draft != d or shown.state != state:
        draft = steps.advance(dict(shown.draft), state, shown.state, None)
        await drafts.save(core, chat, shown.state, draft)
        shown.draft = draft
    shown.notice = "\n\n".join(notices)
    return shown


async def _drop(core: Core, chat: drafts.WebChat) -> None:
    """The report in progress dropped, and its photos with it (the draft first: a file a
    draft names is kept)."""
    shas = [p["sha"] for p in chat.draft.get("photos", [])]
    if chat.version:
        await drafts.save(core, chat, IDLE, {})
    await discard(core, shas)


def _outcome(shown: Shown, outcome: step.Outcome | None) -> Shown:
    """The page after one outcome of the conversation (not a submission)."""
    state, d = shown.state, shown.draft
    if outcome is None:
        return Shown(state, d, error=wording.for_web(words.STALE_CHOICE), status=409)
    if isinstance(outcome, Taken):  # a photo's acknowledgement is the photos question's own
        worded = outcome.prompt if outcome.state not in (DUPLICATES, PHOTOS) else None
        return Shown(outcome.state, outcome.draft, notice=outcome.said.strip(), prompt=worded)
    if isinstance(outcome, Refused):
        return Shown(state, d, error=(outcome.prompt.text if outcome.prompt is not None
                                      else outcome.text), status=400)
    if isinstance(outcome, step.Toggled):
        return Shown(SIGNS, outcome.draft)
    if isinstance(outcome, step.Menu):
        return Shown(state, d, prompt=outcome.prompt)
    raise TypeError(outcome)  # Confirmed and Support are acted on by the caller


async def _saids(core: Core, state: str, d: dict[str, Any], form, choice: str
                 ) -> tuple[list[step.Said], str]:
    """What the form says, as the conversation reads it, in order (the photos first, each
    checked and stored; the signs marked or unmarked, then "Continuar"), and a refusal of an
    upload that was not kept (the other files are)."""
    saids: list[step.Said] = []
    refusal = ""
    if state == PHOTOS:
        for item in form.getall("photos", []):
            if not hasattr(item, "file"):
                continue
            data = item.file.read()
            if not data and not item.filename:
                continue  # the empty file input of a form sent without a photo
            so_far = dict(d, photos=list(d.get("photos", [])) + [x.photo for x in saids
                                                                 if x.photo])
            refusal = photos.refused(so_far, None) or ""  # the draft full: nothing stored
            if refusal:
                break
            try:
                stored = await store_upload(core, data, (media.IMAGE,))
            except (media.MediaRefused, InvalidInput) as exc:
                refusal = exc.message
                continue
            refusal = photos.refused(so_far, stored.sha256) or ""  # the same photo again
            if refusal:
                continue
            photo = {"sha": stored.sha256, "mime": stored.mime, "file_id": None,
                     "unique_id": stored.sha256}
            saids.append(step.Said(step.PHOTO, photo=photo))
    if state == SIGNS and choice.startswith("signs"):
        ticked = set(d.get("signs", []))
        wanted = {str(v) for v in form.getall("sign", [])}
        for code in sorted(ticked ^ wanted):
            saids.append(step.Said(step.CHOICE, action="sign", value=code[:60]))
    if state == LOCATION and not choice:
        lat, lon = _number(form.get("lat")), _number(form.get("lon"))
        if lat is not None and lon is not None:
            saids.append(step.Said(step.PIN, lat=lat, lon=lon))
            return saids, refusal
        typed = params.text(form.get("text"), "Endereço", 400)
        saids.append(step.Said(step.TEXT, text=typed) if typed else step.Said(step.OTHER))
        return saids, refusal
    if choice:
        action, _, value = choice.partition(":")
        saids.append(step.Said(step.CHOICE, action=action, value=value))
    elif state != PHOTOS or not saids:
        typed = params.text(form.get("text"), "Resposta", 2000)
        saids.append(step.Said(step.TEXT, text=typed))
    return saids, refusal


def _number(value: Any) -> float | None:
    text = str(value or "").strip().replace(",", ".")
    if not text or len(text) > 30:
        return None
    try:
        return float(text)
    except ValueError:
        return None


async def _confirm(request: web.Request, core: Core, chat: drafts.WebChat, d: dict[str, Any],
                   form) -> Shown:
    """"Confirmar": the report sent, with its receipt stored in the same transaction (a form
    sent twice cannot report twice), and the e-mail given waiting for its confirmation."""
    here = city_core(core, d)
    try:
        drafts.check_person(core, chat, "", confirming=True)
        address = email_confirm.read_address(params.text(form.get("email"), "E-mail", 254)) \
            if email_confirm.offered(core) else None
        await drafts.submit(here, chat, d, address, visitor_ip(request))
    except InvalidInput as exc:
        return Shown(SUMMARY, d, error=exc.message, status=400,
                     extra={"email": params.text(form.get("email"), "E-mail", 254)})
    except RateLimited as exc:
        return Shown(SUMMARY, d, error=exc.message, status=429)
    return Shown(drafts.SENT, chat.draft)


async def _support(core: Core, chat: drafts.WebChat, protocol: str, d: dict[str, Any]) -> Shown:
    await drafts.support(city_core(core, d), chat, protocol, d)
    return Shown(drafts.SENT, chat.draft)


# -- the page -----------------------------------------------------------------------------

async def _render(request: web.Request, core: Core, chat: drafts.WebChat,
                  shown: Shown) -> web.Response:
    d = shown.draft
    ctx: dict[str, Any] = {"state": shown.state, "notice": wording.for_web(shown.notice),
                           "error": wording.for_web(shown.error),
                           "action": request.path, "web": wording, **shown.extra}
    here = city_core(core, d) if d.get("city") else None
    if shown.state == drafts.SENT:
        ctx.update(_receipt(core, d))
        return page(request, "public_report.html", ctx, ctx.get("here"), status=shown.status)
    if shown.state == IDLE:  # refused as a program's: the page begins again
        chat.state, chat.draft = IDLE, {}
        _fresh(core, chat)
        shown.state, d = chat.state, chat.draft
    prompt = shown.prompt or step.shown(core, shown.state, d)
    choices = [(c.label, f"{c.action}:{c.value}" if c.value is not None else c.action)
               for c in prompt.choices]
    ctx.update(key=steps.key(d) if d.get("id") else "", question=wording.for_web(prompt.text),
               choices=choices, photos=len(d.get("photos", [])), max_photos=MAX_PHOTOS,
               typed=shown.state in step.TYPED and shown.prompt is None,
               long_text=shown.state == DESCRIPTION, plate=shown.state == PLATE,
               menu=shown.prompt is not None and shown.state == SUMMARY)
    if shown.state == SIGNS and shown.prompt is None:
        ctx["signs"] = [(c.value, c.label[2:], (c.value or "") in d.get("signs", []))
                        for c in prompt.choices if c.action == "sign"]
        ctx["choices"] = [(label, value) for label, value in choices
                          if value.startswith("signs")]
    if shown.state == DUPLICATES:
        ctx["candidates"] = [{"caption": candidate_caption(c), "protocol": c["protocol"],
                              "photo": bool(c.get("photo"))} for c in d.get("candidates", [])]
    if shown.state == SUMMARY and shown.prompt is None:
        ctx["summary"] = question(core, d, SUMMARY).text.splitlines()[1:-2]
        ctx["privacy"] = wording.privacy_notice(here or core)
        ctx["email_offered"] = email_confirm.offered(core)
        ctx["consent"] = email_confirm.CONSENT
    if shown.state == LOCATION:
        area = (here or core).area
        ctx["map"] = {"lat": area.centre[0], "lon": area.centre[1],
                      "lat_value": d.get("lat", ""), "lon_value": d.get("lon", ""),
                      "tiles": request.app[SETTINGS].map_tile_url}
    return page(request, "public_report.html", ctx, here if not core.many_cities else None,
                status=shown.status)


def _receipt(core: Core, sent: dict[str, Any]) -> dict[str, Any]:
    protocol = sent["protocol"]
    here = city_core(core, sent)
    status = f"{PREFIX}/protocolo/{protocol}"
    if sent.get("supported"):
        return {"supported": wording.supported(protocol), "protocol": protocol, "status": status,
                "here": here}
    law = here.law
    track = law.categories[sent["category"]].track
    label = law.tracks[track].state(law.tracks[track].initial).label
    from core.services.citizens.reports import Submitted
    parts = receipt.parts(here, sent, Submitted(0, protocol, "", label, ()), in_chat=False)
    return {"receipt": parts, "protocol": protocol, "status": status, "here": here,
            "email": sent.get("email")}


async def confirm_email(request: web.Request) -> web.Response:
    """GET /publico/email/confirmar/{token}: the link in the e-mail opened."""
    core = core_of(request)
    try:
        done = await email_confirm.confirm(core, request.match_info["token"])
    except (NotFound, InvalidInput) as exc:
        return page(request, "public_message.html", {
            "title": "Link de confirmação", "message": exc.message},
            status=404 if isinstance(exc, NotFound) else 400)
    return page(request, "public_message.html", {
        "title": "E-mail confirmado",
        "message": f"Pronto: {done.address} vai receber os avisos do caso {done.protocol}. "
                   "Cada e-mail traz um link para parar de receber."})


def setup(app: web.Application) -> None:
    """Registered before the public pages: /publico/{city} would take /publico/denunciar."""
    r = app.router
    for base in (PREFIX, f"{PREFIX}/{{city:{CITY_SLUG}}}"):
        r.add_get(f"{base}/denunciar", report_page)
        r.add_post(f"{base}/denunciar", report_post)
    r.add_get(PREFIX + "/email/confirmar/{token}", confirm_email)
