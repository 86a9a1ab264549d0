"""A binary heap keyed on one float with decrease-key, in preallocated arrays (the hierarchy's searches):
``heap.key_up`` with two children a slot, and its own pop.

``hk[i]``, ``hid[i]``: the key and node of slot ``i``; ``pos[v]``: the slot of
node ``v``. ``reach`` is the plain Dijkstra step to one node, ``relax_arcs`` over a run of arcs,
with the searches' generation stamps (``gen``: reached, ``gen + 1``:
settled). ``_grow`` lengthens a scratch array.
"""

from __future__ import annotations

import numpy as np

from .._jit import helper, jit
from .heap import key_up

INF = np.inf


@helper
def _hpush(v, key, n, hk, hid, pos, fresh):
    """Insert ``v`` (``fresh``) or lower its key; returns the heap size."""
    if fresh:
        key_up(n, key, v, hk, hid, pos, 1, 0)
        return n + 1
    key_up(pos[v], key, v, hk, hid, pos, 1, 0)
    return n


@helper
def _hpop(n, hk, hid, pos):
    """Remove the top (read it first); returns the new size.

    Written out, not ``heap.key_pop``: LLVM does not inline ``key_pop`` here,
    and the call left in a caller's loop brings reference counting back into
    it (``tests/test_jit_helper.py``; the Dijkstra kernels keep their pop
    written out for the same reason, ``docs/design/kernels.md``).
    """
    n -= 1
    if n == 0:
        return 0
    key = hk[n]
    v = hid[n]
    i = 0
    while True:
        c = 2 * i + 1
        if c >= n:
            break
        if c + 1 < n and hk[c + 1] < hk[c]:
            c += 1
        if hk[c] < key:
            hk[i] = hk[c]
            hid[i] = hid[c]
            pos[hid[i]] = i
            i = c
        else:
            break
    hk[i] = key
    hid[i] = v
    pos[v] = i
    return n


@jit
def _grow(a, n, fill):
    """``a`` copied into a new array of length ``n`` (the rest ``fill``)."""
    b = np.full(n, fill, dtype=a.dtype)
    b[: a.shape[0]] = a
    return b


@helper
def reach(y, nd, dist, stamp, pos, hk, hid, nh, gen):
    """Reach ``y`` at ``nd`` unless it is settled (``gen + 1``) or reached (``gen``) as cheaply; returns
    ``(heap size, whether it was reached)``."""
    sy = stamp[y]
    if sy == gen + 1:
        return nh, False
    if sy != gen:
        dist[y] = nd
        stamp[y] = gen
        return _hpush(y, nd, nh, hk, hid, pos, True), True
    if nd < dist[y]:
        dist[y] = nd
        return _hpush(y, nd, nh, hk, hid, pos, False), True
    return nh, False


@helper
def relax_arcs(lo, hi, nbr, w, dx, dist, stamp, pos, hk, hid, nh, gen, x=-1, par=None):
    """Reach, at ``dx`` plus their weight, the heads ``nbr[e]`` of the arcs ``lo <= e < hi`` (weights ``w``; ``inf``:
    no arc) not settled nor reached as cheaply; returns the heap size. With ``par``, ``par[y] = x`` for each
    head reached (the tail ``x``); without it that code is left out when compiled."""
    for e in range(lo, hi):
        we = w[e]
        if not we < INF:
            continue
        y = nbr[e]
        nh, ok = reach(y, dx + we, dist, stamp, pos, hk, hid, nh, gen)
        if ok and par is not None:
            par[y] = x
    return nh
