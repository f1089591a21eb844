"""A city's area: a centre and radius (by default the law module's), or a GeoJSON boundary
(shapely: multipolygons and holes respected).

A citizen's point outside every city the installation serves is refused before a report is
written (core.municipality.CityMap routes a point to its city)."""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import shapely
import shapely.errors
import shapely.geometry
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

#: The mean Earth radius of the great-circle distance, in kilometres (geopy's EARTH_RADIUS).
EARTH_RADIUS_KM = 6371.009


@dataclass(frozen=True)
class CityArea:
    """A city's area: a boundary (`shape`, a shapely Polygon or MultiPolygon in (lon, lat),
    holes respected) or, without one, a circle of `radius_m` around `centre`."""

    name: str
    centre: tuple[float, float]  # (lat, lon)
    radius_m: float | None = None
    shape: BaseGeometry | None = None

    def contains(self, lat: float, lon: float) -> bool:
        if not valid_point(lat, lon):
            return False
        if self.shape is not None:
            # covers: a point on the boundary line belongs to the city
            return shapely.covers(self.shape, Point(float(lon), float(lat)))
        # great-circle: metres of error on a city's radius don't matter, and it is fast
        return great_circle_m(self.centre, (lat, lon)) <= (self.radius_m or 0)

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """(min_lon, min_lat, max_lon, max_lat): the geocoder's box."""
        if self.shape is not None:
            return tuple(float(v) for v in self.shape.bounds)  # type: ignore[return-value]
        lat, lon = self.centre
        dlat = (self.radius_m or 0) / 111_320
        dlon = dlat / max(math.cos(math.radians(lat)), 0.01)
        return (lon - dlon, lat - dlat, lon + dlon, lat + dlat)

    @classmethod
    def from_geojson(cls, name: str, path: Path) -> "CityArea":
        return cls.from_geojson_text(name, Path(path).read_text(encoding="utf-8"),
                                     origin=str(path))

    @classmethod
    def from_geojson_text(cls, name: str, text: str, *, origin: str = "GeoJSON") -> "CityArea":
        """Every Polygon/MultiPolygon of a GeoJSON document (Feature, FeatureCollection or
        bare geometry), holes kept, joined into one shape. Invalid rings (a bow-tie) are
        repaired by shapely's make_valid rather than refused: a city's boundary drawn by hand
        often has one."""
        try:
            doc = json.loads(text)
            parts = [shapely.geometry.shape(g) for g in _geometries(doc)]
        except (ValueError, TypeError, KeyError, AttributeError,
                shapely.errors.GEOSException) as exc:
            raise ValueError(f"{origin}: não é um GeoJSON de polígonos válido ({exc})") from None
        if not parts:
            raise ValueError(f"{origin}: nenhum Polygon ou MultiPolygon encontrado")
        shape = shapely.make_valid(shapely.union_all(parts))
        if shape.is_empty or shape.area == 0:
            raise ValueError(f"{origin}: o contorno não tem área")
        centre_point = shape.representative_point()
        min_lon, min_lat, max_lon, max_lat = shape.bounds
        centre = ((min_lat + max_lat) / 2, (min_lon + max_lon) / 2)
        if not shapely.covers(shape, Point(centre[1], centre[0])):
            centre = (centre_point.y, centre_point.x)
        shapely.prepare(shape)
        return cls(name, centre, None, shape)


def valid_point(lat: float, lon: float) -> bool:
    """A point on Earth: finite numbers, latitude within ±90°, longitude within ±180°. A
    location message can carry anything (NaN, infinity, 91°): refuse it before using it."""
    try:
        lat, lon = float(lat), float(lon)
    except (TypeError, ValueError):
        return False
    return math.isfinite(lat) and math.isfinite(lon) and -90 <= lat <= 90 and -180 <= lon <= 180


def _geometries(doc: dict):
    kind = doc.get("type")
    if kind == "FeatureCollection":
        for f in doc["features"]:
            yield from _geometries(f)
    elif kind == "Feature":
        yield from _geometries(doc["geometry"])
    elif kind in ("Polygon", "MultiPolygon"):
        yield doc


def great_circle_m(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Metres between two (lat, lon) points on a sphere (geopy's great_circle, computed here
    so the rules core loads no geocoding library: geopy's package loads its HTTP adapters)."""
    lat1, lng1 = math.radians(a[0]), math.radians(a[1])
    lat2, lng2 = math.radians(b[0]), math.radians(b[1])
    sin_lat1, cos_lat1 = math.sin(lat1), math.cos(lat1)
    sin_lat2, cos_lat2 = math.sin(lat2), math.cos(lat2)
    delta = lng2 - lng1
    cos_delta, sin_delta = math.cos(delta), math.sin(delta)
    d = math.atan2(math.sqrt((cos_lat2 * sin_delta) ** 2
                             + (cos_lat1 * sin_lat2 - sin_lat1 * cos_lat2 * cos_delta) ** 2),
                   sin_lat1 * sin_lat2 + cos_lat1 * cos_lat2 * cos_delta)
    return EARTH_RADIUS_KM * d * 1000
