"""Alembic environment (async template, configured in code by core.storage.db).

`migrate()` shares its connection through `config.attributes["connection"]` (the Alembic
cookbook's recipe for running from an already running event loop). Run from the command line
(`alembic -c <ini>`), it opens its own async engine from `sqlalchemy.url` or the settings.
"""
from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from core.storage import models_lgpd  # noqa: F401  (its tables, in Base's metadata)
from core.storage import models_email  # noqa: F401
from core.storage import models_whatsapp  # noqa: F401
from core.storage import models_city  # noqa: F401
from core.storage import models_tally  # noqa: F401
from core.storage import models_web  # noqa: F401
from core.storage.models import Base

config = context.config
target_metadata = Base.metadata


def _configure(**kwargs) -> None:
    context.configure(target_metadata=target_metadata, compare_type=True, **kwargs)


def do_run_migrations(connection: Connection) -> None:
    _configure(connection=connection, render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


def _url() -> str:
    url = config.get_main_option("sqlalchemy.url")
    if url:
        return url
    from core.settings import get_settings
    return get_settings().resolved_database_url()


async def run_async_migrations() -> None:
    from core.storage.db import create_engine

    engine = create_engine(_url())
    try:
        async with engine.begin() as conn:
            await conn.run_sync(do_run_migrations)
    finally:
        await engine.dispose()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        do_run_migrations(connection)
    else:
        asyncio.run(run_async_migrations())


def run_migrations_offline() -> None:
    url = _url()
    _configure(url=url, literal_binds=True, dialect_opts={"paramstyle": "named"},
               render_as_batch=url.startswith("sqlite"))
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
