"""Slow, obviously-right movement oracles (plain Python over ``grid.steps``) and board strategies."""

from __future__ import annotations

import heapq
import math

import numpy as np
from hypothesis import strategies as st

from wargrid import HexGrid, SquareGrid, StaggeredGrid
from wargrid.grids.square import SQUARE8_DIRECTIONS
from wargrid.costs import CostField

INF = math.inf


def passable(grid, cost, cell) -> bool:
    x, y = cell
    if grid.wrap_x:
        x %= grid.width
    return 0 <= x < grid.width and 0 <= y < grid.height and bool(grid.mask[y, x]) and math.isfinite(cost[y, x])


def corner_ok(grid, cost, cell, direction) -> bool:
    """The square-8 corner rule, from the board's own description."""
    if not isinstance(grid, SquareGrid) or not grid.diagonal or grid.corner_rule == "always":
        return True
    dx, dy = SQUARE8_DIRECTIONS[direction]
    if not (dx and dy):
        return True
    a = passable(grid, cost, (cell[0] + dx, cell[1]))
    b = passable(grid, cost, (cell[0], cell[1] + dy))
    return (a and b) if grid.corner_rule == "no-obstacle" else (a or b)


def moves(grid, cost, edges, cell):
    """``(neighbour, direction, step cost)`` for every legal step from ``cell``."""
    out = []
    for s in grid.steps(cell):
        nx, ny = s.cell
        c = cost[ny, nx]
        if not math.isfinite(c) or not corner_ok(grid, cost, cell, s.direction):
            continue
        sc = s.length * c
        if edges is not None:
            sc += edges[cell[1], cell[0], s.direction]
        if math.isfinite(sc):
            out.append((s.cell, s.direction, sc))
    return out


def dijkstra(grid, cost, sources, edges=None, stop=None, max_cost=INF):
    """dict cell -> cheapest cost from the nearest source; ``stop`` cells are not expanded (unless sources).

    A source on an impassable cell reaches itself alone, at cost 0 (the rule of
    ``wargrid.movement.search``).
    """
    dist = {s: 0.0 for s in sources if not math.isfinite(cost[s[1], s[0]])}
    heap = [(0.0, s) for s in sources if math.isfinite(cost[s[1], s[0]])]
    heapq.heapify(heap)
    srcs = set(sources)
    while heap:
        d, u = heapq.heappop(heap)
        if u in dist:
            continue
        dist[u] = d
        if stop is not None and stop[u[1], u[0]] and u not in srcs:
            continue
        for v, _, sc in moves(grid, cost, edges, u):
            nd = d + sc
            if v not in dist and nd <= max_cost:
                heapq.heappush(heap, (nd, v))
    return dist


def path_cost(grid, cost, edges, cells):
    """Cost of walking ``cells``; raises AssertionError if a step is illegal."""
    total = 0.0
    for a, b in zip(cells[:-1], cells[1:]):
        legal = {v: sc for v, _, sc in moves(grid, cost, edges, a)}
        assert b in legal, f"step {a} -> {b} is not a legal move"
        total += legal[b]
    return total


GRIDS = st.sampled_from(
    [
        ("square4", {}),
        ("square8", {"corner_rule": "always"}),
        ("square8", {"corner_rule": "no-obstacle"}),
        ("square8", {"corner_rule": "one-obstacle"}),
        ("hex", {"orientation": "flat", "offset": "odd-q"}),
        ("hex", {"orientation": "flat", "offset": "even-q"}),
        ("hex", {"orientation": "pointy", "offset": "odd-r"}),
        ("hex", {"orientation": "pointy", "offset": "even-r"}),
        ("staggered", {"stagger": "columns"}),
        ("staggered", {"stagger": "rows"}),
    ]
)


@st.composite
def grids(draw, max_side=7):
    kind, kw = draw(GRIDS)
    w = draw(st.integers(1, max_side))
    h = draw(st.integers(1, max_side))
    wrap = draw(st.booleans())
    if wrap:
        w = max(w, 3)
    shoved_columns = kw.get("offset") in ("odd-q", "even-q") or kw.get("stagger") == "columns"
    if wrap and shoved_columns and w % 2:
        w += 1
    mask = None
    if draw(st.integers(0, 4)) == 0:
        mask = np.array(draw(st.lists(st.booleans(), min_size=w * h, max_size=w * h)), dtype=bool).reshape(h, w)
        if not mask.any():
            mask[0, 0] = True
    if kind == "square4":
        return SquareGrid(w, h, wrap_x=wrap, mask=mask)
    if kind == "square8":
        return SquareGrid(w, h, diagonal=True, wrap_x=wrap, mask=mask, **kw)
    if kind == "hex":
        return HexGrid(w, h, wrap_x=wrap, mask=mask, **kw)
    return StaggeredGrid(w, h, wrap_x=wrap, mask=mask, **kw)


@st.composite
def boards(draw, max_side=7, edges=True, uniform=False):
    """``(grid, cost (h, w), edges (h, w, ndir) or None)``."""
    g = draw(grids(max_side))
    n = g.width * g.height
    if uniform:
        vals = draw(st.lists(st.sampled_from([1.0, 1.0, 1.0, INF]), min_size=n, max_size=n))
    else:
        vals = draw(st.lists(st.sampled_from([1.0, 2.0, 3.0, 0.5, 1.25, INF]), min_size=n, max_size=n))
    cost = np.array(vals, dtype=np.float64).reshape(g.height, g.width)
    e = None
    if edges and draw(st.booleans()):
        k = g.width * g.height * g.ndir
        e = np.array(draw(st.lists(st.sampled_from([0.0, 0.0, 0.0, 1.0, 2.5, INF]), min_size=k, max_size=k)))
        e = e.reshape(g.height, g.width, g.ndir)
    return g, cost, e


def valid_cells(g):
    return list(g.cells())


def costs_of(g, cost, e):
    return CostField.from_arrays(g, cost, e)
