"""Bridges with hit points: stages, damage and repair, the events with the zones they split, units that follow."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import CallbackError, HexGrid, Map, SquareGrid, StaggeredGrid, Terrain
from wargrid.map import BRIDGE_STAGES, Bridge, ZoneSplit
from wargrid.rts import Simulation
from wargrid.terrain import WALL_RULES

SANDBAGS = Terrain("sandbags", "S", "#c2b280", wall="crushable")


def river_map(grid=None) -> tuple[Map, Bridge]:
    """A 7 x 3 field, a river down column 3, a bridge at (3, 1) with 200 hp."""
    m = Map(grid or SquareGrid(7, 3))
    m.set_terrain([(3, y) for y in range(3)], "water")
    return m, m.add_bridge([(3, 1)], max_hp=200)


def canonical(labels) -> list[int]:
    seen: dict[int, int] = {}
    return [seen.setdefault(v, len(seen)) if v >= 0 else -1 for v in np.asarray(labels).ravel().tolist()]


# -- stages -----------------------------------------------------------------------------------------


def test_stages_by_hit_points():
    m, b = river_map()
    assert (b.id, b.cells, b.hp, b.max_hp, b.stage) == (0, ((3, 1),), 200.0, 200.0, "whole")
    seen = []
    for hit in (99, 1, 99, 1, 5):
        b = m.damage_bridge(b, hit)
        seen.append((b.hp, b.stage, m.overlay_name((3, 1)), m.connected((0, 1), (6, 1))))
    assert seen == [
        (101.0, "whole", "bridge", True),
        (100.0, "damaged", "bridge", True),  # a half: damaged, still crossable
        (1.0, "damaged", "bridge", True),
        (0.0, "destroyed", None, False),  # down: the river shows
        (0.0, "destroyed", None, False),  # no hit points below 0
    ]
    assert BRIDGE_STAGES == ("whole", "damaged", "destroyed")
    assert [Bridge(0, ((0, 0),), hp, 10.0).stage for hp in (10, 6, 5, 0.5, 0)] == [
        "whole", "whole", "damaged", "damaged", "destroyed"]


def test_repair_from_destroyed_to_passable():
    m, b = river_map()
    m.damage_bridge(b, 500)
    assert m.costs(unit="wheeled")[1, 3] == np.inf and m.costs(unit="naval")[1, 3] == 1.0
    b = m.repair_bridge(b, 60)
    assert (b.hp, b.stage, m.costs(unit="wheeled")[1, 3], m.costs(unit="naval")[1, 3]) == (60.0, "damaged", 1.0, np.inf)
    b = m.repair_bridge(0, 100)
    assert (b.hp, b.stage) == (160.0, "whole")
    assert m.repair_bridge(b).hp == 200.0 and m.repair_bridge(b, 50).hp == 200.0
    assert m.bridges == m.intact_bridges == (Bridge(0, ((3, 1),), 200.0, 200.0),)


def test_ruin_overlay_while_down():
    m = Map(SquareGrid(5, 1))
    m.set_terrain([(2, 0)], "water")
    b = m.add_bridge([(2, 0)], max_hp=10, ruin="ford")  # the wreck leaves a ford tanks can wade
    m.damage_bridge(b, 10)
    assert m.overlay_name((2, 0)) == "ford"
    assert m.connected((0, 0), (4, 0), unit="tracked") and not m.connected((0, 0), (4, 0), unit="wheeled")


# -- events -----------------------------------------------------------------------------------------


def test_destroyed_and_repaired_fire_once_with_the_split_zones():
    m, b = river_map()
    m.set_terrain([(5, 0), (5, 1), (5, 2)], "forest")
    for unit in ("foot", "wheeled", "naval"):
        m.zones(unit=unit)
    m.zones(unit="tracked", walls="crush")
    events = []
    for ev in ("bridge_damaged", "bridge_destroyed", "bridge_repaired"):
        m.on(ev, events.append)
    m.damage_bridge(b, 150)
    assert [(e.event, e.data["bridge"].stage) for e in events] == [("bridge_damaged", "damaged")]
    m.damage_bridge(b, 10)
    assert len(events) == 1  # damaged again: no new event
    events.clear()
    before = {u: int(m.zones(unit=u)[1, 0]) for u in ("foot", "wheeled")}
    m.damage_bridge(b, 40)
    m.damage_bridge(b, 40)  # already down: nothing more
    assert len(events) == 1
    ev = events[0]
    assert ev.event == "bridge_destroyed" and ev.cells == ((3, 1),) and ev.data["intact"] == 0
    assert ev.data["bridge"] == Bridge(0, ((3, 1),), 0.0, 200.0)
    z = {k: m.zones(unit=k[0], walls=k[1]) for k in (("foot", "stop"), ("wheeled", "stop"), ("tracked", "crush"))}
    assert ev.data["splits"] == [
        ZoneSplit(u, w, before.get(u, 0), tuple(sorted((int(z[(u, w)][1, 0]), int(z[(u, w)][1, 6])))))
        for u, w in (("foot", "stop"), ("wheeled", "stop"), ("tracked", "crush"))
    ]
    assert [(s.zone, s.parts) for s in ev.data["splits"]] == [(0, (0, 1))] * 3
    assert [int(z[k][1, 0]) for k in z] == [1, 1, 1]  # the west bank was split off: a new id
    events.clear()
    m.repair_bridge(b)
    assert [e.event for e in events] == ["bridge_repaired"]
    rep = events[0].data
    assert rep["intact"] == 1 and rep["bridge"].stage == "whole"
    assert [(s.unit, s.walls, s.parts) for s in rep["splits"]] == [
        ("foot", "stop", (0, 1)), ("wheeled", "stop", (0, 1)), ("tracked", "crush", (0, 1))]
    assert all(s.zone == int(m.zones(unit=s.unit, walls=s.walls)[1, 0]) for s in rep["splits"])


def test_no_split_when_another_crossing_stands():
    m, b = river_map()
    c = m.add_bridge([(3, 2)], max_hp=50)
    m.zones(unit="foot")
    events = []
    m.on("bridge_destroyed", events.append)
    m.damage_bridge(b, 200)
    assert events[0].data["splits"] == [] and events[0].data["intact"] == 1
    m.damage_bridge(c, 50)
    assert len(events[1].data["splits"]) == 1 and events[1].data["intact"] == 0 and m.intact_bridges == ()


def test_callback_errors_come_after_the_change():
    m, b = river_map()

    def boom(ev):
        raise RuntimeError("listener failed")

    m.on("bridge_destroyed", boom)
    with pytest.raises(CallbackError):
        m.damage_bridge(b, 200)
    assert m.bridges[0].stage == "destroyed" and m.overlay_name((3, 1)) is None


# -- zones after destroy and repair equal a fresh labelling ---------------------------------------------------


@settings(max_examples=40)
@given(
    st.sampled_from(["square4", "square8", "hex", "staggered"]),
    st.lists(st.tuples(st.integers(0, 2), st.booleans(), st.integers(0, 250)), min_size=1, max_size=8),
)
def test_zone_answers_after_destroy_and_repair_equal_a_fresh_labelling(kind, hits):
    grid = {"square4": SquareGrid(7, 4), "square8": SquareGrid(7, 4, diagonal=True), "hex": HexGrid(7, 4),
            "staggered": StaggeredGrid(7, 4)}[kind]
    m = Map(grid, terrains=Map(grid).terrains.with_terrains([SANDBAGS]))
    m.set_terrain([(3, y) for y in range(4)], "water")
    m.set_overlay([(5, y) for y in range(4)], "sandbags")
    bridges = [m.add_bridge([(3, y)], max_hp=200) for y in (0, 2, 3)]
    keys = [(u, w) for u in ("foot", "wheeled", "naval") for w in WALL_RULES]
    for u, w in keys:
        m.zones(unit=u, walls=w)
    for which, repair, amount in hits:
        if repair:
            m.repair_bridge(bridges[which], amount)
        else:
            m.damage_bridge(bridges[which], amount)
        fresh = m.copy()  # no zone state: labelled from scratch
        for u, w in keys:
            assert canonical(m.zones(unit=u, walls=w)) == canonical(fresh.zones(unit=u, walls=w)), (u, w)
        assert fresh.bridges == m.bridges


# -- units -----------------------------------------------------------------------------------------------


def test_units_cross_a_damaged_bridge_and_stop_at_a_destroyed_one():
    m, b = river_map()
    m.damage_bridge(b, 150)
    sim = Simulation(m, seed=0)
    jeep = sim.add_unit((0, 1), unit="wheeled", goal=(6, 1), speed=128)
    sim.run(300)
    assert sim.get(jeep).state == "arrived" and (3, 1) in sim.get(jeep).trail
    m2, b2 = river_map()
    sim2 = Simulation(m2, seed=0)
    jeep2 = sim2.add_unit((0, 1), unit="wheeled", goal=(6, 1), speed=64)
    sim2.step()
    assert (3, 1) in sim2.get(jeep2).route
    m2.damage_bridge(b2, 200)
    sim2.run(300)
    u = sim2.get(jeep2)
    assert u.state == "stuck" and "not connected" in u.reason and (3, 1) not in u.trail and u.cell[0] < 3
    m2.repair_bridge(b2)  # repaired: the unit goes on
    sim2.run(300)
    assert sim2.get(jeep2).state == "arrived"


# -- copies, input -------------------------------------------------------------------------------------


def test_copies_and_pickles_keep_bridges():
    m, b = river_map()
    m.damage_bridge(b, 120)
    for c in (m.copy(), pickle.loads(pickle.dumps(m))):
        assert c.bridges == m.bridges
        c.damage_bridge(0, 80)
        assert c.bridges[0].stage == "destroyed" and m.bridges[0].stage == "damaged"


def test_bad_input():
    m, b = river_map()
    with pytest.raises(ValueError, match=r"cell \(3, 1\) already belongs to a bridge"):
        m.add_bridge([(3, 1)])
    with pytest.raises(ValueError, match="at least one"):
        m.add_bridge([])
    with pytest.raises(ValueError, match="max_hp must be > 0"):
        m.add_bridge([(3, 0)], max_hp=0)
    with pytest.raises(ValueError, match="hp must be <= max_hp"):
        m.add_bridge([(3, 0)], max_hp=10, hp=11)
    with pytest.raises(ValueError, match="unknown terrain"):
        m.add_bridge([(3, 0)], overlay="rope")
    with pytest.raises(IndexError):
        m.add_bridge([(9, 0)])
    with pytest.raises(ValueError, match="unknown bridge 3"):
        m.damage_bridge(3, 1)
    with pytest.raises(TypeError, match="bridge must be a Bridge or a bridge id"):
        m.repair_bridge("0")
    with pytest.raises(ValueError, match="damage must be >= 0"):
        m.damage_bridge(b, -1)
    with pytest.raises(ValueError, match="hp must be >= 0"):
        m.repair_bridge(b, -5)
    assert len(m.bridges) == 1


@pytest.mark.parametrize("suffix", [".wargrid.json", ".npz"])
def test_map_files_keep_bridges(tmp_path, suffix):
    from wargrid import load_map, save_map

    m, b = river_map()
    m.damage_bridge(b, 150)
    c = m.add_bridge([(3, 2)], max_hp=80, hp=0, ruin="ford")
    path = tmp_path / f"b{suffix}"
    save_map(m, path)
    back = load_map(path)
    assert back == m and back.bridges == m.bridges
    assert [(x.stage, back.overlay_name(x.cells[0])) for x in back.bridges] == [("damaged", "bridge"), ("destroyed", "ford")]
    back.repair_bridge(c)
    assert back != m and back.overlay_name((3, 2)) == "bridge"


def test_bridge_cells_outside_the_playable_rectangle_are_left_alone():
    m, b = river_map()
    m.set_playable((0, 0, 7, 1))  # row 1 (the bridge) is off the board now
    m.zones()
    m.damage_bridge(b, 200)
    assert m.bridges[0].stage == "destroyed" and m.overlay[1, 3] == m.terrains.index("bridge")  # not edited
    assert np.isinf(m.costs()[1]).all()  # cells off the board stay impassable
