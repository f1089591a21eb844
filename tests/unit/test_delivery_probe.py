"""Prompt recovery after a long outage: while Telegram is down the sender
tries one message at a time, at most PROBE_MAX_S apart, so a 60-second outage (or an hour's)
is noticed within PROBE_MAX_S of the Bot API answering again — not after each message's own
growing backoff. Simulated time: the real 60 s run is tests/e2e/test_delivery_faults.py with
FAULT_OUTAGE_S=60."""
from __future__ import annotations

import pytest

from bot.sender import PROBE_MAX_S, Destination


class FakeClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.mark.parametrize("outage_s", [5, 60, 3600])
def test_outage_of_any_length_noticed_within_the_probe_cap(outage_s):
    clock = FakeClock()
    dest = Destination(clock=clock)
    start, probes, noticed = clock.t, 0, None
    assert dest.allowance(20) == 20  # up: a whole batch
    while noticed is None:
        n = dest.allowance(20)
        assert n in (0, 1) or not dest.is_down  # down: never more than one probe at a time
        if n:
            probes += 1
            if clock.t - start < outage_s:
                dest.failed()
            else:
                dest.answered()
                noticed = clock.t - start
        clock.t = clock.t + 0.05 if n else max(clock.t + 0.05, dest.next_probe)
    assert outage_s <= noticed <= outage_s + PROBE_MAX_S + 0.1
    assert probes <= outage_s / PROBE_MAX_S + 6  # a handful, not one per queued message
    assert dest.allowance(20) == 20
