"""A clean exit from `python -m sandbox`: Ctrl-D (end of input), Ctrl-C (SIGINT) or `:sair`
ends the chat after the bot has answered, with "Sandbox encerrado" and exit status 0, and
nothing a newcomer would take for a crash: no "ERROR" log line, no "Traceback", no "(s)".
The background loops are told to stop and finish their pass before the engine is disposed
(bot.loops.finish)."""
from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


async def _read_until(stream: asyncio.StreamReader, text: str, seen: list[str]) -> None:
    while True:
        line = (await stream.readline()).decode("utf-8", "replace")
        if not line:
            raise AssertionError(f"the sandbox ended before printing {text!r}: {seen[-8:]}")
        seen.append(line.rstrip("\n"))
        if text in line:
            return


@pytest.mark.parametrize("how", ["ctrl-d", "ctrl-c", ":sair"])
async def test_the_sandbox_ends_cleanly(tmp_path, how):
    env = {**os.environ, "DATA_DIR": str(tmp_path / "data"), "DATABASE_URL": "",
           "TELEGRAM_BOT_TOKEN": ""}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "sandbox", cwd=ROOT, env=env, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    assert proc.stdin is not None and proc.stdout is not None
    seen: list[str] = []
    try:
        proc.stdin.write("/denunciar\n:foto\n".encode())
        await proc.stdin.drain()
        await asyncio.wait_for(_read_until(proc.stdout, "1 foto recebida", seen), 120)
        if how == "ctrl-d":
            proc.stdin.close()
        elif how == "ctrl-c":
            proc.send_signal(signal.SIGINT)
        else:
            proc.stdin.write(b":sair\n")
            await proc.stdin.drain()
        rest, _ = await asyncio.wait_for(proc.communicate(), 120)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    output = "\n".join(seen) + "\n" + rest.decode("utf-8", "replace")
    assert proc.returncode == 0, output[-2000:]
    assert "Sandbox encerrado. Até logo!" in output
    for bad in ("ERROR", "Traceback", "(s)"):
        assert bad not in output, output[-2000:]
