"""Jump Point Search: the exact fast search for uniform-cost square-8 boards without corner cutting.

``search.astar`` picks it automatically (``search='auto'``) when the board is
square-8 with corner rule 'no-obstacle', has no wrap, one cost on every
passable cell and no edge costs, and has enough open ground for jumps to pay
(``OPEN_FRACTION_FOR_JPS``; on a field of scattered single obstacles A* wins). It returns exactly optimal costs (the same
as A*; the cells of the path may differ where several paths tie).

Boards up to ``TABLE_MAX_CELLS`` jump with a precomputed table (JPS+: for every
cell and direction, the distance to the next jump point or wall), built once
per cost array; larger boards scan rows and columns as 64-bit words.

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

__all__ = ["jps_path", "jps_pays", "OPEN_FRACTION_FOR_JPS"]

_FREE: dict[int, tuple[weakref.ref, tuple]] = {}


def _cached(cache: dict, cell: np.ndarray) -> Any:
    """What ``_remember`` stored for the array ``cell`` while it lives, or ``None``."""
    got = cache.get(id(cell))
    if got is not None and got[0]() is cell:
        return got[1]
    return None


def _remember(cache: dict, cell: np.ndarray, value: Any, limit: int) -> None:
    """Keep ``value`` for ``cell`` (by identity, dropped when the array dies), at most about ``limit`` entries."""
    if len(cache) > limit:
        for k in [k for k, (r, _) in cache.items() if r() is None]:
            del cache[k]
        if len(cache) > limit:
            cache.clear()
    cache[id(cell)] = (weakref.ref(cell), value)


def _bits(free2d: np.ndarray) -> tuple[np.ndarray, int]:
    """Each row of a boolean board as 64-bit words (bit i = column 64 w + i), one spare zero word a row."""
    h, w = free2d.shape
    words = (w + 63) // 64 + 1
    padded = np.zeros((h, words * 64), dtype=bool)
    padded[:, :w] = free2d
    packed = np.packbits(padded, axis=1, bitorder="little")
    return np.ascontiguousarray(packed).view("<u8").astype(np.uint64).ravel(), words


OPEN_FRACTION_FOR_JPS = 0.3
"""``search='auto'`` runs JPS only where at least this share of the passable cells
have all 8 neighbours passable. Measured on the Moving AI maps: rooms, game maps
and mazes score 0.5-0.9 and JPS is 3-80x faster than A* there; the map of 20 %
random obstacles scores 0.17 and A* is about 1.5x faster than JPS."""


def free_cells(cell: np.ndarray, pw: int) -> tuple[np.ndarray, np.ndarray, int, np.ndarray, int, float]:
    """``(free, rows, rw, cols, cw, open)``: the padded 'can enter' board as bytes, row bits and
    column bits, and the share of passable cells whose 8 neighbours are all passable.

    Cached while the padded cost array ``cell`` lives.
    """
    got = _cached(_FREE, cell)
    if got is not None:
        return got
    f2 = np.isfinite(cell).reshape(-1, pw)
    rows, rw = _bits(f2)
    cols, cw = _bits(np.ascontiguousarray(f2.T))
    inner = f2[1:-1, 1:-1]
    ring = inner.copy()
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            ring &= f2[1 + dy:f2.shape[0] - 1 + dy, 1 + dx:f2.shape[1] - 1 + dx]
    n_free = int(inner.sum())
    open_share = float(ring.sum()) / n_free if n_free else 0.0
    out = (f2.astype(np.uint8).ravel(), rows, rw, cols, cw, open_share)
    _remember(_FREE, cell, out, 16)
    return out


def jps_pays(grid: Grid, costs: Any) -> bool:
    """Whether JPS is expected to beat A* on this board (see ``OPEN_FRACTION_FOR_JPS``)."""
    return free_cells(costs.cell, grid.topology.pw)[5] >= OPEN_FRACTION_FOR_JPS


TABLE_MAX_CELLS = 1 << 22
"""Boards of at most this many padded cells (2048 x 2048) search with a jump table
(JPS+: 16 bytes a cell, built once per cost array and cached with it); larger
boards scan rows and columns as bits instead."""

_TABLES: dict[int, tuple[weakref.ref, np.ndarray]] = {}


def jump_table(cell: np.ndarray, pw: int) -> np.ndarray | None:
    """The JPS+ table of the padded cost array ``cell`` (cached while ``cell`` lives), or ``None`` when too large."""
    ph = cell.shape[0] // pw
    if cell.shape[0] > TABLE_MAX_CELLS or max(pw, ph) >= 32767:
        return None
    got = _cached(_TABLES, cell)
    if got is not None:
        return got
    from .._kernels.jps import jump_table as _table

    free = free_cells(cell, pw)[0]
    out = _table(free, pw, ph)
    _remember(_TABLES, cell, out, 8)
    return out


def jps_ids(grid: Grid, costs: Any, start: int, goal: int) -> tuple[np.ndarray, float]:
    """Padded ids of the path from ``start`` to ``goal`` (padded ids; empty when unreachable) and its length in steps."""
    topo = grid.topology
    pw = topo.pw
    cell = costs.cell
    state = search_state(topo.padded_size)
    gen = state.next_gen()
    table = jump_table(cell, pw)
    free = free_cells(cell, pw)
    if table is not None:
        from .._kernels.jps import jps_table

        ids = jps_table(free[0], table, start, goal, pw, state.g, state.parent, state.stamp, state.pos,
                        state.hf, state.hg, state.hid, gen)
        return ids, float(state.g[goal]) if ids.shape[0] else np.inf
    from .._kernels.jps import expand, jps
    from .._kernels.search import trace

    f, rows, rw, cols, cw, _ = free
    reached = jps(f, rows, rw, cols, cw, start, goal, pw, state.g, state.parent, state.stamp, state.pos,
                  state.hf, state.hg, state.hid, gen)
    if reached < 0:
        return np.empty(0, dtype=np.int64), np.inf
    return expand(trace(state.parent, reached), pw), float(state.g[reached])


def jps_path(grid: Grid, costs: Any, start: int, goal: int) -> Path | None:
    """Jump Point Search between padded ids ``start`` and ``goal`` (see the module notes)."""
    ids, steps = jps_ids(grid, costs, start, goal)
    if not ids.shape[0]:
        return None
    return Path(cells_of(grid.topology, ids), steps * float(costs.min_cost), getattr(costs, "unit", None))
