"""Square-8 search kernels against an earlier version of themselves on Moving AI scenarios.

Run by hand from the repository root::

    python benchmarks/ab_movingai.py main~1 astar                        # astar_plain, four maps
    python benchmarks/ab_movingai.py main~1 jps_table --maps lak303d,maze512-4-0
    python benchmarks/ab_movingai.py main~1 octile                       # astar_octile against REV's astar_plain

As ``ab_kernels.py`` (whose ``old_package`` it uses): the revision's kernels
are imported as ``wargrid_old``, both sides get the same arrays, each query is
first checked to reach the same cell at the same cost (``octile``: within
``1e-9`` relative, its costs are exact sums), then timed
alternately, best of ``--calls`` by thread CPU time. Prints, per map, the
geometric mean and median over the queries of new/old (below 1: the working
tree is faster). Queries: the top-bucket scenarios of each map, as
``bench_movement.py`` picks them.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import wargrid
from ab_kernels import old_package
from bench_movement import DATA, pick_scenarios
from wargrid.movement.jps import WorkBoard, free_cells
from wargrid.movement.search import SearchState, octile_bits, plain_moves


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rev", help="git revision whose kernels are the 'old' side")
    ap.add_argument("kernel", choices=["astar", "jps_table", "octile"],
                    help="astar: astar_plain; jps_table: the JPS+ search; octile: the working tree's astar_octile_xy "
                         "(integer keys, path traced) against REV's astar_plain (search only)")
    ap.add_argument("--maps", default="arena,lak303d,maze512-4-0,random512-20-0")
    ap.add_argument("--scenarios", type=int, default=30)
    ap.add_argument("--calls", type=int, default=9, help="timed calls of each side a query (best kept)")
    args = ap.parse_args()
    old_package(args.rev, Path(tempfile.mkdtemp()))
    module = "astar" if args.kernel == "octile" else args.kernel
    mods = {"old": importlib.import_module(f"wargrid_old._kernels.movement.{module}"),
            "new": importlib.import_module(f"wargrid._kernels.movement.{module}")}
    for name in args.maps.split(","):
        m = wargrid.load_movingai(DATA / f"{name}.map")
        scens = pick_scenarios(wargrid.load_movingai_scenarios(DATA / f"{name}.map.scen"), args.scenarios)
        cd = m.cost_field()
        topo = m.grid.topology
        tb, pw = topo.kernel_bundle, topo.pw
        moves = plain_moves(topo, cd)
        octb = octile_bits(topo, cd, float(cd.min_cost))
        queries = [(topo.padded_id(*s.start), topo.padded_id(*s.goal)) for s in scens]
        states = {k: SearchState(topo.padded_size) for k in mods}
        boards = {k: WorkBoard(free_cells(cd.cell, pw).free, pw) for k in mods}

        def run(k, a, b, cd=cd, moves=moves, octb=octb, tb=tb, pw=pw, states=states, boards=boards):
            if args.kernel == "octile" and k == "new":
                x = states[k]
                r, _, cost = mods[k].astar_octile_xy(cd.cell, moves, True, a, b, tb, octb, x.arrays, x.next_gen())
                return r, cost
            if args.kernel in ("astar", "octile"):
                x = states[k]
                r = mods[k].astar_plain(cd.cell, moves, True, a, b, tb, float(cd.min_cost), x.arrays, x.next_gen())
                return r, float(x.g[r])
            wb = boards[k]
            xy = mods[k].jps_table(wb.wb, a, b, pw, wb.next_gen())
            return xy.shape[1], float(wb.wf[4 * b + 2])

        for a, b in queries:
            (ro, co), (rn, cn) = run("old", a, b), run("new", a, b)
            if ro != rn or not (co == cn or abs(co - cn) <= 1e-9 * abs(co)):
                sys.exit(f"{name}: the two sides differ on {a} -> {b}")
        ratios = []
        for a, b in queries:
            best = {"old": 1 << 62, "new": 1 << 62}
            for _ in range(args.calls):
                for k in best:
                    t = time.thread_time_ns()
                    run(k, a, b)
                    best[k] = min(best[k], time.thread_time_ns() - t)
            ratios.append(best["new"] / best["old"])
        print(f"{name} {args.kernel}: new/old geometric mean {np.exp(np.mean(np.log(ratios))):.3f}, "
              f"median {np.median(ratios):.3f} ({len(queries)} queries)")


if __name__ == "__main__":
    main()
