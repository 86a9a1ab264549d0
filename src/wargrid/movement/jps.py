"""Jump Point Search: the exact fast search for uniform-cost square-8 boards without corner cutting.

``search.astar`` picks it automatically (``search='auto'``) when the board is
square-8 with corner rule 'no-obstacle', has no wrap, one cost on every
passable cell and no edge costs. It returns exactly optimal costs (the same
as A*; the cells of the path may differ where several paths tie).

>>> from wargrid import Map, SquareGrid
>>> m = Map(SquareGrid(5, 5, diagonal=True))
>>> m.set_terrain([(2, 0), (2, 1), (2, 2), (2, 3)], "water")
>>> p = m.path((0, 0), (4, 0), unit="cavalry")
>>> round(p.cost, 4), len(p.cells)
(10.8284, 11)
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from ..grids.boards import Grid
from .search import Path, cells_of, search_state

__all__ = ["jps_path"]

_FREE: dict[int, tuple[weakref.ref, np.ndarray]] = {}


def free_cells(cell: np.ndarray) -> np.ndarray:
    """The padded uint8 'can enter' array of a padded cost array (cached while ``cell`` lives)."""
    key = id(cell)
    got = _FREE.get(key)
    if got is not None and got[0]() is cell:
        return got[1]
    free = np.isfinite(cell).astype(np.uint8)
    if len(_FREE) > 16:
        for k in [k for k, (r, _) in _FREE.items() if r() is None]:
            del _FREE[k]
        if len(_FREE) > 16:
            _FREE.clear()
    try:
        _FREE[key] = (weakref.ref(cell), free)
    except TypeError:  # pragma: no cover - every ndarray takes weak references
        pass
    return free


def jps_path(grid: Grid, costs: Any, start: int, goal: int) -> Path | None:
    """Jump Point Search between padded ids ``start`` and ``goal`` (see the module notes)."""
    from .._kernels.jps import expand, jps

    topo = grid.topology
    free = free_cells(costs.cell)
    state = search_state(topo.padded_size)
    gen = state.next_gen()
    reached = jps(free, start, goal, topo.pw, state.g, state.parent, state.stamp, state.pos,
                  state.hf, state.hg, state.hid, gen)
    if reached < 0:
        return None
    from .._kernels.search import trace

    ids = expand(trace(state.parent, reached), topo.pw)
    return Path(cells_of(topo, ids), float(state.g[reached]) * float(costs.min_cost), getattr(costs, "unit", None))
