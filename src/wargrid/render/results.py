"""Query results as overlays, and ``Picture``: SVG markup a notebook shows.

``overlays_for`` turns a result into the overlays that draw it, by its type:
a ``Path`` or a ``Route`` a line; a ``MovementRange`` its reachable cells; a
``Partition`` its territories; a ``FlowField`` its cost as colours; an
``Area`` its cells; an ``Influence`` its owners, contested cells and units; a ``(height, width)`` array a mask (bool) or colours
(numbers); a list of cells markers.

>>> from wargrid import Map, SquareGrid
>>> m = Map(SquareGrid(4, 3))
>>> pic = picture(m, m.path((0, 0), (3, 2)), m.movement_range((0, 0), 2))
>>> pic._repr_svg_().count("<polyline"), [type(o).__name__ for o in pic.overlays]
(1, ['CellMask', 'Polyline'])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import ArgumentTypeError
from ..grids.boards import Grid
from ..movement.fields import FlowField, MovementRange
from ..movement.search import Path
from ..movement.turns import Route
from ..tactics.areas import Area
from ..tactics.influence import Influence
from ..territory.partition import Partition
from .overlays import CellMask, CellValues, Markers, Overlay, Polyline, Regions
from ..grids.board import Board
from .svg import render_svg

__all__ = ["Picture", "picture", "overlays_for", "board_svg", "MAX_NOTEBOOK_CELLS"]

MAX_NOTEBOOK_CELLS = 65_536
"""Largest board a notebook draws by itself (``Map._repr_svg_``): bigger boards make SVG too heavy for a page."""


@dataclass(frozen=True)
class Picture:
    """SVG markup of a board with overlays; a notebook displays it (``_repr_svg_``), ``str`` gives the markup."""

    svg: str = field(repr=False)
    overlays: tuple[Overlay, ...] = ()

    def _repr_svg_(self) -> str:
        return self.svg

    def __str__(self) -> str:
        return self.svg

    def save(self, path: str) -> None:
        """Write the markup to ``path``."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.svg)


def _layer(a: np.ndarray, grid: Grid) -> Overlay:
    if a.dtype == bool:
        return CellMask(a, color="#1f77b4", alpha=0.45)
    values = np.where(np.isfinite(a), a, np.nan).astype(np.float64)
    return CellValues(values)


def overlays_for(result: Any, grid: Grid) -> list[Overlay]:
    """The overlays that draw ``result`` (see the module notes) on ``grid``; raises ``ArgumentTypeError`` when none."""
    if result is None:
        return []
    if isinstance(result, (CellMask, CellValues, Markers, Polyline, Regions)):
        return [result]
    if isinstance(result, Partition):
        return [Regions(result.owners)]
    if isinstance(result, MovementRange):
        return [CellMask(result.reachable, color="#1f77b4", alpha=0.45)]
    if isinstance(result, FlowField):
        return [_layer(result.cost, grid)]
    if isinstance(result, Influence):
        return result.overlays()
    if isinstance(result, Area):
        return [CellMask(result.mask, color="#9467bd", alpha=0.5)]
    if isinstance(result, (Path, Route)):
        return [Polyline(list(result.cells))]
    if isinstance(result, np.ndarray) and result.shape == grid.shape:
        return [_layer(result, grid)]
    if isinstance(result, (list, tuple)) and all(isinstance(c, tuple) and len(c) == 2 for c in result):
        return [Markers(list(result))]
    raise ArgumentTypeError(f"cannot draw a {type(result).__name__}: give a path, range, field, partition, area, "
                            f"(height, width) array or list of cells")


def picture(board: Grid | Board, *results: Any, cell_size: float | None = None) -> Picture:
    """A ``Picture`` of ``board`` with every result of ``results`` drawn on it (ranges and fields under paths)."""
    grid = board if isinstance(board, Grid) else board.grid
    layers = [o for r in results for o in overlays_for(r, grid)]
    layers.sort(key=lambda o: isinstance(o, (Polyline, Markers)))  # lines and markers on top
    return Picture(render_svg(board, overlays=layers, cell_size=cell_size), tuple(layers))


def board_svg(board: Board) -> str | None:
    """The SVG markup of ``board`` for a notebook, ``None`` (no picture) on boards over ``MAX_NOTEBOOK_CELLS`` cells."""
    if board.grid.width * board.grid.height > MAX_NOTEBOOK_CELLS:
        return None
    return render_svg(board)


