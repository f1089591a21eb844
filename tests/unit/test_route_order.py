"""The visiting order's method (core.services.inspectors.route_order) against the optimum:
exact (Held-Karp) on 10 random stops; on 30 random stops against the best of many random
restarts and the Held-Karp lower bound (no path is shorter), figures printed (`-s`)."""
from __future__ import annotations

import itertools
import random
import statistics

import pytest

from core.services.inspectors import route_order as R

CENTRE = (-19.4628, -45.6003)


def points(rng: random.Random, n: int) -> list[tuple[float, float]]:
    """The start and `n` stops spread over ~6 km around the centre."""
    return [(CENTRE[0] + rng.uniform(-0.03, 0.03), CENTRE[1] + rng.uniform(-0.03, 0.03))
            for _ in range(n + 1)]


def test_a_straight_street_is_walked_end_to_end():
    stops = [(-19.46, -45.60 - 0.001 * k) for k in (0, 3, 1, 4, 2)]
    assert R.order(stops) == [2, 4, 1, 3]
    assert R.order(stops[:1]) == [] and R.order(stops[:2]) == [1]


def test_up_to_11_stops_the_order_is_the_exact_optimum():
    rng = random.Random(11)
    for n in (3, 7, 11):
        p = points(rng, n)
        d = R.matrix(p)
        path = [0, *R.order(p)]
        assert sorted(path) == list(range(n + 1))
        brute = min(R.length([0, *rest], d) for rest in itertools.permutations(
            range(1, n + 1))) if n <= 7 else R.held_karp(d)
        assert R.length(path, d) == pytest.approx(brute)


def test_heuristic_on_10_stops_against_the_exact_optimum():
    rng = random.Random(10)
    gaps, nn_gaps = [], []
    for _ in range(20):
        p = points(rng, 10)
        d = R.matrix(p)
        best = R.held_karp(d)
        ours = R.length(R.heuristic(d), d)
        nn = R.length(R.nearest_neighbour(d), d)
        assert best - 1e-6 <= ours <= nn + 1e-6
        gaps.append(ours / best - 1)
        nn_gaps.append(nn / best - 1)
    print(f"\n10 stops, 20 draws: gap to the exact optimum mean {statistics.mean(gaps):.2%}, "
          f"max {max(gaps):.2%} (nearest neighbour alone: mean {statistics.mean(nn_gaps):.2%})")
    assert statistics.mean(gaps) < 0.01


def test_gap_on_30_stops_against_the_lower_bound_and_many_restarts():
    rng = random.Random(30)
    proven, found, plain = [], [], []
    for draw in range(5):
        p = points(rng, 30)
        d = R.matrix(p)
        ours = R.length([0, *R.order(p)], d)
        no_kicks = R.length([0, *R.order(p, kicks=0)], d)
        bound = R.lower_bound(d)
        reference = R.best_of_restarts(d, 50, seed=draw)
        assert bound <= min(ours, reference) + 1e-6  # a bound no path beats
        proven.append(ours / bound - 1)
        found.append(ours / min(reference, ours) - 1)
        plain.append(no_kicks / bound - 1)
    print(f"\n30 stops, 5 draws: gap to the optimum at most {statistics.mean(proven):.2%} mean, "
          f"{max(proven):.2%} max (Held-Karp lower bound); to the best of 50 restarts "
          f"{statistics.mean(found):.2%} mean; without the restarts at most "
          f"{statistics.mean(plain):.2%} mean")
    assert max(proven) < 0.03
