"""The visiting order of a day's stops: the shortest open path from a fixed start through
every stop (the end is free: the inspector ends the day at the last stop).

Choice: up to EXACT_MAX stops, the exact optimum (Held-Karp dynamic programming); beyond,
nearest neighbour, then improved by 2-opt (reverse a stretch of the path) and Or-opt (move a
run of 1 to 3 stops elsewhere) until neither shortens it, then double-bridge restarts (iterated
local search) kept when shorter. No solver library: a route of a day has tens of stops, for
which this takes a fraction of a second in pure Python, and a new dependency (OR-Tools is
~100 MB) buys little. The heuristic's measured gap to the optimum is printed by
`python -m benchmarks --only route` and checked by tests/unit/test_route_order.py: against the
exact optimum on 10 stops, and on 30 random stops against the best of many random restarts and
against the Held-Karp lower bound (Lagrangian 1-trees), which proves the gap is at most the
figure printed.

Distances are great-circle metres by default; `order(points, distance=...)` takes another
distance (road distances from a routing service, where a city configures one, plug in here).
"""
from __future__ import annotations

import math
import random
import time
from typing import Callable, Sequence

Point = tuple[float, float]  # (lat, lon)
EARTH_RADIUS_M = 6_371_009.0  # geopy's great_circle radius (mean earth radius)
KICKS = 50  # double-bridge restarts: ~0.6 s for 30 stops on one core
BUDGET_S = 1.0  # a longer day stops restarting after this (a bot's answer waits for it)
EXACT_MAX = 11  # up to this many stops, the exact optimum (Held-Karp)


def great_circle_m(a: Point, b: Point) -> float:
    """Haversine distance in metres."""
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((la2 - la1) / 2) ** 2 + \
        math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * EARTH_RADIUS_M * math.asin(min(1.0, math.sqrt(h)))


def matrix(points: Sequence[Point],
           distance: Callable[[Point, Point], float] = great_circle_m) -> list[list[float]]:
    return [[0.0 if i == j else distance(a, b) for j, b in enumerate(points)]
            for i, a in enumerate(points)]


def length(path: Sequence[int], d: Sequence[Sequence[float]]) -> float:
    return sum(d[a][b] for a, b in zip(path, path[1:]))


def nearest_neighbour(d: Sequence[Sequence[float]], start: int = 0) -> list[int]:
    left = set(range(len(d))) - {start}
    path = [start]
    while left:
        here = path[-1]
        nxt = min(left, key=lambda j: (d[here][j], j))
        path.append(nxt)
        left.remove(nxt)
    return path


def two_opt(path: list[int], d: Sequence[Sequence[float]]) -> bool:
    """Reverse path[i..j] while that shortens the open path (path[0] stays first)."""
    n, improved, any_change = len(path), True, False
    while improved:
        improved = False
        for i in range(1, n - 1):
            a, b = path[i - 1], path[i]
            for j in range(i + 1, n):
                c = path[j]
                delta = d[a][c] - d[a][b]
                if j + 1 < n:
                    e = path[j + 1]
                    delta += d[b][e] - d[c][e]
                if delta < -1e-9:
                    path[i:j + 1] = reversed(path[i:j + 1])
                    b = path[i]
                    improved = any_change = True
    return any_change


def or_opt(path: list[int], d: Sequence[Sequence[float]]) -> bool:
    """Move a run of 1–3 stops (either way round) to where it shortens the path most."""
    any_change = False
    improved = True
    while improved:
        improved = False
        n = len(path)
        for size in (1, 2, 3):
            for i in range(1, n - size + 1):
                seg = path[i:i + size]
                prev, nxt = path[i - 1], path[i + size] if i + size < n else None
                gain = d[prev][seg[0]] + (d[seg[-1]][nxt] - d[prev][nxt] if nxt is not None
                                          else 0.0)
                rest = path[:i] + path[i + size:]
                best, where, flip = 1e-9, None, False
                for k in range(len(rest)):
                    p, q = rest[k], rest[k + 1] if k + 1 < len(rest) else None
                    for rev in (False, True):
                        first, last = (seg[-1], seg[0]) if rev else (seg[0], seg[-1])
                        cost = d[p][first] + (d[last][q] - d[p][q] if q is not None else 0.0)
                        if gain - cost > best:
                            best, where, flip = gain - cost, k, rev
                if where is not None:
                    moved = list(reversed(seg)) if flip else seg
                    path[:] = rest[:where + 1] + moved + rest[where + 1:]
                    improved = any_change = True
                    break
            if improved:
                break
    return any_change


def improve(path: list[int], d: Sequence[Sequence[float]]) -> list[int]:
    while two_opt(path, d) | or_opt(path, d):
        pass
    return path


def kicked(path: list[int], d: Sequence[Sequence[float]], kicks: int, seed: int = 0,
           budget_s: float | None = None) -> list[int]:
    """Iterated local search: cut the best path in three places, join the pieces in another
    order (a "double bridge", which 2-opt cannot undo), improve, keep it if shorter; at most
    `kicks` times, and no longer than `budget_s` seconds when given."""
    rng = random.Random(seed)
    until = None if budget_s is None else time.perf_counter() + budget_s
    best, best_len = path, length(path, d)
    n = len(path)
    if n < 5:
        return best
    for _ in range(kicks):
        if until is not None and time.perf_counter() > until:
            break
        i, j, k = sorted(rng.sample(range(1, n), 3))
        trial = improve(best[:i] + best[j:k] + best[i:j] + best[k:], d)
        trial_len = length(trial, d)
        if trial_len < best_len - 1e-9:
            best, best_len = trial, trial_len
    return best


def order(points: Sequence[Point],
          distance: Callable[[Point, Point], float] = great_circle_m,
          kicks: int = KICKS, budget_s: float | None = BUDGET_S) -> list[int]:
    """Indexes of `points[1:]` in visiting order from `points[0]` (the start): the exact
    shortest path up to EXACT_MAX stops, else `heuristic`."""
    if len(points) <= 2:
        return list(range(1, len(points)))
    d = matrix(points, distance)
    if len(points) - 1 <= EXACT_MAX:
        return held_karp_path(d)[1:]
    return heuristic(d, kicks, budget_s)[1:]


def heuristic(d: Sequence[Sequence[float]], kicks: int = KICKS,
              budget_s: float | None = None) -> list[int]:
    """Nearest neighbour, 2-opt and Or-opt, then up to `kicks` double-bridge restarts
    (deterministic without a time budget): the path from node 0."""
    return kicked(improve(nearest_neighbour(d), d), d, kicks, budget_s=budget_s)


# -- yardsticks (benchmark and tests) ----------------------------------------------------------

def held_karp(d: Sequence[Sequence[float]]) -> float:
    """The length of the exact shortest open path from node 0 through all nodes."""
    return length(held_karp_path(d), d)


def held_karp_path(d: Sequence[Sequence[float]]) -> list[int]:
    """The exact shortest open path from node 0 through all nodes, by dynamic programming
    over subsets (Held-Karp, O(2ⁿ·n²): a few tenths of a second at n = 11)."""
    n = len(d) - 1
    if n <= 1:
        return list(range(n + 1))
    full = 1 << n
    best = [[math.inf] * n for _ in range(full)]
    came = [[-1] * n for _ in range(full)]
    for j in range(n):
        best[1 << j][j] = d[0][j + 1]
    for mask in range(1, full):
        row = best[mask]
        for j in range(n):
            cost = row[j]
            if cost == math.inf or not mask >> j & 1:
                continue
            for k in range(n):
                if mask >> k & 1:
                    continue
                nm = mask | 1 << k
                c = cost + d[j + 1][k + 1]
                if c < best[nm][k]:
                    best[nm][k] = c
                    came[nm][k] = j
    mask, j = full - 1, min(range(n), key=lambda k: best[full - 1][k])
    back = []
    while j != -1:
        back.append(j + 1)
        mask, j = mask & ~(1 << j), came[mask][j]
    return [0, *reversed(back)]


def best_of_restarts(d: Sequence[Sequence[float]], restarts: int, seed: int = 0) -> float:
    """The shortest path found by 2-opt + Or-opt from `restarts` random orders (a reference,
    not a proof of optimality)."""
    rng = random.Random(seed)
    best = length(improve(nearest_neighbour(d), d), d)
    for _ in range(restarts):
        rest = list(range(1, len(d)))
        rng.shuffle(rest)
        best = min(best, length(improve([0, *rest], d), d))
    return best


def lower_bound(d: Sequence[Sequence[float]], iterations: int = 300) -> float:
    """The Held-Karp lower bound of the shortest open path from node 0 (Lagrangian 1-trees
    with subgradient steps): no path is shorter. The path is a tour through an added node
    joined to node 0 at cost -M and to every other node at cost 0."""
    n = len(d)
    big = 10 * sum(max(row) for row in d) + 1.0
    dummy = n
    cost = [list(row) + [0.0] for row in d] + [[0.0] * (n + 1)]
    cost[0][dummy] = cost[dummy][0] = -big
    m = n + 1
    pi = [0.0] * m
    best, upper = -math.inf, length(improve(nearest_neighbour(d), d), d)
    step_scale = 2.0
    stale = 0
    for _ in range(iterations):
        w = [[cost[i][j] + pi[i] + pi[j] for j in range(m)] for i in range(m)]
        degree, tree = _one_tree(w, dummy)
        bound = tree - 2 * sum(pi) + big
        if bound > best + 1e-9:
            best, stale = bound, 0
        else:
            stale += 1
            if stale >= 20:
                step_scale, stale = step_scale / 2, 0
        sub = [g - 2 for g in degree]
        norm = sum(g * g for g in sub)
        if norm == 0 or step_scale < 1e-6:
            break  # the 1-tree is a tour: the bound is the optimum
        t = step_scale * (upper - bound) / norm
        pi = [p + t * g for p, g in zip(pi, sub)]
    return best


def _one_tree(w: list[list[float]], special: int) -> tuple[list[int], float]:
    """A minimum spanning tree of all nodes but `special` (Prim) plus `special`'s two
    cheapest edges: (degree of each node, total weight)."""
    m = len(w)
    nodes = [i for i in range(m) if i != special]
    degree = [0] * m
    inside = {nodes[0]}
    near = {v: (w[nodes[0]][v], nodes[0]) for v in nodes[1:]}
    total = 0.0
    while near:
        v = min(near, key=lambda k: near[k][0])
        weight, u = near.pop(v)
        total += weight
        degree[u] += 1
        degree[v] += 1
        inside.add(v)
        for k in near:
            if w[v][k] < near[k][0]:
                near[k] = (w[v][k], v)
    two = sorted(nodes, key=lambda k: w[special][k])[:2]
    for k in two:
        total += w[special][k]
        degree[k] += 1
        degree[special] += 1
    return degree, total
