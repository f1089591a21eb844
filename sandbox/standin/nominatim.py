"""A local stand-in for a Nominatim geocoding server (/search and /reverse).

Works with geopy unchanged::

    from geopy.adapters import AioHTTPAdapter
    from geopy.geocoders import Nominatim
    from sandbox.standin.nominatim import NominatimStandIn

    async with NominatimStandIn() as osm:              # default gazetteer: Dores do Indaiá
        async with Nominatim(domain=osm.domain, scheme="http", user_agent="via-livre-tests",
                             adapter_factory=AioHTTPAdapter) as geo:
            place = await geo.geocode("Rua Getúlio Vargas, 100, Dores do Indaiá")
        osm.delay = 2.0      # slower than geopy's timeout -> GeocoderTimedOut
        osm.down = True      # HTTP 503 (geopy maps 503 to GeocoderTimedOut too)
        osm.proxy_page = 502  # a proxy's HTML error page quoting the URL asked (200 too)

Answers follow Nominatim's JSON shapes (lat/lon as strings, boundingbox, address parts with
country_code). Search matching is token based and accent/case-insensitive: a place matches
when every query token appears in its address string, display name, address parts or aliases
(so "Rua Inexistente, Dores do Indaiá" finds nothing, as on the real server). Reverse picks the nearest point place within `reverse_radius_m`
(zoom >= 14), else the area place (city) whose radius covers the point, else
{"error": "Unable to geocode"}.
"""

from __future__ import annotations

import asyncio
import html
import itertools
import math
import re
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from aiohttp import web

LICENCE = "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright"

DORES_DO_INDAIA_CENTRE = (-19.4628, -45.6003)


@dataclass
class Place:
    """One gazetteer entry. `query` is the address string it answers to."""

    query: str
    lat: float
    lon: float
    display_name: str
    address: dict[str, str]
    category: str = "highway"
    type: str = "residential"
    place_rank: int = 26
    importance: float = 0.1
    radius_m: float = 0.0  # > 0 for areas (cities): reverse falls back to them
    osm_type: str = "way"
    osm_id: int = 0
    place_id: int = 0
    aliases: tuple[str, ...] = ()

    def to_json(self, fmt: str, addressdetails: bool) -> dict:
        d_lat = max(self.radius_m, 50.0) / 111_320
        d_lon = d_lat / max(math.cos(math.radians(self.lat)), 0.01)
        out: dict[str, Any] = {
            "place_id": self.place_id, "licence": LICENCE, "osm_type": self.osm_type,
            "osm_id": self.osm_id, "lat": f"{self.lat:.7f}", "lon": f"{self.lon:.7f}",
        }
        if fmt == "jsonv2":
            out["category"] = self.category
        else:
            out["class"] = self.category
        out.update({
            "type": self.type, "place_rank": self.place_rank, "importance": self.importance,
            "addresstype": "city" if self.radius_m else "road",
            "name": self.address.get("road") or self.address.get("city") or self.query,
            "display_name": self.display_name,
        })
        if addressdetails:
            out["address"] = dict(self.address)
        out["boundingbox"] = [f"{self.lat - d_lat:.7f}", f"{self.lat + d_lat:.7f}",
                              f"{self.lon - d_lon:.7f}", f"{self.lon + d_lon:.7f}"]
        return out


def _dores(road: str, number: str | None, suburb: str, lat: float, lon: float,
           **kw: Any) -> Place:
    parts = [road] + ([number] if number else []) + [
        suburb, "Dores do Indaiá", "Minas Gerais", "Região Sudeste", "35610-000", "Brasil"]
    address = {"road": road, "suburb": suburb, "city": "Dores do Indaiá",
               "state": "Minas Gerais", "ISO3166-2-lvl4": "BR-MG", "region": "Região Sudeste",
               "postcode": "35610-000", "country": "Brasil", "country_code": "br"}
    if number:
        address = {"house_number": number, **address}
    query = f"{road}, {number}" if number else road
    return Place(query, lat, lon, ", ".join(parts), address, **kw)


def default_gazetteer() -> list[Place]:
    """Fictional but realistic entries: streets in Dores do Indaiá (MG), the city itself, and
    one address in Belo Horizonte (outside the city)."""
    lat0, lon0 = DORES_DO_INDAIA_CENTRE
    return [
        _dores("Rua Getúlio Vargas", "100", "Centro", -19.46212, -45.60098),
        _dores("Rua Getúlio Vargas", "250", "Centro", -19.46105, -45.60241),
        _dores("Praça do Rosário", None, "Centro", -19.46331, -45.59927,
               category="place", type="square", place_rank=25),
        _dores("Rua Sete de Setembro", "45", "Centro", -19.46452, -45.60187),
        _dores("Avenida Governador Valadares", "820", "São José", -19.45810, -45.59472,
               type="secondary"),
        _dores("Rua Padre Marinho", "33", "Rosário", -19.46718, -45.59655),
        Place("Dores do Indaiá", lat0, lon0,
              "Dores do Indaiá, Minas Gerais, Região Sudeste, Brasil",
              {"city": "Dores do Indaiá", "state": "Minas Gerais", "ISO3166-2-lvl4": "BR-MG",
               "region": "Região Sudeste", "country": "Brasil", "country_code": "br"},
              category="boundary", type="administrative", place_rank=16, importance=0.45,
              radius_m=6000.0, osm_type="relation"),
        Place("Avenida Afonso Pena, 1212", -19.92440, -43.93530,
              "Avenida Afonso Pena, 1212, Centro, Belo Horizonte, Minas Gerais, "
              "Região Sudeste, 30130-003, Brasil",
              {"house_number": "1212", "road": "Avenida Afonso Pena", "suburb": "Centro",
               "city": "Belo Horizonte", "state": "Minas Gerais", "ISO3166-2-lvl4": "BR-MG",
               "region": "Região Sudeste", "postcode": "30130-003", "country": "Brasil",
               "country_code": "br"},
              type="primary", importance=0.3),
    ]


def _tokens(text: str) -> set[str]:
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return set(re.findall(r"[a-z0-9]+", text))


def _distance_m(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6_371_000 * math.asin(math.sqrt(a))


@dataclass
class NominatimRequest:
    path: str
    params: dict[str, str]
    user_agent: str | None
    time: float
    status: int = 200


class NominatimStandIn:
    """Nominatim stand-in on 127.0.0.1 (ephemeral port). `delay`, `hold`, `down`,
    `proxy_page` and `max_requests_per_second` (429 above it) can be changed while it runs."""

    def __init__(self, places: list[Place] | None = None, *, delay: float = 0.0,
                 reverse_radius_m: float = 300.0, host: str = "127.0.0.1",
                 port: int = 0) -> None:
        self.places: list[Place] = []
        self.delay = delay
        #: While set to an unset Event, every request waits for it (a test's barrier).
        self.hold: asyncio.Event | None = None
        self.down = False
        #: While set to an HTTP status, every request gets that status and an HTML page quoting
        #: the URL asked, query and all, as a proxy in front of the server answers when it
        #: cannot reach it (Squid's "The requested URL could not be retrieved").
        self.proxy_page: int | None = None
        self.max_requests_per_second: float | None = None
        self.reverse_radius_m = reverse_radius_m
        self.requests: list[NominatimRequest] = []
        self.host, self.port = host, port
        self.base_url = ""
        self._ids = itertools.count(300_000_001)
        self._runner: web.AppRunner | None = None
        self._stopping = asyncio.Event()
        for p in default_gazetteer() if places is None else places:
            self.add(p)

    def add(self, place: Place) -> Place:
        if not place.place_id:
            place.place_id = next(self._ids)
        if not place.osm_id:
            place.osm_id = place.place_id * 7 % 1_000_000_007
        self.places.append(place)
        return place

    @property
    def domain(self) -> str:
        """For ``geopy Nominatim(domain=..., scheme="http")``."""
        return f"{self.host}:{self.port}"

    async def start(self) -> "NominatimStandIn":
        app = web.Application()
        app.router.add_get("/search", self._search)
        app.router.add_get("/search.php", self._search)
        app.router.add_get("/reverse", self._reverse)
        app.router.add_get("/reverse.php", self._reverse)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self.base_url = f"http://{self.host}:{self.port}"
        return self

    async def stop(self) -> None:
        self._stopping.set()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> "NominatimStandIn":
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------ handlers

    async def _gate(self, request: web.Request) -> tuple[NominatimRequest, web.Response | None]:
        entry = NominatimRequest(request.path, dict(request.query),
                                 request.headers.get("User-Agent"), time.time())
        self.requests.append(entry)
        if self.hold is not None:
            await self.hold.wait()
        if self.delay:
            try:
                await asyncio.wait_for(self._stopping.wait(), self.delay)
            except TimeoutError:
                pass
        if self.down:
            entry.status = 503
            return entry, web.Response(status=503, text="Service Unavailable")
        if self.proxy_page is not None:
            entry.status = self.proxy_page
            return entry, web.Response(status=self.proxy_page, content_type="text/html", text=(
                "<html><body><h1>ERROR</h1><p>The requested URL could not be retrieved: "
                f"{html.escape(request.path_qs)}</p></body></html>"))
        if self.max_requests_per_second:
            window = [r for r in self.requests if r.time > entry.time - 1.0 and r.status == 200]
            if len(window) > self.max_requests_per_second:
                entry.status = 429
                return entry, web.Response(status=429, text="Too Many Requests")
        fmt = request.query.get("format", "xml")
        if fmt not in ("json", "jsonv2"):
            entry.status = 400
            return entry, _error(400, "Parameter 'format' must be json or jsonv2 in the stand-in")
        return entry, None

    async def _search(self, request: web.Request) -> web.Response:
        entry, refusal = await self._gate(request)
        if refusal is not None:
            return refusal
        q = request.query
        query = q.get("q") or ", ".join(
            q[k] for k in ("street", "city", "county", "state", "country", "postalcode")
            if q.get(k))
        if not query.strip():
            entry.status = 400
            return _error(400, "Nothing to search for.")
        found = self.search(query)
        if q.get("countrycodes"):
            codes = {c.strip().lower() for c in q["countrycodes"].split(",")}
            found = [p for p in found if p.address.get("country_code") in codes]
        if q.get("viewbox"):
            try:
                lon1, lat1, lon2, lat2 = (float(v) for v in q["viewbox"].split(","))
            except ValueError:
                entry.status = 400
                return _error(400, "Bad parameter 'viewbox'. Expected 4 coordinates.")
            inside = [p for p in found if min(lat1, lat2) <= p.lat <= max(lat1, lat2)
                      and min(lon1, lon2) <= p.lon <= max(lon1, lon2)]
            found = inside if q.get("bounded") in ("1", "true") else inside + [
                p for p in found if p not in inside]
        try:
            limit = min(max(int(q.get("limit", 10)), 1), 40)
        except ValueError:
            limit = 10
        details = q.get("addressdetails") in ("1", "true")
        return web.json_response([p.to_json(q["format"], details) for p in found[:limit]])

    async def _reverse(self, request: web.Request) -> web.Response:
        entry, refusal = await self._gate(request)
        if refusal is not None:
            return refusal
        q = request.query
        try:
            lat, lon = float(q["lat"]), float(q["lon"])
        except (KeyError, ValueError):
            entry.status = 400
            return _error(400, "Need coordinates or OSM object to lookup.")
        if not (-90 <= lat <= 90 and -180 <= lon <= 180):
            entry.status = 400
            return _error(400, "Invalid coordinates.")
        zoom = int(q.get("zoom", 18))
        place = self.reverse(lat, lon, zoom)
        if place is None:
            return web.json_response({"error": "Unable to geocode"})
        details = q.get("addressdetails", "1") in ("1", "true")
        return web.json_response(place.to_json(q["format"], details))

    # ------------------------------------------------------------ lookups (also usable directly)

    def search(self, query: str) -> list[Place]:
        """Places that explain every token of the query, best first (the place's own address
        string fully in the query, then most shared tokens, then importance)."""
        qt = _tokens(query)
        if not qt:
            return []
        hits = []
        for p in self.places:
            own = _tokens(p.query)
            known = own | _tokens(p.display_name) | _tokens(" ".join(p.address.values()))
            for alias in p.aliases:
                known |= _tokens(alias)
            if qt <= known:
                hits.append((own <= qt, len(own & qt), p.importance, p))
        hits.sort(key=lambda h: (h[0], h[1], h[2]), reverse=True)
        return [h[3] for h in hits]

    def reverse(self, lat: float, lon: float, zoom: int = 18) -> Place | None:
        def dist(p: Place) -> float:
            return _distance_m(lat, lon, p.lat, p.lon)

        if zoom >= 14:
            points = [p for p in self.places if not p.radius_m and dist(p) <= self.reverse_radius_m]
            if points:
                return min(points, key=dist)
        areas = [p for p in self.places if p.radius_m and dist(p) <= p.radius_m]
        return min(areas, key=dist) if areas else None


def _error(code: int, message: str) -> web.Response:
    return web.json_response({"error": {"code": code, "message": message}}, status=code)
