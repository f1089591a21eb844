"""The real `python -m admin` process for the tests that run it whole (no tests here): started
on the environment given (a BotProcess's, on the same data), its output appended to a file,
ready once /healthz answers."""
from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import aiohttp

from tests.support.bot_process import ROOT


async def start_panel(env: dict[str, str], log_file: Path) -> asyncio.subprocess.Process:
    with open(log_file, "ab") as out:  # the child keeps its own copy of the file
        return await asyncio.create_subprocess_exec(
            sys.executable, "-m", "admin", cwd=ROOT, env=env, stdout=out, stderr=out)


async def until_up(session: aiohttp.ClientSession, url: str) -> None:
    for _ in range(300):  # the panel is listening once /healthz answers (≤ 30 s)
        try:
            async with session.get(url) as resp:
                if resp.status == 200:
                    return
        except aiohttp.ClientConnectionError:
            await asyncio.sleep(0.1)
    raise AssertionError("the panel did not start")
