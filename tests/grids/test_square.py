"""Square-board metrics and directions: literal values, then vectorised agreement, then bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid.grids.square import (
    METRICS,
    SQUARE4_DIRECTIONS,
    SQUARE8_DIRECTIONS,
    chebyshev,
    euclidean,
    manhattan,
    metric_array,
    octagonal,
    octile,
    square_neighbors,
)

SQRT2 = math.sqrt(2.0)
coords = st.integers(-1000, 1000)
cells = st.tuples(coords, coords)
FAST = settings(max_examples=50, deadline=None)


@pytest.mark.parametrize(
    "a, b, expected",
    [
        # dx = 3, dy = 4
        ((0, 0), (3, 4), {"manhattan": 7, "chebyshev": 4, "octile": 1 + 3 * SQRT2, "euclidean": 5.0, "octagonal": 5}),
        # dx = 5, dy = 6 (signs do not matter)
        ((2, -1), (-3, 5), {"manhattan": 11, "chebyshev": 6, "octile": 1 + 5 * SQRT2,
                            "euclidean": math.sqrt(61), "octagonal": 8}),
        # a pure diagonal: dx = dy = 2
        ((1, 1), (3, 3), {"manhattan": 4, "chebyshev": 2, "octile": 2 * SQRT2,
                          "euclidean": 2 * SQRT2, "octagonal": 3}),
        # a straight line
        ((0, 7), (0, 2), {"manhattan": 5, "chebyshev": 5, "octile": 5.0, "euclidean": 5.0, "octagonal": 5}),
        ((4, 4), (4, 4), {"manhattan": 0, "chebyshev": 0, "octile": 0.0, "euclidean": 0.0, "octagonal": 0}),
    ],
)
def test_metric_reference_values(a, b, expected):
    assert set(expected) == set(METRICS)
    for name, want in expected.items():
        got = METRICS[name](a, b)
        assert got == pytest.approx(want, abs=1e-12), name
        assert METRICS[name](b, a) == got, name
        if name in ("manhattan", "chebyshev", "octagonal"):
            assert isinstance(got, int), name
    assert manhattan is METRICS["manhattan"] and chebyshev is METRICS["chebyshev"]
    assert octile is METRICS["octile"] and euclidean is METRICS["euclidean"] and octagonal is METRICS["octagonal"]


def test_directions():
    # counter-clockwise from east with y growing downward: north is (0, -1)
    assert SQUARE4_DIRECTIONS == ((1, 0), (0, -1), (-1, 0), (0, 1))
    assert SQUARE8_DIRECTIONS == ((1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1))
    assert SQUARE8_DIRECTIONS[::2] == SQUARE4_DIRECTIONS
    for i in range(8):  # each step turns 45 degrees counter-clockwise on screen
        dx, dy = SQUARE8_DIRECTIONS[i]
        assert math.atan2(-dy, dx) % (2 * math.pi) == pytest.approx(i * math.pi / 4)


def test_square_neighbors_reference():
    assert square_neighbors((2, 2)) == [(3, 2), (2, 1), (1, 2), (2, 3)]
    assert square_neighbors((0, 0), diagonal=True) == [
        (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1),
    ]
    assert square_neighbors((np.int64(5), np.int32(-1))) == [(6, -1), (5, -2), (4, -1), (5, 0)]


@FAST
@given(cells, st.booleans())
def test_neighbours_are_one_step_away(c, diagonal):
    ns = square_neighbors(c, diagonal=diagonal)
    assert len(set(ns)) == (8 if diagonal else 4)
    for n in ns:
        if diagonal:
            assert chebyshev(c, n) == 1
            assert octile(c, n) == pytest.approx(euclidean(c, n))
        else:
            assert manhattan(c, n) == 1


@FAST
@given(cells, cells, cells)
def test_metrics_are_metrics_and_ordered(a, b, c):
    for name, f in METRICS.items():
        assert f(a, b) == f(b, a), name
        assert (f(a, b) == 0) == (a == b), name
        if name != "octagonal":  # the RTS approximation rounds down, so it is no metric
            assert f(a, c) <= f(a, b) + f(b, c) + 1e-9, name
    # the usual ordering of the square metrics
    assert chebyshev(a, b) <= euclidean(a, b) + 1e-9
    assert euclidean(a, b) <= octile(a, b) + 1e-9
    assert octile(a, b) <= manhattan(a, b) + 1e-9
    assert chebyshev(a, b) <= octagonal(a, b) <= manhattan(a, b)


@FAST
@given(st.lists(st.tuples(cells, cells), min_size=1, max_size=40), st.sampled_from(sorted(METRICS)))
def test_metric_array_agrees_with_the_scalar_metrics(pairs, name):
    dx = np.array([a[0] - b[0] for a, b in pairs])
    dy = np.array([a[1] - b[1] for a, b in pairs])
    got = metric_array(name, dx, dy)
    want = [METRICS[name](a, b) for a, b in pairs]
    assert got.shape == dx.shape
    if name in ("manhattan", "chebyshev", "octagonal"):
        assert got.dtype.kind == "i"
        assert got.tolist() == want
    else:
        assert np.allclose(got, want, rtol=1e-12, atol=0)


def test_metric_array_reference_and_shapes():
    assert metric_array("chebyshev", np.array([3, -1]), np.array([4, 0])).tolist() == [4, 1]
    assert metric_array("octagonal", np.array([[3, -5]]), np.array([[-4, 6]])).tolist() == [[5, 8]]
    assert metric_array("octile", np.array([3]), np.array([4])) == pytest.approx([1 + 3 * SQRT2])
    # absolute and signed offsets give the same answer
    assert metric_array("manhattan", np.array([-3]), np.array([-4])).tolist() == [7]


class TestBadInput:
    @pytest.mark.parametrize("f", sorted(METRICS.values(), key=lambda f: f.__name__))
    def test_metrics_check_the_cells(self, f):
        with pytest.raises(TypeError, match=r"a\[1\] \(y\) must be an integer"):
            f((0, 0.5), (1, 1))
        with pytest.raises(TypeError, match=r"b\[0\] \(x\) must be an integer"):
            f((0, 0), (True, 1))
        with pytest.raises(TypeError, match=r"a must be an \(x, y\) pair"):
            f(5, (0, 0))
        with pytest.raises(TypeError, match=r"b must be an \(x, y\) pair"):
            f((0, 0), (1, 2, 3))
        with pytest.raises(TypeError, match=r"a\[0\] \(x\) must be an integer"):
            f("ab", (0, 0))

    def test_square_neighbors_checks_the_cell(self):
        with pytest.raises(TypeError, match=r"cell\[0\] \(x\) must be an integer"):
            square_neighbors((1.0, 2))
        with pytest.raises(TypeError, match=r"cell must be an \(x, y\) pair"):
            square_neighbors(None)

    def test_metric_array_checks_the_name(self):
        with pytest.raises(ValueError, match="name must be one of 'manhattan'.*got 'taxicab'"):
            metric_array("taxicab", np.array([1]), np.array([1]))
