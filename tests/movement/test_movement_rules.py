"""One rule set across path, paths, route, distance_field, distance_table, movement_range and flow_field
(issue 21, row 11; the rules are written down in ``wargrid.movement.search``)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import CostField, HexGrid, SquareGrid
from wargrid.errors import ArgumentError
from wargrid.movement import shortest_path, distance_field, flow_field, movement_range, paths, route
from wargrid.movement.prepared import distance_table

BIG = 1e308


def _line(costs):
    g = SquareGrid(len(costs), 1)
    return g, CostField.from_arrays(g, np.array([costs], dtype=float))


def test_a_path_whose_cost_overflows_is_unreachable_everywhere():
    g, c = _line([1.0, BIG, BIG, 1.0])
    assert shortest_path(g, c, (0, 0), (3, 0)) is None
    assert paths(g, c, [((0, 0), (3, 0))]) == [None]
    assert route(g, c, (0, 0), (3, 0), points_per_turn=BIG) is None
    assert distance_field(g, c, (0, 0))[0, 3] == math.inf
    assert movement_range(g, c, (0, 0), BIG).cost[0, 3] == math.inf
    assert flow_field(g, c, (3, 0)).cost[0, 0] == math.inf
    assert shortest_path(g, c, (0, 0), (1, 0)).cost == BIG  # one such step is still a number


def test_a_start_on_an_impassable_cell_reaches_itself_alone_at_cost_zero():
    g, c = _line([math.inf, 1.0, 1.0])
    assert shortest_path(g, c, (0, 0), (0, 0)).cost == 0.0
    assert shortest_path(g, c, (0, 0), (2, 0)) is None
    assert distance_field(g, c, (0, 0)).tolist() == [[0.0, math.inf, math.inf]]
    r = movement_range(g, c, (0, 0), 5)
    assert r.cost.tolist() == [[0.0, math.inf, math.inf]] and r.cells() == [(0, 0)]
    assert r.path_to((0, 0)).cells == [(0, 0)]
    f = flow_field(g, c, (0, 0))
    assert f.cost.tolist() == [[0.0, math.inf, math.inf]] and f.step((1, 0)) is None
    assert f.path_from((0, 0)).cells == [(0, 0)]
    assert route(g, c, (0, 0), (0, 0), points_per_turn=3).cost == 0.0
    assert route(g, c, (0, 0), (2, 0), points_per_turn=3) is None
    # with another, passable source the stranded one changes nothing else
    assert distance_field(g, c, [(0, 0), (2, 0)]).tolist() == [[0.0, 1.0, 0.0]]


def test_empty_sources_and_goals_raise_alike():
    g, c = _line([1.0, 1.0])
    for call in (lambda: distance_field(g, c, []), lambda: flow_field(g, c, [])):
        with pytest.raises(ArgumentError, match="must hold at least one \\(x, y\\) cell, got an empty list"):
            call()
    assert paths(g, c, []) == []  # an empty batch is an empty answer


COSTS = st.sampled_from([1.0, 2.0, 1e307, BIG, math.inf])


@st.composite
def boards(draw):
    w, h = draw(st.integers(2, 5)), draw(st.integers(1, 4))
    kind = draw(st.sampled_from(["square4", "square8", "hex"]))
    g = HexGrid(w, h) if kind == "hex" else SquareGrid(w, h, diagonal=kind == "square8")
    costs = np.array(draw(st.lists(COSTS, min_size=w * h, max_size=w * h))).reshape(h, w)
    cell = st.tuples(st.integers(0, w - 1), st.integers(0, h - 1))
    return g, CostField.from_arrays(g, costs), draw(cell), draw(cell)


def _same(a, b):
    return a == b or (math.isfinite(a) and math.isclose(a, b, rel_tol=1e-9))


@settings(max_examples=150)
@given(boards())
def test_every_function_agrees_on_cost_and_reachability(case):
    g, c, s, t = case
    p = shortest_path(g, c, s, t)
    d = distance_field(g, c, s)[t[1], t[0]]
    cost = math.inf if p is None else p.cost
    assert math.isfinite(cost) or p is None  # never a path of cost inf
    assert _same(cost, d)
    assert _same(cost, flow_field(g, c, t).cost[s[1], s[0]])
    assert _same(cost, distance_table(g, c, [s], [t])[0, 0])
    assert _same(cost, movement_range(g, c, s, BIG).cost[t[1], t[0]]) or cost > BIG  # past the range's max_cost
    (q,) = paths(g, c, [(s, t)])
    assert (q is None) == (p is None) and (q is None or _same(q.cost, p.cost))
    r = route(g, c, s, t, points_per_turn=BIG)
    assert r is None or math.isfinite(r.cost)
    if p is None:
        assert r is None
