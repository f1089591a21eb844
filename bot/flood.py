"""Per-user flood limit: a token bucket (burst `capacity`, refilled at `rate` per second).

A user over the limit gets one polite answer per `notice_every` seconds; their extra updates
are dropped (nothing is written for them, so nothing half-done is left). The buckets of users
quiet for long enough to be full again (and past their notice period) are forgotten every
`prune_every` seconds, so the table holds the recent users only, not everyone ever seen."""
from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass
class _Bucket:
    tokens: float
    at: float
    noticed_at: float = 0.0


@dataclass
class FloodLimit:
    capacity: float = 20.0
    rate: float = 2.0
    notice_every: float = 10.0
    clock: callable = time.monotonic
    prune_every: float = 60.0
    _buckets: dict[int, _Bucket] = field(default_factory=dict)
    _pruned_at: float | None = None

    @property
    def tracked(self) -> int:
        """How many users' buckets are held."""
        return len(self._buckets)

    def idle_after(self) -> float:
        """A bucket untouched this long is full again and past its notice period: forgetting
        it changes nothing for its user."""
        return max(self.capacity / self.rate, self.notice_every)

    def allow(self, user_id: int) -> bool:
        now = self.clock()
        if self._pruned_at is None:
            self._pruned_at = now
        elif now - self._pruned_at >= self.prune_every:
            self._pruned_at = now
            self.forget_idle()
        b = self._buckets.get(user_id)
        if b is None:
            b = self._buckets[user_id] = _Bucket(self.capacity, now)
        b.tokens = min(self.capacity, b.tokens + (now - b.at) * self.rate)
        b.at = now
        if b.tokens >= 1:
            b.tokens -= 1
            return True
        return False

    def should_notice(self, user_id: int) -> bool:
        """True at most once per `notice_every` seconds for a flooding user."""
        now = self.clock()
        b = self._buckets.setdefault(user_id, _Bucket(self.capacity, now))
        if now - b.noticed_at >= self.notice_every:
            b.noticed_at = now
            return True
        return False

    def forget_idle(self, older_than: float | None = None) -> None:
        older_than = self.idle_after() if older_than is None else older_than
        now = self.clock()
        for uid in [u for u, b in self._buckets.items()
                    if now - max(b.at, b.noticed_at) > older_than]:
            del self._buckets[uid]
