"""Staff panel benchmark: the case list's first page and a deep page (keyset on
(created_at, id)) on a database of N cases (1,000,000; 20,000 with quick=True), SQLite in a
temporary directory. Cases are seeded with bulk INSERTs in executemany batches."""
from __future__ import annotations

import asyncio
import sys
import statistics
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from sqlalchemy import insert

from core.laws import get_law
from core.services import staff as pq
from core.services.context import Core
from core.settings import Settings
from core.storage.db import Database
from core.storage.evidence import EvidenceStore
from core.storage.geo import cell_of
from core.storage.models import Case

BATCH = 10_000
BASE = datetime(2024, 1, 1, tzinfo=timezone.utc)
STATES = ("reported", "diligence", "notice_affixed", "published", "in_depot", "closed_unfounded")
CATEGORIES = ("motor_vehicle", "chassis_body", "trailer", "large_furniture")


async def _seed(db: Database, n: int) -> None:
    lat, lon = -19.4606, -45.6003
    cell = cell_of(lat, lon)
    async with db.engine.begin() as conn:
        for start in range(0, n, BATCH):
            rows = []
            for i in range(start, min(n, start + BATCH)):
                state = STATES[i % len(STATES)]
                cat = CATEGORIES[i % len(CATEGORIES)]
                at = BASE + timedelta(seconds=30 * i)
                rows.append({
                    "id": i + 1, "protocol": f"{2024 + i // 999_999}-{i % 999_999 + 1:06d}",
                    "case_code": f"B{i:011d}", "municipality": "dores-do-indaia",
                    "category": cat, "track": "dores_furniture" if cat == "large_furniture"
                    else "dores_vehicle", "state": state, "lat": lat, "lon": lon, "cell": cell,
                    "address": f"Rua {i % 500}", "neighbourhood": f"Bairro {i % 40}",
                    "plate": None, "details": {}, "created_at": at, "updated_at": at,
                    "is_open": not state.startswith("closed")})
            await conn.execute(insert(Case.__table__), rows)


async def _time(fn, repeat: int = 5) -> float:
    await fn()  # warm
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        await fn()
        runs.append((time.perf_counter() - t0) * 1000)
    return statistics.median(runs)


async def run(quick: bool) -> list[str]:
    n = 20_000 if quick else 1_000_000
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(_env_file=None, data_dir=Path(tmp))
        db = Database.from_url(settings.resolved_database_url())
        await db.migrate()
        t0 = time.perf_counter()
        await _seed(db, n)
        seed_s = time.perf_counter() - t0
        core = Core(db, get_law("dores-do-indaia"), settings, EvidenceStore(tmp))
        deep = n // 50  # 98% of the way down the list (the oldest cases)
        cursor = pq.encode_cursor(BASE + timedelta(seconds=30 * deep), deep + 1)
        f_all, f_state = pq.CaseFilter(), pq.CaseFilter(state="in_depot")
        first = await _time(lambda: pq.list_cases(core, f_all))
        deep_ms = await _time(lambda: pq.list_cases(core, f_all, cursor))
        first_f = await _time(lambda: pq.list_cases(core, f_state))
        deep_f = await _time(lambda: pq.list_cases(core, f_state, cursor))
        page = await pq.list_cases(core, f_all, cursor)
        assert len(page.rows) == pq.PAGE_SIZE and page.rows[0].id == deep
        await db.dispose()
    lines = [
        f"admin case list: {n:,} cases on SQLite (seeded in {seed_s:.1f} s), "
        f"page of {pq.PAGE_SIZE}, median of 5",
        f"  first page: {first:.1f} ms; deep page (keyset, {n - deep:,} rows down): "
        f"{deep_ms:.1f} ms",
        f"  filtered by state — first page: {first_f:.1f} ms; deep page: {deep_f:.1f} ms",
    ]
    return lines


if __name__ == "__main__":
    for line in asyncio.run(run(quick="--quick" in sys.argv)):
        print(line)
