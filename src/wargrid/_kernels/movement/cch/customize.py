"""CCH kernels, a class's metric: input weights, customization, middles, perfect customization.

A metric holds, per arc, ``w[a, 0]`` (tail -> head) and ``w[a, 1]`` (head -> tail) from the input weights ``inp``,
and once a path or edit needs them the middle node of the lower triangle that gave each (``-1``: the board's own
step); a symmetric metric (``movement.cch._inputs``) holds one column, both ways' sum: the kernels read column
``c1 = w.shape[1] - 1`` for the way down and skip its relaxations where that is column 0. Customization relaxes every
lower triangle ``w < u < x`` in increasing ``u`` (the partial customization: ``update``)."""

from __future__ import annotations

import numpy as np

from ..._jit import helper, jit
from ..steps import corner_ok, step_to, unpack_topo

INF = np.inf


@jit
def input_weights(code, cell, edge, tb, slot, node_cell, inp):
    """Every board step's weight (step ``p * ndir + d``, of arc ``code[e] >> 1``) into ``inp`` (``(rows, 2)``:
    upward, downward; arc ``a``'s row is ``slot[a]``, kept for the arcs that are board steps), ``inf`` where no
    step; whether symmetric (``movement.cch._inputs``). Read by their cells' ranks (``node_cell``: rank -> padded cell):
    a node's own arcs' rows in order, none from an impassable cell (docs/design/prepared.md)."""
    off, stepl, corner, ndir, pmode, crule, wrap, width, pw = unpack_topo(tb)
    has_edge = edge.shape[0] > 0
    inp[:] = INF
    for p in node_cell:
        for d in range(ndir if cell[p] < INF else 0):
            c = code[p * ndir + d]
            q = step_to(p, d, off, ndir, pmode, wrap, width, pw)
            if c < 0 or not cell[q] < INF or crule != 0 and not corner_ok(cell, p, d, corner, crule, off, ndir, pmode,
                                                                            wrap, width, pw):
                continue
            w = stepl[d] * cell[q] + edge[p * ndir + d] if has_edge else stepl[d] * cell[q]
            r = slot[c >> 1]
            inp[r, c & 1] = min(inp[r, c & 1], w)
    sym = True  # each way's weight less the cost of the cell it enters the same, inf both ways or neither
    for p in node_cell:
        for d in range(ndir):
            c = code[p * ndir + d]
            if c >= 0 and c & 1 == 0:  # (every row has one: the step from its arc's tail to its head)
                up, dn = inp[slot[c >> 1], 0], inp[slot[c >> 1], 1]
                q = step_to(p, d, off, ndir, pmode, wrap, width, pw)
                sym &= (up < INF) == (dn < INF) and (not up < INF or up - cell[q] == dn - cell[p])
    return sym


@helper
def _first_from(lo_arc, e, end, down_arc):
    """The first position in ``down_arc[e:end]`` (sorted there) whose value is at least ``lo_arc`` (``end``: none)."""
    while e < end:
        mid = (e + end) >> 1
        if down_arc[mid] < lo_arc:
            e = mid + 1
        else:
            end = mid
    return e


@jit
def customize(lo, hi, first, last, up_first, up_head, down_first, down_arc, tails, w, out_w, base, inp, slot, fresh):
    """The lower triangles ``(v, u, x)`` with ``u`` in ``lo .. hi - 1`` and ``v`` in ``first .. last - 1``, in
    increasing ``u``: each lowers ``out_w[(u, x) - base]`` to its sum (a ``min``, no branch). The arcs of ``v``
    are read from ``w`` and are final. When ``fresh``, the arcs of ``u`` start from the input weights ``inp``,
    else from what ``out_w`` holds. A whole customization is ``customize(0, m, 0, m, ..., w, w, 0, inp)``; the
    parts of ``movement.cch._customize`` split it over threads with the same result. The middles are ``middles``'s.

    Indices are unsigned (numba then makes no negative-index test: a third faster, docs/design/prepared.md)."""
    m = up_first.shape[0] - 1
    pos = np.empty(m, dtype=np.uint32)
    one = np.uint64(1)
    ub = np.uint64(base)
    lo_arc = up_first[first]
    hi_arc = up_first[last]
    c1 = w.shape[1] - 1
    for u in range(lo, hi):
        for a in range(up_first[u], up_first[u + 1]):
            ua = np.uint64(a)
            pos[np.uint64(up_head[ua])] = np.uint32(ua - ub)
            if fresh:
                r = slot[ua]
                out_w[ua - ub, 0] = inp[r, 0] if r >= 0 else INF
                out_w[ua - ub, c1] = inp[r, c1] if r >= 0 else INF
        start = down_first[u]
        end = down_first[u + 1]
        if first > 0:
            start = _first_from(lo_arc, start, end, down_arc)
        for e in range(start, end):
            if down_arc[e] >= hi_arc:
                break  # v >= last
            b = np.uint64(down_arc[e])  # (v, u)
            bu = w[b, 0]
            bd = w[b, c1]
            if not (bu < INF or bd < INF):
                continue
            stop = np.uint64(up_first[tails[b] + 1])
            for a2 in range(b + one, stop):  # (v, x), x > u
                a = np.uint64(pos[np.uint64(up_head[a2])])  # (u, x)
                out_w[a, 0] = min(bd + w[a2, 0], out_w[a, 0])  # u -> v -> x
                if c1:
                    out_w[a, 1] = min(w[a2, 1] + bu, out_w[a, 1])  # x -> v -> u


@jit
def middles(lo, hi, up_first, up_head, down_first, down_arc, tails, w, inp, slot, mid, cnt):
    """The middles ``mid`` of the arcs of nodes ``lo .. hi - 1`` under the customized weights ``w``: ``-1`` where
    the input gives the weight (or none does), else the first lower triangle's node ``v``, in increasing ``v``,
    whose sum is the weight (the triangle that first gave it in ``customize``'s order). ``cnt`` (all zero; empty:
    not made): the number of arc directions each arc is a leg of at their middle (``update``'s)."""
    pos = np.empty(up_first.shape[0] - 1, dtype=np.uint32)
    c1 = w.shape[1] - 1
    for u in range(lo, hi):
        todo = 0
        for a in range(np.uint64(up_first[u]), np.uint64(up_first[u + 1])):
            pos[np.uint64(up_head[a])] = np.uint32(a)
            for d in range(c1 + 1):
                mid[a, d] = -1 if not w[a, d] < INF or (slot[a] >= 0 and inp[slot[a], d] == w[a, d]) else -2
                todo += mid[a, d] == -2
        for e in range(down_first[u], down_first[u + 1]):
            b = np.uint64(down_arc[e])  # (v, u)
            if todo > 0 and (w[b, 0] < INF or w[b, c1] < INF):
                for a2 in range(b + np.uint64(1), np.uint64(up_first[tails[b] + 1])):  # (v, x), x > u
                    a = np.uint64(pos[np.uint64(up_head[a2])])  # (u, x)
                    for d in range(c1 + 1):  # u -> v -> x, x -> v -> u
                        if mid[a, d] == -2 and w[b, (1 - d) & c1] + w[a2, d] == w[a, d]:
                            mid[a, d] = tails[b]
                            todo -= 1
                            if cnt.shape[0]:
                                cnt[b] += 1
                                cnt[a2] += 1


@helper
def _perfect_arc(b, pos, up_first, up_head, tails, w, keep, ties, two):
    """The upper and intermediate triangles of arc ``b = (v, u)`` (unsigned; ``pos[x]``: ``u``'s arc to ``x``,
    final); ``ties`` and ``two`` (two columns) literals. One column is branch-free (every triangle stores its least
    sum and kept bit: twice as fast, ties make the branches unpredictable), two branch (prepared.md)."""
    v = tails[b]
    bu = w[b, 0]
    bd = w[b, w.shape[1] - 1]
    kb = keep[b]
    one = np.uint64(1)
    a2 = b + one
    stop = np.uint64(up_first[v + 1])
    while a2 < stop:  # (v, x), x > u
        a = np.uint64(pos[np.uint64(up_head[a2])])  # (u, x): final
        au, c0 = w[a, 0], w[a2, 0]
        s = bu + au  # v -> u -> x
        if not two:  # a bit cleared where a path through u or x is cheaper (or as cheap, with ties)
            keep[a2] &= np.uint8(2) | np.uint8(s > c0 if ties else s >= c0)
            w[a2, 0] = min(s, c0)
            s = c0 + au  # v -> x -> u
            kb &= np.uint8(2) | np.uint8(s > bu if ties else s >= bu)
            bu = min(bu, s)
        else:
            ad, c1 = w[a, 1], w[a2, 1]
            if s < c0 or (ties and s == c0):
                w[a2, 0], keep[a2] = s, keep[a2] & np.uint8(2)
            s = ad + bd  # x -> u -> v
            if s < c1 or (ties and s == c1):
                w[a2, 1], keep[a2] = s, keep[a2] & np.uint8(1)
            s = c0 + ad  # v -> x -> u
            if s < bu or (ties and s == bu):
                bu, kb = s, kb & np.uint8(2)
            s = au + c1  # u -> x -> v
            if s < bd or (ties and s == bd):
                bd, kb = s, kb & np.uint8(1)
        a2 += one
    w[b, 0] = bu
    w[b, w.shape[1] - 1] = bd if two else bu
    keep[b] = kb


@jit
def perfect(lo, hi, first, last, up_first, up_head, down_first, down_arc, tails, w, keep, ties):
    """Perfect customization of ``w`` in place for the triangles whose middle node is in ``lo .. hi - 1`` and
    lowest in ``first .. last - 1`` (once every node is done, every arc finite in ``w`` before has its ends' true
    distance), in decreasing rank; bit ``d`` of ``keep[a]`` (1 upward, 2 downward) is cleared where a path through
    an intermediate or upper node is cheaper, or as cheap when ``ties`` (sound when no arc weighs so little that a
    sum rounds it away: each such path's arcs weigh less), so the query needs no such arc direction. An arc ``inf`` before is skipped in a
    symmetric (one-column) metric (never kept; on land boards 40-50 % of the arcs: prepared.md, "What a query
    needs"); in a directed one a one-way step can make it the leg another arc's true distance needs.

    ``_perfect_arc`` is called with ``ties`` and the column count literals: no test that cannot hold (prepared.md)."""
    pos = np.empty(up_first.shape[0] - 1, dtype=np.uint32)
    stop = np.uint64(up_first[last])
    for u in range(hi - 1, lo - 1, -1):
        for a in range(up_first[u], up_first[u + 1]):
            pos[np.uint64(up_head[a])] = np.uint32(a)
        for e in range(_first_from(up_first[first], down_first[u], down_first[u + 1], down_arc), down_first[u + 1]):
            b = np.uint64(down_arc[e])  # (v, u)
            if b >= stop:
                break  # v >= last
            if w.shape[1] == 1 and not w[b, 0] < INF:
                continue  # inf when customized: never kept, and a path it would close closes through the clique above
            if w.shape[1] == 2:
                if ties:
                    _perfect_arc(b, pos, up_first, up_head, tails, w, keep, True, True)
                else:
                    _perfect_arc(b, pos, up_first, up_head, tails, w, keep, False, True)
            elif ties:
                _perfect_arc(b, pos, up_first, up_head, tails, w, keep, True, False)
            else:
                _perfect_arc(b, pos, up_first, up_head, tails, w, keep, False, False)
