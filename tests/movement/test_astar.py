"""A*, Dijkstra fields and batched paths against the plain-Python oracle, on every kind of board."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from movement_oracle import boards, costs_of, dijkstra, path_cost
from wargrid import HexGrid, Map, Path, SquareGrid, StaggeredGrid
from wargrid.movement import shortest_path, distance_field, path_over_arrays, paths


def _pick(draw, g):
    cells = list(g.cells())
    return draw(st.sampled_from(cells)), draw(st.sampled_from(cells))


@settings(max_examples=150)
@given(data=st.data())
def test_astar_matches_oracle_and_paths_add_up(data):
    g, cost, e = data.draw(boards())
    s, t = _pick(data.draw, g)
    c = costs_of(g, cost, e)
    want = 0.0 if s == t else dijkstra(g, cost, [s], e).get(t, math.inf)
    p = shortest_path(g, c, s, t, search="astar")
    if math.isinf(want):
        assert p is None
        return
    assert p is not None
    assert p.cost == pytest.approx(want, rel=1e-9, abs=1e-9)
    assert p.cells[0] == s and p.cells[-1] == t
    assert path_cost(g, cost, e, p.cells) == pytest.approx(p.cost, rel=1e-9, abs=1e-9)


@settings(max_examples=80)
@given(data=st.data())
def test_distance_field_matches_oracle(data):
    g, cost, e = data.draw(boards())
    cells = list(g.cells())
    srcs = data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=3))
    max_cost = data.draw(st.sampled_from([None, 0.0, 1.0, 2.5, 6.0]))
    want = dijkstra(g, cost, srcs, e, max_cost=math.inf if max_cost is None else max_cost)
    got = distance_field(g, costs_of(g, cost, e), srcs, max_cost=max_cost)
    exp = np.full(g.shape, math.inf)
    for (x, y), d in want.items():
        exp[y, x] = d
    np.testing.assert_allclose(got, exp, rtol=1e-9, atol=1e-9)


@settings(max_examples=80)
@given(data=st.data(), weight=st.sampled_from([1.0, 1.5, 3.0]))
def test_weighted_astar_is_bounded(data, weight):
    g, cost, e = data.draw(boards())
    s, t = _pick(data.draw, g)
    want = 0.0 if s == t else dijkstra(g, cost, [s], e).get(t, math.inf)
    p = shortest_path(g, costs_of(g, cost, e), s, t, weight=weight)
    if math.isinf(want):
        assert p is None
        return
    assert want - 1e-9 <= p.cost <= weight * want + 1e-9
    assert path_cost(g, cost, e, p.cells) == pytest.approx(p.cost, rel=1e-9, abs=1e-9)


@settings(max_examples=80)
@given(data=st.data())
def test_nearest_reaches_the_closest_reachable_cell(data):
    g, cost, e = data.draw(boards())
    s, t = _pick(data.draw, g)
    dist = dijkstra(g, cost, [s], e)
    p = shortest_path(g, costs_of(g, cost, e), s, t, nearest=True)
    assert p is not None
    if not dist:  # a start on an impassable cell goes nowhere
        assert p.cells == [s] and p.cost == 0.0
        return
    if t in dist:
        assert p.end == t
    best = min(g.distance(c, t) for c in dist)
    assert g.distance(p.end, t) == pytest.approx(best)
    assert p.cost == pytest.approx(dist[p.end], rel=1e-9, abs=1e-9)


def test_reference_values():
    # square-4 around a wall
    cost = np.ones((3, 4))
    cost[1, 1:3] = np.inf
    p = path_over_arrays(SquareGrid(4, 3), cost, (0, 1), (3, 1))
    assert p.cells == [(0, 1), (0, 0), (1, 0), (2, 0), (3, 0), (3, 1)] and p.cost == 5.0
    # square-8: a diagonal is sqrt(2); no corner cutting past a wall
    g = SquareGrid(3, 3, diagonal=True)
    assert path_over_arrays(g, np.ones((3, 3)), (0, 0), (2, 2)).cost == pytest.approx(2 * math.sqrt(2))
    cost = np.ones((3, 3))
    cost[0, 1] = np.inf
    assert path_over_arrays(g, cost, (0, 0), (1, 1)).cost == 2.0  # down, then right
    g1 = SquareGrid(3, 3, diagonal=True, corner_rule="one-obstacle")
    assert path_over_arrays(g1, cost, (0, 0), (1, 1)).cost == pytest.approx(math.sqrt(2))
    # wrap: the short way round
    assert path_over_arrays(SquareGrid(10, 1, wrap_x=True), np.ones((1, 10)), (0, 0), (9, 0)).cells == [(0, 0), (9, 0)]
    assert path_over_arrays(HexGrid(8, 3, wrap_x=True), np.ones((3, 8)), (0, 1), (7, 1)).cost == 1.0
    # hex distance on an open board
    assert path_over_arrays(HexGrid(6, 6), np.ones((6, 6)), (0, 0), (5, 5)).cost == HexGrid(6, 6).distance((0, 0), (5, 5))
    # staggered rows
    assert path_over_arrays(StaggeredGrid(5, 5, stagger="rows"), np.ones((5, 5)), (0, 0), (4, 4)).cost == 6.0
    # costs are paid on entry, scaled by the step length; the start is free
    cost = np.array([[5.0, 2.0, 3.0]])
    assert path_over_arrays(SquareGrid(3, 1), cost, (0, 0), (2, 0)).cost == 5.0


def test_ties_are_deterministic():
    g = SquareGrid(6, 6)
    a = path_over_arrays(g, np.ones((6, 6)), (0, 0), (5, 5))
    b = path_over_arrays(g, np.ones((6, 6)), (0, 0), (5, 5))
    assert a == b and a.cost == 10.0


def test_edge_costs():
    m = Map(SquareGrid(3, 2))
    m.set_edge((0, 0), (1, 0), math.inf)
    p = m.path((0, 0), (2, 0), unit="cavalry")
    assert p.cells[:3] == [(0, 0), (0, 1), (1, 1)] and p.cost == 4.0
    m.set_edge((0, 1), (1, 1), 0.5)
    assert m.path((0, 0), (1, 1), unit="cavalry").cost == 2.5  # the wall leaves only the way through the ford


def test_map_path_and_units():
    m = Map(HexGrid(5, 4))
    m.set_terrain([(1, 0), (1, 1), (1, 2)], "water")
    foot = m.path((0, 0), (2, 0), unit="foot")
    assert isinstance(foot, Path) and foot.unit == "foot" and foot.cost == 16.0
    assert m.path((0, 0), (1, 0)) is None  # water is impassable on foot: None, not an error
    assert m.path((0, 0), (1, 0), nearest=True).end in {(0, 0), (0, 1)}
    assert m.path((1, 0), (1, 2), unit="naval").cost == 2.0
    assert m.path((2, 2), (2, 2)).cells == [(2, 2)]
    assert m.path((1, 0), (0, 0)) is None  # nothing is reached from an impassable cell
    assert m.path((1, 0), (1, 0)).cost == 0.0


def test_batched_paths_match_single():
    rng = np.random.default_rng(1)
    cost = np.where(rng.random((20, 20)) < 0.25, np.inf, rng.integers(1, 4, (20, 20)).astype(float))
    g = SquareGrid(20, 20, diagonal=True)
    c = costs_of(g, cost, None)
    cells = list(zip(*np.nonzero(np.isfinite(cost))[::-1]))
    pairs = [(cells[i], cells[-1 - i]) for i in range(0, 40)]
    many = paths(g, c, pairs, workers=2)
    assert many == [shortest_path(g, c, a, b) for a, b in pairs]
    assert Map(SquareGrid(4, 4)).paths([((0, 0), (3, 3))], workers=1)[0].cost == 12.0


@pytest.mark.parametrize(
    "call, err, words",
    [
        (lambda m: m.path((9, 0), (0, 0)), IndexError, "start"),
        (lambda m: m.path((0, 0), (0, -1)), IndexError, "goal"),
        (lambda m: m.path((0, 0), "a"), TypeError, "goal"),
        (lambda m: m.path((0, 0), (1, 1), unit="dragon"), ValueError, "dragon"),
        (lambda m: m.path((0, 0), (1, 1), weight=0.5), ValueError, "weight"),
        (lambda m: m.path((0, 0), (1, 1), weight=float("nan")), ValueError, "weight"),
        (lambda m: m.path((0, 0), (1, 1), nearest=1), TypeError, "nearest"),
        (lambda m: m.distance_field([(0, 0), (5, 5)]), IndexError, "sources[1]"),
        (lambda m: m.distance_field((0, 0), max_cost=-1), ValueError, "max_cost"),
        (lambda m: m.paths([((0, 0),)]), TypeError, "pairs[0]"),
        (lambda m: m.paths([((0, 0), (1, 1))], workers=0), ValueError, "workers"),
    ],
)
def test_bad_input(call, err, words):
    with pytest.raises(err, match=words.replace("[", r"\[").replace("]", r"\]")):
        call(Map(SquareGrid(3, 3)))


def test_raw_cost_checks():
    g = SquareGrid(2, 2)
    with pytest.raises(ValueError, match="cell_costs"):
        path_over_arrays(g, np.ones((3, 2)), (0, 0), (1, 1))
    with pytest.raises(ValueError, match="NaN"):
        path_over_arrays(g, np.array([[1.0, np.nan], [1.0, 1.0]]), (0, 0), (1, 1))
    with pytest.raises(ValueError, match=">= 0"):
        path_over_arrays(g, np.array([[1.0, -1.0], [1.0, 1.0]]), (0, 0), (1, 1))
    with pytest.raises(ValueError, match="edge_costs"):
        path_over_arrays(g, np.ones((2, 2)), (0, 0), (1, 1), edge_costs=np.ones((2, 2, 8)))
