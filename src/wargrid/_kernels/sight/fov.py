"""Fields of view: symmetric shadowcasting on square boards, hex lines from the viewer on hex boards.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from .hex_lines import _hex_pair_clear, to_axial, to_offset


@jit
def within(ax, ay, metric, r):
    """Whether the offset ``(ax, ay)`` (absolute values) is within radius ``r``, exactly in integers."""
    hi = ax if ax > ay else ay
    lo = ay if ax > ay else ax
    if metric == 0:
        return ax * ax + ay * ay <= r * r
    if metric == 1:
        return hi <= r
    if metric == 2:
        # max + (sqrt(2) - 1) * min <= r  <=>  sqrt(2) * min <= r - max + min
        if hi > r:
            return False
        m = r - hi + lo
        return 2 * lo * lo <= m * m
    if metric == 3:
        return ax + ay <= r
    if metric == 6:
        # octagonal, the classic RTS distance: max + min / 2 <= r, exactly
        return 2 * hi + lo <= 2 * r
    return True


@jit
def _push(st, top, depth, sn, sd, en, ed):
    """Store a row at ``st[top]``, growing the stack when full; returns the stack."""
    if top == st.shape[0]:
        bigger = np.empty((2 * top, 5), dtype=np.int64)
        bigger[:top] = st[:top]
        st = bigger
    st[top, 0] = depth
    st[top, 1] = sn
    st[top, 2] = sd
    st[top, 3] = en
    st[top, 4] = ed
    return st


@jit
def col_limits(metric, radius, maxdepth):
    """``lim[d]``: the largest ``|col| <= d`` within ``radius`` at row depth ``d`` (-1: none)."""
    lim = np.empty(maxdepth + 1, dtype=np.int64)
    c = radius
    for d in range(maxdepth + 1):
        while c >= 0 and not within(d, c, metric, radius):
            c -= 1
        lim[d] = c if c < d else d
    return lim


@jit
def scan_quadrant(bh, off, pw, width, height, wrap, ox, oy, h, quadrant, sn0, sd0, en0, ed0,
                  maxdepth, lim, out, n, diag, nd, target):
    """Shadowcast one quadrant from ``(ox, oy)`` between slopes ``sn0/sd0`` and ``en0/ed0``.

    Rows ``1..maxdepth`` are scanned; a tile at ``(depth, col)`` is reported
    only when ``|col| <= lim[depth]`` (the radius, see ``col_limits``).
    Revealed cells are appended to ``out`` from index ``n``, those on the
    quadrant's two diagonals (shared with the next quadrant) to ``diag`` from
    ``nd``; the new counts are returned. With ``target >= 0`` nothing is
    written and ``n = -1`` is returned as soon as cell id ``target`` is revealed.
    """
    if maxdepth < 1:
        return n, nd
    vertical = quadrant == 0 or quadrant == 2
    sign = -1 if (quadrant == 0 or quadrant == 3) else 1
    # columns of a row that are on the board; on a wrapped board a row of the
    # north/south quadrants reports columns up to half the width away
    half = width // 2
    if vertical:
        clo, chi = -ox, width - 1 - ox
        if wrap:
            clo, chi = -maxdepth - width, maxdepth + width
    else:
        clo, chi = -oy, height - 1 - oy
    st = _push(np.empty((64, 5), dtype=np.int64), np.int64(0), np.int64(1), sn0, sd0, en0, ed0)
    top = 1
    while top > 0:
        top -= 1
        depth = st[top, 0]
        sn = st[top, 1]
        sd = st[top, 2]
        en = st[top, 3]
        ed = st[top, 4]
        if vertical:
            uy = oy + sign * depth
            rowp = (uy + 1) * pw + 1
            rowc = uy * width
        else:
            x = ox + sign * depth
            if wrap:
                x = x % width
            rowp = (oy + 1) * pw + x + 1
            rowc = oy * width + x
        reach = lim[depth]
        if vertical and wrap and reach > half:
            reach = half
        # tiles whose span overlaps the open section: round half up / half down
        min_col = (2 * depth * sn + sd) // (2 * sd)
        max_col = -((ed - 2 * depth * en) // (2 * ed))
        prev = -1  # -1 none yet, 0 floor, 1 wall
        for col in range(min_col, max_col + 1):
            wall = True
            inb = False
            cid = 0
            if clo <= col <= chi:
                if vertical:
                    x = ox + col
                    if wrap:
                        x = x % width
                    v = bh[rowp + x]
                    cid = rowc + x
                else:
                    v = bh[rowp + col * pw]
                    cid = rowc + col * width
                wall = v >= h
                inb = v < off
            acol = col if col >= 0 else -col
            if inb and acol <= reach and (wall or (col * sd >= depth * sn and col * ed <= depth * en)):
                if target >= 0:
                    if cid == target:
                        return -1, nd
                elif acol == depth:
                    if nd < diag.shape[0]:
                        diag[nd] = cid
                        nd += 1
                elif n < out.shape[0]:
                    out[n] = cid
                    n += 1
            if prev == 1 and not wall:
                sn = 2 * col - 1
                sd = 2 * depth
            if prev == 0 and wall and depth < maxdepth:
                st = _push(st, top, depth + 1, sn, sd, 2 * col - 1, 2 * depth)
                top += 1
            prev = 1 if wall else 0
        if prev == 0 and depth < maxdepth:
            st = _push(st, top, depth + 1, sn, sd, en, ed)
            top += 1
    return n, nd


@jit
def _quadrant_depth(quadrant, width, height, wrap, ox, oy, radius):
    if quadrant == 0:
        lim = oy
    elif quadrant == 2:
        lim = height - 1 - oy
    elif wrap:
        lim = width // 2
    elif quadrant == 1:
        lim = width - 1 - ox
    else:
        lim = ox
    return lim if lim < radius else radius


@jit
def square_fov(sb, ox, oy, h, metric, radius, out):
    """Symmetric shadowcasting from ``(ox, oy)``: cell ids into ``out``; returns the count.

    ``sb`` is the board ``(bh, off, pw, width, height, wrap, kind)``
    (``sight.board.SightBoard.args``).

    ``out`` needs ``4 * (r * r + 2 * r) + 1`` entries for ``r = radius``
    (clipped to the board). Ids are unique, except on a board wrapped in x,
    where a cell exactly half the width away can be reported twice.
    """
    bh, off, pw, width, height, wrap, _ = sb
    out[0] = oy * width + ox
    # the counters go round the loop below: int64 from the start, or numba also compiles scan_quadrant for the
    # literals 1 and 0 while it types the loop (a whole second signature, never called)
    n = np.int64(1)
    reach = radius if radius < width + height else width + height
    diag = np.empty(8 * reach + 8, dtype=np.int64)
    nd = np.int64(0)
    lim = col_limits(metric, radius, reach)
    # the slopes and the target as int64, as ``los`` passes them: one signature of ``scan_quadrant`` a board
    one, none = np.int64(1), np.int64(-1)
    for quadrant in range(4):
        md = _quadrant_depth(quadrant, width, height, wrap, ox, oy, radius)
        n, nd = scan_quadrant(bh, off, pw, width, height, wrap, ox, oy, h, quadrant, none, one, one, one, md, lim,
                              out, n, diag, nd, none)
    # a diagonal cell is seen when either of its two quadrants sees it
    d = np.sort(diag[:nd])
    for i in range(nd):
        if (i == 0 or d[i] != d[i - 1]) and n < out.shape[0]:
            out[n] = d[i]
            n += 1
    return n


@jit
def hex_fov(sb, ox, oy, h, radius, out):
    """Cells within ``radius`` hex steps of ``(ox, oy)`` in line of sight: ids into ``out``; the count.

    ``sb`` as in ``square_fov``; ``out`` needs ``3 * r * (r + 1) + 1`` entries.
    """
    bh, off, pw, width, height, wrap, kind = sb
    n = 0
    aq, ar = to_axial(ox, oy, kind)
    half = width // 2
    for dq in range(-radius, radius + 1):
        lo = -radius if -radius > -dq - radius else -dq - radius
        hi = radius if radius < -dq + radius else -dq + radius
        for dr in range(lo, hi + 1):
            ux, uy = to_offset(aq + dq, ar + dr, kind)
            if uy < 0 or uy >= height:
                continue
            if wrap:
                if ux - ox > half or ox - ux > half:
                    continue
                x = ux % width
            else:
                if ux < 0 or ux >= width:
                    continue
                x = ux
            if bh[(uy + 1) * pw + x + 1] >= off:
                continue
            if n < out.shape[0] and _hex_pair_clear(bh, pw, width, height, wrap, ox, oy, ux, uy, h, kind):
                out[n] = uy * width + x
                n += 1
    return n
