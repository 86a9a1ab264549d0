"""Reading every unit at once: the array accessors agree with the per-unit reads, and a taken unit is a snapshot."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import Map, SquareGrid
from wargrid.rts import STATES, Simulation


def _crowd(seed: int, wrap: bool) -> Simulation:
    m = Map(SquareGrid(12, 8, wrap_x=wrap))
    sim = Simulation(m, seed=seed)
    rng = np.random.default_rng(seed)
    cells = rng.choice(96, 24, replace=False)
    for i in range(12):
        a, b = int(cells[i]), int(cells[12 + i])
        kind = "infantry" if i % 3 == 0 else "vehicle"
        sim.add_unit((a % 12, a // 12), kind=kind, unit="foot" if kind == "infantry" else "tracked",
                     goal=(b % 12, b // 12), speed=int(rng.integers(40, 200)), hp=float(rng.integers(10, 100)),
                     max_hp=100.0, facing=int(rng.integers(0, 4)))
    sim.add_obstacle([(int(cells[-1]) % 12, int(cells[-1]) // 12)], hp=None)
    return sim


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.booleans(), st.integers(0, 12))
def test_arrays_agree_with_each_unit(seed: int, wrap: bool, ticks: int) -> None:
    sim = _crowd(seed, wrap)
    for _ in range(ticks):
        sim.step()
    pos, cells, states, facings, hp = sim.positions(), sim.cells(), sim.states(), sim.facings(), sim.hp()
    n = len(sim.units)
    assert pos.shape == (n, 2) and cells.shape == (n, 2) and states.shape == facings.shape == hp.shape == (n,)
    for u in range(n):
        one = sim.get(u)
        assert tuple(pos[u]) == sim.lepton(u)
        assert tuple(cells[u]) == one.cell
        assert STATES[states[u]] == one.state
        assert facings[u] == one.facing
        assert hp[u] == one.hp


def test_arrays_are_copies() -> None:
    sim = _crowd(1, False)
    for get in (sim.positions, sim.cells, sim.states, sim.facings, sim.hp):
        a = get()
        a[...] = -7
        assert not np.array_equal(get(), a)


def test_literal_positions_of_a_stepping_unit() -> None:
    sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
    sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=64)
    sim.add_unit((3, 3), unit="tracked", facing=1)
    sim.step()
    assert sim.positions().tolist() == [[160, 384], [896, 896]]  # tracked on plain ground: 64 / 2 leptons a tick
    assert sim.cells().tolist() == [[0, 1], [3, 3]]
    assert [STATES[s] for s in sim.states()] == ["moving", "idle"]


def test_a_taken_unit_keeps_its_history_as_it_was() -> None:
    sim = Simulation(Map(SquareGrid(8, 3)), seed=0)
    tank = sim.add_unit((0, 1), unit="tracked", goal=(7, 1), speed=128)
    for _ in range(5):
        sim.step()
    then = sim.get(tank)
    trail, route, plans = then.trail, then.route, then.plans
    sim.run(100)
    now = sim.get(tank)
    assert then.trail == trail and then.route == route and then.plans == plans
    assert now.trail[: len(trail)] == trail and len(now.trail) > len(trail)
    assert now.trail[-1] == (7, 1) and now.route == [] and plans[0][0] == (0, 1) and plans[0][-1] == (7, 1)
    assert trail[-1] == then.cell and route[-1] == (7, 1)
