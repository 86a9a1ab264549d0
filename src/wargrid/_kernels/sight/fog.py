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
