"""Owner reminders through the bot's periodic loop and the outbox sender: 3 days and 1 day
before the deadline (Art. 4º, I), on removal and on auction eligibility (Art. 3º, caput; CTB
art. 328) — each delivered once however often the loop runs."""
from __future__ import annotations

import asyncio
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest

from sandbox.harness import BotHarness
from core.identifiers import format_case_code
from core.services.owners.reminders import owner_reminders
from tests.support.owner_chat import JOSE, open_by_qr
from tests.support.owner_cases import in_depot, notified

SP = ZoneInfo("America/Sao_Paulo")


@pytest.fixture
async def fast(core):
    """The sweep-and-remind loop every 50 ms."""
    async with BotHarness(core, sweep_interval_s=0.05) as h:
        yield h


def delivered(h, text: str) -> list[str]:
    return [c.text for c in h.api.sent(JOSE, "sendMessage") if text in (c.text or "")]


async def settle(h, text: str) -> list[str]:
    """Wait for a delivery containing `text`, then let the loop run many more times."""
    await h.api.wait_for(method="sendMessage", chat_id=JOSE, text=text, since=0)
    await asyncio.sleep(0.5)
    return delivered(h, text)


async def test_three_days_and_one_day_before_the_deadline_once_each_art_4_I(fast, core, photo,
                                                                             clock):
    sub = await notified(core, photo)  # due Friday 11/12/2026
    await open_by_qr(fast, JOSE, sub.case_code)
    clock.now = datetime(2026, 12, 9, 12, tzinfo=SP)
    [d3] = await settle(fast, "menos de 3 dias")
    assert "11/12/2026" in d3 and "Art. 4º, I" in d3 and "Maria" not in d3
    clock.now = datetime(2026, 12, 11, 10, tzinfo=SP)
    [d1] = await settle(fast, "menos de 1 dia")
    assert format_case_code(sub.case_code) in d1
    assert len(delivered(fast, "menos de 3 dias")) == 1
    # the loop function itself, run twice more: nothing new to queue
    assert (await owner_reminders(core)).queued == []
    assert (await owner_reminders(core)).queued == []


async def test_removal_and_auction_once_each_art_3_ctb_328(fast, core, photo, clock):
    clock.now = datetime(2026, 12, 22, 10, tzinfo=SP)
    sub, res = await in_depot(core, photo)
    await open_by_qr(fast, JOSE, sub.case_code)
    [removed] = await settle(fast, "foi removido")
    assert "endereço do pátio ainda não definido" in removed  # never the placeholder
    assert core.settings.depot_address not in removed and core.settings.depot_hours in removed
    # the law's dates, as the termo and the owner's view state them (Art. 6º, caput; Art. 3º)
    assert "Prazo para retirada: até 04/01/2027, 10 dias contados da remoção (Art. 6º, " \
           "caput)." in removed
    clock.now = datetime.fromisoformat(res.deadline["due_at"]).astimezone(timezone.utc)
    clock.advance(hours=1)  # the loop's sweep makes it eligible for auction, then reminds
    [auction] = await settle(fast, "o prazo para retirar terminou")
    assert "CTB art. 328" in auction
    assert len(delivered(fast, "foi removido")) == 1
