"""Scattered chunks that use the cap: exact balance and the cap on many seeds, the mean-size target on open
boards, min_chunk, the histogram in the report, and the one-cell colouring kept by name."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import HexGrid, SquareGrid
from wargrid.territory import PartitionError, partition
from wargrid.territory.feasibility import InfeasibleError
from wargrid.territory._graph import land_graph
from wargrid.territory.chunks import chunk_sizes


@pytest.mark.parametrize("grid", [HexGrid(24, 16), SquareGrid(24, 16)], ids=["hex", "square"])
@pytest.mark.parametrize("cap", [2, 4, 6])
def test_mean_chunk_uses_the_cap_on_open_boards(grid, cap):
    r = partition(grid, 5, mode="scattered", max_chunk=cap).report
    assert r.method == "chunks"
    assert r.mean_chunk >= 0.6 * cap
    assert int(r.largest_chunk.max()) <= cap
    assert r.cells.max() - r.cells.min() <= 1
    # the histogram counts every chunk by size
    assert int(r.chunk_histogram.sum()) == int(r.chunks.sum())
    assert int((r.chunk_histogram * np.arange(r.chunk_histogram.size)).sum()) == int(r.cells.sum())


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), hexes=st.booleans(), players=st.integers(2, 6), cap=st.integers(1, 6),
       w=st.integers(6, 14), h=st.integers(5, 10))
@pytest.mark.slow
def test_cap_and_balance_hold_over_seeds(seed, hexes, players, cap, w, h):
    grid = HexGrid(w, h) if hexes else SquareGrid(w, h, diagonal=bool(seed & 1))
    rng = np.random.default_rng(seed)
    land = rng.random((h, w)) > 0.1
    try:
        p = partition(grid, players, passable=land, mode="scattered", max_chunk=cap, seed=seed)
    except (InfeasibleError, PartitionError):  # the documented errors
        return
    r = p.report
    assert r.cells.max() - r.cells.min() <= 1 and int(r.cells.sum()) == int(land.sum())
    g = land_graph(grid, land)
    owner = p.owners[g.ys, g.xs]
    assert int(chunk_sizes(g, owner).max()) <= cap


@pytest.mark.parametrize("grid", [HexGrid(24, 16), SquareGrid(24, 16)], ids=["hex", "square"])
@pytest.mark.parametrize("cap", [4, 6])
def test_min_chunk_is_respected(grid, cap):
    p = partition(grid, 5, mode="scattered", max_chunk=cap, min_chunk=2, seed=3)
    g = land_graph(grid, grid.mask)
    sizes = chunk_sizes(g, p.owners[g.ys, g.xs])
    assert sizes.min() >= 2 and sizes.max() <= cap
    assert p.report.chunk_histogram[:2].tolist() == [0, 0]
    assert p.report.cells.max() - p.report.cells.min() <= 1


def test_one_cell_colouring_by_name():
    r = partition(HexGrid(24, 16), 5, mode="scattered", max_chunk=4, method="greedy").report
    assert r.method == "greedy" and r.mean_chunk < 1.2


def test_bad_chunk_input():
    g = HexGrid(8, 6)
    with pytest.raises(ValueError, match="min_chunk must be between"):
        partition(g, 2, mode="scattered", max_chunk=2, min_chunk=3)
    with pytest.raises(ValueError, match="min_chunk must be between"):
        partition(g, 2, mode="scattered", max_chunk=2, min_chunk=0)
    with pytest.raises(ValueError, match="only applies to mode 'scattered'"):
        partition(g, 2, min_chunk=2)
    with pytest.raises(ValueError, match="needs method 'chunks'"):
        partition(g, 3, mode="scattered", max_chunk=4, min_chunk=2, method="greedy")
    with pytest.raises(TypeError):
        partition(g, 3, mode="scattered", max_chunk=4, min_chunk=2.5)
    # 77 cells cannot be cut into chunks of exactly two
    with pytest.raises(PartitionError, match="at least min_chunk=2"):
        partition(HexGrid(24, 16), 5, mode="scattered", max_chunk=2, min_chunk=2)
