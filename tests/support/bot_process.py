"""The real `python -m bot` process (long polling, SQLite in a data folder) against the Bot API
and Nominatim stand-ins, for the tests that kill it or run it whole (no tests here):

    async with BotProcess.around(tmp_path) as bot:
        await bot.start()                  # returns once it polls Telegram (migrated)
        ... bot.api ...                    # the Bot API stand-in
        await bot.kill()                   # SIGKILL, then `await bot.start()` again
    # left: the process stopped (SIGTERM) whatever happened
"""
from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from contextlib import asynccontextmanager
from pathlib import Path
from typing import AsyncIterator

from sandbox.standin.botapi import BotApiStandIn
from sandbox.standin.nominatim import NominatimStandIn, default_gazetteer

ROOT = Path(__file__).resolve().parents[2]


class BotProcess:
    def __init__(self, api: BotApiStandIn, osm: NominatimStandIn, data_dir: Path,
                 log_file: Path | None = None, **env: str) -> None:
        self.api, self.data_dir = api, Path(data_dir)
        #: where the process's standard output and error go (appended); None: nowhere
        self.log_file = log_file
        #: the process's environment (also for `python -m admin` on the same data)
        self.env = {**os.environ, "TELEGRAM_BOT_TOKEN": api.token,
                    "TELEGRAM_API_URL": api.base_url, "NOMINATIM_URL": f"http://{osm.domain}",
                    "DATA_DIR": str(data_dir), "MUNICIPALITY": "dores-do-indaia",
                    "DATABASE_URL": "", "WEBHOOK_URL": "", **env}
        self.proc: asyncio.subprocess.Process | None = None

    @classmethod
    @asynccontextmanager
    async def around(cls, data_dir: Path, log_file: Path | None = None,
                     **env: str) -> AsyncIterator[BotProcess]:
        """The stand-ins and a (not yet started) bot process on them, stopped at the end."""
        async with BotApiStandIn() as api, NominatimStandIn(default_gazetteer()) as osm:
            bot = cls(api, osm, data_dir, log_file, **env)
            try:
                yield bot
            finally:
                await bot.stop()

    @property
    def database(self) -> Path:
        return self.data_dir / "vialivre.sqlite3"

    async def start(self, wait: bool = True) -> None:
        """Start the process; with `wait`, return once it polls for updates (its database is
        migrated and its handlers are on)."""
        mark = self.api.mark()
        with contextlib.ExitStack() as stack:  # the child keeps its own copy of the file
            out = (stack.enter_context(open(self.log_file, "ab"))
                   if self.log_file is not None else asyncio.subprocess.DEVNULL)
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=ROOT, env=self.env, stdout=out, stderr=out)
        if wait:
            await self.api.wait_for(method="getUpdates", ok=None, timeout=30, since=mark)

    async def kill(self) -> None:
        """SIGKILL: the process dies wherever it is."""
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()

    async def stop(self) -> None:
        """SIGTERM (SIGKILL after 15 s), if it still runs."""
        if self.proc is None or self.proc.returncode is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.proc.wait(), 15)
        except asyncio.TimeoutError:
            self.proc.kill()
            await self.proc.wait()
