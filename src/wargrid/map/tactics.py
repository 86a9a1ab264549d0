"""``Map`` query methods for tactics: thin wrappers over ``wargrid.tactics``."""

from __future__ import annotations

from typing import Any, Iterable, Sequence

import numpy as np

from ..errors import ArgumentTypeError
from .._validate import check_choice
from ..movement.search import Path
from ..tactics.anyangle import AnyAnglePath, any_angle_path
from ..tactics.areas import Area, area, is_hex
from ..tactics.groups import GroupMove, group_move
from ..tactics.influence import Influence, influence_map
from ..tactics.smoothing import SmoothPath, smooth_path
from ..movement.turning import TurnPath, turning_path
from .sight import SightQueries
from .core import Cell

AREA_MASKS = ("none", "sight", "terrain")


class TacticsQueries(SightQueries):
    """Attack areas, path smoothing, group moves and turning vehicles on a ``Map`` (areas use its sight)."""

    def area(
        self,
        shape: str,
        origin: Cell,
        *,
        direction: int = 0,
        length: int | None = None,
        radius: float | None = None,
        width: int | None = None,
        include_origin: bool | None = None,
        mask: str = "none",
        unit: str | None = None,
    ) -> Area:
        """The cells of an attack or effect area around ``origin`` (see ``wargrid.tactics.areas``).

        ``shape``: 'line', 'cross', 'cone'/'sector', 'ring', 'radius' or
        'circle'; ``direction`` a board direction (0..ndir-1). ``mask``:
        'none'; 'sight' keeps the cells ``origin`` sees (``Map.fov``, walls and
        forests block); 'terrain' also drops cells impassable for ``unit``.

        Parameters
        ----------
        shape : str
            'line', 'cross', 'cone'/'sector', 'ring', 'radius' or 'circle'.
        origin : tuple of int
            The ``(x, y)`` the area is around.
        direction : int
            A board direction (0..ndir-1) for lines, cones and sectors.
        length, radius, width : optional
            The shape's size (see ``wargrid.tactics.areas``).
        include_origin : bool, optional
            Whether ``origin`` is part of the area (default: per shape).
        mask : str
            'none', 'sight' or 'terrain' (see above).
        unit : str, optional
            The movement class (default: the terrain table's first class).

        Returns
        -------
        Area

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(6, 1)); m.set_terrain([(3, 0)], "mountains")
        >>> m.area("line", (0, 0), length=5).cells
        [(1, 0), (2, 0), (3, 0), (4, 0), (5, 0)]
        >>> m.area("line", (0, 0), length=5, mask="sight").cells
        [(1, 0), (2, 0), (3, 0)]
        >>> m.area("line", (0, 0), length=5, mask="terrain", unit="cavalry").cells
        [(1, 0), (2, 0)]
        """
        check_choice(mask, "mask", AREA_MASKS)
        a = area(self.grid, shape, origin, direction=direction, length=length, radius=radius, width=width,
                 include_origin=include_origin)
        if mask == "none" or not a.cells:
            return a
        keep = self.fov(a.origin, radius=a.reach, metric="hex" if is_hex(self.grid) else "chebyshev")
        if mask == "terrain":
            keep = keep & self.passable(unit=unit)
        cells = [c for c in a.cells if keep[c[1], c[0]]]
        return Area(a.shape, a.origin, cells, a.mask & keep, a.reach)

    def smooth_path(self, path: Path | Sequence[Cell], *, unit: str | None = None) -> SmoothPath:
        """Straighten ``path`` (a ``Path`` or a list of neighbouring cells) into any-angle waypoints for ``unit``.

        A straight segment is used where every tile it touches is passable
        for ``unit`` (``None``: the path's own class) and it costs no more than
        the stretch of grid path it replaces: never longer, never dearer than
        the grid path (``cost <= grid_cost``); lengths in drawing units. See
        ``wargrid.tactics.smoothing`` for the segment cost rule.

        Parameters
        ----------
        path : Path or sequence of tuple of int
            The grid route: a ``Path`` (``Map.path``) or a list of ``(x, y)``
            cells, each a neighbour of the one before, all passable for ``unit``.
        unit : str, optional
            The movement class whose costs price the segments (default: the
            class of ``path`` when it is a ``Path``, else the terrain table's
            first class).

        Returns
        -------
        SmoothPath
            The waypoints kept (``cells``, a subsequence of ``path``), their
            centres (``points``), ``length`` and ``grid_length`` in drawing
            units, ``cost`` by the segment cost rule and ``grid_cost``, what
            ``path`` costs on the grid.

        Raises
        ------
        ValueError
            When ``path`` is empty, a cell is not a neighbour of the one
            before, or a cell is impassable for ``unit``; also for an unknown
            ``unit``.
        IndexError
            When a cell of ``path`` is off the board.
        TypeError
            When ``path`` is neither a ``Path`` nor a list of ``(x, y)`` cells.

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(7, 4, diagonal=True)); m.set_terrain([(3, 0), (3, 1)], "water")
        >>> s = m.smooth_path(m.path((0, 0), (6, 0), unit="foot"))
        >>> s.cells, round(s.length, 3) <= round(s.grid_length, 3), s.cost <= s.grid_cost
        ([(0, 0), (3, 2), (6, 0)], True, True)
        """
        if unit is None and isinstance(path, Path):
            unit = path.unit
        return smooth_path(self.grid, self.cost_field(unit=unit), path, unit=self.unit_class(unit))

    def any_angle_path(self, start: Cell, goal: Cell, *, unit: str | None = None) -> AnyAnglePath | None:
        """A route of straight segments for ``unit`` from ``start`` to ``goal``, priced by the terrain it crosses
        (Lazy Theta*), or ``None``; never dearer than ``path``. See ``wargrid.tactics.anyangle``.

        Parameters
        ----------
        start, goal : tuple of int
            The ``(x, y)`` cells the route joins.
        unit : str, optional
            The movement class whose costs price the route (default: the
            terrain table's first class).

        Returns
        -------
        AnyAnglePath or None
            The waypoints (``cells``), their centres (``points``), the
            polyline's ``length`` in drawing units and its ``cost`` by the
            segment cost rule; ``None`` when ``goal`` cannot be reached.

        Raises
        ------
        ValueError
            On a wrapped board, or for an unknown ``unit``.
        IndexError
            When ``start`` or ``goal`` is off the board.

        Examples
        --------
        >>> from wargrid import Map, HexGrid
        >>> m = Map(HexGrid(12, 7)); m.set_terrain([(x, y) for x in range(4, 8) for y in range(2, 5)], "forest")
        >>> a = m.any_angle_path((1, 3), (10, 3), unit="cavalry")
        >>> a.cost <= m.path((1, 3), (10, 3), unit="cavalry").cost, len(a.cells) < 11
        (True, True)
        """
        return any_angle_path(self.grid, self.cost_field(unit=unit), start, goal, unit=self.unit_class(unit))

    def group_move(
        self,
        cells: Sequence[Cell],
        goal: Cell,
        *,
        unit: str | None = None,
        occupied: Sequence[Cell] = (),
        keep_formation: bool = False,
        speeds: Sequence[float] | None = None,
    ) -> GroupMove:
        """Send the units of class ``unit`` standing on ``cells`` (a list of ``(x, y)``) to ``goal`` together.

        Distinct destinations spread around the goal (or the group's shape
        with ``keep_formation``, at the speed of the slowest member), one flow
        field for the group, a path for each unit. See ``wargrid.tactics.groups``.

        Parameters
        ----------
        cells : sequence of (x, y)
            Where the units stand.
        goal : tuple of int
            Where the group goes.
        unit : str, optional
            The movement class (default: the terrain table's first class).
        occupied : sequence of (x, y)
            Cells no unit may end on.
        keep_formation : bool
            Keep the group's shape around the goal, moving at the slowest speed.
        speeds : sequence of float, optional
            Each unit's speed (default: all 1).

        Returns
        -------
        GroupMove

        Examples
        --------
        >>> from wargrid import Map, HexGrid
        >>> g = Map(HexGrid(8, 8)).group_move([(0, 0), (1, 0), (0, 1)], (5, 5), unit="foot")
        >>> len(set(g.destinations)), all(p.cells[-1] == d for p, d in zip(g.paths, g.destinations))
        (3, True)
        """
        return group_move(self.grid, self.cost_field(unit=unit), cells, goal, occupied=occupied,
                          keep_formation=keep_formation, speeds=speeds)

    def turning_path(
        self,
        start: Cell,
        goal: Cell,
        *,
        unit: str | None = None,
        facing: int,
        turn_rate: float,
        speed: float = 1.0,
        final_facing: int | None = None,
        pivot: bool = True,
    ) -> TurnPath | None:
        """The fastest path in ticks for a vehicle of class ``unit`` that moves only straight ahead and turns
        ``turn_rate`` facing steps per tick (on the spot with ``pivot``, else only while moving); ``None`` if the
        goal cannot be reached. See ``wargrid.tactics.turning``.

        Parameters
        ----------
        start, goal : tuple of int
            Cells ``(x, y)``.
        unit : str, optional
            The movement class (default: the terrain table's first class).
        facing : int
            The direction the vehicle faces at ``start`` (0..ndir-1).
        turn_rate : float
            Facing steps a tick (``> 0``).
        speed : float
            Cells a tick when moving straight.
        final_facing : int, optional
            The facing required at ``goal``.
        pivot : bool
            May turn on the spot.

        Returns
        -------
        TurnPath or None

        Examples
        --------
        >>> from wargrid import Map, HexGrid
        >>> p = Map(HexGrid(6, 6)).turning_path((0, 2), (4, 2), unit="cavalry", facing=3, turn_rate=1)
        >>> p.facing_steps, p.time, p.track()[-1].facing == p.states[-1][1]
        (3, 7.0, True)
        """
        return turning_path(self.grid, self.cost_field(unit=unit), start, goal, facing=facing, turn_rate=turn_rate,
                            speed=speed, final_facing=final_facing, pivot=pivot)

    def influence(
        self,
        units: Sequence[tuple[Any, ...]],
        *,
        decay: str | float = "linear",
        radius: float = 8.0,
        unit: str | None = None,
        sight: bool = False,
        contested_ratio: float = 0.5,
    ) -> Influence:
        """Per-team influence maps of ``units`` (``(cell, team)`` or ``(cell, team, strength)``), with the
        owner, frontier and contested cells (see ``wargrid.tactics.influence``).

        Parameters
        ----------
        units : sequence of tuple
            ``(cell, team)`` or ``(cell, team, strength)``: the units; ``strength`` defaults to 1, a team is
            any hashable name.
        decay : 'linear' or float
            ``'linear'``: a unit's influence falls linearly to 0 at ``radius``; a number in (0, 1): the
            factor it is multiplied by per movement point.
        radius : float
            The path cost beyond which a unit has no influence (> 0).
        unit : str, optional
            The movement class whose path costs carry the influence (default: the terrain table's first).
        sight : bool
            ``True``: a unit counts only on the cells it sees (``Map.fov``, with elevation).
        contested_ratio : float
            In (0, 1]: a cell is contested when its second team's influence is at least this share of the first's.

        Returns
        -------
        Influence
            Per-team arrays, ``owner``, ``frontier``, ``contested`` and ``tension``; draws itself in a notebook.

        Raises
        ------
        ArgumentTypeError
            ``units`` or one of its entries malformed, a team that is not hashable, ``sight`` not a bool.
        ArgumentError
            A bad ``decay``, ``radius`` or ``contested_ratio``.
        CellError
            A unit's cell off the board.
        UnknownError
            An unknown ``unit`` class.

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(8, 3))
        >>> inf = m.influence([((0, 1), "red", 3.0), ((7, 1), "blue", 1.0)], radius=10, unit="cavalry")
        >>> inf.teams, inf.owner[1].tolist(), inf.frontier[1].nonzero()[0].tolist()
        (('red', 'blue'), [0, 0, 0, 0, 0, 0, 0, 1], [6, 7])
        """
        if not isinstance(sight, (bool, np.bool_)):
            raise ArgumentTypeError(f"sight must be True or False, got {sight!r}")
        board = self.derived.sight_board(True) if sight else None
        return influence_map(self.grid, self.cost_field(unit=unit), units, decay=decay, radius=radius, sight=board,
                             contested_ratio=contested_ratio)
