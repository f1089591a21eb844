"""The storage benchmark's per-city pages: the staff panel's case list and the public map,
each request for a city drawn at random among those served, through the services themselves
(`core.services.staff.list_cases`, `core.services.public.map.map_cases`; no HTTP).

- list pages: the first page and a deep page (keyset cursor 98 % of the way down the city's
  six years), all cases and filtered by state ("reported"); floor p99 < 200 ms (the panel's
  list page, as in the panel and public suites);
- map: the whole city (±0.06° around its centre: clusters from the city's map_cells) and a
  neighbourhood (±0.01° around a point of the city); floor p99 < 100 ms (the public suite's,
  there over HTTP).
"""
from __future__ import annotations

import math
import random
import time
from datetime import datetime, timedelta

from benchmarks.cities import BenchCity
from core.services import staff as pq
from core.services.context import Core
from core.services.public.map import Bbox, map_cases

RUNS = 100
QUICK_RUNS = 20
FLOOR_LIST_P99_MS = 200.0
FLOOR_MAP_P99_MS = 100.0
CITY_SPAN, NEIGHBOURHOOD_SPAN = 0.06, 0.01
LISTS = ("list first page", "list deep page", "list by state, first", "list by state, deep")
MAPS = ("map city", "map neighbourhood")


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(p / 100 * len(ordered)) - 1))]


def _box(lat: float, lon: float, span: float) -> Bbox:
    return Bbox(lat - span, lon - span, lat + span, lon + span)


async def measure_pages(core: Core, rng: random.Random, cities: list[BenchCity], now: datetime,
                        quick: bool, years: int = 6) -> dict[str, dict[str, float]]:
    """name → {"p50", "p99", "rows"} (rows: mean rows or features answered)."""
    oldest = now - timedelta(days=365 * years)
    deep = pq.encode_cursor(oldest + timedelta(days=365 * years * 0.02), 0)
    every, reported = pq.CaseFilter(), pq.CaseFilter(state="reported")
    calls = {
        "list first page": lambda c, _: pq.list_cases(c, every),
        "list deep page": lambda c, _: pq.list_cases(c, every, deep),
        "list by state, first": lambda c, _: pq.list_cases(c, reported),
        "list by state, deep": lambda c, _: pq.list_cases(c, reported, deep),
        "map city": lambda c, city: map_cases(c, _box(*city.centre, CITY_SPAN)),
        "map neighbourhood": lambda c, city: map_cases(
            c, _box(*city.random_point(rng), NEIGHBOURHOOD_SPAN)),
    }
    out = {}
    for name, call in calls.items():
        times, rows = [], 0
        for _ in range(QUICK_RUNS if quick else RUNS):
            city = rng.choice(cities)
            bound = core.for_city(city.slug)
            t0 = time.perf_counter()
            answer = await call(bound, city)
            times.append((time.perf_counter() - t0) * 1000)
            rows += len(answer.rows) if hasattr(answer, "rows") else \
                len(answer.cases) + len(answer.clusters)
        out[name] = {"p50": _pct(times, 50), "p99": _pct(times, 99), "rows": rows / len(times)}
    return out


def page_lines(pages: dict[str, dict[str, float]]) -> list[str]:
    return ["        " + " | ".join(
        f"{name} p50 {pages[name]['p50']:.2f} p99 {pages[name]['p99']:.2f} ms "
        f"({pages[name]['rows']:.0f} {'rows' if name in LISTS else 'points/clusters'})"
        for name in group) for group in (LISTS[:2], LISTS[2:], MAPS)]


def page_verdicts(pages: dict[str, dict[str, float]]) -> list[tuple[str, float, float]]:
    """(name, p99 ms, floor ms) for each page."""
    return [(f"{name} p99", pages[name]["p99"],
             FLOOR_LIST_P99_MS if name in LISTS else FLOOR_MAP_P99_MS) for name in pages]
