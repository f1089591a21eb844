"""Delivery under a bad day, through the real bot and the Bot API stand-in: a Bot API outage
(every call answers 502) then recovery, refused connections then recovery, a 429 for one
chat, a 429 storm, and a direct reply that fails at the moment it is sent. Nothing is lost, each chat gets its messages in order,
and after an outage the queue is out within seconds (15 s at most), however long it lasted.

The outage lasts FAULT_OUTAGE_S seconds (6 by default; set 60 for the full-length run): the
recovery time does not depend on it, because while Telegram is down one message probes it at
most bot.sender.PROBE_MAX_S apart (tests/unit/test_delivery_probe.py checks that for 60 s)."""
from __future__ import annotations

import asyncio
import os
import socket
import time

import pytest
from sqlalchemy import select, update
from telegram.ext import ExtBot

from bot.loops import LoopSettings, outbox_loop
from bot.ratelimit import RateLimiter
from bot.sender import PROBE_MAX_S, DeliveryState
from sandbox.standin.botapi import BotApiStandIn, User
from core.storage import outbox
from core.storage.models import OutboxMessage, Person
from core.storage.types import utcnow
from tests.support.fault_figures import figures, report, queue, received, until_delivered
from tests.support.bot_chat import MARIA, full_report, press, said

pytestmark = pytest.mark.faults
OUTAGE_S = float(os.environ.get("FAULT_OUTAGE_S", "6"))
USERS = [User(3001 + i, f"Pessoa {i}") for i in range(4)]
CHATS = [u.id for u in USERS]


def _known(bot) -> None:
    for u in USERS:
        bot.api.add_user(u)


async def test_outage_then_recovery_every_message_in_order_within_15_s(bot, core):
    _known(bot)
    expected = await queue(core.db, CHATS, 2)  # some go out before the outage
    await until_delivered(bot.api, expected, 10)
    bot.api.fail_next("*", 502, times=20_000)  # the Bot API answers 502 to everything
    started = time.monotonic()
    more = await queue(core.db, CHATS, 6, start=2)  # queued while it is down
    for chat in CHATS:
        expected[chat] += more[chat]
    await asyncio.sleep(max(0.0, OUTAGE_S - (time.monotonic() - started)))
    probes = [c for c in bot.api.sent(ok=False) if c.method == "sendMessage"]
    bot.api.clear_faults()
    recovered = time.time()
    last = await until_delivered(bot.api, expected, 30)
    fig = figures(bot.api, expected)
    fig.recovery_s = last - recovered
    report(fig, f"outage {OUTAGE_S:.0f} s (502)")
    assert fig.lost == 0 and fig.out_of_order == 0 and fig.duplicated == 0
    assert fig.recovery_s <= 15
    # while down, one message at a time probed Telegram (not the whole queue every time)
    assert len(probes) <= OUTAGE_S + 2


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_refused_connections_then_recovery_through_the_outbox_loop(core):
    """The Bot API host refuses connections (nothing listens), then answers: the outbox loop
    probes, counts no attempt against the messages, and delivers them all, in order, within
    seconds of the host coming back."""
    async with BotApiStandIn() as api:
        for u in USERS:
            api.add_user(u)
        state, loops = DeliveryState(), LoopSettings(outbox_interval_s=0.1)
        dead = ExtBot(api.token, base_url=f"http://127.0.0.1:{_closed_port()}/bot",
                      rate_limiter=RateLimiter())
        live = ExtBot(api.token, base_url=api.bot_base_url, rate_limiter=RateLimiter())
        expected = await queue(core.db, CHATS, 4)
        down = asyncio.create_task(outbox_loop(dead, core, loops, asyncio.Event(), state))
        await asyncio.sleep(min(OUTAGE_S, 4.0))
        down.cancel()
        await asyncio.gather(down, return_exceptions=True)
        assert state.destination.is_down
        async with core.db.read() as s:
            rows = (await s.execute(select(OutboxMessage))).scalars().all()
        assert {(r.status, r.attempts) for r in rows} == {("pending", 0)}  # none used up
        recovered = time.time()
        up = asyncio.create_task(outbox_loop(live, core, loops, asyncio.Event(), state))
        try:
            last = await until_delivered(api, expected, 20)
        finally:
            up.cancel()
            await asyncio.gather(up, return_exceptions=True)
    fig = figures(api, expected)
    fig.recovery_s = last - recovered
    report(fig, "connections refused")
    assert fig.lost == 0 and fig.out_of_order == 0 and fig.duplicated == 0
    assert fig.recovery_s <= PROBE_MAX_S + 3


async def test_429_for_one_chat_does_not_hold_the_others(bot, core):
    _known(bot)
    a, b = USERS[0].id, USERS[1].id
    bot.api.fail_next("sendMessage", 429, retry_after=3)
    expected = await queue(core.db, [a, b], 2)
    await until_delivered(bot.api, {b: expected[b]}, 5)
    refused = next(c for c in bot.api.sent(ok=False) if c.error_code == 429)
    assert refused.chat_id == a
    b_done = max(t for t, _ in received(bot.api, b))
    assert b_done - refused.time < 2  # no global pause for another chat's 429
    await until_delivered(bot.api, expected, 10)
    first_a = min(t for t, _ in received(bot.api, a))
    assert first_a - refused.time >= 2.9  # retry_after honoured for chat a
    assert figures(bot.api, expected).out_of_order == 0


async def test_429_storm_each_chat_in_order_and_retry_after_honoured(bot, core):
    _known(bot)
    bot.api.add_rate_rule(1, 1.0)  # Telegram-like: one message per chat per second, else 429
    expected = await queue(core.db, CHATS, 5)
    started = time.time()
    last = await until_delivered(bot.api, expected, 30)
    fig = figures(bot.api, expected)
    fig.recovery_s = last - started
    too_many = [c for c in bot.api.sent(ok=False) if c.error_code == 429]
    report(fig, f"429 storm ({len(too_many)} × 429)")
    assert fig.lost == 0 and fig.out_of_order == 0 and fig.duplicated == 0
    for c in too_many:  # nothing sent to that chat before its retry_after
        wait = int(c.description.rsplit(" ", 1)[1])
        later = [x.time for x in bot.api.sent(c.chat_id, ok=None) if x.time > c.time]
        assert not later or later[0] >= c.time + wait - 0.05


async def test_direct_reply_failing_at_that_moment_arrives_after_recovery(bot, core):
    """The Bot API fails the reply's call (502, then 429): the answer is
    queued durably and arrives; the next answers come after it, in order."""
    bot.api.fail_next("sendMessage", 502, times=3)
    await bot.api.send_command(MARIA, "denunciar")
    question = await said(bot, MARIA, "O que você quer denunciar", timeout=10)
    failed = [c for c in bot.api.sent(MARIA, ok=False) if c.error_code == 502]
    assert failed and question.time > failed[-1].time
    bot.api.fail_next("sendMessage", 429, retry_after=2)
    call = await press(bot, MARIA, "Veículo motorizado")
    photos = await said(bot, MARIA, "Envie de 1 a 10 fotos", timeout=10)
    refused = next(c for c in bot.api.sent(MARIA, ok=False) if c.error_code == 429)
    assert call is None and photos.time - refused.time >= 1.9
    texts = [c.text for c in bot.api.sent(MARIA, "sendMessage")]
    assert texts.index(question.text) < texts.index(photos.text)


async def test_edit_failing_at_that_moment_comes_as_a_new_message(bot, core):
    """A button that redraws its message (/minhas → Parar avisos): when the edit fails with a
    502, the new text still reaches the person, as a new message."""
    protocol = await full_report(bot, MARIA)
    await bot.api.send_command(MARIA, "minhas")
    await said(bot, MARIA, f"Protocolo {protocol}")
    bot.api.fail_next("editMessageText", 502)
    await press(bot, MARIA, "Parar avisos")
    redrawn = await said(bot, MARIA, "Avisos: desligados", timeout=10)
    assert protocol in redrawn.text and "Retomar avisos" in str(redrawn.reply_markup)


async def test_a_message_the_sender_cannot_build_ends_as_a_dead_letter(bot, core):
    """A malformed payload (a button without its data) does not hold its chat forever: it is
    counted, backs off, becomes a dead letter, and the chat's next message goes out."""
    _known(bot)
    chat = USERS[0].id
    async with core.db.unit_of_work() as s:
        await outbox.enqueue(s, chat, "case_update",
                             {"text": "quebrada", "buttons": [[{"text": "x"}]]}, "bad:1")
    expected = await queue(core.db, [chat], 1)
    for _ in range(100):  # skip the backoff waits between its attempts
        async with core.db.unit_of_work() as s:
            await s.execute(update(OutboxMessage).where(
                OutboxMessage.dedupe_key == "bad:1", OutboxMessage.status == "pending")
                .values(next_attempt_at=utcnow()))
            status = (await s.execute(select(OutboxMessage.status).where(
                OutboxMessage.dedupe_key == "bad:1"))).scalar_one()
        if status == "failed":
            break
        await asyncio.sleep(0.1)
    await until_delivered(bot.api, expected, 10)
    async with core.db.read() as s:
        bad = (await s.execute(select(OutboxMessage).where(
            OutboxMessage.dedupe_key == "bad:1"))).scalar_one()
    assert bad.status == "failed" and "KeyError" in bad.last_error
    assert bad.attempts == outbox.MAX_ATTEMPTS


async def test_answer_to_a_person_who_blocked_the_bot_marks_them_until_they_write(bot, core):
    """A 403 on a direct answer (here a redrawn view) records the block on the person;
    writing to the bot again clears it."""
    protocol = await full_report(bot, MARIA)
    await bot.api.send_command(MARIA, "minhas")
    await said(bot, MARIA, f"Protocolo {protocol}")
    bot.api.fail_next("editMessageText", 403)  # she blocked the bot meanwhile
    await press(bot, MARIA, "Parar avisos")
    await bot.api.wait_for(method="editMessageText", chat_id=MARIA, ok=False)

    async def blocked_at():
        async with core.db.read() as s:
            return (await s.execute(select(Person.blocked_bot_at).where(
                Person.telegram_id == MARIA.id))).scalar_one()

    for _ in range(50):
        if await blocked_at() is not None:
            break
        await asyncio.sleep(0.05)
    assert await blocked_at() is not None
    await bot.api.send_command(MARIA, "ajuda")  # she unblocks the bot and writes
    await said(bot, MARIA, "Como denunciar")
    assert await blocked_at() is None
