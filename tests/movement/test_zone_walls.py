"""Zone sets keyed by what a unit does at a wall (the classic engine's normal, crusher and destroyer zones).

Literal cases, and after every edit each wall rule's zones against a fresh
labelling and a plain-Python oracle that reads the layers cell by cell.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import Map, SquareGrid, Terrain, TerrainTable
from wargrid.terrain import WALL_RULES

from movement_oracle import dijkstra, grids

SANDBAGS = Terrain("sandbags", "S", "#c2b280", wall="crushable")
CONCRETE = Terrain("concrete", "C", "#9a9a9a", wall="destroyable")
TABLE = TerrainTable.default().with_terrains([SANDBAGS, CONCRETE])
UNITS = ("foot", "tracked", "naval")


def _walled(wall: str) -> Map:
    """A 7 x 3 field split by a line of ``wall`` down column 3."""
    m = Map(SquareGrid(7, 3, diagonal=True), terrains=TABLE)
    m.set_overlay([(3, y) for y in range(3)], wall)
    return m


def _count(labels: np.ndarray) -> int:
    return len(set(labels[labels >= 0].tolist()))


# -- literal cases ----------------------------------------------------------------------------


def test_sandbags_split_foot_not_crushers():
    m = _walled("sandbags")
    assert _count(m.zones(unit="foot")) == 2
    assert _count(m.zones(unit="tracked", walls="crush")) == 1
    assert _count(m.zones(unit="tracked", walls="destroy")) == 1
    assert m.zones(unit="tracked", walls="crush").tolist() == [[0] * 7] * 3
    assert not m.connected((0, 0), (6, 2), unit="tracked")
    assert m.connected((0, 0), (6, 2), unit="tracked", walls="crush")


def test_concrete_needs_a_wall_breaker():
    m = _walled("concrete")
    assert _count(m.zones(unit="tracked")) == 2
    assert _count(m.zones(unit="tracked", walls="crush")) == 2
    assert _count(m.zones(unit="tracked", walls="destroy")) == 1
    assert m.zones(unit="tracked", walls="crush").tolist() == [[0, 0, 0, -1, 1, 1, 1]] * 3


def test_a_passed_wall_costs_the_first_terrain():
    """A wall cell counts as clear land (the table's first terrain), whatever lies under it."""
    m = _walled("concrete")
    m.set_terrain([(3, 1)], "water")
    assert TABLE.cost_matrix(walls="destroy")[TABLE.index("concrete")].tolist() == [2.0, 1.0, 2.0, 2.0, math.inf]
    assert _count(m.zones(unit="tracked", walls="destroy")) == 1
    assert _count(m.zones(unit="naval", walls="destroy")) == 0  # a ship does not cross a wall on land
    assert m.costs(unit="tracked")[1, 3] == math.inf  # paths and costs keep the table's costs


def test_edits_update_every_built_rule_and_events_name_it():
    m = _walled("sandbags")
    for walls in WALL_RULES:
        m.zones(unit="tracked", walls=walls)
    seen = []
    m.on("zones_changed", seen.append)
    m.set_overlay([(3, y) for y in range(3)], "concrete")  # sandbags become concrete: crushers are cut off
    assert [(e.data["unit"], e.data["walls"]) for e in seen] == [("tracked", "crush")]
    assert len(seen[0].data["new"]) == 2 and len(seen[0].data["old"]) == 1
    seen.clear()
    m.set_overlay([(3, 1)], None)  # a gap: every rule is one zone again
    assert sorted(e.data["walls"] for e in seen) == ["crush", "stop"]
    assert all(_count(m.zones(unit="tracked", walls=w)) == 1 for w in WALL_RULES)


def test_variants_are_built_lazily():
    m = _walled("sandbags")
    m.zones(unit="foot")
    assert m.derived.zone_keys() == [("foot", "stop")]
    assert m.derived.zones_if_built("foot", "crush") is None
    m.connected((0, 0), (1, 0), unit="foot", walls="crush")
    assert m.derived.zone_keys() == [("foot", "stop"), ("foot", "crush")]


def test_terrain_wall_round_trips_and_is_checked():
    assert Terrain.from_dict(SANDBAGS.to_dict()) == SANDBAGS and SANDBAGS.to_dict()["wall"] == "crushable"
    assert "wall" not in TABLE["plains"].to_dict()
    assert TABLE.has_walls and not TerrainTable.default().has_walls
    import pickle

    assert pickle.loads(pickle.dumps(CONCRETE)) == CONCRETE
    with pytest.raises(ValueError, match="wall must be None or one of 'crushable', 'destroyable'; got 'glass'"):
        Terrain("glass", "g", "#ffffff", wall="glass")


@pytest.mark.parametrize("bad", ["crusher", None, 1, "STOP"])
def test_bad_wall_rule(bad):
    m = _walled("sandbags")
    with pytest.raises(ValueError, match="walls must be one of 'stop', 'crush', 'destroy'"):
        m.zones(walls=bad)
    with pytest.raises(ValueError, match="walls must be one of"):
        m.connected((0, 0), (1, 0), walls=bad)


# -- the oracle: every rule after every edit ---------------------------------------------------------


def oracle_passable(m: Map, unit: str, walls: str) -> np.ndarray:
    """Passable cells read from the layers cell by cell: the overlay if any, else the ground; a wall the
    rule passes costs what the table's first terrain costs."""
    table = m.terrains
    passes = {"stop": set(), "crush": {"crushable"}, "destroy": {"crushable", "destroyable"}}[walls]
    out = np.zeros(m.shape, dtype=bool)
    for x, y in m.grid.cells():
        name = m.overlay_name((x, y)) or m.terrain_name((x, y))
        t = table[name]
        if t.wall in passes:
            t = table.terrains[0]
        out[y, x] = math.isfinite(t.cost(unit))
    return out


def oracle_zones(m: Map, unit: str, walls: str) -> np.ndarray:
    cost = np.where(oracle_passable(m, unit, walls), 1.0, math.inf)
    out = np.full(m.shape, -1, dtype=np.int64)
    k = 0
    for x, y in m.grid.cells():
        if out[y, x] < 0 and cost[y, x] < math.inf:
            for cx, cy in dijkstra(m.grid, cost, [(x, y)]):
                out[cy, cx] = k
            k += 1
    return out


def canonical(labels: np.ndarray) -> list[int]:
    seen: dict[int, int] = {}
    return [seen.setdefault(v, len(seen)) if v >= 0 else -1 for v in np.asarray(labels).ravel().tolist()]


GROUNDS = ("plains", "water", "forest")
OVERLAYS = (None, "sandbags", "concrete", "bridge", "road")

EDITS = st.lists(
    st.tuples(st.sampled_from(("ground", "overlay")), st.integers(0, 4), st.integers(0, 10_000), st.integers(1, 4)),
    min_size=1,
    max_size=8,
)


@pytest.mark.slow
@settings(max_examples=60)
@given(grids(max_side=6), st.lists(st.sampled_from(OVERLAYS), min_size=36, max_size=36), EDITS)
def test_every_rule_matches_fresh_labels_and_the_oracle_after_edits(g, start, edits):
    m = Map(g, terrains=TABLE)
    cells = list(g.cells())
    for name in set(start):
        chosen = [c for c, o in zip(cells, start) if o == name]
        if chosen:
            m.set_overlay(chosen, name)
    keys = [(u, w) for u in UNITS for w in WALL_RULES]
    for u, w in keys:
        m.zones(unit=u, walls=w)
    for layer, which, at, n in edits:
        chosen = [cells[(at + 7 * k) % len(cells)] for k in range(n)]
        if layer == "ground":
            m.set_terrain(chosen, GROUNDS[which % len(GROUNDS)])
        else:
            m.set_overlay(chosen, OVERLAYS[which])
        fresh = m.copy()  # a copy keeps no zones: its labels are computed from scratch
        for u, w in keys:
            got = canonical(m.zones(unit=u, walls=w))
            assert got == canonical(fresh.zones(unit=u, walls=w)), (u, w)
            assert got == canonical(oracle_zones(m, u, w)), (u, w)
