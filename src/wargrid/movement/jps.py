"""Jump Point Search: the exact fast search for uniform-cost square-8 boards without corner cutting.

``wargrid.movement.dispatch`` picks it automatically (``search='auto'``) when the board is
square-8 with corner rule 'no-obstacle', has no wrap, one cost on every
passable cell and no edge costs, and has enough open ground for jumps to pay
(``OPEN_FRACTION_FOR_JPS``; on a field of scattered single obstacles JPS only
ties with A*). It returns exactly optimal costs (the same as A*; the cells of
the path may differ where several paths tie).

Boards up to ``TABLE_MAX_CELLS`` jump with a precomputed table (JPS+: for every
cell and direction, the distance to the next jump point or wall), kept beside
the search state in work boards pooled per cost array; larger boards scan rows
and columns as 64-bit words.

>>> from wargrid import Map, SquareGrid
>>> m = Map(SquareGrid(5, 5, diagonal=True))
>>> m.set_terrain([(2, 0), (2, 1), (2, 2), (2, 3)], "water")
>>> p = m.path((0, 0), (4, 0), unit="cavalry")
>>> round(p.cost, 4), len(p.cells)
(10.8284, 11)
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from ..costs import CostField
from ..errors import ArgumentError
from ..grids.boards import Grid
from ._array_cache import LOCK as _CACHE_LOCK, ArrayCache, cached as _cached, remember as _remember
from .search import Path, jps_applies, search_state

__all__ = [
    "jps_path", "jps_cells", "uses_table", "table_cells", "WorkBoard", "jps_pays",
    "jump_table", "OPEN_FRACTION_FOR_JPS", "TABLE_MAX_CELLS", "WORK_BOARD_CELLS",
]

class FreeCells(NamedTuple):
    """The padded 'can enter' board as the JPS kernels read it (``free_cells``)."""

    free: NDArray[np.uint8]
    """One byte a padded cell: 1 where it can be entered."""
    rows: NDArray[np.uint64]
    """The same as bits, row by row, ``rw`` 64-bit words a row."""
    rw: int
    cols: NDArray[np.uint64]
    """The same as bits, column by column, ``cw`` words a column."""
    cw: int
    open: float
    """The share of passable cells whose 8 neighbours are all passable."""

_FREE: ArrayCache[FreeCells] = {}
_NO_STOP = np.zeros(0, dtype=np.uint8)


def _bits(free2d: NDArray[np.bool_]) -> tuple[NDArray[np.uint64], int]:
    """Each row of a boolean board as 64-bit words (bit i = column 64 w + i), one spare zero word a row."""
    h, w = free2d.shape
    words = (w + 63) // 64 + 1
    padded = np.zeros((h, words * 64), dtype=bool)
    padded[:, :w] = free2d
    packed = np.packbits(padded, axis=1, bitorder="little")
    return np.ascontiguousarray(packed).view("<u8").astype(np.uint64).ravel(), words


OPEN_FRACTION_FOR_JPS = 0.3
"""``search='auto'`` runs JPS only where at least this share of the passable cells
have all 8 neighbours passable: on more cluttered boards JPS only ties with A*
(the measurement: ``docs/design/kernels.md``)."""


def free_cells(cell: NDArray[np.float64], pw: int) -> FreeCells:
    """The padded 'can enter' board as bytes, row bits and column bits, and the share of passable cells whose
    8 neighbours are all passable (``FreeCells``).

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
    out = FreeCells(f2.astype(np.uint8).ravel(), rows, rw, cols, cw, open_share)
    _remember(_FREE, cell, out, 16)
    return out


def jps_pays(grid: Grid, costs: CostField) -> bool:
    """Whether JPS is expected to beat A* on this board (see ``OPEN_FRACTION_FOR_JPS``)."""
    return free_cells(costs.cell, grid.topology.pw).open >= OPEN_FRACTION_FOR_JPS


TABLE_MAX_CELLS = 1 << 22
"""Boards of at most this many padded cells (2048 x 2048) search with a jump table
(JPS+); larger boards scan rows and columns as bits instead."""

WORK_BOARD_CELLS = 1 << 23
"""Idle work boards (jump table and search state, 32 bytes a cell) are kept for the
most recent cost arrays up to this many padded cells in all (256 MB), and at least
for the last one."""


class WorkBoard:
    """A jump table and search state for one padded cost array (see ``jps_table``), used by one thread at a time.

    Built from the cost array on first use (about 10 ms for 512 x 512) and
    pooled while that array lives, so later queries, also on other threads,
    reuse it.
    """

    def __init__(self, free: np.ndarray, pw: int) -> None:
        from .._kernels.movement.jps_table import table_into

        n = free.shape[0]
        raw = np.zeros(4 * n + 8, dtype=np.int64)
        skip = (-raw.ctypes.data % 64) // 8  # records of 32 bytes, never across a cache line
        self.wb = raw[skip:skip + 4 * n]
        self.wf = self.wb.view(np.float64)
        self.n = n
        self.gen = 0
        table_into(free, self.wb.view(np.int16), pw, n // pw, 16)

    def next_gen(self) -> int:
        self.gen += 1
        if self.gen >= (1 << 30) - 1:
            self.wb[3::4] = 0
            self.gen = 1
        return self.gen

    def g(self, p: int) -> float:
        """The length in steps of padded cell ``p`` found by the last search (where it reached ``p``)."""
        return float(self.wf[4 * p + 2])


_POOL: ArrayCache[list[WorkBoard]] = {}
"""``id(cell) -> (weakref to cell, idle WorkBoards)``, oldest cost array first."""


def _checkout(cell: np.ndarray, pw: int) -> WorkBoard:
    idle = _cached(_POOL, cell)
    if idle:
        try:
            return idle.pop()  # atomic: two threads never get the same board
        except IndexError:
            pass
    return WorkBoard(free_cells(cell, pw).free, pw)


def _checkin(cell: np.ndarray, board: WorkBoard) -> None:
    idle = _cached(_POOL, cell)
    if idle is not None:
        idle.append(board)
        return
    with _CACHE_LOCK:
        total = board.n
        for k in reversed(list(_POOL)):  # keep the newest pools that fit the budget
            entry = _POOL.get(k)
            if entry is None:
                continue
            size = sum(b.n for b in entry[1])
            if total + size <= WORK_BOARD_CELLS:
                total += size
            else:
                _POOL.pop(k, None)
    _remember(_POOL, cell, [board], len(_POOL) + 1)


def uses_table(grid: Grid, costs: CostField) -> bool:
    """Whether ``search='auto'`` runs the table JPS for a plain query (weight 1, no stop cells, not
    nearest) on this board: else A*, or the bit-scan JPS on boards past ``TABLE_MAX_CELLS``.

    >>> from wargrid import Map, SquareGrid
    >>> m = Map(SquareGrid(8, 8, diagonal=True))
    >>> uses_table(m.grid, m.cost_field()), uses_table(Map(SquareGrid(8, 8)).grid, m.cost_field())
    (True, False)
    """
    topo = grid.topology
    return (
        jps_applies(topo, costs, 1.0, False, _NO_STOP)
        and topo.padded_size <= TABLE_MAX_CELLS
        and max(topo.pw, topo.ph) < 32767
        and free_cells(costs.cell, topo.pw).open >= OPEN_FRACTION_FOR_JPS
    )


_KERNEL: Any = None


def table_cells(grid: Grid, costs: CostField, start: int, goal: int) -> tuple[list[tuple[int, int]] | None, float]:
    """The table search between padded ids: the path's ``(x, y)`` cells (``None`` when unreachable), its length in steps."""
    xy, steps = _table_xy(grid, costs, start, goal)
    if not xy.shape[1]:
        return None, np.inf
    return list(zip(*xy.tolist())), steps


def _table_xy(grid: Grid, costs: CostField, start: int, goal: int) -> tuple[NDArray[np.int64], float]:
    """The table search between padded ids: the ``(2, n)`` x and y of the path's cells (n = 0 when
    unreachable), its length in steps."""
    global _KERNEL
    if _KERNEL is None:
        from .._kernels.movement.jps_table import jps_table

        _KERNEL = jps_table
    pw = grid.topology.pw
    cell = costs.cell
    board = _checkout(cell, pw)
    try:
        gen = board.gen + 1
        if gen >= (1 << 30) - 1:
            gen = board.next_gen()
        board.gen = gen
        xy = _KERNEL(board.wb, start, goal, pw, gen)
        steps = float(board.wf[4 * goal + 2])
    finally:
        idle = _cached(_POOL, cell)
        if idle is not None:
            idle.append(board)
        else:
            _checkin(cell, board)
    return xy, steps


def jump_table(cell: np.ndarray, pw: int) -> np.ndarray:
    """The JPS+ table of the padded cost array ``cell``: ``table[p * 8 + d]``, directions E, W, S, N,
    SE, SW, NE, NW; k > 0 when the next jump point is k steps away, -k when k free steps end at a wall.

    >>> from wargrid import SquareGrid
    >>> g = SquareGrid(3, 1, diagonal=True)
    >>> jump_table(g.topology.pad(np.ones((1, 3)), np.inf), g.topology.pw)[6 * 8:6 * 8 + 4].tolist()
    [-2, 0, 0, 0]
    """
    from .._kernels.movement.jps_table import table_into

    out = np.zeros(cell.shape[0] * 8, dtype=np.int16)
    table_into(free_cells(cell, pw).free, out, pw, cell.shape[0] // pw, 8)
    return out


def _use_table(grid: Grid, table: bool | None) -> bool:
    """``jps_cells``'s choice of the table search (``table`` as there)."""
    topo = grid.topology
    fits = max(topo.pw, topo.ph) < 32767
    if table is None:
        return topo.padded_size <= TABLE_MAX_CELLS and fits
    if table and not fits:
        raise ArgumentError(f"table=True needs a board under 32765 cells a side, got {grid.width} x {grid.height}")
    return table


def jps_cells(grid: Grid, costs: CostField, start: int, goal: int, *,
              table: bool | None = None) -> tuple[list[tuple[int, int]] | None, float]:
    """The path's ``(x, y)`` cells from padded ``start`` to ``goal`` (``None`` when unreachable), its length in steps.

    ``table``: jump with the JPS+ table (``True``), scan bits (``False``), or choose by the board's size (``None``:
    a table up to ``TABLE_MAX_CELLS``). Both give a shortest path.
    """
    if _use_table(grid, table):
        return table_cells(grid, costs, start, goal)
    from .._kernels.movement.jps import expand, jps
    from .._kernels.movement.astar import trace

    topo = grid.topology
    pw = topo.pw
    state = search_state(topo.padded_size)
    gen = state.next_gen()
    free, rows, rw, cols, cw, _ = free_cells(costs.cell, pw)
    reached = jps(free, (rows, rw, cols, cw), start, goal, pw, state.arrays, gen)
    if reached < 0:
        return None, np.inf
    return topo.cells_of(expand(trace(state.parent, reached), pw)), float(state.g[reached])


def jps_path(grid: Grid, costs: CostField, start: int, goal: int, *, table: bool | None = None) -> Path | None:
    """Jump Point Search between padded ids ``start`` and ``goal`` (see the module notes; ``table`` as in
    ``jps_cells``)."""
    if _use_table(grid, table):
        xy, steps = _table_xy(grid, costs, start, goal)
        if not xy.shape[1]:
            return None
        return Path.of_xy(xy.T, steps * float(costs.min_cost), costs.unit, grid)
    cells, steps = jps_cells(grid, costs, start, goal, table=False)
    if cells is None:
        return None
    return Path(cells, steps * float(costs.min_cost), costs.unit, grid)
