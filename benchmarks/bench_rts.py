"""The RTS simulation at game scale: ticks a second, arrivals, stuck units, and the crowd scenarios.

Boards: 256 x 256 square-8 with 15 % random walls (water) and a 256 x 256 hex
board with 15 % walls. Tracked vehicles start on random free cells with random
goals reachable from them (same zone); ``--units`` of them, with speeds of
``SPEEDS`` leptons a tick (halved on the tracked class's clear ground, cost 2):
the slowest crosses the board's longest route (about 300 steps) in about 1300
ticks, so every unit can arrive by tick 2000. Reports, per row: the first tick
(every unit with a fresh order), the mean and worst tick of the busy phase
(ticks 2..300, wall clock; ``cpu worst``: the worst tick in the thread's CPU
time, which other processes on the machine do not inflate), the full garbage
collections in the busy phase, the share arrived by ``--ticks``, the tick all
had arrived, and the units left with their states and reasons.

The setup (board, units, orders) is followed by one ``gc.collect()``, as a
game collects after loading a level: the garbage of the setup would otherwise
trigger a full collection of every object of the process (numba's included,
tens of milliseconds) in one of the first ticks. The crowd scenarios (head-on in a corridor,
two crossing streams, a crowd at one goal) report the ticks until every unit
arrived, and any unit left over.

    python benchmarks/bench_rts.py                       # 250 500 1000 2000 units, both boards
    python benchmarks/bench_rts.py --units 1000 --boards square8 --ticks 2000
    python benchmarks/bench_rts.py --stress 0 3000          # the stress campaign over seeds 0..2999
    python benchmarks/bench_rts.py --units 1000 --plain     # without the crowd rule (Simulation(crowd=False))

The stress campaign: per seed a square-8 or hex board of 8..20 cells a side
(15 % walls), 10..60 units (fewer when the board has not room), none, a
third, half or all of them infantry, random reachable goals; every unit must
arrive, and when the run has settled every unit must stand on its goal
unless another unit holds it as its own.
"""

from __future__ import annotations

import argparse
import collections
import gc
import time

import numpy as np

from wargrid.rts import Simulation
from wargrid.scenarios import armies, corridor, crossing, crowd, units_away as away  # noqa: F401 - the crowd scenarios
from wargrid.scenarios import mixed_army as mixed, walled_board as board
from _bar import bar


SPEEDS = (160, 256)
"""The units' speeds, leptons a tick on ground of cost 1 (uniform in this range)."""


def run(kind: str, n: int, ticks: int, seed: int, crowd: bool = True) -> dict:
    m = board(kind, 256, seed)
    sim = Simulation(m, seed=seed, crowd=crowd)
    speeds = np.random.default_rng(seed + 2).integers(SPEEDS[0], SPEEDS[1] + 1, size=n)
    for (start, goal), v in zip(armies(m, n, seed), speeds.tolist()):
        sim.add_unit(start, unit="tracked", goal=goal, speed=v)
    gc.collect()
    full = [0]

    def count(phase: str, info: dict) -> None:
        if phase == "stop" and info["generation"] == 2:
            full[0] += 1

    times, cpu = [], []
    arrived_at = None
    for t in range(ticks):
        if t == 1:
            gc.callbacks.append(count)
        elif t == 300:
            gc.callbacks.remove(count)
        t0, c0 = time.perf_counter(), time.thread_time()
        sim.step()
        times.append(time.perf_counter() - t0)
        cpu.append(time.thread_time() - c0)
        if t % 50 == 49 or t == ticks - 1:
            st = sim.report().states()
            if all(s == "arrived" for s in st.values()):
                arrived_at = sim.tick
                break
    if count in gc.callbacks:
        gc.callbacks.remove(count)
    rep = sim.report()
    states = collections.Counter(rep.states().values())
    left = {u: f"{s} {r}".strip() for u, s, r, _ in rep.units if s != "arrived"}
    busy = times[1:300]
    return {
        "first": times[0], "mean": float(np.mean(busy)), "worst": float(np.max(busy)), "cpu_worst": float(np.max(cpu[1:300])),
        "full_gc": full[0], "arrived": states["arrived"] / n, "ticks": sim.tick, "all_at": arrived_at, "left": left,
    }


def stress_case(seed: int) -> tuple[str, int, int, float]:
    """The stress campaign's board kind, size (8..20), unit count (10..60) and infantry share for ``seed``."""
    r = np.random.default_rng(10_000 + seed)
    return ["square8", "hex"][int(r.integers(2))], int(r.integers(8, 21)), int(r.integers(10, 61)), float(
        r.choice([0.0, 0.33, 0.5, 1.0]))


def stress(seeds: range, ticks: int = 4000) -> int:
    """Run the stress campaign over ``seeds``: print every run where a unit did not arrive or stands away; count them."""
    fails = 0
    for seed in seeds:
        kind, size, n, foot = stress_case(seed)
        sim = mixed(kind, size, n, foot, seed=seed)
        rep = sim.run(ticks)
        left = {u: (s, r) for u, s, r, _ in rep.units if s != "arrived"}
        off = away(sim)
        if left or off:
            fails += 1
            print(f"seed {seed}: {kind} {size}x{size} {len(rep.units)} units foot {foot}: after {rep.tick} ticks "
                  f"left {left} away {off}", flush=True)
    return fails


def scenario(name: str, sim: Simulation, ticks: int, crowd: bool = True) -> str:
    sim.crowd = crowd
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
    ap.add_argument("--crowd", action="store_true", default=True,
                    help="every simulation with the crowd rule (Simulation(crowd=True), the default)")
    ap.add_argument("--plain", dest="crowd", action="store_false",
                    help="every simulation without the crowd rule (Simulation(crowd=False))")
    ap.add_argument("--stress", type=int, nargs=2, metavar=("FIRST", "COUNT"),
                    help="run the stress campaign (small boards, mixed units) over these seeds instead")
    a = ap.parse_args()
    if a.stress:
        first, count = a.stress
        t0 = time.perf_counter()
        fails = stress(range(first, first + count))
        print(f"stress: {count} runs (seeds {first}..{first + count - 1}), {fails} with a unit not arrived or away "
              f"from a free goal ({time.perf_counter() - t0:.0f} s)")
        return
    print(f"{'board':<8} {'units':>5} {'first ms':>9} {'mean ms':>8} {'worst ms':>9} {'cpu worst':>9} {'full gc':>7} "
          f"{'ticks/s':>8} {'arrived':>8} {'all by':>7}  left (state, reason)")
    for kind in bar(a.boards, "boards"):
        for n in a.units:
            r = run(kind, n, a.ticks, a.seed, a.crowd)
            print(f"{kind:<8} {n:>5} {r['first'] * 1e3:>9.1f} {r['mean'] * 1e3:>8.2f} {r['worst'] * 1e3:>9.1f} "
                  f"{r['cpu_worst'] * 1e3:>9.1f} {r['full_gc']:>7} {1 / r['mean']:>8.0f} {r['arrived']:>8.1%} "
                  f"{str(r['all_at']):>7}  {r['left'] or '-'}", flush=True)
    if not a.no_crowds:
        print(scenario("corridor head-on 2x8", corridor(8), 3000, a.crowd))
        print(scenario("crossing streams 2x12", crossing(12), 3000, a.crowd))
        print(scenario("crowd at one goal 60", crowd(60), 3000, a.crowd))


if __name__ == "__main__":
    main()
