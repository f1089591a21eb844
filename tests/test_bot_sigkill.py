"""Durable at every step: the real `python -m bot` process is killed with SIGKILL in the middle
of a report and started again; the citizen carries on where they were, nothing is asked twice
and nothing is lost."""
from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from sqlalchemy import create_engine, text

from bot.standin.botapi import BotApiStandIn
from bot.standin.nominatim import NominatimStandIn, default_gazetteer
from tests.test_bot_support import (MARIA, pin, press, said, send_photos, start_report,
                                    vehicle_questions)

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(os.name != "posix", reason="needs POSIX signals")


async def _spawn(env: dict[str, str]) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=ROOT, env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)


async def test_sigkill_mid_report_then_restart_continues(tmp_path):
    async with BotApiStandIn() as api, NominatimStandIn(default_gazetteer()) as osm:
        env = {**os.environ, "TELEGRAM_BOT_TOKEN": api.token, "TELEGRAM_API_URL": api.base_url,
               "NOMINATIM_URL": f"http://{osm.domain}", "DATA_DIR": str(tmp_path),
               "MUNICIPALITY": "dores-do-indaia", "DATABASE_URL": "", "WEBHOOK_URL": ""}
        h = SimpleNamespace(api=api)
        proc = await _spawn(env)
        try:
            await api.wait_for(method="getUpdates", ok=None, timeout=30, since=0)
            await start_report(h, MARIA)
            await send_photos(h, MARIA, 2)
            proc.send_signal(signal.SIGKILL)
            await proc.wait()

            proc = await _spawn(env)
            await api.wait_for(method="getUpdates", ok=None, timeout=30, since=api.mark())
            # The "Pronto" button sent before the kill still works: both photos were kept.
            await press(h, MARIA, "Pronto", expect="Onde fica")
            await pin(h, MARIA)
            await said(h, MARIA, "Qual é a placa")
            proc.send_signal(signal.SIGKILL)
            await proc.wait()

            proc = await _spawn(env)
            await api.wait_for(method="getUpdates", ok=None, timeout=30, since=api.mark())
            await vehicle_questions(h, MARIA)
            await api.send_text(MARIA, "Perto da escola")
            await said(h, MARIA, "Confira sua denúncia")
            done = await press(h, MARIA, "Confirmar", expect="Protocolo:")
        finally:
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
                await asyncio.wait_for(proc.wait(), 15)
        assert "2026-000001" in done.text or "-000001" in done.text
        asked = [c.text for c in api.sent(MARIA, "sendMessage")]
        assert sum("Onde fica" in t for t in asked) == 1
        assert sum("Qual é a placa" in t for t in asked) == 1
        db = create_engine(f"sqlite:///{tmp_path / 'vialivre.sqlite3'}")
        with db.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM cases")).scalar() == 1
            assert conn.execute(text("SELECT count(*) FROM evidence")).scalar() == 2
        db.dispose()
