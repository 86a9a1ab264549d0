"""Hex lines of sight: axial coordinates and the two tie-broken lines between two cells.
"""

from __future__ import annotations

import numpy as np

from .._jit import helper, jit


# -- hex boards ---------------------------------------------------------------------

@jit
def to_axial(x, y, kind):
    """Offset ``(x, y)`` of kind 0 odd-q, 1 even-q, 2 odd-r, 3 even-r to axial ``(q, r)``."""
    if kind == 0:
        return x, y - (x - (x & 1)) // 2
    if kind == 1:
        return x, y - (x + (x & 1)) // 2
    if kind == 2:
        return x - (y - (y & 1)) // 2, y
    return x - (y + (y & 1)) // 2, y


@jit
def to_offset(q, r, kind):
    """Axial ``(q, r)`` to offset ``(x, y)`` (inverse of ``to_axial``)."""
    if kind == 0:
        return q, r + (q - (q & 1)) // 2
    if kind == 1:
        return q, r + (q + (q & 1)) // 2
    if kind == 2:
        return q + (r - (r & 1)) // 2, r
    return q + (r + (r & 1)) // 2, r


@jit
def _hex_line_clear(bh, pw, width, height, wrap, aq, ar, bq, br, nsteps, sign, h, kind):
    """Whether the cells strictly between hexes a and b on the nudged line are all open."""
    e = 1e-6 * sign
    fa_q = aq + e
    fa_r = ar + 2.0 * e
    fa_s = -aq - ar - 3.0 * e
    dq = (bq + e) - fa_q
    dr = (br + 2.0 * e) - fa_r
    ds = (-bq - br - 3.0 * e) - fa_s
    for i in range(1, nsteps):
        t = i / nsteps
        fq = fa_q + dq * t
        fr = fa_r + dr * t
        fs = fa_s + ds * t
        rq = np.floor(fq + 0.5)
        rr = np.floor(fr + 0.5)
        rs = np.floor(fs + 0.5)
        eq = abs(rq - fq)
        er = abs(rr - fr)
        es = abs(rs - fs)
        if eq > er and eq > es:
            rq = -rr - rs
        elif er > es:
            rr = -rq - rs
        x, y = to_offset(np.int64(rq), np.int64(rr), kind)
        if wrap:
            x = x % width
        if x < 0 or x >= width or y < 0 or y >= height:
            return False
        if bh[(y + 1) * pw + x + 1] >= h:
            return False
    return True


@helper
def _hex_pair_clear(bh, pw, width, height, wrap, ax, ay, bux, buy, h, kind):
    """Line of sight between on-board ``a`` and ``b`` given unwrapped at ``(bux, buy)``."""
    bx = bux % width if wrap else bux
    aq, ar = to_axial(ax, ay, kind)
    bq, br = to_axial(bux, buy, kind)
    dq = bq - aq
    dr = br - ar
    ds = -dq - dr
    n = (abs(dq) + abs(dr) + abs(ds)) // 2
    if n <= 1:
        return True
    # canonical direction: from the endpoint with the smaller id
    if buy * width + bx < ay * width + ax:
        sq, sr = to_axial(bx, buy, kind)
        eq, er = to_axial(ax + (bx - bux), ay, kind)
    else:
        sq, sr, eq, er = aq, ar, bq, br
    if _hex_line_clear(bh, pw, width, height, wrap, sq, sr, eq, er, n, 1.0, h, kind):
        return True
    return _hex_line_clear(bh, pw, width, height, wrap, sq, sr, eq, er, n, -1.0, h, kind)
