"""Multi-turn routes: fewest turns, then fewest points spent in the last one.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from .heap import heap_pop, heap_up
from .steps import INF, corner_ok, step_to, topo_info


@jit
def route(cell, edge, stop, start, goal, topo, points, used0, labels, heap):
    """Fewest turns, then fewest points spent in the last turn, from ``start`` to ``goal``.

    A label is ``(turn, used)``. A step of cost ``c`` is made this turn when
    ``used + c <= points``; otherwise the unit waits: the step opens the next
    turn with ``used = c`` (points left over are lost). A step dearer than a
    whole turn is never made. Entering a ``stop`` cell (zone of control) ends
    the turn: ``used`` becomes ``points``. ``turn`` must be all -1 and
    ``closed`` all 0 on entry. Returns 1 when the goal was reached, else 0.
    The labels are ordered lexicographically and the step rule is monotone in
    them, so this Dijkstra is exact. ``labels`` is ``(turn, used, parent,
    closed)``, ``heap`` the open list's ``(pos, hf, hg, hid)``.
    """
    off, _, _, stepl, corner, ti = topo
    turn, used, parent, closed = labels
    pos, hf, hg, hid = heap
    ndir, pmode, crule, wrap, width, pw, _, _ = topo_info(ti)
    has_edge = edge.shape[0] > 0
    has_stop = stop.shape[0] > 0
    turn[start] = 0
    used[start] = used0
    parent[start] = -1
    heap_up(np.int64(0), 0.0, -used0, start, hf, hg, hid, pos)
    n = np.int64(1)
    while n > 0:
        u = hid[0]
        n = heap_pop(n, hf, hg, hid, pos)
        closed[u] = 1
        if u == goal:
            return 1
        tu = turn[u]
        uu = used[u]
        for d in range(ndir):
            q = step_to(u, d, off, ndir, pmode, wrap, width, pw)
            c = cell[q]
            if c == INF or closed[q]:
                continue
            if crule != 0 and not corner_ok(cell, u, d, corner, crule, off, ndir, pmode, wrap, width, pw):
                continue
            sc = stepl[d] * c
            if has_edge:
                sc += edge[u * ndir + d]
            if sc > points:
                continue
            if uu + sc <= points:
                nt = tu
                nu = uu + sc
            else:
                nt = tu + 1
                nu = sc
            if has_stop and stop[q] != 0:
                nu = points
            tq = turn[q]
            if tq < 0 or nt < tq or (nt == tq and nu < used[q]):
                turn[q] = nt
                used[q] = nu
                parent[q] = u
                if tq < 0:
                    heap_up(n, float(nt), -nu, q, hf, hg, hid, pos)
                    n += 1
                else:
                    heap_up(pos[q], float(nt), -nu, q, hf, hg, hid, pos)
    return 0
