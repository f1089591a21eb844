"""The local sandbox (python -m bot.sandbox): a developer chats with the real bot in the
terminal, with no Telegram token, and `python -m bot` without a token still fails fast for
scripts and CI."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from bot.sandbox import run_sandbox

ROOT = Path(__file__).resolve().parent.parent


def _button_number(output: list[str], label: str) -> str:
    """The number the sandbox printed for the newest button containing `label`."""
    for line in reversed(output):
        m = re.match(r"\s*\[(\d+)\] (.*)", line)
        if m and label in m.group(2):
            return m.group(1)
    raise AssertionError(f"no button {label!r} printed: {output[-6:]}")


async def test_sandbox_chat_runs_a_report_up_to_the_next_question(tmp_path, monkeypatch):
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    output: list[str] = []

    def script():
        yield "/start"
        assert any("Olá, Você!" in line for line in output), output  # greeting printed
        yield "/denunciar"
        assert any("O que está abandonado" in line for line in output)
        assert "  [1] Veículo motorizado (carro, moto, caminhão)" in output
        yield ":botao 1"
        assert any("Envie de 1 a 10 fotos" in line for line in output)
        yield ":foto"
        assert any("1 foto(s) recebida(s)" in line for line in output)
        yield f":botao {_button_number(output, 'Pronto')}"
        assert any("Onde está o objeto" in line for line in output)
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
    assert (tmp_path / "data" / "sandbox" / "vialivre.sqlite3").is_file()


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
