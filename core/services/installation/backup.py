"""`python -m admin backup DEST`: a consistent snapshot of the installation while the bot and
the panel keep working, into a folder the next backup updates.

    DEST/manifest.json                  written last: every file's SHA-256, each case's
                                        timeline chain head, the migration, the product version
    DEST/database/vialivre.sqlite3      SQLite: its online backup API (one read snapshot; in
                                        WAL mode writers go on meanwhile), as one plain file
    DEST/database/database.sql          PostgreSQL: pg_dump in a snapshot exported by the
                                        transaction that reads the manifest's chain heads
    DEST/data/evidence/…                the evidence files, copied incrementally: they are
                                        content-addressed, so a file already there is the same
    DEST/data/admin_secret_key          the other files at the top of DATA_DIR

The database is read first, then the files: a file is written before the row naming it
commits, so every file the snapshot names is on disk by then.
"""
from __future__ import annotations

import asyncio
import hashlib
import importlib.metadata
import json
import os
import re
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass, field
from datetime import timezone
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncSession

from core.services.errors import InvalidInput
from core.services.installation.verify import (CHUNK, MANIFEST, CaseState, case_states,
                                               file_sha256)
from core.settings import Settings
from core.storage.db import Database, create_engine, is_sqlite
from core.storage.types import utcnow

FORMAT = 1
SQLITE_FILE = "vialivre.sqlite3"
PG_FILE = "database.sql"
#: DATA_DIR's own database files: the snapshot holds the database, never a torn copy of them
SKIPPED = re.compile(r"^vialivre\.sqlite3(-wal|-shm|-journal)?$")
_SHA = re.compile(r"^[0-9a-f]{64}$")


@dataclass
class BackupReport:
    dest: Path
    engine: str
    revision: str | None
    cases: int = 0
    copied: int = 0  # files copied this time
    kept: int = 0  # files already in DEST (content-addressed: the same bytes)
    warnings: list[str] = field(default_factory=list)


def product_version() -> str:
    try:
        return importlib.metadata.version("via-livre")
    except importlib.metadata.PackageNotFoundError:
        return "desconhecida"


def libpq(url: str) -> tuple[str, dict[str, str]]:
    """A libpq connection URI for pg_dump/psql (no password in it: PGPASSWORD instead)."""
    u = make_url(url)
    env = {**os.environ}
    if u.password:
        env["PGPASSWORD"] = str(u.password)
    dsn = u.set(drivername="postgresql", password=None).render_as_string(hide_password=False)
    return dsn, env


def _prepare(dest: Path) -> dict:
    """DEST empty, absent or an earlier backup (its manifest read, for its files' hashes)."""
    if dest.exists() and not dest.is_dir():
        raise InvalidInput(f"{dest} não é uma pasta.")
    if dest.is_dir() and any(dest.iterdir()):
        if not (dest / MANIFEST).is_file():
            raise InvalidInput(f"A pasta {dest} não está vazia e não é um backup do Via Livre "
                               f"(falta o {MANIFEST}): escolha uma pasta vazia ou um backup "
                               "anterior.")
        try:
            return json.loads((dest / MANIFEST).read_text("utf-8"))
        except ValueError:
            return {}
    (dest / "database").mkdir(parents=True, exist_ok=True)
    return {}


async def _revision(s: AsyncSession) -> str | None:
    return (await s.execute(text("SELECT version_num FROM alembic_version"))).scalar()


def _sqlite_copy(source: Path, target: Path) -> None:
    """The online backup API, all pages in one step (one consistent read snapshot)."""
    src = sqlite3.connect(source, timeout=30)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()


def _plain_file(target: Path) -> None:
    """The copy as one self-contained file (no WAL beside it)."""
    con = sqlite3.connect(target)
    try:
        con.execute("PRAGMA journal_mode=DELETE")
    finally:
        con.close()


async def _sqlite_snapshot(settings: Settings, dest: Path
                           ) -> tuple[str | None, dict[str, CaseState]]:
    source = Path(make_url(settings.resolved_database_url()).database or "")
    if not source.is_file():
        raise InvalidInput(f"Banco de dados não encontrado: {source}.")
    tmp = dest / "database" / (SQLITE_FILE + ".tmp")
    tmp.unlink(missing_ok=True)
    await asyncio.to_thread(_sqlite_copy, source, tmp)
    db = Database(create_engine(f"sqlite+aiosqlite:///{tmp}"))
    try:
        async with db.read() as s:
            revision, states = await _revision(s), await case_states(s)
    finally:
        await db.dispose()
    await asyncio.to_thread(_plain_file, tmp)
    for leftover in (tmp.with_name(tmp.name + "-wal"), tmp.with_name(tmp.name + "-shm")):
        leftover.unlink(missing_ok=True)
    os.replace(tmp, dest / "database" / SQLITE_FILE)
    return revision, states


async def _pg_snapshot(settings: Settings, dest: Path) -> tuple[str | None, dict[str, CaseState]]:
    if shutil.which("pg_dump") is None:
        raise InvalidInput("pg_dump não encontrado: instale o cliente do PostgreSQL "
                           "(pacote postgresql-client) para fazer o backup.")
    url = settings.resolved_database_url()
    dsn, env = libpq(url)
    tmp = dest / "database" / (PG_FILE + ".tmp")
    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            conn = await conn.execution_options(isolation_level="REPEATABLE READ")
            async with conn.begin():
                await conn.execute(text("SET TRANSACTION READ ONLY"))
                snapshot = (await conn.execute(text("SELECT pg_export_snapshot()"))).scalar()
                # pg_dump reads the very snapshot this transaction reads the chain heads in
                proc = await asyncio.create_subprocess_exec(
                    "pg_dump", "--no-owner", "--no-privileges", "--format=plain",
                    f"--snapshot={snapshot}", f"--file={tmp}", f"--dbname={dsn}", env=env,
                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                s = AsyncSession(bind=conn)
                revision, states = await _revision(s), await case_states(s)
                _out, err = await proc.communicate()
                await s.close()
    finally:
        await engine.dispose()
    if proc.returncode != 0:
        tmp.unlink(missing_ok=True)
        raise InvalidInput("pg_dump falhou: " + err.decode("utf-8", "replace").strip()[-500:])
    os.replace(tmp, dest / "database" / PG_FILE)
    return revision, states


def _copy_hashing(source: Path, target: Path) -> str:
    """Copy `source` to `target` (temporary file, fsync, rename); the bytes' SHA-256."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    digest = hashlib.sha256()
    with open(source, "rb") as fin, open(tmp, "wb") as fout:
        while chunk := fin.read(CHUNK):
            digest.update(chunk)
            fout.write(chunk)
        fout.flush()
        os.fsync(fout.fileno())
    os.replace(tmp, target)
    return digest.hexdigest()


def _data_files(data_dir: Path) -> list[str]:
    """DATA_DIR's files to keep, relative: evidence/ whole, and the top-level files."""
    out = [p.name for p in data_dir.iterdir() if p.is_file() and not SKIPPED.match(p.name)]
    evidence = data_dir / "evidence"
    if evidence.is_dir():
        out += [p.relative_to(data_dir).as_posix() for p in evidence.rglob("*")
                if p.is_file() and not p.name.endswith(".tmp")]
    return sorted(out)


def _copy_files(data_dir: Path, dest: Path, earlier: dict[str, str],
                report: BackupReport) -> dict[str, str]:
    files: dict[str, str] = {}
    for rel in _data_files(data_dir):
        source, target = data_dir / rel, dest / "data" / rel
        name = Path(rel).name
        content_addressed = rel.startswith("evidence/") and _SHA.match(name)
        try:
            if target.is_file() and target.stat().st_size == source.stat().st_size and (
                    content_addressed or target.read_bytes() == source.read_bytes()):
                # content-addressed: the same name is the same bytes; others: compared
                files[rel] = earlier.get(rel) or file_sha256(target)
                report.kept += 1
                continue
        except FileNotFoundError:  # deleted meanwhile (retention purge, orphan removal)
            continue
        try:
            files[rel] = _copy_hashing(source, target)
        except FileNotFoundError:  # deleted meanwhile (retention purge, orphan removal)
            continue
        report.copied += 1
        if content_addressed and files[rel] != name:
            report.warnings.append(f"{rel}: o conteúdo na instalação não confere com o hash")
    return files


async def take_backup(settings: Settings, dest: Path) -> BackupReport:
    dest = Path(dest).resolve()
    earlier = _prepare(dest)
    (dest / "database").mkdir(parents=True, exist_ok=True)
    sqlite = is_sqlite(settings.resolved_database_url())
    started = utcnow()
    if sqlite:
        revision, states = await _sqlite_snapshot(settings, dest)
    else:
        revision, states = await _pg_snapshot(settings, dest)
    report = BackupReport(dest, "sqlite" if sqlite else "postgresql", revision, len(states))
    files = await asyncio.to_thread(_copy_files, Path(settings.data_dir), dest,
                                    earlier.get("files", {}), report)
    cases = {}
    for protocol, state in states.items():
        shas = [one for _kind, sha, public in state.evidence
                for one in (sha, public) if one]
        cases[protocol] = {"events": state.events, "head": state.head, "evidence": shas}
        for sha in shas:
            if f"evidence/{sha[:2]}/{sha[2:4]}/{sha}" not in files:
                report.warnings.append(f"Caso {protocol}: arquivo ausente na instalação: "
                                       f"evidence/{sha[:2]}/{sha[2:4]}/{sha}")
    db_file = f"database/{SQLITE_FILE if sqlite else PG_FILE}"
    manifest = {
        "format": FORMAT, "product": "via-livre", "version": product_version(),
        "created_at": started.astimezone(timezone.utc).isoformat(),
        "engine": report.engine, "alembic_revision": revision,
        "database": {"file": db_file, "sha256": file_sha256(dest / db_file)},
        "files": files, "cases": cases,
    }
    tmp = dest / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(manifest, indent=1, sort_keys=True, ensure_ascii=False), "utf-8")
    os.replace(tmp, dest / MANIFEST)
    return report
