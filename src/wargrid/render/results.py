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

import functools
import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._display import Format, register_renderer
from ..errors import ArgumentTypeError
from ..grids.boards import Grid
from ..movement.fields import FlowField, MovementRange
from ..movement.search import Path
from ..movement.turns import Route
from ..tactics.areas import Area
from ..tactics.influence import Influence
from ..sight.fog import Fog
from ..territory.partition import Partition
from ..rts.debug import UnitDebug
from .overlays import CellMask, CellValues, Markers, Overlay, Polyline, Regions
from ..grids.board import Board
from .notebook import MAX_NOTEBOOK_CELLS, mask_overlay, notebook_png, notebook_svg, values_overlay
from .svg import render_svg

__all__ = ["Picture", "picture", "overlays_for", "board_of", "MAX_NOTEBOOK_CELLS"]


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

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the markup to ``path``, atomically: a failed save leaves the old file whole and names ``path``."""
        from .._files import atomic_write

        if not isinstance(path, (str, os.PathLike)):
            raise ArgumentTypeError(f"path must be a file path, got {type(path).__name__}")
        atomic_write(path, self.svg)


def _layer(a: np.ndarray) -> Overlay:
    return mask_overlay(a) if a.dtype == bool else values_overlay(a)


@functools.singledispatch
def overlays_for(result: Any, grid: Grid | None = None, **options: Any) -> list[Overlay]:
    """The overlays that draw ``result`` (see the module notes); ``grid`` is the board for arrays and cell lists.

    One dispatch on the result's type: a new result type is drawn by registering
    a function (``@overlays_for.register``) here, never by a method of its own.
    ``options``: ``team=`` for a ``Fog``, ``color=`` for a ``UnitDebug``.

    Raises
    ------
    ArgumentTypeError
        When nothing draws a result of that type.

    Examples
    --------
    >>> from wargrid import Map, SquareGrid
    >>> m = Map(SquareGrid(4, 3))
    >>> [type(o).__name__ for o in overlays_for(m.movement_range((0, 0), 2))]
    ['CellMask']
    """
    if isinstance(result, (list, tuple)) and all(isinstance(c, tuple) and len(c) == 2 for c in result):
        return [Markers(list(result))]
    raise ArgumentTypeError(f"cannot draw a {type(result).__name__}: give a path, range, field, partition, area, "
                            f"(height, width) array or list of cells")


@overlays_for.register(type(None))
def _none(result: None, grid: Grid | None = None) -> list[Overlay]:
    return []


@overlays_for.register(CellMask)
@overlays_for.register(CellValues)
@overlays_for.register(Markers)
@overlays_for.register(Polyline)
@overlays_for.register(Regions)
def _overlay(result: Overlay, grid: Grid | None = None) -> list[Overlay]:
    return [result]


@overlays_for.register(Partition)
def _partition(result: Partition, grid: Grid | None = None) -> list[Overlay]:
    return [Regions(result.owners)]


@overlays_for.register(MovementRange)
def _range(result: MovementRange, grid: Grid | None = None) -> list[Overlay]:
    return [mask_overlay(result.reachable)]


@overlays_for.register(FlowField)
def _field(result: FlowField, grid: Grid | None = None) -> list[Overlay]:
    return [_layer(result.cost)]


@overlays_for.register(Influence)
def _influence(result: Influence, grid: Grid | None = None) -> list[Overlay]:
    return [Regions(result.owner, alpha=0.45, name="owner"),
            CellMask(result.contested, color="#000000", alpha=0.35, name="contested"),
            Markers(list(result.unit_cells), radius=0.2, labels=[str(t) for t in result.unit_teams], name="units")]


@overlays_for.register(Fog)
def _fog(result: Fog, grid: Grid | None = None, *, team: str | None = None) -> list[Overlay]:
    team = result.teams[0] if team is None else team
    explored = result.explored(team)
    return [CellMask(~explored, color="#111111", alpha=0.85, name="unexplored"),
            CellMask(explored & ~result.visible(team), color="#777777", alpha=0.5, name="fogged")]


@overlays_for.register(Area)
def _area(result: Area, grid: Grid | None = None) -> list[Overlay]:
    return [CellMask(result.mask, color="#9467bd", alpha=0.5)]


@overlays_for.register(Path)
@overlays_for.register(Route)
def _line(result: Path | Route, grid: Grid | None = None) -> list[Overlay]:
    return [Polyline(list(result.cells))]


@overlays_for.register(UnitDebug)
def _unit_debug(result: UnitDebug, grid: Grid | None = None, *, color: str = "#1f77b4") -> list[Overlay]:
    out: list[Overlay] = []
    name = f"unit {result.uid}"
    if len(result.path) > 1:
        out.append(Polyline(list(result.path), color=color, width=0.15, name=f"{name} path"))
    if result.goal is not None:
        out.append(Markers([result.goal], color=color, labels=["goal"], radius=0.3, name=f"{name} goal"))
    if result.reserved is not None:
        out.append(Markers([result.reserved], color="#ff7f0e", labels=["next"], radius=0.2, name=f"{name} reserved"))
    out.append(Markers([result.cell], color="#111111", labels=[f"{result.uid} {result.state}"], radius=0.12,
                       name=f"{name} cell"))
    return out


@overlays_for.register(np.ndarray)
def _array(result: np.ndarray, grid: Grid | None = None) -> list[Overlay]:
    if grid is None or result.shape != grid.shape:
        raise ArgumentTypeError(f"cannot draw an array of shape {result.shape}: give a (height, width) array "
                                f"of the board{'' if grid is None else f' {grid.shape}'}")
    return [_layer(result)]


@functools.singledispatch
def board_of(result: Any) -> Grid | None:
    """The board a result is drawn on (``None``: no picture, such as a path made by hand without one).

    >>> from wargrid import Map, SquareGrid
    >>> m = Map(SquareGrid(4, 3))
    >>> board_of(m.path((0, 0), (3, 2))) is m.grid
    True
    """
    return None


@board_of.register(Path)
@board_of.register(MovementRange)
@board_of.register(FlowField)
@board_of.register(Partition)
@board_of.register(Influence)
@board_of.register(Fog)
def _board(result: Path | MovementRange | FlowField | Partition | Influence | Fog) -> Grid | None:
    return result.grid


class _Renderer:
    """What ``wargrid._display`` calls when a notebook shows a result."""

    def draw(self, result: object, fmt: Format) -> Any:
        board = board_of(result)
        if board is None:
            return None
        layers = overlays_for(result, board)
        return notebook_svg(board, layers) if fmt == "svg" else notebook_png(board, layers)

    def overlays(self, result: object, **options: Any) -> list[Any]:
        return overlays_for(result, board_of(result), **options)


register_renderer(_Renderer())


def picture(board: Grid | Board, *results: Any, cell_size: float | None = None) -> Picture:
    """A ``Picture`` of ``board`` with every result of ``results`` drawn on it (ranges and fields under paths)."""
    grid = board if isinstance(board, Grid) else getattr(board, "grid", None)
    if not isinstance(grid, Grid):  # (None raised "'NoneType' object has no attribute 'grid'")
        raise ArgumentTypeError(f"board must be a wargrid Map or Grid, got {type(board).__name__}")
    layers = [o for r in results for o in overlays_for(r, grid)]
    layers.sort(key=lambda o: isinstance(o, (Polyline, Markers)))  # lines and markers on top
    return Picture(render_svg(board, overlays=layers, cell_size=cell_size), tuple(layers), board)
