"""Shroud tools of the fog of war: reveal, re-shroud, and the shroud edge's bit masks."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import HexGrid, Map, SquareGrid, StaggeredGrid
from wargrid.grids.square import SQUARE8_DIRECTIONS


def square_fog(w=5, h=5, **options):
    return Map(SquareGrid(w, h)).fog(["red", "blue", "green"], radius=1, **options)


def test_reveal_all_and_an_area():
    fog = square_fog()
    fog.reveal("red", [(0, 0), (4, 4)])
    assert fog.explored("red").sum() == 2 and fog.explored("red")[4, 4] and not fog.visible("red").any()
    assert not fog.explored("blue").any()
    fog.reveal("blue")
    assert fog.explored("blue").all() and not fog.visible("blue").any()
    layer = np.zeros((5, 5), dtype=bool)
    layer[1:3, 2] = True
    fog.reveal("green", layer)
    assert (fog.explored("green") == layer).all()


def test_spy_map_is_another_teams_explored_layer():
    fog = square_fog(w=9, h=3)
    fog.place("b", "blue", (7, 1))
    fog.place("r", "red", (1, 1))
    fog.reveal("red", fog.explored("blue"))
    assert (fog.explored("red") == (fog.explored("blue") | fog.visible("red"))).all()
    assert not fog.visible("red")[1, 7]


def test_revealed_cells_regrow_like_seen_ones():
    fog = square_fog(regrow=2)
    fog.reveal("red", [(3, 3)])
    fog.tick(2)
    assert fog.explored("red")[3, 3]
    fog.tick(1)
    assert not fog.explored("red")[3, 3]


def test_shroud_forgets_all_but_what_is_seen_now():
    fog = square_fog(w=9, h=1)
    fog.place(1, "red", (0, 0))
    fog.move(1, (4, 0))  # explored 0, 1, 3, 4, 5; visible 3, 4, 5
    fog.shroud("red", [(x, 0) for x in range(9)])
    assert fog.explored("red").astype(int).tolist() == [[0, 0, 0, 1, 1, 1, 0, 0, 0]]
    fog.move(1, (7, 0))  # the cells seen at the shroud are remembered when left
    assert fog.explored("red").astype(int).tolist() == [[0, 0, 0, 1, 1, 1, 1, 1, 1]]


def test_shroud_reaches_allies_and_spares_what_they_see():
    fog = square_fog(w=9, h=1)
    fog.ally("red", "blue")
    fog.place(1, "red", (1, 0))
    fog.place(2, "blue", (7, 0))
    fog.move(1, (2, 0))  # red explored 0..3
    fog.remove(2)  # blue remembers 6..8
    fog.place(3, "green", (0, 0))
    fog.shroud("red", np.ones((1, 9), dtype=bool))
    assert fog.explored("red").astype(int).tolist() == [[0, 1, 1, 1, 0, 0, 0, 0, 0]]
    assert fog.explored("blue").astype(int).tolist() == [[0, 1, 1, 1, 0, 0, 0, 0, 0]]
    assert fog.explored("green").astype(int).tolist() == [[1, 1, 0, 0, 0, 0, 0, 0, 0]]


def test_bad_input():
    fog = square_fog()
    with pytest.raises(ValueError, match="team"):
        fog.reveal("purple")
    with pytest.raises(IndexError):
        fog.reveal("red", [(5, 0)])
    with pytest.raises(ValueError, match="area"):
        fog.shroud("red", np.ones((4, 5), dtype=bool))
    with pytest.raises(TypeError, match="area"):
        fog.shroud("red", 3)
    with pytest.raises(ValueError, match="layer"):
        fog.shroud_edge("red", layer="fogged")


def test_square_edge_literal():
    fog = square_fog()
    area = np.zeros((5, 5), dtype=bool)
    area[1:4, 1:4] = True
    fog.reveal("red", area)
    e = fog.shroud_edge("red")
    # (1, 1): unknown W (bit 4), NW (3), N (2), NE (1), SW (5); (2, 1): N, NE, NW; (3, 3): E, SE, S, SW, NE
    assert e[1, 1] == 62 and e[1, 2] == 14 and e[3, 3] == 1 + 128 + 64 + 32 + 2
    assert e[2, 2] == 0 and e[0, 0] == 0
    assert e.tolist() == [
        [0, 0, 0, 0, 0],
        [0, 62, 14, 143, 0],
        [0, 56, 0, 131, 0],
        [0, 248, 224, 227, 0],
        [0, 0, 0, 0, 0],
    ]
    # the edge of the board is not unknown: a known corner cell of a 1-cell reveal has 3 unknown neighbours
    fog.reveal("blue", [(0, 0)])
    assert fog.shroud_edge("blue")[0, 0] == 1 + 64 + 128


@pytest.mark.parametrize("grid", [HexGrid(5, 5), HexGrid(6, 5, orientation="pointy", offset="even-r"),
                                  StaggeredGrid(5, 6)])
def test_hex_edge_literal(grid):
    # a revealed hex and its ring: the neighbour in direction k has unknown k - 1, k, k + 1
    fog = Map(grid).fog(["red"], radius=1)
    c = (2, 2)
    ring = [grid.neighbor(c, k) for k in range(6)]
    fog.reveal("red", [c, *ring])
    e = fog.shroud_edge("red")
    assert e[2, 2] == 0
    assert [int(e[y, x]) for x, y in ring] == [35, 7, 14, 28, 56, 49]


def test_visible_layer_edge():
    fog = square_fog(w=7, h=1)
    fog.place(1, "red", (1, 0))
    fog.move(1, (4, 0))  # visible 3..5, explored 0..5
    assert fog.shroud_edge("red", layer="visible").tolist() == [[0, 0, 0, 16, 0, 1, 0]]
    assert fog.shroud_edge("red").tolist() == [[0, 0, 0, 0, 0, 1, 0]]


@st.composite
def fogs(draw):
    kind = draw(st.sampled_from(["square4", "square8", "hex", "pointy", "staggered"]))
    w, h = draw(st.integers(3, 9)), draw(st.integers(3, 9))
    wrap = draw(st.booleans()) and w % 2 == 0 and w >= 4
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    mask = rng.random((h, w)) < 0.9 if draw(st.booleans()) else None
    if mask is not None:
        mask[0, 0] = True
    grid = {
        "square4": lambda: SquareGrid(w, h, wrap_x=wrap, mask=mask),
        "square8": lambda: SquareGrid(w, h, diagonal=True, wrap_x=wrap, mask=mask),
        "hex": lambda: HexGrid(w, h, wrap_x=wrap, mask=mask),
        "pointy": lambda: HexGrid(w, h, orientation="pointy", wrap_x=wrap, mask=mask),
        "staggered": lambda: StaggeredGrid(w, h, wrap_x=wrap, mask=mask),
    }[kind]()
    m = Map(grid)
    m.set_terrain([c for c in grid.cells() if rng.random() < 0.15], "forest")
    fog = m.fog(["red", "blue"], radius=2)
    cells = list(grid.cells())
    for i in range(draw(st.integers(0, 3))):
        fog.place(i, "red", cells[rng.integers(len(cells))])
        fog.move(i, cells[rng.integers(len(cells))])
    fog.reveal("red", rng.random(grid.shape) < 0.2)
    fog.shroud("red", rng.random(grid.shape) < 0.3)
    return grid, fog


def neighbour(grid, cell, k):
    """Direction ``k`` of the shroud-edge bit order, by hand."""
    if isinstance(grid, SquareGrid):
        x, y = cell[0] + SQUARE8_DIRECTIONS[k][0], cell[1] + SQUARE8_DIRECTIONS[k][1]
        if grid.wrap_x:
            x %= grid.width
        return (x, y) if grid.contains((x, y)) else None
    return grid.neighbor(cell, k)


@settings(max_examples=60)
@given(fogs(), st.sampled_from(["explored", "visible"]))
def test_bit_set_iff_neighbour_on_board_and_unknown(case, layer):
    grid, fog = case
    known = fog.explored("red") if layer == "explored" else fog.visible("red")
    e = fog.shroud_edge("red", layer=layer)
    ndir = 8 if isinstance(grid, SquareGrid) else 6
    assert e.dtype == np.uint8
    for x in range(grid.width):
        for y in range(grid.height):
            for k in range(8):
                bit = bool(e[y, x] >> k & 1)
                if not (grid.contains((x, y)) and known[y, x]) or k >= ndir:
                    assert not bit
                    continue
                n = neighbour(grid, (x, y), k)
                assert bit == (n is not None and not known[n[1], n[0]]), ((x, y), k)


# -- the classic fix-up and edge tiles -------------------------------------------------

from wargrid.sight.fog import SHADOW_TILES  # noqa: E402


def explored_fog(rows, grid=None):
    """A red fog whose explored layer is ``rows`` (strings, '#' explored)."""
    h, w = len(rows), len(rows[0])
    grid = grid or SquareGrid(w, h)
    fog = Map(grid).fog(["red", "blue"], radius=1)
    fog.reveal("red", np.array([[c == "#" for c in r] for r in rows]))
    return fog


def as_rows(layer):
    return ["".join("#" if v else "." for v in row) for row in layer]


def test_isolated_hole_is_explored():
    fog = explored_fog(["#####", "#####", "##.##", "#####", "#####"])
    done = fog.fix_shroud("red")
    assert as_rows(done) == [".....", ".....", "..#..", ".....", "....."]
    assert fog.explored("red").all()
    assert not fog.fix_shroud("red").any()  # nothing left to do


def test_two_cell_pocket_fills_in():
    # each cell of the pocket has explored north and south neighbours
    fog = explored_fog(["######", "##..##", "######"])
    assert as_rows(fog.fix_shroud("red")) == ["......", "..##..", "......"]
    fog = explored_fog(["###", "#.#", "#.#", "###"])
    assert as_rows(fog.fix_shroud("red")) == ["...", ".#.", ".#.", "..."]


def test_corners_and_single_sides_stay_and_cascades_run():
    # an unknown 2 x 2 block: every cell has one explored neighbour per axis at most -> stays
    fog = explored_fog(["####", "#..#", "#..#", "####"])
    assert not fog.fix_shroud("red").any()
    # only diagonals explored, two of them: explored; one: stays. (1, 0) lies between (0, 0) and (2, 0);
    # (1, 1) has no explored orthogonal neighbour and two explored diagonals: both in the first round
    fog = explored_fog(["#.#", "...", "..."])
    assert as_rows(fog.fix_shroud("red")) == [".#.", ".#.", "..."]
    fog = explored_fog(["...", ".#.", "..."])
    assert not fog.fix_shroud("red").any()
    fog = explored_fog(["#..", "...", "..#"])
    assert as_rows(fog.fix_shroud("red")) == ["...", ".#.", "..."]
    # a staircase cascades: filling (1, 1) makes (2, 1) due, and so on
    fog = explored_fog(["#####", "#....", "#####"])
    assert as_rows(fog.fix_shroud("red")) == [".....", ".####", "....."]


def test_fix_shroud_reaches_allies_and_board_edge_is_not_explored():
    fog = explored_fog([".#.", "###"])
    fog.ally("red", "blue")
    # (0, 0): east explored, west off the board -> stays; (2, 0) likewise
    assert not fog.fix_shroud("red").any()
    fog = explored_fog(["#.#", "###"])
    fog.ally("red", "blue")
    assert as_rows(fog.fix_shroud("red")) == [".#.", "..."]
    assert fog.explored("blue").all()


def test_hex_hole_and_channel():
    grid = HexGrid(5, 5)
    fog = Map(grid).fog(["red"], radius=1)
    fog.reveal("red")
    fog.shroud("red", [(2, 2)])
    assert as_rows(fog.fix_shroud("red"))[2] == "..#.."
    # one unknown cell with only neighbours 0 and 1 explored: no opposite pair -> stays
    fog = Map(grid).fog(["red"], radius=1)
    fog.reveal("red", [grid.neighbor((2, 2), 0), grid.neighbor((2, 2), 1)])
    assert not fog.fix_shroud("red")[2, 2]
    fog.reveal("red", [grid.neighbor((2, 2), 4)])  # 1 and 4 are opposite
    assert fog.fix_shroud("red")[2, 2]


def test_shadow_table_shape():
    assert len(SHADOW_TILES) == 256 and SHADOW_TILES[0] == -1
    # frames 1..46 of the 47-frame art (0 and 15 are never picked), none and black
    assert set(SHADOW_TILES) == set(range(-2, 47)) - {0, 15}
    # black exactly when the four orthogonal neighbours (N 0x80, E 0x02, S 0x08, W 0x20) are unknown
    assert all((v == -2) == (i & 0xAA == 0xAA) for i, v in enumerate(SHADOW_TILES))


def test_tile_literals():
    fog = explored_fog(["......", ".####.", ".####.", ".####.", "......"])
    t = fog.shroud_tiles("red")
    # classic bits: NE 1, E 2, SE 4, S 8, SW 16, W 32, NW 64, N 128
    assert t[0, 0] == -2 and t[2, 2] == -1
    assert t[1, 1] == SHADOW_TILES[1 + 16 + 32 + 64 + 128]  # top-left corner: all but E, SE, S
    assert t[1, 2] == SHADOW_TILES[1 + 64 + 128]  # top side
    assert t[2, 1] == SHADOW_TILES[16 + 32 + 64]  # west side
    # read off Cell_Shadow's table by hand: the sides are frames 1 (N), 2 (E), 4 (S), 8 (W), the corner 9 (N + W)
    assert t[1, 2] == 1 and t[2, 4] == 2 and t[3, 2] == 4 and t[2, 1] == 8 and t[1, 1] == 9
    # a known cell in a cross of unknowns: black
    fog = explored_fog([".#.", "#.#", ".#."])
    assert fog.shroud_tiles("red")[1, 1] == -2
    fog = explored_fog(["...", ".#.", "..."])
    assert fog.shroud_tiles("red").tolist() == [[-2] * 3, [-2, -2, -2], [-2] * 3]
    # the board's edge is not unknown
    fog = explored_fog(["##", "##"])
    assert (fog.shroud_tiles("red") == -1).all()


def classic_index_by_hand(known, x, y, grid):
    """Red Alert's Cell_Shadow index of cell (x, y), from dx, dy directly (a slow oracle)."""
    bits = {(1, -1): 0x01, (1, 0): 0x02, (1, 1): 0x04, (0, 1): 0x08,
            (-1, 1): 0x10, (-1, 0): 0x20, (-1, -1): 0x40, (0, -1): 0x80}
    index = 0
    for (dx, dy), b in bits.items():
        nx, ny = x + dx, y + dy
        if grid.wrap_x:
            nx %= grid.width
        if grid.contains((nx, ny)) and not known[ny, nx]:
            index |= b
    return index


def fixup_by_hand(known, grid):
    """The fix-up to a fixed point, by sweeping the board until nothing changes (a slow oracle)."""
    known = known.copy()
    square = isinstance(grid, SquareGrid)
    ndir = 8 if square else 6

    changed = True
    while changed:  # rounds: test every cell against the layer as the round found it
        changed = False
        before = known.copy()

        def k(cell, d):
            n = neighbour(grid, cell, d)
            return n is not None and grid.contains(n) and bool(before[n[1], n[0]])

        for x, y in grid.cells():
            if before[y, x]:
                continue
            c = (x, y)
            if square:
                ortho = [k(c, d) for d in (0, 2, 4, 6)]
                due = (ortho[0] and ortho[2]) or (ortho[1] and ortho[3]) or (
                    not any(ortho) and sum(k(c, d) for d in (1, 3, 5, 7)) >= 2)
            else:
                due = any(k(c, d) and k(c, d + 3) for d in range(ndir // 2))
            if due:
                known[y, x] = True
                changed = True
    return known


@settings(max_examples=60)
@given(fogs())
def test_fix_shroud_matches_oracle(case):
    grid, fog = case
    before = fog.explored("red")
    want = fixup_by_hand(before, grid)
    done = fog.fix_shroud("red")
    assert (fog.explored("red") == want).all()
    assert (done == (want & ~before)).all()
    assert not fog.fix_shroud("red").any()


@settings(max_examples=40)
@given(fogs(), st.sampled_from(["explored", "visible"]))
def test_tiles_match_oracle(case, layer):
    grid, fog = case
    if not isinstance(grid, SquareGrid):
        with pytest.raises(ValueError, match="square"):
            fog.shroud_tiles("red", layer=layer)
        return
    known = fog.explored("red") if layer == "explored" else fog.visible("red")
    t = fog.shroud_tiles("red", layer=layer)
    assert t.dtype == np.int8
    for x, y in grid.cells():
        want = SHADOW_TILES[classic_index_by_hand(known, x, y, grid)] if known[y, x] else -2
        assert t[y, x] == want, (x, y)


def test_fix_and_tiles_bad_input():
    fog = square_fog()
    with pytest.raises(ValueError, match="team"):
        fog.fix_shroud("purple")
    with pytest.raises(ValueError, match="team"):
        fog.shroud_tiles("purple")
    with pytest.raises(ValueError, match="layer"):
        fog.shroud_tiles("red", layer="fogged")
    with pytest.raises(ValueError, match="square"):
        Map(HexGrid(3, 3)).fog(["red"]).shroud_tiles("red")
