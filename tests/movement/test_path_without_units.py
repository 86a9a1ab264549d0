"""Map.path's common call (no units around, not nearest): the short route through zones and the JPS table."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from movement_oracle import dijkstra, path_cost
from wargrid import Map, SquareGrid
from wargrid.movement.jps import uses_table


@st.composite
def open_maps(draw):
    """Square-8 no-corner-cutting maps of plains with some water: JPS ground, edited a few times."""
    w = draw(st.integers(2, 18))
    h = draw(st.integers(2, 18))
    water = draw(st.sampled_from([0.0, 0.1, 0.25]))
    bits = np.array(draw(st.lists(st.floats(0, 1), min_size=w * h, max_size=w * h))).reshape(h, w)
    m = Map(SquareGrid(w, h, diagonal=True))
    cells = [(x, y) for y in range(h) for x in range(w) if bits[y, x] < water]
    if cells:
        m.set_terrain(cells, "water")
    return m


def check(m, s, t, unit):
    g = m.grid
    cost = m.costs(unit=unit)
    p = m.path(s, t, unit=unit)
    want = 0.0 if s == t else dijkstra(g, cost, [s]).get(t, math.inf)
    if math.isinf(want):
        assert p is None
        return
    assert p.cost == pytest.approx(want, rel=1e-12, abs=1e-12)
    assert p.cells[0] == s and p.cells[-1] == t and p.unit == unit
    if s != t:
        assert path_cost(g, cost, None, p.cells) == pytest.approx(p.cost, rel=1e-12, abs=1e-12)
    # the general route (weight given as an int, zones of control switched off) agrees
    q = m.path(s, t, unit=unit, weight=1, enemies=[], ignore_zoc=True)
    assert (q is None) == (p is None) and (q is None or q.cost == pytest.approx(p.cost, rel=1e-12))


@settings(max_examples=80, deadline=None)
@given(m=open_maps(), data=st.data(), unit=st.sampled_from(["foot", "cavalry", "naval"]))
def test_plain_path_matches_the_oracle_also_after_edits(m, data, unit):
    cells = list(m.grid.cells())
    for _ in range(2):
        s = data.draw(st.sampled_from(cells))
        t = data.draw(st.sampled_from(cells))
        check(m, s, t, unit)
        m.set_terrain([data.draw(st.sampled_from(cells))], data.draw(st.sampled_from(["water", "plains"])))


def test_plain_path_literal_cases():
    m = Map(SquareGrid(10, 10, diagonal=True))
    m.set_terrain([(5, y) for y in range(10)], "water")  # a river cuts the board in two
    assert uses_table(m.grid, m.cost_field(unit="foot"))
    assert m.path((0, 0), (9, 9)) is None  # other side of the river: answered by the zones
    assert m.path((5, 5), (5, 5)).cells == [(5, 5)]  # start == goal, even on water
    assert m.path((0, 0), (5, 5)) is None  # goal on water
    assert m.path((5, 0), (0, 0)) is None  # start on water
    c = float(m.costs()[0, 0])  # plains for the default class
    p = m.path((0, 0), (4, 4))
    assert p.cost == pytest.approx(4 * math.sqrt(2) * c) and p.cells == [(i, i) for i in range(5)]
    p = m.path((0, 9), (4, 9))
    assert p.cells == [(0, 9), (1, 9), (2, 9), (3, 9), (4, 9)] and p.cost == 4 * c
    assert m.path((4, 0), (6, 0), unit="naval") is None
    assert m.path((5, 0), (5, 9), unit="naval").cost == 9 * float(m.costs(unit="naval")[0, 5])


def test_plain_path_checks_its_arguments():
    m = Map(SquareGrid(6, 6, diagonal=True))
    with pytest.raises(TypeError, match="ignore_zoc"):
        m.path((0, 0), (5, 5), ignore_zoc="yes")
    with pytest.raises(ValueError, match="weight"):
        m.path((0, 0), (5, 5), weight=0.5)
    with pytest.raises(TypeError, match="nearest"):
        m.path((0, 0), (5, 5), nearest=1)
    with pytest.raises(IndexError, match="goal"):
        m.path((0, 0), (6, 5))
    assert m.path((0, 0), (5, 5), weight=2.0).cost <= 2 * 5 * math.sqrt(2)
