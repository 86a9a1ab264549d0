"""CCH kernels, a class's metric: input weights, customization, partial customization, perfect customization.

A metric holds, per arc, ``w[a, 0]`` (tail -> head), ``w[a, 1]`` (head ->
tail) and the middle node of the lower triangle that gave each (``-1``: the
board's own step), from the input weights ``inp``. Customization relaxes
every lower triangle ``w < u < x`` in increasing ``u``; a partial
customization recomputes only the arcs whose lower triangles changed, in
increasing arc id (which is increasing tail), so each arc is final before
the arcs above it read it.
"""

from __future__ import annotations

import numpy as np

from ..._jit import helper, jit
from ..steps import corner_ok, step_to, topo_info, unpack_topo
from .order import find_arc

INF = np.inf


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
