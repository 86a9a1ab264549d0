"""Kernels of the crowd planner's repair: push and swap for agents that PIBT leaves standing head-on.

Push and swap (Luna and Bekris, IJCAI 2011) moves one agent at a time, one
step into a free node, and logs every move (``log[k]``: agent, from, to).
``walk`` takes agents home along their shortest ways one after another. An
agent in the way that stands on its goal, or heads the other way (its next
node towards its goal is the walker's), is swapped with the walker: the two
taken to a node of three or more neighbours (the agents ahead pushed off the
way there), two of its other neighbours emptied, the two traded there and
every clearing move undone in reverse with the two agents' roles exchanged,
so that afterwards only the two have moved, each a step nearer its goal (or
the one on its goal a step off it, to step back after). Any other agent in
the way is pushed to the nearest free node off the walker's way (the agents
between shifted along, each into the node the next one left); each rule
falls back on the other (docs/design/kernels.md says why swaps come first
there). ``repair`` makes rounds of walks until every agent is home. ``schedule`` then times the logged moves as early as
their order allows: an agent enters a node no earlier than the timestep its
last occupant left it (following is allowed), and two agents never trade
nodes along an edge in one timestep (each move was into a free node).

The graph is ``crowd``'s: node ``v``'s neighbours ``nbr[v, d]`` (-1: none);
distances to the goals come from ``lazydist``'s tables (``lz``, row
``gidx[a]`` for agent ``a``).
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from .crowd import _d

_FORKS = 8
"""How many nodes of three or more neighbours, nearest first, a swap tries."""

_PATIENCE = 3
"""Rounds of walks in a row with no fewer agents off their goals than the best round's before ``repair`` stops (the
counts go up and down: 38, 13, 14, 4, 9, 2, 4, 1, 2, 0 on maze-128-128-1's 500 agents; docs/design/kernels.md)."""

# the columns of ``cnt``: the log's state and the work's
_N = 0  # moves logged
_FULL = 1  # 1: stopped, the log ran full or the work budget is spent (every call since has failed)
_WORK = 2  # nodes the searches took from their queues, and steps of the ways, so far
BUDGET = 3  # the work allowed (the caller's time left, as ``crowd`` reckons it)


@jit
def _mv(a, u, q, occ, log, cnt):
    """Log and make agent ``a``'s step into free node ``u``; False when the log is full."""
    k = cnt[_N]
    if k >= log.shape[0]:
        cnt[_FULL] = 1
        return False
    v = q[a]
    log[k, 0] = a
    log[k, 1] = v
    log[k, 2] = u
    cnt[_N] = k + 1
    occ[v] = -1
    occ[u] = a
    q[a] = u
    return True


@jit
def _spend(cnt, units):
    """Count ``units`` of work; False, and every call stopped as a full log stops them, once the budget is spent."""
    cnt[_WORK] += units
    if cnt[_WORK] > cnt[BUDGET]:
        cnt[_FULL] = 1
        return False
    return True


@jit
def _undo(mark, q, occ, log, cnt):
    """Take back the logged moves after the first ``mark``."""
    k = cnt[_N]
    while k > mark:
        k -= 1
        a, v, u = log[k, 0], log[k, 1], log[k, 2]
        occ[u] = -1
        occ[v] = a
        q[a] = v
    cnt[_N] = mark


@jit
def _bfs_from(x, seen, par, queue, gen):
    """Start a breadth-first search at node ``x``: a new stamp of ``gen`` (returned) marks it seen, with no parent,
    first in ``queue``."""
    gen[0] += 1
    s = gen[0]
    seen[x] = s
    par[x] = -1
    queue[0] = x
    return s


@jit
def _push(x, nbr, q, occ, log, cnt, blk, bs, forb, fs, seen, par, queue, gen):
    """Move the agent on node ``x`` to the nearest free node that is not marked ``fs`` in ``forb``, by a breadth-first
    search that does not pass nodes marked ``bs`` in ``blk``; the agents on the way there step along, the last
    first. False (nothing moved, or the log ran full) when there is no such node."""
    s = _bfs_from(x, seen, par, queue, gen)
    head = 0
    tail = 1
    f = -1
    while head < tail and f < 0:
        v = queue[head]
        head += 1
        if not _spend(cnt, 1):
            return False
        for d in range(nbr.shape[1]):
            u = nbr[v, d]
            if u < 0 or seen[u] == s or blk[u] == bs:
                continue
            seen[u] = s
            par[u] = v
            if occ[u] < 0 and forb[u] != fs:
                f = u
                break
            queue[tail] = u
            tail += 1
    if f < 0:
        return False
    u = f
    while u != x:
        v = par[u]
        if occ[v] >= 0 and not _mv(occ[v], u, q, occ, log, cnt):
            return False
        u = v
    return True


@jit
def _try_fork(r, s, path, m, nbr, q, occ, log, cnt, blk, forb, seen, par, queue, gen):
    """Swap adjacent agents ``r`` and ``s`` at the fork ``path[m - 1]`` (``path[0]``: ``r``'s node, the way there);
    False when the way there or two of the fork's other neighbours cannot be cleared (the moves not taken back)."""
    if m >= 2 and path[1] == q[s]:
        lead, fol, i0 = s, r, 1
    else:
        lead, fol, i0 = r, s, 0
    mark = cnt[_N]
    for i in range(i0, m - 1):
        nxt = path[i + 1]
        if occ[nxt] >= 0:
            gen[0] += 1
            bs = gen[0]
            blk[q[lead]] = bs
            blk[q[fol]] = bs
            for j in range(i + 1, m):
                forb[path[j]] = bs
            if not _push(nxt, nbr, q, occ, log, cnt, blk, bs, forb, bs, seen, par, queue, gen):
                return False
        back = q[lead]
        if not _mv(lead, nxt, q, occ, log, cnt) or not _mv(fol, back, q, occ, log, cnt):
            return False
    v = q[lead]
    p = q[fol]
    n1 = -1
    n2 = -1
    for d in range(nbr.shape[1]):
        c = nbr[v, d]
        if c >= 0 and c != p and occ[c] < 0:
            if n1 < 0:
                n1 = c
            elif n2 < 0:
                n2 = c
    for d in range(nbr.shape[1]):
        if n2 >= 0:
            break
        c = nbr[v, d]
        if c < 0 or c == p or occ[c] < 0:
            continue
        gen[0] += 1
        bs = gen[0]
        blk[v] = bs
        blk[p] = bs
        if n1 >= 0:
            blk[n1] = bs
        forb[v] = bs
        for e in range(nbr.shape[1]):
            if nbr[v, e] >= 0:
                forb[nbr[v, e]] = bs
        if _push(c, nbr, q, occ, log, cnt, blk, bs, forb, bs, seen, par, queue, gen):
            if n1 < 0:
                n1 = c
            else:
                n2 = c
        elif cnt[_FULL]:
            return False
    if n2 < 0:
        return False
    done = cnt[_N]
    if not (_mv(lead, n1, q, occ, log, cnt) and _mv(fol, v, q, occ, log, cnt) and _mv(fol, n2, q, occ, log, cnt)
            and _mv(lead, v, q, occ, log, cnt) and _mv(lead, p, q, occ, log, cnt) and _mv(fol, v, q, occ, log, cnt)):
        return False
    # the clearing moves backwards, the two agents' parts exchanged: all but the two end where they stood
    for k in range(done - 1, mark - 1, -1):
        a, v0, u0 = log[k, 0], log[k, 1], log[k, 2]
        b = fol if a == lead else lead if a == fol else a
        if q[b] != u0 or occ[v0] >= 0 or not _mv(b, v0, q, occ, log, cnt):
            return False
    return True


@jit
def _swap(r, s, nbr, q, occ, log, cnt, blk, forb, seen, par, queue, gen, fseen, fpar, fqueue, path):
    """Exchange adjacent agents ``r`` and ``s`` (everyone else ends where they stood), at the nearest of ``_FORKS``
    nodes of three or more neighbours where that works; False (nothing moved) when none does."""
    u = q[r]
    mark = cnt[_N]
    st = _bfs_from(u, fseen, fpar, fqueue, gen)
    head = 0
    tail = 1
    tried = 0
    while head < tail and tried < _FORKS:
        v = fqueue[head]
        head += 1
        if not _spend(cnt, 1):
            return False
        deg = 0
        for d in range(nbr.shape[1]):
            if nbr[v, d] >= 0:
                deg += 1
                if fseen[nbr[v, d]] != st:
                    fseen[nbr[v, d]] = st
                    fpar[nbr[v, d]] = v
                    fqueue[tail] = nbr[v, d]
                    tail += 1
        if deg < 3:
            continue
        tried += 1
        m = 0
        x = v
        while x >= 0:
            path[m] = x
            m += 1
            x = fpar[x]
        path[:m] = path[:m][::-1].copy()
        if _try_fork(r, s, path, m, nbr, q, occ, log, cnt, blk, forb, seen, par, queue, gen):
            return True
        _undo(mark, q, occ, log, cnt)
        if cnt[_FULL]:
            return False
    return False


@jit
def repair(nbr, lz, gidx, goals, q, occ, rounds, log, cnt, blk, forb, wforb, seen, par, queue, gen, fseen, fpar,
           fqueue, path, way):
    """Rounds of ``walk``: the agents off their goals in ``q``, nearest first, walked home, until all are (or
    ``rounds`` rounds, or ``_PATIENCE`` rounds in a row that left no fewer agents off their goals than the best
    one did, or the log is full or the work budget ``cnt[BUDGET]`` spent). Returns how many agents are on their
    goals."""
    n = q.shape[0]
    dq = np.empty(n, dtype=np.int64)
    best = n + 1
    still = 0
    for _ in range(rounds):
        m = 0
        for a in range(n):
            if q[a] != goals[a]:
                dq[m] = _d(lz, nbr, gidx, a, q[a]) * n + a
                m += 1
        if m == 0 or cnt[_FULL]:
            break
        if m < best:
            best = m
            still = 0
        else:
            still += 1
            if still >= _PATIENCE:
                break
        agents = np.sort(dq[:m]) % n
        walk(nbr, lz, gidx, goals, q, occ, agents, log, cnt, blk, forb, wforb, seen, par, queue, gen, fseen, fpar,
             fqueue, path, way)
    home = 0
    for a in range(n):
        if q[a] == goals[a]:
            home += 1
    return home


@jit
def walk(nbr, lz, gidx, goals, q, occ, agents, log, cnt, blk, forb, wforb, seen, par, queue, gen, fseen, fpar,
         fqueue, path, way):
    """Walk ``agents`` home one after another from configuration ``q`` (``occ[v]``: the agent on node ``v``, -1 none),
    logging every move in ``log`` (``cnt``: the log's and the work's state, columns ``_N`` to ``BUDGET``); an agent in the walker's way that stands on
    its goal or heads the other way is swapped with the walker, any other pushed to the nearest free node off the
    way (not through the walker), each rule falling back on the other. A walk that gets stuck is taken back. ``q``
    and ``occ`` end as the moves leave them; returns how many agents got home.
    Scratch: ``blk``, ``forb``, ``wforb``, ``seen``, ``fseen`` (stamped by ``gen``), ``par``, ``fpar``, ``queue``,
    ``fqueue``, ``path``, ``way`` (one an node each; the stamps zero or below ``gen[0]``)."""
    home = 0
    for i in range(agents.shape[0]):
        a = agents[i]
        g = goals[a]
        if q[a] == g:
            home += 1
            continue
        if cnt[_FULL]:
            continue
        # the way: always a neighbour one step nearer the goal
        m = 0
        v = q[a]
        gen[0] += 1
        ws = gen[0]
        while True:
            way[m] = v
            wforb[v] = ws
            m += 1
            if v == g:
                break
            dv = _d(lz, nbr, gidx, a, v)
            nx = -1
            for d in range(nbr.shape[1]):
                u = nbr[v, d]
                if u >= 0 and _d(lz, nbr, gidx, a, u) == dv - 1:
                    nx = u
                    break
            if nx < 0:  # (exact distances on a graph whose steps go both ways always leave one)
                m = 0
                break
            v = nx
        if m == 0 or not _spend(cnt, m):
            continue
        mark = cnt[_N]
        ok = True
        for j in range(1, m):
            nxt = way[j]
            b = occ[nxt]
            if b >= 0:
                # an agent on its goal is passed (it ends a step back on the way, and steps home after), another
                # one pushed off the way; each the other way where that fails
                first = goals[b] == nxt or _d(lz, nbr, gidx, b, q[a]) == _d(lz, nbr, gidx, b, nxt) - 1
                if first and _swap(a, b, nbr, q, occ, log, cnt, blk, forb, seen, par, queue, gen, fseen,
                                             fpar, fqueue, path):
                    continue
                if cnt[_FULL]:
                    ok = False
                    break
                gen[0] += 1
                bs = gen[0]
                blk[q[a]] = bs
                m0 = cnt[_N]
                if not _push(nxt, nbr, q, occ, log, cnt, blk, bs, wforb, ws, seen, par, queue, gen):
                    _undo(m0, q, occ, log, cnt)
                    if cnt[_FULL] or first or not _swap(a, b, nbr, q, occ, log, cnt, blk, forb, seen, par,
                                                                  queue, gen, fseen, fpar, fqueue, path):
                        ok = False
                        break
                    continue
            if not _mv(a, nxt, q, occ, log, cnt):
                ok = False
                break
        if not ok:
            _undo(mark, q, occ, log, cnt)
            if cnt[_FULL]:
                break
        else:
            home += 1
    return home


@jit
def schedule(n, nv, log, m, times):
    """``times[k]``: the timestep at whose end logged move ``k`` of ``m`` is made, as early as the log's order allows
    (after the agent's last move; not before the node's last occupant left it). Returns the last."""
    last = np.zeros(n, dtype=np.int64)
    left = np.zeros(nv, dtype=np.int64)
    top = 0
    for k in range(m):
        a, f, u = log[k, 0], log[k, 1], log[k, 2]
        t = max(last[a] + 1, left[u])
        times[k] = t
        last[a] = t
        left[f] = t
        if t > top:
            top = t
    return top


@jit
def replay(q0, log, m, times, out):
    """``out[t]``: the configuration at timestep ``t`` of the moves ``log[:m]`` timed by ``times`` from ``q0``."""
    rows = out.shape[0]
    start = np.zeros(rows + 1, dtype=np.int64)
    for k in range(m):
        start[times[k] + 1] += 1
    for t in range(rows):
        start[t + 1] += start[t]
    at = start.copy()
    by = np.empty(m, dtype=np.int64)
    for k in range(m):
        t = times[k]
        by[at[t]] = k
        at[t] += 1
    out[0] = q0
    for t in range(1, rows):
        out[t] = out[t - 1]
        for j in range(start[t], start[t + 1]):
            k = by[j]
            out[t, log[k, 0]] = log[k, 2]

