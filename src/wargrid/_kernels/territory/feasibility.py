"""Feasibility bounds: the largest clique of the land graph and colourings forced by triangles.
"""

from __future__ import annotations

import numpy as np

from .._jit import helper, jit


@jit
def max_clique(nbr, limit):
    """Size of the largest clique of touching cells, looked for up to ``limit`` (<= 4)."""
    n, ndir = nbr.shape
    best = 1 if n > 0 else 0
    for i in range(n):
        for d in range(ndir):
            j = nbr[i, d]
            if j < 0:
                continue
            best = max(best, 2)
            for e in range(ndir):
                k = nbr[i, e]
                if k < 0 or k == j:
                    continue
                jk = False
                for f in range(ndir):
                    if nbr[j, f] == k:
                        jk = True
                        break
                if not jk:
                    continue
                best = max(best, 3)
                if limit < 4:
                    continue
                for g in range(ndir):
                    m = nbr[i, g]
                    if m < 0 or m == j or m == k:
                        continue
                    c1 = False
                    c2 = False
                    for f in range(ndir):
                        if nbr[j, f] == m:
                            c1 = True
                        if nbr[k, f] == m:
                            c2 = True
                    if c1 and c2:
                        return 4
    return best


@helper
def _triangle_third(nbr, v, a, b):
    """Whether ``a`` and ``b`` (both neighbours of ``v``) touch each other."""
    ndir = nbr.shape[1]
    for f in range(ndir):
        if nbr[a, f] == b:
            return True
    return False


@jit
def forced_colouring(nbr):
    """The proper three-colouring forced by triangles of touching cells.

    Colours spread from one triangle to the next (two coloured corners fix the
    third). Returns ``(colour (n,), pieces, conflict)``: ``colour -1`` for cells
    no triangle reaches, ``pieces`` the number of separately forced parts, and
    ``conflict`` when a triangle would need a repeated colour (then no proper
    three-colouring exists).
    """
    n, ndir = nbr.shape
    col = np.full(n, -1, np.int64)
    queue = np.empty(n, np.int64)
    pieces = 0
    conflict = False
    for s in range(n):
        if col[s] >= 0:
            continue
        ta = -1
        tb = -1
        for d in range(ndir):
            a = nbr[s, d]
            if a < 0 or ta >= 0:
                continue
            for e in range(ndir):
                b = nbr[s, e]
                if b >= 0 and b != a and _triangle_third(nbr, s, a, b):
                    ta = a
                    tb = b
                    break
        if ta < 0 or col[ta] >= 0 or col[tb] >= 0:
            continue
        pieces += 1
        col[s] = 0
        col[ta] = 1
        col[tb] = 2
        queue[0] = s
        queue[1] = ta
        queue[2] = tb
        head = 0
        tail = 3
        while head < tail:
            v = queue[head]
            head += 1
            for d in range(ndir):
                a = nbr[v, d]
                if a < 0:
                    continue
                for e in range(ndir):
                    b = nbr[v, e]
                    if b < 0 or b == a or not _triangle_third(nbr, v, a, b):
                        continue
                    if col[a] >= 0 and col[b] < 0:
                        col[b] = 3 - col[v] - col[a]
                        if col[b] < 0 or col[b] > 2 or col[b] == col[v]:
                            conflict = True
                            col[b] = 0
                        queue[tail] = b
                        tail += 1
                    elif col[a] >= 0 and col[b] >= 0:
                        if col[a] == col[b] or col[a] == col[v] or col[b] == col[v]:
                            conflict = True
    return col, pieces, conflict
