"""What arrives from Telegram that is not a readable update: the
webhook answers 400 to a body that is not an update; an update python-telegram-bot cannot
parse is skipped (its offset acknowledged), counted and logged once, in polling and in
webhook mode; the next good update is answered and the log stays small."""
from __future__ import annotations

import asyncio
import logging

import pytest
from aiohttp import ClientSession

from sandbox.harness import BotHarness
from bot.intake import Throttle
from bot.state import state_of
from tests.support.bot_chat import MARIA, said

SECRET = "segredo_do-webhook_123"
POISON = {"message": {"message_id": "não é número", "chat": "nem objeto", "text": 5}}


@pytest.fixture(params=["polling", "webhook"])
async def harness(request, core):
    async with BotHarness(core, webhook_secret=SECRET if request.param == "webhook" else None
                          ) as h:
        yield h


async def test_an_unparsable_update_is_skipped_counted_and_logged_once(harness, caplog):
    caplog.set_level(logging.INFO)
    poison = await harness.api.inject(dict(POISON))
    await harness.api.send_command(MARIA, "start")
    assert "denunciar" in (await said(harness, MARIA, timeout=10)).text
    await asyncio.sleep(0.5)  # time for a (wrong) endless re-fetch to show in the log
    assert state_of(harness.app).unparsable.count == 1
    skipped = [r for r in caplog.records if "unparsable update" in r.getMessage()]
    assert len(skipped) == 1 and str(poison["update_id"]) in skipped[0].getMessage()
    assert len(caplog.records) < 200 and len(caplog.text) < 100_000
    if harness.webhook is None:  # polling: the offset moved past it, it is never fetched again
        polls = [c for c in harness.api.sent(method="getUpdates", ok=None)  # or still waiting
                 if int(c.params.get("offset") or 0) > poison["update_id"]]
        assert polls
        assert not [p for p in harness.api._pending if p.update_id == poison["update_id"]]
    else:
        assert harness.api.webhook_deliveries[0].status == 400


async def test_many_poison_updates_in_a_row_never_block_the_bot(harness, caplog):
    for _ in range(30):
        await harness.api.inject(dict(POISON))
    await harness.api.send_command(MARIA, "ajuda")
    await said(harness, MARIA, "Como denunciar", timeout=10)
    assert state_of(harness.app).unparsable.count == 30
    # identical errors are summarised, not written 30 times
    assert len([r for r in caplog.records if "unparsable update" in r.getMessage()]) <= 2


@pytest.mark.parametrize("body", ["[]", '"x"', "{}", '{"update_id": "7"}', '{"update_id": true}',
                                  '{"update_id": 7, "message": "x"}',
                                  '{"update_id": 7, "callback_query": {"id": "1"}}',
                                  "não é json", "\xff\xfe"],
                         ids=["list", "string", "empty", "text-id", "bool-id", "message-text",
                              "half-callback", "not-json", "not-utf8"])
async def test_webhook_answers_400_to_a_body_that_is_not_an_update(core, body):
    async with BotHarness(core, webhook_secret=SECRET) as h:
        url = f"http://127.0.0.1:{h.webhook.port}/telegram"
        headers = {"X-Telegram-Bot-Api-Secret-Token": SECRET,
                   "Content-Type": "application/json"}
        async with ClientSession() as http:
            async with http.post(url, data=body.encode("latin-1", "replace")
                                 if body == "\xff\xfe" else body.encode(),
                                 headers=headers) as resp:
                assert resp.status == 400
        assert state_of(h.app).unparsable.count == 1
        await h.api.send_command(MARIA, "start")  # the bot goes on
        await said(h, MARIA, "denunciar", timeout=10)


def test_throttle_logs_a_repeated_error_once_per_period_with_the_count(caplog):
    now = [0.0]
    throttle = Throttle(every_s=60, clock=lambda: now[0])
    log = logging.getLogger("tests.throttle")
    with caplog.at_level(logging.WARNING, "tests.throttle"):
        for _ in range(1000):
            throttle.log(log, logging.WARNING, "same", "falhou")
        throttle.log(log, logging.WARNING, "other", "outra falha")
        now[0] = 61
        throttle.log(log, logging.WARNING, "same", "falhou")
    messages = [r.getMessage() for r in caplog.records]
    assert messages == ["falhou", "outra falha",
                        "falhou (and 999 more like it in the last 60 s)"]


async def test_text_from_telegram_arrives_cleaned_in_both_modes(harness):
    """U+0000 and lone surrogates are dropped before any flow sees the update (bot.intake)."""
    odd = type(MARIA)(1099, "Jo\x00ão\ud800")
    await harness.api.send_command(odd, "start")
    welcome = await said(harness, odd, timeout=10)
    assert welcome.text.startswith("Olá, João\ufffd!")
