"""Jump Point Search gives exactly the A* cost on uniform square-8 boards without corner cutting."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from movement_oracle import costs_of, dijkstra, path_cost
from wargrid import Map, SquareGrid
from wargrid.costs import CostField
from wargrid.movement import shortest_path
from wargrid.movement.search import jps_applies


@st.composite
def open_boards(draw):
    w = draw(st.integers(1, 12))
    h = draw(st.integers(1, 12))
    if draw(st.integers(0, 3)) == 0:  # long rows or columns: scans cross 64-bit words
        if draw(st.booleans()):
            w = draw(st.integers(60, 140))
        else:
            h = draw(st.integers(60, 140))
    density = draw(st.sampled_from([0.0, 0.15, 0.3, 0.45]))
    bits = draw(st.lists(st.floats(0, 1), min_size=w * h, max_size=w * h))
    cost = np.where(np.array(bits).reshape(h, w) < density, np.inf, draw(st.sampled_from([1.0, 2.5])))
    return SquareGrid(w, h, diagonal=True, corner_rule="no-obstacle"), cost


@pytest.mark.slow
@settings(max_examples=200)
@given(board=open_boards(), data=st.data())
def test_jps_equals_astar_and_oracle(board, data):
    g, cost = board
    cells = list(g.cells())
    s = data.draw(st.sampled_from(cells))
    t = data.draw(st.sampled_from(cells))
    c = costs_of(g, cost, None)
    assert jps_applies(g.topology, c, 1.0, False, np.zeros(0))
    want = 0.0 if s == t else dijkstra(g, cost, [s]).get(t, math.inf)
    j = shortest_path(g, c, s, t, search="jps")
    a = shortest_path(g, c, s, t, search="astar")
    if math.isinf(want):
        assert j is None and a is None
        return
    assert j.cost == pytest.approx(want, rel=1e-12, abs=1e-12)
    assert a.cost == pytest.approx(j.cost, rel=1e-12, abs=1e-12)
    assert j.cells[0] == s and j.cells[-1] == t
    assert path_cost(g, cost, None, j.cells) == pytest.approx(j.cost, rel=1e-12, abs=1e-12)


def test_jps_is_chosen_only_where_it_is_exact():
    m = Map(SquareGrid(4, 4, diagonal=True))
    assert jps_applies(m.grid.topology, m.cost_field(), 1.0, False, np.zeros(0))
    m.set_terrain([(1, 1)], "forest")
    assert not jps_applies(m.grid.topology, m.cost_field(unit="cavalry"), 1.0, False, np.zeros(0))
    m4 = Map(SquareGrid(4, 4, diagonal=True, corner_rule="always"))
    assert not jps_applies(m4.grid.topology, m4.cost_field(), 1.0, False, np.zeros(0))
    with pytest.raises(ValueError, match="search='jps'"):
        shortest_path(m4.grid, m4.cost_field(), (0, 0), (3, 3), search="jps")


@pytest.mark.parametrize("search", ["jps", "astar"])
def test_path_xy_is_the_cells_as_rows(search):
    cost = np.ones((6, 7))
    cost[1:5, 3] = np.inf
    g = SquareGrid(7, 6, diagonal=True, corner_rule="no-obstacle")
    p = shortest_path(g, CostField.from_arrays(g, cost), (0, 2), (6, 3), search=search)
    assert p is not None and math.isclose(p.cost, 3 + 4 * math.sqrt(2))
    assert p.cells == [(0, 2), (1, 1), (2, 0), (3, 0), (4, 0), (5, 1), (6, 2), (6, 3)]
    xy = p.xy
    assert xy.flags.c_contiguous and xy.dtype == np.int64 and xy.shape == (len(p.cells), 2)
    assert [tuple(r) for r in xy.tolist()] == p.cells
    xy[0] = (-1, -1)  # a copy: the path keeps its own
    assert p.xy[0].tolist() == list(p.cells[0])
