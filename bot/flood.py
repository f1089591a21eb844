"""Per-user flood limit: a token bucket (burst `capacity`, refilled at `rate` per second).

A user over the limit gets one polite answer per `notice_every` seconds; their extra updates
are dropped (nothing is written for them, so nothing half-done is left)."""
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
    _buckets: dict[int, _Bucket] = field(default_factory=dict)

    def allow(self, user_id: int) -> bool:
        now = self.clock()
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

    def forget_idle(self, older_than: float = 600.0) -> None:
        now = self.clock()
        for uid in [u for u, b in self._buckets.items() if now - b.at > older_than]:
            del self._buckets[uid]
