"""Smoothed paths: never longer than the grid path, never through a blocked tile; the clearance kernel against brute force."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import HexGrid, Map, Path, SquareGrid, StaggeredGrid
from wargrid.tactics import line_clear, smooth_path
from wargrid.tactics.smoothing import unwrap_cells

BOARDS = {
    "square4": lambda: SquareGrid(10, 8),
    "square8": lambda: SquareGrid(10, 8, diagonal=True),
    "square8-always": lambda: SquareGrid(10, 8, diagonal=True, corner_rule="always"),
    "hex-flat": lambda: HexGrid(10, 8, orientation="flat", offset="even-q"),
    "hex-pointy": lambda: HexGrid(10, 8, orientation="pointy", offset="odd-r"),
    "hex-wrap": lambda: HexGrid(10, 8, wrap_x=True),
    "staggered-cols": lambda: StaggeredGrid(10, 8),
    "staggered-rows": lambda: StaggeredGrid(10, 8, stagger="rows"),
    "square8-wrap": lambda: SquareGrid(9, 8, diagonal=True, wrap_x=True),
}
IDS = list(BOARDS)
GRIDS = {k: f() for k, f in BOARDS.items()}


def clip(ax, ay, bx, by, poly):
    """Cyrus-Beck: the parameter range of segment a-b inside a convex polygon (clockwise or not), or None."""
    t0, t1 = 0.0, 1.0
    n = len(poly)
    # orientation of the polygon
    area2 = sum(poly[i][0] * poly[(i + 1) % n][1] - poly[(i + 1) % n][0] * poly[i][1] for i in range(n))
    sgn = 1.0 if area2 > 0 else -1.0
    dx, dy = bx - ax, by - ay
    for i in range(n):
        (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % n]
        # inward normal
        nx, ny = -(y1 - y0) * sgn, (x1 - x0) * sgn
        num = (ax - x0) * nx + (ay - y0) * ny
        den = dx * nx + dy * ny
        if abs(den) <= 1e-9 * math.hypot(dx, dy) * math.hypot(nx, ny):
            if num < -1e-12:
                return None
            continue
        t = -num / den
        if den > 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1 + 1e-12:
            return None
    return t0, t1


_TILES = {}


def blocked_tiles(g, passable):
    """Polygons of every blocked or off-board tile a segment between on-board centres could touch."""
    key = id(g)
    if key not in _TILES:
        xs = range(-g.width - 1, 2 * g.width + 1) if g.wrap_x else range(-1, g.width + 1)
        vx, vy = np.meshgrid(np.array(list(xs)), np.arange(-1, g.height + 1))
        vx, vy = vx.ravel(), vy.ravel()
        rx = vx % g.width if g.wrap_x else vx
        on = (rx >= 0) & (rx < g.width) & (vy >= 0) & (vy < g.height)
        on[on] = g.mask[vy[on], rx[on]]
        cx, cy = g.centers_of(vx, vy)
        _TILES[key] = (g, rx, vy, on, cx, cy, g.corner_offsets())
    _, rx, vy, on, cx, cy, corners = _TILES[key]
    free = np.zeros(on.shape, dtype=bool)
    free[on] = passable[vy[on], rx[on]]
    return [[(x + ox, y + oy) for ox, oy in corners] for x, y in zip(cx[~free].tolist(), cy[~free].tolist())], [
        (x, y) for x, y in zip(cx[~free].tolist(), cy[~free].tolist())]


def brute_clear(g, passable, a_virtual, b_virtual):
    """Slow: no blocked or off-board tile meets the closed segment (touching counts)."""
    cx, cy = g.centers_of(np.array([a_virtual[0], b_virtual[0]]), np.array([a_virtual[1], b_virtual[1]]))
    polys, _ = blocked_tiles(g, passable)
    return all(clip(cx[0], cy[0], cx[1], cy[1], poly) is None for poly in polys)


def crosses_interior(g, passable, p, q):
    """Exact: the segment p-q runs a positive length inside a blocked or off-board tile shrunk by 1e-7."""
    polys, centres = blocked_tiles(g, passable)
    for poly, (x, y) in zip(polys, centres):
        small = [(x + (px - x) * (1 - 1e-7), y + (py - y) * (1 - 1e-7)) for px, py in poly]
        r = clip(p[0], p[1], q[0], q[1], small)
        if r is not None and r[1] - r[0] > 1e-9:
            return True
    return False


def random_map(name, seed, density):
    g = GRIDS[name]
    rng = np.random.default_rng(seed)
    m = Map(g)
    walls = [(int(x), int(y)) for y, x in zip(*np.nonzero(rng.random(g.shape) < density))]
    if walls:
        m.set_terrain(walls, "mountains")
    return m


@pytest.mark.parametrize("name", IDS)
@settings(max_examples=15)
@given(seed=st.integers(0, 10**6), density=st.sampled_from([0.0, 0.15, 0.3]))
def test_smoothed_never_longer_and_clear(name, seed, density):
    m = random_map(name, seed, density)
    g = m.grid
    ok = m.passable(unit="cavalry")
    free = [c for c in g.cells() if ok[c[1], c[0]]]
    if len(free) < 2:
        return
    rng = np.random.default_rng(seed + 1)
    a, b = (free[i] for i in rng.choice(len(free), 2, replace=False))
    p = m.path(a, b, unit="cavalry")
    if p is None:
        return
    s = m.smooth_path(p)
    assert s.cells[0] == p.cells[0] and s.cells[-1] == p.cells[-1]
    assert s.length <= s.grid_length + 1e-9
    # waypoints are a subsequence of the grid path
    idx = []
    pos = 0
    for c in s.cells:
        pos = p.cells.index(c, pos)
        idx.append(pos)
    vx, vy = unwrap_cells(g, p.cells)
    cx, cy = g.centers_of(vx, vy)
    assert np.allclose(s.points, list(zip(cx[idx], cy[idx])))
    assert math.isclose(s.grid_length, float(np.hypot(np.diff(cx), np.diff(cy)).sum()))
    for i, j in zip(idx[:-1], idx[1:]):
        p0, p1 = (cx[i], cy[i]), (cx[j], cy[j])
        if j > i + 1:
            assert brute_clear(g, ok, (vx[i], vy[i]), (vx[j], vy[j]))
        assert not crosses_interior(g, ok, p0, p1)
        if not g.wrap_x:  # dense sampling: every point lies in a passable cell
            for t in np.linspace(0.0, 1.0, 200):
                c = g.cell_at(p0[0] + t * (p1[0] - p0[0]), p0[1] + t * (p1[1] - p0[1]))
                assert c is not None and ok[c[1], c[0]]


@pytest.mark.parametrize("name", [n for n in IDS if "wrap" not in n])
@settings(max_examples=20)
@given(seed=st.integers(0, 10**6))
def test_line_clear_matches_brute_force(name, seed):
    g = GRIDS[name]
    rng = np.random.default_rng(seed)
    ok = rng.random(g.shape) > 0.2
    cells = list(g.cells())
    for _ in range(6):
        a, b = (cells[i] for i in rng.choice(len(cells), 2))
        if not ok[a[1], a[0]]:
            ok[a[1], a[0]] = True
        assert line_clear(g, ok, a, b) == brute_clear(g, ok, a, b), (a, b)


def test_reference_values():
    g = SquareGrid(5, 5, diagonal=True)
    open_ = np.ones((5, 5), dtype=bool)
    s = smooth_path(g, open_, [(0, 0), (1, 0), (2, 0), (3, 1), (4, 1)])
    assert s.cells == [(0, 0), (4, 1)] and math.isclose(s.length, math.hypot(4, 1))
    # a blocked tile whose corner the straight line would touch keeps the corner waypoint
    wall = open_.copy()
    wall[0, 1] = False
    assert not line_clear(g, wall, (0, 1), (2, 0))
    assert line_clear(g, open_, (0, 1), (2, 0))
    # a diagonal between two blocked corners is not clear, but the grid step is kept
    corner = open_.copy()
    corner[0, 1] = corner[1, 0] = False
    s = smooth_path(SquareGrid(5, 5, diagonal=True, corner_rule="always"), corner, [(0, 0), (1, 1), (2, 2)])
    assert s.cells == [(0, 0), (1, 1), (2, 2)]
    h = HexGrid(6, 6)
    s = smooth_path(h, np.ones((6, 6), dtype=bool), [(0, 2), (1, 2), (2, 2)])
    assert s.cells == [(0, 2), (2, 2)] and math.isclose(s.grid_length, 2 * math.sqrt(3))
    # along the top row the straight line runs on the edge of the hexes off the board: not clear
    assert smooth_path(h, np.ones((6, 6), dtype=bool), [(0, 0), (1, 0), (2, 0)]).cells == [(0, 0), (1, 0), (2, 0)]
    # across the seam of a wrapped board the points keep going
    w = SquareGrid(6, 2, wrap_x=True)
    s = smooth_path(w, np.ones((2, 6), dtype=bool), [(1, 0), (0, 0), (5, 0), (4, 0)])
    assert s.cells == [(1, 0), (4, 0)] and s.points == [(1.5, 0.5), (-1.5, 0.5)] and s.length == 3.0


def test_bad_input():
    m = Map(SquareGrid(4, 4))
    m.set_terrain([(2, 2)], "water")
    with pytest.raises(ValueError, match="neighbour"):
        m.smooth_path([(0, 0), (2, 0)])
    with pytest.raises(ValueError, match="impassable"):
        m.smooth_path([(1, 2), (2, 2)], unit="foot")
    with pytest.raises(ValueError, match="at least one"):
        m.smooth_path([])
    with pytest.raises(IndexError, match="path\\[1\\]"):
        m.smooth_path([(0, 0), (0, -1)])
    with pytest.raises(TypeError, match="path"):
        m.smooth_path(5)
    with pytest.raises(TypeError, match="passable"):
        smooth_path(m.grid, np.ones((4, 4)), [(0, 0)])
    assert m.smooth_path(Path([(1, 1)], 0.0)).length == 0.0
