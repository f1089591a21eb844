"""Typed addresses to points and points to addresses, with geopy's Nominatim: one geocoder
for the bot and the panel's counter intake.

Bounded to the city's box (core.area), rate-limited (the public Nominatim allows one request
per second; a city's own server may allow more), cached, and never slower than
GEOCODING_TIMEOUT_S: past it, or on any server error, `GeocodingUnavailable` is raised and the
bot asks for a map pin instead (the panel asks for a click on the map).

One installation serving several cities: `find_address` asks in the box of each city the text
names (else of each city served), and the caller routes each point found with
core.city_at (the pin decides, a typed address too).

The core never imports aiohttp: each face passes geopy's async adapter (`adapter_factory`,
geopy.adapters.AioHTTPAdapter in both faces).

May import: core's pure rules and geopy; no other service."""
from __future__ import annotations

import asyncio
import logging
import time
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass
from typing import Iterable
from urllib.parse import urlsplit

from geopy.exc import GeopyError
from geopy.geocoders import Nominatim

from core.area import CityArea
from core.municipality import City

log = logging.getLogger(__name__)
USER_AGENT = "via-livre-bot/0.1 (prefeitura; abandoned objects reports)"


class GeocodingUnavailable(Exception):
    """The geocoder did not answer in time or answered with an error."""


@dataclass(frozen=True)
class Place:
    lat: float
    lon: float
    address: str
    neighbourhood: str | None = None


def short_address(raw: dict | None, fallback: str) -> tuple[str, str | None]:
    """"Rua X, 100 — Bairro" from Nominatim's address parts; the display name otherwise."""
    parts = (raw or {}).get("address") or {}
    road = parts.get("road") or parts.get("pedestrian") or parts.get("square")
    suburb = parts.get("suburb") or parts.get("neighbourhood") or parts.get("quarter")
    if not road:
        return fallback, suburb
    text = road + (f", {parts['house_number']}" if parts.get("house_number") else "")
    if suburb:
        text += f" — {suburb}"
    return text, suburb


def viewbox(area: CityArea) -> list[tuple[float, float]]:
    min_lon, min_lat, max_lon, max_lat = area.bounds
    return [(min_lat, min_lon), (max_lat, max_lon)]


class Geocoder:
    def __init__(self, nominatim_url: str, area: CityArea, *, adapter_factory,
                 timeout_s: float = 4.0, min_interval_s: float = 1.0, cache_size: int = 1000,
                 user_agent: str = USER_AGENT) -> None:
        url = urlsplit(nominatim_url)
        self.domain = url.netloc + url.path.rstrip("/")
        self.scheme = url.scheme or "https"
        self.area = area
        self.timeout_s = timeout_s
        self.min_interval_s = min_interval_s
        self.user_agent = user_agent
        self.adapter_factory = adapter_factory
        self._cache: OrderedDict[tuple, Place | None] = OrderedDict()
        self._cache_size = cache_size
        self._geo: Nominatim | None = None
        self._lock = asyncio.Lock()
        self._last = 0.0

    def _client(self) -> Nominatim:
        if self._geo is None:
            self._geo = Nominatim(domain=self.domain, scheme=self.scheme,
                                  user_agent=self.user_agent, timeout=self.timeout_s,
                                  adapter_factory=self.adapter_factory)
        return self._geo

    async def close(self) -> None:
        if self._geo is not None:
            await self._geo.__aexit__(None, None, None)
            self._geo = None

    async def geocode(self, query: str, area: CityArea | None = None) -> Place | None:
        """The place for a typed address inside `area`'s box (by default the geocoder's own;
        one bot serving several cities asks in the city the citizen named). None: not found
        there."""
        area = area or self.area
        key = ("q", area.name, " ".join(query.casefold().split()))
        return await self._cached(key, lambda geo: geo.geocode(
            query, exactly_one=True, viewbox=viewbox(area), bounded=True,
            country_codes="br", addressdetails=True, language="pt-BR"))

    async def reverse(self, lat: float, lon: float) -> Place | None:
        key = ("r", round(lat, 5), round(lon, 5))
        return await self._cached(key, lambda geo: geo.reverse(
            (lat, lon), exactly_one=True, addressdetails=True, language="pt-BR", zoom=18))

    async def _cached(self, key: tuple, call) -> Place | None:
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        try:
            place = await asyncio.wait_for(self._throttled(call), self.timeout_s)
        except (GeopyError, TimeoutError, OSError) as exc:
            # its type only, here and after: a geopy error's text quotes the server's answer,
            # and a proxy's error page quotes the URL asked, the address typed in it
            log.warning("geocoder unavailable: %s", type(exc).__name__)
            raise GeocodingUnavailable(type(exc).__name__) from None
        self._cache[key] = place
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return place

    async def _throttled(self, call) -> Place | None:
        async with self._lock:
            wait = self._last + self.min_interval_s - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self._last = time.monotonic()
        location = await call(self._client())
        if location is None:
            return None
        address, suburb = short_address(location.raw, location.address)
        return Place(location.latitude, location.longitude, address, suburb)


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(ch for ch in text if not unicodedata.combining(ch)).split())


def mentioned(text: str, cities: Iterable[City]) -> list[City]:
    """The cities whose name the text carries (accents and case aside)."""
    folded = _fold(text)
    return [c for c in cities if _fold(c.name) in folded]


async def find_address(geocoder: Geocoder, text: str, cities: Iterable[City]
                       ) -> list[Place]:
    """The places a typed address may be, one per city asked: in each city the text names,
    as typed; else in each city served, with its name added. One city served: one request,
    in its box. The caller routes each place with core.city_at."""
    cities = list(cities)
    named = mentioned(text, cities)
    tries = [(c, text) for c in named] or [(c, f"{text}, {c.name}") for c in cities]
    found = []
    for city, query in tries:
        place = await geocoder.geocode(query, area=city.area)
        if place is not None:
            found.append(place)
    return found
