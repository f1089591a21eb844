"""Databases at the head revision without migrating each time: migrating takes longer than
the average test (0.2 s on SQLite, 0.4–1 s on PostgreSQL under the suite's load), so each
process (each xdist worker) migrates once and every test gets a copy.

- SQLite: a migrated file, copied.
- PostgreSQL: a schema migrated once and written out by pg_dump (schema only), replayed in
  the test's schema with its name; where pg_dump is missing or fails, the test migrates.
"""
from __future__ import annotations

import asyncio
import shutil
import subprocess
import uuid
from pathlib import Path

import asyncpg
from sqlalchemy import text
from sqlalchemy.engine import make_url

from core.storage.db import create_engine, migrate

_SQLITE: dict[str, Path] = {}
_PG: dict[str, str | None] = {}


async def sqlite_head(folder: Path) -> Path:
    """This process's migrated SQLite file (made in `folder` the first time)."""
    if "head" not in _SQLITE:
        path = folder / "head.sqlite3"
        engine = create_engine(f"sqlite+aiosqlite:///{path}")
        try:
            await migrate(engine)
        finally:
            await engine.dispose()  # the last connection checkpoints the WAL into the file
        _SQLITE["head"] = path
    return _SQLITE["head"]


def copy_sqlite_head(head: Path, target: Path) -> None:
    shutil.copyfile(head, target)


def _dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def _dump(url: str) -> str | None:
    """The head schema as SQL with the placeholder schema name "{schema}", or None."""
    if shutil.which("pg_dump") is None:
        return None
    name = f"tmpl_{uuid.uuid4().hex[:16]}"
    admin = create_engine(url)
    try:
        async with admin.begin() as conn:
            await conn.execute(text(f'CREATE SCHEMA "{name}"'))
        engine = create_engine(url, connect_args={"server_settings": {"search_path": name}})
        try:
            await migrate(engine)
            async with engine.connect() as conn:
                version = (await conn.execute(text("SELECT version_num FROM alembic_version"))
                           ).scalar_one()
        finally:
            await engine.dispose()
        u = make_url(url)
        done = await asyncio.to_thread(subprocess.run, [
            "pg_dump", "--schema-only", "--no-owner", "--no-privileges", "-n", name,
            "-h", u.host or "127.0.0.1", "-p", str(u.port or 5432), "-U", u.username or "postgres",
            u.database or "postgres"], capture_output=True, text=True)
        if done.returncode:
            return None
        lines = [line for line in done.stdout.splitlines()
                 if not line.startswith(("CREATE SCHEMA", "\\"))]  # psql meta-commands
        script = "\n".join(lines).replace(name, "{schema}")
        return script + f"\nINSERT INTO \"{{schema}}\".alembic_version VALUES ('{version}');"
    finally:
        async with admin.begin() as conn:
            await conn.execute(text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
        await admin.dispose()


async def restore_pg_head(url: str, schema: str) -> bool:
    """Build the head schema in the (empty) `schema`; False if there is no dump to use."""
    if url not in _PG:
        _PG[url] = await _dump(url)
    script = _PG[url]
    if script is None:
        return False
    con = await asyncpg.connect(_dsn(url))
    try:
        await con.execute(script.replace("{schema}", schema))
    finally:
        await con.close()
    return True


async def pg_admin(url: str, statement: str) -> None:
    """One statement outside a transaction (CREATE or DROP DATABASE) on `url`'s server."""
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as conn:
            await conn.execute(text(statement))
    finally:
        await engine.dispose()
