"""``astar_octile`` (square-8 A* with exact integer keys) against the slow oracle, and its keys' arithmetic.

The kernel holds every cost as ``a + b sqrt(2)`` in whole units and orders
the open list by ``floor(f * scale)``: these tests check that the floors
order such numbers as the reals are ordered (by exact integer arithmetic),
that the costs found are the oracle's on random boards with uniform or
varied costs and any corner rule, and that a key out of its bits hands the
query to the float kernel.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from movement_oracle import costs_of, dijkstra, path_cost
from wargrid import SquareGrid
from wargrid._kernels.movement.astar import astar_octile, astar_octile_xy
from wargrid.movement import search, shortest_path
from wargrid.movement.search import SearchState, octile_bits, padded_id, plain_moves

INF = math.inf


def _sign(da: int, db: int) -> int:
    """The sign of ``da + db sqrt(2)``, in integers."""
    if da >= 0 and db >= 0:
        return int(da > 0 or db > 0)
    if da <= 0 and db <= 0:
        return -1
    a2, b2 = da * da, 2 * db * db
    if da > 0:
        return 1 if a2 > b2 else -1
    return 1 if b2 > a2 else -1


@functools.lru_cache(maxsize=None)
def _key_bits(side: int) -> tuple[int, int, int]:
    """``(scale, fmax, bcap)`` of the octile keys of a ``side`` x ``side`` board of unit costs (built once a side:
    a 2048 x 2048 board an example made most of the test's time)."""
    g = SquareGrid(side, side, diagonal=True)
    keyb = octile_bits(g.topology, costs_of(g, np.ones((side, side)), None), 1.0)
    assert keyb is not None
    return int(keyb[2]), int(keyb[5]), int(keyb[6])


@settings(max_examples=300)
@given(side=st.sampled_from([7, 64, 512, 2048]), data=st.data())
def test_scaled_floors_order_surds_as_the_reals(side, data):
    scale, fmax, bcap = _key_bits(side)
    top_a = fmax // scale
    pairs = [(data.draw(st.integers(0, top_a - 1)), data.draw(st.integers(0, bcap - 1))) for _ in range(2)]
    if data.draw(st.booleans()):  # near each other: a good rational approximation of sqrt(2) apart
        a, b = pairs[0]
        db = data.draw(st.integers(-min(b, 50), min(bcap - 1 - b, 50)))
        da = -round(db * math.sqrt(2.0)) + data.draw(st.integers(-1, 1))
        assume(0 <= a + da < top_a)
        pairs[1] = (a + da, b + db)
    keys = []
    for a, b in pairs:
        assume(a + b * math.sqrt(2.0) < top_a)
        keys.append(math.floor((float(a) + float(b) * math.sqrt(2.0)) * scale))
    (a1, b1), (a2, b2) = pairs
    want = _sign(a1 - a2, b1 - b2)
    got = (keys[0] > keys[1]) - (keys[0] < keys[1])
    assert got == want


@st.composite
def square8_boards(draw, max_side=8):
    w = draw(st.integers(1, max_side))
    h = draw(st.integers(1, max_side))
    corner = draw(st.sampled_from(["no-obstacle", "one-obstacle", "always"]))
    g = SquareGrid(w, h, diagonal=True, corner_rule=corner)
    uniform = draw(st.booleans())
    vals = [1.0, 1.0, 1.0, INF] if uniform else [1.0, 2.0, 3.0, 0.5, 1.25, INF]
    scale = 1.0 if not uniform else draw(st.sampled_from([1.0, 0.25, 3.0]))
    cost = np.array(draw(st.lists(st.sampled_from(vals), min_size=w * h, max_size=w * h))).reshape(h, w) * scale
    return g, cost


@settings(max_examples=200, deadline=None)
@given(data=st.data(), weight=st.sampled_from([1.0, 1.0, 1.5, 2.0]))
def test_octile_astar_costs_are_the_oracles(data, weight):
    g, cost = data.draw(square8_boards())
    cells = list(g.cells())
    s = data.draw(st.sampled_from(cells))
    t = data.draw(st.sampled_from(cells))
    assume(s != t and np.isfinite(cost[s[1], s[0]]))
    c = costs_of(g, cost, None)
    topo = g.topology
    hscale = float(c.min_cost) * weight
    keyb = octile_bits(topo, c, hscale)
    assert keyb is not None  # the test costs are whole in quarters
    st_ = SearchState(topo.padded_size)
    r, xy, got = astar_octile_xy(c.cell, plain_moves(topo, c), bool(c.uniform), padded_id(topo, s), padded_id(topo, t),
                                 topo.kernel_bundle, keyb, st_.arrays, st_.next_gen())
    want = dijkstra(g, cost, [s]).get(t, INF)
    if math.isinf(want):
        assert r == -1
        return
    assert r == padded_id(topo, t)
    cells = list(zip(xy[0].tolist(), xy[1].tolist()))
    assert cells[0] == s and cells[-1] == t
    assert path_cost(g, cost, None, cells) == pytest.approx(got, rel=1e-12)
    if weight == 1.0:
        assert got == pytest.approx(want, rel=1e-12)
    else:
        assert want - 1e-9 <= got <= weight * want + 1e-9


def test_octile_literal_costs():
    g = SquareGrid(3, 3, diagonal=True)
    cost = np.ones((3, 3))
    assert shortest_path(g, costs_of(g, cost, None), (0, 0), (2, 2), search="astar").cost == 2 * math.sqrt(2.0)
    cost[1, 1] = INF  # no corner cutting: round the block
    p = shortest_path(g, costs_of(g, cost, None), (0, 0), (2, 2), search="astar")
    assert p.cost == 4.0 and len(p) == 5
    cost = np.array([[1.0, 0.5, 2.0], [1.0, 0.75, 1.0], [1.0, 1.0, 1.0]])
    p = shortest_path(g, costs_of(g, cost, None), (0, 0), (2, 2), search="astar")
    assert p.cells == [(0, 0), (1, 1), (2, 2)] and p.cost == 1.75 * math.sqrt(2.0)


def test_a_key_out_of_its_bits_hands_over_to_the_float_kernel(monkeypatch):
    g = SquareGrid(40, 3, diagonal=True)
    c = costs_of(g, np.ones((3, 40)), None)
    topo = g.topology
    keyb = octile_bits(topo, c, 1.0).copy()
    keyb[6] = 4  # at most 3 in diagonal units: too few for this board's paths
    st_ = SearchState(topo.padded_size)
    args = (c.cell, plain_moves(topo, c), True, padded_id(topo, (0, 0)), padded_id(topo, (39, 2)), topo.kernel_bundle)
    assert astar_octile(*args, keyb, st_.arrays, st_.next_gen()) == -2
    monkeypatch.setattr(search, "octile_bits", lambda *a: keyb)
    p = shortest_path(g, c, (0, 0), (39, 2), search="astar")
    assert p.cost == pytest.approx(37 + 2 * math.sqrt(2.0))


def test_octile_bits_serve_square8_only():
    for g in (SquareGrid(5, 5), SquareGrid(5, 5, diagonal=True)):
        c = costs_of(g, np.ones((5, 5)) / 3.0, None)  # a third is no whole number of power-of-two units
        assert octile_bits(g.topology, c, float(c.min_cost)) is None
    g = SquareGrid(5, 5)
    assert octile_bits(g.topology, costs_of(g, np.ones((5, 5)), None), 1.0) is None  # square-4: astar_keyed's


def test_keys_too_narrow_for_the_board_leave_it_to_the_float_kernel():
    g = SquareGrid(64, 64, diagonal=True)
    c = costs_of(g, np.ones((64, 64)), None)
    assert octile_bits(g.topology, c, 1.0) is not None
    assert octile_bits(g.topology, c, 1e6) is None  # a heuristic a million times a step leaves f too few bits
    p = shortest_path(g, c, (0, 0), (63, 40), weight=1e6, search="astar")
    assert p is not None and p.cost == pytest.approx(23 + 40 * math.sqrt(2.0))


@settings(max_examples=40, deadline=None)
@given(w=st.integers(3, 14), h=st.integers(3, 14), uniform=st.booleans(), corner=st.sampled_from(["no-obstacle", "one-obstacle", "always"]),
       seed=st.integers(0, 2**16))
def test_the_step_through_is_this_search_where_it_serves(w, h, uniform, corner, seed):
    from wargrid.movement.trace import trace_search

    rng = np.random.default_rng(seed)
    g = SquareGrid(w, h, diagonal=True, corner_rule=corner)
    cost = np.ones((h, w)) if uniform else rng.choice([1.0, 2.0, 3.0], size=(h, w))
    cost[rng.random((h, w)) < 0.2] = INF
    cost[0, 0] = cost[h - 1, w - 1] = 1.0
    costs = costs_of(g, cost, None)
    assume(plain_moves(g.topology, costs) is not None and octile_bits(g.topology, costs, 1.0) is not None)
    p = shortest_path(g, costs, (0, 0), (w - 1, h - 1), search="astar")
    t = trace_search(costs, (0, 0), (w - 1, h - 1))
    if p is None:
        assert not t.goal_reached
        return
    assert t.path() == [y * w + x for x, y in p.cells] and t.g[-1] == pytest.approx(p.cost)
    assert t.order[0] == 0 and len(t.opened) >= len(t.order)
