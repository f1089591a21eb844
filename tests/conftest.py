"""Shared fixtures: a migrated `db` on every engine, and a temporary `data_dir`.

The other shared fixtures live in tests/support and reach every test through `pytest_plugins`
(pytest reads it in this root conftest only): `clock`, `make_core`, `core`, `photo`
(core_fixtures), `bot` (bot_chat), `panel` (panel), `chromium`, `serve`, `shots` (browser) and
`conversation_walk`. A folder's conftest.py or a test module overrides one by defining a
fixture of the same name (tests/e2e/inspector, tests/e2e/payments); the shared fixtures that
depend on it, such as `bot` on `core`, then use the override. Plain helpers (functions,
constants) are imported from tests.support modules.

`db` runs each test on SQLite (a temporary file, never :memory:) and, when TEST_DATABASE_URL
is set, on PostgreSQL in a fresh schema (search_path set per connection) dropped afterwards.
"""
from __future__ import annotations

import os
import uuid

import pytest
from sqlalchemy import text

from core.storage.db import Database, create_engine
from tests.support.db_templates import copy_sqlite_head, restore_pg_head, sqlite_head

pytest_plugins = [
    "tests.support.core_fixtures",
    "tests.support.bot_chat",
    "tests.support.panel",
    "tests.support.browser",
    "tests.support.conversation_walk",
    "tests.support.hang_report",
]

PG_URL = os.environ.get("TEST_DATABASE_URL", "")
PG_SKIP = "TEST_DATABASE_URL not set: PostgreSQL tests skipped"

ENGINES = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgresql", id="postgresql",
                 marks=pytest.mark.skipif(not PG_URL, reason=PG_SKIP)),
]


@pytest.fixture(autouse=True)
def _free_panel_port(monkeypatch):
    """A panel a test starts from the settings (the sandbox serves one) takes a free port,
    never the default 8081 a developer's `make run` may be using; a test that means a port
    sets ADMIN_PORT itself."""
    monkeypatch.setenv("ADMIN_PORT", "0")


@pytest.fixture(autouse=True)
def _cheap_password_hashes(monkeypatch):
    """argon2id at its least cost for the accounts a test makes in its own process (the
    product's ~0.15 s a hash was a third of the panel tests' time); the processes a test
    starts keep the product's hasher, whose strength tests/unit/test_password_strength.py
    checks."""
    from argon2 import PasswordHasher

    from core.services.staff import accounts
    monkeypatch.setattr(accounts, "_hasher",
                        PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))


@pytest.fixture
def data_dir(tmp_path):
    path = tmp_path / "data"
    path.mkdir()
    return path


@pytest.fixture(params=ENGINES)
async def db_factory(request, tmp_path):
    """Build an unmigrated Database for this test's engine; extra kwargs go to create_engine."""
    made: list[Database] = []
    schema = f"t_{uuid.uuid4().hex[:16]}"
    if request.param == "postgresql":
        admin = create_engine(PG_URL)
        async with admin.begin() as conn:
            await conn.execute(text(f'CREATE SCHEMA "{schema}"'))

    def factory(**kwargs) -> Database:
        if request.param == "sqlite":
            db = Database(create_engine(f"sqlite+aiosqlite:///{factory.path}", **kwargs))
        else:
            connect_args = {"server_settings": {"search_path": schema}}
            db = Database(create_engine(PG_URL, connect_args=connect_args, **kwargs))
        made.append(db)
        return db

    factory.engine_name = request.param
    factory.path = tmp_path / "test.sqlite3"  # the SQLite file (not created until used)
    factory.schema = schema  # the PostgreSQL schema (created)
    yield factory
    for db in made:
        await db.dispose()
    if request.param == "postgresql":
        async with admin.begin() as conn:
            await conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        await admin.dispose()


@pytest.fixture
async def db(db_factory, tmp_path_factory) -> Database:
    """A database at the head revision: a copy of this worker's migrated one
    (tests/support/db_templates.py), or migrated here."""
    if db_factory.engine_name == "sqlite":
        copy_sqlite_head(await sqlite_head(tmp_path_factory.getbasetemp()), db_factory.path)
        return db_factory()
    database = db_factory()
    if not await restore_pg_head(PG_URL, db_factory.schema):
        await database.migrate()
    return database


@pytest.fixture
def add_case():
    """`await add_case(session, **fields)`: insert a minimal open case (protocol allocated in
    the session's transaction, as a submission does) and return it."""
    from datetime import datetime, timezone

    from core.storage.geo import cell_of
    from core.storage.models import Case
    from core.storage.protocol import allocate_protocol, new_case_code

    async def add(session, **fields) -> Case:
        lat, lon = fields.pop("lat", -19.4606), fields.pop("lon", -45.6003)
        year = fields.pop("year", datetime.now(timezone.utc).year)
        values = dict(municipality="dores-do-indaia", category="vehicle", track="vehicle",
                      state="reported", lat=lat, lon=lon, cell=cell_of(lat, lon))
        values.update(fields)
        case = Case(protocol=await allocate_protocol(session, year), case_code=new_case_code(),
                    **values)
        session.add(case)
        await session.flush()
        return case

    return add


@pytest.fixture
def add_old_case():
    """`await add_old_case(session, **fields)`: insert a minimal case as `add_case` does, but
    naming only the given columns and those with a default, so it works on a database still
    at an older revision (the migration tests); returns its fields and id (no ORM object)."""
    from datetime import datetime, timezone
    from types import SimpleNamespace

    from sqlalchemy import insert

    from core.storage.geo import cell_of
    from core.storage.models import Case
    from core.storage.protocol import allocate_protocol, new_case_code

    async def add(session, **fields) -> SimpleNamespace:
        lat, lon = fields.pop("lat", -19.4606), fields.pop("lon", -45.6003)
        year = fields.pop("year", datetime.now(timezone.utc).year)
        values = dict(municipality="dores-do-indaia", category="vehicle", track="vehicle",
                      state="reported", lat=lat, lon=lon, cell=cell_of(lat, lon),
                      protocol=await allocate_protocol(session, year),
                      case_code=new_case_code())
        values.update(fields)
        case_id = (await session.execute(insert(Case).values(**values).returning(Case.id))
                   ).scalar_one()
        return SimpleNamespace(id=case_id, **values)

    return add


def pytest_collection_modifyitems(items):
    """The delivery fault suite (`faults`) prints timing figures: it runs with the `serial`
    tests, alone on the machine (`make test`'s second run)."""
    for item in items:
        if item.get_closest_marker("faults") and not item.get_closest_marker("serial"):
            item.add_marker(pytest.mark.serial)


def pytest_terminal_summary(terminalreporter):
    """The delivery fault suite's figures (tests/e2e/test_delivery_faults.py, _sigkill.py)."""
    from tests.support.fault_figures import REPORT
    if REPORT:
        terminalreporter.section("delivery fault figures")
        for line in REPORT:
            terminalreporter.write_line(line)
