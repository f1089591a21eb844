"""An upgrade rehearsed from the oldest migration that shipped (0001): a database at that
revision gets a row in every one of its tables, in that era's schema (sa.table, not today's
models), two cases with hash-chained timelines and their evidence files on disk; after the
upgrade to head, verify (the function behind `python -m admin verify`) finds every case, chain
and file intact, and every row of the era is still there, on both engines."""
from __future__ import annotations

import hashlib
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal

import sqlalchemy as sa

from alembic.script import ScriptDirectory

from core.services.installation.verify import check_database
from core.storage.db import alembic_config, migrate
from core.storage.timeline import event_hash

AT = datetime(2026, 11, 30, 12, tzinfo=timezone.utc)
FIRST = "0001"


TYPES = {"amount": sa.Numeric(12, 2)}


def _t(name: str, *columns: str, json: tuple[str, ...] = ()) -> sa.TableClause:
    return sa.table(name, *(sa.column(c, TYPES.get(c)) for c in columns),
                    *(sa.column(c, sa.JSON) for c in json))


def _plain(value) -> bool:
    """A value both engines give back as it was stored (times and numbers come back in each
    engine's own form; their rows are counted and their other columns compared)."""
    return isinstance(value, (str, int, bool, dict, list)) and not isinstance(value, float)


# The 0001 tables, as 0001_initial.py creates them.
PERSONS = _t("persons", "id", "telegram_id", "display_name", "created_at", json=("roles",))
CASES = _t("cases", "id", "protocol", "case_code", "municipality", "category", "track", "state",
           "lat", "lon", "cell", "address", "neighbourhood", "plate", "chassis", "description",
           "reporter_id", "created_at", "updated_at", "closed_at", "next_deadline_at",
           "next_deadline_kind", "is_open", json=("details", "deadline_json"))
EVENTS = _t("events", "id", "case_id", "seq", "at", "actor_kind", "actor_id", "actor_name",
            "action", "article", "public", "prev_hash", "hash", json=("data",))
EVIDENCE = _t("evidence", "id", "sha256", "case_id", "kind", "mime", "size", "telegram_file_id",
              "telegram_file_unique_id", "path", "stripped_sha256", "uploaded_by", "created_at",
              "retain_until")
ROWS: dict[str, tuple[sa.TableClause, list[dict]]] = {
    "closures": (_t("closures", "id", "municipality", "date", "name", "kind", "source"),
                 [dict(id=1, municipality="dores-do-indaia", date=date(2026, 12, 8),
                       name="Imaculada Conceição", kind="holiday", source="Lei municipal")]),
    "conversation_states": (_t("conversation_states", "user_id", "state", "updated_at",
                               json=("draft",)),
                            [dict(user_id=5001, state="report:photo", draft={"category": "car"},
                                  updated_at=AT)]),
    "outbox": (_t("outbox", "id", "created_at", "chat_id", "kind", "dedupe_key", "status",
                  "attempts", "next_attempt_at", "sent_at", "last_error", json=("payload",)),
               [dict(id=1, created_at=AT, chat_id=5001, kind="reply", payload={"text": "Olá"},
                     dedupe_key="k1", status="pending", attempts=0, next_attempt_at=AT,
                     sent_at=None, last_error=None)]),
    "persons": (PERSONS, [dict(id=1, telegram_id=5001, display_name="Maria", roles=["citizen"],
                               created_at=AT),
                          dict(id=2, telegram_id=5002, display_name="João",
                               roles=["citizen", "inspector"], created_at=AT)]),
    "processed_updates": (_t("processed_updates", "update_id", "processed_at"),
                          [dict(update_id=900001, processed_at=AT)]),
    "protocol_counters": (_t("protocol_counters", "year", "last"), [dict(year=2026, last=2)]),
    "staff_users": (_t("staff_users", "id", "username", "password_hash", "role", "active",
                       "created_at", "last_login_at"),
                    [dict(id=1, username="ana", password_hash="$argon2id$v=19$x", role="admin",
                          active=True, created_at=AT, last_login_at=None)]),
    "tariffs": (_t("tariffs", "id", "municipality", "code", "amount", "currency", "unit",
                   "valid_from", "article", "source", "created_by", "created_at"),
                [dict(id=1, municipality="dores-do-indaia", code="diaria", amount=Decimal("35.00"),
                      currency="BRL", unit="day", valid_from=date(2026, 1, 1),
                      article="Art. 9º, II", source="Decreto", created_by="ana", created_at=AT)]),
    "cases": (CASES, [dict(id=i, protocol=f"2026-00000{i}", case_code=f"CODE000{i}",
                           municipality="dores-do-indaia", category="car", track="abandoned",
                           state="reported", lat=-19.46 + i / 1000, lon=-45.6, cell=1000 + i,
                           address="Rua A, 10", neighbourhood="Centro", plate=f"ABC1D2{i}",
                           chassis=None, description="Carro parado há meses",
                           details={"color": "azul"}, reporter_id=1, created_at=AT,
                           updated_at=AT, closed_at=None, next_deadline_at=AT + timedelta(days=5),
                           next_deadline_kind="inspection", deadline_json={"days": 5},
                           is_open=True) for i in (1, 2)]),
    "inspectors": (_t("inspectors", "id", "person_id", "name", "agency", "active", "last_lat",
                      "last_lon", "last_seen_at", "created_at"),
                   [dict(id=1, person_id=2, name="João", agency="posturas", active=True,
                         last_lat=None, last_lon=None, last_seen_at=None, created_at=AT)]),
    "invite_codes": (_t("invite_codes", "id", "code_hash", "name", "agency", "created_by",
                        "created_at", "expires_at", "used_at", "used_by"),
                     [dict(id=1, code_hash="a" * 64, name="João", agency="posturas",
                           created_by="ana", created_at=AT, expires_at=AT + timedelta(days=7),
                           used_at=AT, used_by=2)]),
    "case_owners": (_t("case_owners", "id", "case_id", "owner_name", "owner_cpf",
                       "owner_contact", "person_id", "created_at", "updated_at"),
                    [dict(id=1, case_id=1, owner_name="Pedro", owner_cpf="123.456.789-09",
                          owner_contact="pedro@example.org", person_id=None, created_at=AT,
                          updated_at=AT)]),
    "subscriptions": (_t("subscriptions", "id", "person_id", "case_id", "notify", "created_at"),
                      [dict(id=1, person_id=1, case_id=1, notify=True, created_at=AT)]),
    "supporting_reports": (_t("supporting_reports", "id", "case_id", "person_id", "created_at",
                              "note", json=("photos",)),
                           [dict(id=1, case_id=2, person_id=1, created_at=AT,
                                 note="Ainda está lá", photos=[])]),
    "tasks": (_t("tasks", "id", "case_id", "inspector_id", "status", "reason", "created_at",
                 "updated_at"),
              [dict(id=1, case_id=1, inspector_id=1, status="open", reason=None, created_at=AT,
                    updated_at=AT)]),
}


def _events(case_id: int, n: int) -> list[dict]:
    out, prev = [], None
    for seq in range(1, n + 1):
        row = dict(case_id=case_id, seq=seq, at=AT + timedelta(hours=seq), actor_kind="citizen",
                   actor_id="1", actor_name="Maria", action=f"step_{seq}", article="Art. 3º",
                   data={"n": seq, "nota": "ação"}, public=seq % 2 == 0, prev_hash=prev)
        row["hash"] = prev = event_hash(**row)
        out.append(dict(row, id=case_id * 100 + seq))
    return out


def _evidence(tmp_path) -> list[dict]:
    rows = []
    for i, case_id in enumerate((1, 1, 2), start=1):
        content = f"foto {i} do caso {case_id}".encode() * 100
        sha = hashlib.sha256(content).hexdigest()
        where = tmp_path / "evidence" / sha[:2] / sha[2:4] / sha
        where.parent.mkdir(parents=True, exist_ok=True)
        where.write_bytes(content)
        rows.append(dict(id=i, sha256=sha, case_id=case_id, kind="photo", mime="image/jpeg",
                         size=len(content), telegram_file_id=f"f{i}",
                         telegram_file_unique_id=f"u{i}",
                         path=f"evidence/{sha[:2]}/{sha[2:4]}/{sha}", stripped_sha256=None,
                         uploaded_by=1, created_at=AT, retain_until=None))
    return rows


async def test_a_database_of_the_first_migration_upgrades_to_head_intact(db_factory, tmp_path):
    db = db_factory()
    await migrate(db.engine, FIRST)
    data_dir = tmp_path / "data"
    fill = dict(ROWS)
    fill["events"] = (EVENTS, _events(1, 4) + _events(2, 2))
    fill["evidence"] = (EVIDENCE, _evidence(data_dir))
    async with db.engine.begin() as conn:
        era = set(await conn.run_sync(lambda c: sa.inspect(c).get_table_names())) - {
            "alembic_version"}
        assert era == set(fill)  # every table of that era gets its rows
        for name in ["persons", "cases", "inspectors", *fill]:
            table, rows = fill[name]
            if rows and not (await conn.execute(sa.select(sa.func.count()).select_from(table))
                             ).scalar_one():
                await conn.execute(sa.insert(table), rows)
        if conn.dialect.name == "postgresql":  # explicit ids: move the sequences past them
            for name, (_, rows) in fill.items():
                if "id" in rows[0]:
                    await conn.execute(sa.text(
                        f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                        f"(SELECT max(id) FROM {name}))"))

    await migrate(db.engine)

    async with db.engine.connect() as conn:
        assert (await conn.execute(sa.text("SELECT version_num FROM alembic_version"))
                ).scalar_one() == ScriptDirectory.from_config(alembic_config()).get_current_head()
        for name, (table, rows) in fill.items():
            columns = [c.name for c in table.columns]
            got = (await conn.execute(sa.select(*table.columns).order_by(table.columns[0]))
                   ).mappings().all()
            assert len(got) == len(rows), name
            for row, want in zip(got, sorted(rows, key=lambda r: r[columns[0]])):
                assert {c: row[c] for c in columns if _plain(want[c])} == {
                    c: want[c] for c in columns if _plain(want[c])}, name

    report = await check_database(db, data_dir)
    assert report.ok, report.problems
    assert (report.cases, report.files) == (2, 3)

    flipped = data_dir / fill["evidence"][1][2]["path"]  # case 2's photo, one byte changed
    content = bytearray(flipped.read_bytes())
    content[0] ^= 1
    flipped.write_bytes(bytes(content))
    assert (await check_database(db, data_dir)).cases_named == ["2026-000002"]
