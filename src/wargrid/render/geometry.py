"""Drawing geometry shared by the SVG and PNG writers: where each cell lands in pixels.

The grid is the only place that knows tile shapes (``centers_of``,
``corner_offsets``, ``bounds``); this module only scales and shifts what the
grid says, and looks cells up under whole arrays of pixels at once.

>>> from wargrid import HexGrid
>>> f = Frame.for_grid(HexGrid(3, 2), cell_size=10)
>>> f.width, f.height
(58, 52)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validate import check_real
from ..grids.boards import Grid, HexGrid, SquareGrid, StaggeredGrid

__all__ = ["Frame", "cells_at"]


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
            raise TypeError(f"grid must be a wargrid Grid, got {type(grid).__name__}")
        s = check_real(cell_size, "cell_size", minimum=0.01)
        m = check_real(margin, "margin", minimum=0.0)
        x0, y0, x1, y1 = grid.bounds()
        w = int(math.ceil((x1 - x0) * s + 2 * m))
        h = int(math.ceil((y1 - y0) * s + 2 * m))
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
        return cells_at(self.grid, (np.asarray(px, np.float64) - self.ox) / self.scale, (np.asarray(py, np.float64) - self.oy) / self.scale)


_SQRT3 = math.sqrt(3.0)


def _hex_cells(grid: HexGrid, px: np.ndarray, py: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Offset cells under drawing points of a unit-size hex layout (float32 cube rounding: pictures only)."""
    x = px.astype(np.float32)
    y = py.astype(np.float32)
    if grid.orientation == "flat":
        fq = x * np.float32(2.0 / 3.0)
        fr = x * np.float32(-1.0 / 3.0) + y * np.float32(_SQRT3 / 3.0)
    else:
        fq = x * np.float32(_SQRT3 / 3.0) + y * np.float32(-1.0 / 3.0)
        fr = y * np.float32(2.0 / 3.0)
    del x, y
    fs = -fq - fr
    q, r, s = np.rint(fq), np.rint(fr), np.rint(fs)
    dq, dr, ds = np.abs(q - fq), np.abs(r - fr), np.abs(s - fs)
    del fq, fr, fs
    fix_q = (dq > dr) & (dq > ds)
    fix_r = ~fix_q & (dr > ds)
    q = np.where(fix_q, -r - s, q).astype(np.int64)
    r = np.where(fix_r, -q - s, r).astype(np.int64)
    if grid.offset == "odd-q":
        return q, r + (q - (q & 1)) // 2
    if grid.offset == "even-q":
        return q, r + (q + (q & 1)) // 2
    if grid.offset == "odd-r":
        return q + (r - (r & 1)) // 2, r
    return q + (r + (r & 1)) // 2, r


def cells_at(grid: Grid, px: np.ndarray, py: np.ndarray) -> np.ndarray:
    """Vectorised ``Grid.cell_at``: cell ids under drawing points, ``-1`` off the board.

    >>> from wargrid import HexGrid
    >>> g = HexGrid(4, 4)
    >>> cx, cy = g.centers_of(np.array([2, 3]), np.array([3, 0]))
    >>> cells_at(g, cx, cy).tolist() == [g.id((2, 3)), g.id((3, 0))]
    True
    """
    px, py = np.broadcast_arrays(np.asarray(px, np.float64), np.asarray(py, np.float64))
    if isinstance(grid, HexGrid):
        x, y = _hex_cells(grid, px, py)
    elif isinstance(grid, StaggeredGrid):
        if grid.stagger == "columns":
            x = np.floor(px).astype(np.int64)
            y = np.floor(py - 0.5 * (x & 1)).astype(np.int64)
        else:
            y = np.floor(py).astype(np.int64)
            x = np.floor(px - 0.5 * (y & 1)).astype(np.int64)
    elif isinstance(grid, SquareGrid):
        x = np.floor(px).astype(np.int64)
        y = np.floor(py).astype(np.int64)
    else:  # pragma: no cover - a new board kind must teach this function its shape
        raise TypeError(f"cannot locate cells on a {type(grid).__name__}")
    inside = (x >= 0) & (x < grid.width) & (y >= 0) & (y < grid.height)
    xc = np.where(inside, x, 0)
    yc = np.where(inside, y, 0)
    inside &= grid.mask[yc, xc]
    return np.where(inside, yc * grid.width + xc, -1).astype(np.int64)
