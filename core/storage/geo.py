"""Spatial cell scheme for "open cases of category C within R metres".

The earth is cut into a fixed grid of CELL_DEG × CELL_DEG degree cells (0.001° ≈ 111 m
north-south; ≈ 105 m east-west at the latitude of Minas Gerais and São Paulo). A case stores
`cell_of(lat, lon)`, an integer; a nearby search asks the index for
`category = ? AND is_open AND cell IN cells_around(lat, lon, R)` and then filters the few
candidates by exact distance.

Distance: `geopy.distance.geodesic` (WGS-84 ellipsoid). It costs tens of microseconds per
pair, and after the cell filter only a handful of candidates remain, so the exactness is
affordable; great-circle would err by up to ~0.5 %, enough to misjudge a point 20 cm from a
50 m duplicate-radius boundary.
"""
from __future__ import annotations

import math

from geopy.distance import geodesic

CELL_DEG = 0.001
_ROWS = round(180 / CELL_DEG) + 1
_COLS = round(360 / CELL_DEG) + 1
# Conservative metres per degree: the shortest degree of latitude (at the equator) and the
# equatorial degree of longitude, so the cells listed always cover the whole circle.
_M_PER_DEG_LAT_MIN = 110_574.0
_M_PER_DEG_LON_EQ = 111_320.0
MAX_CELLS = 40_000


def _row(lat: float) -> int:
    return math.floor((lat + 90.0) / CELL_DEG)


def _col(lon: float) -> int:
    return math.floor((lon + 180.0) / CELL_DEG) % (_COLS - 1)


def cell_of(lat: float, lon: float) -> int:
    """The integer cell key of a point."""
    if not (-90.0 <= lat <= 90.0 and -180.0 <= lon <= 180.0):
        raise ValueError(f"coordinates out of range: {lat}, {lon}")
    return _row(lat) * _COLS + _col(lon)


def distance_m(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Geodesic distance in metres between two (lat, lon) points."""
    return geodesic(a, b).meters


def bounding_box(lat: float, lon: float, radius_m: float) -> tuple[float, float, float | None,
                                                                  float | None]:
    """(lat_min, lat_max, lon_min, lon_max) of a box holding every point within `radius_m`
    of (lat, lon), with a 1 % margin; the longitude bounds are None when the box would cross
    the antimeridian or reach a pole (no longitude filter then)."""
    dlat = radius_m * 1.01 / _M_PER_DEG_LAT_MIN + 1e-7
    lat_min, lat_max = max(-90.0, lat - dlat), min(90.0, lat + dlat)
    cos = math.cos(math.radians(max(abs(lat_min), abs(lat_max))))
    if cos < 1e-6:
        return lat_min, lat_max, None, None
    dlon = radius_m * 1.01 / (_M_PER_DEG_LON_EQ * cos) + 1e-7
    if lon - dlon < -180.0 or lon + dlon > 180.0:
        return lat_min, lat_max, None, None
    return lat_min, lat_max, lon - dlon, lon + dlon


def cells_around(lat: float, lon: float, radius_m: float) -> list[int]:
    """Every cell that may hold a point within `radius_m` of (lat, lon), sorted.

    The list covers the circle's bounding box, minus the cells whose nearest edge lies
    farther than the radius (the box's corners). Raises ValueError for a radius needing
    more than MAX_CELLS cells (≈ 10 km); such searches should not use this index.
    """
    if not all(math.isfinite(v) for v in (lat, lon, radius_m)):
        raise ValueError(f"not a finite point or radius: {lat}, {lon}, {radius_m}")
    if radius_m < 0:
        raise ValueError("radius must be >= 0")
    dlat = radius_m / _M_PER_DEG_LAT_MIN
    far_lat = min(90.0, max(abs(lat - dlat), abs(lat + dlat)))
    cos = math.cos(math.radians(far_lat))
    dlon = 180.0 if cos < 1e-9 else min(180.0, radius_m / (_M_PER_DEG_LON_EQ * cos))
    r0, r1 = _row(max(-90.0, lat - dlat)), _row(min(90.0, lat + dlat))
    c0, c1 = math.floor((lon - dlon + 180.0) / CELL_DEG), math.floor((lon + dlon + 180.0) / CELL_DEG)
    if (r1 - r0 + 1) * (c1 - c0 + 1) > MAX_CELLS:
        raise ValueError(f"radius {radius_m} m spans too many cells")
    crow, ccol = _row(lat), math.floor((lon + 180.0) / CELL_DEG)
    cells = set()
    for r in range(r0, r1 + 1):
        # latitude gap between the point and this row of cells (0 for the point's own row)
        gap_lat = 0.0 if r == crow else (
            (r * CELL_DEG - 90.0 - lat) if r > crow else (lat - ((r + 1) * CELL_DEG - 90.0)))
        for c in range(c0, c1 + 1):
            gap_lon = 0.0 if c == ccol else (
                (c * CELL_DEG - 180.0 - lon) if c > ccol else (lon - ((c + 1) * CELL_DEG - 180.0)))
            gap_m = math.hypot(gap_lat * _M_PER_DEG_LAT_MIN, gap_lon * _M_PER_DEG_LON_EQ * cos)
            if gap_m <= radius_m * 1.001 + 1.0:
                cells.add(r * _COLS + c % (_COLS - 1))
    return sorted(cells)


GRID_COLS = _COLS  # cell = row * GRID_COLS + col


def bbox_cells(south: float, west: float, north: float, east: float
               ) -> tuple[int, int, int, int]:
    """(first cell, last cell, first column, last column) of a box: a point of the box has
    `first <= cell <= last` and `first_col <= cell % GRID_COLS <= last_col`, two conditions an
    index on `cell` answers without reading the rows (the public map's visible area)."""
    lo, hi = cell_of(south, west), cell_of(north, east)
    return lo, hi, lo % _COLS, hi % _COLS


# -- the public map's zoom levels (table map_cells, migration 0013) -----------------------------
# Level L groups LEVEL_FACTOR**L × LEVEL_FACTOR**L cells of CELL_DEG: 0.001°, 0.004°, 0.016°,
# 0.064° (≈ 110 m to ≈ 7 km). A level cell is numbered like a cell: row_L * GRID_COLS + col_L.
# The migration's triggers compute the same expression in SQL; change both together.
LEVEL_FACTOR = 4
MAX_LEVEL = 3


def level_cell(cell: int, level: int) -> int:
    """The level-`level` cell holding the 0.001° cell `cell`."""
    f = LEVEL_FACTOR ** level
    return (cell // _COLS // f) * _COLS + (cell % _COLS) // f
