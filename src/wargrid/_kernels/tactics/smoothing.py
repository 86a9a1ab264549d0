"""Straight-line clearance and string pulling (see the package notes for the virtual coordinates).
"""

from __future__ import annotations

import numpy as np

from .._jit import jit

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
def segment_clear(sx, sy, tx, ty, blocked, geo, gen, stack):
    """Whether the segment from the centre of virtual cell ``s`` to that of ``t`` touches only unblocked tiles.

    ``geo`` is the board's tile geometry ``(cxa, cya, wshift, cor, stamp, pw,
    width, height, wrap)``: padded tile centres, the x shift of one board
    width, the tile's corner offsets, and ``stamp`` (int32, padded), which
    marks cells seen with ``gen``. ``stack`` is an int64 scratch array (grown
    when needed; the grown array is returned). Returns ``(clear, stack)``.
    """
    cxa, cya, wshift, cor, stamp, pw, width, height, wrap = geo
    en, elo, ehi = tile_axes(cor)
    return _segment_clear(sx, sy, tx, ty, blocked, cxa, cya, wshift, cor, en, elo, ehi, pw, width, height, wrap, stamp,
                          gen, stack)


@jit
def _segment_clear(sx, sy, tx, ty, blocked, cxa, cya, wshift, cor, en, elo, ehi, pw, width, height, wrap, stamp, gen,
                   stack):
    """``segment_clear`` with the geometry unpacked and ``en``/``elo``/``ehi`` from ``tile_axes(cor)``."""
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
def string_pull(vxs, vys, blocked, geo, gen0):
    """Indices of the path cells kept as waypoints (first and last always kept).

    ``geo`` as in ``segment_clear``. From the last waypoint, the path is followed while the straight line to
    the next cell stays clear; where it stops being clear the cell before
    becomes a waypoint. Returns ``(keep, n, gen)``: the first ``n`` entries of
    ``keep`` and the last generation used.
    """
    cxa, cya, wshift, cor, stamp, pw, width, height, wrap = geo
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
        ok, stack = _segment_clear(vxs[anchor], vys[anchor], vxs[j], vys[j], blocked, cxa, cya, wshift, cor, en, elo,
                                   ehi, pw, width, height, wrap, stamp, gen, stack)
        if not ok:
            anchor = j - 1
            keep[n] = anchor
            n += 1
    if m > 1:
        keep[n] = m - 1
        n += 1
    return keep, n, gen
