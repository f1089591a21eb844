"""The route of the day's visiting order (core.services.inspectors.route_order): its gap to
the optimum on random stops spread over a city (~6 km), and its time.

- 10 stops: the heuristic against the exact optimum (Held-Karp dynamic programming);
- 30 stops: against the Held-Karp lower bound (no path is shorter, so the gap to the optimum is
  at most the figure) and against the best of 100 random restarts of the same local search.
Figures only: no verdict."""
from __future__ import annotations

import random
import statistics
import time

from core.services.inspectors import route_order as R

CENTRE = (-19.4628, -45.6003)


def _points(rng: random.Random, n: int) -> list[tuple[float, float]]:
    return [(CENTRE[0] + rng.uniform(-0.03, 0.03), CENTRE[1] + rng.uniform(-0.03, 0.03))
            for _ in range(n + 1)]


def _ms(seconds: list[float]) -> str:
    return f"{statistics.median(seconds) * 1000:.0f} ms median, {max(seconds) * 1000:.0f} max"


async def run(quick: bool) -> list[str]:
    draws = 3 if quick else 20
    rng = random.Random(2026)
    exact, nn10, t10 = [], [], []
    for _ in range(draws):
        d = R.matrix(_points(rng, 10))
        best = R.held_karp(d)
        started = time.perf_counter()
        ours = R.length(R.heuristic(d), d)
        t10.append(time.perf_counter() - started)
        exact.append(ours / best - 1)
        nn10.append(R.length(R.nearest_neighbour(d), d) / best - 1)
    bound, restarts, plain, t30 = [], [], [], []
    for draw in range(draws):
        d = R.matrix(_points(rng, 30))
        started = time.perf_counter()
        ours = R.length(R.heuristic(d), d)
        t30.append(time.perf_counter() - started)
        lower = R.lower_bound(d)
        reference = R.best_of_restarts(d, 20 if quick else 100, seed=draw)
        bound.append(ours / lower - 1)
        restarts.append(ours / min(ours, reference) - 1)
        plain.append(R.length(R.improve(R.nearest_neighbour(d), d), d) / lower - 1)
    return [
        f"route 10 stops ({draws} draws): gap to the exact optimum mean "
        f"{statistics.mean(exact):.2%}, max {max(exact):.2%} (nearest neighbour alone "
        f"{statistics.mean(nn10):.2%}); {_ms(t10)} — the service uses the exact optimum "
        f"up to {R.EXACT_MAX} stops",
        f"route 30 stops ({draws} draws): gap to the optimum at most "
        f"{statistics.mean(bound):.2%} mean, {max(bound):.2%} max (Held-Karp lower bound); "
        f"to the best of {20 if quick else 100} restarts {statistics.mean(restarts):.2%} mean, "
        f"{max(restarts):.2%} max; without the double-bridge restarts at most "
        f"{statistics.mean(plain):.2%} mean; {_ms(t30)}",
    ]
