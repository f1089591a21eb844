"""Helpers for the delivery fault tests (no tests here): queue numbered messages for several
chats, read back what each chat received from the Bot API stand-in, and compute the figures
the fault suite prints (queued, delivered, duplicated, out of order, lost)."""
from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from sandbox.standin.botapi import BotApiStandIn
from core.storage import outbox

PREFIX = "Mensagem de teste"
REPORT: list[str] = []  # printed at the end of the run (tests/conftest.py)


@dataclass
class Figures:
    queued: int
    delivered: int
    duplicated: int
    out_of_order: int
    lost: int
    recovery_s: float | None = None

    def line(self, name: str) -> str:
        rec = "—" if self.recovery_s is None else f"{self.recovery_s:.1f} s"
        return (f"[faults] {name}: queued={self.queued} delivered={self.delivered} "
                f"duplicated={self.duplicated} out_of_order={self.out_of_order} "
                f"lost={self.lost} recovery={rec}")


def report(fig: Figures, name: str) -> None:
    line = fig.line(name)
    REPORT.append(line)
    print("\n" + line)


def text_of(chat: int, n: int) -> str:
    return f"{PREFIX} {chat}#{n:03d}"


async def queue(db, chats: list[int], per_chat: int, start: int = 0,
                tag: str = "") -> dict[int, list[str]]:
    """Queue `per_chat` messages for each chat, interleaved across chats, one transaction each
    (as core services do); returns each chat's texts in queue order."""
    out: dict[int, list[str]] = {c: [] for c in chats}
    for n in range(start, start + per_chat):
        for chat in chats:
            async with db.unit_of_work() as s:
                await outbox.enqueue(s, chat, "case_update", {"text": text_of(chat, n)},
                                     f"fault{tag}:{chat}:{n}")
            out[chat].append(text_of(chat, n))
    return out


def received(api: BotApiStandIn, chat: int) -> list[tuple[float, str]]:
    return [(c.time, c.text) for c in api.sent(chat, "sendMessage")
            if c.text and c.text.startswith(PREFIX)]


def figures(api: BotApiStandIn, expected: dict[int, list[str]]) -> Figures:
    queued = delivered = duplicated = out_of_order = 0
    for chat, texts in expected.items():
        got = [t for _, t in received(api, chat)]
        queued += len(texts)
        firsts: list[str] = []
        for t in got:
            if t in firsts:
                duplicated += 1
            else:
                firsts.append(t)
        delivered += len(set(firsts) & set(texts))
        rank = {t: i for i, t in enumerate(texts)}
        seen_max = -1
        for t in firsts:
            if rank.get(t, -1) < seen_max:
                out_of_order += 1
            seen_max = max(seen_max, rank.get(t, -1))
    return Figures(queued, delivered, duplicated, out_of_order, queued - delivered)


async def until_delivered(api: BotApiStandIn, expected: dict[int, list[str]],
                          timeout: float) -> float:
    """Wait until every expected text arrived; returns the time.time() of the last arrival."""
    deadline = time.monotonic() + timeout
    while True:
        last = 0.0
        missing = 0
        for chat, texts in expected.items():
            got = {t: at for at, t in reversed(received(api, chat))}  # first arrival of each
            missing += sum(t not in got for t in texts)
            last = max([last] + [got[t] for t in texts if t in got])
        if not missing:
            return last
        if time.monotonic() > deadline:
            raise AssertionError(f"{missing} message(s) not delivered; "
                                 f"{figures(api, expected).line('so far')}")
        await asyncio.sleep(0.1)
