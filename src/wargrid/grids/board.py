"""What a board-like object offers the parts of the library that draw or move over it.

Capability modules (``render``, ``rts``, ...) never import ``wargrid.map``: they
take any object with these members, typed here as protocols. A ``Map`` is one;
a test or a game may pass its own. ``isinstance`` works with both protocols
(it checks that the members exist; their types are checked by mypy).

>>> from wargrid import Map, SquareGrid
>>> m = Map(SquareGrid(6, 4))
>>> isinstance(m, Board), isinstance(m, CostBoard), isinstance(m.grid, Board)
(True, True, False)
"""

from __future__ import annotations

from typing import Any, Callable, Protocol, Sequence, runtime_checkable

import numpy as np

from ..terrain import TerrainTable
from .boards import Grid

__all__ = ["Board", "CostBoard"]


@runtime_checkable
class Board(Protocol):
    """A grid with layers: what a picture of a board needs.

    ``terrain`` holds terrain ids into ``terrains``; ``overlay`` overlay ids
    (roads, bridges) or ``-1``; ``edges`` the ``(height, width, ndir)`` extra
    cost of crossing each side of a cell, or ``None``. Every layer is indexed
    ``[y, x]``.
    """

    @property
    def grid(self) -> Grid: ...

    @property
    def terrain(self) -> np.ndarray: ...

    @property
    def terrains(self) -> TerrainTable: ...

    @property
    def overlay(self) -> np.ndarray: ...

    @property
    def edges(self) -> np.ndarray | None: ...


@runtime_checkable
class CostBoard(Protocol):
    """A grid with movement costs and edit events: what moving units over a board needs.

    ``costs(unit=...)`` is the ``(height, width)`` cost of entering each cell for a
    movement class (``inf``: impassable); ``connected`` says whether two cells
    are joined for that class; ``on``/``off`` (un)subscribe to the board's edit
    events (``terrain_changed``, ``overlay_changed``, ``edge_changed``,
    ``elevation_changed``, ``zones_changed``); ``set_terrain`` edits it.
    """

    @property
    def grid(self) -> Grid: ...

    def costs(self, *, unit: str | None = None) -> np.ndarray: ...

    def unit_class(self, unit: str | None) -> str: ...

    def connected(self, a: tuple[int, int], b: tuple[int, int], *, unit: str | None = None) -> bool: ...

    def on(self, event: str, callback: Callable[[Any], Any]) -> Callable[[Any], Any]: ...

    def off(self, event: str, callback: Callable[[Any], Any]) -> None: ...

    def set_terrain(self, cells: Sequence[tuple[int, int]], name: str) -> None: ...
