"""The city's area: a centre and radius (by default the law module's), or a GeoJSON boundary.

A citizen's point outside it is refused before a report is written."""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

#: The mean Earth radius of the great-circle distance, in kilometres (geopy's EARTH_RADIUS).
EARTH_RADIUS_KM = 6371.009


@dataclass(frozen=True)
class CityArea:
    name: str
    centre: tuple[float, float]  # (lat, lon)
    radius_m: float | None = None
    polygons: tuple[tuple[tuple[float, float], ...], ...] = ()  # rings of (lon, lat)

    def contains(self, lat: float, lon: float) -> bool:
        if not valid_point(lat, lon):
            return False
        if self.polygons:
            return any(_in_ring(lon, lat, ring) for ring in self.polygons)
        # great-circle: metres of error on a city's radius don't matter, and it is fast
        return great_circle_m(self.centre, (lat, lon)) <= (self.radius_m or 0)

    @classmethod
    def from_geojson(cls, name: str, path: Path) -> "CityArea":
        """Outer rings of every Polygon/MultiPolygon in a GeoJSON file (Feature,
        FeatureCollection or bare geometry)."""
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
        rings: list[tuple[tuple[float, float], ...]] = []
        for geom in _geometries(doc):
            polys = [geom["coordinates"]] if geom["type"] == "Polygon" else geom["coordinates"]
            for poly in polys:
                rings.append(tuple((float(x), float(y)) for x, y, *_ in poly[0]))
        if not rings:
            raise ValueError(f"{path}: no Polygon or MultiPolygon found")
        xs = [x for r in rings for x, _ in r]
        ys = [y for r in rings for _, y in r]
        centre = ((min(ys) + max(ys)) / 2, (min(xs) + max(xs)) / 2)
        return cls(name, centre, None, tuple(rings))


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


def _in_ring(x: float, y: float, ring) -> bool:
    """Ray casting point-in-polygon on (lon, lat) coordinates."""
    inside = False
    n = len(ring)
    for i in range(n):
        x1, y1 = ring[i]
        x2, y2 = ring[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            inside = not inside
    return inside


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
