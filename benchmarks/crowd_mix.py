"""Vehicles and soldiers mixed in small random crowds: which seeds do not settle (every unit on its goal), and how.

Each seed is a random board (hex, square or square with diagonals, 6 to 16
cells a side, 5-15 % walls, only the largest zone kept), 30-60 % of its cells
holding units on distinct cells, a third to a half of them soldiers, every
unit sent to a distinct random cell of the zone, one cell a tick. A run stops
when every unit stands on its goal or at the cap; an unsettled seed is printed
with its board, how many units are off their goals and whether the last
ticks repeat a state (``loop``, with its period) or stand still (``frozen``)::

    PYTHONPATH=src python benchmarks/crowd_mix.py 0 300 [CAP] [--dense] [--speeds]

``--dense``: 60-95 % of the cells held instead; ``--speeds``: every unit at a
random speed of 80, 128, 256, 300 or 512 leptons a tick. The last line counts
the settled seeds and sums their ticks.
"""

from __future__ import annotations

import sys

import numpy as np

from wargrid import HexGrid, Map, SquareGrid
from wargrid.rts import LEPTONS_PER_CELL, Simulation
from wargrid.terrain import Terrain, TerrainTable

TERRAINS = TerrainTable([Terrain("floor", ".", "#dddddd", costs={"walk": 1}),
                         Terrain("wall", "#", "#333333", costs={"walk": float("inf")})])
KINDS = ("hex", "square", "square8")


def board(kind: str, w: int, h: int, t: np.ndarray) -> Map:
    g = HexGrid(w, h) if kind == "hex" else SquareGrid(w, h, diagonal=kind == "square8")
    return Map(g, terrain=t, terrains=TERRAINS)


def mix_case(seed: int, dense: bool = False) -> tuple[Map, list[tuple[int, int]], list[tuple[int, int]], np.ndarray,
                                                       str]:
    """Seed ``seed``'s board, starts, goals, soldier flags and a one-line description."""
    rng = np.random.default_rng(91000 + seed)
    kind = KINDS[int(rng.integers(3))]
    w, h = int(rng.integers(6, 17)), int(rng.integers(6, 17))
    p = float(rng.uniform(0.05, 0.15))
    m = board(kind, w, h, (rng.random((h, w)) < p).astype(np.int16))
    z = m.zones(unit="walk")
    ys, xs = np.nonzero(z == np.bincount(z[z >= 0]).argmax())
    k = max(2, int(rng.uniform(*((0.6, 0.95) if dense else (0.3, 0.6))) * len(xs)))
    a, b = rng.choice(len(xs), k, replace=False), rng.choice(len(xs), k, replace=False)
    soldier = rng.random(k) < rng.uniform(1 / 3, 1 / 2)
    info = f"{kind} {w}x{h} walls {p:.2f} units {k} soldiers {int(soldier.sum())}"
    return m, [(int(xs[i]), int(ys[i])) for i in a], [(int(xs[i]), int(ys[i])) for i in b], soldier, info


def simulate(seed: int, dense: bool = False, speeds: bool = False) -> tuple[Simulation, np.ndarray, str]:
    """Seed ``seed``'s simulation with its units added, their goals and the board's description."""
    m, s, g, soldier, info = mix_case(seed, dense)
    sim = Simulation(m, seed=seed)
    sp = (np.random.default_rng(seed).choice([80, 128, 256, 300, 512], len(s)) if speeds
          else np.full(len(s), LEPTONS_PER_CELL))
    for a, b, i, v in zip(s, g, soldier, sp):
        sim.add_unit(a, unit="walk", goal=b, speed=int(v), kind="infantry" if i else "vehicle")
    return sim, np.array(g, dtype=np.int64), info


def run(seed: int, cap: int, dense: bool = False, speeds: bool = False) -> tuple[int | None, int, str]:
    """(the tick every unit stood on its goal or None, units off their goals, ``loop P``/``frozen``/``moving``)."""
    sim, gl, _ = simulate(seed, dense, speeds)
    seen: dict[bytes, int] = {}
    for t in range(1, cap + 1):
        sim.step()
        if (sim.cells() == gl).all():
            return t, 0, ""
        if t > cap - 200:
            seen.setdefault(sim.positions().tobytes() + sim.states().tobytes(), t)
    key = sim.positions().tobytes() + sim.states().tobytes()
    off = int((sim.cells() != gl).any(axis=1).sum())
    period = cap - seen[key]
    shape = "moving" if period == 0 else "frozen" if len(seen) == 1 else f"loop {period}"
    return None, off, shape


def main(argv: list[str]) -> None:
    dense, speeds = "--dense" in argv, "--speeds" in argv
    argv = [a for a in argv if a not in ("--dense", "--speeds")]
    if len(argv) not in (2, 3):
        sys.exit(__doc__)
    cap = int(argv[2]) if len(argv) == 3 else 1500
    settled, total = 0, 0
    for seed in range(int(argv[0]), int(argv[1])):
        tick, off, shape = run(seed, cap, dense, speeds)
        if tick is None:
            print(f"seed {seed}: {mix_case(seed, dense)[4]}: {off} off goal, {shape}", flush=True)
        else:
            settled, total = settled + 1, total + tick
    print(f"settled {settled} of {int(argv[1]) - int(argv[0])}, their ticks sum {total}")


if __name__ == "__main__":
    main(sys.argv[1:])
