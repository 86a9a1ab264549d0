"""Heightmap line of sight against a brute-force ray: sample the segment between the two cell centres densely,
look up the cell under every sample and compare its ground with the sight line there."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from wargrid import HexGrid, Map, SquareGrid, StaggeredGrid, hexagon_board
from wargrid.errors import ArgumentError, ArgumentTypeError
from wargrid.sight.board import prepare
from wargrid.sight.heights import ground_heights, height_fov, height_line_of_sight

KINDS = [
    lambda w, h, m: SquareGrid(w, h, mask=m),
    lambda w, h, m: SquareGrid(w, h, diagonal=True, mask=m),
    lambda w, h, m: HexGrid(w, h, mask=m),
    lambda w, h, m: HexGrid(w, h, offset="even-q", mask=m),
    lambda w, h, m: HexGrid(w, h, orientation="pointy", mask=m),
    lambda w, h, m: HexGrid(w, h, orientation="pointy", offset="even-r", mask=m),
    lambda w, h, m: StaggeredGrid(w, h, mask=m),
    lambda w, h, m: StaggeredGrid(w, h, stagger="rows", mask=m),
]


def ray(grid, top, elev, a, b, eye, target, nudge=0.0, per_unit=600):
    """``(seen, margin)``: the sampled verdict, and the smallest height of the line over the ground between.

    ``top``: each tile's top (elevation plus cover); ``elev``: what the eye and the target stand on."""
    (ax, ay), (bx, by) = grid.center(a), grid.center(b)
    length = math.hypot(bx - ax, by - ay)
    nx, ny = (-(by - ay) / length, (bx - ax) / length) if length else (0.0, 0.0)
    n = max(50, int(per_unit * length))
    t = (np.arange(n) + 0.5) / n
    px = ax + t * (bx - ax) + nudge * nx
    py = ay + t * (by - ay) + nudge * ny
    ids = grid.cell_ids_at(px, py)
    za = elev[a[1], a[0]] + eye
    zb = elev[b[1], b[0]] + target
    z = za + t * (zb - za)
    between = (ids >= 0) & (ids != grid.id(a)) & (ids != grid.id(b))
    if not between.any():
        return True, math.inf
    ground = top.ravel()[ids[between]]
    gap = z[between] - ground
    return bool((gap >= 0).all()), float(np.min(np.abs(gap)))


@st.composite
def height_boards(draw):
    make = draw(st.sampled_from(KINDS))
    w = draw(st.integers(2, 8))
    h = draw(st.integers(2, 8))
    mask = None
    if draw(st.integers(0, 3)) == 0:
        mask = np.array(draw(st.lists(st.booleans(), min_size=w * h, max_size=w * h)), dtype=bool).reshape(h, w)
        mask[0, 0] = True
    g = make(w, h, mask)
    elev = np.array(draw(st.lists(st.sampled_from([0.0, 0.0, 1.0, 2.0, 3.5]), min_size=w * h, max_size=w * h))).reshape(h, w)
    blocks = np.array(draw(st.lists(st.sampled_from([False] * 5 + [True]), min_size=w * h, max_size=w * h))).reshape(h, w)
    return g, elev, blocks


@pytest.mark.slow
@settings(max_examples=150)
@given(height_boards(), st.data())
def test_heightmap_sight_matches_the_brute_force_ray(board, data):
    g, elev, blocks = board
    cover = data.draw(st.sampled_from([math.inf, 0.75, 0.0]))
    sb = prepare(g, blocks, elev)
    top = np.where(g.mask, ground_heights(sb, cover_height=cover), -np.inf)
    top = np.where(np.isinf(top) & (top > 0), 1e9, top)  # 'always blocks' as a very tall tile for the sampler
    cells = list(g.cells())
    eye = data.draw(st.sampled_from([0.0, 0.37, 1.13, 2.6]))
    target = data.draw(st.sampled_from([0.0, 0.37, 1.13]))
    for _ in range(12):
        a = data.draw(st.sampled_from(cells))
        b = data.draw(st.sampled_from(cells))
        if a == b:
            continue
        seen, margin = ray(g, top, elev, a, b, eye, target)
        sides = {ray(g, top, elev, a, b, eye, target, nudge=s)[0] for s in (0.02, -0.02)}
        if margin < 1e-3 or sides != {seen}:  # through a corner, along an edge, at an exact height: not for a sampler
            continue
        assert height_line_of_sight(sb, a, b, viewer_height=eye, target_height=target, cover_height=cover) == seen, (a, b)


@pytest.mark.parametrize("make", KINDS)
def test_every_pair_on_a_small_board_with_a_hill_matches_the_ray(make):
    g = make(6, 5, None)
    elev = np.zeros((5, 6))
    elev[3, 4] = 1.0
    elev[1, 1] = 0.6
    sb = prepare(g, np.zeros((5, 6), dtype=bool), elev)
    compared = 0
    for a in g.cells():
        for b in g.cells():
            if a == b:
                continue
            seen, margin = ray(g, elev, elev, a, b, 0.0, 0.3)
            sides = {ray(g, elev, elev, a, b, 0.0, 0.3, nudge=s)[0] for s in (0.02, -0.02)}
            if margin < 1e-3 or sides != {seen}:
                continue
            assert height_line_of_sight(sb, a, b, viewer_height=0.0, target_height=0.3) == seen, (a, b)
            compared += 1
    assert compared > 600


@settings(max_examples=80)
@given(height_boards(), st.sampled_from([0.0, 0.5, 1.7]))
def test_equal_heights_see_both_ways_and_fov_agrees(board, h):
    g, elev, blocks = board
    sb = prepare(g, blocks, elev)
    cells = list(g.cells())
    for a in cells[:6]:
        view = height_fov(sb, a, radius=None, viewer_height=h, target_height=h, cover_height=1.0)
        for b in cells:
            ab = height_line_of_sight(sb, a, b, viewer_height=h, target_height=h, cover_height=1.0)
            assert ab == height_line_of_sight(sb, b, a, viewer_height=h, target_height=h, cover_height=1.0)
            assert bool(view[b[1], b[0]]) == ab
        assert not view[~g.mask].any()


def test_a_viewer_on_a_hill_sees_over_lower_ground_and_not_through_higher():
    for g in (SquareGrid(9, 3, diagonal=True), HexGrid(9, 3), StaggeredGrid(9, 3, stagger="rows")):
        elev = np.zeros((3, 9))
        elev[:, 4] = 2.0  # a ridge down the middle
        sb = prepare(g, np.zeros((3, 9), dtype=bool), elev)
        assert not height_line_of_sight(sb, (1, 1), (7, 1))
        hill = elev.copy()
        hill[:, 0:2] = 6.0  # the viewer's side rises well above the ridge
        sb = prepare(g, np.zeros((3, 9), dtype=bool), hill)
        assert height_line_of_sight(sb, (1, 1), (8, 1))
        assert not height_line_of_sight(sb, (1, 1), (5, 1))  # just behind the ridge: its shadow
        # a tall eye right behind a wall sees a far soldier's feet; the far soldier's eye does not see its feet ...
        wall = np.zeros((3, 9))
        wall[:, 2] = 2.0
        sb = prepare(g, np.zeros((3, 9), dtype=bool), wall)
        assert height_line_of_sight(sb, (1, 1), (8, 1), viewer_height=3.0, target_height=0.0)
        assert not height_line_of_sight(sb, (8, 1), (1, 1), viewer_height=3.0, target_height=0.0)
        # ... but sees its eye: the same line with the heights swapped
        assert height_line_of_sight(sb, (8, 1), (1, 1), viewer_height=0.0, target_height=3.0)


def test_sight_blocking_terrain_stands_cover_height_above_its_ground():
    g = SquareGrid(7, 1)
    forest = np.zeros((1, 7), dtype=bool)
    forest[0, 3] = True
    sb = prepare(g, forest, np.zeros((1, 7)))
    assert not height_line_of_sight(sb, (0, 0), (6, 0))
    assert not height_line_of_sight(sb, (0, 0), (6, 0), cover_height=1.5)
    assert height_line_of_sight(sb, (0, 0), (6, 0), cover_height=1.5, viewer_height=2.0, target_height=2.0)


@pytest.mark.slow
def test_wrapped_boards_see_across_the_seam_like_a_wider_board():
    # the brute-force ray on a board three copies wide, from the middle copy, against the wrapped board
    rng = np.random.default_rng(5)
    for make in (lambda w, wrap: SquareGrid(w, 5, diagonal=True, wrap_x=wrap), lambda w, wrap: HexGrid(w, 5, wrap_x=wrap)):
        w = 8
        elev = rng.integers(0, 3, size=(5, w)).astype(float)
        g = make(w, True)
        wrapped = prepare(g, np.zeros((5, w), dtype=bool), elev)
        wide = make(3 * w, False)
        tiled = np.tile(elev, 3)
        compared = 0
        for a in g.cells():
            for b in g.cells():
                if a == b:
                    continue
                copies = [b[0] + s for s in (-w, 0, w) if abs(b[0] + s - a[0]) <= w // 2]
                rays = [ray(wide, tiled, tiled, (a[0] + w, a[1]), (x + w, b[1]), 0.6, 0.0, nudge=s)[0]
                        for x in copies for s in (0.0, 0.02, -0.02)]
                margins = [ray(wide, tiled, tiled, (a[0] + w, a[1]), (x + w, b[1]), 0.6, 0.0)[1] for x in copies]
                if min(margins) < 1e-3 or any(rays[i:i + 3].count(rays[i]) != 3 for i in range(0, len(rays), 3)):
                    continue
                assert height_line_of_sight(wrapped, a, b, viewer_height=0.6) == any(rays), (a, b)
                compared += 1
        assert compared > 500


def test_map_heightmap_modes():
    m = Map(hexagon_board(4))
    cells = list(m.grid.cells())
    m.set_elevation(np.zeros(m.grid.shape))
    centre = (4, 4)
    assert m.fov(centre, radius=2, elevation="heightmap").sum() == 19
    m.set_elevation(np.where(np.abs(np.arange(9) - 4)[None, :] == 1, 5.0, 0.0) * np.ones((9, 1)))
    view = m.fov(centre, radius=None, elevation="heightmap", viewer_height=1.0)
    assert view[4, 4] and not view[4, 7] and not view[4, 0]
    assert view.sum() < len(cells)
    assert not m.line_of_sight(centre, (7, 4), elevation="heightmap", viewer_height=6.0)  # walls next to the eye
    assert m.line_of_sight(centre, (7, 4), elevation="heightmap", viewer_height=20.0)
    assert m.fov(centre, radius=None, elevation="heightmap", viewer_height=20.0)[4, 7]
    assert m.line_of_sight(centre, (7, 4)) and m.fov(centre, radius=None)[4, 7]  # the plain rules ignore bare ground


@pytest.mark.parametrize("kwargs,err", [
    ({"elevation": "heights"}, ArgumentError), ({"elevation": 1}, ArgumentTypeError),
    ({"viewer_height": 2.0}, ArgumentError), ({"elevation": True, "target_height": 0.0}, ArgumentError),
    ({"elevation": "heightmap", "viewer_height": -1.0}, ArgumentError),
    ({"elevation": "heightmap", "target_height": float("nan")}, ArgumentError),
    ({"elevation": "heightmap", "cover_height": -0.5}, ArgumentError),
    ({"elevation": "heightmap", "viewer_height": "tall"}, ArgumentTypeError),
])
def test_bad_heightmap_options_are_refused(kwargs, err):
    m = Map(SquareGrid(5, 5))
    with pytest.raises(err):
        m.line_of_sight((0, 0), (4, 4), **kwargs)
    with pytest.raises(err):
        m.fov((0, 0), radius=3, **kwargs)
