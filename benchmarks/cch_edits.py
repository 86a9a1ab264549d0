"""Where a customizable class's edit -> next exact answer goes (``wargrid.movement.cch``), part by part.

The edits of ``bench_weighted.py``'s routingkit section:
a random cell (without overlay) of one of 20 long random queries' paths made
water, then that query again, each edit undone after; every class of the
terrain table prepared first (as the benchmark does), the foot
class's query arcs built and its edits prepared (``prepare_edits``). Each edit is split into ``Map.set_terrain`` (the
map's own edit: cost fields, zones), the partial customization
(``CustomizedPaths.sync``; its kernel ``update`` timed alone, with the arcs it
changed and recomputed) and the next query (``Map.path``). Wall-clock
times; medians and the worst edits.

    PYTHONPATH=src python benchmarks/cch_edits.py --size 512 --seed 3 [--rivers]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from bench_weighted import pick_queries  # the scripts' folder is on sys.path when run as a script

import wargrid
from wargrid._kernels.movement import cch as k


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=int, default=512)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--rivers", action="store_true", help="the generator's rivers (else rivers=0)")
    ap.add_argument("--edits", type=int, default=50)
    ap.add_argument("--worst", type=int, default=5, help="the slowest edits listed")
    args = ap.parse_args()
    m = wargrid.generate(args.size, args.size, kind="hex", seed=args.seed, **({} if args.rivers else {"rivers": 0}))
    queries = pick_queries(m, 20, seed=100 + args.rivers)
    wargrid.warm_up("movement")
    pp = m.prepare(unit="foot", progress=False)
    pp.build_query_arcs()
    for unit in list(m.terrains.classes)[1:]:
        m.prepare(unit=unit, progress=False)
    pp.prepare_edits()  # made ahead, untimed, as bench_weighted.py's edit rows do
    for a, b, _ in queries[:3]:
        m.path(a, b, unit="foot")

    seen: dict[str, float] = {}
    update = k.update

    def timed_update(*a):  # type: ignore[no-untyped-def]
        t0 = time.perf_counter()
        out = update(*a)
        seen.update(update=time.perf_counter() - t0, changed=out[0], recomputed=out[2])
        return out

    k.update = timed_update
    rows = []
    rng = np.random.default_rng(11)
    base = np.asarray(m.terrain)
    for i in range(args.edits):
        a, b, _ = queries[i % len(queries)]
        p = m.path(a, b, unit="foot")
        inner = [] if p is None else [c for c in p.cells[1:-1] if m.overlay_name(c) is None]
        if not inner:
            continue
        cell = inner[int(rng.integers(len(inner)))]
        old = m.terrains.names[int(base[cell[1], cell[0]])]
        seen.clear()
        t0 = time.perf_counter()
        m.set_terrain([cell], "water")
        t1 = time.perf_counter()
        pp.sync(m.derived.cost_field("foot"))
        t2 = time.perf_counter()
        m.path(a, b, unit="foot")
        t3 = time.perf_counter()
        rows.append({"whole": t3 - t0, "set_terrain": t1 - t0, "sync": t2 - t1, "update": seen.get("update", 0.0),
                     "query": t3 - t2, "changed": seen.get("changed", 0), "recomputed": seen.get("recomputed", 0),
                     "cell": cell})
        m.set_terrain([cell], old)
    k.update = update
    times = ("whole", "set_terrain", "sync", "update", "query")
    print(f"{len(rows)} edits, ms (arcs: changed / recomputed by the partial customization)")
    print("| edit | " + " | ".join(times) + " | arcs |")
    print("|---" * (len(times) + 2) + "|")
    med = {t: statistics.median(r[t] for r in rows) for t in (*times, "changed", "recomputed")}
    print("| median | " + " | ".join(f"{med[t] * 1e3:.2f}" for t in times)
          + f" | {med['changed']:.0f} / {med['recomputed']:.0f} |")
    for r in sorted(rows, key=lambda r: -r["whole"])[:args.worst]:
        print(f"| {r['cell']} | " + " | ".join(f"{r[t] * 1e3:.2f}" for t in times)
              + f" | {r['changed']} / {r['recomputed']} |")


if __name__ == "__main__":
    main()
