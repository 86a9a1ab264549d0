"""Zones of control and multi-turn routes against brute force over every simple path on tiny boards."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from movement_oracle import costs_of, grids, moves
from wargrid import Map, SquareGrid
from wargrid.movement.fields import movement_range
from wargrid.movement import shortest_path
from wargrid.movement.turns import route
from wargrid.movement.zoc import occupied


@st.composite
def tiny(draw, max_side=3):
    g = draw(grids(max_side))
    n = g.width * g.height
    cost = np.array(draw(st.lists(st.sampled_from([1.0, 1.0, 2.0, 3.0, math.inf]), min_size=n, max_size=n)))
    cost = cost.reshape(g.height, g.width)
    e = None
    if draw(st.booleans()):
        k = n * g.ndir
        e = np.array(draw(st.lists(st.sampled_from([0.0, 0.0, 1.0, math.inf]), min_size=k, max_size=k)))
        e = e.reshape(g.height, g.width, g.ndir)
    return g, cost, e


def _zoc(g, enemies, ignore):
    return set() if ignore else {n for c in enemies for n in g.neighbors(c)}


def _walks(g, cost, e, start, limit):
    """Every simple path from ``start`` (as (cells, step costs)) whose cost stays within ``limit``."""
    out = []

    def go(cells, steps, spent):
        out.append((list(cells), list(steps)))
        for v, _, sc in moves(g, cost, e, cells[-1]):
            if v not in cells and spent + sc <= limit:
                cells.append(v)
                steps.append(sc)
                go(cells, steps, spent + sc)
                cells.pop()
                steps.pop()

    go([start], [], 0.0)
    return out


def _blocked(cost, enemies):
    c = cost.copy()
    for x, y in enemies:
        c[y, x] = math.inf
    return c


@settings(max_examples=120)
@given(data=st.data(), budget=st.sampled_from([1.0, 2.0, 3.0, 4.0]), ignore=st.booleans())
def test_zoc_range_matches_brute_force(data, budget, ignore):
    g, cost, e = data.draw(tiny())
    cells = list(g.cells())
    start = data.draw(st.sampled_from(cells))
    others = [c for c in cells if c != start]
    enemies = data.draw(st.lists(st.sampled_from(others), max_size=2, unique=True)) if others else []
    friends = data.draw(st.lists(st.sampled_from(others), max_size=2, unique=True)) if others else []
    friends = [f for f in friends if f not in enemies]
    zoc = _zoc(g, enemies, ignore)
    best: dict = {}
    # a start on an impassable cell reaches itself alone, at cost 0
    walks = _walks(g, _blocked(cost, enemies), e, start, budget) if math.isfinite(cost[start[1], start[0]]) else [([start], [])]
    for walk, steps in walks:
        if any(c in zoc for c in walk[1:-1]):
            continue  # a zone of control ends the move: it can only be the last cell
        best[walk[-1]] = min(best.get(walk[-1], math.inf), sum(steps))
    stops = {c for c in best if c not in friends or c == start}
    r = movement_range(g, costs_of(g, cost, e), start, budget, enemies=enemies, friends=friends, ignore_zoc=ignore)
    assert set(r.cells()) == stops
    for c, d in best.items():
        assert r.cost[c[1], c[0]] == pytest.approx(d)
    # the same rules for a single path
    goal = data.draw(st.sampled_from(cells))
    occ = occupied(g, costs_of(g, cost, e), enemies=enemies, ignore_zoc=ignore)
    p = shortest_path(g, occ.costs, start, goal, stop=occ.stop)
    if goal == start:
        assert p.cells == [start] and p.cost == 0.0
    elif goal in best:
        assert p is not None and p.cost == pytest.approx(best[goal])
    else:
        assert p is None or p.cost > budget


@pytest.mark.slow
@settings(max_examples=120)
@given(data=st.data(), ppt=st.sampled_from([1.0, 2.0, 3.0, 4.5]), ignore=st.booleans())
def test_route_matches_brute_force(data, ppt, ignore):
    g, cost, e = data.draw(tiny())
    cells = list(g.cells())
    start = data.draw(st.sampled_from(cells))
    goal = data.draw(st.sampled_from(cells))
    left = data.draw(st.sampled_from([None, 0.0, 1.0]))
    left = None if left is not None and left > ppt else left
    others = [c for c in cells if c not in (start, goal)]
    enemies = data.draw(st.lists(st.sampled_from(others), max_size=1)) if others else []
    zoc = _zoc(g, enemies, ignore)

    def simulate(walk, steps):
        t, used = 0, ppt - (ppt if left is None else left)
        turns = [0]
        for c, sc in zip(walk[1:], steps):
            if sc > ppt:
                return None
            if used + sc <= ppt:
                used += sc
            else:
                t, used = t + 1, sc
            if c in zoc:
                used = ppt
            turns.append(t)
        return (t, used), turns

    best = None
    walks = _walks(g, _blocked(cost, enemies), e, start, math.inf) if math.isfinite(cost[start[1], start[0]]) else []
    for walk, steps in walks:
        if walk[-1] != goal:
            continue
        sim = simulate(walk, steps)
        if sim is not None and (best is None or sim[0] < best):
            best = sim[0]
    r = route(g, costs_of(g, cost, e), start, goal, points_per_turn=ppt, points_left=left, enemies=enemies,
              ignore_zoc=ignore)
    if start == goal:
        assert r.cells == [start] and r.turns == 0
        return
    if best is None:
        assert r is None
        return
    assert r is not None and r.cells[0] == start and r.cells[-1] == goal
    label, turns = simulate(r.cells, [dict((v, sc) for v, _, sc in moves(g, _blocked(cost, enemies), e, a))[b]
                                      for a, b in zip(r.cells[:-1], r.cells[1:])])
    assert label[0] == best[0] and label[1] == pytest.approx(best[1])
    assert r.turn_at == turns and r.turns == turns[-1] + 1


def test_zoc_reference():
    m = Map(SquareGrid(5, 3))
    # an enemy at (2, 1): its neighbours end a move; it blocks its own cell
    r = m.movement_range((0, 1), 10, unit="cavalry", enemies=[(2, 1)])
    assert (2, 1) not in r and (1, 1) in r and (1, 0) in r
    assert r.cost[0, 2] == 3.0 and (3, 0) not in r and (3, 1) not in r  # column 2 is all zone or enemy
    free = m.movement_range((0, 1), 10, unit="cavalry", enemies=[(2, 1)], ignore_zoc=True)
    assert free.cost[1, 4] == 6.0
    # friends: crossed, never a place to stop
    r = m.movement_range((0, 0), 2, unit="cavalry", friends=[(1, 0)])
    assert (1, 0) not in r and (2, 0) in r
    assert m.path((0, 0), (1, 0), unit="cavalry", friends=[(1, 0)]) is None
    assert m.path((0, 0), (2, 0), unit="cavalry", friends=[(1, 0)]).cost == 2.0
    # an enemy's zone of control stops a path running past it
    z = m.path((0, 0), (4, 0), unit="cavalry", enemies=[(2, 2)])
    assert z.cost == 4.0 and (2, 1) not in z.cells
    assert m.path((0, 1), (4, 1), unit="cavalry", enemies=[(2, 0), (2, 2)]) is None


def test_route_reference_and_errors():
    m = Map(SquareGrid(6, 1))
    r = m.route((0, 0), (5, 0), unit="foot", points_per_turn=5)
    assert r.turn_at == [0, 0, 0, 1, 1, 2] and r.ends() == [(2, 0), (4, 0), (5, 0)] and r.cost == 10.0
    r = m.route((0, 0), (5, 0), unit="foot", points_per_turn=5, points_left=1)
    assert r.turn_at == [0, 1, 1, 2, 2, 3]
    assert m.route((0, 0), (5, 0), unit="foot", points_per_turn=1) is None  # every step costs 2
    assert m.route((0, 0), (0, 0), unit="foot", points_per_turn=1).turns == 0
    with pytest.raises(ValueError, match="points_per_turn"):
        m.route((0, 0), (5, 0), points_per_turn=0)
    with pytest.raises(ValueError, match="points_left"):
        m.route((0, 0), (5, 0), points_per_turn=2, points_left=3)
    with pytest.raises(TypeError, match="points_per_turn"):
        m.route((0, 0), (5, 0), points_per_turn="2")
    with pytest.raises(IndexError, match="goal"):
        m.route((0, 0), (6, 0), points_per_turn=2)
    with pytest.raises(IndexError, match=r"enemies\[0\]"):
        m.movement_range((0, 0), 2, enemies=[(9, 9)])
    with pytest.raises(TypeError, match="ignore_zoc"):
        m.path((0, 0), (1, 0), enemies=[(3, 0)], ignore_zoc="yes")


def test_enemies_field_is_made_without_the_constructors_full_pass(monkeypatch):
    # the field with enemies' cells blocked is the caller's checked field with inf written in: building it through
    # CostField's own checks read every cell and edge once more a query (2-7 x the query on 1024 x 1024)
    from wargrid.costs import CostField

    m = Map(SquareGrid(5, 3))
    f = m.cost_field(unit="foot")

    def refuse(self):
        raise AssertionError("CostField.__post_init__ ran")

    monkeypatch.setattr(CostField, "__post_init__", refuse)
    o = occupied(m.grid, f, enemies=[(2, 1)])
    assert o.costs.cell[m.grid.topology.padded_id(2, 1)] == np.inf and not o.costs.cell.flags.writeable
    assert (o.costs.min_cost, o.costs.uniform, o.costs.unit, o.costs.edge is f.edge) == (f.min_cost, f.uniform, f.unit, True)
