"""Clearance (true-distance) maps and footprint maxima for units bigger than one cell.

A footprint is grown from one cell by a small structuring element given as
steps ``(fdx[par, e], fdy[par, e])`` (``par``: the cell's parity, as the
topology says; ``pmode`` 0 none, 1 columns, 2 rows): the footprint of size
``k`` at a cell is the cell plus every cell reached from it by at most
``k - 1`` such steps. On square boards the element is ``{(1, 0), (0, 1),
(1, 1)}`` (a ``k x k`` block anchored at its top-left cell); on hex and
staggered boards it is the six neighbours (the hex ball of radius ``k - 1``).

Arrays are unpadded ``(height * width,)`` here: these kernels run once per
cost field, not per query, and work in ``(x, y)`` with the wrap rule spelled
out.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from .steps import parity_slot


@jit
def _step(x, y, dx, dy, wrap, width, height):
    """The cell ``(x + dx, y + dy)`` (wrapped in x when ``wrap``) and its flat id, ``-1`` off the board."""
    qx = x + dx
    qy = y + dy
    if wrap:
        qx = qx % width
    if qx < 0 or qx >= width or qy < 0 or qy >= height:
        return -1
    return qy * width + qx


@jit
def clearance(blocked, fdx, fdy, rdx, rdy, pmode, wrap, width, height, out):
    """``out[i]``: the largest ``k`` whose footprint at cell ``i`` holds no blocked or off-board cell.

    ``blocked`` is ``(height * width,)`` bool; ``fdx``/``fdy`` the element's
    steps, ``rdx``/``rdy`` the reversed steps (``p`` such that ``p`` + a step
    = ``q``, as ``(2, ne)`` tables by the parity of ``q``). A breadth-first
    search from every blocked cell (distance 0) and from every passable cell
    with an element step off the board (distance 1) along the reversed steps:
    a cell's distance is the number of element steps to the nearest blocker,
    which is its clearance. Returns the largest clearance.
    """
    n = width * height
    ne = fdx.shape[1]
    queue = np.empty(n, dtype=np.int64)
    head = 0
    tail = 0
    for i in range(n):
        out[i] = -1
        if blocked[i]:
            out[i] = 0
            queue[tail] = i
            tail += 1
    for i in range(n):
        if out[i] >= 0:
            continue
        x = i % width
        y = i // width
        par = parity_slot(x, y, pmode, 1)
        for e in range(ne):
            if _step(x, y, fdx[par, e], fdy[par, e], wrap, width, height) < 0:
                out[i] = 1
                queue[tail] = i
                tail += 1
                break
    best = 0
    while head < tail:
        q = queue[head]
        head += 1
        dq = out[q]
        if dq > best:
            best = dq
        x = q % width
        y = q // width
        par = parity_slot(x, y, pmode, 1)
        for e in range(ne):
            p = _step(x, y, rdx[par, e], rdy[par, e], wrap, width, height)
            if p >= 0 and out[p] < 0:
                out[p] = dq + 1
                queue[tail] = p
                tail += 1
    for i in range(n):  # unreachable from any blocker: only on a board with nothing blocked (a torus in y cannot be)
        if out[i] < 0:
            out[i] = n
    return best


@jit
def square_clearance(blocked, width, height, out):
    """``clearance`` for square footprints on a board without wrap, in one pass from the bottom-right corner
    (annotated A*'s recurrence: one more than the least of the right, lower and lower-right clearances).
    Returns the largest clearance."""
    best = 0
    for y in range(height - 1, -1, -1):
        for x in range(width - 1, -1, -1):
            i = y * width + x
            if blocked[i]:
                out[i] = 0
            elif x == width - 1 or y == height - 1:
                out[i] = 1
            else:
                a = out[i + 1]
                b = out[i + width]
                c = out[i + width + 1]
                m = a if a < b else b
                out[i] = 1 + (m if m < c else c)
            if out[i] > best:
                best = out[i]
    return best


@jit
def footprint_max(values, fdx, fdy, pmode, wrap, width, height, passes, out):
    """``out[i, :]``: the maximum of ``values[j, :]`` over the cells ``j`` of the footprint of size ``passes + 1`` at ``i``.

    ``values`` is ``(height * width, m)``; element steps that leave the board
    are skipped (the callers block such anchors through the clearance).
    Grown one element step a pass (``passes`` passes of ``ne + 1`` reads a cell).
    """
    n = width * height
    m = values.shape[1]
    ne = fdx.shape[1]
    cur = values.copy()
    nxt = np.empty_like(cur)
    for _ in range(passes):
        for i in range(n):
            x = i % width
            y = i // width
            par = parity_slot(x, y, pmode, 1)
            for c in range(m):
                nxt[i, c] = cur[i, c]
            for e in range(ne):
                j = _step(x, y, fdx[par, e], fdy[par, e], wrap, width, height)
                if j < 0:
                    continue
                for c in range(m):
                    v = cur[j, c]
                    if v > nxt[i, c]:
                        nxt[i, c] = v
        cur, nxt = nxt, cur
    for i in range(n):
        for c in range(m):
            out[i, c] = cur[i, c]
