"""Map layers, edits, events and cost arrays; the terrain table."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wargrid as w
from wargrid import Map, Terrain, TerrainTable

GRIDS = [
    lambda: w.SquareGrid(5, 4),
    lambda: w.SquareGrid(5, 4, diagonal=True),
    lambda: w.HexGrid(6, 4, orientation="flat", offset="even-q", wrap_x=True),
    lambda: w.HexGrid(5, 4, orientation="pointy", offset="odd-r"),
    lambda: w.StaggeredGrid(5, 4, stagger="rows"),
    lambda: w.hexagon_board(2),
]


# -- terrain table -----------------------------------------------------------------

def test_default_table_promises():
    t = TerrainTable.default()
    for name in ("plains", "forest", "hills", "mountains", "water", "road", "bridge"):
        assert name in t.names
    assert t.names[0] == "plains"
    for c in ("foot", "cavalry", "wheeled", "tracked", "naval"):
        assert c in t.classes
    # cavalry fast on plains, slow in forest; foot the other way round
    assert t.cost("plains", "cavalry") < t.cost("plains", "foot")
    assert t.cost("forest", "cavalry") > t.cost("forest", "foot")
    # only naval crosses water
    assert [c for c in t.classes if math.isfinite(t.cost("water", c))] == ["naval"]
    assert t["forest"].blocks_sight and t["mountains"].blocks_sight and not t["water"].blocks_sight


def test_table_round_trip_and_equality():
    t = TerrainTable.default()
    assert TerrainTable.from_dict(t.to_dict()) == t


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (dict(name="bad name", symbol="x", color="#000000"), ValueError, "terrain name"),
        (dict(name="a", symbol="xy", color="#000000"), ValueError, "symbol"),
        (dict(name="a", symbol="x", color="red"), ValueError, "color"),
        (dict(name="a", symbol="x", color="#000000", costs={"foot": -1}), ValueError, "cost for 'foot'"),
        (dict(name="a", symbol="x", color="#000000", costs={"foot": float("nan")}), ValueError, "cost for 'foot'"),
        (dict(name="a", symbol="x", color="#000000", costs={"foot": 0}), ValueError, "cost for 'foot'"),
        (dict(name="a", symbol="x", color="#000000", costs={"foot": "1"}), TypeError, "cost for 'foot'"),
    ],
)
def test_terrain_bad_input(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        Terrain(**kwargs)


def test_table_bad_input():
    a = Terrain("a", "x", "#000000", costs={"foot": 1})
    with pytest.raises(ValueError, match="unique"):
        TerrainTable([a, a])
    with pytest.raises(ValueError, match="at least one"):
        TerrainTable([])
    with pytest.raises(ValueError, match="unknown terrain 'nope'"):
        TerrainTable.default().index("nope")
    with pytest.raises(ValueError, match="unknown unit class 'jet'"):
        TerrainTable.default().class_index("jet")


# -- map layers and costs --------------------------------------------------------------

@pytest.mark.parametrize("make", GRIDS)
def test_costs_follow_layers(make):
    g = make()
    m = Map(g)
    t = m.terrains
    cells = list(g.cells())[:3]
    m.set_terrain(cells[:2], "forest")
    m.set_overlay(cells[1:3], "road")
    c = m.costs(unit="cavalry")
    assert c[cells[0][1], cells[0][0]] == t.cost("forest", "cavalry")
    assert c[cells[1][1], cells[1][0]] == t.cost("road", "cavalry")  # overlay replaces ground cost
    assert c[cells[2][1], cells[2][0]] == t.cost("road", "cavalry")
    assert np.isinf(c[~g.mask]).all()
    assert m.terrain_name(cells[1]) == "forest" and m.overlay_name(cells[1]) == "road"
    # padded kernel array agrees with the (H, W) view
    cd = m.cost_field(unit="cavalry")
    assert np.array_equal(g.topology.unpad(cd.cell), c)
    assert cd.min_cost == np.min(c[np.isfinite(c)])


def test_costs_cache_refreshed_after_edit():
    m = Map(w.SquareGrid(3, 3))
    before = m.cost_field(unit="foot")
    assert m.cost_field(unit="foot") is before
    m.set_terrain([(0, 0)], "water")
    after = m.cost_field(unit="foot")
    assert after is not before and math.isinf(m.costs(unit="foot")[0, 0])
    assert m.version == 1


def test_edges_and_climb():
    g = w.SquareGrid(3, 1)
    m = Map(g)
    m.set_edge((0, 0), (1, 0), 2.5)
    cd = m.cost_field(unit="foot")
    n = g.ndir
    p0, p1 = g.topology.padded_id(0, 0), g.topology.padded_id(1, 0)
    assert cd.edge[p0 * n + 0] == 2.5  # east from (0, 0)
    assert cd.edge[p1 * n + 2] == 2.5  # west from (1, 0)
    assert not cd.uniform
    with pytest.raises(ValueError, match="neighbours"):
        m.set_edge((0, 0), (2, 0), 1.0)
    with pytest.raises(ValueError, match="cost"):
        m.set_edge((0, 0), (1, 0), -1.0)
    # climbing: only uphill steps cost extra
    m2 = Map(g, elevation=np.array([[0.0, 2.0, 1.0]]), climb_cost=1.5)
    cd2 = m2.cost_field(unit="foot")
    assert cd2.edge[p0 * n + 0] == 3.0
    assert cd2.edge[p1 * n + 0] == 0.0


def test_count_and_blocks_sight():
    m = Map(w.HexGrid(4, 4))
    m.set_terrain([(0, 0), (1, 1)], "forest")
    m.set_overlay([(2, 2)], "bridge")
    assert m.count("forest") == 2 and m.count("bridge") == 1 and m.count("water") == 0
    b = m.blocks_sight()
    assert b[0, 0] and b[1, 1] and b.sum() == 2


@pytest.mark.parametrize(
    "call, exc, match",
    [
        (lambda m: m.set_terrain([(9, 9)], "forest"), IndexError, r"cells\[0\]"),
        (lambda m: m.set_terrain([(0, 0)], "lava"), ValueError, "unknown terrain 'lava'"),
        (lambda m: m.set_terrain((0, 0), "forest"), TypeError, "list of"),
        (lambda m: m.set_terrain([(0.5, 0)], "forest"), TypeError, "x"),
        (lambda m: m.costs(unit="jet"), ValueError, "unknown unit class 'jet'"),
        (lambda m: m.on("exploded", print), ValueError, "event must be one of"),
        (lambda m: m.on("terrain_changed", 3), TypeError, "callable"),
        (lambda m: m.set_elevation(np.full((3, 3), np.nan)), ValueError, "finite"),
    ],
)
def test_map_bad_input(call, exc, match):
    m = Map(w.SquareGrid(3, 3))
    with pytest.raises(exc, match=match):
        call(m)


def test_map_constructor_bad_input():
    g = w.SquareGrid(3, 2)
    with pytest.raises(TypeError, match="grid"):
        Map("board")
    with pytest.raises(ValueError, match=r"terrain must have shape"):
        Map(g, terrain=np.zeros((3, 3), dtype=int))
    with pytest.raises(TypeError, match="terrain must be an integer"):
        Map(g, terrain=np.zeros((2, 3)))
    with pytest.raises(ValueError, match="terrain holds terrain id 99"):
        Map(g, terrain=np.full((2, 3), 99))
    with pytest.raises(ValueError, match="climb_cost"):
        Map(g, climb_cost=-1)


# -- events ---------------------------------------------------------------------------

def test_events_carry_old_and_new():
    m = Map(w.SquareGrid(3, 3))
    seen = []
    m.on("terrain_changed", seen.append)
    m.set_terrain([(1, 1), (2, 1)], "hills")
    (ev,) = seen
    assert ev.event == "terrain_changed" and ev.cells == ((1, 1), (2, 1))
    assert ev.data == {"old": ["plains", "plains"], "new": "hills"}
    m.off("terrain_changed", seen.append)
    m.set_terrain([(0, 0)], "hills")
    assert len(seen) == 1


def test_raising_callback_does_not_corrupt_the_map():
    m = Map(w.SquareGrid(4, 1))
    m.set_overlay([(1, 0)], "bridge")
    m.set_terrain([(1, 0)], "water")
    m.zones(unit="foot")  # zone state listens to edits
    seen = []
    m.on("zones_changed", lambda e: 1 / 0)
    m.on("overlay_changed", lambda e: [][1])
    m.on("overlay_changed", seen.append)
    with pytest.raises(w.CallbackError) as info:
        m.set_overlay([(1, 0)], None)  # the bridge falls: zones split
    kinds = sorted(type(e).__name__ for e in info.value.errors)
    assert kinds == ["IndexError", "ZeroDivisionError"]
    # the edit is complete, every other callback ran, costs and zones are fresh
    assert len(seen) == 1 and m.overlay_name((1, 0)) is None
    assert math.isinf(m.costs(unit="foot")[0, 1])
    assert not m.connected((0, 0), (3, 0), unit="foot")


def test_copy_and_equality():
    m = Map(w.HexGrid(4, 4), elevation=np.ones((4, 4)), climb_cost=1.0)
    m.set_edge((0, 0), (1, 0), 2.0)
    c = m.copy()
    assert c == m and c is not m
    c.set_terrain([(0, 0)], "forest")
    assert c != m


@settings(max_examples=30)
@given(st.data())
def test_random_edits_keep_costs_consistent(data):
    g = data.draw(st.sampled_from(GRIDS))()
    m = Map(g)
    t = m.terrains
    cells = list(g.cells())
    unit = data.draw(st.sampled_from(t.classes))
    for _ in range(data.draw(st.integers(1, 6))):
        pick = data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=4))
        if data.draw(st.booleans()):
            m.set_terrain(pick, data.draw(st.sampled_from(t.names)))
        else:
            m.set_overlay(pick, data.draw(st.sampled_from((None,) + t.names)))
        got = m.costs(unit=unit)
        col = t.class_index(unit)
        for x, y in cells:
            o = m.overlay[y, x]
            want = t.cost_matrix()[o if o >= 0 else m.terrain[y, x], col]
            assert got[y, x] == want
