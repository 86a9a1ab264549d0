"""Start positions: the weight within a radius of every cell.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit


@jit
def ball_sums(nbr, value, radius):
    """For each node the summed ``value`` of nodes within ``radius`` steps."""
    n, ndir = nbr.shape
    out = np.zeros(n)
    stamp = np.full(n, -1, np.int64)
    dist = np.zeros(n, np.int64)
    queue = np.empty(n, np.int64)
    for s in range(n):
        stamp[s] = s
        dist[s] = 0
        queue[0] = s
        head = 0
        tail = 1
        tot = 0.0
        while head < tail:
            v = queue[head]
            head += 1
            tot += value[v]
            if dist[v] >= radius:
                continue
            for d in range(ndir):
                j = nbr[v, d]
                if j >= 0 and stamp[j] != s:
                    stamp[j] = s
                    dist[j] = dist[v] + 1
                    queue[tail] = j
                    tail += 1
        out[s] = tot
    return out
