"""Lazy Theta* over terrain costs: any-angle search whose segments are priced by the segment cost rule.

Cells are padded ids of a board without wrap. Expanding ``u`` relaxes each
neighbour ``v`` along two routes: the grid step from ``u`` (path 1, exact),
and the straight segment from ``u``'s parent ``p`` (path 2, when ``v`` is not
a neighbour of ``p``, which relaxed it already). Path 2 is not priced at
relaxation: it is *guessed* as ``g(p)`` plus the rate of ``p``'s segment to
``u`` continued to ``v`` (on a board of uniform cost, the exact price of a
clear segment). A cell keeps three candidates: the best path 1 (``g1``), the
best priced segment (``gv``) and the best guess (``gs``); its key in the open
list is the smallest. When a cell whose best candidate is a guess is popped,
the guessed segment is priced exactly (the only tile-by-tile walk of the
search); if the cell's best exact candidate is then dearer than its key, it
goes back into the open list at that price, else it is closed at it, ties to
the segment.

A cell is closed only at an exact price no higher than its key, and every
key is at most the best path 1 from the closed cells; with a heuristic
consistent for grid steps the usual A* argument then closes every cell at a
price no higher than its grid distance: the result never costs more than the
grid path, whatever the guesses are.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from ..movement.heap import heap_pop, heap_up
from ..movement.steps import INF, corner_ok, direction_to, step_to, unpack_topo
from .smoothing import _segment_clear, _segment_cost, tile_axes, tile_sides


@jit
def _exact(p, v, segc, blocked, flat, cxa, cya, wshift, cor, en, elo, ehi, side, ext, gpw, gwidth, height, gwrap,
           square, stamp, gen, stack, spans):
    """Drawing-length x cost of the segment from ``p`` to ``v`` (``inf``: not clear); ``(cost, stack, spans)``."""
    px = p % gpw - 1
    py = p // gpw - 1
    vx = v % gpw - 1
    vy = v // gpw - 1
    if flat > 0.0:
        ok, stack = _segment_clear(px, py, vx, vy, blocked, cxa, cya, wshift, cor, en, elo, ehi, gpw, gwidth, height,
                                   gwrap, square, stamp, gen, stack)
        return (flat * np.sqrt((cxa[p] - cxa[v]) ** 2 + (cya[p] - cya[v]) ** 2) if ok else INF), stack, spans
    return _segment_cost(px, py, vx, vy, segc, cxa, cya, wshift, cor, en, elo, ehi, side, ext, gpw, gwidth, height,
                         gwrap, square, stamp, gen, stack, spans)


@jit
def theta_star(cell, edge, segc, blocked, start, goal, topo, geo, gen, unit, hscale, flat):
    """Any-angle search from ``start`` to ``goal`` (padded ids).

    ``cell``/``edge`` are the cost field's arrays, ``segc`` the entry costs
    segments read (``inf`` where a segment may not go) and ``blocked``
    (uint8) where it is ``inf``, ``topo`` the search kernels' bundle, ``geo``
    the tile geometry of ``segment_clear`` and ``gen`` a fresh generation of
    its stamps (this search uses the following ones too, one a priced
    segment; it returns the last used). ``unit`` is the board's step length,
    ``hscale`` multiplies the straight-line heuristic (drawing distance /
    ``unit``). ``flat`` > 0: every cell ``segc`` allows costs ``flat``, so a
    clear segment costs ``flat`` times its length (no per-tile pricing).
    Returns ``(parent, g, reached, gen)``: parents and costs per padded id
    (``-2``: never closed) and whether the goal was reached.
    """
    off, stepl, corner, ndir, pmode, crule, wrap, width, pw = unpack_topo(topo)
    cxa, cya, wshift, cor, stamp, gpw, gwidth, height, gwrap, square = geo
    en, elo, ehi = tile_axes(cor)
    side, ext = tile_sides(cor, en)
    has_edge = edge.shape[0] > 0
    size = cell.shape[0]
    g = np.full(size, INF)
    parent = np.full(size, -2, dtype=np.int64)
    closed = np.zeros(size, dtype=np.uint8)
    pos = np.full(size, -1, dtype=np.int64)
    g1 = np.full(size, INF)  # best grid step from a closed cell, and that cell
    p1 = np.empty(size, dtype=np.int64)
    gv = np.full(size, INF)  # best priced segment, and where it starts
    pv = np.empty(size, dtype=np.int64)
    gs = np.full(size, INF)  # best guessed segment, and where it starts
    ps = np.empty(size, dtype=np.int64)
    hf = np.empty(size, dtype=np.float64)
    hg = np.empty(size, dtype=np.float64)
    hid = np.empty(size, dtype=np.int64)
    stack = np.empty(256, dtype=np.int64)
    spans = np.empty((3, 64), dtype=np.float64)
    gx = cxa[goal]
    gy = cya[goal]
    hk = hscale / unit
    g1[start] = 0.0
    p1[start] = -1
    heap_up(np.int64(0), np.sqrt((cxa[start] - gx) ** 2 + (cya[start] - gy) ** 2) * hk, 0.0, start, hf, hg, hid, pos)
    n = np.int64(1)
    while n > 0:
        u = hid[0]
        key = hg[0]
        n = heap_pop(n, hf, hg, hid, pos)
        pos[u] = -1
        if gs[u] <= g1[u] and gs[u] <= gv[u]:
            a = ps[u]
            gs[u] = INF
            gen += 1
            c, stack, spans = _exact(a, u, segc, blocked, flat, cxa, cya, wshift, cor, en, elo, ehi, side, ext, gpw,
                                     gwidth, height, gwrap, square, stamp, gen, stack, spans)
            c = g[a] + c / unit
            if c <= gv[u]:
                gv[u] = c
                pv[u] = a
            best = min(g1[u], gv[u])
            if best > key:
                if best < INF:
                    f = best + np.sqrt((cxa[u] - gx) ** 2 + (cya[u] - gy) ** 2) * hk
                    heap_up(n, f, best, u, hf, hg, hid, pos)
                    n += 1
                continue
        if gv[u] <= g1[u]:
            g[u] = gv[u]
            parent[u] = pv[u]
        else:
            g[u] = g1[u]
            parent[u] = p1[u]
        closed[u] = 1
        if u == goal:
            return parent, g, True, gen
        gu = g[u]
        pu = parent[u]
        rate = 0.0
        if pu >= 0:
            dpu = np.sqrt((cxa[pu] - cxa[u]) ** 2 + (cya[pu] - cya[u]) ** 2)
            rate = (gu - g[pu]) / dpu
        for d in range(ndir):
            v = step_to(u, d, off, ndir, pmode, wrap, width, pw)
            if closed[v]:
                continue
            cv = cell[v]
            if cv == INF:
                continue
            if crule != 0 and not corner_ok(cell, u, d, corner, crule, off, ndir, pmode, wrap, width, pw):
                continue
            step = stepl[d] * cv
            if has_edge:
                e = edge[u * ndir + d]
                if e == INF:
                    continue
                step += e
            best = min(g1[v], gv[v], gs[v])
            old = best
            c1 = gu + step
            if c1 < g1[v]:
                g1[v] = c1
                p1[v] = u
                best = min(best, c1)
            if pu >= 0 and segc[v] < INF and direction_to(pu, v, off, ndir, pmode, wrap, width, pw) < 0:
                c2 = g[pu] + rate * np.sqrt((cxa[pu] - cxa[v]) ** 2 + (cya[pu] - cya[v]) ** 2)
                if c2 <= best and c2 < gs[v]:
                    gs[v] = c2
                    ps[v] = pu
                    best = c2
            if best < old or pos[v] < 0:
                f = best + np.sqrt((cxa[v] - gx) ** 2 + (cya[v] - gy) ** 2) * hk
                if pos[v] >= 0:
                    heap_up(pos[v], f, best, v, hf, hg, hid, pos)
                else:
                    heap_up(n, f, best, v, hf, hg, hid, pos)
                    n += 1
    return parent, g, False, gen


@jit
def shortcut(ids, g, cell, edge, segc, blocked, topo, geo, gen, unit, flat):
    """Theta*'s waypoints ``ids`` (padded, from start to goal; ``g`` the search's costs) with each waypoint
    linked straight to the furthest later one where that is no dearer than the chain between them (Theta* looks
    one parent back only, so a clear straight run can stay bent). Between neighbours the link is the grid step.
    Returns ``(keep, seg, n, gen)``: the first ``n`` entries of ``keep`` index the waypoints kept, ``seg`` holds
    the ``n - 1`` segment costs, ``gen`` the last stamp generation used (one a priced segment, from ``gen``)."""
    off, stepl, corner, ndir, pmode, crule, wrap, width, pw = unpack_topo(topo)
    cxa, cya, wshift, cor, stamp, gpw, gwidth, height, gwrap, square = geo
    en, elo, ehi = tile_axes(cor)
    side, ext = tile_sides(cor, en)
    stack = np.empty(256, dtype=np.int64)
    spans = np.empty((3, 64), dtype=np.float64)
    m = ids.shape[0]
    keep = np.empty(m, dtype=np.int64)
    seg = np.empty(m, dtype=np.float64)
    keep[0] = 0
    n = 1
    i = 0
    while i < m - 1:
        a = ids[i]
        nxt = i + 1
        cost = g[ids[i + 1]] - g[a]
        for j in range(m - 1, i + 1, -1):
            b = ids[j]
            d = direction_to(a, b, off, ndir, pmode, wrap, width, pw)
            if d >= 0:
                c = stepl[d] * cell[b]
                if edge.shape[0] > 0:
                    c += edge[a * ndir + d]
                if crule != 0 and not corner_ok(cell, a, d, corner, crule, off, ndir, pmode, wrap, width, pw):
                    c = INF
            else:
                gen += 1
                c, stack, spans = _exact(a, b, segc, blocked, flat, cxa, cya, wshift, cor, en, elo, ehi, side, ext,
                                         gpw, gwidth, height, gwrap, square, stamp, gen, stack, spans)
                c = c / unit
            if c <= g[b] - g[a]:
                nxt = j
                cost = c
                break
        keep[n] = nxt
        seg[n - 1] = cost
        n += 1
        i = nxt
    return keep, seg, n, gen

