"""Where the benchmarks find PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the
local default; `reachable` says why not when it does not answer (the suite is then skipped)."""
from __future__ import annotations

import os

from sqlalchemy import text

from core.storage.db import create_engine

DEFAULT_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"


def database_url() -> str:
    return (os.environ.get("BENCH_DATABASE_URL") or os.environ.get("TEST_DATABASE_URL")
            or DEFAULT_URL)


async def reachable(url: str) -> str | None:
    """None if PostgreSQL answers at `url`, else why not."""
    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
        return None
    except Exception as exc:  # refused, no such host, auth: all mean "not here"
        return f"{type(exc).__name__}: {str(exc)[:120]}"
    finally:
        await engine.dispose()
