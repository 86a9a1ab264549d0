"""Line of sight between two cells; agrees with the fields of view of ``fov``.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from .fov import _quadrant_depth, scan_quadrant
from .hex_lines import _hex_pair_clear


@jit
def _square_los_one(bh, off, pw, width, height, wrap, ax, ay, dx, dy, h, target):
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
        # the board's ``off`` and int64 counts, as ``square_fov`` passes them: one signature of ``scan_quadrant``
        r, _ = scan_quadrant(bh, off, pw, width, height, wrap, ax, ay, h, quadrant, sn, sd, en, ed, depth, lim,
                             dummy, np.int64(0), dummy, np.int64(0), target)
        if r < 0:
            return True
    return adx == 0 and ady == 0


@jit
def square_los(sb, ax, ay, bx, by, h):
    """Whether ``(bx, by)`` is in the symmetric-shadowcasting view of ``(ax, ay)`` (no radius).

    ``sb`` is the board as in ``fov.square_fov``. Runs the same quadrant scan
    as ``square_fov`` restricted to the narrow cone of ``b``'s tile, so the two
    always agree; cost grows with the distance.
    """
    bh, off, pw, width, height, wrap, _ = sb
    target = by * width + bx
    dy = by - ay
    if wrap:
        half = width // 2
        for shift in (-width, 0, width):
            dx = bx + shift - ax
            if -half <= dx <= half and _square_los_one(bh, off, pw, width, height, wrap, ax, ay, dx, dy, h, target):
                return True
        return False
    return _square_los_one(bh, off, pw, width, height, wrap, ax, ay, bx - ax, dy, h, target)


@jit
def hex_los(sb, ax, ay, bx, by, h):
    """Whether ``b`` is in ``a``'s hex view on board ``sb`` (no radius); agrees with ``hex_fov``."""
    bh, _, pw, width, height, wrap, kind = sb
    if wrap:
        half = width // 2
        for shift in (-width, 0, width):
            ux = bx + shift
            if -half <= ux - ax <= half and _hex_pair_clear(bh, pw, width, height, wrap, ax, ay, ux, by, h, kind):
                return True
        return False
    return _hex_pair_clear(bh, pw, width, height, wrap, ax, ay, bx, by, h, kind)
