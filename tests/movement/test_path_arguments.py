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


def test_a_distance_table_past_the_memory_is_refused_before_searching(monkeypatch):
    # 100 000 sources by 100 000 targets asked for 80 GB: the process grew until the kernel killed it
    monkeypatch.setattr("wargrid._budget.available_memory", lambda: 10_000)
    m = w.Map(w.SquareGrid(8, 8))
    cells = [(x, y) for x in range(8) for y in range(8)]
    for call in (lambda: m.distance_table(cells, cells),
                 lambda: w.movement.prepared.distance_table(m.grid, m.cost_field(), cells, cells)):
        with pytest.raises(MemoryError, match="a distance table with sources x targets=64 x 64 needs about"):
            call()
    assert m.distance_table(cells[:4], cells[:4]).shape == (4, 4)  # 256 bytes
