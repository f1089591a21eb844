"""Public map benchmark (issue #14): `core.services.public.map_cases` on the storage
benchmark's data (benchmarks.storage_bench.seed: 1M cases, ~15 % open, over a 5.9 km disc
around Dores do Indaiá), through the application's own code on SQLite.

Three views, each at VIEWS random centres drawn like the cases (p50/p99): the whole city
(±0.06°, answered as clusters), a neighbourhood (±0.01°) and a few streets (±0.002°, answered
as points), plus the neighbourhood with a category filter. Floors at the largest size: city
p99 < 250 ms, neighbourhood and streets p99 < 100 ms.
"""
from __future__ import annotations

import asyncio
import random
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from benchmarks.storage_bench import (MUNICIPALITY, _label, _log, _pct, random_point, seed)
from core.laws import get_law
from core.services.context import Core, utc_clock
from core.services.public import Bbox, map_cases
from core.settings import Settings
from core.storage.db import Database, migrate
from core.storage.evidence import EvidenceStore

SIZES = [1_000_000]
QUICK_SIZES = [10_000]
VIEWS = 60
SPANS = {"city": 0.06, "neighbourhood": 0.01, "streets": 0.002}
FLOORS_MS = {"city": 250.0, "neighbourhood": 100.0, "streets": 100.0,
             "neighbourhood+category": 100.0}


async def _measure(core: Core, rng: random.Random) -> dict[str, dict[str, float]]:
    out = {}
    for name, category in (("city", ""), ("neighbourhood", ""), ("streets", ""),
                           ("neighbourhood+category", "motor_vehicle")):
        span = SPANS[name.split("+")[0]]
        times, shown = [], 0
        for _ in range(VIEWS):
            lat, lon = random_point(rng)
            box = Bbox(lat - span, lon - span, lat + span, lon + span)
            t0 = time.perf_counter()
            result = await map_cases(core, box, category)
            times.append((time.perf_counter() - t0) * 1000)
            shown += len(result.cases) or len(result.clusters)
        out[name] = {"p50": _pct(times, 50), "p99": _pct(times, 99), "shown": shown / VIEWS}
    return out


async def bench_size(n: int) -> dict:
    now = datetime.now(timezone.utc)
    with tempfile.TemporaryDirectory(prefix="vialivre-public-") as tmp:
        data_dir = Path(tmp)
        path = data_dir / "bench.sqlite3"
        url = f"sqlite+aiosqlite:///{path}"
        await migrate(url)
        await asyncio.to_thread(seed, path, n, now)
        _log(f"public map {_label(n)}: seeded")
        db = Database.from_url(url)
        settings = Settings(_env_file=None, municipality=MUNICIPALITY, data_dir=data_dir)
        core = Core(db, get_law(MUNICIPALITY), settings, EvidenceStore(data_dir), utc_clock)
        try:
            return {"n": n, "views": await _measure(core, random.Random(n))}
        finally:
            await db.dispose()


async def run(quick: bool) -> list[str]:
    results = [await bench_size(n) for n in (QUICK_SIZES if quick else SIZES)]
    lines = [f"public map benchmark (SQLite; map_cases over {VIEWS} random views each)"]
    for r in results:
        for name, v in r["views"].items():
            lines.append(f"  {_label(r['n']):>4} cases, {name:<24} p50 {v['p50']:7.2f} ms  "
                         f"p99 {v['p99']:7.2f} ms  ({v['shown']:.0f} points/clusters per view)")
    big = results[-1]
    at = _label(big["n"])
    lines.append(f"verdicts at {at}" + (" (quick run: too small to judge the floors)"
                                        if quick else "") + ":")
    for name, v in big["views"].items():
        ok = v["p99"] < FLOORS_MS[name]
        lines.append(f"  public map {name} p99 @{at}".ljust(46) + f"{v['p99']:8.2f} ms   floor "
                     f"< {FLOORS_MS[name]:.0f} ms   {'PASS' if ok else 'FAIL'}")
    return lines
