"""Group moves: distinct destinations nearest the goal, valid paths, exact assignment, formation timing."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import HexGrid, Map, SquareGrid, StaggeredGrid
from wargrid.tactics import assign, group_move

GRIDS = {
    "square4": SquareGrid(9, 7),
    "square8": SquareGrid(9, 7, diagonal=True),
    "hex": HexGrid(9, 7, orientation="pointy"),
    "hex-wrap": HexGrid(8, 7, wrap_x=True),
    "staggered": StaggeredGrid(9, 7),
}
IDS = list(GRIDS)


def step_cost(m, a, b, unit):
    for s in m.grid.steps(a):
        if s.cell == b:
            return s.length * float(m.costs(unit=unit)[b[1], b[0]])
    raise AssertionError(f"{a} and {b} are not neighbours")


@pytest.mark.parametrize("name", IDS)
@settings(max_examples=15)
@given(seed=st.integers(0, 10**6), k=st.integers(1, 6), formation=st.booleans())
def test_group_move_properties(name, seed, k, formation):
    g = GRIDS[name]
    rng = np.random.default_rng(seed)
    m = Map(g)
    walls = [(int(x), int(y)) for y, x in zip(*np.nonzero(rng.random(g.shape) < 0.2))]
    if walls:
        m.set_terrain(walls, "mountains")
    hills = [(int(x), int(y)) for y, x in zip(*np.nonzero(rng.random(g.shape) < 0.2))]
    if hills:
        m.set_terrain(hills, "hills")
    ok = m.passable(unit="cavalry")
    free = [c for c in g.cells() if ok[c[1], c[0]]]
    if len(free) < k + 3:
        return
    pick = rng.choice(len(free), k + 3, replace=False)
    units = [free[i] for i in pick[:k]]
    goal = free[pick[k]]
    occupied = [free[pick[k + 1]], free[pick[k + 2]]]
    r = m.group_move(units, goal, unit="cavalry", occupied=occupied, keep_formation=formation)
    dests = [d for d in r.destinations if d is not None]
    assert len(set(dests)) == len(dests)
    assert all(ok[d[1], d[0]] and d not in occupied for d in dests)
    reach = m.distance_field(goal, unit="cavalry")
    if not formation:
        # the destinations are among the k nearest free cells (ties at the k-th distance either way)
        d_free = sorted(reach[c[1], c[0]] for c in free if c not in occupied and math.isfinite(reach[c[1], c[0]]))
        kth = d_free[min(k, len(d_free)) - 1]
        assert all(reach[d[1], d[0]] <= kth + 1e-9 for d in dests)
    for u, d, p in zip(units, r.destinations, r.paths):
        if p is None:
            assert d is None
            continue
        assert p.cells[0] == u and p.cells[-1] == d
        total = sum(step_cost(m, a, b, "cavalry") for a, b in zip(p.cells[:-1], p.cells[1:]))
        assert math.isclose(total, p.cost, abs_tol=1e-9)
    # a unit that can reach the goal gets a destination unless there are not enough free cells
    if not formation and len(dests) == k:
        assert all(p is not None for p in r.paths)
    # timing: start at the units, end at the destinations, no jumps
    pos0 = r.positions(0)
    for u, p in zip(units, pos0):
        assert np.allclose(p, g.center(u))
    end = r.positions(r.ticks + 1)
    for d, p, path in zip(r.destinations, end, r.paths):
        if path is not None and not g.wrap_x:
            assert np.allclose(p, g.center(d))
    if formation:
        assert r.speed == min(r.speeds)
    prev = pos0
    for t in np.arange(0.25, r.ticks + 0.5, 0.25):
        cur = r.positions(float(t))
        for a, b in zip(prev, cur):
            assert math.dist(a, b) <= 0.25 * 2.0 * 1.01 + 1e-9  # speed 1, cheapest step 0.75 per ~1.8 units
        prev = cur


@settings(max_examples=60)
@given(st.integers(1, 5).flatmap(lambda n: st.lists(
    st.lists(st.one_of(st.floats(0, 20, allow_nan=False), st.just(math.inf)), min_size=n, max_size=n),
    min_size=n, max_size=n)))
def test_assign_is_optimal(rows):
    c = np.array(rows, dtype=float)
    n = len(rows)
    cols = assign(c)
    assert sorted(cols.tolist()) == list(range(n))

    def total(perm):
        vals = [c[i, perm[i]] for i in range(n)]
        return (sum(math.isinf(v) for v in vals), sum(v for v in vals if math.isfinite(v)))

    best = min(total(p) for p in itertools.permutations(range(n)))
    got = total(cols.tolist())
    assert got[0] == best[0] and math.isclose(got[1], best[1], abs_tol=1e-6)


def test_reference_and_formation():
    m = Map(SquareGrid(10, 6, diagonal=True))
    r = m.group_move([(0, 1), (1, 1), (0, 2)], (7, 3), unit="cavalry", keep_formation=True)
    # the anchor is the unit nearest the centre; the shape is kept on an open board
    assert r.destinations == [(7, 3), (8, 3), (7, 4)]
    r = m.group_move([(0, 0), (9, 5)], (5, 3), unit="cavalry")
    assert set(r.destinations) == {(5, 3), (6, 3)} or len(set(r.destinations)) == 2
    h = Map(HexGrid(7, 7))
    r = h.group_move([(0, 0), (6, 6), (0, 6), (6, 0), (3, 0), (3, 6), (0, 3)], (3, 3), unit="foot")
    assert set(r.destinations) == {(3, 3)} | set(h.grid.neighbors((3, 3)))


def test_assign_bad_input():
    with pytest.raises(ValueError, match="square"):
        assign(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="square"):
        assign(np.float64(1.0))
    with pytest.raises(ValueError, match="NaN"):
        assign(np.array([[1.0, math.nan], [0.0, 1.0]]))
    assert assign(np.zeros((0, 0))).tolist() == []


def test_bad_input():
    m = Map(SquareGrid(5, 5))
    m.set_terrain([(4, 4)], "water")
    with pytest.raises(ValueError, match="distinct"):
        m.group_move([(0, 0), (0, 0)], (3, 3))
    with pytest.raises(ValueError, match="at least one"):
        m.group_move([], (3, 3))
    with pytest.raises(TypeError, match="single cell"):
        m.group_move((0, 0), (3, 3))
    with pytest.raises(ValueError, match="speeds\\[1\\]"):
        m.group_move([(0, 0), (1, 0)], (3, 3), speeds=[1, 0])
    with pytest.raises(ValueError, match="one entry per unit"):
        m.group_move([(0, 0), (1, 0)], (3, 3), speeds=[1])
    with pytest.raises(ValueError, match="impassable"):
        m.group_move([(4, 4)], (3, 3), unit="foot")
    with pytest.raises(TypeError, match="keep_formation"):
        m.group_move([(0, 0)], (3, 3), keep_formation="yes")
    with pytest.raises(IndexError, match="goal"):
        m.group_move([(0, 0)], (5, 3))
    with pytest.raises(ValueError, match="no free passable"):
        walled = Map(SquareGrid(3, 1))
        walled.set_terrain([(1, 0)], "mountains")
        walled.group_move([(0, 0)], (2, 0), unit="cavalry", occupied=[(2, 0)])
    # a goal walled off from the unit: the destination is there, the path is not
    r = walled.group_move([(0, 0)], (2, 0), unit="cavalry")
    assert r.destinations == [None] and r.paths == [None] and r.positions(5) == [(0.5, 0.5)]
