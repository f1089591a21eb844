"""Reporters without Telegram have no chat: persons.telegram_id may be empty.

A report taken at the counter, by phone or from an Open311 client used to belong to a
synthetic person with a made-up negative "Telegram id" (-156, -311): the automatic assignment's
first step queued "your case moved" for it, Telegram answered "Chat not found" and every such
case left a dead letter. Such a reporter now has no chat at all (telegram_id NULL); they are
reached through the contact they gave (reporter_contacts), never through Telegram.

Existing fake-id reporters are migrated: their id is emptied, their subscriptions removed, and
the messages queued or given up for their made-up chats (dead letters nobody can ever receive)
deleted. Telegram user ids are positive, so every negative one was made up.

SQLite cannot drop a NOT NULL in place and rebuilding `persons` would break the foreign keys
pointing at it inside the migration's transaction; the documented way for a change that leaves
the stored rows as they are (https://sqlite.org/lang_altertable.html, "making other kinds of
table schema changes": removing a NOT NULL constraint) edits the table's definition.

Revision ID: 0014_dayflow_contact_reporters
Revises: 0013_map_cells
"""
from __future__ import annotations

import re
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0014_dayflow_contact_reporters'
down_revision: Union[str, Sequence[str], None] = '0013_map_cells'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

_NOT_NULL = re.compile(r"(telegram_id\s+BIGINT)\s+NOT\s+NULL", re.IGNORECASE)


def _sqlite_nullable(conn, nullable: bool) -> None:
    sql = conn.execute(sa.text(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'persons'")).scalar_one()
    if nullable:
        new = _NOT_NULL.sub(r"\1", sql, count=1)
    else:
        new = re.sub(r"(telegram_id\s+BIGINT)(?!\s+NOT)", r"\1 NOT NULL", sql, count=1,
                     flags=re.IGNORECASE)
    if new == sql:
        return
    version = conn.execute(sa.text("PRAGMA schema_version")).scalar_one()
    conn.execute(sa.text("PRAGMA writable_schema = ON"))
    conn.execute(sa.text("UPDATE sqlite_master SET sql = :sql WHERE type = 'table' "
                         "AND name = 'persons'"), {"sql": new})
    conn.execute(sa.text(f"PRAGMA schema_version = {int(version) + 1}"))
    conn.execute(sa.text("PRAGMA writable_schema = OFF"))


def upgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "sqlite":
        _sqlite_nullable(conn, True)
    else:
        op.alter_column('persons', 'telegram_id', existing_type=sa.BigInteger(), nullable=True)
    fake = sa.text("SELECT id FROM persons WHERE telegram_id < 0")
    conn.execute(sa.text(f"DELETE FROM subscriptions WHERE person_id IN ({fake.text})"))
    conn.execute(sa.text("DELETE FROM outbox WHERE chat_id IN "
                         "(SELECT telegram_id FROM persons WHERE telegram_id < 0)"))
    conn.execute(sa.text("UPDATE persons SET telegram_id = NULL WHERE telegram_id < 0"))


def downgrade() -> None:
    conn = op.get_bind()
    # a made-up negative id again for each reporter without Telegram (unique, never a user's)
    conn.execute(sa.text("UPDATE persons SET telegram_id = -1000000 - id "
                         "WHERE telegram_id IS NULL"))
    if conn.dialect.name == "sqlite":
        _sqlite_nullable(conn, False)
    else:
        op.alter_column('persons', 'telegram_id', existing_type=sa.BigInteger(), nullable=False)
