"""A best-first search that records what it does, for pictures of the search (the playground's step-through).

``search_trace`` walks the board exactly as ``astar.astar`` does (same
neighbour rule, corner rule, step lengths, edge costs and order: smaller
``f``, then larger ``g``, then the smaller padded id), with the priority
chosen by ``mode``:

- ``BFS`` (0): the number of steps (every passable step counts 1);
- ``DIJKSTRA`` (1): the cost so far ``g``;
- ``GREEDY`` (2): the heuristic ``h * hscale`` alone (a cell is pushed once);
- ``ASTAR`` (3): ``g + h * hscale``, the search of ``Map.path``.

It writes, in the order cells are closed, their padded ids (``order``),
parents, ``g`` and unscaled ``h``; and, in the order cells are first opened,
their ids and the number of cells closed when they were opened
(``opened_at``), so the open set after any number of steps can be drawn.
"""

from __future__ import annotations

from .._jit import jit
from .heap import close_top, heap_up, open_start
from .heuristics import heuristic_xy
from .steps import INF, corner_pass, parity_slot, step_xy, topo_info

BFS = 0
DIJKSTRA = 1
GREEDY = 2
ASTAR = 3


@jit
def search_trace(cell, edge, start, goal, early, topo, hscale, mode, state, gen,
                 order, par, gout, hout, opened, opened_at):
    """Search from ``start`` (padded id) towards ``goal``; returns ``(closed, opened, reached)``.

    ``early``: stop when the goal is closed (otherwise every reachable cell
    is closed). ``reached`` is the goal's padded id when it was closed, else
    -1. The output arrays hold at least the padded board's size.
    """
    off, dxa, dya, stepl, corner, ti = topo
    g, parent, stamp, pos, hf, hg, hid = state
    ndir, pmode, crule, wrap, width, pw, hk, hexk = topo_info(ti)
    has_edge = edge.shape[0] > 0
    gx = goal % pw - 1
    gy = goal // pw - 1
    op = 2 * gen
    cl = op + 1
    h0 = heuristic_xy(start % pw - 1, start // pw - 1, gx, gy, hk, hexk, wrap, width)
    f0 = 0.0
    if mode == GREEDY or mode == ASTAR:
        f0 = h0 * hscale
    n = open_start(start, f0, state, gen)
    nc = 0
    no = 1
    opened[0] = start
    opened_at[0] = 0
    reached = -1
    while n > 0:
        u, gu, n = close_top(n, state, gen)
        ux = u % pw - 1
        uy = u // pw - 1
        order[nc] = u
        par[nc] = parent[u]
        gout[nc] = g[u]
        hout[nc] = heuristic_xy(ux, uy, gx, gy, hk, hexk, wrap, width)
        nc += 1
        if u == goal:
            reached = u
            if early:
                break
        base = parity_slot(ux, uy, pmode, ndir)
        for d in range(ndir):
            k = base + d
            q, qx = step_xy(u, ux, k, off, dxa, wrap, width)
            c = cell[q]
            if c == INF:
                continue
            s = stamp[q]
            if s == cl:
                continue
            if not corner_pass(cell, u, ux, base, d, corner, crule, off, dxa, wrap, width):
                continue
            if mode == BFS:
                nd = gu + 1.0
                if has_edge and edge[u * ndir + d] == INF:
                    continue
            else:
                nd = gu + stepl[d] * c
                if has_edge:
                    nd += edge[u * ndir + d]
                    if nd == INF:
                        continue
            if s == op:
                if mode == GREEDY or nd >= g[q]:
                    continue
                i = pos[q]
            else:
                stamp[q] = op
                i = n
                n += 1
                opened[no] = q
                opened_at[no] = nc
                no += 1
            g[q] = nd
            parent[q] = u
            if mode == BFS or mode == DIJKSTRA:
                f = nd
            else:
                f = heuristic_xy(qx, uy + dya[k], gx, gy, hk, hexk, wrap, width) * hscale
                if mode == ASTAR:
                    f += nd
            heap_up(i, f, nd, q, hf, hg, hid, pos)
    return nc, no, reached
