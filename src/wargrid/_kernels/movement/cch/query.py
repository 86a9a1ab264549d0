"""CCH kernels, queries: elimination-tree searches, their query arcs, path unpacking, tables."""

from __future__ import annotations

import numpy as np

from ..._jit import helper, jit
from .order import find_arc

INF = np.inf


@jit(inline="always", _nrt=False)
def _lower(v, dv, first, head, w, dist):
    """Node ``v``'s arcs from cost ``dv``, branch-free: four arcs a step, then the last 0-3 (clamped: an arc relaxed
    twice changes nothing), so no remainder loop; the min written so its load folds in. Inlined by numba (as a
    ``helper`` LLVM left it a call a node, its arrays on the stack)."""
    e, hi = np.int64(first[v]), np.int64(first[v + 1])
    while e + 4 <= hi:
        for j in range(4):
            x = np.uint64(head[np.uint64(e + j)])
            d, o = dv + w[np.uint64(e + j)], dist[x]
            dist[x] = d if d < o else o
        e += 4
    if e < hi:
        for j in range(3):
            f = np.uint64(min(e + j, hi - 1))
            x = np.uint64(head[f])
            d, o = dv + w[f], dist[x]
            dist[x] = d if d < o else o


@helper
def _common(cs, ls, ct, lt):
    """How many nodes the two chains share (from their roots down)."""
    c = 0
    while c < ls and c < lt and cs[ls - 1 - c] == ct[lt - 1 - c]:
        c += 1
    return c


@helper
def _start(v, tree, chain, dist):
    """Rank ``v``'s chain of ancestors into ``chain`` from ``v`` up to its root, ``dist`` reset by depth along it (every
    head lies on it), ``v`` at 0: the chain's length. ``tree`` is ``(parent, top)``, ``top[v]`` the last of ``v``'s
    ancestors ``v, v + 1, ...`` each the parent of the one before: one parent read a run of them."""
    parent, top = tree
    n = 0
    while v >= 0:
        for u in range(v, top[v] + 1):
            chain[n] = u
            n += 1
        v = parent[top[v]]
    for i in range(n):
        dist[i] = INF
    dist[n - 1] = 0.0
    return n


@jit
def query(s, t, fwd, bwd, tree, low, cs, ct, df, db, pf, pb):
    """``_search`` for the cost: ``(cost, meet, nf, nb)``, the meeting node as its depth (``-1``: unreachable). With
    ``pf`` / ``pb`` (``None``: the cost alone) the path's query arcs too, found after the search, which keeps no
    predecessor (``_recover``; with keys, ``low``, read from them): ``pf[:nf]`` their positions from the meeting node
    down to ``s``, ``pb[:nb]`` down to ``t``."""
    best, meet, ls, lt = _search(s, t, fwd, bwd, tree, low, cs, ct, df, db)
    nf = nb = 0
    if pf is not None and pb is not None and meet >= 0:
        nf = _recover(meet, ls, cs, low, df, fwd[0], fwd[1], fwd[2], pf)
        nb = _recover(meet, lt, ct, low, db, bwd[0], bwd[1], bwd[2], pb)
    return best, meet, nf, nb


@helper
def _key(d, depth, low):
    """Cost ``d`` as the key a node at ``depth`` relaxes from (``low``: the keys' unit, a power of two, weights
    in whole multiples of it; ``0.0``: plain costs): the cost in the multiples, ``depth`` below them (of equal costs the
    least key is the highest node's, the one ``_recover`` would find)."""
    return float((int(d) & -int(low)) + depth) if low and d < INF else d  # (integer masks: a float modulo is slower)


@helper
def _search(s, t, fwd, bwd, tree, low, cs, ct, df, db):
    """Elimination-tree search from rank ``s`` to rank ``t``: ``(cost, meet, ls, lt)``, the meeting node as its
    depth (``-1``: unreachable) and the two chains' lengths (``cs`` / ``ct`` then hold them from each end up).
    ``fwd`` and ``bwd`` are ``(first, head, weight)``: every node's upward arcs (every arc, query arcs or finite arcs)
    and their weights one way, the heads as depths in the elimination tree. Every head is an ancestor, so a search
    only touches its two chains: by depth, its costs ``df`` / ``db`` fill a few kilobytes. ``cs``, ``ct``, ``df``,
    ``db``: scratch of the tree's height at least. ``low``: the costs are keys (``_key``)."""
    ff, fh, fw = fwd
    bf, bh, bw = bwd
    ls = _start(s, tree, cs, df)
    lt = _start(t, tree, ct, db)
    c = _common(cs, ls, ct, lt)
    # below the chains' lowest common node no meeting bounds the search yet
    for i in range(ls - c):
        du = df[ls - 1 - i]
        if du < INF:
            _lower(cs[i], _key(du, ls - 1 - i, low), ff, fh, fw, df)
    for i in range(lt - c):
        dv = db[lt - 1 - i]
        if dv < INF:
            _lower(ct[i], _key(dv, lt - 1 - i, low), bf, bh, bw, db)
    best = INF
    meet = -1
    for k in range(c - 1, -1, -1):  # the common nodes, depth k, from the lowest up
        u = cs[ls - 1 - k]
        du = _key(df[k], 0, low)  # (the costs alone)
        dv = _key(db[k], 0, low)
        if du + dv < best:
            best = du + dv
            meet = k
        if du < best:
            _lower(u, _key(du, k, low), ff, fh, fw, df)
        if dv < best:
            _lower(u, _key(dv, k, low), bf, bh, bw, db)
    return best, meet, ls, lt


@helper
def _find_head(lo, hi, head, x):
    """The position in ``head[lo:hi]`` of head depth ``x`` (``-1``: none); heads ascend in rank, so descend in depth."""
    while lo < hi:
        mid = (lo + hi) >> 1
        h = head[mid]
        if h == x:
            return mid
        if h > x:
            lo = mid + 1
        else:
            hi = mid
    return -1


@helper
def _recover(meet, n, chain, low, dist, first, head, w, pred):
    """After a search without predecessors: the query arcs from the chain's node at depth ``meet`` down to its
    end into ``pred``, their number returned, each node's the one from the nearest node below it whose cost plus
    the arc's weight is the node's (the sum the search made, so the node that set the cost always qualifies); with
    keys (``low``), the one whose depth its key holds."""
    i, j, k = n - 1 - meet, n - 2 - meet, 0
    while i > 0:
        x = n - 1 - i  # (its depth)
        dx = dist[x]
        if low:  # a key: the depth of the node that set the cost (keys come with heads as depths)
            j = n - 1 - (int(dx) & (int(low) - 1))
            pred[k] = _find_head(first[chain[j]], first[chain[j] + 1], head, x)
            k += 1
        while not low:
            if j < 0:
                raise ValueError("query: a path's node without a predecessor")  # never (see above)
            dy = dist[n - 1 - j]
            if dy <= dx:
                y = chain[j]
                e = _find_head(first[y], first[y + 1], head, x)
                if e >= 0 and dy + w[e] == dx:
                    pred[k] = e
                    k += 1
                    break
            j -= 1
        i = j
        j -= 1
    return k


@jit
def depths(parent):
    """Every node's depth in the elimination tree (a root: 0; a parent ranks above its children)."""
    m = parent.shape[0]
    depth = np.zeros(m, dtype=np.int32)
    for v in range(m - 1, -1, -1):
        if parent[v] >= 0:
            depth[v] = depth[parent[v]] + 1
    return depth


@jit
def query_arcs(up_first, up_head, depth, w, keep, ids):
    """A class's arcs for ``query``: ``(fwd, bwd, fwd_arc, bwd_arc, top)``, the arc directions finite in ``w`` and kept
    (``keep``: bit 1 up, 2 down, after ``perfect``; empty: every one) as ``(first, head, weight)`` per node, heads as their
    ``depth`` (its dtype), arc ids where ``ids`` (``unpack``'s, ``update``'s), ``top`` the largest finite weight."""
    m, every, top = up_first.shape[0] - 1, keep.shape[0] == 0, 0.0
    out = []
    for dr in range(w.shape[1]):
        k = 0
        for a in range(w.shape[0]):
            if w[a, dr] < INF and (every or keep[a] >> dr & 1 != 0):
                k += 1
        first, head = np.empty(m + 1, dtype=np.int64), np.empty(k, dtype=depth.dtype)
        wt, arc = np.empty(k, dtype=w.dtype), np.empty(k if ids else 0, dtype=np.int32)  # float32 where the metric is
        k = first[0] = 0
        for u in range(m):
            for a in range(up_first[u], up_first[u + 1]):
                if w[a, dr] < INF and (every or keep[a] >> dr & 1 != 0):
                    head[k], wt[k], top = depth[up_head[a]], w[a, dr], max(top, float(w[a, dr]))
                    if ids:
                        arc[k] = a
                    k += 1
            first[u + 1] = k
        out.append((first, head, wt, arc))
    return (out[0][0], out[0][1], out[0][2]), (out[-1][0], out[-1][1], out[-1][2]), out[0][3], out[-1][3], top


@jit
def every_weight(up_first, heads, first, head, wt, w):
    """Every arc's weight one way into ``w`` from the finite ones, ``(first, head, wt)`` as ``query_arcs`` lists them
    (a node's in the order of its arcs, heads as depths; ``heads``: every arc's head as its depth): ``inf`` elsewhere."""
    w[:] = INF
    for u in range(up_first.shape[0] - 1):
        a = up_first[u]
        for j in range(first[u], first[u + 1]):
            while heads[a] != head[j]:  # (each finite arc is one of u's arcs: found before its arcs end)
                a += 1
            w[a] = wt[j]


@jit
def unpack(s, nf, nb, pf, pb, fa, ba, up_first, up_head, tails, mid, inp, slot, walk, node_cell, pw):
    """The path from rank ``s`` of the last ``query`` (its ``nf`` / ``nb`` query arcs in ``pf`` / ``pb``, of arc ids
    ``fa`` / ``ba``; empty: positions are arc ids): ``(xy, cost, zero)``, its cells as ``(x, y)`` rows (of padded ids
    ``node_cell``, rows ``pw`` wide; each shortcut replaced by its two lower arcs through its middle node), the sum of
    its steps' input weights ``inp`` (arc ``a``'s row ``slot[a]``) in path order (summed as a search sums) and whether
    a step weighs nothing or less than a sum's rounding (only then can a cell come twice); ``walk`` false: ``0.0, False``.
    The arcs are replaced a level at a time, each level in passes of one kind of read (the arcs' middles, the
    middles' arc lists, the searches in them): a pass's cache misses overlap, where a depth-first walk reads each
    arc after the one above it. The arcs form a tree, read in order at the end."""
    if nf + nb < 1:
        raise ValueError("unpack: the query found no arcs (no path to unpack)")
    roots = nf + nb
    cap = max(64, 4 * roots)
    # the tree: arc, direction, tail, head, first child (-1: a board step; its children: child, child + 1)
    tree = np.empty((cap, 5), dtype=np.int64)
    wmid = np.empty(cap, dtype=np.int64)
    for c in range(roots):  # the search's arcs in path order: up from the start, then down to the goal
        dr = 1 if c >= nf else 0
        e, arc = (pb[c - nf], ba) if dr else (pf[nf - 1 - c], fa)
        a = arc[e] if arc.shape[0] else e  # (no arc ids: positions are arc ids)
        tree[c, 0], tree[c, 1], tree[c, 2], tree[c, 3] = a, dr, tails[a], up_head[a]
    lo, n = 0, roots
    while lo < n:  # a level: tree rows lo..hi, their lower arcs appended from hi on
        hi = n
        if hi + 2 * (hi - lo) > tree.shape[0]:
            tree = np.concatenate((tree[:n], np.empty((n + 4 * (hi - lo), 5), dtype=np.int64)))
        if hi - lo >= wmid.shape[0]:
            wmid = np.empty(2 * (hi - lo) + 1, dtype=np.int64)
        for j in range(lo, hi):  # the middles (a symmetric metric's one column serves both ways)
            wmid[j - lo] = mid[tree[j, 0], tree[j, 1] & (mid.shape[1] - 1)]
        touched = 0
        for j in range(lo, hi):  # the middles' arc lists: their bounds (misses that overlap), then their heads
            wm = wmid[j - lo]
            if wm >= 0:
                touched += up_first[wm]
        for j in range(lo, hi):  # every cache line of them
            wm = wmid[j - lo]
            if wm >= 0:
                for e in range(up_first[wm], up_first[wm + 1], 16):
                    touched += up_head[e]
        for j in range(lo, hi):
            wm = wmid[j - lo]
            if wm < 0:
                tree[j, 4] = -1
                continue
            dr, u, x = tree[j, 1], tree[j, 2], tree[j, 3]
            au = find_arc(wm, u, up_first, up_head)
            ax = find_arc(wm, x, up_first, up_head)
            # u -> w -> x (up): (w, u) down, then (w, x) up; x -> w -> u (down): (w, x) down, then (w, u) up
            first, second, fe, se = (au, ax, u, x) if dr == 0 else (ax, au, x, u)
            tree[j, 4] = n
            tree[n, 0], tree[n, 1], tree[n, 2], tree[n, 3] = first, 1, wm, fe
            tree[n + 1, 0], tree[n + 1, 1], tree[n + 1, 2], tree[n + 1, 3] = second, 0, wm, se
            n += 2
        wmid[hi - lo] = touched  # kept, so the reads that brought the lists into cache are too
        lo = hi
    # the board steps in order: a depth-first walk of the tree (in cache), then their cells and weights
    steps = np.empty(n, dtype=np.int64)
    stack = np.empty(n + 2, dtype=np.int64)
    stack[:roots] = np.arange(roots - 1, -1, -1)
    ns, sp = 0, roots
    while sp > 0:
        sp -= 1
        j = stack[sp]
        ch = tree[j, 4]
        if ch < 0:
            steps[ns] = j
            ns += 1
        else:
            stack[sp] = ch + 1
            stack[sp + 1] = ch
            sp += 2
    out = np.empty((ns + 1, 2), dtype=np.int64)
    p = node_cell[s]
    out[0, 0], out[0, 1] = p % pw - 1, p // pw - 1
    cost = 0.0
    zero = INF  # the lightest step
    for i in range(ns):
        j = steps[i]
        a = tree[j, 0]
        dr = tree[j, 1]
        # a board step: down arcs end at their tail, up arcs at their head
        p = node_cell[tree[j, 2] if dr == 1 else tree[j, 3]]
        out[i + 1, 0], out[i + 1, 1] = p % pw - 1, p // pw - 1
        if walk:
            wa = inp[slot[a], dr & (inp.shape[1] - 1)]
            cost += wa
            zero = min(zero, wa)
    return out, cost, zero <= cost * node_cell.shape[0] * 2.0 ** -52


@jit
def path(s, t, fwd, bwd, tree, low, cs, ct, df, db, pf, pb, fa, ba, up_first, up_head, tails, mid, inp, slot,
         walk, node_cell, pw):
    """``query`` then ``unpack`` in one call (the arguments checked once, not twice): ``(cost, xy, walked, zero)``
    as there, ``xy`` without rows where ``t`` is unreachable."""
    cost, meet, nf, nb = query(s, t, fwd, bwd, tree, low, cs, ct, df, db, pf, pb)
    if meet < 0 or not cost < INF:
        return cost, np.empty((0, 2), dtype=np.int64), 0.0, False
    return (cost,) + unpack(s, nf, nb, pf, pb, fa, ba, up_first, up_head, tails, mid, inp, slot, walk, node_cell, pw)

@jit
def table(src, tgt, fwd, bwd, tree, chain, df):
    """``(len(src), len(tgt))`` costs between ranks: every target's backward chain leaves its costs in buckets
    at the chain's nodes, every source's forward chain reads them (``fwd`` / ``bwd``, ``tree``: as in ``query``).
    ``chain`` and ``df`` are scratch as there."""
    parent = tree[0]
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
        n = _start(tgt[j], tree, chain, df)
        for i in range(n):
            v = chain[i]
            dv = df[n - 1 - i]
            if dv < INF:
                bt[fill[v]] = j
                bd[fill[v]] = dv
                fill[v] += 1
                _lower(v, dv, bwd[0], bwd[1], bwd[2], df)
    for r in range(src.shape[0]):
        n = _start(src[r], tree, chain, df)
        for i in range(n):
            v = chain[i]
            dv = df[n - 1 - i]
            if dv < INF:
                for e in range(cnt[v], fill[v]):
                    d = dv + bd[e]
                    if d < out[r, bt[e]]:
                        out[r, bt[e]] = d
                _lower(v, dv, fwd[0], fwd[1], fwd[2], df)
    return out
