"""Movement range, attack range and flow fields against the plain-Python oracle on every kind of board."""

from __future__ import annotations

import math
from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from movement_oracle import boards, costs_of, dijkstra, path_cost
from wargrid import HexGrid, Map, SquareGrid
from wargrid.movement.fields import flow_field, movement_range


def _steps_within(g, sources, k):
    seen = {s: 0 for s in sources}
    q = deque(sources)
    while q:
        u = q.popleft()
        if seen[u] == k:
            continue
        for v in g.neighbors(u):
            if v not in seen:
                seen[v] = seen[u] + 1
                q.append(v)
    return set(seen)


@settings(max_examples=100)
@given(data=st.data(), budget=st.sampled_from([0.0, 1.0, 2.0, 3.5, 7.0]), attack=st.integers(0, 2))
def test_movement_range_is_cells_within_budget(data, budget, attack):
    g, cost, e = data.draw(boards())
    s = data.draw(st.sampled_from(list(g.cells())))
    r = movement_range(g, costs_of(g, cost, e), s, budget, attack_range=attack)
    dist = dijkstra(g, cost, [s], e, max_cost=budget)
    assert set(r.cells()) == set(dist)
    for c, d in dist.items():
        assert r.cost[c[1], c[0]] == pytest.approx(d, abs=1e-9)
        assert r.remaining[c[1], c[0]] == pytest.approx(budget - d, abs=1e-9)
        p = r.path_to(c)
        assert p.cells[0] == s and p.cells[-1] == c
        assert path_cost(g, cost, e, p.cells) == pytest.approx(d, abs=1e-9)
    out = ~r.reachable
    assert np.all(np.isinf(r.remaining[out])) and np.all(r.remaining[out] < 0)
    ys, xs = np.nonzero(r.attack)
    assert set(zip(xs.tolist(), ys.tolist())) == _steps_within(g, list(dist), attack)
    assert set(r.attack_cells()) == set(zip(xs.tolist(), ys.tolist())) - set(dist)


@pytest.mark.slow
@settings(max_examples=80)
@given(data=st.data())
def test_flow_field_paths_are_optimal(data):
    g, cost, e = data.draw(boards(max_side=6))
    cells = list(g.cells())
    goals = data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=2, unique=True))
    f = flow_field(g, costs_of(g, cost, e), goals)
    live = [t for t in goals if math.isfinite(cost[t[1], t[0]])]  # an impassable goal is never reached
    for c in cells:
        if not math.isfinite(cost[c[1], c[0]]):
            # never entered; an impassable goal is reached by standing on it
            assert f.step(c) is None
            assert f.path_from(c) is None if c not in goals else f.path_from(c).cells == [c] and f.cost[c[1], c[0]] == 0
            continue
        dist = dijkstra(g, cost, [c], e)
        want = min((dist.get(t, math.inf) for t in live), default=math.inf)
        p = f.path_from(c)
        if math.isinf(want):
            assert p is None and f.step(c) is None and f.next[c[1], c[0]] == -1
            continue
        assert f.cost[c[1], c[0]] == pytest.approx(want, abs=1e-9)
        assert p.cells[0] == c and p.cells[-1] in goals
        assert path_cost(g, cost, e, p.cells) == pytest.approx(want, abs=1e-9)
        assert f.step(c) == (p.cells[1] if len(p.cells) > 1 else None)


def test_reference_range_and_flow():
    m = Map(HexGrid(5, 5))
    r = m.movement_range((2, 2), 2, unit="cavalry")
    assert len(r.cells()) == 19 and r.remaining[2, 2] == 2.0
    assert (2, 0) in r and (2, 4) in r and (0, 0) not in r and "x" not in r
    assert r.path_to((0, 0)) is None
    f = m.flow_field([(0, 0), (4, 4)], unit="cavalry")
    assert f.cost[0, 0] == 0.0 and f.step((0, 0)) is None
    assert f.path_from((1, 0)).cells == [(1, 0), (0, 0)]


@pytest.mark.parametrize(
    "call, err, words",
    [
        (lambda m: m.movement_range((0, 0), -1), ValueError, "max_cost"),
        (lambda m: m.movement_range((0, 0), float("nan")), ValueError, "max_cost"),
        (lambda m: m.movement_range((0, 0), "3"), TypeError, "max_cost"),
        (lambda m: m.movement_range((0, 9), 3), IndexError, "start"),
        (lambda m: m.movement_range((0, 0), 3, attack_range=-1), ValueError, "attack_range"),
        (lambda m: m.movement_range((0, 0), 3, unit="dragon"), ValueError, "dragon"),
        (lambda m: m.flow_field((3, 0)), IndexError, "goal"),
        (lambda m: m.flow_field((0, 0)).step((5, 5)), IndexError, "cell"),
    ],
)
def test_bad_input(call, err, words):
    with pytest.raises(err, match=words):
        call(Map(SquareGrid(3, 3)))


def test_attack_steps_and_a_stopped_search_share_one_dijkstra():
    # the attack ring's step field passed writable costs and steps: a second signature of the kernel
    from wargrid._kernels.movement import dijkstra as k
    from wargrid.movement.search import dijkstra_field

    g = SquareGrid(8, 6, diagonal=True)
    c = costs_of(g, np.ones(g.shape), None)
    movement_range(g, c, (1, 1), 4.0, attack_range=2)
    stop = np.zeros(g.shape, dtype=bool)
    stop[2, 2] = True
    dijkstra_field(g, c, np.array([g.topology.padded_id(1, 1)]), stop=stop)
    assert len(k.dijkstra.signatures) <= 1
