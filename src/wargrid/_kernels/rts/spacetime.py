"""Kernels of crowd plans: one agent's earliest way through a plan whose other agents keep their ways.

A plan is ``occ[v, t]``: the agent standing on node ``v`` at timestep ``t``
plus one (0: nobody), for ``t = 0..T`` (after ``T`` every agent stays where it
stands at ``T``); a node's timesteps lie side by side, so the runs of
timesteps in which it is free are read in one sweep. ``earliest`` is safe
interval path planning (SIPP, Phillips and Likhachev 2011): A* over a node
and one of its free runs (a state: the timestep the agent gets there; it may
wait on until the run ends), one step a timestep, with no vertex conflict
with ``occ`` and no edge conflict (no trading nodes with an agent coming the
other way); the goal counts only once nobody else stands on it at any later
timestep, so the agent can stay there. States are ordered by ``f = t + h``
with ``h`` the agent's exact distance to its goal (the lazy tables of
``lazydist``), the latest first among equal ``f``: the first goal state taken
has the earliest arrival.
"""

from __future__ import annotations

import numpy as np

from .._jit import helper, jit
from .lazydist import UNREACHABLE
from .lazydist import settle as _settle


@helper
def _at(occ, v, t):
    """Who stands on node ``v`` at timestep ``t`` plus one (after the plan's end: where it ended)."""
    return occ[v, min(t, occ.shape[1] - 1)]


@jit
def runs(occ, nxt):
    """``nxt[v, t]``: the first timestep from ``t`` on at which someone stands on node ``v`` (``T + 1``: none);
    ``nxt`` has ``T + 2`` columns."""
    last = occ.shape[1] - 1
    for v in range(occ.shape[0]):
        nxt[v, last + 1] = last + 1
        for t in range(last, -1, -1):
            nxt[v, t] = t if occ[v, t] != 0 else nxt[v, t + 1]
    return 0


@jit
def occupy(occ, nxt, way, who):
    """Agent ``who - 1`` onto nodes ``way[t]`` at timesteps ``t`` (``who`` 0: off them), ``nxt`` kept up."""
    for t in range(way.shape[0]):
        v = way[t]
        occ[v, t] = who
        then = t if who != 0 else nxt[v, t + 1]
        s = t
        while s >= 0 and (s == t or occ[v, s] == 0):
            nxt[v, s] = then
            s -= 1
    return 0


@jit
def earliest(nbr, lz, k, start, goal, free_after, occ, nxt, limit, sv, st, sp, snext, sk, head, best, path):
    """Agent ``start -> goal`` (row ``k`` of ``lz``) through plan ``occ`` arriving by timestep ``limit`` at the
    latest and on ``goal`` after timestep ``free_after`` (the last at which another agent stands there).

    ``sv``, ``st``, ``sp``, ``snext``, ``sk``: scratch of one a state (node,
    timestep, parent, next in its bucket, its run's key in ``best``; their
    length caps the search); ``head``: scratch of ``limit + 2`` buckets;
    ``best``: ``nodes * (limit + 2)`` zeros (a free run's earliest timestep
    plus one, by node and the run's last timestep up to ``limit``), left so;
    ``nxt``: ``runs`` of ``occ``. Writes the way into ``path[0..arrival]`` and
    returns the arrival; -1 when there is none by ``limit``, -2 when the
    states ran out first.
    """
    width = limit + 2
    cap = sv.shape[0]
    for f in range(limit + 2):
        head[f] = -1
    x = lz.dist[k, start]
    h0 = np.int64(x) - 1 if x != 0 else _settle(lz, nbr, k, start)
    if h0 >= UNREACHABLE or h0 > limit or free_after >= limit or _at(occ, start, 0) != 0:
        return np.int64(-1)
    hi = min(nxt[start, 0] - 1, limit)
    best[start * width + hi] = 1
    sk[0] = start * width + hi
    sv[0] = start
    st[0] = 0
    sp[0] = -1
    snext[0] = -1
    head[h0] = 0
    m = 1
    f = h0
    found = np.int64(-1)
    while f <= limit and found == -1:
        i = head[f]
        if i < 0:
            f += 1
            continue
        head[f] = snext[i]
        v = sv[i]
        t = st[i]
        hi = min(nxt[v, t] - 1, limit)
        if best[sk[i]] != t + 1:
            continue  # reached earlier since
        if v == goal and t > free_after:
            found = i
            break
        for d in range(nbr.shape[1]):
            u = nbr[v, d]
            if u < 0:
                continue
            x = lz.dist[k, u]
            hu = np.int64(x) - 1 if x != 0 else _settle(lz, nbr, k, u)
            tu = t + 1
            last = min(hi + 1, limit - hu)  # leaving v by its run's end, and in time for the goal
            while tu <= last:
                if nxt[u, tu] == tu:
                    tu += 1
                    continue
                j = _at(occ, u, tu - 1)
                if j != 0 and _at(occ, v, tu) == j:
                    tu += 1  # the agent on u comes to v: a trade along the edge
                    continue
                uhi = min(nxt[u, tu] - 1, limit)
                key = u * width + uhi
                if best[key] == 0 or best[key] > tu + 1:
                    if m == cap:
                        found = -2
                        break
                    best[key] = tu + 1
                    sk[m] = key
                    sv[m] = u
                    st[m] = tu
                    sp[m] = i
                    snext[m] = head[tu + hu]
                    head[tu + hu] = m
                    m += 1
                tu = uhi + 2  # the next free run of u starts after the one that ends its run
            if found == -2:
                break
    for i in range(m):
        best[sk[i]] = 0
    if found < 0:
        return found
    i = found
    arrival = st[i]
    path[arrival] = sv[i]
    while sp[i] >= 0:
        p = sp[i]
        for t in range(st[p], st[i]):
            path[t] = sv[p]
        i = p
    return np.int64(arrival)
