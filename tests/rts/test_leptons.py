"""Lepton coordinates: literal values, round trips, the octagonal distance against its formula."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from wargrid import rts
from wargrid.rts import (
    Lepton,
    cell_to_lepton,
    cells_to_leptons,
    lepton_to_cell,
    leptons_to_cells,
    octagonal_distance,
    octagonal_distances,
    pack_cell,
    unpack_cell,
)

coord = st.integers(-100_000, 100_000)
point = st.tuples(coord, coord)


def test_literal_values():
    assert cell_to_lepton((0, 0)) == Lepton(128, 128)
    assert cell_to_lepton((3, 2)) == (3 * 256 + 128, 2 * 256 + 128)
    assert lepton_to_cell((256, 511)) == (1, 1)
    assert pack_cell((3, 2), 10) == 23 and unpack_cell(23, 10) == (3, 2)
    assert octagonal_distance((0, 0), (100, 40)) == 120
    assert octagonal_distance((0, 0), (-41, 100)) == 120
    assert rts.LEPTONS_PER_CELL == 256


@given(point, point)
def test_octagonal_matches_formula(a, b):
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    d = octagonal_distance(a, b)
    assert d == max(dx, dy) + min(dx, dy) // 2
    assert d == octagonal_distance(b, a)
    assert isinstance(d, int)
    # within the known bounds of the straight-line distance
    e = float(np.hypot(dx, dy))
    assert e - 1 <= d <= 1.12 * e + 1
    assert octagonal_distances(np.array([a]), np.array([b])).tolist() == [d]


@given(st.tuples(st.integers(-500, 500), st.integers(-500, 500)), st.sampled_from([2, 16, 256, 1024]))
def test_cell_lepton_round_trip(cell, n):
    p = cell_to_lepton(cell, leptons=n)
    assert lepton_to_cell(p, leptons=n) == cell
    # every lepton of the cell maps back to it
    assert lepton_to_cell((cell[0] * n, cell[1] * n + n - 1), leptons=n) == cell
    assert cells_to_leptons(np.array([cell]), leptons=n).tolist() == [list(p)]
    assert leptons_to_cells(np.array([p]), leptons=n).tolist() == [list(cell)]


@given(st.integers(1, 50), st.integers(0, 10_000))
def test_pack_round_trip(width, number):
    assert pack_cell(unpack_cell(number, width), width) == number


@pytest.mark.parametrize(
    "call, err, words",
    [
        (lambda: cell_to_lepton((0, 0), leptons=255), ValueError, "leptons must be even"),
        (lambda: cell_to_lepton((0, 0), leptons=0), ValueError, "leptons"),
        (lambda: cell_to_lepton((0.5, 0)), TypeError, "cell[0] (x)"),
        (lambda: octagonal_distance((0, 0), "ab"), TypeError, "b[0] (x)"),
        (lambda: octagonal_distance((0, 0), (1,)), TypeError, "b must be an (x, y) pair"),
        (lambda: pack_cell((10, 0), 10), IndexError, "off the board"),
        (lambda: unpack_cell(-1, 10), IndexError, "number"),
        (lambda: octagonal_distances(np.zeros((2, 2)), np.zeros(2, dtype=int)), TypeError, "a must be an integer array"),
        (lambda: octagonal_distances(np.zeros((2, 3), dtype=int), np.zeros(2, dtype=int)), ValueError, "shape (..., 2)"),
    ],
)
def test_bad_input(call, err, words):
    with pytest.raises(err) as e:
        call()
    assert words in str(e.value)


def test_vectorised_leptons_refuse_values_whose_arithmetic_leaves_int64():
    # cells_to_leptons([[2**62, 1]]) gave [[128, 384]] and octagonal_distances a negative distance, silently
    import numpy as np
    import pytest

    from wargrid.errors import ArgumentError
    from wargrid.rts import cells_to_leptons, octagonal_distances

    with pytest.raises(ArgumentError, match=r"cells must lie within \+-18014398509481984"):
        cells_to_leptons(np.array([[2**62, 1]]))
    with pytest.raises(ArgumentError, match="cells must lie within"):
        cells_to_leptons(np.array([[2**64 - 1, 1]], dtype=np.uint64))
    with pytest.raises(ArgumentError, match=r"a must lie within \+-2305843009213693952"):
        octagonal_distances(np.array([[2**62, 0]]), np.array([[-(2**62), 0]]))
    assert octagonal_distances(np.array([[2**61, 0]]), np.array([[-(2**61), 0]])).tolist() == [2**62]
    # abs(-2**63) wraps round to itself in int64, so the least int64 passed: cells_to_leptons gave [[128, 128]]
    with pytest.raises(ArgumentError, match="cells must lie within .* got -9223372036854775808"):
        cells_to_leptons(np.array([[-(2**63), 0]]))
    with pytest.raises(ArgumentError, match="a must lie within"):
        octagonal_distances(np.array([[-(2**63), 0]]), np.array([[5, 0]]))


def test_leptons_to_cells_takes_any_int64():
    # floor division cannot wrap: the bound of the other forms refused 2**62, which lepton_to_cell takes
    assert leptons_to_cells(np.array([[2**62, 0], [-(2**63), 1]])).tolist() == [[2**54, 0], [-(2**55), 0]]
    assert lepton_to_cell((2**62, 0)) == (2**54, 0)
