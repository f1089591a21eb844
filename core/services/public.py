"""What anyone may see without logging in: the public map and list, the open data (GeoJSON)
and a case's status page. Reads only.

Public, and nothing else (LGPD, Lei 13.709/2018, art. 6º, III — necessity): the protocol, the
category, the state in the law's plain words, the dates, an approximate place (coordinates
rounded to COORD_DECIMALS, ≈ 110 m, and the neighbourhood) and the EXIF/GPS-free copy of the
first photo. Never the reporter (Lei 13.460/2017, art. 10, §7º), the owner, the plate or
chassis, a CPF/CNPJ, the citizen's description or the street address.

Cases shown: every open case, and those closed in the last RECENT_DAYS days. The map asks for
its visible area (a bbox); the query is bounded by the grid cells of core.storage.geo (index
ix_cases_open_cell, and ix_cases_nearby with a category) and by ix_cases_closed_at; past
POINT_CAP cases in view it answers clusters (count and centre per block of cells).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from sqlalchemy import func, literal_column, select

from core.formatting import fmt_date
from core.services.context import Core
from core.services.errors import InvalidInput, NotFound
from core.services.evidence import public_photo
from core.services.panel_common import state_label, tz
from core.services.views import PublicCaseView, public_view
from core.storage.geo import CELL_DEG, GRID_COLS, bbox_cells
from core.storage.models import Case, Evidence
from core.storage.protocol import PROTOCOL_RE

RECENT_DAYS = 30
POINT_CAP = 300
COORD_DECIMALS = 3  # ≈ 110 m: the block, not the house
MAX_SPAN_DEG = 1.0  # a city fits; the whole state does not
CLUSTER_BLOCKS = 10  # about 10 × 10 clusters over the visible area
OPEN, CLOSED = "abertos", "encerrados"
NOT_FOUND = "Protocolo não encontrado. Confira o número (formato AAAA-NNNNNN)."


@dataclass(frozen=True)
class Bbox:
    south: float
    west: float
    north: float
    east: float


@dataclass(frozen=True)
class PublicCase:
    protocol: str
    category: str
    category_label: str
    state: str
    state_label: str
    is_open: bool
    created: date
    updated: date
    closed: date | None
    neighbourhood: str | None
    lat: float  # rounded (COORD_DECIMALS)
    lon: float
    has_photo: bool = False

    def properties(self) -> dict[str, Any]:
        """The GeoJSON properties: public fields only (the photo as the status page's
        link to its EXIF/GPS-free copy)."""
        photo = f"/publico/protocolo/{self.protocol}/foto" if self.has_photo else None
        return {"foto": photo, "protocolo": self.protocol, "categoria": self.category_label,
                "codigo_categoria": self.category, "situacao": self.state_label,
                "aberto": self.is_open, "criado_em": fmt_date(self.created),
                "atualizado_em": fmt_date(self.updated),
                "encerrado_em": fmt_date(self.closed) if self.closed else None,
                "bairro": self.neighbourhood}


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
    lat, lon = core.law.centre
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
    state by its plain-words label)."""
    states: dict[str, str] = {}
    for lc in core.law.tracks.values():
        for st in lc.states.values():
            states.setdefault(st.code, st.label)
    return {"categories": [(c.code, c.label) for c in core.law.categories.values()],
            "states": [(OPEN, "Em andamento"), (CLOSED, "Encerrados recentemente")]
            + sorted(states.items(), key=lambda x: x[1])}


def check_filters(core: Core, category: str, situation: str) -> None:
    opts = filter_options(core)
    if category and category not in dict(opts["categories"]):
        raise InvalidInput("Categoria desconhecida: escolha uma da lista.")
    if situation and situation not in dict(opts["states"]):
        raise InvalidInput("Situação desconhecida: escolha uma da lista.")


# -- the map query ------------------------------------------------------------------------------

def _unindexed(column):
    """`column` as an expression no index answers (`column || ''`): so the planner keeps the
    visible-area or closing-time index instead of scanning every case of a category or state
    through theirs."""
    return column.op("||")("")


def _selects(core: Core, box: Bbox, category: str, situation: str) -> list:
    """The WHERE clauses of the open and the recently closed parts (one or both)."""
    lo, hi, c0, c1 = bbox_cells(box.south, box.west, box.north, box.east)
    col = Case.cell % GRID_COLS
    state = [_unindexed(Case.state) == situation] if situation not in ("", OPEN, CLOSED) else []
    parts = []
    if situation != CLOSED:  # ix_cases_nearby with a category, else ix_cases_open_cell
        parts.append([*([Case.category == category] if category else []),
                      Case.is_open.is_(True), Case.cell.between(lo, hi), col.between(c0, c1),
                      *state])
    if situation != OPEN:
        cutoff = core.now() - timedelta(days=RECENT_DAYS)
        # "IS NOT true", not "= false": the closing-time index, never the open-cell one
        # (which would read every closed case)
        parts.append([Case.is_open.is_not(True), Case.closed_at >= cutoff,
                      Case.lat.between(box.south, box.north),
                      Case.lon.between(box.west, box.east),
                      *([_unindexed(Case.category) == category] if category else []), *state])
    return parts


async def map_cases(core: Core, box: Bbox, category: str = "", situation: str = "",
                    cap: int = POINT_CAP) -> MapResult:
    """Public cases in the visible area: each case (newest first) up to `cap`, else clusters."""
    check_filters(core, category, situation)
    parts = _selects(core, box, category, situation)
    async with core.db.read() as s:
        total = 0  # counted up to cap + 1 only: a city-wide view costs no full count
        for where in parts:
            inner = select(Case.id).where(*where).limit(cap + 1 - total).subquery()
            total += (await s.execute(select(func.count()).select_from(inner))).scalar_one()
            if total > cap:
                break
        if total <= cap:
            rows = []
            for where in parts:
                rows += (await s.execute(select(
                    Case.id, Case.protocol, Case.category, Case.track, Case.state, Case.is_open,
                    Case.created_at, Case.updated_at, Case.closed_at, Case.neighbourhood,
                    Case.lat, Case.lon).where(*where))).all()
            rows.sort(key=lambda r: r.created_at, reverse=True)
            photos = set((await s.execute(select(Evidence.case_id).where(
                Evidence.case_id.in_([r.id for r in rows]), Evidence.kind == "photo")))
                .scalars().all()) if rows else set()
            return MapResult(total, tuple(_public_case(core, r, r.id in photos) for r in rows),
                             ())
        clusters = await _clusters(s, parts, box)
    return MapResult(sum(k.count for k in clusters), (), clusters)


async def _clusters(s, parts: list, box: Bbox) -> tuple[Cluster, ...]:
    """Counts per block of cells, from the index alone (the cell says where a case is)."""
    rows_span = (box.north - box.south) / CELL_DEG
    cols_span = (box.east - box.west) / CELL_DEG
    k = max(1, math.ceil(max(rows_span, cols_span) / CLUSTER_BLOCKS))
    # integers of ours written inline, so GROUP BY repeats the very expressions it selects
    cols, blk = literal_column(str(int(GRID_COLS))), literal_column(str(int(k)))
    row, col = Case.cell // cols, Case.cell % cols
    merged: dict[tuple[int, int], list[float]] = {}
    for where in parts:
        q = (select(row // blk, col // blk, func.count(), func.avg(row), func.avg(col))
             .where(*where).group_by(row // blk, col // blk))
        for br, bc, n, ar, ac in (await s.execute(q)).all():
            acc = merged.setdefault((br, bc), [0, 0.0, 0.0])
            acc[0] += n
            acc[1] += float(ar) * n
            acc[2] += float(ac) * n
    out = []
    for n, sr, sc in merged.values():
        lat = (sr / n + 0.5) * CELL_DEG - 90.0
        lon = (sc / n + 0.5) * CELL_DEG - 180.0
        out.append(Cluster(round(lat, COORD_DECIMALS), round(lon, COORD_DECIMALS), n))
    return tuple(sorted(out, key=lambda c: -c.count))


def _public_case(core: Core, r, has_photo: bool = False) -> PublicCase:
    zone = tz(core)
    cat = core.law.categories.get(r.category)
    return PublicCase(r.protocol, r.category, cat.label if cat else r.category, r.state,
                      state_label(core, r.track, r.state), bool(r.is_open),
                      r.created_at.astimezone(zone).date(), r.updated_at.astimezone(zone).date(),
                      r.closed_at.astimezone(zone).date() if r.closed_at else None,
                      r.neighbourhood, round(r.lat, COORD_DECIMALS), round(r.lon, COORD_DECIMALS),
                      has_photo)


# -- open data ----------------------------------------------------------------------------------

async def iter_open_data(core: Core, batch: int = 2000):
    """Every public case (open, or closed in the last RECENT_DAYS days) as a GeoJSON Feature,
    in id order, read in batches (keyset) so a million cases never sit in memory."""
    cutoff = core.now() - timedelta(days=RECENT_DAYS)
    last = 0
    while True:
        async with core.db.read() as s:
            rows = (await s.execute(select(
                Case.id, Case.protocol, Case.category, Case.track, Case.state, Case.is_open,
                Case.created_at, Case.updated_at, Case.closed_at, Case.neighbourhood, Case.lat,
                Case.lon).where(Case.id > last, Case.is_open.is_(True) | (Case.closed_at >= cutoff))
                .order_by(Case.id).limit(batch))).all()
            photos = set((await s.execute(select(Evidence.case_id).where(
                Evidence.case_id.in_([r.id for r in rows]), Evidence.kind == "photo")))
                .scalars().all()) if rows else set()
        if not rows:
            return
        for r in rows:
            c = _public_case(core, r, r.id in photos)
            yield _feature(c.lon, c.lat, c.properties())
        last = rows[-1].id


# -- the status page ----------------------------------------------------------------------------

@dataclass(frozen=True)
class PublicStatus:
    view: PublicCaseView  # its `address` is not shown: the place is approximate
    neighbourhood: str | None
    lat: float
    lon: float
    photo_sha: str | None  # the original's hash; the page serves only its public copy

    @property
    def next_step(self) -> str:
        return self.view.next_step_text()


async def status(core: Core, protocol: str) -> PublicStatus:
    """The public status of one case by protocol (never by case code: that is the owner's)."""
    protocol = (protocol or "").strip()
    if not PROTOCOL_RE.match(protocol):
        raise NotFound(NOT_FOUND)
    view = await public_view(core, protocol)
    async with core.db.read() as s:
        case = (await s.execute(select(Case.id, Case.neighbourhood, Case.lat, Case.lon)
                                .where(Case.protocol == protocol))).one()
        photo = (await s.execute(select(Evidence.sha256).where(
            Evidence.case_id == case.id, Evidence.kind == "photo").order_by(Evidence.id)
            .limit(1))).scalar_one_or_none()
    return PublicStatus(view, case.neighbourhood, round(case.lat, COORD_DECIMALS),
                        round(case.lon, COORD_DECIMALS), photo)


async def status_photo(core: Core, protocol: str) -> bytes | None:
    """The EXIF/GPS-free copy of the case's first photo (never the original); None if none."""
    try:
        st = await status(core, protocol)
    except NotFound:
        return None
    return await public_photo(core, st.photo_sha) if st.photo_sha else None

