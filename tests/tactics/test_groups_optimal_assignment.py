"""Group moves: the total is the best assignment of units to the chosen destinations."""

from __future__ import annotations

import itertools
import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import wargrid as w

BOARDS = [
    lambda: w.SquareGrid(9, 7),
    lambda: w.SquareGrid(9, 7, diagonal=True),
    lambda: w.HexGrid(9, 7, orientation="flat"),
    lambda: w.StaggeredGrid(9, 7, stagger="rows"),
]


@settings(max_examples=25)
@given(st.data())
def test_total_is_the_optimal_assignment(data):
    g = data.draw(st.sampled_from(BOARDS))()
    m = w.Map(g)
    cells = list(g.cells())
    forest = data.draw(st.lists(st.sampled_from(cells), max_size=12))
    if forest:
        m.set_terrain(forest, "forest")
    units = data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=4, unique=True))
    goal = data.draw(st.sampled_from(cells))
    move = m.group_move(units, goal, unit="cavalry")
    dests = [d for d in move.destinations if d is not None]
    assert len(set(dests)) == len(dests)
    # exact cost of every unit to every chosen destination, by a field per unit
    fields = [m.distance_field([u], unit="cavalry") for u in units]
    best = min(
        sum(fields[i][d[1], d[0]] for i, d in enumerate(perm))
        for perm in itertools.permutations(dests, len(units))
    ) if len(dests) == len(units) else None
    if best is not None and math.isfinite(best):
        assert math.isclose(move.total_cost, best, rel_tol=1e-9, abs_tol=1e-9)
        for u, d, p in zip(units, move.destinations, move.paths):
            assert p.cells[0] == u and p.cells[-1] == d
            assert math.isclose(p.cost, float(fields[units.index(u)][d[1], d[0]]), abs_tol=1e-9)
