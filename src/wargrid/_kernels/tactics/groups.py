"""Assignment of units to goals: the Hungarian method on a square cost matrix.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit

INF = np.inf


@jit
def hungarian(a):
    """Column for each row of the square float matrix ``a`` minimising the total (potentials, O(n^3))."""
    n = a.shape[0]
    u = np.zeros(n + 1)
    v = np.zeros(n + 1)
    p = np.zeros(n + 1, dtype=np.int64)
    way = np.zeros(n + 1, dtype=np.int64)
    minv = np.empty(n + 1)
    used = np.empty(n + 1, dtype=np.uint8)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv[:] = INF
        used[:] = 0
        while True:
            used[j0] = 1
            i0 = p[j0]
            delta = INF
            j1 = 0
            for j in range(1, n + 1):
                if not used[j]:
                    cur = a[i0 - 1, j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(n + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    out = np.zeros(n, dtype=np.int64)
    for j in range(1, n + 1):
        out[p[j] - 1] = j - 1
    return out
