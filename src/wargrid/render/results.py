"""Query results as overlays, and ``Picture``: SVG markup a notebook shows.

``overlays_for`` turns a result into the overlays that draw it, by its type:
a ``Path`` or a ``Route`` a line; a ``MovementRange`` its reachable cells; a
``Partition`` its territories; a ``FlowField`` its cost as colours; an
``Area`` its cells; an ``Influence`` its owners, contested cells and units; a ``Fog``
what its first team knows; a ``(height, width)`` array a mask (bool) or colours
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
from ..sight.fog import Fog
from ..territory.partition import Partition
from .overlays import CellMask, CellValues, Markers, Overlay, Polyline, Regions
from ..grids.board import Board
from .notebook import MAX_NOTEBOOK_CELLS, mask_overlay, notebook_png, values_overlay
from .svg import render_svg

__all__ = ["Picture", "picture", "overlays_for", "MAX_NOTEBOOK_CELLS"]


@dataclass(frozen=True)
class Picture:
    """SVG markup of a board with overlays; a notebook displays it (``_repr_svg_``), ``str`` gives the markup."""

    svg: str = field(repr=False)
    overlays: tuple[Overlay, ...] = ()
    board: Grid | Board | None = field(default=None, repr=False, compare=False)
    """What was drawn on (for ``_repr_png_``)."""

    def _repr_svg_(self) -> str:
        return self.svg

    def _repr_png_(self) -> bytes | None:
        """The same picture as PNG bytes (``None`` without Pillow, or without the board)."""
        return None if self.board is None else notebook_png(self.board, self.overlays)

    def __str__(self) -> str:
        return self.svg

    def save(self, path: str) -> None:
        """Write the markup to ``path``."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.svg)


def _layer(a: np.ndarray, grid: Grid) -> Overlay:
    return mask_overlay(a) if a.dtype == bool else values_overlay(a)


def overlays_for(result: Any, grid: Grid) -> list[Overlay]:
    """The overlays that draw ``result`` (see the module notes) on ``grid``; raises ``ArgumentTypeError`` when none."""
    if result is None:
        return []
    if isinstance(result, (CellMask, CellValues, Markers, Polyline, Regions)):
        return [result]
    if isinstance(result, Partition):
        return [Regions(result.owners)]
    if isinstance(result, MovementRange):
        return [mask_overlay(result.reachable)]
    if isinstance(result, FlowField):
        return [_layer(result.cost, grid)]
    if isinstance(result, (Influence, Fog)):
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
    return Picture(render_svg(board, overlays=layers, cell_size=cell_size), tuple(layers), board)
