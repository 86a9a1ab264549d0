"""Kernels over a cost field's flat arrays (``wargrid.costs``)."""

from __future__ import annotations

import numpy as np

from ._jit import jit

INF = np.inf


@jit
def finite_range(cell):
    """``(least, largest)`` of the finite entries of ``cell`` (``(inf, -inf)``: none), in one pass.

    A field is made on every edit of a map, for every movement class, so this
    is one pass instead of numpy's four (``docs/design/kernels.md``).

    >>> finite_range(np.array([np.inf, 2.0, 0.5, 3.0]))
    (0.5, 3.0)
    """
    lo = INF
    hi = -INF
    for i in range(cell.shape[0]):
        v = cell[i]
        if v < INF:
            lo = min(lo, v)
            hi = max(hi, v)
    return lo, hi
