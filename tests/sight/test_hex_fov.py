"""Hex and staggered boards: the line rule, its symmetry, and LOS == FOV."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import HexGrid, Map, StaggeredGrid, hexagon_board
from wargrid.sight import field_of_view, line_of_sight
from wargrid.sight.board import prepare
from wargrid.sight.fov import fov_array
from wargrid.sight.los import los_on_board

from sight_oracles import hex_los_oracle

KINDS = [("flat", "odd-q"), ("flat", "even-q"), ("pointy", "odd-r"), ("pointy", "even-r"), ("staggered", "columns"),
         ("staggered", "rows")]


def make(kind, w, h, wrap=False):
    orient, off = kind
    if orient == "staggered":
        return StaggeredGrid(w, h, stagger=off, wrap_x=wrap)
    return HexGrid(w, h, orientation=orient, offset=off, wrap_x=wrap)


@st.composite
def boards(draw, max_side=9):
    kind = draw(st.sampled_from(KINDS))
    w = draw(st.integers(1, max_side))
    h = draw(st.integers(1, max_side))
    seed = draw(st.integers(0, 2**32 - 1))
    density = draw(st.sampled_from([0.0, 0.15, 0.3]))
    blocks = np.random.default_rng(seed).random((h, w)) < density
    return kind, blocks, (draw(st.integers(0, w - 1)), draw(st.integers(0, h - 1)))


def test_open_board_counts():
    g = HexGrid(21, 21)
    free = np.zeros((21, 21), dtype=bool)
    for r in range(6):
        assert int(field_of_view(g, free, (10, 10), radius=r).sum()) == 3 * r * (r + 1) + 1


def test_literal_shadow():
    # flat odd-q; a mountain east of the viewer hides the cell straight behind it
    m = Map(HexGrid(7, 5))
    m.set_terrain([(3, 2)], "mountains")
    v = m.fov((1, 2), radius=6)
    assert v[2, 3] and not v[2, 5]
    assert m.line_of_sight((1, 2), (3, 2)) and not m.line_of_sight((1, 2), (5, 2))


@settings(max_examples=60)
@given(boards(max_side=7))
def test_matches_exact_oracle(case):
    kind, blocks, origin = case
    h, w = blocks.shape
    g = make(kind, w, h)
    v = field_of_view(g, blocks, origin, radius=None)
    for y in range(h):
        for x in range(w):
            assert bool(v[y, x]) == hex_los_oracle(g, blocks, origin, (x, y)), (kind, origin, (x, y))


@settings(max_examples=40)
@given(boards(), st.booleans())
def test_symmetric_for_every_pair(case, wrap):
    kind, blocks, _ = case
    h, w = blocks.shape
    wrap = wrap and w >= 4 and w % 2 == 0
    g = make(kind, w, h, wrap)
    board = prepare(g, blocks)
    views = {(x, y): fov_array(board, (x, y), radius=None) for y in range(h) for x in range(w)}
    for a, va in views.items():
        for b, vb in views.items():
            assert va[b[1], b[0]] == vb[a[1], a[0]], (kind, a, b)


@settings(max_examples=40)
@given(boards(), st.booleans(), st.integers(0, 4))
def test_line_of_sight_agrees_with_fov(case, wrap, r):
    kind, blocks, origin = case
    h, w = blocks.shape
    wrap = wrap and w >= 4 and w % 2 == 0
    g = make(kind, w, h, wrap)
    board = prepare(g, blocks)
    v = fov_array(board, origin, radius=None)
    vr = fov_array(board, origin, radius=r)
    for y in range(h):
        for x in range(w):
            los = los_on_board(board, origin, (x, y))
            assert los == bool(v[y, x]), (kind, origin, (x, y))
            near = los and g.distance(origin, (x, y)) <= r
            if wrap and 2 * abs(x - origin[0]) == w:
                # two copies of b, both half the width away: seen through either
                assert not vr[y, x] or near
            else:
                assert bool(vr[y, x]) == near


@settings(max_examples=40)
@given(boards())
def test_neighbours_and_walls_lit(case):
    kind, blocks, origin = case
    h, w = blocks.shape
    g = make(kind, w, h)
    v = field_of_view(g, blocks, origin, radius=None)
    for n in g.neighbors(origin):
        assert v[n[1], n[0]]


def test_ring_of_walls_all_seen_and_nothing_beyond():
    g = hexagon_board(5)
    m = Map(g)
    centre = g.from_hex(g.to_hex((5, 5)))
    ring = [g.from_hex(g.to_hex(centre) + d) for d in _ring(3)]
    m.set_terrain(ring, "forest")
    v = m.fov(centre, radius=None)
    assert all(v[y, x] for x, y in ring)
    beyond = [c for c in g.cells() if g.distance(centre, c) > 3]
    assert not any(v[y, x] for x, y in beyond)


def _ring(r):
    from wargrid import Hex

    return Hex(0, 0).ring(r)


def test_elevation_on_hex():
    m = Map(StaggeredGrid(6, 1, stagger="rows"))
    m.set_terrain([(2, 0)], "forest")
    assert not m.line_of_sight((0, 0), (5, 0))
    elev = np.array([[3.0, 0, 1, 0, 0, 0]])
    m.set_elevation(elev)
    assert m.line_of_sight((0, 0), (5, 0)) and not m.line_of_sight((5, 0), (0, 0))


def test_bad_input():
    g = HexGrid(4, 4)
    free = np.zeros((4, 4), dtype=bool)
    with pytest.raises(IndexError, match="origin"):
        field_of_view(g, free, (4, 0), radius=2)
    with pytest.raises(ValueError, match="metric"):
        field_of_view(g, free, (0, 0), radius=2, metric="euclidean")
    with pytest.raises(IndexError, match="a"):
        line_of_sight(g, free, (-1, 0), (0, 0))
