"""Fair under load: one user's burst never delays another user's answer, and each user's
updates stay strictly in order (bot.fairness for the handling, bot.ratelimit for Telegram's
overall message limit)."""
from __future__ import annotations

import asyncio

import pytest
from telegram import Update

from bot.fairness import FairUpdates
from sandbox.harness import BotHarness
from bot.ratelimit import FairLimiter, _CHAT
from tests.support.bot_chat import MARIA, said

# The end-to-end flood counts answers sent while Maria's one is handled: alone on the machine.
pytestmark = pytest.mark.serial


def _update(update_id: int, user_id: int) -> Update:
    return Update.de_json({"update_id": update_id, "message": {
        "message_id": update_id, "date": 0, "text": f"m{update_id}",
        "chat": {"id": user_id, "type": "private", "first_name": "X"},
        "from": {"id": user_id, "is_bot": False, "first_name": "X"}}}, None)


async def test_a_burst_is_handled_in_order_and_a_quiet_user_goes_next():
    processor = FairUpdates(slots=1)
    started: list[tuple[int, int]] = []
    gates: dict[int, asyncio.Event] = {}

    async def handle(update: Update) -> None:
        started.append((update.effective_user.id, update.update_id))
        gates[update.update_id] = gate = asyncio.Event()
        await gate.wait()

    tasks = [asyncio.create_task(processor.process_update(u, handle(u)))
             for u in (_update(i, 1) for i in range(1, 11))]  # a burst of ten from user 1
    await asyncio.sleep(0)
    tasks.append(asyncio.create_task(processor.process_update(_update(50, 2), handle(_update(50, 2)))))
    await asyncio.sleep(0.01)
    assert started == [(1, 1)] and processor.waiting(1) == 9 and processor.waiting(2) == 1
    while len(started) < 11:
        gates[started[-1][1]].set()
        await asyncio.sleep(0.01)
    gates[started[-1][1]].set()
    await asyncio.gather(*tasks)
    # user 2 came after all ten of user 1, but is served right after the one running then
    assert started[1] == (2, 50)
    assert [u for _, u in started if _ == 1] == list(range(1, 11))  # strictly in order


async def test_one_user_never_runs_two_updates_at_once_even_with_free_slots():
    processor = FairUpdates(slots=8)
    running, most = 0, 0

    async def handle() -> None:
        nonlocal running, most
        running += 1
        most = max(most, running)
        await asyncio.sleep(0.005)
        running -= 1

    await asyncio.gather(*[processor.process_update(_update(i, 7), handle()) for i in range(6)])
    assert most == 1 and processor.running == 0


async def test_busy_while_an_update_of_the_user_runs_or_waits():
    """What an album's acknowledgement waits for (bot/citizen/photos.py): the user's next
    photo, started or still in line."""
    processor = FairUpdates(slots=1)
    gate = asyncio.Event()
    first = asyncio.create_task(processor.process_update(_update(1, 7), gate.wait()))
    await asyncio.sleep(0.01)
    assert processor.busy(7) and not processor.busy(8)
    second = asyncio.create_task(processor.process_update(_update(2, 7), asyncio.sleep(0)))
    await asyncio.sleep(0.01)
    assert processor.waiting(7) == 1 and processor.busy(7)
    gate.set()
    await asyncio.gather(first, second)
    assert not processor.busy(7)


async def test_a_cancelled_waiting_update_frees_its_place():
    processor = FairUpdates(slots=1)
    gate = asyncio.Event()
    first = asyncio.create_task(processor.process_update(_update(1, 1), gate.wait()))
    second = asyncio.create_task(processor.process_update(_update(2, 1), asyncio.sleep(0)))
    await asyncio.sleep(0.01)
    second.cancel()
    gate.set()
    await first
    with pytest.raises(asyncio.CancelledError):
        await second
    third = processor.process_update(_update(3, 3), asyncio.sleep(0))
    await asyncio.wait_for(third, 1)
    assert processor.running == 0 and processor.waiting(1) == 0


async def test_a_backlog_past_its_limit_is_dropped_and_told_memory_stays_bounded():
    shed: list[int] = []
    processor = FairUpdates(slots=1, max_waiting=3, on_shed=lambda u: shed.append(u.update_id))
    gate, handled = asyncio.Event(), []

    async def handle(update: Update) -> None:
        await gate.wait()
        handled.append(update.update_id)

    tasks = [asyncio.create_task(processor.process_update(u, handle(u)))
             for u in (_update(i, 1) for i in range(1, 11))]
    await asyncio.sleep(0.01)
    assert processor.waiting(1) == 3 and processor.shed == 6 and shed == list(range(5, 11))
    gate.set()
    await asyncio.gather(*tasks)
    assert handled == [1, 2, 3, 4]  # the ones kept, in order


async def test_the_message_limit_serves_a_quiet_chat_before_a_busy_chats_queue():
    limiter = FairLimiter(max_rate=1, time_period=0.02)  # one message per 20 ms
    order: list[str] = []

    async def send(chat: str) -> None:
        _CHAT.set(chat)
        async with limiter:
            order.append(chat)

    busy = [asyncio.create_task(send("busy")) for _ in range(8)]
    await asyncio.sleep(0.03)  # the busy chat has used the limit already
    quiet = asyncio.create_task(send("quiet"))
    await asyncio.gather(*busy, quiet)
    assert order.index("quiet") <= 3  # not behind the busy chat's queue (it was 8th)
    assert len(order) == 9


async def test_a_citizens_answer_is_not_queued_behind_a_flood_end_to_end(core):
    """Twenty accounts send 3 messages each to a bot allowed 5 messages a second (12 s of
    answers). Once each has had an answer, Maria's /ajuda goes out next, not after one more
    answer of each of them (as when the overall limit served messages in arrival order)."""
    async with BotHarness(core, overall_max_rate=5) as h:
        flooders = [type(MARIA)(5000 + i, f"F{i}") for i in range(20)]
        for _ in range(3):
            for f in flooders:
                await h.api.send_text(f, "oi")

        def flood_answers() -> int:
            return sum(len(h.api.sent(f, "sendMessage")) for f in flooders)

        await h.api.wait_for(lambda c: flood_answers() >= 22, timeout=10)  # all served once
        before = flood_answers()
        await h.api.send_command(MARIA, "ajuda")
        await said(h, MARIA, "Como denunciar", timeout=10)
        assert flood_answers() - before <= 3  # arrival order: ~20 (one waiting per account)
        assert flood_answers() < 60  # the flood is still being answered
