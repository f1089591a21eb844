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
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError,
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
    elif kind == "GeometryCollection":
        for g in doc["geometries"]:
            yield from _geometries(g)
    elif kind in ("Polygon", "MultiPolygon"):
        yield doc


def circle_shape(centre: tuple[float, float], radius_m: float, sides: int = 72) -> BaseGeometry:
    """A circle of `radius_m` around `centre` (lat, lon) as a polygon in (lon, lat): what a
    city without a drawn boundary covers, to compare it with another city's boundary."""
    lat, lon = centre
    dlat = math.degrees(radius_m / (EARTH_RADIUS_KM * 1000))
    dlon = dlat / max(math.cos(math.radians(lat)), 0.01)
    ring = [(lon + dlon * math.cos(2 * math.pi * i / sides),
             lat + dlat * math.sin(2 * math.pi * i / sides)) for i in range(sides)]
    return shapely.geometry.Polygon(ring)


def area_m2(shape: BaseGeometry) -> float:
    """The area of a shape in (lon, lat) degrees, in square metres (the degrees scaled at its
    mean latitude: a city-sized shape is measured within a fraction of a per cent)."""
    if shape.is_empty:
        return 0.0
    lat = (shape.bounds[1] + shape.bounds[3]) / 2
    metres = EARTH_RADIUS_KM * 1000 * math.pi / 180
    return float(shape.area) * metres * metres * math.cos(math.radians(lat))


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


# -- a boundary file an administrator uploads: read strictly ----------------------------------

#: The largest boundary file taken (IBGE's most detailed municipal boundary is well under 5 MB)
MAX_BOUNDARY_BYTES = 5 * 1024 * 1024
#: The most vertices a boundary may have (every pin is checked against it)
MAX_BOUNDARY_VERTICES = 200_000
#: Brazil's extent with a margin (lon_min, lat_min, lon_max, lat_max): a boundary elsewhere is
#: in another coordinate system (UTM metres) or has latitude and longitude swapped
BRAZIL = (-75.0, -34.5, -28.0, 6.0)
#: A municipality spans at most this many degrees either way (Altamira/PA, the largest, ~4°)
MAX_SPAN_DEG = 10.0


class BoundaryError(ValueError):
    """A boundary file refused; the message (Portuguese) says why and what to do."""


def read_boundary(data: str | bytes) -> BaseGeometry:
    """The area of a boundary file (GeoJSON: a FeatureCollection, a Feature or a bare
    Polygon/MultiPolygon, in longitude-latitude degrees, WGS 84/SIRGAS 2000), every polygon
    joined, holes kept — or BoundaryError. Unlike `CityArea.from_geojson_text` (the
    CITY_BOUNDARY_FILE setting, repaired when it can be), nothing is guessed: a file too big,
    not UTF-8 JSON, with no polygon, with a coordinate that is not a point on Earth (or not in
    Brazil), or whose outline crosses itself is refused, saying where."""
    if len(data) > MAX_BOUNDARY_BYTES:
        size = f"{len(data) / 1024 ** 2:.1f}".replace(".", ",")
        raise BoundaryError(f"Arquivo de contorno grande demais ({size} MB; o máximo é "
                            f"{MAX_BOUNDARY_BYTES // 1024 ** 2} MB). Baixe a malha de um só "
                            "município, ou simplifique-a (mapshaper, QGIS).")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise BoundaryError("O arquivo de contorno não é um texto GeoJSON (UTF-8). "
                                "Exporte o contorno como GeoJSON.") from None
    try:
        doc = json.loads(data, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise BoundaryError("O arquivo de contorno não é um GeoJSON válido (JSON ilegível). "
                            "Exporte o contorno como GeoJSON.") from None
    polygons: list[list] = []
    _collect(doc, polygons, 0)
    if not polygons:
        raise BoundaryError("O arquivo não tem nenhum polígono (Polygon ou MultiPolygon): é "
                            "preciso o contorno do município, não um ponto ou uma linha.")
    vertices = 0
    shapes = []
    for rings in polygons:
        checked = [_ring(r) for r in rings]
        vertices += sum(len(r) for r in checked)
        if vertices > MAX_BOUNDARY_VERTICES:
            raise BoundaryError(f"O contorno tem pontos demais (mais de "
                                f"{MAX_BOUNDARY_VERTICES:,}".replace(",", ".") +
                                "). Simplifique-o (mapshaper, QGIS) e envie de novo.")
        polygon = shapely.geometry.Polygon(checked[0], checked[1:])
        if not polygon.is_valid:
            raise BoundaryError(_invalid(polygon))
        shapes.append(polygon)
    shape = shapely.union_all(shapes)
    if shape.is_empty or shape.area == 0:
        raise BoundaryError("O contorno não tem área.")
    min_lon, min_lat, max_lon, max_lat = shape.bounds
    if (min_lon < BRAZIL[0] or min_lat < BRAZIL[1] or max_lon > BRAZIL[2]
            or max_lat > BRAZIL[3]):
        raise BoundaryError("O contorno está fora do Brasil: as coordenadas devem ser longitude "
                            "e latitude em graus (SIRGAS 2000/WGS 84), nessa ordem. Confira a "
                            "projeção do arquivo (UTM não serve) e a ordem dos números.")
    if max_lon - min_lon > MAX_SPAN_DEG or max_lat - min_lat > MAX_SPAN_DEG:
        raise BoundaryError("O contorno é grande demais para um município (mais de "
                            f"{MAX_SPAN_DEG:.0f} graus): envie o contorno de um só município.")
    return shape


def boundary_text(shape: BaseGeometry) -> str:
    """The GeoJSON geometry kept for a boundary (only the geometry, not the file's extras)."""
    return json.dumps(shapely.geometry.mapping(shape), separators=(",", ":"))


def _no_constant(name: str):
    raise ValueError(name)  # NaN, Infinity: not a coordinate


def _collect(doc, out: list[list], depth: int) -> None:
    """Every polygon's rings in a GeoJSON document (anything else is skipped)."""
    if not isinstance(doc, dict) or depth > 20:
        return
    kind = doc.get("type")
    if kind == "FeatureCollection" and isinstance(doc.get("features"), list):
        for f in doc["features"]:
            _collect(f, out, depth + 1)
    elif kind == "Feature":
        _collect(doc.get("geometry"), out, depth + 1)
    elif kind == "GeometryCollection" and isinstance(doc.get("geometries"), list):
        for g in doc["geometries"]:
            _collect(g, out, depth + 1)
    elif kind in ("Polygon", "MultiPolygon"):
        coords = doc.get("coordinates")
        polygons = [coords] if kind == "Polygon" else coords
        if not isinstance(polygons, list):
            raise BoundaryError(f"Um {kind} do arquivo não tem coordenadas válidas.")
        for rings in polygons:
            if not isinstance(rings, list) or not rings:
                raise BoundaryError(f"Um {kind} do arquivo não tem coordenadas válidas.")
            out.append(rings)


def _ring(ring) -> list[tuple[float, float]]:
    if not isinstance(ring, list) or len(ring) < 4:
        raise BoundaryError("Um anel do contorno tem menos de 4 pontos (um polígono precisa de "
                            "pelo menos 3 vértices e de fechar no primeiro).")
    points = []
    for position in ring:
        if (not isinstance(position, list) or len(position) < 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                           for v in position[:2])):
            raise BoundaryError("Uma coordenada do contorno não é um par [longitude, latitude].")
        try:
            lon, lat = float(position[0]), float(position[1])
        except OverflowError:
            lon = lat = math.inf
        if not valid_point(lat, lon):
            raise BoundaryError(f"A coordenada [{lon}, {lat}] não é um ponto da Terra "
                                "(longitude entre -180 e 180, latitude entre -90 e 90).")
        points.append((lon, lat))
    if points[0] != points[-1]:
        raise BoundaryError("Um anel do contorno não fecha: o último ponto deve repetir o "
                            "primeiro (GeoJSON).")
    return points


def _invalid(polygon: BaseGeometry) -> str:
    """Why a polygon is not a simple area, in Portuguese, with where (lat, lon)."""
    reason = shapely.is_valid_reason(polygon)
    where = ""
    if "[" in reason:
        try:
            lon, lat = (float(v) for v in reason[reason.index("[") + 1:
                                                   reason.index("]")].split()[:2])
            where = f" perto de ({lat:.6f}, {lon:.6f})"
        except ValueError:
            where = ""
    if "Self-intersection" in reason:
        what = "o contorno cruza a si mesmo"
    elif "Hole lies outside shell" in reason:
        what = "um buraco do polígono fica fora do contorno externo"
    elif "Nested" in reason or "Interior is disconnected" in reason:
        what = "os anéis do polígono se cruzam ou se encaixam de forma inválida"
    elif "Too few points" in reason:
        what = "um anel tem pontos de menos"
    else:
        what = "o polígono não forma uma área simples"
    return (f"Contorno inválido: {what}{where}. Corrija-o (QGIS: Corrigir geometrias) ou baixe "
            "de novo a malha do IBGE.")
