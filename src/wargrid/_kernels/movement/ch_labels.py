"""Hub labels over the compact core: every core distance from two short lists.

Pruned landmark labelling (Akiba, Iwata and Yoshida, 2013), directed: the
core nodes are taken one by one in ``order`` (most important first); node
``v`` (rank ``k``) runs a Dijkstra forward and one backward over the core,
and every node ``u`` they settle whose distance the labels so far cannot
already prove gets ``(k, d)``: in its *in* label (``d = d(v, u)``) going
forward, in its *out* label (``d = d(u, v)``) going backward; a node whose
distance they prove is not expanded. Then for any two core nodes ``a`` and
``b``, ``d(a, b) = min`` over the ranks ``h`` in both ``out(a)`` and
``in(b)`` of ``out(a)[h] + in(b)[h]``.

Each entry also keeps its search's parent: in ``out(u)`` the next node
from ``u`` toward the hub, in ``in(u)`` the node before ``u`` coming from
it (the hub's own entry names the hub), so a path is read back entry by entry.

Labels are CSR arrays per side ``(lf, hub, dist, par)``, the hubs of a node
in increasing rank (a path step finds its hub by bisection). Stored, an
entry takes 5 bytes where the board allows (``movement.prepared``): the
rank in 16 bits, the cost as a 16-bit multiple of a unit, the parent as
its slot among the node's core arcs (``parent_slots``) in 8 bits. The query
(``label_query``) replaces the core's A*: the forward seeds' out-labels fill
one core-sized array, the backward seeds' in-labels are checked against it.
"""

from __future__ import annotations

import numpy as np

from .._jit import helper, jit
from .keyheap import _hpop, _hpush, relax_arcs

INF = np.inf


@jit
def tree_sizes(roots, cf, cnb, w, score):
    """Add to ``score`` each core node's subtree size in the shortest-path tree from each root (weights ``w``).

    Nodes on many shortest paths head big subtrees: labelling them first
    keeps the labels short (a sampled betweenness).
    """
    c = cf.shape[0] - 1
    dist = np.empty(c)
    stamp = np.zeros(c, dtype=np.int64)
    par = np.empty(c, dtype=np.int64)
    pos = np.empty(c, dtype=np.int32)
    hk = np.empty(c)
    hid = np.empty(c, dtype=np.int32)
    seen = np.empty(c, dtype=np.int64)
    size = np.empty(c)
    gen = 0
    for i in range(roots.shape[0]):
        gen += 2
        root = roots[i]
        dist[root] = 0.0
        stamp[root] = gen
        par[root] = -1
        nh = _hpush(root, 0.0, 0, hk, hid, pos, True)
        ns = 0
        while nh > 0:
            x = hid[0]
            dx = hk[0]
            nh = _hpop(nh, hk, hid, pos)
            stamp[x] = gen + 1
            seen[ns] = x
            ns += 1
            size[x] = 1.0
            nh = relax_arcs(cf[x], cf[x + 1], cnb, w, dx, dist, stamp, pos, hk, hid, nh, gen, x, par)
        for j in range(ns - 1, 0, -1):
            x = seen[j]
            size[par[x]] += size[x]
        for j in range(ns):
            score[seen[j]] += size[seen[j]]


@jit
def _add_entry(u, h, d, p, lab, top):
    """Append ``(h, d, p)`` to node ``u``'s list in the pool ``lab = (start, cnt, cap, hub, dist, par)``
    (a full list moves to the end with twice the room); returns ``(lab, top)``."""
    start, cnt, cap, hub, dist, par = lab
    if cnt[u] == cap[u]:
        room = max(8, 2 * cap[u])
        if top + room > hub.shape[0]:
            m = max(2 * hub.shape[0], top + room)
            h2 = np.empty(m, dtype=np.int32)
            d2 = np.empty(m)
            p2 = np.empty(m, dtype=np.int32)
            h2[:top] = hub[:top]
            d2[:top] = dist[:top]
            p2[:top] = par[:top]
            hub, dist, par = h2, d2, p2
        s = start[u]
        for i in range(cnt[u]):
            hub[top + i] = hub[s + i]
            dist[top + i] = dist[s + i]
            par[top + i] = par[s + i]
        start[u] = top
        cap[u] = room
        top += room
    j = start[u] + cnt[u]
    hub[j] = h
    dist[j] = d
    par[j] = p
    cnt[u] += 1
    return (start, cnt, cap, hub, dist, par), top


@jit
def _compact(lab):
    """The pool's lists as CSR arrays ``(lf, hub, dist, par)``."""
    start, cnt, cap, hub, dist, par = lab
    c = start.shape[0]
    lf = np.empty(c + 1, dtype=np.int64)
    lf[0] = 0
    for u in range(c):
        lf[u + 1] = lf[u] + cnt[u]
    m = lf[c]
    h2 = np.empty(m, dtype=np.int32)
    d2 = np.empty(m)
    p2 = np.empty(m, dtype=np.int32)
    for u in range(c):
        s = start[u]
        o = lf[u]
        for i in range(cnt[u]):
            h2[o + i] = hub[s + i]
            d2[o + i] = dist[s + i]
            p2[o + i] = par[s + i]
    return lf, h2, d2, p2


@jit
def _new_pool(c):
    m = max(16, 16 * c)
    return (np.zeros(c, dtype=np.int64), np.zeros(c, dtype=np.int64), np.zeros(c, dtype=np.int64),
            np.empty(m, dtype=np.int32), np.empty(m), np.empty(m, dtype=np.int32))


@jit
def core_labels(order, cf, cnb, cwo, cwi, cap_entries):
    """Pruned landmark labels of the core in ``order``; ``(ok, out, in)`` with ``out``/``in`` as ``(lf, hub, dist, par)``.

    ``ok`` is false (and the labels unfinished) as soon as the entries
    would pass ``cap_entries``.
    """
    c = cf.shape[0] - 1
    rank = np.empty(c, dtype=np.int64)
    for i in range(c):
        rank[order[i]] = i
    lout = _new_pool(c)
    lin = _new_pool(c)
    tout = 0
    tin = 0
    entries = 0
    tmp = np.full(c, INF)
    dist = np.empty(c)
    stamp = np.zeros(c, dtype=np.int64)
    par = np.empty(c, dtype=np.int64)
    pos = np.empty(c, dtype=np.int32)
    hk = np.empty(c)
    hid = np.empty(c, dtype=np.int32)
    gen = 0
    for k in range(c):
        v = order[k]
        for side in range(2):
            # side 0 (forward from v): in-labels get d(v, u), checked against out(v) x in(u);
            # side 1 (backward to v): out-labels get d(u, v), checked against out(u) x in(v)
            mine = lout if side == 0 else lin
            other = lin if side == 0 else lout
            s0 = mine[0][v]
            for i in range(s0, s0 + mine[1][v]):
                tmp[mine[3][i]] = mine[4][i]
            w = cwo if side == 0 else cwi
            gen += 2
            dist[v] = 0.0
            stamp[v] = gen
            par[v] = v
            nh = _hpush(v, 0.0, 0, hk, hid, pos, True)
            while nh > 0:
                x = hid[0]
                dx = hk[0]
                nh = _hpop(nh, hk, hid, pos)
                stamp[x] = gen + 1
                if rank[x] < k:
                    continue  # a hub labelled before covers every path through x
                proved = INF
                sx = other[0][x]
                for i in range(sx, sx + other[1][x]):
                    q = tmp[other[3][i]] + other[4][i]
                    if q < proved:
                        proved = q
                if proved <= dx:
                    continue
                if side == 0:
                    lin, tin = _add_entry(x, k, dx, par[x], lin, tin)
                    other = lin
                else:
                    lout, tout = _add_entry(x, k, dx, par[x], lout, tout)
                    other = lout
                entries += 1
                if entries > cap_entries:
                    return False, _compact(lout), _compact(lin)
                nh = relax_arcs(cf[x], cf[x + 1], cnb, w, dx, dist, stamp, pos, hk, hid, nh, gen, x, par)
            mine = lout if side == 0 else lin
            s0 = mine[0][v]
            for i in range(s0, s0 + mine[1][v]):
                tmp[mine[3][i]] = INF
    return True, _compact(lout), _compact(lin)


@helper
def _hub_at(hub, lo, hi, h):
    """Position of rank ``h`` among ``hub[lo:hi]`` (ascending; it is there)."""
    while hi - lo > 1:
        mid = (lo + hi) >> 1
        if hub[mid] <= h:
            lo = mid
        else:
            hi = mid
    return lo


@jit
def parent_slots(lf, par, cf, cnb, slots, self_slot):
    """``slots[j]``: where entry ``j``'s parent stands among its node's core arcs (``self_slot``: the hub itself).

    Returns how many parents were not among the arcs (none: the core's lists
    hold every neighbour both ways; the caller drops the labels otherwise).
    """
    missing = 0
    for x in range(lf.shape[0] - 1):
        for j in range(lf[x], lf[x + 1]):
            y = par[j]
            slots[j] = self_slot
            if y == x:
                continue
            found = False
            for k in range(cf[x + 1] - cf[x]):
                if cnb[cf[x] + k] == y:
                    slots[j] = k
                    found = True
                    break
            if not found:
                missing += 1
    return missing


@helper
def _to_hub(x, hb, lf, hub, slot, cf, cnb, self_slot, pf, cids, inward):
    """Follow core node ``x``'s label entries for rank ``hb`` to the hub, writing padded parents: an in-label path
    runs from the hub to ``x`` (``pf[x] = parent``), an out-label path from ``x`` to the hub (``pf[next] = x``)."""
    while True:
        k = slot[_hub_at(hub, lf[x], lf[x + 1], hb)]
        if k == self_slot:
            return
        y = cnb[cf[x] + k]
        if inward:
            pf[cids[x]] = cids[y]
        else:
            pf[cids[y]] = cids[x]
        x = y


@jit
def label_query(seedf, kf, seedb, kb, df, db, pf, upg, cq, gen, best, meet):
    """The core part of a query by labels: ``(best, meet)`` as ``ch_core.core_astar`` returns them.

    ``upg``: the hierarchy (``ch_records.Upward``: its labels, costs
    ``dist * label_scale[0]``, ``label_scale[1]`` the hub's own slot, and
    its core graph); ``cq``: the core scratch (``CoreScratch``: ``to_hub``,
    ``stamp`` and ``parent``, the seed that reached each hub). When the labels improve ``best``, ``pf`` of the core path is
    rewritten and the meeting node is the backward seed where it ends.
    """
    of, ohub, odist, oslot = upg.out_first, upg.out_hub, upg.out_dist, upg.out_slot
    if_, ihub, idist, islot = upg.in_first, upg.in_hub, upg.in_dist, upg.in_slot
    cids, cidx, cf, cnb = upg.core_ids, upg.core_index, upg.core_first, upg.core_head
    unit = upg.label_scale[0]
    self_slot = upg.label_scale[1]
    tf, stamp, who = cq.to_hub, cq.stamp, cq.parent
    for i in range(kf):
        a = seedf[i]
        r = cidx[a]
        da = df[a]
        if not da < best:
            continue
        for j in range(of[r], of[r + 1]):
            h = ohub[j]
            v = da + odist[j] * unit
            if stamp[h] != gen or v < tf[h]:
                tf[h] = v
                stamp[h] = gen
                who[h] = r
    hb = -1
    rb = -1
    for i in range(kb):
        b = seedb[i]
        r = cidx[b]
        d = db[b]
        if not d < best:
            continue
        for j in range(if_[r], if_[r + 1]):
            h = ihub[j]
            if stamp[h] == gen:
                v = tf[h] + idist[j] * unit + d
                if v < best:
                    best = v
                    hb = h
                    rb = r
    if hb < 0:
        return best, meet
    # the core path, written as padded parents: back from rb along in-labels to the hub, then from
    # the forward seed along out-labels to the hub. Written in that order, with the seed's own parent
    # (phase 1's) kept, the chain from rb is simple even when zero-cost loops let the two halves share
    # nodes: it leaves the in-half at the first shared node for the out-half's simple path.
    a = who[hb]
    keep = pf[cids[a]]
    _to_hub(rb, hb, if_, ihub, islot, cf, cnb, self_slot, pf, cids, True)
    _to_hub(a, hb, of, ohub, oslot, cf, cnb, self_slot, pf, cids, False)
    pf[cids[a]] = keep
    return best, cids[rb]
