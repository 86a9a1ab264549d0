"""Bad arguments to batched paths, distance fields and path smoothing raise errors that name them."""

from __future__ import annotations

import pytest

import wargrid as w


def test_paths_needs_a_list_of_pairs():
    m = w.Map(w.SquareGrid(4, 4))
    with pytest.raises(TypeError, match="pairs must be a list"):
        m.paths(3)


def test_distance_field_needs_a_source():
    m = w.Map(w.SquareGrid(4, 4))
    with pytest.raises(ValueError, match="sources must hold at least one"):
        m.distance_field([])


@pytest.mark.parametrize(
    "cells, exc, match",
    [
        ([(2**70, 0), (1, 1)], IndexError, r"path\[0\]"),
        ([(True, 1), (1, 1)], TypeError, r"path\[0\]"),
        ([(0.5, 1), (1, 1)], TypeError, r"path\[0\]"),
        ([(1, 1), (-1, 1)], IndexError, r"path\[1\]"),
    ],
)
def test_smooth_path_checks_each_cell(cells, exc, match):
    m = w.Map(w.SquareGrid(4, 4))
    with pytest.raises(exc, match=match):
        m.smooth_path(cells)
