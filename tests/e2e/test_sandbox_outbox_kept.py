"""`:sair` ends the sandbox without losing what waits in the outbox: a message not yet due
when the chat ends is still pending in the sandbox's database afterwards, and the next start
delivers it to the terminal (the bot's loops stop through their stop event, bot.loops.finish,
and the panel the sandbox serves closes before the database)."""
from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import AsyncIterator

from sqlalchemy import select

from core.services.context import Core
from core.services.messaging.delivery import queue_reply
from core.settings import Settings
from core.storage import outbox
from core.storage.models import OutboxMessage
from core.storage.types import utcnow
from sandbox.terminal import YOU, run_sandbox

KEPT = "Mensagem que esperava na fila quando o sandbox foi encerrado."
WAIT_S = 4.0


async def _outbox_rows() -> list[OutboxMessage]:
    core = await Core.open(Settings())
    try:
        async with core.db.read() as s:
            return [m for m in (await s.execute(select(OutboxMessage))).scalars()
                    if (m.payload or {}).get("text") == KEPT]
    finally:
        await core.close()


async def test_a_message_pending_in_the_outbox_survives_sair_and_is_delivered_next_time(
        tmp_path, monkeypatch):
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("ADMIN_PORT", "0")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    due = utcnow() + timedelta(seconds=WAIT_S)

    async def first() -> AsyncIterator[str]:
        yield "/start"
        core = await Core.open(Settings())
        try:  # a reply Telegram did not take, due again in a few seconds
            await queue_reply(core, YOU.id, {"text": KEPT}, not_before=due)
        finally:
            await core.close()
        yield ":sair"

    output: list[str] = []
    assert await run_sandbox(first(), output.append) == 0
    assert not any(KEPT in line for line in output)
    assert "Sandbox encerrado. Até logo!" in output
    assert [m.status for m in await _outbox_rows()] == [outbox.PENDING]  # kept, not lost

    async def second() -> AsyncIterator[str]:
        for _ in range(int((WAIT_S + 10) / 0.1)):
            if any(KEPT in line for line in again):
                break
            await asyncio.sleep(0.1)
        yield ":sair"

    again: list[str] = []
    assert await run_sandbox(second(), again.append) == 0
    assert any(KEPT in line for line in again), again[-10:]
    assert [m.status for m in await _outbox_rows()] == [outbox.SENT]
    text = "\n".join(output + again)
    assert "Traceback" not in text and "ERROR" not in text and "(s)" not in text
