"""Monaco's facing-edge list: the lit faces of blocking tiles, linked into outlines."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import HexGrid, SquareGrid
from wargrid.sight import facing_edges


def test_one_block_two_faces_one_corner():
    walls = np.zeros((5, 5), dtype=bool)
    walls[2, 2] = True
    e = facing_edges(SquareGrid(5, 5), walls, (0.5, 0.5))
    # the top face runs from (3, 2) to the corner (2, 2), the left face from it down to (2, 3)
    assert e.segments.tolist() == [[3, 2, 2, 2], [2, 2, 2, 3]]
    assert e.prev.tolist() == [-1, 0] and e.next.tolist() == [1, -1]


def test_a_wall_is_one_segment_and_a_room_one_ring():
    walls = np.zeros((6, 6), dtype=bool)
    walls[3, 1:5] = True  # a wall of four tiles below the light: one face, two loose ends
    e = facing_edges(SquareGrid(6, 6), walls, (2.5, 1.5))
    assert e.segments.tolist() == [[5, 3, 1, 3]] and e.prev.tolist() == [-1] and e.next.tolist() == [-1]
    room = np.ones((5, 5), dtype=bool)
    room[1:4, 1:4] = False
    e = facing_edges(SquareGrid(5, 5), room, (2.5, 2.5))
    assert len(e) == 4 and sorted(e.next.tolist()) == [0, 1, 2, 3]  # a closed outline: no loose end
    i, ring = 0, []
    for _ in range(4):
        ring.append(tuple(e.segments[i, :2]))
        i = e.next[i]
    assert i == 0 and set(ring) == {(1.0, 1.0), (4.0, 1.0), (4.0, 4.0), (1.0, 4.0)}


def naive_faces(walls, lx, ly):
    """Every unit edge between a blocking and an open tile with the light strictly on the open side."""
    h, w = walls.shape
    out = set()
    for y in range(h):
        for x in range(w):
            if not walls[y, x]:
                continue
            for nx, ny, edge, open_side in ((x, y - 1, ((x, y), (x + 1, y)), ly < y),
                                            (x, y + 1, ((x, y + 1), (x + 1, y + 1)), ly > y + 1),
                                            (x - 1, y, ((x, y), (x, y + 1)), lx < x),
                                            (x + 1, y, ((x + 1, y), (x + 1, y + 1)), lx > x + 1)):
                inside = 0 <= nx < w and 0 <= ny < h
                if open_side and (not inside or not walls[ny, nx]):
                    out.add(frozenset(edge))
    return out


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.05, 5.95), st.floats(0.05, 5.95))
def test_against_the_naive_edge_list(seed, lx, ly):
    walls = np.random.default_rng(seed).random((6, 6)) < 0.3
    walls[int(ly), int(lx)] = False
    e = facing_edges(SquareGrid(6, 6), walls, (lx, ly))
    got = set()
    for x0, y0, x1, y1 in e.segments.tolist():
        assert (x0 - lx) * (y1 - ly) - (y0 - ly) * (x1 - lx) > 0  # clockwise as seen from the light
        n = int(abs(x1 - x0) + abs(y1 - y0))
        dx, dy = (x1 - x0) / n, (y1 - y0) / n
        for k in range(n):
            got.add(frozenset({(x0 + k * dx, y0 + k * dy), (x0 + (k + 1) * dx, y0 + (k + 1) * dy)}))
    assert got == naive_faces(walls, lx, ly)
    for i, j in enumerate(e.next.tolist()):
        if j >= 0:
            assert e.segments[j, :2].tolist() == e.segments[i, 2:].tolist() and e.prev[j] == i


def test_bad_input():
    with pytest.raises(TypeError, match="SquareGrid"):
        facing_edges(HexGrid(3, 3), np.zeros((3, 3), dtype=bool), (0.5, 0.5))
    with pytest.raises(ValueError, match="inside the bounds"):
        facing_edges(SquareGrid(3, 3), np.zeros((3, 3), dtype=bool), (5.0, 0.5))
