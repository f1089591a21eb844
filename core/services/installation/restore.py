"""`python -m admin restore SRC`: a backup (core.services.installation.backup) put back into
an empty installation — the DATA_DIR and database the settings name — and checked there
(core.services.installation.verify) against the chain heads its manifest recorded. A DATA_DIR
with anything in it, or a database with tables, is refused: a restore never mixes two
installations' data."""
from __future__ import annotations

from core.formatting import plural

import asyncio
import os
import shutil
import subprocess
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import make_url

from core.services.errors import InvalidInput
from core.services.installation.backup import libpq
from core.services.installation.verify import (VerifyReport, read_manifest, verify_backup,
                                               verify_live)
from core.settings import Settings
from core.storage.db import create_engine, is_sqlite


async def _pg_is_empty(url: str) -> bool:
    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            return not (await conn.execute(text(
                "SELECT count(*) FROM information_schema.tables "
                "WHERE table_schema = current_schema()"))).scalar()
    finally:
        await engine.dispose()


def _copy(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    shutil.copyfile(source, tmp)
    os.replace(tmp, target)


async def restore(settings: Settings, src: Path) -> VerifyReport:
    """Fill the empty installation `settings` name from the backup in `src`; the check of the
    restored installation (its problems, if any)."""
    src = Path(src).resolve()
    manifest = read_manifest(src)
    data_dir = Path(settings.data_dir).resolve()
    url = settings.resolved_database_url()
    sqlite = is_sqlite(url)
    if (manifest.get("engine") == "sqlite") != sqlite:
        raise InvalidInput(f"O backup é de {manifest.get('engine')} e a instalação de destino "
                           f"usa {'SQLite' if sqlite else 'PostgreSQL'} (DATABASE_URL): "
                           "restaure no mesmo tipo de banco de dados.")
    if data_dir.exists() and any(data_dir.iterdir()):
        raise InvalidInput(f"DATA_DIR ({data_dir}) não está vazio: a restauração só preenche "
                           "uma instalação vazia, para nunca misturar dados. Aponte DATA_DIR "
                           "para uma pasta nova (ou vazia) e rode de novo.")
    if not sqlite and not await _pg_is_empty(url):
        raise InvalidInput("O banco de dados de destino (DATABASE_URL) não está vazio: a "
                           "restauração só preenche um banco vazio. Crie um banco novo "
                           "(createdb) e aponte DATABASE_URL para ele.")
    checked = await verify_backup(src)
    if not checked.ok:
        raise InvalidInput(f"O backup em {src} tem {plural(len(checked.problems), 'problema', 'problemas')} e não "
                           f"foi restaurado: veja python -m admin verify {src}.")
    data_dir.mkdir(parents=True, exist_ok=True)
    database = src / manifest["database"]["file"]
    if sqlite:
        target = Path(make_url(url).database or data_dir / "vialivre.sqlite3")
        if target.exists():
            raise InvalidInput(f"O arquivo do banco de dados já existe: {target}.")
        await asyncio.to_thread(_copy, database, target)
    else:
        if shutil.which("psql") is None:
            raise InvalidInput("psql não encontrado: instale o cliente do PostgreSQL (pacote "
                               "postgresql-client) para restaurar.")
        dsn, env = libpq(url)
        proc = await asyncio.create_subprocess_exec(
            "psql", "--quiet", "--no-psqlrc", "--single-transaction", "-v", "ON_ERROR_STOP=1",
            f"--file={database}", f"--dbname={dsn}", env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _out, err = await proc.communicate()
        if proc.returncode != 0:
            raise InvalidInput("psql falhou ao restaurar o banco de dados: "
                               + err.decode("utf-8", "replace").strip()[-500:])
    for rel in manifest.get("files", {}):
        await asyncio.to_thread(_copy, src / "data" / rel, data_dir / rel)
    return await verify_live(settings, manifest.get("cases", {}))
