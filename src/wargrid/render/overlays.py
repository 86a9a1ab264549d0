"""Overlays drawn over a board: one small typed object per kind, shared by SVG and PNG.

Every capability shows its result through these few shapes:

- ``CellMask``: cells tinted with one colour (sight, fog, zones of control);
- ``CellValues``: per-cell numbers shaded from ``low`` to ``high`` colour
  (a movement range shaded by points left; ``inf``/NaN cells are left clear);
- ``Regions``: an integer label per cell (``< 0``: none) each in its own colour,
  with borders between different labels (territories, connectivity zones);
- ``Polyline``: a line through cell centres (a path);
- ``Markers``: dots on cells with optional text (units, towns);
- ``Coordinates``: every cell's ``x,y`` written in it.

>>> import numpy as np
>>> from wargrid import HexGrid
>>> m = CellMask(np.eye(3, dtype=bool), color="#000000", alpha=0.5)
>>> int(m.checked(HexGrid(3, 3)).mask.sum())
3
"""

from __future__ import annotations

import colorsys
import re
from dataclasses import dataclass, replace
from typing import Sequence

import numpy as np

from ..errors import ArgumentError, ArgumentTypeError
from .._validate import check_int, check_real
from ..grids.boards import Grid

__all__ = ["CellMask", "CellValues", "Regions", "Polyline", "Markers", "Coordinates", "Overlay", "palette", "rgb"]

_HEX_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")


def rgb(color: str, name: str = "color") -> tuple[int, int, int]:
    """``'#rrggbb'`` to an ``(r, g, b)`` tuple of ints.

    >>> rgb("#ff8000")
    (255, 128, 0)
    """
    if not isinstance(color, str) or not _HEX_COLOR.match(color):
        raise ArgumentError(f"{name} must be a colour '#rrggbb', got {color!r}")
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def palette(n: int) -> list[str]:
    """``n`` distinct, stable colours (golden-ratio hues).

    >>> palette(2)
    ['#e62246', '#4591e6']
    """
    n = check_int(n, "n")
    if n > 1 << 24:
        raise ArgumentError(f"n must be at most {1 << 24} (the number of '#rrggbb' colours), got {n}")
    out = []
    for i in range(max(0, n)):
        h = (0.9694 + i * 0.618033988749895) % 1.0
        s = 0.85 if i % 2 == 0 else 0.7
        r, g, b = colorsys.hsv_to_rgb(h, s, 0.9)
        out.append(f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}")
    return out


def _alpha(a: float) -> float:
    a = check_real(a, "alpha", minimum=0.0)
    if a > 1.0:
        raise ArgumentError(f"alpha must be in 0..1, got {a}")
    return a


def _layer(a: object, grid: Grid, name: str) -> np.ndarray:
    arr = np.asarray(a)
    if arr.shape != grid.shape:
        raise ArgumentError(f"{name} must have shape (height, width) = {grid.shape}, got {arr.shape}")
    return arr


def _cells(cells: Sequence[tuple[int, int]], grid: Grid, name: str) -> tuple[tuple[int, int], ...]:
    try:
        items = list(cells)
    except TypeError:
        raise ArgumentTypeError(f"{name} must be a list of (x, y) cells, got {cells!r}") from None
    return tuple(grid.check_cell(c, f"{name}[{i}]") for i, c in enumerate(items))


@dataclass(frozen=True)
class CellMask:
    """Tint the cells where ``mask`` (a ``(height, width)`` bool array) is true."""

    mask: np.ndarray
    color: str = "#000000"
    alpha: float = 0.5
    name: str = "mask"

    def checked(self, grid: Grid) -> "CellMask":
        """A copy validated against ``grid`` (layers are ``(height, width)``, indexed ``[y, x]``); cells off the board are cleared."""
        m = _layer(self.mask, grid, "mask")
        if m.dtype != bool:
            raise ArgumentTypeError(f"mask must be a boolean array, got dtype {m.dtype}")
        rgb(self.color)
        return replace(self, mask=m & grid.mask, alpha=_alpha(self.alpha))


@dataclass(frozen=True)
class CellValues:
    """Shade finite ``values`` from ``low`` (smallest) to ``high`` (largest) colour."""

    values: np.ndarray
    low: str = "#fff5b0"
    high: str = "#d7301f"
    alpha: float = 0.6
    name: str = "values"

    def checked(self, grid: Grid) -> "CellValues":
        """A copy validated against ``grid`` (layers are ``(height, width)``, indexed ``[y, x]``); cells off the board become NaN."""
        v = _layer(self.values, grid, "values").astype(np.float64)
        rgb(self.low, "low")
        rgb(self.high, "high")
        v = np.where(grid.mask, v, np.nan)
        return replace(self, values=v, alpha=_alpha(self.alpha))

    def fractions(self) -> np.ndarray:
        """Each value's place in ``0..1`` between the smallest and largest finite value (NaN where clear).

        >>> from wargrid import SquareGrid
        >>> v = CellValues(np.arange(24.0).reshape(4, 6)).checked(SquareGrid(6, 4))
        >>> float(v.fractions()[0, 0]), float(v.fractions()[3, 5])
        (0.0, 1.0)
        """
        v = self.values
        fin = np.isfinite(v)
        if not fin.any():
            return np.full(v.shape, np.nan)
        lo, hi = float(v[fin].min()), float(v[fin].max())
        span = hi - lo if hi > lo else 1.0
        return np.where(fin, (np.where(fin, v, lo) - lo) / span, np.nan)


@dataclass(frozen=True)
class Regions:
    """Colour each label (``labels >= 0``) and draw borders where labels change."""

    labels: np.ndarray
    alpha: float = 0.35
    borders: bool = True
    border_color: str = "#000000"
    colors: Sequence[str] | None = None
    name: str = "regions"

    def checked(self, grid: Grid) -> "Regions":
        """A copy validated against ``grid`` (layers are ``(height, width)``, indexed ``[y, x]``); cells off the board get label -1."""
        lab = _layer(self.labels, grid, "labels")
        if lab.dtype.kind not in "iu":
            raise ArgumentTypeError(f"labels must be an integer array, got dtype {lab.dtype}")
        lab = np.where(grid.mask, lab.astype(np.int64), -1)
        cap = grid.width * grid.height
        if lab.size and lab.max() >= cap:  # one colour per label: a huge label would build a huge palette
            raise ArgumentError(f"labels must be < {cap} (the board's cell count) or negative, got {int(lab.max())}")
        rgb(self.border_color, "border_color")
        if self.colors is not None:
            for c in self.colors:
                rgb(c, "colors[]")
        return replace(self, labels=lab, alpha=_alpha(self.alpha))

    def color_list(self) -> list[str]:
        """One fill colour per label ``0..max(labels)`` (``colors`` repeated, else the palette).

        >>> from wargrid import SquareGrid
        >>> r = Regions(np.array([[0, 1, 2, 0, 1, 2]] * 4)).checked(SquareGrid(6, 4))
        >>> len(r.color_list())
        3
        """
        n = int(self.labels.max()) + 1 if self.labels.size and self.labels.max() >= 0 else 0
        if self.colors:
            cs = list(self.colors)
            return [cs[i % len(cs)] for i in range(n)]
        return palette(n)


@dataclass(frozen=True)
class Polyline:
    """A line through the centres of ``cells`` (a path)."""

    cells: Sequence[tuple[int, int]]
    color: str = "#d62728"
    width: float = 0.25
    name: str = "path"

    def checked(self, grid: Grid) -> "Polyline":
        """A copy validated against ``grid`` (cells are ``(x, y)`` on the board)."""
        rgb(self.color)
        check_real(self.width, "width", minimum=0.0)
        return replace(self, cells=_cells(self.cells, grid, "cells"))


@dataclass(frozen=True)
class Markers:
    """Dots on ``cells`` (units, towns), optionally with ``labels`` beside them."""

    cells: Sequence[tuple[int, int]]
    color: str = "#111111"
    labels: Sequence[str] | None = None
    radius: float = 0.35
    name: str = "markers"

    def checked(self, grid: Grid) -> "Markers":
        """A copy validated against ``grid`` (cells are ``(x, y)`` on the board, one label per cell)."""
        rgb(self.color)
        check_real(self.radius, "radius", minimum=0.0)
        cells = _cells(self.cells, grid, "cells")
        labels = None
        if self.labels is not None:
            labels = tuple(str(s) for s in self.labels)
            if len(labels) != len(cells):
                raise ArgumentError(f"labels must have one entry per cell: {len(cells)} cells, got {len(labels)} labels")
        return replace(self, cells=cells, labels=labels)


@dataclass(frozen=True)
class Coordinates:
    """Write every cell's ``x,y`` in it."""

    color: str = "#000000"
    name: str = "coordinates"

    def checked(self, grid: Grid) -> "Coordinates":
        """This overlay, after checking its colour."""
        rgb(self.color)
        return self


Overlay = CellMask | CellValues | Regions | Polyline | Markers | Coordinates
_KINDS = (CellMask, CellValues, Regions, Polyline, Markers, Coordinates)


def check_overlays(overlays: Sequence[object], grid: Grid) -> list[Overlay]:
    """Every overlay checked against ``grid`` (``TypeError`` for anything else)."""
    if isinstance(overlays, _KINDS):
        overlays = [overlays]
    out: list[Overlay] = []
    for i, o in enumerate(overlays):
        if not isinstance(o, _KINDS):
            names = ", ".join(k.__name__ for k in _KINDS)
            raise ArgumentTypeError(f"overlays[{i}] must be one of {names}; got {type(o).__name__}")
        out.append(o.checked(grid))
    return out
