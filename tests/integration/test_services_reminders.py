"""Reminders to linked owners: 3 days and 1 day before a deadline, on removal, when the object
becomes eligible for auction — each sent once, none after the case closed (on every engine)."""
from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from sqlalchemy import select

from core.services.cases.transitions import apply_transition
from core.services.owners import link_by_code
from core.services.owners.reminders import owner_reminders
from core.services.cases.sweep import sweep_deadlines
from core.storage.models import OutboxMessage
from tests.support.owner_cases import FISCAL, OWNER, in_depot, notified

SP = ZoneInfo("America/Sao_Paulo")


async def reminders_sent(core):
    async with core.db.read() as s:
        return (await s.execute(select(OutboxMessage).where(
            OutboxMessage.chat_id == OWNER, OutboxMessage.kind == "owner_reminder")
            .order_by(OutboxMessage.id))).scalars().all()


async def test_three_days_and_one_day_before_the_deadline_once_art_4_I(core, photo, clock):
    sub = await notified(core, photo)  # due Friday 11/12/2026 (Art. 4º, I)
    await link_by_code(core, OWNER, sub.case_code)
    assert (await owner_reminders(core)).queued == []
    clock.now = datetime(2026, 12, 9, 12, tzinfo=SP)
    assert (await owner_reminders(core)).queued == [(sub.protocol, "d3")]
    assert (await owner_reminders(core)).queued == []  # idempotent across runs
    clock.now = datetime(2026, 12, 11, 10, tzinfo=SP)
    assert (await owner_reminders(core)).queued == [(sub.protocol, "d1")]
    assert (await owner_reminders(core)).queued == []
    msgs = await reminders_sent(core)
    assert len(msgs) == 2
    assert "11/12/2026" in msgs[0].payload["text"] and "Art. 4º, I" in msgs[0].payload["text"]
    assert "Maria" not in msgs[0].payload["text"]
    clock.now = datetime(2026, 12, 12, 10, tzinfo=SP)  # past the deadline: no more
    assert (await owner_reminders(core)).queued == []


async def test_removal_and_auction_eligibility_once_each_art_3_ctb_328(core, photo, clock):
    clock.now = datetime(2026, 12, 22, 10, tzinfo=SP)
    sub, res = await in_depot(core, photo)
    await link_by_code(core, OWNER, sub.case_code)
    assert (await owner_reminders(core)).queued == [(sub.protocol, "removed")]
    assert (await owner_reminders(core)).queued == []
    [removed] = await reminders_sent(core)
    assert "endereço do pátio ainda não definido" in removed.payload["text"]  # never the
    assert core.settings.depot_address not in removed.payload["text"]  # placeholder
    clock.now = datetime.fromisoformat(res.deadline["due_at"]).astimezone(timezone.utc)
    clock.advance(hours=1)
    await sweep_deadlines(core)  # Art. 3º, caput: 60 days → eligible for auction
    assert (await owner_reminders(core)).queued == [(sub.protocol, "auction")]
    assert (await owner_reminders(core)).queued == []
    auction = (await reminders_sent(core))[-1]
    assert "leilão" in auction.payload["text"] and "CTB art. 328" in auction.payload["text"]


async def test_nothing_after_the_case_closed(core, photo, clock):
    sub = await notified(core, photo)
    await link_by_code(core, OWNER, sub.case_code)
    # Art. 6º, §3º: the owner removed it; the inspector confirms and the case closes
    await apply_transition(core, sub.protocol, "confirm_owner_removed", FISCAL,
                           {"verification_notes": "Veículo retirado"}, agency="posturas")
    clock.now = datetime(2026, 12, 11, 10, tzinfo=SP)
    assert (await owner_reminders(core)).queued == []
    assert await reminders_sent(core) == []
    # the owner was told the case closed, once, as a case update
    async with core.db.read() as s:
        updates = (await s.execute(select(OutboxMessage).where(
            OutboxMessage.chat_id == OWNER, OutboxMessage.kind == "case_update"))).scalars().all()
    assert len(updates) == 1 and "retirado pelo proprietário" in updates[0].payload["text"]

