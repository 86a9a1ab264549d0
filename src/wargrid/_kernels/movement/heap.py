"""The open list: a binary heap with decrease-key in preallocated arrays.

``hf``, ``hg``, ``hid`` hold a slot's ``f``, ``g`` and state id; ``pos[v]`` is
the slot of state ``v``. ``_before`` is A*'s order (smaller ``f``, then larger
``g``, then the smaller id).

Used by ``turns.route``, ``jps.jps`` and ``tactics.turning.facing_search``
(and by ``astar.astar`` for its first push), whose queries spend their time
elsewhere. ``astar.astar`` and ``astar.astar_plain`` write the sift loops out:
replacing both loops by ``heap_pop``/``heap_up`` (same paths, same expanded
cells) measured, per query on the 30 longest Moving AI scenarios of each map
(best of 5, same run), ``astar_plain`` 1.15x (arena), 1.80x (AR0602SR),
1.27x (random512-20-0), 1.30x (maze512-4-0) slower and ``astar`` 1.16x,
1.17x, 1.24x, 1.26x slower. That was measured when the helpers were inlined
by numba (``inline="always"``), which counts references to their five arrays
at every call; they are ``helper``s now (no reference counting). The
written-out loops stay (they also index with ``np.uintp``, skipping the
negative-index tests); the two have not been measured again. The Dijkstra kernels use
a 4-ary heap keyed on the distance alone, which these binary-heap helpers do
not serve.
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
