"""Leptons <-> pixels: literal values, round trips both ways, bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from wargrid.rts.leptons import (
    Lepton,
    cell_to_lepton,
    lepton_to_cell,
    lepton_to_pixel,
    leptons_to_pixels,
    pixel_to_lepton,
    pixels_to_leptons,
)

point = st.tuples(st.integers(-10**6, 10**6), st.integers(-10**6, 10**6))
sizes = st.sampled_from([1, 7, 16, 24, 32, 48.5, 64, 100, 0.25])
scales = st.sampled_from([2, 16, 256, 1024])


def test_literal_values():
    assert lepton_to_pixel((256, 512), cell_size=24) == (24.0, 48.0)
    assert lepton_to_pixel(cell_to_lepton((2, 1)), cell_size=32) == (80.0, 48.0)  # the centre of cell (2, 1)
    assert pixel_to_lepton((80.0, 48.0), cell_size=32) == Lepton(640, 384)
    assert pixel_to_lepton((0.0624, -0.0626), cell_size=32) == Lepton(0, -1)  # 0.125 px a lepton: to the nearest
    assert lepton_to_pixel((100, 0), cell_size=16, leptons=16) == (100.0, 0.0)


@given(point, sizes, scales)
def test_leptons_pixels_leptons(p, size, n):
    px = lepton_to_pixel(p, cell_size=size, leptons=n)
    assert pixel_to_lepton(px, cell_size=size, leptons=n) == p
    arr = np.array([p, p[::-1]])
    back = pixels_to_leptons(leptons_to_pixels(arr, cell_size=size, leptons=n), cell_size=size, leptons=n)
    assert back.tolist() == arr.tolist()
    assert leptons_to_pixels(arr, cell_size=size, leptons=n)[0].tolist() == list(px)


@given(st.tuples(st.floats(-1e5, 1e5), st.floats(-1e5, 1e5)), sizes, scales)
def test_pixels_leptons_pixels_within_half_a_lepton(px, size, n):
    lep = pixel_to_lepton(px, cell_size=size, leptons=n)
    back = lepton_to_pixel(lep, cell_size=size, leptons=n)
    half = size / n / 2
    assert abs(back[0] - px[0]) <= half * (1 + 1e-9) + 1e-9 and abs(back[1] - px[1]) <= half * (1 + 1e-9) + 1e-9
    assert pixels_to_leptons(np.array(px), cell_size=size, leptons=n).tolist() == list(lep)


@given(st.tuples(st.integers(-50, 50), st.integers(-50, 50)), st.sampled_from([16, 32, 40]))
def test_a_pixel_inside_a_cell_is_a_lepton_inside_it(cell, size):
    # every pixel centre of a cell's picture lands on a lepton of that cell
    for fx in (0.5, size / 2, size - 0.5):
        for fy in (0.5, size - 0.5):
            p = (cell[0] * size + fx, cell[1] * size + fy)
            assert lepton_to_cell(pixel_to_lepton(p, cell_size=size)) == cell


def test_bad_input():
    with pytest.raises(ValueError, match="cell_size"):
        lepton_to_pixel((0, 0), cell_size=0)
    with pytest.raises(ValueError, match="cell_size"):
        pixels_to_leptons(np.zeros((1, 2)), cell_size=-3)
    with pytest.raises(TypeError, match="pixel"):
        pixel_to_lepton(5, cell_size=32)
    with pytest.raises(ValueError):
        pixel_to_lepton((float("nan"), 0.0), cell_size=32)
    with pytest.raises(ValueError, match="finite"):
        pixels_to_leptons(np.array([[np.inf, 0.0]]), cell_size=32)
    with pytest.raises(ValueError, match="shape"):
        pixels_to_leptons(np.zeros(3), cell_size=32)
    with pytest.raises(TypeError):
        lepton_to_pixel((0.5, 0), cell_size=32)
    with pytest.raises(ValueError, match="even"):
        lepton_to_pixel((0, 0), cell_size=32, leptons=3)
