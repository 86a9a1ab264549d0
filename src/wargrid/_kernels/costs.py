"""Kernels over a cost field's flat arrays (``wargrid.costs``)."""

from __future__ import annotations

import numpy as np

from ._jit import jit

INF = np.inf

FAULT_NAN = 1
FAULT_PADDING = 2
FAULT_RANGE = 3
FAULT_NEGATIVE = 4
"""What ``checked_range`` and ``ids_fault`` find wrong in a field's arrays (``0``: nothing); ``wargrid.costs``
words it."""


@jit
def finite_range(cell):
    """``(least, largest, where)`` of the finite entries of ``cell`` (``(inf, -inf, -1)``: none), ``where`` the first
    entry holding the least, in one pass.

    A field is made on every edit of a map, for every movement class, so this
    is one pass instead of numpy's four (``docs/design/kernels.md``).

    >>> finite_range(np.array([np.inf, 2.0, 0.5, 3.0]))
    (0.5, 3.0, 2)
    """
    lo = INF
    hi = -INF
    at = -1
    for i in range(cell.shape[0]):
        v = cell[i]
        if v < INF:
            if v < lo:
                lo, at = v, i
            hi = max(hi, v)
    return lo, hi, at


@jit
def patched_range(cell, ids, lo, flat, pw, ring, at):
    """``(least, uniform, where)`` of the finite entries of ``cell`` after its entries ``ids`` changed, from the
    field before: ``lo`` its least cost, ``flat`` every finite entry equalled it (``False``: not known), ``at`` an
    entry that held ``lo`` (``-1``: not known); ``where`` an entry holding ``least`` (``-1``: none finite), for the
    next edit's ``at``. Reads the changed entries, (``ring``) the padding ring and entry ``at``, and only where that
    no longer holds ``lo`` scans until an entry still does (the first edit of a field: its first road, say, can lie
    thousands of entries in) and, unless ``flat``, until one holds another cost; the whole pass only when no entry
    holds ``lo`` any more (it notes where the new least is). ``(nan, False, -1)`` when an id is not a cell of the
    padded board ``pw`` wide, its entry is NaN or negative, or the padding ring holds an entry other than ``inf``
    (``ids_fault`` says which), before anything is read past the array.

    >>> c = np.full(15, np.inf); c[6:9] = [1.0, 2.0, 1.0]  # a 3 x 1 board, padded: 5 x 3
    >>> patched_range(c, np.array([7]), 1.0, True, 5, True, -1)
    (1.0, False, 6)
    >>> c[6] = 3.0; patched_range(c, np.array([6]), 1.0, False, 5, True, 6)
    (1.0, False, 8)
    >>> patched_range(c, np.array([15]), 1.0, True, 5, True, -1)
    (nan, False, -1)
    """
    if ids_fault(cell, ids, pw, ring)[0]:  # (a finite cost in the ring, or an id past it, walks the kernels off the array)
        return np.nan, False, -1
    a = INF
    b = -INF
    first = -1
    for i in range(ids.shape[0]):
        v = cell[ids[i]]
        if v < INF:
            if v < a:
                first = ids[i]
            a = min(a, v)
            b = max(b, v)
    kept = 0 <= at < cell.shape[0] and cell[at] == lo
    i = 0
    while not kept and i < cell.shape[0]:
        kept = cell[i] == lo
        at = i
        i += 1
    if not kept:  # the least entries are gone (or there were none): the new least, where it is (the next edit's hint)
        x, y, at = finite_range(cell)
        return x, x == y or x == INF, at  # (none finite: uniform, as a field built whole says)
    least = min(lo, a)
    if a < lo:
        return least, False, first  # entries holding lo remain above the new least
    if flat:
        return least, b <= lo, at
    for i in range(cell.shape[0]):
        v = cell[i]
        if v < INF and v != least:
            return least, False, at
    return least, True, at


@jit
def ring_finite(cell, pw):
    """Whether the padding ring of the padded board ``pw`` wide (``cell.shape[0]`` a multiple of it) holds an
    entry other than ``inf`` (``2 * (pw + ph)`` reads).

    A NaN there counts (``!= inf``, not ``< inf``): the step bits block only
    ``inf``, so a NaN opened the ring and the searches walked off the array.

    >>> one = np.full(9, np.inf); one[4] = 2.0  # a board of one cell, padded: 3 x 3
    >>> ring_finite(one, 3), ring_finite(np.ones(9), 3)
    (False, True)
    >>> one[8] = np.nan; ring_finite(one, 3)
    True
    """
    n = cell.shape[0]
    for i in range(pw):
        if cell[i] != INF or cell[n - pw + i] != INF:
            return True
    for r in range(n // pw):
        if cell[r * pw] != INF or cell[r * pw + pw - 1] != INF:
            return True
    return False


@jit
def checked_range(cell, pw):
    """``finite_range(cell)``'s least and largest, and a fault: ``FAULT_NAN`` when an entry is NaN,
    ``FAULT_PADDING`` when the padding ring of the padded board ``pw`` wide (``cell.shape[0]`` a multiple of it)
    holds an entry other than ``inf``.

    One pass as ``finite_range``, then the ring.

    >>> one = np.full(9, np.inf); one[4] = 2.0  # a board of one cell, padded: 3 x 3
    >>> checked_range(one, 3)
    (2.0, 2.0, 0)
    >>> one[5] = 1.0; checked_range(one, 3)[2] == FAULT_PADDING
    True
    """
    lo = INF
    hi = -INF
    nan = False
    n = cell.shape[0]
    for i in range(n):
        v = cell[i]
        nan |= v != v  # (no branch: a branch here made the pass three times slower)
        if v < INF:
            lo = min(lo, v)
            hi = max(hi, v)
    if nan:
        return lo, hi, FAULT_NAN
    return lo, hi, FAULT_PADDING if ring_finite(cell, pw) else 0


@jit
def ids_fault(cell, ids, pw, ring):
    """``(fault, i)``: the first of ``ids`` that is no padded id of a cell of the board (``FAULT_RANGE`` past the
    array, ``FAULT_PADDING`` in the padding ring) or whose entry in ``cell`` is NaN or negative; else, with
    ``ring``, ``(FAULT_PADDING, -1)`` when the padding ring of ``cell`` holds an entry other than ``inf`` (its
    ``2 * (pw + ph)`` reads: one cache line a row); ``(0, -1)``: none.

    >>> ids_fault(np.full(9, np.inf), np.array([4, 9]), 3, True)
    (3, 1)
    """
    n = cell.shape[0]
    for i in range(ids.shape[0]):
        p = ids[i]
        if p < 0 or p >= n:
            return FAULT_RANGE, i
        x = p % pw
        if x == 0 or x == pw - 1 or p < pw or p >= n - pw:
            return FAULT_PADDING, i
        v = cell[p]
        if v != v:
            return FAULT_NAN, i
        if v < 0:
            return FAULT_NEGATIVE, i
    if ring and ring_finite(cell, pw):
        return FAULT_PADDING, -1
    return 0, -1


@jit
def any_bad_cost(a):
    """Whether ``a`` holds a NaN or a negative entry (one pass, no branch).

    >>> any_bad_cost(np.array([0.0, np.inf])), any_bad_cost(np.array([1.0, -0.5]))
    (False, True)
    """
    bad = False
    for i in range(a.shape[0]):
        bad |= not a[i] >= 0.0
    return bad
