"""Rebalancing and boundary refinement of a partition: moving border cells between players
without cutting a territory in pieces.
"""

from __future__ import annotations

import numpy as np

from .._jit import helper, jit


@helper
def _keeps_pieces(nbr, owner, c, stamp, gen, queue, limit=-1):
    """Whether taking ``c`` out of its owner's land leaves its same-owner neighbours
    in one piece (so the owner's number of pieces does not grow). With
    ``limit >= 0`` the search gives up (answering no) after ``limit`` cells."""
    ndir = nbr.shape[1]
    x = owner[c]
    first = -1
    need = 0
    for d in range(ndir):
        j = nbr[c, d]
        if j >= 0 and owner[j] == x:
            if stamp[j] != gen - 1:
                stamp[j] = gen - 1  # mark as a target
                need += 1
                if first < 0:
                    first = j
    if need <= 1:
        for d in range(ndir):
            j = nbr[c, d]
            if j >= 0:
                stamp[j] = 0
        return True
    owner[c] = -2
    found = 1
    stamp[first] = gen
    queue[0] = first
    head = 0
    tail = 1
    while head < tail and found < need:
        if limit >= 0 and tail > limit:
            break
        v = queue[head]
        head += 1
        for d in range(ndir):
            j = nbr[v, d]
            if j >= 0 and owner[j] == x and stamp[j] != gen:
                if stamp[j] == gen - 1:
                    found += 1
                stamp[j] = gen
                queue[tail] = j
                tail += 1
    owner[c] = x
    # clear target marks left behind (stamps below gen - 1 never collide later)
    for d in range(ndir):
        j = nbr[c, d]
        if j >= 0 and stamp[j] == gen - 1:
            stamp[j] = 0
    return found >= need


@helper
def _spread_after(W, a, b, wc):
    """max - min of ``W`` after moving weight ``wc`` from player ``a`` to ``b``."""
    lo = np.inf
    hi = -np.inf
    for k in range(W.size):
        v = W[k]
        if k == a:
            v -= wc
        if k == b:
            v += wc
        lo = min(lo, v)
        hi = max(hi, v)
    return hi - lo


@helper
def _spread(W):
    """``W.max() - W.min()``, written out: array methods need reference counting, which a helper has not."""
    lo = W[0]
    hi = W[0]
    for i in range(1, W.size):
        v = W[i]
        if v < lo:
            lo = v
        elif v > hi:
            hi = v
    return hi - lo


@helper
def _move(nbr, owner, W, w, adj, c, b):
    """Give cell ``c`` to player ``b``, keeping weights and ``adj`` (see
    ``player_adjacency``) up to date."""
    ndir = nbr.shape[1]
    a = owner[c]
    P = W.size
    adj[a, P] -= 1
    adj[b, P] += 1
    for d in range(ndir):
        j = nbr[c, d]
        if j >= 0 and owner[j] >= 0:
            z = owner[j]
            adj[a, z] -= 1
            adj[z, a] -= 1
            adj[b, z] += 1
            adj[z, b] += 1
    owner[c] = b
    W[a] -= w[c]
    W[b] += w[c]


@jit
def player_adjacency(nbr, owner, P):
    """``adj[a, b]``: number of directed steps from land of ``a`` to land of ``b``;
    ``adj[a, P]``: number of cells of ``a``."""
    n, ndir = nbr.shape
    adj = np.zeros((P, P + 1), np.int64)
    for i in range(n):
        a = owner[i]
        if a < 0:
            continue
        adj[a, P] += 1
        for d in range(ndir):
            j = nbr[i, d]
            if j >= 0 and owner[j] >= 0:
                adj[a, owner[j]] += 1
    return adj


@jit
def _border(nbr, owner, w, a, b, limit, pinned, adj):
    """Cells of ``a`` touching land of ``b`` (weight <= ``limit``, not pinned), most
    ``b``-neighbours and fewest ``a``-neighbours first; none when ``a`` has one cell left."""
    n, ndir = nbr.shape
    cand = np.empty(n, np.int64)
    score = np.empty(n, np.int64)
    m = 0
    if adj[a, adj.shape[0]] <= 1:
        return cand[:0]
    for i in range(n):
        if owner[i] != a or w[i] > limit or pinned[i]:
            continue
        nb = 0
        na = 0
        for d in range(ndir):
            j = nbr[i, d]
            if j >= 0:
                if owner[j] == b:
                    nb += 1
                elif owner[j] == a:
                    na += 1
        if nb > 0:
            cand[m] = i
            score[m] = nb * 16 - na
            m += 1
    order = np.argsort(-score[:m], kind="mergesort")
    return cand[order]


@jit
def _best_cell(nbr, owner, w, a, b, limit, stamp, gen, queue, connected_only, pinned, adj):
    """The first border cell of ``a`` toward ``b`` (see ``_border``) whose loss keeps
    ``a`` in as many pieces (any, unless ``connected_only``); ``-1`` if none."""
    for c in _border(nbr, owner, w, a, b, limit, pinned, adj):
        if not connected_only:
            return c
        gen[0] += 2
        if _keeps_pieces(nbr, owner, c, stamp, gen[0], queue):
            return c
    return -1


@jit
def _move_layer(nbr, owner, W, w, adj, a, b, amount, stamp, gen, queue, pinned, log, nlog):
    """Move border cells of ``a`` that touch ``b`` to ``b``, best first, each keeping
    ``a`` in as many pieces, while the moved weight stays within ``amount`` (at
    least one cell of weight <= ``amount``). Logs moved cells; returns the weight."""
    ndir = nbr.shape[1]
    moved = 0.0
    for c in _border(nbr, owner, w, a, b, amount, pinned, adj):
        if owner[c] != a or moved + w[c] > amount:
            continue
        touch = False
        for d in range(ndir):
            j = nbr[c, d]
            if j >= 0 and owner[j] == b:
                touch = True
                break
        if not touch:
            continue
        gen[0] += 2
        if _keeps_pieces(nbr, owner, c, stamp, gen[0], queue):
            _move(nbr, owner, W, w, adj, c, b)
            log[nlog[0]] = c
            nlog[0] += 1
            moved += w[c]
    return moved


@jit
def rebalance(nbr, w, owner, W, tol, max_moves, pinned, direct=True):
    """Move cells between players until ``max(W) - min(W) <= tol``.

    Tries, in order: a chain of neighbouring players from the heaviest to the
    lightest, each link moving a layer of border cells (about half the gap's
    weight, then a single cell) that keep the donor in as many pieces; then a
    move from the heaviest to the lightest that may start a new piece (unless
    ``direct`` is false: then it stops there). A step is kept only when it lowers
    ``sum(W**2)``, so the loop ends. Returns the number of cells moved.
    """
    n, ndir = nbr.shape
    P = W.size
    adj = player_adjacency(nbr, owner, P)
    stamp = np.zeros(n, np.int64)
    gen = np.full(1, 2, np.int64)
    queue = np.empty(n, np.int64)
    prev = np.empty(P, np.int64)
    pq = np.empty(P, np.int64)
    blocked = np.zeros((P, P), np.bool_)
    moved = 0
    chain = np.empty(P + 1, np.int64)
    log = np.empty(n, np.int64)
    logfrom = np.empty(n, np.int64)
    nlog = np.zeros(1, np.int64)
    wmin = np.inf
    for i in range(n):
        if w[i] < wmin:
            wmin = w[i]
    while moved < max_moves:
        hi = np.int64(0)  # (int64 from the start: literal zeros typed ``_best_cell`` and ``_border`` once more)
        lo = np.int64(0)
        for k in range(P):
            if W[k] > W[hi]:
                hi = k
            if W[k] < W[lo]:
                lo = k
        gap = W[hi] - W[lo]
        if gap <= tol:
            return moved
        pot0 = 0.0
        for k in range(P):
            pot0 += W[k] * W[k]
        # shortest chain hi -> lo over neighbouring players; a link with no
        # movable cell is blocked and the next shortest chain is tried
        blocked[:, :] = False
        done = False
        for _attempt in range(P * P):
            prev[:] = -2
            prev[hi] = -1
            pq[0] = hi
            h = 0
            t = 1
            while h < t and prev[lo] == -2:
                a = pq[h]
                h += 1
                for b in range(P):
                    if prev[b] == -2 and adj[a, b] > 0 and a != b and not blocked[a, b]:
                        prev[b] = a
                        pq[t] = b
                        t += 1
            if prev[lo] == -2:
                break
            m = 0
            v = lo
            while v != -1:
                chain[m] = v
                m += 1
                v = prev[v]
            # chain[m-1] = hi ... chain[0] = lo
            fa = -1
            fb = -1
            for big in (True, False):
                nlog[0] = 0
                amount = gap / 2.0 if big else min(gap, max(wmin, 0.0))
                if not big and amount <= 0.0:
                    amount = gap
                ok = True
                for s in range(m - 1, 0, -1):
                    a = chain[s]
                    b = chain[s - 1]
                    first = nlog[0]
                    got = _move_layer(nbr, owner, W, w, adj, a, b, amount, stamp, gen, queue, pinned, log, nlog)
                    for u in range(first, nlog[0]):
                        logfrom[u] = a
                    if nlog[0] == first:
                        ok = False
                        fa = a
                        fb = b
                        break
                    if got > 0.0:
                        amount = got
                if ok:
                    pot1 = 0.0
                    for k in range(P):
                        pot1 += W[k] * W[k]
                    if pot1 < pot0 - 1e-12 * (1.0 + pot0):
                        moved += nlog[0]
                        done = True
                        break
                for u in range(nlog[0] - 1, -1, -1):
                    _move(nbr, owner, W, w, adj, log[u], logfrom[u])
            if done or fa < 0:
                break
            blocked[fa, fb] = True
        if done:
            continue
        if not direct:
            return moved
        # direct move from the heaviest to the lightest: prefer a cell next to
        # the lightest's land, else a cell whose loss keeps the heaviest whole
        c = _best_cell(nbr, owner, w, hi, lo, gap, stamp, gen, queue, True, pinned, adj)
        if c < 0:
            c = _best_cell(nbr, owner, w, hi, lo, gap, stamp, gen, queue, False, pinned, adj)
        if c < 0 and adj[hi, P] > 1:
            best = -1
            bs = -1.0
            for i in range(n):
                if owner[i] != hi or w[i] > gap or pinned[i]:
                    continue
                gen[0] += 2
                if _keeps_pieces(nbr, owner, i, stamp, gen[0], queue):
                    c = i
                    break
                if best < 0 or w[i] > bs:
                    best = i
                    bs = w[i]
            if c < 0:
                c = best
        if c < 0:
            return moved
        _move(nbr, owner, W, w, adj, c, lo)
        moved += 1
    return moved


@jit
def refine(nbr, w, owner, W, tol, passes, pinned):
    """Boundary refinement: move or swap border cells to a neighbouring player
    when that cuts fewer sides between players, keeping the balance within
    ``tol`` and no player split into more pieces. Returns the sides saved."""
    n, ndir = nbr.shape
    P = W.size
    adj = player_adjacency(nbr, owner, P)
    stamp = np.zeros(n, np.int64)
    gen = np.full(1, 2, np.int64)
    queue = np.empty(n, np.int64)
    cnt = np.zeros(P, np.int64)
    candc = np.empty(n * ndir, np.int64)
    candb = np.empty(n * ndir, np.int64)
    saved = 0
    for _ in range(passes):
        improved = 0
        m = 0
        for c in range(n):
            a = owner[c]
            if a < 0 or pinned[c]:
                continue
            for d in range(ndir):
                j = nbr[c, d]
                if j >= 0 and owner[j] >= 0:
                    cnt[owner[j]] += 1
            for d in range(ndir):
                j = nbr[c, d]
                if j < 0 or owner[j] < 0:
                    continue
                b = owner[j]
                if b == a or cnt[b] < 0:
                    continue
                gain = cnt[b] - cnt[a]
                cnt[b] = -cnt[b] - 1  # seen
                if gain < 0:
                    continue
                if gain > 0 and adj[a, P] > 1 and _spread_after(W, a, b, w[c]) <= tol:
                    gen[0] += 2
                    if _keeps_pieces(nbr, owner, c, stamp, gen[0], queue, 256):
                        _move(nbr, owner, W, w, adj, c, b)
                        improved += gain
                        break
                candc[m] = c
                candb[m] = b
                m += 1
            for d in range(ndir):
                j = nbr[c, d]
                if j >= 0 and owner[j] >= 0:
                    cnt[owner[j]] = 0
            cnt[a] = 0
        # swaps: c (a -> b) with e (b -> a); candidates grouped by (a, b)
        keys = np.empty(m, np.int64)
        for s in range(m):
            keys[s] = owner[candc[s]] * P + candb[s]
        byk = np.argsort(keys, kind="mergesort")
        sk = keys[byk]
        for s in range(m):
            c = candc[s]
            b = candb[s]
            a = owner[c]
            if a == b:
                continue
            g1 = 0
            for d in range(ndir):
                j = nbr[c, d]
                if j >= 0:
                    if owner[j] == b:
                        g1 += 1
                    elif owner[j] == a:
                        g1 -= 1
            if g1 <= 0:
                continue
            lo = np.searchsorted(sk, b * P + a)
            hi = np.searchsorted(sk, b * P + a, side="right")
            for v in range(lo, hi):
                u = byk[v]
                e = candc[u]
                if candb[u] != a or owner[e] != b:
                    continue
                g2 = 0
                touch = 0
                for d in range(ndir):
                    j = nbr[e, d]
                    if j >= 0:
                        if j == c:
                            touch += 1
                        if owner[j] == a:
                            g2 += 1
                        elif owner[j] == b:
                            g2 -= 1
                if g1 + g2 - 2 * touch <= 0:
                    continue
                # weights after the swap
                W[a] += w[e] - w[c]
                W[b] += w[c] - w[e]
                okb = _spread(W) <= tol
                W[a] -= w[e] - w[c]
                W[b] -= w[c] - w[e]
                if not okb:
                    continue
                gen[0] += 2
                if not _keeps_pieces(nbr, owner, c, stamp, gen[0], queue, 256):
                    break
                _move(nbr, owner, W, w, adj, c, b)
                gen[0] += 2
                if _keeps_pieces(nbr, owner, e, stamp, gen[0], queue, 256):
                    _move(nbr, owner, W, w, adj, e, a)
                    improved += g1 + g2 - 2 * touch
                    break
                _move(nbr, owner, W, w, adj, c, a)
        saved += improved
        if improved == 0:
            break
    return saved
