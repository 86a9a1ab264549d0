"""Dijkstra fields: the general kernel, the plain one (4-ary heap) and the FIFO-queue one for uniform boards;
and a Dijkstra that stops once given targets are settled (``dijkstra_targets``: unprepared distance tables).
"""

from __future__ import annotations

import numpy as np

from .._jit import helper, jit
from .heap import key_up
from .keyheap import _hpop, _hpush, reach
from .steps import INF, _U, corner_ok, corner_pass, parity_slot, slot_base, step_to, step_xy, topo_info


@jit
def dijkstra(cell, edge, stop, sources, topo, max_cost, reverse, field):
    """Distances from every source (padded ids) up to ``max_cost``, into ``dist``.

    ``dist`` must be all ``inf`` on entry. A settled cell is never improved
    (costs are >= 0), so no closed set is kept. Forward: ``dist[q]``
    is the cost from the nearest source to ``q``, ``parent[q]`` the previous cell
    and ``pdir[q]`` the direction of the step into ``q``. With ``reverse`` the
    costs run the other way: ``dist[p]`` is the cost from ``p`` to the nearest
    source, ``parent[p]`` the next cell toward it and ``pdir[p]`` the direction
    of that step. Only passable cells get a distance: a source on an impassable
    cell is ignored. ``field`` is ``(dist, parent, pdir, pos, hf, hid)``: the
    results and the heap's scratch. Returns the number of cells settled.
    """
    off, dxa, dya, stepl, corner, ti = topo
    dist, parent, pdir, pos, hf, hid = field
    ndir, pmode, crule, wrap, width, pw, _, _ = topo_info(ti)
    half = ndir // 2
    has_edge = edge.shape[0] > 0
    has_stop = stop.shape[0] > 0
    n = np.int64(0)  # (int64 from the start: a literal counter types the heap helpers once more, never called)
    for si in range(sources.shape[0]):
        s = sources[si]
        if dist[s] == 0.0:
            continue
        if cell[s] == INF:
            continue
        dist[s] = 0.0
        parent[s] = -1
        pdir[s] = -1
        hf[np.uintp(n)] = 0.0
        hid[np.uintp(n)] = s
        pos[s] = n
        n += 1
    settled = 0
    while n > 0:
        u = hid[np.uintp(0)]
        gu = hf[np.uintp(0)]
        # pop written out (heap.key_pop is not inlined here: 4-8 % slower, docs/design/kernels.md)
        n -= 1
        if n > 0:
            f = hf[np.uintp(n)]
            v = hid[np.uintp(n)]
            i = 0
            while True:
                c2 = 4 * i + 1
                if c2 >= n:
                    break
                m = c2
                mf = hf[np.uintp(c2)]
                e4 = min(c2 + 4, n)
                for cc in range(c2 + 1, e4):
                    if hf[np.uintp(cc)] < mf:
                        mf = hf[np.uintp(cc)]
                        m = cc
                if mf < f:
                    hf[np.uintp(i)] = mf
                    hid[np.uintp(i)] = hid[np.uintp(m)]
                    pos[np.uintp(hid[np.uintp(i)])] = i
                    i = m
                else:
                    break
            hf[np.uintp(i)] = f
            hid[np.uintp(i)] = v
            pos[np.uintp(v)] = i
        settled += 1
        if has_stop and stop[u] != 0 and parent[u] >= 0:
            continue
        ux = u % pw - 1
        uy = u // pw - 1
        base = parity_slot(ux, uy, pmode, ndir)
        cu = cell[u]
        for e in range(ndir):
            k = base + e
            q, qx = step_xy(u, ux, k, off, dxa, wrap, width)
            qu = np.uintp(q)
            c = cell[qu]
            if c == INF:
                continue
            if reverse:
                # the step q -> u, in direction d from q
                d = e + half if e < half else e - half
                p = q
                px = qx
                pb = parity_slot(qx, uy + dya[k], pmode, ndir)
                sc = stepl[d] * cu
            else:
                d = e
                p = u
                px = ux
                pb = base
                sc = stepl[d] * c
            if not corner_pass(cell, p, px, pb, d, corner, crule, off, dxa, wrap, width):
                continue
            nd = gu + sc
            if has_edge:
                nd += edge[p * ndir + d]
            if nd > max_cost:
                continue
            dq = dist[qu]
            if nd >= dq:
                continue
            dist[qu] = nd
            parent[qu] = u
            pdir[qu] = d
            if dq == INF:
                i = n
                n += 1
            else:
                i = pos[qu]
            key_up(i, nd, q, hf, hid, pos, 2, 0)
    return settled


@jit
def dijkstra_plain(cell, moves, uniform, c_uni, sources, topo, max_cost, reverse, tree, field):
    """``dijkstra`` for boards without wrap, edge costs or stop cells (``moves`` from ``move_mask``).

    With ``uniform`` every passable cell costs ``c_uni`` to enter. ``parent``
    and ``pdir`` are written only with ``tree``. Same distances as ``dijkstra``
    (``field`` as there).
    """
    off, _, _, stepl, _, ti = topo
    dist, parent, pdir, pos, hf, hid = field
    one = _U(1)
    four = _U(4)
    nd, pmode, _, _, _, pwi, _, _ = topo_info(ti)
    ndir = _U(nd)
    pw = _U(pwi)
    half = ndir // _U(2)
    n = _U(0)
    for si in range(sources.shape[0]):
        s = _U(sources[si])
        if dist[s] == 0.0:
            continue
        if cell[s] == INF:
            continue
        dist[s] = 0.0
        if tree:
            parent[s] = -1
            pdir[s] = -1
        hf[n] = 0.0
        hid[n] = np.int32(s)
        pos[s] = n
        n += one
    settled = 0
    while n > 0:
        u = _U(hid[0])
        gu = hf[0]
        # pop written out, as in dijkstra
        n -= one
        if n > 0:
            f = hf[n]
            v = hid[n]
            i = _U(0)
            while True:
                c2 = four * i + one
                if c2 >= n:
                    break
                m = c2
                mf = hf[c2]
                e4 = min(c2 + four, n)
                cc = c2 + one
                while cc < e4:
                    if hf[cc] < mf:
                        mf = hf[cc]
                        m = cc
                    cc += one
                if mf < f:
                    hf[i] = mf
                    w = hid[m]
                    hid[i] = w
                    pos[_U(w)] = i
                    i = m
                else:
                    break
            hf[i] = f
            hid[i] = v
            pos[_U(v)] = i
        settled += 1
        mu = _U(moves[u])
        base = _U(slot_base(u, pmode, ndir, pw))
        cu = c_uni if uniform else cell[u]
        for e in range(ndir):
            eu = _U(e)
            k = base + eu
            q = _U(np.int64(u) + off[k])
            if reverse:
                d = eu + half if eu < half else eu - half
                if (_U(moves[q]) >> d) & one == 0:
                    continue
                nd = gu + stepl[d] * cu
            else:
                if (mu >> eu) & one == 0:
                    continue
                d = eu
                if uniform:
                    nd = gu + stepl[eu] * c_uni
                else:
                    nd = gu + stepl[eu] * cell[q]
            if nd > max_cost:
                continue
            dq = dist[q]
            if nd >= dq:
                continue
            dist[q] = nd
            if tree:
                parent[q] = np.int32(u)
                pdir[q] = np.int8(d)
            if dq == INF:
                i = n
                n += one
            else:
                i = _U(pos[q])
            key_up(i, nd, np.int32(q), hf, hid, pos, 2, 0)
    return settled


@jit
def dijkstra_queues(cell, moves, c_uni, sources, topo, queues, max_cost, dist):
    """Distances only on a uniform board (plain kernels' boards), with one FIFO queue per step length.

    Every passable cell costs ``c_uni`` to enter, so a step costs one of
    ``nq`` values (``qof[d]``: the queue of direction ``d``). Cells leave in
    nondecreasing distance, so each queue, fed ``distance + its step cost``,
    stays sorted: the smallest of the queue heads is the next cell to settle
    and no heap is needed. A cell enters each queue at most once (a later
    entry would carry a larger key, never an improvement), so ``qid`` and
    ``qkey`` hold ``nq`` blocks of ``len(dist)`` entries. Ties between heads go to the
    lower queue. ``queues`` is ``(qof, nq, qid, qkey)``. ``dist`` must be all ``inf`` on entry. Returns the number of cells
    settled (-1 if a block overflowed, which the argument above rules out).
    """
    off, _, _, stepl, _, ti = topo
    qof, nq, qid, qkey = queues
    one = _U(1)
    nd, pmode, _, _, _, pwi, _, _ = topo_info(ti)
    ndir = _U(nd)
    pw = _U(pwi)
    n = _U(dist.shape[0])
    head = np.zeros(nq, dtype=np.int64)
    tail = np.zeros(nq, dtype=np.int64)
    for si in range(sources.shape[0]):
        s = _U(sources[si])
        if dist[s] == 0.0 or cell[s] == INF:
            continue
        dist[s] = 0.0
        t = _U(tail[0])
        qid[t] = np.int32(s)
        qkey[t] = 0.0
        tail[0] += 1
    settled = 0
    while True:
        best = -1
        bk = INF
        for k in range(nq):
            # drop stale heads (the cell was reached cheaper through another queue)
            while head[k] < tail[k]:
                e = _U(k) * n + _U(head[k])
                if qkey[e] > dist[_U(qid[e])]:
                    head[k] += 1
                else:
                    break
            if head[k] < tail[k]:
                kk = qkey[_U(k) * n + _U(head[k])]
                if kk < bk:
                    bk = kk
                    best = k
        if best < 0:
            return settled
        e = _U(best) * n + _U(head[best])
        head[best] += 1
        u = _U(qid[e])
        gu = bk
        if gu > dist[u]:
            continue
        settled += 1
        mu = _U(moves[u])
        base = _U(slot_base(u, pmode, ndir, pw))
        for d in range(ndir):
            du = _U(d)
            if (mu >> du) & one == 0:
                continue
            q = _U(np.int64(u) + off[base + du])
            nd = gu + stepl[du] * c_uni
            if nd > max_cost or nd >= dist[q]:
                continue
            dist[q] = nd
            k = _U(qof[du])
            t = _U(tail[k])
            if t >= n:  # cannot happen (see above); never write past the block
                return -1
            qid[k * n + t] = np.int32(q)
            qkey[k * n + t] = nd
            tail[k] += 1


@jit
def dijkstra_buckets(cell, sources, topo, unit, nb, max_cost, dist, link):
    """Distances only, on a board of unit steps whose costs are whole in units of ``1 / unit``.

    Boards without wrap or edge costs whose steps all have length 1 (hex,
    square-4, staggered): with no diagonal there is no corner rule, and a
    step is allowed when it enters a passable cell, which ``cell`` says
    (no step bits, see ``astar.astar_keyed``).

    Dial's bucket queue: every distance is a multiple of ``1 / unit`` (a power
    of two, so the float sums are exact), and the open cells' keys
    ``dist * unit`` lie within ``nb - 1`` (the largest step cost times
    ``unit``) of the smallest, so a ring of ``nb`` buckets holds them, one
    doubly linked list a bucket. A push and a pop cost O(1) and a cell that
    improves moves between lists. ``link`` is ``(nxt, prv)``, two int32
    arrays of ``len(dist)``. Same distances as ``dijkstra`` (``dist`` all
    ``inf`` on entry); returns the number of cells settled.
    """
    off, _, _, _, _, ti = topo
    nxt, prv = link
    nd, pmode, _, _, _, pwi, _, _ = topo_info(ti)
    ndir = _U(nd)
    pw = _U(pwi)
    head = np.full(nb, -1, dtype=np.int64)
    nbu = np.int64(nb)
    count = 0
    for si in range(sources.shape[0]):
        s = _U(sources[si])
        if dist[s] == 0.0 or cell[s] == INF:
            continue
        dist[s] = 0.0
        h = head[0]
        nxt[s] = np.int32(h)
        prv[s] = -1
        if h >= 0:
            prv[_U(h)] = np.int32(s)
        head[0] = np.int64(s)
        count += 1
    cur = np.int64(0)
    settled = 0
    while count > 0:
        b = _U(cur % nbu)
        while head[b] < 0:
            cur += 1
            b = _U(cur % nbu)
        u = _U(head[b])
        h = nxt[u]
        head[b] = h
        if h >= 0:
            prv[_U(h)] = -1
        count -= 1
        settled += 1
        gu = dist[u]
        base = _U(slot_base(u, pmode, ndir, pw))
        for d in range(ndir):
            q = _U(np.int64(u) + off[base + _U(d)])
            nd = gu + cell[q]
            if nd > max_cost:
                continue
            dq = dist[q]
            if nd >= dq:
                continue
            if dq != INF:  # open (a settled cell is never improved): unlink it from its bucket
                a = nxt[q]
                p = prv[q]
                if p >= 0:
                    nxt[_U(p)] = a
                else:
                    head[_U(np.int64(dq * unit) % nbu)] = a
                if a >= 0:
                    prv[_U(a)] = p
            else:
                count += 1
            dist[q] = nd
            b = _U(np.int64(nd * unit) % nbu)
            h = head[b]
            nxt[q] = np.int32(h)
            prv[q] = -1
            if h >= 0:
                prv[_U(h)] = np.int32(q)
            head[b] = np.int64(q)
    return settled


@helper
def _board_step(p, d, cell, edge, tb):
    """``(q, cost)`` of the step from ``p`` in direction ``d`` (``inf``: not allowed)."""
    off, dxa, dya, stepl, corner, ti = tb
    ndir = ti[0]
    q = step_to(p, d, off, ndir, ti[1], ti[3], ti[4], ti[5])
    cq = cell[q]
    if not cq < INF or q == p:
        return q, INF
    if ti[2] != 0 and not corner_ok(cell, p, d, corner, ti[2], off, ndir, ti[1], ti[3], ti[4], ti[5]):
        return q, INF
    w = stepl[d] * cq
    if edge.shape[0] > 0:
        w += edge[p * ndir + d]
    return q, w


@jit
def dijkstra_targets(s, want, nwant, cell, edge, tb, dist, stamp, pos, hk, hid, gen):
    """Settle from ``s`` until the ``nwant`` cells with ``want[p] == gen`` are settled; ``dist`` valid where ``stamp == gen + 1``."""
    ndir = tb[5][0]
    dist[s] = 0.0
    stamp[s] = gen
    nh = _hpush(s, 0.0, 0, hk, hid, pos, True)
    left = nwant
    while nh > 0:
        p = hid[0]
        dp = hk[0]
        nh = _hpop(nh, hk, hid, pos)
        stamp[p] = gen + 1
        if want[p] == gen:
            left -= 1
            if left == 0:
                break
        for d in range(ndir):
            q, w = _board_step(p, d, cell, edge, tb)
            if w < INF:
                nh, _ = reach(q, dp + w, dist, stamp, pos, hk, hid, nh, gen)
