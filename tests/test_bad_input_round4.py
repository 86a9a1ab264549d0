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
