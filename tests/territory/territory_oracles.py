"""Slow, obviously-right references for the territory tests (plain Python over ``Grid.neighbors``)."""

from __future__ import annotations

from collections import deque

import numpy as np
from hypothesis import strategies as st

from wargrid import HexGrid, SquareGrid, StaggeredGrid


def touching(grid, passable):
    """cell -> passable neighbour cells (topology directions; diagonals on square-8)."""
    out = {}
    for c in grid.cells():
        if passable[c[1], c[0]]:
            out[c] = [n for n in grid.neighbors(c) if passable[n[1], n[0]] and n != c]
    return out


def pieces(grid, owners):
    """player -> sizes of its connected pieces, largest first."""
    adj = touching(grid, owners >= 0)
    seen = set()
    out: dict[int, list[int]] = {}
    for c in adj:
        if c in seen:
            continue
        k = owners[c[1], c[0]]
        seen.add(c)
        q = deque([c])
        size = 0
        while q:
            v = q.popleft()
            size += 1
            for u in adj[v]:
                if u not in seen and owners[u[1], u[0]] == k:
                    seen.add(u)
                    q.append(u)
        out.setdefault(int(k), []).append(size)
    return {k: sorted(v, reverse=True) for k, v in out.items()}


def steps(grid, passable, source):
    """Breadth-first steps from ``source`` over the passable cells."""
    adj = touching(grid, passable)
    dist = {source: 0}
    q = deque([source])
    while q:
        v = q.popleft()
        for u in adj[v]:
            if u not in dist:
                dist[u] = dist[v] + 1
                q.append(u)
    return dist


def zones(grid, passable):
    return pieces(grid, np.where(passable, 0, -1))


KINDS = ("square4", "square8", "odd-q", "even-q", "odd-r", "even-r", "stagger-cols", "stagger-rows")


def make_grid(kind, width, height, wrap=False, mask=None):
    if kind == "square4":
        return SquareGrid(width, height, wrap_x=wrap, mask=mask)
    if kind == "square8":
        return SquareGrid(width, height, diagonal=True, wrap_x=wrap, mask=mask)
    if kind.startswith("stagger"):
        return StaggeredGrid(width, height, stagger="columns" if kind.endswith("cols") else "rows", wrap_x=wrap, mask=mask)
    orient = "flat" if kind.endswith("q") else "pointy"
    return HexGrid(width, height, orientation=orient, offset=kind, wrap_x=wrap, mask=mask)


@st.composite
def boards(draw, *, holes=True, max_side=11):
    """(grid, passable): any board kind, maybe wrapped, maybe with holes and islands."""
    kind = draw(st.sampled_from(KINDS))
    w = draw(st.integers(1, max_side))
    h = draw(st.integers(1, max_side))
    wrap = draw(st.booleans())
    if wrap:
        w = max(w, 3)
    if wrap and kind in ("odd-q", "even-q", "stagger-cols") and w % 2:
        w += 1
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    density = draw(st.sampled_from([0.0, 0.1, 0.25, 0.45])) if holes else 0.0
    passable = rng.random((h, w)) >= density
    if not passable.any():
        passable[h // 2, w // 2] = True
    return make_grid(kind, w, h, wrap), passable
