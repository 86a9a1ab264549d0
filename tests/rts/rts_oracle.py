"""Slow, obviously-right helpers for the rts tests: neighbour steps with the corner rule, Dijkstra."""

from __future__ import annotations

import heapq
import math

import numpy as np

from wargrid import Grid


def legal_steps(grid: Grid, costs: np.ndarray, cell: tuple[int, int]) -> dict[tuple[int, int], float]:
    """Neighbours of ``cell`` a unit may step to (passable, corner rule kept) and the step lengths."""
    out = {}
    rule = getattr(grid, "corner_rule", "always") if getattr(grid, "diagonal", False) else "always"
    for s in grid.steps(cell):
        nx, ny = s.cell
        if not math.isfinite(costs[ny, nx]):
            continue
        dx, dy = nx - cell[0], ny - cell[1]
        if grid.wrap_x and abs(dx) > 1:
            dx = -int(np.sign(dx))
        if dx and dy and rule != "always":
            a = math.isfinite(costs[cell[1], (cell[0] + dx) % grid.width])
            b = math.isfinite(costs[ny, cell[0]])
            if (rule == "no-obstacle" and not (a and b)) or (rule == "one-obstacle" and not (a or b)):
                continue
        out[s.cell] = s.length
    return out


def dijkstra(grid: Grid, costs: np.ndarray, start: tuple[int, int], goal: tuple[int, int]) -> float:
    """Cheapest cost (step length x entry cost) from start to goal, ``inf`` if unreachable."""
    dist = {start: 0.0}
    heap = [(0.0, start)]
    while heap:
        d, c = heapq.heappop(heap)
        if c == goal:
            return d
        if d > dist[c]:
            continue
        for n, length in legal_steps(grid, costs, c).items():
            nd = d + length * float(costs[n[1], n[0]])
            if nd < dist.get(n, math.inf):
                dist[n] = nd
                heapq.heappush(heap, (nd, n))
    return math.inf


def check_walk(grid: Grid, costs: np.ndarray, cells: list[tuple[int, int]]) -> float:
    """Assert every step is legal; return the walk's cost."""
    total = 0.0
    for a, b in zip(cells, cells[1:]):
        steps = legal_steps(grid, costs, a)
        assert b in steps, f"illegal step {a} -> {b}"
        total += steps[b] * float(costs[b[1], b[0]])
    return total
