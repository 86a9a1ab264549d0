"""``Map`` query methods for movement: thin wrappers over ``wargrid.movement``."""

from __future__ import annotations

import warnings
from typing import Any, Sequence

import numpy as np

from ..errors import ArgumentError, ArgumentTypeError
from .._progress import Progress, check_progress, reporter
from ..movement.clearance import check_size, clearance_map
from ..movement.dispatch import dispatch_path, paths as _paths, shortest_distance
from .._budget import check_table_memory
from ..movement.prepared import Prepared, distance_table
from ..movement.fields import FlowField, MovementRange, flow_field, movement_range
from ..movement.search import Path, check_weight, distance_field
from ..movement.turns import Route, route
from ..movement.zoc import occupied
from .core import Cell, MapCore


TABLE_ROWS_A_STEP = 16
"""Rows (sources) ``Map.distance_table`` computes between two progress reports when it runs one search a row."""


class MovementQueries(MapCore):
    """Paths, ranges, fields and routes of a ``Map``."""

    def path(
        self,
        start: Cell,
        goal: Cell,
        *,
        unit: str | None = None,
        weight: float = 1.0,
        nearest: bool = False,
        enemies: Sequence[tuple[int, int]] | None = None,
        friends: Sequence[tuple[int, int]] | None = None,
        ignore_zoc: bool = False,
        size: int = 1,
    ) -> Path | None:
        """The cheapest path for ``unit`` from ``start`` to ``goal`` (``(x, y)`` cells), or ``None``.

        Exact A* (Jump Point Search on uniform square-8 boards, the prepared
        structure after ``prepare``) with deterministic ties.

        Parameters
        ----------
        start, goal : (x, y)
            The cells the path joins.
        unit : str, optional
            The movement class (default: the terrain table's first class).
        weight : float
            >= 1; above 1 trades optimality (at most ``weight`` times the best cost) for speed.
        nearest : bool
            ``True``: when ``goal`` cannot be reached, the path to the reachable cell nearest it.
        enemies, friends : sequence of (x, y), optional
            Units whose zones of control the path respects (see ``wargrid.movement.zoc``).
        ignore_zoc : bool
            With ``enemies``: a unit that ignores zones of control (skirmishers).
        size : int
            A unit bigger than one cell: a ``size x size`` block anchored at its top-left cell on
            square boards, the hex ball of radius ``size - 1`` on hex boards (see
            ``wargrid.movement.clearance``); the cells of the path are its anchors.

        Returns
        -------
        Path or None
            ``cells``, ``cost`` (and ``xy``, an ``(n, 2)`` array); ``None`` when ``goal`` cannot be reached.

        Raises
        ------
        CellError
            ``start`` or ``goal`` off the board, or an enemy/friend cell off it.
        UnknownError
            An unknown ``unit`` class.
        ArgumentError
            ``weight`` below 1, a bad ``size``, or zones of control with ``size`` > 1.
        ArgumentTypeError
            ``nearest`` or ``ignore_zoc`` not a bool, ``size`` not an integer.

        Examples
        --------
        >>> from wargrid import Map, HexGrid
        >>> m = Map(HexGrid(5, 4)); m.set_terrain([(1, 0), (1, 1), (1, 2)], "water")
        >>> p = m.path((0, 0), (2, 0), unit="foot")
        >>> p.cells, p.cost
        ([(0, 0), (0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (2, 2), (2, 1), (2, 0)], 16.0)
        >>> m.path((0, 0), (1, 0)) is None
        True
        >>> Map(HexGrid(6, 6)).path((1, 1), (4, 4), unit="foot", size=2).cells
        [(1, 1), (1, 2), (2, 3), (3, 3), (4, 4)]
        """
        name = self.unit_class(unit)
        f = self.derived.cost_field(name)
        grid = self.grid
        start = grid.check_cell(start, "start")
        goal = grid.check_cell(goal, "goal")
        w = weight if type(weight) is float and weight == 1.0 else check_weight(weight)
        if not isinstance(nearest, (bool, np.bool_)):
            raise ArgumentTypeError(f"nearest must be True or False, got {nearest!r}")
        k = check_size(grid, size)
        zones = None if nearest else self.derived.locked_zones(name)
        if enemies is None and friends is None:
            if not isinstance(ignore_zoc, (bool, np.bool_)):
                raise ArgumentTypeError(f"ignore_zoc must be True or False, got {ignore_zoc!r}")
            return dispatch_path(grid, f, start, goal, weight=w, nearest=bool(nearest), zones=zones,
                                 prepared=self.derived.prepared(name), size=k)
        if k != 1:
            raise ArgumentError(f"enemies and friends (zones of control) apply to one-cell units only; got size={k}")
        occ = occupied(grid, f, enemies=enemies, friends=friends, ignore_zoc=ignore_zoc)
        if not nearest and not occ.can_stop(goal):
            return None
        p = dispatch_path(grid, occ.costs, start, goal, weight=w, nearest=bool(nearest), stop=occ.stop, zones=zones)
        if p is not None and nearest and not occ.can_stop(p.end):
            return None
        return p

    def distance_field(
        self,
        sources: Any,
        *,
        unit: str | None = None,
        max_cost: float | None = None,
        size: int = 1,
    ) -> np.ndarray:
        """``(height, width)`` cheapest cost from the nearest of ``sources`` (``(x, y)`` or a list) to every cell.

        ``inf`` where unreachable or dearer than ``max_cost``.

        Parameters
        ----------
        sources : (x, y) or sequence of (x, y)
            Where the costs start (0).
        unit : str, optional
            The movement class (default: the terrain table's first class).
        max_cost : float, optional
            Stop the search past this cost.
        size : int
            A unit bigger than one cell, as in ``path`` (the cells are its anchors).

        Returns
        -------
        ndarray of float64, shape ``(height, width)``

        Raises
        ------
        IndexError
            A cell off the board (``CellError``).
        ValueError
            An unknown ``unit`` class, or ``size`` below 1 or too large for the board.
        TypeError
            ``size`` not an integer.

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> Map(SquareGrid(3, 1)).distance_field((0, 0), unit="cavalry").tolist()
        [[0.0, 1.0, 2.0]]
        """
        return distance_field(self.grid, self.cost_field(unit=unit), sources, max_cost=max_cost, size=size)

    def paths(
        self,
        pairs: Sequence[tuple[tuple[int, int], tuple[int, int]]],
        *,
        unit: str | None = None,
        weight: float = 1.0,
        workers: int = 2,
        progress: Progress = True,
        size: int = 1,
    ) -> list[Path | None]:
        """``path`` for many ``(start, goal)`` pairs at once, on ``workers`` threads (``size``: as in ``path``).

        Parameters
        ----------
        pairs : sequence of ((x, y), (x, y))
            ``(start, goal)`` pairs.
        unit : str, optional
            The movement class (default: the terrain table's first class).
        weight : float
            As in ``path``.
        workers : int
            Threads, 1 to ``wargrid.movement.dispatch.MAX_WORKERS`` (used when a query is long enough to pay).
        progress : bool or callable
            ``True``: a bar on a terminal for long batches; a callable gets ``(done, total)`` paths.
        size : int
            The unit's footprint, as in ``path``.

        Returns
        -------
        list of Path or None
            One a pair, in order; ``None`` where the goal cannot be reached.

        Raises
        ------
        IndexError
            A cell off the board (``CellError``).
        ValueError
            An unknown ``unit`` class.
        ResourceError
            Threads whose search states memory cannot hold.

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> [p.cost for p in Map(SquareGrid(4, 4)).paths([((0, 0), (3, 3)), ((0, 0), (0, 1))], unit="cavalry")]
        [6.0, 1.0]
        """
        name = self.unit_class(unit)
        return _paths(self.grid, self.derived.cost_field(name), pairs, weight=weight, workers=workers,
                      zones=self.derived.locked_zones(name), prepared=self.derived.prepared(name), progress=progress,
                      size=size)

    def clearance(self, *, unit: str | None = None) -> np.ndarray:
        """``(height, width)`` clearance for ``unit``: the largest ``size`` that can stand on each cell (0: impassable).

        See ``wargrid.movement.clearance`` for the footprints (square blocks
        anchored at their top-left cell, hex balls centred on their cell).

        Parameters
        ----------
        unit : str, optional
            The movement class whose passable cells count (default: the terrain table's first).

        Returns
        -------
        numpy.ndarray
            ``(height, width)`` integers: 0 on impassable cells, else the largest footprint size that fits.

        Raises
        ------
        UnknownError
            An unknown ``unit`` class.

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(4, 3)); m.set_terrain([(2, 1)], "water")
        >>> m.clearance(unit="foot").tolist()
        [[2, 1, 1, 1], [2, 1, 0, 1], [1, 1, 1, 1]]
        """
        return clearance_map(self.grid, self.cost_field(unit=unit))

    def prepare(self, *, unit: str | None = None, progress: Progress = True,
                customizable: bool | None = None) -> Prepared:
        """Prepare exact fast path and distance queries for ``unit`` (a customizable contraction hierarchy; see ``wargrid.movement.cch``).

        ``path``, ``paths``, ``distance`` and ``distance_table`` use it from
        then on. The board's order and shortcut structure are built by the
        first call and shared by every class prepared after it, so each
        further class costs a customization only; an edit (cheaper or
        dearer) is customized in before the next query, so answers stay
        exact without a rebuild. Queries search every arc until they have
        cost as much as the query arcs that speed them up, which are then
        built; ``build_query_arcs()`` on the returned structure builds them
        at once, and ``prepare_edits()`` makes what the class's first edit
        would (a game that edits its board calls both while it loads).
        Calling ``prepare`` again customizes the class again from its
        current costs.

        Parameters
        ----------
        unit : str, optional
            The movement class (default: the terrain table's first class).
        progress : bool or callable, default True
            ``True``: a bar on stderr when that is a terminal and the build
            takes more than a second; ``False`` or ``None``: nothing; a
            callable is called as ``progress(done, total)`` with integer
            counts (``done`` never decreasing, the last call ``done ==
            total``): two steps, the board's structure and the class's
            customization.
        customizable : bool, optional
            Deprecated, ignored: every prepared structure is customizable
            (a ``DeprecationWarning`` when given).

        Returns
        -------
        CustomizedPaths
            The structure (``build_seconds``, ``bytes``, ``arcs``, ``structure``); the map keeps it.

        Raises
        ------
        ValueError
            An unknown ``unit`` class.
        TypeError
            ``progress`` is not ``True``, ``False``, ``None`` or a callable.
        MemoryError
            The build would need more memory than is available
            (``PrepareMemoryError``, raised before anything is allocated).

        Examples
        --------
        >>> from wargrid import Map, HexGrid
        >>> m = Map(HexGrid(8, 6)); m.set_terrain([(3, 1), (3, 2), (3, 3)], "water")
        >>> seen = []
        >>> pp = m.prepare(unit="foot", progress=lambda done, total: seen.append((done, total)))
        >>> pp.unit, m.path((0, 2), (6, 2), unit="foot").cost == m.distance((0, 2), (6, 2), unit="foot")
        ('foot', True)
        >>> seen[0], seen[-1]
        ((0, 2), (2, 2))
        >>> m.prepare(unit="cavalry").structure is pp.structure
        True
        """
        name = self.unit_class(unit)
        if customizable is not None:
            warnings.warn("Map.prepare(customizable=...) is deprecated and ignored: every prepared structure is "
                          "customizable now; drop the argument", DeprecationWarning, stacklevel=2)
        return self.derived.prepare(name, check_progress(progress))

    def distance(self, a: Cell, b: Cell, *, unit: str | None = None, size: int = 1) -> float:
        """The cheapest cost for ``unit`` from cell ``a`` to cell ``b`` (``(x, y)``), ``inf`` when unreachable.

        Parameters
        ----------
        a, b : tuple of int
            Cells as ``(x, y)``.
        unit : str, optional
            The movement class (default: the terrain table's first class).
        size : int
            A unit bigger than one cell, as in ``path`` (the cells are its anchors).

        Returns
        -------
        float

        Raises
        ------
        IndexError
            A cell off the board (``CellError``).
        ValueError
            An unknown ``unit`` class, or ``size`` below 1 or too large for the board.
        TypeError
            ``size`` not an integer.

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(5, 1)); m.set_terrain([(2, 0)], "hills")
        >>> m.distance((0, 0), (4, 0), unit="foot"), m.distance((0, 0), (4, 0), unit="naval")
        (9.0, inf)
        """
        name = self.unit_class(unit)
        grid = self.grid
        a = grid.check_cell(a, "a")
        b = grid.check_cell(b, "b")
        k = check_size(grid, size)  # zones of one cell stay right for a larger unit (it reaches less)
        return shortest_distance(grid, self.derived.cost_field(name), a, b, zones=self.derived.locked_zones(name),
                                 prepared=self.derived.prepared(name), size=k)

    def distance_table(
        self, sources: Sequence[Cell], targets: Sequence[Cell], *, unit: str | None = None, progress: Progress = True,
        size: int = 1,
    ) -> np.ndarray:
        """``(len(sources), len(targets))`` cheapest costs for ``unit`` from every source to every target (``inf``: unreachable).

        Uses the prepared structure when ``prepare`` built one (buckets along
        the elimination tree; see ``wargrid.movement.prepared.distance_table``).

        Parameters
        ----------
        sources, targets : sequence of (x, y)
            At least one cell each.
        unit : str, optional
            The movement class (default: the terrain table's first class).
        progress : bool or callable
            ``True``: a bar on a terminal for long tables; a callable gets ``(done, total)`` source rows.
        size : int
            A unit bigger than one cell, as in ``path`` (the cells are its anchors).

        Returns
        -------
        ndarray of float64, shape ``(len(sources), len(targets))``

        Raises
        ------
        IndexError
            A cell off the board (``CellError``).
        ValueError
            An unknown ``unit`` class, or ``size`` below 1 or too large for the board.
        TypeError
            ``size`` not an integer.

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> Map(SquareGrid(4, 4)).distance_table([(0, 0), (3, 3)], [(3, 0), (0, 0)], unit="cavalry").tolist()
        [[3.0, 0.0], [3.0, 6.0]]
        """
        name = self.unit_class(unit)
        f = self.derived.cost_field(name)
        prepared = self.derived.prepared(name)
        k = check_size(self.grid, size)
        rows = self.grid.check_cells(sources, "sources")  # checked here: the rows go in parts below
        targets = self.grid.check_cells(targets, "targets")
        check_table_memory(len(rows), len(targets))
        check_progress(progress)
        if (prepared is not None and k == 1) or len(rows) <= TABLE_ROWS_A_STEP:
            # one call: the prepared bucket method shares its target side between all rows
            with reporter(progress, len(rows), "distance table", unit="row"):
                return distance_table(self.grid, f, rows, targets, prepared=prepared, size=k)
        parts = []
        with reporter(progress, len(rows), "distance table", unit="row") as tick:
            for i in range(0, len(rows), TABLE_ROWS_A_STEP):
                parts.append(distance_table(self.grid, f, rows[i:i + TABLE_ROWS_A_STEP], targets, size=k))
                tick(i + len(parts[-1]))
        return np.vstack(parts)

    def movement_range(
        self,
        start: Cell,
        max_cost: float,
        *,
        unit: str | None = None,
        attack_range: int = 0,
        enemies: Sequence[tuple[int, int]] | None = None,
        friends: Sequence[tuple[int, int]] | None = None,
        ignore_zoc: bool = False,
        size: int = 1,
    ) -> MovementRange:
        """Every cell ``unit`` can reach from ``start`` spending at most ``max_cost`` movement points.

        Returns a ``MovementRange``: ``.cells()``, ``.cost`` and ``.remaining``
        (``(height, width)``; ``-inf`` remaining where out of reach),
        ``.path_to(cell)`` and ``.attack`` (cells within ``attack_range``
        steps of a reachable cell). ``enemies`` / ``friends``: zones of control.
        ``size``: a unit bigger than one cell, as in ``path`` (the cells are anchors).

        Parameters
        ----------
        start : tuple of int
            The unit's ``(x, y)``.
        max_cost : float
            Movement points to spend.
        unit : str, optional
            The movement class (default: the terrain table's first class).
        attack_range : int
            Steps of attack reach around every reachable cell.
        enemies, friends : sequence of (x, y), optional
            Units whose zones of control stop movement (enemies) or whose cells cannot be ended on (friends).
        ignore_zoc : bool
            Move through enemy zones of control (skirmishers).

        Returns
        -------
        MovementRange

        Raises
        ------
        IndexError
            A cell off the board (``CellError``).
        ValueError
            An unknown ``unit`` class.

        Examples
        --------
        >>> from wargrid import Map, HexGrid
        >>> r = Map(HexGrid(5, 5)).movement_range((2, 2), 2, unit="cavalry")
        >>> len(r.cells()), r.path_to((2, 0)).cells
        (19, [(2, 2), (2, 1), (2, 0)])
        >>> len(Map(HexGrid(5, 5)).movement_range((2, 2), 2, unit="cavalry", size=2).cells())
        9
        """
        return movement_range(
            self.grid, self.cost_field(unit=unit), start, max_cost, attack_range=attack_range,
            enemies=enemies, friends=friends, ignore_zoc=ignore_zoc, size=size,
        )

    def flow_field(self, goals: Any, *, unit: str | None = None, size: int = 1) -> FlowField:
        """The next step toward ``goals`` (one ``(x, y)`` or a list: the nearest) from every cell, for many units.

        Parameters
        ----------
        goals : (x, y) or sequence of (x, y)
            The goals; each cell steps toward the nearest.
        unit : str, optional
            The movement class (default: the terrain table's first class).
        size : int
            A unit bigger than one cell, as in ``path`` (the cells are its anchors).

        Returns
        -------
        FlowField

        Raises
        ------
        IndexError
            A cell off the board (``CellError``).
        ValueError
            An unknown ``unit`` class, or ``size`` below 1 or too large for the board.
        TypeError
            ``size`` not an integer.

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> f = Map(SquareGrid(4, 4, diagonal=True)).flow_field((3, 3), unit="cavalry")
        >>> f.step((0, 0)), f.path_from((1, 1)).cells
        ((1, 1), [(1, 1), (2, 2), (3, 3)])
        """
        return flow_field(self.grid, self.cost_field(unit=unit), goals, size=size)

    def route(
        self,
        start: Cell,
        goal: Cell,
        *,
        unit: str | None = None,
        points_per_turn: float,
        points_left: float | None = None,
        enemies: Sequence[tuple[int, int]] | None = None,
        ignore_zoc: bool = False,
    ) -> Route | None:
        """A multi-turn route: the fewest turns from ``start`` to ``goal``, each cell with its turn.

        Points left at the end of a turn are lost when the next step costs
        more (see ``wargrid.movement.turns``); entering an enemy's zone of
        control ends the turn.

        Parameters
        ----------
        start, goal : tuple of int
            Cells ``(x, y)``.
        unit : str, optional
            The movement class (default: the terrain table's first class).
        points_per_turn : float
            Movement points a turn (``> 0``).
        points_left : float, optional
            Points left in the current turn (default: a full turn).
        enemies : sequence of (x, y), optional
            Enemy units; entering their zone of control ends the turn.
        ignore_zoc : bool
            Move through enemy zones of control.

        Returns
        -------
        Route or None
            ``None`` when the goal cannot be reached.

        Raises
        ------
        IndexError
            A cell off the board (``CellError``).
        ValueError
            An unknown ``unit`` class.

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> r = Map(SquareGrid(4, 1)).route((0, 0), (3, 0), unit="foot", points_per_turn=4)
        >>> list(zip(r.cells, r.turn_at)), r.turns
        ([((0, 0), 0), ((1, 0), 0), ((2, 0), 0), ((3, 0), 1)], 2)
        """
        return route(
            self.grid, self.cost_field(unit=unit), start, goal, points_per_turn=points_per_turn,
            points_left=points_left, enemies=enemies, ignore_zoc=ignore_zoc,
        )
