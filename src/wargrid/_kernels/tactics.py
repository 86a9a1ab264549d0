"""Tactics kernels over the padded flat layout: straight-line clearance, string pulling, facing search.

Straight lines. A cell is named by *virtual* coordinates ``(vx, vy)``: on a
wrapped board ``vx`` may leave ``0..width-1`` so that a line across the seam
stays straight; its real padded id is ``(vy + 1) * pw + vx mod width + 1`` and
its centre ``(cxa[p] + k * wshift, cya[p])`` with ``k = vx // width``
(``cxa``/``cya``: padded centres in drawing units, ``wshift``: how far one
board width moves a centre). Every tile of a board is the same convex
polygon around its centre (``cor``: ``(k, 2)`` corner offsets). The cells a
segment touches form a connected set in the 3 x 3 box of offset neighbours
(on every board kind touching tiles lie in that box), so a flood fill from
the first cell that only expands through touched cells finds them all; the
segment is clear when none of them is blocked. Touching a blocked tile's edge
or corner counts as blocked: a line never squeezes between two blocked
corners.

Facing search. The state ``p * ndir + f`` is a cell and a facing (a board
direction). A unit moves one step in the direction it faces, and turns one
facing step either way (on the spot, or only while moving); Dijkstra over
these states with ``time`` costs.
"""

from __future__ import annotations

import numpy as np

from ._jit import jit
from .search import heap_pop, heap_up, step_to

INF = np.inf


@jit
def touches(ax, ay, bx, by, cx, cy, cor):
    """Whether segment ``a``-``b`` meets the closed tile with centre ``(cx, cy)`` (separating axes)."""
    en, elo, ehi = tile_axes(cor)
    nx, ny, plo, phi, pa, pb = segment_axes(ax, ay, bx, by, cor, en)
    return touches_fast(cx, cy, nx, ny, ax * nx + ay * ny, plo, phi, pa, pb, en, elo, ehi)


@jit
def tile_axes(cor):
    """The tile's edge normals ``en`` (k, 2) and its extent along each, relative to its centre."""
    k = cor.shape[0]
    en = np.empty((k, 2), dtype=np.float64)
    elo = np.empty(k, dtype=np.float64)
    ehi = np.empty(k, dtype=np.float64)
    for i in range(k):
        j = (i + 1) % k
        en[i, 0] = -(cor[j, 1] - cor[i, 1])
        en[i, 1] = cor[j, 0] - cor[i, 0]
        lo = INF
        hi = -INF
        for m in range(k):
            v = cor[m, 0] * en[i, 0] + cor[m, 1] * en[i, 1]
            lo = min(lo, v)
            hi = max(hi, v)
        tol = 1e-9 * (abs(en[i, 0]) + abs(en[i, 1]))
        elo[i] = lo - tol
        ehi[i] = hi + tol
    return en, elo, ehi


@jit
def segment_axes(ax, ay, bx, by, cor, en):
    """Per segment: its normal, the tile's extent along it (with tolerance) and both ends on the edge normals."""
    nx = ay - by
    ny = bx - ax
    lo = INF
    hi = -INF
    for m in range(cor.shape[0]):
        v = cor[m, 0] * nx + cor[m, 1] * ny
        lo = min(lo, v)
        hi = max(hi, v)
    tol = 1e-9 * (abs(nx) + abs(ny))
    k = en.shape[0]
    pa = np.empty(k, dtype=np.float64)
    pb = np.empty(k, dtype=np.float64)
    for i in range(k):
        pa[i] = ax * en[i, 0] + ay * en[i, 1]
        pb[i] = bx * en[i, 0] + by * en[i, 1]
    return nx, ny, lo - tol, hi + tol, pa, pb


@jit
def touches_fast(cx, cy, nx, ny, s, plo, phi, pa, pb, en, elo, ehi):
    """``touches`` with the per-tile and per-segment parts computed beforehand."""
    v = cx * nx + cy * ny
    if v + plo > s or v + phi < s:
        return False
    for i in range(en.shape[0]):
        c = cx * en[i, 0] + cy * en[i, 1]
        a = pa[i] - c
        b = pb[i] - c
        if max(a, b) < elo[i] or min(a, b) > ehi[i]:
            return False
    return True


@jit
def _real(vx, vy, pw, width, wrap):
    """``(padded id, k)`` of virtual cell ``(vx, vy)``; ``k`` counts board widths."""
    if wrap:
        k = vx // width
        return (vy + 1) * pw + (vx - k * width) + 1, k
    return (vy + 1) * pw + vx + 1, 0


@jit
def segment_clear(sx, sy, tx, ty, blocked, cxa, cya, wshift, cor, en, elo, ehi, pw, width, height, wrap, stamp, gen,
                  stack):
    """Whether the segment from the centre of virtual cell ``s`` to that of ``t`` touches only unblocked tiles.

    ``stamp`` (int32, padded) marks cells seen with ``gen``; ``stack`` is an
    int64 scratch array (grown when needed; the grown array is returned);
    ``en``/``elo``/``ehi`` come from ``tile_axes(cor)``. Returns ``(clear, stack)``.
    """
    p, k = _real(sx, sy, pw, width, wrap)
    ax = cxa[p] + k * wshift
    ay = cya[p]
    q, k2 = _real(tx, ty, pw, width, wrap)
    bx = cxa[q] + k2 * wshift
    by = cya[q]
    nx, ny, plo, phi, pa, pb = segment_axes(ax, ay, bx, by, cor, en)
    s = ax * nx + ay * ny
    stack[0] = sx
    stack[1] = sy
    top = 1
    stamp[p] = gen
    while top > 0:
        top -= 1
        vx = stack[2 * top]
        vy = stack[2 * top + 1]
        c, kk = _real(vx, vy, pw, width, wrap)
        if not touches_fast(cxa[c] + kk * wshift, cya[c], nx, ny, s, plo, phi, pa, pb, en, elo, ehi):
            continue
        if blocked[c]:
            return False, stack
        if vy < 0 or vy >= height or (not wrap and (vx < 0 or vx >= width)):
            return False, stack  # off the board (padding is blocked anyway)
        for dy in range(-1, 2):
            for dx in range(-1, 2):
                nvx = vx + dx
                nvy = vy + dy
                n, _ = _real(nvx, nvy, pw, width, wrap)
                if stamp[n] == gen:
                    continue
                stamp[n] = gen
                if 2 * top + 2 > stack.shape[0]:
                    bigger = np.empty(2 * stack.shape[0], dtype=np.int64)
                    bigger[: stack.shape[0]] = stack
                    stack = bigger
                stack[2 * top] = nvx
                stack[2 * top + 1] = nvy
                top += 1
    return True, stack


@jit
def string_pull(vxs, vys, blocked, cxa, cya, wshift, cor, pw, width, height, wrap, stamp, gen0):
    """Indices of the path cells kept as waypoints (first and last always kept).

    From the last waypoint, the path is followed while the straight line to
    the next cell stays clear; where it stops being clear the cell before
    becomes a waypoint. Returns ``(keep, n, gen)``: the first ``n`` entries of
    ``keep`` and the last generation used.
    """
    m = vxs.shape[0]
    keep = np.empty(m, dtype=np.int64)
    keep[0] = 0
    n = 1
    gen = gen0
    stack = np.empty(256, dtype=np.int64)
    en, elo, ehi = tile_axes(cor)
    anchor = 0
    for j in range(2, m):
        gen += 1
        ok, stack = segment_clear(vxs[anchor], vys[anchor], vxs[j], vys[j], blocked, cxa, cya, wshift, cor, en, elo, ehi,
                                  pw, width, height, wrap, stamp, gen, stack)
        if not ok:
            anchor = j - 1
            keep[n] = anchor
            n += 1
    if m > 1:
        keep[n] = m - 1
        n += 1
    return keep, n, gen


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
def facing_search(cell, edge, off, ndir, pmode, wrap, width, pw, corner, crule, stepl, start, f0, goal, gf, move_time,
                  turn_time, pivot, dist, parent, stamp, pos, hf, hg, hid, gen):
    """Dijkstra over ``(cell, facing)`` states from ``start`` facing ``f0`` to ``goal`` facing ``gf`` (-1: any).

    Moving from ``p`` along facing ``f`` to ``q`` takes ``(stepl[f] * cell[q] +
    edge[p * ndir + f]) * move_time`` (``edge`` may be empty). With ``pivot``
    a unit also turns one facing step either way on the spot in
    ``turn_time``; without, it turns only while it moves: a step in direction
    ``f +- 1`` ends facing that way and takes the longer of the move and the
    turn. Per-state arrays (``padded * ndir`` long) are reused between
    queries: ``stamp[v] == 2 * gen`` means open in this query, ``2 * gen + 1``
    closed, anything else unseen (its ``dist``/``parent`` are stale).
    Returns the state reached at the goal, or -1.
    """
    s0 = start * ndir + f0
    dist[s0] = 0.0
    parent[s0] = -1
    stamp[s0] = 2 * gen
    heap_up(0, 0.0, 0.0, s0, hf, hg, hid, pos)
    size = 1
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


@jit
def hungarian(a):
    """Column for each row of the square float matrix ``a`` minimising the total (potentials, O(n^3))."""
    n = a.shape[0]
    u = np.zeros(n + 1)
    v = np.zeros(n + 1)
    p = np.zeros(n + 1, dtype=np.int64)
    way = np.zeros(n + 1, dtype=np.int64)
    minv = np.empty(n + 1)
    used = np.empty(n + 1, dtype=np.uint8)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv[:] = INF
        used[:] = 0
        while True:
            used[j0] = 1
            i0 = p[j0]
            delta = INF
            j1 = 0
            for j in range(1, n + 1):
                if not used[j]:
                    cur = a[i0 - 1, j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(n + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    out = np.zeros(n, dtype=np.int64)
    for j in range(1, n + 1):
        out[p[j] - 1] = j - 1
    return out
