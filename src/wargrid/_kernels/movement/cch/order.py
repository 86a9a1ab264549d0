"""CCH kernels, the shape-only part: the board graph, the nested-dissection order, the chordal structure.

Nodes are the board's cells in **rank space** (``0 .. m-1``, the
nested-dissection order). The structure depends on the board's shape only:
``up_first`` / ``up_head`` (every node's upward neighbours in the chordal
supergraph, sorted; arc ``a`` runs from its tail, the lower node, to
``up_head[a]``), ``parent`` (the elimination tree: a node's lowest upward
neighbour) and ``down_first`` / ``down_arc`` (for node ``u`` the arcs
``(w, u)`` with ``w < u``, in increasing ``w``).
"""

from __future__ import annotations

import numpy as np

from ..._jit import helper, jit
from ..steps import step_to, unpack_topo


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
