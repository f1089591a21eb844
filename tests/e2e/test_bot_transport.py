"""The bot over the aiohttp transport (bot/transport.py), end to end against the stand-in:
answers, photo download into the evidence store, and a 429's retry_after honoured."""
from __future__ import annotations

import hashlib

import pytest

from sandbox.harness import BotHarness
from tests.support.bot_chat import MARIA, jpeg, said, start_report


@pytest.fixture
async def bot(core):
    async with BotHarness(core, transport="aiohttp") as h:
        yield h


async def test_start_is_answered_over_aiohttp(bot):
    assert type(bot.app.bot.request).__name__ == "AiohttpRequest"
    await bot.api.send_command(MARIA, "start")
    assert "denunciar" in (await said(bot, MARIA)).text


async def test_photo_is_downloaded_and_stored_over_aiohttp(bot, core):
    await start_report(bot, MARIA)
    photo = jpeg(7)
    await bot.api.send_photo(MARIA, photo)
    await said(bot, MARIA, "1 foto recebida")
    assert bot.api.sent(method="getFile")
    assert core.evidence.exists(hashlib.sha256(photo).hexdigest())  # the very bytes sent


async def test_429_retry_after_is_honoured_over_aiohttp(bot):
    bot.api.fail_next("sendMessage", 429, retry_after=1)
    await bot.api.send_command(MARIA, "ajuda")
    answer = await said(bot, MARIA, timeout=5)
    failed = [c for c in bot.api.sent(MARIA, "sendMessage", ok=False)]
    assert failed and failed[0].error_code == 429
    assert answer.time - failed[0].time >= 0.9  # waited as Telegram asked
