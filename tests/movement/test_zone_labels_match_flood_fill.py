"""Zone labelling run by run (no edge costs) and cell by cell: both against a plain flood fill on every board kind."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_zones import KINDS, _corner_ok, make_grid

from wargrid import HexGrid, SquareGrid, hexagon_board
from wargrid.movement.zones import ZoneState, _check_costs, _directions, _label, _runs_above, label_zones


def flood_fill(grid, passable: np.ndarray) -> np.ndarray:
    """Slow, obviously-right labels: a flood fill over ``grid.steps`` from each unlabelled cell in row-major order."""
    ok = passable & grid.mask
    out = np.full(grid.shape, -1, dtype=np.int64)
    nxt = 0
    for y in range(grid.height):
        for x in range(grid.width):
            if not ok[y, x] or out[y, x] >= 0:
                continue
            out[y, x] = nxt
            todo = [(x, y)]
            while todo:
                a = todo.pop()
                for s in grid.steps(a):
                    bx, by = s.cell
                    if ok[by, bx] and out[by, bx] < 0 and _corner_ok(grid, ok, a, s.direction):
                        out[by, bx] = nxt
                        todo.append((bx, by))
            nxt += 1
    return out


@st.composite
def boards(draw, max_w=9, max_h=7):
    kind = draw(st.sampled_from(KINDS))
    wrap = draw(st.booleans())
    w = draw(st.integers(3 if wrap else 1, max_w))
    h = draw(st.integers(1, max_h))
    g = make_grid(kind, w, h, wrap)
    if draw(st.booleans()):  # a masked board: some cells are not part of it
        mask = np.array(draw(st.lists(st.booleans(), min_size=g.size, max_size=g.size))).reshape(g.shape)
        mask.flat[draw(st.integers(0, g.size - 1))] = True
        g = _with_mask(g, mask)
    density = draw(st.sampled_from([0.3, 0.55, 0.8, 1.0]))
    bits = draw(st.lists(st.floats(0, 1), min_size=g.size, max_size=g.size))
    passable = (np.array(bits) < density).reshape(g.shape)
    return g, passable


def _with_mask(g, mask: np.ndarray):
    """The board ``g`` again, with ``mask``."""
    if isinstance(g, SquareGrid):
        return SquareGrid(g.width, g.height, diagonal=g.diagonal, corner_rule=g.corner_rule, wrap_x=g.wrap_x, mask=mask)
    return type(g)(g.width, g.height, **_hex_options(g), wrap_x=g.wrap_x, mask=mask)


def _hex_options(g) -> dict:
    if isinstance(g, HexGrid):
        return {"orientation": g.orientation, "offset": g.offset}
    return {"stagger": g.stagger}


def test_every_kind_takes_the_run_path_without_walls():
    for kind in KINDS:
        for wrap in (False, True):
            t = make_grid(kind, 6, 4, wrap).topology
            assert _runs_above(t, _directions(t, False)) is not None, (kind, wrap)
            assert _runs_above(t, _directions(t, True)) is None or t.corner_rule == 0


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(boards())
def test_runs_and_cells_match_flood_fill(board):
    g, passable = board
    want = flood_fill(g, passable)
    # booleans (a plain layer), costs (padded): run by run
    assert label_zones(g, passable).tolist() == want.tolist()
    costs = np.where(passable, 2.0, np.inf)
    assert label_zones(g, costs).tolist() == want.tolist()
    t = g.topology
    for runs in (True, False):
        for layer in (passable, costs):
            cell, edge = _check_costs(g, layer, None)
            # padded labels with sizes, as ZoneState keeps them
            out, sizes = _label(t, cell, edge, runs=runs)
            assert out.reshape(t.ph, t.pw)[1:-1, 1:-1].tolist() == want.tolist()
            padding = np.ones((t.ph, t.pw), dtype=bool)
            padding[1:-1, 1:-1] = False
            assert (out.reshape(t.ph, t.pw)[padding] == -1).all()
            assert sizes.tolist() == np.bincount(want[want >= 0], minlength=want.max() + 1).tolist()
            dest = np.full(g.size, 99, dtype=np.int32)
            _label(t, cell, edge, dest, runs=runs)
            assert dest.reshape(g.shape).tolist() == want.tolist()


@settings(max_examples=40, deadline=None)
@given(boards(max_w=60, max_h=40))
def test_runs_agree_with_cells_on_larger_boards(board):
    g, passable = board
    t = g.topology
    # entry costs, as a map's cost field gives them (a boolean layer is a signature of its own of both kernels:
    # 9 CPU s of a cold run; the literal boards below take booleans run by run, the slow flood-fill test both ways)
    cell, edge = _check_costs(g, np.where(passable, 2.0, np.inf), None)
    a, sa = _label(t, cell, edge, runs=True)
    b, sb = _label(t, cell, edge, runs=False)
    assert np.array_equal(a, b) and np.array_equal(sa, sb)


def test_literal_hex_columns_touch_by_parity():
    # odd-q: an even column reaches x - 1 .. x + 1 in the row above, an odd column only x
    g = HexGrid(4, 2, orientation="flat", offset="odd-q")
    passable = np.array([[True, False, False, False], [False, True, False, False]])
    assert label_zones(g, passable).tolist() == [[0, -1, -1, -1], [-1, 1, -1, -1]]
    passable = np.array([[False, True, False, False], [True, False, False, False]])
    assert label_zones(g, passable).tolist() == [[-1, 0, -1, -1], [0, -1, -1, -1]]
    # odd-r: even rows reach x - 1 and x above, odd rows x and x + 1
    g = HexGrid(3, 3, orientation="pointy", offset="odd-r")
    passable = np.array([[True, False, False], [False, True, False], [True, False, False]])
    assert label_zones(g, passable).tolist() == [[0, -1, -1], [-1, 1, -1], [2, -1, -1]]
    passable = np.array([[False, True, False], [True, False, False], [True, False, False]])
    assert label_zones(g, passable).tolist() == [[-1, 0, -1], [0, -1, -1], [0, -1, -1]]


def test_literal_wrap_seam_joins_runs_and_rows():
    g = SquareGrid(5, 2, wrap_x=True)
    passable = np.array([[True, False, True, False, True], [False, True, False, False, False]])
    assert label_zones(g, passable).tolist() == [[0, -1, 1, -1, 0], [-1, 2, -1, -1, -1]]
    g8 = SquareGrid(5, 2, diagonal=True, corner_rule="always", wrap_x=True)
    passable = np.array([[False, False, False, False, True], [True, False, False, False, False]])
    assert label_zones(g8, passable).tolist() == [[-1, -1, -1, -1, 0], [0, -1, -1, -1, -1]]
    assert label_zones(SquareGrid(5, 2, diagonal=True, corner_rule="always"), passable).tolist() == [
        [-1, -1, -1, -1, 0], [1, -1, -1, -1, -1]
    ]


@pytest.mark.parametrize("n", [1, 2, 3, 64])
def test_full_rows_and_many_runs(n):
    g = SquareGrid(n, 3)
    assert label_zones(g, np.ones((3, n), dtype=bool)).tolist() == [[0] * n] * 3
    stripes = np.zeros((3, n), dtype=bool)
    stripes[:, ::2] = True
    assert label_zones(g, stripes).max() + 1 == (n + 1) // 2


@pytest.mark.slow
def test_zone_state_on_a_masked_hexagon():
    g = hexagon_board(4)
    t = g.topology
    z = ZoneState(t, t.pad(np.ones(g.shape), np.inf), np.zeros(0))
    assert z.count == 1 and z.size(0) == len(g)
    assert (z.labels()[~g.mask] == -1).all()


def _spiral(n: int) -> np.ndarray:
    """Passages winding inwards: rows hold runs of one zone that meet only rows later."""
    a = np.zeros((n, n), dtype=bool)
    x0, y0, x1, y1 = 0, 0, n - 1, n - 1
    while x0 <= x1 and y0 <= y1:
        a[y0, x0 : x1 + 1] = True
        a[y0 : y1 + 1, x1] = True
        a[y1, x0 : x1 + 1] = True
        a[y0 + 2 : y1 + 1, x0] = True
        if y0 + 2 <= y1:
            a[y0 + 2, x0 : x0 + 2] = True
        x0, y0, x1, y1 = x0 + 2, y0 + 2, x1 - 2, y1 - 2
    return a


def _comb(w: int, h: int) -> np.ndarray:
    """Teeth joined only along the bottom row, and a second comb hanging from the top row between them."""
    a = np.zeros((h, w), dtype=bool)
    a[:, ::4] = True
    a[-1, :] = True
    a[:-2, 2::4] = True
    a[0, 2:] = True
    a[0, 1] = False
    return a


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("wrap", [False, True])
def test_structured_boards_match_flood_fill(kind, wrap):
    rng = np.random.default_rng(len(kind) + wrap)
    for passable in (_spiral(24), _comb(26, 17), rng.random((20, 22)) < 0.6):
        h, w = passable.shape
        g = make_grid(kind, w, h, wrap)
        assert g.shape == passable.shape
        want = flood_fill(g, passable)
        assert label_zones(g, passable).tolist() == want.tolist()
        t = g.topology
        cell, edge = _check_costs(g, np.where(passable, 1.0, np.inf), None)
        out, sizes = _label(t, cell, edge)
        assert t.unpad(out).tolist() == want.tolist()
        assert sizes.tolist() == np.bincount(want[want >= 0]).tolist()
