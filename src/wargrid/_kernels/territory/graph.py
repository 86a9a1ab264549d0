"""The land graph and the searches every territory module walks it with.

``build_graph`` turns the padded board into the land graph (see the package
notes); ``bfs``, ``label_chunks`` and ``farthest_points`` serve partitions,
scattered territories, feasibility checks and start positions alike.
``spread`` is the breadth-first loop of ``farthest_points`` and ``growth``'s
fields; ``bfs`` and ``label_chunks`` keep theirs written out (measured faster,
``docs/design/kernels.md``).
"""

from __future__ import annotations

import numpy as np

from .._jit import helper, jit
from ..movement.steps import parity_slot, wrap_padded

SAME_OWNER = -2
"""``who`` for ``spread``: through nodes owned as the node they are reached from."""


@jit
def build_graph(passable, offsets, pw, ph, width, parity_mode, wrap):
    """Land graph of the padded ``passable`` board: ``(nbr (n, ndir), cell ids (n,))``."""
    ndir = offsets.shape[1]
    size = pw * ph
    pnode = np.full(size, -1, np.int64)
    n = 0
    for p in range(size):
        if passable[p]:
            pnode[p] = n
            n += 1
    nbr = np.full((n, ndir), -1, np.int64)
    cell = np.empty(n, np.int64)
    for p in range(size):
        i = pnode[p]
        if i < 0:
            continue
        x = p % pw - 1
        y = p // pw - 1
        cell[i] = y * width + x
        par = parity_slot(x, y, parity_mode, 1)
        for d in range(ndir):
            j = pnode[wrap_padded(p + offsets[par, d], wrap, width, pw)]
            if j >= 0 and j != i:
                nbr[i, d] = j
    return nbr, cell


@helper
def spread(nbr, queue, head, tail, dist, owner, who, near, slack):
    """Breadth first from ``queue[head:tail]`` (their ``dist`` set); returns the queue's new end.

    A neighbour ``j`` of ``c`` gets ``dist[c] + 1`` and joins the queue when
    that is less than ``dist[j]`` (``-1``: unreached) and ``j`` may be
    entered: ``owner[j] == who`` (``who >= 0``), ``owner[j] == owner[c]``
    (``SAME_OWNER``) or any node (``-1``); with ``slack >= 0`` also only while
    ``dist[c] + 1 <= near[j] + slack``. From fresh distances (all ``-1``) a
    node is reached once, at its fewest steps; from larger ones the search
    stops where it brings no improvement.
    """
    ndir = nbr.shape[1]
    anyone = who == -1
    while head < tail:
        c = queue[head]
        head += 1
        dc = dist[c] + 1
        oc = who
        if who == SAME_OWNER:
            oc = owner[c]
        for d in range(ndir):
            j = nbr[c, d]
            if j < 0 or np.uintp(dist[j]) <= np.uintp(dc):  # reached (-1 is the largest), no shorter
                continue
            if not anyone and owner[j] != oc:
                continue
            if slack >= 0 and dc > near[j] + slack:
                continue
            dist[j] = dc
            queue[tail] = j
            tail += 1
    return tail


@jit
def bfs(nbr, sources, owner, who):
    """Steps from the nearest source; only through nodes with ``owner == who``
    (``who < 0``: through every node). ``-1`` where unreached."""
    n, ndir = nbr.shape
    dist = np.full(n, -1, np.int64)
    queue = np.empty(n, np.int64)
    head = 0
    tail = 0
    for s in sources:
        if dist[s] < 0 and (who < 0 or owner[s] == who):
            dist[s] = 0
            queue[tail] = s
            tail += 1
    while head < tail:
        c = queue[head]
        head += 1
        for d in range(ndir):
            j = nbr[c, d]
            if j >= 0 and dist[j] < 0 and (who < 0 or owner[j] == who):
                dist[j] = dist[c] + 1
                queue[tail] = j
                tail += 1
    return dist


@jit
def label_chunks(nbr, owner):
    """Connected pieces of equal ``owner``: ``(labels (n,), sizes (k,))``."""
    n, ndir = nbr.shape
    labels = np.full(n, -1, np.int64)
    sizes = np.zeros(n, np.int64)
    queue = np.empty(n, np.int64)
    k = 0
    for s in range(n):
        if labels[s] >= 0:
            continue
        o = owner[s]
        labels[s] = k
        queue[0] = s
        head = 0
        tail = 1
        while head < tail:
            c = queue[head]
            head += 1
            for d in range(ndir):
                j = nbr[c, d]
                if j >= 0 and labels[j] < 0 and owner[j] == o:
                    labels[j] = k
                    queue[tail] = j
                    tail += 1
        sizes[k] = tail
        k += 1
    return labels, sizes[:k].copy()


@jit
def farthest_points(nbr, pool, k, first):
    """``k`` nodes of ``pool`` (node ids), each the farthest (in steps) from those
    before (distances kept up to date by a breadth-first pass from each new point
    that stops where it brings no improvement)."""
    n = nbr.shape[0]
    out = np.empty(k, np.int64)
    out[0] = first
    big = np.int64(1) << 62
    dist = np.full(n, big, np.int64)
    queue = np.empty(n, np.int64)
    for t in range(k):
        if t > 0:
            best = -1
            bd = -1
            for p in pool:
                if dist[p] > bd:
                    bd = dist[p]
                    best = p
            out[t] = best
        s = out[t]
        dist[s] = 0
        queue[0] = s
        spread(nbr, queue, 0, 1, dist, dist, -1, dist, -1)
    return out
