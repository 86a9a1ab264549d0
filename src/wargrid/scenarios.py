"""Small RTS crowd scenarios (``wargrid.rts.Simulation`` on small maps) that show the simulation's crowd rules at work (used by tests and benchmarks).

Each builds a ``Simulation`` with its own seed, so a scenario is the same on
every run: ``corridor`` (two columns meet head-on in a one-cell corridor),
``crossing`` (two columns cross), ``crowd`` (tanks and soldiers from around the
board sent to one cell). ``units_away`` lists the units that did not end at home.

>>> sim = corridor(2, 10)
>>> report = sim.run(600)
>>> units_away(sim)
[]
"""

from __future__ import annotations

import numpy as np

from .grids.boards import SquareGrid
from .map import Map
from .rts.sim import Simulation

__all__ = ["corridor", "crossing", "crowd", "units_away"]


def corridor(n_each: int, length: int = 40) -> Simulation:
    """Two columns of ``n_each`` tanks meet head-on in a corridor one cell wide."""
    m = Map(SquareGrid(length, 3, diagonal=True))
    m.set_terrain([(x, y) for x in range(length) for y in (0, 2)], "water")
    sim = Simulation(m, seed=1)
    for i in range(n_each):
        sim.add_unit((i, 1), unit="tracked", goal=(length - n_each + i, 1), speed=64)
        sim.add_unit((length - 1 - i, 1), unit="tracked", goal=(n_each - 1 - i, 1), speed=96)
    return sim


def crossing(n_each: int, size: int = 24) -> Simulation:
    """A column going east crosses a column going south through the middle of an open board."""
    m = Map(SquareGrid(size, size, diagonal=True))
    sim = Simulation(m, seed=2)
    mid = size // 2
    for i in range(n_each):
        sim.add_unit((i % 3, mid - 1 + i // 3), unit="tracked", goal=(size - 1 - i % 3, mid - 1 + i // 3), speed=80)
        sim.add_unit((mid - 1 + i // 3, i % 3), unit="tracked", goal=(mid - 1 + i // 3, size - 1 - i % 3), speed=80)
    return sim


def crowd(n: int, size: int = 24) -> Simulation:
    """``n`` tanks and soldiers from around the board, all sent to one cell."""
    m = Map(SquareGrid(size, size, diagonal=True))
    sim = Simulation(m, seed=3)
    rng = np.random.default_rng(3)
    cells = rng.choice(size * size, size=n, replace=False)
    for i, c in enumerate(cells.tolist()):
        kind = "infantry" if i % 3 == 0 else "vehicle"
        sim.add_unit((c % size, c // size), kind=kind, unit="foot" if kind == "infantry" else "tracked",
                     goal=(size // 2, size // 2), speed=72)
    return sim


def units_away(sim: Simulation) -> list[int]:
    """The units off their goal (their target) although no other unit holds it as its own (at home on it).

    A unit at home: one with no goal, or one standing on its goal. When the
    run has settled this list is empty.
    """
    units = {u: sim.get(u) for u, _, _, _ in sim.report().units}
    at: dict[tuple[int, int], list[int]] = {}
    for u, x in units.items():
        at.setdefault(x.cell, []).append(u)
    bad = []
    for u, x in units.items():
        if x.state == "destroyed" or x.target is None or x.cell == x.target or x.close_enough:
            continue
        if not any(units[h].target is None or units[h].cell == units[h].target for h in at.get(x.target, []) if h != u):
            bad.append(u)
    return bad


