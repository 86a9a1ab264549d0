"""CCH kernels, edits: the steps an edit changes and the partial customization that keeps a metric exact.

An edit changes a few input weights (``step_changes``); ``update`` then
recomputes only the arcs one of whose lower triangles changed, in increasing
arc id (which is increasing tail), so each arc is final before the arcs
above it read it, whether costs rose or fell.
"""

from __future__ import annotations

import numpy as np

from ..._jit import helper, jit
from ..steps import step_to, unpack_topo
from .customize import INF, _step_weight
from .order import find_arc


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
def _recompute(a, u, x, up_first, up_head, down_first, down_arc, tails, inp, slot, w, mid):
    """Arc ``a = (u, x)``'s weights from its input (row ``slot[a]`` of ``inp``, ``inf`` where ``-1``) and its
    lower triangles ``v`` (the nodes of both down lists); returns whether they changed."""
    r = slot[a]
    bu = inp[r, 0] if r >= 0 else INF
    bd = inp[r, 1] if r >= 0 else INF
    mu = -1
    md = -1
    nu = down_first[u + 1] - down_first[u]
    nx = down_first[x + 1] - down_first[x]
    if nu <= nx * 8 and nx <= nu * 8:  # lists of like lengths: merged
        i = down_first[u]
        j = down_first[x]
        iend = down_first[u + 1]
        jend = down_first[x + 1]
        if i < iend and j < jend:  # each list's current tail held, read again only when its side moves on
            tu = tails[down_arc[i]]
            tx = tails[down_arc[j]]
            while True:
                if tu < tx:
                    i += 1
                    if i == iend:
                        break
                    tu = tails[down_arc[i]]
                elif tx < tu:
                    j += 1
                    if j == jend:
                        break
                    tx = tails[down_arc[j]]
                else:
                    bu, bd, mu, md = _triangle(down_arc[i], down_arc[j], tu, w, bu, bd, mu, md)
                    i += 1
                    j += 1
                    if i == iend or j == jend:
                        break
                    tu = tails[down_arc[i]]
                    tx = tails[down_arc[j]]
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


@jit
def update(changed, new_inp, up_first, up_head, down_first, down_arc, tails, inp, slot, w, mid, heap, queued):
    """Partial customization: the arcs ``changed`` (board steps) get the input weights ``new_inp`` (``(2, k)``,
    into their rows ``slot`` of ``inp``); every arc
    whose lower triangles changed is recomputed, in increasing arc id. Returns ``(arcs changed, heap, arcs
    recomputed)``.

    ``heap`` (int64, grown when short: the one returned) and ``queued`` (uint8 a arc, all zero; left zero) are scratch.
    """
    nh = 0
    for i in range(changed.shape[0]):
        a = changed[i]
        inp[slot[a], 0] = new_inp[0, i]
        inp[slot[a], 1] = new_inp[1, i]
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
        if not _recompute(a, u, x, up_first, up_head, down_first, down_arc, tails, inp, slot, w, mid):
            continue
        moved += 1
        # a is a lower arc of the triangles (u, x, y), y another upward neighbour of u: the arc b between x
        # and y is recomputed when the triangle's sum changed and now beats b's weight or gave it (b's middle
        # is u: another support of the same weight, the input or a lower middle, keeps it, and is checked
        # when its own arcs change)
        nu = w[a, 0]
        nd = w[a, 1]
        j = up_first[x]  # b = (x, y) for y > x: read along x's sorted list
        jend = up_first[x + 1]
        for c in range(up_first[u], up_first[u + 1]):
            if c == a:
                continue
            y = up_head[c]
            up_c = w[c, 0]
            dn_c = w[c, 1]
            p0 = od + up_c  # x -> u -> y, before and after
            p1 = nd + up_c
            q0 = dn_c + ou  # y -> u -> x
            q1 = dn_c + nu
            if p0 == p1 and q0 == q1:
                continue  # the triangle's sums did not change
            if c > a:  # y > x: an upward neighbour of x too (u's upward neighbours form a clique)
                while j < jend and up_head[j] < y:
                    j += 1
                b = j if j < jend and up_head[j] == y else -1
                s0, s1, t0, t1 = p0, p1, q0, q1
            else:
                b = find_arc(y, x, up_first, up_head)
                s0, s1, t0, t1 = q0, q1, p0, p1
            if b < 0 or queued[b]:
                continue
            if (s1 != s0 and (s1 < w[b, 0] or mid[b, 0] == u)) or (t1 != t0 and (t1 < w[b, 1] or mid[b, 1] == u)):
                queued[b] = 1
                nh = _heap_push(heap, nh, b)
                if nh >= heap.shape[0]:
                    heap = _grown(heap, nh)
    return moved, heap, seen


@jit
def step_changes(ids, code, cell, edge, tb, inp, arc_slot):
    """``(arcs, new)``: the arcs whose input weights (rows ``arc_slot`` of ``inp``) the changed padded cells
    ``ids`` may touch, with their new input weights (``(2, k)``). A step ``p -> q`` reads ``p``, ``q``, ``p``'s
    corner cells and ``p``'s edge costs, so every step from a changed cell or a neighbour of one is weighed again."""
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
                new[0, na] = inp[arc_slot[c >> 1], 0]
                new[1, na] = inp[arc_slot[c >> 1], 1]
                na += 1
            if c >= 0:
                new[c & 1, slot[c >> 1]] = INF
        for d in range(ndir):
            c = code[p * ndir + d]
            if c >= 0:
                j = slot[c >> 1]
                new[c & 1, j] = min(new[c & 1, j], _step_weight(p, d, cell, edge, has_edge, tb))
    return arcs[:na].copy(), new[:, :na].copy()
