"""Influence maps: one Dijkstra bounded by a radius per unit, its strength decayed by path cost, summed per team.

A multi-source Dijkstra per team would give each cell the decayed strength of
the *nearest* unit only; the sum over every unit needs each unit's own
distances, so each unit runs its own search, bounded by ``radius`` (its cost
is the area within the radius, not the board). Per-cell state is reset
through the list of touched cells, so a unit costs nothing outside its radius.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from ..movement.heap import heap_pop, heap_up
from ..movement.steps import INF, corner_ok, step_to, unpack_topo
from ..sight.fov import hex_fov, square_fov


@jit
def influence(cell, edge, topo, sources, team, strength, radius, linear, factor, sb, sight, heights, square, out):
    """Add every unit's decayed strength to ``out[team, p]`` over the padded cells ``p`` within ``radius`` of it.

    ``cell``/``edge``/``topo``: the cost field and topology bundle of the
    movement kernels; ``sources``: padded ids of the units, ``team`` their team
    index, ``strength`` their strength. A unit adds ``strength * (1 - d /
    radius)`` (``linear``) or ``strength * factor ** d`` to each cell at path
    cost ``d < radius`` (``<=`` when not linear). With ``sight`` a unit adds
    only to the cells in its field of view (``sb``: the sight board tuple of
    ``sight.fov``; ``heights``: each viewer's eye height; ``square``: the
    square kernel, else the hex one), within ``sight`` cells. A unit on an
    impassable cell adds its strength to its own cell only. Returns the
    number of cells settled.
    """
    off, stepl, corner, ndir, pmode, crule, wrap, width, pw = unpack_topo(topo)
    n = cell.shape[0]
    dist = np.full(n, INF)
    pos = np.full(n, -1, dtype=np.int64)
    hf = np.empty(n, dtype=np.float64)
    hg = np.empty(n, dtype=np.float64)
    hid = np.empty(n, dtype=np.int64)
    touched = np.empty(n, dtype=np.int64)
    seen = np.zeros(n, dtype=np.int64)
    has_edge = edge.shape[0] > 0
    bh, soff, spw, swidth, sheight, swrap, kind = sb
    buf = np.empty(0, dtype=np.int64)
    if sight > 0:
        if square:
            cap = 4 * (sight * sight + 2 * sight) + 1
        else:
            cap = 3 * sight * (sight + 1) + 1
        most = (1 + swrap) * swidth * sheight + 1
        buf = np.empty(cap if cap < most else most, dtype=np.int64)
    settled = 0
    for ui in range(sources.shape[0]):
        s = sources[ui]
        base = team[ui] * n
        st = strength[ui]
        if cell[s] == INF:
            out[base + s] += st
            continue
        if sight > 0:
            sx = s % pw - 1
            sy = s // pw - 1
            if square:
                nv = square_fov(sb, sx, sy, heights[ui], 1, sight, buf)
            else:
                nv = hex_fov(sb, sx, sy, heights[ui], sight, buf)
            for i in range(nv):
                c = buf[i]
                seen[(c // width + 1) * pw + c % width + 1] = ui + 1
        dist[s] = 0.0
        touched[0] = s
        nt = 1
        heap_up(0, 0.0, 0.0, s, hf, hg, hid, pos)
        nh = 1
        while nh > 0:
            u = hid[0]
            du = hf[0]
            nh = heap_pop(nh, hf, hg, hid, pos)
            pos[u] = -2
            settled += 1
            if sight == 0 or seen[u] == ui + 1:
                if linear:
                    out[base + u] += st * (1.0 - du / radius)
                else:
                    out[base + u] += st * factor ** du
            for d in range(ndir):
                q = step_to(u, d, off, ndir, pmode, wrap, width, pw)
                c = cell[q]
                if c == INF or pos[q] == -2:
                    continue
                if crule != 0 and not corner_ok(cell, u, d, corner, crule, off, ndir, pmode, wrap, width, pw):
                    continue
                nd = du + stepl[d] * c
                if has_edge:
                    nd += edge[u * ndir + d]
                if nd > radius or (linear and nd >= radius):
                    continue
                if nd < dist[q]:
                    if dist[q] == INF:
                        touched[nt] = q
                        nt += 1
                    dist[q] = nd
                    i = pos[q]
                    if i < 0:
                        i = nh
                        nh += 1
                    heap_up(i, nd, nd, q, hf, hg, hid, pos)
        for i in range(nt):
            dist[touched[i]] = INF
            pos[touched[i]] = -1
    return settled
