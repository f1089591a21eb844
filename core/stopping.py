"""How a background loop rests between passes and how a process stops its loops, the same for
every face: the bot's outbox sender and deadline sweep (bot.loops), the panel's e-mail sender
(core.services.messaging.email_sender.email_loop started by admin.views_email). A loop runs
`while not stop.is_set()`, sleeps with `rest(stop, seconds)`, and is stopped with
`finish(tasks, stop)`: it ends its pass (a transaction is never cut in the middle, so the
engine can be disposed cleanly afterwards, and a message being sent is either sent or left
due again, never lost) and only what is still running after the grace is cancelled."""
from __future__ import annotations

import asyncio

#: How long a stopping process waits for a loop to finish its pass before cancelling it.
STOP_GRACE_S = 10.0


async def rest(stop: asyncio.Event, seconds: float, wake: asyncio.Event | None = None) -> None:
    """Wait `seconds`, or less when `stop` (or `wake`) is set."""
    waits = [asyncio.ensure_future(stop.wait())]
    if wake is not None:
        waits.append(asyncio.ensure_future(wake.wait()))
    try:
        await asyncio.wait(waits, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for w in waits:
            w.cancel()
        await asyncio.gather(*waits, return_exceptions=True)


async def finish(tasks: list[asyncio.Task], stop: asyncio.Event,
                 grace_s: float = STOP_GRACE_S) -> None:
    """Stop the loops: set `stop`, let each finish its pass, cancel what is still running
    after `grace_s`."""
    stop.set()
    if not tasks:
        return
    _, late = await asyncio.wait(tasks, timeout=grace_s)
    for t in late:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
