"""The open list: a binary heap with decrease-key in preallocated arrays.

``hf``, ``hg``, ``hid`` hold a slot's ``f``, ``g`` and state id; ``pos[v]`` is
the slot of state ``v``. ``_before`` is A*'s order (smaller ``f``, then larger
``g``, then the smaller id).

Used by ``turns.route``, ``jps.jps`` and ``movement.turning``'s facing search
(and by ``astar.astar`` for its first push), whose queries spend their time
elsewhere. ``astar.astar`` and ``astar.astar_plain`` write the sift loops out,
which was measured faster (``docs/design/kernels.md``). The Dijkstra kernels
use a 4-ary heap keyed on the distance alone, which these binary-heap helpers
do not serve.
"""

from __future__ import annotations

from .._jit import helper, jit


@jit(inline="always")
def _before(f1, g1, i1, f2, g2, i2):
    if f1 != f2:
        return f1 < f2
    if g1 != g2:
        return g1 > g2
    return i1 < i2


@helper
def heap_up(i, f, g, v, hf, hg, hid, pos):
    """Put ``(f, g, v)`` at heap slot ``i`` and sift it up."""
    while i > 0:
        par = (i - 1) >> 1
        if _before(f, g, v, hf[par], hg[par], hid[par]):
            hf[i] = hf[par]
            hg[i] = hg[par]
            hid[i] = hid[par]
            pos[hid[i]] = i
            i = par
        else:
            break
    hf[i] = f
    hg[i] = g
    hid[i] = v
    pos[v] = i


@helper
def heap_pop(n, hf, hg, hid, pos):
    """Remove the top of a heap of size ``n`` (the caller read it first); returns the new size."""
    n -= 1
    if n == 0:
        return 0
    f = hf[n]
    g = hg[n]
    v = hid[n]
    i = 0
    while True:
        c = 2 * i + 1
        if c >= n:
            break
        if c + 1 < n and _before(hf[c + 1], hg[c + 1], hid[c + 1], hf[c], hg[c], hid[c]):
            c += 1
        if _before(hf[c], hg[c], hid[c], f, g, v):
            hf[i] = hf[c]
            hg[i] = hg[c]
            hid[i] = hid[c]
            pos[hid[i]] = i
            i = c
        else:
            break
    hf[i] = f
    hg[i] = g
    hid[i] = v
    pos[v] = i
    return n
