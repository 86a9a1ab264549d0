"""What keeping pruned query arcs through an edit would touch (``wargrid.movement.cch``; docs/design/prepared.md,
"Edits: pruned arcs through an edit, counted").

The rises of ``cch_edits.py`` (a cell of a long query's path made water, then undone), foot alone prepared, its
query arcs built and its edits prepared. After each rise, against the metric before any rise:

- ``perfect``: the perfect customization (``_kernels.movement.cch.perfect``, made again whole): the arcs whose
  perfect weight changed, the arc directions whose kept bit changed (``keep``) and those pruned before and needed
  after (``regained``): the least a repair of the query arcs would write.
- *pruning by a strict triangle of basic weights*: an arc is left out where a path through one upper or
  intermediate node (two arcs of the customized metric) is strictly cheaper. No least-cost up-down path uses such an
  arc (the detour, its down-up turns cut by the lower triangles' inequality, would be cheaper still), so the search
  over the rest is exact with the customized weights themselves; an edit keeps it so by restoring every arc that
  shares a triangle with an arc whose weight changed (``unpruned``; ``tri``: the lower triangles of the changed arcs,
  a merge of their two down runs as ``update``'s). ``bregained``: the arcs the pruning made again whole restores.
- *the same with a witness an arc* (the last strict triangle found): ``witness_moved`` the pruned arcs whose
  witness's triangle holds a changed arc, ``witness_broken`` those it no longer beats (to be looked at again).
- the next query's search (``query``, the least thread CPU time of three, in ms, warm) over the finite arcs, the
  pruning made again (``exact``), the pruning kept by restoring (``cons``) and the same summed over every edit so far,
  rises and undos (``cum``, with ``cum_arcs`` arcs restored): every cost compared.

    PYTHONPATH=src python benchmarks/cch_prune_counts.py --size 512 --seed 3
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from numba import njit

from bench_weighted import pick_queries  # the scripts' folder is on sys.path when run as a script
from cch_edits import path_cells

import wargrid
from wargrid.movement import cch as C
from wargrid.movement.cch import padded_entry


@njit
def basic_keep(up_first, up_head, down_first, down_arc, tails, w, keep, legs):  # type: ignore[no-untyped-def]
    """``keep[a]`` 0 where a strict triangle of ``w`` (one column) through an upper or intermediate node beats arc ``a``,
    ``legs[a]`` the two arcs of the last such triangle found (its witness)."""
    pos = np.empty(up_first.shape[0] - 1, dtype=np.int64)
    keep[:] = 1
    for u in range(up_first.shape[0] - 1):
        for a in range(up_first[u], up_first[u + 1]):
            pos[up_head[a]] = a
        for e in range(down_first[u], down_first[u + 1]):
            b = down_arc[e]  # (v, u)
            for a2 in range(b + 1, up_first[tails[b] + 1]):  # (v, x), x > u
                a = pos[up_head[a2]]  # (u, x)
                if w[a2, 0] + w[a, 0] < w[b, 0]:
                    keep[b], legs[b, 0], legs[b, 1] = 0, a2, a
                if w[b, 0] + w[a, 0] < w[a2, 0]:
                    keep[a2], legs[a2, 0], legs[a2, 1] = 0, b, a


@njit
def restore(changed, up_first, up_head, down_first, tails, down_arc, mark):  # type: ignore[no-untyped-def]
    """``mark`` set on every arc sharing a triangle with an arc of ``changed`` (and on those): the lower triangles' count."""
    stamp = np.full(up_first.shape[0] - 1, -1, dtype=np.int64)
    at = np.empty(up_first.shape[0] - 1, dtype=np.int64)
    tri = 0
    for i in range(changed.shape[0]):
        p, q = tails[changed[i]], up_head[changed[i]]
        mark[up_first[p]:up_first[p + 1]] = 1  # (p, q) itself and the arcs above p: (p, q) a leg of their triangles
        for j in range(down_first[p], down_first[p + 1]):
            stamp[tails[down_arc[j]]], at[tails[down_arc[j]]] = i, down_arc[j]
        for j in range(down_first[q], down_first[q + 1]):  # (r, p) and (r, q): (p, q) the top of their triangle
            if stamp[tails[down_arc[j]]] == i:
                mark[at[tails[down_arc[j]]]] = mark[down_arc[j]] = 1
                tri += 1
    return tri


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=int, default=512)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--edits", type=int, default=50)
    args = ap.parse_args()
    m = wargrid.generate(args.size, args.size, kind="hex", seed=args.seed, rivers=0)
    queries = pick_queries(m, 20, seed=100)
    wargrid.warm_up("movement")
    pp = m.prepare(unit="foot", progress=False)
    pp.build_query_arcs()
    pp.prepare_edits()
    st, k, sc = pp.structure, C._k(), pp._scratch()
    assert pp.metric.weight.shape[1] == 1, "a symmetric class (one column) only"

    def perfect(w):  # type: ignore[no-untyped-def]
        p, keep = w.copy(), np.full(w.shape[0], 3, dtype=np.uint8)
        C._halves(k.perfect, st, (p, keep, True), lowest=True)
        return p, np.where(w[:, 0] < np.inf, keep & 1, 0)

    legs = np.zeros((pp.arcs, 2), dtype=np.int64)

    def pruned(w):  # type: ignore[no-untyped-def]
        keep = np.empty(w.shape[0], dtype=np.uint8)
        basic_keep(st.up_first, st.up_head, st.down_first, st.down_arc, st.tails, w.astype(np.float64), keep, legs)
        return np.where(w[:, 0] < np.inf, keep, 0)

    def search(arcs, s, t):  # type: ignore[no-untyped-def]
        times = []
        for _ in range(3):
            c0 = time.thread_time_ns()
            out = k.query(s, t, arcs.fwd, arcs.bwd, pp._tree, arcs.low, sc.cs, sc.ct, sc.df, sc.db, None, None)
            times.append(time.thread_time_ns() - c0)
        return min(times) / 1e6, float(out[0]) * arcs.unit

    b0 = pp._weighted().weight.copy()
    p0, k0 = perfect(b0)
    bk0 = pruned(b0)
    legs0, out = legs.copy(), np.flatnonzero((bk0 == 0) & (b0[:, 0] < np.inf))  # each pruned arc's witness
    print(f"finite arcs {int((b0[:, 0] < np.inf).sum())}, kept by the perfect customization {int(k0.sum())}, "
          f"by strict basic triangles {int(bk0.sum())}")
    pid = m.grid.topology.padded_id
    base, rows, cum = np.asarray(m.terrain), [], np.zeros(b0.shape[0], dtype=np.uint8)
    for a, b, cell in path_cells(m, queries, args.edits):
        old = m.terrains.names[int(base[cell[1], cell[0]])]
        m.set_terrain([cell], "water")
        pp.sync(m.derived.cost_field("foot"))
        b1 = pp._weighted().weight.copy()
        (p1, k1), bk1 = perfect(b1), pruned(b1)
        changed = np.flatnonzero(b1[:, 0] != b0[:, 0])
        mark = np.zeros(b0.shape[0], dtype=np.uint8)
        tri = restore(changed, st.up_first, st.up_head, st.down_first, st.tails, st.down_arc, mark)
        cum |= mark
        cons, cumk = ((b1[:, 0] < np.inf) & ((bk0 > 0) | (x > 0)) for x in (mark, cum))
        assert not (bk1 > cons).any(), "an arc the pruning needs that restoring left out"
        moved = b1[:, 0] != b0[:, 0]
        rests = out[moved[out] | moved[legs0[out, 0]] | moved[legs0[out, 1]]]  # its witness's triangle changed
        broken = rests[~(b1[legs0[rests, 0], 0] + b1[legs0[rests, 1], 0] < b1[rests, 0])]
        s, t = padded_entry(st.rank_of, pid(*a), "s"), padded_entry(st.rank_of, pid(*b), "t")
        lists = {"finite": pp._lean, **{n: C._listed(st, b1, True, kp.astype(np.uint8))[0]
                                        for n, kp in (("exact", bk1), ("cons", cons), ("cum", cumk))}}
        got = {n: search(v, s, t) for n, v in lists.items()}
        assert len({c for _, c in got.values()}) == 1, got
        rows.append(dict(cell=cell, changed=len(changed), perfect=int((p1[:, 0] != p0[:, 0]).sum()),
                         keep=int((k1 != k0).sum()), regained=int((k1 > k0).sum()), bregained=int((bk1 > bk0).sum()),
                         unpruned=int((cons & (bk0 == 0)).sum()), tri=tri,
                         witness_moved=len(rests), witness_broken=len(broken), cum_arcs=int((cumk & (bk0 == 0)).sum()),
                         **{n: v[0] for n, v in got.items()}))
        print(rows[-1], flush=True)
        m.set_terrain([cell], old)
        pp.sync(m.derived.cost_field("foot"))
        restore(np.flatnonzero(pp._weighted().weight[:, 0] != b1[:, 0]), st.up_first, st.up_head, st.down_first,
                st.tails, st.down_arc, cum)
    for key in [k for k in rows[0] if k != "cell"]:
        v = [r[key] for r in rows]
        print(f"{key}: median {statistics.median(v):.4g}, min {min(v):.4g}, max {max(v):.4g}")


if __name__ == "__main__":
    main()
