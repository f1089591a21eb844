"""Counts over periods from the tallies (core.storage.models_tally), exact to the instant.

A period is a list of buckets: contiguous, ordered [lo, hi) instants (a month each, say; the
first `lo` may be None, "from the beginning"). Each bucket is covered by the whole tally days
inside it, summed from the tallies, and by at most two slivers at its ends, counted from the
rows themselves (`cover`). Local midnights in Brasília time are tally-day starts, so a period
of whole local days in America/Sao_Paulo has no sliver at all; any other limit still counts
right, a few hours of rows more.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone

from sqlalchemy import and_, case, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from core.storage.models import Case, Event
from core.storage.models_tally import CaseTally, EventTally

#: A tally day d counts [d 03:00 UTC, d+1 03:00 UTC) (migration 0021 writes it in its triggers)
SHIFT = timedelta(hours=3)

Bucket = tuple[datetime | None, datetime]


def tally_day(at: datetime) -> date:
    return (at.astimezone(timezone.utc) - SHIFT).date()


def day_start(day: date) -> datetime:
    return datetime.combine(day, time(0), timezone.utc) + SHIFT


@dataclass(frozen=True)
class Cover:
    """A bucket as whole tally days [first, stop) (first None: every day before stop) and the
    instants [lo, hi) left at its ends."""
    first: date | None
    stop: date
    slivers: tuple[tuple[datetime | None, datetime], ...]


def cover(lo: datetime | None, hi: datetime) -> Cover:
    stop = tally_day(hi)  # day_start(stop) <= hi < day_start(stop + 1)
    first, slivers = None, []
    if lo is not None:
        first = tally_day(lo)
        if day_start(first) < lo:
            first += timedelta(days=1)
        if first >= stop:  # not one whole day inside: all of it from the rows
            return Cover(first, first, ((lo, hi),))
        if lo < day_start(first):
            slivers.append((lo, day_start(first)))
    if day_start(stop) < hi:
        slivers.append((day_start(stop), hi))
    return Cover(first, stop, tuple(slivers))


def instant_bucket(column, buckets: list[Bucket]):
    """The bucket (its index; len(buckets) after the last) an instant falls in, as SQL."""
    return case(*[(column < hi, i) for i, (_, hi) in enumerate(buckets)], else_=len(buckets))


def _day_bucket(column, covers: list[Cover]):
    """The bucket whose whole days hold a tally day, -1 for none, as SQL."""
    whens = []
    for i, c in enumerate(covers):
        if c.first is not None:
            whens.append((column < c.first, -1))
        whens.append((column < c.stop, i))
    return case(*whens, else_=-1)


def _in_slivers(column, covers: list[Cover]):
    ranges = [and_(*([column >= lo] if lo is not None else []), column < hi)
              for c in covers for lo, hi in c.slivers]
    return or_(*ranges) if ranges else None


async def _sum_days(s: AsyncSession, tally, covers: list[Cover], cols: list, where: list
                    ) -> Counter:
    days = [c for c in covers if c.first is None or c.first < c.stop]
    if not days:
        return Counter()
    bucket = _day_bucket(tally.day, covers).label("b")
    low = [] if any(c.first is None for c in days) else [tally.day >= days[0].first]
    rows = (await s.execute(
        select(bucket, *cols, func.sum(tally.n))
        .where(*where, *low, tally.day < days[-1].stop).group_by(bucket, *cols))).all()
    return Counter({tuple(r[:-1]): int(r[-1]) for r in rows if r[0] >= 0})


async def _count_rows(s: AsyncSession, instant, buckets: list[Bucket], covers: list[Cover],
                     cols: list, where: list, join: tuple = ()) -> Counter:
    """The slivers' part, counted from the rows: {(bucket, *cols): n}."""
    rows_in = _in_slivers(instant, covers)
    if rows_in is None:
        return Counter()
    bucket = instant_bucket(instant, buckets).label("b")
    query = select(bucket, *cols, func.count())
    if join:
        query = query.join(*join)
    rows = (await s.execute(query.where(*where, rows_in).group_by(bucket, *cols))).all()
    return Counter({tuple(r[:-1]): r[-1] for r in rows})


async def case_counts(s: AsyncSession, municipality: str, buckets: list[Bucket], by: str,
                      neighbourhood: str | None = None) -> Counter:
    """{(bucket index, value): cases of the city reported in the bucket}, by one dimension:
    "category", "state" or "followup" ('' for a case never asked), in one neighbourhood or
    all."""
    covers = [cover(lo, hi) for lo, hi in buckets]
    where = [CaseTally.municipality == municipality, CaseTally.dimension == by]
    rows = [Case.municipality == municipality]
    if neighbourhood:
        where.append(CaseTally.neighbourhood == neighbourhood)
        rows.append(Case.neighbourhood == neighbourhood)
    return (await _sum_days(s, CaseTally, covers, [CaseTally.value], where)
            + await _count_rows(s, Case.created_at, buckets, covers,
                                [func.coalesce(getattr(Case, by), "")], rows))


async def event_counts(s: AsyncSession, municipality: str, buckets: list[Bucket],
                       actions: set[str], neighbourhood: str | None = None) -> Counter:
    """{(bucket index, action): steps of `actions` taken in the bucket on the city's cases},
    in one neighbourhood or all."""
    covers = [cover(lo, hi) for lo, hi in buckets]
    where = [EventTally.municipality == municipality, EventTally.action.in_(actions)]
    rows = [Case.municipality == municipality, Event.action.in_(actions)]
    if neighbourhood:
        where.append(EventTally.neighbourhood == neighbourhood)
        rows.append(Case.neighbourhood == neighbourhood)
    return (await _sum_days(s, EventTally, covers, [EventTally.action], where)
            + await _count_rows(s, Event.at, buckets, covers, [Event.action], rows,
                                join=(Case, Case.id == Event.case_id)))
