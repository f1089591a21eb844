"""The two hot read paths, written to hit their indexes.

- `nearby_open_cases`: ix_cases_nearby (municipality, category, is_open, cell), then exact
  distance; one city's candidates only, whatever the other cities hold.
- `due_cases`: the partial index ix_cases_due on next_deadline_at (only rows with a
  deadline), scanned up to `now`; cost grows with the number due, not with all cases. It
  serves the whole installation (the sweep moves every city's cases).
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import Select, select
from sqlalchemy.ext.asyncio import AsyncSession

from core.storage.geo import bounding_box, cells_around, distance_m
from core.storage.models import Case


def nearby_query(municipality: str, category: str, lat: float, lon: float,
                 radius_m: float) -> Select:
    """The index finds the city's cells; the bounding box then drops, before any row becomes
    an object, the candidates of those cells that cannot be within the radius."""
    lat_min, lat_max, lon_min, lon_max = bounding_box(lat, lon, radius_m)
    query = (select(Case)
             .where(Case.municipality == municipality, Case.category == category,
                    Case.is_open.is_(True),
                    Case.cell.in_(cells_around(lat, lon, radius_m)),
                    Case.lat.between(lat_min, lat_max)))
    if lon_min is not None:
        query = query.where(Case.lon.between(lon_min, lon_max))
    return query


async def nearby_open_cases(session: AsyncSession, municipality: str, category: str,
                            lat: float, lon: float, radius_m: float) -> list[tuple[Case, float]]:
    """Open cases of the city `municipality` (its slug) and of `category` within `radius_m`
    metres, nearest first, with distances."""
    candidates = (await session.execute(
        nearby_query(municipality, category, lat, lon, radius_m))).scalars()
    found = []
    for case in candidates:
        d = distance_m((lat, lon), (case.lat, case.lon))
        if d <= radius_m:
            found.append((case, d))
    found.sort(key=lambda pair: pair[1])
    return found


def due_query(now: datetime, limit: int = 500) -> Select:
    return (select(Case)
            .where(Case.next_deadline_at.is_not(None), Case.next_deadline_at <= now)
            .order_by(Case.next_deadline_at, Case.id).limit(limit))


async def due_cases(session: AsyncSession, now: datetime, limit: int = 500) -> list[Case]:
    """Cases whose next deadline is at or before `now`, earliest first (the sweep's input)."""
    return list((await session.execute(due_query(now, limit))).scalars())
