"""Isometric boards: a square board drawn as diamonds, and Tiled's staggered isometric layout mapped onto it.

An ``IsometricGrid`` is a ``SquareGrid`` (same neighbours, same kernels,
same corner rule; 8 directions by default) whose tiles are drawn as 2:1
diamonds: cell ``(x, y)`` is centred at ``(x - y, (x + y + 1) / 2)``, so x
runs down to the right and y down to the left, as in Tiled's isometric maps.

A *staggered* isometric map (Tiled's ``staggered`` orientation) is the same
lattice cut differently: each diamond touches four others across its edges
and four more at its corners. ``IsoStagger`` maps its Tiled ``(col, row)``
cells exactly onto the cells of an ``IsometricGrid`` (rotated 45 degrees, the
cells the Tiled map does not cover masked out): the four edge neighbours
become the four orthogonal steps and the four corner neighbours the
diagonal ones.

>>> g = IsometricGrid(3, 3)
>>> g.center((1, 0)), g.center((0, 1))
((1.0, 1.0), (-1.0, 1.0))
>>> s = IsoStagger("y", "odd", 4, 5)
>>> s.cell((1, 2)), s.tiled(s.cell((1, 2)))
((2, 3), (1, 2))
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ..errors import ArgumentError
from .._validate import check_choice, check_positive_int, check_real
from .boards import SquareGrid

__all__ = ["IsometricGrid", "IsoStagger"]


class IsometricGrid(SquareGrid):
    """A square board drawn in the isometric projection (tiles are 2:1 diamonds).

    Movement, sight and every other capability see a ``SquareGrid``:
    ``diagonal`` (default ``True``: 8 directions) and ``corner_rule`` mean
    what they mean there. Only the drawing geometry differs.

    >>> g = IsometricGrid(4, 3)
    >>> g.neighbors((0, 0)), g.cell_at(0.0, 0.5)
    ([(1, 0), (0, 1), (1, 1)], (0, 0))
    """

    kind = "isometric"

    def __init__(
        self,
        width: int,
        height: int,
        *,
        diagonal: bool = True,
        corner_rule: str = "no-obstacle",
        wrap_x: bool = False,
        mask: np.ndarray | None = None,
    ) -> None:
        super().__init__(width, height, diagonal=diagonal, corner_rule=corner_rule, wrap_x=wrap_x, mask=mask)

    def centers_of(self, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x = np.asarray(xs, dtype=np.float64)
        y = np.asarray(ys, dtype=np.float64)
        return x - y, (x + y + 1.0) / 2.0

    def corner_offsets(self) -> list[tuple[float, float]]:
        return [(0.0, -0.5), (1.0, 0.0), (0.0, 0.5), (-1.0, 0.0)]

    def _cells_under(self, px: np.ndarray, py: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        v = 2.0 * np.asarray(py, dtype=np.float64) - 1.0
        p = np.asarray(px, dtype=np.float64)
        return np.floor((v + p) / 2.0 + 0.5).astype(np.int64), np.floor((v - p) / 2.0 + 0.5).astype(np.int64)

    def cell_at(self, px: float, py: float) -> tuple[int, int] | None:
        """The cell under a drawing point.

        >>> IsometricGrid(4, 4).cell_at(1.0, 1.0)
        (1, 0)
        """
        px, py = check_real(px, "px"), check_real(py, "py")
        i = int(self.cell_ids_at(np.array([px]), np.array([py]))[0])
        return None if i < 0 else (i % self.width, i // self.width)


@dataclass(frozen=True)
class IsoStagger:
    """The exact mapping of a Tiled staggered isometric map onto an ``IsometricGrid``.

    ``axis`` is Tiled's ``staggeraxis`` ('x': every other column is shifted
    down half a tile; 'y': every other row is shifted right half a tile),
    ``index`` its ``staggerindex`` ('odd' or 'even': which ones are
    shifted), ``width`` and ``height`` the Tiled map's size in tiles.

    Tiled cell ``(c, r)`` has its centre at ``(px, py)`` with a diamond 2
    units across and 1 down; the board cell is ``(i, j)`` with
    ``i = floor(px / 2 + py)`` and ``j = floor(py - px / 2)``, shifted so
    the smallest is 0 (the fractional part is the same on every cell). A step across a diamond's edge changes one of ``i``,
    ``j`` by 1; a step to a corner neighbour (``(c ± 1, r)`` or
    ``(c, r ± 2)`` on a 'y' map) changes both.

    >>> s = IsoStagger("y", "odd", 3, 5)
    >>> g = s.grid()
    >>> sorted(s.tiled(c) for c in g.neighbors(s.cell((1, 2))))
    [(0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 3), (1, 4), (2, 2)]
    """

    axis: str
    index: str
    width: int
    height: int

    def __post_init__(self) -> None:
        check_choice(self.axis, "axis", ("x", "y"))
        check_choice(self.index, "index", ("odd", "even"))
        check_positive_int(self.width, "width")
        check_positive_int(self.height, "height")

    def _half_units(self, c: NDArray[np.int64], r: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Doubled centre coordinates ``(2 px, 2 py)`` (integers) of Tiled cells in half-tile units."""
        shifted = 1 if self.index == "odd" else 0
        if self.axis == "y":
            return 4 * c + 2 * ((r & 1) == shifted), r
        return c * 2, 2 * r + ((c & 1) == shifted)

    def _ij(self, c: NDArray[np.int64], r: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        px2, py2 = self._half_units(c, r)
        return (px2 + 2 * py2) // 4, (2 * py2 - px2) // 4

    def _shift(self) -> tuple[int, int, int, int]:
        r, c = np.divmod(np.arange(self.width * self.height, dtype=np.int64), self.width)
        i, j = self._ij(c, r)
        return int(i.min()), int(j.min()), int(i.max() - i.min()) + 1, int(j.max() - j.min()) + 1

    def board_shape(self) -> tuple[int, int]:
        """``(width, height)`` of the board's rectangle (about ``width + height / 2`` each way on a 'y' map)."""
        _, _, w, h = self._shift()
        return w, h

    def cells(self, c: np.ndarray, r: np.ndarray) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Vectorised ``cell``: Tiled ``(cols, rows)`` arrays to board ``(xs, ys)`` arrays."""
        i0, j0, _, _ = self._shift()
        i, j = self._ij(np.asarray(c, dtype=np.int64), np.asarray(r, dtype=np.int64))
        return i - i0, j - j0

    def cell(self, tiled: tuple[int, int]) -> tuple[int, int]:
        """The board cell of Tiled cell ``(col, row)``."""
        x, y = self.cells(np.array([tiled[0]]), np.array([tiled[1]]))
        return int(x[0]), int(y[0])

    def tiled(self, cell: tuple[int, int]) -> tuple[int, int]:
        """The Tiled ``(col, row)`` of a board cell (``ArgumentError`` if the Tiled map has no such cell)."""
        r, c = np.divmod(np.arange(self.width * self.height, dtype=np.int64), self.width)
        x, y = self.cells(c, r)
        hit = np.flatnonzero((x == cell[0]) & (y == cell[1]))
        if not hit.size:
            raise ArgumentError(f"cell {cell} is not a cell of the staggered map")
        return int(c[hit[0]]), int(r[hit[0]])

    def grid(self, *, diagonal: bool = True, corner_rule: str = "no-obstacle") -> IsometricGrid:
        """The ``IsometricGrid`` of the map: the rotated rectangle, cells the map lacks masked out."""
        _, _, w, h = self._shift()
        r, c = np.divmod(np.arange(self.width * self.height, dtype=np.int64), self.width)
        x, y = self.cells(c, r)
        mask = np.zeros((h, w), dtype=bool)
        mask[y, x] = True
        return IsometricGrid(w, h, diagonal=diagonal, corner_rule=corner_rule, mask=mask)

    def to_board(self, layer: np.ndarray, fill: int | float) -> np.ndarray:
        """A Tiled-shaped ``(height, width)`` layer as a board-shaped layer (``fill`` off the map)."""
        _, _, w, h = self._shift()
        r, c = np.divmod(np.arange(self.width * self.height, dtype=np.int64), self.width)
        x, y = self.cells(c, r)
        out = np.full((h, w), fill, dtype=np.asarray(layer).dtype)
        out[y, x] = np.asarray(layer).ravel()
        return out

    def from_board(self, layer: np.ndarray) -> np.ndarray:
        """A board-shaped layer as a Tiled-shaped ``(height, width)`` layer."""
        r, c = np.divmod(np.arange(self.width * self.height, dtype=np.int64), self.width)
        x, y = self.cells(c, r)
        return np.asarray(layer)[y, x].reshape(self.height, self.width)

