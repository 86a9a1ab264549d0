"""What a query needs on the 1200 x 1200 world: per class, the finite arcs and the perfect customization's query arcs.

For each default class of ``generate(S, S, kind="hex", seed=5)`` (``bench_weighted.py``'s world), customized on the
shared structure: how many arcs are finite (an arc ``inf`` is never on a path), what a class holding only those would
hold (2-byte heads as depths, ``float32`` weights, an ``int64`` offset a node; with the arc ids paths unpack by), the
arcs on the two chains of ``--queries`` random pairs (a bound on a query's relaxations: every arc, the finite ones, the
query arcs), and the median distance query over every arc, over the finite arcs and (for ``--perfect`` classes, after
building them: CPU and wall time) over the query arcs, every answer compared with the every-arc query's.

    PYTHONPATH=src python benchmarks/world_arcs.py                       # the world; foot's query arcs
    PYTHONPATH=src python benchmarks/world_arcs.py --size 256 --perfect foot,naval
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import wargrid
from wargrid.movement import cch


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=1200)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--queries", type=int, default=50)
    ap.add_argument("--perfect", default="foot", help="classes whose query arcs are built and queried (comma-separated)")
    args = ap.parse_args()
    if args.size < 4 or args.queries < 1:
        ap.error(f"--size must be >= 4 and --queries >= 1, got {args.size} and {args.queries}")
    wargrid.warm_up("movement")
    m = wargrid.generate(args.size, args.size, kind="hex", seed=args.seed, progress=False)
    cells, topo = m.width * m.height, m.grid.topology
    t0, c0 = time.perf_counter(), time.process_time()
    st = cch.structure(topo)
    arcs = int(st.up_head.shape[0])
    print(f"structure {time.perf_counter() - t0:.1f} s ({time.process_time() - c0:.1f} s CPU), {arcs / cells:.2f} arcs a cell",
          flush=True)
    rng = np.random.default_rng(7)

    def chain(v: int) -> list[int]:
        out = []
        while v >= 0:
            out.append(v)
            v = int(st.parent[v])
        return out

    def per_node(first: np.ndarray, nodes: np.ndarray) -> int:
        return int((first[nodes + 1] - first[nodes]).sum())

    for u in m.terrains.classes:
        f = m.cost_field(unit=u)
        t0, c0 = time.perf_counter(), time.process_time()
        cp = cch.customized(m.grid, f, shared=st)
        cp._perfect_seconds = float("inf")  # no query arcs until asked here
        print(f"{u}: customized {time.perf_counter() - t0:.1f} s ({time.process_time() - c0:.1f} s CPU), "
              f"{cp._weighted().weight.dtype}, {cp.metric.weight.shape[1]} column(s)", flush=True)
        w = cp._weighted().weight
        fin = np.isfinite(w).any(axis=1)
        nf = int(fin.sum())
        ys, xs = np.nonzero(np.isfinite(f.cells()))
        pairs = []
        for _ in range(1000 * args.queries):  # (bounded: a board may have too few cells far enough apart)
            if len(pairs) == args.queries:
                break
            i, j = rng.integers(0, xs.shape[0], 2)
            if abs(int(xs[i]) - int(xs[j])) + abs(int(ys[i]) - int(ys[j])) >= args.size // 4:
                pairs.append((topo.padded_id(int(xs[i]), int(ys[i])), topo.padded_id(int(xs[j]), int(ys[j]))))
        if len(pairs) < args.queries:
            raise SystemExit(f"{u}: found {len(pairs)} of {args.queries} passable pairs {args.size // 4} or more apart")
        chains = [np.array(chain(int(st.rank_of[s])) + chain(int(st.rank_of[t]))) for s, t in pairs]  # (shared nodes twice)
        want = [cp.distance(f, s, t) for s, t in pairs]

        def timed(arcs: cch.QueryArcs | None) -> tuple[float, int]:
            cp._fast = arcs
            ts, wrong = [], 0
            for (s, t), x in zip(pairs * 2, want * 2):
                t0 = time.perf_counter()
                d = cp.distance(f, s, t)
                ts.append(time.perf_counter() - t0)
                wrong += not (d == x or abs(d - x) <= 1e-9 * max(1.0, x))
            cp._fast = None
            return statistics.median(ts) * 1e3, wrong

        every, _ = timed(None)
        lean = cch._listed(st, w, True)[0]
        finite, wrong = timed(lean)
        cfin = np.concatenate([[0], np.cumsum(fin)])
        rel = [statistics.median(per_node(x, c) for c in chains) / 1e6 for x in (st.up_first, cfin[st.up_first])]
        print(f"{u}: passable {np.isfinite(f.cells()).mean():.3f} of the cells; finite arcs {nf / arcs:.3f} ({nf / cells:.1f} a cell):"
              f" heads, weights, offsets {(6 * nf * w.shape[1] + 8 * (st.parent.shape[0] + 1)) / cells:.0f} bytes a cell, with arc ids"
              f" {sum(a.nbytes for a in (*lean.fwd, lean.fwd_arc)) / cells:.0f}; chains' arcs (median) every {rel[0]:.2f} M, finite"
              f" {rel[1]:.2f} M; distance median every arc {every:.2f} ms, finite arcs {finite:.2f} ms ({wrong} answers differ)", flush=True)
        if u in args.perfect.split(","):
            t0, c0 = time.perf_counter(), time.process_time()
            cp._query_arcs()
            tw, tc = time.perf_counter() - t0, time.process_time() - c0
            qa = cp._fast
            kept = sum({id(a): int(a.shape[0]) for a in (qa.fwd[1], qa.bwd[1])}.values())
            qb = sum({id(a): a.nbytes for a in (*qa.fwd, *qa.bwd)}.values())
            med, wrong = timed(qa)
            print(f"{u}: query arcs built in {tw:.1f} s ({tc:.1f} s CPU); {kept / (arcs * w.shape[1]):.3f} of the arc directions"
                  f" ({kept / cells:.1f} a cell, {qb / cells:.0f} bytes a cell); chains' query arcs (median)"
                  f" {statistics.median(per_node(qa.fwd[0], c) for c in chains) / 1e6:.2f} M; distance median"
                  f" {med:.2f} ms ({wrong} answers differ)", flush=True)
        del cp, lean


if __name__ == "__main__":
    main()
