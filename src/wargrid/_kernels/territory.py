"""Territory kernels: balanced growth, rebalancing, boundary refinement, chunk caps.

Every kernel works on the *land graph* built by ``build_graph`` from the
board's padded layout: node ``i`` is the ``i``-th passable cell in id order,
``nbr[i, d]`` the node one step in topology direction ``d`` (``-1`` for none).
So one kernel serves square-4/8, hex, staggered and wrapped boards.

``owner[i]`` is a player index ``0..P-1`` (``-1`` while unowned), ``w[i]`` the
cell's weight, ``W[k]`` a player's summed weight. Balance means
``max(W) - min(W) <= tol``.
"""

from __future__ import annotations

import numpy as np

from ._jit import jit


@jit
def build_graph(passable, offsets, pw, ph, width, parity_mode, wrap):
    """Land graph of the padded ``passable`` board: ``(nbr (n, ndir), cell ids (n,))``."""
    ndir = offsets.shape[1]
    size = pw * ph
    pnode = np.full(size, -1, np.int64)
    n = 0
    for p in range(size):
        if passable[p]:
            pnode[p] = n
            n += 1
    nbr = np.full((n, ndir), -1, np.int64)
    cell = np.empty(n, np.int64)
    for p in range(size):
        i = pnode[p]
        if i < 0:
            continue
        x = p % pw - 1
        y = p // pw - 1
        cell[i] = y * width + x
        par = 0
        if parity_mode == 1:
            par = x & 1
        elif parity_mode == 2:
            par = y & 1
        for d in range(ndir):
            q = p + offsets[par, d]
            if wrap:
                qx = q % pw
                if qx == 0:
                    q += width
                elif qx == width + 1:
                    q -= width
            j = pnode[q]
            if j >= 0 and j != i:
                nbr[i, d] = j
    return nbr, cell


@jit
def bfs(nbr, sources, owner, who):
    """Steps from the nearest source; only through nodes with ``owner == who``
    (``who < 0``: through every node). ``-1`` where unreached."""
    n, ndir = nbr.shape
    dist = np.full(n, -1, np.int64)
    queue = np.empty(n, np.int64)
    head = 0
    tail = 0
    for s in sources:
        if dist[s] < 0 and (who < 0 or owner[s] == who):
            dist[s] = 0
            queue[tail] = s
            tail += 1
    while head < tail:
        c = queue[head]
        head += 1
        for d in range(ndir):
            j = nbr[c, d]
            if j >= 0 and dist[j] < 0 and (who < 0 or owner[j] == who):
                dist[j] = dist[c] + 1
                queue[tail] = j
                tail += 1
    return dist


@jit
def label_chunks(nbr, owner):
    """Connected pieces of equal ``owner``: ``(labels (n,), sizes (k,))``."""
    n, ndir = nbr.shape
    labels = np.full(n, -1, np.int64)
    sizes = np.zeros(n, np.int64)
    queue = np.empty(n, np.int64)
    k = 0
    for s in range(n):
        if labels[s] >= 0:
            continue
        o = owner[s]
        labels[s] = k
        queue[0] = s
        head = 0
        tail = 1
        while head < tail:
            c = queue[head]
            head += 1
            for d in range(ndir):
                j = nbr[c, d]
                if j >= 0 and labels[j] < 0 and owner[j] == o:
                    labels[j] = k
                    queue[tail] = j
                    tail += 1
        sizes[k] = tail
        k += 1
    return labels, sizes[:k].copy()


@jit
def farthest_points(nbr, pool, k, first):
    """``k`` nodes of ``pool`` (node ids), each the farthest (in steps) from those
    before (distances kept up to date by a breadth-first pass from each new point
    that stops where it brings no improvement)."""
    n, ndir = nbr.shape
    out = np.empty(k, np.int64)
    out[0] = first
    big = np.int64(1) << 62
    dist = np.full(n, big, np.int64)
    queue = np.empty(n, np.int64)
    for t in range(k):
        if t > 0:
            best = -1
            bd = -1
            for p in pool:
                if dist[p] > bd:
                    bd = dist[p]
                    best = p
            out[t] = best
        s = out[t]
        dist[s] = 0
        queue[0] = s
        head = 0
        tail = 1
        while head < tail:
            c = queue[head]
            head += 1
            for d in range(ndir):
                j = nbr[c, d]
                if j >= 0 and dist[c] + 1 < dist[j]:
                    dist[j] = dist[c] + 1
                    queue[tail] = j
                    tail += 1
    return out


@jit
def grow(nbr, w, seeds, owner):
    """Balanced simultaneous growth: the lightest player that can still grow takes
    the next cell of its breadth-first frontier. ``owner`` is filled in place
    (cells already owned stay so); returns each player's weight."""
    n, ndir = nbr.shape
    P = seeds.size
    cap = n * ndir + P + 1
    qcell = np.empty(cap, np.int64)
    qnext = np.full(cap, -1, np.int64)
    head = np.full(P, -1, np.int64)
    tail = np.full(P, -1, np.int64)
    W = np.zeros(P)
    active = np.ones(P, np.bool_)
    top = 0
    for i in range(n):
        if owner[i] >= 0:
            W[owner[i]] += w[i]
    for k in range(P):
        s = seeds[k]
        if owner[s] < 0:
            owner[s] = k
            W[k] += w[s]
    for k in range(P):
        s = seeds[k]
        for d in range(ndir):
            j = nbr[s, d]
            if j >= 0 and owner[j] < 0:
                qcell[top] = j
                if head[k] < 0:
                    head[k] = top
                else:
                    qnext[tail[k]] = top
                tail[k] = top
                top += 1
    while True:
        best = -1
        for k in range(P):
            if active[k] and (best < 0 or W[k] < W[best]):
                best = k
        if best < 0:
            break
        got = -1
        while head[best] >= 0:
            e = head[best]
            head[best] = qnext[e]
            c = qcell[e]
            if owner[c] < 0:
                got = c
                break
        if got < 0:
            active[best] = False
            continue
        owner[got] = best
        W[best] += w[got]
        for d in range(ndir):
            j = nbr[got, d]
            if j >= 0 and owner[j] < 0:
                qcell[top] = j
                if head[best] < 0:
                    head[best] = top
                else:
                    qnext[tail[best]] = top
                tail[best] = top
                top += 1
    return W


@jit
def inner_cells(nbr, owner, P, xs, ys):
    """For each player the cell of its land farthest (in steps) from its border,
    ties to the cell nearest the land's mean ``(xs, ys)``; ``-1``: no land."""
    n, ndir = nbr.shape
    dist = np.full(n, -1, np.int64)
    queue = np.empty(n, np.int64)
    head = 0
    tail = 0
    for i in range(n):
        if owner[i] < 0:
            continue
        edge = False
        for d in range(ndir):
            j = nbr[i, d]
            if j < 0 or owner[j] != owner[i]:
                edge = True
                break
        if edge:
            dist[i] = 0
            queue[tail] = i
            tail += 1
    while head < tail:
        c = queue[head]
        head += 1
        for d in range(ndir):
            j = nbr[c, d]
            if j >= 0 and dist[j] < 0 and owner[j] == owner[c]:
                dist[j] = dist[c] + 1
                queue[tail] = j
                tail += 1
    sx = np.zeros(P)
    sy = np.zeros(P)
    cnt = np.zeros(P)
    for i in range(n):
        k = owner[i]
        if k >= 0:
            sx[k] += xs[i]
            sy[k] += ys[i]
            cnt[k] += 1.0
    best = np.full(P, -1, np.int64)
    bscore = np.zeros(P)
    for i in range(n):
        k = owner[i]
        if k < 0:
            continue
        ex = xs[i] - sx[k] / cnt[k]
        ey = ys[i] - sy[k] / cnt[k]
        score = dist[i] * 1e12 - (ex * ex + ey * ey)
        if best[k] < 0 or score > bscore[k]:
            best[k] = i
            bscore[k] = score
    return best


@jit
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


@jit
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


@jit
def _spread(W):
    return W.max() - W.min()


@jit
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
        hi = 0
        lo = 0
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


# -- scattered ---------------------------------------------------------------------


@jit
def _chunk_capped(nbr, owner, c, cap, stamp, gen, queue):
    """Size of the piece of ``c``'s owner holding ``c``, counted up to ``cap``."""
    ndir = nbr.shape[1]
    x = owner[c]
    stamp[c] = gen
    queue[0] = c
    head = 0
    tail = 1
    while head < tail and tail < cap:
        v = queue[head]
        head += 1
        for d in range(ndir):
            j = nbr[v, d]
            if j >= 0 and owner[j] == x and stamp[j] != gen:
                stamp[j] = gen
                queue[tail] = j
                tail += 1
                if tail >= cap:
                    break
    return tail


@jit
def scatter_random(nbr, w, P, seed):
    """Every cell, in random order, to the lightest player (ties at random)."""
    np.random.seed(seed)
    n = nbr.shape[0]
    order = np.random.permutation(n)
    owner = np.full(n, -1, np.int64)
    W = np.zeros(P)
    tie = np.random.random(P)
    for c in order:
        best = 0
        for k in range(1, P):
            if W[k] < W[best] or (W[k] == W[best] and tie[k] < tie[best]):
                best = k
        owner[c] = best
        W[best] += w[c]
        tie[best] = np.random.random()
    return owner


@jit
def scatter_greedy(nbr, w, P, K, tol, quota, seed):
    """Round-robin growth: cells in breadth-first order from a random cell go to
    the allowed player whose piece there stays smallest. Allowed: a player
    under its ``quota`` (counts) or, when ``quota[0] < 0``, one whose weight stays
    within ``tol`` of the lightest."""
    np.random.seed(seed)
    n, ndir = nbr.shape
    owner = np.full(n, -1, np.int64)
    W = np.zeros(P)
    got = np.zeros(P, np.int64)
    stamp = np.zeros(n, np.int64)
    queue = np.empty(n, np.int64)
    order = np.empty(n, np.int64)
    seen = np.zeros(n, np.bool_)
    perm = np.random.permutation(n)
    m = 0
    for s in perm:
        if seen[s]:
            continue
        seen[s] = True
        order[m] = s
        h = m
        m += 1
        while h < m:
            v = order[h]
            h += 1
            for d in range(ndir):
                j = nbr[v, d]
                if j >= 0 and not seen[j]:
                    seen[j] = True
                    order[m] = j
                    m += 1
    gen = 1
    counts = quota[0] >= 0
    for c in order:
        lo = W.min()
        best = -1
        bsz = 0
        btie = 0.0
        start = np.random.randint(0, P)
        for t in range(P):
            k = (start + t) % P
            if counts:
                if got[k] >= quota[k]:
                    continue
            elif W[k] + w[c] > lo + tol:
                continue
            owner[c] = k
            gen += 1
            sz = _chunk_capped(nbr, owner, c, K + 1, stamp, gen, queue)
            owner[c] = -1
            # smallest piece first, then the player furthest behind
            tie = float(quota[k] - got[k]) if counts else -W[k]
            if best < 0 or sz < bsz or (sz == bsz and tie > btie):
                best = k
                bsz = sz
                btie = tie
        if best < 0:
            best = int(np.argmin(W))
        owner[c] = best
        W[best] += w[c]
        got[best] += 1
    return owner


@jit
def scatter_pattern(nbr, xs, ys, P):
    """A regular colouring ``(a*x + b*y) mod P`` with the fewest touching equal colours."""
    n, ndir = nbr.shape
    owner = np.empty(n, np.int64)
    best = np.empty(n, np.int64)
    bbad = -1
    for a in range(1, max(P, 2)):
        for b in range(P):
            for i in range(n):
                owner[i] = (a * xs[i] + b * ys[i]) % P
            bad = 0
            for i in range(n):
                for d in range(ndir):
                    j = nbr[i, d]
                    if j >= 0 and owner[j] == owner[i]:
                        bad += 1
            if bbad < 0 or bad < bbad:
                bbad = bad
                best[:] = owner
    return best, bbad


@jit
def scatter_balance(nbr, w, owner, P, K, tol, pinned, seed):
    """Move cells from the heaviest to the lightest player until balanced,
    preferring cells whose new piece stays within ``K``. Returns the weights."""
    np.random.seed(seed)
    n = nbr.shape[0]
    W = np.zeros(P)
    for i in range(n):
        W[owner[i]] += w[i]
    stamp = np.zeros(n, np.int64)
    queue = np.empty(n, np.int64)
    gen = 1
    while True:
        hi = int(np.argmax(W))
        lo = int(np.argmin(W))
        if W[hi] - W[lo] <= tol:
            return W
        order = np.random.permutation(n)
        pick = -1
        for c in order:
            if owner[c] != hi or pinned[c] or w[c] > W[hi] - W[lo]:
                continue
            if pick < 0:
                pick = c
            owner[c] = lo
            gen += 1
            sz = _chunk_capped(nbr, owner, c, K + 1, stamp, gen, queue)
            owner[c] = hi
            if sz <= K:
                pick = c
                break
        if pick < 0:
            return W
        owner[pick] = lo
        W[hi] -= w[pick]
        W[lo] += w[pick]


@jit
def scatter_repair(nbr, w, owner, P, K, tol, pinned, seed, rounds, tries):
    """Swap cells of over-sized pieces with cells of other players until no
    piece is larger than ``K``; a swap stays only when neither swapped cell ends
    in a piece larger than ``K`` and the balance stays within ``tol``. Rounds
    without progress shake a few over-sized cells. Returns True on success."""
    np.random.seed(seed)
    n = nbr.shape[0]
    W = np.zeros(P)
    for i in range(n):
        W[owner[i]] += w[i]
    stamp = np.zeros(n, np.int64)
    queue = np.empty(n, np.int64)
    bad = np.empty(n, np.int64)
    gen = 1
    last = n + 1
    for _ in range(rounds):
        labels, sizes = label_chunks(nbr, owner)
        m = 0
        for i in range(n):
            if sizes[labels[i]] > K and not pinned[i]:
                bad[m] = i
                m += 1
        over = 0
        for i in range(n):
            if sizes[labels[i]] > K:
                over += 1
        if over == 0:
            return True
        if m == 0:
            return False
        perm = np.random.permutation(m)
        stuck = over >= last
        last = over
        for t in range(m):
            c = bad[perm[t]]
            gen += 1
            if _chunk_capped(nbr, owner, c, K + 1, stamp, gen, queue) <= K:
                continue
            x = owner[c]
            for _t in range(tries):
                e = np.random.randint(0, n)
                y = owner[e]
                if y == x or pinned[e]:
                    continue
                if w[e] != w[c]:
                    W[x] += w[e] - w[c]
                    W[y] += w[c] - w[e]
                    okb = _spread(W) <= tol
                    W[x] -= w[e] - w[c]
                    W[y] -= w[c] - w[e]
                    if not okb:
                        continue
                owner[c] = y
                owner[e] = x
                gen += 1
                ok = _chunk_capped(nbr, owner, c, K + 1, stamp, gen, queue) <= K
                if ok:
                    gen += 1
                    ok = _chunk_capped(nbr, owner, e, K + 1, stamp, gen, queue) <= K
                if ok or (stuck and np.random.random() < 0.05):
                    W[x] += w[e] - w[c]
                    W[y] += w[c] - w[e]
                    break
                owner[c] = x
                owner[e] = y
    labels, sizes = label_chunks(nbr, owner)
    return sizes.max() <= K


@jit
def max_clique(nbr, limit):
    """Size of the largest clique of touching cells, looked for up to ``limit`` (<= 4)."""
    n, ndir = nbr.shape
    best = 1 if n > 0 else 0
    for i in range(n):
        for d in range(ndir):
            j = nbr[i, d]
            if j < 0:
                continue
            best = max(best, 2)
            for e in range(ndir):
                k = nbr[i, e]
                if k < 0 or k == j:
                    continue
                jk = False
                for f in range(ndir):
                    if nbr[j, f] == k:
                        jk = True
                        break
                if not jk:
                    continue
                best = max(best, 3)
                if limit < 4:
                    continue
                for g in range(ndir):
                    m = nbr[i, g]
                    if m < 0 or m == j or m == k:
                        continue
                    c1 = False
                    c2 = False
                    for f in range(ndir):
                        if nbr[j, f] == m:
                            c1 = True
                        if nbr[k, f] == m:
                            c2 = True
                    if c1 and c2:
                        return 4
    return best


@jit
def ball_sums(nbr, value, radius):
    """For each node the summed ``value`` of nodes within ``radius`` steps."""
    n, ndir = nbr.shape
    out = np.zeros(n)
    stamp = np.full(n, -1, np.int64)
    dist = np.zeros(n, np.int64)
    queue = np.empty(n, np.int64)
    for s in range(n):
        stamp[s] = s
        dist[s] = 0
        queue[0] = s
        head = 0
        tail = 1
        tot = 0.0
        while head < tail:
            v = queue[head]
            head += 1
            tot += value[v]
            if dist[v] >= radius:
                continue
            for d in range(ndir):
                j = nbr[v, d]
                if j >= 0 and stamp[j] != s:
                    stamp[j] = s
                    dist[j] = dist[v] + 1
                    queue[tail] = j
                    tail += 1
        out[s] = tot
    return out


@jit
def cut_sides(nbr, owner, P):
    """Per player: sides of its cells that face no cell of its own (board edge,
    impassable cell or another player's land)."""
    n, ndir = nbr.shape
    per = np.zeros(P, np.int64)
    for i in range(n):
        a = owner[i]
        if a < 0:
            continue
        for d in range(ndir):
            j = nbr[i, d]
            if j < 0 or owner[j] != a:
                per[a] += 1
    return per


@jit
def _triangle_third(nbr, v, a, b):
    """Whether ``a`` and ``b`` (both neighbours of ``v``) touch each other."""
    ndir = nbr.shape[1]
    for f in range(ndir):
        if nbr[a, f] == b:
            return True
    return False


@jit
def forced_colouring(nbr):
    """The proper three-colouring forced by triangles of touching cells.

    Colours spread from one triangle to the next (two coloured corners fix the
    third). Returns ``(colour (n,), pieces, conflict)``: ``colour -1`` for cells
    no triangle reaches, ``pieces`` the number of separately forced parts, and
    ``conflict`` when a triangle would need a repeated colour (then no proper
    three-colouring exists).
    """
    n, ndir = nbr.shape
    col = np.full(n, -1, np.int64)
    queue = np.empty(n, np.int64)
    pieces = 0
    conflict = False
    for s in range(n):
        if col[s] >= 0:
            continue
        ta = -1
        tb = -1
        for d in range(ndir):
            a = nbr[s, d]
            if a < 0 or ta >= 0:
                continue
            for e in range(ndir):
                b = nbr[s, e]
                if b >= 0 and b != a and _triangle_third(nbr, s, a, b):
                    ta = a
                    tb = b
                    break
        if ta < 0 or col[ta] >= 0 or col[tb] >= 0:
            continue
        pieces += 1
        col[s] = 0
        col[ta] = 1
        col[tb] = 2
        queue[0] = s
        queue[1] = ta
        queue[2] = tb
        head = 0
        tail = 3
        while head < tail:
            v = queue[head]
            head += 1
            for d in range(ndir):
                a = nbr[v, d]
                if a < 0:
                    continue
                for e in range(ndir):
                    b = nbr[v, e]
                    if b < 0 or b == a or not _triangle_third(nbr, v, a, b):
                        continue
                    if col[a] >= 0 and col[b] < 0:
                        col[b] = 3 - col[v] - col[a]
                        if col[b] < 0 or col[b] > 2 or col[b] == col[v]:
                            conflict = True
                            col[b] = 0
                        queue[tail] = b
                        tail += 1
                    elif col[a] >= 0 and col[b] >= 0:
                        if col[a] == col[b] or col[a] == col[v] or col[b] == col[v]:
                            conflict = True
    return col, pieces, conflict


@jit
def distance_fields(nbr, seeds, slack):
    """Steps from each seed: ``(P, n)``, ``-1`` where unreached. With ``slack >= 0``
    a field stops where it exceeds the distance to the nearest seed by more than
    ``slack`` (those cells are no use to that seed's player: a cell kept in a
    field has its predecessor kept too, so regions built on them stay connected)."""
    n, ndir = nbr.shape
    P = seeds.size
    out = np.full((P, n), -1, np.int64)
    dummy = np.zeros(n, np.int64)
    near = bfs(nbr, seeds, dummy, -1)
    queue = np.empty(n, np.int64)
    for k in range(P):
        f = out[k]
        s = seeds[k]
        f[s] = 0
        queue[0] = s
        head = 0
        tail = 1
        while head < tail:
            c = queue[head]
            head += 1
            for d in range(ndir):
                j = nbr[c, d]
                if j >= 0 and f[j] < 0 and (slack < 0 or f[c] + 1 <= near[j] + slack):
                    f[j] = f[c] + 1
                    queue[tail] = j
                    tail += 1
    return out


@jit
def mean_steps(nbr, owner, seeds):
    """Mean steps from each player's seed to its own cells (``inf`` when some are
    unreachable or the player has none); each search stops once all are found."""
    n, ndir = nbr.shape
    P = seeds.size
    cnt = np.zeros(P, np.int64)
    for i in range(n):
        if owner[i] >= 0:
            cnt[owner[i]] += 1
    out = np.full(P, np.inf)
    dist = np.full(n, -1, np.int64)
    stamp = np.full(n, -1, np.int64)
    queue = np.empty(n, np.int64)
    for k in range(P):
        s = seeds[k]
        if s < 0 or cnt[k] == 0:
            continue
        stamp[s] = k
        dist[s] = 0
        queue[0] = s
        head = 0
        tail = 1
        found = 0
        tot = 0.0
        while head < tail and found < cnt[k]:
            c = queue[head]
            head += 1
            if owner[c] == k:
                found += 1
                tot += dist[c]
            for d in range(ndir):
                j = nbr[c, d]
                if j >= 0 and stamp[j] != k:
                    stamp[j] = k
                    dist[j] = dist[c] + 1
                    queue[tail] = j
                    tail += 1
        if found == cnt[k]:
            out[k] = tot / cnt[k]
    return out


@jit
def balanced_voronoi(nbr, fields, w, iters, damping, good, zone, seeds):
    """Each cell to the player minimising ``steps + bias``; biases are tuned so
    that players' weights even out (the cells of a player then stay connected:
    a cell's predecessor on its path to the player's seed prefers the same
    player). A unit of bias moves a player's border by about one cell, so a
    player's excess weight divided by the weight along its border is the bias
    step (damped). Stops once the spread is at most ``good``. ``zone`` labels
    the land's zones and ``seeds`` are the players' seeds. Returns the most
    even assignment seen (``-1``: no seed reaches)."""
    P, n = fields.shape
    ndir = nbr.shape[1]
    bias = np.zeros(P)
    owner = np.full(n, -1, np.int64)
    best = np.full(n, -1, np.int64)
    W = np.zeros(P)
    B = np.zeros(P)
    total = 0.0
    for i in range(n):
        for k in range(P):
            if fields[k, i] >= 0:
                total += w[i]
                break
    target = total / P
    # a cell whose two nearest seeds differ by more than the biases do keeps its nearest
    near = np.full(n, -1, np.int64)
    gap = np.zeros(n, np.int64)
    for i in range(n):
        f1 = -1
        f2 = -1
        for k in range(P):
            f = fields[k, i]
            if f < 0:
                continue
            if f1 < 0 or f < f1:
                f2 = f1
                f1 = f
                near[i] = k
            elif f2 < 0 or f < f2:
                f2 = f
        gap[i] = (n + 1) if f2 < 0 else f2 - f1
    nz = zone.max() + 1
    lo = np.empty(nz)
    hi = np.empty(nz)
    bspread = np.inf
    for _ in range(iters):
        W[:] = 0.0
        # biases only compete within a zone (land mass)
        lo[:] = np.inf
        hi[:] = -np.inf
        for k in range(P):
            z = zone[seeds[k]]
            lo[z] = min(lo[z], bias[k])
            hi[z] = max(hi[z], bias[k])
        for i in range(n):
            if gap[i] > hi[zone[i]] - lo[zone[i]]:
                bk = near[i]
                owner[i] = bk
                if bk >= 0:
                    W[bk] += w[i]
                continue
            bk = -1
            bv = np.inf
            for k in range(P):
                f = fields[k, i]
                if f >= 0:
                    v = f + bias[k]
                    if v < bv:
                        bv = v
                        bk = k
            owner[i] = bk
            if bk >= 0:
                W[bk] += w[i]
        spread = W.max() - W.min()
        if spread < bspread:
            bspread = spread
            best[:] = owner
        if spread <= good:
            break
        B[:] = 0.0
        for i in range(n):
            k = owner[i]
            if k < 0:
                continue
            for d in range(ndir):
                j = nbr[i, d]
                if j >= 0 and owner[j] != k:
                    B[k] += w[i]
                    break
        for k in range(P):
            bias[k] += damping * (W[k] - target) / max(B[k], 1.0)
    return best
