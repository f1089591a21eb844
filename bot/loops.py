"""Background loops started with the Application and stopped with it: the outbox sender
(messages queued by core services in the same transaction as the change they report; the
sending itself is bot/sender.py) and the periodic deadline sweep. Both are driven by the
database, so a restart resumes them. The sweep's loop also reads the cities served again every
`core.cache_seconds` (refresh_cities). They rest and stop as every background loop does
(core.stopping: `rest`, `finish`, re-exported here)."""
from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from datetime import timedelta

from bot.sender import DeliveryState, send_due, sender_is_dead
from core.services.context import Core
from core.stopping import STOP_GRACE_S, finish, rest  # noqa: F401 (the loops' stop, shared)
from core.services.periodic import give_up, run_if_due
from core.services.messaging.delivery import release_orphaned_claims
from core.services.errors import StorageUnavailable
from core.services.installation.metrics import SWEEP_DURATION

log = logging.getLogger(__name__)

@dataclass
class LoopSettings:
    outbox_interval_s: float = 1.0
    outbox_batch: int = 20
    sweep_interval_s: float = 300.0
    lease_poll_s: float = 15.0  # how often a worker without the sweep's lease tries to take it


async def outbox_loop(bot, core: Core, settings: LoopSettings, wake: asyncio.Event,
                      state: DeliveryState | None = None,
                      stop: asyncio.Event | None = None) -> None:
    """Send what is due; sleep until woken (a message queued by this process), the next poll,
    or — while Telegram is down — the next probe."""
    state = state or DeliveryState()
    stop = stop or asyncio.Event()
    try:
        # this process's name is new: what an earlier process of this host left is "orphaned"
        if released := await release_orphaned_claims(core.db, state.name, sender_is_dead):
            log.warning("outbox: %s message(s) left mid-delivery by a dead sender are due again",
                        released)
    except StorageUnavailable as exc:
        log.warning("outbox: database unavailable: %s", exc.detail)
    while not stop.is_set():
        try:
            sent = await send_due(bot, core, settings.outbox_batch, state)
        except StorageUnavailable as exc:
            log.warning("outbox: database unavailable: %s", exc.detail)
            sent = 0
        except Exception:
            log.exception("outbox pass failed")
            sent = 0
        if sent:
            continue
        pause = settings.outbox_interval_s
        if state.destination.is_down:
            pause = max(0.05, state.destination.wait_s())  # a wake does not hurry the probe
            await rest(stop, pause)
            continue
        await rest(stop, pause, wake)
        wake.clear()


async def refresh_cities(core: Core, read_at: float) -> float:
    """Every `core.cache_seconds` (checked at each turn of the sweep's loop, every
    `lease_poll_s` at most), the municipality records read again: a city added or changed in
    the panel (another process) reaches the bot without a restart. Returns when they were
    last read."""
    if time.monotonic() - read_at < core.cache_seconds:
        return read_at
    try:
        await core.load_cities()
    except StorageUnavailable as exc:
        log.warning("cities: database unavailable: %s", exc.detail)
        return read_at
    except Exception:
        log.exception("cities: reading the municipalities failed")
        return read_at
    return time.monotonic()


async def sweep_loop(core: Core, settings: LoopSettings, wake: asyncio.Event,
                     holder: str = "bot", stop: asyncio.Event | None = None) -> None:
    """Every `sweep_interval_s`, in one worker at a time (core.services.periodic.run_if_due):
    each worker tries the lease every `lease_poll_s` at most, so a dead worker's sweep is
    taken over within the lease (core.storage.leases.LEASE) + lease_poll_s (under a minute)."""
    every = timedelta(seconds=settings.sweep_interval_s)
    poll = min(settings.sweep_interval_s, settings.lease_poll_s)
    read_at = time.monotonic()
    stop = stop or asyncio.Event()
    try:
        while not stop.is_set():
            read_at = await refresh_cities(core, read_at)
            try:
                started = time.perf_counter()
                report = await run_if_due(core, holder, every)  # lapses, warnings, reminders...
                if report is not None:
                    SWEEP_DURATION.set(time.perf_counter() - started)
                if report and (report.sweep.moved or report.sweep.refused):
                    log.info("sweep: moved %s, refused %s", report.sweep.moved,
                             report.sweep.refused)
                if report and report.queued_messages:
                    wake.set()  # their messages are in the outbox
            except StorageUnavailable as exc:
                log.warning("sweep: database unavailable: %s", exc.detail)
            except Exception:
                log.exception("deadline sweep failed")
            await rest(stop, poll)
    finally:
        try:  # stopping cleanly: another worker may take the sweep over at once
            await asyncio.shield(give_up(core, holder))
        except Exception:
            pass
