"""What anyone may see without logging in: the public map and list, the open data (GeoJSON)
and a case's status page. Reads only.

What of a case is public is decided in one place, core.services.public.case.public_view: every
case shown here is that projection (the neighbourhood and the point to the block, the state in
the law's public words; never the typed address, the description, the reporter, the owner or
the plate).

Cases shown: every open case, and those closed in the last RECENT_DAYS days. The map asks for
its visible area (a bbox). It first counts what the area holds, per grid cell: the open cases
from the map_cells counters (kept by triggers, migration 0013; at the zoom level whose cells
fit the view, so the city-wide view reads a few thousand counters, never its cases), the
recently closed from ix_cases_closed_cell. Past POINT_CAP cases it answers clusters (count and
centre per block of cells, blocks fixed on the grid); else each case, read through the
visible-area indexes (ix_cases_open_cell, ix_cases_nearby with a category).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import func, literal_column, select

from core.services.context import Core
from core.services.errors import InvalidInput, NotFound
from core.services.cases.evidence import public_photo
from core.services.public.case import (COLUMNS, COORD_DECIMALS, PublicCase, load_public,
                                       public_cases)
from core.storage.geo import CELL_DEG, GRID_COLS, LEVEL_FACTOR, MAX_LEVEL, bbox_cells
from core.storage.models import Case, MapCell
from core.storage.protocol import PROTOCOL_RE

RECENT_DAYS = 30
POINT_CAP = 300
MAX_SPAN_DEG = 1.0  # a city fits; the whole state does not
CLUSTER_BLOCKS = 10  # at most about 10 × 10 clusters over the visible area (see zoom)
OPEN, CLOSED = "abertos", "encerrados"
NOT_FOUND = "Protocolo não encontrado. Confira o número (formato AAAA-NNNNNN)."


@dataclass(frozen=True)
class Bbox:
    south: float
    west: float
    north: float
    east: float


@dataclass(frozen=True)
class Cluster:
    lat: float
    lon: float
    count: int


@dataclass(frozen=True)
class MapResult:
    total: int
    cases: tuple[PublicCase, ...]  # when total <= POINT_CAP
    clusters: tuple[Cluster, ...]  # otherwise

    def geojson(self) -> dict[str, Any]:
        feats = [_feature(c.lon, c.lat, c.properties()) for c in self.cases]
        feats += [_feature(k.lon, k.lat, {"agrupados": k.count}) for k in self.clusters]
        return {"type": "FeatureCollection", "total": self.total, "features": feats}


def _feature(lon: float, lat: float, props: dict[str, Any]) -> dict[str, Any]:
    return {"type": "Feature", "geometry": {"type": "Point", "coordinates": [lon, lat]},
            "properties": props}


# -- parameters ---------------------------------------------------------------------------------

def default_bbox(core: Core) -> Bbox:
    lat, lon = core.area.centre
    return Bbox(lat - 0.03, lon - 0.04, lat + 0.03, lon + 0.04)


def parse_bbox(core: Core, raw: str | None) -> Bbox:
    """"south,west,north,east" in degrees (Leaflet's toBBoxString is west,south,east,north:
    the map page sends this order); empty → around the city centre."""
    if not (raw or "").strip():
        return default_bbox(core)
    try:
        s, w, n, e = (float(x) for x in raw.split(","))
    except ValueError:
        raise InvalidInput("Área do mapa inválida: use sul,oeste,norte,leste em graus.") from None
    if not all(math.isfinite(v) for v in (s, w, n, e)) or not (
            -90 <= s < n <= 90 and -180 <= w < e <= 180):
        raise InvalidInput("Área do mapa inválida: coordenadas fora do intervalo.")
    if n - s > MAX_SPAN_DEG or e - w > MAX_SPAN_DEG:
        raise InvalidInput("Área do mapa grande demais: aproxime o mapa da cidade.")
    return Bbox(s, w, n, e)


def filter_options(core: Core) -> dict[str, list[tuple[str, str]]]:
    """The map's filters: the law's categories, and "situação" (open, recently closed, or one
    state by its public label; a state the public sees as another is not offered)."""
    states: dict[str, str] = {}
    for lc in core.law.tracks.values():
        for st in lc.states.values():
            if not st.public_as:
                states.setdefault(st.code, lc.public_state(st.code).label)
    return {"categories": [(c.code, c.label) for c in core.law.categories.values()],
            "states": [(OPEN, "Em andamento"), (CLOSED, "Encerrados recentemente")]
            + sorted(states.items(), key=lambda x: x[1])}


def _states_shown_as(core: Core, situation: str) -> list[str]:
    """The states the public sees as `situation` (itself and those State.public_as it)."""
    if situation in ("", OPEN, CLOSED):
        return []
    return sorted({st.code for lc in core.law.tracks.values() for st in lc.states.values()
                   if st.code == situation or st.public_as == situation})


def check_filters(core: Core, category: str, situation: str) -> None:
    opts = filter_options(core)
    if category and category not in dict(opts["categories"]):
        raise InvalidInput("Categoria desconhecida: escolha uma da lista.")
    if situation and situation not in dict(opts["states"]):
        raise InvalidInput("Situação desconhecida: escolha uma da lista.")


# -- the map query ------------------------------------------------------------------------------

def _unindexed(column):
    """`column` as an expression no index answers (`column || ''`): so the planner keeps the
    closing-time index instead of scanning every case of a category or state through theirs."""
    return column.op("||")("")


def zoom(box: Bbox) -> tuple[int, int]:
    """(k, level) for the visible area: clusters are blocks of k × k cells of CELL_DEG, k the
    power of two giving at most CLUSTER_BLOCKS blocks across the view (so blocks stay put as
    the map pans), counted from the map_cells counters of the largest level that fits a
    block (a block is 1 or 2 level cells across). The counters read are then at most
    (2·CLUSTER_BLOCKS + 1)² level cells (times the categories and states present there),
    whatever the zoom and however many cases. Above level 0 a cell may reach past the view:
    its count is then a little more than the view holds (and decides for clusters)."""
    span = max(box.north - box.south, box.east - box.west) / CELL_DEG
    k = 1
    while k * CLUSTER_BLOCKS < span:
        k *= 2
    level = 0
    while level < MAX_LEVEL and LEVEL_FACTOR ** (level + 1) <= k:
        level += 1
    return k, level


@dataclass(frozen=True)
class _Area:
    """The visible area in cells: rows r0..r1, columns c0..c1 (a point's cell is in them)."""
    r0: int
    r1: int
    c0: int
    c1: int

    @classmethod
    def of(cls, box: Bbox) -> "_Area":
        lo, hi, c0, c1 = bbox_cells(box.south, box.west, box.north, box.east)
        return cls(lo // GRID_COLS, hi // GRID_COLS, c0, c1)

    def where(self, cell, f: int = 1) -> list:
        """`cell` (a column of level-f cells) inside the area: a range an index answers."""
        return [cell.between((self.r0 // f) * GRID_COLS + self.c0 // f,
                             (self.r1 // f) * GRID_COLS + self.c1 // f),
                (cell % GRID_COLS).between(self.c0 // f, self.c1 // f)]


def _closed_where(core: Core, area: _Area, category: str, situation: str) -> list:
    """The recently closed cases of the area, by ix_cases_closed_cell (index only without a
    filter). "IS NOT true", not "= false": never the open-cell index."""
    states = _states_shown_as(core, situation)
    return [Case.municipality == core.municipality,
            Case.closed_at >= core.now() - timedelta(days=RECENT_DAYS), Case.is_open.is_not(True),
            *area.where(Case.cell),
            *([_unindexed(Case.category) == category] if category else []),
            *([_unindexed(Case.state).in_(states)] if states else [])]


def _open_where(core: Core, area: _Area, category: str, situation: str) -> list:
    """The open cases of the area: ix_cases_nearby with a category, else ix_cases_open_cell."""
    states = _states_shown_as(core, situation)
    return [Case.municipality == core.municipality,
            *([Case.category == category] if category else []), Case.is_open.is_(True),
            *area.where(Case.cell), *([_unindexed(Case.state).in_(states)] if states else [])]


async def _counts(core: Core, s, area: _Area, category: str, situation: str,
                  level: int) -> dict[int, list[int]]:
    """Level cell → [cases, sum of their rows, sum of their columns]: the open cases from the
    map_cells counters (O(cells), never the cases), the recently closed from their index."""
    f = LEVEL_FACTOR ** level
    out: dict[int, list[int]] = {}
    if situation != CLOSED:
        states = _states_shown_as(core, situation)
        q = (select(MapCell.cell, func.sum(MapCell.n), func.sum(MapCell.row_sum),
                    func.sum(MapCell.col_sum))
             .where(MapCell.municipality == core.municipality, MapCell.level == level,
                    *area.where(MapCell.cell, f),
                    *([MapCell.category == category] if category else []),
                    *([MapCell.state.in_(states)] if states else []))
             .group_by(MapCell.cell))
        for cell, n, rows, cols in (await s.execute(q)).all():
            out[cell] = [int(n), int(rows), int(cols)]
    if situation != OPEN:
        # integers of ours written inline, so GROUP BY repeats the very expression it selects;
        # "/" of integers is integer division on both databases (SQLAlchemy's "//" would
        # render FLOOR(), a float on SQLite)
        cols, factor = literal_column(str(int(GRID_COLS))), literal_column(str(int(f)))
        row, col = Case.cell.op("/")(cols), Case.cell % cols
        lcell = row.op("/")(factor) * cols + col.op("/")(factor)
        q = select(lcell, func.count(), func.sum(row), func.sum(col)).where(
            *_closed_where(core, area, category, situation)).group_by(lcell)
        for cell, n, rows, cols_ in (await s.execute(q)).all():
            acc = out.setdefault(int(cell), [0, 0, 0])
            acc[0] += int(n)
            acc[1] += int(rows)
            acc[2] += int(cols_)
    return out


async def map_cases(core: Core, box: Bbox, category: str = "", situation: str = "",
                    cap: int = POINT_CAP) -> MapResult:
    """Public cases in the visible area: each case (newest first) when at most `cap` lie in
    the cells the area touches, else clusters (blocks of cells, their counts and centres)."""
    check_filters(core, category, situation)
    area = _Area.of(box)
    k, level = zoom(box)
    async with core.db.read() as s:
        counts = await _counts(core, s, area, category, situation, level)
        if sum(c[0] for c in counts.values()) > cap:
            clusters = _clusters(counts, k // LEVEL_FACTOR ** level)
            return MapResult(sum(c.count for c in clusters), (), clusters)
        parts = ([_open_where(core, area, category, situation)] if situation != CLOSED else []) \
            + ([_closed_where(core, area, category, situation)] if situation != OPEN else [])
        rows = []
        for where in parts:  # at most `cap` in all, as just counted
            rows += (await s.execute(select(*COLUMNS).where(*where).limit(cap))).all()
        rows = sorted(rows, key=lambda r: r.created_at, reverse=True)[:cap]
        cases = await public_cases(core, s, rows)
    return MapResult(len(rows), tuple(cases), ())


def _clusters(counts: dict[int, list[int]], m: int) -> tuple[Cluster, ...]:
    """Level cells grouped m × m into blocks; a block's centre is the mean of its cases'
    0.001° cells (never finer than the public rounding)."""
    merged: dict[tuple[int, int], list[int]] = {}
    for cell, (n, rows, cols) in counts.items():
        if n <= 0:
            continue
        acc = merged.setdefault((cell // GRID_COLS // m, cell % GRID_COLS // m), [0, 0, 0])
        acc[0] += n
        acc[1] += rows
        acc[2] += cols
    out = []
    for n, rows, cols in merged.values():
        lat = (rows / n + 0.5) * CELL_DEG - 90.0
        lon = (cols / n + 0.5) * CELL_DEG - 180.0
        out.append(Cluster(round(lat, COORD_DECIMALS), round(lon, COORD_DECIMALS), n))
    return tuple(sorted(out, key=lambda c: -c.count))


# -- open data ----------------------------------------------------------------------------------

async def iter_open_data(core: Core, batch: int = 2000):
    """Every public case of the city (open, or closed in the last RECENT_DAYS days) as a
    GeoJSON Feature, in id order, read in batches (keyset) so a million cases never sit in
    memory."""
    cutoff = core.now() - timedelta(days=RECENT_DAYS)
    last = 0
    while True:
        async with core.db.read() as s:
            rows = (await s.execute(select(*COLUMNS).where(
                Case.id > last, Case.municipality == core.municipality,
                Case.is_open.is_(True) | (Case.closed_at >= cutoff))
                .order_by(Case.id).limit(batch))).all()
            cases = await public_cases(core, s, rows)
        if not rows:
            return
        for c in cases:
            yield _feature(c.lon, c.lat, c.properties())
        last = rows[-1].id


# -- the status page ----------------------------------------------------------------------------

async def status(core: Core, protocol: str) -> PublicCase:
    """The public status of one case of the city by protocol (never by case code: that is the
    owner's); another city's protocol is answered as a missing one."""
    protocol = (protocol or "").strip()
    if not PROTOCOL_RE.match(protocol):
        raise NotFound(NOT_FOUND)
    async with core.db.read() as s:
        case = await load_public(core, s, protocol)
    if case is None:
        raise NotFound(NOT_FOUND)
    return case


async def status_photo(core: Core, protocol: str) -> bytes | None:
    """The EXIF/GPS-free copy of the case's public photo (never the original); None if none."""
    try:
        case = await status(core, protocol)
    except NotFound:
        return None
    return await public_photo(core, case.photo) if case.photo else None
