"""Customizable prepared queries against RoutingKit's CCH query: one board, both kinds of query arcs.

    python benchmarks/bench_cch_query.py --rivers 0
    python benchmarks/bench_cch_query.py            # the generator's default rivers

``Map.prepare`` on ``generate(512, 512, kind="hex", seed=3)``
and RoutingKit's CCH on the same arcs (``bench_weighted.rk_arcs``: every
class's steps, foot's weights; its inertial-flow order is cached in
``--order-cache``, it takes minutes). Long random queries (more than 256 hex
steps apart), each timed ``Map.path``, ``Map.distance`` and RoutingKit's query
(its path included) in turn, medians printed with the ratio to RoutingKit.
Two rounds: the queries over every arc (what a class answers before its
queries have paid for the query arcs, and after an edit), then over the
perfect customization's query arcs. Every cost is checked against
RoutingKit's.
"""

from __future__ import annotations

import argparse
import math
import os
import time

import numpy as np

import wargrid
from bench_weighted import RK_SCALE, hex_distance_oddq, rk_arcs


def long_pairs(m, n: int, seed: int) -> list:
    cost = m.costs(unit="foot")
    ys, xs = np.nonzero(np.isfinite(cost))
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        i, j = rng.integers(xs.size, size=2)
        a, b = (int(xs[i]), int(ys[i])), (int(xs[j]), int(ys[j]))
        if hex_distance_oddq(b[0], b[1], a[0], a[1]) > max(m.width, m.height) // 2:
            out.append((a, b))
    return out


def main() -> None:
    import routingkit_cch as rk

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=512)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--rivers", type=int, default=None, help="the generator's rivers (default: its own)")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--order-cache", default="/tmp/wargrid-rk-order-{size}-{seed}-{rivers}.npy")
    args = ap.parse_args()
    kw = {} if args.rivers is None else {"rivers": args.rivers}
    m = wargrid.generate(args.size, args.size, kind="hex", seed=args.seed, **kw)
    cp = m.prepare(unit="foot", progress=False)
    pairs = long_pairs(m, args.queries, 1)
    tail, head, weights = rk_arcs(m, list(m.terrains.classes))
    w = m.width
    cache = args.order_cache.format(size=args.size, seed=args.seed, rivers=args.rivers)
    if os.path.exists(cache):
        order = np.load(cache).tolist()
    else:
        ys, xs = np.divmod(np.arange(m.width * m.height), w)
        order = rk.compute_order_inertial(m.width * m.height, tail.tolist(), head.tolist(), ys.astype(float).tolist(),
                                          xs.astype(float).tolist())
        np.save(cache, np.array(order))
    q = rk.CCHQuery(rk.CCHMetric(rk.CCH(order, tail.tolist(), head.tolist(), False), weights["foot"].tolist()))

    def one_round(label: str) -> None:
        tp, td, tr = [], [], []
        for a, b in pairs:
            t0 = time.perf_counter()
            p = m.path(a, b, unit="foot")
            tp.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            d = m.distance(a, b, unit="foot")
            td.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            res = q.run(a[1] * w + a[0], b[1] * w + b[0])
            got, _ = res.distance, len(res.node_path)
            tr.append(time.perf_counter() - t0)
            del res
            want = math.inf if got is None else got / RK_SCALE
            if (math.inf if p is None else p.cost) != want or d != want:
                raise SystemExit(f"{a}->{b}: path {p and p.cost}, distance {d}, RoutingKit {want}")
        path, dist, ref = (float(np.median(x)) * 1e3 for x in (tp, td, tr))
        print(f"{label:10s} path {path:.3f} ms ({path / ref:.2f}x)  distance {dist:.3f} ms ({dist / ref:.2f}x)  "
              f"RoutingKit {ref:.3f} ms", flush=True)

    m.path(*pairs[0], unit="foot")
    m.distance(*pairs[0], unit="foot")
    cp._perfect_seconds = math.inf  # this round stays on every arc
    for _ in range(args.rounds):
        one_round("every arc")
    cp._query_arcs()
    for _ in range(args.rounds):
        one_round("query arcs")


if __name__ == "__main__":
    main()
