"""The prepared queries' kernels against another version of them, paired query by query (thread CPU time).

512 x 512 hex seed 3 (the generator's rivers unless ``--rivers``), the foot class, long random pairs
(``bench_cch_query.long_pairs``). Each pair is asked ``path`` and then ``query`` (the distance alone) by this tree's
kernels and the other file's, in the order A B B A on one pair and B A A B on the next (a kernel's time: the mean of
its two), over every arc (what a class answers before its queries have paid for the query arcs) and over the
perfect customization's query arcs; then a 100 x 100 table of the first 100 pairs' ends, eight times by each
version in turn (where the other's kernels take heads as depths too); the answers are compared. Each version gets the
arcs its own code makes: the other file's over every arc with heads as ranks where its ``query`` still takes
``by_depth``. The other version is a copy of ``src/wargrid/_kernels/movement/cch/query.py``, e.g. ``git show
main:src/wargrid/_kernels/movement/cch/query.py > /tmp/query_main.py``.

    PYTHONPATH=src python benchmarks/cch_query_ab.py /tmp/query_main.py [--queries 200]
"""

from __future__ import annotations

import argparse
import inspect
import time
from pathlib import Path

import numpy as np

from bench_cch_query import long_pairs  # the scripts' folder is on sys.path when run as a script
from cch_update_ab import load

import wargrid
from wargrid._kernels.movement import cch as k


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("other", type=Path, help="the other version's query.py")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--rivers", type=int, default=None)
    args = ap.parse_args()
    other = load(args.other)
    ranks = "by_depth" in inspect.signature(other.query).parameters  # (the other version: heads as ranks over every arc)
    kw = {} if args.rivers is None else {"rivers": args.rivers}
    m = wargrid.generate(512, 512, kind="hex", seed=3, progress=False, **kw)
    cp = m.prepare(unit="foot", progress=False)
    f = m.derived.cost_field("foot")
    st, mt, topo = cp.structure, cp._middles(), m.grid.topology
    pairs = [(int(st.rank_of[topo.padded_id(*a)]), int(st.rank_of[topo.padded_id(*b)]))
             for a, b in long_pairs(m, args.queries, 1)]
    every = cp._arcs()
    cp.build_query_arcs()
    rows = {}
    for label, arcs in (("every arc", every), ("query arcs", cp._fast)):
        sc = cp._scratch()
        mine = (arcs.fwd, arcs.bwd, cp._tree, arcs.low)
        if ranks and arcs is every:
            w = mt.weight
            theirs = ((st.up_first, st.up_head, w[:, 0]), (st.up_first, st.up_head, w[:, -1]), cp._tree, False, arcs.low)
        else:
            theirs = mine[:3] + (True,) + mine[3:] if ranks else mine
        tail = (arcs.fwd_arc, arcs.bwd_arc, st.up_first, st.up_head, st.tails, mt.middle, mt.inp, st.arc_slot,
                arcs.walk, st.cell_of, topo.pw)
        calls = {"this": (k, mine), "other": (other, theirs)}

        def run(name, s, t):  # type: ignore[no-untyped-def]
            mod, a = calls[name]
            c0 = time.thread_time()
            p = mod.path(s, t, *a, sc.cs, sc.ct, sc.df, sc.db, sc.pf, sc.pb, *tail)
            c1 = time.thread_time()
            d = mod.query(s, t, *a, sc.cs, sc.ct, sc.df, sc.db, None, None)
            c2 = time.thread_time()
            return c1 - c0, c2 - c1, (float(p[0]), p[1].tolist(), float(d[0]))

        for name in calls:  # compiled and warmed (not counted)
            run(name, *pairs[0])
        got: dict[str, list[tuple[float, float]]] = {name: [] for name in calls}
        for i, (s, t) in enumerate(pairs):
            one = list(calls) if i % 2 == 0 else list(calls)[::-1]
            out = {name: [] for name in calls}
            for name in [*one, *one[::-1]]:
                out[name].append(run(name, s, t))
            if len({r[2][0] for rs in out.values() for r in rs} | {r[2][2] for rs in out.values() for r in rs}) != 1 \
                    or out["this"][0][2][1] != out["other"][0][2][1]:
                raise SystemExit(f"{label}: the two versions differ from rank {s} to {t}")
            for name, rs in out.items():
                got[name].append(((rs[0][0] + rs[1][0]) / 2, (rs[0][1] + rs[1][1]) / 2))
        a, b = (np.array(got[name]) for name in ("other", "this"))
        for j, what in enumerate(("path", "distance")):
            rows[(label, what)] = (np.median(a[:, j]) * 1e3, np.median(b[:, j]) * 1e3, np.median(b[:, j] / a[:, j]),
                                   b[:, j].sum() / a[:, j].sum())
        if not ranks:  # a table of the first 100 pairs' ends, 8 times by each in turn
            src, tgt = (np.array(x[:100], dtype=np.int64) for x in zip(*pairs))
            tables: dict[str, list[tuple[float, np.ndarray]]] = {name: [] for name in calls}
            for i in range(9):  # (the first: compiled and warmed, not counted)
                for name in list(calls)[::1 if i % 2 == 0 else -1]:
                    mod, a = calls[name]
                    c0 = time.thread_time()
                    out = mod.table(src, tgt, *a[:3], sc.cs, sc.df)
                    tables[name] += [(time.thread_time() - c0, out)] if i else []
            if not all(np.array_equal(o, tables["this"][0][1]) for rs in tables.values() for _, o in rs):
                raise SystemExit(f"{label}: the two versions' tables differ")
            ta, tb = (np.array([c for c, _ in tables[name]]) for name in ("other", "this"))
            rows[(label, "table")] = (np.median(ta) * 1e3, np.median(tb) * 1e3, np.median(tb / ta), tb.sum() / ta.sum())
    for (label, what), (ma, mb, r, s) in rows.items():
        print(f"{label:10s} {what:8s} median ms other {ma:.4f} this {mb:.4f}; this / other paired: median {r:.3f}, "
              f"sum {s:.3f}")


if __name__ == "__main__":
    main()
