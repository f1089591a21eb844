"""Engine, sessions, units of work and start-up migrations.

SQLite (aiosqlite) is the default; PostgreSQL (asyncpg) takes a `postgresql+asyncpg://` URL.

SQLite notes. Every connection gets WAL, a busy timeout, foreign keys and synchronous=NORMAL,
and a larger page cache and checkpoint interval (`_SQLITE_CACHE`).
The driver's own transaction handling is switched off and SQLAlchemy emits BEGIN itself, so a
unit of work can start with `BEGIN IMMEDIATE`: it takes the write lock up front instead of
upgrading a read snapshot later, which in WAL mode fails at once with "database is locked"
whatever the busy timeout. Writers in one process also queue on an asyncio lock, so they wait
without the busy handler's sleep-and-retry; the busy timeout is left for other processes (bot
and admin panel share the file). A unit of work is therefore not re-entrant on SQLite.
"""
from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from pathlib import Path
from typing import AsyncIterator

from alembic import command
from alembic.config import Config
from sqlalchemy import event, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.ext.asyncio import (AsyncEngine, AsyncSession, async_sessionmaker,
                                    create_async_engine)

from core.storage.errors import UNAVAILABLE_MESSAGE, StorageUnavailable  # noqa: F401  (raised here)

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
BUSY_TIMEOUT_MS = 5000
_BEGIN_OPTION = "sqlite_begin"
MIGRATION_LOCK = 0x564D  # advisory-lock namespace of the start-up migrations ("VM")


def _is_unavailable(exc: BaseException) -> bool:
    if isinstance(exc, (ConnectionError, TimeoutError)):
        return True
    if isinstance(exc, DBAPIError):
        if exc.connection_invalidated or isinstance(exc, InterfaceError):
            return True
        text = str(exc.orig).lower()
        if isinstance(exc, OperationalError) and ("locked" in text or "busy" in text):
            return True
        if isinstance(exc.orig, (ConnectionError, OSError)):
            return True
        name = type(exc.orig).__name__
        return name in {"CannotConnectNowError", "ConnectionDoesNotExistError",
                        "TooManyConnectionsError", "AdminShutdownError"}
    cause = exc.__cause__ or exc.__context__
    return isinstance(cause, (ConnectionError, OSError)) and not isinstance(cause, FileNotFoundError)


@asynccontextmanager
async def translate_errors() -> AsyncIterator[None]:
    """Turn "database is locked" / connection refused into StorageUnavailable."""
    try:
        yield
    except StorageUnavailable:
        raise
    except Exception as exc:
        if _is_unavailable(exc):
            raise StorageUnavailable(f"{type(exc).__name__}: {exc}") from exc
        raise


def is_sqlite(url_or_engine: str | AsyncEngine) -> bool:
    if isinstance(url_or_engine, AsyncEngine):
        return url_or_engine.dialect.name == "sqlite"
    return make_url(url_or_engine).get_backend_name() == "sqlite"


def create_engine(url: str, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS, **kwargs) -> AsyncEngine:
    """An async engine for `url` (sqlite+aiosqlite:///path or postgresql+asyncpg://...).
    Extra keyword arguments go to SQLAlchemy's create_async_engine.

    A statement's parameters are left out of its errors' text (`hide_parameters`): they are
    what people typed (names, descriptions, contacts), and that text reaches the logs (a
    StorageUnavailable's detail, a trace)."""
    kwargs.setdefault("hide_parameters", True)
    if not is_sqlite(url):
        kwargs.setdefault("pool_pre_ping", True)
        return create_async_engine(url, **kwargs)
    u = make_url(url)
    if u.database in (None, "", ":memory:"):
        raise ValueError("SQLite needs a file: an in-memory database is one connection only")
    Path(u.database).parent.mkdir(parents=True, exist_ok=True)
    connect_args = kwargs.pop("connect_args", {})
    connect_args.setdefault("timeout", busy_timeout_ms / 1000)
    engine = create_async_engine(url, connect_args=connect_args, **kwargs)

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_conn, _record) -> None:
        dbapi_conn.isolation_level = None  # SQLAlchemy emits BEGIN (see module docstring)
        cur = dbapi_conn.cursor()
        for pragma in ("journal_mode=WAL", f"busy_timeout={busy_timeout_ms}",
                       "foreign_keys=ON", "synchronous=NORMAL", *_SQLITE_CACHE):
            cur.execute(f"PRAGMA {pragma}")
        cur.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Connection) -> None:
        mode = conn.get_execution_options().get(_BEGIN_OPTION, "DEFERRED")
        conn.exec_driver_sql(f"BEGIN {mode}")

    return engine


# A write touches a leaf of each of the cases' indexes and of the map's and the tallies'
# counters; at a million cases those pages are spread out. A page cache of 32 MiB a connection
# (SQLite's default is 2 MiB) keeps them instead of reading them again, and a checkpoint once
# the WAL holds 8000 pages (32 MiB; the default is 1000) copies each page changed by many
# commits once and syncs the file an eighth as often; journal_size_limit then truncates the WAL
# back to 64 MiB. Measured at 1M cases over 50 cities, 2000 submissions by 16 submitters on
# this 2-core machine, three pairs: 460 submissions/s before (median), 594 after.
_SQLITE_CACHE = ("cache_size=-32768", "wal_autocheckpoint=8000", "journal_size_limit=67108864")


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)


def alembic_config(url: str | None = None) -> Config:
    """Alembic configuration built in code, so migrations run from an installed package."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    if url:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def _upgrade(sync_conn: Connection, revision: str) -> None:
    cfg = alembic_config()
    cfg.attributes["connection"] = sync_conn
    command.upgrade(cfg, revision)


async def migrate(engine_or_url: AsyncEngine | str, revision: str = "head") -> None:
    """Apply the Alembic migrations up to `revision`; safe to call from a running loop."""
    engine = engine_or_url if isinstance(engine_or_url, AsyncEngine) else create_engine(engine_or_url)
    try:
        async with translate_errors():
            async with engine.begin() as conn:
                if conn.dialect.name == "postgresql":  # workers starting at once: one migrates,
                    await conn.execute(text(  # the others wait, then find the schema at head;
                        # keyed by schema: migrating another schema (a test's) waits for none
                        "SELECT pg_advisory_xact_lock(:ns, hashtext(current_schema()))"),
                        {"ns": MIGRATION_LOCK})
                await conn.run_sync(_upgrade, revision)
    finally:
        if engine is not engine_or_url:
            await engine.dispose()


class Database:
    """Engine + sessionmaker. `unit_of_work()` is one write transaction per use case."""

    def __init__(self, engine: AsyncEngine):
        self.engine = engine
        self.sessionmaker = make_sessionmaker(engine)
        self.is_sqlite = engine.dialect.name == "sqlite"
        self._write_lock = asyncio.Lock() if self.is_sqlite else None

    @classmethod
    def from_url(cls, url: str, **engine_kwargs) -> "Database":
        return cls(create_engine(url, **engine_kwargs))

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    async def migrate(self) -> None:
        await migrate(self.engine)

    @asynccontextmanager
    async def unit_of_work(self) -> AsyncIterator[AsyncSession]:
        """Yield a session in one transaction: committed if the block ends normally, rolled
        back (nothing written) if it raises. Busy/unreachable → StorageUnavailable."""
        async with translate_errors():
            if self._write_lock is not None:
                async with self._write_lock:
                    async with self._transaction({_BEGIN_OPTION: "IMMEDIATE"}) as session:
                        yield session
            else:
                async with self._transaction({}) as session:
                    yield session

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncSession]:
        """A session for reading (deferred transaction on SQLite: never blocks writers).
        Closed (its transaction rolled back) on exit; loaded objects stay readable."""
        async with translate_errors():
            async with self.sessionmaker() as session:
                yield session

    @asynccontextmanager
    async def _transaction(self, options: dict) -> AsyncIterator[AsyncSession]:
        async with self.sessionmaker() as session:
            async with session.begin():
                if options:  # procure the connection now, so BEGIN sees the options
                    await session.connection(execution_options=options)
                yield session

    async def dispose(self) -> None:
        await self.engine.dispose()
