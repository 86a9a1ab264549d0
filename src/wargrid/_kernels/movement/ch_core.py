"""The core of a contraction hierarchy as a compact graph of its own: landmarks, the query's A*, table sweeps, repairs.

The core (the nodes left uncontracted) keeps its arcs twice: in the upward
arrays (where unpacking finds the shortcut middles) and here, renumbered
``0 .. C-1`` in the order of ``cids`` (padded ids along a Hilbert curve,
``prepared.hilbert_index``; ``cidx`` maps back, ``-1`` off the core), as
CSR arrays ``cf`` (offsets, ``C + 1``), ``cnb`` (neighbour), ``cwo`` (node
-> neighbour) and ``cwi`` (neighbour -> node). The searches over the core
touch only core-sized arrays, which stay in the processor's caches where
the board-sized ones do not: a full sweep of the 1200² world's core (50 384
nodes, 983 034 arcs) takes 13 ms against 23 ms over the board-sized arrays,
and 9 ms with buckets (``sweep_buckets``).

The core's distances are the board's (contraction keeps the distances
between the nodes not yet contracted), so the landmarks' costs are core
sweeps (``sweep``), not board Dijkstras.
"""

from __future__ import annotations

import numpy as np

from .._jit import helper, jit
from .ch_records import Landmarks
from .keyheap import _hpop, _hpush, relax_arcs

INF = np.inf

BUCKET_SHRINK = 1e-6
"""Bucket width is the least arc weight times ``1 - BUCKET_SHRINK``: a node's arcs then always lead to a later
bucket, even after the rounding of a float sum (see ``sweep_buckets``)."""


@jit
def core_graph(cids, cidx, first, ucnt, un, uwo, uwi):
    """The compact core ``(cf, cnb, cwo, cwi)`` from the upward arrays (every core node's list holds core nodes only)."""
    c = cids.shape[0]
    cf = np.empty(c + 1, dtype=np.int64)
    cf[0] = 0
    for i in range(c):
        cf[i + 1] = cf[i] + ucnt[cids[i]]
    m = cf[c]
    cnb = np.empty(m, dtype=np.int32)
    cwo = np.empty(m)
    cwi = np.empty(m)
    for i in range(c):
        v = cids[i]
        f = first[v]
        o = cf[i]
        for k in range(ucnt[v]):
            cnb[o + k] = cidx[un[f + k]]
            cwo[o + k] = uwo[f + k]
            cwi[o + k] = uwi[f + k]
    return cf, cnb, cwo, cwi


@jit
def sweep(root, cf, cnb, w, dist, stamp, pos, hk, hid, gen):
    """Dijkstra over the core from core node ``root`` along weights ``w``; settled nodes get ``stamp == gen + 1``."""
    dist[root] = 0.0
    stamp[root] = gen
    nh = _hpush(root, 0.0, 0, hk, hid, pos, True)
    while nh > 0:
        x = hid[0]
        dx = hk[0]
        nh = _hpop(nh, hk, hid, pos)
        stamp[x] = gen + 1
        nh = relax_arcs(cf[x], cf[x + 1], cnb, w, dx, dist, stamp, pos, hk, hid, nh, gen)


# -- landmark bounds -----------------------------------------------------------------------------

@helper
def landmark_cost(lm, r, l):
    """The cost from landmark ``l`` to core node ``r`` (``inf``: none).

    ``lm`` (``ch_records.Landmarks``): ``costs`` holds them as whole
    multiples of ``unit`` (16-bit integers where that is exact and small
    enough, else floats with ``unit == 1``), ``missing`` standing for
    ``inf``: half the bytes a node where the costs allow, one cache line for
    32 landmarks.
    """
    v = lm.costs[r, l]
    if v == lm.missing:
        return INF
    return v * lm.unit


@jit
def landmark_bounds(seeds, k, db, cidx, lm):
    """Per landmark ``l``: ``min`` over the backward seeds ``b`` of ``cost(l, b) + db[b]`` (from ``l`` to the goal)."""
    nl = lm.costs.shape[1]
    x = np.full(nl, INF)
    for i in range(k):
        b = seeds[i]
        r = cidx[b]
        d = db[b]
        for l in range(nl):
            c = landmark_cost(lm, r, l) + d
            if c < x[l]:
                x[l] = c
    return x


UNIT_BIG = float(1 << 40)
"""``landmark_units``' stand-in for ``inf`` with 16-bit landmarks (far above any cost in 16-bit units)."""


@jit
def landmark_units(x, lm, up):
    """The query's landmark costs ``x`` (``landmark_bounds``) in the landmarks' own terms, for ``lower_to_goal``
    (``up`` false) and ``lower_from_start`` (``up`` true).

    With 16-bit landmarks: whole units as int64, rounded down (a cost to
    the goal) or up (a cost from the start), so the bounds stay lower
    bounds and consistent (each landmark's bound moves by a constant);
    ``UNIT_BIG`` for ``inf``. Then the bounds are integer arithmetic without
    branches, which the compiler runs on vector lanes: 64 landmarks in a
    few instructions. With float landmarks: ``x`` itself. Four entries
    follow the ``nl`` costs, in the array's type: the least value, the
    value from which a bound means ``inf``, the code of ``inf`` in the
    landmark table, and the stand-in for ``inf``.

    >>> from wargrid._kernels.movement.ch_records import Landmarks
    >>> lm = Landmarks(np.array([[4, 65535]], dtype=np.uint16), 0.5, 65535.0)
    >>> landmark_units(np.array([7.5, np.inf]), lm, False)[:2].tolist()
    [15, 1099511627776]
    """
    dl = lm.costs
    unit = lm.unit
    packed = lm.missing < INF
    nl = x.shape[0]
    xq = np.full(nl + 4, np.zeros(1, dl.dtype)[0] + np.int64(0))  # int64 for 16-bit landmarks, else float64
    big = UNIT_BIG if packed else INF
    for l in range(nl):
        a = x[l]
        if not a < INF or (packed and a / unit >= UNIT_BIG / 2 and up):
            xq[l] = big  # (a cost from the start too large for the units: the landmark is left out)
            continue
        if packed and a / unit >= UNIT_BIG / 2:
            xq[l] = UNIT_BIG / 2  # a cost to the goal too large for the units: rounded down
            continue
        xq[l] = a / unit  # whole units: truncated, then set to the side that keeps a lower bound
        if up and xq[l] * unit < a:
            xq[l] += 1
        if not up and xq[l] * unit > a:
            xq[l] -= 1
    xq[nl] = -big
    xq[nl + 1] = big - 131072.0 if packed else INF
    xq[nl + 2] = lm.missing
    xq[nl + 3] = big
    return xq


@helper
def lower_to_goal(r, xq, lm):
    """A lower bound on the cost from core node ``r`` to the goal: ``max(0, max_l (x[l] - cost(l, r)))``.

    ``xq``: ``landmark_units(x, lm, False)``. A landmark that does not
    reach ``r`` is left out; one that reaches ``r`` but no goal seed proves
    the goal out of ``r``'s reach (``inf``). Written without branches
    (selects), so 16-bit landmarks run on vector lanes.
    """
    dl = lm.costs
    nl = dl.shape[1]
    neg = xq[nl]
    inv = xq[nl + 2]
    h = neg
    for l in range(nl):
        b = dl[r, l]
        c = xq[l] - b
        h = max(h, c if b != inv else neg)
    if h >= xq[nl + 1]:
        return INF
    return max(h, 0) * lm.unit


@helper
def lower_from_start(r, xq, lm):
    """A lower bound on the cost from the start to core node ``r``: ``max(0, max_l (cost(l, r) - xs[l]))``.

    ``xq``: ``landmark_units(xs, lm, True)`` (``xs[l]``: landmark ``l``'s
    cost to the start). A landmark that does not reach the start is left
    out; one that reaches the start but not ``r`` proves ``r`` out of the
    start's reach (``inf``).
    """
    dl = lm.costs
    nl = dl.shape[1]
    neg = xq[nl]
    inv = xq[nl + 2]
    big = xq[nl + 3]
    h = neg
    for l in range(nl):
        b = dl[r, l]
        a = xq[l]
        c = b - a
        h = max(h, c if b != inv else (big if a != big else neg))
    if h >= xq[nl + 1]:
        return INF
    return max(h, 0) * lm.unit


# -- the query's core phase ----------------------------------------------------------------------

@jit
def core_astar(seedf, kf, seedb, kb, df, db, pf, upg, cq, gen, best, meet):
    """A* over the core from the forward seeds (padded ids, costs ``df``) to the backward ones (costs ``db``).

    ``upg``: the hierarchy (``ch_records.Upward``: its core graph and landmarks); ``cq``: core-sized scratch
    (``ch_records.CoreScratch``). The potential of a
    core node is ``lower_to_goal`` with ``X_l`` the landmark's cost to the
    goal through the backward seeds: never above the node's cost to the goal
    in the query's graph, and consistent (the triangle inequality of the
    landmarks' exact costs), so the first node whose key reaches ``best``
    proves it. When the core improves ``best``, the padded parents ``pf`` of
    the path's core part are rewritten for unpacking. Returns ``(best, meet)``.

    An arc reads one array of its head: ``cost``, ``inf`` for a node not
    reached yet (between queries every entry is ``inf``: the nodes reached
    are listed in ``seen`` and reset at the end), ``-inf`` for one that
    cannot reach the goal. A settled node keeps its cost, which no arc can
    lower (the potential is consistent); ``pos`` is ``-1`` for a node out of
    the heap (settled, or reached with a key past ``best``).
    """
    cidx, cids, cf, cnb, cwo = upg.core_index, upg.core_ids, upg.core_first, upg.core_head, upg.core_w_out
    lm = Landmarks(upg.landmarks, upg.landmark_scale[0], upg.landmark_scale[1])
    par, pos, hk, hid, pot = cq.parent, cq.pos, cq.key, cq.id, cq.potential
    dgoal, gstamp, cost, seen = cq.to_goal, cq.goal_stamp, cq.cost, cq.seen
    x = landmark_units(landmark_bounds(seedb, kb, db, cidx, lm), lm, False)
    for i in range(kb):
        r = cidx[seedb[i]]
        dgoal[r] = db[seedb[i]]
        gstamp[r] = gen
    nf = 0
    ns = 0
    for i in range(kf):
        a = seedf[i]
        r = cidx[a]
        h = lower_to_goal(r, x, lm)
        if not h < INF or not df[a] + h < best:
            continue
        seen[ns] = r
        ns += 1
        pot[r] = h
        cost[r] = df[a]
        par[r] = -1
        nf = _hpush(r, df[a] + h, nf, hk, hid, pos, True)
    hit = -1
    while nf > 0:
        v = hid[0]
        if hk[0] >= best:
            break
        nf = _hpop(nf, hk, hid, pos)
        pos[v] = -1
        dv = cost[v]
        if gstamp[v] == gen and dv + dgoal[v] < best:
            best = dv + dgoal[v]
            hit = v
        for e in range(cf[v], cf[v + 1]):
            y = cnb[e]
            nd = dv + cwo[e]
            cy = cost[y]
            if not nd < cy:
                continue  # settled, reached as cheaply, out of the goal's reach, or no arc (inf)
            if cy == INF:
                seen[ns] = y
                ns += 1
                h = lower_to_goal(y, x, lm)
                if not h < INF:
                    cost[y] = -INF
                    continue
                pot[y] = h
                pos[y] = -1
            cost[y] = nd
            par[y] = v
            if nd + pot[y] < best:
                nf = _hpush(y, nd + pot[y], nf, hk, hid, pos, pos[y] < 0)
    for i in range(ns):
        cost[seen[i]] = INF
    for i in range(nf):
        pos[hid[i]] = -1
    if hit < 0:
        return best, meet
    r = hit
    while par[r] >= 0:
        pf[cids[r]] = cids[par[r]]
        r = par[r]
    return best, cids[hit]


# -- tables: sweeps over the core from each source's core entries, reading the targets' buckets ---

@helper
def _scan(x, dx, head, bnext, bdist, btgt, row):
    e = head[x]
    while e >= 0:
        c = dx + bdist[e]
        if c < row[btgt[e]]:
            row[btgt[e]] = c
        e = bnext[e]


@helper
def _row_max(row):
    worst = 0.0
    for j in range(row.shape[0]):
        if row[j] > worst:
            worst = row[j]
    return worst


@jit
def sweep_heap(seeds, sdist, cf, cnb, w, head, bnext, bdist, btgt, row, cs, gen):
    """One source's core sweep (Dijkstra from its core entries ``seeds`` at costs ``sdist``) into ``row``.

    Every settled node's bucket (the list ``head[x]``, ``bnext`` of entries
    ``(bdist, btgt)``: the node's cost to target ``btgt``) lowers ``row``; the sweep stops once its least key reaches every entry of
    ``row``. ``cs = (dist, stamp, pos, hk, hid)``, core-sized.
    """
    dist, stamp, pos, hk, hid = cs[0], cs[1], cs[2], cs[3], cs[4]
    nh = 0
    for i in range(seeds.shape[0]):
        r = seeds[i]
        d = sdist[i]
        if stamp[r] != gen:
            dist[r] = d
            stamp[r] = gen
            nh = _hpush(r, d, nh, hk, hid, pos, True)
        elif d < dist[r]:
            dist[r] = d
            nh = _hpush(r, d, nh, hk, hid, pos, False)
    worst = INF  # an upper bound on max(row): entries only go down
    while nh > 0:
        x = hid[0]
        dx = hk[0]
        if dx >= worst:
            worst = _row_max(row)
            if dx >= worst:
                break
        nh = _hpop(nh, hk, hid, pos)
        stamp[x] = gen + 1
        _scan(x, dx, head, bnext, bdist, btgt, row)
        nh = relax_arcs(cf[x], cf[x + 1], cnb, w, dx, dist, stamp, pos, hk, hid, nh, gen)


@jit
def sweep_buckets(seeds, sdist, cf, cnb, w, width, head, bnext, bdist, btgt, row, cs, gen):
    """``sweep_heap`` with a bucket queue (Dial's): buckets of ``width`` no more than the least arc weight.

    A node in bucket ``b`` costs at least ``b * width`` and each of its arcs
    more than ``width``, so what it reaches lands in a later bucket: a
    bucket's nodes are final when it is reached, in any order (``width`` is
    ``BUCKET_SHRINK`` below the least weight so a rounded sum cannot fall
    back into the bucket). The buckets are a ring longer than the largest
    weight and the seeds' spread over ``width`` (``sweep_rows`` checks),
    so each slot holds one bucket; entries are lazy (a node whose cost went
    down leaves its old entry, skipped once it is settled: ``stamp`` is
    ``gen + 1`` then). An arc reads only its head's cost (``dist``, all
    ``inf`` when the sweep starts): a settled head costs less than the
    arc's tail plus the arc, so it is never lowered again, and a second
    array read an arc (a stamp) took 40 % of the sweep's time. ``cs``:
    ``sweep_heap``'s then ``(ring, enode, enext)``: ``ring`` the bucket heads,
    ``enode``/``enext`` the entries: room for the seeds and one entry an arc
    (an arc is relaxed once, when its tail is settled).
    """
    dist, stamp, ring, enode, enext = cs[0], cs[1], cs[5], cs[6], cs[7]
    nr = ring.shape[0]
    for i in range(nr):
        ring[i] = -1
    for i in range(dist.shape[0]):
        dist[i] = INF  # an arc then reads one array: a settled node's cost is below any new one it could get
    inv = 1.0 / width
    ne = 0
    live = 0
    cur = -1
    for i in range(seeds.shape[0]):
        r = seeds[i]
        d = sdist[i]
        if not d < dist[r]:
            continue
        dist[r] = d
        b = np.int64(d * inv)
        if cur < 0 or b < cur:
            cur = b
        enode[ne] = r
        enext[ne] = ring[b % nr]
        ring[b % nr] = ne
        ne += 1
        live += 1
    worst = INF
    while live > 0:
        slot = cur % nr
        e = ring[slot]
        if e < 0:
            cur += 1
            if cur * width >= worst:
                worst = _row_max(row)
                if cur * width >= worst:
                    break
            continue
        ring[slot] = enext[e]
        live -= 1
        x = enode[e]
        if stamp[x] == gen + 1:
            continue
        stamp[x] = gen + 1
        dx = dist[x]
        _scan(x, dx, head, bnext, bdist, btgt, row)
        for a in range(cf[x], cf[x + 1]):
            we = w[a]
            if not we < INF:
                continue
            y = cnb[a]
            nd = dx + we
            if nd < dist[y]:
                dist[y] = nd
                b = np.int64(nd * inv)
                enode[ne] = y
                enext[ne] = ring[b % nr]
                ring[b % nr] = ne
                ne += 1
                live += 1


@jit
def sweep_rows(rows, sptr, snode, sdist, cf, cnb, w, width, head, bnext, bdist, btgt, out, cs, gen0):
    """``sweep_buckets`` (when ``width > 0`` and the ring is long enough) or ``sweep_heap`` for each source of ``rows``.

    ``snode[sptr[i]:sptr[i + 1]]``: source ``i``'s core entries, costs
    ``sdist``; its sweep lowers ``out[i]``. Returns the last stamp used.
    """
    nr = cs[5].shape[0]
    gen = gen0
    for k in range(rows.shape[0]):
        i = rows[k]
        gen += 2
        a = sptr[i]
        b = sptr[i + 1]
        if a == b:
            continue
        ring = width > 0.0
        if ring:
            lo = INF
            hi = 0.0
            for j in range(a, b):
                lo = min(lo, sdist[j])
                hi = max(hi, sdist[j])
            ring = (hi - lo) / width + 2.0 < nr
        if ring:
            sweep_buckets(snode[a:b], sdist[a:b], cf, cnb, w, width, head, bnext, bdist, btgt, out[i], cs, gen)
        else:
            sweep_heap(snode[a:b], sdist[a:b], cf, cnb, w, head, bnext, bdist, btgt, out[i], cs, gen)
    return gen


# -- repairs after raising edits -------------------------------------------------------------------

@jit
def core_back(seeds, k, db, upg, lm, xs, limit, cs):
    """Costs to the goal of the core nodes near the old path: A* over the core from the goal's seeds toward the start.

    Backward over the core arcs, from the backward seeds (padded ids, their
    costs ``db``), with ``lower_from_start`` as the (consistent) potential,
    stopped when the least key reaches ``limit``: every core node ``c`` with
    ``d(c, goal) + lower_from_start(c) < limit`` is then settled (``state ==
    2``) with its exact cost ``dc``, and every other one costs at least
    ``limit - lower_from_start(c)``. ``upg``: the hierarchy, ``lm`` its landmarks;
    ``cs = (dc, hc, state, hk, hid, pos)``: core-sized, ``state`` zero on entry.
    """
    cidx, cf, cnb, cwi = upg.core_index, upg.core_first, upg.core_head, upg.core_w_in
    dc, hc, state, hk, hid, pos = cs
    nh = 0
    for i in range(k):
        r = cidx[seeds[i]]
        h = lower_from_start(r, xs, lm)
        if not h < INF:
            continue
        hc[r] = h
        dc[r] = db[seeds[i]]
        state[r] = 1
        nh = _hpush(r, dc[r] + h, nh, hk, hid, pos, True)
    while nh > 0 and hk[0] < limit:
        r = hid[0]
        nh = _hpop(nh, hk, hid, pos)
        state[r] = 2
        dr = dc[r]
        for e in range(cf[r], cf[r + 1]):
            we = cwi[e]
            if not we < INF:
                continue
            q = cnb[e]
            sq = state[q]
            if sq >= 2:
                continue
            nd = dr + we
            if sq == 0:
                h = lower_from_start(q, xs, lm)
                if not h < INF:
                    state[q] = 3  # the start does not reach it
                    continue
                hc[q] = h
                dc[q] = nd
                state[q] = 1
                nh = _hpush(q, nd + h, nh, hk, hid, pos, True)
            elif nd < dc[q]:
                dc[q] = nd
                nh = _hpush(q, nd + hc[q], nh, hk, hid, pos, False)
