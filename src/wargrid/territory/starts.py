"""Fair start positions: far apart, with balanced value nearby, in one zone.

Distances are steps over the land (the land graph of
``wargrid.territory._graph``; a small breadth-first kernel of this package, so
start positions do not depend on a unit's movement costs). The starts all
stand in the largest connected zone of the land. They are placed by greedy
farthest-point sampling, then improved one at a time: first each start moves
to the cell farthest from the others (so the smallest distance between two
starts never drops), then, when ``value`` is given, each start moves among
the cells that keep that smallest distance to the one whose value within
``radius`` steps is nearest the others' mean.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..errors import ArgumentError, ArgumentTypeError
from .._validate import check_int, check_seed
from ..grids.boards import Grid
from ._graph import check_players, land_graph
from .feasibility import InfeasibleError

__all__ = ["StartPositions", "start_positions"]


@dataclass(frozen=True, eq=False)
class StartPositions:
    """Start cells (``(x, y)``, one a player) and how fair they are.

    ``min_distance``: the smallest number of steps between two starts (0 for
    one player); ``values``: each start's summed value within ``radius`` steps;
    ``zone_size``: cells of the zone they stand in. Iterating gives the cells.
    """

    cells: tuple[tuple[int, int], ...]
    min_distance: int
    values: NDArray[np.float64]
    radius: int
    zone_size: int

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return iter(self.cells)

    def __len__(self) -> int:
        return len(self.cells)

    def __getitem__(self, i: int) -> tuple[int, int]:
        return self.cells[i]


def _pair_min(nbr: NDArray[np.int64], starts: NDArray[np.int64], zero: NDArray[np.int64]) -> int:
    from .._kernels.territory.graph import bfs

    if starts.size < 2:
        return 0
    nearest: list[int] = []  # each start's distance to the closest other start
    for i in range(starts.size):
        d = bfs(nbr, starts[i : i + 1], zero, -1)
        others = np.delete(starts, i)
        nearest.append(int(d[others].min()))
    return min(nearest)


def start_positions(
    grid: Grid,
    players: int,
    *,
    passable: NDArray[np.bool_] | None = None,
    seed: int = 0,
    radius: int = 3,
    value: ArrayLike | None = None,
) -> StartPositions:
    """Start cells for ``players`` on the ``passable`` cells ((H, W) bool; ``None``:
    every valid cell) of ``grid``, as far apart as possible, with balanced
    ``value`` ((H, W), e.g. resources) within ``radius`` steps.

    >>> from wargrid import SquareGrid
    >>> s = start_positions(SquareGrid(9, 9), 2)
    >>> s.min_distance, sorted(s.cells)
    (16, [(0, 0), (8, 8)])
    """
    from .._kernels.territory.starts import ball_sums
    from .._kernels.territory.graph import bfs, farthest_points, label_chunks

    if not isinstance(grid, Grid):
        raise ArgumentTypeError(f"grid must be a wargrid Grid, got {type(grid).__name__}")
    players = check_players(players)
    rng_seed = check_seed(seed)
    radius = check_int(radius, "radius")
    if radius < 0:
        raise ArgumentError(f"radius must be >= 0 (steps around a start), got {radius}")
    graph = land_graph(grid, grid.mask if passable is None else passable)
    vals = np.zeros(graph.n)
    if value is not None:
        v = np.asarray(value)
        if v.shape != grid.shape:
            raise ArgumentError(f"value must have shape (height, width) = {grid.shape}, got {v.shape}")
        if v.dtype.kind not in "iuf" or v.dtype == bool:
            raise ArgumentTypeError(f"value must be a numeric array, got dtype {v.dtype}")
        vals = np.ascontiguousarray(v.astype(np.float64).ravel()[graph.cells])
        if not np.isfinite(vals).all():
            raise ArgumentError("value must be finite (no NaN or inf) on passable cells")
    nbr = graph.nbr
    zero = np.zeros(graph.n, dtype=np.int64)
    if graph.n == 0:
        raise InfeasibleError(f"{players} players need passable land; the board has none")
    labels, sizes = label_chunks(nbr, zero)
    z = int(np.argmax(sizes))
    pool = np.ascontiguousarray(np.flatnonzero(labels == z))
    if players > pool.size:
        raise InfeasibleError(
            f"{players} players need {players} cells in one zone; the largest zone has {pool.size}"
        )
    rng = np.random.default_rng(rng_seed)
    r = int(pool[rng.integers(pool.size)])
    d = bfs(nbr, np.array([r], dtype=np.int64), zero, -1)
    first = int(pool[np.argmax(d[pool])])
    starts = farthest_points(nbr, pool, players, first)
    inpool = np.zeros(graph.n, dtype=bool)
    inpool[pool] = True
    if players > 1:
        # farther apart, one start at a time: the nearest other start first,
        # then the summed distance to all others (spreads ties evenly)
        fields = np.stack([bfs(nbr, starts[k : k + 1], zero, -1) for k in range(players)]).astype(np.float64)
        fields[fields < 0] = -np.inf
        big = float(graph.n + 1) * players
        for _ in range(20):
            changed = False
            for i in range(players):
                others = np.delete(fields, i, axis=0)
                score = others.min(axis=0) * big + others.sum(axis=0)
                score[~inpool] = -np.inf
                score[np.delete(starts, i)] = -np.inf
                c = int(np.argmax(score))
                if score[c] > score[starts[i]]:
                    starts[i] = c
                    fields[i] = bfs(nbr, starts[i : i + 1], zero, -1)
                    changed = True
            if not changed:
                break
    ball = ball_sums(nbr, vals, radius) if value is not None else np.zeros(graph.n)
    dmin = _pair_min(nbr, starts, zero)
    if value is not None and players > 1:
        for _ in range(20):  # balance the value near each start
            changed = False
            for i in range(players):
                others = np.delete(starts, i)
                d = bfs(nbr, others, zero, -1)
                ok = inpool & (d >= dmin)
                ok[others] = False
                target = ball[others].mean()
                cand = np.flatnonzero(ok)
                gap = np.abs(ball[cand] - target)
                c = int(cand[np.lexsort((-d[cand], gap))[0]])
                if abs(ball[c] - target) < abs(ball[starts[i]] - target) - 1e-12:
                    starts[i] = c
                    changed = True
            if not changed:
                break
    return StartPositions(
        cells=tuple(graph.cell_xy(int(s)) for s in starts),
        min_distance=_pair_min(nbr, starts, zero),
        values=ball[starts].copy(),
        radius=radius,
        zone_size=int(pool.size),
    )
