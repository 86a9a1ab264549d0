"""Line of sight between two cells, agreeing exactly with the field of view.

``line_of_sight(grid, blocks, a, b)`` is ``True`` exactly when ``b`` is in
``a``'s field of view with an unlimited radius (see ``wargrid.sight.fov``
for the rules). Square boards run the shadowcasting scan restricted to the
narrow cone of ``b``'s tile, so its cost grows with the distance only.

>>> from wargrid import SquareGrid
>>> walls = np.zeros((3, 5), dtype=bool); walls[1, 2] = True
>>> line_of_sight(SquareGrid(5, 3), walls, (0, 1), (4, 1))
False
>>> line_of_sight(SquareGrid(5, 3), walls, (0, 0), (4, 0))
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..grids.boards import Grid
from .board import SightBoard, kernels, prepare

__all__ = ["line_of_sight", "los_on_board"]


def line_of_sight(grid: Grid, blocks: NDArray[np.bool_], a: tuple[int, int], b: tuple[int, int], *,
                  elevation: ArrayLike | None = None) -> bool:
    """Whether a viewer at cell ``a`` sees cell ``b`` (cells as ``(x, y)``).

    Parameters
    ----------
    grid : Grid
        The board.
    blocks : ndarray of bool, shape ``(height, width)``
        Sight-blocking cells.
    a, b : tuple of int
        The viewer's and the target's ``(x, y)``.
    elevation : array_like, optional
        Heights.

    Returns
    -------
    bool
        The same answer as ``field_of_view(grid, blocks, a, radius=None)[b]`` (symmetric).

    Examples
    --------
    >>> from wargrid import HexGrid
    >>> line_of_sight(HexGrid(5, 5), np.zeros((5, 5), dtype=bool), (0, 0), (4, 4))
    True
    """
    return los_on_board(prepare(grid, blocks, elevation), a, b)


def los_on_board(board: SightBoard, a: Any, b: Any) -> bool:
    """``line_of_sight`` on a prepared board (what ``Map.line_of_sight`` calls); cells are ``(x, y)``.

    >>> from wargrid import SquareGrid
    >>> from wargrid.sight.board import prepare
    >>> walls = np.zeros((4, 6), dtype=bool); walls[1, 2] = True
    >>> b = prepare(SquareGrid(6, 4), walls)
    >>> los_on_board(b, (0, 1), (5, 1)), los_on_board(b, (0, 0), (5, 0))
    (False, True)
    """
    k = kernels("los")
    ax, ay = board.cell(a, "a")
    bx, by = board.cell(b, "b")
    h = board.viewer_height(ax, ay)
    if board.square:
        return bool(k.square_los(board.args, ax, ay, bx, by, h))
    return bool(k.hex_los(board.args, ax, ay, bx, by, h))
