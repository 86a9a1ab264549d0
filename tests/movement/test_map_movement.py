"""The Map methods (with the map's own cost arrays, edge walls and connectivity zones) agree with the oracle."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from movement_oracle import dijkstra, grids
from wargrid import Map


@st.composite
def maps(draw):
    g = draw(grids(6))
    m = Map(g)
    n = len(m.terrains)
    ids = np.array(draw(st.lists(st.integers(0, n - 1), min_size=g.size, max_size=g.size)), dtype=np.int16)
    m = Map(g, terrain=ids.reshape(g.shape))
    cells = list(g.cells())
    for _ in range(draw(st.integers(0, 3))):
        a = draw(st.sampled_from(cells))
        nb = g.neighbors(a)
        if nb:
            m.set_edge(a, draw(st.sampled_from(nb)), draw(st.sampled_from([math.inf, 1.0])))
    return m


@settings(max_examples=80)
@given(m=maps(), data=st.data(), unit=st.sampled_from(["foot", "cavalry", "wheeled", "naval"]))
def test_map_path_and_fields_match_oracle(m, data, unit):
    g = m.grid
    cells = list(g.cells())
    s = data.draw(st.sampled_from(cells))
    t = data.draw(st.sampled_from(cells))
    cost = m.costs(unit=unit)
    edges = m.edges
    dist = dijkstra(g, cost, [s], edges)
    p = m.path(s, t, unit=unit)
    if s == t:
        assert p.cost == 0.0
    elif t not in dist:
        assert p is None
    else:
        assert p is not None and p.cost == pytest.approx(dist[t], abs=1e-9)
    field = m.distance_field(s, unit=unit)
    for (x, y), d in dist.items():
        assert field[y, x] == pytest.approx(d, abs=1e-9)
    assert int(np.isfinite(field).sum()) == len(dist)
