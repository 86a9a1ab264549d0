"""Field of view on square, hex and staggered boards.

Square boards: symmetric shadowcasting. A floor cell ``b`` is seen from
``a`` exactly when ``a`` is seen from ``b`` (symmetry); a sight-blocking cell
is seen when any part of it is lit (walls are lit, no blind corners, pillars
cast expanding shadows). Slopes are exact integer fractions.

Hex and staggered boards: ``b`` is seen from ``a`` when either of the two
tie-broken hex lines from ``a`` to ``b`` (nudged to one side, then the other)
passes no sight-blocking cell between them. The rule is symmetric for every
pair of cells, and blocking cells at the end of a clear line are seen.

Elevation: a viewer sees over blockers strictly lower than the cell it
stands on; a blocker as high as the viewer or higher blocks. (So a viewer on
a hill may see a lower one that cannot see back.)

Radius metrics on square boards: 'euclidean' (``dx^2 + dy^2 <= r^2``),
'chebyshev' (``max <= r``), 'octile' (``max + (sqrt 2 - 1) min <= r``),
'manhattan' (``dx + dy <= r``) and 'octagonal', the classic RTS engines'
distance ``max + min / 2 <= r`` (``dx``, ``dy`` in cells, the half kept
exactly: it is ``rts.octagonal_distance`` between the cells' centres in
leptons, divided by 256). On hex and staggered boards the only metric is
'hex' (hex steps); a square metric there is refused.

The radius (an integer, or ``None`` for the whole board) bounds the work:
only cells within it are touched, whatever the size of the board. A square
view costs about the number of cells scanned (at most ``(2r + 1)^2``); a hex
view checks one line per cell in range, so it grows like ``r^3`` (radius 20:
under a millisecond).

>>> from wargrid import SquareGrid
>>> walls = np.zeros((5, 5), dtype=bool); walls[2, 1] = True
>>> v = field_of_view(SquareGrid(5, 5), walls, (0, 2), radius=4)
>>> bool(v[2, 1]), bool(v[2, 2]), bool(v[2, 0])
(True, False, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..grids.boards import Grid
from .board import SightBoard, kernels, prepare

__all__ = ["field_of_view", "visible_cells"]


def visible_cells(board: SightBoard, origin: tuple[int, int], *, radius: int | None,
                  metric: str | None = None) -> NDArray[np.int64]:
    """Unique int64 ids of the cells ``origin`` sees on a prepared ``SightBoard`` (in no set order).

    >>> from wargrid import HexGrid
    >>> from wargrid.sight.board import prepare
    >>> b = prepare(HexGrid(4, 4), np.zeros((4, 4), dtype=bool))
    >>> sorted(visible_cells(b, (1, 1), radius=1).tolist())
    [1, 4, 5, 6, 8, 9, 10]
    """
    ids = _raw_ids(board, origin, radius, metric)
    return np.unique(ids) if board.grid.wrap_x else ids


def _raw_ids(board: SightBoard, origin: Any, radius: Any, metric: str | None) -> NDArray[np.int64]:
    ox, oy = board.cell(origin, "origin")
    code = board.metric_code(metric)
    r = board.radius(radius)
    return _kernel_ids(board, ox, oy, r, code)


def view_capacity(board: SightBoard, r: Any, code: int) -> Any:
    """How many ids a view of radius ``r`` (an int or an int array) can report: the kernels' buffer size."""
    if code == 4:
        return np.minimum(3 * r * (r + 1) + 1, board.max_ids)
    reach = np.minimum(r, max(board.grid.width, board.grid.height))
    return np.minimum(4 * (reach * reach + 2 * reach) + 1, board.max_ids)


def _kernel_ids(board: SightBoard, ox: int, oy: int, r: int, code: int) -> NDArray[np.int64]:
    k = kernels("fov")
    h = 1.0 if board.elevation is None else float(board.elevation[oy, ox])
    if code != 4:
        cap = 4 * (r * r + 2 * r) + 1
        out = np.empty(cap if cap < board.max_ids else board.max_ids, dtype=np.int64)
        n = k.square_fov(board.args, ox, oy, h, code, r, out)
    else:
        cap = 3 * r * (r + 1) + 1
        out = np.empty(cap if cap < board.max_ids else board.max_ids, dtype=np.int64)
        n = k.hex_fov(board.args, ox, oy, h, r, out)
    return out[:n]


def field_of_view(
    grid: Grid,
    blocks: NDArray[np.bool_],
    origin: tuple[int, int],
    *,
    radius: int | None,
    metric: str | None = None,
    elevation: ArrayLike | None = None,
) -> NDArray[np.bool_]:
    """Boolean ``(height, width)`` array: the cells seen from ``origin`` (an ``(x, y)`` cell).

    ``blocks`` is a boolean ``(height, width)`` layer of sight-blocking
    cells; ``radius`` an integer >= 0 or ``None`` (the whole board);
    ``metric`` one of 'euclidean' (default), 'chebyshev', 'octile',
    'manhattan', 'octagonal' on square boards, 'hex' on hex and staggered
    boards;
    ``elevation`` an optional ``(height, width)`` layer of heights.

    Parameters
    ----------
    grid : Grid
        The board.
    blocks : ndarray of bool, shape ``(height, width)``
        Sight-blocking cells.
    origin : tuple of int
        The viewer's ``(x, y)``.
    radius : int or None
        Sight range in steps of ``metric`` (``None``: the whole board).
    metric : str, optional
        See above (default: 'euclidean' on square boards, 'hex' otherwise).
    elevation : array_like, optional
        Heights: a viewer sees over lower blockers.

    Returns
    -------
    ndarray of bool, shape ``(height, width)``
        The cells seen, indexed ``[y, x]``.

    Examples
    --------
    >>> from wargrid import HexGrid
    >>> int(field_of_view(HexGrid(9, 9), np.zeros((9, 9), dtype=bool), (4, 4), radius=2).sum())
    19
    """
    board = prepare(grid, blocks, elevation)
    return fov_array(board, origin, radius=radius, metric=metric)


def fov_array(board: SightBoard, origin: Any, *, radius: Any, metric: str | None = None) -> NDArray[np.bool_]:
    """``field_of_view`` on a prepared board (what ``Map.fov`` calls).

    >>> from wargrid import SquareGrid
    >>> b = prepare(SquareGrid(3, 3), np.zeros((3, 3), dtype=bool))
    >>> fov_array(b, (0, 0), radius=1, metric="chebyshev").astype(int).tolist()
    [[1, 1, 0], [1, 1, 0], [0, 0, 0]]
    """
    ids = _raw_ids(board, origin, radius, metric)
    g = board.grid
    out = np.zeros(g.shape, dtype=bool)
    out.ravel()[ids] = True
    return out
