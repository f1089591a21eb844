"""Bot workers on PostgreSQL: 1 and then 3 real `python -m bot` workers in
webhook mode on one PostgreSQL database, behind a small round-robin balancer (sandbox.standin.cluster),
driven through the Bot API stand-in by citizens completing reports at once. Prints the
updates/s of each, their ratio and the machine's cores, then what must hold whatever the
machine: no update lost (every delivered update id is marked processed) nor processed twice
(the mark is a primary key, and each citizen gets exactly one protocol), and the periodic
sweep run once (its lease: core.storage.leases) although every worker started it.

The installation serves several cities (CITIES of benchmarks.cities: Dores do Indaiá, Dracena
and synthetic cities of both laws, recorded before the workers start). With BENCH_WORKERS_SPREAD
unset or 1 the citizens pin their reports in each of the Dores-law cities in turn (the bot
routes a pin to its city; the questions are that law's); with 0 every pin is in Dores do Indaiá
(for a bot that serves only its MUNICIPALITY's area).

The floor of 2× for 3 workers needs the cores for them (each worker is one Python process,
one core at most, beside PostgreSQL and the stand-in); on fewer the ratio is printed as it is.

    python -m benchmarks --only workers [--quick]     (BENCH_DATABASE_URL or TEST_DATABASE_URL,
                                                       else postgresql+asyncpg://postgres@127.0.0.1/test)
"""
from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import text

from benchmarks.bot_bench import CENTRE, _citizen
from benchmarks.cities import MUNICIPALITY_COLUMNS, municipality_rows, synthetic_cities
from sandbox.standin.cluster import Cluster, drop_database, fresh_database
from sandbox.standin.botapi import BotApiStandIn, User
from sandbox.standin.nominatim import NominatimStandIn, default_gazetteer
from benchmarks.pg import database_url, reachable
from core.storage.db import create_engine, migrate

UPDATES_PER_REPORT = 13
CITIES = 6  # served by the installation: 3 under each law


async def _record_cities(url: str) -> list[tuple[float, float]]:
    """Migrate the fresh database and record CITIES cities; the centres of the Dores-law ones
    the citizens pin in (Dores do Indaiá's alone with BENCH_WORKERS_SPREAD=0)."""
    from datetime import datetime, timezone
    await migrate(url)
    cities = synthetic_cities(CITIES)
    db = create_engine(url)
    try:
        async with db.begin() as conn:
            await conn.execute(text(
                f"INSERT INTO municipalities ({', '.join(MUNICIPALITY_COLUMNS)}) VALUES "
                f"({', '.join(':' + c for c in MUNICIPALITY_COLUMNS)})"),
                [dict(zip(MUNICIPALITY_COLUMNS, row))
                 for row in municipality_rows(cities, datetime.now(timezone.utc))])
    finally:
        await db.dispose()
    if os.environ.get("BENCH_WORKERS_SPREAD", "1") == "0":
        return [CENTRE]
    return [c.centre for c in cities[::2]]  # the even ones are under Dores do Indaiá's law


def _pin(centres: list[tuple[float, float]], i: int) -> tuple[float, float]:
    """~110 m apart on a grid around the i-th citizen's city centre (never a duplicate)."""
    lat, lon = centres[i % len(centres)]
    j = i // len(centres)
    return lat + (j // 20) * 0.001, lon + (j % 20) * 0.001


async def _round(admin_url: str, workers: int, citizens: int) -> dict:
    url = await fresh_database(admin_url)
    try:
        centres = await _record_cities(url)
        with tempfile.TemporaryDirectory() as tmp:
            async with BotApiStandIn() as api, NominatimStandIn(default_gazetteer()) as osm:
                cluster = Cluster(api, database_url=url, data_dir=Path(tmp),
                                  nominatim_url=f"http://{osm.domain}", max_rate=100_000, chat_interval_s=0)
                try:
                    await cluster.start(workers)
                    await _citizen(api, User(899_999, "Aquecimento"), citizens, [],
                                   at=(CENTRE[0] - 0.018, CENTRE[1]))
                    await asyncio.sleep(0.5)
                    users = [User(900_000 + i, f"Cidadão {i}") for i in range(citizens)]
                    t0 = time.perf_counter()
                    await asyncio.gather(*[_citizen(api, u, i, [], at=_pin(centres, i))
                                           for i, u in enumerate(users)])
                    elapsed = time.perf_counter() - t0
                finally:
                    await cluster.stop()
                delivered = {d.update_id for d in api.webhook_deliveries}
                protocols = sum(1 for u in users for c in api.sent(u, "sendMessage")
                                if "Protocolo:" in (c.text or ""))
        db = create_engine(url)
        try:
            async with db.connect() as conn:
                marked = (await conn.execute(text(
                    "SELECT count(*) FROM processed_updates"))).scalar()
                cases = (await conn.execute(text("SELECT count(*) FROM cases"))).scalar()
                per_city = (await conn.execute(text(
                    "SELECT count(DISTINCT municipality) FROM cases"))).scalar()
                sweeps = (await conn.execute(text(
                    "SELECT runs FROM job_leases WHERE name = 'periodic'"))).scalar() or 0
        finally:
            await db.dispose()
    finally:
        await drop_database(url)
    return {"rate": citizens * UPDATES_PER_REPORT / elapsed, "delivered": len(delivered),
            "marked": marked, "cases": cases, "expected_cases": citizens + 1,
            "protocols": protocols, "citizens": citizens, "sweeps": sweeps,
            "cities": per_city, "pinned": len(centres)}


def _check(r: dict, workers: int) -> str:
    lost = r["delivered"] - r["marked"]
    twice = max(0, r["protocols"] - r["citizens"]) + max(0, r["cases"] - r["expected_cases"])
    ok = lost == 0 and twice == 0 and r["sweeps"] == 1 and r["protocols"] == r["citizens"] \
        and r["cities"] == r["pinned"]
    return (f"workers: {workers} worker(s): {r['rate']:.0f} updates/s; updates lost {lost}, "
            f"processed twice {twice}, sweeps run {r['sweeps']} (must be 1), cases in "
            f"{r['cities']} cities ({r['pinned']} pinned) "
            f"({'PASS' if ok else 'FAIL'})")


async def run(quick: bool) -> list[str]:
    url = database_url()
    why = await reachable(url)
    if why is not None:
        return [f"workers: skipped: PostgreSQL unreachable ({why}); set BENCH_DATABASE_URL"]
    citizens = 8 if quick else 30
    one = await _round(url, 1, citizens)
    three = await _round(url, 3, citizens)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    ratio = three["rate"] / one["rate"]
    floor = ("PASS" if ratio >= 2 else "FAIL") if cores >= 4 else \
        f"not judged: {cores} core(s), the 2× floor needs at least 4"
    return [
        f"workers: {citizens} citizens completing reports at once ({UPDATES_PER_REPORT} updates "
        f"each), webhook mode, PostgreSQL, round-robin balancer, {CITIES} cities served",
        _check(one, 1), _check(three, 3),
        f"workers: ratio 3 workers / 1 = {ratio:.2f} on {cores} core(s), load average "
        f"{os.getloadavg()[0]:.1f} at the end ({floor})",
    ]


if __name__ == "__main__":
    for line in asyncio.run(run("--quick" in sys.argv)):
        print(line)
