"""Where the object is: a pin or a typed address (geocoded, then confirmed), and the open
cases nearby the citizen may support instead of opening a new one."""
from __future__ import annotations

from telegram import ReplyKeyboardRemove

from bot.citizen import texts
from bot.citizen.photos import evidence
from bot.citizen.prompts import ask, category_prompt, coords, go, unfix
from bot.citizen.states import (ADDRESS_CONFIRM, CATEGORY, DUPLICATES, IDLE, LOCATION, SUMMARY,
                                next_question)
from bot.geocoding import GeocodingUnavailable
from bot.router import Turn, location_keyboard
from bot.texts import INVALID_LOCATION, STALE_BUTTON
from core.area import valid_point
from core.services.citizens.reports import find_nearby, support_case


async def on_location(turn: Turn, d: dict | None = None) -> None:
    """A pin or a typed address in the location step; a pin before the category is chosen
    (also one sent before /denunciar: `d`, the new draft) is kept and the category asked."""
    msg, core = turn.message, turn.core
    d = dict(turn.conv.draft) if d is None else d
    if msg.location is not None or msg.venue is not None:
        loc = msg.location or msg.venue.location
        lat, lon = loc.latitude, loc.longitude
        if not core.area.contains(lat, lon):  # NaN, infinity, 91°… are not on the map at all
            await turn.reply(texts.OUTSIDE.format(city=core.city.name, law=core.law.short)
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
        if turn.conv.state in (IDLE, CATEGORY):
            await turn.save(CATEGORY, d)
            question, markup = category_prompt(core.law, d)
            await turn.reply(f"📍 Local registrado: {address or coords(d)}\n\n{question}",
                             markup)
            return
        await location_accepted(turn, d)
        return
    text = (msg.text or "").strip()
    if not text:
        await turn.reply(texts.NEED_LOCATION, location_keyboard())
        return
    if len(text) > 300:
        await turn.reply(texts.TOO_LONG.format(n=300), location_keyboard())
        return
    query = text if core.city.name.casefold() in text.casefold() else f"{text}, {core.city.name}"
    try:
        place = await turn.service("geocoder").geocode(query)
    except GeocodingUnavailable:
        await turn.reply(texts.GEOCODER_DOWN, location_keyboard())
        return
    if place is None:
        await turn.reply(texts.NOT_FOUND.format(city=core.city.name), location_keyboard())
        return
    if not core.area.contains(place.lat, place.lon):
        await turn.reply(texts.OUTSIDE.format(city=core.city.name, law=core.law.short),
                         location_keyboard())
        return
    d["pending"] = {"lat": place.lat, "lon": place.lon, "address": place.address,
                    "neighbourhood": place.neighbourhood, "typed": text}
    await go(turn, ADDRESS_CONFIRM, d)


async def location_accepted(turn: Turn, d: dict) -> None:
    """Location stored: offer open cases nearby first, else go on with the questions."""
    d.pop("pending", None)
    found = await find_nearby(turn.core, d["category"], d["lat"], d["lon"])
    where = d.get("address") or coords(d)
    if found:
        d["candidates"] = [{"protocol": f.protocol, "address": f.address, "photo": f.photo_sha256,
                            "state": f.state_label, "situation": f.situation,
                            "distance": f.distance_m,
                            "category": f.category_label} for f in found[:5]]
        await turn.save(DUPLICATES, d)
        await ask(turn, DUPLICATES, f"📍 Local registrado: {where}\n\n")
        return
    d.pop("candidates", None)
    nxt = SUMMARY if d.pop("fixing", None) else next_question(turn.core.law, d["category"], None)
    await turn.save(nxt, d)
    await ask(turn, nxt, f"📍 Local registrado: {where}\n\n")



async def on_address(turn: Turn, d: dict, arg: str) -> None:
    await turn.answer()
    if arg == "yes" and d.get("pending"):
        p = d["pending"]
        d.update(lat=p["lat"], lon=p["lon"], address=p["address"],
                 neighbourhood=p["neighbourhood"], location_source="typed")
        await location_accepted(turn, d)
        return
    d.pop("pending", None)
    await turn.save(LOCATION, d)
    await turn.reply("Tudo bem. Envie a localização pelo botão 📍 (ou pelo clipe 📎 → "
                     "Localização, marcando o ponto no mapa), ou digite o endereço de novo.",
                     location_keyboard())


async def on_duplicate(turn: Turn, d: dict, arg: str) -> None:
    if arg == "new":
        await turn.answer()
        d.pop("candidates", None)
        nxt = SUMMARY if d.get("fixing") else next_question(turn.core.law, d["category"], None)
        await go(turn, nxt, unfix(d))
        return
    if arg not in {c["protocol"] for c in d.get("candidates", [])}:
        await turn.answer(STALE_BUTTON)
        return
    await turn.answer()
    protocol = await support_case(turn.core, arg, turn.user_id, evidence(d),
                                  d.get("description"), display_name=turn.display_name,
                                  also=turn.hook(clear=True))
    await turn.reply(f"Obrigado! Suas fotos foram juntadas ao caso {protocol}, que já está em "
                     "andamento. Você vai receber aqui os avisos deste caso (para parar, use "
                     f"/minhas). Consulte quando quiser: /status {protocol}",
                     ReplyKeyboardRemove())

