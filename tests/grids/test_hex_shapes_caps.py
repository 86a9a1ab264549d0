"""Hex rings and spirals: lists capped by memory (``MAX_HEX_LIST``), arrays for bigger shapes, same order."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid.errors import ArgumentError, ResourceError
from wargrid.grids import hexes
from wargrid.grids.hexes import MAX_HEX_LIST, Hex

centres = st.builds(Hex, st.integers(-50, 50), st.integers(-50, 50))


@given(centres, st.integers(0, 12))
@settings(max_examples=80, deadline=None)
def test_ring_array_is_the_ring_list(h, radius):
    q, r = h.ring_array(radius)
    assert [Hex(a, b) for a, b in zip(q.tolist(), r.tolist())] == h.ring(radius)
    assert q.dtype == np.int64 and r.dtype == np.int64


@given(centres, st.integers(0, 12))
@settings(max_examples=80, deadline=None)
def test_spiral_array_is_the_spiral_list(h, radius):
    q, r = h.spiral_array(radius)
    assert [Hex(a, b) for a, b in zip(q.tolist(), r.tolist())] == h.spiral(radius)


def test_every_hex_of_a_big_spiral_array_is_at_its_ring_distance():
    # past the list cap: each ring k holds 6k hexes, all k steps from the centre, none twice
    radius = 900
    q, r = Hex(3, -7).spiral_array(radius)
    assert q.size == 3 * radius * (radius + 1) + 1 > MAX_HEX_LIST
    d = (np.abs(q - 3) + np.abs(r + 7) + np.abs(q + r - 3 + 7)) // 2
    assert np.array_equal(np.bincount(d), np.r_[1, 6 * np.arange(1, radius + 1)])
    assert np.all(np.diff(d) >= 0)
    dq, dr = np.diff(q), np.diff(r)
    step = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
    same_ring = np.diff(d) == 0
    assert np.all(step[same_ring] == 1)  # a ring is walked one neighbour at a time


@pytest.mark.parametrize("call", [lambda: Hex(0, 0).ring(10**7), lambda: Hex(0, 0).spiral(10**4),
                                  lambda: Hex(0, 0).range(10**4)])
def test_a_list_past_the_cap_is_refused_before_it_is_built(call):
    with pytest.raises(ArgumentError, match=rf"more than MAX_HEX_LIST = {MAX_HEX_LIST} .*_array for bigger shapes"):
        call()


def test_the_longest_list_allowed_is_built(monkeypatch):
    monkeypatch.setattr(hexes, "MAX_HEX_LIST", 600)
    assert len(Hex(0, 0).ring(100)) == 600
    with pytest.raises(ArgumentError, match="more than MAX_HEX_LIST = 600"):
        Hex(0, 0).ring(101)
    assert len(Hex(0, 0).spiral(13)) == 547
    with pytest.raises(ArgumentError, match="use Hex.spiral_array"):
        Hex(0, 0).spiral(14)


def test_an_array_past_the_memory_available_is_refused():
    with pytest.raises(ResourceError, match=r"Hex.spiral_array with radius=1000000000 needs about .* GiB"):
        Hex(0, 0).spiral_array(10**9)
    with pytest.raises(ArgumentError, match="radius must be at most"):
        Hex(0, 0).ring_array(10**12)
    with pytest.raises(ArgumentError, match="radius must be >= 0"):
        Hex(0, 0).ring_array(-1)
