"""Every unit with a reachable goal arrives: a few dozen units with random goals on small boards, no deadlock.

And when the run has settled, every unit stands on its goal unless another unit holds that cell as its own
(``wargrid.scenarios.units_away``). The stress cases are runs of the benchmark's stress campaign (``--stress``)
that once ended in a deadlock or with units away from a free goal, written out cell by cell in
``tests/data/rts/stress_cases.json`` (so they stay the same cases whatever a random generator gives).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from wargrid import HexGrid, Map, SquareGrid
from wargrid.rts import Simulation
from wargrid import scenarios
from wargrid.scenarios import armies, units_away, walled_board

STRESS = json.loads((Path(__file__).resolve().parents[1] / "data" / "rts" / "stress_cases.json").read_text())["cases"]

TICKS = 1500
"""Far more than a unit needs to cross these boards (about 300 ticks at the slowest, waits included)."""


def _every_third_on_foot(kind: str, size: int, n: int, seed: int) -> Simulation:
    m = walled_board(kind, size, seed)  # 15 % walls
    sim = Simulation(m, seed=seed)
    rng = np.random.default_rng(seed)
    for i, (start, goal) in enumerate(armies(m, n, seed)):  # goals in the starts' zone
        foot = i % 3 == 0
        sim.add_unit(start, kind="infantry" if foot else "vehicle", unit="foot" if foot else "tracked", goal=goal,
                     speed=int(rng.integers(64, 257)))
    return sim


def _all_home(sim: Simulation) -> None:
    rep = sim.run(TICKS)
    sim.check()
    left = {u: (s, r) for u, s, r, _ in rep.units if s != "arrived"}
    assert not left, f"not arrived after {rep.tick} ticks: {left}"
    assert rep.tick < TICKS
    off = {u: (sim.get(u).cell, sim.get(u).target) for u in units_away(sim)}
    assert not off, f"away from a goal no other unit holds as its own: {off}"


@pytest.mark.parametrize("kind", ["square8", "hex"])
@pytest.mark.parametrize("seed", range(4))
def test_every_unit_with_a_reachable_goal_arrives(kind, seed):
    sim = _every_third_on_foot(kind, 12, 30, seed)
    _all_home(sim)
    # each arrived on its goal, or (its goal held by a unit with nothing to do) next to it
    where = {}
    for e in sim.events:
        if e.what == "arrived":
            where.setdefault(e.uid, e.detail)
    for u, _, _, _ in sim.report().units:
        want = sim.get(u).goal
        assert where[u] == str(want) or where[u].startswith("crowd") and any(
            where[u].endswith(f"stopped at {n}") for n in sim.grid.neighbors(want)), (u, where[u], want)


def test_on_foot_and_on_tracks_the_brief_stress_case():
    # 34 units on 10 x 10 (seed 27): a tank's goal was held by two soldiers moved aside there, with no room to move
    _all_home(_every_third_on_foot("square8", 10, 34, 27))


def _stress_case(case: dict) -> Simulation:
    size = case["size"]
    grid = SquareGrid(size, size, diagonal=True) if case["kind"] == "square8" else HexGrid(size, size)
    m = Map(grid)
    m.set_terrain([tuple(c) for c in case["water"]], "water")
    sim = Simulation(m, seed=case["sim_seed"])
    for start, goal, kind, unit, speed in case["units"]:
        sim.add_unit(tuple(start), kind=kind, unit=unit, goal=tuple(goal), speed=speed)
    return sim


@pytest.mark.parametrize("case", STRESS, ids=[c["label"] for c in STRESS])
def test_stress_cases(case):
    # 872: a tank head-on with two soldiers in a hex corridor; 1171, 1271: a tank and the soldiers of a dead end;
    # 1665: a soldier sharing its cell, a parked tank with no room in its way; 1980: two crowd units that traded
    # places for ever; 2336: a unit moved off its goal never went back
    _all_home(_stress_case(case))


@pytest.mark.parametrize(
    "call, err, words",
    [  # numpy's "Cannot take a larger sample than population", "negative dimensions" or a TypeError before
        (lambda: armies(walled_board("hex", 10, 1), 1000, 1), ValueError, "room for 42 \\(start, goal\\) pairs, got n=1000"),
        (lambda: armies(walled_board("hex", 10, 1), -1, 1), ValueError, "n must be >= 0"),
        (lambda: walled_board("hex", 10, -1), ValueError, "seed must be >= 0"),
        (lambda: walled_board(np.array([]), 10, 1), ValueError, "kind must be 'square8' or 'hex'"),
        (lambda: scenarios.crowd(3, 1), ValueError, "a 1 x 1 board holds at most 1 units, got n=3"),
        (lambda: scenarios.corridor(2.5), TypeError, "n_each must be an integer"),
        (lambda: scenarios.corridor(30, 10), ValueError, "holds at most 5 tanks each way"),
        (lambda: scenarios.mixed_army("hex", 10, 5, 2.0, seed=1), ValueError, "foot must be a share in 0..1"),
        (lambda: units_away(None), TypeError, "sim must be a wargrid Simulation"),
    ],
)
def test_scenarios_check_their_arguments(call, err, words):
    with pytest.raises(err, match=words):
        call()


def test_a_mixed_army_on_a_one_cell_board_has_no_units():
    assert len(scenarios.mixed_army("hex", 1, 5, 0.5, seed=1).report().units) == 0
