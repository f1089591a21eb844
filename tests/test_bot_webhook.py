"""Webhook mode end to end: the real bot behind bot.webhook's aiohttp server, the Bot API
stand-in POSTing updates to it as Telegram does (X-Telegram-Bot-Api-Secret-Token header)."""
from __future__ import annotations

import asyncio

import pytest
from aiohttp import ClientSession

from bot.harness import BotHarness
from core.services import conversation
from core.services.conversation import IDLE
from tests.test_bot_support import MARIA, said
from tests.core_fixtures import clock, core, make_core  # noqa: F401

SECRET = "segredo_do-webhook_123"


@pytest.fixture
async def hooked(core):  # noqa: F811
    async with BotHarness(core, webhook_secret=SECRET) as h:
        yield h


async def test_bot_registers_its_webhook_with_the_secret(hooked):
    call = hooked.api.sent(method="setWebhook")[-1]
    assert call.params["secret_token"] == SECRET
    assert call.params["url"] == f"http://127.0.0.1:{hooked.webhook.port}/telegram"
    assert hooked.api.webhook["secret_token"] == SECRET
    assert hooked.app.updater is None  # no long polling beside the webhook


async def test_update_with_the_right_secret_is_answered(hooked):
    await hooked.api.send_command(MARIA, "start")
    welcome = await said(hooked, MARIA, timeout=5)
    assert "denunciar" in welcome.text
    assert hooked.api.webhook_deliveries[-1].status == 200
    assert not hooked.api.sent(method="getUpdates", ok=None)  # not even one still waiting


@pytest.mark.parametrize("secret", ["outro-segredo", None], ids=["wrong", "missing"])
async def test_update_with_a_wrong_or_missing_secret_is_refused_and_does_nothing(
        hooked, core, secret):  # noqa: F811
    hooked.api.use_webhook(f"http://127.0.0.1:{hooked.webhook.port}/telegram", secret)
    before = len(hooked.api.sent())
    update = await hooked.api.send_command(MARIA, "denunciar")
    delivery = hooked.api.webhook_deliveries[-1]
    assert delivery.update_id == update["update_id"]
    assert delivery.status in (401, 403)
    await asyncio.sleep(0.3)  # give a (wrongly) accepted update time to be handled
    assert hooked.api.sent()[before:] == []  # no answer, no call at all
    assert (await conversation.load(core, MARIA.id)).state == IDLE  # no report started
    assert not await conversation.is_processed(core, update["update_id"])
    # the right secret again: the bot works, and the refused update left nothing behind
    hooked.api.use_webhook(f"http://127.0.0.1:{hooked.webhook.port}/telegram", SECRET)
    await hooked.api.send_command(MARIA, "denunciar")
    assert "O que você quer denunciar" in (await said(hooked, MARIA, timeout=5)).text


async def test_direct_post_without_the_secret_header_gets_403(hooked):
    url = f"http://127.0.0.1:{hooked.webhook.port}/telegram"
    update = {"update_id": 999, "message": {
        "message_id": 1, "date": 0, "text": "/start",
        "chat": {"id": MARIA.id, "type": "private", "first_name": "Maria"},
        "from": {"id": MARIA.id, "is_bot": False, "first_name": "Maria"},
        "entities": [{"type": "bot_command", "offset": 0, "length": 6}]}}
    async with ClientSession() as http:
        async with http.post(url, json=update) as resp:
            assert resp.status == 403
        async with http.post(url, json=update,
                             headers={"X-Telegram-Bot-Api-Secret-Token": SECRET + "x"}) as resp:
            assert resp.status == 403
    await asyncio.sleep(0.3)
    assert hooked.api.sent(MARIA) == []
