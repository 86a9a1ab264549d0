"""Cost-aware straight moves: the segment cost rule against a sampling oracle, smoothing never dearer than the
grid path, and Theta* never dearer than A*, its segments clear and priced by the rule."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import HexGrid, Map, SquareGrid, StaggeredGrid
from wargrid.costs import CostField
from wargrid.tactics import any_angle_path, line_clear, segment_cost, smooth_path
from wargrid.tactics.smoothing import step_length

BOARDS = {
    "square4": lambda: SquareGrid(9, 7),
    "square8": lambda: SquareGrid(9, 7, diagonal=True),
    "hex-flat": lambda: HexGrid(9, 7, orientation="flat", offset="even-q"),
    "hex-pointy": lambda: HexGrid(9, 7, orientation="pointy", offset="odd-r"),
    "staggered": lambda: StaggeredGrid(9, 7),
}
GRIDS = {k: f() for k, f in BOARDS.items()}
IDS = list(GRIDS)


def random_costs(g, seed, walls=0.15):
    rng = np.random.default_rng(seed)
    c = rng.choice([1.0, 1.0, 2.0, 3.0, 0.5], size=g.shape)
    c[rng.random(g.shape) < walls] = np.inf
    return c


def inside(px, py, poly, eps=1e-9):
    """Point in a convex polygon (boundary included)."""
    n = len(poly)
    sgn = 0.0
    for i in range(n):
        (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % n]
        cr = (x1 - x0) * (py - y0) - (y1 - y0) * (px - x0)
        if abs(cr) <= eps:
            continue
        if sgn == 0.0:
            sgn = math.copysign(1.0, cr)
        elif math.copysign(1.0, cr) != sgn:
            return False
    return True


def sampled_cost(g, costs, a, b, samples=4000):
    """Oracle: the segment cost rule by the midpoint rule; a sample on a shared edge takes the cheaper tile."""
    (ax, ay), (bx, by) = g.center(a), g.center(b)
    cor = g.corner_offsets()
    near = [c for c in g.cells()]
    centres = {c: g.center(c) for c in near}
    total = 0.0
    for k in range(samples):
        t = (k + 0.5) / samples
        px, py = ax + t * (bx - ax), ay + t * (by - ay)
        best = math.inf
        for c, (cx, cy) in centres.items():
            if abs(cx - px) > 1.01 or abs(cy - py) > 1.01:
                continue
            if inside(px, py, [(cx + ox, cy + oy) for ox, oy in cor]):
                v = costs[b[1], b[0]] if c == a else costs[c[1], c[0]]
                best = min(best, v)
        total += best
    return total / samples * math.hypot(bx - ax, by - ay) / step_length(g)


@pytest.mark.parametrize("name", IDS)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_segment_cost_matches_sampling(name, seed):
    g = GRIDS[name]
    costs = random_costs(g, seed, walls=0.0)
    rng = np.random.default_rng(seed)
    a = (int(rng.integers(1, g.width - 1)), int(rng.integers(1, g.height - 1)))
    b = (int(rng.integers(1, g.width - 1)), int(rng.integers(1, g.height - 1)))
    if a == b or b in g.neighbors(a):
        return
    got = segment_cost(g, CostField.from_arrays(g, costs), a, b)
    assert got == pytest.approx(sampled_cost(g, costs, a, b), rel=2e-3, abs=2e-3)


def test_segment_cost_reference_values():
    g = SquareGrid(4, 1)
    # the start's own stretch is paid at the end's cost: 0.5 * 3 + 1 + 2 + 0.5 * 3
    assert segment_cost(g, CostField.from_arrays(g, [[5.0, 1.0, 2.0, 3.0]]), (0, 0), (3, 0)) == 6.0
    # along a row of hexes the straight line costs what the grid path does
    h = HexGrid(6, 6, orientation="pointy")
    c = np.ones((6, 6)); c[2, 1:5] = [2.0, 3.0, 4.0, 5.0]
    assert segment_cost(h, CostField.from_arrays(h, c), (0, 2), (5, 2)) == pytest.approx(2 + 3 + 4 + 5 + 1)
    # a line along the edge between two rows of flat hexes pays the cheaper row
    f = HexGrid(6, 6)
    c = np.ones((6, 6)); c[2, 1] = 7.0
    assert segment_cost(f, CostField.from_arrays(f, c), (0, 2), (2, 2)) == pytest.approx(math.sqrt(3))
    c[1, 1] = 5.0
    assert segment_cost(f, CostField.from_arrays(f, c), (0, 2), (2, 2)) == pytest.approx(
        (0.5 * 1 + 1 * 5 + 0.5 * 1 + 1 * 1) / math.sqrt(3))
    blocked = np.ones((6, 6)); blocked[1, 1] = np.inf
    assert segment_cost(f, CostField.from_arrays(f, blocked), (0, 2), (2, 2)) == math.inf


def test_issue_example_forest_block():
    """12 x 7 hex board, a forest block, cavalry from (1, 3) to (10, 3): grid path cost 10."""
    m = Map(HexGrid(12, 7))
    m.set_terrain([(x, y) for x in range(4, 8) for y in range(2, 5)], "forest")
    p = m.path((1, 3), (10, 3), unit="cavalry")
    assert p.cost == 10.0
    field = m.cost_field(unit="cavalry")
    straight = segment_cost(m.grid, field, (1, 3), (10, 3))
    assert straight > 17  # the straight line through the forest costs far more than the grid path
    s = m.smooth_path(p)
    assert s.grid_cost == 10.0
    assert s.cells == [(1, 3), (5, 5), (8, 5), (10, 3)]
    assert s.cost == pytest.approx(9.2915026221)
    assert s.cost == pytest.approx(sum(segment_cost(m.grid, field, a, b) for a, b in zip(s.cells, s.cells[1:])))
    a = m.any_angle_path((1, 3), (10, 3), unit="cavalry")
    assert a.cost <= p.cost and a.unit == "cavalry"


@pytest.mark.parametrize("name", IDS + ["hex-wrap"])
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_smoothing_never_dearer_than_the_grid_path(name, seed):
    g = GRIDS.get(name) or HexGrid(10, 7, wrap_x=True)
    costs = random_costs(g, seed)
    field = CostField.from_arrays(g, costs)
    free = [c for c in g.cells() if np.isfinite(costs[c[1], c[0]])]
    rng = np.random.default_rng(seed)
    if len(free) < 2:
        return
    a, b = (free[i] for i in rng.choice(len(free), 2, replace=False))
    from wargrid.movement import shortest_path

    p = shortest_path(g, field, a, b)
    if p is None:
        return
    s = smooth_path(g, field, p)
    assert s.grid_cost == pytest.approx(p.cost)
    assert s.cost <= s.grid_cost * (1 + 1e-9)
    if not g.wrap_x:
        total = sum(segment_cost(g, field, u, v) for u, v in zip(s.cells, s.cells[1:]))
        assert s.cost == pytest.approx(total)


@pytest.mark.parametrize("name", IDS)
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), walls=st.sampled_from([0.0, 0.2, 0.35]))
def test_any_angle_never_dearer_than_astar_and_clear(name, seed, walls):
    g = GRIDS[name]
    costs = random_costs(g, seed, walls)
    field = CostField.from_arrays(g, costs)
    free = [c for c in g.cells() if np.isfinite(costs[c[1], c[0]])]
    rng = np.random.default_rng(seed + 7)
    if len(free) < 2:
        return
    a, b = (free[i] for i in rng.choice(len(free), 2, replace=False))
    check_any_angle(g, field, np.isfinite(costs), a, b)


def check_any_angle(g, field, ok, a, b):
    """The any-angle contract for one query: found exactly when A* finds a path, never dearer, each segment
    longer than a step touching only tiles of ``ok``, and the route's cost the sum of its segments' costs."""
    from wargrid.movement import shortest_path

    p = shortest_path(g, field, a, b)
    r = any_angle_path(g, field, a, b)
    assert (p is None) == (r is None)
    if p is None:
        return
    assert r.cells[0] == a and r.cells[-1] == b
    assert r.cost <= p.cost * (1 + 1e-9)
    total = 0.0
    for u, v in zip(r.cells, r.cells[1:]):
        if v not in g.neighbors(u):
            assert line_clear(g, ok, u, v)
        c = segment_cost(g, field, u, v)
        assert c < math.inf
        total += c
    assert r.cost == pytest.approx(total)


@pytest.mark.parametrize("name", IDS)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_any_angle_is_the_straight_line_on_open_boards(name, seed):
    g = GRIDS[name]
    rng = np.random.default_rng(seed)
    a = (int(rng.integers(0, g.width)), int(rng.integers(0, g.height)))
    b = (int(rng.integers(0, g.width)), int(rng.integers(0, g.height)))
    ok = np.ones(g.shape, dtype=bool)
    if a == b or not line_clear(g, ok, a, b):
        return
    r = any_angle_path(g, CostField.from_arrays(g, np.full(g.shape, 2.0)), a, b)
    (ax, ay), (bx, by) = g.center(a), g.center(b)
    line = math.hypot(bx - ax, by - ay)
    if name == "staggered":
        # a step between staggered tiles costs 1 for a drawing length up to 1.118: bent routes can be cheaper
        assert r.cost <= 2.0 * line / step_length(g) + 1e-9
        return
    # the route is the straight line (waypoints on it may remain where they cost the same)
    assert r.length == pytest.approx(line)
    assert r.cells[0] == a and r.cells[-1] == b
    if b not in g.neighbors(a):
        assert r.cost == pytest.approx(2.0 * line / step_length(g))


def test_any_angle_edges_and_bad_input():
    g = SquareGrid(5, 3, diagonal=True)
    walled = np.ones((3, 5), dtype=bool); walled[:, 2] = False
    assert any_angle_path(g, walled, (0, 1), (4, 1)) is None
    assert any_angle_path(g, walled, (2, 1), (4, 1)) is None
    one = any_angle_path(g, walled, (0, 1), (0, 1))
    assert one.cells == [(0, 1)] and one.cost == 0.0 and one.length == 0.0
    with pytest.raises(ValueError, match="wrapped"):
        any_angle_path(SquareGrid(5, 3, wrap_x=True), np.ones((3, 5), dtype=bool), (0, 0), (4, 0))
    with pytest.raises(ValueError, match="another board"):
        any_angle_path(g, CostField.from_arrays(SquareGrid(4, 3), np.ones((3, 4))), (0, 0), (1, 0))
    with pytest.raises(IndexError):
        any_angle_path(g, walled, (0, 0), (9, 0))
    with pytest.raises(TypeError, match="passable"):
        any_angle_path(g, np.ones((3, 5)), (0, 0), (1, 0))


def test_edge_costs_are_paid_step_by_step():
    m = Map(SquareGrid(7, 3, diagonal=True))
    for y in range(3):
        m.set_edge((3, y), (4, y), 5.0)
    p = m.path((0, 1), (6, 1), unit="foot")
    s = m.smooth_path(p)
    a = m.any_angle_path((0, 1), (6, 1), unit="foot")
    assert s.cost <= p.cost * (1 + 1e-9) and a.cost <= p.cost * (1 + 1e-9)
    # no segment longer than a step touches the river's banks (columns 3 and 4)
    off_banks = m.passable(unit="foot") & ~np.isin(np.arange(7), [3, 4])[None, :]
    for route in (s, a):
        crossings = 0
        for u, v in zip(route.cells, route.cells[1:]):
            if v not in m.grid.neighbors(u):
                assert line_clear(m.grid, off_banks, u, v)
            crossings += {u[0], v[0]} == {3, 4}
        assert crossings == 1  # the river is crossed by one grid step, which pays its 5
