"""Where a tick of the frame test goes: ``bench_crowd.py --frame``'s units (3000 on 512 x 512, random pairs), each
phase of ``Simulation.step`` timed by a wrapper (the plan phase, the crowd rule's bundle, ``crowd_pass``,
``tick_units``), the first tick apart, and per tick the crowd pass's members and the nodes its tables settled.

    PYTHONPATH=src python benchmarks/profile_tick.py [--units 3000] [--ticks 100] [--per-tick]

The wrappers cost about a microsecond a call (the phases' sum is a little below the step's).
"""

from __future__ import annotations

import argparse
import gc
import time
from typing import Any

import numpy as np

from wargrid import Map, SquareGrid
from wargrid._kernels.rts import layout as L
from wargrid.rts import sim as S

TIMES: dict[str, list[tuple[float, float]]] = {}


def timed(owner: Any, name: str, label: str) -> None:
    """Replace ``owner.name`` with a wrapper that records each call's wall and CPU seconds under ``label``."""
    f = getattr(owner, name)

    def wrapper(*a: Any, **k: Any) -> Any:
        t0, c0 = time.perf_counter(), time.process_time()
        r = f(*a, **k)
        TIMES.setdefault(label, []).append((time.perf_counter() - t0, time.process_time() - c0))
        return r

    setattr(owner, name, wrapper)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--units", type=int, default=3000)
    ap.add_argument("--ticks", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--per-tick", action="store_true", help="each tick's crowd pass: ms, members standing, nodes")
    args = ap.parse_args()
    n = args.units
    m = Map(SquareGrid(512, 512))
    sim = S.Simulation(m, seed=args.seed)
    rng = np.random.default_rng(args.seed)
    cells = rng.choice(512 * 512, 2 * n, replace=False)
    for i in range(n):
        a, b = int(cells[i]), int(cells[n + i])
        sim.add_unit((a % 512, a // 512), unit="tracked", goal=(b % 512, b // 512), speed=96)
    kc, kk = S._load_crowd(), S._kernels()
    crowd_pass = kc.crowd_pass
    rows: list[tuple[float, int, int]] = []

    def counted(units: Any, order: Any, clock: Any, topo: Any, occ: Any, out: Any, cz: Any) -> Any:
        ui, lz = units[0], cz[0]
        standing = int(((ui[order, L.NXT] < 0) & (ui[order, L.TARGET] >= 0)).sum())
        n0, t0 = int(lz.free[2]), time.perf_counter()
        r = crowd_pass(units, order, clock, topo, occ, out, cz)
        rows.append((time.perf_counter() - t0, standing, int(lz.free[2]) - n0))
        return r

    kc.crowd_pass = counted
    timed(S.Simulation, "step", "step")
    timed(S.Simulation, "_plan_phase", "plan phase")
    timed(S.Simulation, "_plan_one", "  a search (_plan_one)")
    timed(S._CrowdRule, "bundle", "crowd bundle")
    timed(kc, "crowd_pass", "crowd_pass")
    timed(kk, "tick_units", "tick_units")
    gc.collect()
    try:
        for _ in range(args.ticks):
            sim.step()
    finally:
        kc.crowd_pass = crowd_pass
    steps = len(TIMES["step"])
    print(f"{n} units on 512 x 512, {args.ticks} ticks: ms a tick (wall / CPU), the first tick apart")
    print("| phase | calls | first tick | mean of the rest (a tick) |")
    print("|---|---|---|---|")
    for label, ts in TIMES.items():
        a = np.array(ts)
        first = a[:1].sum(axis=0) if label != "  a search (_plan_one)" else a[:0].sum(axis=0)
        rest = a.sum(axis=0) - first
        print(f"| {label} | {len(ts)} | {first[0] * 1e3:.2f} / {first[1] * 1e3:.2f} | "
              f"{rest[0] * 1e3 / max(1, steps - 1):.3f} / {rest[1] * 1e3 / max(1, steps - 1):.3f} |")
    if args.per_tick:
        for t, (ms, standing, nodes) in enumerate(rows):
            print(f"tick {t + 1}: crowd_pass {ms * 1e3:.2f} ms, {standing} standing, {nodes} nodes settled")


if __name__ == "__main__":
    main()
