"""CCH kernels, edits: the input weights an edit changes (``step_changes``) and the partial customization that
keeps a metric exact (``update``, over a copy of the weights in down-list order, ``down_copy``, beside the shared
``tails[down_arc]``: an arc's lower triangles are a merge of two contiguous runs, the arcs ``(y, x)`` above a
changed arc found walking forward along ``x``'s run)."""

from __future__ import annotations

import numpy as np

from ..._jit import helper, jit
from ..steps import corner_ok, step_to, unpack_topo
from .customize import INF, _first_from
from ..heap import key_pop, key_up
from .order import find_arc


@helper
def _gallop(v, p, end, dtail):
    """The first position ``q`` in ``[p, end)`` with ``dtail[q] >= v`` (``end``: none; ``dtail`` sorted there and
    below ``v`` before ``p``): doubling steps from ``p``, then a binary search."""
    hi = p
    step = 1
    while hi < end and dtail[hi] < v:
        p = hi + 1
        hi = p + step
        step <<= 1
    return _first_from(v, p, min(hi, end), dtail)


@jit(inline="always", _nrt=False)
def _recompute(a, u, x, down_first, down_arc, dtail, wd, inp, slot, w, mid, cnt):
    """Arc ``a = (u, x)``'s weights from its input (row ``slot[a]`` of ``inp``, ``inf`` where ``-1``) and its
    lower triangles ``v`` (the nodes of both down runs, intersected by galloping); returns where the merge left
    ``x``'s run (at or before ``a``'s own entry) where they changed, else ``-1``."""
    r = slot[a]
    c1 = w.shape[1] - 1  # (one column, symmetric: both sums the same)
    bu = inp[r, 0] if r >= 0 else INF
    bd = inp[r, c1] if r >= 0 else INF
    mu = md = iu = ju = id_ = jd = -1
    i = down_first[u]
    j = down_first[x]
    iend = down_first[u + 1]
    jend = down_first[x + 1]
    while i < iend and j < jend:  # the two runs merged
        ui, uj = np.uint64(i), np.uint64(j)  # (read unsigned: no negative-index test)
        tu, tx = dtail[ui], dtail[uj]
        if tu == tx:  # the lower triangle tu: entries i = (tu, u), j = (tu, x) (tested first: most steps are)
            if wd[ui, c1] + wd[uj, 0] < bu:
                bu, mu, iu, ju = wd[ui, c1] + wd[uj, 0], tu, i, j
            if wd[uj, c1] + wd[ui, 0] < bd:
                bd, md, id_, jd = wd[uj, c1] + wd[ui, 0], tu, i, j
            i += 1
            j += 1
        elif tu < tx:  # (galloping: most of x's run, high in the order, lies between u's entries)
            i = _gallop(tx, i + 1, iend, dtail)
        else:
            j = _gallop(tu, j + 1, jend, dtail)
    same = bu == w[a, 0] and bd == w[a, c1]
    w[a, 0] = bu
    w[a, c1] = bd
    for d, v, li, lj in ((0, mu, iu, ju), (c1, md, id_, jd)):  # the old middle's legs: in the runs the merge passed
        o = max(mid[a, d], 0)
        if mid[a, d] != v:
            o1 = down_arc[_first_from(o, down_first[u], i, dtail)]
            o2 = down_arc[_first_from(o, down_first[x], j, dtail)]
            _set_mid(a, d, v, down_arc[li], down_arc[lj], o1, o2, mid, cnt)
    return -1 if same else j


@helper
def _set_mid(a, d, v, l1, l2, o1, o2, mid, cnt):
    """``mid[a, d] = v``, its legs the arcs ``l1`` and ``l2`` (none where ``v < 0``), the old middle's ``o1`` and
    ``o2``, keeping ``cnt``: an arc's count of the arc directions whose middle is its tail and it one of their legs."""
    if mid[a, d] != v:
        if mid[a, d] >= 0:
            cnt[o1] -= 1
            cnt[o2] -= 1
        if v >= 0:
            cnt[l1] += 1
            cnt[l2] += 1
        mid[a, d] = v


@helper
def _lower(a, d, s, v, l1, l2, w, ms):
    """Arc ``a``'s weight in direction ``d`` lowered to ``s`` (middle ``v``, legs ``l1``, ``l2``: ``_set_mid``; ``ms``:
    ``(mid, cnt, up_first, up_head, tails)``) where that is less: ``2 << d``, else 0."""
    if s < w[a, d]:
        mid, cnt, up_first, up_head, tails = ms
        w[a, d] = s
        m = max(mid[a, d], 0)  # (none: an unused search)
        o1, o2 = find_arc(m, tails[a], up_first, up_head), find_arc(m, up_head[a], up_first, up_head)
        _set_mid(a, d, v, l1, l2, o1, o2, mid, cnt)
        return 2 << d
    return 0


@helper
def _mirror(a, u, d, w, way, arc):
    """Arc ``a``'s weight ``w[a, d]`` into its entry of the finite arcs' lists ``way = (first, head, wt)`` of arc ids
    ``arc`` (``query_arcs``' form), found in tail ``u``'s; ``False``: it has none and is now finite."""
    q = _first_from(a, way[0][u], way[0][u + 1], arc)
    if q < way[0][u + 1] and arc[q] == a:
        way[2][q] = w[a, d]
        return True
    return not w[a, d] < INF


@jit
def count_legs(up_first, up_head, tails, mid, cnt):
    """``cnt`` (zeros) as ``middles`` counts it, from middles made before: each arc direction with a middle ``v``
    adds one to its two legs, ``v``'s arcs to its ends."""
    for a in range(mid.shape[0]):
        for d in range(mid.shape[1]):
            v = mid[a, d]
            if v >= 0:
                cnt[find_arc(v, tails[a], up_first, up_head)] += 1
                cnt[find_arc(v, up_head[a], up_first, up_head)] += 1


@jit
def down_copy(up_first, up_head, down_first, w, wd):
    """``wd`` filled with the weights ``w`` in down-list order (entry ``i``: arc ``down_arc[i]``'s), in one pass."""
    fill = down_first[:-1].copy()
    for v in range(up_first.shape[0] - 1):
        for a in range(up_first[v], up_first[v + 1]):
            p = fill[up_head[a]]
            fill[up_head[a]] = p + 1
            wd[p, :] = w[a, :]


@jit(inline="always")
def _pushed(heap, n, v, spot):
    """``(heap, n + 1)`` with ``v`` pushed (the search kernels' keyed heap, keys the ids, its slots written to
    ``spot[0]``: kept nowhere), the heap grown when full."""
    if n + 1 >= heap.shape[0]:
        out = np.empty(2 * heap.shape[0], dtype=heap.dtype)
        out[:n] = heap[:n]
        heap = out
    key_up(n, v, 0, heap, None, spot, 1, 0)
    return heap, n + 1


@jit
def update(changed, new_inp, up_first, up_head, down_first, down_arc, tails, dtail, inp, slot, w, wd, mid, cnt, heap,
           queued, lean):
    """Partial customization: the arcs ``changed`` (board steps) get the input weights ``new_inp`` (``(2, k)``, into
    their rows ``slot`` of ``inp``); every arc whose lower triangles changed is recomputed, in increasing arc id
    (increasing tail: each arc is final before the arcs above it read it), ``w``, its down-order copy ``wd`` and the
    finite arcs' weights ``lean`` (``QueryArcs``' first four fields as a plain tuple, 15 µs faster a call to type
    than the named one; ``None``: none) kept equal. Returns ``(arcs changed, heap, arcs recomputed, the largest
    finite weight changed, whether ``lean`` holds every finite arc)``. Where no input weight fell, an arc's weight
    changes only where its middle's triangle (or its input) rose: ``cnt`` (``_set_mid``, kept) says how many arcs
    above a changed arc have it as a leg at their middle, and its triangles are looked at until that many are found
    (none: not at all). Where no input weight rose (cells opened or made cheaper), no arc is recomputed: a weight can
    only fall to a changed triangle's sum, so each changed arc lowers the arcs above it at once (its queue mark holds
    the directions that fell, ``2`` up and ``4`` down) and they pass it on in turn. Scratch: ``heap`` (int64, grown
    when short: the one returned), ``queued`` (uint8 an arc, zero; left zero)."""
    c1 = w.shape[1] - 1  # (one column, symmetric: the way down is column 0, its bit 2)
    falls = rises = True
    for i in range(changed.shape[0]):
        r = slot[changed[i]]
        falls = falls and new_inp[0, i] <= inp[r, 0] and new_inp[c1, i] <= inp[r, c1]
        rises = rises and new_inp[0, i] >= inp[r, 0] and new_inp[c1, i] >= inp[r, c1]
    nh, spot, ms = 0, np.empty(1, dtype=np.int64), (mid, cnt, up_first, up_head, tails)
    zero, nv, none = np.int64(0), np.int32(-1), np.int64(-1)  # (typed as the other calls' column, tail, arcs: no literals)
    for i in range(changed.shape[0]):
        a = changed[i]
        inp[slot[a], :] = new_inp[:, i]
        bits = _lower(a, zero, new_inp[0, i], nv, none, none, w, ms) | _lower(a, c1, new_inp[c1, i], nv, none, none, w, ms) if falls else 1
        if bits and not queued[a]:
            heap, nh = _pushed(heap, nh, a, spot)
        queued[a] |= bits
    moved = seen = 0
    top = 0.0
    whole = True
    while nh > 0:
        a = heap[0]
        nh = key_pop(nh, heap, None, spot, 1, 0)
        bits = queued[a]
        queued[a] = 0
        seen += 1
        u = tails[a]
        x = up_head[a]
        ou = w[a, 0] if not bits & 2 else INF  # (falls: a direction that fell counts as changed)
        od = w[a, c1] if not bits & (2 << c1) else INF
        jx = down_first[x] if falls else _recompute(a, u, x, down_first, down_arc, dtail, wd, inp, slot, w, mid, cnt)
        if jx < 0:
            continue
        moved += 1
        nu, nd = w[a, 0], w[a, c1]
        top = max(top, nu if nu < INF else 0.0, nd if nd < INF else 0.0)
        pa = _gallop(u, jx, down_first[x + 1], dtail)  # a's entry in x's run (from where the merge left it)
        wd[pa, 0], wd[pa, c1] = nu, nd
        if lean is not None:
            whole &= _mirror(a, u, zero, w, lean[0], lean[2]) & (c1 == 0 or _mirror(a, u, c1, w, lean[1], lean[3]))
        left = cnt[a] if rises and not falls else -1  # a rise: the arcs resting on a at their middle, left to find
        # a is a lower arc of the triangles (u, x, y), y another upward neighbour of u (they form a clique): the
        # arc b between x and y is recomputed when the triangle's sum changed and now beats b's weight or gave
        # it (it tied b's weight and b's middle is u: another support of the same weight, the input or a lower
        # middle, keeps it, and is checked when its own arcs change)
        j = up_first[x]  # b = (x, y) for y > x: along x's up list
        jend = up_first[x + 1]
        p = pa + 1  # b = (y, x) for u < y < x: along x's down run
        pend = down_first[x + 1]
        for c in range(up_first[u], up_first[u + 1]):
            if left == 0:
                break  # (none left: a rise changes no other arc above a)
            if c == a:
                continue
            y = up_head[c]
            up_c = w[c, 0]
            dn_c = w[c, c1]
            p0 = od + up_c  # x -> u -> y, before and after
            p1 = nd + up_c
            q0 = dn_c + ou  # y -> u -> x
            q1 = dn_c + nu
            if p0 == p1 and q0 == q1:
                continue  # the triangle's sums did not change
            b = -1
            if c > a:
                while j < jend and up_head[j] < y:
                    j += 1
                if j == jend or up_head[j] != y:
                    continue
                b = j
                wb0 = w[b, 0]
                wb1 = w[b, c1]
                s0, s1, t0, t1 = p0, p1, q0, q1
            else:
                p = _gallop(y, p, pend, dtail)
                if p == pend or dtail[p] != y:
                    continue
                wb0 = wd[p, 0]
                wb1 = wd[p, c1]
                s0, s1, t0, t1 = q0, q1, p0, p1
            if falls:  # b lowered at once (wd may hold a queued arc's weight from before: never below it)
                if not (s1 < wb0 or t1 < wb1):
                    continue
                b = down_arc[p] if b < 0 else b
                bits = _lower(b, zero, np.float64(s1), u, a, c, w, ms) | _lower(b, c1, np.float64(t1), u, a, c, w, ms)
            else:
                beats = (s1 != s0 and s1 < wb0) or (t1 != t0 and t1 < wb1)
                tie0 = s1 != s0 and s0 == wb0
                tie1 = t1 != t0 and t0 == wb1
                if not (beats or tie0 or tie1):
                    continue
                b = down_arc[p] if b < 0 else b
                rest = (tie0 and mid[b, 0] == u) + (c1 > 0 and tie1 and mid[b, c1] == u)  # (one column: tie1 is tie0)
                bits = 1 if beats or rest > 0 else 0
                left -= rest
            if bits and not queued[b]:
                heap, nh = _pushed(heap, nh, b, spot)
            queued[b] |= bits
    return moved, heap, seen, top, whole


@jit
def step_changes(ids, code, cell, edge, tb, node_cell, tails, up_head):
    """``(arcs, new, sym)``: the arcs the changed padded cells ``ids`` may touch, both ways' input weights weighed again
    (``(2, k)``, ``inf``: no step), ``sym`` whether symmetric (``cch._inputs``). A step ``p -> q`` reads ``p``, ``q``,
    ``p``'s corners and edge costs: the arcs are the steps' from a changed cell or a neighbour, weighed from both ends."""
    off, stepl, corner, ndir, pmode, crule, wrap, width, pw = unpack_topo(tb)
    has_edge = edge.shape[0] > 0
    steps = np.empty((ids.shape[0], ndir + 1, ndir), dtype=np.int64)
    for i in range(ids.shape[0]):
        for e in range(ndir + 1):  # the cell's neighbours, then the cell
            p = ids[i] if e == ndir else step_to(ids[i], e, off, ndir, pmode, wrap, width, pw)
            steps[i, e, :] = code[p * ndir:p * ndir + ndir]
    arcs = np.unique(steps.ravel()[steps.ravel() >= 0] >> 1)
    new = np.full((2, arcs.shape[0]), INF)
    for j in range(arcs.shape[0]):
        for p in (node_cell[tails[arcs[j]]], node_cell[up_head[arcs[j]]]):
            for d in range(ndir if cell[p] < INF else 0):  # (as ``input_weights`` weighs them)
                c, q = code[p * ndir + d], step_to(p, d, off, ndir, pmode, wrap, width, pw)
                if c >> 1 == arcs[j] and cell[q] < INF and (crule == 0 or corner_ok(cell, p, d, corner, crule, off, ndir,
                                                                                      pmode, wrap, width, pw)):
                    w = stepl[d] * cell[q] + edge[p * ndir + d] if has_edge else stepl[d] * cell[q]
                    new[c & 1, j] = min(new[c & 1, j], w)
    up, dn = new[0], new[1]
    fin = up < INF
    return arcs, new, bool(np.all(fin == (dn < INF)) and np.all(up[fin] - cell[node_cell[up_head[arcs[fin]]]] == dn[fin] - cell[node_cell[tails[arcs[fin]]]]))
