"""Drawing geometry shared by the SVG and PNG writers: where each cell lands in pixels.

The grid is the only place that knows tile shapes (``centers_of``,
``corner_offsets``, ``bounds``, ``cell_ids_at``); this module only scales and
shifts what the grid says.

>>> from wargrid import HexGrid
>>> f = Frame.for_grid(HexGrid(3, 2), cell_size=10)
>>> f.width, f.height
(58, 52)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import ArgumentError, ArgumentTypeError
from .._validate import check_real
from ..grids.boards import Grid

__all__ = ["Frame", "MAX_PICTURE_SIDE"]

MAX_PICTURE_SIDE = (1 << 31) - 1
"""The widest and tallest picture, in pixels (a larger ``cell_size`` is refused: no viewer draws more)."""


@dataclass(frozen=True)
class Frame:
    """Pixels per drawing unit (``scale``) and the shift that puts the board at ``margin``."""

    grid: Grid
    scale: float
    ox: float
    oy: float
    width: int
    height: int

    @classmethod
    def for_grid(cls, grid: Grid, *, cell_size: float, margin: float = 4.0) -> "Frame":
        """A frame that fits the whole board; ``cell_size`` is pixels per drawing unit."""
        if not isinstance(grid, Grid):
            raise ArgumentTypeError(f"grid must be a wargrid Grid, got {type(grid).__name__}")
        s = check_real(cell_size, "cell_size", minimum=0.01)
        m = check_real(margin, "margin", minimum=0.0)
        x0, y0, x1, y1 = grid.bounds()
        fw, fh = (x1 - x0) * s + 2 * m, (y1 - y0) * s + 2 * m
        if not (fw <= MAX_PICTURE_SIDE and fh <= MAX_PICTURE_SIDE):  # inf too
            raise ArgumentError(f"cell_size={s} and margin={m} make a picture of {fw:.3g} x {fh:.3g} pixels; at most "
                                f"MAX_PICTURE_SIDE = {MAX_PICTURE_SIDE} a side")
        w = int(math.ceil(fw))
        h = int(math.ceil(fh))
        return cls(grid, s, m - x0 * s, m - y0 * s, w, h)

    def centers(self, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Pixel centres of cells ``(xs, ys)``."""
        cx, cy = self.grid.centers_of(np.asarray(xs, dtype=np.int64), np.asarray(ys, dtype=np.int64))
        return cx * self.scale + self.ox, cy * self.scale + self.oy

    def polygons(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """``(n, corners, 2)`` pixel corners of cells ``(xs, ys)``."""
        cx, cy = self.centers(xs, ys)
        off = np.asarray(self.grid.corner_offsets(), dtype=np.float64) * self.scale
        return np.stack([cx[:, None] + off[None, :, 0], cy[:, None] + off[None, :, 1]], axis=-1)

    def cells_under(self, px: np.ndarray, py: np.ndarray) -> np.ndarray:
        """Cell ids under pixel points (``-1`` off the board)."""
        return self.grid.cell_ids_at((np.asarray(px, np.float64) - self.ox) / self.scale, (np.asarray(py, np.float64) - self.oy) / self.scale)

