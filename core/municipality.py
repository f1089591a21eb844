"""A municipality the installation serves, and the map that sends a point to its city.

One installation serves one or many cities, each under its own law module (core.laws). A city
is a `municipalities` row (core.storage.models_city) laid over the installation's settings: a
field left empty keeps the setting, so a single-city installation needs nothing but
MUNICIPALITY= and its .env, and `python -m admin municipality set` overrides one city's office,
depot, DPO, PIX or guia without touching the others.

The pin decides: `CityMap.at(lat, lon)` is the city whose boundary covers the point (a shapely
STRtree over the boundaries; holes and multipolygons respected), or, for a city without a drawn
boundary, whose circle holds it. A point in none is in no city the installation serves."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

import shapely
from shapely.geometry import Point
from shapely.strtree import STRtree

from core.area import CityArea, valid_point
from core.laws import get_law
from core.laws.base import Law

#: The fields a municipality record may override, each falling back to the setting of the same
#: name (core.settings.Settings) when empty.
OVERRIDABLE = ("office_address", "office_phone", "office_hours", "depot_address", "depot_hours",
               "dpo_contact", "pix_key", "pix_merchant_name", "pix_merchant_city",
               "payment_guia_instructions", "open311_jurisdiction_id")


@dataclass(frozen=True)
class City:
    """One municipality as every service sees it: its law, its names, its area and where a
    person is sent (office, depot, DPO) and pays (PIX or guia)."""

    slug: str
    law: Law
    name: str
    uf: str
    ibge_code: str
    area: CityArea
    office_address: str = ""
    office_phone: str = ""
    office_hours: str = ""
    #: Where the inspectors' day starts without a shared location (None: the area's centre)
    office_point: tuple[float, float] | None = None
    depot_address: str = ""
    depot_hours: str = ""
    dpo_contact: str = ""
    pix_key: str = ""
    pix_merchant_name: str = ""
    pix_merchant_city: str = ""
    payment_guia_instructions: str = ""
    #: Open311 jurisdiction_id (GeoReport v2); empty: the slug
    open311_jurisdiction_id: str = ""
    #: SHA-256 of the city's own Open311 API key (empty: none of its own)
    open311_key_sha256: str = ""
    active: bool = True

    @property
    def jurisdiction(self) -> str:
        return self.open311_jurisdiction_id or self.slug

    @property
    def label(self) -> str:
        """"Dracena (SP)": how a person is told which city."""
        return f"{self.name} ({self.uf})"

    @classmethod
    def build(cls, settings: Any, *, slug: str | None = None,
              record: Mapping[str, Any] | None = None) -> "City":
        """The city of `record` (a municipalities row as a mapping; None: the settings' own
        MUNICIPALITY) over the installation's `settings`."""
        record = dict(record or {})
        slug = record.get("slug") or slug or settings.municipality
        law = get_law(record.get("law") or slug)
        name = record.get("name") or law.city

        def pick(field: str) -> Any:
            value = record.get(field)
            return value if value not in (None, "") else getattr(settings, field, "")

        # the settings' own city keeps CITY_BOUNDARY_FILE, CITY_CENTER_* and OFFICE_LAT/LON
        own = settings.municipality == slug
        if record.get("boundary"):
            area = CityArea.from_geojson_text(name, record["boundary"],
                                              origin=f"contorno de {name}")
        elif record.get("centre_lat") is not None and record.get("centre_lon") is not None:
            area = CityArea(name, (record["centre_lat"], record["centre_lon"]),
                            record.get("radius_m") or law.radius_m)
        elif own and settings.city_boundary_file:
            area = CityArea.from_geojson(name, settings.city_boundary_file)
        elif own:
            centre = (settings.city_center_lat if settings.city_center_lat is not None
                      else law.centre[0],
                      settings.city_center_lon if settings.city_center_lon is not None
                      else law.centre[1])
            area = CityArea(name, centre, settings.city_radius_m or law.radius_m)
        else:
            area = CityArea(name, law.centre, law.radius_m)
        office = None
        if record.get("office_lat") is not None and record.get("office_lon") is not None:
            office = (record["office_lat"], record["office_lon"])
        elif own and settings.office_lat is not None and settings.office_lon is not None:
            office = (settings.office_lat, settings.office_lon)
        return cls(slug=slug, law=law, name=name, uf=record.get("uf") or law.uf,
                   ibge_code=record.get("ibge_code") or law.ibge_code, area=area,
                   office_point=office, active=bool(record.get("active", True)),
                   open311_key_sha256=record.get("open311_key_sha256") or "",
                   **{f: pick(f) for f in OVERRIDABLE})


class CityMap:
    """Which city a point is in: boundaries in a shapely STRtree, circles checked after."""

    def __init__(self, cities: Iterable[City]) -> None:
        self.cities = tuple(c for c in cities if c.active)
        self._drawn = [c for c in self.cities if c.area.shape is not None]
        self._circles = [c for c in self.cities if c.area.shape is None]
        self._tree = STRtree([c.area.shape for c in self._drawn]) if self._drawn else None

    def at(self, lat: float, lon: float) -> City | None:
        if not valid_point(lat, lon):
            return None
        point = Point(float(lon), float(lat))
        if self._tree is not None:
            for i in sorted(self._tree.query(point)):
                if shapely.covers(self._drawn[int(i)].area.shape, point):
                    return self._drawn[int(i)]
        for city in self._circles:
            if city.area.contains(lat, lon):
                return city
        return None

    def names(self) -> str:
        """"Dores do Indaiá (MG) e Dracena (SP)": the cities served, for a refusal."""
        labels = sorted(c.label for c in self.cities)
        if len(labels) <= 1:
            return "".join(labels)
        return ", ".join(labels[:-1]) + " e " + labels[-1]
