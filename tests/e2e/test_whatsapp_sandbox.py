"""`python -m sandbox --whatsapp`: a newcomer reports as a citizen on WhatsApp in the terminal,
taps the numbered choices with `:botao N`, gets the protocol, and the chat ends with no error
line; the report is in the sandbox's database, where the panel reads it."""
from __future__ import annotations

import asyncio
import os
import sys

from sqlalchemy import create_engine, text

from tests.support.bot_process import ROOT

WALK = ["oi", ":botao 1", ":foto", ":botao 1", ":local", "ABC1D23", "Prata", ":botao 1",
        ":botao 3", ":botao 10", "perto da escola", ":botao 1", ":botao 99", ":xyz", ":sair"]


async def test_a_whole_report_in_the_whatsapp_sandbox(tmp_path):
    env = {**os.environ, "DATA_DIR": str(tmp_path), "DATABASE_URL": "",
           "MUNICIPALITY": "dores-do-indaia", "TELEGRAM_BOT_TOKEN": ""}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "sandbox", "--whatsapp", cwd=ROOT, env=env,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT)
    out, _ = await asyncio.wait_for(proc.communicate("\n".join(WALK).encode() + b"\n"), 120)
    shown = out.decode()
    assert proc.returncode == 0, shown
    assert "WhatsApp: O que você quer denunciar?" in shown and "[1] Veículo motorizado" in shown
    assert "[📍 Enviar localização]" in shown
    assert "Protocolo: 2026-000001" in shown and "*status* 2026-000001" in shown
    assert "A última mensagem não tem a opção [99]" in shown and "Comando desconhecido" in shown
    assert shown.rstrip().endswith("Sandbox do WhatsApp encerrado.")
    assert "Traceback" not in shown and "ERROR" not in shown
    engine = create_engine(f"sqlite:///{tmp_path / 'vialivre.sqlite3'}")
    with engine.connect() as conn:
        assert conn.execute(text("SELECT plate FROM cases")).scalars().all() == ["ABC1D23"]
    engine.dispose()
