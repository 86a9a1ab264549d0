"""Areas against slow brute-force definitions on every board kind."""

from __future__ import annotations

import math
from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import HexGrid, Map, SquareGrid, StaggeredGrid, hexagon_board
from wargrid.grids.hexes import Hex, offset_to_hex
from wargrid.tactics import area, rotate_shape

BOARDS = {
    "square4": SquareGrid(9, 8),
    "square8": SquareGrid(9, 8, diagonal=True),
    "square8-wrap": SquareGrid(7, 6, diagonal=True, wrap_x=True),
    "square4-wrap": SquareGrid(7, 6, wrap_x=True),
    "hex-odd-q": HexGrid(9, 8, orientation="flat", offset="odd-q"),
    "hex-even-q": HexGrid(9, 8, orientation="flat", offset="even-q"),
    "hex-odd-r": HexGrid(9, 8, orientation="pointy", offset="odd-r"),
    "hex-even-r": HexGrid(9, 8, orientation="pointy", offset="even-r"),
    "hex-wrap": HexGrid(8, 7, wrap_x=True),
    "hexagon": hexagon_board(4),
    "staggered-cols": StaggeredGrid(9, 8),
    "staggered-rows": StaggeredGrid(9, 8, stagger="rows", wrap_x=True),
}
IDS = list(BOARDS)


def is_hex(g):
    return g.topology.parity_mode != 0


def bfs_steps(g, origin):
    """Steps from ``origin`` to every cell over the board's own neighbours (the slow metric)."""
    dist = {origin: 0}
    q = deque([origin])
    while q:
        c = q.popleft()
        for n in g.neighbors(c):
            if n not in dist:
                dist[n] = dist[c] + 1
                q.append(n)
    return dist


def walk(g, origin, d, n):
    out, c = [], origin
    for _ in range(n):
        c = g.neighbor(c, d)
        if c is None:
            break
        out.append(c)
    return out


def rel_offsets(g, origin, cell):
    """The shortest lattice offsets from ``origin`` to ``cell`` (several when a wrap seam ties)."""
    shifts = (-g.width, 0, g.width) if g.wrap_x else (0,)
    out = []
    for s in shifts:
        if is_hex(g):
            h = offset_to_hex(cell[0] + s, cell[1], g.offset) - offset_to_hex(*origin, g.offset)
            out.append((h.q, h.r))
        else:
            out.append((cell[0] + s - origin[0], cell[1] - origin[1]))
    n = [Hex(a, b).length() if is_hex(g) else lattice_steps(g, a, b) for a, b in out]
    return [o for o, k in zip(out, n) if k == min(n)]


def lattice_steps(g, a, b):
    return max(abs(a), abs(b)) if g.topology.ndir == 8 else abs(a) + abs(b)


def hex_in_cone(h, direction, width):
    """The hex cone by cube inequalities on the base wedge (direction 0) rotated back."""
    h = Hex(*h).turn(-direction)  # a clockwise turn takes direction d to d - 1
    q, r, s = h.q, h.r, h.s
    return {
        1: q >= r >= s,
        2: q >= 0 and s <= 0,
        3: q >= s,
        4: q >= 0 or s <= 0,
        5: not (s > r > q),
        6: True,
    }[width]


def square_in_cone(v, dvec, width):
    ang = math.degrees(abs(math.atan2(v[0] * dvec[1] - v[1] * dvec[0], v[0] * dvec[0] + v[1] * dvec[1])))
    return ang <= width * 22.5 + 1e-7


def brute(g, kind, origin, direction=0, length=None, radius=None, width=None):
    steps = bfs_steps(g, origin)
    t = g.topology
    cells = set()
    if kind == "line":
        cells = set(walk(g, origin, direction, length))
    elif kind == "cross":
        every = 1 if is_hex(g) else t.ndir // 4
        for j in range(t.ndir // every):
            cells |= set(walk(g, origin, (direction + j * every) % t.ndir, length))
    elif kind in ("ring", "radius"):
        cells = {c for c, s in steps.items() if (s == radius if kind == "ring" else s <= radius)}
    else:
        for c in g.cells():
            for a, b in rel_offsets(g, origin, c):
                if kind == "circle":
                    if is_hex(g):
                        x, y = a + b / 2, b * math.sqrt(3) / 2
                    else:
                        x, y = a, b
                    if math.hypot(x, y) <= radius + 1e-9:
                        cells.add(c)
                else:  # cone
                    if is_hex(g):
                        n = Hex(a, b).length()
                        ok = 1 <= n <= length and hex_in_cone((a, b), direction, width)
                    else:
                        n = max(abs(a), abs(b)) if t.ndir == 8 else abs(a) + abs(b)
                        dvec = (int(t.dx[0, direction]), int(t.dy[0, direction]))
                        ok = 1 <= n <= length and square_in_cone((a, b), dvec, width)
                    if ok:
                        cells.add(c)
    return cells


@st.composite
def query(draw, name):
    g = BOARDS[name]
    cells = list(g.cells())
    origin = draw(st.sampled_from(cells))
    kind = draw(st.sampled_from(["line", "cross", "cone", "ring", "radius", "circle"]))
    d = draw(st.integers(0, g.ndir - 1))
    opts = {"direction": d}
    if kind in ("line", "cross", "cone"):
        opts["length"] = draw(st.integers(1, 6))
    if kind == "cone":
        opts["width"] = draw(st.integers(1, 6 if is_hex(g) else 8))
    if kind in ("ring", "radius"):
        opts["radius"] = draw(st.integers(0, 4))
    if kind == "circle":
        opts["radius"] = draw(st.sampled_from([0.0, 0.5, 1.0, 1.5, math.sqrt(3), 2.0, math.sqrt(7), 3.2]))
    return kind, origin, opts


@pytest.mark.parametrize("name", IDS)
@settings(max_examples=40)
@given(data=st.data())
def test_area_matches_brute_force(name, data):
    g = BOARDS[name]
    kind, origin, opts = data.draw(query(name))
    got = area(g, kind, origin, **opts)
    want = brute(g, kind, origin, **opts)
    # the brute force leaves the origin in ring 0 / radius / circle only
    if kind in ("line", "cross", "cone"):
        want.discard(origin)
    assert set(got.cells) == want, (kind, origin, opts)
    assert len(got.cells) == len(set(got.cells))
    assert np.array_equal(got.mask, np.isin(np.arange(g.size), [g.id(c) for c in got.cells]).reshape(g.shape))


def test_reference_values():
    sq = SquareGrid(7, 7)
    assert area(sq, "line", (3, 3), direction=1, length=2).cells == [(3, 2), (3, 1)]
    assert sorted(area(sq, "cross", (3, 3), length=1).cells) == [(2, 3), (3, 2), (3, 4), (4, 3)]
    assert sorted(area(SquareGrid(7, 7, diagonal=True), "cross", (3, 3), direction=1, length=1).cells) == [
        (2, 2), (2, 4), (4, 2), (4, 4)]
    # the 90 degree square cone: |dy| <= dx, within 2 king moves (square-8) or 2 rook steps (square-4)
    assert sorted(area(sq, "cone", (0, 3), length=2, width=2).cells) == [(1, 2), (1, 3), (1, 4), (2, 3)]
    assert sorted(area(SquareGrid(7, 7, diagonal=True), "cone", (0, 3), length=2, width=2).cells) == [(1, 2), (1, 3), (1, 4), (2, 1), (2, 2), (2, 3), (2, 4), (2, 5)]
    assert len(area(sq, "circle", (3, 3), radius=1.0)) == 5
    assert len(area(sq, "circle", (3, 3), radius=math.sqrt(2))) == 9
    h = HexGrid(11, 11)
    assert len(area(h, "radius", (5, 5), radius=3)) == 37
    assert len(area(h, "ring", (5, 5), radius=3)) == 18
    assert len(area(h, "cross", (5, 5), length=2)) == 12
    # the six 60 degree cones cover the ring, the diagonals shared by two
    ring = set(area(h, "ring", (5, 5), radius=2).cells)
    cones = [set(area(h, "cone", (5, 5), direction=d, length=2, width=1).cells) & ring for d in range(6)]
    assert set().union(*cones) == ring and sum(map(len, cones)) == 12 + 6
    # hex circle of radius sqrt(3): the hexagon of radius 1 plus the six diagonal hexes
    assert len(area(h, "circle", (5, 5), radius=math.sqrt(3))) == 13
    assert area(h, "cone", (5, 5), direction=0, length=1, width=1).cells == [h.from_hex(h.to_hex((5, 5)) + Hex(1, 0))]


@pytest.mark.parametrize("name", ["square8", "hex-odd-r", "staggered-cols"])
def test_rotation_is_a_board_symmetry(name):
    g = BOARDS[name]
    o = (4, 4)
    sizes = {len(area(g, "cone", o, direction=d, length=3, width=2)) for d in range(0, g.ndir, 2 if g.ndir == 8 else 1)}
    assert len(sizes) == 1


def test_map_masks():
    m = Map(SquareGrid(8, 8, diagonal=True))
    m.set_terrain([(4, 2), (4, 3), (4, 4)], "mountains")
    m.set_terrain([(2, 5)], "water")
    a = m.area("radius", (2, 3), radius=4)
    seen = m.area("radius", (2, 3), radius=4, mask="sight")
    fov = m.fov((2, 3), radius=None)
    assert set(seen.cells) == {c for c in a.cells if fov[c[1], c[0]]}
    ter = m.area("radius", (2, 3), radius=4, mask="terrain", unit="cavalry")
    ok = m.passable(unit="cavalry")
    assert set(ter.cells) == {c for c in seen.cells if ok[c[1], c[0]]}
    assert (2, 5) in seen and (2, 5) not in ter and (6, 3) not in seen


@pytest.mark.parametrize(
    "kind, opts, err, words",
    [
        ("blast", {"radius": 1}, ValueError, "shape"),
        ("line", {}, ValueError, "length"),
        ("line", {"length": 0}, ValueError, "length"),
        ("ring", {"radius": -1}, ValueError, "radius"),
        ("ring", {"radius": 1.5}, TypeError, "radius"),
        ("circle", {"radius": float("nan")}, ValueError, "radius"),
        ("cone", {"length": 2, "width": 0}, ValueError, "width"),
        ("cone", {"length": 2, "width": 9}, ValueError, "width"),
        ("cone", {"length": 2}, ValueError, "width"),
        ("ring", {"radius": 1, "width": 2}, ValueError, "width"),
        ("line", {"length": 2, "direction": 4}, ValueError, "direction"),
        ("line", {"length": 2, "direction": "n"}, TypeError, "direction"),
    ],
)
def test_bad_input(kind, opts, err, words):
    with pytest.raises(err, match=words):
        area(SquareGrid(5, 5), kind, (2, 2), **opts)


def test_bad_origin_and_mask():
    with pytest.raises(IndexError, match="origin"):
        area(SquareGrid(5, 5), "ring", (5, 0), radius=1)
    with pytest.raises(ValueError, match="width"):
        area(HexGrid(5, 5), "cone", (2, 2), length=2, width=7)
    with pytest.raises(ValueError, match="mask"):
        Map(SquareGrid(5, 5)).area("ring", (2, 2), radius=1, mask="fog")


@pytest.mark.parametrize(
    "grid", [SquareGrid(15, 15), SquareGrid(15, 15, diagonal=True), HexGrid(15, 15), HexGrid(15, 15, orientation="pointy"),
             StaggeredGrid(15, 15), HexGrid(16, 15, wrap_x=True)], ids=str)
@settings(max_examples=25)
@given(data=st.data())
def test_rotating_a_shape_turns_its_direction(grid, data):
    n = grid.ndir
    step = 2 if n == 8 else 1
    d = data.draw(st.integers(0, n - 1))
    k = data.draw(st.integers(-n, n).map(lambda v: v * step))
    kind = data.draw(st.sampled_from(["line", "cone", "cross"]))
    opts = {"length": data.draw(st.integers(1, 5))}
    if kind == "cone":
        opts["width"] = data.draw(st.integers(1, 6 if n == 6 else 8))
    o = (7, 7)
    a = area(grid, kind, o, direction=d, **opts)
    b = area(grid, kind, o, direction=(d + k) % n, **opts)
    assert sorted(rotate_shape(grid, a.cells, o, k)) == sorted(b.cells)


def test_rotate_shape_bad_input():
    with pytest.raises(ValueError, match="even"):
        rotate_shape(SquareGrid(5, 5, diagonal=True), [(1, 1)], (2, 2), 1)
    with pytest.raises(TypeError, match="steps"):
        rotate_shape(HexGrid(5, 5), [(1, 1)], (2, 2), 1.5)
    with pytest.raises(IndexError, match="cells\\[0\\]"):
        rotate_shape(HexGrid(5, 5), [(9, 1)], (2, 2), 1)
    assert rotate_shape(SquareGrid(5, 5), [(4, 2)], (2, 2), 2) == [(0, 2)]
    assert rotate_shape(SquareGrid(3, 3), [(2, 1)], (0, 1), 2) == []  # turned off the board
