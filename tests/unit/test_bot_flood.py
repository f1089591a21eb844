"""The per-user flood limit (bot/flood.py) forgets the users who went quiet: over a long run
with a new user every moment it holds the recent users' buckets only, and forgetting a bucket
changes nothing for its user (a full burst, one notice per period)."""
from __future__ import annotations

from bot.flood import FloodLimit


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0  # like time.monotonic(): far from zero

    def __call__(self) -> float:
        return self.now


def test_the_buckets_do_not_grow_with_every_user_ever_seen():
    clock = Clock()
    limit = FloodLimit(capacity=20, rate=2, notice_every=10, clock=clock, prune_every=60)
    for user in range(100_000):  # a new person every 0.1 s for almost three hours
        clock.now = 1000.0 + user * 0.1
        assert limit.allow(user)
    # recent users only: at most those of the last idle period plus one pruning interval
    assert limit.tracked <= (limit.idle_after() + limit.prune_every) / 0.1 + 1
    assert limit.tracked < 1_000


def test_the_checker_sees_growth_without_pruning():
    clock = Clock()
    limit = FloodLimit(clock=clock, prune_every=float("inf"))
    for user in range(5_000):
        clock.now = 1000.0 + user * 0.1
        limit.allow(user)
    assert limit.tracked == 5_000


def test_a_forgotten_user_gets_a_full_burst_and_a_flooder_is_not_forgotten():
    clock = Clock()
    limit = FloodLimit(capacity=3, rate=1, notice_every=10, clock=clock, prune_every=1)
    assert [limit.allow(1) for _ in range(4)] == [True, True, True, False]  # the flooder
    assert limit.should_notice(1)
    clock.now = 1005.0  # bucket 1 quiet 5 s, still within its notice period: kept
    limit.allow(2)
    assert limit.tracked == 2 and not limit.should_notice(1)
    clock.now = 1100.0
    limit.allow(3)  # the pruning pass: 1 and 2 have been quiet long enough
    assert limit.tracked == 1
    assert [limit.allow(1) for _ in range(4)] == [True, True, True, False]
