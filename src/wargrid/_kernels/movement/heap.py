"""The open lists of every search kernel: heaps with decrease-key in preallocated arrays.

A* heap (binary): ``hf``, ``hg``, ``hid`` hold a slot's ``f``, ``g`` and
state id; ``pos[v]`` is the slot of state ``v``. ``before`` is A*'s order
(smaller ``f``, then larger ``g``, then the smaller id). ``heap_up`` and
``heap_pop`` serve every A* (``astar``, ``astar_plain``, ``jps``,
``jps_table``, ``turns.route``, ``explain``, the facing and any-angle
searches).

Keyed heap (``2 ** shift`` children a slot: 1 binary, 2 four-ary): ``hk[i]``
and ``hid[i]`` the key and id of slot ``i``, ``pos[v]`` the slot of ``v``;
equal keys leave in heap order. With ``hid`` ``None`` the id is the key's low
bits, ``key & mask`` (an integer key: ``astar_keyed`` packs A*'s order and
the id into one int64). ``key_up`` serves ``astar_keyed``, the Dijkstra
kernels and ``keyheap`` (the hierarchy's searches), ``key_pop``
``astar_keyed`` and ``keyheap``.

All are ``_jit.helper``s (no reference counting; LLVM inlines them where
they are small enough for the caller): measured at the speed of the loops
written out in each kernel, except ``key_pop`` in the Dijkstra kernels
(``docs/design/kernels.md``). Without ``pos`` (``None``) no slot is recorded
(a heap without decrease-key, as ``jps_table``'s). Slots are indexed as
``np.uintp`` (no negative-index test); sizes and slots are passed as signed
integers.
"""

from __future__ import annotations

import numpy as np

from .._jit import helper, jit

_U = np.uintp


@jit(inline="always")
def before(f1, g1, i1, f2, g2, i2):
    """A*'s order: whether ``(f1, g1, i1)`` comes before ``(f2, g2, i2)`` (smaller ``f``, larger ``g``, smaller id)."""
    if f1 != f2:
        return f1 < f2
    if g1 != g2:
        return g1 > g2
    return i1 < i2



@helper
def _place(j, f, g, v, hf, hg, hid, pos):
    """Slot ``j`` (``np.uintp``) of an A* heap takes ``(f, g, v)``."""
    hf[j] = f
    hg[j] = g
    hid[j] = v
    if pos is not None:
        pos[_U(v)] = j


@helper
def heap_up(i, f, g, v, hf, hg, hid, pos):
    """Put ``(f, g, v)`` at heap slot ``i`` and sift it up."""
    one = _U(1)
    j = _U(i)
    while j > 0:
        pa = (j - one) >> one
        if before(f, g, v, hf[pa], hg[pa], hid[pa]):
            _place(j, hf[pa], hg[pa], hid[pa], hf, hg, hid, pos)
            j = pa
        else:
            break
    _place(j, f, g, v, hf, hg, hid, pos)


@helper
def heap_pop(n, hf, hg, hid, pos):
    """Remove the top of a heap of size ``n`` (the caller read it first); returns the new size."""
    n -= 1
    if n == 0:
        return n
    one = _U(1)
    m = _U(n)
    f = hf[m]
    g = hg[m]
    v = hid[m]
    j = _U(0)
    while True:
        c = (j << one) + one
        if c >= m:
            break
        c1 = c + one
        if c1 < m and before(hf[c1], hg[c1], hid[c1], hf[c], hg[c], hid[c]):
            c = c1
        if before(hf[c], hg[c], hid[c], f, g, v):
            _place(j, hf[c], hg[c], hid[c], hf, hg, hid, pos)
            j = c
        else:
            break
    _place(j, f, g, v, hf, hg, hid, pos)
    return n


@helper
def open_start(start, f, state, gen):
    """Open a search from ``start`` at ``f`` in ``state`` (``bundles.SearchArrays``): ``g`` 0, no
    parent, stamped open (``2 gen``), alone in the open list; returns the open list's size, 1."""
    g, parent, stamp, pos, hf, hg, hid = state
    g[start] = 0.0
    parent[start] = -1
    stamp[start] = 2 * gen
    heap_up(np.int64(0), f, 0.0, start, hf, hg, hid, pos)
    return np.int64(1)  # (a literal 1 typed the callers' heap counters, and heap_pop, for it once more)


@helper
def close_top(n, state, gen):
    """Take the top of a search's open list of size ``n`` and stamp it closed (``2 gen + 1``):
    returns ``(its id, its g, the new size)``."""
    _, _, stamp, pos, hf, hg, hid = state
    u = hid[0]
    gu = hg[0]
    n = heap_pop(n, hf, hg, hid, pos)
    stamp[u] = 2 * gen + 1
    return u, gu, n


@helper
def reach_open(q, s, nd, u, op, n, g, parent, stamp, pos):
    """A* reaching ``q`` (stamped ``s``, not closed) at cost ``nd`` from ``u``: unless ``q`` is open
    (``s == op``) as cheaply, record ``nd`` and ``u`` and return ``(q's heap slot, the heap's size)``
    (a new slot at the end for a cell not yet open); else ``(-1, n)``."""
    if s == op:
        if nd >= g[q]:
            return -1, n
        i = np.int64(pos[q])
    else:
        stamp[q] = op
        i = np.int64(n)
        n += 1
    g[q] = nd
    parent[q] = u
    return i, n


@helper
def _put(j, key, v, hk, hid, pos, mask):
    """Slot ``j`` (``np.uintp``) of a keyed heap takes ``key`` with id ``v`` (without ``hid``: ``key & mask``)."""
    hk[j] = key
    if hid is None:
        pos[_U(np.int64(key) & mask)] = j
    else:
        hid[j] = v
        pos[_U(v)] = j


@helper
def key_up(i, key, v, hk, hid, pos, shift, mask):
    """Put ``key`` (id ``v``; with ``hid`` ``None`` the id is ``key & mask``) at slot ``i`` and sift it up."""
    one = _U(1)
    sh = _U(shift)
    j = _U(i)
    while j > 0:
        pa = (j - one) >> sh
        kp = hk[pa]
        if key < kp:
            _put(j, kp, 0 if hid is None else hid[pa], hk, hid, pos, mask)
            j = pa
        else:
            break
    _put(j, key, v, hk, hid, pos, mask)


@helper
def key_pop(n, hk, hid, pos, shift, mask):
    """Remove the top of a keyed heap of size ``n`` (the caller read it first); returns the new size."""
    n -= 1
    if n == 0:
        return n
    one = _U(1)
    sh = _U(shift)
    arity = one << sh
    last = _U(n)
    key = hk[last]
    v = 0 if hid is None else hid[last]
    j = _U(0)
    while True:
        c = (j << sh) + one
        if c >= last:
            break
        m = c
        mk = hk[c]
        e = min(c + arity, last)
        cc = c + one
        while cc < e:
            kc = hk[cc]
            if kc < mk:
                mk = kc
                m = cc
            cc += one
        if mk < key:
            _put(j, mk, 0 if hid is None else hid[m], hk, hid, pos, mask)
            j = m
        else:
            break
    _put(j, key, v, hk, hid, pos, mask)
    return n
