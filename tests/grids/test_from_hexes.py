"""HexGrid.from_hexes: a board from a set of cube or axial coordinates (a map kept as a dict)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import HexGrid, hexagon_board
from wargrid.grids import HexBoard
from wargrid.grids.hexes import Hex, hex_to_offset
from wargrid.errors import ArgumentError

KINDS = [("flat", "odd-q"), ("flat", "even-q"), ("pointy", "odd-r"), ("pointy", "even-r")]


def check_board(b: HexBoard, given: list) -> None:
    """Every given hex is a distinct board cell, the mask is exactly them, hex arithmetic survives."""
    g = b.grid
    cells = [b.cells[h] for h in given]
    assert set(cells) == {c for c in g.cells()}  # the mask holds exactly the given hexes
    hexes = [Hex(h[0], h[1]) for h in given]
    for h, c in zip(hexes, cells):
        assert b.hex_of(c) == h
        assert g.from_hex(h - b.origin) == c
    # adjacency is kept: two given hexes are neighbours iff their cells are
    index = dict(zip(hexes, cells))
    for h, c in zip(hexes, cells):
        want = {index[n] for n in h.neighbors() if n in index}
        assert set(g.neighbors(c)) == want
    # just big enough: the first and last row and column of the rectangle hold a given hex
    assert g.mask[0].any() and g.mask[-1].any() and g.mask[:, 0].any() and g.mask[:, -1].any()


@pytest.mark.parametrize(("orientation", "offset"), KINDS)
def test_hexagon_shaped_map(orientation, offset):
    hexes = [tuple(h) for h in Hex(3, -7).range(3)]
    b = HexGrid.from_hexes(hexes, orientation=orientation, offset=offset)
    assert (b.grid.orientation, b.grid.offset) == (orientation, offset)
    assert len(b.grid) == 37 and b.grid.shape == (7, 7)
    check_board(b, hexes)
    assert b.hex_of(b.grid.check_cell(b.cells[(3, -7, 4)])) == Hex(3, -7)
    # the same shape as the library's hexagon board
    assert (b.grid.mask == hexagon_board(3, orientation=orientation, offset=offset).mask).all()


@pytest.mark.parametrize(("orientation", "offset"), KINDS)
def test_ring(orientation, offset):
    hexes = [(h.q, h.r) for h in Hex(-2, 5).ring(2)]  # axial
    b = HexGrid.from_hexes(hexes, orientation=orientation, offset=offset)
    assert len(b.grid) == 12 and b.grid.shape == (5, 5)
    check_board(b, hexes)
    x, y = hex_to_offset(Hex(-2, 5) - b.origin, b.grid.offset)
    assert (x, y) == (2, 2) and not b.grid.mask[y, x]  # the hole in the middle


def test_literal_and_hex_objects():
    b = HexGrid.from_hexes([Hex(0, 0), Hex(1, 0), Hex(1, 0)])  # duplicates are one cell
    assert b.grid.shape == (1, 2) and len(b.grid) == 2
    assert b.cells == {Hex(0, 0): (0, 0), Hex(1, 0): (1, 0)} and b.origin == Hex(0, 0)
    c = HexGrid.from_hexes([Hex(0, 0), Hex(1, -1)])  # odd-q: (1, -1) is one row up, in the next column
    assert c.grid.shape == (2, 2) and c.grid.mask.tolist() == [[False, True], [True, False]]
    assert c.cells == {Hex(0, 0): (0, 1), Hex(1, -1): (1, 0)}
    one = HexGrid.from_hexes(iter([(4, -1, -3)]))
    assert one.grid.shape == (1, 1) and one.cells == {(4, -1, -3): (0, 0)} and one.origin == Hex(4, -1)


@settings(max_examples=60)
@given(st.lists(st.tuples(st.integers(-30, 30), st.integers(-30, 30)), min_size=1, max_size=40),
       st.sampled_from(KINDS), st.booleans())
def test_round_trip(qr, kind, cube):
    hexes = [(q, r, -q - r) for q, r in qr] if cube else qr
    b = HexGrid.from_hexes(hexes, orientation=kind[0], offset=kind[1])
    check_board(b, hexes)
    # and back: a board made from the board's own hexes is the same board
    again = HexGrid.from_hexes([tuple(b.grid.to_hex(c)) for c in b.grid.cells()], orientation=kind[0], offset=kind[1])
    assert again.grid == b.grid


def test_bad_input():
    with pytest.raises(ValueError, match="at least one"):
        HexGrid.from_hexes([])
    with pytest.raises(ValueError, match="all be cube"):
        HexGrid.from_hexes([(0, 0, 0), (1, -1)])
    with pytest.raises(ValueError, match="q \\+ r \\+ s must be 0"):
        HexGrid.from_hexes([(0, 0, 0), (1, 1, 1)])
    with pytest.raises(ValueError, match="3 cube"):
        HexGrid.from_hexes([(0,)])
    with pytest.raises(TypeError, match="integer"):
        HexGrid.from_hexes([(0.5, 0)])
    with pytest.raises(TypeError, match="iterable"):
        HexGrid.from_hexes(5)
    with pytest.raises(TypeError, match="hexes\\[1\\]"):
        HexGrid.from_hexes([(0, 0), "ab"])
    with pytest.raises(ValueError, match="orientation"):
        HexGrid.from_hexes([(0, 0)], orientation="round")
    with pytest.raises(ValueError, match="len\\(hexes\\)"):
        HexGrid.from_hexes([(0, 0), (1 << 20, 0), (0, 1 << 20)])
    assert np.int64(3) is not None and HexGrid.from_hexes([(np.int64(3), np.int32(-3))]).origin == Hex(3, -3)


def test_hexes_far_from_the_origin_make_a_board_and_a_span_past_any_board_is_named():
    # 10**20 raised "Python int too large to convert to C long"
    far = HexGrid.from_hexes([(10**20, 5), (10**20 + 1, 5), (10**20, 6)])
    assert far.grid.shape == (2, 2) and far.cells[(10**20 + 1, 5)] == (1, 0) and far.origin == Hex(10**20, 5)
    with pytest.raises(ArgumentError, match="hexes span 100000000000000000001 hexes along q or r"):
        HexGrid.from_hexes([(0, 0), (10**20, 0)])
