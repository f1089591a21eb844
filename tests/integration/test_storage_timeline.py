"""The case timeline is append-only and tamper-evident (hash chain over every event)."""
from __future__ import annotations

from decimal import Decimal

from sqlalchemy import delete, select, update

from core.lifecycle import Actor
from core.storage.models import Event
from core.storage.timeline import ActorRef, append_event, verify_chain


async def _case_with_events(db, add_case, n=4):
    async with db.unit_of_work() as s:
        case = await add_case(s)
        for i in range(n):
            await append_event(s, case, ActorRef(Actor.INSPECTOR, 7, "Fiscal Ana"),
                               f"step_{i}", "Art. 4º, II, b",
                               {"i": i, "fee": Decimal("150.00"), "nota": "veículo sem placa"},
                               public=i % 2 == 0)
    return case


async def test_events_are_numbered_and_chain_verifies(db, add_case):
    case = await _case_with_events(db, add_case)
    async with db.read() as s:
        events = (await s.execute(select(Event).where(Event.case_id == case.id)
                                  .order_by(Event.seq))).scalars().all()
        report = await verify_chain(s, case.id)
    assert [e.seq for e in events] == [1, 2, 3, 4]
    assert events[0].prev_hash is None
    assert all(b.prev_hash == a.hash for a, b in zip(events, events[1:]))
    assert events[0].actor_kind == "inspector" and events[0].data["fee"] == "150.00"
    assert report.ok and report.first_broken_seq is None and report.length == 4


async def test_edited_event_is_caught_and_named(db, add_case):
    case = await _case_with_events(db, add_case)
    async with db.unit_of_work() as s:  # someone edits the stored data behind our back
        await s.execute(update(Event).where(Event.case_id == case.id, Event.seq == 3)
                        .values(data={"i": 2, "fee": "15.00", "nota": "veículo sem placa"}))
    async with db.read() as s:
        report = await verify_chain(s, case.id)
    assert not report.ok and report.first_broken_seq == 3
    assert "alterado" in report.reason


async def test_edited_article_or_actor_is_caught(db, add_case):
    case = await _case_with_events(db, add_case)
    async with db.unit_of_work() as s:
        await s.execute(update(Event).where(Event.case_id == case.id, Event.seq == 2)
                        .values(actor_name="Outro Fiscal"))
    async with db.read() as s:
        assert (await verify_chain(s, case.id)).first_broken_seq == 2


async def test_deleted_event_is_caught(db, add_case):
    case = await _case_with_events(db, add_case)
    async with db.unit_of_work() as s:
        await s.execute(delete(Event).where(Event.case_id == case.id, Event.seq == 2))
    async with db.read() as s:
        report = await verify_chain(s, case.id)
    assert not report.ok and report.first_broken_seq == 2


async def test_chain_continues_across_transactions(db, add_case):
    case = await _case_with_events(db, add_case, n=2)
    async with db.unit_of_work() as s:
        ev = await append_event(s, case.id, ActorRef("system"), "deadline_lapsed", "Art. 5º")
    assert ev.seq == 3
    async with db.read() as s:
        assert (await verify_chain(s, case.id)).ok


async def test_concurrent_appends_to_one_case_keep_one_chain(db, add_case):
    import asyncio

    case = await _case_with_events(db, add_case, n=1)

    async def act(n):
        async with db.unit_of_work() as s:
            await append_event(s, case.id, ActorRef("staff", n), f"note_{n}", None, {"n": n})

    await asyncio.gather(*(act(n) for n in range(10)))
    async with db.read() as s:
        report = await verify_chain(s, case.id)
    assert report.ok and report.length == 11


async def test_appending_to_a_case_object_moves_its_updated_at(db, add_case):
    from datetime import timedelta

    from core.storage.models import Case
    from core.storage.types import utcnow

    case = await _case_with_events(db, add_case, n=1)
    later = utcnow() + timedelta(hours=1)
    async with db.unit_of_work() as s:
        c = await s.get(Case, case.id)
        await append_event(s, c, ActorRef("staff", 1), "note", None, {}, at=later)
    async with db.read() as s:
        assert (await s.get(Case, case.id)).updated_at == later
