"""Going back: the migration tests' downgrade of a test database to an earlier revision."""
from __future__ import annotations

from alembic import command

from core.storage.db import alembic_config


async def downgrade(db, revision: str) -> None:
    def run(sync_conn) -> None:
        cfg = alembic_config()
        cfg.attributes["connection"] = sync_conn
        command.downgrade(cfg, revision)
    async with db.engine.begin() as conn:
        await conn.run_sync(run)
