"""Where the object is, decided once for every face: a pin, or a typed address (geocoded,
then confirmed), and then the open cases nearby the citizen may support instead of opening a
new one.

The pin decides the city (Core.city_at): the report goes to the prefeitura of the municipality
where the point is, under its law. A point in no city served is refused, naming them, and what
was already given stays in the draft. With several cities served and no category yet (the
location comes first: states.py), the category is asked next, from that city's list; a category
chosen before that the city's law has not is asked again.

Each function says what was understood (answers.Taken: the draft and the next state, with what
to say above its question) or why not (answers.Refused: nothing stored, the location asked for
again). `LOCATED` (report.py) is resolved by `settle`: the nearby cases, or the next question."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.area import valid_point
from core.services.citizens.conversation import words
from core.services.citizens.conversation.answers import Refused, Taken
from core.services.citizens.conversation.prompts import Prompt, category, city_core, registered
from core.services.citizens.conversation.report import CATEGORY_ANSWERS, LOCATED
from core.services.citizens.conversation.states import (ADDRESS_CONFIRM, CATEGORY, DUPLICATES,
                                                        IDLE, LOCATION, SUMMARY,
                                                        next_question)
from core.services.citizens.reports import find_nearby
from core.services.context import Core
from core.services.geocoding import Geocoder, GeocodingUnavailable, find_address

MAX_ADDRESS = 300  # characters of a typed address


@dataclass(frozen=True)
class Support:
    """"É este": the citizen's photos join the open case `protocol` (the face calls
    core.services.citizens.reports.support_case, then says `words.SUPPORTED`)."""
    protocol: str


def again(text: str) -> Refused:
    """A refusal of the location given: `text`, and the location asked for again."""
    return Refused("", again=False, prompt=Prompt(text, location=True))


def outside(core: Core) -> str:
    """A point (or an address) in no city served."""
    if core.many_cities:
        return words.OUTSIDE_ALL.format(cities=core.cities_named())
    return words.OUTSIDE.format(city=core.city.name, law=core.law.short)


async def pinned(core: Core, d: dict[str, Any], state: str, lat: float, lon: float,
                 geocoder: Geocoder) -> Taken | Refused:
    """A pin in the draft `d` (in `state`): in a city served, the report is that city's; its
    address is looked up as a courtesy (the pin is enough when the geocoder is down)."""
    city = core.city_at(lat, lon)  # NaN, infinity, 91°… are not on the map at all
    if city is None:
        return again(outside(core) if valid_point(lat, lon) else words.INVALID_LOCATION)
    address = neighbourhood = None
    try:
        found = await geocoder.reverse(lat, lon)
        if found is not None:
            address, neighbourhood = found.address, found.neighbourhood
    except GeocodingUnavailable:
        pass  # the pin is enough; the address is a courtesy
    d = dict(d, lat=lat, lon=lon, address=address, neighbourhood=neighbourhood,
             location_source="pin")
    return placed(core, d, state, city)


async def address_typed(core: Core, d: dict[str, Any], text: str | None,
                        geocoder: Geocoder) -> Taken | Refused:
    """An address typed instead of a pin: found in exactly one city served, it is asked to be
    confirmed (ADDRESS_CONFIRM); not found, outside or in several cities, refused saying so."""
    text = (text or "").strip()
    if not text:
        return again(words.NEED_LOCATION)
    if len(text) > MAX_ADDRESS:
        return again(words.TOO_LONG.format(n=MAX_ADDRESS))
    try:
        places = await find_address(geocoder, text, core.cities)
    except GeocodingUnavailable:
        return again(words.GEOCODER_DOWN)
    if not places:
        return again(words.NOT_FOUND_ALL.format(cities=core.cities_named())
                     if core.many_cities else words.NOT_FOUND.format(city=core.city.name))
    inside: dict[str, tuple] = {}  # one place per city served, routed by the point
    for p in places:
        city = core.city_at(p.lat, p.lon)
        if city is not None:
            inside.setdefault(city.slug, (city, p))
    if not inside:
        return again(outside(core))
    if len(inside) > 1:
        names = [c for c, _ in inside.values()]
        cities = ", ".join(c.label for c in names[:-1]) + " e " + names[-1].label
        return again(words.AMBIGUOUS.format(cities=cities, example=f"{text}, {names[0].name}"))
    city, p = next(iter(inside.values()))
    return Taken(dict(d, pending={"lat": p.lat, "lon": p.lon, "address": p.address,
                                  "neighbourhood": p.neighbourhood, "typed": text,
                                  "city": city.slug}), ADDRESS_CONFIRM)


def address_answered(core: Core, d: dict[str, Any], state: str, yes: bool) -> Taken:
    """"Sim, é aqui" (the address found is the place) or "Não" (the location asked again)."""
    d = dict(d)
    p = d.pop("pending", None)
    city = None
    if yes and p:
        city = (core.city_named(p["city"]) if p.get("city")
                else core.city_at(p["lat"], p["lon"]))
    if city is None:
        text = words.ADDRESS_AGAIN_ALL if core.many_cities else words.ADDRESS_AGAIN
        return Taken(d, LOCATION, prompt=Prompt(text, location=True))
    d.update(lat=p["lat"], lon=p["lon"], address=p["address"],
             neighbourhood=p["neighbourhood"], location_source="typed")
    return placed(core, d, state, city)


def placed(core: Core, d: dict[str, Any], state: str, city) -> Taken:
    """The location is known and lies in `city`: the report is that city's from here on.
    Before the category (a pin sent first, or the location asked first with several cities)
    the category is asked from that city's list; a category the city's law has not is asked
    again; otherwise on to what follows the location (LOCATED)."""
    before = city_core(core, d).law  # the law a category already chosen came from
    d = dict(d)
    if d.get("city") not in (None, city.slug):
        d.pop("signs", None)  # the abandonment signs are each law's own
    d["city"] = city.slug
    law = city_core(core, d).law
    said = registered(core, d)
    if state in (IDLE, CATEGORY) or "category" not in d:
        return Taken(d, CATEGORY, said=said)
    if d["category"] not in law.categories:
        chosen = before.categories.get(d["category"])
        for key in ("category", *CATEGORY_ANSWERS):
            d.pop(key, None)
        what = f"o tipo “{chosen.label}”" if chosen else "o tipo que você escolheu"
        return Taken(d, CATEGORY, said=said, prompt=category(
            core, d, words.CATEGORY_ELSEWHERE.format(city=city.label, what=what)))
    return Taken(d, LOCATED)


async def located(core: Core, d: dict[str, Any]) -> Taken:
    """The location stored: the open cases of the same kind nearby (of the same city) are
    offered first, else the category's questions go on (or back to the summary when the
    location was being corrected)."""
    d = dict(d)
    d.pop("pending", None)
    here = city_core(core, d)
    found = await find_nearby(here, d["category"], d["lat"], d["lon"])
    said = registered(core, d)
    if found:
        d["candidates"] = [{"protocol": f.protocol, "address": f.address, "photo": f.photo_sha256,
                            "state": f.state_label, "situation": f.situation,
                            "distance": f.distance_m,
                            "category": f.category_label} for f in found[:5]]
        return Taken(d, DUPLICATES, said=said)
    d.pop("candidates", None)
    nxt = SUMMARY if d.pop("fixing", None) else next_question(here.law, d["category"], None)
    return Taken(d, nxt, said=said)


async def settle(core: Core, taken: Taken) -> Taken:
    """`taken` itself, or, when the location is already known (LOCATED), what follows it."""
    if taken.state == LOCATED:
        return await located(core, taken.draft)
    return taken


def duplicate_chosen(core: Core, d: dict[str, Any], arg: str) -> Taken | Support | None:
    """"É outro" (the category's questions go on), "É este: <protocol>" (support that case),
    or None: not one of the cases offered."""
    if arg == "new":
        d = dict(d)
        d.pop("candidates", None)
        if d.pop("fixing", None):
            return Taken(d, SUMMARY)
        return Taken(d, next_question(city_core(core, d).law, d["category"], None))
    if arg not in {c["protocol"] for c in d.get("candidates", [])}:
        return None
    return Support(arg)
