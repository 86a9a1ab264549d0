"""Customizable prepared queries (``wargrid.movement.cch``): every answer equals Dijkstra's, before and after
random edits, on every board kind; classes share one structure."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from movement_oracle import boards, costs_of, dijkstra, path_cost
from wargrid import HexGrid, SquareGrid
from wargrid.costs import CostField
from wargrid.movement.cch import customized, structure

INF = math.inf


def _close(a: float, b: float) -> bool:
    return a == b or abs(a - b) <= 1e-9 * max(1.0, abs(b))


def _check(g, cost, e, cp, f):
    topo = g.topology
    cells = list(g.cells())
    for a in cells:
        if not math.isfinite(cost[a[1], a[0]]):
            continue
        want = dijkstra(g, cost, [a], e)
        for b in cells:
            if a == b or not math.isfinite(cost[b[1], b[0]]):
                continue
            p = cp.path(f, topo.padded_id(*a), topo.padded_id(*b))
            d = cp.distance(f, topo.padded_id(*a), topo.padded_id(*b))
            if b not in want:
                assert p is None and d == INF
                continue
            assert _close(d, want[b]) and _close(p.cost, want[b])
            assert p.cells[0] == a and p.cells[-1] == b
            assert _close(path_cost(g, cost, e, p.cells), want[b])
    src, tgt = cells[::2], cells[::3]
    ids = lambda cs: np.array([topo.padded_id(*c) for c in cs], dtype=np.int64)  # noqa: E731
    got = cp.table(f, ids(src), ids(tgt))
    for i, a in enumerate(src):
        want = dijkstra(g, cost, [a], e) if math.isfinite(cost[a[1], a[0]]) else {}
        for j, b in enumerate(tgt):
            assert _close(got[i, j], 0.0 if a == b else want.get(b, INF))


@settings(max_examples=60, deadline=None)
@given(board=boards(max_side=7), data=st.data())
def test_every_answer_equals_dijkstra_before_and_after_edits(board, data):
    g, cost, e = board
    f = costs_of(g, cost, e)
    cp = customized(g, f)
    _check(g, cost, e, cp, f)
    for _ in range(data.draw(st.integers(1, 3))):
        cost = cost.copy()
        cells = list(g.cells())
        for c in data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=3)):
            cost[c[1], c[0]] = data.draw(st.sampled_from([1.0, 2.0, 0.5, INF]))
        f = costs_of(g, cost, e)
        _check(g, cost, e, cp, f)


def test_classes_share_the_structure_and_pickle():
    g = HexGrid(9, 7)
    c = np.ones((7, 9))
    c[:, 4] = INF
    c[3, 4] = 2.0
    shared = structure(g.topology)
    a = customized(g, CostField.from_arrays(g, c), shared=shared)
    b = customized(g, CostField.from_arrays(g, np.full((7, 9), 3.0)), shared=shared)
    assert a.structure is b.structure
    t = g.topology
    s, e = t.padded_id(0, 3), t.padded_id(8, 3)
    assert a.distance(a.costs, s, e) == 9.0 and b.distance(b.costs, s, e) == 24.0
    again = pickle.loads(pickle.dumps(a))
    p, q = again.path(again.costs, s, e), a.path(a.costs, s, e)
    assert p.cost == q.cost == 9.0 and p.cells[0] == q.cells[0] and p.cells[-1] == q.cells[-1]


def test_square8_corner_rule_and_a_wall_raised_then_opened():
    g = SquareGrid(5, 5, diagonal=True, corner_rule="no-obstacle")
    c = np.ones((5, 5))
    c[2, 1:4] = INF
    f = CostField.from_arrays(g, c)
    cp = customized(g, f)
    t = g.topology
    p = cp.path(f, t.padded_id(2, 0), t.padded_id(2, 4))
    assert p.cells[0] == (2, 0) and p.cells[-1] == (2, 4)
    assert _close(p.cost, 4 + 2 * math.sqrt(2))
    c2 = c.copy()
    c2[2, :] = INF
    f2 = CostField.from_arrays(g, c2)
    assert cp.path(f2, t.padded_id(2, 0), t.padded_id(2, 4)) is None
    assert cp.distance(f2, t.padded_id(2, 0), t.padded_id(2, 4)) == INF
    f3 = CostField.from_arrays(g, np.ones((5, 5)))
    assert cp.distance(f3, t.padded_id(2, 0), t.padded_id(2, 4)) == 4.0
