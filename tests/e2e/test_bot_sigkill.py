"""Durable at every step: the real `python -m bot` process is killed with SIGKILL in the middle
of a report and started again; the citizen carries on where they were, nothing is asked twice
and nothing is lost."""
from __future__ import annotations

import os
from types import SimpleNamespace

import pytest
from sqlalchemy import create_engine, text

from tests.support.bot_process import BotProcess
from tests.support.bot_chat import (MARIA, pin, press, said, send_photos, start_report,
                                    vehicle_questions)

pytestmark = [pytest.mark.serial,  # a real bot process killed: alone on the machine
              pytest.mark.skipif(os.name != "posix", reason="needs POSIX signals")]


async def test_sigkill_mid_report_then_restart_continues(tmp_path):
    async with BotProcess.around(tmp_path) as bot:
        api, h = bot.api, SimpleNamespace(api=bot.api)
        await bot.start()
        await start_report(h, MARIA)
        await send_photos(h, MARIA, 2)
        await bot.kill()

        await bot.start()
        # The "Pronto" button sent before the kill still works: both photos were kept.
        await press(h, MARIA, "Pronto", expect="Onde fica")
        await pin(h, MARIA)
        await said(h, MARIA, "Qual é a placa")
        await bot.kill()

        await bot.start()
        await vehicle_questions(h, MARIA)
        await api.send_text(MARIA, "Perto da escola")
        await said(h, MARIA, "Confira sua denúncia")
        done = await press(h, MARIA, "Confirmar", expect="Protocolo:")
        await bot.stop()
        assert "2026-000001" in done.text or "-000001" in done.text
        asked = [c.text for c in api.sent(MARIA, "sendMessage")]
        assert sum("Onde fica" in t for t in asked) == 1
        assert sum("Qual é a placa" in t for t in asked) == 1
        db = create_engine(f"sqlite:///{bot.database}")
        with db.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM cases")).scalar() == 1
            assert conn.execute(text("SELECT count(*) FROM evidence")).scalar() == 2
        db.dispose()
