"""The visibility polygon on hex boards against a brute-force segment-hex test."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import HexGrid, Map, StaggeredGrid, hexagon_board
from wargrid.sight.polygon import ARC_STEP, visibility_polygon

from sight_oracles import distance_to_segments, hex_segment_blocked

TOL = 1e-3


@st.composite
def scenes(draw):
    orientation, offset = draw(st.sampled_from([("flat", "odd-q"), ("flat", "even-q"), ("pointy", "odd-r"),
                                                 ("pointy", "even-r")]))
    w, h = draw(st.integers(2, 7)), draw(st.integers(2, 7))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    mask = None
    if draw(st.booleans()):
        mask = rng.random((h, w)) < 0.85
        mask[0, 0] = True
    grid = HexGrid(w, h, orientation=orientation, offset=offset, mask=mask)
    blocks = rng.random((h, w)) < draw(st.sampled_from([0.0, 0.2, 0.35]))
    cells = list(grid.cells())
    cx, cy = grid.center(cells[rng.integers(len(cells))])
    corners = grid.corner_offsets()
    where = draw(st.sampled_from(["any", "centre", "corner", "edge"]))
    if where == "any":
        a = rng.uniform(0, 2 * math.pi)
        light = (cx + 0.8 * rng.random() * math.cos(a), cy + 0.8 * rng.random() * math.sin(a))
    elif where == "centre":
        light = (cx, cy)
    else:
        k = int(rng.integers(6))
        a, b = corners[k], corners[(k + 1) % 6]
        f = 0.0 if where == "corner" else rng.uniform(0.1, 0.9)
        light = (cx + a[0] + f * (b[0] - a[0]), cy + a[1] + f * (b[1] - a[1]))
    x0, y0, x1, y1 = grid.bounds()
    light = (min(max(light[0], x0), x1), min(max(light[1], y0), y1))
    return grid, blocks, light, rng


def check(grid, blocks, light, rng, samples=250, radius=None):
    p = visibility_polygon(grid, blocks, light, radius=radius)
    x0, y0, x1, y1 = grid.bounds()
    edges = np.concatenate([p.points, np.roll(p.points, -1, axis=0)], axis=1)
    qx, qy = rng.uniform(x0, x1, samples), rng.uniform(y0, y1, samples)
    checked = 0
    for x, y, got in zip(qx.tolist(), qy.tolist(), p.contains(qx, qy).tolist()):
        if distance_to_segments(x, y, edges) < TOL:
            continue
        if radius is not None:
            d = math.hypot(x - light[0], y - light[1])
            if radius * math.cos(ARC_STEP / 2) - TOL < d < radius + TOL:
                continue
        checked += 1
        want = not hex_segment_blocked(grid, blocks, light, (x, y))
        if radius is not None:
            want = want and math.hypot(x - light[0], y - light[1]) < radius
        assert got == want, (light, (x, y))
    return p, checked


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(scenes())
def test_inside_polygon_iff_unobstructed(scene):
    grid, blocks, light, rng = scene
    check(grid, blocks, light, rng)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(scenes(), st.floats(0.5, 8.0))
def test_radius_clips_to_the_disc(scene, radius):
    grid, blocks, light, rng = scene
    p, _ = check(grid, blocks, light, rng, radius=radius)
    assert np.all(np.hypot(p.points[:, 0] - light[0], p.points[:, 1] - light[1]) <= radius + 1e-9)


def test_open_board_is_the_union_of_its_hexes():
    # nothing blocks: from the middle of a hexagon-shaped board (star-shaped around it) the lit area
    # is the board itself; a rectangle's ragged sides hide a few slivers behind the hexes off the board
    hex_area = 1.5 * math.sqrt(3)
    for g, n in [(HexGrid(1, 1), 1), (hexagon_board(3, orientation="pointy"), 37), (hexagon_board(2), 19)]:
        p = visibility_polygon(g, np.zeros(g.shape, dtype=bool), g.center(g.cell_at(0.0, 0.0) or (0, 0)) if n == 1
                               else g.center((g.width // 2, g.height // 2)))
        assert p.area == pytest.approx(n * hex_area)
    g = HexGrid(6, 5)
    p, checked = check(g, np.zeros((5, 6), dtype=bool), g.center((2, 2)), np.random.default_rng(1))
    assert 0.99 * 30 * hex_area < p.area <= 30 * hex_area + 1e-9 and checked > 150


def test_a_wall_hides_what_is_behind_it():
    g = HexGrid(7, 5)
    m = Map(g)
    m.set_terrain([(3, 1), (3, 2), (3, 3)], "mountains")
    p = m.visibility_polygon(g.center((1, 2)))
    assert p.contains(*g.center((2, 2))) and p.contains(*g.center((1, 0)))
    assert not p.contains(*g.center((5, 2))) and not p.contains(*g.center((3, 2)))
    assert not p.contains(*g.center((6, 2)))


def test_light_inside_a_blocking_hex_sees_out_of_it():
    g = HexGrid(7, 7)
    m = Map(g)
    m.set_terrain([(3, 3), (5, 3)], "forest")
    p = m.visibility_polygon(g.center((3, 3)))
    assert p.contains(*g.center((3, 3))) and p.contains(*g.center((4, 3))) and p.contains(*g.center((3, 0)))
    assert not p.contains(*g.center((6, 3)))
    blocks = m.blocks_sight().copy()
    blocks[3, 3] = False
    q = visibility_polygon(g, blocks, g.center((3, 3)))
    assert p.area == pytest.approx(q.area)
    check(g, m.blocks_sight(), (g.center((3, 3))[0] + 0.3, g.center((3, 3))[1] - 0.2), np.random.default_rng(4))


def test_light_on_a_blocking_hex_corner_and_edge():
    g = HexGrid(5, 5)
    blocks = np.zeros((5, 5), dtype=bool)
    blocks[2, 2] = True
    cx, cy = g.center((2, 2))
    c = g.corner_offsets()
    rng = np.random.default_rng(3)
    for light in [(cx + c[0][0], cy + c[0][1]), (cx + (c[1][0] + c[2][0]) / 2, cy + (c[1][1] + c[2][1]) / 2)]:
        p, checked = check(g, blocks, light, rng)
        assert checked > 100 and not p.contains(cx, cy)


def test_bounds_and_bad_input():
    g = HexGrid(6, 6)
    free = np.zeros((6, 6), dtype=bool)
    p = visibility_polygon(g, free, g.center((2, 2)), bounds=(1.0, 1.0, 5.0, 6.0))
    assert p.area == pytest.approx(4.0 * 5.0)
    with pytest.raises(ValueError, match="light"):
        visibility_polygon(g, free, (-5.0, 0.0))
    with pytest.raises(TypeError, match="HexGrid"):
        visibility_polygon(StaggeredGrid(3, 3), np.zeros((3, 3), dtype=bool), (0.5, 0.5))
