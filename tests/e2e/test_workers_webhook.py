"""Several workers: on PostgreSQL a worker answers Telegram's webhook call
only once the update is handled, so an update a worker accepted and then died with is never
acknowledged, and Telegram delivers it again (to another worker). On SQLite (one process)
the call is answered as soon as the update is queued, as before."""
from __future__ import annotations

import pytest

from sandbox.harness import BotHarness
from core.services.messaging import conversation
from tests.support.bot_chat import MARIA

SECRET = "segredo_dos-workers_1"


async def test_the_webhook_answers_once_the_update_is_handled_on_postgresql(core):
    async with BotHarness(core, webhook_secret=SECRET) as h:
        update = await h.api.send_command(MARIA, "denunciar")  # returns when the call answered
        answered = h.api.sent(MARIA, "sendMessage")
        handled = await conversation.is_processed(core, update["update_id"])
    if core.db.is_sqlite:
        pytest.skip("SQLite: one process, the call is answered once queued (test_bot_webhook)")
    assert handled
    assert any("O que você quer denunciar" in (c.text or "") for c in answered)
