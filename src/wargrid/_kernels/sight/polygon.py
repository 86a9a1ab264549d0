"""Ray marching for the visibility polygon: where each ray first meets a blocking tile.
"""

from __future__ import annotations

import math

import numpy as np

from .._jit import jit


@jit
def _start(v, d):
    """The tile index a ray from coordinate ``v`` moving by ``d`` is in first (a ray leaving a grid line goes its way)."""
    f = math.floor(v)
    if v == f and d < 0:
        return np.int64(f) - 1
    return np.int64(f)


@jit
def _next_line(v, c, d):
    """Distance along a ray from coordinate ``v`` in tile ``c`` moving by ``d`` to the next grid line."""
    if d > 0:
        return (c + 1 - v) / d
    if d < 0:
        return (c - v) / d
    return np.inf


@jit
def march_rays(lx, ly, dx, dy, blk, x0, y0, x1, y1):
    """Distance ``t`` along each ray ``(lx, ly) + t * (dx[i], dy[i])`` to its first blocking tile.

    Tiles are unit squares; ``blk`` is a ``(height, width)`` uint8 layer (1:
    blocks). The ray walks the tiles it crosses (Amanatides-Woo) and stops
    where it enters a blocking one, or where it leaves the box
    ``[x0, x1] x [y0, y1]``. A ray running exactly along a grid line walks
    the open side when there is one.
    """
    n = dx.shape[0]
    h, w = blk.shape
    out = np.empty(n)
    for i in range(n):
        ddx = dx[i]
        ddy = dy[i]
        tbox = np.inf
        if ddx > 0:
            tbox = min(tbox, (x1 - lx) / ddx)
        elif ddx < 0:
            tbox = min(tbox, (x0 - lx) / ddx)
        if ddy > 0:
            tbox = min(tbox, (y1 - ly) / ddy)
        elif ddy < 0:
            tbox = min(tbox, (y0 - ly) / ddy)
        cx = _start(lx, ddx)
        cy = _start(ly, ddy)
        if ddx == 0.0 and lx == math.floor(lx) and 0 <= cy < h and 0 < cx < w and blk[cy, cx] and not blk[cy, cx - 1]:
            cx -= 1
        if ddy == 0.0 and ly == math.floor(ly) and 0 <= cx < w and 0 < cy < h and blk[cy, cx] and not blk[cy - 1, cx]:
            cy -= 1
        sx = 1 if ddx > 0 else -1
        sy = 1 if ddy > 0 else -1
        tdx = abs(1.0 / ddx) if ddx != 0.0 else np.inf
        tdy = abs(1.0 / ddy) if ddy != 0.0 else np.inf
        tmx = _next_line(lx, cx, ddx)
        tmy = _next_line(ly, cy, ddy)
        t = 0.0
        hit = tbox
        while t < tbox:
            if cx < 0 or cx >= w or cy < 0 or cy >= h:
                break
            if blk[cy, cx]:
                hit = t
                break
            if tmx < tmy:
                t = tmx
                tmx += tdx
                cx += sx
            else:
                t = tmy
                tmy += tdy
                cy += sy
        out[i] = hit if hit < tbox else tbox
    return out
