"""Neighbour steps: the parity and wrap rule, the corner rule, and the allowed-step bits of a board.

``move_mask`` folds both rules into one byte a cell for the plain kernels
(see the package notes); ``step_to`` and ``corner_ok`` apply them one step at
a time from a padded id alone, ``step_xy`` and ``corner_pass`` from a padded id,
its column and its parity base (what the general A* and Dijkstra loops hold).
"""

from __future__ import annotations

import numpy as np

from .._jit import helper, jit

INF = np.inf


# -- neighbour rule -------------------------------------------------------------------

@jit(inline="always")
def topo_info(ti):
    """``(ndir, pmode, crule, wrap, width, pw, heuristic, hex_kind)``: the slots of a topology
    bundle's ``info`` array (``bundles.INFO_FIELDS``), read once at the top of a kernel."""
    return ti[0], ti[1], ti[2], ti[3], ti[4], ti[5], ti[6], ti[7]


@jit
def unpack_topo(topo):
    """``(off, stepl, corner, ndir, pmode, crule, wrap, width, pw)`` from the ``topo`` bundle
    (``movement.search.topo_bundle``): what ``step_to`` and ``corner_ok`` read."""
    off, _, _, stepl, corner, ti = topo
    ndir, pmode, crule, wrap, width, pw, _, _ = topo_info(ti)
    return off, stepl, corner, ndir, pmode, crule, wrap, width, pw


@jit(inline="always")
def parity_slot(x, y, pmode, ndir):
    """The first offset slot of the cell in column ``x``, row ``y``: 0, or ``ndir`` in odd
    columns (``pmode`` 1) or odd rows (``pmode`` 2). Scalars only: inlined at no cost."""
    if pmode == 0:
        return 0
    if pmode == 1:
        return (x & 1) * ndir
    return (y & 1) * ndir


@jit(inline="always")
def slot_base(p, pmode, ndir, pw):
    """``parity_slot`` (int64) of padded cell ``p``, which has no column and row at hand
    (none are computed on boards without parity, ``pmode`` 0)."""
    if pmode == 0:
        return np.int64(0)
    if pmode == 1:
        return ((np.int64(p % pw) - 1) & 1) * np.int64(ndir)
    return ((np.int64(p // pw) - 1) & 1) * np.int64(ndir)


@helper
def step_to(p, d, off, ndir, pmode, wrap, width, pw):
    """Padded id of the neighbour of ``p`` in direction ``d`` (parity and wrap applied)."""
    return wrap_padded(p + off[slot_base(p, pmode, ndir, pw) + d], wrap, width, pw)


@jit
def wrap_padded(q, wrap, width, pw):
    """Padded id ``q`` brought back onto the board across the wrap seam (when ``wrap``): a step
    onto the left padding column lands in the last column, onto the right one in the first."""
    if wrap:
        qx = q % pw
        if qx == 0:
            q += width
        elif qx == width + 1:
            q -= width
    return q


@helper
def direction_to(a, b, off, ndir, pmode, wrap, width, pw):
    """The direction of the step from ``a`` to its neighbour ``b`` (padded ids), ``-1`` if they are not neighbours."""
    for d in range(ndir):
        if step_to(a, d, off, ndir, pmode, wrap, width, pw) == b:
            return d
    return -1


@helper
def corner_ok(cell, p, d, corner, crule, off, ndir, pmode, wrap, width, pw):
    """Whether the diagonal step from ``p`` in direction ``d`` passes the corner rule."""
    c0 = corner[2 * d]
    if c0 < 0:
        return True
    a = cell[step_to(p, c0, off, ndir, pmode, wrap, width, pw)] < INF
    b = cell[step_to(p, corner[2 * d + 1], off, ndir, pmode, wrap, width, pw)] < INF
    if crule == 1:
        return a and b
    return a or b


@helper
def step_xy(u, ux, k, off, dxa, wrap, width):
    """``(q, qx)``: the padded id and column of the neighbour of ``u`` (column ``ux``) through
    offset slot ``k`` (parity base plus direction), wrap applied. The hot kernels' step."""
    q = u + off[k]
    qx = ux + dxa[k]
    if wrap:
        if qx < 0:
            qx += width
            q += width
        elif qx >= width:
            qx -= width
            q -= width
    return q, qx


@helper
def corner_pass(cell, p, px, pb, d, corner, crule, off, dxa, wrap, width):
    """Whether the step from ``p`` (column ``px``, parity base ``pb``) in direction ``d``
    passes the corner rule (always with ``crule == 0`` or a step that has no corners)."""
    if crule == 0:
        return True
    c0 = corner[2 * d]
    if c0 < 0:
        return True
    q0, _ = step_xy(p, px, pb + c0, off, dxa, wrap, width)
    q1, _ = step_xy(p, px, pb + corner[2 * d + 1], off, dxa, wrap, width)
    a0 = cell[q0] < INF
    a1 = cell[q1] < INF
    if crule == 1:
        return a0 and a1
    return a0 or a1


# -- the plain case: no wrap, no edge costs, no stop cells (see the package notes) -------

_U = np.uintp


@jit
def move_mask(cell, edge, off, corner, ti, out):
    """Fill ``out[p]`` with the bits of the allowed steps from every passable padded cell ``p``.

    A step is allowed when it enters a passable cell, passes the corner rule
    and its edge cost (when ``edge`` is not empty) is finite. Impassable and
    padding cells get 0. Boards without wrap only (the plain kernels' boards).
    Returns the largest finite cell cost (0 if none).
    """
    nd, pmode, crule, _, _, pwi, _, _ = topo_info(ti)
    ndir = _U(nd)
    pw = _U(pwi)
    two = _U(2)
    one = _U(1)
    has_edge = edge.shape[0] > 0
    n = cell.shape[0]
    top = 0.0
    for pi in range(n):
        p = _U(pi)
        c = cell[p]
        if c == INF:
            out[p] = 0
            continue
        if c > top:
            top = c
        base = _U(slot_base(p, pmode, ndir, pw))
        bits = 0
        for d in range(ndir):
            du = _U(d)
            if cell[_U(pi + off[base + du])] == INF:
                continue
            if has_edge and edge[p * ndir + du] == INF:
                continue
            if crule != 0:
                c0 = corner[two * du]
                if c0 >= 0:
                    a0 = cell[_U(pi + off[base + _U(c0)])] < INF
                    a1 = cell[_U(pi + off[base + _U(corner[two * du + one])])] < INF
                    if crule == 1:
                        if not (a0 and a1):
                            continue
                    elif not (a0 or a1):
                        continue
            bits |= 1 << d
        out[p] = bits
    return top


@jit
def walk_cost(path, cell, edge, tb):
    """The cost of walking ``path`` (padded ids, each a neighbour of the last) over ``cell`` and ``edge``."""
    off, stepl, ti = tb[0], tb[3], tb[5]
    ndir, pmode, _, wrap, width, pw, _, _ = topo_info(ti)
    has_edge = edge.shape[0] > 0
    total = 0.0
    for i in range(path.shape[0] - 1):
        a = path[i]
        b = path[i + 1]
        best = INF
        for d in range(ndir):
            if step_to(a, d, off, ndir, pmode, wrap, width, pw) == b:
                w = stepl[d] * cell[b]
                if has_edge:
                    w += edge[a * ndir + d]
                if w < best:
                    best = w
        total += best
    return total
