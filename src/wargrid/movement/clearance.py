"""Units bigger than one cell: footprints, clearance (true-distance) maps and their cost fields.

A unit of ``size`` k stands on a *footprint* named by one *anchor* cell:

- square boards (4 and 8 directions): the ``k x k`` block whose top-left
  cell is the anchor, ``{(x + i, y + j) : 0 <= i, j < k}`` (as annotated
  A* does);
- hex and staggered boards, in every offset layout: the hex ball of radius
  ``k - 1`` centred on the anchor (1, 7, 19, ... cells: every cell within
  ``k - 1`` steps), the standard "range" of the hex guides.

On a board wrapped in x the footprint wraps too; a footprint that leaves the
board or covers a masked-out or impassable cell does not fit.

The **clearance** of a cell for a movement class is the largest ``k`` whose
footprint at that cell fits (0 on impassable cells): on square boards the
true-distance clearance of annotated A* (Harabor & Botea), on hex boards the
number of steps to the nearest impassable or off-board cell. A unit of size
``k`` may stand where the clearance is at least ``k``.

**Cost of a step.** A big unit moves its anchor like a one-cell unit; the
step into anchor ``q`` in direction ``d`` costs the step length times the
dearest entry cost among the cells of its footprint at ``q`` (the unit is as
slow as its slowest part), plus the dearest edge cost (river, wall, climb)
that any cell of the footprint crosses in direction ``d``. A diagonal step
on a square board follows the board's corner rule applied to the two
orthogonal anchors (with 'no-obstacle', both footprints must fit, so the
swept area is free). ``footprint_costs`` builds that field once per movement
class and size; every search then runs on it unchanged (A*, JPS on uniform
boards, Dijkstra ranges), so a big unit's path is optimal under this rule.

>>> import numpy as np
>>> from wargrid import SquareGrid
>>> from wargrid.costs import CostField
>>> costs = np.ones((4, 5)); costs[1, 2] = np.inf
>>> clearance_map(SquareGrid(5, 4), CostField.from_arrays(SquareGrid(5, 4), costs)).tolist()
[[2, 1, 1, 2, 1], [2, 1, 0, 2, 1], [2, 2, 2, 2, 1], [1, 1, 1, 1, 1]]
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..errors import ArgumentError
from .._validate import check_int
from .._kernels import load
from ..costs import CostField
from ..grids.boards import Grid, SquareGrid
from ._array_cache import ArrayCache, cached, remember

__all__ = ["clearance_map", "footprint", "footprint_costs", "sized_costs", "check_size", "max_size"]

Cell = tuple[int, int]

_SQUARE_STEPS = ((1, 0), (0, 1), (1, 1))
"""The square footprint's element: one more column, one more row, both."""


def _square_element() -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    fdx = np.array([[s[0] for s in _SQUARE_STEPS]] * 2, dtype=np.int64)
    fdy = np.array([[s[1] for s in _SQUARE_STEPS]] * 2, dtype=np.int64)
    steps = fdx, fdy, -fdx, -fdy
    for a in steps:
        a.flags.writeable = False
    return steps


_SQUARE_ELEMENT = _square_element()
"""``(fdx, fdy, rdx, rdy)`` on square boards, read-only as a topology's steps are: one signature of the kernel."""

_CLEARANCE: ArrayCache[dict[Any, Any]] = {}
"""``id(cost array) -> {'clearance': array, size: CostField}`` while the cost array lives."""

_MAX_SIZE: dict[Grid, int] = {}
_LOCK = threading.Lock()


def _element(grid: Grid) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """The footprint's element steps ``(fdx, fdy)`` and reversed steps ``(rdx, rdy)``, ``(2, ne)`` by parity."""
    if isinstance(grid, SquareGrid):
        return _SQUARE_ELEMENT
    t = grid.topology  # hex adjacency is symmetric: the reversed steps are the steps
    return t.dx, t.dy, t.dx, t.dy


def _clearance_of(grid: Grid, blocked: NDArray[np.bool_]) -> tuple[NDArray[np.int32], int]:
    k = load("movement.clearance")
    t = grid.topology
    fdx, fdy, rdx, rdy = _element(grid)
    out = np.empty(grid.size, dtype=np.int32)
    if isinstance(grid, SquareGrid) and not t.wrap:
        best = k.square_clearance(np.ascontiguousarray(blocked.ravel()), grid.width, grid.height, out)
        return out.reshape(grid.shape), int(best)
    best = k.clearance(np.ascontiguousarray(blocked.ravel()), fdx, fdy, rdx, rdy, t.parity_mode, t.wrap,
                       grid.width, grid.height, out)
    return out.reshape(grid.shape), int(best)


def max_size(grid: Grid) -> int:
    """The largest size whose footprint fits somewhere on ``grid`` with nothing impassable (its shape alone).

    >>> from wargrid import SquareGrid, HexGrid
    >>> max_size(SquareGrid(6, 4)), max_size(HexGrid(7, 7))
    (4, 4)
    """
    got = _MAX_SIZE.get(grid)
    if got is None:
        got = max(1, _clearance_of(grid, ~grid.mask)[1])
        with _LOCK:
            if len(_MAX_SIZE) > 64:
                _MAX_SIZE.clear()
            _MAX_SIZE[grid] = got
    return got


def check_size(grid: Grid, size: Any) -> int:
    """``size`` checked: an integer from 1 to ``max_size(grid)``.

    >>> from wargrid import SquareGrid
    >>> check_size(SquareGrid(3, 3), 2)
    2
    """
    if type(size) is int and size == 1:
        return 1
    k = check_int(size, "size", hint="the unit's footprint: 1 for one cell, 2 for 2 x 2 or a 7-hex ball, ...")
    if k < 1:
        raise ArgumentError(f"size must be >= 1 (1 is a one-cell unit), got {k}")
    top = max_size(grid)
    if k > top:
        raise ArgumentError(f"size must be at most {top} on this {grid.width} x {grid.height} {grid.kind} board "
                            f"(a larger footprint fits nowhere), got {k}")
    return k


def sized_costs(grid: Grid, costs: CostField, size: Any) -> CostField:
    """The field the anchor of a unit of ``size`` (checked by ``check_size``) moves over: ``costs`` for one cell,
    else ``footprint_costs``.

    >>> import numpy as np
    >>> from wargrid import SquareGrid
    >>> g = SquareGrid(3, 2)
    >>> c = CostField.from_arrays(g, np.ones((2, 3)))
    >>> sized_costs(g, c, 1) is c, sized_costs(g, c, 2).cells().tolist()
    (True, [[1.0, 1.0, inf], [inf, inf, inf]])
    """
    k = check_size(grid, size)
    return costs if k == 1 else footprint_costs(grid, costs, k)


def _entry(costs: CostField) -> dict[Any, Any]:
    got = cached(_CLEARANCE, costs.cell)
    if got is None:
        got = {}
        remember(_CLEARANCE, costs.cell, got, 64)
    return got


def clearance_map(grid: Grid, costs: CostField) -> NDArray[np.int32]:
    """``(height, width)`` clearance of every cell for the movement class of ``costs`` (read-only, indexed ``[y, x]``).

    The largest size whose footprint at the cell fits (see the module notes);
    0 on impassable and masked-out cells.

    >>> import numpy as np
    >>> from wargrid import HexGrid
    >>> g = HexGrid(5, 5)
    >>> clearance_map(g, CostField.from_arrays(g, np.ones((5, 5))))[2].tolist()
    [1, 2, 3, 2, 1]
    """
    entry = _entry(costs)
    got = entry.get("clearance")
    if got is None:
        blocked = ~np.isfinite(grid.topology.unpad(costs.cell))
        got = _clearance_of(grid, blocked)[0]
        got.setflags(write=False)
        entry["clearance"] = got
    return got


def footprint_costs(grid: Grid, costs: CostField, size: int) -> CostField:
    """The cost field a unit of ``size`` moves its anchor over: see the module notes.

    Cached while ``costs`` lives; ``size`` 1 gives ``costs`` itself.

    >>> import numpy as np
    >>> from wargrid import SquareGrid
    >>> g = SquareGrid(3, 2)
    >>> c = np.array([[1.0, 3.0, 1.0], [1.0, 1.0, 1.0]])
    >>> footprint_costs(g, CostField.from_arrays(g, c), 2).cells().tolist()
    [[3.0, 3.0, inf], [inf, inf, inf]]
    """
    if type(size) is int and size == 1:
        return costs
    size = check_size(grid, size)  # an unchecked size reached the kernel (10**20: OverflowError, 'x': numpy's errors)
    entry = _entry(costs)
    got = entry.get(size)
    if isinstance(got, CostField):
        return got
    t = grid.topology
    fits = clearance_map(grid, costs) >= size
    inner = t.unpad(costs.cell)
    if costs.uniform:
        cell = np.where(fits, costs.min_cost, np.inf)
        edge = None
    else:
        k = load("movement.clearance")
        fdx, fdy, _, _ = _element(grid)
        ndir = t.ndir
        cols = [np.where(np.isfinite(inner), inner, 0.0).reshape(-1, 1)]
        if costs.edge.size:
            cols.append(costs.edge.reshape(t.ph, t.pw, ndir)[1:-1, 1:-1].reshape(-1, ndir))
        vals = np.ascontiguousarray(np.concatenate(cols, axis=1))
        out = np.empty_like(vals)
        k.footprint_max(vals, fdx, fdy, t.parity_mode, t.wrap, grid.width, grid.height, size - 1, out)
        cell = np.where(fits, out[:, 0].reshape(grid.shape), np.inf)
        edge = None
        if costs.edge.size:
            e = np.zeros((t.ph, t.pw, ndir), dtype=np.float64)
            e[1:-1, 1:-1] = out[:, 1:].reshape(grid.height, grid.width, ndir)
            edge = e.ravel()
    got = CostField.from_padded(t, t.pad(cell, np.inf), edge, unit=costs.unit)
    entry[size] = got
    return got


def footprint(grid: Grid, anchor: Cell, size: int) -> list[Cell]:
    """The cells a unit of ``size`` anchored at ``anchor`` covers (those on the board), as ``(x, y)``.

    >>> from wargrid import SquareGrid, HexGrid
    >>> footprint(SquareGrid(4, 4), (1, 1), 2)
    [(1, 1), (2, 1), (1, 2), (2, 2)]
    >>> len(footprint(HexGrid(6, 6), (2, 2), 2)), len(footprint(HexGrid(6, 6), (2, 2), 3))
    (7, 19)
    """
    anchor = grid.check_cell(anchor, "anchor")
    size = check_size(grid, size)
    fdx, fdy, _, _ = _element(grid)
    t = grid.topology
    seen = {anchor}
    ring = [anchor]
    for _ in range(size - 1):  # grown without bounds (a footprint's cells are geometric), kept on the board below
        nxt = []
        for x, y in ring:
            par = int(t.parity(x, y))
            for e in range(fdx.shape[1]):
                qx, qy = x + int(fdx[par, e]), y + int(fdy[par, e])
                q = (qx % grid.width if t.wrap else qx, qy)
                if q not in seen:
                    seen.add(q)
                    nxt.append(q)
        ring = nxt
    on = [(x, y) for x, y in seen if 0 <= x < grid.width and 0 <= y < grid.height and grid.mask[y, x]]
    return sorted(on, key=lambda c: (c[1], c[0]))
