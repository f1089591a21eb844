"""Dialect-specific INSERT ... ON CONFLICT DO NOTHING (SQLite and PostgreSQL share it)."""
from __future__ import annotations

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession


def insert_ignore(session: AsyncSession, table, values: dict, conflict_columns: list[str]):
    """An INSERT that does nothing when a row with the same `conflict_columns` exists."""
    name = session.get_bind().dialect.name
    module = {"sqlite": sqlite, "postgresql": postgresql}.get(name)
    if module is None:
        raise NotImplementedError(f"unsupported database dialect: {name}")
    return module.insert(table).values(**values).on_conflict_do_nothing(
        index_elements=conflict_columns)
