"""Going back: the migration tests' downgrade of a test database to an earlier revision."""
from __future__ import annotations

from datetime import datetime, timezone

import sqlalchemy as sa
from alembic import command

from core.storage.db import alembic_config


async def downgrade(db, revision: str) -> None:
    def run(sync_conn) -> None:
        cfg = alembic_config()
        cfg.attributes["connection"] = sync_conn
        command.downgrade(cfg, revision)
    async with db.engine.begin() as conn:
        await conn.run_sync(run)


# Tables as an older revision has them (the ORM models have columns added since): rows for a
# migration test's database at that revision.
OLD_PERSONS = sa.table("persons", sa.column("id"), sa.column("telegram_id"),
                       sa.column("display_name"), sa.column("roles", sa.JSON),
                       sa.column("created_at"))
OLD_OUTBOX = sa.table("outbox", *(sa.column(c) for c in (
    "chat_id", "kind", "dedupe_key", "status", "created_at", "next_attempt_at", "last_error",
    "attempts")), sa.column("payload", sa.JSON))


async def add_old_person(s, **values) -> int:
    """A person as 0001–0022 stored one; its id."""
    values.setdefault("roles", ["citizen"])
    values.setdefault("created_at", datetime(2026, 11, 30, 12, tzinfo=timezone.utc))
    return (await s.execute(sa.insert(OLD_PERSONS).values(**values)
                            .returning(OLD_PERSONS.c.id))).scalar_one()


async def add_old_outbox(s, **values) -> None:
    """A queued message as 0001–0022 stored one (no channel: every one was Telegram's)."""
    values.setdefault("attempts", 0)
    await s.execute(sa.insert(OLD_OUTBOX).values(**values))
