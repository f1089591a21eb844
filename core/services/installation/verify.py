"""Is every piece of legal evidence intact: each evidence file (and its public copy) is there
and matches its SHA-256, and each case's timeline hash chain holds (core.storage.timeline) —
on a live installation (its database and DATA_DIR) or on a backup (core.services.installation
.backup: its manifest, the files it holds, and for SQLite its database copy). Each problem
names its case by protocol, in Portuguese for the operator.

    report = await verify_live(settings)          # or: await verify_backup(Path("backup"))
    report.ok, report.problems                    # [Problem("2026-000012", "foto ausente …")]
"""
from __future__ import annotations

from core.formatting import plural

import asyncio
import hashlib
import json
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core.settings import Settings
from core.storage.db import Database, create_engine
from core.storage.models import Case, Event, Evidence
from core.storage.timeline import verify_chain

MANIFEST = "manifest.json"
CHUNK = 1024 * 1024
CASES_PER_SESSION = 200  # cases read at a time


@dataclass(frozen=True)
class Problem:
    protocol: str  # the case it concerns ("" for a file of the installation itself)
    what: str


@dataclass
class VerifyReport:
    cases: int = 0
    files: int = 0
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what could not be checked here, and why

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def cases_named(self) -> list[str]:
        return sorted({p.protocol for p in self.problems if p.protocol})


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _file_problem(path: Path, sha: str) -> str | None:
    """None when the file at `path` is there with the content `sha` names."""
    if not path.is_file():
        return "ausente"
    return None if file_sha256(path) == sha else "alterado (o conteúdo não confere com o hash)"


@dataclass(frozen=True)
class CaseState:
    """What a case is in a database: its timeline chain's head and length, its files."""
    protocol: str
    events: int
    head: str | None
    evidence: list[tuple[str, str, str | None]]  # (kind, sha256, public copy's sha256)


async def case_states(s: AsyncSession) -> dict[str, CaseState]:
    """Every case's chain head and evidence (public copies included), by protocol, read in
    `s` (one snapshot), by batches of cases."""
    out: dict[str, CaseState] = {}
    last_id = 0
    while True:
        cases = (await s.execute(select(Case.id, Case.protocol).where(Case.id > last_id)
                                 .order_by(Case.id).limit(CASES_PER_SESSION))).all()
        if not cases:
            return out
        ids = [c.id for c in cases]
        heads: dict[int, tuple[int, str]] = {}
        for case_id, seq, digest in (await s.execute(
                select(Event.case_id, Event.seq, Event.hash).where(Event.case_id.in_(ids))
                .order_by(Event.case_id, Event.seq))).all():
            heads[case_id] = (seq, digest)
        files: dict[int, list[tuple[str, str, str | None]]] = {i: [] for i in ids}
        for case_id, kind, sha, public in (await s.execute(
                select(Evidence.case_id, Evidence.kind, Evidence.sha256,
                       Evidence.stripped_sha256).where(Evidence.case_id.in_(ids))
                .order_by(Evidence.id))).all():
            files[case_id].append((kind, sha, public))
        for c in cases:
            seq, head = heads.get(c.id, (0, None))
            out[c.protocol] = CaseState(c.protocol, seq, head, files[c.id])
        last_id = ids[-1]


_KIND = {"photo": "foto", "video": "vídeo", "document": "documento"}


async def check_database(db: Database, data_dir: Path,
                         expected: dict[str, dict] | None = None) -> VerifyReport:
    """Every case of `db`: its chain recomputed, its files under `data_dir` hashed; with
    `expected` (a backup manifest's cases), the chain must end where it ended then."""
    report = VerifyReport()
    async with db.read() as s:
        states = await case_states(s)
        ids = dict((await s.execute(select(Case.protocol, Case.id))).all())
    for protocol, state in states.items():
        report.cases += 1
        async with db.read() as s:
            chain = await verify_chain(s, ids[protocol])
        if not chain.ok:
            report.problems.append(Problem(protocol, f"linha do tempo quebrada no evento "
                                                     f"{chain.first_broken_seq}: {chain.reason}"))
        if expected is not None:
            want = expected.get(protocol)
            if want is None:
                report.problems.append(Problem(protocol, "caso ausente do manifesto do backup"))
            elif want.get("head") != state.head or want.get("events") != state.events:
                report.problems.append(Problem(
                    protocol, f"linha do tempo com {plural(state.events, 'evento', 'eventos')}; o manifesto "
                              f"registrou {want.get('events')} com outro último hash"))
        for kind, sha, public in state.evidence:
            report.files += 1
            where = data_dir / "evidence" / sha[:2] / sha[2:4] / sha
            if (bad := await asyncio.to_thread(_file_problem, where, sha)) is not None:
                report.problems.append(Problem(protocol, f"arquivo de {_KIND.get(kind, kind)} {bad}: "
                                                         f"evidence/{sha[:2]}/{sha[2:4]}/{sha}"))
            if public:
                where = data_dir / "evidence" / public[:2] / public[2:4] / public
                if (bad := await asyncio.to_thread(_file_problem, where, public)) is not None:
                    report.problems.append(Problem(protocol, f"arquivo da cópia pública {bad}: "
                                                             f"evidence/{public[:2]}/"
                                                             f"{public[2:4]}/{public}"))
    for protocol in sorted(set(expected or {}) - set(states)):
        report.problems.append(Problem(protocol, "caso do manifesto ausente do banco de dados"))
    return report


async def verify_live(settings: Settings, expected: dict[str, dict] | None = None
                      ) -> VerifyReport:
    """The installation `settings` name: its database and DATA_DIR."""
    db = Database.from_url(settings.resolved_database_url())
    try:
        return await check_database(db, Path(settings.data_dir), expected)
    finally:
        await db.dispose()


def read_manifest(src: Path) -> dict:
    from core.services.errors import InvalidInput
    path = Path(src) / MANIFEST
    if not path.is_file():
        raise InvalidInput(f"{src} não é um backup do Via Livre: falta o {MANIFEST}.")
    try:
        return json.loads(path.read_text("utf-8"))
    except ValueError as exc:
        raise InvalidInput(f"O {MANIFEST} de {src} está ilegível: {exc}.") from None


def _owners(manifest: dict) -> dict[str, list[str]]:
    """Each evidence file's relative path → the protocols of the cases holding it."""
    out: dict[str, list[str]] = {}
    for protocol, case in manifest.get("cases", {}).items():
        for sha in case.get("evidence", []):
            out.setdefault(f"evidence/{sha[:2]}/{sha[2:4]}/{sha}", []).append(protocol)
    return out


async def verify_backup(src: Path) -> VerifyReport:
    """A backup folder: every file its manifest lists, against its hash (an evidence file
    names its cases); for a SQLite backup, its database copy checked as a live one (chains,
    files, chain heads as the manifest recorded them)."""
    src = Path(src)
    manifest = read_manifest(src)
    report = VerifyReport()
    owners = _owners(manifest)
    database = manifest["database"]
    if (bad := await asyncio.to_thread(_file_problem, src / database["file"],
                                       database["sha256"])) is not None:
        report.problems.append(Problem("", f"cópia do banco de dados {bad}: "
                                           f"{database['file']}"))
    for rel, sha in manifest.get("files", {}).items():
        if (bad := await asyncio.to_thread(_file_problem, src / "data" / rel, sha)) is None:
            continue
        for protocol in owners.get(rel, [""]):
            report.problems.append(Problem(protocol, f"arquivo {bad}: {rel}"))
    if manifest.get("engine") != "sqlite":
        report.cases = len(manifest.get("cases", {}))
        report.files = sum(len(c.get("evidence", [])) for c in manifest.get("cases", {}).values())
        report.notes.append("Backup de PostgreSQL: conferidos os arquivos e o dump; as linhas "
                            "do tempo são conferidas na restauração (restore), contra os "
                            "últimos hashes que o manifesto registrou.")
        return report
    if any(p.protocol == "" and p.what.startswith("cópia do banco") for p in report.problems):
        return report
    with tempfile.TemporaryDirectory() as tmp:  # read a copy: the backup is never written
        copy = Path(tmp) / "vialivre.sqlite3"
        await asyncio.to_thread(shutil.copyfile, src / database["file"], copy)
        db = Database(create_engine(f"sqlite+aiosqlite:///{copy}"))
        try:
            checked = await check_database(db, src / "data", manifest.get("cases", {}))
        finally:
            await db.dispose()
    seen = {(p.protocol, p.what.split(":")[-1].strip()) for p in report.problems}
    report.problems += [p for p in checked.problems
                        if (p.protocol, p.what.split(":")[-1].strip()) not in seen]
    report.cases, report.files = checked.cases, checked.files
    return report
