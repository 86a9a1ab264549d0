"""Lazy per-goal distance tables: each goal's distances found only as far as they are asked for.

A table answers "how many steps from node ``v`` to goal ``k``" on the compact
graph of the crowd kernels (``nbr[v, d]``: the node one step away, ``-1``:
none; the graph is symmetric). Row ``k`` is a search from goal ``k`` that
stops as soon as the asked node is settled and resumes, where it stopped, at
the next question. Units sharing a goal share its row.

The search is resumable A* (reverse resumable A*, Silver 2005) towards a
target node per goal (the agent's start; ``-1``: none, plain breadth-first
search): nodes settle in the order of ``f = g + h`` where ``h`` is the
Manhattan or Chebyshev distance of the nodes' coordinates to the target, used
only when no edge changes it by more than one (the caller checks), so ``h`` is
consistent, a settled node's ``g`` is exact and ``f`` of a node's neighbours is
``f``, ``f + 1`` or ``f + 2``: three buckets, in a ring, are the open list.
Asked about a node far from the target's way, the search settles every node of
smaller ``f`` first: the answer is always the exact distance.

Within a bucket the node put last comes first (the deepest: ties of ``f``
broken towards the target, so on open ground the search runs straight to it
instead of settling the whole rectangle between goal and target; any order
within one ``f`` keeps the distances exact). Buckets are stacks of linked
chunks of ``CHUNK`` nodes from one pool with a free list;
when the pool runs short, the asking goal's row is finished by a plain
breadth-first search (its chunks go back to the pool): memory stays bounded,
the worst case is the whole-board search per goal. A row's first search by
``lookup_wide``, heading for the node asked, keeps its buckets in flat stacks
(scratch of the caller's) and puts only the nodes still open at its end into
chunks: a push is then a store, not a chunk's bookkeeping.

The tables' state is one named tuple ``lz`` (``LazyTables``; ``lazy_tables`` in
``wargrid.rts.crowd`` builds it): ``(dist, st, cnext, cdata, free, nxy, queue)``:

- ``dist[k, v]``: the distance plus one once settled, 0 before;
- ``st[k]``: goal ``k``'s search (the ``S_*`` columns): its goal node, its
  target's coordinates and metric (0 none, 1 Manhattan, 2 Chebyshev), the
  bucket being settled, a flag (0 not started, 1 searching, 2 done: every
  reachable node settled, an unsettled one is unreachable), and each bucket's
  top chunk and its count (``-1``: empty bucket);
- ``cnext[c]``, ``cdata[c, :]``: the chunks (``cnext``: the chunk below, or
  the next free one); ``free = [head, count, nodes settled so far]``;
- ``nxy[v]``: node ``v``'s coordinates;
- ``queue``: scratch of one node per node, for the fallback search.

Rows are searched on several threads at once through copies of ``lz`` that
share ``dist``, ``st``, ``cnext``, ``cdata`` and ``nxy`` but each have their
own ``free`` (a part of the pool's chunks) and ``queue``, each thread asking
about rows of its own; ``join_pools`` makes the parts one pool again.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._jit import helper, jit

CHUNK = 64
"""Nodes per chunk of a bucket."""

UNREACHABLE = np.int64(1) << np.int64(40)
"""The distance returned for a node that cannot reach the goal."""


S_GOAL, S_TX, S_TY, S_METRIC, S_F, S_FLAG, S_BT, S_BTO = 0, 1, 2, 3, 4, 5, 6, 9
S_COLS = 12


class LazyTables(NamedTuple):
    """The tables' state ``lz`` (see the module's text; numba reads the fields by name)."""

    dist: np.ndarray  # (goals, nodes): distance + 1 once settled, 0 before
    st: np.ndarray  # (goals, S_COLS): each goal's search
    cnext: np.ndarray  # the chunk below, or the next free chunk
    cdata: np.ndarray  # (chunks, CHUNK): the chunks' nodes
    free: np.ndarray  # [head, count, nodes settled so far]
    nxy: np.ndarray  # (nodes, 2): the nodes' coordinates
    queue: np.ndarray  # one node a node: the fallback search's scratch
"""Columns of ``st``: three each for the buckets' top chunk and its count."""


@helper
def _h(nxy, m, tx, ty, v):
    if m == 0:
        return np.int64(0)
    dx = abs(np.int64(nxy[v, 0]) - tx)
    dy = abs(np.int64(nxy[v, 1]) - ty)
    if m == 1:
        return dx + dy
    return max(dx, dy)


@helper
def _free_chunk(cnext, free, c):
    cnext[c] = free[0]
    free[0] = c
    free[1] += 1


@helper
def _push(st, cnext, cdata, free, k, b, v):
    """Put node ``v`` on goal ``k``'s bucket ``b`` (the pool has a free chunk)."""
    c, o, head, took = _stack(cnext, cdata, free[0], st[k, S_BT + b], st[k, S_BTO + b], v)
    st[k, S_BT + b], st[k, S_BTO + b] = c, o
    free[0] = head
    free[1] -= took


@helper
def _stack(cnext, cdata, head, c, o, v):
    """Put node ``v`` on the stack whose top chunk is ``c`` holding ``o`` nodes, taking the pool's free chunk
    ``head`` when ``c`` is full or none; returns the stack's new top chunk and count, the pool's head and the
    chunks taken (0 or 1)."""
    took = 0
    if c < 0 or o == CHUNK:
        nc = head
        head = cnext[nc]
        cnext[nc] = c
        c = nc
        o = 0
        took = 1
    cdata[c, o] = v
    return c, o + 1, head, took


@helper
def _pop(st, cnext, cdata, free, k, b):
    """The node last put on goal ``k``'s bucket ``b``; ``-1`` when empty."""
    c = st[k, S_BT + b]
    if c < 0:
        return np.int64(-1)
    o = st[k, S_BTO + b] - 1
    v = np.int64(cdata[c, o])
    if o == 0:
        st[k, S_BT + b] = cnext[c]
        st[k, S_BTO + b] = CHUNK
        _free_chunk(cnext, free, c)
    else:
        st[k, S_BTO + b] = o
    return v


@helper
def _finish(row, st, cnext, free, queue, nbr, k):
    """Goal ``k``'s whole row by breadth-first search (the pool ran short); its chunks go back to the pool. Returns
    the nodes it settled."""
    for b in range(3):
        c = st[k, S_BT + b]
        while c >= 0:
            prev = cnext[c]
            _free_chunk(cnext, free, c)
            c = prev
        st[k, S_BT + b] = -1
    for v in range(row.shape[0]):
        row[v] = 0
    g = st[k, S_GOAL]
    row[g] = 1
    queue[0] = g
    head = 0
    tail = 1
    while head < tail:
        v = queue[head]
        head += 1
        dv = row[v] + 1
        for d in range(nbr.shape[1]):
            u = nbr[v, d]
            if u >= 0 and row[u] == 0:
                row[u] = dv
                queue[tail] = u
                tail += 1
    st[k, S_FLAG] = 2
    return tail


@helper
def estimate(lz, k, v):
    """A lower bound of the steps from node ``v`` to goal ``k`` without searching: the metric distance to the
    goal, and, every node of ``f`` below the row's current bucket being settled, that bucket less ``v``'s
    heuristic (exact on open ground)."""
    x = lz.dist[k, v]
    if x != 0:
        return np.int64(x) - 1
    st = lz.st
    if st[k, S_FLAG] == 2:
        return UNREACHABLE
    m = st[k, S_METRIC]
    nxy = lz.nxy
    g = st[k, S_GOAL]
    low = _h(nxy, m, np.int64(nxy[g, 0]), np.int64(nxy[g, 1]), v)
    if st[k, S_FLAG] == 1:
        low = max(low, st[k, S_F] - _h(nxy, m, st[k, S_TX], st[k, S_TY], v))
    return low


@helper
def finish(lz, nbr, k):
    """Goal ``k``'s whole row now, by breadth-first search (its chunks go back to the pool); the nodes settled."""
    dist, st, cnext, cdata, free, nxy, queue = lz
    if st[k, S_FLAG] == 2:
        return np.int64(0)
    return np.int64(_finish(dist[k], st, cnext, free, queue, nbr, k))


@helper
def settle(lz, nbr, k, want):
    """Search goal ``k``'s row until node ``want`` is settled; its distance (``UNREACHABLE``: none)."""
    return settle_within(lz, nbr, k, np.int64(want), UNREACHABLE)


@helper
def settle_within(lz, nbr, k, want, limit):
    """``settle``, stopping once the tables have settled ``limit`` nodes in all (``free[2]``): then ``-1``, node
    ``want`` not settled yet (the search resumes there at the next question)."""
    return _search(lz, nbr, k, np.int64(want), limit, np.int64(-1))  # int64: one signature for int32 and int64 nodes


@helper
def _search(lz, nbr, k, want, limit, fmax):
    """``settle_within``, going on (the limit allowing) until every node of ``f`` up to ``fmax`` is settled."""
    dist, st, cnext, cdata, free, nxy, queue = lz
    row = dist[k]
    m = st[k, S_METRIC]
    tx = st[k, S_TX]
    ty = st[k, S_TY]
    if st[k, S_FLAG] == 0:
        g = st[k, S_GOAL]
        f0 = _h(nxy, m, tx, ty, g)
        st[k, S_F] = f0
        if free[1] < 3:
            _finish(row, st, cnext, free, queue, nbr, k)
        else:
            _push(st, cnext, cdata, free, k, f0 % 3, g)
            st[k, S_FLAG] = 1
    ndir = nbr.shape[1]
    # the loop keeps the current bucket's top chunk and count, the pool's head and count and f in locals
    # (written back to st and free at each exit): loads and stores of st between the stores into the chunks
    # cost as much as the search itself
    f = st[k, S_F]
    b = f % 3
    c = st[k, S_BT + b]
    o = st[k, S_BTO + b]
    head = free[0]
    nfree = free[1]
    settled = np.int64(0)
    stopped = False
    while (row[want] == 0 or f <= fmax) and st[k, S_FLAG] != 2:
        if free[2] + settled >= limit:
            stopped = True
            break
        if nfree < 3:
            st[k, S_BT + b], st[k, S_BTO + b] = c, o
            free[0], free[1] = head, nfree
            _finish(row, st, cnext, free, queue, nbr, k)
            head, nfree = free[0], free[1]
            break
        if c < 0:  # the bucket of f is empty: the next f, or none left
            st[k, S_BT + b], st[k, S_BTO + b] = c, o
            if st[k, S_BT] < 0 and st[k, S_BT + 1] < 0 and st[k, S_BT + 2] < 0:
                st[k, S_FLAG] = 2
                break
            f += 1
            b = f % 3
            c = st[k, S_BT + b]
            o = st[k, S_BTO + b]
            continue
        o -= 1
        v = np.int64(cdata[c, o])
        if o == 0:
            nc = cnext[c]
            cnext[c] = head
            head = c
            nfree += 1
            c = nc
            o = CHUNK
        if row[v] != 0:
            continue
        gv = f - _h(nxy, m, tx, ty, v)
        row[v] = gv + 1
        settled += 1
        for d in range(ndir):
            u = nbr[v, d]
            if u < 0 or row[u] != 0:
                continue
            bu = (gv + 1 + _h(nxy, m, tx, ty, u)) % 3
            if bu == b:
                c, o, head, took = _stack(cnext, cdata, head, c, o, u)
            else:
                cu, ou, head, took = _stack(cnext, cdata, head, st[k, S_BT + bu], st[k, S_BTO + bu], u)
                st[k, S_BT + bu], st[k, S_BTO + bu] = cu, ou
            nfree -= took
    if st[k, S_FLAG] != 2:
        st[k, S_BT + b], st[k, S_BTO + b] = c, o
        st[k, S_F] = f
    free[0], free[1] = head, nfree
    free[2] += settled
    if row[want] == 0:
        return np.int64(-1) if stopped else UNREACHABLE
    return np.int64(row[want]) - 1


@jit
def lookup(lz, nbr, gidx, nodes, out):
    """``out[i]``: steps from ``nodes[i]`` to goal ``gidx[i]``; returns the largest."""
    dist = lz.dist
    top = np.int64(0)
    for i in range(nodes.shape[0]):
        k = gidx[i]
        x = dist[k, nodes[i]]
        d = np.int64(x) - 1 if x != 0 else settle(lz, nbr, k, nodes[i])
        out[i] = d
        if d > top:
            top = d
    return top


@jit
def join_pools(cnext, a, b, out):
    """The free lists ``a`` and ``b`` (``free`` arrays of two tables sharing ``cnext``: disjoint chunks) made one,
    ``out`` (``a``'s list, then ``b``'s; counts and nodes settled added up)."""
    head = a[0]
    if head < 0:
        head = b[0]
    else:
        c = head
        while cnext[c] >= 0:
            c = cnext[c]
        cnext[c] = b[0]
    out[0] = head
    out[1] = a[1] + b[1]
    out[2] = a[2] + b[2]
    return 0


@jit
def lookup_wide(lz, nbr, gidx, nodes, out, slack, stacks):
    """``lookup``, each row then searched on until its nodes of ``f`` up to the answer plus ``slack`` are settled.

    A row not started yet whose target is its node (``nodes[i]``'s coordinates; or with no metric) is searched
    by ``_fresh`` in ``stacks`` (scratch: ``wide_stacks``); others as ``settle`` does. The same nodes are
    settled either way: every node of ``f`` up to the answer plus ``slack`` (``f`` never falls along a shortest
    way)."""
    top = np.int64(0)
    st = lz.st
    nxy = lz.nxy
    for i in range(nodes.shape[0]):
        k = gidx[i]
        v = nodes[i]
        if slack >= 0 and st[k, S_FLAG] == 0 and (st[k, S_METRIC] == 0 or (st[k, S_TX] == nxy[v, 0]
                                                                           and st[k, S_TY] == nxy[v, 1])):
            d = _fresh(lz, nbr, k, v, slack, stacks)
        else:
            d = settle(lz, nbr, k, v)
            if d < UNREACHABLE and slack >= 0:
                _search(lz, nbr, k, v, UNREACHABLE, d + slack)
        out[i] = d
        if d > top:
            top = d
    return top


def wide_stacks(nbr):
    """Scratch for ``lookup_wide`` on graph ``nbr``: three stacks, each long enough for every push of a row's
    search (a node is pushed at most once by each neighbour settled)."""
    return np.empty((3, nbr.shape[0] * nbr.shape[1] + 1), dtype=np.int32)


@helper
def _fresh(lz, nbr, k, want, slack, stacks):
    """Goal ``k``'s row, not started, searched from its goal until every node of ``f`` up to the distance of
    ``want`` (its target: ``f`` there is that distance) plus ``slack`` is settled; the nodes still open go onto
    the row's buckets in the chunk pool, so that ``settle`` resumes where this stopped (the pool too short for
    them: the whole row by breadth-first search). Returns ``want``'s distance (``UNREACHABLE``: none).

    The same nodes settled, with the same distances, as ``settle`` then ``_search`` up to that ``f``; the
    buckets are flat stacks here, with no chunk to take or give back a push or a pop."""
    dist, st, cnext, cdata, free, nxy, queue = lz
    row = dist[k]
    m = st[k, S_METRIC]
    tx = st[k, S_TX]
    ty = st[k, S_TY]
    g = st[k, S_GOAL]
    ndir = nbr.shape[1]
    n0 = np.int64(0)
    n1 = np.int64(0)
    n2 = np.int64(0)
    f = _h(nxy, m, tx, ty, g)
    stacks[f % 3, 0] = g
    if f % 3 == 0:
        n0 = np.int64(1)
    elif f % 3 == 1:
        n1 = np.int64(1)
    else:
        n2 = np.int64(1)
    fmax = np.int64(UNREACHABLE)
    settled = np.int64(0)
    while True:
        b = f % 3
        n = n0 if b == 0 else n1 if b == 1 else n2
        if n == 0:
            if n0 + n1 + n2 == 0:
                break
            f += 1
            if f > fmax:
                break
            continue
        cur = stacks[b]
        while n > 0:
            n -= 1
            v = np.uint32(cur[n])  # unsigned indices: no test for negative ones
            if row[v] != 0:
                continue
            hv = _h(nxy, m, tx, ty, v)
            row[v] = f - hv + 1
            settled += 1
            if v == want:
                fmax = f + slack
            for d in range(ndir):
                u = nbr[v, d]
                if u < 0 or row[np.uint32(u)] != 0:
                    continue
                bu = b + 1 + _h(nxy, m, tx, ty, np.uint32(u)) - hv  # f, f + 1 or f + 2: no modulo
                if bu >= 3:
                    bu -= 3
                if bu == b:
                    cur[n] = u
                    n += 1
                else:
                    if bu == 0:
                        stacks[0, n0] = u
                        n0 += 1
                    elif bu == 1:
                        stacks[1, n1] = u
                        n1 += 1
                    else:
                        stacks[2, n2] = u
                        n2 += 1
        if b == 0:
            n0 = n
        elif b == 1:
            n1 = n
        else:
            n2 = n
    free[2] += settled
    if n0 + n1 + n2 == 0:
        st[k, S_FLAG] = 2
    else:
        st[k, S_F] = f
        st[k, S_FLAG] = 1
        # the open nodes onto the chunk pool, bottom first (each bucket's order kept)
        head = free[0]
        nfree = free[1]
        spill = True
        for b in range(3):
            n = n0 if b == 0 else n1 if b == 1 else n2
            if (n + CHUNK - 1) // CHUNK + 3 > nfree:
                spill = False
                break
            c = np.int64(-1)
            o = np.int64(0)
            for j in range(n):
                u = stacks[b, j]
                if row[u] == 0:
                    c, o, head, took = _stack(cnext, cdata, head, c, o, u)
                    nfree -= took
            st[k, S_BT + b], st[k, S_BTO + b] = c, o
        free[0], free[1] = head, nfree
        if not spill:
            _finish(row, st, cnext, free, queue, nbr, k)
    if row[want] == 0:
        return UNREACHABLE
    return np.int64(row[want]) - 1
