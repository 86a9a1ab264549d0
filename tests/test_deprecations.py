"""Each deprecated name still works for one release, warns naming its replacement, and gives the same answer."""

from __future__ import annotations

import numpy as np
import pytest

import wargrid
from wargrid import HexGrid, Map, SquareGrid
from wargrid.costs import CostField


def test_astar_and_find_path_are_shortest_path_and_path_over_arrays():
    from wargrid.movement import astar, find_path, path_over_arrays, shortest_path

    g = HexGrid(5, 5)
    costs = CostField.from_arrays(g, np.ones((5, 5)))
    with pytest.warns(DeprecationWarning, match="wargrid.movement.shortest_path"):
        old = astar(g, costs, (0, 0), (4, 4))
    assert old == shortest_path(g, costs, (0, 0), (4, 4)) and old.cost == 6.0
    with pytest.warns(DeprecationWarning, match="path_over_arrays"):
        raw = find_path(g, np.ones((5, 5)), (0, 0), (4, 4))
    assert raw == path_over_arrays(g, np.ones((5, 5)), (0, 0), (4, 4))


def test_neighbour_spellings_warn_and_agree():
    g = SquareGrid(3, 2, wrap_x=True)
    t = g.topology
    with pytest.warns(DeprecationWarning, match="Grid.neighbor_ids"):
        assert g.neighbour_ids().tolist() == g.neighbor_ids().tolist()
    with pytest.warns(DeprecationWarning, match="Topology.neighbor_table"):
        assert t.neighbour_table().tolist() == t.neighbor_table().tolist()
    p = np.array([t.padded_id(1, 1)])
    with pytest.warns(DeprecationWarning, match="Topology.neighbors"):
        assert t.neighbours(p).tolist() == t.neighbors(p).tolist()


def test_turn_path_turns_is_facing_steps():
    m = Map(SquareGrid(6, 3))
    p = m.turning_path((0, 1), (3, 1), unit="cavalry", facing=2, turn_rate=1)
    with pytest.warns(DeprecationWarning, match="facing_steps"):
        assert p.turns == p.facing_steps == 2


def test_map_plumbing_is_private_and_the_old_names_warn():
    m = Map(SquareGrid(4, 3))
    seen = []
    m.on("terrain_changed", seen.append)
    with pytest.warns(DeprecationWarning, match="Map.emit"):
        m.emit("terrain_changed", [(1, 1)])
    assert seen[0].cells == ((1, 1),)
    with pytest.warns(DeprecationWarning, match="cost_field"):
        built = m.build_cost_field("foot")
    assert np.array_equal(built.cell, m.cost_field(unit="foot").cell)
    assert not hasattr(m, "patch_cost_field") and not hasattr(m, "build_blocks_sight")


def test_moved_modules_keep_their_old_import_paths():
    from wargrid.rts import leptons as old_leptons
    from wargrid.grids import leptons

    assert old_leptons.cell_to_lepton is leptons.cell_to_lepton
    from wargrid.tactics import turning_path
    from wargrid.movement.turning import turning_path as moved

    assert turning_path is moved
    assert wargrid.errors.PartitionError is wargrid.territory.PartitionError
    assert wargrid.errors.MapFileError is wargrid.io.errors.MapFileError


def test_rts_names_one_idea_each():
    from wargrid import rts

    sim = rts.Simulation(Map(SquareGrid(4, 2)), seed=0)
    tank = sim.add_unit((0, 0), unit="tracked", goal=(3, 0))
    with pytest.warns(DeprecationWarning, match="Simulation.get"):
        assert sim.unit(tank) == sim.get(tank)
    with pytest.warns(DeprecationWarning, match="OCCUPANT_KINDS"):
        assert rts.KINDS == rts.OCCUPANT_KINDS == ("infantry", "vehicle")
    with pytest.warns(DeprecationWarning, match="OUTCOMES"):
        assert rts.STATUSES == rts.OUTCOMES
    p = rts.classic_path(SquareGrid(4, 1), np.ones((1, 4)), (0, 0), (3, 0))
    with pytest.warns(DeprecationWarning, match="ClassicPath.outcome"):
        assert p.status == p.outcome == "arrived"
