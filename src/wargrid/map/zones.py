"""``Map`` query methods for connectivity zones: thin wrappers over ``wargrid.movement.zones``."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..terrain import check_walls
from .core import Cell, MapCore


class ZoneQueries(MapCore):
    """Connectivity zones of a ``Map``.

    A map has no zone state until ``zones`` or ``connected`` is first asked
    for a movement class and wall rule; from then on the labels of that
    class and rule follow every edit (only the zones around the change are
    re-labelled) and the map fires 'zones_changed' with ``unit``, ``walls``,
    ``old`` and ``new`` zone ids.

    The wall rule (``walls``, one of ``terrain.WALL_RULES``) is the classic
    engine's zone sets: 'stop' (every wall terrain blocks, as its costs say),
    'crush' (walls of ``Terrain(wall="crushable")`` terrains, such as
    sandbags and wire, are passable) and 'destroy' (every wall is passable).
    A wall the unit gets through counts as the table's first terrain.
    """

    def zones(self, *, unit: str | None = None, walls: str = "stop") -> npt.NDArray[np.int32]:
        """``(height, width)`` int32 zone ids for ``unit`` (``-1``: impassable or off the board).

        Cells with the same id are connected for that movement class
        (diagonals follow the corner rule, walls both ways disconnect). Ids
        stay stable across edits that do not touch a zone; they need not be
        ``0..n-1``.

        Parameters
        ----------
        unit : str, optional
            The movement class (default: the terrain table's first class).
        walls : str
            What the unit does at a wall terrain (``Terrain.wall``): 'stop'
            (blocked), 'crush' (crushable walls are passable) or 'destroy'
            (every wall is passable). Each rule has its own zones.

        Returns
        -------
        ndarray of int32, shape ``(height, width)``

        Raises
        ------
        ValueError
            An unknown ``unit`` class or ``walls`` rule (``ArgumentError``).

        Examples
        --------
        >>> from wargrid import Map, SquareGrid, Terrain
        >>> m = Map(SquareGrid(5, 2))
        >>> m.set_terrain([(2, 0), (2, 1)], "water")
        >>> m.zones().tolist()
        [[0, 0, -1, 1, 1], [0, 0, -1, 1, 1]]
        >>> m.zones(unit="naval").tolist()
        [[-1, -1, 0, -1, -1], [-1, -1, 0, -1, -1]]

        A line of sandbags: tanks that crush walls drive over it.

        >>> sandbags = Terrain("sandbags", "S", "#c2b280", wall="crushable")
        >>> m = Map(SquareGrid(5, 1), terrains=m.terrains.with_terrains([sandbags]))
        >>> m.set_overlay([(2, 0)], "sandbags")
        >>> m.zones(unit="tracked").tolist(), m.zones(unit="tracked", walls="crush").tolist()
        ([[0, 0, -1, 1, 1]], [[0, 0, 0, 0, 0]])
        """
        walls = check_walls(walls)
        with self.derived.lock:
            return self.derived.zones(self.unit_class(unit), walls).labels()

    def connected(self, a: Cell, b: Cell, *, unit: str | None = None, walls: str = "stop") -> bool:
        """Whether ``unit`` can travel between cells ``a`` and ``b`` ((x, y) each), in O(1).

        An impassable cell is connected to nothing, not even itself. With
        one-way walls (``set_edge(..., both_ways=False)``) ``True`` means
        "linked", not necessarily reachable both ways; ``False`` is always
        unreachable.

        Parameters
        ----------
        a, b : tuple of int
            Cells as ``(x, y)``.
        unit : str, optional
            The movement class (default: the terrain table's first class).
        walls : str
            What the unit does at a wall terrain: 'stop', 'crush' or 'destroy' (see ``zones``).

        Returns
        -------
        bool

        Raises
        ------
        IndexError
            A cell off the board (``CellError``).
        ValueError
            An unknown ``unit`` class or ``walls`` rule.

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(5, 1))
        >>> m.connected((0, 0), (4, 0))
        True
        >>> m.set_terrain([(2, 0)], "water")
        >>> m.connected((0, 0), (4, 0)), m.connected((2, 0), (2, 0), unit="naval")
        (False, True)
        """
        ax, ay = self.grid.check_cell(a, "a")
        bx, by = self.grid.check_cell(b, "b")
        t = self.grid.topology
        zones = self.derived.locked_zones(self.unit_class(unit), check_walls(walls))
        return zones.connected(t.padded_id(ax, ay), t.padded_id(bx, by))
