"""Symmetric shadowcasting on square boards: oracle, symmetry, walls, radius, LOS."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import Map, SquareGrid
from wargrid.sight import field_of_view, line_of_sight
from wargrid.sight.board import prepare
from wargrid.sight.los import los_on_board

from sight_oracles import ford_fov, within

METRICS = ("euclidean", "chebyshev", "octile", "manhattan", "octagonal")


@st.composite
def boards(draw, max_side=11):
    w = draw(st.integers(1, max_side))
    h = draw(st.integers(1, max_side))
    seed = draw(st.integers(0, 2**32 - 1))
    density = draw(st.sampled_from([0.0, 0.1, 0.25, 0.4]))
    blocks = np.random.default_rng(seed).random((h, w)) < density
    ox = draw(st.integers(0, w - 1))
    oy = draw(st.integers(0, h - 1))
    return blocks, (ox, oy)


def as_set(v: np.ndarray) -> set[tuple[int, int]]:
    ys, xs = np.nonzero(v)
    return set(zip(xs.tolist(), ys.tolist()))


def test_literal_room():
    # a pillar at (3, 2) seen from (1, 2): it is lit, the cell behind it is not
    picture = [
        "#######",
        "#.....#",
        "#..#..#",
        "#.....#",
        "#######",
    ]
    blocks = np.array([[c == "#" for c in row] for row in picture])
    v = field_of_view(SquareGrid(7, 5), blocks, (1, 2), radius=None)
    got = ["".join("x" if v[y, x] else "-" for x in range(7)) for y in range(5)]
    assert got == [
        "xxxxxxx",
        "xxxxxxx",
        "xxxx---",
        "xxxxxxx",
        "xxxxxxx",
    ]


@settings(max_examples=150)
@given(boards())
def test_matches_published_algorithm(case):
    blocks, origin = case
    g = SquareGrid(blocks.shape[1], blocks.shape[0])
    assert as_set(field_of_view(g, blocks, origin, radius=None)) == ford_fov(blocks, origin)


@settings(max_examples=100)
@given(boards(), st.integers(0, 8), st.sampled_from(METRICS))
def test_radius_is_oracle_within_metric(case, r, metric):
    blocks, (ox, oy) = case
    g = SquareGrid(blocks.shape[1], blocks.shape[0])
    want = {(x, y) for x, y in ford_fov(blocks, (ox, oy)) if within(x - ox, y - oy, metric, r)}
    assert as_set(field_of_view(g, blocks, (ox, oy), radius=r, metric=metric)) == want


@settings(max_examples=40)
@given(boards(max_side=9), st.booleans())
def test_symmetric_between_floor_cells(case, wrap):
    blocks, _ = case
    h, w = blocks.shape
    g = SquareGrid(w, h, wrap_x=wrap and w >= 3)
    board = prepare(g, blocks)
    from wargrid.sight.fov import fov_array

    floors = [(x, y) for y in range(h) for x in range(w) if not blocks[y, x]]
    views = {a: fov_array(board, a, radius=None) for a in floors}
    for a in floors:
        for b in floors:
            assert views[a][b[1], b[0]] == views[b][a[1], a[0]], (a, b)


@settings(max_examples=40)
@given(boards(max_side=9), st.booleans())
def test_line_of_sight_agrees_with_fov(case, wrap):
    blocks, origin = case
    h, w = blocks.shape
    g = SquareGrid(w, h, wrap_x=wrap and w >= 3)
    board = prepare(g, blocks)
    v = field_of_view(g, blocks, origin, radius=None)
    for y in range(h):
        for x in range(w):
            assert los_on_board(board, origin, (x, y)) == bool(v[y, x]), (origin, (x, y))


@settings(max_examples=60)
@given(boards())
def test_no_blind_corners_and_walls_lit(case):
    blocks, (ox, oy) = case
    h, w = blocks.shape
    v = field_of_view(SquareGrid(w, h), blocks, (ox, oy), radius=None)
    # every neighbour (8 directions) is always seen
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            x, y = ox + dx, oy + dy
            if 0 <= x < w and 0 <= y < h:
                assert v[y, x]


def test_room_walls_all_lit():
    # expansive walls: from anywhere in a convex room, every wall is seen
    w, h = 9, 7
    blocks = np.zeros((h, w), dtype=bool)
    blocks[0, :] = blocks[-1, :] = blocks[:, 0] = blocks[:, -1] = True
    g = SquareGrid(w, h)
    for y in range(1, h - 1):
        for x in range(1, w - 1):
            assert field_of_view(g, blocks, (x, y), radius=None).all()


def test_pillar_shadow_expands():
    blocks = np.zeros((21, 21), dtype=bool)
    blocks[10, 12] = True
    v = field_of_view(SquareGrid(21, 21), blocks, (10, 10), radius=None)
    widths = [int((~v[:, x]).sum()) for x in range(13, 21)]
    assert widths == sorted(widths) and widths[-1] > widths[0]


@pytest.mark.slow
def test_map_queries_use_terrain_and_elevation():
    m = Map(SquareGrid(7, 3))
    m.set_terrain([(3, 1)], "forest")
    m.set_terrain([(2, 0), (2, 2)], "water")  # water does not block
    assert not m.line_of_sight((0, 1), (6, 1))
    v = m.fov((0, 1), radius=10)
    assert v[1, 3] and not v[1, 5] and v[0, 2]
    # a viewer higher than the forest sees over it; the forest as high as the viewer blocks
    elev = np.zeros((3, 7))
    elev[1, 0] = 2.0
    m.set_elevation(elev)
    assert m.line_of_sight((0, 1), (6, 1))
    assert not m.line_of_sight((6, 1), (0, 1))  # the low viewer cannot see past the forest
    assert not m.fov((0, 1), radius=10, elevation=False)[1, 5]
    m.set_terrain([(3, 1)], "plains")
    assert m.fov((6, 1), radius=10)[1, 0]


def test_masked_cells_are_never_seen():
    mask = np.ones((5, 5), dtype=bool)
    mask[2, 3] = False
    g = SquareGrid(5, 5, mask=mask)
    v = field_of_view(g, np.zeros((5, 5), dtype=bool), (0, 2), radius=None)
    assert not v[2, 3] and not v[2, 4] and v[2, 2]


@pytest.mark.parametrize(
    "kwargs, exc, text",
    [
        ({"origin": (5, 0), "radius": 3}, IndexError, "origin"),
        ({"origin": (0, -1), "radius": 3}, IndexError, "origin"),
        ({"origin": (0, 0), "radius": -1}, ValueError, "radius"),
        ({"origin": (0, 0), "radius": 2.5}, TypeError, "radius"),
        ({"origin": (0, 0), "radius": float("nan")}, ValueError, "radius"),
        ({"origin": (0.5, 0), "radius": 3}, TypeError, "origin"),
        ({"origin": (0, 0), "radius": 3, "metric": "hex"}, ValueError, "metric"),
    ],
)
def test_bad_input(kwargs, exc, text):
    m = Map(SquareGrid(5, 5))
    with pytest.raises(exc, match=text):
        m.fov(**kwargs)


def test_bad_layers():
    g = SquareGrid(3, 3)
    with pytest.raises(ValueError, match="blocks"):
        field_of_view(g, np.zeros((2, 3), dtype=bool), (0, 0), radius=1)
    with pytest.raises(TypeError, match="blocks"):
        field_of_view(g, np.zeros((3, 3)), (0, 0), radius=1)
    with pytest.raises(ValueError, match="elevation"):
        field_of_view(g, np.zeros((3, 3), dtype=bool), (0, 0), radius=1, elevation=np.full((3, 3), np.nan))
    with pytest.raises(IndexError, match="b"):
        line_of_sight(g, np.zeros((3, 3), dtype=bool), (0, 0), (3, 3))


def test_octagonal_radius_is_the_lepton_distance():
    # on an open board, the octagonal view is every cell whose centre is within r cells
    # of the viewer's centre by the classic engines' lepton distance (max + min / 2)
    from wargrid.rts import LEPTONS_PER_CELL, cell_to_lepton, octagonal_distance

    g = SquareGrid(15, 13)
    for origin, r in [((7, 6), 0), ((7, 6), 3), ((2, 11), 5), ((14, 0), 7)]:
        got = as_set(field_of_view(g, np.zeros(g.shape, dtype=bool), origin, radius=r, metric="octagonal"))
        centre = cell_to_lepton(origin)
        want = {c for c in g.cells() if octagonal_distance(centre, cell_to_lepton(c)) <= r * LEPTONS_PER_CELL}
        assert got == want
    # literal: radius 2 is the diamond of chebyshev 1 plus the four straight cells at 2 (13 cells)
    v = field_of_view(SquareGrid(5, 5), np.zeros((5, 5), dtype=bool), (2, 2), radius=2, metric="octagonal")
    assert v.astype(int).tolist() == [[0, 0, 1, 0, 0], [0, 1, 1, 1, 0], [1, 1, 1, 1, 1], [0, 1, 1, 1, 0], [0, 0, 1, 0, 0]]


def test_octagonal_fog_and_refused_on_hex():
    from wargrid import HexGrid

    m = Map(SquareGrid(9, 9))
    fog = m.fog(["red"], radius=3, metric="octagonal")
    fog.place(1, "red", (4, 4))
    assert (fog.visible("red") == m.fov((4, 4), radius=3, metric="octagonal")).all()
    with pytest.raises(ValueError, match="hex steps"):
        Map(HexGrid(5, 5)).fov((1, 1), radius=2, metric="octagonal")
    with pytest.raises(ValueError, match="hex steps"):
        Map(HexGrid(5, 5)).fog(["red"], metric="octagonal")


def test_fov_and_los_share_one_quadrant_scan_a_board():
    # the line of sight passed the padding's int8 value and literal counts, the view literal slopes: two signatures
    # of ``scan_quadrant`` for one board's type (none at all when numba's disk cache held them)
    from wargrid._kernels.sight import fov as k

    blocks = np.zeros((6, 7), dtype=bool)
    blocks[2, 3] = True
    field_of_view(SquareGrid(7, 6), blocks, (0, 0), radius=5)
    line_of_sight(SquareGrid(7, 6), blocks, (0, 0), (6, 5))
    boards = [sig[0] for sig in k.scan_quadrant.signatures]
    assert len(boards) == len(set(boards)) and len(k._push.signatures) <= 1
