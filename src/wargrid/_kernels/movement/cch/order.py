"""CCH kernels, the shape-only part: the board graph, the nested-dissection order, the chordal structure.

Nodes are the board's cells in **rank space** (``0 .. m-1``, the nested-dissection order). The structure depends on
the board's shape only: ``up_first`` / ``up_head`` (every node's upward neighbours in the chordal supergraph,
sorted; arc ``a`` runs from its tail, the lower node, to ``up_head[a]``), ``parent`` (the elimination tree: a node's
lowest upward neighbour) and ``down_first`` / ``down_arc`` (for node ``u`` the arcs ``(w, u)`` with ``w < u``, in
increasing ``w``).
"""

from __future__ import annotations

import numpy as np

from ..._jit import helper, jit
from ..steps import step_to, unpack_topo
from .customize import _first_from


@jit
def board_graph(valid, tb):
    """``(index, nb_first, nb)``: every valid padded cell's compact index (``-1`` elsewhere) and the undirected
    neighbour lists in compact indices (the board's steps both ways, whatever the costs)."""
    off, stepl, corner, ndir, pmode, crule, wrap, width, pw = unpack_topo(tb)
    n = valid.shape[0]
    index = np.where(valid, np.cumsum(valid) - 1, -1).astype(np.int32)
    m = np.count_nonzero(valid)
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


@helper
def _fill(s, b):
    """The lower triangles of ``s`` separator nodes above ``b`` boundary nodes: ``C(b + s, 3) - C(b, 3)``."""
    t = b + s
    return (t * (t - 1.0) * (t - 2.0) - b * (b - 1.0) * (b - 2.0)) / 6.0


@jit
def nested_dissection(co, nb_first, nb):
    """``(order, parts)``: compact indices from the lowest rank to the highest, by recursive bisection, and the
    first cut's two halves as rank ranges ``[0, parts[0])`` and ``[parts[0], parts[1])`` (no arc joins them).

    ``co[k]``: the cells' coordinates (``>= 0``) on two axes. A region is cut across an axis, 40-60 % of its
    cells each side (the median where none is); the separator, ranked above both parts, is the smaller side's
    boundary (cells with a neighbour across). A node's upward arcs are its region's boundary (separators
    above) and its separator's nodes above it: the cut taken has the fewest lower triangles (``_fill``) in
    its separator and the parts' next ones (their extent) above their boundaries, estimated. Any cut gives a
    correct hierarchy: the cut only decides its size.
    """
    axes, m = co.shape
    order = np.arange(m).astype(np.int32)
    parts = np.array([m, m], dtype=np.int64)
    mark = np.zeros(m, dtype=np.int64)  # a region's boundary cells, then each cell's part (2: the separator)
    stamp = np.full(m, -1, dtype=np.int64)
    buf = np.empty(m, dtype=np.int32)
    work = np.zeros((4, co.max() + 3 if m else 2), dtype=np.int64)
    box = np.empty((axes, 2), dtype=np.int64)
    at = np.empty(4, dtype=np.int64)
    stack = [(0, m)]
    tag = 0
    while stack:
        lo, hi = stack.pop()
        n = hi - lo
        if n <= 1:
            continue
        tag += 1
        for k in range(axes):
            box[k, 0] = box[k, 1] = co[k, order[lo]]
        for i in range(lo, hi):
            stamp[order[i]] = tag
            for k in range(axes):
                box[k, 0] = min(box[k, 0], co[k, order[i]])
                box[k, 1] = max(box[k, 1], co[k, order[i]])
        outside = 0
        for i in range(lo, hi):
            v = order[i]
            mark[v] = 0
            for e in range(nb_first[v], nb_first[v + 1]):
                mark[v] |= stamp[nb[e]] != tag
            outside += mark[v]
        best, axis, cut, sep = np.inf, 0, 1, 0
        for k in range(axes):
            c0 = box[k, 0]
            span = box[k, 1] - c0 + 1
            other = box[1 - k, 1] - box[1 - k, 0] + 1.0
            # by coordinate: cells, boundary cells, and the changes of the counts of cells before / after a cut
            # at c with a neighbour across it
            work[:, :span + 1] = 0
            for i in range(lo, hi):
                v = order[i]
                c = co[k, v] - c0
                work[0, c] += 1
                work[1, c] += mark[v]
                up = down = c
                for e in range(nb_first[v], nb_first[v + 1]):
                    if stamp[nb[e]] == tag:
                        up = max(up, co[k, nb[e]] - c0)
                        down = min(down, co[k, nb[e]] - c0)
                work[2, c + 1] += up > c
                work[2, up + 1] -= up > c
                work[3, down + 1] += down < c
                work[3, c + 1] -= down < c
            gap, acc = n, 0
            for c in range(1, span):
                acc += work[0, c - 1]
                gap = min(gap, abs(2 * acc - n))
            acc = bacc = before = after = 0
            for c in range(1, span):
                acc += work[0, c - 1]
                bacc += work[1, c - 1]
                before += work[2, c]
                after += work[3, c]
                if abs(2 * acc - n) > max(gap, n // 5):
                    continue
                s = min(before, after)
                first = 1 if before < after else 0  # the separator is the first side's boundary
                n0, n1 = acc - s * first, n - acc - s * (1 - first)
                cost = _fill(s, outside)
                if n0 > 1:
                    cost += _fill(min(float(c - first), other, np.sqrt(n0)), bacc + s)
                if n1 > 1:
                    cost += _fill(min(float(span - c - 1 + first), other, np.sqrt(n1)), outside - bacc + s)
                if cost < best:
                    best, axis, cut, sep = cost, k, c, 1 - first
        for i in range(lo, hi):
            mark[order[i]] = co[axis, order[i]] - box[axis, 0] >= cut
        at[:] = 0
        for i in range(lo, hi):
            v = order[i]
            if mark[v] == sep:
                for e in range(nb_first[v], nb_first[v + 1]):
                    if stamp[nb[e]] == tag and mark[nb[e]] == 1 - sep:
                        mark[v] = 2
            at[mark[v] + 1] += 1
        at[0], at[1], at[2] = lo, lo + at[1], lo + at[1] + at[2]  # where each part starts
        a_end, b_end = at[1], at[2]
        for i in range(lo, hi):
            buf[at[mark[order[i]]]] = order[i]
            at[mark[order[i]]] += 1
        order[lo:hi] = buf[lo:hi]
        if tag == 1:
            parts[0], parts[1] = a_end, b_end
        stack.extend([(lo, a_end), (a_end, b_end)])
    return order, parts


@jit
def chordal(rank, nb_first, nb):
    """The chordal supergraph of the board graph under ``rank`` (compact index -> rank):
    ``(up_first, up_head, parent)`` in rank space (see the module notes)."""
    m = rank.shape[0]
    node = np.argsort(rank).astype(np.int32)
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
    e = _first_from(x, up_first[u], up_first[u + 1], up_head)
    return e if e < up_first[u + 1] and up_head[e] == x else -1


@jit
def step_arcs(index, rank, up_first, up_head, tb):
    """``code[p * ndir + d]``: the board step from padded ``p`` in direction ``d`` as ``2 * arc`` (the arc's
    upward direction) or ``2 * arc + 1`` (downward), ``-1`` where the step leaves the board."""
    off, stepl, corner, ndir, pmode, crule, wrap, width, pw = unpack_topo(tb)
    code = np.full(index.shape[0] * ndir, -1, dtype=np.int64)
    for p in range(index.shape[0]):
        i = index[p]
        if i < 0:
            continue
        for d in range(ndir):
            q = step_to(p, d, off, ndir, pmode, wrap, width, pw)
            j = index[q]
            if j < 0 or q == p:
                continue
            a, b = rank[i], rank[j]
            code[p * ndir + d] = 2 * find_arc(min(a, b), max(a, b), up_first, up_head) + (a > b)
    return code
