"""A new report reaches its inspector whole: the real `python -m bot` process, on each
transport, against the Bot API stand-in that refuses what Telegram refuses. A citizen reports
with 2 photos sent as an album; the inspector, without asking, receives the album (2 photos),
the venue pin and the task text with its Aceitar / Recusar buttons (Art. 4: the inspection)."""
from __future__ import annotations

import asyncio
import sys
from types import SimpleNamespace

import pytest

from sandbox.standin.botapi import User
from tests.support.bot_process import ROOT, BotProcess
from tests.support.bot_chat import (MARIA, jpeg, pin, press, said, start_report,
                                    vehicle_questions)

ANA = User(901, "Ana")


async def _run(env: dict[str, str], *args: str) -> str:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", *args, cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL)
    out, _ = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 0
    return out.decode()


@pytest.mark.parametrize("transport", ["aiohttp", "httpx"])
async def test_inspector_receives_album_pin_and_task_unasked(tmp_path, transport):
    async with BotProcess.around(tmp_path, TELEGRAM_TRANSPORT=transport) as bot:
        api, h = bot.api, SimpleNamespace(api=bot.api)
        await bot.start()
        out = await _run(bot.env, "admin", "invite-inspector", "--name", "Ana Fiscal",
                         "--agency", "posturas", "--matricula", "1")
        api.add_user(ANA)
        await api.send_command(ANA, "fiscal", out.strip().splitlines()[-1])
        await said(h, ANA, "Conta vinculada", timeout=10)
        since = api.mark()

        await start_report(h, MARIA)
        await api.send_album(MARIA, [jpeg(1), jpeg(2)])
        await api.wait_for(method="sendMessage", chat_id=MARIA, text="2 fotos recebidas",
                           timeout=10)
        await press(h, MARIA, "Pronto", expect="Onde fica")
        await pin(h, MARIA)
        await said(h, MARIA, "Qual é a placa")
        await vehicle_questions(h, MARIA)
        await api.send_text(MARIA, "Em frente à padaria")
        await said(h, MARIA, "Confira sua denúncia")
        done = await press(h, MARIA, "Confirmar", expect="Protocolo:")
        protocol = done.text.split("Protocolo: ")[1].split()[0]

        task = await api.wait_for(method="sendMessage", chat_id=ANA, since=since,
                                  text=f"Nova tarefa — protocolo {protocol}", timeout=20)
    to_ana = [c for c in api.calls[since:] if c.chat_id == ANA.id]
    assert [(c.method, c.ok) for c in to_ana] == [
        ("sendMediaGroup", True), ("sendVenue", True), ("sendMessage", True)], \
        [(c.method, c.description) for c in to_ana]
    album = to_ana[0]
    assert len(album.result) == 2 and len({m["media_group_id"] for m in album.result}) == 1
    photos = [api.file_bytes(m["photo"][-1]["file_id"]) for m in album.result]
    assert all(photos) and photos[0] != photos[1], "both of the citizen's photos"
    venue = to_ana[1].result["venue"]
    assert venue["location"]["latitude"] == pytest.approx(-19.4628, abs=1e-4)
    assert task is to_ana[2]
    labels = [b.text for row in task.buttons for b in row]
    assert any("Aceitar" in t for t in labels) and any("Recusar" in t for t in labels)
