"""Slow, obviously-right sight oracles: Fractions and plain Python."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

HALF = Fraction(1, 2)


def ford_fov(blocks: np.ndarray, origin: tuple[int, int]) -> set[tuple[int, int]]:
    """Symmetric shadowcasting exactly as published (recursive, Fraction slopes).

    Off-board tiles are walls that are never reported.
    """
    H, W = blocks.shape
    ox, oy = origin
    seen = {(ox, oy)}

    def blocking(x: int, y: int) -> bool:
        return not (0 <= x < W and 0 <= y < H) or bool(blocks[y, x])

    for quadrant in range(4):
        def transform(depth: int, col: int) -> tuple[int, int]:
            if quadrant == 0:
                return ox + col, oy - depth
            if quadrant == 1:
                return ox + depth, oy + col
            if quadrant == 2:
                return ox + col, oy + depth
            return ox - depth, oy + col

        def scan(depth: int, start: Fraction, end: Fraction) -> None:
            prev = None
            lo = math.floor(depth * start + HALF)
            hi = math.ceil(depth * end - HALF)
            for col in range(lo, hi + 1):
                x, y = transform(depth, col)
                wall = blocking(x, y)
                if wall or (depth * start <= col <= depth * end):
                    if 0 <= x < W and 0 <= y < H:
                        seen.add((x, y))
                if prev is True and not wall:
                    start = Fraction(2 * col - 1, 2 * depth)
                if prev is False and wall:
                    scan(depth + 1, start, Fraction(2 * col - 1, 2 * depth))
                prev = wall
            if prev is False:
                scan(depth + 1, start, end)

        scan(1, Fraction(-1), Fraction(1))
    return seen


def within(dx: int, dy: int, metric: str, r: int) -> bool:
    """The radius rule, in floats with a margin (integers make it exact enough here)."""
    ax, ay = abs(dx), abs(dy)
    if metric == "euclidean":
        return ax * ax + ay * ay <= r * r
    if metric == "chebyshev":
        return max(ax, ay) <= r
    if metric == "manhattan":
        return ax + ay <= r
    if metric == "octagonal":
        return max(ax, ay) + Fraction(min(ax, ay), 2) <= r
    return max(ax, ay) + (math.sqrt(2) - 1) * min(ax, ay) <= r + 1e-9


_NUDGE = (1, 2, -3)


def _nearest_hex(p: tuple[Fraction, Fraction, Fraction], sign: int) -> tuple[int, int]:
    """The hex whose cell holds ``p + sign * eps * (1, 2, -3)`` for a tiny ``eps``, exactly."""
    best = None
    q0, r0 = math.floor(p[0]), math.floor(p[1])
    for q in range(q0 - 1, q0 + 3):
        for r in range(r0 - 1, r0 + 3):
            c = (q, r, -q - r)
            d = [c[i] - p[i] for i in range(3)]
            key = (sum(x * x for x in d), -sign * sum(d[i] * _NUDGE[i] for i in range(3)))
            if best is None or key < best[0]:
                best = (key, (q, r))
    return best[1]


def hex_line_exact(a: tuple[int, int], b: tuple[int, int], sign: int) -> list[tuple[int, int]]:
    """Axial hexes strictly between axial ``a`` and ``b`` on the nudged line (exact arithmetic)."""
    aq, ar = a
    bq, br = b
    n = (abs(bq - aq) + abs(br - ar) + abs((-bq - br) - (-aq - ar))) // 2
    out = []
    for i in range(1, n):
        t = Fraction(i, n)
        p = (aq + (bq - aq) * t, ar + (br - ar) * t, (-aq - ar) + ((-bq - br) - (-aq - ar)) * t)
        out.append(_nearest_hex(p, sign))
    return out


def hex_los_oracle(grid, blocks: np.ndarray, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Either nudged exact hex line from ``a`` to ``b`` has only open, on-board cells between them."""
    from wargrid.grids.hexes import Hex, hex_to_offset, offset_to_hex

    ha = offset_to_hex(a[0], a[1], grid.offset)
    hb = offset_to_hex(b[0], b[1], grid.offset)
    H, W = blocks.shape
    for sign in (1, -1):
        ok = True
        for q, r in hex_line_exact((ha.q, ha.r), (hb.q, hb.r), sign):
            x, y = hex_to_offset(Hex(q, r), grid.offset)
            if not (0 <= x < W and 0 <= y < H) or blocks[y, x] or not grid.mask[y, x]:
                ok = False
                break
        if ok:
            return True
    return False


def segment_blocked(blocks: np.ndarray, light: tuple[float, float], q: tuple[float, float]) -> bool:
    """Whether the segment from ``light`` to ``q`` passes through the inside of a blocking tile.

    Liang-Barsky clipping against every blocking tile's open square, all tiles at once.
    """
    lx, ly = light
    dx, dy = q[0] - lx, q[1] - ly
    ys, xs = np.nonzero(blocks)
    t0 = np.zeros(xs.size)
    t1 = np.ones(xs.size)
    ok = np.ones(xs.size, dtype=bool)
    for p, r in ((-dx, lx - xs), (dx, xs + 1 - lx), (-dy, ly - ys), (dy, ys + 1 - ly)):
        if p == 0:
            ok &= r > 0
            continue
        s = r / p
        if p < 0:
            t0 = np.maximum(t0, s)
        else:
            t1 = np.minimum(t1, s)
    return bool((ok & (t0 < t1 - 1e-12)).any())


def distance_to_segments(px: float, py: float, seg: np.ndarray) -> float:
    """Smallest distance from a point to ``(S, 4)`` segments."""
    a = seg[:, :2]
    d = seg[:, 2:] - a
    p = np.array([px, py])
    ll = (d * d).sum(axis=1)
    t = np.clip(((p - a) * d).sum(axis=1) / np.where(ll == 0, 1, ll), 0, 1)
    c = a + t[:, None] * d
    return float(np.hypot(*(c - p).T).min())


def hex_segment_blocked(grid, blocks: np.ndarray, light: tuple[float, float], q: tuple[float, float]) -> bool:
    """Whether the segment from ``light`` to ``q`` passes through the inside of a blocking hex.

    Blocking: a sight-blocking or masked-out cell, or any hex off the board
    (all within two hexes of the rectangle); the hex holding the light is
    open when the light is strictly inside it. Each hex is a convex polygon:
    the segment is clipped against its six edge half-planes (Cyrus-Beck)
    and blocked when a piece of positive length is left.
    """
    from wargrid.grids.hexes import offset_to_axial_array

    H, W = blocks.shape
    ys, xs = np.mgrid[-3:H + 3, -3:W + 3]
    xs, ys = xs.ravel(), ys.ravel()
    on = (xs >= 0) & (xs < W) & (ys >= 0) & (ys < H)
    blocking = ~on
    blocking[on] = blocks[ys[on], xs[on]] | ~grid.mask[ys[on], xs[on]]
    qs, rs = offset_to_axial_array(xs[blocking], ys[blocking], grid.offset)
    cx, cy = grid.layout.hex_to_pixel_array(qs, rs)
    corners = np.array(grid.corner_offsets())
    lx, ly = light
    dx, dy = q[0] - lx, q[1] - ly
    t0 = np.zeros(cx.size)
    t1 = np.ones(cx.size)
    ok = np.ones(cx.size, dtype=bool)
    strictly = np.ones(cx.size, dtype=bool)
    for k in range(6):
        ax, ay = cx + corners[k, 0], cy + corners[k, 1]
        bx, by = cx + corners[(k + 1) % 6, 0], cy + corners[(k + 1) % 6, 1]
        # inside is where the cross product (b - a) x (p - a) has the sign of the centre's
        sgn = np.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax))
        f0 = sgn * ((bx - ax) * (ly - ay) - (by - ay) * (lx - ax))  # at t = 0
        fd = sgn * ((bx - ax) * dy - (by - ay) * dx)  # its change per unit t
        strictly &= f0 > 1e-9
        par = fd == 0
        ok &= ~par | (f0 > 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            s = -f0 / fd
        t0 = np.where(~par & (fd > 0), np.maximum(t0, s), t0)
        t1 = np.where(~par & (fd < 0), np.minimum(t1, s), t1)
    ok &= ~strictly  # the light's own blocking hex is open
    return bool((ok & (t0 < t1 - 1e-9)).any())
