"""What `python -m sandbox` gives a newcomer besides the chat: a demo panel account on a
sandbox database (the address, user and password printed; never on a database that already has
accounts), where the documents the bot sends are written, and a demo clock moved forward
(`python -m sandbox clock +3d` or `:relogio +3d` in the chat) that the deadline sweep reads."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

from core.services.context import Core
from core.services.staff.accounts import authenticate, create_user
from core.settings import Settings
from sandbox.demo import DemoClock, parse_step
from sandbox.terminal import run_sandbox

ROOT = Path(__file__).resolve().parents[2]


def _account(output: list[str]) -> tuple[str, str, str]:
    text = "\n".join(output)
    m = re.search(r"Painel da prefeitura .*: (http://\S+)\n\s+usuário (\S+), senha (\S+) ", text)
    assert m, text[:1500]
    return m.group(1), m.group(2), m.group(3)


async def test_a_sandbox_database_gets_a_demo_account_that_enters_the_panel(tmp_path, monkeypatch):
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    output: list[str] = []
    assert await run_sandbox([":sair"], output.append) == 0
    address, user, password = _account(output)
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/login", address)  # the port it took
    assert user == "demo" and len(password) >= 10
    assert any(f"ficam salvos em {tmp_path / 'data' / 'sandbox' / 'documentos'}" in line
               for line in output)
    core = await Core.open(Settings())
    try:
        assert (await authenticate(core, user, password)) is not None
    finally:
        await core.close()
    again: list[str] = []
    await run_sandbox([":sair"], again.append)
    assert _account(again)[1:] == (user, password)  # the same account, shown again


async def test_a_database_with_its_own_accounts_gets_no_known_password(tmp_path, monkeypatch):
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    core = await Core.open(Settings())
    try:
        await create_user(core, "maria", "senha-muito-secreta", "admin")
    finally:
        await core.close()
    output: list[str] = []
    await run_sandbox([":sair"], output.append)
    assert "usuário demo" not in "\n".join(output)
    assert any("entre com uma conta já criada" in line for line in output)


async def test_the_demo_clock_moves_forward_in_the_chat_and_from_the_command_line(
        tmp_path, monkeypatch):
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    output: list[str] = []
    await run_sandbox([":relogio +3d", ":relogio amanhã", ":sair"], output.append)
    assert any("3 dias à frente do relógio real" in line for line in output), output[-6:]
    assert any("prazos conferidos" in line for line in output)
    assert any("use, por exemplo, +3d" in line for line in output)  # bad input explained
    env = {**os.environ, "DATA_DIR": str(tmp_path / "data"), "DATABASE_URL": ""}
    done = subprocess.run([sys.executable, "-m", "sandbox", "clock", "+2d"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "5 dias à frente do relógio real" in done.stdout
    clock = DemoClock(Settings())
    assert clock.offset == timedelta(days=5)
    core = await Core.open(Settings(), clock=clock)  # what the chat's bot and sweep read
    try:
        assert core.now() - clock.real() >= timedelta(days=5) - timedelta(seconds=5)
    finally:
        await core.close()


def test_clock_steps_in_days_hours_and_minutes():
    assert parse_step("+3d") == timedelta(days=3) and parse_step("12h") == timedelta(hours=12)
    assert parse_step("+30m") == timedelta(minutes=30) and parse_step("2") == timedelta(days=2)


def test_a_document_the_bot_sends_is_written_where_the_sandbox_said(tmp_path):
    from types import SimpleNamespace

    from sandbox.chat import Chat
    from sandbox.standin.botapi import Call

    pdf = b"%PDF-1.4 resumo"
    api = SimpleNamespace(file_bytes={"BQAC1": pdf}.__getitem__)  # the stand-in's kept upload
    chat = Chat(SimpleNamespace(api=api), lambda line: None, documents=tmp_path / "documentos")
    call = Call("sendDocument", {"chat_id": 7_000_003}, {}, 0.0, result={
        "message_id": 12, "document": {"file_id": "BQAC1", "file_name": "resumo-abc.pdf"}})
    assert chat._keep(call) == [f"     (salvo em {tmp_path / 'documentos' / '12-resumo-abc.pdf'})"]
    assert (tmp_path / "documentos" / "12-resumo-abc.pdf").read_bytes() == pdf
    lost = Call("sendDocument", {"chat_id": 7_000_003}, {}, 0.0, result={
        "message_id": 13, "document": {"file_id": "gone", "file_name": "x.pdf"}})
    assert "não consegui salvar" in chat._keep(lost)[0]  # said, and the chat goes on
