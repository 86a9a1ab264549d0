"""The typed core of Map: read-only layers, bulk edits, one invalidation path, pickling in every state."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from wargrid import HexGrid, Map, SquareGrid, StaggeredGrid
from wargrid.costs import CostField


def _fresh(m: Map) -> Map:
    """The same layers on a map that never cached anything."""
    return Map(m.grid, terrain=m.terrain, terrains=m.terrains, overlay=m.overlay, elevation=m.elevation,
               edges=m.edges, climb_cost=m.climb_cost)


def test_layers_are_read_only_views():
    m = Map(SquareGrid(4, 3))
    water = m.terrains.index("water")
    before = m.costs(unit="foot")
    for layer in (m.terrain, m.overlay):
        with pytest.raises(ValueError, match="read-only"):
            layer[0, 2] = water
    assert np.array_equal(m.costs(unit="foot"), before)  # nothing went stale
    with pytest.raises(AttributeError):
        m.terrain = np.zeros((3, 4), dtype=np.int16)  # type: ignore[misc]


@pytest.mark.slow
def test_edit_context_applies_changes_and_fires_one_event_per_layer():
    m = Map(HexGrid(5, 4))
    m.zones(unit="foot")
    seen: list[str] = []
    for ev in ("terrain_changed", "overlay_changed", "zones_changed", "edge_changed"):
        m.on(ev, lambda e: seen.append(e.event))
    water = m.terrains.index("water")
    with m.edit() as e:
        e.terrain[:, 2] = water
        e.overlay[1, 2] = m.terrains.index("bridge")
    assert seen.count("terrain_changed") == 1 and seen.count("overlay_changed") == 1
    assert "zones_changed" in seen
    assert m.terrain_name((2, 0)) == "water" and m.overlay_name((2, 1)) == "bridge"
    assert m.connected((0, 0), (4, 0), unit="foot")  # over the bridge
    assert np.array_equal(m.costs(unit="foot"), _fresh(m).costs(unit="foot"))


def test_edit_context_discards_on_error_and_checks_values():
    m = Map(SquareGrid(3, 3))
    with pytest.raises(RuntimeError):
        with m.edit() as e:
            e.terrain[:] = m.terrains.index("water")
            raise RuntimeError("changed my mind")
    assert m.count("water") == 0
    with pytest.raises(ValueError, match="terrain id 99"):
        with m.edit() as e:
            e.terrain[0, 0] = 99
    assert m.count("water") == 0


@settings(max_examples=40)
@given(
    kind=st.sampled_from(["square", "square8", "hex", "staggered"]),
    edits=st.lists(st.tuples(st.sampled_from(["terrain", "overlay", "edge", "elevation", "bulk"]),
                             st.integers(0, 5), st.integers(0, 4), st.integers(0, 9)), max_size=6),
)
@pytest.mark.slow
def test_derived_state_equals_a_fresh_map_after_any_edits(kind: str, edits: list) -> None:
    grid = {"square": SquareGrid(6, 5), "square8": SquareGrid(6, 5, diagonal=True),
            "hex": HexGrid(6, 5), "staggered": StaggeredGrid(6, 5)}[kind]
    m = Map(grid)
    for u in m.terrains.classes:
        m.zones(unit=u)
    m.blocks_sight()
    for op, x, y, t in edits:
        name = m.terrains.names[t % len(m.terrains)]
        if op == "terrain":
            m.set_terrain([(x, y)], name)
        elif op == "overlay":
            m.set_overlay([(x, y)], None if t % 3 == 0 else name)
        elif op == "edge":
            n = grid.neighbors((x, y))
            if n:
                m.set_edge((x, y), n[t % len(n)], float("inf") if t % 2 else 1.5)
        elif op == "elevation":
            m.set_elevation(np.arange(30.0).reshape(5, 6) * (t % 3), climb_cost=0.5)
        else:
            with m.edit() as e:
                e.terrain[y, :] = t % len(m.terrains)
        fresh = _fresh(m)
        for u in m.terrains.classes:
            got, want = m.cost_field(unit=u), fresh.cost_field(unit=u)
            assert np.array_equal(got.cell, want.cell) and np.array_equal(got.edge, want.edge)
            assert got.min_cost == want.min_cost and got.uniform == want.uniform
            z, zf = m.zones(unit=u), fresh.zones(unit=u)
            assert np.array_equal(z >= 0, zf >= 0)
            for a in zip(*np.nonzero(z >= 0)):
                for b in zip(*np.nonzero(z >= 0)):
                    assert (z[a] == z[b]) == (zf[a] == zf[b])
        assert np.array_equal(m.blocks_sight(), fresh.blocks_sight())


@pytest.mark.slow
def test_map_pickles_in_every_state():
    m = Map(HexGrid(8, 6))
    m.set_terrain([(3, 3)], "forest")
    m.set_edge((1, 1), (2, 1), float("inf"))
    m.on("terrain_changed", lambda e: None)  # a listener: not pickled
    m.path((0, 0), (7, 5))
    m.zones(unit="naval")
    m.fov((2, 2), radius=3)
    fog = m.fog(["red", "blue"], radius=2)
    fog.place("scout", "red", (4, 4))
    m.partition(2)
    m2 = pickle.loads(pickle.dumps(m))
    assert m2 == m and m2.version == m.version
    assert m2.path((0, 0), (7, 5)) == m.path((0, 0), (7, 5))
    m2.set_terrain([(0, 1)], "water")  # the copy edits on its own, listeners and all rebuilt
    assert m2 != m
    fog2 = pickle.loads(pickle.dumps(fog))
    assert np.array_equal(fog2.visible("red"), fog.visible("red"))


def test_cost_field_by_hand_equals_the_maps():
    m = Map(StaggeredGrid(5, 4))
    m.set_terrain([(1, 1), (2, 2)], "hills")
    by_hand = CostField.from_arrays(m.grid, m.costs(unit="foot"), unit="foot")
    mine = m.cost_field(unit="foot")
    assert np.array_equal(by_hand.cell, mine.cell) and by_hand.min_cost == mine.min_cost
    assert by_hand.uniform == mine.uniform is False
    from wargrid.movement import shortest_path

    assert shortest_path(m.grid, by_hand, (0, 0), (4, 3)) == m.path((0, 0), (4, 3))


def test_functional_astar_answers_unreachable_from_zones_after_the_first_query():
    from wargrid.movement import shortest_path, dispatch

    g = SquareGrid(30, 30)
    costs = np.ones((30, 30))
    costs[:, 15] = np.inf
    f = CostField.from_arrays(g, costs)
    assert shortest_path(g, f, (0, 0), (29, 29)) is None  # first query: a search
    assert dispatch.cached(dispatch._ZONES, f.cell) == 1
    assert shortest_path(g, f, (0, 0), (29, 29)) is None  # second: zones labelled, O(1) from now on
    z = dispatch.cached(dispatch._ZONES, f.cell)
    assert z is not None and not z.connected(g.topology.padded_id(0, 0), g.topology.padded_id(29, 29))


def test_cost_field_checks():
    g = SquareGrid(3, 2)
    with pytest.raises(ValueError, match="shape"):
        CostField.from_arrays(g, np.ones((3, 3)))
    with pytest.raises(ValueError, match="NaN"):
        CostField.from_arrays(g, np.full((2, 3), np.nan))
    with pytest.raises(ValueError, match=">= 0"):
        CostField.from_arrays(g, -np.ones((2, 3)))
    from wargrid.movement import shortest_path

    with pytest.raises(TypeError, match="CostField"):
        shortest_path(g, np.ones((2, 3)), (0, 0), (1, 1))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="another board"):
        shortest_path(g, CostField.from_arrays(SquareGrid(4, 2), np.ones((2, 4))), (0, 0), (1, 1))
