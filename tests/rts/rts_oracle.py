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


def classic_walk(grid: Grid, costs: np.ndarray, start, goal, *, limit: int, retries: int = 5,
                 euclidean: bool = False) -> tuple[list, str]:
    """The classic walk (straight line, edge following both ways, no optimiser) in plain Python.

    The two walks round an obstacle are compared in moves (``euclidean=True``:
    by their lengths, which the classic engine does not do); at most
    ``retries`` landing cells beyond an obstacle are tried after the first.

    Uses only the grid's public API (``neighbor``, ``center``) so that it checks the
    kernel's padded offsets, parity and wrap. Boards without masks only.
    """
    ndir = grid.ndir
    cx0, cy0 = grid.centers_of(np.array([2]), np.array([2]))
    ang = []
    for d in range(ndir):
        t = grid.topology
        nx, ny = grid.centers_of(np.array([2 + int(t.dx[0, d])]), np.array([2 + int(t.dy[0, d])]))
        ang.append(math.atan2(float(ny[0] - cy0[0]), float(nx[0] - cx0[0])))
    order = sorted(range(ndir), key=lambda d: (ang[d], d))
    rank = {d: r for r, d in enumerate(order)}
    period = 0.0
    if grid.wrap_x:
        a = grid.center((0, 0))[0]
        b = grid.center((grid.width - 1, 0))[0]
        period = (b - a) * grid.width / (grid.width - 1)

    def d2(a, b):
        (ax, ay), (bx, by) = grid.center(a), grid.center(b)
        dx = ax - bx
        if period:
            dx -= period * math.floor(dx / period + 0.5)
        return dx * dx + (ay - by) ** 2

    def toward(c):
        best, bd = None, d2(c, goal) - 1e-9
        for d in range(ndir):
            n = grid.neighbor(c, d)
            if n is not None and d2(n, goal) < bd:
                best, bd = d, d2(n, goal)
        return best

    def can(c, d):
        n = grid.neighbor(c, d)
        return n if n is not None and n in legal_steps(grid, costs, c) else None

    def free(c):
        return math.isfinite(costs[c[1], c[0]])

    def follow(cur, bdir, target, hand):
        p, r0, first, length, walk = cur, rank[bdir], None, 0.0, []
        for _ in range(limit):
            found = None
            for k in range(ndir):
                dd = order[(r0 + hand * k) % ndir]
                if can(p, dd) is not None:
                    found = dd
                    break
            if found is None:
                return math.inf, []
            if p == cur:
                if first == found:
                    return math.inf, []
                if first is None:
                    first = found
            p = can(p, found)
            length += float(grid.topology.step[found]) if euclidean else 1.0
            walk.append(p)
            if p == target:
                return length, walk
            r0 = (rank[found] + ndir // 2 + hand) % ndir
        return math.inf, []

    path, cur = [start], start
    while cur != goal:
        d = toward(cur)
        if d is None:
            return path, "blocked"
        q = can(cur, d)
        if q is not None:
            path.append(q)
            cur = q
            continue
        t = grid.neighbor(cur, d)
        blocked = not free(t)
        tries = 0
        while True:
            if blocked:
                while not free(t) and t != goal:
                    e = toward(t)
                    if e is None:
                        return path, "blocked"
                    t = grid.neighbor(t, e)
                if not free(t):
                    return path, "blocked"
            la, wa = follow(cur, d, t, 1)
            lb, wb = follow(cur, d, t, -1)
            if la < math.inf or lb < math.inf:
                path += wa if la <= lb else wb
                cur = t
                break
            if t == goal or tries >= retries:
                return path, "blocked"
            tries += 1
            while free(t) and t != goal:
                e = toward(t)
                if e is None:
                    return path, "blocked"
                t = grid.neighbor(t, e)
            blocked = not free(t)
    return path, "arrived"
