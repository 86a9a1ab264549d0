"""The plain kernels (no wrap, no edge costs, no stop cells) against the general ones they stand in for.

They must give the very same answers: same path cells (same tie-breaking), same
distances, same search trees, on every board kind and with uniform or varied costs.
"""

from __future__ import annotations

import pytest

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from movement_oracle import boards, costs_of
from wargrid import SquareGrid
from wargrid._kernels.movement.astar import astar, astar_plain
from wargrid._kernels.movement.dijkstra import dijkstra, dijkstra_plain
from wargrid._kernels.movement.steps import move_mask
from wargrid.movement.search import SearchState, padded_id, plain_moves, topo_args, topo_bundle

_NO_STOP = np.zeros(0, dtype=np.uint8)


def _both_astar(g, c, s, t):
    topo = g.topology
    tb = topo_bundle(topo)
    moves = plain_moves(topo, c)
    out = []
    for plain in (False, True):
        st_ = SearchState(topo.padded_size)
        gen = st_.next_gen()
        a, b = padded_id(topo, s), padded_id(topo, t)
        if plain:
            r = astar_plain(c.cell, moves, bool(c.uniform), a, b, tb, c.min_cost, st_.arrays, gen)
        else:
            r = astar(c.cell, c.edge, _NO_STOP, a, b, tb, c.min_cost, False, st_.arrays, gen)
        closed = st_.stamp == 2 * gen + 1
        out.append((r, float(st_.g[r]) if r >= 0 else None, closed, np.where(closed, st_.parent, -9)))
    return out


@settings(max_examples=20, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(data=st.data(), uniform=st.booleans())
def test_astar_plain_is_astar_on_a_few_boards(data, uniform):
    """The fast part's share of the sweep below (its tie-breaking: ``Map.path``'s oracle tests compare costs)."""
    _check_astar_plain_is_astar(data, uniform)


@settings(max_examples=150, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(data=st.data(), uniform=st.booleans())
@pytest.mark.slow  # 5 CPU s a run
def test_astar_plain_is_astar(data, uniform):
    _check_astar_plain_is_astar(data, uniform)


def _check_astar_plain_is_astar(data, uniform):
    g, cost, _ = data.draw(boards(edges=False, uniform=uniform))
    assume(not g.topology.wrap)
    cells = list(g.cells())
    s = data.draw(st.sampled_from(cells))
    t = data.draw(st.sampled_from(cells))
    c = costs_of(g, cost, None)
    assume(s != t and np.isfinite(cost[s[1], s[0]]))
    general, plain = _both_astar(g, c, s, t)
    assert general[0] == plain[0] and general[1] == plain[1]
    np.testing.assert_array_equal(general[2], plain[2])  # the same cells expanded
    np.testing.assert_array_equal(general[3], plain[3])  # with the same parents


@settings(max_examples=150)
@given(data=st.data(), uniform=st.booleans(), reverse=st.booleans(),
       max_cost=st.sampled_from([np.inf, 0.0, 1.0, 2.5, 6.0]))
@pytest.mark.slow
def test_dijkstra_plain_is_dijkstra(data, uniform, reverse, max_cost):
    g, cost, _ = data.draw(boards(edges=False, uniform=uniform))
    assume(not g.topology.wrap)
    cells = list(g.cells())
    srcs = data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=3))
    c = costs_of(g, cost, None)
    topo = g.topology
    tb = topo_bundle(topo)
    n = topo.padded_size
    ids = np.array([padded_id(topo, s) for s in srcs], dtype=np.int64)
    res = []
    for plain in (False, True):
        dist = np.full(n, np.inf)
        parent = np.full(n, -9, dtype=np.int32)
        pdir = np.full(n, -9, dtype=np.int8)
        field = (dist, parent, pdir, np.empty(n, dtype=np.int32), np.empty(n), np.empty(n, dtype=np.int32))
        if plain:
            settled = dijkstra_plain(c.cell, plain_moves(topo, c), bool(c.uniform), c.min_cost, ids, tb,
                                     max_cost, reverse, True, field)
        else:
            settled = dijkstra(c.cell, c.edge, _NO_STOP, ids, tb, max_cost, reverse, field)
        res.append((settled, dist, parent, pdir))
    assert res[0][0] == res[1][0]
    for a, b in zip(res[0][1:], res[1][1:]):
        np.testing.assert_array_equal(a, b)


def test_move_mask_literal():
    # 3 x 3 square-8 board, centre blocked, corner rule 'no-obstacle' (the default)
    g = SquareGrid(3, 3, diagonal=True)
    cost = np.ones((3, 3))
    cost[1, 1] = np.inf
    c = costs_of(g, cost, None)
    topo = g.topology
    off, _, corner, ti = topo_args(topo)
    out = np.empty(topo.padded_size, dtype=np.uint8)
    move_mask(c.cell, c.edge, off, corner, ti, out)
    dirs = [(int(topo.dx[0, d]), int(topo.dy[0, d])) for d in range(g.ndir)]
    top_left = out[padded_id(topo, (0, 0))]
    allowed = {dirs[d] for d in range(g.ndir) if top_left >> d & 1}
    assert allowed == {(1, 0), (0, 1)}  # east and south; the diagonal past the block is cut
    assert out[padded_id(topo, (1, 1))] == 0
    assert plain_moves(topo, c) is plain_moves(topo, c)  # cached while the costs live


@pytest.mark.slow
@settings(max_examples=200)
@given(data=st.data(), max_cost=st.sampled_from([np.inf, 0.0, 1.0, 2.5, 6.0]), scale=st.sampled_from([1.0, 0.5, 3.0]))
def test_queue_dijkstra_gives_the_heap_distances(data, max_cost, scale):
    from wargrid._kernels.movement.dijkstra import dijkstra_queues
    from wargrid.movement.search import step_queues

    g, cost, _ = data.draw(boards(edges=False, uniform=True))
    assume(not g.topology.wrap)
    cost = cost * scale
    cells = list(g.cells())
    srcs = data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=3))
    c = costs_of(g, cost, None)
    topo = g.topology
    tb = topo_bundle(topo)
    n = topo.padded_size
    ids = np.array([padded_id(topo, s) for s in srcs], dtype=np.int64)
    qof, nq = step_queues(topo)
    assert nq == (2 if g.ndir == 8 else 1)
    got = np.full(n, np.inf)
    queues = (qof, nq, np.empty(nq * n, dtype=np.int32), np.empty(nq * n))
    settled = dijkstra_queues(c.cell, plain_moves(topo, c), c.min_cost, ids, tb, queues, max_cost, got)
    want = np.full(n, np.inf)
    field = (want, np.empty(n, dtype=np.int32), np.empty(n, dtype=np.int8), np.empty(n, dtype=np.int32), np.empty(n),
             np.empty(n, dtype=np.int32))
    s2 = dijkstra(c.cell, c.edge, _NO_STOP, ids, tb, max_cost, False, field)
    assert settled == s2
    np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
    np.testing.assert_allclose(got[np.isfinite(got)], want[np.isfinite(want)], rtol=1e-12)


def test_queue_dijkstra_literal_octile():
    from wargrid import Map

    m = Map(SquareGrid(4, 3, diagonal=True))
    m.set_terrain([(1, 0), (1, 1)], "water")
    d = m.distance_field((0, 0), unit="cavalry")
    r2 = 2 ** 0.5
    inf = np.inf
    # the water cuts every diagonal past its corners ('no-obstacle' rule): the way runs round its foot
    want = np.array([
        [0.0, inf, 6.0, 5.0 + r2],
        [1.0, inf, 5.0, 4.0 + r2],
        [2.0, 3.0, 4.0, 5.0],
    ])
    np.testing.assert_allclose(d, want, rtol=0, atol=1e-12)


def test_large_boards_get_the_step_bits_on_their_second_search():
    from wargrid.costs import CostField
    from wargrid.movement import shortest_path
    from wargrid.movement.search import LAZY_MASK_CELLS, plain_moves

    g = SquareGrid(300, 300, diagonal=True)
    assert g.topology.padded_size > LAZY_MASK_CELLS
    rng = np.random.default_rng(3)
    cost = np.where(rng.random(g.shape) < 0.2, np.inf, 1.0)
    cost[0, 0] = cost[299, 299] = 1.0
    c = CostField.from_arrays(g, cost)
    first = shortest_path(g, c, (0, 0), (299, 299), search="astar")  # general kernel: no bits built yet
    assert plain_moves(g.topology, c, lazy=True) is not None  # the second call builds them
    second = shortest_path(g, c, (0, 0), (299, 299), search="astar")  # square-8 integer keys (astar_octile)
    assert (first is None) == (second is None)
    if first is not None:  # exact ties may go another way: the same cost, in as many steps
        assert first.cost == pytest.approx(second.cost, rel=1e-12) and len(first) == len(second)


@settings(max_examples=100, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(data=st.data(), uniform=st.booleans(), weight=st.sampled_from([1.2, 1.7, 3.0]))
def test_search_routes_are_search_checked(data, uniform, weight):
    """Many queries in one call (``search_routes``) give each query's path of ``search_checked``, cell for cell."""
    from wargrid.movement.search import search_checked, search_routes

    g, cost, _ = data.draw(boards(edges=False, uniform=uniform))
    assume(not g.topology.wrap)
    c = costs_of(g, cost, None)
    open_cells = [xy for xy in g.cells() if np.isfinite(cost[xy[1], xy[0]])]
    assume(len(open_cells) >= 2)
    pairs = data.draw(st.lists(st.tuples(st.sampled_from(open_cells), st.sampled_from(open_cells)).filter(
        lambda p: p[0] != p[1]), min_size=1, max_size=6))
    topo = g.topology
    got = search_routes(g, c, np.array([padded_id(topo, s) for s, _ in pairs]),
                        np.array([padded_id(topo, t) for _, t in pairs]), weight)
    assume(got is not None)  # (another kernel serves these costs: integer keys)
    for i, (s, t) in enumerate(pairs):
        want = search_checked(g, c, s, t, weight, False, None)
        if want is None or not want.cost < np.inf:
            assert got.costs[i] == np.inf and len(got.path(i)) == 0
        else:
            assert topo.cells_of(got.path(i)) == want.cells and float(got.costs[i]) == want.cost
