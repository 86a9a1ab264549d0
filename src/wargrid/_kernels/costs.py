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


@jit
def patched_range(cell, ids, lo, flat):
    """``(least, uniform)`` of the finite entries of ``cell`` after its entries ``ids`` changed, from the field
    before: ``lo`` its least cost, ``flat`` every finite entry equalled it (``False``: not known). Reads the
    changed entries and scans only until an entry still holds ``lo`` (usually at once) and, unless ``flat``,
    until one holds another cost; the whole pass only when no entry holds ``lo`` any more.

    >>> c = np.array([np.inf, 1.0, 2.0, 1.0])
    >>> patched_range(c, np.array([2]), 1.0, True)
    (1.0, False)
    """
    a = INF
    b = -INF
    for i in range(ids.shape[0]):
        v = cell[ids[i]]
        if v < INF:
            a = min(a, v)
            b = max(b, v)
    kept = False
    for i in range(cell.shape[0]):
        if cell[i] == lo:
            kept = True
            break
    if not kept:  # the least entries are gone (or there were none)
        x, y = finite_range(cell)
        return x, x == y or x == INF  # (none finite: uniform, as a field built whole says)
    least = min(lo, a)
    if a < lo:
        return least, False  # entries holding lo remain above the new least
    if flat:
        return least, b <= lo
    for i in range(cell.shape[0]):
        v = cell[i]
        if v < INF and v != least:
            return least, False
    return least, True
