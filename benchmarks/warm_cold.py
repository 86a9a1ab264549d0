"""Square-8 path queries with warm caches and with caches emptied first.

Run by hand from the repository root::

    python benchmarks/warm_cold.py                          # arena, lak303d, maze512-4-0; 64 MB read between
    python benchmarks/warm_cold.py --maps AR0602SR --evict-mb 16

``bench_movement.py`` times each query once, right after tcod's query of the
same scenario, so wargrid starts with caches that tcod filled. This script
tells that part apart: each query is timed (best of ``--calls``) once right
after the same call (warm) and once right after reading ``--evict-mb``
megabytes of other data (cold), for ``Map.path`` (JPS here), the table JPS
search alone (``jps.table_cells``) and A* (``search='astar'``). Prints medians
over the top-bucket scenarios in milliseconds.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

import wargrid
from bench_movement import DATA, pick_scenarios
from wargrid.movement import shortest_path
from wargrid.movement.jps import table_cells


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--maps", default="arena,lak303d,maze512-4-0")
    ap.add_argument("--scenarios", type=int, default=20)
    ap.add_argument("--calls", type=int, default=5)
    ap.add_argument("--evict-mb", type=int, default=64)
    args = ap.parse_args()
    other = np.ones((args.evict_mb << 20) // 8)
    warnings.simplefilter("ignore", DeprecationWarning)
    print(f"| map | Map.path warm | cold | table JPS warm | cold | A* warm | cold |  (ms, {args.evict_mb} MB read before cold)")
    print("|---|---|---|---|---|---|---|")
    for name in args.maps.split(","):
        m = wargrid.load_movingai(DATA / f"{name}.map")
        scens = pick_scenarios(wargrid.load_movingai_scenarios(DATA / f"{name}.map.scen"), args.scenarios)
        grid, cd = m.grid, m.cost_field()
        topo = grid.topology
        cols: dict[str, list[float]] = {}
        for s in scens:
            a, b = topo.padded_id(*s.start), topo.padded_id(*s.goal)
            calls = {"path": lambda s=s: m.path(s.start, s.goal),
                     "table": lambda a=a, b=b: table_cells(grid, cd, a, b),
                     "astar": lambda s=s: shortest_path(grid, cd, s.start, s.goal, search="astar")}
            for what, fn in calls.items():
                fn()
                for mode in ("warm", "cold"):
                    best = np.inf
                    for _ in range(args.calls):
                        if mode == "cold":
                            other.sum()
                        else:
                            fn()
                        t = time.perf_counter()
                        fn()
                        best = min(best, time.perf_counter() - t)
                    cols.setdefault(f"{what} {mode}", []).append(best)
        print(f"| {name} | " + " | ".join(f"{np.median(v) * 1e3:.3f}" for v in cols.values()) + " |")


if __name__ == "__main__":
    main()
