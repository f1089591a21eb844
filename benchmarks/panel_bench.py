"""The panel's indicators (/indicadores, core.services.staff.indicators) on N cases (1,000,000;
10,000 with quick=True; BENCH_PANEL_N overrides), on SQLite in a temporary directory, then on
PostgreSQL when it answers (a fresh database, dropped afterwards; BENCH_PANEL_ENGINES=sqlite
narrows a run).

Cases are seeded as in storage_bench (six years, ~85 % closed, weighted categories, six
neighbourhoods); their timelines are then written in bulk with INSERT ... SELECT (the tally
triggers count them as any writer's): every case past "reported" has its diligence opened an
hour after the report; a third of the vehicles had the notice affixed (inspection and
notification) two days after, a fifth of the furniture was removed at once and entered the
depot (removal) five days after; every closed case has its closing event at closed_at, and
its reporter was asked three days later whether the object is gone (8 in 10), answered "gone"
(5 in 10) or "still there" (1 in 10). Each chart's query (indicators.PARTS) is timed over the
default period (the last twelve months) and one neighbourhood, p50/p99 of REPEAT runs.
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

from sqlalchemy import text

from benchmarks.pg import database_url, reachable
from benchmarks.storage_bench import MUNICIPALITY, seed, seed_postgres
from core.laws import get_law
from core.services.staff import indicators as ind
from core.services.context import Core, utc_clock
from core.settings import Settings
from core.storage.db import Database, migrate
from core.storage.evidence import EvidenceStore
from sandbox.standin.cluster import drop_database, fresh_database

REPEAT = 21
FLOOR_MS = 200.0
#: (seq, hours after the base column, action, base column, which cases)
TIMELINES = [
    (1, 1, "open_diligence", "created_at", "state != 'reported'"),
    (2, 48, "affix_notice", "created_at", "track = 'dores_vehicle' AND state != 'reported' "
                                          "AND id % 3 = 0"),
    (2, 48, "remove_immediately", "created_at", "track = 'dores_furniture' "
                                                "AND state != 'reported' AND id % 5 = 0"),
    (3, 120, "depot_entry", "created_at", "track = 'dores_furniture' AND state != 'reported' "
                                          "AND id % 5 = 0"),
    (4, 0, "release", "closed_at", "track = 'dores_furniture' AND id % 5 = 0 "
                                   "AND closed_at IS NOT NULL AND id % 2 = 0"),
    (9, 0, "close_unfounded", "closed_at", "closed_at IS NOT NULL"),
    (10, 72, "followup_asked", "closed_at", "closed_at IS NOT NULL AND id % 10 < 8"),
    (11, 96, "followup_gone", "closed_at", "closed_at IS NOT NULL AND id % 10 < 5"),
    (11, 96, "reopen", "closed_at", "closed_at IS NOT NULL AND id % 10 = 5"),
]


def _timeline_sql(sqlite: bool) -> list[str]:
    out = []
    for seq, hours, action, column, where in TIMELINES:
        at = (f"datetime({column}, '+{hours} hours')" if sqlite
              else f"{column} + interval '{hours} hours'")
        out.append("INSERT INTO events (case_id, seq, at, actor_kind, action, data, public, "
                   f"hash) SELECT id, {seq}, {at}, 'system', '{action}', '{{}}', true, 'x' "
                   f"FROM cases WHERE {where}")
    return out


def seed_events(path: Path) -> int:
    con = sqlite3.connect(path, isolation_level=None)
    try:
        con.execute("PRAGMA synchronous=OFF")
        con.execute("BEGIN")
        for statement in _timeline_sql(sqlite=True):
            con.execute(statement)
        con.execute("COMMIT")
        con.execute("ANALYZE")
        return con.execute("SELECT count(*) FROM events").fetchone()[0]
    finally:
        con.close()


async def seed_events_postgres(url: str) -> int:
    db = Database.from_url(url)
    try:
        async with db.engine.begin() as conn:
            for statement in _timeline_sql(sqlite=False):
                await conn.execute(text(statement))
        async with db.engine.connect() as conn:
            await conn.execution_options(isolation_level="AUTOCOMMIT")
            await conn.execute(text("VACUUM ANALYZE"))
            return (await conn.execute(text("SELECT count(*) FROM events"))).scalar_one()
    finally:
        await db.dispose()


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


async def measure(n: int, quick: bool, admin_url: str | None = None) -> list[str]:
    """One engine: SQLite, or PostgreSQL when `admin_url` is given."""
    now = datetime.now(timezone.utc)
    engine = "PostgreSQL" if admin_url else "SQLite"
    with tempfile.TemporaryDirectory(prefix="vialivre-panel-") as tmp:
        path = Path(tmp) / "bench.sqlite3"
        url = await fresh_database(admin_url) if admin_url else f"sqlite+aiosqlite:///{path}"
        try:
            await migrate(url)
            t0 = time.perf_counter()
            if admin_url:
                await seed_postgres(url, n, now)
                events = await seed_events_postgres(url)
            else:
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
                for label, p in (("", period),
                                 (" (Centro)", replace(period, neighbourhood="Centro"))):
                    for name, part in ind.PARTS.items():
                        figures[name + label] = await _time(core, part, p)
                pages = []
                for _ in range(REPEAT):
                    t0 = time.perf_counter()
                    await ind.compute(core, period)
                    pages.append((time.perf_counter() - t0) * 1000)
            finally:
                await db.dispose()
        finally:
            if admin_url:
                await drop_database(url)
    lines = [f"panel indicators: {n:,} cases, {events:,} timeline events on {engine} (seeded "
             f"in {seed_s:.1f} s, tallies kept by the triggers), last twelve months, p50 / p99 "
             f"of {REPEAT} runs"]
    for name, (p50, p99) in figures.items():
        ok = p99 < FLOOR_MS
        lines.append(f"  {name:<22} {p50:8.1f} / {p99:8.1f} ms   floor p99 < {FLOOR_MS:.0f} ms"
                     f" ({p99 / FLOOR_MS:.2f}x)   "
                     f"{('PASS' if ok else 'FAIL') if not quick else 'not judged (quick)'}")
    lines.append(f"  whole page (every chart) {statistics.median(pages):8.1f} / "
                 f"{_pct(pages, 99):8.1f} ms")
    print("\n".join(lines), file=sys.stderr, flush=True)  # each engine's figures as they come
    return lines


async def run(quick: bool) -> list[str]:
    n = int(os.environ.get("BENCH_PANEL_N") or (10_000 if quick else 1_000_000))
    engines = os.environ.get("BENCH_PANEL_ENGINES", "sqlite,postgresql").split(",")
    lines = await measure(n, quick) if "sqlite" in engines else []
    if "postgresql" in engines:
        url = database_url()
        why = await reachable(url)
        lines += (await measure(n, quick, url) if why is None else
                  [f"panel indicators (PostgreSQL): skipped, unreachable ({why}); "
                   "set BENCH_DATABASE_URL"])
    return lines


if __name__ == "__main__":
    for line in asyncio.run(run(quick="--quick" in sys.argv)):
        print(line)
