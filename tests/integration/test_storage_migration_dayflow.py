"""Migration 0014 on a database in use: the reporters with a made-up chat id (the counter's
-156, Open311's -311) become reporters without Telegram, their subscriptions and the messages
queued or given up for their made-up chats go, and everything else stays as it was."""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import func, select

from core.storage import outbox
from core.storage.db import migrate
from core.storage.models import Case, OutboxMessage, Person, Subscription
from tests.support.migrations import add_old_outbox, add_old_person

AT = datetime(2026, 11, 30, 12, tzinfo=timezone.utc)


async def test_fake_chat_reporters_lose_their_chat_and_their_dead_letters(db_factory, add_old_case):
    db = db_factory()
    await migrate(db.engine, "0013_map_cells")
    async with db.unit_of_work() as s:
        ids = {name: await add_old_person(s, telegram_id=chat, display_name=name)
               for name, chat in (("Atendimento no balcão", -156), ("Open311", -311),
                                  ("Maria", 4242))}
        people = list(ids.values())
        cases = [await add_old_case(s, reporter_id=p) for p in people]
        s.add_all([Subscription(person_id=p, case_id=c.id, notify=True, created_at=AT)
                   for p, c in zip(people, cases)])
        for i, (chat, status) in enumerate(((-156, outbox.FAILED), (-156, outbox.FAILED),
                                            (-311, outbox.PENDING), (4242, outbox.SENT),
                                            (4242, outbox.FAILED))):
            await add_old_outbox(s, chat_id=chat, kind="case_update", payload={"text": "x"},
                                 dedupe_key=f"case:{cases[0].id}:ev:{i}", status=status,
                                 created_at=AT, next_attempt_at=AT,
                                 last_error="400: Chat not found" if chat < 0 else None)
        case_ids = [c.id for c in cases]

    await migrate(db.engine)

    async with db.read() as s:
        people = {p.display_name: p for p in (await s.execute(select(Person))).scalars()}
        assert {n: (p.id, p.telegram_id) for n, p in people.items()} == {
            "Atendimento no balcão": (ids["Atendimento no balcão"], None),
            "Open311": (ids["Open311"], None), "Maria": (ids["Maria"], 4242)}
        reporters = (await s.execute(select(Case.reporter_id).where(Case.id.in_(case_ids))
                                     .order_by(Case.id))).scalars().all()
        assert reporters == [ids["Atendimento no balcão"], ids["Open311"], ids["Maria"]]
        subs = (await s.execute(select(Subscription.person_id))).scalars().all()
        assert subs == [ids["Maria"]]  # a Telegram citizen keeps following the case
        left = (await s.execute(select(OutboxMessage.chat_id, OutboxMessage.status)
                                .order_by(OutboxMessage.id))).all()
        assert left == [(4242, outbox.SENT), (4242, outbox.FAILED)]  # a real dead letter stays
    async with db.unit_of_work() as s:  # more reporters without Telegram: no chat, no clash
        s.add_all([Person(telegram_id=None, display_name="Ligação telefônica", roles=["citizen"])
                   for _ in range(2)])
    async with db.read() as s:
        assert await s.scalar(select(func.count()).select_from(Person).where(
            Person.telegram_id.is_(None))) == 4
