"""Theta* over terrain costs: any-angle search whose segments are priced by the segment cost rule.

Cells are padded ids of a board without wrap. Expanding ``s`` relaxes each
neighbour ``n`` along two routes: the grid step from ``s`` (path 1), and the
straight segment from ``s``'s parent (path 2, when ``n`` is not a neighbour
of that parent, which relaxed it already); the cheaper wins, ties to the
segment. Because path 1 is always among the candidates and the heuristic is
consistent for grid steps, every cell is closed at a cost no higher than its
grid distance: the result never costs more than the grid path.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from ..movement.heap import heap_pop, heap_up
from ..movement.steps import INF, corner_ok, step_to, unpack_topo
from .smoothing import _segment_clear, _segment_cost, tile_axes, tile_sides


@jit
def _is_neighbour(a, b, off, ndir, pmode, wrap, width, pw):
    for d in range(ndir):
        if step_to(a, d, off, ndir, pmode, wrap, width, pw) == b:
            return True
    return False


@jit
def theta_star(cell, edge, segc, blocked, start, goal, topo, geo, gen, unit, hscale, flat):
    """Any-angle search from ``start`` to ``goal`` (padded ids).

    ``cell``/``edge`` are the cost field's arrays, ``segc`` the entry costs
    segments read (``inf`` where a segment may not go) and ``blocked`` (uint8) where it is ``inf``, ``topo`` the search
    kernels' bundle, ``geo`` the tile geometry of ``segment_clear`` and
    ``gen`` a fresh generation of its stamps (this search uses the following
    ones too; it returns the last used). ``unit`` is the board's step length,
    ``hscale`` multiplies the straight-line heuristic (drawing distance /
    ``unit``). ``flat`` > 0: every cell ``segc`` allows costs ``flat``, so a
    clear segment costs ``flat`` times its length (no per-tile pricing). Returns ``(parent, g, reached, gen)``: parents and costs per
    padded id (``-2``: never reached) and whether the goal was reached.
    """
    off, stepl, corner, ndir, pmode, crule, wrap, width, pw = unpack_topo(topo)
    cxa, cya, wshift, cor, stamp, gpw, gwidth, height, gwrap = geo
    en, elo, ehi = tile_axes(cor)
    side, ext = tile_sides(cor, en)
    has_edge = edge.shape[0] > 0
    size = cell.shape[0]
    g = np.full(size, INF)
    parent = np.full(size, -2, dtype=np.int64)
    closed = np.zeros(size, dtype=np.uint8)
    pos = np.full(size, -1, dtype=np.int64)
    hf = np.empty(size, dtype=np.float64)
    hg = np.empty(size, dtype=np.float64)
    hid = np.empty(size, dtype=np.int64)
    stack = np.empty(256, dtype=np.int64)
    spans = np.empty((3, 64), dtype=np.float64)
    gx = cxa[goal]
    gy = cya[goal]
    g[start] = 0.0
    parent[start] = -1
    h0 = np.sqrt((cxa[start] - gx) ** 2 + (cya[start] - gy) ** 2) / unit * hscale
    heap_up(0, h0, 0.0, start, hf, hg, hid, pos)
    n = 1
    while n > 0:
        u = hid[0]
        n = heap_pop(n, hf, hg, hid, pos)
        pos[u] = -1
        closed[u] = 1
        if u == goal:
            return parent, g, True, gen
        gu = g[u]
        pu = parent[u]
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
            best = gu + step
            bp = u
            if pu >= 0 and not _is_neighbour(pu, v, off, ndir, pmode, wrap, width, pw):
                gen += 1
                if flat > 0.0:
                    ok, stack = _segment_clear(pu % pw - 1, pu // pw - 1, v % pw - 1, v // pw - 1, blocked, cxa, cya,
                                               wshift, cor, en, elo, ehi, gpw, gwidth, height, gwrap, stamp, gen,
                                               stack)
                    c = flat * np.sqrt((cxa[pu] - cxa[v]) ** 2 + (cya[pu] - cya[v]) ** 2) if ok else INF
                else:
                    c, stack, spans = _segment_cost(pu % pw - 1, pu // pw - 1, v % pw - 1, v // pw - 1, segc, cxa,
                                                    cya, wshift, cor, en, elo, ehi, side, ext, gpw, gwidth, height,
                                                    gwrap, stamp, gen, stack, spans)
                c2 = g[pu] + c / unit
                if c2 <= best:
                    best = c2
                    bp = pu
            if best < g[v]:
                g[v] = best
                parent[v] = bp
                f = best + np.sqrt((cxa[v] - gx) ** 2 + (cya[v] - gy) ** 2) / unit * hscale
                if pos[v] >= 0:
                    heap_up(pos[v], f, best, v, hf, hg, hid, pos)
                else:
                    heap_up(n, f, best, v, hf, hg, hid, pos)
                    n += 1
    return parent, g, False, gen
