"""Straight-line clearance and string pulling (see the package notes for the virtual coordinates).
"""

from __future__ import annotations

import numpy as np

from .._jit import helper, jit

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


@helper
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
def _push_box(vx, vy, pw, width, wrap, stamp, gen, stack, top):
    """Push the unstamped cells of the 3 x 3 box around virtual cell ``(vx, vy)``; returns ``(stack, top)``."""
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
    return stack, top


@jit
def segment_clear(sx, sy, tx, ty, blocked, geo, gen, stack):
    """Whether the segment from the centre of virtual cell ``s`` to that of ``t`` touches only unblocked tiles.

    ``geo`` is the board's tile geometry ``(cxa, cya, wshift, cor, stamp, pw,
    width, height, wrap, square)``: padded tile centres, the x shift of one board
    width, the tile's corner offsets, ``stamp`` (int32, padded), which
    marks cells seen with ``gen``, and ``square`` (unit squares on the integer
    lattice: the tiles are walked column by column, ``square_walk``). ``stack`` is an int64 scratch array (grown
    when needed; the grown array is returned). Returns ``(clear, stack)``.
    """
    cxa, cya, wshift, cor, stamp, pw, width, height, wrap, square = geo
    en, elo, ehi = tile_axes(cor)
    return _segment_clear(sx, sy, tx, ty, blocked, cxa, cya, wshift, cor, en, elo, ehi, pw, width, height, wrap, square,
                          stamp, gen, stack)


@jit
def _flood_start(sx, sy, tx, ty, cxa, cya, wshift, cor, en, pw, width, wrap, stamp, gen, stack):
    """Set up the flood over the tiles a segment touches: its end cells' padded ids and centres (wrap unrolled),
    its axes (``segment_axes``) and offset ``s``; the flood's stack holds the start cell, stamped ``gen``.

    Returns ``(q, ax, ay, bx, by, nx, ny, plo, phi, pa, pb, s)`` (``q``: the end cell's padded id).
    """
    p, k = _real(sx, sy, pw, width, wrap)
    ax = cxa[p] + k * wshift
    ay = cya[p]
    q, k2 = _real(tx, ty, pw, width, wrap)
    bx = cxa[q] + k2 * wshift
    by = cya[q]
    nx, ny, plo, phi, pa, pb = segment_axes(ax, ay, bx, by, cor, en)
    stack[0] = sx
    stack[1] = sy
    stamp[p] = gen
    return q, ax, ay, bx, by, nx, ny, plo, phi, pa, pb, ax * nx + ay * ny


@jit
def _segment_clear(sx, sy, tx, ty, blocked, cxa, cya, wshift, cor, en, elo, ehi, pw, width, height, wrap, square,
                   stamp, gen, stack):
    """``segment_clear`` with the geometry unpacked and ``en``/``elo``/``ehi`` from ``tile_axes(cor)``."""
    if square:
        return square_walk(sx, sy, tx, ty, blocked, 1, pw, width, wrap, False) == 0.0, stack
    q, ax, ay, bx, by, nx, ny, plo, phi, pa, pb, s = _flood_start(sx, sy, tx, ty, cxa, cya, wshift, cor, en, pw, width,
                                                                  wrap, stamp, gen, stack)
    top = 1
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
        stack, top = _push_box(vx, vy, pw, width, wrap, stamp, gen, stack, top)
    return True, stack


@jit
def square_walk(sx, sy, tx, ty, arr, bad, pw, width, wrap, priced):
    """The tiles the segment between the centres of virtual cells ``s`` and ``t`` of a square board touches,
    walked column by column in exact integer arithmetic (major axis ``M``, minor ``m``).

    Column ``i`` of the major axis holds the stretch of the segment between
    ``(2i - 1) / 2M`` and ``(2i + 1) / 2M`` of its length (clipped to the
    ends), which spans the minor range ``m (2i -+ 1) / 2M``; the closed tiles
    that range touches are rows ``ceil((m a - M) / 2M)`` to ``floor((m b + M)
    / 2M)``, corners included. Returns ``inf`` when a touched tile holds
    ``bad`` in ``arr``; else, when ``priced``, the segment cost rule's
    drawing-length x cost (the start tile at the end tile's cost; the length
    inside a tile is the minor overlap over ``m``, or the column's share when
    ``m`` is 0), otherwise 0.
    """
    dx = tx - sx
    dy = ty - sy
    ux = 1 if dx >= 0 else -1
    uy = 1 if dy >= 0 else -1
    xmajor = abs(dx) >= abs(dy)
    big = abs(dx) if xmajor else abs(dy)
    small = abs(dy) if xmajor else abs(dx)
    q, _ = _real(tx, ty, pw, width, wrap)
    if big == 0:
        return INF if arr[q] == bad else 0.0
    total = 0.0
    two = 2 * big
    for i in range(big + 1):
        a = 2 * i - 1 if i > 0 else 0
        b = 2 * i + 1 if i < big else two
        lo = small * a - big
        j0 = -((-lo) // two)
        j1 = (small * b + big) // two
        for j in range(j0, j1 + 1):
            if xmajor:
                c, _ = _real(sx + ux * i, sy + uy * j, pw, width, wrap)
            else:
                c, _ = _real(sx + ux * j, sy + uy * i, pw, width, wrap)
            v = arr[c]
            if v == bad:
                return INF
            if priced:
                if small == 0:
                    share = (b - a) / two
                else:
                    share = (min(small * b, (2 * j + 1) * big) - max(small * a, (2 * j - 1) * big)) / (two * small)
                if share > 0.0:
                    total += (arr[q] if (i == 0 and j == 0) else v) * share
    if not priced:
        return 0.0
    return total * np.sqrt(float(dx * dx + dy * dy))


# -- segment costs: the length a segment runs inside each tile, weighted by the tile's entry cost -------------

@jit
def tile_sides(cor, en):
    """Per edge of the tile: ``s`` (+1 or -1) and ``e`` such that a point ``v`` (relative to the centre) is inside
    when ``s * (v . en) <= e`` for every edge."""
    k = cor.shape[0]
    side = np.empty(k, dtype=np.float64)
    ext = np.empty(k, dtype=np.float64)
    for i in range(k):
        v = cor[i, 0] * en[i, 0] + cor[i, 1] * en[i, 1]
        side[i] = 1.0 if v >= 0 else -1.0
        ext[i] = abs(v)
    return side, ext


@helper
def inside_span(ax, ay, bx, by, cx, cy, en, side, ext):
    """``(t0, t1)``: the parameters of segment ``a``-``b`` inside the convex tile centred at ``(cx, cy)``
    (Cyrus-Beck clipping; ``t0 >= t1``: it does not run inside)."""
    t0 = 0.0
    t1 = 1.0
    dx = bx - ax
    dy = by - ay
    dl = np.sqrt(dx * dx + dy * dy)
    for i in range(en.shape[0]):
        el = np.sqrt(en[i, 0] * en[i, 0] + en[i, 1] * en[i, 1])
        num = ext[i] - side[i] * ((ax - cx) * en[i, 0] + (ay - cy) * en[i, 1])
        den = side[i] * (dx * en[i, 0] + dy * en[i, 1])
        if abs(den) <= 1e-12 * dl * el:  # parallel to the edge (a line along it is inside, up to rounding)
            if num < -1e-9 * el:
                return 1.0, 0.0
        elif den > 0.0:
            t1 = min(t1, num / den)
        else:
            t0 = max(t0, num / den)
        if t0 >= t1:
            return 1.0, 0.0
    return t0, t1


@jit
def _priced_length(t0s, t1s, cs, n):
    """Sum over the pieces of ``[0, 1]`` of (piece length x the smallest cost of the spans covering it).

    Tiles have disjoint interiors, so spans overlap only where the segment
    runs along a shared edge: that stretch is paid once, at the cheaper side.
    """
    order = np.argsort(t0s[:n], kind="mergesort")
    br = np.empty(2 * n, dtype=np.float64)
    br[:n] = t0s[:n]
    br[n:] = t1s[:n]
    br = np.unique(br)
    total = 0.0
    lo = 0
    for j in range(br.shape[0] - 1):
        a = br[j]
        b = br[j + 1]
        while lo < n and t1s[order[lo]] <= a + 1e-12:
            lo += 1
        best = INF
        i = lo
        while i < n and t0s[order[i]] <= a + 1e-12:
            k = order[i]
            if t1s[k] >= b - 1e-12 and cs[k] < best:
                best = cs[k]
            i += 1
        if best < INF:
            total += best * (b - a)
    return total


@jit
def _segment_cost(sx, sy, tx, ty, segc, cxa, cya, wshift, cor, en, elo, ehi, side, ext, pw, width, height, wrap,
                  square, stamp, gen, stack, spans):
    """Cost of the segment from the centre of virtual cell ``s`` to that of ``t`` (``inf``: it touches a tile
    whose ``segc`` is ``inf``, or leaves the board), in drawing-length x cost units; ``(cost, stack, spans)``.

    Every touched tile other than ``s`` adds ``segc`` times the length the
    segment runs inside it; the stretch inside ``s`` is paid at ``t``'s cost
    (a step between neighbours then costs its length times the entry cost of
    the cell it enters, as a grid step does); a stretch along the edge of two
    tiles is paid once, at the cheaper one. ``spans`` is a ``(3, k)`` float64
    scratch array (grown when needed). The caller divides by the board's step length.
    """
    if square:
        return square_walk(sx, sy, tx, ty, segc, INF, pw, width, wrap, True), stack, spans
    q, ax, ay, bx, by, nx, ny, plo, phi, pa, pb, s = _flood_start(sx, sy, tx, ty, cxa, cya, wshift, cor, en, pw, width,
                                                                  wrap, stamp, gen, stack)
    top = 1
    ns = 0
    lo = INF
    hi = -INF
    while top > 0:
        top -= 1
        vx = stack[2 * top]
        vy = stack[2 * top + 1]
        c, kk = _real(vx, vy, pw, width, wrap)
        ccx = cxa[c] + kk * wshift
        if not touches_fast(ccx, cya[c], nx, ny, s, plo, phi, pa, pb, en, elo, ehi):
            continue
        if segc[c] == INF:
            return INF, stack, spans
        if vy < 0 or vy >= height or (not wrap and (vx < 0 or vx >= width)):
            return INF, stack, spans
        t0, t1 = inside_span(ax, ay, bx, by, ccx, cya[c], en, side, ext)
        if t1 > t0:
            if ns >= spans.shape[1]:
                bigger = np.empty((3, 2 * spans.shape[1]), dtype=np.float64)
                bigger[:, : spans.shape[1]] = spans
                spans = bigger
            spans[0, ns] = t0
            spans[1, ns] = t1
            cc = segc[q] if (vx == sx and vy == sy) else segc[c]
            spans[2, ns] = cc
            ns += 1
            lo = min(lo, cc)
            hi = max(hi, cc)
        stack, top = _push_box(vx, vy, pw, width, wrap, stamp, gen, stack, top)
    length = np.sqrt((bx - ax) ** 2 + (by - ay) ** 2)
    if lo == hi:  # one cost all along (the spans cover the segment): no need to split it
        return lo * length, stack, spans
    return _priced_length(spans[0], spans[1], spans[2], ns) * length, stack, spans


@jit
def segment_cost(sx, sy, tx, ty, segc, geo, gen, stack, unit):
    """``_segment_cost`` with the geometry bundle of ``segment_clear``, divided by the step length ``unit``:
    returns ``(cost, stack)``."""
    cxa, cya, wshift, cor, stamp, pw, width, height, wrap, square = geo
    en, elo, ehi = tile_axes(cor)
    side, ext = tile_sides(cor, en)
    c, stack, _ = _segment_cost(sx, sy, tx, ty, segc, cxa, cya, wshift, cor, en, elo, ehi, side, ext, pw, width,
                                height, wrap, square, stamp, gen, stack, np.empty((3, 64), dtype=np.float64))
    return c / unit, stack


@jit
def string_pull_cost(vxs, vys, segc, prefix, geo, gen0, unit):
    """Cost-aware string pulling: waypoints kept and the cost of each segment.

    ``prefix[i]`` is the grid cost of the path up to cell ``i``. From the last
    waypoint, the path is followed while the straight line to the next cell
    is clear (every touched tile finite in ``segc``) and costs no more than
    the grid path it replaces (up to a relative 1e-9 for rounding); where it
    stops, the cell before becomes a waypoint. A segment between neighbours
    is the grid step and costs what it costs on the grid. Returns
    ``(keep, seg, n, gen)``: the first ``n`` waypoints, the ``n - 1`` segment
    costs and the last generation used.
    """
    cxa, cya, wshift, cor, stamp, pw, width, height, wrap, square = geo
    m = vxs.shape[0]
    keep = np.empty(m, dtype=np.int64)
    seg = np.zeros(m, dtype=np.float64)
    keep[0] = 0
    n = 1
    gen = gen0
    stack = np.empty(256, dtype=np.int64)
    spans = np.empty((3, 64), dtype=np.float64)
    en, elo, ehi = tile_axes(cor)
    side, ext = tile_sides(cor, en)
    anchor = 0
    cur = prefix[1] - prefix[0] if m > 1 else 0.0
    for j in range(2, m):
        gen += 1
        grid = prefix[j] - prefix[anchor]
        c, stack, spans = _segment_cost(vxs[anchor], vys[anchor], vxs[j], vys[j], segc, cxa, cya, wshift, cor, en,
                                        elo, ehi, side, ext, pw, width, height, wrap, square, stamp, gen, stack, spans)
        c = c / unit
        if c <= grid * (1.0 + 1e-9):
            cur = c
        else:
            seg[n - 1] = cur
            anchor = j - 1
            keep[n] = anchor
            n += 1
            cur = prefix[j] - prefix[j - 1]
    if m > 1:
        seg[n - 1] = cur
        keep[n] = m - 1
        n += 1
    return keep, seg, n, gen
