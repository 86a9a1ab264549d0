"""Scattered territories: chunks of at most ``K`` cells dealt out to players, then balanced and repaired.
"""

from __future__ import annotations

import numpy as np

from .._jit import helper, jit
from .balance import _spread
from .graph import label_chunks
from ..bundles import REPAIR_FEWEST, REPAIR_LAST, REPAIR_STALLED


# -- scattered ---------------------------------------------------------------------


@helper
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
def bfs_order(nbr):
    """Every node once, breadth first from random roots (one a component), with numpy's random state."""
    n, ndir = nbr.shape
    order = np.empty(n, np.int64)
    seen = np.zeros(n, np.bool_)
    m = 0
    for s in np.random.permutation(n):
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
    return order


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
    order = bfs_order(nbr)
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
def scatter_chunks(nbr, w, P, K, quota, seed):
    """Round-robin chunk growth: the player furthest behind (fewest cells under a
    ``quota``, else the lightest; ties at random) grows a whole chunk of up to
    ``K`` cells, breadth first from the next free cell (in breadth-first order
    from a random cell) that touches none of its land, over free cells that
    touch none of its other chunks. A player with no such seed takes the next
    free cell (the repair splits what that merges)."""
    np.random.seed(seed)
    n, ndir = nbr.shape
    owner = np.full(n, -1, np.int64)
    W = np.zeros(P)
    got = np.zeros(P, np.int64)
    counts = quota[0] >= 0
    order = bfs_order(nbr)
    stamp = np.zeros(n, np.int64)
    queue = np.empty(n, np.int64)
    gen = 0
    ptr = 0
    free = n
    tie = np.random.random(P)
    while free > 0:
        k = -1
        for t in range(P):
            if counts:
                if got[t] >= quota[t]:
                    continue
                if k < 0 or got[t] < got[k] or (got[t] == got[k] and tie[t] < tie[k]):
                    k = t
            elif k < 0 or W[t] < W[k] or (W[t] == W[k] and tie[t] < tie[k]):
                k = t
        tie[k] = np.random.random()
        while owner[order[ptr]] >= 0:
            ptr += 1
        gen += 1
        seed_cell = order[ptr]
        for i in range(ptr, n):
            c = order[i]
            if owner[c] >= 0:
                continue
            ok = True
            for d in range(ndir):
                j = nbr[c, d]
                if j >= 0 and owner[j] == k:
                    ok = False
                    break
            if ok:
                seed_cell = c
                break
        target = K
        if counts and quota[k] - got[k] < target:
            target = quota[k] - got[k]
        owner[seed_cell] = k
        stamp[seed_cell] = gen
        W[k] += w[seed_cell]
        got[k] += 1
        free -= 1
        queue[0] = seed_cell
        head = 0
        tail = 1
        while head < tail and tail < target:
            v = queue[head]
            head += 1
            for d in range(ndir):
                j = nbr[v, d]
                if j < 0 or owner[j] >= 0:
                    continue
                ok = True
                for e in range(ndir):
                    u = nbr[j, e]
                    if u >= 0 and owner[u] == k and stamp[u] != gen:
                        ok = False
                        break
                if not ok:
                    continue
                owner[j] = k
                stamp[j] = gen
                W[k] += w[j]
                got[k] += 1
                free -= 1
                queue[tail] = j
                tail += 1
                if tail >= target:
                    break
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
def scatter_repair(nbr, w, owner, P, K, tol, pinned, seed, rounds, tries, state):
    """Swap cells of over-sized pieces with cells of other players until no
    piece is larger than ``K``; a swap stays only when neither swapped cell ends
    in a piece larger than ``K`` and the balance stays within ``tol``. Rounds
    without progress shake a few over-sized cells.

    Runs at most ``rounds`` rounds, so callers can watch the clock between
    calls; ``state`` carries ``[over-sized cells last round, fewest seen,
    rounds since the fewest]`` (fewest: counting only drops by 1/64 or more) from one call to the next (start with
    ``[n + 1, n + 1, 0]``). Returns 1 on success, 0 when no cell can move
    (pinned), -1 when the rounds ran out."""
    np.random.seed(seed)
    n = nbr.shape[0]
    W = np.zeros(P)
    for i in range(n):
        W[owner[i]] += w[i]
    stamp = np.zeros(n, np.int64)
    queue = np.empty(n, np.int64)
    bad = np.empty(n, np.int64)
    gen = 1
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
            return 1
        if m == 0:
            return 0
        if over < state[REPAIR_FEWEST] - state[REPAIR_FEWEST] // 64:  # progress: 1/64 fewer than the fewest yet
            state[REPAIR_FEWEST] = over
            state[REPAIR_STALLED] = 0
        else:
            state[REPAIR_STALLED] += 1
        perm = np.random.permutation(m)
        stuck = over >= state[REPAIR_LAST]
        state[REPAIR_LAST] = over
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
    if sizes.max() <= K:
        return 1
    return -1
