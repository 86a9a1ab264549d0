"""The classic pathfinder against A* (``Map.path``) on the Moving AI maps, in the same run.

For each map, 50 scenarios spread evenly over the buckets (short to long).
Reports, per map: how many the classic search finished, its extra length
over the optimum (classic length / optimal length: mean, median, worst), A*'s
own length check, and the time ratio A* / classic (> 1: classic is faster).
Both are compiled before timing; each query is timed best of ``--repeat``.

    python benchmarks/bench_classic.py                 # every map, 50 scenarios each
    python benchmarks/bench_classic.py --maps arena lak303d --n 20
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from pathlib import Path

import numpy as np

from wargrid import load_movingai, load_movingai_scenarios
from _bar import bar

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "movingai"


def pick(scens: list, n: int) -> list:
    """``n`` scenarios spread evenly over the file (its buckets grow with the path length)."""
    if len(scens) <= n:
        return scens
    idx = np.linspace(0, len(scens) - 1, n).round().astype(int)
    return [scens[i] for i in idx]


def best_time(fn, repeat: int) -> tuple[float, object]:
    best, out = math.inf, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--maps", nargs="*", default=None, help="map names (default: every .map in the data folder)")
    ap.add_argument("--n", type=int, default=50, help="scenarios per map")
    ap.add_argument("--repeat", type=int, default=3, help="timings per query (best kept)")
    args = ap.parse_args()
    names = args.maps or sorted(p.stem for p in DATA.glob("*.map"))
    print(f"{'map':18} {'done':>7} {'extra mean':>10} {'median':>7} {'worst':>7} {'A* ok':>6} "
          f"{'classic ms':>10} {'A* ms':>8} {'A*/classic':>10}")
    all_ratio, t_classic, t_astar = [], 0.0, 0.0
    for name in bar(names, "maps"):
        m = load_movingai(DATA / f"{name}.map")
        scens = pick(load_movingai_scenarios(DATA / f"{name}.map.scen"), args.n)
        s0 = scens[0]
        m.classic_path(s0.start, s0.goal)  # compile / warm the caches
        m.path(s0.start, s0.goal)
        done, ratios, astar_ok, tc, ta = 0, [], 0, 0.0, 0.0
        for s in scens:
            dc, cp = best_time(lambda: m.classic_path(s.start, s.goal), args.repeat)
            da, ap_ = best_time(lambda: m.path(s.start, s.goal), args.repeat)
            tc += dc
            ta += da
            if ap_ is not None and abs(ap_.cost - s.optimal) <= 0.01:
                astar_ok += 1
            if cp.arrived:
                done += 1
                ratios.append(cp.length / s.optimal if s.optimal > 0 else 1.0)
        all_ratio += ratios
        t_classic += tc
        t_astar += ta
        mean = statistics.fmean(ratios) if ratios else math.nan
        med = statistics.median(ratios) if ratios else math.nan
        worst = max(ratios) if ratios else math.nan
        print(f"{name:18} {done:>3}/{len(scens):<3} {mean:>10.3f} {med:>7.3f} {worst:>7.3f} {astar_ok:>3}/{len(scens):<2} "
              f"{1e3 * tc / len(scens):>10.3f} {1e3 * ta / len(scens):>8.3f} {ta / tc:>10.2f}")
    if all_ratio and min(all_ratio) < 1 - 1e-9:
        print(f"WARNING: a classic path is shorter than the optimum (ratio {min(all_ratio):.6f}): a bug")
    if all_ratio:
        print(f"{'all':18} {len(all_ratio):>7} {statistics.fmean(all_ratio):>10.3f} {statistics.median(all_ratio):>7.3f} "
              f"{max(all_ratio):>7.3f} {'':>6} {'':>10} {'':>8} {t_astar / t_classic:>10.2f}")
    print("extra = classic length / optimal length over the scenarios the classic search finished; "
          "A*/classic = total A* time / total classic time (same run, same queries).")


if __name__ == "__main__":
    main()
