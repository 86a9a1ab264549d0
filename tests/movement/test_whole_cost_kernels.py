"""The kernels of boards whose costs are whole in units of a power of two, against the general ones.

``astar_keyed`` (one integer key a heap slot) must pop the very same cells in
the very same order as ``astar``; ``dijkstra_buckets`` (Dial's bucket queue)
must give the very same distances as ``dijkstra``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from movement_oracle import boards, costs_of, dijkstra
from wargrid import HexGrid, Map, SquareGrid
from wargrid._kernels.movement.astar import astar, astar_keyed, cost_unit
from wargrid.costs import CostField
from wargrid.movement import search
from wargrid.movement.search import SearchState, key_bits, padded_id, plain_moves, topo_bundle

_NO_STOP = np.zeros(0, dtype=np.uint8)


def _run(g, c, s, t, weight=1.0, keyb=None):
    """``(reached, cost, closed, parents)`` of the general kernel and of the keyed one."""
    topo = g.topology
    tb = topo_bundle(topo)
    hscale = c.min_cost * weight
    out = []
    for keyed in (False, True):
        st_ = SearchState(topo.padded_size)
        gen = st_.next_gen()
        a, b = padded_id(topo, s), padded_id(topo, t)
        if keyed:
            kb = key_bits(topo, c, hscale) if keyb is None else keyb
            r = astar_keyed(c.cell, a, b, tb, hscale, kb, st_.arrays, gen)
        else:
            r = astar(c.cell, c.edge, _NO_STOP, a, b, tb, hscale, False, st_.arrays, gen)
        closed = st_.stamp == 2 * gen + 1
        out.append((r, float(st_.g[r]) if r >= 0 else None, closed, np.where(closed, st_.parent, -9)))
    return out


@pytest.mark.slow
@settings(max_examples=200, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(data=st.data(), weight=st.sampled_from([1.0, 1.0, 1.5, 2.0]))
def test_keyed_astar_pops_what_astar_pops(data, weight):
    g, cost, _ = data.draw(boards(edges=False))
    assume(not g.topology.wrap and g.topology.heuristic != 1)
    cells = list(g.cells())
    s = data.draw(st.sampled_from(cells))
    t = data.draw(st.sampled_from(cells))
    c = costs_of(g, cost, None)
    assume(np.isfinite(cost[s[1], s[0]]))
    assert key_bits(g.topology, c, c.min_cost * weight) is not None  # the test costs are whole in quarters
    general, keyed = _run(g, c, s, t, weight)
    assert general[0] == keyed[0] and general[1] == keyed[1]
    np.testing.assert_array_equal(general[2], keyed[2])  # the same cells expanded
    np.testing.assert_array_equal(general[3], keyed[3])  # with the same parents
    if weight == 1.0:
        want = dijkstra(g, cost, [s]).get(t)
        assert keyed[1] == want


def test_keyed_astar_literal_hex():
    # flat odd-q hex 4 x 3, foot costs: a forest wall with one road gap
    g = HexGrid(4, 3)
    cost = np.array([
        [2.0, 2.0, 3.0, 2.0],
        [2.0, np.inf, 0.75, 2.0],
        [2.0, np.inf, 5.0, 2.0],
    ])
    c = CostField.from_arrays(g, cost)
    kb = key_bits(g.topology, c, c.min_cost)
    assert kb.tolist()[:3] == [4, 5, 3]  # quarters; 30 padded cells need 5 bits, 4 + 3 = 7 needs 3
    general, keyed = _run(g, c, (0, 1), (3, 1))
    # (0, 1) -> (1, 0) costs 2, -> (2, 1) 0.75, -> (3, 1) 2
    assert keyed[1] == general[1] == 4.75
    p = search.search_checked(g, c, (0, 1), (3, 1), 1.0, False, None)
    assert p.cells == [(0, 1), (1, 0), (2, 1), (3, 1)] and p.cost == 4.75


def test_cost_unit():
    assert cost_unit(np.array([1.0, 2.0, np.inf]), 1024.0) == (1.0, 2.0)
    assert cost_unit(np.array([0.75, 1.5, 4.0]), 1024.0) == (4.0, 4.0)
    assert cost_unit(np.array([1.0 / 3.0, 1.0]), 1024.0)[0] == 0.0  # no power of two makes a third whole
    assert cost_unit(np.array([2.0 ** 41]), 1024.0)[0] == 0.0  # too large to stay exact in keys


def test_key_bits_declines():
    g4 = SquareGrid(3, 3)
    third = CostField.from_arrays(g4, np.full((3, 3), 1.0 / 3.0))
    assert key_bits(g4.topology, third, third.min_cost) is None
    whole = CostField.from_arrays(g4, np.ones((3, 3)))
    assert key_bits(g4.topology, whole, 0.0) is None  # no heuristic: larger g is not smaller steps
    assert key_bits(g4.topology, whole, 1.0 / 3.0) is None  # a weight that is no power-of-two fraction
    g8 = SquareGrid(3, 3, diagonal=True)
    assert key_bits(g8.topology, CostField.from_arrays(g8, np.ones((3, 3))), 1.0) is None  # sqrt 2 steps


def test_key_overflow_falls_back(monkeypatch):
    g = HexGrid(9, 7)
    rng = np.random.default_rng(4)
    cost = rng.choice([1.0, 2.0, 3.0, np.inf], size=g.shape, p=[0.3, 0.4, 0.2, 0.1])
    cost[0, 0] = cost[6, 8] = 1.0
    c = CostField.from_arrays(g, cost)
    kb = key_bits(g.topology, c, c.min_cost).copy()
    kb[3] = 3  # the first f * L that does not fit: any long search overflows
    general, keyed = _run(g, c, (0, 0), (8, 6), keyb=kb)
    assert keyed[0] == -2
    monkeypatch.setattr(search, "key_bits", lambda *a: kb)
    p = search.search_checked(g, c, (0, 0), (8, 6), 1.0, False, None)  # the float-keyed kernel answers
    want = dijkstra(g, cost, [(0, 0)]).get((8, 6))
    assert (p is None and want is None) or p.cost == want == general[1]


@pytest.mark.parametrize("unit", ["foot", "cavalry"])
def test_generated_hex_paths_are_optimal(unit):
    from wargrid import generate

    m = generate(40, 30, kind="hex", seed=2)
    rng = np.random.default_rng(1)
    cost = m.costs(unit=unit)
    ys, xs = np.nonzero(np.isfinite(cost))
    for _ in range(8):
        i, j = rng.integers(xs.size, size=2)
        a, b = (int(xs[i]), int(ys[i])), (int(xs[j]), int(ys[j]))
        p = m.path(a, b, unit=unit)
        want = m.distance_field(a, unit=unit)[b[1], b[0]]
        assert (p is None) == (not np.isfinite(want))
        if p is not None:
            assert p.cost == want


def test_map_uses_keyed_kernel_on_whole_costs():
    m = Map(HexGrid(6, 5))
    m.set_terrain([(2, y) for y in range(4)], "forest")
    c = m.cost_field(unit="cavalry")
    assert key_bits(m.grid.topology, c, c.min_cost) is not None
    assert m.path((0, 0), (5, 0), unit="cavalry").cost == m.distance_field((0, 0), unit="cavalry")[0, 5]


@pytest.mark.slow
@settings(max_examples=200, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data(), max_cost=st.sampled_from([np.inf, 0.0, 1.0, 2.5, 6.0]))
def test_bucket_dijkstra_gives_the_heap_distances(data, max_cost):
    from wargrid._kernels.movement.dijkstra import dijkstra, dijkstra_buckets

    g, cost, _ = data.draw(boards(edges=False))
    assume(not g.topology.wrap and g.topology.heuristic != 1)
    cells = list(g.cells())
    srcs = data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=3))
    c = costs_of(g, cost, None)
    topo = g.topology
    n = topo.padded_size
    ids = np.array([padded_id(topo, s) for s in srcs], dtype=np.int64)
    unit, top = search.cost_unit(topo, c)
    assert unit in (1.0, 2.0, 4.0)
    got = np.full(n, np.inf)
    link = (np.empty(n, dtype=np.int32), np.empty(n, dtype=np.int32))
    settled = dijkstra_buckets(c.cell, ids, topo_bundle(topo), unit, int(top * unit) + 1,
                               max_cost, got, link)
    want = np.full(n, np.inf)
    field = (want, np.empty(n, dtype=np.int32), np.empty(n, dtype=np.int8), np.empty(n, dtype=np.int32), np.empty(n),
             np.empty(n, dtype=np.int32))
    assert settled == dijkstra(c.cell, c.edge, _NO_STOP, ids, topo_bundle(topo), max_cost, False, field)
    np.testing.assert_array_equal(got, want)


def test_bucket_dijkstra_literal_hex():
    # flat odd-q hex 4 x 3 (the board of test_keyed_astar_literal_hex), from (0, 1)
    g = HexGrid(4, 3)
    inf = np.inf
    cost = np.array([
        [2.0, 2.0, 3.0, 2.0],
        [2.0, inf, 0.75, 2.0],
        [2.0, inf, 5.0, 2.0],
    ])
    c = CostField.from_arrays(g, cost)
    assert search.cost_unit(g.topology, c) == (4.0, 5.0)
    want = np.array([
        [2.0, 2.0, 5.0, 4.75],
        [0.0, inf, 2.75, 4.75],
        [2.0, inf, 7.75, 6.75],
    ])
    np.testing.assert_array_equal(search.distance_field(g, c, (0, 1)), want)
    np.testing.assert_array_equal(search.distance_field(g, c, (0, 1), max_cost=4.0),
                                  np.where(want <= 4.0, want, inf))


def test_key_bits_declines_costs_too_large_for_the_keys():
    # 1024 x 1024: 21 bits of id and 12 of heuristic steps leave 30 for f * L
    g = HexGrid(1024, 1024)
    fits = CostField.from_arrays(g, np.full(g.shape, 2.0 ** 16))
    assert key_bits(g.topology, fits, fits.min_cost).tolist() == [1, 21, 12, 2 ** 30]
    big = CostField.from_arrays(g, np.full(g.shape, 2.0 ** 18))  # whole, but a crossing would not fit
    assert key_bits(g.topology, big, big.min_cost) is None
    p = search.search_checked(g, big, (0, 0), (7, 7), 1.0, False, None)
    assert p.cost == 2.0 ** 18 * 11  # 11 hex steps (axial (0, 0) to (7, 4)), each 2 ** 18
