"""Contraction hierarchies on the padded board graph: order, contraction, queries, tables, repairs.

The graph: node = padded cell id; the arc ``p -> q`` of direction ``d``
costs ``stepl[d] * cell[q] + edge[p * ndir + d]`` (the package's step rule,
corner rule included); arcs that cost ``inf`` are left out. Contraction
keeps, per node, one list of neighbours with both weights (``wo``: node ->
neighbour, ``wi``: neighbour -> node) and both shortcut middles (``vo``,
``vi``; ``-1``: an arc of the board), in a pool that grows by relocation.

Nodes are contracted in batches (``batch_pick``: from the priority queue's
front, no two of them neighbours; ``batch_estimate`` and ``batch_recheck``
on threads; ``batch_decide``, ``batch_apply``). When node ``v`` is
contracted, its list is what is left of its neighbours: it becomes ``v``'s
upward arcs, copied into the upward graph ``(first, cnt, un, uwo, uwi, uvo,
uvi)``. For every neighbour ``u`` with an arc into ``v`` a bounded witness
search (Dijkstra from ``u`` over the nodes not yet contracted, without ``v``
nor the rest of its batch, stopped at the longest
candidate or after ``settle_max`` settled nodes) decides, for every other
neighbour ``w``, whether the shortcut ``u -> w`` of ``wi[u] + wo[w]`` is
needed: it is, unless a witness path is as cheap. An unfinished witness
search only adds shortcuts that are not needed: the hierarchy stays exact
for any order and any limit (order and limit only change its size and speed).

Queries: a bidirectional Dijkstra over upward arcs with stall-on-demand
(``query``, the core by ``ch_core.core_astar``), unpacked into board cells
(``unpack``); the bucket many-to-many table's searches below the core
(``table_entries``; ``ch_core.sweep_rows`` crosses the core); after edits
that only raised costs, A* on the new costs with lower bounds on the old
hierarchy's distances to the goal as the potential
(``potential_astar``: consistent, hence exact, because no arc got cheaper);
and a plain Dijkstra that stops when every target is settled
(``dijkstra_targets``), for boards without a hierarchy.

Heaps are ``keyheap``'s; states are told apart by generation stamps. The core's
own searches (compact arrays, landmark bounds, bucket sweeps) are in ``ch_core``.
"""

from __future__ import annotations

import numpy as np

from .._jit import helper, jit
from .ch_core import _scan, core_astar, core_back, landmark_bounds, landmark_units, lower_from_start, lower_to_goal
from .ch_labels import label_query
from .ch_records import Landmarks
from .keyheap import _grow, _hpop, _hpush, reach, relax_arcs
from .steps import corner_ok, step_to

INF = np.inf


@jit
def _room(arcs, need):
    """The five arc arrays ``(nb, wo, wi, vo, vi)``, grown by half (or to ``need``) when shorter than ``need``."""
    nb, wo, wi, vo, vi = arcs
    if need <= nb.shape[0]:
        return arcs
    size = max(nb.shape[0] * 3 // 2, need)
    return (_grow(nb, size, np.int32(-1)), _grow(wo, size, INF), _grow(wi, size, INF),
            _grow(vo, size, np.int32(-1)), _grow(vi, size, np.int32(-1)))


@helper
def _put(v, u, wo_, wi_, vo_, vi_, start, cnt, cap, pool):
    """Append the entry ``(u, wo_, wi_, vo_, vi_)`` to ``v``'s list if it has room; returns whether it had."""
    if cnt[v] == cap[v]:
        return False
    i = start[v] + cnt[v]
    pool[0][i] = u
    pool[1][i] = wo_
    pool[2][i] = wi_
    pool[3][i] = vo_
    pool[4][i] = vi_
    cnt[v] += 1
    return True


@jit
def _append(v, u, wo_, wi_, vo_, vi_, start, cnt, cap, pool, top):
    """Append the entry ``(u, wo_, wi_, vo_, vi_)`` to ``v``'s list, moved to the pool's top (grown when short)
    when full; returns the pool and its top. Callers in a loop try ``_put`` first: this one counts references."""
    if _put(v, u, wo_, wi_, vo_, vi_, start, cnt, cap, pool):
        return pool, top
    newcap = max(8, 2 * cap[v])
    pool = _room(pool, top + newcap)
    nb, wo, wi, vo, vi = pool
    s = start[v]
    for k in range(cnt[v]):
        nb[top + k] = nb[s + k]
        wo[top + k] = wo[s + k]
        wi[top + k] = wi[s + k]
        vo[top + k] = vo[s + k]
        vi[top + k] = vi[s + k]
    start[v] = top
    cap[v] = newcap
    _put(v, u, wo_, wi_, vo_, vi_, start, cnt, cap, pool)
    return pool, top + newcap


@helper
def _find(v, u, start, cnt, nb):
    s = start[v]
    for k in range(s, s + cnt[v]):
        if nb[k] == u:
            return k
    return -1


@jit
def _add_arc(a, b, w, via, start, cnt, cap, pool, top):
    """The arc ``a -> b`` of weight ``w`` (middle ``via``), kept when cheaper than the one there."""
    k = _find(a, b, start, cnt, pool[0])
    if k >= 0:
        if w < pool[1][k]:
            pool[1][k] = w
            pool[3][k] = via
            j = _find(b, a, start, cnt, pool[0])
            pool[2][j] = w
            pool[4][j] = via
        return pool, top
    pool, top = _append(a, b, w, INF, via, -1, start, cnt, cap, pool, top)
    pool, top = _append(b, a, INF, w, -1, via, start, cnt, cap, pool, top)
    return pool, top


@jit
def build_graph(cell, edge, tb, start, cnt, cap):
    """The board's arcs as the contraction's lists; returns ``(pool, top)``."""
    off, dxa, dya, stepl, corner, ti = tb
    ndir = ti[0]
    pmode = ti[1]
    crule = ti[2]
    wrap = ti[3]
    width = ti[4]
    pw = ti[5]
    n = cell.shape[0]
    has_edge = edge.shape[0] > 0
    slots = n * ndir + 16
    pool = (np.full(slots, -1, dtype=np.int32), np.full(slots, INF), np.full(slots, INF),
            np.full(slots, -1, dtype=np.int32), np.full(slots, -1, dtype=np.int32))
    top = 0
    for p in range(n):
        start[p] = top
        cnt[p] = 0
        cap[p] = ndir if cell[p] < INF else 0
        top += cap[p]
    for p in range(n):
        if not cell[p] < INF:
            continue
        for d in range(ndir):
            q = step_to(p, d, off, ndir, pmode, wrap, width, pw)
            if q == p or not cell[q] < INF:
                continue
            if crule != 0 and not corner_ok(cell, p, d, corner, crule, off, ndir, pmode, wrap, width, pw):
                continue
            w = stepl[d] * cell[q]
            if has_edge:
                w += edge[p * ndir + d]
            if not w < INF:
                continue
            pool, top = _add_arc(p, q, w, np.int32(-1), start, cnt, cap, pool, top)
    return pool, top


@helper
def _witness_search(u, v, avoid, ag, gen, left, limit, settle_max, graph, wit):
    """Dijkstra from ``u`` over the nodes not contracted, without ``v`` nor the nodes ``x`` with ``avoid[x] == ag``
    (the rest of a batch), under stamp ``gen``; ``wit``'s target stamps mark ``left`` targets. Stops once they are all
    settled, past ``limit``, or after ``settle_max`` settled nodes: a target ``w`` has a witness as cheap as ``c``
    when it was reached (stamp ``gen`` or ``gen + 1``) at ``<= c``."""
    start, cnt = graph[0], graph[1]
    nb, wo = graph[3][0], graph[3][1]
    dist, stamp, hpos, hk, hid, genbox, tg = wit[0], wit[1], wit[2], wit[3], wit[4], wit[5], wit[6]
    stamp[v] = gen + 1  # as if settled: the search goes round v (contracted nodes are in no list any more)
    nh = _hpush(u, 0.0, 0, hk, hid, hpos, True)
    dist[u] = 0.0
    stamp[u] = gen
    settled = 0
    while nh > 0:
        x = hid[0]
        dx = hk[0]
        nh = _hpop(nh, hk, hid, hpos)
        stamp[x] = gen + 1
        if avoid[x] == ag:
            continue  # reached, not passed through (it leaves with v)
        settled += 1
        genbox[1] += 1
        if tg[x] == gen:
            left -= 1
            if left == 0:
                break
        if dx > limit or settled > settle_max:
            break
        nh = relax_arcs(start[x], start[x] + cnt[x], nb, wo, dx, dist, stamp, hpos, hk, hid, nh, gen)


@helper
def _witnessed(w, c, gen, wit):
    """The last witness search (stamp ``gen``) reached ``w`` at no more than ``c``."""
    sw = wit[1][w]
    return (sw == gen or sw == gen + 1) and wit[0][w] <= c


@jit
def _sc_room(sc, need):
    """The shortcut arrays ``sc = (u, w, cost)``, grown (at least doubled) when shorter than ``need``."""
    scu, scw, scc = sc
    if need <= scu.shape[0]:
        return sc
    size = max(2 * scu.shape[0], need)
    return _grow(scu, size, np.int64(-1)), _grow(scw, size, np.int64(-1)), _grow(scc, size, INF)


@helper
def _witness_pass(v, graph, wit, settle_max, sc, nsc, avoid, ag):
    """Append to ``sc`` (``(u, w, cost)`` from ``nsc`` on) the shortcuts the contraction of ``v`` needs: the searches
    go round ``v`` and the nodes ``x`` with ``avoid[x] == ag``.

    Returns the new count; the shortcuts come grouped by their first node.
    ``sc`` must have room for ``k * k`` more, ``k`` the neighbours of ``v``
    (``_sc_room``): a helper, it cannot grow them (it is called for every
    node, several times, by two threads at once: counting references to
    the shared arrays at each call made the threads wait on each other).
    """
    start, cnt, pool = graph[0], graph[1], graph[3]
    genbox, tg = wit[5], wit[6]
    scu, scw, scc = sc
    nb, wo, wi = pool[0], pool[1], pool[2]
    s = start[v]
    k = cnt[v]
    gen = genbox[0]
    for i in range(k):
        win = wi[s + i]
        if not win < INF:
            continue
        u = nb[s + i]
        gen += 2
        limit = -1.0
        left = 0
        for j in range(k):
            if j != i and wo[s + j] < INF:
                c = win + wo[s + j]
                if c > limit:
                    limit = c
                tg[nb[s + j]] = gen
                left += 1
        if limit < 0.0:
            continue
        _witness_search(u, v, avoid, ag, gen, left, limit, settle_max, graph, wit)
        for j in range(k):
            wout = wo[s + j]
            if j == i or not wout < INF:
                continue
            w = nb[s + j]
            c = win + wout
            if _witnessed(w, c, gen, wit):
                continue
            scu[nsc] = u
            scw[nsc] = w
            scc[nsc] = c
            nsc += 1
    genbox[0] = gen
    return nsc


@helper
def _witness_recheck(v, graph, wit, settle_max, sc, lo, hi, avoid, ag):
    """Drop from ``v``'s shortcuts ``lo <= i < hi`` of ``sc`` (grouped by their first node) those a longer witness
    search (round ``v`` and the nodes ``x`` with ``avoid[x] == ag``) finds a path for.

    ``sc`` comes from ``_witness_pass``: a cheap pass proposes, this one
    searches again only from the nodes that still have candidates, only for
    those candidates (a longer search only finds more witnesses). Returns
    how many are kept (compacted to ``lo`` on).
    """
    genbox, tg = wit[5], wit[6]
    scu, scw, scc = sc
    gen = genbox[0]
    kept = lo
    a = lo
    while a < hi:
        u = scu[a]
        b = a
        gen += 2
        limit = -1.0
        while b < hi and scu[b] == u:
            tg[scw[b]] = gen
            if scc[b] > limit:
                limit = scc[b]
            b += 1
        _witness_search(u, v, avoid, ag, gen, b - a, limit, settle_max, graph, wit)
        for j in range(a, b):
            w = scw[j]
            if _witnessed(w, scc[j], gen, wit):
                continue
            scu[kept] = u
            scw[kept] = w
            scc[kept] = scc[j]
            kept += 1
        a = b
    genbox[0] = gen
    return kept - lo


@helper
def _prio(nsc, k, v, deleted):
    """Edge difference (shortcuts added less arcs removed), neighbours already contracted, level."""
    return float(2 * nsc - k + deleted[0, v] + deleted[1, v]) + v * 1e-9


@jit
def init_priorities(lo, hi, cell, graph, wit, settle_max, deleted, out):
    """``out[v]``: the first priority of every passable node ``lo <= v < hi`` (the graph is only read: threads may
    share it, each with its own ``wit``)."""
    sc = (np.empty(64, dtype=np.int64), np.empty(64, dtype=np.int64), np.empty(64))
    cnt = graph[1]
    for v in range(lo, hi):
        if cell[v] < INF:
            if cnt[v] * cnt[v] > sc[0].shape[0]:
                sc = _sc_room(sc, cnt[v] * cnt[v])
            nsc = _witness_pass(v, graph, wit, settle_max, sc, 0, wit[1], -1)  # stamps are never -1
            out[v] = _prio(nsc, cnt[v], v, deleted)


@jit
def order_init(n, cell, prio, pq):
    """Put every passable node in the priority queue ``pq = (hk, hid, pos, box)`` (``box[0]``: its size) at ``prio``."""
    hk, hid, pos, box = pq
    nh = 0
    for v in range(n):
        if cell[v] < INF:
            nh = _hpush(v, prio[v], nh, hk, hid, pos, True)
    box[0] = nh
    return nh


@jit
def _freeze(v, pool, start, cnt, first, ucnt, uarr, utop):
    """Copy ``v``'s list into the upward arrays at ``utop`` (grown when full); returns them and the new top."""
    k = cnt[v]
    s = start[v]
    uarr = _room(uarr, utop + k)
    un, uwo, uwi, uvo, uvi = uarr
    first[v] = utop
    ucnt[v] = k
    nb, wo, wi, vo, vi = pool
    for i in range(k):
        un[utop + i] = nb[s + i]
        uwo[utop + i] = wo[s + i]
        uwi[utop + i] = wi[s + i]
        uvo[utop + i] = vo[s + i]
        uvi[utop + i] = vi[s + i]
    return (un, uwo, uwi, uvo, uvi), utop + k


@jit
def _add_shortcuts(v, sc, lo, hi, start, cnt, cap, pool, top, wit):
    """Add the shortcuts ``lo <= i < hi`` of ``sc`` (middle ``v``, grouped by their first node) like ``_add_arc``;
    returns the pool and its top.

    Each group marks its first node's neighbours once (``wit``'s target
    stamps and slot array), so finding an arc already there costs one look
    instead of a scan of a list that can be a hundred long at the top.
    """
    genbox, tg, where = wit[5], wit[6], wit[7]
    scu, scw, scc = sc
    via = np.int32(v)
    i = lo
    while i < hi:
        u = scu[i]
        gen = genbox[0] + 2
        genbox[0] = gen
        s = start[u]
        nb = pool[0]
        for q in range(cnt[u]):
            tg[nb[s + q]] = gen
            where[nb[s + q]] = q
        while i < hi and scu[i] == u:
            w = scw[i]
            c = scc[i]
            i += 1
            if tg[w] == gen:
                kq = start[u] + where[w]
                if c < pool[1][kq]:
                    pool[1][kq] = c
                    pool[3][kq] = via
                    j = _find(w, u, start, cnt, pool[0])
                    pool[2][j] = c
                    pool[4][j] = via
                continue
            if not _put(u, w, c, INF, via, -1, start, cnt, cap, pool):
                pool, top = _append(u, w, c, INF, via, -1, start, cnt, cap, pool, top)
            tg[w] = gen
            where[w] = cnt[u] - 1
            if not _put(w, u, INF, c, -1, via, start, cnt, cap, pool):
                pool, top = _append(w, u, INF, c, -1, via, start, cnt, cap, pool, top)
    return pool, top


# -- the contraction, a batch of independent nodes at a time ------------------------------------

@jit
def batch_pick(graph, pq, bt, size, upto, threads):
    """Pop the batch's candidates: up to ``size`` nodes (fewer when ``upto`` nodes would be contracted), no two
    of them neighbours. A popped node next to one already picked goes back with its key.

    ``bt``: ``(cand, keys, mark, stamp, ...)``: ``mark[x]`` is the batch's
    stamp ``stamp[0] + 1`` for a candidate, ``stamp[0]`` for its neighbours.
    Each candidate goes to one of ``threads`` threads (``bt``'s ``owner``),
    the least loaded so far, a candidate of ``k`` neighbours weighing ``k (k
    + 8)`` (its searches: ``k`` of them, ``k`` targets each). Returns how many
    were picked.
    """
    start, cnt, nb = graph[0], graph[1], graph[3][0]
    hk, hid, pos, box = pq
    cand, keys, mark, bstamp = bt[0], bt[1], bt[2], bt[3]
    nh = box[0]
    want = min(size, upto - box[1])
    g = bstamp[0] + 2
    bstamp[0] = g
    nc = 0
    nback = 0
    back = cand[size:]
    backk = keys[size:]
    while nh > 0 and nc < want and nback < back.shape[0]:
        v = hid[0]
        key = hk[0]
        nh = _hpop(nh, hk, hid, pos)
        if mark[v] >= g:
            back[nback] = v
            backk[nback] = key
            nback += 1
            continue
        s = start[v]
        for i in range(s, s + cnt[v]):
            mark[nb[i]] = g
        mark[v] = g + 1
        cand[nc] = v
        keys[nc] = key
        nc += 1
    for i in range(nback):
        nh = _hpush(back[i], backk[i], nh, hk, hid, pos, True)
    box[0] = nh
    owner = bt[8]
    load = np.zeros(threads, dtype=np.int64)
    for i in range(nc):
        k = cnt[cand[i]]
        t = 0
        for u in range(1, threads):
            if load[u] < load[t]:
                t = u
        owner[i] = t
        load[t] += k * (k + 8)
    return nc


@jit
def batch_estimate(t, nc, graph, wit, settle_est, deleted, bt, sc):
    """The candidates of thread ``t`` (``bt``'s ``owner``): their shortcuts by the cheap witness searches (round
    every candidate) into ``sc`` (``bt``'s ``off``, ``num``: where), their new priorities into ``bt``'s ``prio``.
    Threads share the graph (only read), each with its own ``t``, ``wit`` and ``sc``. Returns ``sc`` (maybe
    grown)."""
    cand, off, num, prio, owner = bt[0], bt[4], bt[5], bt[6], bt[8]
    cnt = graph[1]
    nsc = 0
    for i in range(nc):
        if owner[i] != t:
            continue
        v = cand[i]
        off[i] = nsc
        if nsc + cnt[v] * cnt[v] > sc[0].shape[0]:
            sc = _sc_room(sc, nsc + cnt[v] * cnt[v])
        nsc = _witness_pass(v, graph, wit, settle_est, sc, nsc, bt[2], bt[3][0] + 1)
        num[i] = nsc - off[i]
        prio[i] = _prio(num[i], cnt[v], v, deleted)
    return sc


@jit
def batch_decide(nc, pq, bt, upto):
    """Which candidates are contracted (``bt``'s ``take``): the lazy rule, a candidate whose new priority passes both
    its old key and the queue's least goes back at that priority (as do those past ``upto``). Returns how many."""
    hk, hid, pos, box = pq
    cand, keys, prio, take = bt[0], bt[1], bt[6], bt[7]
    nh = box[0]
    room = upto - box[1]
    taken = 0
    for i in range(nc):
        pr = prio[i]
        box[2] += 1
        if taken >= room or (nh > 0 and pr > hk[0] and pr > keys[i]):
            nh = _hpush(cand[i], pr, nh, hk, hid, pos, True)
            take[i] = 0
        else:
            take[i] = 1
            taken += 1
    box[0] = nh
    return taken


@jit
def batch_recheck(t, nc, graph, wit, settle_max, bt, sc):
    """The longer witness searches for thread ``t``'s candidates taken (see ``batch_estimate``)."""
    cand, off, num, take, owner = bt[0], bt[4], bt[5], bt[7], bt[8]
    for i in range(nc):
        if owner[i] == t and take[i] and num[i] > 0:
            num[i] = _witness_recheck(cand[i], graph, wit, settle_max, sc, off[i], off[i] + num[i], bt[2], bt[3][0] + 1)


@jit
def batch_apply(nc, graph, up, wit, deleted, rank, pq, bt, scs):
    """Contract the candidates taken, in batch order: each one's list becomes its upward arcs, it leaves its
    neighbours' lists and its shortcuts join them (``scs[owner[i]]``: candidate ``i``'s thread's).
    Returns the (maybe grown) pool, its top, the upward arrays and their top."""
    start, cnt, cap, pool, top = graph
    first, ucnt, uarr, utop = up
    box = pq[3]
    cand, off, num, take, owner = bt[0], bt[4], bt[5], bt[7], bt[8]
    ndone = box[1]
    for i in range(nc):
        if not take[i]:
            continue
        v = cand[i]
        k = cnt[v]
        uarr, utop = _freeze(v, pool, start, cnt, first, ucnt, uarr, utop)
        un = uarr[0]
        rank[v] = ndone
        ndone += 1
        nb, wo, wi, vo, vi = pool
        for e in range(utop - k, utop):
            u = un[e]
            deleted[0, u] += 1
            if deleted[1, u] < deleted[1, v] + 1:
                deleted[1, u] = deleted[1, v] + 1
            j = _find(u, v, start, cnt, nb)
            last = start[u] + cnt[u] - 1
            nb[j] = nb[last]
            wo[j] = wo[last]
            wi[j] = wi[last]
            vo[j] = vo[last]
            vi[j] = vi[last]
            cnt[u] -= 1
        pool, top = _add_shortcuts(v, scs[owner[i]], off[i], off[i] + num[i], start, cnt, cap, pool, top, wit)
    box[1] = ndone
    return pool, top, uarr, utop


@jit
def freeze_core(graph, up, pq, rank, core):
    """Keep the nodes left in ``pq`` uncontracted: each one's whole list (core neighbours only) becomes its arcs.

    Marks them in ``core``; returns the upward arrays and their top.
    """
    start, cnt, cap, pool, top = graph
    first, ucnt, uarr, utop = up
    hid, box = pq[1], pq[3]
    for i in range(box[0]):
        v = hid[i]
        uarr, utop = _freeze(v, pool, start, cnt, first, ucnt, uarr, utop)
        rank[v] = box[1] + i
        core[v] = 1
    box[1] += box[0]
    box[0] = 0
    return uarr, utop


# -- queries ----------------------------------------------------------------------------------

@helper
def _entry(x, y, first, ucnt, un):
    """Position of ``y`` in ``x``'s upward arcs (-1: none)."""
    s = first[x]
    for k in range(s, s + ucnt[x]):
        if un[k] == y:
            return k
    return -1


@jit
def shortcut_halves(first, ucnt, un, uvo, uvi, ho, hi):
    """Where each shortcut's halves stand in its middle's list: ``ho[e] = (x, y)`` for the arc ``e`` of ``x``
    walked out to ``y = un[e]`` through ``m = uvo[e]`` (the positions of ``x`` and ``y`` in ``m``'s upward
    arcs, less ``first[m]``), ``hi[e]`` likewise for the walk in, ``y`` to ``x`` through ``uvi[e]``; 0 where
    the arc is the board's. Unpacking then needs no list scans.
    """
    for x in range(first.shape[0]):
        for e in range(first[x], first[x] + ucnt[x]):
            y = un[e]
            m = uvo[e]
            if m >= 0:
                ho[e, 0] = _entry(m, x, first, ucnt, un) - first[m]
                ho[e, 1] = _entry(m, y, first, ucnt, un) - first[m]
            m = uvi[e]
            if m >= 0:
                hi[e, 0] = _entry(m, y, first, ucnt, un) - first[m]
                hi[e, 1] = _entry(m, x, first, ucnt, un) - first[m]


@helper
def _reach(y, nd, x, dist, stamp, par, pos, hk, hid, n, gen):
    """Reach ``y`` at cost ``nd`` from ``x`` unless it is settled or reached as cheaply; returns ``(n, reached)``."""
    n, ok = reach(y, nd, dist, stamp, pos, hk, hid, n, gen)
    if ok:
        par[y] = x
    return n, ok


@helper
def _expand(x, dx, first, ucnt, un, w, back, dist, stamp, par, pos, hk, hid, n, gen):
    """Relax the upward arcs of ``x`` (weights ``w``) unless a reached node above proves ``dx`` too high (stall)."""
    fx = first[x]
    for e in range(fx, fx + ucnt[x]):
        y = un[e]
        if (stamp[y] == gen or stamp[y] == gen + 1) and dist[y] + back[e] < dx:
            return n
    for e in range(fx, fx + ucnt[x]):
        we = w[e]
        if we < INF:
            n, _ = _reach(un[e], dx + we, x, dist, stamp, par, pos, hk, hid, n, gen)
    return n


@helper
def _settle(x, dx, stamp, ostamp, odist, gen, best, meet):
    """Mark ``x`` settled; a node the other side reached improves ``best``; returns ``(best, meet)``."""
    stamp[x] = gen + 1
    if (ostamp[x] == gen or ostamp[x] == gen + 1) and dx + odist[x] < best:
        return dx + odist[x], x
    return best, meet


@jit(inline="always")
def _aside(x, seeds, k):
    """Append ``x`` to ``seeds``; returns the (maybe grown) array and the count."""
    if k == seeds.shape[0]:
        seeds = _grow(seeds, 2 * k, np.int64(-1))
    seeds[k] = x
    return seeds, k + 1


@jit
def query(s, t, upg, qs, cq, gen):
    """Bidirectional upward search, then the core; returns ``(cost, meeting node)`` (``inf``, -1 when unreachable).

    ``upg``: the hierarchy (``ch_records.Upward``); ``qs``: the search's
    scratch (``QueryScratch``); ``cq`` the core's (``CoreScratch``);
    ``gen`` this query's stamp (even; ``gen + 1``: settled). Phase 1 searches
    the upward arcs below the core; the core nodes it reaches wait (their
    distances are final once phase 1 is done). Phase 2 joins the forward
    ones to the backward ones: by the core's hub labels when it has them
    (``ch_labels.label_query``), else by A* over the core (``ch_core.core_astar``).
    """
    first, ucnt, un, uwo, uwi, core = upg.first, upg.count, upg.head, upg.w_out, upg.w_in, upg.in_core
    df, db, sf, sb = qs.dist_f, qs.dist_b, qs.stamp_f, qs.stamp_b
    pf, pb, posf, posb = qs.parent_f, qs.parent_b, qs.pos_f, qs.pos_b
    hkf, hidf, hkb, hidb = qs.key_f, qs.id_f, qs.key_b, qs.id_b
    best = INF
    meet = -1
    df[s] = 0.0
    sf[s] = gen
    pf[s] = -1
    nf = _hpush(s, 0.0, 0, hkf, hidf, posf, True)
    db[t] = 0.0
    sb[t] = gen
    pb[t] = -1
    nb_ = _hpush(t, 0.0, 0, hkb, hidb, posb, True)
    seedf = np.empty(16, dtype=np.int64)
    seedb = np.empty(16, dtype=np.int64)
    kf = 0
    kb = 0
    while nf > 0 or nb_ > 0:
        topf = hkf[0] if nf > 0 else INF
        topb = hkb[0] if nb_ > 0 else INF
        if topf >= best and topb >= best:
            break
        if topf <= topb:
            x = hidf[0]
            nf = _hpop(nf, hkf, hidf, posf)
            if core[x]:
                seedf, kf = _aside(x, seedf, kf)
                continue
            best, meet = _settle(x, topf, sf, sb, db, gen, best, meet)
            nf = _expand(x, topf, first, ucnt, un, uwo, uwi, df, sf, pf, posf, hkf, hidf, nf, gen)
        else:
            x = hidb[0]
            nb_ = _hpop(nb_, hkb, hidb, posb)
            if core[x]:
                seedb, kb = _aside(x, seedb, kb)
                continue
            best, meet = _settle(x, topb, sb, sf, df, gen, best, meet)
            nb_ = _expand(x, topb, first, ucnt, un, uwi, uwo, db, sb, pb, posb, hkb, hidb, nb_, gen)
    if kf == 0 or kb == 0:
        return best, meet
    if upg.out_first.shape[0] > 0:
        return label_query(seedf, kf, seedb, kb, df, db, pf, upg, cq, gen, best, meet)
    return core_astar(seedf, kf, seedb, kb, df, db, pf, upg, cq, gen, best, meet)


@helper
def _stack_arc(stack, i, tail, head, e, outward):
    """Row ``i`` of ``unpack``'s stack: the arc ``tail -> head``, upward arc ``e`` of ``tail`` (``outward``) or of ``head``."""
    stack[i, 0] = tail
    stack[i, 1] = head
    stack[i, 2] = e
    stack[i, 3] = outward


@jit
def unpack(s, t, meet, upg, qs):
    """The padded cells of the path the last ``query`` found, from ``s`` to ``t``, and their cost by the hierarchy.

    The path's upward arcs (the forward parents ``pf`` up to ``meet``, the
    backward ones ``pb`` down to ``t``) go on a stack, the first on top,
    each as ``(tail, head, arc, outward)``: the arc is upward arc ``arc``
    of ``tail`` when ``outward``, else of ``head``. A shortcut ``x -> y``
    with middle ``m`` is replaced by ``m``'s arc to ``x`` walked inward,
    then ``m``'s arc to ``y`` walked outward (found without a scan:
    ``shortcut_halves``); a board step appends its head. The cost is the
    board steps' weights summed in path order (``walk_cost``'s sum, bit
    for bit). One loop for the whole path: a kernel called per arc would
    count references to every array of ``upg`` at each call.
    """
    first, uwo, uwi, uvo, uvi = upg.first, upg.w_out, upg.w_in, upg.mid_out, upg.mid_in
    ho, hi = upg.half_out, upg.half_in
    pf, pb = qs.parent_f, qs.parent_b
    nf = 0
    x = meet
    while pf[x] >= 0:
        nf += 1
        x = pf[x]
    nb = 0
    x = meet
    while pb[x] >= 0:
        nb += 1
        x = pb[x]
    stack = np.empty((nf + nb + 64, 4), dtype=np.int64)
    j = nb  # the forward arcs above the backward ones, the one from s on top
    x = meet
    while pf[x] >= 0:
        a = pf[x]
        _stack_arc(stack, j, a, x, _entry(a, x, first, upg.count, upg.head), 1)
        j += 1
        x = a
    j = nb - 1  # the backward arcs, the one into t at the bottom
    x = meet
    while pb[x] >= 0:
        y = pb[x]
        _stack_arc(stack, j, x, y, _entry(y, x, first, upg.count, upg.head), 0)
        j -= 1
        x = y
    out = np.empty(256, dtype=np.int64)
    out[0] = s
    n = 1
    total = 0.0
    sp = nf + nb
    while sp > 0:
        sp -= 1
        x = stack[sp, 0]
        y = stack[sp, 1]
        e = stack[sp, 2]
        od = stack[sp, 3]
        m = uvo[e] if od else uvi[e]
        if m < 0:
            if n == out.shape[0]:
                out = _grow(out, 2 * n, np.int64(-1))
            out[n] = y
            n += 1
            total += uwo[e] if od else uwi[e]
            continue
        if sp + 2 > stack.shape[0]:
            bigger = np.empty((2 * stack.shape[0], 4), dtype=np.int64)
            bigger[: stack.shape[0]] = stack
            stack = bigger
        # x -> m then m -> y: pushed in reverse (the halves' positions: shortcut_halves)
        h = ho if od else hi
        fm = first[m]
        _stack_arc(stack, sp, m, y, fm + h[e, 1], 1)
        _stack_arc(stack, sp + 1, x, m, fm + h[e, 0], 0)
        sp += 2
    return out[:n], total


@jit
def walk_cost(path, cell, edge, tb):
    """The cost of walking ``path`` (padded ids, each a neighbour of the last) over ``cell`` and ``edge``."""
    off, dxa, dya, stepl, corner, ti = tb
    ndir = ti[0]
    pmode = ti[1]
    wrap = ti[3]
    width = ti[4]
    pw = ti[5]
    has_edge = edge.shape[0] > 0
    total = 0.0
    for i in range(path.shape[0] - 1):
        a = path[i]
        b = path[i + 1]
        best = INF
        for d in range(ndir):
            if step_to(a, d, off, ndir, pmode, wrap, width, pw) == b:
                w = stepl[d] * cell[b]
                if has_edge:
                    w += edge[a * ndir + d]
                if w < best:
                    best = w
        total += best
    return total


@jit
def cut_loops(path, at, mark, tag):
    """``path`` without its loops (a cell seen again: the cells between go), in place; ``mark`` and ``at``:
    board-sized scratch, ``tag`` a value ``mark`` holds nowhere yet.

    An unpacked path can pass a cell twice only through steps that cost
    nothing (shortcuts that tie), so the cut path costs the same.
    """
    m = 0
    for i in range(path.shape[0]):
        x = path[i]
        if mark[x] == tag:
            k = at[x]
            for q in range(k + 1, m):
                mark[path[q]] = 0
            m = k + 1
            continue
        mark[x] = tag
        at[x] = m
        path[m] = x
        m += 1
    return path[:m]


@jit
def touches(path, mark):
    """Whether a cell of ``path`` is marked."""
    for i in range(path.shape[0]):
        if mark[path[i]]:
            return True
    return False


@jit
def mark_around(ids, tb, mark):
    """Mark every cell of ``ids`` and its neighbours (every step into, out of or past a changed cell)."""
    off, dxa, dya, stepl, corner, ti = tb
    ndir = ti[0]
    n = mark.shape[0]
    for i in range(ids.shape[0]):
        p = ids[i]
        mark[p] = 1
        for d in range(ndir):
            q = step_to(p, d, off, ndir, ti[1], ti[3], ti[4], ti[5])
            if 0 <= q < n:
                mark[q] = 1


# -- tables --------------------------------------------------------------------------------------

@jit
def _upward_all(root, upg, backward, stop_core, dist, stamp, pos, hk, hid, gen, seen):
    """Every node the upward search from ``root`` settles, into ``seen`` (returns the count).

    With ``stop_core`` the core nodes are settled but not expanded.
    """
    first, ucnt, un, core = upg.first, upg.count, upg.head, upg.in_core
    w = upg.w_in if backward else upg.w_out
    dist[root] = 0.0
    stamp[root] = gen
    nh = _hpush(root, 0.0, 0, hk, hid, pos, True)
    k = 0
    while nh > 0:
        x = hid[0]
        dx = hk[0]
        nh = _hpop(nh, hk, hid, pos)
        stamp[x] = gen + 1
        if k == seen.shape[0]:
            seen = _grow(seen, 2 * k, np.int64(-1))
        seen[k] = x
        k += 1
        if stop_core and core[x]:
            continue
        nh = relax_arcs(first[x], first[x] + ucnt[x], un, w, dx, dist, stamp, pos, hk, hid, nh, gen)
    return seen, k


@jit
def table_entries(src, tgt, upg, flip, qs, gen0, out):
    """The table's searches below the core; returns ``(gen, chead, bnext, bdist, btgt, sptr, snode, sdist)``.

    Each target's upward search (on reversed arcs) stops at the core and
    leaves an entry ``(cost, target)`` in the bucket of every node it
    settles; each source's upward search stops at the core too, lowers
    ``out[i, j]`` by the buckets of the nodes below the core it settles, and
    keeps the core nodes it settles (``snode[sptr[i]:sptr[i + 1]]``, core
    numbering, costs ``sdist``) for the sweeps over the core
    (``ch_core.sweep_rows``), which read the core's buckets (``chead[r]``:
    the first entry of core node ``r``, then ``bnext``). With ``flip`` the
    searches run on the other arcs (``src`` are then goals: the caller
    passes the shorter list as ``src`` and reads ``out`` transposed).
    """
    df, db, sf, sb = qs.dist_f, qs.dist_b, qs.stamp_f, qs.stamp_b
    pf, pb, posf, posb = qs.parent_f, qs.parent_b, qs.pos_f, qs.pos_b
    hkf, hidf, hkb, hidb = qs.key_f, qs.id_f, qs.key_b, qs.id_b
    core, cidx = upg.in_core, upg.core_index
    nc = upg.core_ids.shape[0]
    head = pf  # bucket heads below the core, valid where sf says the node was seen by this table
    btgt = np.empty(1024, dtype=np.int64)
    bdist = np.empty(1024)
    bnode = np.empty(1024, dtype=np.int64)
    nb_ = 0
    seen = np.empty(1024, dtype=np.int64)
    gen = gen0
    mark = gen0 + 2 * tgt.shape[0] + 2
    for j in range(tgt.shape[0]):
        gen += 2
        seen, k = _upward_all(tgt[j], upg, not flip, True, db, sb, posb, hkb, hidb, gen, seen)
        for i in range(k):
            x = seen[i]
            if nb_ == bnode.shape[0]:
                bnode = _grow(bnode, 2 * nb_, np.int64(-1))
                btgt = _grow(btgt, 2 * nb_, np.int64(-1))
                bdist = _grow(bdist, 2 * nb_, INF)
            bnode[nb_] = x
            btgt[nb_] = j
            bdist[nb_] = db[x]
            nb_ += 1
    bnext = np.empty(nb_, dtype=np.int64)
    chead = np.full(nc, -1, dtype=np.int64)
    for e in range(nb_):
        x = bnode[e]
        if core[x]:
            r = cidx[x]
            bnext[e] = chead[r]
            chead[r] = e
            continue
        if sf[x] != mark:
            sf[x] = mark
            head[x] = -1
        bnext[e] = head[x]
        head[x] = e
    sptr = np.zeros(src.shape[0] + 1, dtype=np.int64)
    snode = np.empty(1024, dtype=np.int32)
    sdist = np.empty(1024)
    ns = 0
    g2 = mark
    for i in range(src.shape[0]):
        g2 += 2
        seen, k = _upward_all(src[i], upg, flip, True, df, sb, posb, hkb, hidb, g2, seen)
        row = out[i]
        for q in range(k):
            x = seen[q]
            dx = df[x]
            if core[x]:
                if ns == snode.shape[0]:
                    snode = _grow(snode, 2 * ns, np.int32(-1))
                    sdist = _grow(sdist, 2 * ns, INF)
                snode[ns] = cidx[x]
                sdist[ns] = dx
                ns += 1
            elif sf[x] == mark:
                _scan(x, dx, head, bnext, bdist, btgt, row)
        sptr[i + 1] = ns
    return g2 + 2, chead, bnext, bdist[:nb_], btgt[:nb_], sptr, snode[:ns], sdist[:ns]


# -- after edits that only raised costs: A* with the old hierarchy as potential ------------------

@helper
def _potential(v, upg, db, sb, gen, rep, pot, ps, pgen, stack):
    """A consistent lower bound on the old cost from ``v`` to the goal (memoised in ``pot`` under stamp ``pgen``);
    ``-1`` when ``stack`` is too short (what was found stays memoised: grow it and ask again, ``_potential_of``).

    The least, over ``v``'s upward paths below the core, of their cost plus
    what their ends give: a node the backward search settled its cost to
    the goal, a core node ``c`` its bound ``phi(c)``: the exact cost when
    ``core_back`` settled it, else ``max(lower_to_goal(c), limit -
    lower_from_start(c))`` (``rep = (x, xs, limit, dc, state)``). ``phi`` is a
    lower bound on the old cost to the goal and consistent (the landmark
    bounds, the exact costs clipped at ``limit - lower_from_start``: each is,
    and so are their min and max), so this is the exact cost from ``v`` to
    the goal in the old board graph with an arc ``c -> goal`` of cost
    ``phi(c)`` added from every core node ``c``: a lower bound on the old
    cost, and consistent because it is a distance in a graph holding every
    board arc at its old cost.
    """
    first, ucnt, un, uwo, core, cidx = upg.first, upg.count, upg.head, upg.w_out, upg.in_core, upg.core_index
    lm = Landmarks(upg.landmarks, upg.landmark_scale[0], upg.landmark_scale[1])
    x, xs, limit, dc, state = rep
    if ps[v] == pgen:
        return pot[v]
    sp = 0
    stack[0] = v
    sp = 1
    while sp > 0:
        y0 = stack[sp - 1]
        if ps[y0] == pgen:
            sp -= 1
            continue
        if core[y0]:
            r = cidx[y0]
            if state[r] == 2:
                pot[y0] = dc[r]
            else:
                pot[y0] = max(lower_to_goal(r, x, lm), limit - lower_from_start(r, xs, lm))
            ps[y0] = pgen
            sp -= 1
            continue
        fx = first[y0]
        ready = True
        for e in range(fx, fx + ucnt[y0]):
            y = un[e]
            if uwo[e] < INF and ps[y] != pgen:
                ready = False
                if sp == stack.shape[0]:
                    return -1.0
                stack[sp] = y
                sp += 1
        if not ready:
            continue
        best = db[y0] if sb[y0] == gen + 1 else INF
        for e in range(fx, fx + ucnt[y0]):
            we = uwo[e]
            if we < INF:
                c = we + pot[un[e]]
                if c < best:
                    best = c
        pot[y0] = best
        ps[y0] = pgen
        sp -= 1
    return pot[v]


@jit
def _potential_of(v, upg, db, sb, gen, rep, pot, ps, pgen, stack):
    """``_potential``, growing ``stack`` until it is long enough; returns ``(bound, stack)``."""
    h = _potential(v, upg, db, sb, gen, rep, pot, ps, pgen, stack)
    while h < 0.0:
        stack = _grow(stack, 2 * stack.shape[0], np.int64(-1))
        h = _potential(v, upg, db, sb, gen, rep, pot, ps, pgen, stack)
    return h, stack


@jit
def _core_seeds(root, upg, backward, dist, stamp, pos, hk, hid, gen, seen):
    """The upward search from ``root`` stopped at the core; returns the core nodes it reached (first ``k``) and ``k``."""
    seen, k = _upward_all(root, upg, backward, True, dist, stamp, pos, hk, hid, gen, seen)
    core = upg.in_core
    nseed = 0
    for i in range(k):
        if core[seen[i]]:
            seen[nseed] = seen[i]
            nseed += 1
    return seen, nseed


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
def potential_astar(s, t, limit, cell, edge, tb, upg, qs, gen, ps, stack):
    """A* from ``s`` to ``t`` over ``cell``/``edge`` guided by the old hierarchy; returns the padded path (empty: none).

    ``ps``: stamps of the potentials (int64, one a node); ``stack``: room for
    ``_potential``'s walk (int64, grown when short). Exact when no arc
    is cheaper than in the hierarchy's field: the potential is then a
    consistent lower bound.
    """
    off, dxa, dya, stepl, corner, ti = tb
    ndir = ti[0]
    pmode = ti[1]
    crule = ti[2]
    wrap = ti[3]
    width = ti[4]
    pw = ti[5]
    has_edge = edge.shape[0] > 0
    df, db, sf, sb = qs.dist_f, qs.dist_b, qs.stamp_f, qs.stamp_b
    pf, pb, posf, posb = qs.parent_f, qs.parent_b, qs.pos_f, qs.pos_b
    hkf, hidf, hkb, hidb = qs.key_f, qs.id_f, qs.key_b, qs.id_b
    cidx, lm = upg.core_index, Landmarks(upg.landmarks, upg.landmark_scale[0], upg.landmark_scale[1])
    # the start's landmark costs (an upward search on reversed arcs from s), then the goal's
    seeds = np.empty(1024, dtype=np.int64)
    seeds, k = _core_seeds(s, upg, True, df, sf, posf, hkf, hidf, gen, seeds)
    xs = landmark_units(landmark_bounds(seeds, k, df, cidx, lm), lm, True)
    seeds, k = _core_seeds(t, upg, True, db, sb, posb, hkb, hidb, gen, seeds)
    x = landmark_units(landmark_bounds(seeds, k, db, cidx, lm), lm, False)
    nc = upg.core_ids.shape[0]
    cs = (np.empty(nc), np.empty(nc), np.zeros(nc, dtype=np.uint8), np.empty(nc), np.empty(nc, dtype=np.int64),
          np.empty(nc, dtype=np.int64))
    core_back(seeds, k, db, upg, lm, xs, limit, cs)
    rep = (x, xs, limit, cs[0], cs[2])
    pot = hkb  # the backward heap is free once its search is done
    pgen = gen + 3
    g = df
    h0, stack = _potential_of(s, upg, db, sb, gen, rep, pot, ps, pgen, stack)
    if not h0 < INF:
        return np.empty(0, dtype=np.int64)
    g2 = gen + 2
    g[s] = 0.0
    sf[s] = g2
    pf[s] = -1
    nh = _hpush(s, h0, 0, hkf, hidf, posf, True)
    while nh > 0:
        p = hidf[0]
        nh = _hpop(nh, hkf, hidf, posf)
        sf[p] = g2 + 1
        if p == t:
            n = 0
            x = t
            while x >= 0:
                n += 1
                x = pf[x]
            out = np.empty(n, dtype=np.int64)
            x = t
            for i in range(n - 1, -1, -1):
                out[i] = x
                x = pf[x]
            return out
        gp = g[p]
        for d in range(ndir):
            q, w = _board_step(p, d, cell, edge, tb)
            if not w < INF:
                continue
            nd = gp + w
            sq = sf[q]
            if sq == g2 + 1:
                continue
            if sq != g2:
                hq = _potential(q, upg, db, sb, gen, rep, pot, ps, pgen, stack)
                if hq < 0.0:
                    hq, stack = _potential_of(q, upg, db, sb, gen, rep, pot, ps, pgen, stack)
                if not hq < INF:
                    sf[q] = g2 + 1
                    continue
                g[q] = nd
                sf[q] = g2
                pf[q] = p
                nh = _hpush(q, nd + hq, nh, hkf, hidf, posf, True)
            elif nd < g[q]:
                g[q] = nd
                pf[q] = p
                nh = _hpush(q, nd + pot[q], nh, hkf, hidf, posf, False)
    return np.empty(0, dtype=np.int64)


# -- without a hierarchy: Dijkstra until every target is settled --------------------------------

@jit
def dijkstra_targets(s, want, nwant, cell, edge, tb, dist, stamp, pos, hk, hid, gen):
    """Settle from ``s`` until the ``nwant`` cells with ``want[p] == gen`` are settled; ``dist`` valid where ``stamp == gen + 1``."""
    off, dxa, dya, stepl, corner, ti = tb
    ndir = ti[0]
    pmode = ti[1]
    crule = ti[2]
    wrap = ti[3]
    width = ti[4]
    pw = ti[5]
    has_edge = edge.shape[0] > 0
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
