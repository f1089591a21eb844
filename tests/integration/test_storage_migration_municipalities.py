"""Migration 0019 on a single-city database in use (Dracena's): it becomes one municipality
record with the law's name, state and IBGE code; its staff and inspectors (and pending invites)
join that city, its administrators become the installation's; no case, tariff or closure
changes; downgrading drops only the new table and columns."""
from __future__ import annotations

from datetime import date, datetime, timezone
from decimal import Decimal

import sqlalchemy as sa
from sqlalchemy import inspect, select

from core.laws import get_law
from core.storage.db import migrate
from core.storage.models import Case, Closure, Tariff
from core.storage.models_city import Municipality
from tests.support.migrations import downgrade

CLOSURES = sa.table("closures", *(sa.column(c) for c in ("municipality", "date", "name",
                                                           "kind", "source")))

AT = datetime(2026, 11, 30, 12, tzinfo=timezone.utc)
PERSONS = sa.table("persons", sa.column("id"), sa.column("telegram_id"),
                   sa.column("display_name"), sa.column("roles", sa.JSON),
                   sa.column("created_at"))
INSPECTORS = sa.table("inspectors", sa.column("id"), sa.column("person_id"), sa.column("name"),
                      sa.column("agency"), sa.column("registration"), sa.column("active"),
                      sa.column("created_at"))
INVITES = sa.table("invite_codes", sa.column("code_hash"), sa.column("name"),
                   sa.column("agency"), sa.column("registration"), sa.column("created_by"),
                   sa.column("created_at"), sa.column("expires_at"))
STAFF = sa.table("staff_users", sa.column("username"), sa.column("password_hash"),
                 sa.column("role"), sa.column("active"), sa.column("created_at"),
                 sa.column("session_version"))


async def _populate_dracena(db, add_old_case) -> dict:
    """Dracena's data as a 0018 database holds it: cases, a tariff, a closure, two staff
    accounts (an admin and a servant), an inspector and a pending invite."""
    async with db.unit_of_work() as s:
        protocols = [(await add_old_case(s, municipality="dracena", lat=-21.48, lon=-51.53)
                      ).protocol for _ in range(3)]
        s.add(Tariff(municipality="dracena", code="guarda_diaria", amount=Decimal("35.00"),
                     currency="BRL", unit="dia", valid_from=date(2026, 1, 1),
                     article="Art. 7º", source="Decreto 1/2026", created_by="seed",
                     created_at=AT))
        await s.execute(sa.insert(CLOSURES).values(  # the table as it was then
            municipality="dracena", date=date(2026, 12, 8), name="Padroeira", kind="holiday",
            source="Lei municipal"))
        await s.execute(sa.insert(PERSONS).values(id=900, telegram_id=4242,
                                                  display_name="Joana", roles=["inspector"],
                                                  created_at=AT))
        await s.execute(sa.insert(INSPECTORS).values(id=77, person_id=900, name="Joana Silva",
                                                     agency="fiscalizacao",
                                                     registration="12.345-6", active=True,
                                                     created_at=AT))
        await s.execute(sa.insert(INVITES).values(code_hash="f" * 64, name="Pedro Lima",
                                                  agency="fiscalizacao", registration="9",
                                                  created_by="maria", created_at=AT,
                                                  expires_at=AT))
        for username, role in (("maria", "admin"), ("bruno", "staff")):
            await s.execute(sa.insert(STAFF).values(username=username, password_hash="x",
                                                    role=role, active=True, created_at=AT,
                                                    session_version=0))
    return {"protocols": sorted(protocols)}


async def test_a_single_city_database_becomes_one_municipality_record(db_factory, add_old_case):
    db = db_factory()
    await migrate(db.engine, "0018_email")
    before = await _populate_dracena(db, add_old_case)

    await migrate(db.engine)

    law = get_law("dracena")
    async with db.read() as s:
        (city,) = (await s.execute(select(Municipality))).scalars().all()
        assert (city.slug, city.law, city.name, city.uf, city.ibge_code, city.active) == \
            ("dracena", "dracena", law.city, "SP", "3514403", True)
        # every field left empty: the installation's settings still apply, nothing changes
        assert city.boundary is None and city.depot_address == "" and city.pix_key == ""
        staff = dict((await s.execute(sa.text(
            "SELECT username, municipality FROM staff_users"))).all())
        assert staff == {"maria": None, "bruno": "dracena"}  # the admin: installation-wide
        assert (await s.execute(sa.text("SELECT id, municipality, registration FROM inspectors")
                                )).all() == [(77, "dracena", "12.345-6")]
        assert (await s.execute(sa.text("SELECT name, municipality FROM invite_codes"))
                ).all() == [("Pedro Lima", "dracena")]
        cases = (await s.execute(select(Case.protocol, Case.municipality))).all()
        assert sorted(p for p, _ in cases) == before["protocols"]
        assert {m for _, m in cases} == {"dracena"}
        tariff = (await s.execute(select(Tariff))).scalar_one()
        assert (tariff.municipality, tariff.amount, tariff.source) == \
            ("dracena", Decimal("35.00"), "Decreto 1/2026")
        closure = (await s.execute(select(Closure))).scalar_one()
        assert (closure.municipality, closure.date, closure.name) == \
            ("dracena", date(2026, 12, 8), "Padroeira")


async def test_the_migrated_city_is_the_one_the_application_serves(db_factory, add_old_case,
                                                                   tmp_path):
    """MUNICIPALITY=dracena on the migrated database: no second record, the Core acts for
    Dracena, whose cases are its own."""
    from core.services.context import Core
    from core.settings import Settings
    from core.storage.evidence import EvidenceStore
    db = db_factory()
    await migrate(db.engine, "0018_email")
    await _populate_dracena(db, add_old_case)
    await migrate(db.engine)
    settings = Settings(_env_file=None, municipality="dracena", data_dir=tmp_path)
    core = Core(db, get_law("dracena"), settings, EvidenceStore(tmp_path))
    await core.load_cities(adopt=True)
    assert [c.label for c in core.cities] == ["Dracena (SP)"]
    assert core.municipality == "dracena" and not core.many_cities
    assert core.city_at(-21.4843, -51.5353).slug == "dracena"


async def _columns(db, table: str) -> set[str]:
    async with db.engine.connect() as conn:
        return {c["name"] for c in await conn.run_sync(
            lambda c: inspect(c).get_columns(table))}


async def test_downgrade_drops_only_the_municipality_table_and_columns(db_factory, add_old_case):

    db = db_factory()
    await migrate(db.engine, "0018_email")
    before = await _populate_dracena(db, add_old_case)
    await migrate(db.engine)
    await downgrade(db, "0018_email")
    async with db.engine.connect() as conn:
        tables = set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
    assert "municipalities" not in tables
    for table in ("staff_users", "inspectors", "invite_codes"):
        assert "municipality" not in await _columns(db, table)
    async with db.read() as s:
        assert sorted((await s.execute(sa.text("SELECT protocol FROM cases"))).scalars()
                      ) == before["protocols"]
        assert sorted((await s.execute(sa.text("SELECT username FROM staff_users"))).scalars()
                      ) == ["bruno", "maria"]
        assert (await s.execute(sa.text("SELECT registration FROM inspectors"))).scalar_one() \
            == "12.345-6"
        assert (await s.execute(sa.text("SELECT count(*) FROM tariffs"))).scalar_one() == 1
        assert (await s.execute(sa.text("SELECT count(*) FROM closures"))).scalar_one() == 1
        assert (await s.execute(sa.text("SELECT count(*) FROM invite_codes"))).scalar_one() == 1
