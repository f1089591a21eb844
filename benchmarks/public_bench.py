"""Public map benchmark: the public pages over HTTP (the panel's own aiohttp app,
`admin.app.create_app`, on a local test server) on the storage benchmark's data
(`benchmarks.storage_bench`: ~15 % open, over a 5.9 km disc around Dores do Indaiá), at
10k, 100k and 1M cases (`--quick`: 1k, 10k), on SQLite and — when it answers at
BENCH_DATABASE_URL, TEST_DATABASE_URL or postgresql+asyncpg://postgres@127.0.0.1:5432/test —
on PostgreSQL (a fresh database per size, dropped afterwards).

Seeding: SQLite by `storage_bench.seed` (bulk executemany, 1M in ~40 s); PostgreSQL by the
same rows through asyncpg's COPY (`storage_bench.seed_postgres`). The map's counters
(map_cells) are kept by the database's triggers during the load, as in production.

Each measurement is VIEWS requests, p50/p99, after WARM untimed ones:
- city: /publico/mapa.json over the whole city (±0.06° around random centres drawn like the
  cases) — clusters from the map_cells counters;
- neighbourhood: the same at ±0.01°; streets (±0.002°, each case) and neighbourhood with a
  category, for information;
- list page: /publico (the HTML page and its list) over a few streets (±0.003°);
- status page: /publico/protocolo/<random protocol>, each from another visitor (the test
  client is a trusted proxy, TRUSTED_PROXIES, naming the visitor in X-Forwarded-For), so the
  rate limit's write is in the figure and never refuses (cases without a deadline: the
  seed's deadline_json is the sweep's shape, not a transition's).

The web report (benchmarks.web_report_bench): visitors walking /publico/denunciar at once on
the same data; its page and its receipt p99, and the reports submitted per second. Beside
it, Open311's POST (benchmarks.open311_post_bench): partners' clients at once posting service
requests with a photo; its p99 and the requests created per second.

Floors at the largest size: city p99 < 100 ms (and every other line < 100 ms, the list page,
the report page and its receipt < 200 ms; Open311's POST is printed for information).
"""
from __future__ import annotations

import asyncio
import json
import random
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import func, select

from admin.app import create_app
from benchmarks import open311_post_bench, web_report_bench
from benchmarks.pg import database_url, reachable
from benchmarks.storage_bench import (MUNICIPALITY, _label, _log, _pct, random_point, seed,
                                      seed_postgres)
from core.laws import get_law
from core.services.context import Core, utc_clock
from core.settings import Settings
from core.storage.db import Database, migrate
from core.storage.evidence import EvidenceStore
from core.storage.models import Case, MapCell

SIZES = [10_000, 100_000, 1_000_000]
QUICK_SIZES = [1_000, 10_000]
VIEWS = 100
WARM = 5
SPANS = {"city": 0.06, "neighbourhood": 0.01, "streets": 0.002, "list page": 0.003}
FLOORS_MS = {"city": 100.0, "neighbourhood": 100.0, "streets": 100.0,
             "neighbourhood+category": 100.0, "list page": 200.0, "status page": 100.0,
             "report page": 200.0, "report receipt": 200.0}  # the web report: the list's
# (Open311's POST is printed for information, beside the web report's submissions: no floor)


# -- measurements ------------------------------------------------------------------------------

async def _timed(client: TestClient, paths: list[tuple[str, dict]]) -> tuple[list[float], int]:
    times, shown = [], 0
    for i, (path, headers) in enumerate(paths):
        t0 = time.perf_counter()
        resp = await client.get(path, headers=headers)
        body = await resp.read()
        ms = (time.perf_counter() - t0) * 1000
        assert resp.status == 200, (path, resp.status, body[:300])
        if i >= WARM:
            times.append(ms)
            if path.startswith("/publico/mapa.json"):
                shown += len(json.loads(body)["features"])
    return times, shown


def _bbox(rng: random.Random, span: float) -> str:
    lat, lon = random_point(rng)
    return f"{lat - span:.5f},{lon - span:.5f},{lat + span:.5f},{lon + span:.5f}"


async def _measure(core: Core, rng: random.Random, quick: bool = False
                   ) -> dict[str, dict[str, float]]:
    async with core.db.read() as s:
        top = (await s.execute(select(func.max(Case.id)))).scalar_one()
        ids = rng.sample(range(1, top + 1), min(top, 2 * (VIEWS + WARM)))
        # the seed's deadline_json is the sweep's shape, not the status page's: cases without
        protocols = list((await s.execute(select(Case.protocol).where(
            Case.id.in_(ids), Case.deadline_json.is_(None)))).scalars())
        counters = (await s.execute(select(func.count()).select_from(MapCell))).scalar_one()
    rng.shuffle(protocols)
    out: dict[str, dict[str, float]] = {}
    count = VIEWS + WARM
    async with TestClient(TestServer(create_app(core))) as client:
        for name, category in (("city", ""), ("neighbourhood", ""), ("streets", ""),
                               ("neighbourhood+category", "motor_vehicle")):
            span = SPANS[name.split("+")[0]]
            extra = f"&categoria={category}" if category else ""
            paths = [(f"/publico/mapa.json?bbox={_bbox(rng, span)}{extra}", {})
                     for _ in range(count)]
            times, shown = await _timed(client, paths)
            out[name] = {"p50": _pct(times, 50), "p99": _pct(times, 99), "shown": shown / VIEWS}
        paths = [(f"/publico?bbox={_bbox(rng, SPANS['list page'])}", {}) for _ in range(count)]
        times, _ = await _timed(client, paths)
        out["list page"] = {"p50": _pct(times, 50), "p99": _pct(times, 99), "shown": 0}
        paths = [(f"/publico/protocolo/{p}",
                  {"X-Forwarded-For": f"198.51.{i // 250}.{i % 250 + 1}"})
                 for i, p in enumerate(protocols[:count])]
        times, _ = await _timed(client, paths)
        out["status page"] = {"p50": _pct(times, 50), "p99": _pct(times, 99), "shown": 0}
    out["_counters"] = {"rows": counters}
    out.update(await web_report_bench.measure(core, quick))  # the web report, beside them
    out.update(await open311_post_bench.measure(core, quick))  # and Open311's POST
    return out


def _settings(data_dir: Path, url: str) -> Settings:
    return Settings(_env_file=None, municipality=MUNICIPALITY, data_dir=data_dir,
                    database_url=url, trusted_proxies="127.0.0.1", web_report_min_seconds=0,
                    **open311_post_bench.SETTINGS)


async def bench_sqlite(n: int) -> dict:
    now = datetime.now(timezone.utc)
    with tempfile.TemporaryDirectory(prefix="vialivre-public-") as tmp:
        data_dir = Path(tmp)
        path = data_dir / "bench.sqlite3"
        url = f"sqlite+aiosqlite:///{path}"
        await migrate(url)
        t0 = time.perf_counter()
        await asyncio.to_thread(seed, path, n, now)
        seeded = time.perf_counter() - t0
        _log(f"public map SQLite {_label(n)}: seeded in {seeded:.1f} s")
        db = Database.from_url(url)
        core = Core(db, get_law(MUNICIPALITY), _settings(data_dir, url), EvidenceStore(data_dir),
                    utc_clock)
        try:
            return {"n": n, "seed_s": seeded,
                    "views": await _measure(core, random.Random(n), n < SIZES[-1])}
        finally:
            await db.dispose()


async def bench_postgresql(admin_url: str, n: int) -> dict:
    from sandbox.standin.cluster import drop_database, fresh_database
    now = datetime.now(timezone.utc)
    url = await fresh_database(admin_url)
    try:
        with tempfile.TemporaryDirectory(prefix="vialivre-public-") as tmp:
            data_dir = Path(tmp)
            await migrate(url)
            t0 = time.perf_counter()
            await seed_postgres(url, n, now)
            seeded = time.perf_counter() - t0
            _log(f"public map PostgreSQL {_label(n)}: seeded in {seeded:.1f} s")
            db = Database.from_url(url)
            core = Core(db, get_law(MUNICIPALITY), _settings(data_dir, url),
                        EvidenceStore(data_dir), utc_clock)
            try:
                return {"n": n, "seed_s": seeded,
                        "views": await _measure(core, random.Random(n), n < SIZES[-1])}
            finally:
                await db.dispose()
    finally:
        await drop_database(url)


def _lines(engine: str, results: list[dict], quick: bool) -> list[str]:
    lines = [f"public map benchmark ({engine}; over HTTP, {VIEWS} requests each)"]
    for r in results:
        lines.append(f"  {_label(r['n']):>4} cases: seeded in {r['seed_s']:.1f} s, "
                     f"{r['views']['_counters']['rows']} map_cells counters")
        web = r["views"]["_web"]
        lines.append(f"  {_label(r['n']):>4} cases, web report: {web['rate']:.1f} reports/s "
                     f"({web['walks']} walks, {web_report_bench.WALKERS} visitors at once, "
                     f"{web['failed']} not registered)")
        o311 = r["views"]["_open311"]
        lines.append(f"  {_label(r['n']):>4} cases, Open311 POST: {o311['rate']:.1f} requests/s "
                     f"({o311['posts']} posts, {open311_post_bench.CLIENTS} clients at once, "
                     f"{o311['failed']} not created)")
        for name, v in r["views"].items():
            if name.startswith("_"):
                continue
            shown = f"  ({v['shown']:.0f} markers/clusters each)" if v["shown"] else ""
            lines.append(f"  {_label(r['n']):>4} cases, {name:<24} p50 {v['p50']:7.2f} ms  "
                         f"p99 {v['p99']:7.2f} ms{shown}")
    big = results[-1]
    at = _label(big["n"])
    lines.append(f"verdicts at {at} ({engine})" + (" (quick run: too small to judge the floors)"
                                                   if quick else "") + ":")
    for name, v in big["views"].items():
        if name.startswith("_") or name not in FLOORS_MS:
            continue
        ok = v["p99"] < FLOORS_MS[name]
        lines.append(f"  public {name} p99 @{at} {engine}".ljust(50) + f"{v['p99']:8.2f} ms   "
                     f"floor < {FLOORS_MS[name]:.0f} ms   {'PASS' if ok else 'FAIL'}")
    return lines


async def run(quick: bool) -> list[str]:
    sizes = QUICK_SIZES if quick else SIZES
    lines = _lines("SQLite", [await bench_sqlite(n) for n in sizes], quick)
    admin_url = database_url()
    why = await reachable(admin_url)
    if why:
        return lines + [f"public map benchmark (PostgreSQL): skipped, unreachable ({why})"]
    return lines + _lines("PostgreSQL", [await bench_postgresql(admin_url, n) for n in sizes],
                          quick)
