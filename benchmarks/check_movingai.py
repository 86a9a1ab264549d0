"""Every Moving AI scenario of every shared map, solved and checked (run by hand; a few minutes).

    python benchmarks/check_movingai.py                 # Map.path (JPS on these boards)
    python benchmarks/check_movingai.py --search astar  # the generic A* instead
    python benchmarks/check_movingai.py --maps arena,lak303d

The normal tests check a sample of every map (tests/io/test_movingai.py);
this script checks all of them: the optimal length within 1e-4 (0.01 on the
HOG2 maze file, whose lengths are rounded to 6 significant digits, see the
data README). It prints, per map, the count, the largest error and the
median time per query, and exits with status 1 on any mismatch.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import wargrid
from wargrid.movement import shortest_path
from _bar import bar

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "movingai"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--maps", default="", help="comma-separated map names (default: every map)")
    ap.add_argument("--search", default="auto", choices=("auto", "astar", "jps", "map"),
                    help="the search of wargrid.movement.shortest_path, or 'map': Map.path as a user calls it")
    args = ap.parse_args()
    names = [n for n in args.maps.split(",") if n] or sorted(p.stem for p in DATA.glob("*.map"))
    bad = 0
    total = 0
    print("| map | scenarios | max error | tolerance | median ms | total s |")
    print("|---|---|---|---|---|---|")
    for name in bar(names, "maps"):
        m = wargrid.load_movingai(DATA / f"{name}.map")
        cd = m.cost_field()
        sc = wargrid.load_movingai_scenarios(DATA / f"{name}.map.scen")
        tol = 0.01 if name.startswith("maze") else 1e-4
        worst = 0.0
        times = []
        for s in sc:
            t0 = time.perf_counter()
            if args.search == "map":
                p = m.path(s.start, s.goal)
            else:
                p = shortest_path(m.grid, cd, s.start, s.goal, search=args.search)
            times.append(time.perf_counter() - t0)
            err = float("inf") if p is None else abs(p.cost - s.optimal)
            worst = max(worst, err)
            if err > tol:
                bad += 1
                print(f"MISMATCH {name} {s}: got {None if p is None else p.cost}", file=sys.stderr)
        total += len(sc)
        print(f"| {name} | {len(sc)} | {worst:.2e} | {tol:g} | {1e3 * statistics.median(times):.3f} | {sum(times):.1f} |")
    print(f"\n{total} scenarios, {bad} mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
