"""Admissible distance estimates for A*: Manhattan, octile and hex steps, wrap-aware.
"""

from __future__ import annotations

import math

from .._jit import jit


_SQRT2M1 = math.sqrt(2.0) - 1.0


@jit(inline="always")
def _axial(x, y, hex_kind):
    # offset -> axial (q, r) for odd-q, even-q, odd-r, even-r
    if hex_kind == 0:
        return x, y - ((x - (x & 1)) >> 1)
    if hex_kind == 1:
        return x, y - ((x + (x & 1)) >> 1)
    if hex_kind == 2:
        return x - ((y - (y & 1)) >> 1), y
    return x - ((y + (y & 1)) >> 1), y


@jit(inline="always")
def _hexdist(q1, r1, q2, r2):
    dq = q1 - q2
    dr = r1 - r2
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@jit(inline="always")
def heuristic_xy(x, y, gx, gy, kind, hex_kind, wrap, width):
    """Unscaled admissible distance from cell ``(x, y)`` to cell ``(gx, gy)``."""
    if kind == 2:
        q, r = _axial(x, y, hex_kind)
        gq, gr = _axial(gx, gy, hex_kind)
        best = _hexdist(q, r, gq, gr)
        if wrap:
            gq, gr = _axial(gx - width, gy, hex_kind)
            best = min(best, _hexdist(q, r, gq, gr))
            gq, gr = _axial(gx + width, gy, hex_kind)
            best = min(best, _hexdist(q, r, gq, gr))
        return float(best)
    dx = abs(x - gx)
    if wrap:
        dx = min(dx, width - dx)
    dy = abs(y - gy)
    if kind == 0:
        return float(dx + dy)
    if dx > dy:
        return dx + _SQRT2M1 * dy
    return dy + _SQRT2M1 * dx


@jit
def heuristic(p, gx, gy, kind, hex_kind, wrap, width, pw):
    """Unscaled admissible distance from padded cell ``p`` to cell ``(gx, gy)``."""
    return heuristic_xy(p % pw - 1, p // pw - 1, gx, gy, kind, hex_kind, wrap, width)
