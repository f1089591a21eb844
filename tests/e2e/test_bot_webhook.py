"""Webhook mode end to end: the real bot behind bot.webhook's aiohttp server, the Bot API
stand-in POSTing updates to it as Telegram does (X-Telegram-Bot-Api-Secret-Token header)."""
from __future__ import annotations

import asyncio

import pytest
from aiohttp import ClientSession

from sandbox.harness import BotHarness
from core.services.messaging import conversation
from core.services.messaging.conversation import IDLE
from tests.support.bot_chat import MARIA, said

SECRET = "segredo_do-webhook_123"


@pytest.fixture
async def hooked(core):
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
        hooked, core, secret):
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


async def _raw_post(port: int, headers: bytes, body: bytes) -> int:
    """A POST written byte by byte (a header aiohttp's client would not send), its status."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"POST /telegram HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                 b"Content-Type: application/json\r\n" + headers
                 + b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
    await writer.drain()
    status_line = await reader.readline()
    writer.close()
    return int(status_line.split()[1])


async def test_hostile_calls_are_refused_never_a_500(hooked):
    """A secret header that is not UTF-8 (refused before anything is read), and, with the
    right secret, JSON nested far too deep (a RecursionError in the parser) or deeper than
    any update: 403 and 400, nothing handled, and the bot still works."""
    port = hooked.webhook.port
    update = b'{"update_id": 4242, "message": %s}'
    statuses = [
        await _raw_post(port, b"X-Telegram-Bot-Api-Secret-Token: \xff\xfe\xc3(\r\n", b"{}"),
        await _raw_post(port, b"X-Telegram-Bot-Api-Secret-Token: " + SECRET.encode()
                        + b"\xff\r\n", b"{}"),
        await _raw_post(port, b"X-Telegram-Bot-Api-Secret-Token: " + SECRET.encode() + b"\r\n",
                        b"[" * 100_000 + b"]" * 100_000),
        await _raw_post(port, b"X-Telegram-Bot-Api-Secret-Token: " + SECRET.encode() + b"\r\n",
                        update % (b'{"a":' * 500 + b"1" + b"}" * 500)),
    ]
    assert statuses == [403, 403, 400, 400]
    await asyncio.sleep(0.3)
    assert hooked.api.sent(MARIA) == []
    assert not await conversation.is_processed(hooked.core, 4242)
    await hooked.api.send_command(MARIA, "start")
    assert "denunciar" in (await said(hooked, MARIA, timeout=5)).text
