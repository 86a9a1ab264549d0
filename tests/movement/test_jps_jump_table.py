"""The JPS+ jump table and the search over it, against a plain-Python walk and Dijkstra."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from movement_oracle import costs_of, dijkstra, path_cost
from wargrid import SquareGrid
from wargrid.movement import jps as jps_mod
from wargrid.movement import shortest_path

# E, W, S, N, SE, SW, NE, NW as in the kernel
DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)]


def table_oracle(free: np.ndarray) -> np.ndarray:
    """``[y, x, d]``: the table entry by walking cell by cell (``free`` is ``[y, x]``)."""
    h, w = free.shape

    def ok(x, y):
        return 0 <= x < w and 0 <= y < h and bool(free[y, x])

    def straight(x, y, dx, dy):
        k = 0
        while True:
            x += dx
            y += dy
            k += 1
            if not ok(x, y):
                return -(k - 1)
            tx, ty = dy, dx  # a perpendicular
            for sgn in (1, -1):
                if ok(x + sgn * tx, y + sgn * ty) and not ok(x + sgn * tx - dx, y + sgn * ty - dy):
                    return k

    def diagonal(x, y, dx, dy):
        k = 0
        while True:
            if not (ok(x + dx, y) and ok(x, y + dy) and ok(x + dx, y + dy)):
                return -k
            x += dx
            y += dy
            k += 1
            if straight(x, y, dx, 0) > 0 or straight(x, y, 0, dy) > 0:
                return k

    out = np.zeros((h, w, 8), dtype=np.int64)
    for y in range(h):
        for x in range(w):
            if free[y, x]:
                for d, (dx, dy) in enumerate(DIRS):
                    out[y, x, d] = straight(x, y, dx, dy) if d < 4 else diagonal(x, y, dx, dy)
    return out


def kernel_table(free: np.ndarray) -> np.ndarray:
    g = SquareGrid(free.shape[1], free.shape[0], diagonal=True)
    cell = g.topology.pad(np.where(free, 1.0, np.inf), np.inf)
    t = jps_mod.jump_table(cell, g.topology.pw)
    return t.reshape(g.topology.ph, g.topology.pw, 8)[1:-1, 1:-1].astype(np.int64)


def test_table_reference_values():
    # . . . .
    # . # . .
    # . . . .
    free = np.ones((3, 4), dtype=bool)
    free[1, 1] = False
    t = kernel_table(free)
    # (0, 0) east: (2, 0) has a free cell below whose west neighbour (1, 1) is blocked
    assert t[0, 0, 0] == 2
    # (3, 0) west: (0, 0) has a free cell below whose east neighbour (1, 1) is blocked
    assert t[0, 3, 1] == 3
    # (3, 1) north: (3, 0) then the wall, no jump point
    assert t[1, 3, 3] == -1
    # (0, 1) north: (0, 0) has a free east neighbour whose south neighbour (1, 1) is blocked
    assert t[1, 0, 3] == 1
    # (0, 2) north-east: blocked by the corner rule at (1, 1)
    assert t[2, 0, 6] == 0
    # (2, 1) south-east: (3, 2) then the wall
    assert t[1, 2, 4] == -1
    assert t[1, 1].tolist() == [0] * 8


@st.composite
def free_boards(draw):
    w = draw(st.integers(1, 10))
    h = draw(st.integers(1, 10))
    density = draw(st.sampled_from([0.0, 0.1, 0.25, 0.45]))
    bits = draw(st.lists(st.floats(0, 1), min_size=w * h, max_size=w * h))
    return np.array(bits).reshape(h, w) >= density


@settings(max_examples=150)
@given(free=free_boards())
def test_table_equals_the_walk(free):
    assert kernel_table(free).tolist() == table_oracle(free).tolist()


@st.composite
def boards(draw):
    w = draw(st.integers(1, 14))
    h = draw(st.integers(1, 14))
    if draw(st.integers(0, 4)) == 0:
        w, h = (draw(st.integers(40, 90)), h) if draw(st.booleans()) else (w, draw(st.integers(40, 90)))
    density = draw(st.sampled_from([0.0, 0.1, 0.25, 0.4]))
    bits = draw(st.lists(st.floats(0, 1), min_size=w * h, max_size=w * h))
    cost = np.where(np.array(bits).reshape(h, w) < density, np.inf, draw(st.sampled_from([1.0, 3.0])))
    return SquareGrid(w, h, diagonal=True, corner_rule="no-obstacle"), cost


@pytest.mark.slow
@pytest.mark.parametrize("table", [True, False], ids=["table", "bit-scan"])
@settings(max_examples=120, deadline=None)
@given(board=boards(), data=st.data())
def test_both_searches_are_optimal(table, board, data):
    g, cost = board
    cells = list(g.cells())
    s = data.draw(st.sampled_from(cells))
    t = data.draw(st.sampled_from(cells))
    c = costs_of(g, cost, None)
    t_ = g.topology
    if s == t:
        j = shortest_path(g, c, s, t, search="jps")
    elif not (math.isfinite(cost[s[1], s[0]]) and math.isfinite(cost[t[1], t[0]])):
        j = None  # the dispatcher answers these before any search (see test_jps.py)
    else:
        j = jps_mod.jps_path(g, c, t_.padded_id(*s), t_.padded_id(*t), table=table)
    want = 0.0 if s == t else dijkstra(g, cost, [s]).get(t, math.inf)
    if math.isinf(want):
        assert j is None
        return
    assert j.cost == pytest.approx(want, rel=1e-12, abs=1e-12)
    assert j.cells[0] == s and j.cells[-1] == t
    assert path_cost(g, cost, None, j.cells) == pytest.approx(j.cost, rel=1e-12, abs=1e-12)


def test_large_boards_scan_bits_instead_of_a_table(monkeypatch):
    from wargrid import Map

    m = Map(SquareGrid(8, 8, diagonal=True))
    cd = m.cost_field()
    assert jps_mod.uses_table(m.grid, cd)
    want = m.path((0, 0), (7, 5)).cost
    monkeypatch.setattr(jps_mod, "TABLE_MAX_CELLS", 10)
    assert not jps_mod.uses_table(m.grid, cd)
    assert m.path((0, 0), (7, 5)).cost == want
    assert shortest_path(m.grid, cd, (0, 0), (7, 5), search="jps").cost == want


def test_tables_go_with_their_cost_arrays():
    from wargrid import Map

    m = Map(SquareGrid(30, 30, diagonal=True))
    m.path((0, 0), (29, 29))
    before = len(jps_mod._POOL)
    for i in range(12):  # each edit makes new cost arrays; the old tables must not pile up
        m.set_terrain([(i, 3)], "water")
        assert m.path((0, 0), (29, 29)) is not None
    assert len(jps_mod._POOL) <= before


def test_work_boards_keep_to_their_budget(monkeypatch):
    from wargrid import Map

    maps = [Map(SquareGrid(20, 20, diagonal=True)) for _ in range(4)]
    monkeypatch.setattr(jps_mod, "WORK_BOARD_CELLS", 2 * 22 * 22)
    for m in maps:
        assert m.path((0, 0), (19, 19)) is not None
    assert 1 <= len(jps_mod._POOL) <= 2
    assert id(maps[-1].cost_field().cell) in jps_mod._POOL


def test_threads_share_pooled_work_boards():
    from wargrid import Map

    m = Map(SquareGrid(40, 40, diagonal=True))
    m.set_terrain([(20, y) for y in range(35)], "water")
    pairs = [((0, y % 40), (39, (7 * y) % 40)) for y in range(40)]
    want = [m.path(a, b).cost for a, b in pairs]
    for _ in range(3):
        assert [p.cost for p in m.paths(pairs, workers=2)] == pytest.approx(want, rel=1e-12)
    assert 1 <= len(jps_mod._POOL[id(m.cost_field().cell)][1]) <= 2  # reused, not rebuilt per call
