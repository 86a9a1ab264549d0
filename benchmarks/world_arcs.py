"""What a query needs on the 1200 x 1200 world: per class, the finite arcs and the perfect customization's query arcs.

For each default class of ``generate(S, S, kind="hex", seed=5)`` (``bench_weighted.py``'s world), customized on the
shared structure: how many arcs are finite (an arc ``inf`` is never on a path), what a class holding only those would
hold (2-byte heads as depths, ``float32`` weights, an ``int64`` offset a node; with the arc ids paths unpack by), the
arcs on the two chains of ``--queries`` random pairs (a bound on a query's relaxations: every arc, the finite ones, the
query arcs), and the median distance query over every arc, over the finite arcs and (for ``--perfect`` classes, after
building them: CPU and wall time) over the query arcs, every answer compared with the every-arc query's.

    PYTHONPATH=src python benchmarks/world_arcs.py                       # the world; foot's query arcs
    PYTHONPATH=src python benchmarks/world_arcs.py --size 256 --perfect foot,naval
    PYTHONPATH=src python benchmarks/world_arcs.py --size 512 --seed 3 --perfect foot,cavalry,naval --closure

``--closure`` (with ``--perfect``): the middles made first (CPU), the perfect customization's parts timed on their
threads (the ranks above the first cut's halves, then each half), and the **closure** of the query arcs under the
middles (a kept arc's weight is its ends' true distance, so are its legs': the middles alone unpack it): how many
arc directions it holds and need a middle, the bytes a cell of a class holding only the query arcs and the closure's
middles (a node's list of head depths, 2 bytes, and middles, 4; ``int32`` offsets), and every path unpacked through
those middles alone (any other read as a board step, which a walk would not find) walked and compared. Then two ways
to find the closure's middles without every arc's (CPU, both compared with those): after the perfect customization
(``closure_middles``), and inside it (``perfect_closure``, on one thread against the kernel ``perfect`` on one thread,
twice; one-column ``float32`` classes, the world's). docs/design/prepared.md, "A lean class: the query arcs and
their closure's middles".
"""

from __future__ import annotations

import argparse
import statistics
import time

import numba
import numpy as np

import wargrid
from wargrid._kernels.movement.cch.customize import _perfect_arc
from wargrid.movement import cch


@numba.njit(cache=True)
def closure(up_first, up_head, mid, keep, w):
    """``inc[a, d]``: arc direction ``(a, d)`` is a query arc (kept and finite in the perfect ``w``) or a leg, at its
    middle, of one in the closure (arcs in decreasing tail rank: a leg's tail is the middle, below the arc's)."""
    cols = mid.shape[1]
    inc = np.zeros(mid.shape, dtype=np.uint8)
    for a in range(mid.shape[0]):
        for d in range(cols):
            inc[a, d] = w[a, d] < np.inf and keep[a] >> d & 1 != 0
    for u in range(up_first.shape[0] - 2, -1, -1):
        for a in range(up_first[u], up_first[u + 1]):
            for d in range(cols):
                v = mid[a, d]
                if inc[a, d] and v >= 0:
                    lo, hi = up_first[v], up_first[v + 1]
                    au = lo + np.searchsorted(up_head[lo:hi], u)  # (v, u)
                    ax = lo + np.searchsorted(up_head[lo:hi], up_head[a])  # (v, x)
                    inc[au, (1 - d) * (cols - 1)] = 1  # u -> v -> x: (v, u) down, (v, x) up; x -> v -> u the reverse
                    inc[ax, d] = 1
    return inc


@numba.njit(cache=True)
def closure_middles(up_first, up_head, down_first, down_arc, tails, w, inp, slot, keep, pw):
    """``(inc, mid)``: ``closure`` without every arc's middles, the closure's found as it grows (``w`` customized,
    ``pw`` perfect; a node's lower triangles read only while one of its closure's arcs lacks its middle, in the
    order of the kernel ``middles``, so the same ones; ``-3`` outside the closure)."""
    cols, c1 = w.shape[1], w.shape[1] - 1
    inc = np.zeros(w.shape, dtype=np.uint8)
    mid = np.full(w.shape, -3, dtype=np.int32)
    pos = np.empty(up_first.shape[0] - 1, dtype=np.uint32)
    for a in range(w.shape[0]):
        for d in range(cols):
            inc[a, d] = pw[a, d] < np.inf and keep[a] >> d & 1 != 0
    for u in range(up_first.shape[0] - 2, -1, -1):
        todo = 0
        for a in range(up_first[u], up_first[u + 1]):
            pos[up_head[a]] = a
            for d in range(cols):
                if inc[a, d]:
                    leaf = not w[a, d] < np.inf or (slot[a] >= 0 and inp[slot[a], d] == w[a, d])
                    mid[a, d] = -1 if leaf else -2
                    todo += not leaf
        for e in range(down_first[u], down_first[u + 1]):
            if todo == 0:
                break
            b = down_arc[e]  # (v, u)
            if w[b, 0] < np.inf or w[b, c1] < np.inf:
                for a2 in range(b + 1, up_first[tails[b] + 1]):  # (v, x)
                    a = pos[up_head[a2]]  # (u, x)
                    for d in range(cols):
                        if mid[a, d] == -2 and w[b, (1 - d) & c1] + w[a2, d] == w[a, d]:
                            mid[a, d] = tails[b]
                            todo -= 1
                            inc[b, (1 - d) & c1] = 1
                            inc[a2, d] = 1
    return inc, mid


@numba.njit(cache=True)
def perfect_closure(up_first, up_head, down_first, down_arc, tails, w, keep, cw, inp, slot, mid, inc):
    """The kernel ``perfect`` over every node on one thread (one column, ties), the closure's middles found as it goes:
    at node ``u`` (its arcs final, weights and kept bits) each of its arcs kept, or a leg of one (``inc``), that no
    board step gives takes the first lower triangle ``(v, u, x)`` whose customized (``cw``) legs sum to its weight,
    and marks them (arcs of ``v``, below); ``mid`` (``-3``) its middles, as ``closure_middles``'s."""
    pos = np.empty(up_first.shape[0] - 1, dtype=np.uint32)
    for u in range(up_first.shape[0] - 2, -1, -1):
        todo = 0
        for a in range(up_first[u], up_first[u + 1]):
            pos[np.uint64(up_head[a])] = np.uint32(a)
            if inc[a, 0] or (w[a, 0] < np.inf and keep[a] & 1 != 0):
                inc[a, 0] = 1
                leaf = not cw[a, 0] < np.inf or (slot[a] >= 0 and inp[slot[a], 0] == cw[a, 0])
                mid[a, 0] = -1 if leaf else -2
                todo += not leaf
        for e in range(down_first[u], down_first[u + 1]):
            b = np.uint64(down_arc[e])  # (v, u)
            if not w[b, 0] < np.inf:
                continue
            if todo > 0:
                for a2 in range(b + np.uint64(1), np.uint64(up_first[tails[b] + 1])):  # (v, x)
                    a = np.uint64(pos[np.uint64(up_head[a2])])  # (u, x)
                    if mid[a, 0] == -2 and cw[b, 0] + cw[a2, 0] == cw[a, 0]:
                        mid[a, 0] = tails[b]
                        todo -= 1
                        inc[b, 0] = inc[a2, 0] = 1
            _perfect_arc(b, pos, up_first, up_head, tails, w, keep, True, False)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=1200)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--queries", type=int, default=50)
    ap.add_argument("--perfect", default="foot", help="classes whose query arcs are built and queried (comma-separated)")
    ap.add_argument("--closure", action="store_true", help="the query arcs' closure under the middles (see above)")
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
        c0 = time.process_time()
        cch._listed(st, w, False)  # (the finite arcs as a class prepared holds them, listed after its customization)
        tl = time.process_time() - c0
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
              f" {rel[1]:.2f} M; distance median every arc {every:.2f} ms, finite arcs {finite:.2f} ms ({wrong} answers differ); listing the finite"
              f" arcs {tl:.2f} s CPU", flush=True)
        if u in args.perfect.split(","):
            if args.closure:
                c0 = time.process_time()
                cp.metric = cch._with_middles(st, cp._weighted(), cp.costs)
                print(f"{u}: middles {time.process_time() - c0:.1f} s CPU", flush=True)
                parts, halves = {}, cch._halves

                def timed_halves(kernel, st_, args_, *, lowest=False):  # _halves, each part's thread CPU
                    a, b, m_ = int(st_.parts[0]), int(st_.parts[1]), int(st_.parent.shape[0])
                    common = (st_.up_first, st_.up_head, st_.down_first, st_.down_arc, st_.tails, *args_)
                    c = time.thread_time()
                    kernel(b, m_, b, m_, *common)
                    parts["top"], parts["args"] = time.thread_time() - c, args_

                    def half(lo, hi):
                        c = time.thread_time()
                        kernel(b, m_, lo, hi, *common)
                        c1 = time.thread_time()
                        kernel(lo, hi, 0, m_, *common)
                        parts[lo] = (c1 - c, time.thread_time() - c1)

                    with cch.ThreadPoolExecutor(1) as pool:
                        other = pool.submit(half, a, b)
                        half(0, a)
                        other.result()

                cch._halves = timed_halves
            t0, c0 = time.perf_counter(), time.process_time()
            cp._query_arcs()
            tw, tc = time.perf_counter() - t0, time.process_time() - c0
            if args.closure:
                cch._halves = halves
                a = int(st.parts[0])
                print(f"{u}: perfect customization's thread CPU: above the halves {parts['top']:.1f} s, then each half's"
                      f" triangles under the top / its own: {parts[0][0]:.1f} / {parts[0][1]:.1f} s and {parts[a][0]:.1f} /"
                      f" {parts[a][1]:.1f} s (halves of {a} and {int(st.parts[1]) - a} nodes of {st.parent.shape[0]})",
                      flush=True)
                pw_, keep, _ = parts.pop("args")
                mid = cp.metric.middle
                closure(st.up_first[:1], st.up_head, mid, keep, pw_)  # (compiled first: CPU is the closure's)
                closure_middles(st.up_first[:1], st.up_head, st.down_first, st.down_arc, st.tails, cp.metric.weight,
                                cp.metric.inp, st.arc_slot, keep, pw_)
                c0 = time.process_time()
                inc = closure(st.up_first, st.up_head, mid, keep, pw_)
                tcl = time.process_time() - c0
                dirs = int(inc.sum())
                kept = int(sum(((keep >> d) & 1 & np.isfinite(pw_[:, d])).sum() for d in range(mid.shape[1])))
                need = int((inc.astype(bool) & (mid >= 0)).sum())
                nodes = int(st.parent.shape[0])
                qb = sum({id(x): x.nbytes for x in (*cp._fast.fwd, *cp._fast.bwd)}.values())
                lean = qb + 6 * need + 4 * (nodes + 1) * mid.shape[1]
                print(f"{u}: closure {dirs / cells:.1f} arc directions a cell ({dirs / kept:.2f} x the {kept / cells:.1f}"
                      f" query arcs, {dirs / (arcs * mid.shape[1]):.3f} of every arc direction), {need / cells:.1f} with a"
                      f" middle; in {tcl:.2f} s CPU; lean class: query arcs {qb / cells:.0f} + closure's middles"
                      f" {(6 * need + 4 * (nodes + 1) * mid.shape[1]) / cells:.0f} = {lean / cells:.0f} bytes a cell",
                      flush=True)
                c0 = time.process_time()
                inc2, mid2 = closure_middles(st.up_first, st.up_head, st.down_first, st.down_arc, st.tails,
                                             cp.metric.weight, cp.metric.inp, st.arc_slot, keep, pw_)
                tcm = time.process_time() - c0
                same = np.array_equal(inc2, inc) and np.array_equal(mid2[inc2 > 0], mid[inc > 0])
                print(f"{u}: the closure with its middles alone (no other middles) {tcm:.2f} s CPU, the same: {same}",
                      flush=True)
                del inc2, mid2
                if mid.shape[1] == 1 and cp.metric.weight.dtype == np.float32:  # (the world's classes)
                    cw, k_ = cp.metric.weight, cch._k()
                    args_ = (st.up_first, st.up_head, st.down_first, st.down_arc, st.tails)
                    w1 = cw[:1].copy()
                    perfect_closure(st.up_first[:1], *args_[1:], w1, keep[:1].copy(), cw, cp.metric.inp, st.arc_slot,
                                    mid[:1].copy(), inc[:1].copy())  # (compiled first)
                    for rep in range(2):
                        w1, k1 = cw.copy(), np.full(cw.shape[0], 3, dtype=np.uint8)
                        c0 = time.thread_time()
                        k_.perfect(0, nodes, 0, nodes, *args_, w1, k1, True)
                        tp = time.thread_time() - c0
                        w2, k2 = cw.copy(), np.full(cw.shape[0], 3, dtype=np.uint8)
                        m2, i2 = np.full(cw.shape, -3, dtype=np.int32), np.zeros(cw.shape, dtype=np.uint8)
                        c0 = time.thread_time()
                        perfect_closure(*args_, w2, k2, cw, cp.metric.inp, st.arc_slot, m2, i2)
                        tf = time.thread_time() - c0
                        same = (np.array_equal(w1, w2) and np.array_equal(k1, k2) and np.array_equal(i2, inc)
                                and np.array_equal(m2[i2 > 0], mid[inc > 0]))
                        print(f"{u}: on one thread, the perfect customization {tp:.1f} s CPU, with the closure's middles"
                              f" found in it {tf:.1f} s; the same weights, kept bits, closure and middles: {same}", flush=True)
                        del w1, k1, w2, k2, m2, i2
                fast, full = cp._fast, cp.metric
                cp.metric = full._replace(middle=np.where(inc.astype(bool), mid, -7).astype(np.int32))
                bad = 0
                for (s, t), x in zip(pairs, want):
                    p = cp.path(f, s, t)
                    if p is None:  # (apart: islands)
                        bad += x < np.inf
                        continue
                    ids = np.array([topo.padded_id(cx, cy) for cx, cy in p.cells], dtype=np.int64)
                    wc = cch._k().walk_cost(ids, f.cell, f.edge, topo.kernel_bundle)
                    bad += not abs(wc - x) <= 1e-9 * max(1.0, x)
                print(f"{u}: {len(pairs)} paths through the closure's middles alone walked: {bad} differ", flush=True)
                cp.metric, cp._fast = full, fast
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
