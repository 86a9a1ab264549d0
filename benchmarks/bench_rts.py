"""The RTS simulation at game scale: ticks a second, arrivals, stuck units, and the crowd scenarios.

Boards: 256 x 256 square-8 with 15 % random walls (water) and a 256 x 256 hex
board with 15 % walls. Tracked vehicles start on random free cells with random
goals reachable from them (same zone); ``--units`` of them. Reports, per row:
the first tick (every unit with a fresh order), the mean and worst tick of the
busy phase (ticks 1..300), the share arrived by ``--ticks``, and the stuck or
waiting units with their reasons. The crowd scenarios (head-on in a corridor,
two crossing streams, a crowd at one goal) report the ticks until every unit
arrived, and any unit left over.

    python benchmarks/bench_rts.py                       # 250 500 1000 2000 units, both boards
    python benchmarks/bench_rts.py --units 1000 --boards square8 --ticks 2000
"""

from __future__ import annotations

import argparse
import collections
import time

import numpy as np

from wargrid import HexGrid, Map, SquareGrid
from wargrid.rts import Simulation


def board(kind: str, size: int, seed: int) -> Map:
    grid = SquareGrid(size, size, diagonal=True) if kind == "square8" else HexGrid(size, size)
    rng = np.random.default_rng(seed)
    m = Map(grid)
    walls = rng.choice(grid.size, size=int(0.15 * grid.size), replace=False)
    m.set_terrain([grid.cell(int(i)) for i in walls], "water")
    return m


def armies(m: Map, n: int, seed: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """``n`` (start, goal) pairs on distinct free cells, each goal in its start's zone."""
    rng = np.random.default_rng(seed + 1)
    zones = m.zones(unit="tracked")
    free = np.flatnonzero(zones.ravel() >= 0)
    big = np.bincount(zones.ravel()[free]).argmax()
    free = free[zones.ravel()[free] == big]
    pick = rng.choice(free, size=2 * n, replace=False)
    w = m.grid.width
    cells = [(int(i % w), int(i // w)) for i in pick]
    return list(zip(cells[:n], cells[n:]))


def run(kind: str, n: int, ticks: int, seed: int) -> dict:
    m = board(kind, 256, seed)
    sim = Simulation(m, seed=seed)
    for start, goal in armies(m, n, seed):
        sim.add_unit(start, unit="tracked", goal=goal, speed=int(np.random.default_rng(start[0]).integers(48, 129)))
    times = []
    arrived_at = None
    for t in range(ticks):
        t0 = time.perf_counter()
        sim.step()
        times.append(time.perf_counter() - t0)
        if t % 50 == 49 or t == ticks - 1:
            st = sim.report().states()
            if all(s == "arrived" for s in st.values()):
                arrived_at = sim.tick
                break
    rep = sim.report()
    states = collections.Counter(rep.states().values())
    reasons = collections.Counter(r.split(" unit")[0].split(" (")[0] or s for u, s, r, _ in rep.units if s != "arrived")
    busy = times[1:300]
    return {
        "first": times[0], "mean": float(np.mean(busy)), "worst": float(np.max(busy)),
        "arrived": states["arrived"] / n, "ticks": sim.tick, "all_at": arrived_at, "left": dict(states), "reasons": dict(reasons),
    }


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


def scenario(name: str, sim: Simulation, ticks: int) -> str:
    t0 = time.perf_counter()
    rep = sim.run(ticks)
    secs = time.perf_counter() - t0
    left = {u: (s, r) for u, s, r, _ in rep.units if s != "arrived"}
    return f"{name:<24} ticks {rep.tick:>5}  arrived {len(rep.units) - len(left):>3}/{len(rep.units):<3} left {left}  ({secs:.2f} s)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--units", type=int, nargs="+", default=[250, 500, 1000, 2000])
    ap.add_argument("--boards", nargs="+", default=["square8", "hex"], choices=["square8", "hex"])
    ap.add_argument("--ticks", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-crowds", action="store_true")
    a = ap.parse_args()
    # compile the kernels (cached on disk) before timing
    warm = Simulation(board("square8", 16, 0))
    for start, goal in armies(warm.map, 8, 0):
        warm.add_unit(start, unit="tracked", goal=goal)
    warm.run(50)
    print(f"{'board':<8} {'units':>5} {'first ms':>9} {'mean ms':>8} {'worst ms':>9} {'ticks/s':>8} {'arrived':>8} {'all by':>7}  stuck / waiting")
    for kind in a.boards:
        for n in a.units:
            r = run(kind, n, a.ticks, a.seed)
            print(f"{kind:<8} {n:>5} {r['first'] * 1e3:>9.1f} {r['mean'] * 1e3:>8.2f} {r['worst'] * 1e3:>9.1f} "
                  f"{1 / r['mean']:>8.0f} {r['arrived']:>8.1%} {str(r['all_at']):>7}  {r['reasons'] or '-'}", flush=True)
    if not a.no_crowds:
        print(scenario("corridor head-on 2x8", corridor(8), 3000))
        print(scenario("crossing streams 2x12", crossing(12), 3000))
        print(scenario("crowd at one goal 60", crowd(60), 3000))


if __name__ == "__main__":
    main()
