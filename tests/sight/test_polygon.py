"""The visibility polygon against brute-force segment tests."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import Map, SquareGrid, StaggeredGrid
from wargrid.sight.polygon import ARC_STEP, visibility_polygon

from sight_oracles import distance_to_segments, segment_blocked

TOL = 1e-3


@st.composite
def scenes(draw):
    w = draw(st.integers(2, 8))
    h = draw(st.integers(2, 8))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    blocks = rng.random((h, w)) < draw(st.sampled_from([0.0, 0.2, 0.35]))
    where = draw(st.sampled_from(["any", "corner", "edge"]))
    for _ in range(50):
        lx, ly = rng.uniform(0, w), rng.uniform(0, h)
        if where == "corner":
            lx, ly = float(round(lx)), float(round(ly))
        elif where == "edge":
            lx = float(round(lx))
        tx, ty = int(math.floor(lx)), int(math.floor(ly))
        if not (lx != tx and ly != ty and tx < w and ty < h and blocks[ty, tx]):
            return blocks, (lx, ly), rng
    blocks[:] = False
    return blocks, (w / 2, h / 2), rng


def check(blocks, light, rng, box=None, samples=300):
    h, w = blocks.shape
    p = visibility_polygon(SquareGrid(w, h), blocks, light, bounds=box)
    x0, y0, x1, y1 = box or (0, 0, w, h)
    edges = np.concatenate([p.points, np.roll(p.points, -1, axis=0)], axis=1)
    qx, qy = rng.uniform(x0, x1, samples), rng.uniform(y0, y1, samples)
    inside = p.contains(qx, qy)
    checked = 0
    for q, got in zip(zip(qx.tolist(), qy.tolist()), inside.tolist()):
        if distance_to_segments(q[0], q[1], edges) < TOL:
            continue
        checked += 1
        assert got == (not segment_blocked(blocks, light, q)), (light, q)
    return p, checked


@settings(max_examples=60)
@given(scenes())
def test_inside_polygon_iff_unobstructed(scene):
    blocks, light, rng = scene
    check(blocks, light, rng)


def test_open_board_and_bounding_box():
    rng = np.random.default_rng(1)
    free = np.zeros((6, 9), dtype=bool)
    p, _ = check(free, (2.25, 3.5), rng)
    assert p.area == pytest.approx(54.0)
    p, _ = check(free, (2.25, 3.5), rng, box=(1.0, 2.0, 5.5, 6.0))
    assert p.area == pytest.approx(4.5 * 4.0)


def test_closed_room_is_the_room():
    blocks = np.ones((7, 8), dtype=bool)
    blocks[1:6, 1:7] = False
    p, checked = check(blocks, (3.3, 2.7), np.random.default_rng(2))
    assert p.area == pytest.approx(30.0) and checked > 100
    xs, ys = p.points[:, 0], p.points[:, 1]
    assert xs.min() == pytest.approx(1) and xs.max() == pytest.approx(7) and ys.min() == pytest.approx(1)


def test_light_on_a_wall_corner_and_edge():
    blocks = np.zeros((5, 5), dtype=bool)
    blocks[2, 2] = True
    rng = np.random.default_rng(3)
    for light in [(2.0, 2.0), (3.0, 3.0), (2.0, 2.5), (2.5, 3.0)]:
        p, checked = check(blocks, light, rng)
        assert checked > 100
        assert not p.contains(2.5, 2.5)


def test_pillar_literal():
    # light left of a pillar: the shadow behind it is a wedge
    blocks = np.zeros((3, 5), dtype=bool)
    blocks[1, 2] = True
    p = visibility_polygon(SquareGrid(5, 3), blocks, (0.5, 1.5))
    assert p.contains([4.5, 1.5, 0.5], [1.5, 0.5, 2.5]).tolist() == [False, True, True]
    assert p.area == pytest.approx(15 - 6)  # the shadow is the trapezoid (2,1) (5,0) (5,3) (2,2)


def test_map_method_and_bad_input():
    m = Map(SquareGrid(4, 4))
    m.set_terrain([(1, 1)], "forest")
    p = m.visibility_polygon((0.5, 0.5))
    assert not p.contains(3.5, 3.5) and p.contains(3.5, 0.5)
    with pytest.raises(ValueError, match="light"):
        m.visibility_polygon((float("nan"), 1.0))
    with pytest.raises(ValueError, match="light"):
        m.visibility_polygon((5.0, 1.0))
    with pytest.raises(TypeError, match="light"):
        m.visibility_polygon("a")
    with pytest.raises(ValueError, match="bounds"):
        m.visibility_polygon((0.5, 0.5), bounds=(2, 2, 1, 1))
    with pytest.raises(TypeError, match="SquareGrid"):
        Map(StaggeredGrid(3, 3)).visibility_polygon((0.5, 0.5))  # hex boards have their own test file


@settings(max_examples=60)
@given(scenes(), st.floats(0.3, 9.0))
def test_radius_clips_to_the_disc(scene, radius):
    """Clipped by ``radius``: inside iff inside the unclipped polygon and within the radius."""
    blocks, light, rng = scene
    h, w = blocks.shape
    full = visibility_polygon(SquareGrid(w, h), blocks, light)
    p = visibility_polygon(SquareGrid(w, h), blocks, light, radius=radius)
    assert np.all(np.hypot(p.points[:, 0] - light[0], p.points[:, 1] - light[1]) <= radius + 1e-9)
    edges = np.concatenate([full.points, np.roll(full.points, -1, axis=0)], axis=1)
    qx, qy = rng.uniform(0, w, 300), rng.uniform(0, h, 300)
    d = np.hypot(qx - light[0], qy - light[1])
    chord = radius * math.cos(ARC_STEP / 2)  # the arc is drawn as chords: a thin ring inside it is uncertain
    for x, y, dist, got, lit in zip(qx, qy, d, p.contains(qx, qy), full.contains(qx, qy)):
        if distance_to_segments(x, y, edges) < TOL or chord - TOL < dist < radius + TOL:
            continue
        assert got == (lit and dist < radius), (light, radius, (x, y))


def test_radius_literal_and_bad_values():
    open9 = np.zeros((9, 9), dtype=bool)
    p = visibility_polygon(SquareGrid(9, 9), open9, (4.5, 4.5), radius=2)
    # a regular 90-gon of circumradius 2: (90 / 2) * 4 * sin(4 degrees)
    assert math.isclose(p.area, 180 * math.sin(math.radians(4)), rel_tol=1e-9)
    assert len(p) == 90
    # a radius beyond the board changes nothing
    big = visibility_polygon(SquareGrid(9, 9), open9, (4.5, 4.5), radius=50)
    assert math.isclose(big.area, 81.0)
    for bad in (0, -1.5, float("nan")):
        with pytest.raises(ValueError, match="radius"):
            visibility_polygon(SquareGrid(9, 9), open9, (4.5, 4.5), radius=bad)
    with pytest.raises(TypeError, match="radius"):
        visibility_polygon(SquareGrid(9, 9), open9, (4.5, 4.5), radius="2")


def test_light_inside_a_blocking_tile_sees_out_of_it():
    """A viewer standing in a forest: its own tile is open, every other forest still blocks."""
    m = Map(SquareGrid(6, 6))
    m.set_terrain([(1, 1), (3, 1)], "forest")
    p = m.visibility_polygon((1.5, 1.5))
    blocks = m.blocks_sight().copy()
    blocks[1, 1] = False
    q = visibility_polygon(SquareGrid(6, 6), blocks, (1.5, 1.5))
    assert np.array_equal(p.points, q.points)
    assert p.contains(1.5, 4.5) and p.contains(2.5, 1.5) and not p.contains(4.5, 1.5)
    clipped = m.visibility_polygon((1.5, 1.5), radius=2)
    assert clipped.contains(1.5, 3.2) and not clipped.contains(1.5, 3.7)


@settings(max_examples=60)
@given(scenes(), st.floats(0.05, 0.95), st.floats(0.05, 0.95))
def test_bounds_off_the_tile_lines(scene, fx, fy):
    """A box whose sides cut through walls: the polygon still matches the brute force inside the box."""
    blocks, light, rng = scene
    h, w = blocks.shape
    box = (light[0] * fx, light[1] * fy, light[0] + (w - light[0]) * (1 - fx) + 1e-9, light[1] + (h - light[1]) * (1 - fy) + 1e-9)
    box = (box[0], box[1], min(max(box[2], light[0]), w), min(max(box[3], light[1]), h))
    if not (box[0] < box[2] and box[1] < box[3]):
        return
    check(blocks, light, rng, box=box)


def test_a_disc_that_touches_the_box_is_clipped_to_the_disc():
    """The light 0.9 from the board's edge with radius 0.9: the box the radius cuts is the square around the disc,
    its four edges tangent to the circle; each must give way to the arc (its corners were once kept)."""
    p = visibility_polygon(SquareGrid(5, 2), np.zeros((2, 5), dtype=bool), (4.0, 1.0), radius=0.9)
    assert np.hypot(p.points[:, 0] - 4.0, p.points[:, 1] - 1.0).max() <= 0.9 + 1e-9
    assert p.area == pytest.approx(math.pi * 0.81, rel=3e-3)  # the disc, drawn as chords
    assert not p.contains(4.85, 1.85) and p.contains(4.6, 1.6)


def test_contains_takes_fractions_and_names_what_is_not_a_number():
    from fractions import Fraction

    from wargrid.errors import ArgumentTypeError
    from wargrid.sight.polygon import VisibilityPolygon

    square = VisibilityPolygon((0.5, 0.5), np.array([[0.0, 0], [1, 0], [1, 1], [0, 1]]))
    assert square.contains(Fraction(1, 2), Fraction(1, 3)).item() is True  # was refused as not a number
    assert square.contains([Fraction(1, 2), Fraction(3, 2)], 0.5).tolist() == [True, False]
    for bad in (True, "0.5", [0.5, None]):
        with pytest.raises(ArgumentTypeError, match="x must be a number or an array of numbers"):
            square.contains(bad, 0.5)
