"""Crowds on multi-agent path finding (MAPF) instances: the RTS simulation and the crowd planner against LaCAM.

For each instance and agent count (the first N lines of the scenario file,
every agent a vehicle, one to a cell, one cell a tick on the 4-connected
board), prints:

- ``sim``: the ``Simulation`` with its crowd rule (``crowd=True``; ``--plain``:
  without) run until every unit stands on its goal (or ``--ticks``): all on goal, the tick after which every unit
  stays on its goal (makespan, as a plan counts its timesteps; a unit arrives at the end of the tick that brings it
  onto its goal for good), the sum over units of their arrival ticks (sum of costs), their ratios
  to the lower bounds and to LaCAM, ticks per second, and how many pairs of units traded cells along one edge
  in one tick (Red Alert's rule, which the simulation keeps; a MAPF plan, LaCAM's and ``plan_crowd``'s, may not,
  so where there are trades the simulation solved an easier problem than the reference);
- ``plan``: ``wargrid.rts.plan_crowd`` (``--time-limit``, ``--improve``):
  complete, makespan, sum of costs, the same ratios, when the call returned
  (wall clock, from the call, beside the time limit) and its CPU (and the first
  plan's makespan and time).

The reference is LaCAM's first solution as measured on this machine size
(``../shared/data/mapf/README.md``, read by this script). Any Moving AI map
with a ``.scen`` can be added (``--movingai MAP SCEN``, 4-connected, the
scenario's first lines). ``--map FILE --random-pairs N`` takes any Moving AI
map (4-connected) with N random pairs: distinct starts and distinct goals on
its largest zone, drawn by ``--seed`` (the convention of the MAPF benchmark's
"random" scenarios), e.g. den520d (Moving AI's 256 x 257 Dragon Age map, on
which LaCAM's first solutions for 1000 and 3000 random pairs have makespans
429 and 545, lower bound 420): it is not in the shared data, give a local copy
of the benchmark set's file. The lower bounds are the agents' own distances
(``plan_crowd``'s, or computed here when the plan is unfinished).
``--cave`` plans on a generated 256 x 257 cave map (cellular automaton,
seeded), den520d's size, for a run without it. ``--frame N`` times reading N units' positions
(``Simulation.positions``) and the tick of N units on a 512 x 512 board.

Run from the repository root::

    PYTHONPATH=src python benchmarks/bench_crowd.py --agents 100,200,400 --cave 1000,3000 --frame 3000
"""

from __future__ import annotations

import argparse
import gc
import re
import sys
import time
from pathlib import Path

import numpy as np

from wargrid import Map, SquareGrid
from wargrid.io import MOVINGAI_TERRAINS, load_movingai, load_movingai_agents, load_movingai_scenarios
from wargrid.rts import LEPTONS_PER_CELL, Simulation, check_plan, plan_crowd
from wargrid.rts.crowd import warm_up_planner

HERE = Path(__file__).resolve().parent
MAPF = HERE.parent.parent / "shared" / "data" / "mapf"


def lacam_reference(readme: Path) -> dict[int, tuple[int, int]]:
    """``{agents: (makespan, sum of costs)}`` from the README's table of LaCAM's results."""
    out: dict[int, tuple[int, int]] = {}
    if not readme.is_file():
        return out
    for line in readme.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\|\s*(\d+)\s*\|\s*(\d+)\s*\|\s*(\d+)\s*\|\s*\d+\s*\|\s*\d+\s*\|", line)
        if m:
            out[int(m.group(1))] = (int(m.group(2)), int(m.group(3)))
    return out


def cave(width: int, height: int, seed: int) -> Map:
    """A cave board: 45 % walls at random, five rounds of the 4-5 rule, the largest open zone kept."""
    rng = np.random.default_rng(seed)
    wall = rng.random((height, width)) < 0.45
    for _ in range(5):
        p = np.pad(wall, 1, constant_values=True)
        n = sum(p[1 + dy: height + 1 + dy, 1 + dx: width + 1 + dx] for dy in (-1, 0, 1) for dx in (-1, 0, 1))
        wall = n >= 5
    rock = MOVINGAI_TERRAINS.names.index("out_of_bounds")
    m = Map(SquareGrid(width, height), terrain=np.where(wall, rock, 0).astype(np.int16), terrains=MOVINGAI_TERRAINS)
    z = m.zones()
    labels = z[z >= 0]
    keep = np.bincount(labels).argmax()
    return Map(SquareGrid(width, height), terrain=np.where(z == keep, 0, rock).astype(np.int16), terrains=MOVINGAI_TERRAINS)


def random_agents(m: Map, n: int, seed: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """``n`` random distinct starts and distinct goals on the map's largest zone (a start may be another's goal)."""
    z = m.zones()
    keep = np.bincount(z[z >= 0]).argmax()
    ys, xs = np.nonzero(z == keep)
    if n > len(xs):
        raise SystemExit(f"{n} random pairs: the largest zone has only {len(xs)} cells")
    rng = np.random.default_rng(seed)
    a = rng.choice(len(xs), n, replace=False)
    b = rng.choice(len(xs), n, replace=False)
    return [(int(xs[i]), int(ys[i])) for i in a], [(int(xs[i]), int(ys[i])) for i in b]


def distinct_agents(m: Map, scen: str, n: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The first ``n`` problems of a (single-agent) scenario file whose start, goal and zone suit a crowd.

    A grid benchmark's ``.scen`` may repeat a start or a goal, or (read
    4-connected) join two zones; those lines are skipped.
    """
    every, goals_all = load_movingai_agents(scen, agents=len(load_movingai_scenarios(scen)))
    zones = m.zones()
    s: list[tuple[int, int]] = []
    g: list[tuple[int, int]] = []
    used_s: set[tuple[int, int]] = set()
    used_g: set[tuple[int, int]] = set()
    for a, b in zip(every, goals_all):
        if a in used_s or b in used_g or zones[a[1], a[0]] < 0 or zones[a[1], a[0]] != zones[b[1], b[0]]:
            continue
        s.append(a)
        g.append(b)
        used_s.add(a)
        used_g.add(b)
        if len(s) == n:
            break
    return s, g


def simulate(m: Map, starts: list[tuple[int, int]], goals: list[tuple[int, int]], ticks: int, seed: int,
             crowd: bool = True) -> dict:
    sim = Simulation(m, seed=seed, crowd=crowd)
    for s, g in zip(starts, goals):
        sim.add_unit(s, unit="walk", goal=g, speed=LEPTONS_PER_CELL)
    gl = np.array(goals, dtype=np.int64)
    # the last tick after which a unit stood off its goal (0: its start; -1: never), its arrival one tick later
    last = np.where((np.array(starts, dtype=np.int64) != gl).any(axis=1), 0, -1)
    width = m.grid.width
    at = np.full(width * m.grid.height, -1, dtype=np.int64)  # the unit on each cell before the tick
    prev = sim.cells() @ np.array([1, width], dtype=np.int64)
    trades = 0
    gc.collect()
    t0 = time.perf_counter()
    c0 = time.process_time()
    tick = 0
    for tick in range(1, ticks + 1):
        sim.step()
        cells = sim.cells()
        now = cells @ np.array([1, width], dtype=np.int64)
        trades += _trades(at, prev, now)
        prev = now
        off = (cells != gl).any(axis=1)
        last[off] = tick
        if not off.any():
            break
    wall = time.perf_counter() - t0
    cpu = time.process_time() - c0
    on = bool((sim.cells() == gl).all())
    arrival = last + 1
    return {"all": on, "makespan": int(arrival.max(initial=0)), "soc": int(arrival.sum()), "ticks": tick,
            "tps": tick / wall, "tps_cpu": tick / max(cpu, 1e-9), "trades": trades}


def _trades(at: np.ndarray, prev: np.ndarray, now: np.ndarray) -> int:
    """How many pairs of units traded cells along one edge in a tick (Red Alert allows it; a MAPF plan does not)."""
    moved = np.flatnonzero(prev != now)
    if len(moved) < 2:
        return 0
    at[prev[moved]] = moved
    other = at[now[moved]]
    at[prev[moved]] = -1
    ok = other >= 0
    pair = moved[ok]
    partner = other[ok]
    return int(((now[partner] == prev[pair]) & (pair < partner)).sum())


def row(name: str, n: int, who: str, ok: bool, ms: int, soc: int, lb: tuple[int, int], ref: tuple[int, int] | None,
        extra: str) -> None:
    r_ms = f"{ms / ref[0]:.2f}" if ref else "-"
    r_soc = f"{soc / ref[1]:.2f}" if ref else "-"
    print(f"| {name} | {n} | {who} | {'yes' if ok else 'NO'} | {ms} | {soc} | {ms / lb[0]:.2f} | {soc / lb[1]:.2f} | "
          f"{r_ms} | {r_soc} | {extra} |", flush=True)


def warm_planner() -> Map:
    """Load every kernel of the planner once (numba's disk cache) before any plan is timed, on a small Moving AI
    board (returned, for the simulation's warm-up)."""
    warm = Map(SquareGrid(6, 3), terrain=np.zeros((3, 6), dtype=np.int16), terrains=MOVINGAI_TERRAINS)
    warm_up_planner(warm)  # (the repair's, the tightening's and time to improve's too: they fire mid-plan)
    plan_crowd(warm, [(0, 1), (5, 1)], [(5, 1), (0, 1)], unit="walk", improve=0.01)
    return warm


def lower_bounds(m: Map, starts: list[tuple[int, int]], goals: list[tuple[int, int]]) -> tuple[int, int]:
    """The largest and the sum of the agents' own distances (an unfinished plan's bounds cover the agents it reached)."""
    d = [int(m.distance_field([g], unit="walk")[s[1], s[0]]) for s, g in zip(starts, goals)]
    return max(d), sum(d)


def instance(name: str, m: Map, starts: list[tuple[int, int]], goals: list[tuple[int, int]],
             ref: tuple[int, int] | None, args: argparse.Namespace) -> None:
    n = len(starts)
    if not args.plan:
        sim_row(name, m, starts, goals, lower_bounds(m, starts, goals), ref, args)
        return
    gc.collect()
    c0, t0 = time.process_time(), time.perf_counter()
    plan = plan_crowd(m, starts, goals, unit="walk", time_limit=args.time_limit, improve=args.improve, seed=args.seed)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    check_plan(m, starts, goals, plan, unit="walk", complete=plan.complete)
    lb = (plan.lower_bound_makespan, plan.lower_bound_sum_of_costs) if plan.complete else lower_bounds(m, starts, goals)
    first = f"first {plan.first_makespan}/{plan.first_sum_of_costs} at {plan.first_seconds:.3f} s; " if plan.complete else ""
    row(name, n, "plan", plan.complete, plan.makespan, plan.sum_of_costs, lb, ref,
        f"{first}returned at {wall:.3f} s, limit {args.time_limit:g} s ({cpu:.3f} s CPU)")
    if args.sim:
        sim_row(name, m, starts, goals, lb, ref, args)


def sim_row(name: str, m: Map, starts: list[tuple[int, int]], goals: list[tuple[int, int]], lb: tuple[int, int],
            ref: tuple[int, int] | None, args: argparse.Namespace) -> None:
    """Simulate the instance (up to ``--ticks``, or 6 x the lower bound + 200) and print its row."""
    cap = args.ticks if args.ticks else 6 * lb[0] + 200
    r = simulate(m, starts, goals, cap, args.seed, args.crowd)
    row(name, len(starts), "sim" if args.crowd else "sim, plain", r["all"], r["makespan"], r["soc"], lb, ref,
        f"{r['ticks']} ticks, {r['tps']:.0f} ticks/s ({r['tps_cpu']:.0f} per CPU second), "
        f"{r['trades']} trades along an edge")


def frame(n: int, ticks: int, seed: int, crowd: bool) -> None:
    """Tick rate of ``n`` units crossing a 512 x 512 board, and the time to read their positions."""
    m = Map(SquareGrid(512, 512))
    sim = Simulation(m, seed=seed, crowd=crowd)
    rng = np.random.default_rng(seed)
    cells = rng.choice(512 * 512, 2 * n, replace=False)
    for i in range(n):
        a, b = int(cells[i]), int(cells[n + i])
        sim.add_unit((a % 512, a // 512), unit="tracked", goal=(b % 512, b // 512), speed=96)
    gc.collect()
    t0, c0 = time.perf_counter(), time.process_time()
    sim.step()
    first, first_cpu = time.perf_counter() - t0, time.process_time() - c0
    for _ in range(ticks - 1):
        sim.step()
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    reps = 2000
    sim.positions()  # (loaded, or compiled after a change of the kernels' files, once: a game's first frame)
    c0, t0 = time.process_time(), time.perf_counter()
    for _ in range(reps):
        sim.positions()
    read_cpu, read_wall = (time.process_time() - c0) / reps, (time.perf_counter() - t0) / reps
    print(f"frame{'' if crowd else ' (plain)'}: {n} units on 512 x 512: first tick {first * 1e3:.1f} ms "
          f"({first_cpu * 1e3:.1f} ms CPU), {ticks / wall:.0f} ticks/s "
          f"({ticks / cpu:.0f} per CPU second) over {ticks} ticks; positions() {read_wall * 1e3:.3f} ms "
          f"({read_cpu * 1e3:.3f} ms CPU) a frame")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agents", default="100,200,400", help="agent counts on random-32-32-10 (comma-separated)")
    ap.add_argument("--movingai", nargs=2, action="append", default=[], metavar=("MAP", "SCEN"))
    ap.add_argument("--movingai-agents", default="100,400", help="agent counts on --movingai instances")
    ap.add_argument("--map", action="append", default=[], metavar="FILE",
                    help="a Moving AI map (4-connected) with --random-pairs agents (e.g. a local den520d.map)")
    ap.add_argument("--random-pairs", default="1000,3000", help="agent counts on --map (random pairs, --seed)")
    ap.add_argument("--cave", default="", help="agent counts on the generated 256 x 257 cave (random pairs)")
    ap.add_argument("--time-limit", type=float, default=1.0)
    ap.add_argument("--improve", type=float, default=0.5)
    ap.add_argument("--ticks", type=int, default=0, help="simulation tick cap (0: 6 x the lower bound + 200)")
    ap.add_argument("--no-sim", dest="sim", action="store_false")
    ap.add_argument("--no-plan", dest="plan", action="store_false",
                    help="simulate only (the lower bounds from the agents' own distances)")
    ap.add_argument("--frame", type=int, default=0, help="units for the frame test on 512 x 512 (0: none)")
    ap.add_argument("--frame-ticks", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--skip", type=int, default=0,
                    help="random-32-32-10's agents from this scenario line on (wrapping round; LaCAM's ratios only at 0)")
    ap.add_argument("--plain", dest="crowd", action="store_false",
                    help="simulate without the crowd rule (Simulation(crowd=False), each unit on its own turn)")
    args = ap.parse_args()
    warm = warm_planner()
    simulate(warm, [(0, 1), (5, 1)], [(5, 1), (0, 1)], 20, 0)
    simulate(warm, [(0, 1), (5, 1)], [(5, 1), (0, 1)], 20, 0, crowd=False)
    print(f"time limit {args.time_limit} s, improve {args.improve} s, seed {args.seed}; ratios: to the lower "
          f"bounds (LB) and to LaCAM's first solution (README of ../shared/data/mapf)\n")
    print("| instance | agents | who | all on goal | makespan | sum of costs | ms/LB | soc/LB | ms/LaCAM | soc/LaCAM | time |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    ref = lacam_reference(MAPF / "README.md")
    if (MAPF / "random-32-32-10.map").is_file() and args.agents:
        m = load_movingai(MAPF / "random-32-32-10.map", diagonal=False)
        scen = MAPF / "random-32-32-10-random-1.scen"
        every, goals = load_movingai_agents(scen, agents=len(load_movingai_scenarios(scen)))
        k = args.skip % len(every)
        every, goals = every[k:] + every[:k], goals[k:] + goals[:k]
        for n in (int(v) for v in args.agents.split(",")):
            name = "random-32-32-10" + (f" from line {k}" if k else "")
            instance(name, m, every[:n], goals[:n], None if k else ref.get(n), args)
    elif args.agents:
        print(f"(no MAPF instance at {MAPF})", file=sys.stderr)
    for mp, sc in args.movingai:
        m = load_movingai(mp, diagonal=False)
        for n in (int(v) for v in args.movingai_agents.split(",")):
            s, g = distinct_agents(m, sc, n)
            instance(Path(mp).stem, m, s, g, None, args)
    for mp in args.map:
        m = load_movingai(mp, diagonal=False)
        for n in (int(v) for v in args.random_pairs.split(",")):
            s, g = random_agents(m, n, args.seed)
            instance(Path(mp).stem, m, s, g, None, args)
    if args.cave:
        m = cave(256, 257, args.seed + 1)
        for n in (int(v) for v in args.cave.split(",")):
            s, g = random_agents(m, n, args.seed)
            instance("cave 256x257", m, s, g, None, args)
    if args.frame:
        print()
        frame(args.frame, args.frame_ticks, args.seed, args.crowd)


if __name__ == "__main__":
    main()
