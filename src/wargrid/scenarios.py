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

from ._validate import check_int, check_positive_int, check_real, check_seed
from .errors import ArgumentError, ArgumentTypeError
from .grids.boards import HexGrid, SquareGrid
from .map import Map
from .rts.sim import Simulation

__all__ = ["armies", "corridor", "crossing", "crowd", "mixed_army", "units_away", "walled_board"]


def corridor(n_each: int, length: int = 40) -> Simulation:
    """Two columns of ``n_each`` tanks meet head-on in a corridor one cell wide."""
    n_each = check_positive_int(n_each, "n_each", minimum=0)
    length = check_positive_int(length, "length")
    if 2 * n_each > length:
        raise ArgumentError(f"a corridor of length {length} holds at most {length // 2} tanks each way, got n_each={n_each}")
    m = Map(SquareGrid(length, 3, diagonal=True))
    m.set_terrain([(x, y) for x in range(length) for y in (0, 2)], "water")
    sim = Simulation(m, seed=1)
    for i in range(n_each):
        sim.add_unit((i, 1), unit="tracked", goal=(length - n_each + i, 1), speed=64)
        sim.add_unit((length - 1 - i, 1), unit="tracked", goal=(n_each - 1 - i, 1), speed=96)
    return sim


def crossing(n_each: int, size: int = 24) -> Simulation:
    """A column going east crosses a column going south through the middle of an open board."""
    n_each = check_positive_int(n_each, "n_each", minimum=0)
    size = check_positive_int(size, "size")
    m = Map(SquareGrid(size, size, diagonal=True))
    sim = Simulation(m, seed=2)
    mid = size // 2
    for i in range(n_each):
        sim.add_unit((i % 3, mid - 1 + i // 3), unit="tracked", goal=(size - 1 - i % 3, mid - 1 + i // 3), speed=80)
        sim.add_unit((mid - 1 + i // 3, i % 3), unit="tracked", goal=(mid - 1 + i // 3, size - 1 - i % 3), speed=80)
    return sim


def crowd(n: int, size: int = 24) -> Simulation:
    """``n`` tanks and soldiers from around the board, all sent to one cell."""
    n = check_positive_int(n, "n", minimum=0)
    size = check_positive_int(size, "size")
    if n > size * size:
        raise ArgumentError(f"a {size} x {size} board holds at most {size * size} units, got n={n}")
    m = Map(SquareGrid(size, size, diagonal=True))
    sim = Simulation(m, seed=3)
    rng = np.random.default_rng(3)
    cells = rng.choice(size * size, size=n, replace=False)
    for i, c in enumerate(cells.tolist()):
        kind = "infantry" if i % 3 == 0 else "vehicle"
        sim.add_unit((c % size, c // size), kind=kind, unit="foot" if kind == "infantry" else "tracked",
                     goal=(size // 2, size // 2), speed=72)
    return sim


def walled_board(kind: str, size: int, seed: int) -> Map:
    """A ``size`` x ``size`` board (``kind`` "square8" or "hex") with 15 % of its cells water, chosen by ``seed``.

    >>> m = walled_board("hex", 10, 1)
    >>> int((m.terrain == m.terrains.index("water")).sum())
    15
    """
    if not isinstance(kind, str) or kind not in ("square8", "hex"):
        raise ArgumentError(f"kind must be 'square8' or 'hex', got {kind!r}")
    seed_v = check_seed(seed)
    grid = SquareGrid(size, size, diagonal=True) if kind == "square8" else HexGrid(size, size)
    rng = np.random.default_rng(seed_v)
    m = Map(grid)
    walls = rng.choice(grid.size, size=int(0.15 * grid.size), replace=False)
    m.set_terrain([grid.cell(int(i)) for i in walls], "water")
    return m


def armies(m: Map, n: int, seed: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """``n`` (start, goal) pairs on distinct free cells of ``m``'s largest zone for tanks, chosen by ``seed``.

    >>> pairs = armies(walled_board("square8", 10, 1), 3, 1)
    >>> len(pairs), len({c for pair in pairs for c in pair})
    (3, 6)
    """
    if not isinstance(m, Map):
        raise ArgumentTypeError(f"m must be a wargrid Map, got {type(m).__name__}")
    n = check_positive_int(n, "n", minimum=0)
    rng = np.random.default_rng(check_positive_int(seed, "seed", minimum=0) + 1)
    zones = m.zones(unit="tracked")
    free = np.flatnonzero(zones.ravel() >= 0)
    big = np.bincount(zones.ravel()[free]).argmax() if free.size else 0
    free = free[zones.ravel()[free] == big]
    if 2 * n > free.size:
        raise ArgumentError(f"the board's largest zone for tanks has {free.size} cells: room for {free.size // 2} "
                            f"(start, goal) pairs, got n={n}")
    pick = rng.choice(free, size=2 * n, replace=False)
    w = m.grid.width
    cells = [(int(i % w), int(i // w)) for i in pick]
    return list(zip(cells[:n], cells[n:]))


def mixed_army(kind: str, size: int, n: int, foot: float, *, seed: int) -> Simulation:
    """``n`` units (a share ``foot`` of them infantry) with random reachable goals on a ``walled_board``.

    Fewer units when the board's largest zone has not room for ``2 n``
    distinct starts and goals.

    >>> len(mixed_army("hex", 8, 10, 0.5, seed=1).report().units)
    10
    """
    n = check_positive_int(n, "n", minimum=0)
    foot = check_real(foot, "foot", minimum=0.0)
    if foot > 1:
        raise ArgumentError(f"foot must be a share in 0..1, got {foot}")
    seed = check_positive_int(seed, "seed", minimum=0)
    m = walled_board(kind, size, seed)
    zones = m.zones(unit="tracked").ravel()
    n = max(0, min(n, int(np.bincount(zones[zones >= 0]).max()) // 2 - 1))
    sim = Simulation(m, seed=seed)
    rng = np.random.default_rng(seed)
    for start, goal in armies(m, n, seed):
        f = bool(rng.random() < foot)
        sim.add_unit(start, kind="infantry" if f else "vehicle", unit="foot" if f else "tracked", goal=goal,
                     speed=int(rng.integers(64, 257)))
    return sim


def units_away(sim: Simulation) -> list[int]:
    """The units off their goal (their target) although no other unit holds it as its own (at home on it).

    A unit at home: one with no goal, or one standing on its goal. When the
    run has settled this list is empty.
    """
    if not isinstance(sim, Simulation):
        raise ArgumentTypeError(f"sim must be a wargrid Simulation, got {type(sim).__name__}")
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


