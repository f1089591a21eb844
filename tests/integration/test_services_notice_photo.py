"""The photo of the notice affixed, when it never came (Dores Art. 4º, II, a: the notice is
printed, affixed "no vidro ou lataria do veículo", then photographed affixed): the inspector
is reminded from the next business day, at most once a day and on business days only, until
the photo is recorded; after 3 business days the case is in the staff's queue too. Driven by
the real steps (step_forms.perform_step, record_after_step) and the periodic job."""
from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from core.services.inspectors.notice_photo import STAFF_AFTER, notice_photo_reminders
from core.services.periodic import run_periodic
from core.services.staff.queue import NO_NOTICE_PHOTO, staff_queue
from core.services.inspectors.step_forms import perform_step, record_after_step
from core.storage.models import OutboxMessage
from tests.support.step_cases import held_case

SP = ZoneInfo("America/Sao_Paulo")
ANA = 901
SIGNS = ["days_in_place", "missing_tyres", "no_engine"]


@pytest.fixture
async def core(make_core):
    return await make_core(telegram_bot_username="ViaLivreTesteBot")  # the notice's QR link


async def affixed(core, photo):
    """Ana holds a vehicle case and affixes the notice (Art. 4º, II, a), Tuesday 01/12/2026;
    the printed notice is issued, its photo is not sent."""
    protocol = await held_case(core, photo, ANA)
    await perform_step(core, ANA, protocol, "affix_notice",
                       {"abandonment_criteria": SIGNS, "notification_number": "N-7/2026"})
    return protocol


async def reminders(core) -> list[OutboxMessage]:
    async with core.db.read() as s:
        return (await s.execute(select(OutboxMessage).where(
            OutboxMessage.chat_id == ANA, OutboxMessage.kind == "notice_photo_reminder")
            .order_by(OutboxMessage.id))).scalars().all()


def at(day: int, hour: int = 9) -> datetime:
    return datetime(2026, 12, day, hour, tzinfo=SP)


async def in_queue(core) -> list[str]:
    return [it.protocol for it in (await staff_queue(core)).items if it.reason == NO_NOTICE_PHOTO]


async def test_reminded_from_the_next_business_day_once_a_day_art_4_II_a(core, photo, clock):
    protocol = await affixed(core, photo)
    assert (await notice_photo_reminders(core)).queued == []  # the same day: not yet
    clock.now = at(2)  # Wednesday: the next business day
    assert (await notice_photo_reminders(core)).queued == [(protocol, at(2).date())]
    clock.now = at(2, 17)
    assert (await notice_photo_reminders(core)).queued == []  # at most once a day
    [sent] = await reminders(core)
    text = sent.payload["text"]
    assert protocol in text and "01/12/2026" in text and "Art. 4º, II, a" in text
    [[button]] = sent.payload["buttons"]
    assert button["intent"] == "notice.photo" and button["case"] == protocol
    clock.now = at(3)  # Thursday: again, through the periodic job itself
    assert (await run_periodic(core)).notice_photos.queued == [(protocol, at(3).date())]
    clock.now = at(5, 10)  # Saturday: no reminder on a day off
    assert (await notice_photo_reminders(core)).queued == []
    assert len(await reminders(core)) == 2


async def test_staff_see_it_after_three_business_days_and_it_stops_once_sent(core, photo,
                                                                             clock):
    assert STAFF_AFTER == 3
    protocol = await affixed(core, photo)
    clock.now = at(3)  # two business days after the step: still the inspector's
    assert await in_queue(core) == []
    clock.now = at(4)  # Friday, the 3rd business day
    assert await in_queue(core) == [protocol]
    [item] = [it for it in (await staff_queue(core)).items if it.protocol == protocol]
    assert item.reason_label == "Notificação afixada sem foto"
    assert "Ana" in item.detail and "01/12/2026" in item.detail and "Art. 4º, II, a" in item.detail
    # the inspector sends it (the reminder's button asks it again): everything stops
    sha = core.evidence.put(b"\xff\xd8" + bytes(400))
    await record_after_step(core, ANA, protocol, "affix_notice", [sha])
    assert await in_queue(core) == []
    clock.now = at(7)  # Monday
    assert (await notice_photo_reminders(core)).queued == []


async def test_a_photo_sent_right_after_the_step_means_no_reminder(core, photo, clock):
    protocol = await affixed(core, photo)
    sha = core.evidence.put(b"\xff\xd8" + bytes(300))
    await record_after_step(core, ANA, protocol, "affix_notice", [sha])
    clock.now = at(2)
    assert (await notice_photo_reminders(core)).queued == []
    clock.now = at(10)
    assert await in_queue(core) == []
