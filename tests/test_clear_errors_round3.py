"""Numbers past what a field can hold are clear errors naming the argument and the range, not overflows."""

from __future__ import annotations

import base64
import math
import re
import zlib

import numpy as np
import pytest

from wargrid import Map, MapFileError, SquareGrid, load_tiled, save_tiled
from wargrid.errors import ArgumentError
from wargrid.movement.search import MAX_WEIGHT
from wargrid.rts import Simulation
from wargrid.rts.sim import MAX_SPEED, MAX_TEAM


@pytest.mark.parametrize("kw, match", [
    ({"speed": 2**63}, rf"speed must be at most MAX_SPEED = {MAX_SPEED} leptons per tick, got {2**63}"),
    ({"speed": MAX_SPEED + 1}, "speed must be at most MAX_SPEED"),
    ({"team": 2**63}, rf"team must be in {-MAX_TEAM}..{MAX_TEAM}"),
    ({"close_enough": 2**70}, "close_enough must be at most MAX_SPEED"),
])
def test_add_unit_numbers_past_the_unit_table_are_clear_errors(kw, match):
    sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
    with pytest.raises(ArgumentError, match=match):
        sim.add_unit((0, 1), unit="tracked", **kw)
    uid = sim.add_unit((0, 1), unit="tracked", speed=MAX_SPEED, goal=(5, 1))  # the fastest allowed runs
    for _ in range(20):
        sim.step()
        if sim.get(uid).cell == (5, 1):
            break
    assert sim.get(uid).cell == (5, 1)


def _tmx_with_elevation(tmp_path, heights: bytes):
    m = Map(SquareGrid(2, 2))
    m.set_elevation(np.arange(4.0).reshape(2, 2))
    p = tmp_path / "e.tmx"
    save_tiled(m, p)
    text = p.read_text()
    new = base64.b64encode(zlib.compress(heights)).decode()
    text, n = re.subn(r'(name="wargrid.elevation"[^>]*value=")[^"]*"', lambda mt: mt.group(1) + new + '"', text)
    assert n == 1, text[:400]
    p.write_text(text)
    return p


@pytest.mark.parametrize("heights, match", [
    (np.zeros(5).tobytes(), r"holds more than 4 heights; the board has 4 cells"),
    (np.zeros(3).tobytes(), r"holds 3 heights; the board has 4 cells"),
    (bytes(20), r"holds 20 bytes, not whole 8-byte heights"),
])
def test_tiled_elevation_of_the_wrong_size_says_how(tmp_path, heights, match):
    p = _tmx_with_elevation(tmp_path, heights)
    with pytest.raises(MapFileError, match=match):
        load_tiled(p)
    ok = _tmx_with_elevation(tmp_path, np.arange(4.0).tobytes())
    assert load_tiled(ok).elevation.tolist() == [[0.0, 1.0], [2.0, 3.0]]


def test_path_weight_is_capped_where_the_bound_stops_meaning_anything():
    m = Map(SquareGrid(8, 8))
    with pytest.raises(ArgumentError, match=r"weight must be in 1..1e\+06, got 1e\+308"):
        m.path((0, 0), (7, 7), weight=1e308)
    p = m.path((0, 0), (7, 7), weight=MAX_WEIGHT)
    assert p is not None and math.isfinite(p.cost)
