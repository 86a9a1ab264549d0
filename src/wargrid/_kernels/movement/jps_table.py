"""The jump table (JPS+) and the search over it.

Entry ``d`` of padded cell ``p`` (directions E, W, S, N, SE, SW, NE, NW): k > 0 when the
first jump point along ``d`` is k steps away, -k (or 0) when k free steps lead to a wall. A
diagonal stops where either of its straight parts has a jump point ahead. With the table a
jump is one load instead of a scan. Entries sit at ``dist[p * stride + d]``: stride 8 for a
plain table, 16 inside a work board (see ``jps_table``). Conventions as in ``jps``.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from .heap import heap_pop, heap_up
from .jps import _SQRT2, _octile


_DX = (1, -1, 0, 0, 1, -1, 1, -1)
_DY = (0, 0, 1, -1, 1, 1, -1, -1)


@jit
def _table_pass(free, dist, pw, ph, sx, sy, straight, stride):
    """Fill diagonal (``sx``, ``sy``) of the table, and first its straight parts when ``straight``.

    The sweep runs against the direction, so every entry reads the one of the
    cell ahead, already filled.
    """
    s = sy * pw
    dh = 0 if sx > 0 else 1
    dv = 2 if sy > 0 else 3
    dd = 4 + (1 if sx < 0 else 0) + (2 if sy < 0 else 0)
    for i in range(1, ph - 1):
        y = ph - 1 - i if sy > 0 else i
        row = y * pw
        for j in range(1, pw - 1):
            p = row + (pw - 1 - j if sx > 0 else j)
            if free[p] == 0:
                continue
            b = p * stride
            if straight:
                q = p + sx
                if free[q] == 0:
                    v = 0
                elif (free[q + pw] != 0 and free[q + pw - sx] == 0) or (free[q - pw] != 0 and free[q - pw - sx] == 0):
                    v = 1
                else:
                    w = np.int64(dist[q * stride + dh])
                    v = w + 1 if w > 0 else w - 1
                dist[b + dh] = v
                q = p + s
                if free[q] == 0:
                    v = 0
                elif (free[q + 1] != 0 and free[q + 1 - s] == 0) or (free[q - 1] != 0 and free[q - 1 - s] == 0):
                    v = 1
                else:
                    w = np.int64(dist[q * stride + dv])
                    v = w + 1 if w > 0 else w - 1
                dist[b + dv] = v
            q = p + sx + s
            k = q * stride
            if free[p + sx] == 0 or free[p + s] == 0 or free[q] == 0:
                v = 0
            elif dist[k + dh] > 0 or dist[k + dv] > 0:
                v = 1
            else:
                w = np.int64(dist[k + dd])
                v = w + 1 if w > 0 else w - 1
            dist[b + dd] = v


@jit
def table_into(free, dist, pw, ph, stride):
    """Write the JPS+ table of a padded 'can enter' board ``free`` (``pw`` x ``ph``, blocked border) into
    the int16 array ``dist``: entry ``d`` of padded cell ``p`` at ``dist[p * stride + d]`` (zeros elsewhere
    are left alone; blocked cells stay as they are, 0 in a fresh array).

    Four sweeps: W, N and NW together, then E, S and SE, then NE and SW
    (which read the straight entries of both earlier sweeps).
    """
    _table_pass(free, dist, pw, ph, -1, -1, True, stride)
    _table_pass(free, dist, pw, ph, 1, 1, True, stride)
    _table_pass(free, dist, pw, ph, 1, -1, False, stride)
    _table_pass(free, dist, pw, ph, -1, 1, False, stride)


@jit
def jps_table(wb, start, goal, pw, gen):
    """Jump Point Search over a work board between padded ids.

    ``wb`` (int64, 4 words a padded cell, 64-byte aligned) keeps together
    what a search reads of one cell: words ``4 p`` and ``4 p + 1`` hold the
    cell's 8 int16 table entries (see ``table_into``), ``4 p + 2`` the bits of
    the float64 ``g`` (length in steps; read ``wb.view(float64)[4 goal + 2]``
    for the answer), ``4 p + 3`` the stamp (``2 gen`` open, ``2 gen + 1``
    closed) times 2**32 plus the parent jump point + 1 (0: none). So a jump
    point costs one cache line. The open list is a heap local to the call,
    without decrease-key: an improved cell is pushed again and stale entries
    are skipped when popped (the open lists of JPS are short).

    Returns the ``(2, n)`` x and y of the path's cells (unpadded); n = 0 when
    the goal cannot be reached.

    Successors: every direction from the start; after a diagonal step its two
    straight parts and itself; after a straight step itself and, on a side
    whose cell behind is blocked (a forced neighbour), that side and the
    diagonal toward it. A jump also ends on the goal's row or column when the
    goal lies ahead within reach.
    """
    g = wb.view(np.float64)
    dist = wb.view(np.int16)
    rec = wb
    gx = goal % pw
    gy = goal // pw
    g = rec.view(np.float64)
    op = np.int64(2 * gen)
    cl = np.int64(2 * gen + 1)
    cap = 256
    hf = np.empty(cap, dtype=np.float64)
    hg = np.empty(cap, dtype=np.float64)
    hid = np.empty(cap, dtype=np.int64)
    g[4 * start + 2] = 0.0
    rec[4 * start + 3] = op << 32
    hf[0] = _octile(start, goal, pw)
    hg[0] = 0.0
    hid[0] = start
    n = np.int64(1)  # (int64 from the start: a literal counter types heap_pop once more, never called)
    found = False
    while n > 0:
        u = hid[0]
        gu = hg[0]
        n = heap_pop(n, hf, hg, hid, None)
        uu = np.uintp(4 * u + 3)
        meta = rec[uu]
        if (meta >> 32) == cl or gu > g[uu - np.uintp(1)]:
            continue  # stale
        rec[uu] = (cl << 32) | (meta & 0xFFFFFFFF)
        if u == goal:
            found = True
            break
        ux = u % pw
        uy = u // pw
        base = u * 16
        pu = (meta & 0xFFFFFFFF) - 1
        if pu < 0:
            mask = 255
        else:
            ddx = ux - pu % pw
            ddy = uy - pu // pw
            sx = 0 if ddx == 0 else (1 if ddx > 0 else -1)
            sy = 0 if ddy == 0 else (1 if ddy > 0 else -1)
            dh = 0 if sx > 0 else 1
            dv = 2 if sy > 0 else 3
            if sx != 0 and sy != 0:
                mask = (1 << dh) | (1 << dv) | (1 << (4 + (sx < 0) + 2 * (sy < 0)))
            elif sx != 0:
                # a side is forced when its cell is free and the cell behind it blocked: read from
                # u's own table line (a zero straight entry: blocked next cell; a zero diagonal
                # entry backward: the cell behind the side is blocked, as u - s and the side are free)
                mask = 1 << dh
                if dist[np.uintp(base + 2)] != 0 and dist[np.uintp(base + 4 + (sx > 0))] == 0:
                    mask |= (1 << 2) | (1 << (4 + (sx < 0)))
                if dist[np.uintp(base + 3)] != 0 and dist[np.uintp(base + 6 + (sx > 0))] == 0:
                    mask |= (1 << 3) | (1 << (6 + (sx < 0)))
            else:
                mask = 1 << dv
                if dist[np.uintp(base)] != 0 and dist[np.uintp(base + 4 + 2 * (sy > 0))] == 0:
                    mask |= 1 | (1 << (4 + 2 * (sy < 0)))
                if dist[np.uintp(base + 1)] != 0 and dist[np.uintp(base + 5 + 2 * (sy > 0))] == 0:
                    mask |= 2 | (1 << (5 + 2 * (sy < 0)))
        for d in range(8):
            if (mask >> d) & 1 == 0:
                continue
            D = np.int64(dist[np.uintp(base + d)])
            reach = D if D > 0 else -D
            dx = _DX[d]
            dy = _DY[d]
            ax = (gx - ux) * dx
            ay = (gy - uy) * dy
            if d < 4:
                if dx != 0:
                    k = ax if (gy == uy and 0 < ax <= reach) else (D if D > 0 else 0)
                else:
                    k = ay if (gx == ux and 0 < ay <= reach) else (D if D > 0 else 0)
                if k == 0:
                    continue
                nd = gu + k
            else:
                k = min(ax, ay)
                if not (k > 0 and k <= reach):
                    k = D if D > 0 else 0
                if k == 0:
                    continue
                nd = gu + _SQRT2 * k
            q = u + k * (dx + dy * pw)
            qq = np.uintp(4 * q + 2)
            sq = rec[qq + np.uintp(1)] >> 32
            if sq == cl:
                continue
            if sq == op and nd >= g[qq]:
                continue
            rec[qq + np.uintp(1)] = (op << 32) | (u + 1)
            g[qq] = nd
            if n == cap:
                cap *= 2
                hf2 = np.empty(cap, dtype=np.float64)
                hg2 = np.empty(cap, dtype=np.float64)
                hid2 = np.empty(cap, dtype=np.int64)
                hf2[:n] = hf
                hg2[:n] = hg
                hid2[:n] = hid
                hf = hf2
                hg = hg2
                hid = hid2
            f = nd + _octile(q, goal, pw)
            heap_up(n, f, nd, q, hf, hg, hid, None)
            n += 1
    if not found:
        return np.empty((2, 0), dtype=np.int64)
    # the jump points back to the start, then every cell between them, as unpadded x and y
    total = 1
    p = goal
    while (rec[4 * p + 3] & 0xFFFFFFFF) != 0:
        a = (rec[4 * p + 3] & 0xFFFFFFFF) - 1
        total += max(abs(a % pw - p % pw), abs(a // pw - p // pw))
        p = a
    out = np.empty((2, total), dtype=np.int64)
    k = total - 1
    x = goal % pw
    y = goal // pw
    out[0, k] = x - 1
    out[1, k] = y - 1
    p = goal
    while (rec[4 * p + 3] & 0xFFFFFFFF) != 0:
        a = (rec[4 * p + 3] & 0xFFFFFFFF) - 1
        dx = a % pw - x
        dy = a // pw - y
        sx = 0 if dx == 0 else (1 if dx > 0 else -1)
        sy = 0 if dy == 0 else (1 if dy > 0 else -1)
        for _ in range(max(abs(dx), abs(dy))):
            x += sx
            y += sy
            k -= 1
            out[0, k] = x - 1
            out[1, k] = y - 1
        p = a
    return out
