"""The local sandbox (python -m sandbox): a developer chats with the real bot in the
terminal, with no Telegram token, sees what a phone shows (toasts, alerts, edited messages,
numbered messages whose buttons stay pressable), switches between citizen, inspector and
owner, and shares the data directory with `python -m admin`; `python -m bot` without a token
still fails fast for scripts and CI."""
from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path

from sandbox.terminal import run_sandbox
from core.services.messaging.bot_identity import record_bot_username
from core.services.context import Core
from core.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def _button_number(output: list[str], label: str) -> str:
    """The number the sandbox printed for the newest button containing `label`."""
    for line in reversed(output):
        m = re.match(r"\s*\[(\d+)\] (.*)", line)
        if m and label in m.group(2):
            return m.group(1)
    raise AssertionError(f"no button {label!r} printed: {output[-6:]}")


def _message_number(output: list[str], text: str) -> str:
    """The number the sandbox printed for the newest message containing `text`."""
    for line in reversed(output):
        m = re.match(r"Bot #(\d+): (.*)", line)
        if m and text in m.group(2):
            return m.group(1)
    raise AssertionError(f"no message {text!r} printed: {output[-6:]}")


async def _printed(output: list[str], text: str, timeout: float = 10.0) -> None:
    """Wait until a line containing `text` was printed (e.g. by the outbox, unasked)."""
    for _ in range(int(timeout / 0.05)):
        if any(text in line for line in output):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{text!r} never printed: {output[-8:]}")


def _admin_cli(data_dir: Path, *args: str) -> str:
    env = {**os.environ, "DATA_DIR": str(data_dir), "DATABASE_URL": ""}
    done = subprocess.run([sys.executable, "-m", "admin", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


async def test_sandbox_chat_runs_a_report_up_to_the_next_question(tmp_path, monkeypatch):
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    output: list[str] = []

    def script():
        yield "/start"
        assert any("Olá, Você!" in line for line in output), output  # greeting printed
        yield "/denunciar"
        assert any("O que você quer denunciar" in line for line in output)
        assert "  [1] Veículo motorizado (carro, moto, caminhão)" in output
        yield ":botao 1"
        assert any("Envie de 1 a 10 fotos" in line for line in output)
        yield ":foto"
        assert any("1 foto recebida" in line for line in output)
        yield f":botao {_button_number(output, 'Pronto')}"
        assert any("Onde fica" in line for line in output)
        yield ":local"
        yield ":sair"
        yield "/start"  # never sent: the chat ended at :sair
        raise AssertionError("lines read after :sair")

    status = await run_sandbox(script(), output.append)

    assert status == 0
    assert any("NÃO está conectado ao Telegram" in line for line in output)
    assert any("TELEGRAM_BOT_TOKEN" in line for line in output)
    located = next(i for i, line in enumerate(output) if "Local registrado" in line)
    assert any("Qual é a placa" in line for line in output[located:])
    assert sum("Olá, Você!" in line for line in output) == 1
    assert output[-1] == "Sandbox encerrado. Até logo!"
    assert (tmp_path / "data" / "vialivre.sqlite3").is_file()  # the same as python -m admin


async def test_sandbox_shows_alerts_toasts_edits_and_presses_an_earlier_button(tmp_path,
                                                                                monkeypatch):
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    output: list[str] = []

    def script():
        yield "/denunciar"
        categories = _message_number(output, "O que você quer denunciar")
        yield ":botao 1"
        yield f":botao {_button_number(output, 'Pronto')}"  # no photo yet: an alert
        assert "(alerta) Envie pelo menos uma foto antes de tocar em Pronto." in output
        yield ":foto"
        yield f":botao {_button_number(output, 'Pronto')}"
        yield ":local"
        yield "ABC1D23"
        yield f":botao {_button_number(output, 'Pular')}"  # colour
        yield f":botao {_button_number(output, 'Pular')}"  # make and model
        yield f":botao {_button_number(output, 'Mais de 30 dias')}"
        signs = _message_number(output, "Marque os sinais de abandono")
        yield f":botao {_button_number(output, 'Sem motor')}"  # the message is edited
        assert f"Bot #{signs} (botões atualizados):" in output
        assert any("✅ Sem motor" in line for line in output)
        assert "(aviso) Marcado." in output  # the toast
        yield f":botao {categories} 2"  # a button of an earlier message, by its number
        yield ":botao 999 1"
        yield ":botao 1 2 3"

    await run_sandbox(script(), output.append)
    assert "(aviso) Este botão não vale mais. Use os botões da última mensagem." in output
    assert "(não há mensagem #999 do bot nesta conversa)" in output
    assert any(line.startswith("(use :botao N") for line in output)


async def test_cli_invite_works_in_the_sandbox_and_the_person_switches_identity(
        tmp_path, monkeypatch):
    """An invite made by `python -m admin` binds the sandbox's inspector (same DATA_DIR); the
    task the citizen's report creates waits for the inspector, announced in one line."""
    data = tmp_path / "data"
    monkeypatch.setenv("DATA_DIR", str(data))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    code = _admin_cli(data, "invite-inspector", "--name", "Ana Fiscal", "--agency", "posturas",
                      "--matricula", "1").strip().splitlines()[-1]
    output: list[str] = []

    async def script():
        yield ":eu fiscal"  # the demo inspector, bound at once
        assert any("DEMO-0001" in line for line in output)
        yield f"/fiscal {code}"  # the account is the demo inspector already
        assert any("já está vinculada a um fiscal (Fiscal de Demonstração)" in line
                   for line in output), output[-4:]
        yield ":eu cidadao"
        yield "/denunciar"
        yield ":botao 1"
        yield ":foto"
        yield f":botao {_button_number(output, 'Pronto')}"
        yield ":local"
        yield "ABC1D23"
        yield f":botao {_button_number(output, 'Pular')}"
        yield f":botao {_button_number(output, 'Pular')}"
        yield f":botao {_button_number(output, 'Mais de 30 dias')}"
        for sign in ("Faltando um ou mais pneus", "Sem motor", "Há mais de 30 dias"):
            yield f":botao {_button_number(output, sign)}"
        yield f":botao {_button_number(output, 'Continuar')}"
        yield f":botao {_button_number(output, 'Pular')}"
        yield f":botao {_button_number(output, 'Confirmar')}"
        assert any("Denúncia registrada" in line for line in output)
        await _printed(output, "(nova mensagem para fiscal: digite :eu fiscal para ver)")
        assert not any("Nova tarefa" in line for line in output)  # not the citizen's phone
        yield ":eu fiscal"
        assert any(line.startswith("(agora você é o fiscal") and "vinculada" in line
                   for line in output)
        assert any("Nova tarefa — protocolo" in line for line in output)
        yield ":eu proprietario"
        yield "/start"
        assert any("Olá, Proprietário!" in line for line in output)
        yield ":eu ninguem"

    assert await run_sandbox(script(), output.append) == 0
    assert "(use :eu cidadao, :eu fiscal ou :eu proprietario)" in output


async def test_local_without_numbers_is_the_configured_city_centre_dracena(tmp_path,
                                                                          monkeypatch):
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MUNICIPALITY", "dracena")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    output: list[str] = []
    await run_sandbox(["/denunciar", ":botao 1", ":foto", ":botao 1", ":local"],
                      output.append)
    assert any("o centro de Dracena" in line for line in output)  # the help says so
    assert any("Local registrado: -21.4843" in line for line in output), output[-6:]


async def test_sandbox_refuses_a_database_a_real_bot_uses(tmp_path, monkeypatch):
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    core = await Core.open(Settings(_env_file=None, data_dir=tmp_path / "data"))
    try:
        await record_bot_username(core, "PrefeituraDeVerdadeBot")  # a real bot's getMe
    finally:
        await core.close()
    output: list[str] = []
    assert await run_sandbox(["/start"], output.append) == 1
    assert any("usado pelo bot real @PrefeituraDeVerdadeBot" in line for line in output)
    assert not any("Olá" in line for line in output)


async def test_sandbox_explains_bad_input_and_ends_at_end_of_input(tmp_path, monkeypatch):
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    output: list[str] = []
    status = await run_sandbox([":botao 1", ":local abc", ":foto /nao/existe.jpg"],
                               output.append)
    assert status == 0
    assert "(nenhuma mensagem do bot com botões)" in output
    assert any(":local LAT LON" in line for line in output if line.startswith("(use"))
    assert "(não consegui ler o arquivo /nao/existe.jpg)" in output
    assert output[-1] == "Sandbox encerrado. Até logo!"


def test_python_m_bot_without_token_and_no_tty_still_exits_2(tmp_path):
    # Run outside the checkout so no developer .env (with a real token) is read.
    env = {**os.environ, "TELEGRAM_BOT_TOKEN": "", "DATA_DIR": str(tmp_path),
           "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert "falta TELEGRAM_BOT_TOKEN" in done.stderr
    assert "sandbox" not in done.stderr + done.stdout
    assert "Traceback" not in done.stderr
