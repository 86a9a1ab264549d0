"""CostField built by hand from padded arrays: checked, so no kernel reads past an array."""

from __future__ import annotations

import numpy as np
import pytest

from wargrid import CostField, HexGrid, SquareGrid
from wargrid.errors import ArgumentError, ArgumentTypeError
from wargrid.movement import distance_field

GRID = SquareGrid(5, 4)
T = GRID.topology


def _inner(value: float) -> np.ndarray:
    return T.pad(np.full(GRID.shape, value), np.inf)


@pytest.mark.parametrize("cell, edge, error, match", [
    # a finite padding ring walked the kernels off the array (segmentation fault in distance_field)
    (np.ones(T.padded_size), None, ArgumentError, "cell must be inf in the padding ring"),
    (_inner(np.nan), None, ArgumentError, "cell must not be NaN"),
    (_inner(-1.0), None, ArgumentError, "cell must be >= 0"),  # gave paths of negative cost
    (np.ones(3), None, ArgumentError, "cell must be a flat padded array of 42 entries"),
    (np.array(["a"] * T.padded_size), None, ArgumentTypeError, "cell must be an array of numbers"),
    (_inner(1.0), np.ones(5), ArgumentError, "edge must be a flat padded array of 168 entries"),
    (_inner(1.0), np.full(T.padded_size * T.ndir, -1.0), ArgumentError, "edge must be >= 0 and not NaN"),
])
def test_from_padded_checks_its_arrays(cell, edge, error, match):
    with pytest.raises(error, match=match):
        CostField.from_padded(T, cell, edge)


def test_from_padded_refuses_a_finite_cost_on_a_masked_out_cell():
    """A cell the board's mask leaves out must be ``inf`` like the padding ring (a finite cost there lets paths through
    a cell that is not on the board): laid out by ``topology.pad`` it is; a field patched there is refused too."""
    mask = np.ones((3, 4), dtype=bool)
    mask[1, 2] = False
    t = SquareGrid(4, 3).with_mask(mask).topology
    assert CostField.from_padded(t, t.pad(np.ones((3, 4)), np.inf)).min_cost == 1.0
    with pytest.raises(ArgumentError, match=r"mask leaves out, got a finite cost at \(2, 1\)"):
        CostField.from_padded(t, SquareGrid(4, 3).topology.pad(np.ones((3, 4)), np.inf))
    f = CostField.from_padded(t, t.pad(np.ones((3, 4)), np.inf))
    cell = f.cell.copy()
    cell[t.padded_id(2, 1)] = 1.0
    with pytest.raises(ArgumentError, match=r"changed\[1\] = 15 is a cell the board's mask leaves out"):
        f.with_cells(cell, changed=np.array([t.padded_id(0, 0), t.padded_id(2, 1)]))
    with pytest.raises(ArgumentError, match="mask leaves out"):
        f.with_cells(cell)
    with pytest.raises(ArgumentError, match=r"cell\[15\] is a cell the board's mask leaves out.*beyond changed"):
        f.with_cells(cell, changed=np.array([t.padded_id(0, 0)]))


def test_from_padded_takes_any_numeric_layout_and_names_a_wrong_topology():
    f = CostField.from_padded(T, _inner(2.0).astype(np.float32))
    assert f.min_cost == 2.0 and f.uniform and distance_field(GRID, f, [(0, 0)])[3, 4] == 14.0
    with pytest.raises(ArgumentTypeError, match="topology must be a wargrid Topology"):
        CostField.from_padded(GRID, _inner(1.0))
    with pytest.raises(ArgumentTypeError, match="unit must be a movement class's name"):
        CostField.from_padded(T, _inner(1.0), unit=3)


@pytest.mark.parametrize("changed, value, error, match", [
    (np.array([10**9]), 1.0, ArgumentError, r"changed\[0\] = 1000000000 is no padded id of the board \(0..41\)"),  # segfault
    (np.array([8, -3]), 1.0, ArgumentError, r"changed\[1\] = -3 is no padded id"),
    (np.array([0]), 1.0, ArgumentError, r"changed\[0\] = 0 is a padded id in the padding ring"),
    (np.array([8]), np.nan, ArgumentError, r"cell\[8\] \(changed\[0\]\) must not be NaN"),
    (np.array([8]), -2.0, ArgumentError, r"cell\[8\] \(changed\[0\]\) must be >= 0"),
    (np.array([8.0]), 1.0, ArgumentTypeError, "changed must be a 1-D array of padded ids"),  # numba's TypingError
    # the given id, not the int64 it wraps round to (-1)
    (np.array([2**64 - 1], np.uint64), 1.0, ArgumentError, r"changed\[0\] = 18446744073709551615 is no padded id"),
])
def test_with_cells_checks_the_changed_ids(changed, value, error, match):
    f = CostField.from_arrays(GRID, np.ones(GRID.shape))
    c = f.cell.copy()
    c[8] = value
    with pytest.raises(error, match=match):
        f.with_cells(c, changed=changed)


def test_with_cells_of_a_good_edit_is_unchanged():
    g = HexGrid(4, 3)
    f = CostField.from_arrays(g, np.ones(g.shape))
    c = f.cell.copy()
    p = g.topology.padded_id(2, 1)
    c[p] = 3.0
    assert f.with_cells(c, changed=np.array([p])).min_cost == 1.0 and not f.with_cells(c, changed=[p]).uniform
    with pytest.raises(ArgumentError, match="cell must be a flat padded array"):
        f.with_cells(c[:-1], changed=np.array([p]))


def test_with_cells_checks_the_padding_ring_and_takes_no_change():
    f = CostField.from_arrays(GRID, np.ones(GRID.shape))
    # a finite padding ring with good changed ids passed, and distance_field crashed (segmentation fault)
    with pytest.raises(ArgumentError, match="cell must be inf in the padding ring"):
        f.with_cells(np.ones(T.padded_size), changed=np.array([8]))
    for none in ([], np.array([]), np.array([], np.uint64)):  # no change (an empty list was refused as not integers)
        assert f.with_cells(f.cell.copy(), changed=none).uniform
    assert f.with_cells(f.cell.copy(), changed=np.array([8], np.uint64)).min_cost == 1.0


def test_with_cells_of_its_own_array_patched_in_place_reads_no_ring_and_equals_a_copy():
    # a map patches a field's array in place when no one else holds it: the ring was checked when the array became
    # the field's and only the changed cells were written, so it is not read again; the answer is a copy's
    f = CostField.from_arrays(GRID, np.ones(GRID.shape))
    p = T.padded_id(1, 1)
    copy = f.cell.copy()
    copy[p] = 3.0
    want = f.with_cells(copy, changed=np.array([p]))
    own = f.cell
    own.setflags(write=True)
    own[p] = 3.0
    got = f.with_cells(own, changed=np.array([p]))
    assert got.cell is own and (got.min_cost, got.uniform) == (want.min_cost, want.uniform) == (1.0, False)
    with pytest.raises(ArgumentError, match=r"changed\[0\] = 0 is a padded id in the padding ring"):  # the changed ids are still checked
        f.with_cells(own, changed=np.array([0]))


def test_an_unpickled_field_is_read_only_and_keeps_its_ring_checked():
    # pickle gave back writable arrays: a write through them put a finite cost in the padding ring past with_cells's
    # check of the field's own array (the kernels walk off the array there), and made kernels compile anew
    import pickle

    g = SquareGrid(7, 5)
    f = pickle.loads(pickle.dumps(CostField.from_arrays(g, np.ones((5, 7)), np.zeros((5, 7, 4)))))
    assert not f.cell.flags.writeable and not f.edge.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        f.cell[0] = 1.0
    c = f.cell.copy()
    c[0] = 1.0
    with pytest.raises(ArgumentError, match="padding"):
        f.with_cells(c, changed=np.array([g.topology.padded_id(2, 2)]))


def test_a_field_made_from_a_view_does_not_share_the_callers_array():
    # from_padded made the view read-only but not the array it views: a write there reached the kernels unchecked
    # (a finite padding ring: the search walked off the array)
    t = SquareGrid(6, 4).topology
    base = t.pad(np.ones((4, 6)), np.inf).astype(np.float64)
    edges = np.zeros(t.padded_size * t.ndir)
    f = CostField.from_padded(t, base[:], edges[:])
    assert not np.shares_memory(f.cell, base) and not np.shares_memory(f.edge, edges)
    base[:] = 1.0
    assert f.cell[0] == np.inf
    own = t.pad(np.ones((4, 6)), np.inf).astype(np.float64)
    assert CostField.from_padded(t, own).cell is own  # an array of its own is taken as it is
