"""Facing search: Dijkstra over (cell, facing) states.

The state ``p * ndir + f`` is a cell and a facing (a board direction). A unit
moves one step in the direction it faces, and turns one facing step either
way (on the spot, or only while moving); Dijkstra over these states with
``time`` costs.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from ..movement.heap import heap_pop, heap_up
from ..movement.steps import step_to, unpack_topo


INF = np.inf


@jit
def _enter(cell, edge, off, ndir, pmode, wrap, width, pw, corner, crule, stepl, p, d):
    """``(q, cost)`` of the step from ``p`` in direction ``d``; ``q = -1`` when it is not allowed."""
    q = step_to(p, d, off, ndir, pmode, wrap, width, pw)
    c0 = cell[q]
    if not c0 < INF:
        return -1, INF
    if corner[2 * d] >= 0 and crule != 0:
        ca = cell[step_to(p, corner[2 * d], off, ndir, pmode, wrap, width, pw)] < INF
        cb = cell[step_to(p, corner[2 * d + 1], off, ndir, pmode, wrap, width, pw)] < INF
        if (crule == 1 and not (ca and cb)) or (crule == 2 and not (ca or cb)):
            return -1, INF
    sc = stepl[d] * c0
    if edge.shape[0] > 0:
        sc += edge[p * ndir + d]
        if not sc < INF:
            return -1, INF
    return q, sc


@jit
def facing_search(cell, edge, topo, ends, unit, state, gen):
    """Dijkstra over ``(cell, facing)`` states from ``start`` facing ``f0`` to ``goal`` facing ``gf`` (-1: any).

    ``topo`` is the topology bundle (``movement.search.topo_bundle``), ``ends``
    the query ``(start, f0, goal, gf)``, ``unit`` the unit's ``(move_time,
    turn_time, pivot)``, ``state`` a search state's ``(dist, parent, stamp,
    pos, hf, hg, hid)`` (``movement.search.SearchState.arrays``) over
    ``padded * ndir`` states. Moving from ``p`` along facing ``f`` to ``q``
    takes ``(stepl[f] * cell[q] + edge[p * ndir + f]) * move_time`` (``edge``
    may be empty). With ``pivot`` a unit also turns one facing step either
    way on the spot in ``turn_time``; without, it turns only while it moves: a
    step in direction ``f +- 1`` ends facing that way and takes the longer of
    the move and the turn. The state arrays are reused between queries:
    ``stamp[v] == 2 * gen`` means open in this query, ``2 * gen + 1`` closed,
    anything else unseen (its ``dist``/``parent`` are stale). Returns the state
    reached at the goal, or -1.
    """
    off, stepl, corner, ndir, pmode, crule, wrap, width, pw = unpack_topo(topo)
    start, f0, goal, gf = ends
    move_time, turn_time, pivot = unit
    dist, parent, stamp, pos, hf, hg, hid = state
    s0 = start * ndir + f0
    dist[s0] = 0.0
    parent[s0] = -1
    stamp[s0] = 2 * gen
    heap_up(np.int64(0), 0.0, 0.0, s0, hf, hg, hid, pos)
    size = np.int64(1)
    while size > 0:
        u = hid[0]
        du = hf[0]
        size = heap_pop(size, hf, hg, hid, pos)
        stamp[u] = 2 * gen + 1
        p = u // ndir
        f = u - p * ndir
        if p == goal and (gf < 0 or f == gf):
            return u
        for a in range(3):
            nf = f if a == 0 else (f + (1 if a == 1 else ndir - 1)) % ndir
            if a > 0 and pivot:
                v = p * ndir + nf
                nd = du + turn_time
            else:
                q, sc = _enter(cell, edge, off, ndir, pmode, wrap, width, pw, corner, crule, stepl, p, nf)
                if q < 0:
                    continue
                v = q * ndir + nf
                nd = du + (sc * move_time if a == 0 else max(sc * move_time, turn_time))
            st = stamp[v]
            if st == 2 * gen + 1:
                continue
            if st == 2 * gen:
                if not nd < dist[v]:
                    continue
                dist[v] = nd
                parent[v] = u
                heap_up(pos[v], nd, nd, v, hf, hg, hid, pos)
            else:
                stamp[v] = 2 * gen
                dist[v] = nd
                parent[v] = u
                heap_up(size, nd, nd, v, hf, hg, hid, pos)
                size += 1
    return -1
