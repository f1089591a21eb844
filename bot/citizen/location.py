"""Where the object is: a pin or a typed address (geocoded, then confirmed), and the open
cases nearby the citizen may support instead of opening a new one.

The pin decides the city (core.city_at): the report goes to the prefeitura of the municipality
where the point is, under its law. A point in no city served is refused, naming them, and
what was already given stays in the draft. With several cities served and no category yet
(the location comes first: core/services/citizens/conversation/states.py), the category is
asked next, from that
city's list; a category chosen before that the city's law has not is asked again."""
from __future__ import annotations

from telegram import ReplyKeyboardRemove

from bot.citizen.photos import evidence
from bot.citizen.prompts import ask, category_prompt, city_core, go, here, store, unfix
from core.services.citizens.conversation import words
from core.services.citizens.conversation.states import (ADDRESS_CONFIRM, CATEGORY, DUPLICATES,
                                                        IDLE, LOCATION, SUMMARY, next_question)
from bot.geocoding import GeocodingUnavailable, find_address
from bot.router import Turn, location_keyboard
from bot.texts import INVALID_LOCATION, STALE_BUTTON
from core.area import valid_point
from core.services.citizens.conversation.prompts import registered
from core.services.citizens.conversation.report import CATEGORY_ANSWERS
from core.services.citizens.reports import find_nearby, support_case



def outside(core) -> str:
    """A point (or an address) in no city served."""
    if core.many_cities:
        return words.OUTSIDE_ALL.format(cities=core.cities_named())
    return words.OUTSIDE.format(city=core.city.name, law=core.law.short)


async def on_location(turn: Turn, d: dict | None = None) -> None:
    """A pin or a typed address in the location step; a pin before the category is chosen
    (also one sent before /denunciar: `d`, the new draft) is kept and the category asked."""
    msg, core = turn.message, turn.core
    d = dict(turn.conv.draft) if d is None else d
    if msg.location is not None or msg.venue is not None:
        loc = msg.location or msg.venue.location
        lat, lon = loc.latitude, loc.longitude
        city = core.city_at(lat, lon)  # NaN, infinity, 91°… are not on the map at all
        if city is None:
            await turn.reply(outside(core) if valid_point(lat, lon) else INVALID_LOCATION,
                             location_keyboard())
            return
        address = neighbourhood = None
        try:
            found = await turn.service("geocoder").reverse(lat, lon)
            if found is not None:
                address, neighbourhood = found.address, found.neighbourhood
        except GeocodingUnavailable:
            pass  # the pin is enough; the address is a courtesy
        d.update(lat=lat, lon=lon, address=address, neighbourhood=neighbourhood,
                 location_source="pin")
        await placed(turn, d, city)
        return
    text = (msg.text or "").strip()
    if not text:
        await turn.reply(words.NEED_LOCATION, location_keyboard())
        return
    if len(text) > 300:
        await turn.reply(words.TOO_LONG.format(n=300), location_keyboard())
        return
    try:
        places = await find_address(turn.service("geocoder"), text, core.cities)
    except GeocodingUnavailable:
        await turn.reply(words.GEOCODER_DOWN, location_keyboard())
        return
    inside: dict[str, tuple] = {}  # one place per city served, routed by the point
    for p in places:
        city = core.city_at(p.lat, p.lon)
        if city is not None:
            inside.setdefault(city.slug, (city, p))
    if not places:
        await turn.reply(words.NOT_FOUND_ALL.format(cities=core.cities_named())
                         if core.many_cities else words.NOT_FOUND.format(city=core.city.name),
                         location_keyboard())
        return
    if not inside:
        await turn.reply(outside(core), location_keyboard())
        return
    if len(inside) > 1:
        names = [c for c, _ in inside.values()]
        cities = ", ".join(c.label for c in names[:-1]) + " e " + names[-1].label
        await turn.reply(words.AMBIGUOUS.format(cities=cities,
                                                example=f"{text}, {names[0].name}"),
                         location_keyboard())
        return
    city, p = next(iter(inside.values()))
    d["pending"] = {"lat": p.lat, "lon": p.lon, "address": p.address,
                    "neighbourhood": p.neighbourhood, "typed": text, "city": city.slug}
    await go(turn, ADDRESS_CONFIRM, d)


async def placed(turn: Turn, d: dict, city) -> None:
    """The location is known and lies in `city`: the report is that city's from here on.
    Before the category (a pin sent first, or the location asked first with several cities)
    the category is asked from that city's list; a category the city's law has not is asked
    again; otherwise on to the nearby cases and the questions."""
    before = city_core(turn.core, d).law  # the law a category already chosen came from
    if d.get("city") not in (None, city.slug):
        d.pop("signs", None)  # the abandonment signs are each law's own
    d["city"] = city.slug
    law = city_core(turn.core, d).law
    said = registered(turn.core, d)
    if turn.conv.state in (IDLE, CATEGORY) or "category" not in d:
        await store(turn, CATEGORY, d)
        question, markup = category_prompt(turn.core, d)
        await turn.reply(said + question, markup)
        return
    if d["category"] not in law.categories:
        chosen = before.categories.get(d["category"])
        for key in ("category", *CATEGORY_ANSWERS):
            d.pop(key, None)
        await store(turn, CATEGORY, d)
        question, markup = category_prompt(turn.core, d)
        await turn.reply(said + words.CATEGORY_ELSEWHERE.format(
            city=city.label, what=f"o tipo “{chosen.label}”" if chosen
            else "o tipo que você escolheu"), markup)
        return
    await location_accepted(turn, d)


async def location_accepted(turn: Turn, d: dict) -> None:
    """Location stored: offer open cases nearby first (of the same city), else go on with
    the questions."""
    d.pop("pending", None)
    core = here(turn, d)
    found = await find_nearby(core, d["category"], d["lat"], d["lon"])
    said = registered(turn.core, d)
    if found:
        d["candidates"] = [{"protocol": f.protocol, "address": f.address, "photo": f.photo_sha256,
                            "state": f.state_label, "situation": f.situation,
                            "distance": f.distance_m,
                            "category": f.category_label} for f in found[:5]]
        await store(turn, DUPLICATES, d)
        await ask(turn, DUPLICATES, said)
        return
    d.pop("candidates", None)
    nxt = SUMMARY if d.pop("fixing", None) else next_question(core.law, d["category"], None)
    await store(turn, nxt, d)
    await ask(turn, nxt, said)


async def on_address(turn: Turn, d: dict, arg: str) -> None:
    await turn.answer()
    p = d.get("pending")
    city = None
    if arg == "yes" and p:
        city = (turn.core.city_named(p["city"]) if p.get("city")
                else turn.core.city_at(p["lat"], p["lon"]))
    if city is not None:
        d.update(lat=p["lat"], lon=p["lon"], address=p["address"],
                 neighbourhood=p["neighbourhood"], location_source="typed")
        d.pop("pending", None)
        await placed(turn, d, city)
        return
    d.pop("pending", None)
    await store(turn, LOCATION, d)
    await turn.reply(words.ADDRESS_AGAIN_ALL if turn.core.many_cities else
                     "Tudo bem. Envie a localização pelo botão 📍 (ou pelo clipe 📎 → "
                     "Localização, marcando o ponto no mapa), ou digite o endereço de novo.",
                     location_keyboard())


async def on_duplicate(turn: Turn, d: dict, arg: str) -> None:
    core = here(turn, d)
    if arg == "new":
        await turn.answer()
        d.pop("candidates", None)
        nxt = SUMMARY if d.get("fixing") else next_question(core.law, d["category"], None)
        await go(turn, nxt, unfix(d))
        return
    if arg not in {c["protocol"] for c in d.get("candidates", [])}:
        await turn.answer(STALE_BUTTON)
        return
    await turn.answer()
    protocol = await support_case(core, arg, turn.user_id, evidence(d),
                                  d.get("description"), display_name=turn.display_name,
                                  also=turn.hook(clear=True))
    await turn.reply(f"Obrigado! Suas fotos foram juntadas ao caso {protocol}, que já está em "
                     "andamento. Você vai receber aqui os avisos deste caso (para parar, use "
                     f"/minhas). Consulte quando quiser: /status {protocol}",
                     ReplyKeyboardRemove())
