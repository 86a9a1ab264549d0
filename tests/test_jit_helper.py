"""``_jit.helper``: building blocks compiled without reference counting, so a loop over them counts none.

The kernels here are compiled on every run (``cache=False``: ``inspect_llvm`` reads the module just compiled);
the search and the inlining comparison take seconds each, so they run with the slow tests, and the fast part
keeps the heap sift (a helper that writes through to its caller's array, with no reference counted).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from wargrid._kernels._jit import helper, jit
from wargrid._kernels.movement.keyheap import _hpop, _hpush, reach, relax_arcs


@jit(cache=False)
def _dijkstra(first, nb, w, dist, stamp, pos, hk, hid):
    """Costs from node 0 over the CSR graph ``(first, nb, w)`` with the key heap's helpers."""
    nh = _hpush(0, 0.0, 0, hk, hid, pos, True)
    dist[0] = 0.0
    stamp[0] = 2
    while nh > 0:
        x = hid[0]
        dx = hk[0]
        nh = _hpop(nh, hk, hid, pos)
        stamp[x] = 3
        nh = relax_arcs(first[x], first[x + 1], nb, w, dx, dist, stamp, pos, hk, hid, nh, 2)
    return nh


@helper
def _sift(a, i):
    """Sift ``a[i]`` up a binary min-heap; returns where it stops."""
    while i > 0:
        p = (i - 1) >> 1
        if not a[i] < a[p]:
            return i
        a[i], a[p] = a[p], a[i]
        i = p
    return i


@jit(cache=False)
def _heapify(a):
    s = 0
    for i in range(a.shape[0]):
        s += _sift(a, i)
    return s


_reach_inlined = jit(inline="always", cache=False)(reach.py_func)
"""``keyheap.reach`` as numba's own inlining would take it."""


@jit(cache=False)
def _relax_inlined(nb, w, dist, stamp, pos, hk, hid):
    """``relax_arcs`` from a node at cost 0 over the arcs ``nb``, ``w``, with the relaxation inlined by numba."""
    nh = 0
    for e in range(nb.shape[0]):
        if w[e] < np.inf:
            nh, _ = _reach_inlined(nb[e], w[e], dist, stamp, pos, hk, hid, nh, 2)
    return nh


@jit(cache=False)
def _relax(nb, w, dist, stamp, pos, hk, hid):
    return relax_arcs(0, nb.shape[0], nb, w, 0.0, dist, stamp, pos, hk, hid, 0, 2)


def _increfs(kernel: Any) -> int:
    """How many reference-count increments the kernel's compiled code calls."""
    (ir,) = kernel.inspect_llvm().values()
    return ir.count("call void @NRT_incref")


def _graph() -> tuple[np.ndarray, ...]:
    # 0 -> 1 (4), 0 -> 2 (1), 2 -> 1 (2), 1 -> 3 (1), 2 -> 3 (7); node 4 unreachable; one arc of weight inf
    first = np.array([0, 2, 3, 5, 5, 6])
    nb = np.array([1, 2, 3, 1, 3, 0], dtype=np.int32)
    w = np.array([4.0, 1.0, 1.0, 2.0, 7.0, np.inf])
    return first, nb, w


@pytest.mark.slow
def test_a_search_built_from_helpers_is_right() -> None:
    first, nb, w = _graph()
    n = 5
    dist = np.full(n, -1.0)
    stamp = np.zeros(n, dtype=np.int64)
    scratch = (np.empty(n, dtype=np.int64), np.empty(n), np.empty(n, dtype=np.int64))
    _dijkstra(first, nb, w, dist, stamp, *scratch)
    assert stamp.tolist() == [3, 3, 3, 3, 0]
    assert dist[:4].tolist() == [0.0, 3.0, 1.0, 4.0]


@pytest.mark.slow
def test_a_loop_over_helpers_counts_no_references() -> None:
    first, nb, w = _graph()
    n = 5
    args = (first, nb, w, np.empty(n), np.zeros(n, dtype=np.int64), np.empty(n, dtype=np.int64), np.empty(n),
            np.empty(n, dtype=np.int64))
    _dijkstra(*args)
    assert _increfs(_dijkstra) == 0


def test_a_helper_writes_through_to_its_callers_array() -> None:
    a = np.array([5, 3, 4, 1])
    assert _heapify(a) == 0 + 0 + 2 + 0
    assert a.tolist() == [1, 3, 4, 5]
    assert _increfs(_heapify) == 0


@pytest.mark.slow
def test_a_helper_and_numbas_inlining_give_the_same_answers() -> None:
    """``helper`` changes how a building block is compiled, never what it computes (what numba's own inlining
    emits is numba's business, not asserted here; ``docs/design/kernels.md`` says why ``helper`` exists)."""
    _, nb, w = _graph()
    got = []
    for kernel in (_relax, _relax_inlined):
        dist = np.full(5, -1.0)
        stamp = np.zeros(5, dtype=np.int64)
        hid = np.empty(5, dtype=np.int64)
        nh = kernel(nb, w, dist, stamp, np.empty(5, dtype=np.int64), np.empty(5), hid)
        got.append((nh, dist.tolist(), sorted(hid[:nh].tolist())))
    assert got[0] == got[1] == (3, [-1.0, 2.0, 1.0, 1.0, -1.0], [1, 2, 3])
    assert _increfs(_relax) == 0
