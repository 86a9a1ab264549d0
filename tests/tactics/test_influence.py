"""Influence maps against a slow oracle: one plain Dijkstra per unit, decayed and summed in Python."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from wargrid import HexGrid, Map, SquareGrid
from wargrid.costs import CostField
from wargrid.errors import ArgumentError, ArgumentTypeError, CellError, UnknownError
from wargrid.render.results import overlays_for
from wargrid.tactics import Influence, influence_map

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "movement"))
from movement_oracle import boards, dijkstra  # noqa: E402


def oracle(g, cost, edges, units, decay, radius, seen=None):
    teams = list(dict.fromkeys(u[1] for u in units))
    out = np.zeros((len(teams),) + g.shape)
    for i, u in enumerate(units):
        cell, team = u[0], u[1]
        s = u[2] if len(u) == 3 else 1.0
        if not math.isfinite(cost[cell[1], cell[0]]):
            out[teams.index(team), cell[1], cell[0]] += s
            continue
        for (x, y), d in dijkstra(g, cost, [cell], edges=edges, max_cost=radius).items():
            if decay == "linear" and d >= radius:
                continue
            if seen is not None and not seen[i][y, x]:
                continue
            out[teams.index(team), y, x] += s * (1 - d / radius) if decay == "linear" else s * decay ** d
    return teams, out


def summary_oracle(g, values, ratio):
    owner = np.full(g.shape, -1)
    contested = np.zeros(g.shape, dtype=bool)
    for x, y in g.cells():
        v = values[:, y, x]
        if len(v) and v.max() > 0:
            owner[y, x] = int(np.argmax(v))  # first of the strongest
        top = sorted(v, reverse=True) + [0.0, 0.0]
        contested[y, x] = top[1] > 0 and top[1] >= ratio * top[0]
    frontier = np.zeros(g.shape, dtype=bool)
    for x, y in g.cells():
        if owner[y, x] >= 0:
            frontier[y, x] = any(owner[ny, nx] >= 0 and owner[ny, nx] != owner[y, x] for nx, ny in g.neighbors((x, y)))
    return owner, frontier, contested


@settings(max_examples=120)
@given(boards(max_side=8), st.data())
def test_influence_matches_the_oracle(board, data):
    g, cost, edges = board
    cells = list(g.cells())
    units = data.draw(st.lists(st.tuples(st.sampled_from(cells), st.sampled_from(["red", "blue", 7]),
                                         st.sampled_from([1.0, 2.5, 0.0])), min_size=0, max_size=6))
    decay = data.draw(st.sampled_from(["linear", 0.5, 0.8]))
    radius = data.draw(st.sampled_from([0.5, 1.0, 3.0, 6.5]))
    ratio = data.draw(st.sampled_from([0.25, 0.5, 1.0]))
    got = influence_map(g, CostField.from_arrays(g, cost, edges), units, decay=decay, radius=radius, contested_ratio=ratio)
    teams, want = oracle(g, cost, edges, units, decay, radius)
    assert list(got.teams) == teams
    assert got.values.shape == want.shape
    np.testing.assert_allclose(got.values, want, rtol=1e-9, atol=1e-12)
    owner, frontier, contested = summary_oracle(g, got.values, ratio)
    assert got.owner.tolist() == owner.tolist()
    assert got.frontier.tolist() == frontier.tolist()
    assert got.contested.tolist() == contested.tolist()
    np.testing.assert_allclose(got.tension, want.sum(axis=0) if len(teams) else np.zeros(g.shape))


@pytest.mark.parametrize("grid", [SquareGrid(12, 9, diagonal=True), SquareGrid(12, 9), HexGrid(12, 9),
                                  HexGrid(12, 9, orientation="pointy", offset="even-r")])
@pytest.mark.slow
def test_influence_through_sight_counts_only_what_each_unit_sees(grid):
    m = Map(grid)
    m.set_terrain([(5, y) for y in range(1, 8)], "mountains")
    units = [((2, 4), "red", 2.0), ((8, 2), "blue"), ((9, 7), "blue", 1.5)]
    radius = 12.0
    got = m.influence(units, radius=radius, unit="foot", sight=True)
    f = m.cost_field(unit="foot")
    reach = math.ceil(radius / f.min_cost)
    seen = [m.fov(c, radius=reach, metric="hex" if isinstance(grid, HexGrid) else "chebyshev") for c, *_ in units]
    cost = f.cells()
    _, want = oracle(grid, cost, None, units, "linear", radius, seen)
    np.testing.assert_allclose(got.values, want, rtol=1e-9, atol=1e-12)
    blind = m.influence(units, radius=radius, unit="foot")
    assert (got.values <= blind.values + 1e-12).all() and (got.values < blind.values - 1e-9).any()


def test_two_armies_have_a_front_and_a_contested_middle():
    m = Map(SquareGrid(20, 10, diagonal=True))
    red = [((x, y), "red", 1.0) for x in (1, 2) for y in range(2, 8)]
    blue = [((x, y), "blue", 1.0) for x in (17, 18) for y in range(2, 8)]
    inf = m.influence(red + blue, radius=16, unit="cavalry")
    assert inf.teams == ("red", "blue")
    assert (inf.owner[:, :8] == 0).all() and (inf.owner[:, 12:] == 1).all()
    assert inf.frontier[:, 9:11].any() and not inf.frontier[:, :6].any()
    assert inf.contested[5, 9] and inf.contested[5, 10] and not inf.contested[5, 1]
    assert inf.team("blue")[5, 18] > inf.team("red")[5, 18]
    with pytest.raises(UnknownError, match="green"):
        inf.team("green")


def test_influence_pictures():
    m = Map(HexGrid(8, 6))
    inf = m.influence([((1, 1), "red"), ((6, 4), "blue")], radius=10)
    svg = inf._repr_svg_()
    assert "<svg" in svg and svg.count("<circle") >= 2 and ">blue<" in svg
    assert [o.name for o in overlays_for(inf, m.grid)] == ["owner", "contested", "units"]
    assert "<svg" in m.picture(inf)._repr_svg_()


def test_no_units_no_influence():
    g = SquareGrid(4, 3)
    inf = influence_map(g, CostField.from_arrays(g, np.ones((3, 4))), [])
    assert inf.teams == () and inf.values.shape == (0, 3, 4) and (inf.owner == -1).all() and not inf.frontier.any()


@pytest.mark.parametrize("kwargs,err", [
    ({"decay": "cubic"}, ArgumentError), ({"decay": 1.0}, ArgumentError), ({"decay": 0.0}, ArgumentError),
    ({"decay": float("nan")}, ArgumentError), ({"radius": 0}, ArgumentError), ({"radius": -1.0}, ArgumentError),
    ({"radius": "far"}, ArgumentTypeError), ({"contested_ratio": 0.0}, ArgumentError),
    ({"contested_ratio": 1.5}, ArgumentError), ({"sight": 1}, ArgumentTypeError),
])
def test_bad_options_are_refused(kwargs, err):
    with pytest.raises(err):
        Map(SquareGrid(5, 5)).influence([((0, 0), "red")], **kwargs)


@pytest.mark.parametrize("units,err", [
    ([((9, 9), "red")], CellError), ([((0, 0),)], ArgumentTypeError), ([((0, 0), "red", -1.0)], ArgumentError),
    ([((0, 0), ["red"])], ArgumentTypeError), ("red", ArgumentTypeError), (5, ArgumentTypeError),
    ([((0, 0), "red", float("inf"))], ArgumentError),
])
def test_bad_units_are_refused(units, err):
    with pytest.raises(err):
        Map(SquareGrid(5, 5)).influence(units)


def test_result_is_typed_and_read_only():
    inf = Map(SquareGrid(5, 5)).influence([((0, 0), 1)])
    assert isinstance(inf, Influence)
    with pytest.raises(ValueError):
        inf.values[0, 0, 0] = 3.0
