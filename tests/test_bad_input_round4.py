"""Bad inputs found by ``scripts/fuzz_inputs.py``, each as the literal input that failed: a clear error of the
library (or, where the input is fine, the right answer), never a bare numpy or Python error, a half-done edit or a
field whose arrays a caller can still write."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from wargrid import ArgumentError, ArgumentTypeError, Map, MapFileError, SquareGrid, Terrain, load_map, save_map
from wargrid.costs import CostField
from wargrid.movement import distance_field
from wargrid.rts import Simulation, plan_crowd


# -- CostField.with_cells(changed=...) ------------------------------------------------------------------------------
def test_with_cells_copies_a_view_so_the_callers_array_cannot_reach_the_kernels():
    # with ``changed`` the array was taken as it came and made read-only: a view's base stayed writable, and a
    # finite padding ring written there afterwards walked the search off the array (from_padded copies views)
    m = Map(SquareGrid(6, 4))
    f = m.cost_field()
    base = f.cell.copy()
    p = f.topology.padded_id(2, 1)
    base[p] = 3.0
    g = f.with_cells(base[:], changed=np.array([p]))
    assert not np.shares_memory(g.cell, base) and not g.cell.flags.writeable
    base[:] = 1.0  # the padding ring finite, through the base
    assert g.cell[0] == np.inf and g.cell[p] == 3.0
    own = f.cell.copy()
    own[p] = 3.0
    mine = f.with_cells(own, changed=np.array([p]))
    assert mine.cell is own  # an array of its own is taken as it is
    assert (distance_field(m.grid, g, (0, 0)) == distance_field(m.grid, mine, (0, 0))).all()


@pytest.mark.parametrize("value", [np.nan, -np.inf])
def test_with_cells_refuses_a_nan_in_the_padding_ring(value):
    # the ring check read ``< inf``: a NaN passed it, the step bits (which block ``inf`` only) opened the ring, and
    # distance_field walked off the array (a segfault on an 8 x 5 board, case 3085 of seed 277469783)
    m = Map(SquareGrid(8, 5, diagonal=False))
    f = m.cost_field()
    c = f.cell.copy()
    c[66] = value  # the bottom row of the padding ring
    c[46] = 0.0
    with pytest.raises(ArgumentError, match="cell must be inf in the padding ring"):
        f.with_cells(c, changed=np.array([46]))
    with pytest.raises(ArgumentError, match="cell must be inf in the padding ring|must not be NaN|>= 0"):
        CostField.from_padded(f.topology, c)
    c[66] = np.inf
    assert distance_field(m.grid, f.with_cells(c, changed=np.array([46])), (0, 0)).shape == (5, 8)


# -- Map edits ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("cells", [np.array(5), np.array(0, dtype=np.uint64), np.array(None, dtype=object)])
def test_set_terrain_with_a_0d_array_is_a_clear_type_error(cells):
    m = Map(SquareGrid(6, 4))
    before = m.terrain.copy()
    with pytest.raises(ArgumentTypeError, match=r"cells must be a list of \(x, y\) cells, got ndarray"):
        m.set_terrain(cells, "hills")
    with pytest.raises(ArgumentTypeError, match=r"cells must be a list of \(x, y\) cells, got ndarray"):
        m.set_overlay(cells, None)
    assert (m.terrain == before).all()


# -- Simulation.add_obstacle ----------------------------------------------------------------------------------------
def test_add_obstacle_takes_any_iterable_of_cells_and_leaves_no_half_made_unit():
    # a set passed occupancy's checks, the building went on the board, then ``cells[0]`` raised TypeError after the
    # unit row was made: a unit 1 stood off the board at (6, 4) and ``get(1)`` raised IndexError
    sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
    tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1))
    wall = sim.add_obstacle({(3, 3)}, hp=None)
    assert sim.get(wall).cell == (3, 3) and sim.get(wall).kind == "building"
    assert sim.cells().tolist() == [[0, 1], [3, 3]]
    with pytest.raises(ArgumentTypeError, match=r"cells must be a list of \(x, y\) cells, got ndarray"):
        sim.add_obstacle(np.array(5), hp=None)
    with pytest.raises(ArgumentTypeError):
        sim.add_obstacle([(1, 1), "ab"], hp=None)
    assert sim.cells().tolist() == [[0, 1], [3, 3]]  # nothing made by the refused calls
    assert sim.occupancy.occupants((1, 1)) == []
    sim.run(300)
    assert sim.get(tank).cell == (5, 1)
    sim.check()


# -- integers past a float's range ----------------------------------------------------------------------------------
HUGE = 10**400  # float(HUGE) raises OverflowError


@pytest.mark.parametrize("call, name", [
    (lambda m, sim, t: sim.hit(t, HUGE), "amount"),
    (lambda m, sim, t: sim.add_unit((1, 1), hp=HUGE), "hp"),
    (lambda m, sim, t: Simulation(m, weight=HUGE), "weight"),
    (lambda m, sim, t: plan_crowd(m, [(0, 0)], [(1, 1)], time_limit=HUGE), "time_limit"),
    (lambda m, sim, t: plan_crowd(m, [(0, 0)], [(1, 1)], improve=-HUGE), "improve"),
    (lambda m, sim, t: m.path((0, 0), (1, 1), weight=HUGE), "weight"),
    (lambda m, sim, t: m.set_edge((0, 0), (1, 0), HUGE), "cost"),
    (lambda m, sim, t: m.set_elevation(None, climb_cost=HUGE), "climb_cost"),
    (lambda m, sim, t: m.movement_range((0, 0), HUGE), "max_cost"),
    (lambda m, sim, t: m.distance_field((0, 0), max_cost=HUGE), "max_cost"),
    (lambda m, sim, t: Terrain("bog", "b", "#335533", costs={"foot": HUGE}), "terrain 'bog': cost for 'foot'"),
])
def test_an_integer_past_a_floats_range_is_a_clear_error(call, name):
    m = Map(SquareGrid(6, 4))
    sim = Simulation(m, seed=1)
    t = sim.add_unit((0, 1), unit="tracked")
    with pytest.raises(ArgumentError, match=re.escape(f"{name} must be a finite number, got an integer of 1329 bits")):
        call(m, sim, t)
    assert sim.cells().tolist() == [[0, 1]] and sim.get(t).hp == 100.0


def test_the_largest_integers_a_float_holds_still_pass():
    m = Map(SquareGrid(6, 4))
    assert m.distance_field((0, 0), max_cost=2**1023).max() < np.inf  # every cell reached
    assert m.distance_field((0, 0), max_cost=np.uint64(2**64 - 1)).max() < np.inf
    assert Terrain("bog", "b", "#335533", costs={"foot": 2**1023}).cost("foot") == 2.0**1023


@pytest.mark.parametrize("where, words", [
    ("elevation", "layer 'elevation' must be rows of numbers a float holds"),
    ("edges", "edges[0] cost must be a number >= 0 or null (a wall)"),
    ("climb_cost", "climb_cost must be a finite number"),
    ("terrain", "terrain 'plains': cost for 'foot' must be a finite number"),
])
def test_a_native_map_file_with_an_integer_past_a_floats_range(tmp_path, where, words):
    m = Map(SquareGrid(3, 2))
    m.set_elevation(np.zeros((2, 3)))
    m.set_edge((0, 0), (1, 0), 2.0)
    save_map(m, tmp_path / "a.json")
    d = json.loads((tmp_path / "a.json").read_text())
    if where == "elevation":
        d["layers"]["elevation"][1][2] = HUGE
    elif where == "edges":
        d["layers"]["edges"][0][3] = HUGE
    elif where == "climb_cost":
        d["climb_cost"] = HUGE
    else:
        next(t for t in d["terrains"]["terrains"] if t["name"] == "plains")["costs"]["foot"] = HUGE
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(d))
    with pytest.raises(MapFileError, match=re.escape(str(bad))) as err:
        load_map(bad)
    assert words in str(err.value)


@pytest.mark.parametrize("value", [-np.inf, -1.0, np.nan])
def test_with_cells_reads_every_entry_of_a_callers_array(value):
    # only the ``changed`` entries were read: a -inf beyond them made distance_field's buckets index before their
    # array (a segfault: case 27742 of seed 277469783, this 1 x 5 board)
    m = Map(SquareGrid(1, 5, diagonal=False))
    f = m.cost_field()
    c = f.cell.copy()
    c[[7, 10]] = 1.0
    c[13] = value  # cell (0, 3), not among changed
    with pytest.raises(ArgumentError, match=r"cell\[13\] must .* \(an entry beyond changed\)"):
        f.with_cells(c[:], changed=np.array([10, 7]))
    c[13] = 2.0
    g = f.with_cells(c, changed=np.array([10, 7]))
    assert distance_field(m.grid, g, (0, 0))[:, 0].tolist() == [0.0, 1.0, 2.0, 4.0, 6.0]


def test_a_maps_edits_still_patch_its_fields():
    m = Map(SquareGrid(4, 3))
    before = m.cost_field(unit="foot")
    m.set_terrain([(1, 1)], "water")
    after = m.cost_field(unit="foot")
    assert after is not before and after.cells()[1, 1] == np.inf
    assert after.cells().tolist() == Map.copy(m).cost_field(unit="foot").cells().tolist()


# -- CostField.with_blocked ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("ids, blocked", [([np.uint64(7), np.int8(6)], [[True, True, False]]), ((7,), [[False, True, False]]),
                                          ([], [[False, False, False]]), (np.array([8], np.uint16), [[False, False, True]])])
def test_with_blocked_reads_integers_of_mixed_types(ids, blocked):
    # numpy makes a list of np.uint64 and np.int8 float64: it was refused as "float64"
    f = CostField.from_arrays(SquareGrid(3, 1), [[1, 2, 3]])
    g = f.with_blocked(ids)
    assert (np.isinf(g.cells()) == np.array(blocked)).all() and g.min_cost == 1.0


@pytest.mark.parametrize("ids, error, words", [
    ([1.5, 6], ArgumentTypeError, "got float64"), (["a"], ArgumentTypeError, "integers"),
    ([2**70, 6], ArgumentError, "ids[0] = 1180591620717411303424 is no padded id"),
    ([np.int8(6), np.uint64(2**64 - 1)], ArgumentError, "ids[1] = 18446744073709551615 is no padded id of the board (0..14)"),
    ([[6]], ArgumentTypeError, "1-D")])
def test_with_blocked_names_a_bad_id(ids, error, words):
    f = CostField.from_arrays(SquareGrid(3, 1), [[1, 2, 3]])
    with pytest.raises(error, match=re.escape(words)):
        f.with_blocked(ids)


# -- CostField(...) called directly ---------------------------------------------------------------------------------
def test_a_field_built_by_calling_the_class_is_checked():
    # CostField(topology, ones, ...) took a finite padding ring unchecked: a 300 x 300 distance_field then wrote
    # past its arrays (the process aborted at exit with the heap corrupted)
    t = SquareGrid(300, 300).topology
    with pytest.raises(ArgumentError, match="cell must be inf in the padding ring"):
        CostField(t, np.ones(t.padded_size), np.zeros(0), 1.0, True, None)
    g = SquareGrid(3, 2)
    t = g.topology
    ok = t.pad(np.array([[1.0, 2.0, 1.0], [1.0, np.inf, 3.0]]), np.inf)
    with pytest.raises(ArgumentError, match=r"cell must be >= 0"):
        CostField(t, np.where(ok == 2.0, -1.0, ok), np.zeros(0), 1.0, False)
    with pytest.raises(ArgumentError, match=r"min_cost must be at most the least finite cost 1.0, got 2.0"):
        CostField(t, ok.copy(), np.zeros(0), 2.0, False)
    with pytest.raises(ArgumentError, match=r"uniform must be False: the passable cells cost 1.0 to 3.0"):
        CostField(t, ok.copy(), np.zeros(0), 1.0, True)
    with pytest.raises(ArgumentError, match=r"edge must be a flat padded array"):
        CostField(t, ok.copy(), np.zeros(3), 1.0, False)
    with pytest.raises(ArgumentTypeError, match=r"topology must be a wargrid Topology"):
        CostField(g, ok.copy(), np.zeros(0), 1.0, False)
    base = ok.copy()
    f = CostField(t, base[:], np.zeros(0), 0.5, False, "foot")  # a lower min_cost keeps the heuristic admissible
    assert not np.shares_memory(f.cell, base) and not f.cell.flags.writeable and f.min_cost == 0.5
    assert distance_field(g, f, (0, 0)).tolist() == [[0.0, 2.0, 3.0], [1.0, np.inf, 6.0]]


@pytest.mark.xdist_group("movement")  # compiles the prepared queries: with the movement tests
def test_prepared_queries_check_their_ids_and_field():
    from wargrid.errors import ArgumentError, ArgumentTypeError

    m = Map(SquareGrid(5, 4))
    pp, f = m.prepare(unit="foot"), m.cost_field(unit="foot")
    for s in (-5, 0, 2**70, np.array([]), 1j, float("nan")):  # start = goal read no kernel: off-board cells came back
        with pytest.raises(ArgumentError, match=r"^s = .* is no padded id"):
            pp.path(f, s, s)
    assert pp.path(f, 8, 8).cells == [(0, 0)]
    with pytest.raises(ArgumentError, match=r"a 4 x 5 board, not of this 5 x 4 one"):  # same padded size, other cells
        pp.distance(Map(SquareGrid(4, 5)).cost_field(unit="foot"), 8, 9)
    with pytest.raises(ArgumentError, match=r"another board of the same size"):
        pp.distance(Map(SquareGrid(5, 4, wrap_x=True)).cost_field(unit="foot"), 8, 9)
    with pytest.raises(ArgumentTypeError, match=r"costs must be a CostField .* got NoneType"):
        pp.distance(None, 8, 9)
    assert pp.distance(Map(SquareGrid(5, 4)).cost_field(unit="foot"), 8, 9) == 2.0  # an equal board's field answers
    assert pp.table(f, [8, 9], [9]).tolist() == [[2.0], [0.0]]  # lists, as arrays
    assert pp.table(f, [], [9]).shape == (0, 1) and pp.table(f, [8], []).shape == (1, 0)
    other = CostField.from_arrays(SquareGrid(4, 5), np.ones((5, 4)))
    with pytest.raises(ArgumentError, match=r"a 4 x 5 board"):  # start = goal: no query, the field checked all the same
        pp.path(other, 8, 8)
    with pytest.raises(ArgumentTypeError, match=r"got NoneType"):
        pp.path(None, 8, 8)


def test_crowd_agents_refuse_a_0d_array():
    from wargrid.errors import ArgumentTypeError
    from wargrid.rts import check_plan, plan_crowd

    m = Map(SquareGrid(4, 4))
    with pytest.raises(ArgumentTypeError, match=r"starts must be a sequence of \(x, y\) cells, got ndarray"):
        plan_crowd(m, np.array(5), [(0, 0)])
    with pytest.raises(ArgumentTypeError, match=r"goals must be a sequence"):
        check_plan(m, [(0, 0)], np.array(5), [[[0, 0]]])
    for bad in ((1,), None):  # a ragged list: the agent named, not numpy's error
        with pytest.raises(ArgumentTypeError, match=r"starts\[1\] must be an \(x, y\) pair"):
            plan_crowd(m, [(0, 0), bad], [(2, 0), (3, 0)])


def test_a_uniform_field_names_the_min_cost_it_needs():
    g = SquareGrid(3, 2)
    f = CostField.from_arrays(g, np.full((2, 3), 2.0))
    with pytest.raises(ArgumentError, match=r"min_cost must be the passable cells' one cost 2.0 when uniform is True, got 1.0"):
        CostField(g.topology, f.cell.copy(), np.zeros(0), 1.0, True)
    assert CostField(g.topology, f.cell.copy(), np.zeros(0), 2.0, True).uniform
