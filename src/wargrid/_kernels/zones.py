"""Connectivity-zone kernels over the padded flat layout of ``Topology``.

Two padded cells ``p`` and ``q`` are *linked* when ``q`` is the neighbour of
``p`` in some direction ``d``, both are passable (finite entry cost), the
corner rule allows the step (diagonals on square-8 boards) and the step's
extra edge cost is finite in at least one of the two directions (a wall both
ways disconnects; a one-way wall still links the cells, so ``connected`` is
never false for a reachable pair). Zones are the connected components of
that relation. The same kernels serve every board kind: the topology is data
(offsets, parity mode, corner table, wrap flag).

Arguments shared by every kernel: ``cell`` (padded entry costs, ``inf`` for
impassable and padding), ``edge`` (empty, or ``padded_size * ndir`` extra
step costs), ``offsets`` ``(2, ndir)``, ``corner`` ``(ndir, 2)``,
``parity_mode``, ``corner_rule``, ``wrap``, ``width``, ``height``.
Labels are int32 (a board holds at most 2**28 cells); padded ids are int64.
"""

from __future__ import annotations

import numpy as np

from ._jit import jit

INF = np.inf


@jit
def _neighbour(p, d, offsets, parity_mode, wrap, width, pw):
    """Padded id of the neighbour of ``p`` in direction ``d`` (wrap applied)."""
    if parity_mode == 1:
        par = (p % pw - 1) & 1
    elif parity_mode == 2:
        par = (p // pw - 1) & 1
    else:
        par = 0
    q = p + offsets[par, d]
    if wrap:
        qx = q % pw
        if qx == 0:
            q += width
        elif qx == width + 1:
            q -= width
    return q


@jit
def _corner_ok(cell, p, d, offsets, corner, parity_mode, corner_rule, wrap, width, pw):
    """Whether the corner rule lets a step from ``p`` in direction ``d`` pass."""
    if corner_rule == 0 or corner[d, 0] < 0:
        return True
    a = cell[_neighbour(p, corner[d, 0], offsets, parity_mode, wrap, width, pw)] < INF
    b = cell[_neighbour(p, corner[d, 1], offsets, parity_mode, wrap, width, pw)] < INF
    if corner_rule == 1:
        return a and b
    return a or b


@jit
def _linked(cell, edge, p, d, q, offsets, corner, parity_mode, corner_rule, wrap, width, pw, ndir):
    """Whether passable ``p`` and its passable neighbour ``q`` (direction ``d``) are linked."""
    if not _corner_ok(cell, p, d, offsets, corner, parity_mode, corner_rule, wrap, width, pw):
        return False
    if edge.shape[0] == 0 or edge[p * ndir + d] < INF:
        return True
    for d2 in range(ndir):  # a wall this way: is the step back open?
        if _neighbour(q, d2, offsets, parity_mode, wrap, width, pw) == p and edge[q * ndir + d2] < INF:
            return True
    return False


@jit
def _find(parent, p):
    while parent[p] != p:
        parent[p] = parent[parent[p]]
        p = parent[p]
    return p


@jit
def label_board(cell, edge, offsets, corner, parity_mode, corner_rule, wrap, width, height, out):
    """Label every padded cell by zone into ``out`` (int32, padded size); return the zone count.

    Impassable cells and padding get ``-1``; zones are numbered ``0..n-1`` in
    row-major order of their first cell. Union-find with roots kept at the
    smallest id, so a single forward pass turns parents into labels.
    """
    pw = width + 2
    ndir = offsets.shape[1]
    has_edge = edge.shape[0] > 0
    n = out.shape[0]
    for p in range(n):
        out[p] = p if cell[p] < INF else -1
    for y in range(height):
        row = (y + 1) * pw + 1
        for x in range(width):
            p = row + x
            if not cell[p] < INF:
                continue
            if parity_mode == 1:
                par = x & 1
            elif parity_mode == 2:
                par = y & 1
            else:
                par = 0
            for d in range(ndir):
                q = p + offsets[par, d]
                if wrap:
                    qx = q % pw
                    if qx == 0:
                        q += width
                    elif qx == width + 1:
                        q -= width
                # without edge costs links are symmetric: look back only
                if (q > p and not has_edge) or not cell[q] < INF:
                    continue
                if corner_rule != 0 and corner[d, 0] >= 0:
                    if not _corner_ok(cell, p, d, offsets, corner, parity_mode, corner_rule, wrap, width, pw):
                        continue
                if has_edge and not edge[p * ndir + d] < INF:
                    continue
                a = _find(out, p)
                b = _find(out, q)
                if a < b:
                    out[b] = a
                elif b < a:
                    out[a] = b
    count = 0
    for p in range(n):
        r = out[p]
        if r < 0:
            continue
        if r == p:
            out[p] = count
            count += 1
        else:
            # parent r < p already holds its final label (roots are minimal)
            out[p] = out[r]
    return count


@jit
def reflood(cell, edge, offsets, corner, parity_mode, corner_rule, wrap, width, labels, stamp, gen, seeds, old_ids, next_id, comp_ids, comp_sizes):
    """Re-label the zones reached from ``seeds`` (padded ids of passable cells).

    Each new component keeps the old id (from sorted ``old_ids``) that most of
    its cells had, unless an earlier component took it; otherwise it gets
    ``next_id``, ``next_id + 1``, ... Cells visited are marked in ``stamp``
    with ``gen``. Work is proportional to the components reached. Writes one
    entry per component to ``comp_ids`` / ``comp_sizes`` (length ``len(seeds)``);
    returns ``(number of components, next free id)``.
    """
    pw = width + 2
    ndir = offsets.shape[1]
    k = old_ids.shape[0]
    used = np.zeros(k, dtype=np.bool_)
    counts = np.zeros(k, dtype=np.int64)
    queue = np.empty(16, dtype=np.int64)
    ncomp = 0
    for s in seeds:
        if stamp[s] == gen or not cell[s] < INF:
            continue
        stamp[s] = gen
        counts[:] = 0
        queue[0] = s
        head = 0
        tail = 1
        while head < tail:
            p = queue[head]
            head += 1
            lab = labels[p]
            if lab >= 0:
                i = np.searchsorted(old_ids, lab)
                if i < k and old_ids[i] == lab:
                    counts[i] += 1
            for d in range(ndir):
                q = _neighbour(p, d, offsets, parity_mode, wrap, width, pw)
                if stamp[q] == gen or not cell[q] < INF:
                    continue
                if not _linked(cell, edge, p, d, q, offsets, corner, parity_mode, corner_rule, wrap, width, pw, ndir):
                    continue
                stamp[q] = gen
                if tail == queue.shape[0]:
                    bigger = np.empty(2 * tail, dtype=np.int64)
                    bigger[:tail] = queue
                    queue = bigger
                queue[tail] = q
                tail += 1
        best = -1
        most = 0
        for i in range(k):
            if not used[i] and counts[i] > most:
                best = i
                most = counts[i]
        if best >= 0:
            used[best] = True
            cid = old_ids[best]
        else:
            cid = next_id
            next_id += 1
        for j in range(tail):
            labels[queue[j]] = cid
        comp_ids[ncomp] = cid
        comp_sizes[ncomp] = tail
        ncomp += 1
    return ncomp, next_id


@jit
def link_pairs(cell, edge, offsets, corner, parity_mode, corner_rule, wrap, width, labels, cells):
    """Linked neighbour pairs ``(p, q)`` with different labels around padded ``cells``.

    Returns an ``(m, 2)`` int64 array of padded ids.
    """
    pw = width + 2
    ndir = offsets.shape[1]
    out = np.empty((cells.shape[0] * ndir, 2), dtype=np.int64)
    m = 0
    for p in cells:
        if not cell[p] < INF:
            continue
        for d in range(ndir):
            q = _neighbour(p, d, offsets, parity_mode, wrap, width, pw)
            if not cell[q] < INF or labels[q] == labels[p]:
                continue
            if _linked(cell, edge, p, d, q, offsets, corner, parity_mode, corner_rule, wrap, width, pw, ndir):
                out[m, 0] = p
                out[m, 1] = q
                m += 1
    return out[:m].copy()


@jit
def relabel(cell, edge, offsets, corner, parity_mode, corner_rule, wrap, width, labels, start, old, new):
    """Flood the cells labelled ``old`` linked to ``start`` and label them ``new``; return their count."""
    pw = width + 2
    ndir = offsets.shape[1]
    if labels[start] != old:
        return 0
    queue = np.empty(16, dtype=np.int64)
    labels[start] = new
    queue[0] = start
    head = 0
    tail = 1
    while head < tail:
        p = queue[head]
        head += 1
        for d in range(ndir):
            q = _neighbour(p, d, offsets, parity_mode, wrap, width, pw)
            if labels[q] != old:
                continue
            if not _linked(cell, edge, p, d, q, offsets, corner, parity_mode, corner_rule, wrap, width, pw, ndir):
                continue
            labels[q] = new
            if tail == queue.shape[0]:
                bigger = np.empty(2 * tail, dtype=np.int64)
                bigger[:tail] = queue
                queue = bigger
            queue[tail] = q
            tail += 1
    return tail
