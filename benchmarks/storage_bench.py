"""Storage benchmark: due sweep, nearby query and report submissions on SQLite and,
when it answers (BENCH_DATABASE_URL or TEST_DATABASE_URL), on PostgreSQL.

For each size (10k, 100k, 1M cases; `--quick`: 1k, 10k) a fresh SQLite file is created in a
temporary directory, migrated by Alembic (core.storage.db.migrate) and seeded with bulk
`executemany` INSERTs through the stdlib driver (batches of 20 000 rows, one transaction,
synchronous=OFF for the seeding connection only). On PostgreSQL a fresh database (created
beside the configured one, dropped afterwards) is migrated the same way and seeded with the
same rows by COPY (`seed_postgres`), then ANALYZEd. The data imitate years of reports in
Dores do Indaiá:

- points uniform over a 5.9 km disc around the city centre (-19.4628, -45.6003);
- categories weighted (motor vehicles most common), ~85 % closed cases (the history of
  several years), the open ones spread over the lifecycle's states;
- 3 % of the cases carry a future `next_deadline_at`, plus exactly DUE (200) cases whose
  deadline is already due, whatever the size, so the sweep returns the same rows everywhere;
- created_at spread over six years, protocols numbered per year in that order, and the
  year counters set, as a live database would have them.

Measured on each database, through the application's own code:
- sweep: `core.storage.queries.due_cases` in a read session, as `sweep_deadlines` runs it
  (median of SWEEP_RUNS; the first, cold run is printed too);
- nearby: `core.storage.queries.nearby_open_cases` in a read session, 50 m, at NEARBY_POINTS
  random points drawn like the cases (p50/p99); `core.services.citizens.reports.find_nearby` (which
  adds a photo look-up per case found) is printed for information;
- submissions: `core.services.citizens.reports.submit_report` through a `Core` on the database,
  SUBMISSIONS reports (1–3 photos each, already in the evidence store; half the reporters
  new, half known) with CONCURRENCY concurrent submitters; wall-clock rate.

Floors (at the largest size; at 1M in a full run): sweep < 50 ms, nearby p99 < 5 ms,
≥ 500 submissions/s, sweep(largest)/sweep(smallest) ≤ 3.
"""
from __future__ import annotations

import asyncio
import base64
import gc
import io
import json
import math
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from core.laws import get_law
from core.services.context import Core, utc_clock
from core.services.cases.evidence import EvidenceIn
from core.services.citizens.reports import ReportIn, find_nearby, submit_report
from core.settings import Settings
from core.storage.db import Database, migrate
from core.storage.evidence import EvidenceStore
from core.storage.geo import cell_of
from core.storage.queries import due_cases, nearby_open_cases
from sandbox.standin.cluster import drop_database, fresh_database
from benchmarks.cities import (MUNICIPALITY_COLUMNS, BenchCity, municipality_rows,
                               synthetic_cities)
from benchmarks.pg import database_url, reachable
from benchmarks.storage_pages import measure_pages, page_lines, page_verdicts

MUNICIPALITY = "dores-do-indaia"
CENTRE = (-19.4628, -45.6003)
CITIES = 50  # the cases spread over this many municipalities (benchmarks.cities)
_DORES = synthetic_cities(1)[0]
DUE = 200
FUTURE_DEADLINE_SHARE = 0.03
OPEN_SHARE = 0.15
RADIUS_M = 50.0
SWEEP_RUNS = 21
NEARBY_POINTS = 1000
SUBMISSIONS = 1000
CONCURRENCY = 16
SEED_BATCH = 20_000
PERSONS = 5_000
YEARS = 6

FLOOR_SWEEP_MS = 50.0
FLOOR_NEARBY_P99_MS = 5.0
FLOOR_SUBMIT_PER_S = 500.0
FLOOR_SWEEP_RATIO = 3.0

SIGNS = ["missing_tyres", "dented_rusted", "no_engine", "missing_broken_glass", "no_seats"]
STREETS = ["Rua Getúlio Vargas", "Avenida Brasil", "Rua Sete de Setembro", "Rua Goiás",
           "Rua Minas Gerais", "Rua Tiradentes", "Praça do Rosário", "Rua Bahia"]
NEIGHBOURHOODS = ["Centro", "Rosário", "São Sebastião", "Vila Nova", "Bela Vista", "Santa Rosa"]

SIZES = [10_000, 100_000, 1_000_000]
QUICK_SIZES = [1_000, 10_000]


def _log(msg: str) -> None:
    print(f"  storage: {msg}", file=sys.stderr, flush=True)


def _label(n: int) -> str:
    return f"{n // 1_000_000}M" if n >= 1_000_000 and n % 1_000_000 == 0 else f"{n // 1000}k"


def _sqlite_dt(dt: datetime) -> str:
    """How SQLAlchemy stores a UTCDateTime in SQLite (naive UTC, microseconds)."""
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f")


def random_point(rng: random.Random) -> tuple[float, float]:
    """Uniform in the SPREAD_M disc around Dores do Indaiá's centre (equirectangular offset)."""
    return _DORES.random_point(rng)


# -- seeding ---------------------------------------------------------------------------------

_CASE_COLUMNS = ("protocol, case_code, municipality, category, track, state, lat, lon, cell, "
                 "address, neighbourhood, plate, chassis, description, details, reporter_id, "
                 "created_at, updated_at, closed_at, next_deadline_at, next_deadline_kind, "
                 "deadline_json, is_open")


def _case_rows(n: int, now: datetime, rng: random.Random, dt=_sqlite_dt,
               cities: list[BenchCity] | None = None):
    """Yield (rows, counters) batches; counters maps year → last protocol number so far.
    `dt` renders a datetime for the driver (SQLite: text; PostgreSQL's COPY: the datetime).
    Each case in one of `cities` drawn at random (default: Dores do Indaiá alone, with the
    very rows of the single-city benchmark), with its law's categories and states."""
    cities = cities or synthetic_cities(1)
    cats = {c.slug: c.weighted_categories() for c in cities}
    details = [json.dumps({"report": {"colour": colour, "make_model": None, "time_there":
                                      "3 meses", "signs": [sign], "location_kind": None},
                           "facts": {}}, ensure_ascii=False)
               for colour in ("prata", "branco", "preto", None) for sign in SIGNS]
    # which rows carry a deadline: DUE due now, FUTURE in the coming 60 days
    future = int(n * FUTURE_DEADLINE_SHARE)
    with_deadline = rng.sample(range(n), min(n, DUE + future))
    due_rows = set(with_deadline[:DUE])
    future_rows = set(with_deadline[DUE:])
    span = timedelta(days=365 * YEARS).total_seconds()
    offsets = sorted(rng.random() * span for _ in range(n))  # seconds before `now`, sorted
    start = now - timedelta(days=365 * YEARS)
    counters: dict[int, int] = {}
    batch = []
    for i in range(n):
        created = start + timedelta(seconds=offsets[i])
        local_year = (created - timedelta(hours=3)).year  # America/Sao_Paulo is UTC-3
        counters[local_year] = counters.get(local_year, 0) + 1
        city = cities[0] if len(cities) == 1 else rng.choice(cities)
        category = rng.choice(cats[city.slug])
        track = city.track(category)
        lat, lon = city.random_point(rng)
        deadline_at = kind = deadline_json = closed_at = None
        if i in due_rows or i in future_rows:
            state, is_open = rng.choice(city.deadline_states[track]), True
            deadline_at = (now - timedelta(minutes=rng.randint(1, 4320)) if i in due_rows
                           else now + timedelta(minutes=rng.randint(60, 86_400)))
            kind = "lapse"
            deadline_json = json.dumps({  # the shape transitions write (public pages read it)
                "due": deadline_at.date().isoformat(), "due_at": deadline_at.isoformat(),
                "due_in_full": deadline_at.date().isoformat(), "description": "Prazo",
                "article": "Art. 6º, caput", "explanation": "", "on_lapse": None},
                ensure_ascii=False)
        elif rng.random() < OPEN_SHARE:
            state, is_open = rng.choice(city.open_states), True
        else:
            state, is_open = rng.choice(city.closed_states[track]), False
            closed_at = dt(created + timedelta(days=rng.randint(5, 120)))
        plate = (f"{''.join(rng.choices('ABCDEFGHJKLMNPRSTUVWXYZ', k=3))}{rng.randint(0, 9)}"
                 f"{rng.choice('ABCDEFGHIJ')}{rng.randint(10, 99)}"
                 if category in city.plated and rng.random() < 0.6 else None)
        batch.append((
            f"{local_year:04d}-{counters[local_year]:06d}",
            base64.urlsafe_b64encode(rng.randbytes(8)).decode()[:11],
            city.slug, category, track, state, lat, lon, cell_of(lat, lon),
            f"{rng.choice(STREETS)}, {rng.randint(1, 2000)}", rng.choice(NEIGHBOURHOODS),
            plate, None, None, rng.choice(details),
            rng.randint(1, PERSONS) if rng.random() < 0.95 else None,
            dt(created), dt(created + timedelta(days=rng.randint(0, 30))),
            closed_at, dt(deadline_at) if deadline_at else None, kind, deadline_json,
            is_open))
        if len(batch) >= SEED_BATCH:
            yield batch, counters
            batch = []
    yield batch, counters


def seed(path: Path, n: int, now: datetime, seed_value: int = 3, cities: int = 1) -> None:
    """Bulk-insert the municipality records of `cities` synthetic cities, PERSONS persons and
    `n` cases spread over those cities into the migrated SQLite file at `path`."""
    rng = random.Random(seed_value)
    served = synthetic_cities(cities)
    con = sqlite3.connect(path, isolation_level=None)
    try:
        for pragma in ("synchronous=OFF", "cache_size=-262144", "temp_store=MEMORY"):
            con.execute(f"PRAGMA {pragma}")
        con.execute("BEGIN")
        created = _sqlite_dt(now - timedelta(days=365 * YEARS))
        con.executemany(
            "INSERT INTO persons (id, telegram_id, display_name, roles, created_at) "
            "VALUES (?, ?, NULL, '[\"citizen\"]', ?)",
            [(i, 10_000_000 + i, created) for i in range(1, PERSONS + 1)])
        con.executemany(f"INSERT INTO municipalities ({', '.join(MUNICIPALITY_COLUMNS)}) "
                        f"VALUES ({', '.join('?' * len(MUNICIPALITY_COLUMNS))})",
                        municipality_rows(served, now, _sqlite_dt))
        counters: dict[int, int] = {}
        for rows, counters in _case_rows(n, now, rng, cities=served):  # noqa: B007 (the last is kept)
            if rows:
                con.executemany(f"INSERT INTO cases ({_CASE_COLUMNS}) VALUES "
                                f"({', '.join('?' * 23)})", rows)
        con.executemany("INSERT INTO protocol_counters (year, last) VALUES (?, ?)",
                        sorted(counters.items()))
        con.execute("COMMIT")
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        con.close()


# -- measurements ----------------------------------------------------------------------------

def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(p / 100 * len(ordered)) - 1))]


async def measure_sweep(db: Database, now: datetime) -> tuple[float, float, int]:
    """(cold ms, median ms, rows) of the sweep's due query."""
    times, rows = [], 0
    for _ in range(SWEEP_RUNS):
        t0 = time.perf_counter()
        async with db.read() as s:
            rows = len(await due_cases(s, now))
        times.append((time.perf_counter() - t0) * 1000)
    return times[0], statistics.median(times), rows


async def measure_nearby(core: Core, rng: random.Random,
                         cities: list[BenchCity]) -> dict[str, float]:
    """Each point in a city drawn at random, searched in that city (its slug leads the index)."""
    points = []
    for _ in range(NEARBY_POINTS):
        city = rng.choice(cities)
        points.append((city.slug, rng.choice(city.weighted_categories()),
                       *city.random_point(rng)))
    query, service, found = [], [], 0
    for slug, category, lat, lon in points:
        t0 = time.perf_counter()
        async with core.db.read() as s:
            found += len(await nearby_open_cases(s, slug, category, lat, lon, RADIUS_M))
        query.append((time.perf_counter() - t0) * 1000)
    for slug, category, lat, lon in points:
        bound = core.for_city(slug)
        t0 = time.perf_counter()
        await find_nearby(bound, category, lat, lon, RADIUS_M)
        service.append((time.perf_counter() - t0) * 1000)
    return {"p50": _pct(query, 50), "p99": _pct(query, 99), "found": found / len(points),
            "svc_p50": _pct(service, 50), "svc_p99": _pct(service, 99)}


def _jpeg(i: int) -> bytes:
    from PIL import Image
    buf = io.BytesIO()
    Image.new("RGB", (64, 48), (i * 7 % 256, i * 13 % 256, 90)).save(buf, "JPEG")
    return buf.getvalue()


async def measure_submissions(core: Core, rng: random.Random, count: int,
                              cities: list[BenchCity]) -> tuple[float, int]:
    """(submissions per second, count) with CONCURRENCY submitters, each report in a city
    drawn at random, submitted through a Core bound to it."""
    photos = [EvidenceIn(core.evidence.put(_jpeg(i)), "image/jpeg", "photo", f"file-{i}",
                         f"uniq-{i}") for i in range(60)]
    signs = {c.slug: sorted(k.code for k in get_law(c.law).criteria) for c in cities}
    jobs: asyncio.Queue = asyncio.Queue()
    for i in range(count):
        city = rng.choice(cities)
        lat, lon = city.random_point(rng)
        category = rng.choice(city.weighted_categories())
        vehicle = category in city.plated
        telegram_id = 10_000_000 + rng.randint(1, PERSONS) if i % 2 else 90_000_000 + i
        jobs.put_nowait((core.for_city(city.slug), telegram_id, ReportIn(
            category=category, lat=lat, lon=lon, photos=rng.sample(photos, rng.randint(1, 3)),
            address=f"{rng.choice(STREETS)}, {rng.randint(1, 2000)}",
            neighbourhood=rng.choice(NEIGHBOURHOODS),
            plate=f"ABC{rng.randint(0, 9)}D{rng.randint(10, 99)}" if vehicle else None,
            colour="prata", make_model="VW Gol" if vehicle else None, time_there="2 meses",
            signs=tuple(rng.sample(signs[city.slug], min(2, len(signs[city.slug])))),
            description="Parado há meses na rua.")))

    async def worker() -> None:
        while not jobs.empty():
            bound, telegram_id, report = jobs.get_nowait()
            await submit_report(bound, telegram_id, report)

    t0 = time.perf_counter()
    await asyncio.gather(*[worker() for _ in range(CONCURRENCY)])
    return count / (time.perf_counter() - t0), count


async def seed_postgres(url: str, n: int, now: datetime, seed_value: int = 3,
                        cities: int = 1) -> None:
    """The same rows as `seed`, into the migrated PostgreSQL database at `url`, by COPY
    (asyncpg's copy_records_to_table, one transaction), then VACUUM ANALYZE, as autovacuum
    would (the visibility map lets the indexes answer alone)."""
    import asyncpg
    from sqlalchemy.engine import make_url
    rng = random.Random(seed_value)
    served = synthetic_cities(cities)
    dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    con = await asyncpg.connect(dsn)
    try:
        async with con.transaction():
            created = now - timedelta(days=365 * YEARS)
            await con.copy_records_to_table(
                "persons", columns=["id", "telegram_id", "roles", "created_at"],
                records=[(i, 10_000_000 + i, '["citizen"]', created)
                         for i in range(1, PERSONS + 1)])
            await con.execute("SELECT setval(pg_get_serial_sequence('persons', 'id'), $1)",
                              PERSONS)
            await con.copy_records_to_table("municipalities", columns=list(MUNICIPALITY_COLUMNS),
                                            records=municipality_rows(served, now))
            columns = [c.strip() for c in _CASE_COLUMNS.split(",")]
            counters: dict[int, int] = {}
            for rows, counters in _case_rows(n, now, rng, dt=lambda d: d, cities=served):  # noqa: B007
                if rows:
                    await con.copy_records_to_table("cases", columns=columns, records=rows)
            await con.executemany("INSERT INTO protocol_counters (year, last) VALUES ($1, $2)",
                                  sorted(counters.items()))
        await con.execute("VACUUM ANALYZE")
    finally:
        await con.close()


async def bench_size(n: int, quick: bool, admin_url: str | None = None,
                     cities: int = CITIES) -> dict:
    """One size on SQLite, or on PostgreSQL (a fresh database next to `admin_url`'s,
    dropped afterwards) when `admin_url` is given; the cases spread over `cities` cities."""
    now = datetime.now(timezone.utc)
    engine = "PostgreSQL" if admin_url else "SQLite"
    served = synthetic_cities(cities)
    with tempfile.TemporaryDirectory(prefix="vialivre-bench-") as tmp:
        data_dir = Path(tmp)
        path = data_dir / "bench.sqlite3"
        url = await fresh_database(admin_url) if admin_url else f"sqlite+aiosqlite:///{path}"
        try:
            await migrate(url)
            t0 = time.perf_counter()
            if admin_url:
                await seed_postgres(url, n, now, cities=cities)
            else:
                await asyncio.to_thread(seed, path, n, now, cities=cities)
            seed_s = time.perf_counter() - t0
            size = "" if admin_url else f" ({path.stat().st_size / 2**20:.0f} MiB)"
            _log(f"{engine} {_label(n)}: seeded in {seed_s:.1f} s{size}")
            db = Database.from_url(url)
            settings = Settings(_env_file=None, municipality=MUNICIPALITY, data_dir=data_dir)
            core = Core(db, get_law(MUNICIPALITY), settings, EvidenceStore(data_dir), utc_clock)
            try:
                await core.load_cities()
                for city in served:
                    await core.for_city(city.slug).seed_tariffs()
                rng = random.Random(n)
                gc.collect()
                cold, sweep_ms, due = await measure_sweep(db, now)
                nearby = await measure_nearby(core, rng, served)
                _log(f"{engine} {_label(n)}: sweep {sweep_ms:.2f} ms, "
                     f"nearby p99 {nearby['p99']:.2f} ms")
                pages = await measure_pages(core, rng, served, now, quick)
                rate, count = await measure_submissions(core, rng, 200 if quick else SUBMISSIONS,
                                                        served)
            finally:
                await db.dispose()
        finally:
            if admin_url:
                await drop_database(url)
    return {"n": n, "seed_s": seed_s, "sweep_cold": cold, "sweep": sweep_ms, "due": due,
            "nearby": nearby, "pages": pages, "rate": rate, "count": count, "cities": cities}


def _verdict(name: str, figure: float, unit: str, floor: float, above: bool = False) -> str:
    """A figure against its floor, with its ratio to the floor (< 1 is within a ceiling,
    > 1 above a minimum rate)."""
    ok = figure >= floor if above else figure < floor
    sign = ">=" if above else "<"
    return (f"  {name:<30} {figure:>9.2f} {unit:<4} floor {sign} {floor:g} {unit:<4} "
            f"({figure / floor:.2f}x the floor) {'PASS' if ok else 'FAIL'}")


async def run(quick: bool) -> list[str]:
    """SQLite, then PostgreSQL when it answers (BENCH_DATABASE_URL or TEST_DATABASE_URL).
    BENCH_STORAGE_SIZES (e.g. "10000,1000000") and BENCH_STORAGE_ENGINES ("sqlite",
    "postgresql") narrow a run."""
    sizes = QUICK_SIZES if quick else SIZES
    if os.environ.get("BENCH_STORAGE_SIZES"):
        sizes = [int(x) for x in os.environ["BENCH_STORAGE_SIZES"].split(",")]
    engines = os.environ.get("BENCH_STORAGE_ENGINES", "sqlite,postgresql").split(",")
    lines = []
    if "sqlite" in engines:
        lines += _table("SQLite", [await bench_size(n, quick) for n in sizes], quick)
    if "postgresql" not in engines:
        return lines
    url = database_url()
    why = await reachable(url)
    if why is not None:
        return lines + [f"storage benchmark (PostgreSQL): skipped, unreachable ({why}); "
                        "set BENCH_DATABASE_URL"]
    return lines + _table("PostgreSQL", [await bench_size(n, quick, url) for n in sizes], quick)


def _table(engine: str, results: list[dict], quick: bool) -> list[str]:
    lines = [f"storage benchmark ({engine}, {len(results)} sizes over {results[0]['cities']} "
             f"municipalities; {DUE} cases due at every size, nearby radius {RADIUS_M:.0f} m "
             f"over {NEARBY_POINTS} points, submissions with concurrency {CONCURRENCY}; load "
             f"average {os.getloadavg()[0]:.1f})"]
    for r in results:
        nb = r["nearby"]
        lines.append(
            f"  {_label(r['n']):>4} cases: seed {r['seed_s']:5.1f} s | sweep {r['sweep']:6.2f} ms "
            f"({r['due']} due, cold {r['sweep_cold']:.2f} ms) | nearby p50 {nb['p50']:.2f} ms "
            f"p99 {nb['p99']:.2f} ms ({nb['found']:.1f} found/query; find_nearby p50 "
            f"{nb['svc_p50']:.2f} p99 {nb['svc_p99']:.2f} ms) | {r['rate']:.0f} submissions/s "
            f"({r['count']})")
        lines += page_lines(r["pages"])
    big, small = results[-1], results[0]
    at = _label(big["n"])
    ratio = big["sweep"] / small["sweep"]
    lines.append(f"verdicts ({engine}) at {at}" + (" (quick run: sizes too small to judge the "
                                                   "floors)" if quick else "") + ":")
    lines += [
        _verdict(f"sweep @{at}", big["sweep"], "ms", FLOOR_SWEEP_MS),
        _verdict(f"nearby p99 @{at}", big["nearby"]["p99"], "ms", FLOOR_NEARBY_P99_MS),
        _verdict(f"submissions @{at}", big["rate"], "/s", FLOOR_SUBMIT_PER_S, above=True),
        _verdict(f"sweep ratio {at}/{_label(small['n'])}", ratio, "x", FLOOR_SWEEP_RATIO),
        *(_verdict(f"{name} @{at}", figure, "ms", floor)
          for name, figure, floor in page_verdicts(big["pages"])),
    ]
    return lines
