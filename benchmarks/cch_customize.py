"""Where a customizable class's time and memory go (``wargrid.movement.cch``), kernel by kernel.

Times one half of the first cut on one thread (CPU time, the best of
``--repeats``: the two halves run on two threads in a real build), for the
basic customization, its middles (made by a class's first path or edit) and
the perfect customization in ``float64`` and ``float32``; then a
whole class build per unit class (basic customization only, then the query
arcs the queries buy later; then the class built again on the memory the first
one freed, which the first build had to have the system map) with the bytes a
cell and the lower triangles it relaxed (those whose lower arc is finite; of
them those whose upper arc is finite too); then the lower triangles of the
board's structure against a structure over only the steps some unit class can
take (what RoutingKit gets in ``bench_weighted.py``).

    PYTHONPATH=src python benchmarks/cch_customize.py --size 512 --seed 3
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

import wargrid
from wargrid._kernels.movement import cch as k
from wargrid.movement import cch


def best(setup, run, repeats: int) -> float:
    """The least CPU time of ``run(*setup())`` (the setup not timed)."""
    out = []
    for _ in range(repeats):
        args = setup()
        t0 = time.thread_time()
        run(*args)
        out.append(time.thread_time() - t0)
    return min(out)


def kernels(st, costs, repeats: int) -> None:
    mt = cch._metric(st, costs)[0]
    rows = cch._inputs(st, costs)[0]  # the input rows the customization read (the class holds none after it)
    rows = rows.sum(axis=1, keepdims=True) if mt.weight.shape[1] == 1 else rows
    a, b = (int(x) for x in st.parts)
    m = int(st.parent.shape[0])
    common = (st.up_first, st.up_head, st.down_first, st.down_arc, st.tails)
    finite = np.isfinite(mt.weight).any(axis=1)
    dead = np.ones(m, dtype=np.bool_)
    dead[st.tails[finite]] = False
    for dt in (np.float64, np.float32):
        w = mt.weight.astype(dt)
        keep = np.full(w.shape[0], 3, dtype=np.uint8)
        k.perfect(b, m, b, m, *common, w, keep, True, dead)  # the top ranks among themselves first, as in a build
        inp = rows.astype(dt)
        basic = best(lambda: (np.empty_like(w),),
                     lambda w0: k.customize(0, a, 0, m, *common, w0, w0, 0, inp, st.arc_slot, True), repeats)
        basic_w = mt.weight.astype(dt)  # (w holds the perfect customization's top ranks)
        middles = best(lambda: (np.empty(w.shape, dtype=np.int32),),
                       lambda mid: k.middles(0, a, *common, basic_w, inp, st.arc_slot, mid, np.zeros(0, np.uint16)),
                       repeats)  # (no legs counted: a class not yet edited)
        perfect = best(lambda: (w.copy(), keep.copy()), lambda w0, k0: (  # half 0's thread: under the top, then its own
            k.perfect(b, m, 0, a, *common, w0, k0, True, dead), k.perfect(0, a, 0, m, *common, w0, k0, True, dead)),
                       repeats)
        print(f"{dt.__name__}: customize half 0 {basic:.3f} s, its middles {middles:.3f} s, perfect half 0"
              f" {perfect:.3f} s (one thread, CPU time)", flush=True)


@numba.njit(cache=True)
def live_triangles(up_first, down_first, down_arc, tails, w):
    """``(lower arc finite, both arcs finite)``: the lower triangles a class's customization relaxes (it skips
    those whose lower arc is ``inf`` both ways) and those of them whose upper arc is finite too."""
    lower = both = 0
    for u in range(up_first.shape[0] - 1):
        for e in range(down_first[u], down_first[u + 1]):
            b = down_arc[e]
            if w[b, 0] < np.inf or w[b, 1] < np.inf:
                lower += up_first[tails[b] + 1] - b - 1
                for a2 in range(b + 1, up_first[tails[b] + 1]):
                    both += w[a2, 0] < np.inf or w[a2, 1] < np.inf
    return lower, both


@numba.njit(cache=True)
def count_triangles(up_first, down_first, down_arc, tails):
    """How many lower triangles the structure has (the customization's work)."""
    total = 0
    for u in range(up_first.shape[0] - 1):
        for e in range(down_first[u], down_first[u + 1]):
            b = down_arc[e]
            total += up_first[tails[b] + 1] - b - 1
    return total


def classes(m, st) -> None:
    cells = int(st.parent.shape[0])
    for u in m.terrains.classes:
        t0, c0 = time.perf_counter(), time.process_time()
        cp = cch.CustomizedPaths(st, m.derived.cost_field(u), 0.0)
        build, cpu = time.perf_counter() - t0, time.process_time() - c0
        t0 = time.perf_counter()
        cp.build_query_arcs()
        arcs = time.perf_counter() - t0
        del cp
        t0, c0 = time.perf_counter(), time.process_time()
        cp = cch.CustomizedPaths(st, m.derived.cost_field(u), 0.0)  # on the memory the last one freed
        again, cpu_again = time.perf_counter() - t0, time.process_time() - c0
        lower, both = live_triangles(st.up_first, st.down_first, st.down_arc, st.tails, cp._weighted().weight)
        print(f"{u}: {cp.metric.weight.dtype} build {build:.2f} s ({cpu:.2f} s CPU, every thread), again on memory"
              f" just freed {again:.2f} s ({cpu_again:.2f} s CPU); query arcs {arcs:.2f} s; bytes a cell: metric"
              f" {sum(a.nbytes for a in cp.metric) / cells:.0f}; triangles relaxed {lower / 1e9:.3f} G, both arcs finite"
              f" {both / 1e9:.3f} G", flush=True)


def triangles(m) -> None:
    topo = m.grid.topology
    index, nb_first, nb = k.board_graph(topo.pad(topo.valid, False).ravel(), topo.kernel_bundle)
    cells = np.flatnonzero(index >= 0)
    x, y = cells % topo.pw, cells // topo.pw
    axes = np.stack([x + y, x - y + y.max()] if topo.ndir == 4 else [x, y]).astype(np.int64)  # as cch.structure

    def count(first, lists, label: str) -> None:
        order, _ = k.nested_dissection(axes, first, lists)
        rank = np.empty(order.shape[0], dtype=np.int32)
        rank[order] = np.arange(order.shape[0], dtype=np.int32)
        up_first, up_head, _ = k.chordal(rank, first, lists)
        down_first, down_arc = k.down_lists(up_first, up_head)
        tails = np.repeat(np.arange(order.shape[0], dtype=np.int32), np.diff(up_first))
        print(f"{label}: {lists.shape[0] // 2} steps, {up_head.shape[0] / order.shape[0]:.1f} arcs a node,"
              f" {count_triangles(up_first, down_first, down_arc, tails) / 1e9:.3f} G lower triangles", flush=True)

    count(nb_first, nb, "every board step")
    n = m.width * m.height
    keys = []
    for u in m.terrains.classes:
        adj = m.adjacency(unit=u).tocoo()
        keys.append(np.minimum(adj.row, adj.col).astype(np.int64) * n + np.maximum(adj.row, adj.col))
    key = np.unique(np.concatenate(keys))
    node = np.arange(n)
    compact = index[[topo.padded_id(int(x), int(y)) for x, y in zip(node % m.width, node // m.width)]]
    src = np.concatenate([compact[key // n], compact[key % n]])
    dst = np.concatenate([compact[key % n], compact[key // n]])
    order = np.argsort(src, kind="stable")
    first = np.zeros(cells.shape[0] + 1, dtype=np.int64)
    first[1:] = np.cumsum(np.bincount(src, minlength=cells.shape[0]))
    count(first, dst[order].astype(np.int32), "the steps some class can take")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=512)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--rivers", type=int, default=0)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    m = wargrid.generate(args.size, args.size, kind="hex", seed=args.seed, rivers=args.rivers)
    st = cch.structure(m.grid.topology)
    kernels(st, m.derived.cost_field("foot"), args.repeats)
    classes(m, st)
    triangles(m)


if __name__ == "__main__":
    main()
