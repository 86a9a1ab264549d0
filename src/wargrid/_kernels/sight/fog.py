"""Fog of war: per-team sight counts updated from many views at once.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from .fov import hex_fov, square_fov


# -- fog of war -----------------------------------------------------------------------

@jit
def fog_apply(counts, last_seen, old, new, time):
    """Subtract view ``old`` from and add view ``new`` to one team's per-cell ``counts``.

    Cells whose count drops to zero are stamped ``last_seen = time``. Only the
    cells of the two views are touched.
    """
    for i in range(old.shape[0]):
        counts[old[i]] -= 1
    for i in range(new.shape[0]):
        counts[new[i]] += 1
    for i in range(old.shape[0]):
        if counts[old[i]] == 0:
            last_seen[old[i]] = time


@jit
def fog_views(sb, code, xs, ys, radii, hs, starts, out):
    """The views of many units at once on board ``sb`` (see ``fov.square_fov``): unit ``i``'s ids go to
    ``out[starts[i]:]``; returns their counts."""
    n = xs.shape[0]
    lens = np.zeros(n, dtype=np.int64)
    for i in range(n):
        seg = out[starts[i]:starts[i + 1]]
        if code == 4:
            lens[i] = hex_fov(sb, xs[i], ys[i], hs[i], radii[i], seg)
        else:
            lens[i] = square_fov(sb, xs[i], ys[i], hs[i], code, radii[i], seg)
    return lens


@jit
def fog_apply_many(counts, last_seen, teams, old, old_starts, new, new_starts, new_lens, time):
    """``fog_apply`` for many units in order: unit ``i`` of team ``teams[i]`` trades its old view
    ``old[old_starts[i]:old_starts[i + 1]]`` for ``new[new_starts[i]:new_starts[i] + new_lens[i]]``."""
    for i in range(teams.shape[0]):
        a = new_starts[i]
        fog_apply(counts[teams[i]], last_seen[teams[i]], old[old_starts[i]:old_starts[i + 1]],
                  new[a:a + new_lens[i]], time)


# -- shroud fix-up ----------------------------------------------------------------------

@jit
def _fixup_due(known, nb, i, square):
    """Whether unknown cell ``i`` is mapped by the fix-up (see ``shroud_fixup``)."""
    k = nb.shape[1]
    if square:
        # bit order E, NE, N, NW, W, SW, S, SE: orthogonal 0, 2, 4, 6, diagonal 1, 3, 5, 7
        ortho = 0
        for d in range(0, 8, 2):
            j = nb[i, d]
            if j >= 0 and known[j]:
                ortho |= 1 << d
        if (ortho & 0x11) == 0x11 or (ortho & 0x44) == 0x44:
            return True
        if ortho != 0:
            return False
        diag = 0
        for d in range(1, 8, 2):
            j = nb[i, d]
            if j >= 0 and known[j]:
                diag += 1
        return diag >= 2
    for d in range(k // 2):
        a = nb[i, d]
        b = nb[i, d + k // 2]
        if a >= 0 and b >= 0 and known[a] and known[b]:
            return True
    return False


@jit
def shroud_fixup(known, on, nb, square):
    """Explore, in rounds, every unknown on-board cell the classic fix-up maps; returns the explored ids.

    ``known`` (flat booleans) is updated in place; ``on`` marks on-board
    cells; ``nb`` is the ``(size, 8 or 6)`` neighbour table in the
    shroud-edge bit order (``-1``: none). Each round tests its candidates
    against the layer as the round found it and explores the due ones
    together; the next round's candidates are the unknown neighbours of
    those, until a round explores nothing.
    """
    n = known.shape[0]
    cand = np.empty(n, dtype=np.int64)
    due = np.empty(n, dtype=np.int64)
    queued = np.zeros(n, dtype=np.bool_)
    out = np.empty(n, dtype=np.int64)
    m = 0
    for i in range(n):
        if on[i] and not known[i]:
            cand[m] = i
            m += 1
    count = 0
    while m > 0:
        nd = 0
        for c in range(m):
            if _fixup_due(known, nb, cand[c], square):
                due[nd] = cand[c]
                nd += 1
        for c in range(nd):
            known[due[c]] = True
            out[count] = due[c]
            count += 1
        m = 0
        for c in range(nd):
            i = due[c]
            for d in range(nb.shape[1]):
                j = nb[i, d]
                if j >= 0 and on[j] and not known[j] and not queued[j]:
                    queued[j] = True
                    cand[m] = j
                    m += 1
        for c in range(m):
            queued[cand[c]] = False
    return out[:count]
