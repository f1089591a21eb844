"""The day's notices (core.services.inspectors.day_notices), at the core: a notice printed in the
morning is the document the affixing step records that day (Dores Art. 4º, II, a), with the
deadline the step counts, whatever the hour of printing and of affixing; printed another day,
or by another inspector, it is refused and nothing is recorded."""
from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from core.services.inspectors.day_notices import PREPARED_EVENT, prepare_day_notices
from core.services.papers.documents import DocumentUnavailable
from core.services.inspectors.accounts import actor_ref
from core.services.inspectors.step_forms import perform_step
from core.storage.models import Case, Event, Inspector
from tests.support.step_cases import held_case

SP = ZoneInfo("America/Sao_Paulo")
ANA = 901
SIGNS = ["days_in_place", "missing_tyres", "no_engine"]


@pytest.fixture
async def core(make_core):
    return await make_core(telegram_bot_username="ViaLivreTesteBot")


async def _ana(core) -> Inspector:
    async with core.db.read() as s:
        return (await s.execute(select(Inspector))).scalar_one()


async def _events(core, protocol: str, action: str) -> list[dict]:
    async with core.db.read() as s:
        case = (await s.execute(select(Case).where(Case.protocol == protocol))).scalar_one()
        return [e.data for e in (await s.execute(select(Event).where(
            Event.case_id == case.id, Event.action == action))).scalars()]


@pytest.mark.parametrize("printed, later", [(0, 0), (1, 600), (11, 359)])
async def test_the_printed_notice_is_the_recorded_one_with_the_steps_deadline_art_4_II_a(
        core, photo, clock, printed, later):
    """Printed at 06:00, 07:00 or 17:00 and affixed up to 10 hours later, the same day."""
    clock.now = datetime(2026, 12, 1, 6, tzinfo=SP) + timedelta(hours=printed)
    protocol = await held_case(core, photo, ANA)
    ana = await _ana(core)
    day = await prepare_day_notices(core, ana.id, actor_ref(ana))
    assert [n.protocol for n in day.notices] == [protocol]
    clock.now += timedelta(minutes=later)  # affixed later that day (before 23:59)
    done = await perform_step(core, ANA, protocol, "affix_notice",
                              {"abandonment_criteria": SIGNS, "notice_paper": "prepared"})
    prepared = (await _events(core, protocol, PREPARED_EVENT))[0]
    issued = (await _events(core, protocol, "document_issued"))[-1]
    assert done.documents[0][0] == issued["sha256"] == prepared["sha256"] \
        == day.notices[0].sha256
    assert prepared["basis"]["deadline"]["due"] == done.result.deadline["due"]
    assert issued["basis"]["prepared"] is True


async def test_a_notice_printed_yesterday_is_refused_and_nothing_recorded(core, photo, clock):
    protocol = await held_case(core, photo, ANA)
    ana = await _ana(core)
    await prepare_day_notices(core, ana.id, actor_ref(ana))
    clock.advance(days=1)
    with pytest.raises(DocumentUnavailable, match="outro dia"):
        await perform_step(core, ANA, protocol, "affix_notice",
                           {"abandonment_criteria": SIGNS, "notice_paper": "prepared"})
    assert await _events(core, protocol, "document_issued") == []
    async with core.db.read() as s:
        state = (await s.execute(select(Case.state).where(Case.protocol == protocol))
                 ).scalar_one()
    assert state == "diligence"


async def test_printing_for_a_past_day_is_refused(core, photo, clock):
    await held_case(core, photo, ANA)
    ana = await _ana(core)
    from core.services.errors import InvalidInput
    with pytest.raises(InvalidInput, match="hoje"):
        await prepare_day_notices(core, ana.id, actor_ref(ana),
                                  (clock.now - timedelta(days=2)).date())
