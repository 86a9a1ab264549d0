"""CCH kernels, edits: the steps an edit changes and the partial customization that keeps a metric exact.

An edit changes a few input weights (``step_changes``); ``update`` then
carries the changes up by triangles, in increasing arc id (which is
increasing tail), so each arc is final before the arcs above it read it,
whether costs rose or fell.
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
def _rescan(a, u, x, need0, need1, up_first, up_head, down_first, down_arc, tails, inp, w, mid):
    """Arc ``a = (u, x)``'s weight in the directions ``need0`` (upward) / ``need1`` (downward) from its input and
    its lower triangles ``v`` (the nodes of both down lists), into ``w`` and ``mid``. Every support weighs at
    least the arc's current weight ``w[a]`` (costs only rose), so the scan stops once each direction it
    needs found a support tying that weight (with whole-number costs, usually soon)."""
    o0 = w[a, 0]
    o1 = w[a, 1]
    bu = inp[a, 0] if need0 else o0
    bd = inp[a, 1] if need1 else o1
    mu = -1 if need0 else mid[a, 0]
    md = -1 if need1 else mid[a, 1]
    nu = down_first[u + 1] - down_first[u]
    nx = down_first[x + 1] - down_first[x]
    if bu != o0 or bd != o1:
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
                    if bu == o0 and bd == o1:
                        break
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
                    if bu == o0 and bd == o1:
                        break
    w[a, 0] = bu
    w[a, 1] = bd
    mid[a, 0] = mu
    mid[a, 1] = md


@jit
def _grown(a, n):
    out = np.empty((2 * a.shape[0],) + a.shape[1:], dtype=a.dtype)
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


@helper
def _side(o, c, hit):
    """One direction of an arc whose supports ``c`` (the least changed one's sum) changed, the support that gave
    its old weight ``o`` among them (``hit``): 0 the weight stays, 1 it becomes ``c``, 2 a rescan decides (the
    old support rose and no changed one ties)."""
    if c < o:
        return 1
    if c == o or not hit:
        return 0
    return 2


@jit
def update(changed, new_inp, up_first, up_head, down_first, down_arc, tails, inp, w, mid, heap, ev):
    """Partial customization: the arcs ``changed`` get the input weights ``new_inp`` (``(2, k)``); the change
    travels up by triangles, in increasing arc id. Returns ``(arcs changed, heap, ev, arcs rescanned)``.

    Each change of an arc ``(u, x)`` leaves an **event** on the arcs ``(x, y)`` one of whose lower triangles
    it is (its upper neighbours ``y``), when that triangle's sum changed and now beats the arc's weight or
    gave it. An arc's events are read together once its lower arcs are final: a changed support below the
    old weight gives the new weight, one tying it keeps the weight (a new middle), and only when the support
    that gave the old weight rose with none tying are the arc's whole down lists read again (``_rescan``,
    stopping at the first support tying the old weight). The input weight is one more support (middle -1).

    ``heap`` (int64 keys ``arc << 32 | event``) and ``ev`` (int32 ``(n, 2)``: the triangle's two lower arcs,
    ``-1``: the input) are scratch, grown when short: use the ones returned.
    """
    nh = 0
    ne = 0
    for i in range(changed.shape[0]):
        a = changed[i]
        inp[a, 0] = new_inp[0, i]
        inp[a, 1] = new_inp[1, i]
        if ne >= ev.shape[0]:
            ev = _grown(ev, ne)
        ev[ne, 0] = -1
        ev[ne, 1] = -1
        if nh >= heap.shape[0]:
            heap = _grown(heap, nh)
        nh = _heap_push(heap, nh, (a << 32) | ne)
        ne += 1
    moved = 0
    scanned = 0
    while nh > 0:
        b = heap[0] >> 32
        o0 = w[b, 0]
        o1 = w[b, 1]
        c0 = INF
        c1 = INF
        m0 = -1
        m1 = -1
        hit0 = False
        hit1 = False
        while nh > 0 and heap[0] >> 32 == b:  # the arc's events, its lower arcs final
            k = heap[0] & 0xFFFFFFFF
            nh = _heap_pop(heap, nh)
            e = ev[k, 0]
            f = ev[k, 1]
            if e < 0:
                v = -1
                s0 = inp[b, 0]
                s1 = inp[b, 1]
            else:
                v = tails[e]
                s0 = w[e, 1] + w[f, 0]
                s1 = w[f, 1] + w[e, 0]
            if s0 < c0:
                c0 = s0
                m0 = v
            if s1 < c1:
                c1 = s1
                m1 = v
            hit0 |= mid[b, 0] == v
            hit1 |= mid[b, 1] == v
        d0 = _side(o0, c0, hit0)
        d1 = _side(o1, c1, hit1)
        if d0 == 0 and hit0 and c0 == o0:
            mid[b, 0] = m0  # a changed support ties: it may be the old one, whose sum may have risen
        if d1 == 0 and hit1 and c1 == o1:
            mid[b, 1] = m1
        if d0 == 1:
            w[b, 0] = c0
            mid[b, 0] = m0
        if d1 == 1:
            w[b, 1] = c1
            mid[b, 1] = m1
        u = tails[b]
        x = up_head[b]
        if d0 == 2 or d1 == 2:
            scanned += 1
            _rescan(b, u, x, d0 == 2, d1 == 2, up_first, up_head, down_first, down_arc, tails, inp, w, mid)
        if w[b, 0] == o0 and w[b, 1] == o1:
            continue
        moved += 1
        # b is a lower arc of the triangles (u, x, y), y another upward neighbour of u: the arc between x and y
        # gets an event when the triangle's sum changed and now beats its weight or gave it (another support
        # of the same weight keeps it, and leaves its own event when it changes)
        j = up_first[x]  # the arcs (x, y), y > x, in x's sorted list: u's upward neighbours are a clique
        for c in range(up_first[u], up_first[u + 1]):
            y = up_head[c]
            if y == x:
                continue
            up_c = w[c, 0]
            dn_c = w[c, 1]
            p0 = o1 + up_c  # x -> u -> y, before and after
            p1 = w[b, 1] + up_c
            q0 = dn_c + o0  # y -> u -> x
            q1 = dn_c + w[b, 0]
            if p0 == p1 and q0 == q1:
                continue  # the triangle's sums did not change
            if x < y:
                while up_head[j] < y:
                    j += 1
                bb = j
                s0, s1, t0, t1 = p0, p1, q0, q1
                e, f = b, c
            else:
                bb = find_arc(y, x, up_first, up_head)
                s0, s1, t0, t1 = q0, q1, p0, p1
                e, f = c, b
            if (s1 != s0 and (s1 < w[bb, 0] or mid[bb, 0] == u)) or (t1 != t0 and (t1 < w[bb, 1] or mid[bb, 1] == u)):
                if ne >= ev.shape[0]:
                    ev = _grown(ev, ne)
                ev[ne, 0] = e
                ev[ne, 1] = f
                if nh >= heap.shape[0]:
                    heap = _grown(heap, nh)
                nh = _heap_push(heap, nh, (bb << 32) | ne)
                ne += 1
    return moved, heap, ev, scanned


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
