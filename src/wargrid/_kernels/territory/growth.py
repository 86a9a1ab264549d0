"""Compact partitions: seeded growth, balanced Voronoi cells, inner cells, cut measures.
"""

from __future__ import annotations

import numpy as np

from .._jit import helper, jit
from .graph import SAME_OWNER, bfs, spread


@helper
def _enqueue(k, j, top, qcell, qnext, head, tail):
    """Append node ``j`` to player ``k``'s list (``head``/``tail`` slots, ``qnext`` links) at slot ``top``;
    returns the next free slot."""
    qcell[top] = j
    if head[k] < 0:
        head[k] = top
    else:
        qnext[tail[k]] = top
    tail[k] = top
    return top + 1


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
                top = _enqueue(k, j, top, qcell, qnext, head, tail)
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
                top = _enqueue(best, j, top, qcell, qnext, head, tail)
    return W


@jit
def inner_cells(nbr, owner, P, xs, ys):
    """For each player the cell of its land farthest (in steps) from its border,
    ties to the cell nearest the land's mean ``(xs, ys)``; ``-1``: no land."""
    n, ndir = nbr.shape
    dist = np.full(n, -1, np.int64)
    queue = np.empty(n, np.int64)
    tail = np.int64(0)  # (int64 from the start: a literal 0 carried round the loop types ``spread`` once more)
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
    spread(nbr, queue, 0, tail, dist, owner, SAME_OWNER, dist, -1)
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
def distance_fields(nbr, seeds, slack):
    """Steps from each seed: ``(P, n)``, ``-1`` where unreached. With ``slack >= 0``
    a field stops where it exceeds the distance to the nearest seed by more than
    ``slack`` (those cells are no use to that seed's player: a cell kept in a
    field has its predecessor kept too, so regions built on them stay connected)."""
    n = nbr.shape[0]
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
        spread(nbr, queue, 0, 1, f, dummy, -1, near, slack)
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
