"""Backups that restore, on both engines: reports are submitted and cases moved through the
real services while the real `python -m admin backup` runs; the backup is restored with
`python -m admin restore` into a fresh DATA_DIR (and a fresh PostgreSQL database), where
`python -m admin verify` passes and every report acknowledged before the backup began is
there, byte for byte; one flipped byte in one evidence file, or one edited event, makes
`verify` name its case; a restore into a non-empty installation is refused."""
from __future__ import annotations

import asyncio
import json
import os
import sys
import uuid
from pathlib import Path

import pytest
from sqlalchemy import select, text

from core.services.cases.evidence import EvidenceIn
from core.services.cases.transitions import apply_transition
from core.services.context import Core
from core.settings import Settings
from core.storage.db import create_engine
from core.storage.models import Case, Event, Evidence
from core.storage.timeline import ActorRef
from core.formatting import plural
from tests.support.db_templates import pg_admin
from tests.conftest import ENGINES, PG_URL
from tests.support.core_fixtures import jpeg
from tests.support.panel import new_case

ROOT = Path(__file__).resolve().parents[2]
STAFF = ActorRef("staff", 0, "equipe")


async def _cli(env: dict[str, str], *args: str) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "admin", *args, cwd=ROOT, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 120)
    return proc.returncode, out.decode(), err.decode()


class Installation:
    """A DATA_DIR and its database (SQLite in it, or a PostgreSQL database of its own)."""

    def __init__(self, engine: str, data_dir: Path):
        self.engine, self.data_dir = engine, data_dir
        self.database_url = ""
        self.db_name = f"vl_backup_{uuid.uuid4().hex[:12]}"

    async def create(self) -> None:
        if self.engine == "postgresql":
            await pg_admin(PG_URL, f'CREATE DATABASE "{self.db_name}"')
            self.database_url = PG_URL.rsplit("/", 1)[0] + "/" + self.db_name

    async def drop(self) -> None:
        if self.engine == "postgresql":
            await pg_admin(PG_URL, f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')

    @property
    def env(self) -> dict[str, str]:
        return {**os.environ, "DATA_DIR": str(self.data_dir), "DATABASE_URL": self.database_url,
                "MUNICIPALITY": "dores-do-indaia"}

    def settings(self) -> Settings:
        return Settings(_env_file=None, data_dir=self.data_dir, database_url=self.database_url)


@pytest.fixture(params=ENGINES)
async def installations(request, tmp_path):
    made = [Installation(request.param, tmp_path / name) for name in ("live", "restored")]
    for one in made:
        await one.create()
    yield made
    for one in made:
        await one.drop()


async def _writer(core: Core, acknowledged: dict[str, bytes], stop: asyncio.Event) -> None:
    """Reports one after another, each moved on once: what the citizen was told is on file."""
    i = 0
    while not stop.is_set():
        data = jpeg((i * 37 % 256, i % 256, 90))

        def photo(_n, data=data):
            sha, _ = core.evidence.put_image(data)
            return EvidenceIn(sha, "image/jpeg", "photo", f"file-{i}", f"uniq-{i}")

        case = await new_case(core, photo, i)
        acknowledged[case.protocol] = data
        await apply_transition(core, case.protocol, "open_diligence", STAFF)
        i += 1
        await asyncio.sleep(0.01)


async def _restored(inst: Installation) -> dict[str, tuple[str, bytes]]:
    """Each restored case: its first event's hash and its photo's bytes."""
    core = await Core.open(inst.settings())
    try:
        async with core.db.read() as s:
            rows = (await s.execute(select(Case.protocol, Event.hash, Evidence.sha256)
                                    .join(Event, Event.case_id == Case.id)
                                    .join(Evidence, Evidence.case_id == Case.id)
                                    .where(Event.seq == 1))).all()
        return {p: (h, core.evidence.get(sha)) for p, h, sha in rows}
    finally:
        await core.close()


async def test_backup_while_writing_restores_and_verifies_and_names_an_altered_case(
        installations):
    live, fresh = installations
    core = await Core.open(live.settings())
    acknowledged: dict[str, bytes] = {}
    stop = asyncio.Event()
    try:
        writer = asyncio.create_task(_writer(core, acknowledged, stop))
        while len(acknowledged) < 5:
            await asyncio.sleep(0.05)
        before = dict(acknowledged)
        dest = live.data_dir.parent / "backup"
        code, out, err = await _cli(live.env, "backup", str(dest))
        stop.set()
        await writer
        assert code == 0, err
        assert "Backup feito" in out
        async with core.db.read() as s:
            first = dict((await s.execute(select(Case.protocol, Event.hash).join(
                Event, Event.case_id == Case.id).where(Event.seq == 1))).all())
    finally:
        stop.set()
        await core.close()
    assert len(acknowledged) > len(before)  # reports went on while the backup ran

    manifest = json.loads((dest / "manifest.json").read_text("utf-8"))
    assert manifest["engine"] == live.engine and manifest["version"]
    assert manifest["alembic_revision"] and set(before) <= set(manifest["cases"])
    code, out, err = await _cli(live.env, "verify", str(dest))
    assert code == 0, err
    assert "Tudo confere" in out

    # incremental: a second backup copies only the files written since, a third none
    code, out, err = await _cli(live.env, "backup", str(dest))
    assert code == 0, err
    second = json.loads((dest / "manifest.json").read_text("utf-8"))
    new = set(second["files"]) - set(manifest["files"])
    assert new and f" {plural(len(new), 'arquivo copiado', 'arquivos copiados')}, {len(manifest['files'])} já" in out
    code, out, err = await _cli(live.env, "backup", str(dest))
    assert code == 0, err
    assert " 0 arquivos copiados" in out
    manifest = second

    code, out, err = await _cli(fresh.env, "restore", str(dest))
    assert code == 0, err + out
    assert "Tudo confere" in out
    code, out, err = await _cli(fresh.env, "verify")
    assert code == 0, err
    restored = await _restored(fresh)
    for protocol, data in before.items():  # every acknowledged report, as it was sent
        assert restored[protocol] == (first[protocol], data)
    assert set(restored) == set(manifest["cases"])

    # a restore over an installation that is not empty: refused, in Portuguese
    code, _out, err = await _cli(fresh.env, "restore", str(dest))
    assert code == 2 and "não está vazio" in err

    # one flipped byte in one evidence file of the backup: verify names its case, and only it
    victim = sorted(before)[2]
    sha = manifest["cases"][victim]["evidence"][0]
    path = dest / "data" / "evidence" / sha[:2] / sha[2:4] / sha
    blob = bytearray(path.read_bytes())
    blob[len(blob) // 2] ^= 0x01
    path.write_bytes(bytes(blob))
    code, out, err = await _cli(live.env, "verify", str(dest))
    assert code == 1
    assert f"Caso {victim}: arquivo alterado" in err
    assert [p for p in manifest["cases"] if f"Caso {p}:" in err] == [victim]

    # the restored installation: a file removed, an event edited: each case named
    gone = sorted(before)[0]
    sha = manifest["cases"][gone]["evidence"][0]
    (fresh.data_dir / "evidence" / sha[:2] / sha[2:4] / sha).unlink()
    edited = sorted(before)[1]
    engine = create_engine(fresh.settings().resolved_database_url())
    try:
        async with engine.begin() as conn:
            await conn.execute(text(
                "UPDATE events SET actor_name = 'outro' WHERE seq = 2 AND case_id = "
                "(SELECT id FROM cases WHERE protocol = :p)"), {"p": edited})
    finally:
        await engine.dispose()
    code, out, err = await _cli(fresh.env, "verify")
    assert code == 1
    assert f"Caso {gone}: arquivo de foto ausente" in err
    assert f"Caso {edited}: linha do tempo quebrada no evento 2" in err
    assert sorted(p for p in manifest["cases"] if f"Caso {p}:" in err) == sorted([gone, edited])


async def test_backup_refuses_a_folder_that_is_not_a_backup(tmp_path):
    inst = Installation("sqlite", tmp_path / "live")
    core = await Core.open(inst.settings())
    await core.close()
    dest = tmp_path / "elsewhere"
    dest.mkdir()
    (dest / "notes.txt").write_text("x")
    code, _out, err = await _cli(inst.env, "backup", str(dest))
    assert code == 2 and "não é um backup do Via Livre" in err
    code, _out, err = await _cli(inst.env, "verify", str(dest))
    assert code == 2 and "falta o manifest.json" in err
