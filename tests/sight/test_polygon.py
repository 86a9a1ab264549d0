"""The visibility polygon against brute-force segment tests."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import HexGrid, Map, SquareGrid
from wargrid.sight.polygon import visibility_polygon

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
        m.visibility_polygon((1.5, 1.5))
    with pytest.raises(ValueError, match="light"):
        m.visibility_polygon((float("nan"), 1.0))
    with pytest.raises(ValueError, match="light"):
        m.visibility_polygon((5.0, 1.0))
    with pytest.raises(TypeError, match="light"):
        m.visibility_polygon("a")
    with pytest.raises(ValueError, match="bounds"):
        m.visibility_polygon((0.5, 0.5), bounds=(2, 2, 1, 1))
    with pytest.raises(TypeError, match="SquareGrid"):
        Map(HexGrid(3, 3)).visibility_polygon((0.5, 0.5))
