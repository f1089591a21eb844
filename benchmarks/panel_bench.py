"""The panel's indicators (/indicadores, core.services.staff.indicators) on N cases (1,000,000;
10,000 with quick=True; BENCH_PANEL_N overrides), SQLite in a temporary directory.

Cases are seeded as in storage_bench (six years, ~85 % closed, weighted categories, six
neighbourhoods); their timelines are then written in bulk with INSERT ... SELECT: every case
past "reported" has its diligence opened an hour after the report; a third of the vehicles
had the notice affixed (inspection and notification) two days after, a fifth of the
furniture was removed at once and entered the depot (removal) five days after; every closed
case has its closing event at closed_at. Each chart's query (indicators.PARTS) is timed over
the default period (the last twelve months) and one neighbourhood, p50/p99 of REPEAT runs.
Floor: the panel's list page, p99 < 200 ms (benchmarks/public_bench.py) for every chart.
"""
from __future__ import annotations

import asyncio
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

from benchmarks.storage_bench import MUNICIPALITY, seed
from core.laws import get_law
from core.services.staff import indicators as ind
from core.services.context import Core, utc_clock
from core.settings import Settings
from core.storage.db import Database, migrate
from core.storage.evidence import EvidenceStore

REPEAT = 21
FLOOR_MS = 200.0
_EVENT = ("INSERT INTO events (case_id, seq, at, actor_kind, action, data, public, hash) "
          "SELECT id, {seq}, datetime(created_at, '{shift}'), 'inspector', '{action}', "
          "'{{}}', 1, 'x' FROM cases WHERE {where}")
TIMELINES = [
    (1, "+1 hours", "open_diligence", "state != 'reported'"),
    (2, "+2 days", "affix_notice", "track = 'dores_vehicle' AND state != 'reported' "
                                   "AND id % 3 = 0"),
    (2, "+2 days", "remove_immediately", "track = 'dores_furniture' AND state != 'reported' "
                                         "AND id % 5 = 0"),
    (3, "+5 days", "depot_entry", "track = 'dores_furniture' AND state != 'reported' "
                                  "AND id % 5 = 0"),
    (4, "+0 seconds", "release", "track = 'dores_furniture' AND id % 5 = 0 "
                                 "AND closed_at IS NOT NULL AND id % 2 = 0"),
]


def seed_events(path: Path) -> int:
    con = sqlite3.connect(path, isolation_level=None)
    try:
        con.execute("PRAGMA synchronous=OFF")
        con.execute("BEGIN")
        for seq, shift, action, where in TIMELINES:
            con.execute(_EVENT.format(seq=seq, shift=shift, action=action, where=where))
        con.execute("INSERT INTO events (case_id, seq, at, actor_kind, action, data, public, "
                    "hash) SELECT id, 9, closed_at, 'staff', 'close_unfounded', '{}', 1, 'x' "
                    "FROM cases WHERE closed_at IS NOT NULL")
        con.execute("COMMIT")
        con.execute("ANALYZE")
        return con.execute("SELECT count(*) FROM events").fetchone()[0]
    finally:
        con.close()


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def _time(core: Core, part, period) -> tuple[float, float]:
    runs = []
    async with core.db.read() as s:
        await part(core, s, period)  # warm
    for _ in range(REPEAT):
        t0 = time.perf_counter()
        async with core.db.read() as s:
            await part(core, s, period)
        runs.append((time.perf_counter() - t0) * 1000)
    return statistics.median(runs), _pct(runs, 99)


async def run(quick: bool) -> list[str]:
    n = int(os.environ.get("BENCH_PANEL_N") or (10_000 if quick else 1_000_000))
    now = datetime.now(timezone.utc)
    with tempfile.TemporaryDirectory(prefix="vialivre-panel-") as tmp:
        path = Path(tmp) / "bench.sqlite3"
        url = f"sqlite+aiosqlite:///{path}"
        await migrate(url)
        t0 = time.perf_counter()
        await asyncio.to_thread(seed, path, n, now)
        events = await asyncio.to_thread(seed_events, path)
        seed_s = time.perf_counter() - t0
        db = Database.from_url(url)
        settings = Settings(_env_file=None, municipality=MUNICIPALITY, data_dir=Path(tmp))
        core = Core(db, get_law(MUNICIPALITY), settings, EvidenceStore(tmp), utc_clock)
        try:
            await core.seed_tariffs()
            period = ind.default_period(core)
            figures = {}
            for label, p in (("", period), (" (Centro)", replace(period, neighbourhood="Centro"))):
                for name, part in ind.PARTS.items():
                    figures[name + label] = await _time(core, part, p)
            t0 = time.perf_counter()
            await ind.compute(core, period)
            page_ms = (time.perf_counter() - t0) * 1000
        finally:
            await db.dispose()
    lines = [f"panel indicators: {n:,} cases, {events:,} timeline events on SQLite (seeded in "
             f"{seed_s:.1f} s), last twelve months, p50 / p99 of {REPEAT} runs"]
    for name, (p50, p99) in figures.items():
        ok = p99 < FLOOR_MS
        lines.append(f"  {name:<22} {p50:8.1f} / {p99:8.1f} ms   floor p99 < {FLOOR_MS:.0f} ms"
                     f"   {('PASS' if ok else 'FAIL') if not quick else 'not judged (quick)'}")
    lines.append(f"  whole page (every chart, once): {page_ms:.1f} ms")
    return lines


if __name__ == "__main__":
    for line in asyncio.run(run(quick="--quick" in sys.argv)):
        print(line)
