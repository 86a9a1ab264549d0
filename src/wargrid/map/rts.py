"""``Map`` query methods for rts: thin wrappers over ``wargrid.rts``."""

from __future__ import annotations

from typing import Mapping

import numpy.typing as npt

from ..rts.classic import ClassicPath, classic_options, classic_search
from ..rts.ladder import LadderPath, ladder_path
from .core import Cell, MapCore


class RtsQueries(MapCore):
    """The classic RTS pathfinder and the entry ladder on a ``Map``."""

    def classic_path(
        self,
        start: Cell,
        goal: Cell,
        *,
        unit: str | None = None,
        max_steps: int | None = None,
        follow_limit: int | None = None,
        retries: int = 5,
    ) -> ClassicPath:
        """The classic RTS pathfinder (straight line + edge following + move optimiser) for movement class ``unit``.

        Fast and not optimal; see ``wargrid.rts.classic_path``.

        Parameters
        ----------
        start, goal : tuple of int
            Cells ``(x, y)``.
        unit : str, optional
            The movement class (default: the terrain table's first class).
        max_steps, follow_limit : int, optional
            Bounds of the search and of edge following (see ``wargrid.rts.classic``).
        retries : int
            Landing cells beyond an obstacle tried after the first is walled
            off (the classic engine's five); then the partial path, 'blocked'.

        Returns
        -------
        ClassicPath

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(5, 3)); m.set_terrain([(2, 0), (2, 1)], "water")
        >>> m.classic_path((0, 0), (4, 0), unit="foot").cells[-1]
        (4, 0)
        """
        opts = classic_options(self.grid, start, goal, max_steps=max_steps, follow_limit=follow_limit, retries=retries)
        return classic_search(self.grid, self.cost_field(unit=unit).cell, *opts)

    def ladder_path(
        self,
        start: Cell,
        goal: Cell,
        categories: npt.ArrayLike,
        *,
        unit: str | None = None,
        threshold: object = 2,
        max_threshold: object = 4,
        category_costs: Mapping[object, float] | None = None,
        nearest: bool = False,
        measure: str = "classic",
        threat: npt.ArrayLike | None = None,
        max_threat: float | None = None,
    ) -> LadderPath | None:
        """A* on the entry ladder for movement class ``unit``: ``categories`` is each cell's ``rts.Entry``.

        The threshold starts at ``threshold`` (default MOVING_UNIT) and rises
        to ``max_threshold`` (default TEMP_BLOCKED_BY_FRIEND); see
        ``wargrid.rts.ladder_path``.

        Parameters
        ----------
        start, goal : tuple of int
            Cells ``(x, y)``.
        categories : array_like of int, shape ``(height, width)``
            Each cell's ``rts.Entry``.
        unit : str, optional
            The movement class (default: the terrain table's first class).
        threshold, max_threshold : Entry or int
            The first and the last entry the search accepts.
        category_costs : mapping, optional
            The cost of a category, replacing the table of ``measure``.
        nearest : bool
            Go to the reachable cell nearest an unreachable goal.
        measure : str
            'classic' (a step costs its category's ``rts.CLASSIC_ENTRY_COSTS``;
            the terrain only says passable or not) or 'travel' (terrain cost
            plus ``rts.TRAVEL_ENTRY_COSTS``).
        threat, max_threat : array_like of float and float, optional
            The threat filter: cells whose ``threat`` exceeds ``max_threat`` are blocked.

        Returns
        -------
        LadderPath or None

        Examples
        --------
        >>> import numpy as np
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(3, 1))
        >>> m.ladder_path((0, 0), (2, 0), np.array([[0, 2, 0]]), unit="foot").cost
        4.0
        >>> m.ladder_path((0, 0), (2, 0), np.array([[0, 2, 0]]), unit="foot", measure="travel").cost
        5.0
        """
        return ladder_path(
            self.grid, self.costs(unit=unit), categories, start, goal,
            threshold=threshold, max_threshold=max_threshold, category_costs=category_costs, nearest=nearest,
            measure=measure, threat=threat, max_threat=max_threat,
        )
