"""The inspector's end-to-end tests run on a Core that knows the bot's username, so the
documents the inspector receives carry the owner's link (https://t.me/<bot>?start=<code>)."""
from __future__ import annotations

import pytest

from tests.support.inspector import BOT_NAME


@pytest.fixture
async def core(make_core):
    return await make_core(telegram_bot_username=BOT_NAME)
