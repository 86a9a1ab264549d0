"""Customizable contraction hierarchy (CCH) kernels: order, chordal structure, customization, queries.

Nodes are the board's cells in **rank space** (``0 .. m-1``, the
nested-dissection order). The structure depends on the board's shape only:
``up_first`` / ``up_head`` (every node's upward neighbours in the chordal
supergraph, sorted; arc ``a`` runs from its tail, the lower node, to
``up_head[a]``), ``parent`` (the elimination tree: a node's lowest upward
neighbour) and ``down_first`` / ``down_arc`` (for node ``u`` the arcs
``(w, u)`` with ``w < u``, in increasing ``w``).

A metric holds, per arc, ``up[a]`` (tail -> head), ``dn[a]`` (head -> tail)
and the middle node of the lower triangle that gave each (``-1``: the board's
own step), from the input weights ``inp_up`` / ``inp_dn``. Customization
relaxes every lower triangle ``w < u < x`` in increasing ``u``; a partial
customization recomputes only the arcs whose lower triangles changed, in
increasing arc id (which is increasing tail), so each arc is final before
the arcs above it read it.
"""

from __future__ import annotations

import numpy as np

from .._jit import helper, jit
from .ch import walk_cost  # noqa: F401  (the paths' costs, as the hierarchy sums them)
from .steps import corner_ok, step_to, topo_info, unpack_topo

INF = np.inf


# -- the board graph and the order ----------------------------------------------------------------

@jit
def board_graph(valid, tb):
    """``(index, nb_first, nb)``: every valid padded cell's compact index (``-1`` elsewhere) and the undirected
    neighbour lists in compact indices (the board's steps both ways, whatever the costs)."""
    off, stepl, corner, ndir, pmode, crule, wrap, width, pw = unpack_topo(tb)
    n = valid.shape[0]
    index = np.full(n, -1, dtype=np.int32)
    m = 0
    for p in range(n):
        if valid[p]:
            index[p] = m
            m += 1
    nb_first = np.zeros(m + 1, dtype=np.int64)
    nb = np.empty(m * ndir, dtype=np.int32)
    mark = np.full(m, -1, dtype=np.int64)
    k = 0
    for p in range(n):
        i = index[p]
        if i < 0:
            continue
        mark[i] = i
        for d in range(ndir):
            q = step_to(p, d, off, ndir, pmode, wrap, width, pw)
            j = index[q]
            if j >= 0 and mark[j] != i:
                mark[j] = i
                nb[k] = j
                k += 1
        nb_first[i + 1] = k
    return index, nb_first, nb[:k].copy()


@jit
def nested_dissection(xs, ys, nb_first, nb, leaf):
    """``(order, parts)``: compact indices from the lowest rank to the highest, by recursive bisection, and the
    first cut's two halves as rank ranges ``[0, parts[0])`` and ``[parts[0], parts[1])`` (no arc joins them).

    A region is cut across its longer side at the median coordinate; the
    separator is the smaller of the two sides' boundaries (the cells with a
    neighbour on the other side), ranked above both parts. Any cut gives a
    correct hierarchy: the cut only decides its size. Regions of at most
    ``leaf`` cells keep their order.
    """
    m = xs.shape[0]
    order = np.arange(m).astype(np.int32)
    parts = np.array([m, m], dtype=np.int64)
    side = np.zeros(m, dtype=np.int8)
    stamp = np.full(m, -1, dtype=np.int64)
    buf = np.empty(m, dtype=np.int32)
    stack = np.empty((2 * 64 + 8, 2), dtype=np.int64)
    stack[0, 0] = 0
    stack[0, 1] = m
    top = 1
    tag = 0
    while top > 0:
        top -= 1
        lo = stack[top, 0]
        hi = stack[top, 1]
        if hi - lo <= leaf:
            continue
        tag += 1
        x0 = xs[order[lo]]
        x1 = x0
        y0 = ys[order[lo]]
        y1 = y0
        for i in range(lo, hi):
            v = order[i]
            stamp[v] = tag
            x0 = min(x0, xs[v])
            x1 = max(x1, xs[v])
            y0 = min(y0, ys[v])
            y1 = max(y1, ys[v])
        byx = x1 - x0 >= y1 - y0
        c0 = x0 if byx else y0
        span = (x1 - x0 if byx else y1 - y0) + 1
        counts = np.zeros(span + 1, dtype=np.int64)
        for i in range(lo, hi):
            v = order[i]
            counts[(xs[v] if byx else ys[v]) - c0] += 1
        half = (hi - lo) // 2
        acc = 0
        cut = 1
        gap = hi - lo
        for c in range(1, span):
            acc += counts[c - 1]
            if abs(acc - half) < gap:
                gap = abs(acc - half)
                cut = c
        for i in range(lo, hi):
            v = order[i]
            side[v] = 0 if (xs[v] if byx else ys[v]) - c0 < cut else 1
        # boundaries: cells with a neighbour on the other side (3 / 4 when on the boundary)
        na = 0
        nbd = 0
        for i in range(lo, hi):
            v = order[i]
            s = side[v]
            for e in range(nb_first[v], nb_first[v + 1]):
                y = nb[e]
                if stamp[y] == tag and side[y] & 1 != s & 1:
                    side[v] = s | 2
                    if s == 0:
                        na += 1
                    else:
                        nbd += 1
                    break
        sep_side = 0 if na < nbd else 1
        # partition: part 0 (not separator), part 1 (not separator), separator
        k = 0
        for part in range(3):
            for i in range(lo, hi):
                v = order[i]
                s = side[v]
                inside = 2 if s >= 2 and (s & 1) == sep_side else s & 1
                if inside == part:
                    buf[k] = v
                    k += 1
            if part == 0:
                a_end = lo + k
            elif part == 1:
                b_end = lo + k
        for i in range(k):
            order[lo + i] = buf[i]
        if tag == 1:
            parts[0] = a_end
            parts[1] = b_end
        if top + 2 > stack.shape[0]:
            grown = np.empty((2 * stack.shape[0], 2), dtype=np.int64)
            grown[:top] = stack[:top]
            stack = grown
        stack[top, 0] = lo
        stack[top, 1] = a_end
        stack[top + 1, 0] = a_end
        stack[top + 1, 1] = b_end
        top += 2
    return order, parts


@jit
def chordal(rank, nb_first, nb):
    """The chordal supergraph of the board graph under ``rank`` (compact index -> rank):
    ``(up_first, up_head, parent)`` in rank space (see the module notes)."""
    m = rank.shape[0]
    node = np.empty(m, dtype=np.int32)
    for i in range(m):
        node[rank[i]] = i
    up_first = np.zeros(m + 1, dtype=np.int64)
    cap = max(16, 8 * m)
    up_head = np.empty(cap, dtype=np.int32)
    parent = np.full(m, -1, dtype=np.int32)
    child = np.full(m, -1, dtype=np.int32)
    sibling = np.full(m, -1, dtype=np.int32)
    mark = np.full(m, -1, dtype=np.int32)
    buf = np.empty(m, dtype=np.int32)
    top = 0
    for v in range(m):
        k = 0
        mark[v] = v
        i = node[v]
        for e in range(nb_first[i], nb_first[i + 1]):
            x = rank[nb[e]]
            if x > v and mark[x] != v:
                mark[x] = v
                buf[k] = x
                k += 1
        c = child[v]
        while c >= 0:
            for a in range(up_first[c], up_first[c + 1]):
                x = up_head[a]
                if mark[x] != v:
                    mark[x] = v
                    buf[k] = x
                    k += 1
            c = sibling[c]
        got = np.sort(buf[:k])
        if top + k > cap:
            cap = max(2 * cap, top + k)
            grown = np.empty(cap, dtype=np.int32)
            grown[:top] = up_head[:top]
            up_head = grown
        up_head[top:top + k] = got
        top += k
        up_first[v + 1] = top
        if k:
            p = got[0]
            parent[v] = p
            sibling[v] = child[p]
            child[p] = v
    return up_first, up_head[:top].copy(), parent


@jit
def down_lists(up_first, up_head):
    """``(down_first, down_arc)``: for each node ``u``, the arcs ``(w, u)``, ``w`` increasing."""
    m = up_first.shape[0] - 1
    down_first = np.zeros(m + 1, dtype=np.int64)
    for a in range(up_head.shape[0]):
        down_first[up_head[a] + 1] += 1
    for u in range(m):
        down_first[u + 1] += down_first[u]
    fill = down_first[:m].copy()
    down_arc = np.empty(up_head.shape[0], dtype=np.int32)
    for w in range(m):
        for a in range(up_first[w], up_first[w + 1]):
            u = up_head[a]
            down_arc[fill[u]] = a
            fill[u] += 1
    return down_first, down_arc


@helper
def find_arc(u, x, up_first, up_head):
    """The arc ``(u, x)`` (``u < x``) by binary search in ``u``'s sorted list, ``-1`` if none."""
    lo = up_first[u]
    hi = up_first[u + 1]
    while lo < hi:
        mid = (lo + hi) >> 1
        h = up_head[mid]
        if h < x:
            lo = mid + 1
        elif h > x:
            hi = mid
        else:
            return mid
    return -1


@jit
def step_arcs(index, rank, up_first, up_head, tb):
    """``code[p * ndir + d]``: the board step from padded ``p`` in direction ``d`` as ``2 * arc`` (the arc's
    upward direction) or ``2 * arc + 1`` (downward), ``-1`` where the step leaves the board."""
    off, stepl, corner, ndir, pmode, crule, wrap, width, pw = unpack_topo(tb)
    n = index.shape[0]
    code = np.full(n * ndir, -1, dtype=np.int64)
    for p in range(n):
        i = index[p]
        if i < 0:
            continue
        for d in range(ndir):
            q = step_to(p, d, off, ndir, pmode, wrap, width, pw)
            j = index[q]
            if j < 0 or q == p:
                continue
            a = rank[i]
            b = rank[j]
            if a < b:
                code[p * ndir + d] = 2 * find_arc(a, b, up_first, up_head)
            else:
                code[p * ndir + d] = 2 * find_arc(b, a, up_first, up_head) + 1
    return code


@helper
def _step_weight(p, d, cell, edge, has_edge, tb):
    off, _, _, stepl, corner, ti = tb
    ndir, pmode, crule, wrap, width, pw, _, _ = topo_info(ti)  # scalars only: a helper returns no arrays
    if not cell[p] < INF:
        return INF
    q = step_to(p, d, off, ndir, pmode, wrap, width, pw)
    if not cell[q] < INF:
        return INF
    if crule != 0 and not corner_ok(cell, p, d, corner, crule, off, ndir, pmode, wrap, width, pw):
        return INF
    w = stepl[d] * cell[q]
    if has_edge:
        w += edge[p * ndir + d]
    return w


@jit
def input_weights(code, cell, edge, tb, inp):
    """The board's step weights into ``inp`` (``(2, arcs)``: upward, downward), ``inf`` where no step."""
    ndir = topo_info(tb.info)[0]
    inp[:] = INF
    has_edge = edge.shape[0] > 0
    for e in range(code.shape[0]):
        c = code[e]
        if c < 0:
            continue
        w = _step_weight(e // ndir, e % ndir, cell, edge, has_edge, tb)
        if w < inp[c >> 1, c & 1]:
            inp[c >> 1, c & 1] = w


@jit
def customize(lo, hi, up_first, up_head, down_first, down_arc, tails, w, mid):
    """The weights (``w``, ``(arcs, 2)``: upward, downward; the input weights on entry) and middles (``mid``,
    ``-1`` on entry) of the arcs from nodes ``lo .. hi - 1``, by lower triangles in increasing rank (the
    arcs from lower nodes are final)."""
    m = up_first.shape[0] - 1
    pos = np.empty(m, dtype=np.int64)
    for u in range(lo, hi):
        for a in range(up_first[u], up_first[u + 1]):
            pos[up_head[a]] = a
        for e in range(down_first[u], down_first[u + 1]):
            b = down_arc[e]  # (v, u)
            bu = w[b, 0]
            bd = w[b, 1]
            if not (bu < INF or bd < INF):
                continue
            v = tails[b]
            for a2 in range(b + 1, up_first[v + 1]):  # (v, x), x > u
                a = pos[up_head[a2]]  # (u, x)
                s = bd + w[a2, 0]  # u -> v -> x
                if s < w[a, 0]:
                    w[a, 0] = s
                    mid[a, 0] = v
                s = w[a2, 1] + bu  # x -> v -> u
                if s < w[a, 1]:
                    w[a, 1] = s
                    mid[a, 1] = v


@jit
def count_triangles(up_first, down_first, down_arc, tails):
    """How many lower triangles the structure has (the customization's work)."""
    total = 0
    for u in range(up_first.shape[0] - 1):
        for e in range(down_first[u], down_first[u + 1]):
            b = down_arc[e]
            total += up_first[tails[b] + 1] - b - 1
    return total


# -- partial customization ------------------------------------------------------------------------

@helper
def _triangle(e, f, v, w, bu, bd, mu, md):
    """The lower triangle ``v`` of arc ``(u, x)`` (``e = (v, u)``, ``f = (v, x)``) against its best weights."""
    s = w[e, 1] + w[f, 0]
    if s < bu:
        bu = s
        mu = v
    s = w[f, 1] + w[e, 0]
    if s < bd:
        bd = s
        md = v
    return bu, bd, mu, md


@helper
def _recompute(a, u, x, up_first, up_head, down_first, down_arc, tails, inp, w, mid):
    """Arc ``a = (u, x)``'s weights from its input and its lower triangles ``v`` (the nodes of both down
    lists); returns whether they changed."""
    bu = inp[a, 0]
    bd = inp[a, 1]
    mu = -1
    md = -1
    nu = down_first[u + 1] - down_first[u]
    nx = down_first[x + 1] - down_first[x]
    if nu <= nx * 8 and nx <= nu * 8:  # lists of like lengths: merged
        i = down_first[u]
        j = down_first[x]
        while i < down_first[u + 1] and j < down_first[x + 1]:
            e = down_arc[i]
            f = down_arc[j]
            if tails[e] < tails[f]:
                i += 1
            elif tails[f] < tails[e]:
                j += 1
            else:
                bu, bd, mu, md = _triangle(e, f, tails[e], w, bu, bd, mu, md)
                i += 1
                j += 1
    else:  # the shorter one, each node's arc to the other end searched in its sorted list
        short = nu <= nx
        y = u if short else x
        other = x if short else u
        for i in range(down_first[y], down_first[y + 1]):
            e = down_arc[i]
            v = tails[e]
            f = find_arc(v, other, up_first, up_head)
            if f >= 0:
                if short:
                    bu, bd, mu, md = _triangle(e, f, v, w, bu, bd, mu, md)
                else:
                    bu, bd, mu, md = _triangle(f, e, v, w, bu, bd, mu, md)
    same = bu == w[a, 0] and bd == w[a, 1]
    w[a, 0] = bu
    w[a, 1] = bd
    mid[a, 0] = mu
    mid[a, 1] = md
    return not same


@jit
def update(changed, new_inp, up_first, up_head, down_first, down_arc, tails, inp, w, mid, heap, queued):
    """Partial customization: the arcs ``changed`` get the input weights ``new_inp`` (``(2, k)``); every arc
    whose lower triangles changed is recomputed, in increasing arc id. Returns ``(arcs changed, heap, arcs
    recomputed)``.

    ``heap`` (int64, grown when short: the one returned) and ``queued`` (uint8 a arc, all zero; left zero) are scratch.
    """
    nh = 0
    for i in range(changed.shape[0]):
        a = changed[i]
        inp[a, 0] = new_inp[0, i]
        inp[a, 1] = new_inp[1, i]
        if not queued[a]:
            queued[a] = 1
            nh = _heap_push(heap, nh, a)
            if nh >= heap.shape[0]:
                heap = _grown(heap, nh)
    moved = 0
    seen = 0
    while nh > 0:
        a = heap[0]
        nh = _heap_pop(heap, nh)
        queued[a] = 0
        seen += 1
        u = tails[a]
        x = up_head[a]
        ou = w[a, 0]
        od = w[a, 1]
        if not _recompute(a, u, x, up_first, up_head, down_first, down_arc, tails, inp, w, mid):
            continue
        moved += 1
        # a is a lower arc of the triangles (u, x, y), y another upward neighbour of u: the arc b between x
        # and y is recomputed when the triangle's sum changed and now beats b's weight or gave it (b's middle
        # is u: another support of the same weight, the input or a lower middle, keeps it, and is checked
        # when its own arcs change)
        for c in range(up_first[u], up_first[u + 1]):
            y = up_head[c]
            if y == x:
                continue
            up_c = w[c, 0]
            dn_c = w[c, 1]
            p0 = od + up_c  # x -> u -> y, before and after
            p1 = w[a, 1] + up_c
            q0 = dn_c + ou  # y -> u -> x
            q1 = dn_c + w[a, 0]
            if p0 == p1 and q0 == q1:
                continue  # the triangle's sums did not change
            if x < y:
                b = find_arc(x, y, up_first, up_head)
                s0, s1, t0, t1 = p0, p1, q0, q1
            else:
                b = find_arc(y, x, up_first, up_head)
                s0, s1, t0, t1 = q0, q1, p0, p1
            if queued[b]:
                continue
            if (s1 != s0 and (s1 < w[b, 0] or mid[b, 0] == u)) or (t1 != t0 and (t1 < w[b, 1] or mid[b, 1] == u)):
                queued[b] = 1
                nh = _heap_push(heap, nh, b)
                if nh >= heap.shape[0]:
                    heap = _grown(heap, nh)
    return moved, heap, seen


@jit
def _grown(a, n):
    out = np.empty(2 * a.shape[0], dtype=a.dtype)
    out[:n] = a[:n]
    return out


@helper
def _heap_push(heap, n, v):
    i = n
    while i > 0:
        p = (i - 1) >> 1
        if heap[p] > v:
            heap[i] = heap[p]
            i = p
        else:
            break
    heap[i] = v
    return n + 1


@helper
def _heap_pop(heap, n):
    n -= 1
    if n == 0:
        return 0
    v = heap[n]
    i = 0
    while True:
        c = 2 * i + 1
        if c >= n:
            break
        if c + 1 < n and heap[c + 1] < heap[c]:
            c += 1
        if heap[c] < v:
            heap[i] = heap[c]
            i = c
        else:
            break
    heap[i] = v
    return n


# -- queries --------------------------------------------------------------------------------------

@helper
def _relax(v, dv, first, head, w, dist, pred):
    for e in range(first[v], first[v + 1]):
        x = head[e]
        d = dv + w[e]
        if d < dist[x]:
            dist[x] = d
            pred[x] = e


@jit
def query(s, t, fwd, bwd, parent, df, db, pf, pb):
    """Elimination-tree search from rank ``s`` to rank ``t``: ``(cost, meet)`` (``meet`` -1: unreachable).

    ``fwd`` and ``bwd`` are ``(first, head, weight)``: every node's upward
    arcs and their weights one way (all the arcs, or a customized class's
    query arcs). ``df`` / ``db`` (``inf`` between queries; reset here) and
    ``pf`` / ``pb`` (the arc position each node was reached by) are
    node-sized scratch."""
    ff, fh, fw = fwd
    bf, bh, bw = bwd
    df[s] = 0.0
    db[t] = 0.0
    pf[s] = -1
    pb[t] = -1
    best = INF
    meet = -1
    u = s
    v = t
    while u >= 0 or v >= 0:
        if v < 0 or (u >= 0 and u < v):
            if df[u] < best:
                _relax(u, df[u], ff, fh, fw, df, pf)
            u = parent[u]
        elif u < 0 or v < u:
            if db[v] < best:
                _relax(v, db[v], bf, bh, bw, db, pb)
            v = parent[v]
        else:
            du = df[u]
            dv = db[u]
            if du + dv < best:
                best = du + dv
                meet = u
            if du < best:
                _relax(u, du, ff, fh, fw, df, pf)
            if dv < best:
                _relax(u, dv, bf, bh, bw, db, pb)
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
        wt = np.empty(k)
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
def unpack(s, t, meet, pf, pb, fa, ba, up_first, up_head, tails, mid, node_cell):
    """The path of the last ``query`` as padded ids: the arcs from ``s`` up to ``meet`` and down to ``t``,
    each shortcut replaced by its two lower arcs through its middle node. ``fa`` / ``ba``: the query arcs'
    arc ids (empty: the query ran over every arc, positions are arc ids)."""
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
    sp = chain.shape[0]
    stack = np.empty((max(64, 2 * sp), 2), dtype=np.int64)
    for c in range(sp):  # the stack pops the first arc first
        stack[c] = chain[sp - 1 - c]
    while sp > 0:
        sp -= 1
        a = stack[sp, 0]
        dr = stack[sp, 1]
        wm = mid[a, dr]
        if wm < 0:
            # a board step: down arcs end at their tail, up arcs at their head
            if n >= out.shape[0]:
                grown = np.empty(2 * out.shape[0], dtype=np.int64)
                grown[:n] = out[:n]
                out = grown
            out[n] = node_cell[tails[a] if dr == 1 else up_head[a]]
            n += 1
            continue
        u = tails[a]
        x = up_head[a]
        au = find_arc(wm, u, up_first, up_head)
        ax = find_arc(wm, x, up_first, up_head)
        if sp + 2 > stack.shape[0]:
            grown2 = np.empty((2 * stack.shape[0], 2), dtype=np.int64)
            grown2[:sp] = stack[:sp]
            stack = grown2
        if dr == 0:  # u -> w -> x: (w, u) down, then (w, x) up
            stack[sp, 0] = ax
            stack[sp, 1] = 0
            stack[sp + 1, 0] = au
            stack[sp + 1, 1] = 1
        else:  # x -> w -> u: (w, x) down, then (w, u) up
            stack[sp, 0] = au
            stack[sp, 1] = 0
            stack[sp + 1, 0] = ax
            stack[sp + 1, 1] = 1
        sp += 2
    return out[:n].copy()


@jit
def table(src, tgt, fwd, bwd, parent, df, pred):
    """``(len(src), len(tgt))`` costs between ranks: every target's backward chain leaves its costs in buckets
    at the chain's nodes, every source's forward chain reads them (``fwd`` / ``bwd`` as in ``query``).
    ``df`` (``inf``; left so) and ``pred`` are node-sized scratch."""
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
                _relax(v, dv, bwd[0], bwd[1], bwd[2], df, pred)
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
                _relax(v, dv, fwd[0], fwd[1], fwd[2], df, pred)
            v = parent[v]
        _reset(src[i], parent, df)
    return out


@helper
def _reset(v, parent, dist):
    while v >= 0:
        dist[v] = INF
        v = parent[v]


@jit
def step_changes(ids, code, cell, edge, tb, inp):
    """``(arcs, new)``: the arcs whose input weights the changed padded cells ``ids`` may touch, with their
    new input weights (``(2, k)``). A step ``p -> q`` reads ``p``, ``q``, ``p``'s corner cells and ``p``'s
    edge costs, so every step from a changed cell or a neighbour of one is weighed again."""
    off, stepl, corner, ndir, pmode, crule, wrap, width, pw = unpack_topo(tb)
    has_edge = edge.shape[0] > 0
    near = np.empty(ids.shape[0] * (ndir + 1), dtype=np.int64)
    k = 0
    for i in range(ids.shape[0]):
        p = ids[i]
        near[k] = p
        k += 1
        for d in range(ndir):
            near[k] = step_to(p, d, off, ndir, pmode, wrap, width, pw)
            k += 1
    near = np.unique(near[:k])
    arcs = np.empty(near.shape[0] * ndir, dtype=np.int64)
    new = np.empty((2, near.shape[0] * ndir))
    slot = {}
    na = 0
    for i in range(near.shape[0]):
        p = near[i]
        for d in range(ndir):  # every step feeding a touched direction starts at p: weighed below
            c = code[p * ndir + d]
            if c >= 0 and c >> 1 not in slot:
                slot[c >> 1] = na
                arcs[na] = c >> 1
                new[0, na] = inp[c >> 1, 0]
                new[1, na] = inp[c >> 1, 1]
                na += 1
            if c >= 0:
                new[c & 1, slot[c >> 1]] = INF
        for d in range(ndir):
            c = code[p * ndir + d]
            if c >= 0:
                j = slot[c >> 1]
                new[c & 1, j] = min(new[c & 1, j], _step_weight(p, d, cell, edge, has_edge, tb))
    return arcs[:na].copy(), new[:, :na].copy()


@jit
def perfect(lo, hi, up_first, up_head, down_first, down_arc, tails, w, keep, ties, dead):
    """Perfect customization of ``w`` in place for the triangles whose middle node is in ``lo .. hi - 1``
    (every arc's weight becomes the ends' true distance once every node is done), in decreasing rank; bit ``d`` of ``keep[a]`` (1 upward, 2 downward) is cleared where a path through an
    intermediate or upper node is cheaper, or as cheap when ``ties`` (sound when no arc weighs nothing: each
    such path's arcs weigh less), so the query needs no such arc direction. ``dead[v]``: every arc of ``v``
    weighs ``inf`` both ways (its triangles change nothing)."""
    m = up_first.shape[0] - 1
    pos = np.empty(m, dtype=np.int64)
    for u in range(hi - 1, lo - 1, -1):
        for a in range(up_first[u], up_first[u + 1]):
            pos[up_head[a]] = a
        for e in range(down_first[u], down_first[u + 1]):
            b = down_arc[e]  # (v, u)
            v = tails[b]
            if dead[v]:
                continue  # every arc of v weighs inf and stays so
            bu = w[b, 0]
            bd = w[b, 1]
            kb = keep[b]
            for a2 in range(b + 1, up_first[v + 1]):  # (v, x), x > u
                a = pos[up_head[a2]]  # (u, x): final
                au = w[a, 0]
                ad = w[a, 1]
                c0 = w[a2, 0]
                c1 = w[a2, 1]
                s = bu + au  # v -> u -> x
                if s < c0 or (ties and s == c0):
                    w[a2, 0] = min(s, c0)
                    keep[a2] &= 2
                s = ad + bd  # x -> u -> v
                if s < c1 or (ties and s == c1):
                    w[a2, 1] = min(s, c1)
                    keep[a2] &= 1
                s = c0 + ad  # v -> x -> u
                if s < bu or (ties and s == bu):
                    bu = min(s, bu)
                    kb &= 2
                s = au + c1  # u -> x -> v
                if s < bd or (ties and s == bd):
                    bd = min(s, bd)
                    kb &= 1
            w[b, 0] = bu
            w[b, 1] = bd
            keep[b] = kb
