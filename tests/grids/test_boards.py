"""The one grid model: square-4, square-8, hex, staggered and shaped boards.

Every board kind is checked with and without ``wrap_x`` against slow,
obviously-right oracles written here: Dijkstra over ``grid.steps`` for
``grid.distance``, and a walk over ``topology.offsets`` in padded space for
the tables the kernels use.
"""

from __future__ import annotations

import heapq
import math
from typing import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid.grids import (
    CORNER_RULES,
    HEX_DIRECTIONS,
    SQUARE4_DIRECTIONS,
    SQUARE8_DIRECTIONS,
    Grid,
    Hex,
    HexGrid,
    SquareGrid,
    StaggeredGrid,
    hexagon_board,
    hex_to_offset,
    offset_to_hex,
    parallelogram_board,
    triangle_board,
)

SQRT2 = math.sqrt(2.0)

# -- the board kinds -------------------------------------------------------------

# name -> (factory(width, height, wrap_x, mask), columns shoved?)
RECT_KINDS: dict[str, tuple[Callable[..., Grid], bool]] = {
    "square-4": (lambda w, h, wrap, m: SquareGrid(w, h, wrap_x=wrap, mask=m), False),
    **{
        f"square-8-{rule}": (
            (lambda rule: lambda w, h, wrap, m: SquareGrid(w, h, diagonal=True, corner_rule=rule, wrap_x=wrap, mask=m))(rule),
            False,
        )
        for rule in CORNER_RULES
    },
    "hex-flat-odd-q": (lambda w, h, wrap, m: HexGrid(w, h, orientation="flat", offset="odd-q", wrap_x=wrap, mask=m), True),
    "hex-flat-even-q": (lambda w, h, wrap, m: HexGrid(w, h, orientation="flat", offset="even-q", wrap_x=wrap, mask=m), True),
    "hex-pointy-odd-r": (lambda w, h, wrap, m: HexGrid(w, h, orientation="pointy", offset="odd-r", wrap_x=wrap, mask=m), False),
    "hex-pointy-even-r": (lambda w, h, wrap, m: HexGrid(w, h, orientation="pointy", offset="even-r", wrap_x=wrap, mask=m), False),
    "staggered-columns": (lambda w, h, wrap, m: StaggeredGrid(w, h, stagger="columns", wrap_x=wrap, mask=m), True),
    "staggered-rows": (lambda w, h, wrap, m: StaggeredGrid(w, h, stagger="rows", wrap_x=wrap, mask=m), False),
}

ORIENTED_OFFSETS = [("flat", "odd-q"), ("flat", "even-q"), ("pointy", "odd-r"), ("pointy", "even-r")]
SHAPES = {
    "hexagon": (lambda n, o, k: hexagon_board(n - 1, orientation=o, offset=k)),
    "triangle": (lambda n, o, k: triangle_board(n, orientation=o, offset=k)),
    "parallelogram": (lambda n, o, k: parallelogram_board(n, n % 3 + 1, orientation=o, offset=k)),
}
SHAPED_KINDS = [f"{shape}-{o}-{k}" for shape in SHAPES for o, k in ORIENTED_OFFSETS]
ALL_KINDS = list(RECT_KINDS) + SHAPED_KINDS
WRAPS = [False, True]


def _shaped(kind: str, n: int, wrap: bool) -> Grid:
    shape, orientation, offset = kind.split("-", 2)
    g = SHAPES[shape](n, orientation, offset)
    if not wrap:
        return g
    # the same shape on a wrapped board: widen the mask with masked-out columns
    # until the width is allowed (>= 3, and even when columns are shoved)
    mask = g.mask
    w = max(3, g.width)
    if offset.endswith("q") and w % 2:
        w += 1
    mask = np.pad(mask, ((0, 0), (0, w - g.width)))
    return HexGrid(w, g.height, orientation=orientation, offset=offset, wrap_x=True, mask=mask)


@st.composite
def boards(draw, kind: str, wrap: bool, *, masked: bool | None = None) -> Grid:
    """A small board of ``kind``; ``masked`` None draws with or without a random mask."""
    if kind in SHAPED_KINDS:
        return _shaped(kind, draw(st.integers(1, 4)), wrap)
    factory, cols_shoved = RECT_KINDS[kind]
    w = draw(st.integers(3 if wrap else 1, 6))
    if wrap and cols_shoved and w % 2:
        w += 1
    h = draw(st.integers(1, 5))
    if masked is None:
        masked = draw(st.booleans())
    mask = None
    if masked:
        # one bit a cell, never all clear
        bits = draw(st.integers(1, (1 << (w * h)) - 1))
        mask = np.array([(bits >> i) & 1 for i in range(w * h)], dtype=bool).reshape(h, w)
    return factory(w, h, wrap, mask)


def is_hexlike(g: Grid) -> bool:
    return isinstance(g, (HexGrid, StaggeredGrid))


kind_and_wrap = pytest.mark.parametrize("wrap", WRAPS, ids=["open", "wrap"])
every_kind = pytest.mark.parametrize("kind", ALL_KINDS)
BOARD_SETTINGS = settings(max_examples=6, deadline=None)


# -- oracles ---------------------------------------------------------------------

def dijkstra_oracle(g: Grid) -> dict[tuple[int, int], dict[tuple[int, int], float]]:
    """Slow and obviously right: all shortest path lengths over ``grid.steps``."""
    steps = {c: g.steps(c) for c in g.cells()}
    return {source: _dijkstra(steps, source) for source in steps}


def _dijkstra(steps: dict, source: tuple[int, int]) -> dict[tuple[int, int], float]:
    dist = {source: 0.0}
    heap = [(0.0, source)]
    while heap:
        d, c = heapq.heappop(heap)
        if d > dist[c]:
            continue
        for s in steps[c]:
            nd = d + s.length
            if nd < dist.get(s.cell, math.inf) - 1e-12:
                dist[s.cell] = nd
                heapq.heappush(heap, (nd, s.cell))
    return dist


def topology_steps(g: Grid, cell: tuple[int, int]) -> list[tuple[int, tuple[int, int], float]]:
    """The steps from ``cell`` as a kernel would take them: padded ids and flat offsets only."""
    t = g.topology
    valid = t.pad(t.valid, False)
    x, y = cell
    p = t.padded_id(x, y)
    par = (x & 1) if t.parity_mode == 1 else (y & 1) if t.parity_mode == 2 else 0
    out = []
    for d in range(t.ndir):
        q = p + int(t.offsets[par, d])
        assert 0 <= q < t.padded_size  # the blocked border keeps every step on the padded board
        if t.wrap:
            px = q % t.pw
            if px == 0:
                q += t.width
            elif px == t.width + 1:
                q -= t.width
        if valid[q]:
            i = int(t.cell_ids(np.array([q]))[0])
            out.append((d, (i % t.width, i // t.width), float(t.step[d])))
    return out


# =============================================================================
# literal reference values
# =============================================================================

class TestReference:
    def test_ids_and_shape(self):
        g = HexGrid(5, 4)
        assert g.shape == (4, 5) and g.size == 20 and len(g) == 20
        assert g.id((3, 2)) == 13 and g.cell(13) == (3, 2)
        assert list(SquareGrid(2, 2).cells()) == [(0, 0), (1, 0), (0, 1), (1, 1)]
        assert SquareGrid(3, 3, diagonal=True).id((2, 1)) == 5

    def test_square_neighbours(self):
        assert SquareGrid(3, 3).neighbors((1, 1)) == [(2, 1), (1, 0), (0, 1), (1, 2)]
        assert SquareGrid(3, 3).neighbors((0, 0)) == [(1, 0), (0, 1)]
        assert SquareGrid(3, 3, wrap_x=True).neighbors((0, 0)) == [(1, 0), (2, 0), (0, 1)]
        g8 = SquareGrid(3, 3, diagonal=True)
        assert g8.neighbors((1, 1)) == [(2, 1), (2, 0), (1, 0), (0, 0), (0, 1), (0, 2), (1, 2), (2, 2)]
        assert [(s.cell, s.direction) for s in g8.steps((0, 0))] == [((1, 0), 0), ((0, 1), 6), ((1, 1), 7)]
        assert g8.steps((0, 0))[2].length == pytest.approx(SQRT2)
        assert SquareGrid(4, 3, diagonal=True, wrap_x=True).neighbors((3, 0)) == [
            (0, 0), (2, 0), (2, 1), (3, 1), (0, 1),
        ]

    def test_hex_neighbours(self):
        # odd-q, odd column 1: (+1,+1) (+1,0) (0,-1) (-1,0) (-1,+1) (0,+1)
        assert HexGrid(4, 3, orientation="flat", offset="odd-q").neighbors((1, 1)) == [
            (2, 2), (2, 1), (1, 0), (0, 1), (0, 2), (1, 2),
        ]
        # even-q, even column 2: (+1,+1) (+1,0) (0,-1) (-1,0) (-1,+1) (0,+1)
        assert HexGrid(4, 3, orientation="flat", offset="even-q").neighbors((2, 1)) == [
            (3, 2), (3, 1), (2, 0), (1, 1), (1, 2), (2, 2),
        ]
        # odd-r, even row 2: (+1,0) (0,-1) (-1,-1) (-1,0) (-1,+1) (0,+1)
        assert HexGrid(4, 4, orientation="pointy", offset="odd-r").neighbors((1, 2)) == [
            (2, 2), (1, 1), (0, 1), (0, 2), (0, 3), (1, 3),
        ]
        # even-r, odd row 1: (+1,0) (0,-1) (-1,-1) (-1,0) (-1,+1) (0,+1)
        assert HexGrid(4, 4, orientation="pointy", offset="even-r").neighbors((2, 1)) == [
            (3, 1), (2, 0), (1, 0), (1, 1), (1, 2), (2, 2),
        ]
        assert HexGrid(6, 4, orientation="pointy", offset="even-r").neighbors((0, 0)) == [(1, 0), (0, 1), (1, 1)]
        # wrapped, odd-q, column 0 (even): west neighbours are in column 3
        assert HexGrid(4, 3, wrap_x=True).neighbors((0, 1)) == [(1, 1), (1, 0), (0, 0), (3, 0), (3, 1), (0, 2)]

    def test_staggered_neighbours_and_centres(self):
        g = StaggeredGrid(4, 4)
        assert g.neighbors((1, 1)) == [(2, 2), (2, 1), (1, 0), (0, 1), (0, 2), (1, 2)]
        assert g.center((1, 1)) == (1.5, 2.0) and g.center((2, 1)) == (2.5, 1.5)
        r = StaggeredGrid(4, 4, stagger="rows")
        assert r.neighbors((1, 1)) == HexGrid(4, 4, orientation="pointy", offset="odd-r").neighbors((1, 1))
        assert r.center((1, 1)) == (2.0, 1.5) and r.center((1, 2)) == (1.5, 2.5)
        assert g.polygon((0, 0)) == [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
        assert g.cell_at(1.5, 1.2) == (1, 0) and g.cell_at(1.5, 0.2) is None
        assert g.offset == "odd-q" and r.offset == "odd-r"

    def test_distances(self):
        assert SquareGrid(10, 10).distance((0, 0), (3, 4)) == 7
        assert SquareGrid(10, 10, wrap_x=True).distance((0, 0), (9, 0)) == 1
        assert SquareGrid(10, 8, diagonal=True).distance((0, 0), (3, 1)) == pytest.approx(2 + SQRT2)
        assert SquareGrid(10, 8, diagonal=True, wrap_x=True).distance((1, 0), (8, 2)) == pytest.approx(1 + 2 * SQRT2)
        g = HexGrid(4, 3, orientation="flat", offset="odd-q")
        assert g.distance((0, 0), (3, 2)) == 4  # Hex(0,0) -> Hex(3,1)
        assert HexGrid(8, 8, wrap_x=True).distance((0, 0), (7, 0)) == 1
        assert HexGrid(7, 3, orientation="pointy", wrap_x=True).distance((0, 1), (6, 1)) == 1
        assert StaggeredGrid(5, 5).distance((0, 0), (4, 0)) == 4

    def test_hex_centres_and_corners(self):
        g = HexGrid(4, 4)  # flat, odd-q, corner radius 1
        assert g.center((2, 3)) == pytest.approx((3.0, 3 * math.sqrt(3)))  # Hex(2, 2)
        assert g.center((1, 0)) == pytest.approx((1.5, math.sqrt(3) / 2))  # odd column shoved down
        assert g.polygon((0, 0))[0] == pytest.approx((1.0, 0.0))
        p = HexGrid(4, 4, orientation="pointy")  # odd-r
        assert p.center((1, 1)) == pytest.approx((1.5 * math.sqrt(3), 1.5))
        assert p.polygon((0, 0))[1] == pytest.approx((0.0, 1.0))
        assert g.cell_at(*g.center((2, 3))) == (2, 3)
        assert g.cell_at(-5.0, -5.0) is None
        assert g.to_hex((3, 1)) == Hex(3, 0) and g.from_hex(Hex(3, 0)) == (3, 1)

    def test_square_geometry(self):
        g = SquareGrid(4, 4)
        assert g.center((2, 0)) == (2.5, 0.5)
        assert g.polygon((0, 0)) == [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
        assert g.cell_at(2.3, 0.9) == (2, 0) and g.cell_at(4.0, 0.0) is None and g.cell_at(-0.1, 0) is None
        assert g.bounds() == (0.0, 0.0, 4.0, 4.0)

    def test_topology_tables(self):
        t4 = SquareGrid(5, 3).topology
        assert (t4.ndir, t4.pw, t4.ph, t4.padded_size) == (4, 7, 5, 35)
        assert t4.offsets[0].tolist() == [1, -7, -1, 7]
        assert t4.step.tolist() == [1.0] * 4 and t4.heuristic == 0 and t4.parity_mode == 0
        assert (t4.corner == -1).all()
        for rule_index, rule in enumerate(CORNER_RULES):
            t8 = SquareGrid(5, 3, diagonal=True, corner_rule=rule).topology
            assert t8.corner_rule == rule_index and t8.heuristic == 1
            assert t8.offsets[0].tolist() == [1, -6, -7, -8, -1, 6, 7, 8]
            assert t8.step.tolist() == pytest.approx([1, SQRT2, 1, SQRT2, 1, SQRT2, 1, SQRT2])
            # a diagonal looks at the two orthogonal cells beside it
            assert t8.corner.tolist() == [[-1, -1], [0, 2], [-1, -1], [4, 2], [-1, -1], [4, 6], [-1, -1], [0, 6]]
        assert [SquareGrid(2, 2, diagonal=True, corner_rule=r).corner_rule for r in CORNER_RULES] == list(CORNER_RULES)
        th = HexGrid(4, 3, orientation="flat", offset="odd-q").topology
        assert th.parity_mode == 1 and th.heuristic == 2 and th.hex_kind == 0
        assert th.dx.tolist() == [[1, 1, 0, -1, -1, 0], [1, 1, 0, -1, -1, 0]]
        assert th.dy.tolist() == [[0, -1, -1, -1, 0, 1], [1, 0, -1, 0, 1, 1]]
        assert th.offsets.tolist() == [[1, -5, -6, -7, -1, 6], [7, 1, -6, -1, 5, 6]]
        assert [HexGrid(4, 4, orientation=o, offset=k).topology.hex_kind for o, k in ORIENTED_OFFSETS] == [0, 1, 2, 3]
        assert HexGrid(4, 4, orientation="pointy").topology.parity_mode == 2
        assert StaggeredGrid(4, 4, stagger="rows").topology.hex_kind == 2

    def test_topology_padding(self):
        t = SquareGrid(2, 1).topology
        assert t.pad(np.array([[1.0, 2.0]]), np.inf).reshape(3, 4)[1].tolist() == [np.inf, 1.0, 2.0, np.inf]
        g = SquareGrid(3, 2, mask=np.array([[True, False, True], [True, True, True]]))
        padded = g.topology.pad(np.arange(6).reshape(2, 3), -1)
        assert padded.reshape(4, 5).tolist() == [
            [-1, -1, -1, -1, -1], [-1, 0, -1, 2, -1], [-1, 3, 4, 5, -1], [-1, -1, -1, -1, -1],
        ]
        assert g.topology.unpad(padded).tolist() == [[0, -1, 2], [3, 4, 5]]
        assert g.topology.padded_id(2, 1) == 13
        assert g.topology.padded_ids(np.array([0, 5])).tolist() == [6, 13]
        assert g.topology.cell_ids(np.array([6, 13])).tolist() == [0, 5]

    def test_grid_identity(self):
        assert SquareGrid(3, 3) == SquareGrid(3, 3) and hash(SquareGrid(3, 3)) == hash(SquareGrid(3, 3))
        assert SquareGrid(3, 3) != SquareGrid(3, 3, diagonal=True)
        assert SquareGrid(3, 3, corner_rule="always") == SquareGrid(3, 3)  # no diagonals, rule unused
        assert SquareGrid(3, 3, diagonal=True, corner_rule="always") != SquareGrid(3, 3, diagonal=True)
        assert HexGrid(4, 4) != StaggeredGrid(4, 4)
        assert HexGrid(4, 4) != HexGrid(4, 4, offset="even-q")
        assert hexagon_board(2) != HexGrid(5, 5)
        assert repr(HexGrid(6, 4, orientation="pointy")) == "HexGrid(6, 4, orientation='pointy', offset='odd-r')"
        assert repr(SquareGrid(4, 4, wrap_x=True)) == "SquareGrid(4, 4, diagonal=False, wrap_x=True)"
        assert repr(hexagon_board(1)) == "HexGrid(3, 3, orientation='flat', offset='odd-q', mask=<7 cells>)"
        assert SquareGrid(3, 2, diagonal=True).describe() == {
            "kind": "square", "width": 3, "height": 2, "wrap_x": False, "diagonal": True, "corner_rule": "no-obstacle",
        }
        assert StaggeredGrid(4, 2, stagger="rows").describe()["stagger"] == "rows"
        assert HexGrid(4, 2).describe()["offset"] == "odd-q"
        assert HexGrid(4, 4, orientation="pointy").offset == "odd-r"
        assert HexGrid(4, 4).orientation == "flat" and HexGrid(4, 4).offset == "odd-q"

    def test_mask_is_a_read_only_copy(self):
        m = np.ones((2, 2), dtype=bool)
        g = SquareGrid(2, 2, mask=m)
        m[0, 0] = False
        assert g.mask.all()
        with pytest.raises(ValueError):
            g.mask[0, 0] = False
        with pytest.raises(ValueError):
            g.topology.offsets[0, 0] = 0

    def test_shaped_boards(self):
        g = hexagon_board(1)
        assert g.shape == (3, 3) and len(g) == 7
        # odd-q: the middle column (odd) is shoved down, so only it reaches the top row
        assert g.mask.tolist() == [[False, True, False], [True, True, True], [True, True, True]]
        assert len(hexagon_board(2)) == 19 and hexagon_board(2).shape == (5, 5)
        assert len(hexagon_board(0)) == 1
        assert len(triangle_board(4)) == 10
        assert len(parallelogram_board(3, 4)) == 12
        assert hexagon_board(2, orientation="pointy").offset == "odd-r"
        assert triangle_board(3, orientation="pointy", offset="even-r").offset == "even-r"


# =============================================================================
# properties, for every board kind, open and wrapped
# =============================================================================

@every_kind
@kind_and_wrap
class TestEveryBoard:
    @BOARD_SETTINGS
    @given(data=st.data())
    def test_neighbour_relation_is_symmetric(self, kind, wrap, data):
        g = data.draw(boards(kind, wrap))
        nbrs = {c: set(g.neighbors(c)) for c in g.cells()}
        for c, ns in nbrs.items():
            assert c not in ns
            for n in ns:
                assert g.contains(n)
                assert c in nbrs[n], (c, n)
            assert len(g.neighbors(c)) == len(ns)  # no neighbour listed twice

    @BOARD_SETTINGS
    @given(data=st.data())
    def test_ids_round_trip(self, kind, wrap, data):
        g = data.draw(boards(kind, wrap))
        cells = list(g.cells())
        assert len(cells) == len(g) == int(g.mask.sum())
        ids = [g.id(c) for c in cells]
        assert ids == sorted(ids)
        assert [g.cell(i) for i in ids] == cells
        xs = np.array([c[0] for c in cells])
        ys = np.array([c[1] for c in cells])
        assert g.ids(xs, ys).tolist() == ids
        bx, by = g.cells_of(np.array(ids))
        assert bx.tolist() == xs.tolist() and by.tolist() == ys.tolist()
        for c in cells:
            assert g.mask[c[1], c[0]] and g.contains(c)
        assert g.ndir == g.topology.ndir == (6 if is_hexlike(g) else 8 if g.diagonal else 4)

    @BOARD_SETTINGS
    @given(data=st.data())
    def test_every_neighbour_is_one_step_away(self, kind, wrap, data):
        g = data.draw(boards(kind, wrap))
        for c in g.cells():
            for s in g.steps(c):
                assert g.neighbor(c, s.direction) == s.cell
                if is_hexlike(g):
                    assert s.length == 1.0
                    assert g.distance(c, s.cell) == 1
                else:
                    diagonal_step = g.diagonal and s.direction % 2 == 1
                    assert s.length == (SQRT2 if diagonal_step else 1.0)
                    assert g.distance(c, s.cell) == pytest.approx(s.length)
            missing = set(range(g.ndir)) - {s.direction for s in g.steps(c)}
            assert all(g.neighbor(c, d) is None for d in missing)

    @BOARD_SETTINGS
    @given(data=st.data())
    def test_steps_follow_the_direction_tables(self, kind, wrap, data):
        g = data.draw(boards(kind, wrap))
        for c in g.cells():
            for s in g.steps(c):
                if is_hexlike(g):
                    # direction d is HEX_DIRECTIONS[d] in axial terms, x taken round the wrap
                    nx, ny = hex_to_offset(offset_to_hex(*c, g.offset) + HEX_DIRECTIONS[s.direction], g.offset)
                else:
                    dx, dy = (SQUARE8_DIRECTIONS if g.diagonal else SQUARE4_DIRECTIONS)[s.direction]
                    nx, ny = c[0] + dx, c[1] + dy
                assert (nx % g.width if wrap else nx, ny) == s.cell

    @BOARD_SETTINGS
    @given(data=st.data())
    def test_topology_agrees_with_neighbors(self, kind, wrap, data):
        g = data.draw(boards(kind, wrap))
        t = g.topology
        assert (t.width, t.height, t.wrap) == (g.width, g.height, int(wrap))
        assert t.valid is g.mask or np.array_equal(t.valid, g.mask)
        assert t.offsets.shape == t.dx.shape == t.dy.shape == (2, t.ndir)
        assert np.array_equal(t.offsets, t.dy * t.pw + t.dx)
        assert t.step.shape == (t.ndir,) and t.corner.shape == (t.ndir, 2)
        for a in (t.dx, t.dy, t.offsets, t.corner):
            assert a.dtype == np.int64 and not a.flags.writeable
        for c in g.cells():
            want = [(s.direction, s.cell, s.length) for s in g.steps(c)]
            assert topology_steps(g, c) == want, c
        ids = np.array([g.id(c) for c in g.cells()], dtype=np.int64)
        assert np.array_equal(t.cell_ids(t.padded_ids(ids)), ids)
        layer = np.arange(g.size, dtype=np.int64).reshape(g.shape)
        back = t.unpad(t.pad(layer, -1))
        assert np.array_equal(back, np.where(g.mask, layer, -1))

    @BOARD_SETTINGS
    @given(data=st.data())
    def test_cell_at_finds_every_cell(self, kind, wrap, data):
        g = data.draw(boards(kind, wrap))
        ys, xs = np.nonzero(np.ones(g.shape, dtype=bool))
        cx, cy = g.centers_of(xs, ys)
        xmin, ymin, xmax, ymax = g.bounds()
        for x, y, px, py in zip(xs.tolist(), ys.tolist(), cx.tolist(), cy.tolist()):
            c = (x, y)
            if not g.mask[y, x]:
                assert g.cell_at(px, py) is None
                continue
            assert g.center(c) == pytest.approx((px, py))
            assert g.cell_at(*g.center(c)) == c
            poly = g.polygon(c)
            assert len(poly) == (6 if isinstance(g, HexGrid) else 4)
            for vx, vy in poly:
                assert xmin - 1e-9 <= vx <= xmax + 1e-9 and ymin - 1e-9 <= vy <= ymax + 1e-9
                # well inside the tile, towards each corner
                assert g.cell_at(px + 0.9 * (vx - px), py + 0.9 * (vy - py)) == c
        assert g.cell_at(xmin - 1.0, ymin - 1.0) is None
        assert g.cell_at(xmax + 1.0, ymax + 1.0) is None


@pytest.mark.parametrize("kind", [k for k in ALL_KINDS if not k.startswith("square")])
@kind_and_wrap
@BOARD_SETTINGS
@given(data=st.data())
def test_to_hex_and_from_hex_round_trip(kind, wrap, data):
    g = data.draw(boards(kind, wrap))
    cells = list(g.cells())
    for c in cells:
        h = g.to_hex(c)
        assert h == offset_to_hex(*c, g.offset)
        assert g.from_hex(h) == c
        if wrap:
            # the same cell one turn round the cylinder, either way
            assert g.from_hex(offset_to_hex(c[0] + g.width, c[1], g.offset)) == c
            assert g.from_hex(offset_to_hex(c[0] - g.width, c[1], g.offset)) == c
        else:
            with pytest.raises(IndexError, match="hex"):
                g.from_hex(offset_to_hex(c[0] + g.width, c[1], g.offset))
        for d, n in enumerate(h.neighbors()):
            nb = g.neighbor(c, d)
            if nb is not None:
                assert g.to_hex(nb) == n or (wrap and g.from_hex(n) == nb)
    xs = np.array([c[0] for c in cells])
    ys = np.array([c[1] for c in cells])
    q, r = g.hexes_of(xs, ys)
    assert [Hex(int(a), int(b)) for a, b in zip(q, r)] == [g.to_hex(c) for c in cells]
    bx, by = g.cells_of_hexes(q, r)
    assert bx.tolist() == xs.tolist() and by.tolist() == ys.tolist()


# a shape on a cylinder is no longer hex-convex and grid.distance is the open-board
# distance, so the shaped boards are compared open only, the wrap on full boards
ORACLE_CASES = [(k, w) for k in ALL_KINDS for w in WRAPS if not (w and k in SHAPED_KINDS)]


@pytest.mark.parametrize("kind, wrap", ORACLE_CASES)
@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_distance_agrees_with_a_dijkstra_oracle(kind, wrap, data):
    g = data.draw(boards(kind, wrap, masked=False))
    cells = list(g.cells())
    oracle = dijkstra_oracle(g)
    for a in cells:
        assert set(oracle[a]) == set(cells)  # a full (or hex-convex) board is connected
        for b in cells:
            assert abs(g.distance(a, b) - oracle[a][b]) < 1e-9, (a, b)


@pytest.mark.parametrize("shape", list(SHAPES))
@pytest.mark.parametrize("orientation, offset", ORIENTED_OFFSETS)
@settings(max_examples=8, deadline=None)
@given(n=st.integers(1, 6))
def test_shaped_boards_hold_exactly_their_shape(shape, orientation, offset, n):
    g = SHAPES[shape](n, orientation, offset)
    assert (g.orientation, g.offset) == (orientation, offset)
    hexes = {g.to_hex(c) for c in g.cells()}
    qmin = min(h.q for h in hexes)
    rmin = min(h.r for h in hexes)
    if shape == "hexagon":
        radius = n - 1
        centre = Hex(qmin + radius, rmin + radius)
        want = set(centre.range(radius))
    elif shape == "triangle":
        want = {Hex(qmin + q, rmin + r) for q in range(n) for r in range(n - q)}
    else:
        want = {Hex(qmin + q, rmin + r) for q in range(n) for r in range(n % 3 + 1)}
    assert hexes == want
    # the rectangle is the tight bounding box of the shape
    assert g.mask[0].any() and g.mask[-1].any() and g.mask[:, 0].any() and g.mask[:, -1].any()


# =============================================================================
# bad input
# =============================================================================

class TestBadInput:
    @pytest.mark.parametrize(
        "make, name",
        [
            (lambda: SquareGrid(0, 3), "width must be >= 1, got 0"),
            (lambda: SquareGrid(3, -1), "height must be >= 1, got -1"),
            (lambda: HexGrid(-2, 3), "width must be >= 1"),
            (lambda: StaggeredGrid(2, 0), "height must be >= 1"),
            (lambda: hexagon_board(-1), "radius must be >= 0"),
            (lambda: triangle_board(0), "size must be >= 1"),
            (lambda: parallelogram_board(0, 2), "q_size must be >= 1"),
            (lambda: parallelogram_board(2, -1), "r_size must be >= 1"),
            (lambda: SquareGrid(1 << 15, 1 << 14), "width \\* height must be at most"),
        ],
    )
    def test_sizes_of_zero_or_below(self, make, name):
        with pytest.raises(ValueError, match=name):
            make()

    @pytest.mark.parametrize(
        "make, name",
        [
            (lambda: SquareGrid(2.0, 3), "width must be an integer"),
            (lambda: HexGrid(3, "4"), "height must be an integer"),
            (lambda: SquareGrid(True, 3), "width must be an integer"),
            (lambda: hexagon_board(1.5), "radius must be an integer"),
            (lambda: SquareGrid(3, 3, diagonal=1), "diagonal must be True or False"),
            (lambda: SquareGrid(3, 3, wrap_x="yes"), "wrap_x must be True or False"),
            (lambda: SquareGrid(2, 2, mask=np.ones((2, 2), dtype=int)), "mask must be a boolean array"),
        ],
    )
    def test_wrong_types(self, make, name):
        with pytest.raises(TypeError, match=name):
            make()

    @pytest.mark.parametrize(
        "make, name",
        [
            (lambda: HexGrid(4, 4, orientation="square"), "orientation must be one of 'flat', 'pointy'; got 'square'"),
            (lambda: HexGrid(4, 4, offset="odd-z"), "offset must be one of"),
            (lambda: HexGrid(4, 4, orientation="flat", offset="odd-r"), "offset 'odd-r' does not go with orientation 'flat'"),
            (lambda: HexGrid(4, 4, orientation="pointy", offset="even-q"), "offset 'even-q' does not go with orientation 'pointy'"),
            (lambda: SquareGrid(4, 4, diagonal=True, corner_rule="sometimes"), "corner_rule must be one of 'always'"),
            (lambda: SquareGrid(4, 4, corner_rule=None), "corner_rule must be one of"),
            (lambda: StaggeredGrid(4, 4, stagger="diagonal"), "stagger must be one of 'columns', 'rows'"),
            (lambda: hexagon_board(2, orientation="round"), "orientation must be one of"),
            (lambda: triangle_board(2, orientation="pointy", offset="odd-q"), "offset 'odd-q' does not go with"),
            (lambda: SquareGrid(2, 2, mask=np.ones((3, 2), dtype=bool)), r"mask must have shape \(height, width\)"),
            (lambda: SquareGrid(2, 2, mask=np.zeros((2, 2), dtype=bool)), "mask must mark at least one valid cell"),
        ],
    )
    def test_unknown_or_mismatched_choices(self, make, name):
        with pytest.raises(ValueError, match=name):
            make()

    @pytest.mark.parametrize(
        "make",
        [
            lambda: HexGrid(5, 4, orientation="flat", offset="odd-q", wrap_x=True),
            lambda: HexGrid(7, 4, orientation="flat", offset="even-q", wrap_x=True),
            lambda: StaggeredGrid(3, 4, stagger="columns", wrap_x=True),
        ],
    )
    def test_odd_width_with_wrap_on_shoved_columns(self, make):
        with pytest.raises(ValueError, match=r"wrap_x .*columns are shoved.* needs an even width, got \d"):
            make()

    @pytest.mark.parametrize(
        "make",
        [
            lambda w: SquareGrid(w, 3, wrap_x=True),
            lambda w: SquareGrid(w, 3, diagonal=True, wrap_x=True),
            lambda w: HexGrid(w, 3, orientation="pointy", wrap_x=True),
            lambda w: HexGrid(w, 3, orientation="flat", offset="even-q", wrap_x=True),
            lambda w: StaggeredGrid(w, 3, stagger="rows", wrap_x=True),
        ],
    )
    @pytest.mark.parametrize("width", [1, 2])
    def test_wrap_needs_three_columns(self, make, width):
        # on a narrower ring a cell is its own neighbour, or one neighbour twice
        with pytest.raises(ValueError, match=rf"wrap_x needs a width of at least 3, got {width}"):
            make(width)
        assert make(4).wrap_x

    @pytest.mark.parametrize(
        "g",
        [SquareGrid(4, 3), SquareGrid(4, 3, diagonal=True), HexGrid(4, 3), StaggeredGrid(4, 3, stagger="rows")],
        ids=repr,
    )
    def test_cells_off_the_board(self, g):
        with pytest.raises(IndexError, match=r"cell \(4, 0\) is off the board: x must be in 0..3 and y in 0..2"):
            g.id((4, 0))
        with pytest.raises(IndexError, match=r"cell \(0, -1\) is off the board"):
            g.neighbors((0, -1))
        with pytest.raises(IndexError, match=r"cell \(9, 9\) is off the board"):
            g.steps((9, 9))
        with pytest.raises(IndexError, match=r"cell \(-1, 0\) is off the board"):
            g.center((-1, 0))
        with pytest.raises(IndexError, match=r"^a \(5, 5\) is off the board"):
            g.distance((5, 5), (0, 0))
        with pytest.raises(IndexError, match=r"^b \(0, 3\) is off the board"):
            g.distance((0, 0), (0, 3))
        with pytest.raises(IndexError, match=r"cell_id 12 is off the board: must be in 0..11"):
            g.cell(12)
        with pytest.raises(IndexError, match="cell_id -1 is off the board"):
            g.cell(-1)
        with pytest.raises(IndexError, match=r"cell \(4, 1\) is off the board 4x3"):
            g.ids(np.array([0, 4]), np.array([0, 1]))
        with pytest.raises(IndexError, match=r"ids must be in 0..11"):
            g.cells_of(np.array([3, 12]))
        with pytest.raises(TypeError, match=r"cell\[0\] \(x\) must be an integer"):
            g.id((1.0, 0))
        with pytest.raises(TypeError, match=r"cell must be an \(x, y\) pair"):
            g.id(3)
        with pytest.raises(TypeError, match="cell_id must be an integer"):
            g.cell(1.0)
        with pytest.raises(TypeError, match="xs and ys must be integer arrays"):
            g.ids(np.array([0.5]), np.array([0]))
        with pytest.raises(TypeError, match="ids must be an integer array"):
            g.cells_of(np.array([0.5]))
        with pytest.raises(ValueError, match=rf"direction must be in 0..{g.ndir - 1}, got {g.ndir}"):
            g.neighbor((0, 0), g.ndir)
        with pytest.raises(TypeError, match="direction must be an integer"):
            g.neighbor((0, 0), "0")
        assert not g.contains((4, 0)) and not g.contains((0, -1))

    def test_masked_cells(self):
        g = hexagon_board(1)  # (0, 0) and (2, 0) are masked out
        assert not g.contains((0, 0))
        with pytest.raises(IndexError, match=r"cell \(0, 0\) is outside the board's shape \(masked out\)"):
            g.id((0, 0))
        with pytest.raises(IndexError, match=r"^a \(2, 0\) is outside the board's shape"):
            g.distance((2, 0), (1, 1))
        with pytest.raises(IndexError, match=r"cell_id 2 \(2, 0\) is outside the board's shape"):
            g.cell(2)
        with pytest.raises(IndexError, match=r"cell \(0, 0\) is outside the board's shape"):
            g.neighbors((0, 0))
        with pytest.raises(IndexError, match=r"cell \(0, 0\) is outside the board's shape"):
            g.to_hex((0, 0))
        with pytest.raises(IndexError, match=r"hex \(0, 0\) is outside the board's shape"):
            g.from_hex(offset_to_hex(0, 0, g.offset))
        assert g.cell_at(*HexGrid(3, 3).center((0, 0))) is None

    def test_hex_arguments(self):
        g = HexGrid(4, 4)
        with pytest.raises(TypeError, match="h must be a Hex"):
            g.from_hex((1, 1))
        with pytest.raises(IndexError, match=r"hex \(-1, 0\) is off the board"):
            g.from_hex(offset_to_hex(-1, 0, "odd-q"))
        with pytest.raises(TypeError, match="cols must be an integer array"):
            g.hexes_of(np.array([0.5]), np.array([0]))
        with pytest.raises(ValueError, match=r"layer must have shape \(height, width\) = \(4, 4\)"):
            g.topology.pad(np.zeros((3, 4)), 0)
