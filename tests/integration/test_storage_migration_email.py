"""Migration 0018 on a database in use: the e-mail tables arrive empty and work, and nothing
already there changes (cases, reporters' contacts, the Telegram outbox with its dead letters);
downgrading drops only them."""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import inspect, select

from core.storage import email_outbox, outbox
from core.storage.db import migrate
from core.storage.models import Case, OutboxMessage, ReporterContact
from tests.support.migrations import add_old_outbox, downgrade

AT = datetime(2026, 11, 30, 12, tzinfo=timezone.utc)
TABLES = {"email_outbox", "owner_emails", "email_stops"}


async def _tables(db) -> set[str]:
    async with db.engine.connect() as conn:
        return set(await conn.run_sync(lambda c: inspect(c).get_table_names()))


async def test_email_tables_join_a_populated_database(db_factory, add_old_case):
    db = db_factory()
    await migrate(db.engine, "0016_numbers")
    assert not TABLES & await _tables(db)
    async with db.unit_of_work() as s:
        case = await add_old_case(s)
        s.add(ReporterContact(case_id=case.id, name="Maria", email="maria@example.com",
                              channel="balcao", taken_by="clara", created_at=AT))
        await add_old_outbox(s, chat_id=4242, kind="case_update", payload={"text": "x"},
                             dedupe_key="case:1:ev:1:p:1", status=outbox.FAILED,
                             created_at=AT, next_attempt_at=AT, last_error="400")
        case_id = case.id

    await migrate(db.engine)

    assert await _tables(db) >= TABLES
    async with db.read() as s:
        assert (await s.execute(select(Case.id))).scalars().all() == [case_id]
        assert (await s.execute(select(ReporterContact.email))).scalar_one() == \
            "maria@example.com"
        assert (await s.execute(select(OutboxMessage.status))).scalar_one() == outbox.FAILED
    async with db.unit_of_work() as s:
        assert await email_outbox.enqueue(s, case_id=case_id, address="maria@example.com",
                                          role="reporter", kind="case_update",
                                          payload={"text": "x"}, dedupe_key="k")
    claimed = await email_outbox.claim_due(db)
    assert [c.address for c in claimed] == ["maria@example.com"]


async def test_downgrade_drops_only_the_email_tables(db_factory):

    db = db_factory()
    await migrate(db.engine)
    await downgrade(db, "0016_numbers")
    left = await _tables(db)
    assert not TABLES & left and {"cases", "outbox", "reporter_contacts"} <= left
