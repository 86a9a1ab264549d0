"""Every default unit class of the 1200 x 1200 world prepared, in one process: time, memory, queries.

The world is ``bench_weighted.py``'s: ``generate(1200, 1200, kind="hex", seed=5)``. Each class of the terrain
table is prepared in turn (``Map.prepare(unit=...)``); then, per class, ``--queries`` random pairs of cells the
class can stand on (at least a quarter of the board apart) are answered by ``Map.distance`` alone (the class as
prepared, before any path), then by ``Map.distance`` and ``Map.path`` (every answer checked against one Dijkstra
field a class, for the first pairs), and the medians printed. Memory:
the growth of the resident peak (``VmHWM``) over the builds and what the prepared structures hold.

    PYTHONPATH=src python benchmarks/prepare_world.py              # 1200 x 1200, seed 5
    PYTHONPATH=src python benchmarks/prepare_world.py --size 256   # a quick look
    PYTHONPATH=src python benchmarks/prepare_world.py --arrays     # what each class holds, array by array
"""

from __future__ import annotations

import argparse
import re
import statistics
import time

import numpy as np

import wargrid


def status(key: str) -> int:
    with open("/proc/self/status") as f:
        return int(re.search(rf"{key}:\s+(\d+) kB", f.read()).group(1)) * 1024


def reset_peak() -> None:
    try:
        with open("/proc/self/clear_refs", "w") as out:
            out.write("5")  # resets VmHWM
    except OSError:
        pass


def arrays(pp, cells: int) -> str:
    """What a prepared class holds, bytes a cell an array (``pp.bytes`` counts each array once)."""
    parts = {f"metric.{k}": a for k, a in zip(pp.metric._fields, pp.metric)}
    for name in ("_fast", "_lean"):
        qa = getattr(pp, name, None)
        if qa is not None:
            for way in ("fwd", "bwd"):
                parts.update({f"{name}.{way}.{k}": a for k, a in zip(("first", "head", "weight"), getattr(qa, way))})
            parts.update({f"{name}.fwd_arc": qa.fwd_arc, f"{name}.bwd_arc": qa.bwd_arc})
    for k, a in zip(("weights in down-list order", "legs' counts"), getattr(pp, "_down", None) or ()):
        parts[f"_down.{k}"] = a
    seen, out = set(), []
    for k, a in parts.items():
        if id(a) not in seen and a.nbytes:
            seen.add(id(a))
            out.append(f"{k} {a.nbytes / cells:.1f} ({a.dtype})")
    return ", ".join(out)


def pairs(m, unit: str, n: int, rng) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    ok = np.isfinite(m.cost_field(unit=unit).cells())
    ys, xs = np.nonzero(ok)
    out = []
    while len(out) < n:
        i, j = rng.integers(0, xs.shape[0], 2)
        a, b = (int(xs[i]), int(ys[i])), (int(xs[j]), int(ys[j]))
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) >= m.width // 4:
            out.append((a, b))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=1200)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--checked", type=int, default=10, help="pairs a class checked against Dijkstra")
    ap.add_argument("--query-arcs", action="store_true", help="then build each class's query arcs and query again")
    ap.add_argument("--arrays", action="store_true", help="say what each class holds, array by array")
    ap.add_argument("--only", default="", help="these classes only (comma-separated)")
    ap.add_argument("--customizable", action="store_true", help="customizable=True: for versions whose Map.prepare built another structure")
    args = ap.parse_args()
    options = {"customizable": True} if args.customizable else {}
    wargrid.warm_up("movement")
    m = wargrid.generate(args.size, args.size, kind="hex", seed=args.seed, progress=False)
    cells = m.width * m.height
    units = [u for u in m.terrains.classes if not args.only or u in args.only.split(",")]
    for u in units:
        m.cost_field(unit=u)
    rss = status("VmRSS")
    reset_peak()
    t_all = time.perf_counter()
    held = {}
    for u in units:
        t0 = time.perf_counter()
        pp = m.prepare(unit=u, progress=False, **options)
        held[u] = pp
        print(f"{u}: prepared in {time.perf_counter() - t0:.1f} s, holds {pp.bytes / cells:.0f} bytes a cell"
              f" (resident peak +{(status('VmHWM') - rss) / 2**30:.2f} GiB)", flush=True)
        if args.arrays:
            print(f"  {arrays(pp, cells)}", flush=True)
    total = time.perf_counter() - t_all
    shared = getattr(getattr(held[units[0]], "structure", None), "bytes", 0)
    print(f"{len(units)} classes prepared in {total:.1f} s; resident peak +{(status('VmHWM') - rss) / 2**30:.2f} GiB;"
          f" shared structure {shared / cells:.0f} bytes a cell;"
          f" a class {statistics.median(p.bytes for p in held.values()) / cells:.0f} bytes a cell (median)", flush=True)
    rng = np.random.default_rng(7)
    for u in units:
        pp = held[u]
        qs = pairs(m, u, args.queries, rng)
        dist = []
        for a, b in qs:  # a class just prepared, before any path: distances over what it holds (its finite arcs)
            t0 = time.perf_counter()
            m.distance(a, b, unit=u)
            dist.append(time.perf_counter() - t0)
        print(f"{u}: {len(qs)} distances before any path, median {statistics.median(dist) * 1e3:.2f} ms", flush=True)
        for a, b in qs[: args.checked]:
            want = float(m.distance_field(a, unit=u)[b[1], b[0]])
            got = m.distance(a, b, unit=u)
            p = m.path(a, b, unit=u)
            if not (got == want or abs(got - want) <= 1e-9 * max(1.0, want)) or (p is None) != (want == float("inf")) \
                    or (p is not None and abs(p.cost - want) > 1e-9 * max(1.0, want)):
                raise SystemExit(f"{u}: {a} -> {b}: prepared {got} / {None if p is None else p.cost} != Dijkstra {want}")
        rounds = [("", None)]
        if args.query_arcs and hasattr(pp, "build_query_arcs"):
            rounds.append((" (query arcs)", pp.build_query_arcs))
        for label, before in rounds:
            if before is not None:
                t0 = time.perf_counter()
                before()
                print(f"{u}: query arcs built in {time.perf_counter() - t0:.1f} s, now {pp.bytes / cells:.0f} bytes a"
                      f" cell", flush=True)
                if args.arrays:
                    print(f"  {arrays(pp, cells)}", flush=True)
            dist, path = [], []
            for a, b in qs:
                t0 = time.perf_counter()
                m.distance(a, b, unit=u)
                dist.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                m.path(a, b, unit=u)
                path.append(time.perf_counter() - t0)
            print(f"{u}{label}: {len(qs)} queries, distance median {statistics.median(dist) * 1e3:.2f} ms, path median"
                  f" {statistics.median(path) * 1e3:.2f} ms, worst {max(path) * 1e3:.1f} ms", flush=True)
    print(f"resident peak over the builds and queries: +{(status('VmHWM') - rss) / 2**30:.2f} GiB")


if __name__ == "__main__":
    main()
