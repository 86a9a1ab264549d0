"""Weights of any scale, and partitions that finish or refuse in bounded time (issue 21, rows 2, 3, 6)."""

import dataclasses

import numpy as np
import pytest

from wargrid import HexGrid, SquareGrid
from wargrid.errors import ArgumentError, ArgumentTypeError
from wargrid.territory import PartitionError, partition


def test_weights_whose_sum_overflows_are_refused():
    with pytest.raises(ArgumentError, match="weights sum to more than a float holds"):
        partition(SquareGrid(4, 4), 2, weights=np.full((4, 4), 1e308))


@pytest.mark.parametrize("scale", [1e-12, 1e-300, 1.0, 1e300])
def test_uniform_weights_of_any_scale_balance_the_cells(scale):
    p = partition(SquareGrid(12, 12), 3, weights=np.full((12, 12), scale))
    assert p.report.cells.tolist() == [48, 48, 48]
    assert p.report.balanced


def test_balance_of_tiny_weights_is_judged_relative_to_them():
    # 56/44/44 cells of weight 1e-12 differ by twelve cells' weight: not balanced
    p = partition(SquareGrid(12, 12), 3, weights=np.full((12, 12), 1e-12))
    skewed = dataclasses.replace(p.report, weight=np.array([56e-12, 44e-12, 44e-12]), spread=12e-12)
    assert p.report.balanced and not skewed.balanced


@pytest.mark.parametrize("scale", [1e-9, 1e200])
def test_scaled_weights_give_the_split_of_the_unscaled(scale):
    rng = np.random.default_rng(3)
    w = rng.uniform(0.5, 2.0, (8, 8))
    a = partition(HexGrid(8, 8), 3, weights=w)
    b = partition(HexGrid(8, 8), 3, weights=w * scale)
    assert b.report.balanced
    assert np.array_equal(a.owners, b.owners)


def test_a_partition_out_of_time_names_the_timeout():
    with pytest.raises(PartitionError, match=r"timeout=1e-06 seconds"):
        partition(SquareGrid(64, 64, diagonal=True), 3, mode="scattered", max_chunk=2, timeout=1e-6)
    with pytest.raises(PartitionError, match="timeout"):
        partition(HexGrid(20, 20), 4, timeout=1e-6)


def test_a_generous_timeout_changes_nothing():
    a = partition(HexGrid(6, 6), 3, mode="scattered", max_chunk=1)
    b = partition(HexGrid(6, 6), 3, mode="scattered", max_chunk=1, timeout=600)
    assert np.array_equal(a.owners, b.owners)


@pytest.mark.parametrize("bad", [0, -1.0, float("nan"), float("inf")])
def test_timeout_must_be_positive_and_finite(bad):
    with pytest.raises(ArgumentError, match="timeout must be a positive"):
        partition(HexGrid(4, 4), 2, timeout=bad)


def test_timeout_must_be_a_number():
    with pytest.raises(ArgumentTypeError, match="timeout must be a number"):
        partition(HexGrid(4, 4), 2, timeout="5")
