"""Batched paths: the same answers, in the same order, whether the batch runs on threads or not."""

from __future__ import annotations

import math

import numpy as np
import pytest

from wargrid import Map, SquareGrid
from wargrid.movement import dispatch


@pytest.mark.parametrize("threads_pay", [0.0, math.inf])
def test_batch_order_and_answers_on_threads_or_not(monkeypatch, threads_pay):
    monkeypatch.setattr(dispatch, "THREADS_PAY_SECONDS", threads_pay)
    rng = np.random.default_rng(11)
    terrain = np.where(rng.random((40, 40)) < 0.25, 4, 0)  # water
    m = Map(SquareGrid(40, 40, diagonal=True), terrain=terrain)
    cells = [(int(x), int(y)) for x, y in rng.integers(0, 40, (23, 2))]
    pairs = list(zip(cells, cells[::-1]))
    got = m.paths(pairs, unit="cavalry", workers=2)
    want = [m.path(a, b, unit="cavalry") for a, b in pairs]
    assert len(got) == len(pairs)
    for g, w in zip(got, want):
        assert (g is None) == (w is None)
        if g is not None:
            assert g.cells[0] == w.cells[0] and g.cells[-1] == w.cells[-1]
            assert g.cost == pytest.approx(w.cost, abs=1e-9)
