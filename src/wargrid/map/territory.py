"""``Map`` query methods for territory: thin wrappers over ``wargrid.territory``."""

from __future__ import annotations

from typing import Sequence

import numpy as np
import numpy.typing as npt

from .._progress import Progress
from ..territory import Partition, StartPositions, partition, start_positions
from .core import Cell, MapCore


class TerritoryQueries(MapCore):
    """Fair partitions and start positions of a ``Map``."""

    def partition(
        self,
        players: int,
        *,
        mode: str = "compact",
        max_chunk: int | None = None,
        min_chunk: int | None = None,
        weights: npt.ArrayLike | None = None,
        starts: Sequence[Cell] | None = None,
        unit: str | None = None,
        seed: int = 0,
        method: str | None = None,
        progress: Progress = True,
    ) -> Partition:
        """Divide the land ``unit`` can stand on between ``players`` with exact balance.

        See ``wargrid.territory.partition`` for how each mode works.

        Parameters
        ----------
        players : int
            How many players share the land (>= 1).
        mode : str
            'compact' (one region a player) or 'scattered' (chunks of touching
            cells, at most ``max_chunk`` each).
        max_chunk : int, optional
            The largest chunk of one player's touching cells ('scattered' only, required there).
        min_chunk : int, optional
            The smallest chunk allowed ('scattered' only, ``<= max_chunk``).
        weights : array_like of float, shape ``(height, width)``, optional
            What each cell is worth (>= 0): the summed weights are balanced instead of cell counts.
        starts : sequence of (int, int), optional
            One start cell a player, which stays its own.
        unit : str, optional
            The movement class whose passable cells are shared (default: the terrain table's first class).
        seed : int
            The same seed gives the same partition.
        method : str, optional
            The 'scattered' strategy (see ``wargrid.territory.chunks.METHODS``;
            'greedy' is the one-cell colouring).
        progress : bool or callable
            Progress reporting, as everywhere in the library.

        Returns
        -------
        Partition
            ``owners`` (``(height, width)``, ``-1`` unowned) and the ``report``
            (cells, chunks, the chunk-size histogram).

        Raises
        ------
        ValueError
            A bad option (``ArgumentError``), or a request that is provably
            impossible (``InfeasibleError``).
        RuntimeError
            The search failed to meet the request (``PartitionError``).

        Examples
        --------
        >>> from wargrid import HexGrid, Map
        >>> m = Map(HexGrid(8, 6)); m.set_terrain([(3, 2), (4, 2)], "water")
        >>> p = m.partition(4)
        >>> sorted(p.report.cells.tolist()), int(p.owners[2, 3])
        ([11, 11, 12, 12], -1)
        """
        return partition(
            self.grid,
            players,
            passable=self.passable(unit=unit),
            mode=mode,
            max_chunk=max_chunk,
            min_chunk=min_chunk,
            weights=weights,
            starts=starts,
            seed=seed,
            method=method,
            progress=progress,
        )

    def start_positions(
        self,
        players: int,
        *,
        unit: str | None = None,
        seed: int = 0,
        radius: int = 3,
        value: npt.ArrayLike | None = None,
    ) -> StartPositions:
        """Start cells for ``players`` on land ``unit`` can stand on: far apart (in
        steps), with balanced ``value`` within ``radius``, all in the largest zone.

        Parameters
        ----------
        players : int
            How many starts.
        unit : str, optional
            The movement class (default: the terrain table's first class).
        seed : int
            The same seed gives the same starts.
        radius : int
            Steps around a start whose ``value`` is balanced.
        value : array_like of float, shape ``(height, width)``, optional
            What a cell is worth (default: 1 a passable cell).

        Returns
        -------
        StartPositions

        Examples
        --------
        >>> from wargrid import SquareGrid, Map
        >>> s = Map(SquareGrid(9, 9)).start_positions(2)
        >>> s.min_distance, len(s)
        (16, 2)
        """
        return start_positions(
            self.grid,
            players,
            passable=self.passable(unit=unit),
            seed=seed,
            radius=radius,
            value=value,
        )
