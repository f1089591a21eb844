"""Migration 0023 on a database in use: every person and every queued message stays as it was
(the messages on the Telegram channel, in their order); a WhatsApp person, chat and message
can be stored after it; the same number on the two channels is two chats, neither holding the
other's messages; downgrading drops only what WhatsApp added."""
from __future__ import annotations

from sqlalchemy import inspect, select, text

from core.storage import outbox
from core.storage.db import migrate
from core.storage.models import OutboxMessage, Person
from core.storage.models_whatsapp import WhatsAppChat
from tests.support.migrations import downgrade

NUMBER = 5537999990001


async def _tables(db) -> set[str]:
    async with db.engine.connect() as conn:
        return set(await conn.run_sync(lambda c: inspect(c).get_table_names()))


async def test_people_and_queued_messages_stay_and_whatsapp_joins_them(db_factory):
    db = db_factory()
    await migrate(db.engine, "0022_closure_hours")
    async with db.engine.begin() as conn:
        await conn.execute(text(
            "INSERT INTO persons (telegram_id, display_name, roles, created_at) VALUES "
            f"({NUMBER}, 'Maria', '[\"citizen\"]', '2026-12-01 10:00:00')"))
        await conn.execute(text(
            "INSERT INTO outbox (created_at, chat_id, kind, payload, dedupe_key, status, "
            f"attempts, next_attempt_at) VALUES ('2026-12-01 10:00:00', {NUMBER}, 'reply', "
            "'{\"text\": \"Olá\"}', 'k1', 'pending', 0, '2026-12-01 10:00:00')"))
    await migrate(db.engine)
    assert {"whatsapp_chats", "whatsapp_seen"} <= await _tables(db)
    async with db.read() as s:
        [maria] = (await s.execute(select(Person))).scalars().all()
        [queued] = (await s.execute(select(OutboxMessage))).scalars().all()
    assert (maria.telegram_id, maria.whatsapp_id, maria.display_name) == (NUMBER, None, "Maria")
    assert (queued.channel, queued.chat_id, queued.status) == ("telegram", NUMBER, "pending")
    async with db.unit_of_work() as s:
        s.add(Person(whatsapp_id=str(NUMBER), display_name="Maria", roles=["citizen"]))
        s.add(WhatsAppChat(wa_id=str(NUMBER), state="idle", draft={}))
        await outbox.enqueue(s, NUMBER, "case_update", {"text": "x"}, "k2",
                             channel=outbox.WHATSAPP)
    # the same number on each channel is its own chat: each one's head is due
    telegram = await outbox.claim_due(db, sender="t")
    whatsapp = await outbox.claim_due(db, sender="w", channel=outbox.WHATSAPP)
    assert [m.dedupe_key for m in telegram] == ["k1"]
    assert [m.dedupe_key for m in whatsapp] == ["k2"]
    await downgrade(db, "0022_closure_hours")
    assert not {"whatsapp_chats", "whatsapp_seen"} & await _tables(db)
    async with db.engine.connect() as conn:
        assert (await conn.execute(text("SELECT dedupe_key FROM outbox"))).scalars().all() \
            == ["k1"]
        assert (await conn.execute(text("SELECT count(*) FROM persons"))).scalar() == 2
