"""Sight kernels: symmetric shadowcasting on square boards, hex lines of sight.

Every kernel reads the board as one flat padded array ``bh`` (see ``Topology``):
``bh[p]`` is the height at which padded cell ``p`` blocks sight. With
elevation (float64): ``-inf`` for a cell that never blocks, the cell's
elevation for a sight-blocking cell, ``off = inf`` for padding and
masked-out cells (which block and are never reported). Without (int8, a
quarter of the memory traffic): 0 open, 1 blocking, ``off = 2`` off the
board, viewer height 1. A cell blocks a viewer standing at height ``h`` when
``bh[p] >= h``.

Square boards use the published symmetric shadowcasting (four quadrants,
rows scanned outwards, slopes kept as exact integer fractions ``num / den``
and compared by cross-multiplication, so symmetry holds exactly). Hex boards
use a line rule: ``b`` is seen from ``a`` when either of the two tie-broken
hex lines between them (nudged to one side, then to the other) crosses no
blocking cell; each line is computed from the endpoint with the smaller id,
so the rule is symmetric by construction.

On a board wrapped in x, a cell is seen through whichever copy of it lies
within ``width // 2`` columns of the viewer (both copies when exactly half).

Metric codes: 0 euclidean, 1 chebyshev, 2 octile, 3 manhattan, 4 hex steps,
5 unlimited.
"""

from __future__ import annotations

import numpy as np

from ._jit import jit


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
    st = _push(np.empty((64, 5), dtype=np.int64), 0, 1, sn0, sd0, en0, ed0)
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
def square_fov(bh, off, pw, width, height, wrap, ox, oy, h, metric, radius, out):
    """Symmetric shadowcasting from ``(ox, oy)``: cell ids into ``out``; returns the count.

    ``out`` needs ``4 * (r * r + 2 * r) + 1`` entries for ``r = radius``
    (clipped to the board). Ids are unique, except on a board wrapped in x,
    where a cell exactly half the width away can be reported twice.
    """
    out[0] = oy * width + ox
    n = 1
    reach = radius if radius < width + height else width + height
    diag = np.empty(8 * reach + 8, dtype=np.int64)
    nd = 0
    lim = col_limits(metric, radius, reach)
    for quadrant in range(4):
        md = _quadrant_depth(quadrant, width, height, wrap, ox, oy, radius)
        n, nd = scan_quadrant(bh, off, pw, width, height, wrap, ox, oy, h, quadrant, -1, 1, 1, 1, md, lim,
                              out, n, diag, nd, -1)
    # a diagonal cell is seen when either of its two quadrants sees it
    d = np.sort(diag[:nd])
    for i in range(nd):
        if (i == 0 or d[i] != d[i - 1]) and n < out.shape[0]:
            out[n] = d[i]
            n += 1
    return n


@jit
def _square_los_one(bh, pw, width, height, wrap, ax, ay, dx, dy, h, target):
    # the quadrants holding the offset (dx, dy): two on a diagonal
    adx = dx if dx >= 0 else -dx
    ady = dy if dy >= 0 else -dy
    for quadrant in range(4):
        if quadrant == 0:
            depth, col = -dy, dx
        elif quadrant == 1:
            depth, col = dx, dy
        elif quadrant == 2:
            depth, col = dy, dx
        else:
            depth, col = -dx, dy
        if depth <= 0 or col > depth or -col > depth:
            continue
        if depth > _quadrant_depth(quadrant, width, height, wrap, ax, ay, depth):
            continue
        sn, sd = 2 * col - 1, 2 * depth
        en, ed = 2 * col + 1, 2 * depth
        if col == -depth:
            sn, sd = -1, 1
        if col == depth:
            en, ed = 1, 1
        dummy = np.empty(0, dtype=np.int64)
        lim = np.arange(depth + 1)
        r, _ = scan_quadrant(bh, bh[0], pw, width, height, wrap, ax, ay, h, quadrant, sn, sd, en, ed, depth, lim,
                             dummy, 0, dummy, 0, target)
        if r < 0:
            return True
    return adx == 0 and ady == 0


@jit
def square_los(bh, pw, width, height, wrap, ax, ay, bx, by, h):
    """Whether ``(bx, by)`` is in the symmetric-shadowcasting view of ``(ax, ay)`` (no radius).

    Runs the same quadrant scan as ``square_fov`` restricted to the narrow
    cone of ``b``'s tile, so the two always agree; cost grows with the distance.
    """
    target = by * width + bx
    dy = by - ay
    if wrap:
        half = width // 2
        for shift in (-width, 0, width):
            dx = bx + shift - ax
            if -half <= dx <= half and _square_los_one(bh, pw, width, height, wrap, ax, ay, dx, dy, h, target):
                return True
        return False
    return _square_los_one(bh, pw, width, height, wrap, ax, ay, bx - ax, dy, h, target)


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


@jit
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


@jit
def hex_fov(bh, off, pw, width, height, wrap, ox, oy, h, radius, kind, out):
    """Cells within ``radius`` hex steps of ``(ox, oy)`` in line of sight: ids into ``out``; the count.

    ``out`` needs ``3 * r * (r + 1) + 1`` entries.
    """
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


@jit
def hex_los(bh, pw, width, height, wrap, ax, ay, bx, by, h, kind):
    """Whether ``b`` is in ``a``'s hex view (no radius); agrees with ``hex_fov``."""
    if wrap:
        half = width // 2
        for shift in (-width, 0, width):
            ux = bx + shift
            if -half <= ux - ax <= half and _hex_pair_clear(bh, pw, width, height, wrap, ax, ay, ux, by, h, kind):
                return True
        return False
    return _hex_pair_clear(bh, pw, width, height, wrap, ax, ay, bx, by, h, kind)


# -- fog of war -----------------------------------------------------------------------

@jit
def fog_apply(counts, last_seen, old, new, time):
    """Subtract view ``old`` from and add view ``new`` to one team's per-cell ``counts``.

    Cells whose count drops to zero are stamped ``last_seen = time``. Only the
    cells of the two views are touched.
    """
    for i in range(old.shape[0]):
        counts[old[i]] -= 1
    for i in range(new.shape[0]):
        counts[new[i]] += 1
    for i in range(old.shape[0]):
        if counts[old[i]] == 0:
            last_seen[old[i]] = time


@jit
def fog_views(bh, off, pw, width, height, wrap, kind, code, xs, ys, radii, hs, starts, out):
    """The views of many units at once: unit ``i``'s ids go to ``out[starts[i]:]``; returns their counts."""
    n = xs.shape[0]
    lens = np.zeros(n, dtype=np.int64)
    for i in range(n):
        seg = out[starts[i]:starts[i + 1]]
        if code == 4:
            lens[i] = hex_fov(bh, off, pw, width, height, wrap, xs[i], ys[i], hs[i], radii[i], kind, seg)
        else:
            lens[i] = square_fov(bh, off, pw, width, height, wrap, xs[i], ys[i], hs[i], code, radii[i], seg)
    return lens


@jit
def fog_apply_many(counts, last_seen, teams, old, old_starts, new, new_starts, new_lens, time):
    """``fog_apply`` for many units in order: unit ``i`` of team ``teams[i]`` trades its old view
    ``old[old_starts[i]:old_starts[i + 1]]`` for ``new[new_starts[i]:new_starts[i] + new_lens[i]]``."""
    for i in range(teams.shape[0]):
        a = new_starts[i]
        fog_apply(counts[teams[i]], last_seen[teams[i]], old[old_starts[i]:old_starts[i + 1]],
                  new[a:a + new_lens[i]], time)
