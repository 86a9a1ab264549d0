"""Hex coordinates and layouts.

First literal values worked out by hand from the public formulas of Red Blob
Games' hex guide (https://www.redblobgames.com/grids/hexagons/), then
hypothesis properties, then bad input.
"""

from __future__ import annotations

import math
from dataclasses import FrozenInstanceError

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid.grids.hexes import (
    DOUBLED_KINDS,
    HEX_DIAGONALS,
    HEX_DIRECTIONS,
    OFFSET_KINDS,
    Hex,
    Layout,
    axial_to_offset_array,
    doubled_to_hex,
    hex_direction,
    hex_round,
    hex_round_array,
    hex_to_doubled,
    hex_to_offset,
    offset_to_axial_array,
    offset_to_hex,
)
from wargrid.errors import ArgumentError

SQRT3 = math.sqrt(3.0)

coords = st.integers(-60, 60)
small = st.integers(-25, 25)
hexes = st.builds(Hex, coords, coords)
small_hexes = st.builds(Hex, small, small)
directions = st.integers(0, 5)
axes = st.sampled_from(["q", "r", "s"])
# fractional coordinates on a 1/4 grid: exact in binary, and they include the
# exact ties (half-integers) between two hexes
quarters = st.integers(-200, 200).map(lambda k: k / 4)
fractions = st.floats(-50, 50, allow_nan=False, allow_infinity=False)
sizes = st.floats(0.25, 40.0, allow_nan=False, allow_infinity=False)
origins = st.floats(-500.0, 500.0, allow_nan=False, allow_infinity=False)

FAST = settings(max_examples=40, deadline=None)


def cube(h: Hex) -> tuple[int, int, int]:
    return (h.q, h.r, h.s)


# =============================================================================
# reference values, by hand from the guide's formulas
# =============================================================================

class TestReference:
    def test_cube_coordinate_and_arithmetic(self):
        h = Hex(1, -3)
        assert h.s == 2
        assert tuple(h) == (1, -3, 2)
        assert Hex(1, -3) + Hex(3, -7) == Hex(4, -10)  # guide: hex_add -> Hex(4, -10, 6)
        assert Hex(1, -3) - Hex(3, -7) == Hex(-2, 4)  # guide: hex_subtract -> Hex(-2, 4, -2)
        assert Hex(1, -3) * 2 == Hex(2, -6)
        assert 3 * Hex(1, -3) == Hex(3, -9)
        assert -Hex(1, -3) == Hex(-1, 3)

    def test_directions_in_cube_terms(self):
        assert [cube(d) for d in HEX_DIRECTIONS] == [
            (1, 0, -1), (1, -1, 0), (0, -1, 1), (-1, 0, 1), (-1, 1, 0), (0, 1, -1),
        ]
        assert hex_direction(2) == Hex(0, -1)  # guide: hex_direction(2) == Hex(0, -1, 1)

    def test_diagonals_in_cube_terms(self):
        assert [cube(d) for d in HEX_DIAGONALS] == [
            (2, -1, -1), (1, -2, 1), (-1, -1, 2), (-2, 1, 1), (-1, 2, -1), (1, 1, -2),
        ]
        # a diagonal is the sum of the two directions either side of it
        for i in range(6):
            assert HEX_DIAGONALS[i] == HEX_DIRECTIONS[i] + HEX_DIRECTIONS[(i + 1) % 6]

    def test_neighbor(self):
        # guide: hex_neighbor(Hex(1, -2, 1), 2) == Hex(1, -3, 2)
        assert Hex(1, -2).neighbor(2) == Hex(1, -3)
        assert cube(Hex(1, -2).neighbor(2)) == (1, -3, 2)
        assert Hex(1, -2).neighbors() == [
            Hex(2, -2), Hex(2, -3), Hex(1, -3), Hex(0, -2), Hex(0, -1), Hex(1, -1),
        ]

    def test_diagonal(self):
        # guide: hex_diagonal_neighbor(Hex(1, -2, 1), 3) == Hex(-1, -1, 2)
        assert cube(Hex(1, -2).diagonal(3)) == (-1, -1, 2)
        assert Hex(1, -2).diagonal(0) == Hex(3, -3)
        assert Hex(1, -2).diagonal(5) == Hex(2, -1)

    def test_distance(self):
        # guide: hex_distance(Hex(3, -7, 4), Hex(0, 0, 0)) == 7
        assert Hex(3, -7).distance(Hex(0, 0)) == 7
        assert Hex(3, -7).length() == 7
        assert Hex(0, 0).distance(Hex(-2, 3)) == 3
        assert Hex(2, -5).distance(Hex(-1, 1)) == 6  # (3, -6, 3)

    def test_rotate_left_and_right(self):
        # rotate left [q, r, s] -> [-s, -q, -r]; rotate right [q, r, s] -> [-r, -s, -q]
        assert cube(Hex(1, -3).rotate_left()) == (-2, -1, 3)  # guide: Hex(-2, -1, 3)
        assert cube(Hex(1, -3).rotate_right()) == (3, -2, -1)  # guide: Hex(3, -2, -1)
        assert Hex(1, 0).rotate_left() == Hex(1, -1)
        assert Hex(1, 0).rotate_right() == Hex(0, 1)
        # turn(k): positive steps are rotate_left (counter-clockwise on screen, direction d -> d + 1)
        assert Hex(1, -3).turn(-1) == Hex(3, -2)
        assert Hex(1, -3).turn(-2) == Hex(2, 1)  # right twice: (3,-2,-1) -> (2,1,-3)
        assert Hex(1, -3).turn(1) == Hex(-2, -1)
        assert Hex(1, -3).turn(6) == Hex(1, -3)
        assert [HEX_DIRECTIONS[d].turn(1) for d in range(6)] == [HEX_DIRECTIONS[(d + 1) % 6] for d in range(6)]

    def test_turn_about_a_centre(self):
        assert Hex(2, 0).turn(-1, center=Hex(1, 0)) == Hex(1, 1)
        # (3,-1) - (1,1) = (2,-2,0); left -> (0,-2,2); + (1,1) -> (1,-1)
        assert Hex(3, -1).turn(1, center=Hex(1, 1)) == Hex(1, -1)
        assert Hex(4, 4).turn(3, center=Hex(4, 4)) == Hex(4, 4)

    def test_rotate_is_deprecated_and_keeps_its_old_sign(self):
        with pytest.warns(DeprecationWarning, match="Hex.turn"):
            assert Hex(1, -3).rotate(1) == Hex(3, -2) == Hex(1, -3).turn(-1)
        with pytest.warns(DeprecationWarning):
            assert Hex(2, 0).rotate(1, center=Hex(1, 0)) == Hex(1, 1)

    def test_turn_agrees_with_rotate_shape(self):
        from wargrid import HexGrid
        from wargrid.tactics import rotate_shape
        g = HexGrid(9, 9)
        for k in range(-6, 7):
            for cell in [(5, 4), (6, 2), (2, 7)]:
                h = g.to_hex(cell).turn(k, center=g.to_hex((4, 4)))
                assert rotate_shape(g, [cell], (4, 4), k) == [g.from_hex(h)]

    def test_reflect(self):
        # reflect q: [q, r, s] -> [q, s, r]; r: -> [s, r, q]; s: -> [r, q, s]
        assert cube(Hex(1, -3).reflect("q")) == (1, 2, -3)
        assert cube(Hex(1, -3).reflect("r")) == (2, -3, 1)
        assert cube(Hex(1, -3).reflect("s")) == (-3, 1, 2)
        # about a centre: (2,-1) - (1,1) = (1,-2,1) -> (1,1,-2) -> + (1,1) = (2,2)
        assert Hex(2, -1).reflect("q", center=Hex(1, 1)) == Hex(2, 2)

    def test_ring_order(self):
        # starts at self + direction(4) * radius, then walks directions 0..5
        assert Hex(0, 0).ring(1) == [Hex(-1, 1), Hex(0, 1), Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0)]
        assert Hex(1, -2).ring(2) == [
            Hex(-1, 0), Hex(0, 0),  # direction 0
            Hex(1, 0), Hex(2, -1),  # direction 1
            Hex(3, -2), Hex(3, -3),  # direction 2
            Hex(3, -4), Hex(2, -4),  # direction 3
            Hex(1, -4), Hex(0, -3),  # direction 4
            Hex(-1, -2), Hex(-1, -1),  # direction 5
        ]
        assert Hex(5, 5).ring(0) == [Hex(5, 5)]

    def test_spiral_and_range(self):
        assert Hex(0, 0).spiral(1) == [Hex(0, 0)] + Hex(0, 0).ring(1)
        assert Hex(0, 0).spiral(0) == [Hex(0, 0)]
        assert Hex(0, 0).range(1) == [
            Hex(-1, 0), Hex(-1, 1), Hex(0, -1), Hex(0, 0), Hex(0, 1), Hex(1, -1), Hex(1, 0),
        ]

    @pytest.mark.parametrize(
        "h, expected",
        [
            # guide: qoffset_from_cube(EVEN, Hex(1,2,-3)) == (1,3); ODD -> (1,2)
            (Hex(1, 2), {"odd-q": (1, 2), "even-q": (1, 3), "odd-r": (2, 2), "even-r": (2, 2)}),
            (Hex(1, 3), {"odd-q": (1, 3), "even-q": (1, 4), "odd-r": (2, 3), "even-r": (3, 3)}),
            (Hex(3, -1), {"odd-q": (3, 0), "even-q": (3, 1), "odd-r": (2, -1), "even-r": (3, -1)}),
            (Hex(-1, 0), {"odd-q": (-1, -1), "even-q": (-1, 0), "odd-r": (-1, 0), "even-r": (-1, 0)}),
            (Hex(0, -1), {"odd-q": (0, -1), "even-q": (0, -1), "odd-r": (-1, -1), "even-r": (0, -1)}),
            (Hex(-3, -2), {"odd-q": (-3, -4), "even-q": (-3, -3), "odd-r": (-4, -2), "even-r": (-4, -2)}),
            (Hex(0, 0), {"odd-q": (0, 0), "even-q": (0, 0), "odd-r": (0, 0), "even-r": (0, 0)}),
        ],
    )
    def test_offset_conversions(self, h, expected):
        for kind, (col, row) in expected.items():
            assert hex_to_offset(h, kind) == (col, row), kind
            assert h.to_offset(kind) == (col, row), kind
            assert offset_to_hex(col, row, kind) == h, kind
            c, r = axial_to_offset_array([h.q], [h.r], kind)
            assert (int(c[0]), int(r[0])) == (col, row), kind
            q, r = offset_to_axial_array([col], [row], kind)
            assert Hex(int(q[0]), int(r[0])) == h, kind

    def test_offset_guide_roundtrip_values(self):
        # guide: test_offset_roundtrip with a = Hex(3, 4, -7) and b = OffsetCoord(1, -3)
        for kind in OFFSET_KINDS:
            assert offset_to_hex(*hex_to_offset(Hex(3, 4), kind), kind) == Hex(3, 4)
            assert hex_to_offset(offset_to_hex(1, -3, kind), kind) == (1, -3)

    # the guide's offset neighbour tables, [parity][direction] -> (dcol, drow)
    GUIDE_OFFSET_NEIGHBOURS = {
        "odd-q": [
            [(1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (0, 1)],
            [(1, 1), (1, 0), (0, -1), (-1, 0), (-1, 1), (0, 1)],
        ],
        "even-q": [
            [(1, 1), (1, 0), (0, -1), (-1, 0), (-1, 1), (0, 1)],
            [(1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (0, 1)],
        ],
        "odd-r": [
            [(1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)],
            [(1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1)],
        ],
        "even-r": [
            [(1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1)],
            [(1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)],
        ],
    }

    @pytest.mark.parametrize("kind", OFFSET_KINDS)
    def test_offset_neighbours_match_the_guide_tables(self, kind):
        for col in range(-3, 4):
            for row in range(-3, 4):
                parity = (col if kind.endswith("q") else row) & 1
                h = offset_to_hex(col, row, kind)
                for d in range(6):
                    ncol, nrow = hex_to_offset(h.neighbor(d), kind)
                    assert (ncol - col, nrow - row) == self.GUIDE_OFFSET_NEIGHBOURS[kind][parity][d]

    def test_doubled_conversions(self):
        # guide: qdoubled_from_cube(Hex(1,2,-3)) == (1,5); rdoubled_from_cube == (4,2)
        assert hex_to_doubled(Hex(1, 2), "doubled-height") == (1, 5)
        assert hex_to_doubled(Hex(1, 2), "doubled-width") == (4, 2)
        assert doubled_to_hex(1, 5, "doubled-height") == Hex(1, 2)
        assert doubled_to_hex(4, 2, "doubled-width") == Hex(1, 2)
        assert hex_to_doubled(Hex(-2, 1), "doubled-height") == (-2, 0)
        assert hex_to_doubled(Hex(-2, 1), "doubled-width") == (-3, 1)
        assert doubled_to_hex(-2, 0, "doubled-height") == Hex(-2, 1)
        assert doubled_to_hex(-3, 1, "doubled-width") == Hex(-2, 1)

    def test_doubled_neighbours_match_the_guide_tables(self):
        tables = {
            "doubled-height": [(1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1), (0, 2)],
            "doubled-width": [(2, 0), (1, -1), (-1, -1), (-2, 0), (-1, 1), (1, 1)],
        }
        h = Hex(2, -3)
        for kind, table in tables.items():
            c, r = hex_to_doubled(h, kind)
            for d in range(6):
                nc, nr = hex_to_doubled(h.neighbor(d), kind)
                assert (nc - c, nr - r) == table[d]

    def test_layout_hex_to_pixel(self):
        flat = Layout("flat", (10.0, 15.0), (35.0, 71.0))
        pointy = Layout("pointy", (10.0, 15.0), (35.0, 71.0))
        # flat: x = 3/2 q * sx, y = (sqrt3/2 q + sqrt3 r) * sy
        assert flat.hex_to_pixel(Hex(3, 4)) == pytest.approx((35.0 + 45.0, 71.0 + 82.5 * SQRT3))
        # pointy: x = (sqrt3 q + sqrt3/2 r) * sx, y = 3/2 r * sy
        assert pointy.hex_to_pixel(Hex(3, 4)) == pytest.approx((35.0 + 50.0 * SQRT3, 71.0 + 90.0))
        assert flat.hex_to_pixel(Hex(0, 0)) == (35.0, 71.0)
        assert pointy.hex_to_pixel(Hex(-1, 2)) == pytest.approx((35.0, 71.0 + 45.0))
        # guide's test_layout: the round trip through pixels
        for lay in (flat, pointy):
            assert lay.pixel_to_hex(*lay.hex_to_pixel(Hex(3, 4))) == Hex(3, 4)
            assert lay.pixel_to_fractional(*lay.hex_to_pixel(Hex(3, 4))) == pytest.approx((3.0, 4.0))
        assert flat.pixel_to_hex(80.4, 213.0) == Hex(3, 4)
        assert flat.pixel_to_hex(35.0 + 9.0, 71.0) == Hex(0, 0)  # just inside corner 0
        assert flat.pixel_to_hex(35.0 + 11.0, 71.0) != Hex(0, 0)  # just past it

    def test_layout_corners(self):
        flat = Layout("flat", (10.0, 15.0), (35.0, 71.0))
        pointy = Layout("pointy", (10.0, 15.0), (35.0, 71.0))
        h = 7.5 * SQRT3  # 15 * sin(60 degrees)
        w = 5.0 * SQRT3  # 10 * cos(30 degrees)
        expected_flat = [(45, 71), (40, 71 + h), (30, 71 + h), (25, 71), (30, 71 - h), (40, 71 - h)]
        expected_pointy = [
            (35 + w, 78.5), (35, 86), (35 - w, 78.5), (35 - w, 63.5), (35, 56), (35 + w, 63.5),
        ]
        for got, want in zip(flat.corners(Hex(0, 0)), expected_flat, strict=True):
            assert got == pytest.approx(want, abs=1e-9)
        for got, want in zip(pointy.corners(Hex(0, 0)), expected_pointy, strict=True):
            assert got == pytest.approx(want, abs=1e-9)
        # corners of another hex are the same offsets about its centre
        cx, cy = flat.hex_to_pixel(Hex(3, 4))
        for got, (dx, dy) in zip(flat.corners(Hex(3, 4)), [(x - 35, y - 71) for x, y in expected_flat]):
            assert got == pytest.approx((cx + dx, cy + dy), abs=1e-9)

    def test_hex_round_reference(self):
        # guide: hex_round(hex_lerp(Hex(0,0,0), Hex(10,-20,10), 0.5)) == Hex(5,-10,5)
        assert hex_round(5.0, -10.0) == Hex(5, -10)
        a, b, c = (0.0, 0.0), (1.0, -1.0), (0.0, -1.0)
        # guide: lerp(a, b, 0.499) rounds to a, lerp(a, b, 0.501) rounds to b
        assert hex_round(0.499, -0.499) == Hex(0, 0)
        assert hex_round(0.501, -0.501) == Hex(1, -1)
        # guide: a*0.4 + b*0.3 + c*0.3 -> a; a*0.3 + b*0.3 + c*0.4 -> c
        q = a[0] * 0.4 + b[0] * 0.3 + c[0] * 0.3
        r = a[1] * 0.4 + b[1] * 0.3 + c[1] * 0.3
        assert hex_round(q, r) == Hex(0, 0)
        q = a[0] * 0.3 + b[0] * 0.3 + c[0] * 0.4
        r = a[1] * 0.3 + b[1] * 0.3 + c[1] * 0.4
        assert hex_round(q, r) == Hex(0, -1)
        assert hex_round(0.6, 0.3) == Hex(1, 0)
        assert hex_round(-0.4, 1.2) == Hex(0, 1)

    @pytest.mark.parametrize(
        "q, r, expected",
        [
            # exactly on the edge between two hexes: the larger q wins, then the larger r,
            # in the same way wherever the edge is
            (0.5, 0.0, Hex(1, 0)),  # between (0,0) and (1,0)
            (1.5, 0.0, Hex(2, 0)),  # between (1,0) and (2,0)
            (-0.5, 0.0, Hex(0, 0)),  # between (-1,0) and (0,0)
            (0.5, -0.5, Hex(1, -1)),  # between (0,0) and (1,-1)
            (2.5, -1.5, Hex(3, -2)),  # between (2,-1) and (3,-2)
            (-0.5, 0.5, Hex(0, 0)),  # between (-1,1) and (0,0)
            (0.0, 0.5, Hex(0, 1)),  # between (0,0) and (0,1): same q, larger r
            (0.0, -1.5, Hex(0, -1)),  # between (0,-2) and (0,-1)
            (0.5, 0.5, Hex(1, 0)),  # between (1,0) and (0,1)
        ],
    )
    def test_hex_round_tie_break(self, q, r, expected):
        assert hex_round(q, r) == expected
        rq, rr = hex_round_array([q], [r])
        assert Hex(int(rq[0]), int(rr[0])) == expected

    def test_line_to_reference(self):
        # guide: hex_linedraw(Hex(0,0,0), Hex(1,-5,4))
        assert Hex(0, 0).line_to(Hex(1, -5)) == [
            Hex(0, 0), Hex(0, -1), Hex(0, -2), Hex(1, -3), Hex(1, -4), Hex(1, -5),
        ]
        assert Hex(2, 2).line_to(Hex(2, 2)) == [Hex(2, 2)]
        assert Hex(0, 0).line_to(Hex(3, 0)) == [Hex(0, 0), Hex(1, 0), Hex(2, 0), Hex(3, 0)]

    @pytest.mark.parametrize(
        "a, b, expected_middle",
        [
            # the midpoint lies exactly on an edge; the documented nudge sends it to the
            # hex with the larger q, then the larger r -- for each of the three edge kinds
            (Hex(0, 0), Hex(1, -2), Hex(1, -1)),  # tie (0,-1) | (1,-1)
            (Hex(0, 0), Hex(1, 1), Hex(1, 0)),  # tie (0,1) | (1,0)
            (Hex(0, 0), Hex(2, -1), Hex(1, 0)),  # tie (1,-1) | (1,0)
            (Hex(1, 1), Hex(0, 0), Hex(1, 0)),  # same ties, walked the other way
            (Hex(1, -2), Hex(0, 0), Hex(1, -1)),
            (Hex(2, -1), Hex(0, 0), Hex(1, 0)),
        ],
    )
    def test_line_to_tie_break(self, a, b, expected_middle):
        line = a.line_to(b)
        assert line == [a, expected_middle, b]

    def test_hex_is_a_frozen_ordered_value(self):
        h = Hex(1, 2)
        with pytest.raises(FrozenInstanceError):
            h.q = 3  # type: ignore[misc]
        assert Hex(np.int64(1), np.int32(2)) == h
        assert type(Hex(np.int64(1), 2).q) is int
        assert hash(Hex(1, 2)) == hash(Hex(1, 2))
        assert sorted([Hex(1, 0), Hex(0, 5), Hex(0, 1)]) == [Hex(0, 1), Hex(0, 5), Hex(1, 0)]
        assert repr(h) == "Hex(q=1, r=2)"


# =============================================================================
# properties
# =============================================================================

class TestMetricProperties:
    @FAST
    @given(hexes, hexes, hexes)
    def test_distance_is_a_metric(self, a, b, c):
        assert a.distance(b) == b.distance(a)
        assert a.distance(c) <= a.distance(b) + b.distance(c)
        assert (a.distance(b) == 0) == (a == b)
        assert a.distance(b) == (a - b).length() == max(abs(v) for v in cube(a - b))

    @FAST
    @given(hexes, hexes, hexes)
    def test_distance_is_translation_invariant(self, a, b, t):
        assert (a + t).distance(b + t) == a.distance(b)

    @FAST
    @given(hexes)
    def test_neighbours_at_distance_one(self, h):
        ns = h.neighbors()
        assert len(set(ns)) == 6
        for d, n in enumerate(ns):
            assert n == h.neighbor(d) == h + hex_direction(d)
            assert h.distance(n) == 1
            assert n.s == -n.q - n.r
        for d in range(6):
            assert h.distance(h.diagonal(d)) == 2


class TestRotationAndReflection:
    @FAST
    @given(hexes, small_hexes)
    def test_six_rotations_are_the_identity(self, h, c):
        r = h
        for _ in range(6):
            r = r.rotate_right()
        assert r == h
        left = h
        for _ in range(6):
            left = left.rotate_left()
        assert left == h
        assert h.rotate_left().rotate_right() == h
        assert h.turn(6, center=c) == h
        r = h
        for _ in range(6):
            r = r.turn(1, center=c)
        assert r == h

    @FAST
    @given(hexes, hexes, small_hexes, st.integers(-12, 12))
    def test_rotation_is_an_isometry_about_its_centre(self, a, b, c, k):
        assert a.turn(k, center=c).distance(c) == a.distance(c)
        assert a.turn(k, center=c).distance(b.turn(k, center=c)) == a.distance(b)
        assert a.turn(k, center=c) == a.turn(k + 6, center=c)
        assert a.turn(-k, center=c).turn(k, center=c) == a
        assert a.turn(-1) == a.rotate_right()
        assert a.turn(1) == a.rotate_left()

    @FAST
    @given(hexes, small_hexes, axes)
    def test_reflecting_twice_is_the_identity(self, h, c, axis):
        m = h.reflect(axis, center=c)
        assert m.reflect(axis, center=c) == h
        assert h.reflect(axis).reflect(axis) == h
        assert m.distance(c) == h.distance(c)
        i = "qrs".index(axis)
        assert cube(m - c)[i] == cube(h - c)[i]


class TestShapes:
    @settings(max_examples=25, deadline=None)
    @given(small_hexes, st.integers(1, 9))
    def test_ring(self, c, k):
        ring = c.ring(k)
        assert len(ring) == 6 * k
        assert len(set(ring)) == 6 * k
        assert all(c.distance(h) == k for h in ring)
        assert ring[0] == c + hex_direction(4) * k
        for i in range(len(ring)):
            assert ring[i].distance(ring[(i + 1) % len(ring)]) == 1

    @settings(max_examples=25, deadline=None)
    @given(small_hexes, st.integers(0, 8))
    def test_spiral_and_range(self, c, k):
        sp = c.spiral(k)
        assert len(sp) == 3 * k * (k + 1) + 1
        assert len(set(sp)) == len(sp)
        assert sp[0] == c
        rng = c.range(k)
        assert set(rng) == set(sp)
        assert rng == sorted(rng)
        assert all(c.distance(h) <= k for h in rng)
        # distances along the spiral never decrease
        ds = [c.distance(h) for h in sp]
        assert ds == sorted(ds)

    @FAST
    @given(small_hexes, small_hexes)
    def test_line(self, a, b):
        line = a.line_to(b)
        assert len(line) == a.distance(b) + 1
        assert line[0] == a and line[-1] == b
        for p, n in zip(line, line[1:]):
            assert p.distance(n) == 1
        # ties fall the same way whichever end the line starts from
        assert b.line_to(a) == line[::-1]

    @FAST
    @given(small_hexes, small_hexes, small_hexes)
    def test_line_is_translation_invariant(self, a, b, t):
        assert [h + t for h in a.line_to(b)] == (a + t).line_to(b + t)


class TestRounding:
    @FAST
    @given(quarters, quarters, st.integers(-40, 40), st.integers(-40, 40))
    def test_hex_round_commutes_with_whole_hex_moves(self, q, r, a, b):
        assert hex_round(q + a, r + b) == hex_round(q, r) + Hex(a, b)

    @FAST
    @given(hexes, directions)
    def test_edge_midpoint_goes_to_the_larger_hex(self, h, d):
        n = h.neighbor(d)
        mid = hex_round((h.q + n.q) / 2, (h.r + n.r) / 2)
        assert mid == max(h, n)

    @FAST
    @given(fractions, fractions)
    def test_hex_round_is_the_nearest_centre(self, q, r):
        h = hex_round(q, r)
        lay = Layout("pointy", (1.0, 1.0))

        def d2(hh: Hex) -> float:
            x, y = lay.hex_to_pixel(hh)
            px, py = lay.hex_to_pixel_array(q, r)
            return (x - float(px)) ** 2 + (y - float(py)) ** 2

        assert all(d2(h) <= d2(n) + 1e-9 for n in h.neighbors())

    @FAST
    @given(hexes)
    def test_whole_coordinates_round_to_themselves(self, h):
        assert hex_round(float(h.q), float(h.r)) == h
        assert hex_round(h.q, h.r) == h

    @FAST
    @given(st.lists(st.tuples(st.one_of(fractions, quarters), st.one_of(fractions, quarters)), min_size=1, max_size=20))
    def test_scalar_and_vectorised_rounding_agree(self, pts):
        qs = np.array([p[0] for p in pts])
        rs = np.array([p[1] for p in pts])
        aq, ar = hex_round_array(qs, rs)
        assert aq.dtype == np.int64 and ar.dtype == np.int64
        assert [Hex(int(a), int(b)) for a, b in zip(aq, ar)] == [hex_round(q, r) for q, r in pts]


class TestCoordinateRoundTrips:
    @FAST
    @given(hexes, st.sampled_from(OFFSET_KINDS))
    def test_offset_round_trip_from_hex(self, h, kind):
        assert offset_to_hex(*hex_to_offset(h, kind), kind) == h

    @FAST
    @given(coords, coords, st.sampled_from(OFFSET_KINDS))
    def test_offset_round_trip_from_offset(self, col, row, kind):
        assert hex_to_offset(offset_to_hex(col, row, kind), kind) == (col, row)

    @FAST
    @given(st.lists(st.tuples(coords, coords), min_size=1, max_size=30), st.sampled_from(OFFSET_KINDS))
    def test_vectorised_offsets_agree(self, pairs, kind):
        a = np.array([p[0] for p in pairs])
        b = np.array([p[1] for p in pairs])
        q, r = offset_to_axial_array(a, b, kind)
        assert [Hex(int(x), int(y)) for x, y in zip(q, r)] == [offset_to_hex(x, y, kind) for x, y in pairs]
        c, rw = axial_to_offset_array(a, b, kind)
        assert list(zip(c.tolist(), rw.tolist())) == [hex_to_offset(Hex(x, y), kind) for x, y in pairs]
        c2, r2 = axial_to_offset_array(q, r, kind)
        assert np.array_equal(c2, a) and np.array_equal(r2, b)
        # unsigned input and broadcasting
        q3, r3 = offset_to_axial_array(np.arange(4, dtype=np.uint8), 2, kind)
        assert q3.shape == r3.shape == (4,)

    @FAST
    @given(hexes, st.sampled_from(DOUBLED_KINDS))
    def test_doubled_round_trip(self, h, kind):
        col, row = hex_to_doubled(h, kind)
        assert (col + row) % 2 == 0
        assert doubled_to_hex(col, row, kind) == h

    @FAST
    @given(coords, coords, st.sampled_from(DOUBLED_KINDS))
    def test_doubled_round_trip_from_doubled(self, col, row, kind):
        if (col + row) % 2:
            row += 1
        assert hex_to_doubled(doubled_to_hex(col, row, kind), kind) == (col, row)

    @FAST
    @given(hexes, st.sampled_from(["flat", "pointy"]), sizes, sizes, origins, origins)
    def test_pixel_round_trip(self, h, orientation, sx, sy, ox, oy):
        lay = Layout(orientation, (sx, sy), (ox, oy))
        x, y = lay.hex_to_pixel(h)
        assert lay.pixel_to_hex(x, y) == h
        fq, fr = lay.pixel_to_fractional(x, y)
        assert fq == pytest.approx(h.q, abs=1e-6) and fr == pytest.approx(h.r, abs=1e-6)
        # points well inside the hex, towards each corner, stay in the hex
        for cx, cy in lay.corners(h):
            assert lay.pixel_to_hex(x + 0.9 * (cx - x), y + 0.9 * (cy - y)) == h
        # and just past a corner they do not
        for cx, cy in lay.corners(h):
            assert lay.pixel_to_hex(x + 1.1 * (cx - x), y + 1.1 * (cy - y)) != h

    @FAST
    @given(
        st.lists(st.tuples(coords, coords), min_size=1, max_size=20),
        st.sampled_from(["flat", "pointy"]), sizes, sizes, origins, origins,
    )
    def test_vectorised_pixels_agree(self, pairs, orientation, sx, sy, ox, oy):
        lay = Layout(orientation, (sx, sy), (ox, oy))
        q = np.array([p[0] for p in pairs])
        r = np.array([p[1] for p in pairs])
        xs, ys = lay.hex_to_pixel_array(q, r)
        scalar = [lay.hex_to_pixel(Hex(a, b)) for a, b in pairs]
        assert np.allclose(xs, [p[0] for p in scalar]) and np.allclose(ys, [p[1] for p in scalar])
        bq, br = lay.pixel_to_hex_array(xs, ys)
        assert np.array_equal(bq, q) and np.array_equal(br, r)
        # off-centre points: scalar and vectorised agree
        jx, jy = xs + 0.37 * sx, ys - 0.41 * sy
        vq, vr = lay.pixel_to_hex_array(jx, jy)
        assert [Hex(int(a), int(b)) for a, b in zip(vq, vr)] == [
            lay.pixel_to_hex(float(a), float(b)) for a, b in zip(jx, jy)
        ]


# =============================================================================
# bad input
# =============================================================================

class TestBadInput:
    @pytest.mark.parametrize(
        "q, r, name",
        [(1.0, 0, "q"), (0, 2.5, "r"), ("1", 0, "q"), (0, "2", "r"), (True, 0, "q"), (0, False, "r"),
         (None, 0, "q"), (np.float64(1.0), 0, "q"), (0, np.bool_(True), "r")],
    )
    def test_hex_needs_integers(self, q, r, name):
        with pytest.raises(TypeError, match=rf"^{name} must be an integer"):
            Hex(q, r)

    def test_hex_methods_check_their_arguments(self):
        h = Hex(1, -2)
        with pytest.raises(TypeError, match="k must be an integer"):
            h * 1.5
        with pytest.raises(ValueError, match="direction must be in 0..5"):
            h.neighbor(6)
        with pytest.raises(ValueError, match="direction must be in 0..5"):
            h.neighbor(-1)
        with pytest.raises(TypeError, match="direction must be an integer"):
            h.neighbor(1.0)
        with pytest.raises(TypeError, match="direction must be an integer"):
            hex_direction("0")
        with pytest.raises(ValueError, match="direction must be in 0..5"):
            h.diagonal(6)
        with pytest.raises(ValueError, match="radius must be >= 0"):
            h.ring(-1)
        with pytest.raises(TypeError, match="radius must be an integer"):
            h.spiral(1.5)
        with pytest.raises(ValueError, match="radius must be >= 0"):
            h.range(-2)
        with pytest.raises(TypeError, match="steps must be an integer"):
            h.turn(0.5)
        with pytest.raises(TypeError, match="center must be a Hex"):
            h.turn(1, center=(0, 0))
        with pytest.raises(ValueError, match="axis must be one of"):
            h.reflect("x")
        with pytest.raises(ValueError, match="axis must be one of"):
            h.reflect(1)
        with pytest.raises(TypeError, match="center must be a Hex"):
            h.reflect("q", center=5)
        with pytest.raises(TypeError, match="other must be a Hex"):
            h.distance((0, 0))
        with pytest.raises(TypeError, match="other must be a Hex"):
            h.line_to(None)

    def test_hex_round_checks_its_arguments(self):
        with pytest.raises(TypeError, match="q must be a real number"):
            hex_round("1", 0)
        with pytest.raises(TypeError, match="q must be a real number"):
            hex_round(True, 0)
        with pytest.raises(ValueError, match="r must be finite"):
            hex_round(0, float("nan"))
        with pytest.raises(ValueError, match="q must be finite"):
            hex_round(float("inf"), 0)
        with pytest.raises(ValueError, match="q and r must be finite"):
            hex_round_array([float("nan")], [0.0])

    def test_offset_and_doubled_check_their_arguments(self):
        with pytest.raises(ValueError, match="offset must be one of 'odd-q', 'even-q', 'odd-r', 'even-r'"):
            hex_to_offset(Hex(0, 0), "odd")
        with pytest.raises(ValueError, match="offset must be one of"):
            offset_to_hex(0, 0, "doubled-height")
        with pytest.raises(TypeError, match="hex must be a Hex"):
            hex_to_offset((0, 0), "odd-q")
        with pytest.raises(TypeError, match="col must be an integer"):
            offset_to_hex(1.0, 0, "odd-q")
        with pytest.raises(TypeError, match="row must be an integer"):
            offset_to_hex(0, "0", "odd-q")
        with pytest.raises(ValueError, match="doubled must be one of 'doubled-height', 'doubled-width'"):
            hex_to_doubled(Hex(0, 0), "odd-q")
        with pytest.raises(ValueError, match="doubled must be one of"):
            doubled_to_hex(0, 0, "even-q")
        with pytest.raises(ValueError, match=r"col \+ row even"):
            doubled_to_hex(1, 2, "doubled-width")
        with pytest.raises(TypeError, match="col must be an integer"):
            doubled_to_hex(1.0, 1, "doubled-height")
        with pytest.raises(TypeError, match="hex must be a Hex"):
            hex_to_doubled("h", "doubled-height")

    def test_vectorised_forms_check_their_arguments(self):
        with pytest.raises(TypeError, match="cols must be an integer array"):
            offset_to_axial_array([0.5], [0], "odd-q")
        with pytest.raises(TypeError, match="rows must be an integer array"):
            offset_to_axial_array([0], [0.5], "odd-q")
        with pytest.raises(TypeError, match="r must be an integer array"):
            axial_to_offset_array([0], [1.5], "odd-r")
        with pytest.raises(ValueError, match="offset must be one of"):
            axial_to_offset_array([0], [1], "odd-s")

    def test_layout_checks_its_arguments(self):
        with pytest.raises(ValueError, match="orientation must be one of 'pointy', 'flat'"):
            Layout("hex", (1, 1))
        with pytest.raises(ValueError, match="size must be positive"):
            Layout("flat", (0, 1))
        with pytest.raises(ValueError, match="size must be positive"):
            Layout("pointy", (1, -2))
        with pytest.raises(TypeError, match="size must be a pair"):
            Layout("flat", 5)
        with pytest.raises(TypeError, match=r"origin\[0\] must be a real number"):
            Layout("flat", (1, 1), ("a", 0))
        with pytest.raises(ValueError, match=r"origin\[1\] must be finite"):
            Layout("flat", (1, 1), (0, float("nan")))
        lay = Layout("flat", (1, 1))
        with pytest.raises(TypeError, match="hex must be a Hex"):
            lay.hex_to_pixel((0, 0))
        with pytest.raises(TypeError, match="x must be a real number"):
            lay.pixel_to_hex("1", 0)
        with pytest.raises(ValueError, match="y must be finite"):
            lay.pixel_to_hex(0, float("inf"))


@pytest.mark.parametrize("method", ["ring_array", "spiral_array"])
@pytest.mark.parametrize("h", [Hex(2**63 - 1, 0), Hex(0, -(2**63) + 1), Hex(10**20, 0)])
def test_array_shapes_refuse_hexes_past_int64(method, h):
    # numpy wrapped 2**63 - 1 + 1 round to -2**63 silently; 10**20 raised 'Python int too large to convert to C long'
    with pytest.raises(ArgumentError, match=f"{method} gives int64 arrays.*use ring\\(\\) or spiral\\(\\)"):
        getattr(h, method)(1)
    assert Hex(2**63 - 2, 0).ring_array(1)[0].max() == 2**63 - 1


@pytest.mark.parametrize("q", [1e300, -1e19, 2.0**62])
def test_hex_round_array_refuses_values_past_int64(q):
    # astype(int64) gave -2**63 with a RuntimeWarning
    with pytest.raises(ArgumentError, match=r"within \+-2\*\*62"):
        hex_round_array(np.array([q]), np.array([0.0]))


def test_offset_arrays_refuse_uint64_past_int64():
    with pytest.raises(ArgumentError, match="cols must fit int64"):
        offset_to_axial_array(np.array([2**63], dtype=np.uint64), np.array([0], dtype=np.uint64), "odd-q")


@pytest.mark.parametrize("call, match", [
    (lambda: axial_to_offset_array(np.array([1, 2]), np.array([0, 1, 2]), "odd-q"), r"q and r must have shapes that broadcast"),
    (lambda: offset_to_axial_array(np.array([1, 2]), np.array([0, 1, 2]), "odd-q"), "cols and rows must have shapes"),
    (lambda: hex_round_array(np.ones(2), np.ones(3)), "q and r must have shapes that broadcast"),
    (lambda: Layout("flat", (1, 1)).pixel_to_hex_array(np.ones(2), np.ones(3)), "x and y must have shapes"),
    (lambda: Layout("flat", (1, 1)).hex_to_pixel_array(np.ones(2), np.ones(3)), "q and r must have shapes"),
])
def test_array_forms_name_coordinates_that_do_not_broadcast(call, match):
    # numpy's 'shape mismatch ... arg 0 with shape (2,) and arg 1 with shape (3,)'
    with pytest.raises(ArgumentError, match=match):
        call()


def test_array_forms_name_coordinates_that_are_not_numbers():
    from wargrid.errors import ArgumentTypeError

    with pytest.raises(ArgumentTypeError, match="x must be a number or an array of numbers, got dtype <U1"):
        Layout("flat", (1, 1)).pixel_to_hex_array(np.array(["a"]), np.ones(1))  # "could not convert string to float"
    with pytest.raises(ArgumentTypeError, match="q must be a number or an array of numbers, got dtype object"):
        hex_round_array(np.array(["a", 1], dtype=object), np.zeros(2))


def test_array_forms_take_numbers_held_as_objects():
    # an object array of numbers (Fractions, Decimals, ints) was refused as 'got dtype object' by the check
    from decimal import Decimal
    from fractions import Fraction

    q, r = hex_round_array([Fraction(1, 2), Fraction(7, 3)], [0, 1])
    q1, r1 = hex_round_array([0.5, 7 / 3], [0, 1])
    assert q.tolist() == q1.tolist() and r.tolist() == r1.tolist()
    lay = Layout("flat", (1, 1))
    x, y = lay.hex_to_pixel_array(np.array([1, 2], dtype=object), [Decimal("0.5"), 0])
    x1, y1 = lay.hex_to_pixel_array([1, 2], [0.5, 0])
    assert np.allclose(x, x1) and np.allclose(y, y1)
    q2, _ = lay.pixel_to_hex_array(np.array([Fraction(3, 2)], dtype=object), [0])
    assert q2.tolist() == lay.pixel_to_hex_array([1.5], [0])[0].tolist()


def test_array_forms_refuse_none_held_as_object():
    # numpy turns None into NaN when it casts an object array to float, so a hole in the data passed unseen
    from wargrid.errors import ArgumentTypeError

    lay = Layout("flat", (1, 1))
    with pytest.raises(ArgumentTypeError, match="q must be a number or an array of numbers, got None"):
        lay.hex_to_pixel_array(np.array([1, None], dtype=object), [0, 0])
    with pytest.raises(ArgumentTypeError, match="y must be a number or an array of numbers, got None"):
        lay.pixel_to_hex_array([0.0], np.array([None], dtype=object))
    with pytest.raises(ArgumentTypeError, match="r must be a number"):
        hex_round_array([0.5], [None])
