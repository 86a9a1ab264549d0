"""Ray casting for the visibility polygon: nearest segment hit along each ray."""

from __future__ import annotations

import numpy as np

from ._jit import jit


@jit
def cast_rays(lx, ly, dx, dy, margin, seg):
    """Distance ``t`` along each ray ``(lx, ly) + t * (dx[i], dy[i])`` to the nearest segment.

    ``seg`` is ``(S, 4)``: ``x0, y0, x1, y1``. A hit needs ``t > 1e-12`` and
    the crossing within the segment, ends included, widened by ``margin[i]``
    (a fraction of the segment) so that a ray aimed at a corner stops there.
    ``inf`` when nothing is hit.
    """
    n = dx.shape[0]
    out = np.full(n, np.inf)
    for i in range(n):
        best = np.inf
        di = dx[i]
        dj = dy[i]
        m = margin[i]
        for j in range(seg.shape[0]):
            ex = seg[j, 2] - seg[j, 0]
            ey = seg[j, 3] - seg[j, 1]
            den = di * ey - dj * ex
            if den == 0.0:
                continue
            ax = seg[j, 0] - lx
            ay = seg[j, 1] - ly
            t = (ax * ey - ay * ex) / den
            if t <= 1e-12 or t >= best:
                continue
            u = (ax * dj - ay * di) / den
            if -m <= u <= 1.0 + m:
                best = t
        out[i] = best
    return out
