"""Jump Point Search on square-8 boards with one cost everywhere and no corner cutting.

``free`` is a padded uint8 array: 1 where a cell can be entered. A diagonal
step needs both orthogonal cells beside it free (the Moving AI rule), so
diagonal moves have no forced neighbours; a straight move east stops at a
cell whose north (or south) neighbour is free while the cell behind that one
is blocked. Lengths are in steps (1 and sqrt(2)); the caller scales them by
the board's one cost. The open list and its tie-breaking are those of
``astar.astar`` (smaller f, then larger g, then smaller id).
"""

from __future__ import annotations

import math

import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from .._jit import helper, jit
from .heap import close_top, heap_up, open_start


_SQRT2 = math.sqrt(2.0)
_SQRT2M1 = math.sqrt(2.0) - 1.0


# -- bit scans ------------------------------------------------------------------------------
# ``rows[y * rw + w]`` holds, in bit ``i``, whether padded cell (x = 64 w + i, y) is free;
# ``cols[x * cw + w]`` the same for the transposed board. A straight jump is a scan along
# one line of bits for the first cell that is blocked, has a forced neighbour, or is the goal.

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_S63 = np.uint64(63)


@helper
def _scan_up(bits, stride, line, start, goal_line, goal_pos):
    """First position after ``start`` on ``line`` where a jump stops: a jump point, or -1."""
    base = line * stride
    prev = base - stride
    nxt = base + stride
    xs = start + 1
    w = xs >> 6
    first = True
    while True:
        b = bits[np.uintp(base + w)]
        a = bits[np.uintp(prev + w)]
        c = bits[np.uintp(nxt + w)]
        if w > 0:
            ap = (a << _ONE) | (bits[np.uintp(prev + w - 1)] >> _S63)
            cp = (c << _ONE) | (bits[np.uintp(nxt + w - 1)] >> _S63)
        else:
            ap = a << _ONE
            cp = c << _ONE
        stop = (~b) | (a & ~ap) | (c & ~cp)
        if first:
            stop &= ~((_ONE << np.uint64(xs & 63)) - _ONE)
            first = False
        if stop != _ZERO:
            j = np.int64(trailing_zeros(stop))
            at = (w << 6) + j
            if goal_line == line and start < goal_pos <= at:
                return goal_pos
            if (b >> np.uint64(j)) & _ONE:
                return at
            return -1
        w += 1


@helper
def _scan_down(bits, stride, line, start, goal_line, goal_pos):
    """The same scan toward smaller positions."""
    base = line * stride
    prev = base - stride
    nxt = base + stride
    xs = start - 1
    w = xs >> 6
    first = True
    while True:
        b = bits[np.uintp(base + w)]
        a = bits[np.uintp(prev + w)]
        c = bits[np.uintp(nxt + w)]
        an = (a >> _ONE) | (bits[np.uintp(prev + w + 1)] << _S63)
        cn = (c >> _ONE) | (bits[np.uintp(nxt + w + 1)] << _S63)
        stop = (~b) | (a & ~an) | (c & ~cn)
        if first:
            sh = xs & 63
            if sh < 63:
                stop &= (_ONE << np.uint64(sh + 1)) - _ONE
            first = False
        if stop != _ZERO:
            j = 63 - np.int64(leading_zeros(stop))
            at = (w << 6) + j
            if goal_line == line and at <= goal_pos < start:
                return goal_pos
            if (b >> np.uint64(j)) & _ONE:
                return at
            return -1
        w -= 1


@jit
def jump_straight_bits(rows, rw, cols, cw, pw, p, sx, sy, goal):
    """Jump from padded ``p`` along (sx, sy) (one of them 0): the jump point's id, or -1."""
    x = p % pw
    y = p // pw
    gx = goal % pw
    gy = goal // pw
    if sy == 0:
        if sx > 0:
            r = _scan_up(rows, rw, y, x, gy, gx)
        else:
            r = _scan_down(rows, rw, y, x, gy, gx)
        return -1 if r < 0 else y * pw + r
    if sy > 0:
        r = _scan_up(cols, cw, x, y, gx, gy)
    else:
        r = _scan_down(cols, cw, x, y, gx, gy)
    return -1 if r < 0 else r * pw + x


@helper
def _js(rows, rw, cols, cw, pw, p, step, goal):
    """``jump_straight_bits`` with the step given as a padded offset (+-1 or +-pw)."""
    if step == 1:
        return jump_straight_bits(rows, rw, cols, cw, pw, p, 1, 0, goal)
    if step == -1:
        return jump_straight_bits(rows, rw, cols, cw, pw, p, -1, 0, goal)
    if step > 0:
        return jump_straight_bits(rows, rw, cols, cw, pw, p, 0, 1, goal)
    return jump_straight_bits(rows, rw, cols, cw, pw, p, 0, -1, goal)


@helper
def _jump_diagonal(free, rows, rw, cols, cw, p, sx, sy, pw, goal):
    """Scan diagonally from ``p`` (``sx`` = +-1, ``sy`` = +-pw); jump point or -1."""
    gx = goal % pw
    gy = goal // pw
    x = p % pw
    y = p // pw
    dy = 1 if sy > 0 else -1
    while True:
        if free[np.uintp(p + sx)] == 0 or free[np.uintp(p + sy)] == 0 or free[np.uintp(p + sx + sy)] == 0:
            return -1
        p += sx + sy
        x += sx
        y += dy
        if p == goal:
            return p
        if sx > 0:
            h = _scan_up(rows, rw, y, x, gy, gx)
        else:
            h = _scan_down(rows, rw, y, x, gy, gx)
        if h >= 0:
            return p
        if dy > 0:
            v = _scan_up(cols, cw, x, y, gx, gy)
        else:
            v = _scan_down(cols, cw, x, y, gx, gy)
        if v >= 0:
            return p


@jit(inline="always")
def _octile(p, q, pw):
    dx = abs(p % pw - q % pw)
    dy = abs(p // pw - q // pw)
    if dx > dy:
        return dx + _SQRT2M1 * dy
    return dy + _SQRT2M1 * dx


@helper
def _relax(u, gu, q, pw, goal, g, parent, stamp, pos, hf, hg, hid, n, op, cl):
    if q < 0 or stamp[q] == cl:
        return n
    nd = gu + _octile(u, q, pw)
    if stamp[q] == op:
        if nd < g[q]:
            g[q] = nd
            parent[q] = u
            heap_up(pos[q], nd + _octile(q, goal, pw), nd, q, hf, hg, hid, pos)
        return n
    stamp[q] = op
    g[q] = nd
    parent[q] = u
    heap_up(n, nd + _octile(q, goal, pw), nd, q, hf, hg, hid, pos)
    return n + 1


@jit
def jps(free, bits, start, goal, pw, state, gen):
    """Jump Point Search from ``start`` to ``goal`` (padded ids); returns ``goal`` or -1.

    ``bits`` is ``(rows, rw, cols, cw)`` (see the bit scans above), ``state``
    the search state bundle of the package notes. ``parent`` links jump
    points; ``g[goal]`` is the length in steps.
    """
    rows, rw, cols, cw = bits
    g, parent, stamp, pos, hf, hg, hid = state
    op = 2 * gen
    cl = op + 1
    n = open_start(start, _octile(start, goal, pw), state, gen)
    while n > 0:
        u, gu, n = close_top(n, state, gen)
        if u == goal:
            return u
        pu = parent[u]
        if pu < 0:
            for sx in (-1, 1):
                n = _relax(u, gu, _js(rows, rw, cols, cw, pw, u, sx, goal), pw, goal, g, parent, stamp, pos, hf, hg, hid, n, op, cl)
            for sy in (-pw, pw):
                n = _relax(u, gu, _js(rows, rw, cols, cw, pw, u, sy, goal), pw, goal, g, parent, stamp, pos, hf, hg, hid, n, op, cl)
            for sx in (-1, 1):
                for sy in (-pw, pw):
                    n = _relax(u, gu, _jump_diagonal(free, rows, rw, cols, cw, u, sx, sy, pw, goal), pw, goal, g, parent, stamp, pos,
                               hf, hg, hid, n, op, cl)
            continue
        ddx = u % pw - pu % pw
        ddy = u // pw - pu // pw
        sx = 0 if ddx == 0 else (1 if ddx > 0 else -1)
        sy = 0 if ddy == 0 else (pw if ddy > 0 else -pw)
        if sx != 0 and sy != 0:
            n = _relax(u, gu, _js(rows, rw, cols, cw, pw, u, sx, goal), pw, goal, g, parent, stamp, pos, hf, hg, hid, n, op, cl)
            n = _relax(u, gu, _js(rows, rw, cols, cw, pw, u, sy, goal), pw, goal, g, parent, stamp, pos, hf, hg, hid, n, op, cl)
            n = _relax(u, gu, _jump_diagonal(free, rows, rw, cols, cw, u, sx, sy, pw, goal), pw, goal, g, parent, stamp, pos,
                       hf, hg, hid, n, op, cl)
        else:
            # straight: ahead, both sides, and the two diagonals ahead
            step = sx + sy
            side = pw if sx != 0 else 1
            n = _relax(u, gu, _js(rows, rw, cols, cw, pw, u, step, goal), pw, goal, g, parent, stamp, pos,
                       hf, hg, hid, n, op, cl)
            for s in (-side, side):
                if free[u + s] != 0:
                    n = _relax(u, gu, _js(rows, rw, cols, cw, pw, u, s, goal), pw, goal, g,
                               parent, stamp, pos, hf, hg, hid, n, op, cl)
                    if sx != 0:
                        n = _relax(u, gu, _jump_diagonal(free, rows, rw, cols, cw, u, sx, s, pw, goal), pw, goal, g, parent, stamp, pos,
                                   hf, hg, hid, n, op, cl)
                    else:
                        n = _relax(u, gu, _jump_diagonal(free, rows, rw, cols, cw, u, s, sy, pw, goal), pw, goal, g, parent, stamp, pos,
                                   hf, hg, hid, n, op, cl)
    return -1


@jit
def expand(jumps, pw):
    """Every padded cell along a chain of jump points (straight or diagonal segments)."""
    total = 1
    for i in range(jumps.shape[0] - 1):
        a = jumps[i]
        b = jumps[i + 1]
        total += max(abs(a % pw - b % pw), abs(a // pw - b // pw))
    out = np.empty(total, dtype=np.int64)
    out[0] = jumps[0]
    k = 1
    for i in range(jumps.shape[0] - 1):
        a = jumps[i]
        b = jumps[i + 1]
        dx = b % pw - a % pw
        dy = b // pw - a // pw
        sx = 0 if dx == 0 else (1 if dx > 0 else -1)
        sy = 0 if dy == 0 else (1 if dy > 0 else -1)
        m = max(abs(dx), abs(dy))
        for j in range(1, m + 1):
            out[k] = a + j * (sx + sy * pw)
            k += 1
    return out
