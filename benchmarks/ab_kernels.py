"""Kernels against an earlier version of themselves: same arrays, calls alternating, best of N by thread CPU time.

Run by hand from the repository root, naming a git revision to compare with::

    python benchmarks/ab_kernels.py main~3                  # every case, 512 x 512, best of 31
    python benchmarks/ab_kernels.py main --size 300 --calls 101 --only "territory,zones"

The revision's ``src/wargrid/_kernels`` (and the two modules they import) is
copied by ``git archive`` into a temporary folder as the package
``wargrid_old``; the boards, costs and bundles are made by the installed
wargrid and handed to both kernels. Each case first checks that both give the
same results, then times them alternately (so both see the same machine load)
and prints ``new/old`` (below 1: the working tree is faster). Thread CPU time
leaves out the time the process waits for a core; on a loaded machine repeat a
run and read the spread. This is how ``docs/design/kernels.md`` measured its
folds.
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from wargrid import HexGrid, SquareGrid
from wargrid._kernels.bundles import FieldArrays
from wargrid.costs import CostField
from wargrid.movement.jps import WorkBoard, free_cells
from wargrid.movement.search import SearchState, key_bits, padded_id, plain_moves, topo_bundle
from wargrid.territory._graph import land_graph

E8 = np.zeros(0, np.uint8)


def old_package(rev: str, into: Path) -> None:
    """``rev``'s kernels as the package ``wargrid_old`` under ``into``."""
    paths = ["src/wargrid/_kernels", "src/wargrid/_progress.py", "src/wargrid/errors.py"]
    tar = subprocess.run(["git", "archive", rev, *paths], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=tar, check=True)
    (into / "src" / "wargrid").rename(into / "wargrid_old")
    (into / "wargrid_old" / "__init__.py").write_text("")
    sys.path.insert(0, str(into))


def movement_cases(size: int, rng: np.random.Generator) -> list:
    cases = []
    boards = {"sq8wrap": SquareGrid(size, size, diagonal=True, wrap_x=True),
              "sq8": SquareGrid(size, size, diagonal=True), "hex": HexGrid(size, size)}
    for bname, g in boards.items():
        cost = rng.choice([1.0, 1.5, 2.0, 3.0] if bname == "hex" else [1.0, 1.3, 2.7], size=(size, size))
        cost[rng.random((size, size)) < 0.2] = np.inf
        cost[0, 0] = cost[-1, -1] = 1.0
        c = CostField.from_arrays(g, cost)
        topo = g.topology
        tb = topo_bundle(topo)
        n = topo.padded_size
        s, t = padded_id(topo, (0, 0)), padded_id(topo, (size - 1, size - 1))

        def field(n=n):
            return FieldArrays(np.full(n, np.inf), np.full(n, -9, np.int32), np.full(n, -1, np.int8),
                               np.empty(n, np.int32), np.empty(n), np.empty(n, np.int32))

        def astar(m, c=c, tb=tb, s=s, t=t, n=n):
            x = SearchState(n)
            r = m.astar(c.cell, c.edge, E8, s, t, tb, float(c.min_cost), False, x.arrays, x.next_gen())
            return r, x.g[r], x.stamp

        def dijkstra(m, rev, c=c, tb=tb, s=s, t=t, field=field):
            f = field()
            return m.dijkstra(c.cell, c.edge, E8, np.array([s, t]), tb, np.inf, rev, f), f.dist, f.parent

        cases += [(f"{bname} astar", "movement.astar", astar),
                  (f"{bname} dijkstra", "movement.dijkstra", lambda m, d=dijkstra: d(m, False)),
                  (f"{bname} dijkstra rev", "movement.dijkstra", lambda m, d=dijkstra: d(m, True))]
        if topo.wrap:
            continue
        mv = plain_moves(topo, c)

        def astar_plain(m, c=c, tb=tb, s=s, t=t, n=n, mv=mv):
            x = SearchState(n)
            r = m.astar_plain(c.cell, mv, False, s, t, tb, float(c.min_cost), x.arrays, x.next_gen())
            return r, x.g[r], x.stamp

        def dijkstra_plain(m, c=c, tb=tb, s=s, mv=mv, field=field):
            f = field()
            k = m.dijkstra_plain(c.cell, mv, False, float(c.min_cost), np.array([s]), tb, np.inf, False, True, f)
            return k, f.dist, f.parent

        cases += [(f"{bname} astar_plain", "movement.astar", astar_plain),
                  (f"{bname} dijkstra_plain", "movement.dijkstra", dijkstra_plain)]
        if bname == "hex":
            kb = key_bits(topo, c, float(c.min_cost))

            def astar_keyed(m, c=c, tb=tb, s=s, t=t, n=n, kb=kb):
                x = SearchState(n)
                r = m.astar_keyed(c.cell, s, t, tb, float(c.min_cost), kb, x.arrays, x.next_gen())
                return r, x.g[r], x.stamp

            cases.append(("hex astar_keyed", "movement.astar", astar_keyed))
    g = SquareGrid(size, size, diagonal=True)
    cost = np.ones((size, size))
    cost[rng.random((size, size)) < 0.25] = np.inf
    c = CostField.from_arrays(g, cost)
    pw = g.topology.pw
    queries = [(padded_id(g.topology, (int(a), int(b))), padded_id(g.topology, (int(x), int(y))))
               for a, b, x, y in rng.integers(0, size, (40, 4))]
    work: dict = {}

    def jps_table(m):
        wb = work.setdefault(m, WorkBoard(free_cells(c.cell, pw).free, pw))
        return np.array([m.jps_table(wb.wb, a, b, pw, wb.next_gen()).sum() for a, b in queries])

    cases.append(("sq8 jps_table x40", "movement.jps_table", jps_table))
    return cases


def territory_cases(size: int, rng: np.random.Generator) -> list:
    cases = []
    for bname, g in {"hex": HexGrid(size, size), "sq8": SquareGrid(size, size, diagonal=True)}.items():
        land = rng.random((size, size)) > 0.2
        lg = land_graph(g, land)
        nbr = lg.nbr
        n = nbr.shape[0]
        xs = (lg.cells % size).astype(np.float64)
        ys = (lg.cells // size).astype(np.float64)
        blocks = (np.floor(xs / (size / 4)) + 4 * np.floor(ys / (size / 2))).astype(np.int64) % 8
        seeds = rng.choice(n, 8, replace=False).astype(np.int64)
        zero = np.zeros(n, np.int64)
        t = g.topology
        padded = t.pad(land.astype(np.uint8), 0)
        cases += [
            (f"{bname} bfs", "territory.graph", lambda m, nbr=nbr, s=seeds, z=zero: m.bfs(nbr, s[:1], z, -1)),
            (f"{bname} label_chunks", "territory.graph", lambda m, nbr=nbr, o=blocks: m.label_chunks(nbr, o)),
            (f"{bname} farthest_points", "territory.graph",
             lambda m, nbr=nbr, n=n: m.farthest_points(nbr, np.arange(n), 12, 0)),
            (f"{bname} build_graph", "territory.graph",
             lambda m, t=t, p=padded: m.build_graph(p, t.offsets, t.pw, t.ph, t.width, t.parity_mode, t.wrap)),
            (f"{bname} inner_cells", "territory.growth",
             lambda m, nbr=nbr, o=blocks, xs=xs, ys=ys: m.inner_cells(nbr, o, 8, xs, ys)),
            (f"{bname} distance_fields", "territory.growth", lambda m, nbr=nbr, s=seeds: m.distance_fields(nbr, s, 3)),
            (f"{bname} grow", "territory.growth",
             lambda m, nbr=nbr, s=seeds, n=n: (lambda o: (m.grow(nbr, np.ones(n), s, o), o))(np.full(n, -1, np.int64))),
        ]
    return cases


def zone_cases(size: int, rng: np.random.Generator) -> list:
    cases = []
    boards = {"sq8wrap": SquareGrid(size, size, diagonal=True, wrap_x=True),
              "sq8": SquareGrid(size, size, diagonal=True), "hex": HexGrid(size, size)}
    for bname, g in boards.items():
        cost = np.ones((size, size))
        cost[rng.random((size, size)) < 0.2] = np.inf
        cost[0, 0] = 1.0
        c = CostField.from_arrays(g, cost)
        tb = topo_bundle(g.topology)
        lab0 = np.where(c.cell < np.inf, 0, -1).astype(np.int64)
        start = padded_id(g.topology, (0, 0))
        seeds = rng.choice(np.flatnonzero(c.cell < np.inf), 50, replace=False).astype(np.int64)

        def relabel(m, c=c, tb=tb, lab0=lab0, start=start):
            lab = lab0.copy()
            return m.relabel(c.cell, c.edge, tb, lab, start, 0, 7), lab

        def reflood(m, c=c, tb=tb, lab0=lab0, seeds=seeds):
            lab = lab0.copy()
            ids, sizes = np.empty(50, np.int64), np.empty(50, np.int64)
            k, nxt = m.reflood(c.cell, c.edge, tb, lab, np.zeros(c.cell.shape[0], np.int32), 3, seeds,
                               np.array([0], np.int64), 1, (ids, sizes))
            return k, nxt, lab, ids[:k], sizes[:k]

        cases += [(f"{bname} relabel", "movement.zones", relabel), (f"{bname} reflood", "movement.zones", reflood)]
    return cases


def same(a: object, b: object) -> bool:
    if isinstance(a, tuple):
        return all(same(x, y) for x, y in zip(a, b))
    return np.array_equal(np.asarray(a), np.asarray(b))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rev", help="git revision whose kernels are the 'old' side")
    ap.add_argument("--size", type=int, default=512, help="board side")
    ap.add_argument("--calls", type=int, default=31, help="timed calls of each side (best kept)")
    ap.add_argument("--only", default="", help="comma-separated parts of case or module names ('hex', 'territory')")
    args = ap.parse_args()
    only = [o for o in args.only.split(",") if o]
    rng = np.random.default_rng(5)
    with tempfile.TemporaryDirectory() as tmp:
        old_package(args.rev, Path(tmp))
        cases = movement_cases(args.size, rng) + territory_cases(args.size, rng) + zone_cases(args.size, rng)
        for name, module, fn in cases:
            if only and not any(o in name or o in module for o in only):
                continue
            old = importlib.import_module(f"wargrid_old._kernels.{module}")
            new = importlib.import_module(f"wargrid._kernels.{module}")
            if not same(fn(old), fn(new)):
                print(f"{name:24s} DIFFERENT RESULTS")
                continue
            times: dict = {old: [], new: []}
            for i in range(args.calls):
                for m in (old, new) if i % 2 == 0 else (new, old):
                    t0 = time.thread_time()
                    fn(m)
                    times[m].append(time.thread_time() - t0)
            a, b = min(times[old]), min(times[new])
            print(f"{name:24s} old {a * 1e3:8.2f} ms  new {b * 1e3:8.2f} ms  new/old {b / a:.3f}", flush=True)


if __name__ == "__main__":
    main()
