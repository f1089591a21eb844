"""Fairness under load: a genuine citizen completes a report while 20 other accounts each
send 2 messages a second (each within the per-user flood limit, the production FloodLimit
and Telegram's 30 messages/s overall rate limit). Prints the genuine citizen's p50/p99 wait
per answer (injected update → the bot's answer) and, for comparison, the same report alone.
The citizen takes THINK_S to read each question and answer, as a person would; the flooders
never stop. (Telegram's 30 messages/s shared by 21 chats is about 1.4 a second each: a chat
asking for less than its share is never queued behind the others.)

    python -m benchmarks.fairness_bench [--quick]
"""
from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
from pathlib import Path

from benchmarks.bot_bench import _citizen, _pct
from bot.flood import FloodLimit
from sandbox.harness import BotHarness
from sandbox.standin.botapi import User
from core.services.context import Core
from core.settings import Settings

FLOODERS, PER_SECOND = 20, 2.0
TELEGRAM_OVERALL_RATE = 30.0  # messages/s, what production's AIORateLimiter allows
THINK_S = 1.0
WAIT_CEILING_S = 1.5  # "within about a second", with room for a shared machine


async def _flood(api, user: User, stop: asyncio.Event, sent: list[int]) -> None:
    k = 0
    while not stop.is_set():
        await api.send_text(user, f"oi {k}")
        sent.append(user.id)
        k += 1
        try:
            await asyncio.wait_for(stop.wait(), 1 / PER_SECOND)
        except TimeoutError:
            pass


async def genuine_waits(flooders: int, data_dir: Path, pre_flood_s: float = 3.0
                        ) -> tuple[list[float], int]:
    """The genuine citizen's per-answer waits with `flooders` accounts flooding alongside,
    and how many flood messages were sent meanwhile."""
    settings = Settings(_env_file=None, data_dir=data_dir)
    core = await Core.open(settings)
    try:
        async with BotHarness(core, flood=FloodLimit(),
                              overall_max_rate=TELEGRAM_OVERALL_RATE) as h:
            await _citizen(h.api, User(700_000, "Aquecimento"), 1, [],
                           at=(-19.4628 - 0.018, -45.6003))
            stop, sent = asyncio.Event(), []
            tasks = [asyncio.create_task(_flood(h.api, User(710_000 + i, f"Insistente {i}"),
                                                stop, sent))
                     for i in range(flooders)]
            await asyncio.sleep(pre_flood_s if flooders else 0)  # the flood is on first
            waits: list[float] = []
            try:
                await _citizen(h.api, User(720_000, "Cidadã"), 3, waits, think_s=THINK_S)
            finally:
                stop.set()
                await asyncio.gather(*tasks)
            return waits, len(sent)
    finally:
        await core.close()


async def run(quick: bool) -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        alone, _ = await genuine_waits(0, Path(tmp) / "alone")
    with tempfile.TemporaryDirectory() as tmp:
        waits, flooded = await genuine_waits(FLOODERS, Path(tmp) / "flood",
                                             1.0 if quick else 3.0)
    p50, p99 = statistics.median(waits), _pct(waits, 0.99)
    verdict = "PASS" if p99 <= WAIT_CEILING_S else "FAIL"
    return [
        f"fair: genuine citizen's report alone: per-answer wait p50 "
        f"{statistics.median(alone) * 1000:.0f} ms, p99 {_pct(alone, 0.99) * 1000:.0f} ms",
        f"fair: same report while {FLOODERS} accounts each send {PER_SECOND:.0f} msg/s "
        f"({flooded} flood messages): p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms "
        f"({verdict}: ceiling {WAIT_CEILING_S:.1f} s)",
    ]


if __name__ == "__main__":
    for line in asyncio.run(run("--quick" in sys.argv)):
        print(line)
