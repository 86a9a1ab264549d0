"""A further class's customization on a shared structure, wall and CPU time (``docs/design/prepared.md``).

Builds the 512² hex board of ``bench_weighted.py`` (seed 3, with or without rivers), prepares its first class (the
structure), then customizes each further class ``--repeats`` times as ``Map.prepare`` does (``CustomizedPaths`` on the
shared structure) and prints the medians a class. To compare two trees, run it alternately with ``PYTHONPATH`` on each:

    PYTHONPATH=src nice python benchmarks/cch_further.py --rivers --repeats 3
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time

import wargrid
from wargrid.movement import cch


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=int, default=512)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--rivers", action="store_true", help="the board with rivers (default: without, rivers=0)")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    m = wargrid.generate(args.size, args.size, kind="hex", seed=args.seed, **({} if args.rivers else {"rivers": 0}))
    classes = list(m.terrains.classes)
    st = m.prepare(unit=classes[0], progress=False).structure
    out = {}
    for unit in classes[1:]:
        field = m.prepare(unit=unit, progress=False).costs  # (also loads the kernels)
        wall, cpu = [], []
        for _ in range(args.repeats):
            gc.collect()
            t0, c0 = time.perf_counter(), time.process_time()
            cp = cch.CustomizedPaths(st, field, 0.0)
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            del cp
        out[unit] = {"wall_s": round(statistics.median(wall), 3), "cpu_s": round(statistics.median(cpu), 3)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
