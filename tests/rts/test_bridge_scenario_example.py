"""examples/bridge_scenario.py: the bridge falls, the wheeled zones split, the tank replans through the ford.

The example is imported by its path, as ``wargrid demo`` does.
"""

from __future__ import annotations

import doctest
import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from wargrid import rts

from rts_oracle import check_walk

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "bridge_scenario.py"


def _load():
    spec = importlib.util.spec_from_file_location("bridge_scenario_example", EXAMPLE)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up while the file runs
    spec.loader.exec_module(mod)
    return mod


example = _load()
bridge_scenario = example.bridge_scenario


@pytest.fixture(scope="module")
def run():
    return bridge_scenario(seed=0)


def test_routes_before_and_after(run):
    r = run
    assert r.tank_state == "arrived" and r.trail[-1] == r.goal
    assert set(r.bridge) <= set(r.route_before)
    assert not set(r.bridge) & set(r.route_after)
    assert set(r.ford) & set(r.route_after) and set(r.ford) & set(r.trail)
    # the trail is a legal walk on the map as it is now
    check_walk(r.map.grid, r.map.costs(unit="tracked"), r.trail)
    assert r.route_after[0] in r.trail and r.trail.index(r.route_after[0]) > 0


def test_events(run):
    r = run
    kinds = [what for _, what, _ in r.events]
    assert "overlay_changed" in kinds and "all_bridges_destroyed" in kinds and "zones_changed" in kinds
    split = [z for z in r.zones_changed if z["unit"] == "wheeled"]
    assert split and len(split[0]["new"]) > len(split[0]["old"])
    assert r.all_bridges_destroyed and r.map.count("bridge") == 0 and r.map.intact_bridges == ()
    # the library's bridge events: damaged (still crossed), then destroyed with the wheeled zones it split
    assert kinds.count("bridge_damaged") == 1 and kinds.count("bridge_destroyed") == 1
    assert kinds.index("bridge_damaged") < kinds.index("bridge_destroyed") < kinds.index("all_bridges_destroyed")
    wheeled = [s for s in r.bridge_splits if s.unit == "wheeled"]
    assert len(wheeled) == 1 and tuple(wheeled[0].parts) == tuple(sorted(split[0]["new"]))
    assert r.map.bridges[0].stage == "destroyed"
    assert r.truck_state == "stuck" and "not connected" in r.truck_reason
    # the tank replanned after the edit
    ticks = [t for t, what, d in r.events if what == "unit 0 replan" and "overlay_changed" in d]
    assert ticks == [r.destroyed_at]


def test_same_seed_same_run():
    a, b = bridge_scenario(seed=5), bridge_scenario(seed=5)
    assert a.trail == b.trail and a.events == b.events


def test_picture(run, tmp_path):
    svg = run.picture(str(tmp_path / "b.svg"))
    assert svg.count("<polyline") >= 3 and (tmp_path / "b.svg").read_text() == svg


@pytest.mark.slow
def test_example_script(tmp_path):
    out = tmp_path / "pic.svg"
    res = subprocess.run([sys.executable, str(EXAMPLE), str(out)], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert "through the ford" in res.stdout and out.exists()


@pytest.mark.parametrize("board", ["hex", "staggered"])
def test_other_boards(board):
    r = bridge_scenario(seed=2, board=board)
    assert r.tank_state == "arrived" and set(r.ford) & set(r.trail) and set(r.bridge) <= set(r.route_before)
    check_walk(r.map.grid, r.map.costs(unit="tracked"), r.trail)
    assert any(z["unit"] == "wheeled" and len(z["new"]) > len(z["old"]) for z in r.zones_changed)


def test_bad_input():
    with pytest.raises(ValueError, match="board must be one of"):
        bridge_scenario(board="cube")
    with pytest.raises(ValueError, match="seed must be >= 0"):
        bridge_scenario(seed=-1)


def test_docstring_examples():
    assert doctest.testmod(example).failed == 0


@pytest.mark.parametrize("value", ["3", 3.5, None, True, np.float64(3), float("nan")])
def test_ticks_must_be_an_integer(value):
    with pytest.raises((ValueError, TypeError) if value != value else TypeError, match="ticks"):
        bridge_scenario(ticks=value)


@pytest.mark.parametrize("value", [0, -1])
def test_ticks_must_be_positive(value):
    with pytest.raises(ValueError, match="ticks"):
        bridge_scenario(ticks=value)


@pytest.mark.parametrize("value", ["nope", "", "FOREST", 3])
def test_board_must_be_known(value):
    with pytest.raises((ValueError, TypeError), match="board"):
        bridge_scenario(board=value)


def test_one_tick_is_enough_to_run():
    assert bridge_scenario(ticks=1).tank_state in rts.STATES
