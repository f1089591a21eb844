"""The README's walk ("Your first case, end to end") typed into the sandbox's own terminal
loop (sandbox.terminal.run_sandbox) line by line, each answer it quotes checked in what the
terminal printed after that line: the README cannot drift from the bot."""
from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import AsyncIterator
from zoneinfo import ZoneInfo

from sandbox.terminal import run_sandbox

ROOT = Path(__file__).resolve().parents[2]
STEP = re.compile(r"^\d+\. `([^`]+)`.*→ “([^”]+)”")


def walk() -> list[tuple[str, str]]:
    """The README's steps; its protocols read in this year's numbering (the sandbox numbers
    a report by the real date: the README's example was written in 2026)."""
    text = (ROOT / "README.md").read_text("utf-8")
    section = text.split("## Your first case, end to end", 1)[1].split("\n## ", 1)[0]
    year = datetime.now(ZoneInfo("America/Sao_Paulo")).year
    return [(m.group(1), m.group(2).replace("2026-0000", f"{year}-0000"))
            for line in section.splitlines() if (m := STEP.match(line.strip()))]


def test_the_walk_is_in_the_readme():
    steps = walk()
    assert len(steps) >= 46 and steps[0][0] == "/denunciar"
    assert any(typed.startswith(":relogio") for typed, _ in steps)  # past the deadline
    assert steps[-1] == (":eu proprietario", "Valores devidos hoje")  # the fees, in the depot
    assert any(typed == ":eu fiscal" for typed, _ in steps)
    assert any(typed == ":eu proprietario" for typed, _ in steps)


async def test_the_readme_walk_works_as_written(tmp_path, monkeypatch):
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    output: list[str] = []
    missed: list[str] = []

    async def lines() -> AsyncIterator[str]:
        for typed, expected in walk():
            start = len(output)
            yield typed
            if not any(expected in line for line in output[start:]):
                missed.append(f"{typed!r} never answered {expected!r}: {output[start:][-6:]}")
        yield ":sair"

    await run_sandbox(lines(), output.append)
    assert missed == []
    text = "\n".join(output)
    assert "Traceback" not in text and "(s)" not in text
    papers = sorted(p.name for p in (tmp_path / "data" / "sandbox" / "documentos").iterdir())
    assert any("notificacao" in p for p in papers)  # each paper where the walk says
    assert any("termo-de-recolhimento" in p for p in papers)
