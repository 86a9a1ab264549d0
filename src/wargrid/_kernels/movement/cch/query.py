"""CCH kernels, queries: elimination-tree searches, their query arcs, path unpacking, tables."""

from __future__ import annotations

import numpy as np

from ..._jit import helper, jit
from .order import find_arc

INF = np.inf


@helper
def _relax(v, dv, first, head, w, dist, pred):
    """Node ``v``'s arcs from cost ``dv``, each improved head's arc position in ``pred``. Unsigned indices:
    no negative-index test in the loop (measured 1.7x faster on a long query's 170 000 arcs)."""
    for e in range(np.uint64(first[v]), np.uint64(first[v + 1])):
        x = np.uint64(head[e])
        d = dv + w[e]
        if d < dist[x]:
            dist[x] = d
            pred[x] = e


@helper
def _lower(v, dv, first, head, w, dist):
    """``_relax`` without predecessors, branch-free (a min and a store an arc: 2.6x faster than ``_relax``
    before unsigned indices)."""
    for e in range(np.uint64(first[v]), np.uint64(first[v + 1])):
        x = np.uint64(head[e])
        dist[x] = min(dv + w[e], dist[x])


@helper
def _up(v, dv, first, head, w, dist, pred):
    """``_relax``, or ``_lower`` when ``pred`` is ``None`` (numba compiles the one branch the type selects)."""
    if pred is None:
        _lower(v, dv, first, head, w, dist)
    else:
        _relax(v, dv, first, head, w, dist, pred)


@jit
def query(s, t, fwd, bwd, parent, df, db, pf, pb):
    """Elimination-tree search from rank ``s`` to rank ``t``: ``(cost, meet)`` (``meet`` -1: unreachable).

    ``fwd`` and ``bwd`` are ``(first, head, weight)``: every node's upward
    arcs and their weights one way (all the arcs, or a customized class's
    query arcs). ``df`` / ``db`` (``inf`` between queries; reset here) and
    ``pf`` / ``pb`` (the arc position each node was reached by; ``None``
    for the cost alone, a faster search) are node-sized scratch."""
    ff, fh, fw = fwd
    bf, bh, bw = bwd
    df[s] = 0.0
    db[t] = 0.0
    if pf is not None and pb is not None:
        pf[s] = -1
        pb[t] = -1
    best = INF
    meet = -1
    u = s
    v = t
    while u >= 0 or v >= 0:
        if v < 0 or (u >= 0 and u < v):
            du = df[u]
            if du < best:
                _up(u, du, ff, fh, fw, df, pf)
            u = parent[u]
        elif u < 0 or v < u:
            dv = db[v]
            if dv < best:
                _up(v, dv, bf, bh, bw, db, pb)
            v = parent[v]
        else:
            du = df[u]
            dv = db[u]
            if du + dv < best:
                best = du + dv
                meet = u
            if du < best:
                _up(u, du, ff, fh, fw, df, pf)
            if dv < best:
                _up(u, dv, bf, bh, bw, db, pb)
            u = parent[u]
            v = u
    # reset what the two chains reached (every reached node lies on a chain)
    _reset(s, parent, df)
    _reset(t, parent, df)
    _reset(s, parent, db)
    _reset(t, parent, db)
    return best, meet


@jit
def query_arcs(up_first, up_head, tails, w, keep):
    """A class's query arcs after ``perfect``: ``(fwd, bwd, fwd_arc, bwd_arc)``, the kept arc directions as
    ``(first, head, weight)`` per node (``query``'s form) and each one's arc id (``unpack``'s)."""
    m = up_first.shape[0] - 1
    out = []
    for dr in range(2):
        first = np.zeros(m + 1, dtype=np.int64)
        k = 0
        for a in range(up_head.shape[0]):
            if keep[a] & (1 << dr) and w[a, dr] < INF:
                k += 1
        head = np.empty(k, dtype=np.int32)
        wt = np.empty(k, dtype=w.dtype)  # float32 where the metric is (exact: see cch._exact32)
        arc = np.empty(k, dtype=np.int32)
        k = 0
        for u in range(m):
            for a in range(up_first[u], up_first[u + 1]):
                if keep[a] & (1 << dr) and w[a, dr] < INF:
                    head[k] = up_head[a]
                    wt[k] = w[a, dr]
                    arc[k] = a
                    k += 1
            first[u + 1] = k
        out.append((first, head, wt, arc))
    return (out[0][0], out[0][1], out[0][2]), (out[1][0], out[1][1], out[1][2]), out[0][3], out[1][3]


@helper
def _arc_of(e, arc):
    """The arc id of query arc position ``e`` (``arc`` empty: positions are arc ids)."""
    return e if arc.shape[0] == 0 else arc[e]


@jit
def unpack(s, t, meet, pf, pb, fa, ba, up_first, up_head, tails, mid, inp, node_cell):
    """The path of the last ``query``: ``(ids, cost, zero)``, its padded ids (the arcs from ``s`` up to ``meet``
    and down to ``t``, each shortcut replaced by its two lower arcs through its middle node), the sum of its
    steps' input weights ``inp`` in path order (what walking it costs, summed as a search sums) and whether a
    step weighs nothing (only then can a cell come twice). ``fa`` / ``ba``: the query arcs' arc ids (empty:
    the query ran over every arc, positions are arc ids)."""
    # the chain's arcs, as (arc, direction 0 up / 1 down) in path order
    k = 0
    x = meet
    while x != s:
        k += 1
        x = tails[_arc_of(pf[x], fa)]
    j = 0
    x = meet
    while x != t:
        j += 1
        x = tails[_arc_of(pb[x], ba)]
    chain = np.empty((k + j, 2), dtype=np.int64)
    x = meet
    i = k - 1
    while x != s:
        a = _arc_of(pf[x], fa)
        chain[i, 0] = a
        chain[i, 1] = 0
        x = tails[a]
        i -= 1
    x = meet
    i = k
    while x != t:
        a = _arc_of(pb[x], ba)
        chain[i, 0] = a
        chain[i, 1] = 1
        x = tails[a]
        i += 1
    out = np.empty(64, dtype=np.int64)
    out[0] = node_cell[s]
    n = 1
    cost = 0.0
    zero = False
    sp = chain.shape[0]
    # (arc, direction, tail, head): the ends travel with the arc, so a pop reads only its middle
    stack = np.empty((max(64, 2 * sp), 4), dtype=np.int64)
    for c in range(sp):  # the stack pops the first arc first
        a = chain[sp - 1 - c, 0]
        stack[c, 0] = a
        stack[c, 1] = chain[sp - 1 - c, 1]
        stack[c, 2] = tails[a]
        stack[c, 3] = up_head[a]
    while sp > 0:
        sp -= 1
        a = stack[sp, 0]
        dr = stack[sp, 1]
        u = stack[sp, 2]
        x = stack[sp, 3]
        wm = mid[a, dr]
        if wm < 0:
            # a board step: down arcs end at their tail, up arcs at their head
            if n >= out.shape[0]:
                grown = np.empty(2 * out.shape[0], dtype=np.int64)
                grown[:n] = out[:n]
                out = grown
            out[n] = node_cell[u if dr == 1 else x]
            n += 1
            wa = inp[a, dr]
            cost += wa
            zero |= wa == 0.0
            continue
        au = find_arc(wm, u, up_first, up_head)
        ax = find_arc(wm, x, up_first, up_head)
        if sp + 2 > stack.shape[0]:
            grown2 = np.empty((2 * stack.shape[0], 4), dtype=np.int64)
            grown2[:sp] = stack[:sp]
            stack = grown2
        # u -> w -> x (up): (w, u) down, then (w, x) up; x -> w -> u (down): (w, x) down, then (w, u) up
        first, second, fe, se = (au, ax, u, x) if dr == 0 else (ax, au, x, u)
        stack[sp, 0] = second
        stack[sp, 1] = 0
        stack[sp, 2] = wm
        stack[sp, 3] = se
        stack[sp + 1, 0] = first
        stack[sp + 1, 1] = 1
        stack[sp + 1, 2] = wm
        stack[sp + 1, 3] = fe
        sp += 2
    return out[:n].copy(), cost, zero


@jit
def table(src, tgt, fwd, bwd, parent, df):
    """``(len(src), len(tgt))`` costs between ranks: every target's backward chain leaves its costs in buckets
    at the chain's nodes, every source's forward chain reads them (``fwd`` / ``bwd`` as in ``query``).
    ``df`` (``inf``; left so) is node-sized scratch."""
    m = parent.shape[0]
    out = np.full((src.shape[0], tgt.shape[0]), INF)
    cnt = np.zeros(m + 1, dtype=np.int64)  # bucket sizes: the targets' chains
    for j in range(tgt.shape[0]):
        v = tgt[j]
        while v >= 0:
            cnt[v + 1] += 1
            v = parent[v]
    for v in range(m):
        cnt[v + 1] += cnt[v]
    fill = cnt[:m].copy()
    bt = np.empty(cnt[m], dtype=np.int32)
    bd = np.empty(cnt[m])
    for j in range(tgt.shape[0]):
        df[tgt[j]] = 0.0
        v = tgt[j]
        while v >= 0:
            dv = df[v]
            if dv < INF:
                bt[fill[v]] = j
                bd[fill[v]] = dv
                fill[v] += 1
                _lower(v, dv, bwd[0], bwd[1], bwd[2], df)
            v = parent[v]
        _reset(tgt[j], parent, df)
    for i in range(src.shape[0]):
        df[src[i]] = 0.0
        v = src[i]
        while v >= 0:
            dv = df[v]
            if dv < INF:
                for e in range(cnt[v], fill[v]):
                    d = dv + bd[e]
                    if d < out[i, bt[e]]:
                        out[i, bt[e]] = d
                _lower(v, dv, fwd[0], fwd[1], fwd[2], df)
            v = parent[v]
        _reset(src[i], parent, df)
    return out


@helper
def _reset(v, parent, dist):
    while v >= 0:
        dist[v] = INF
        v = parent[v]
