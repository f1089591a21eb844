"""A Core on its own event loop and its own database — a SQLite file, or a fresh PostgreSQL
schema dropped at the end — for the hypothesis properties, which drive a plain function (no
tests here)."""
from __future__ import annotations

import asyncio
import uuid
from datetime import datetime

from sqlalchemy import text

from core.laws import get_law
from core.services.context import Core
from core.settings import Settings
from core.storage.db import Database, create_engine
from core.storage.evidence import EvidenceStore
from tests.conftest import PG_URL
from tests.support.core_fixtures import Clock


class EngineWorld:
    """`core`: bound to Dores do Indaiá, tariffs seeded, the clock at `start`; a subclass
    adds to it in `prepare`."""

    def __init__(self, engine: str, tmp_path, start: datetime):
        self.engine, self.tmp_path = engine, tmp_path
        self.runner = asyncio.Runner()
        self.clock = Clock(start)
        self.schema = f"t_{uuid.uuid4().hex[:16]}"
        self.core = self.run(self._open())
        self.n = 0

    def run(self, coro):
        return self.runner.run(coro)

    async def _open(self) -> Core:
        if self.engine == "sqlite":
            db = Database(create_engine(f"sqlite+aiosqlite:///{self.tmp_path / 'w.sqlite3'}"))
        else:
            admin = create_engine(PG_URL)
            async with admin.begin() as conn:
                await conn.execute(text(f'CREATE SCHEMA "{self.schema}"'))
            await admin.dispose()
            db = Database(create_engine(PG_URL, connect_args={
                "server_settings": {"search_path": self.schema}}))
        await db.migrate()
        data_dir = self.tmp_path / "data"
        data_dir.mkdir()
        core = Core(db, get_law("dores-do-indaia"),
                    Settings(_env_file=None, municipality="dores-do-indaia", data_dir=data_dir),
                    EvidenceStore(data_dir), self.clock)
        await core.seed_tariffs()
        return await self.prepare(core)

    async def prepare(self, core: Core) -> Core:
        return core

    def close(self) -> None:
        async def stop():
            await self.core.db.dispose()
            if self.engine == "postgresql":
                admin = create_engine(PG_URL)
                async with admin.begin() as conn:
                    await conn.execute(text(f'DROP SCHEMA "{self.schema}" CASCADE'))
                await admin.dispose()
        self.run(stop())
        self.runner.close()
