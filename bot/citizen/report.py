"""/denunciar: the report conversation (the table in bot/citizen/states.py).

Every handler follows one pattern: read the input, refuse it clearly (nothing written, the
question asked again) or store it with the next state in one transaction, then answer.
Buttons carry "rep:<draft id>:<action>[:<arg>]"; one from another draft or another state is
stale and gets a polite answer."""
from __future__ import annotations

import asyncio
import logging
import secrets

from telegram import InputFile, ReplyKeyboardRemove

from bot.citizen import texts
from bot.citizen.media import fetch, photo_of
from bot.downloads import guarded
from core.services.evidence import public_photo
from bot.citizen.states import (ADDRESS_CONFIRM, CATEGORY, DESCRIPTION, DUPLICATES, FIXABLE,
                                IDLE, LOCATION, MAKE_MODEL, PHOTOS, PLATE, SIGNS, SUMMARY,
                                TIME_THERE, COLOUR, button_allowed, next_question)
from bot.geocoding import GeocodingUnavailable
from bot.router import Turn, inline, location_keyboard, send_or_queue
from bot.texts import INVALID_LOCATION, STALE_BUTTON
from core.area import valid_point
from core.identifiers import InvalidIdentifier, format_plate, normalize_plate
from core.services.evidence import EvidenceIn
from core.services.guidance import citizen_signs, next_steps
from core.services.reports import (MAX_PHOTOS, MAX_TEXT, ReportIn, find_nearby, submit_report,
                                   support_case)

log = logging.getLogger(__name__)
SHORT_TEXT = 120  # colour, make/model, how long


# ----------------------------------------------------------------------------- prompts

def _b(draft: dict, action: str) -> str:
    return f"rep:{draft['id']}:{action}"


async def ask(turn: Turn, state: str, before: str = "") -> None:
    """Send the question of `state` (also used to repeat it after bad input), with `before`
    (e.g. the acknowledgement of the previous answer) at the top."""
    d, law = turn.conv.draft, turn.core.law
    if before:
        turn = _Prefixed(turn, before)
    if state == CATEGORY:
        rows = [[(c.label, _b(d, f"cat:{c.code}"))] for c in law.categories.values()]
        await turn.reply(texts.ASK_CATEGORY, inline(rows))
    elif state == PHOTOS:
        n = len(d.get("photos", []))
        extra = f"\n\nJá recebi {n} foto(s)." if n else ""
        kind = f"Tipo: {law.categories[d['category']].label}\n\n"
        await turn.reply(kind + texts.ASK_PHOTOS + extra,
                         inline([[("✅ Pronto", _b(d, "done"))]]))
    elif state == LOCATION:
        await turn.reply(texts.ASK_LOCATION, location_keyboard())
    elif state == ADDRESS_CONFIRM:
        p = d["pending"]
        await turn.reply(f"Entendi este endereço:\n{p['address']}\n\nÉ aí que está o objeto?",
                         inline([[("✅ Sim, é aqui", _b(d, "addr:yes")),
                                  ("❌ Não", _b(d, "addr:no"))]]))
    elif state == DUPLICATES:
        await _show_candidates(turn)
    elif state == PLATE:
        await turn.reply(texts.ASK_PLATE, inline([[("Pular", _b(d, "skip"))]]))
    elif state == COLOUR:
        await turn.reply(texts.ASK_COLOUR, inline([[("Pular", _b(d, "skip"))]]))
    elif state == MAKE_MODEL:
        await turn.reply(texts.ASK_MAKE_MODEL, inline([[("Pular", _b(d, "skip"))]]))
    elif state == TIME_THERE:
        rows = [[(t, _b(d, f"time:{i}"))] for i, t in enumerate(texts.TIME_OPTIONS)]
        await turn.reply(texts.ASK_TIME_THERE, inline(rows))
    elif state == SIGNS:
        await turn.reply(texts.ASK_SIGNS, _signs_keyboard(turn))
    elif state == DESCRIPTION:
        await turn.reply(texts.ASK_DESCRIPTION, inline([[("Pular", _b(d, "skip"))]]))
    elif state == SUMMARY:
        await turn.reply(summary(turn), inline([[("✅ Confirmar", _b(d, "ok")),
                                                ("✏️ Corrigir", _b(d, "fix"))]]))


class _Prefixed:
    """A Turn whose next reply starts with a given text (one message instead of two)."""

    def __init__(self, turn: Turn, before: str) -> None:
        self._turn, self._before = turn, before

    def __getattr__(self, name):
        return getattr(self._turn, name)

    async def reply(self, text: str, markup=None):
        before, self._before = self._before, ""
        return await self._turn.reply(before + text, markup)


def _signs_keyboard(turn: Turn):
    d = turn.conv.draft
    ticked = set(d.get("signs", []))
    rows = [[(("✅ " if c.code in ticked else "⬜ ") + c.label, _b(d, f"sign:{c.code}"))]
            for c in citizen_signs(turn.core.law, d["category"])]
    rows.append([("Continuar ➡️", _b(d, "signs:done"))])
    return inline(rows)


def summary(turn: Turn) -> str:
    d, law = turn.conv.draft, turn.core.law
    cat = law.categories[d["category"]]
    lines = ["Confira sua denúncia:", f"Tipo: {cat.label}", f"Fotos: {len(d['photos'])}",
             f"Local: {d.get('address') or _coords(d)}"]
    if d.get("plate"):
        lines.append(f"Placa: {format_plate(d['plate'])}")
    for key, label in (("colour", "Cor"), ("make_model", "Marca/modelo"),
                       ("time_there", "Tempo no local")):
        if d.get(key):
            lines.append(f"{label}: {d[key]}")
    labels = {c.code: c.label for c in law.criteria}
    if d.get("signs"):
        lines.append("Sinais de abandono: " + "; ".join(labels[s] for s in d["signs"]))
    if d.get("description"):
        lines.append(f"Descrição: {d['description']}")
    lines.append("\nEstá tudo certo?")
    return "\n".join(lines)


def _coords(d: dict) -> str:
    return f"{d['lat']:.5f}, {d['lon']:.5f}"


async def go(turn: Turn, state: str, draft: dict) -> None:
    """Store `draft` in `state` (durable from here on), then ask its question."""
    await turn.save(state, draft)
    await ask(turn, state)


def _after(turn: Turn, answered: str) -> str:
    d = turn.conv.draft
    if d.get("fixing"):
        return SUMMARY
    return next_question(turn.core.law, d["category"], answered)


# ----------------------------------------------------------------------------- entry

async def start_report(turn: Turn) -> None:
    if turn.conv.state != IDLE and turn.conv.state.startswith("report:"):
        await turn.reply(texts.RESUMING)
        await ask(turn, turn.conv.state)
        return
    draft = {"id": secrets.token_hex(3), "photos": []}
    await go(turn, CATEGORY, draft)


# ----------------------------------------------------------------------------- messages

async def on_message(turn: Turn) -> None:
    state, msg = turn.conv.state, turn.message
    if msg is None:
        return
    handler = {PHOTOS: _photos_message, LOCATION: _location_message,
               PLATE: _plate_message, COLOUR: _text_answer, MAKE_MODEL: _text_answer,
               TIME_THERE: _text_answer, DESCRIPTION: _text_answer}.get(state)
    if handler is not None:
        await handler(turn)
        return
    await turn.reply(texts.NEED_BUTTON)
    await ask(turn, state)


async def _photos_message(turn: Turn) -> None:
    msg, d = turn.message, dict(turn.conv.draft)
    item, refusal = photo_of(msg)
    if refusal is None and len(d["photos"]) >= MAX_PHOTOS:
        refusal = texts.PHOTO_MAX
    if refusal is None and any(p["unique_id"] == item.unique_id for p in d["photos"]):
        refusal = texts.PHOTO_SEEN
    if refusal is None:
        sha, refusal = await guarded(fetch(turn.bot, turn.core, item))
    if refusal is not None:
        await turn.reply(refusal, inline([[("✅ Pronto", _b(d, "done"))]]))
        return
    d["photos"] = d["photos"] + [{"sha": sha, "mime": item.mime, "file_id": item.file_id,
                                  "unique_id": item.unique_id}]
    await turn.save(PHOTOS, d)
    if msg.media_group_id:
        _ack_album_later(turn, msg.media_group_id)
    else:
        await _ack_photos(turn.bot, turn.context.bot_data, turn.chat_id, d)


async def _ack_photos(bot, bot_data: dict, chat_id: int, d: dict) -> None:
    n = len(d["photos"])
    more = (f"Pode enviar mais {MAX_PHOTOS - n} ou tocar em Pronto." if n < MAX_PHOTOS
            else "Esse é o máximo; toque em Pronto.")
    await send_or_queue(bot, bot_data, chat_id, f"📷 {n} foto(s) recebida(s). {more}",
                        inline([[("✅ Pronto", _b(d, "done"))]]))


def _ack_album_later(turn: Turn, group: str) -> None:
    """One acknowledgement per album: an album's photos arrive as separate updates with no
    count, so the answer waits until none has arrived for `album_delay_s`."""
    bd = turn.context.bot_data
    timers: dict = bd.setdefault("album_timers", {})
    key = (turn.user_id, group)
    if (old := timers.get(key)) is not None:
        old.cancel()
    core, bot, chat, user = turn.core, turn.bot, turn.chat_id, turn.user_id

    async def later() -> None:
        try:
            await asyncio.sleep(bd["album_delay_s"])
            from core.services.conversation import load
            conv = await load(core, user)
            if conv.state == PHOTOS:
                await _ack_photos(bot, bd, chat, conv.draft)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("album acknowledgement failed")
        finally:
            if timers.get(key) is task:
                del timers[key]

    task = asyncio.get_running_loop().create_task(later())
    timers[key] = task


async def _location_message(turn: Turn) -> None:
    msg, d, core = turn.message, dict(turn.conv.draft), turn.core
    if msg.location is not None or msg.venue is not None:
        loc = msg.location or msg.venue.location
        lat, lon = loc.latitude, loc.longitude
        if not core.area.contains(lat, lon):  # NaN, infinity, 91°… are not on the map at all
            await turn.reply(texts.OUTSIDE.format(city=core.law.city, law=core.law.short)
                             if valid_point(lat, lon) else INVALID_LOCATION, location_keyboard())
            return
        address = neighbourhood = None
        try:
            place = await turn.service("geocoder").reverse(lat, lon)
            if place is not None:
                address, neighbourhood = place.address, place.neighbourhood
        except GeocodingUnavailable:
            pass  # the pin is enough; the address is a courtesy
        d.update(lat=lat, lon=lon, address=address, neighbourhood=neighbourhood,
                 location_source="pin")
        await _location_accepted(turn, d)
        return
    text = (msg.text or "").strip()
    if not text:
        await turn.reply(texts.NEED_LOCATION, location_keyboard())
        return
    if len(text) > 300:
        await turn.reply(texts.TOO_LONG.format(n=300), location_keyboard())
        return
    query = text if core.law.city.casefold() in text.casefold() else f"{text}, {core.law.city}"
    try:
        place = await turn.service("geocoder").geocode(query)
    except GeocodingUnavailable:
        await turn.reply(texts.GEOCODER_DOWN, location_keyboard())
        return
    if place is None:
        await turn.reply(texts.NOT_FOUND.format(city=core.law.city), location_keyboard())
        return
    if not core.area.contains(place.lat, place.lon):
        await turn.reply(texts.OUTSIDE.format(city=core.law.city, law=core.law.short),
                         location_keyboard())
        return
    d["pending"] = {"lat": place.lat, "lon": place.lon, "address": place.address,
                    "neighbourhood": place.neighbourhood, "typed": text}
    await go(turn, ADDRESS_CONFIRM, d)


async def _location_accepted(turn: Turn, d: dict) -> None:
    """Location stored: offer open cases nearby first, else go on with the questions."""
    d.pop("pending", None)
    found = await find_nearby(turn.core, d["category"], d["lat"], d["lon"])
    where = d.get("address") or _coords(d)
    if found:
        d["candidates"] = [{"protocol": f.protocol, "address": f.address, "photo": f.photo_sha256,
                            "state": f.state_label, "distance": f.distance_m,
                            "category": f.category_label} for f in found[:5]]
        await turn.save(DUPLICATES, d)
        await ask(turn, DUPLICATES, f"📍 Local registrado: {where}\n\n")
        return
    d.pop("candidates", None)
    nxt = SUMMARY if d.pop("fixing", None) else next_question(turn.core.law, d["category"], None)
    await turn.save(nxt, d)
    await ask(turn, nxt, f"📍 Local registrado: {where}\n\n")


async def _show_candidates(turn: Turn) -> None:
    d = turn.conv.draft
    await turn.reply("Já existe denúncia aberta do mesmo tipo bem perto desse local. "
                     "Veja se é o mesmo objeto:")
    rows = []
    for c in d["candidates"]:
        caption = (f"Protocolo {c['protocol']} — {c['category']}\nSituação: {c['state']}\n"
                   f"Local: {c['address'] or 'sem endereço'} (a {c['distance']:.0f} m)")
        data = await public_photo(turn.core, c["photo"]) if c.get("photo") else None
        if data is not None:  # another citizen's photo: the copy without EXIF/GPS
            await turn.bot.send_photo(turn.chat_id, InputFile(data, filename="caso.jpg"),
                                      caption=caption)
        else:
            await turn.reply(caption)
        rows.append([(f"É este: {c['protocol']}", _b(d, f"dup:{c['protocol']}"))])
    rows.append([("Não, é outro objeto", _b(d, "dup:new"))])
    await turn.reply("É algum destes? Se for, suas fotos são juntadas ao caso e você passa a "
                     "receber os avisos dele.", inline(rows))


async def _plate_message(turn: Turn) -> None:
    text = (turn.text or "").strip()
    if not text:
        await turn.reply(texts.NEED_TEXT)
        await ask(turn, PLATE)
        return
    try:
        plate = normalize_plate(text)
    except InvalidIdentifier as exc:
        await turn.reply(f"{exc} Confira e envie de novo, ou toque em Pular.",
                         inline([[("Pular", _b(turn.conv.draft, "skip"))]]))
        return
    d = dict(turn.conv.draft, plate=plate.value)
    await go(turn, _after(turn, PLATE), _unfix(d))


_FIELD = {COLOUR: "colour", MAKE_MODEL: "make_model", TIME_THERE: "time_there",
          DESCRIPTION: "description"}


async def _text_answer(turn: Turn) -> None:
    state = turn.conv.state
    text = (turn.text or "").strip()
    limit = MAX_TEXT if state == DESCRIPTION else SHORT_TEXT
    if not text:
        await turn.reply(texts.NEED_TEXT)
        await ask(turn, state)
        return
    if len(text) > limit:
        await turn.reply(texts.TOO_LONG.format(n=limit))
        return
    d = dict(turn.conv.draft, **{_FIELD[state]: text})
    await go(turn, _after(turn, state), _unfix(d))


def _unfix(d: dict) -> dict:
    d.pop("fixing", None)
    return d


# ----------------------------------------------------------------------------- buttons

async def on_button(turn: Turn) -> None:
    """"rep:<draft>:<action>[:<arg>]"."""
    parts, state, d = turn.data, turn.conv.state, dict(turn.conv.draft)
    if len(parts) < 3 or d.get("id") != parts[1] or not button_allowed(state, parts[2]):
        await turn.answer(STALE_BUTTON)
        return
    action, arg = parts[2], ":".join(parts[3:])
    handler = _BUTTONS[action]
    await handler(turn, d, arg)


async def _category(turn: Turn, d: dict, code: str) -> None:
    if code not in turn.core.law.categories:
        await turn.answer(STALE_BUTTON)
        return
    await turn.answer()
    changed = d.get("category") not in (None, code)
    d["category"] = code
    if changed:  # answers of another category's questions no longer apply
        for key in ("plate", "colour", "make_model", "signs"):
            d.pop(key, None)
    if d.get("fixing") and "lat" in d:
        d.pop("fixing")
        await _location_accepted(turn, d)
        return
    await go(turn, PHOTOS, d)


async def _photos_done(turn: Turn, d: dict, _: str) -> None:
    if not d.get("photos"):
        await turn.answer(texts.NEED_PHOTO_FIRST, alert=True)
        return
    await turn.answer()
    if d.get("fixing"):
        await go(turn, SUMMARY, _unfix(d))
        return
    await go(turn, LOCATION, d)


async def _address(turn: Turn, d: dict, arg: str) -> None:
    await turn.answer()
    if arg == "yes" and d.get("pending"):
        p = d["pending"]
        d.update(lat=p["lat"], lon=p["lon"], address=p["address"],
                 neighbourhood=p["neighbourhood"], location_source="typed")
        await _location_accepted(turn, d)
        return
    d.pop("pending", None)
    await turn.save(LOCATION, d)
    await turn.reply("Tudo bem. Envie a localização pelo botão 📍 (ou pelo clipe 📎 → "
                     "Localização, marcando o ponto no mapa), ou digite o endereço de novo.",
                     location_keyboard())


async def _duplicate(turn: Turn, d: dict, arg: str) -> None:
    if arg == "new":
        await turn.answer()
        d.pop("candidates", None)
        nxt = SUMMARY if d.get("fixing") else next_question(turn.core.law, d["category"], None)
        await go(turn, nxt, _unfix(d))
        return
    if arg not in {c["protocol"] for c in d.get("candidates", [])}:
        await turn.answer(STALE_BUTTON)
        return
    await turn.answer()
    protocol = await support_case(turn.core, arg, turn.user_id, _evidence(d),
                                  d.get("description"), display_name=turn.display_name,
                                  also=turn.hook(clear=True))
    await turn.reply(f"Obrigado! Suas fotos foram juntadas ao caso {protocol}, que já está em "
                     "andamento. Você vai receber aqui os avisos deste caso (para parar, use "
                     f"/minhas). Consulte quando quiser: /status {protocol}",
                     ReplyKeyboardRemove())


async def _skip(turn: Turn, d: dict, _: str) -> None:
    await turn.answer()
    state = turn.conv.state
    d.pop({PLATE: "plate", **_FIELD}[state], None)
    await go(turn, _after(turn, state), _unfix(d))


async def _time(turn: Turn, d: dict, arg: str) -> None:
    if not arg.isdigit() or int(arg) >= len(texts.TIME_OPTIONS):
        await turn.answer(STALE_BUTTON)
        return
    await turn.answer()
    d["time_there"] = texts.TIME_OPTIONS[int(arg)]
    await go(turn, _after(turn, TIME_THERE), _unfix(d))


async def _sign(turn: Turn, d: dict, code: str) -> None:
    codes = {c.code for c in citizen_signs(turn.core.law, d["category"])}
    if code not in codes:
        await turn.answer(STALE_BUTTON)
        return
    signs = list(d.get("signs", []))
    signs.remove(code) if code in signs else signs.append(code)
    d["signs"] = [c.code for c in turn.core.law.criteria if c.code in signs]
    await turn.save(SIGNS, d)
    await turn.answer("Marcado." if code in signs else "Desmarcado.")
    await turn.query.edit_message_reply_markup(_signs_keyboard(turn))


async def _signs_done(turn: Turn, d: dict, _: str) -> None:
    await turn.answer()
    await go(turn, _after(turn, SIGNS), _unfix(d))


async def _confirm(turn: Turn, d: dict, _: str) -> None:
    await turn.answer()
    report = ReportIn(category=d["category"], lat=d["lat"], lon=d["lon"],
                      photos=_evidence(d), address=d.get("address"),
                      neighbourhood=d.get("neighbourhood"), plate=d.get("plate"),
                      colour=d.get("colour"), make_model=d.get("make_model"),
                      time_there=d.get("time_there"), signs=tuple(d.get("signs", ())),
                      description=d.get("description"))
    done = await submit_report(turn.core, turn.user_id, report, display_name=turn.display_name,
                               also=turn.hook(clear=True))
    steps = done.next_steps or next_steps(turn.core.law, d["category"])
    lines = [f"✅ Denúncia registrada! Protocolo: {done.protocol}",
             f"Situação: {done.state_label}", "", "O que acontece agora:"]
    lines += [f"{i}. {s}" for i, s in enumerate(steps, 1)]
    lines += ["", f"Acompanhe com /status {done.protocol} ou /minhas. Você recebe um aviso aqui "
              "a cada etapa. Obrigado por ajudar a cidade!"]
    await turn.reply("\n".join(lines), ReplyKeyboardRemove())


async def _fix(turn: Turn, d: dict, field: str) -> None:
    await turn.answer()
    allowed = [s for s in FIXABLE if s in (CATEGORY, PHOTOS, LOCATION)
               or s in _questions(turn, d)]
    if not field:
        rows = [[(FIXABLE[s], _b(d, f"fix:{s.split(':')[1]}"))] for s in allowed]
        await turn.reply("O que você quer corrigir?", inline(rows))
        return
    state = f"report:{field}"
    if state not in allowed:
        await turn.answer(STALE_BUTTON)
        return
    d["fixing"] = True
    if state == PHOTOS:
        d["photos"] = []
        await turn.reply("As fotos anteriores foram descartadas. Envie as novas.")
    await go(turn, state, d)


def _questions(turn: Turn, d: dict) -> list[str]:
    from bot.citizen.states import questions
    return questions(turn.core.law, d["category"])


def _evidence(d: dict) -> list[EvidenceIn]:
    return [EvidenceIn(p["sha"], p["mime"], "photo", p["file_id"], p["unique_id"])
            for p in d.get("photos", [])]


_BUTTONS = {"cat": _category, "done": _photos_done, "addr": _address, "dup": _duplicate,
            "skip": _skip, "time": _time, "sign": _sign, "signs": _signs_done, "ok": _confirm,
            "fix": _fix}
