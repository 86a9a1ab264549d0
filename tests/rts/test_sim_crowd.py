"""The simulation's crowd rule (``Simulation(crowd=True)``): vehicles in each other's way move as one (PIBT)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import Map, SquareGrid
from wargrid.errors import ArgumentTypeError
from wargrid.io import MOVINGAI_TERRAINS
from wargrid.rts import LEPTONS_PER_CELL, Simulation

DOOR = ["...@......",
        "..........",
        "...@......"]
"""Two rooms joined by a door at (3, 1): nine units cross from the left three columns to the right three."""
STARTS = [(0, 1), (1, 1), (2, 1), (0, 0), (1, 0), (2, 0), (0, 2), (1, 2), (2, 2)]
GOALS = [(9, 1), (8, 1), (7, 1), (9, 0), (8, 0), (7, 0), (9, 2), (8, 2), (7, 2)]


def _board(rows: list[str]) -> Map:
    terrain = np.array([[3 if c == "@" else 0 for c in r] for r in rows], dtype=np.int16)
    return Map(SquareGrid(len(rows[0]), len(rows)), terrain=terrain, terrains=MOVINGAI_TERRAINS)


def _crossing(crowd: bool, seed: int = 0, ticks: int = 200) -> tuple[Simulation, int | None]:
    sim = Simulation(_board(DOOR), seed=seed, crowd=crowd)
    for a, b in zip(STARTS, GOALS):
        sim.add_unit(a, unit="walk", goal=b, speed=LEPTONS_PER_CELL)
    goals = np.array(GOALS)
    for t in range(1, ticks + 1):
        sim.step()
        if (sim.cells() == goals).all():
            return sim, t
    return sim, None


def test_a_crowd_passes_a_door_the_plain_rule_queues_at() -> None:
    """Each unit on its own turn, a unit checked before the one ahead of it finds that one still there and waits;
    the crowd moves the column as one, the unit ahead first."""
    assert _crossing(False)[1] == 36
    sim, t = _crossing(True)
    assert t == 19
    sim.check()


def test_the_crowd_rule_is_fixed_by_the_seed() -> None:
    a, ta = _crossing(True, seed=5)
    b, tb = _crossing(True, seed=5)
    assert ta == tb
    assert [(e.tick, e.uid, e.what, e.detail) for e in a.events] == [(e.tick, e.uid, e.what, e.detail) for e in b.events]
    assert [a.get(u).trail for u in range(len(STARTS))] == [b.get(u).trail for u in range(len(STARTS))]


def test_crowd_must_be_a_bool() -> None:
    with pytest.raises(ArgumentTypeError, match="crowd must be True or False"):
        Simulation(_board(DOOR), crowd="yes")  # type: ignore[arg-type]


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(2, 14), speed=st.sampled_from([64, 128, 256, 512]))
def test_no_two_vehicles_share_a_cell_nor_pass_through_each_other(seed: int, n: int, speed: int) -> None:
    """Every tick, on random boards: every vehicle on its own cell, and two vehicles trade cells only by a trade
    of places (a 'swap' event, both landing on one tick); every unit arrives or is still on its way."""
    rng = np.random.default_rng(seed)
    w, h = 7, 6
    walls = rng.random((h, w)) < 0.2
    m = _board(["".join("@" if walls[y, x] else "." for x in range(w)) for y in range(h)])
    zones = m.zones()
    free = np.argwhere(zones >= 0)
    if len(free) < 2 * n:
        return
    big = np.bincount(zones[zones >= 0]).argmax()
    cells = [(int(x), int(y)) for y, x in free if zones[y, x] == big]
    if len(cells) < n + 1:
        return
    pick = rng.permutation(len(cells))
    starts = [cells[i] for i in pick[:n]]
    goals = [cells[i] for i in rng.permutation(len(cells))[:n]]
    sim = Simulation(m, seed=seed, crowd=True)
    for a, b in zip(starts, goals):
        sim.add_unit(a, unit="walk", goal=b, speed=speed)
    prev = sim.cells().copy()
    steps = LEPTONS_PER_CELL // speed + 1  # the ticks a trade of places takes to land
    for _ in range(60):
        sim.step()
        sim.check()
        now = sim.cells().copy()
        assert len({tuple(c) for c in now.tolist()}) == n, "two vehicles on one cell"
        traded = any(e.what == "swap" and e.tick > sim.tick - steps - 1 for e in sim.events)
        for i in range(n):
            for j in range(i + 1, n):
                if (now[i] == prev[j]).all() and (now[j] == prev[i]).all() and not (now[i] == prev[i]).all():
                    assert traded, f"units {i} and {j} passed through each other at tick {sim.tick} without a trade"
        prev = now
