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

With ``--split`` the same edit is timed in finer parts, by wrappers around the
calls (each wrapper's own cost, a few microseconds, lands in its part):
``set_terrain`` = foot's field patched (``patch``: the copy, the entry costs,
``with_cells``), the zones' local update (``zones``) and the rest (checks,
events: ``map``); the next path = the partial customization (``sync``: of it
``step_changes``, the kernel ``update`` and its thread's CPU time
``update_cpu``, less moved than wall-clock by other work on a shared
machine; the rest ``glue``), the search
(``search``: the kernel ``query``), the unpacking (``unpack``: the kernel
``unpack``; the two run as the one call ``path`` does, split) and the Python
around them (``py``: ``Map.path``'s checks, the dispatcher, ``Path``); ``outside``: the whole edit but the
kernels (``step_changes``, ``update``, ``search``, ``unpack``). ``whole_cpu``: the whole edit's thread CPU time
(every part runs on the calling thread).

With ``--cold`` each edit is followed by a Dijkstra search of the whole board (``Map.distance_field`` from the query's
start) before it is undone, as ``bench_weighted.py`` checks each answer: the next edit's partial customization then
reads its data after that search and the undo, while its query's was read by the same query just before (the cell is
picked from its path), as there.

    PYTHONPATH=src python benchmarks/cch_edits.py --size 512 --seed 3 [--rivers] [--split] [--every-arc] [--cold]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from bench_weighted import pick_queries  # the scripts' folder is on sys.path when run as a script

import wargrid
from wargrid._kernels.movement import cch as k
from wargrid.movement.zones import ZoneState

PARTS = ("update", "update_cpu", "patch", "zones", "step_changes", "search", "unpack")
"""The parts timed by wrappers (``--split``; ``update`` always)."""


def path_cells(m, queries, edits: int):  # type: ignore[no-untyped-def]
    """``(start, goal, cell)`` of each of ``edits`` rises: a random cell (without overlay) of query ``i``'s path (of
    ``queries``, in turn), as the benchmark picks them; the map read when each is asked for (the one before undone)."""
    rng = np.random.default_rng(11)
    for i in range(edits):
        a, b, _ = queries[i % len(queries)]
        p = m.path(a, b, unit="foot")
        inner = [] if p is None else [c for c in p.cells[1:-1] if m.overlay_name(c) is None]
        if inner:
            yield a, b, inner[int(rng.integers(len(inner)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=int, default=512)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--rivers", action="store_true", help="the generator's rivers (else rivers=0)")
    ap.add_argument("--edits", type=int, default=50)
    ap.add_argument("--worst", type=int, default=5, help="the slowest edits listed")
    ap.add_argument("--split", action="store_true", help="the finer parts (see the notes)")
    ap.add_argument("--cold", action="store_true", help="a whole-board Dijkstra after each edit (see the notes)")
    ap.add_argument("--every-arc", action="store_true", help="the finite arcs dropped: the query after an edit over "
                    "every arc, as before they were kept (docs/design/prepared.md, 2026-12-03)")
    args = ap.parse_args()
    m = wargrid.generate(args.size, args.size, kind="hex", seed=args.seed, **({} if args.rivers else {"rivers": 0}))
    queries = pick_queries(m, 20, seed=100 + args.rivers)
    wargrid.warm_up("movement")
    pp = m.prepare(unit="foot", progress=False)
    pp.build_query_arcs()
    for unit in list(m.terrains.classes)[1:]:
        m.prepare(unit=unit, progress=False)
    pp.prepare_edits()  # made ahead, untimed, as bench_weighted.py's edit rows do
    if args.every_arc:
        pp._lean = None  # (the queries then relax every arc until the query arcs are rebuilt)
    for a, b, _ in queries[:3]:
        m.path(a, b, unit="foot")

    seen: dict[str, float] = {}

    def wrap(owner, name, key):  # type: ignore[no-untyped-def]
        """``owner.name`` timed into ``seen[key]`` (summed over the calls of one edit); ``restore`` undoes it."""
        fn = getattr(owner, name)

        def timed(*a, **kw):  # type: ignore[no-untyped-def]
            t0, c0 = time.perf_counter(), time.thread_time()
            out = fn(*a, **kw)
            seen[key] = seen.get(key, 0.0) + time.perf_counter() - t0
            if key == "update":  # (and its thread's CPU time: less moved by other work on a shared machine)
                seen.update(changed=out[0], recomputed=out[2], update_cpu=time.thread_time() - c0)
            return out

        setattr(owner, name, timed)
        restore.append((owner, name, fn))

    def split_path(s, t, fwd, bwd, tree, low, cs, ct, df, db, pf, pb, *rest):  # type: ignore[no-untyped-def]
        """The kernel ``path`` as its two kernels, timed apart."""
        t0 = time.perf_counter()
        cost, meet, nf, nb = k.query(s, t, fwd, bwd, tree, low, cs, ct, df, db, pf, pb)
        t1 = time.perf_counter()
        seen["search"] = seen.get("search", 0.0) + t1 - t0
        if meet < 0 or not cost < np.inf:
            return cost, np.empty((0, 2), dtype=np.int64), 0.0, False
        out = k.unpack(s, nf, nb, pf, pb, *rest)
        seen["unpack"] = seen.get("unpack", 0.0) + time.perf_counter() - t1
        return (cost, *out)

    restore: list = []
    wrap(k, "update", "update")
    if args.split:
        wrap(m, "_patch_cost_field", "patch")
        wrap(ZoneState, "update", "zones")
        wrap(k, "step_changes", "step_changes")
        restore.append((k, "path", k.path))
        k.path = split_path
    rows = []
    base = np.asarray(m.terrain)
    for a, b, cell in path_cells(m, queries, args.edits):
        old = m.terrains.names[int(base[cell[1], cell[0]])]
        seen.clear()
        c0 = time.thread_time()
        t0 = time.perf_counter()
        m.set_terrain([cell], "water")
        t1 = time.perf_counter()
        pp.sync(m.derived.cost_field("foot"))
        t2 = time.perf_counter()
        m.path(a, b, unit="foot")
        t3 = time.perf_counter()
        row = {"whole": t3 - t0, "whole_cpu": time.thread_time() - c0, "set_terrain": t1 - t0, "sync": t2 - t1,
               "query": t3 - t2, "cell": cell, "changed": seen.get("changed", 0), "recomputed": seen.get("recomputed", 0)}
        row.update({key: seen.get(key, 0.0) for key in PARTS})
        row.update(map=row["set_terrain"] - row["patch"] - row["zones"],
                   glue=row["sync"] - row["step_changes"] - row["update"],
                   py=row["query"] - row["search"] - row["unpack"])
        row.update(outside=row["whole"] - row["step_changes"] - row["update"] - row["search"] - row["unpack"])
        rows.append(row)
        if args.cold:
            m.distance_field(a, unit="foot")
        m.set_terrain([cell], old)
    for owner, name, fn in reversed(restore):
        setattr(owner, name, fn)
    times = ("whole", "whole_cpu", "set_terrain", "sync", "update", "query")
    if args.split:
        times = ("whole", "whole_cpu", "set_terrain", "patch", "zones", "map", "sync", "step_changes", "update",
                 "update_cpu", "glue", "query", "search", "unpack", "py", "outside")
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
