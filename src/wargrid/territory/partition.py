"""Divide a board's land fairly between players.

Balance is exact: every player's cell count (or summed weight) is within one
cell (one cell's largest weight) of every other's. Two modes:

``'compact'``
    Each player's land is one compact region. Players are first shared out
    between the land's zones (islands) in proportion to their size (largest
    remainder); within a zone, starts are spread by farthest-point sampling.
    Regions grow from the starts together, the lightest player taking the next
    cell of its breadth-first frontier; starts are moved to the innermost cell
    of their region. Then each cell goes to the player minimising its steps to
    the player's start plus a per-player bias, the biases tuned (a few Newton
    steps: excess weight over border weight) until the weights nearly even out:
    a balanced Voronoi split, whose regions are connected and whose borders are
    short. (With given ``starts``, or past 2**25 players x cells, the growth is
    run again instead.) Zones too small to get
    a player of their own are given whole to the lightest players. Players left
    heavy or light (a player walled in early, a zone's rounding) are evened out
    by moving one cell along each link of a chain of neighbouring players from
    the heaviest to the lightest, each move keeping its donor in one piece; only
    when no chain exists (players on different islands) does a player receive a
    cell it does not touch, so a player's land spans islands only when the
    balance needs it. Last, boundary refinement moves or swaps border cells
    between neighbouring players when that cuts fewer sides, never breaking the
    balance or a player's connectedness. On land with holes a connected
    balanced split may not exist (think of a cell with three dead-end
    corridors): the balance always holds and ``report.chunks`` counts each
    player's pieces.

``'scattered'`` (with ``max_chunk=K``, optionally ``min_chunk``)
    No connected chunk of one player's cells is larger than ``K`` (nor smaller
    than ``min_chunk``); by default the chunks use the cap (round-robin chunk
    growth); ``method='greedy'`` gives the one-cell colouring. See
    ``wargrid.territory.chunks``. ``report.chunk_histogram`` counts the chunks
    of each size.

Which cells touch: two passable cells touch when one is a neighbour of the
other in the board's topology directions (wrap included). On square-8 boards
diagonal neighbours touch whatever the corner rule, so a chunk cap counts
diagonal contacts and a region may hang together through a corner; edge costs
(walls, rivers) do not separate cells. Owned land is the land ``unit`` can
stand on (finite entry cost).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
from numpy.typing import NDArray

from .._progress import Progress, ticker
from ..errors import ArgumentError, ArgumentTypeError
from .._validate import check_choice, check_int, check_seed
from ..grids.boards import Grid
from .._display import Shown
from ._graph import (
    Deadline,
    LandGraph,
    PartitionError,
    balance_slack,
    check_players,
    check_timeout,
    check_weights,
    land_graph,
    unit_weights,
)
from .feasibility import InfeasibleError, check_feasibility

__all__ = ["Partition", "PartitionReport", "PartitionError", "partition", "MODES"]

MODES = ("compact", "scattered")
_VORONOI_CELLS = 1 << 25  # players * cells up to which the distance fields (int64) are kept
_RETRIES = 6  # more attempts when a player's land comes out in pieces ...
_RETRY_CELLS = 1 << 16  # ... on boards up to this many cells of land


@dataclass(frozen=True, eq=False)
class PartitionReport:
    """How fair and how shapely a partition is; arrays are indexed by player.

    ``perimeter`` counts the sides of a player's cells that face no cell of its
    own (the board's edge, impassable ground or another player's land);
    ``compactness`` is ``perimeter / sqrt(cells)`` (lower is more compact: 4 for
    a square on a square-4 board). ``chunks`` is the number of connected pieces
    of each player's land, ``largest_chunk`` the biggest. ``starts`` holds each
    player's start: the given one, else the innermost cell of its land (``None``
    for a player left without land, possible only with zero weights).
    ``mean_distance`` is the mean number of steps over the land from the
    player's start to its cells (``inf`` when some cannot be reached). ``spread`` is
    ``max(weight) - min(weight)``, balanced when at most ``tolerance``.
    ``chunk_histogram[s]`` is the number of chunks of ``s`` cells (all players;
    index 0 is unused and 0).
    """

    players: int
    mode: str
    method: str
    cells: np.ndarray
    weight: np.ndarray
    spread: float
    tolerance: float
    largest_chunk: np.ndarray
    chunks: np.ndarray
    perimeter: np.ndarray
    compactness: np.ndarray
    starts: tuple[tuple[int, int] | None, ...]
    mean_distance: np.ndarray
    seconds: float
    chunk_histogram: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))

    @property
    def mean_chunk(self) -> float:
        """The mean number of cells in a chunk (over every player's chunks).

        >>> from wargrid import HexGrid
        >>> r = partition(HexGrid(8, 6), 3, mode="scattered", max_chunk=4, seed=1).report
        >>> bool(r.mean_chunk == r.cells.sum() / r.chunks.sum()), r.mean_chunk > 2
        (True, True)
        """
        total = int(self.chunks.sum())
        return float(self.cells.sum()) / total if total else 0.0

    @property
    def balanced(self) -> bool:
        """Every player's weight within ``tolerance`` of every other's (give or
        take rounding: a billionth of the total weight)."""
        return self.spread <= self.tolerance * (1 + 1e-9) + 1e-9 * float(self.weight.sum())


@dataclass(frozen=True, eq=False)
class Partition(Shown):
    """``owners``: an int ``(height, width)`` array of player indices (``-1``: no one's,
    impassable or off the board), and the ``report``; a notebook shows the territories on ``grid``."""

    owners: np.ndarray
    report: PartitionReport
    grid: Grid | None = field(default=None, repr=False, compare=False)



# -- shared steps -------------------------------------------------------------------


def _tolerance(w: np.ndarray) -> float:
    return float(w.max()) if w.size else 0.0


def _spread_seeds(graph: LandGraph, w: np.ndarray, players: int, rng: np.random.Generator) -> np.ndarray:
    """One start per player: players shared between zones by weight (largest
    remainder, at most one per cell), spread in each zone by farthest points."""
    from .._kernels.territory.graph import bfs, farthest_points, label_chunks

    zero = np.zeros(graph.n, dtype=np.int64)
    labels, sizes = label_chunks(graph.nbr, zero)
    zw = np.bincount(labels, weights=w, minlength=sizes.size)
    if zw.sum() <= 0:
        zw = sizes.astype(np.float64)
    share = players * zw / zw.sum()
    alloc = np.minimum(np.floor(share).astype(np.int64), sizes)
    rest = share - alloc
    while alloc.sum() < players:
        room = alloc < sizes
        cand = np.flatnonzero(room)
        k = cand[np.lexsort((-sizes[cand], -rest[cand]))[0]]
        alloc[k] += 1
        rest[k] = -1.0
    seeds = []
    order = np.argsort(labels, kind="stable")
    bounds = np.concatenate(([0], np.cumsum(sizes)))
    for z in np.flatnonzero(alloc):
        pool = np.ascontiguousarray(order[bounds[z] : bounds[z + 1]])
        r = int(pool[rng.integers(pool.size)])
        d = bfs(graph.nbr, np.array([r], dtype=np.int64), zero, -1)
        first = int(pool[np.argmax(d[pool])])
        seeds.extend(farthest_points(graph.nbr, pool, int(alloc[z]), first).tolist())
    return np.array(seeds, dtype=np.int64)


def _compact(graph: LandGraph, w: np.ndarray, players: int, seeds: np.ndarray | None, rng: np.random.Generator, tol: float, deadline: Deadline) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Owners and starts of a compact split; on connected land (one zone), when a
    player ends in more than one piece, a few more attempts from other starts
    keep the split with the fewest pieces (then the shortest borders)."""
    from .._kernels.territory.growth import cut_sides

    owner, out = _compact_once(graph, w, players, seeds, rng, tol)
    if seeds is not None or players == 1 or graph.n > _RETRY_CELLS:
        return owner, out
    best = (_pieces(graph, owner), int(cut_sides(graph.nbr, owner, players).sum()))
    if best[0] <= players or _pieces(graph, np.zeros(graph.n, dtype=np.int64)) > 1:
        return owner, out
    for _ in range(_RETRIES):
        if best[0] <= players:
            break
        deadline.check()
        alt, alt_out = _compact_once(graph, w, players, None, rng, tol)
        score = (_pieces(graph, alt), int(cut_sides(graph.nbr, alt, players).sum()))
        if score < best:
            best, owner, out = score, alt, alt_out
    return owner, out


def _compact_once(graph: LandGraph, w: np.ndarray, players: int, seeds: np.ndarray | None, rng: np.random.Generator, tol: float) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    from .._kernels.territory.growth import balanced_voronoi, distance_fields, grow, inner_cells
    from .._kernels.territory.graph import label_chunks
    from .._kernels.territory.balance import rebalance, refine

    nbr = graph.nbr
    fixed = seeds is not None
    if seeds is None:
        seeds = _spread_seeds(graph, w, players, rng)
    owner = np.full(graph.n, -1, dtype=np.int64)
    grow(nbr, w, seeds, owner)
    if not fixed:
        seeds = inner_cells(nbr, owner, players, graph.xs, graph.ys)
        if players * graph.n <= _VORONOI_CELLS:
            # fields reach this far past the nearest start: room enough for the biases
            fields = distance_fields(nbr, seeds, max(16, int(0.25 * np.sqrt(graph.n / players))))
            # near enough: the rebalancing moves a few border cells for the rest
            zone, _ = label_chunks(nbr, np.zeros(graph.n, dtype=np.int64))
            good = max(tol, 0.005 * float(w.sum()) / players)
            owner = balanced_voronoi(nbr, fields, w, 10, 1.0, good, zone, seeds)
            got = np.bincount(owner[owner >= 0], minlength=players)
            for k in np.flatnonzero(got == 0).tolist():  # a start outbid: give it back
                owner[seeds[k]] = k
        else:
            owner[:] = -1
            grow(nbr, w, seeds, owner)
    left = owner < 0
    if left.any():
        # zones without a start: each, heaviest first, to the lightest player
        labels, _ = label_chunks(nbr, np.where(left, 0, 1).astype(np.int64))
        W = np.bincount(owner[~left], weights=w[~left], minlength=players)
        zl = labels[left]
        zw = np.bincount(zl, weights=w[left])
        zs = np.unique(zl)
        to = np.zeros(zw.size, dtype=np.int64)
        for z in zs[np.argsort(-zw[zs], kind="stable")].tolist():
            k = int(np.argmin(W))
            to[z] = k
            W[k] += zw[z]
        owner[left] = to[zl]
    W = np.bincount(owner, weights=w, minlength=players).astype(np.float64)
    pinned = np.zeros(graph.n, dtype=np.bool_)
    if fixed:
        pinned[seeds] = True
    slack = balance_slack(tol, w)
    rebalance(nbr, w, owner, W, slack, 8 * graph.n + 100, pinned, True)  # every argument given: one compiled signature
    refine(nbr, w, owner, W, slack, 30, pinned)
    if not np.all(w == w[0]):
        # weights: even out further where chains of moves keep every player whole
        rebalance(nbr, w, owner, W, 0.0, graph.n, pinned, False)
    if not fixed:
        seeds = inner_cells(nbr, owner, players, graph.xs, graph.ys)
    if not fixed and players > 1 and graph.n == graph.grid.size and _pieces(graph, owner) > players:
        # a full rectangle always has a connected balanced split: cut a
        # boustrophedon path (a Hamiltonian path on every board kind) into runs
        alt, alt_seeds = _snake(graph, w, players, slack)
        if _pieces(graph, alt) < _pieces(graph, owner):
            owner, seeds = alt, alt_seeds
    return owner, seeds


def _pieces(graph: LandGraph, owner: np.ndarray) -> int:
    from .._kernels.territory.graph import label_chunks

    return int(label_chunks(graph.nbr, owner)[1].size)


def _snake(graph: LandGraph, w: np.ndarray, players: int, slack: float) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    from .._kernels.territory.growth import inner_cells
    from .._kernels.territory.balance import rebalance, refine

    h, wd = graph.grid.shape
    ids = np.arange(h * wd).reshape(h, wd)
    ids[1::2] = ids[1::2, ::-1]
    order = graph.node_of[ids.ravel()]
    total = float(w.sum())
    part = np.arange(graph.n) * players // graph.n
    if total > 0 and not np.all(w == w[0]):
        cum = np.cumsum(w[order]) - w[order] / 2
        byweight = np.minimum((cum * players / total).astype(np.int64), players - 1)
        if np.unique(byweight).size == players:
            part = byweight
    owner = np.empty(graph.n, dtype=np.int64)
    owner[order] = part
    pinned = np.zeros(graph.n, dtype=np.bool_)
    W = np.bincount(owner, weights=w, minlength=players).astype(np.float64)
    rebalance(graph.nbr, w, owner, W, slack, 8 * graph.n + 100, pinned, True)
    refine(graph.nbr, w, owner, W, slack, 30, pinned)
    return owner, inner_cells(graph.nbr, owner, players, graph.xs, graph.ys)


def _report(graph: LandGraph, w: np.ndarray, owner: np.ndarray, players: int, seeds: np.ndarray, mode: str, method: str, tol: float, seconds: float) -> PartitionReport:
    from .._kernels.territory.growth import cut_sides, mean_steps
    from .._kernels.territory.graph import label_chunks

    cells = np.bincount(owner, minlength=players)
    weight = np.bincount(owner, weights=w, minlength=players).astype(np.float64)
    labels, sizes = label_chunks(graph.nbr, owner)
    first = np.zeros(sizes.size, dtype=np.int64)
    first[labels[::-1]] = np.arange(graph.n - 1, -1, -1)
    chunk_owner = owner[first]
    largest = np.zeros(players, dtype=np.int64)
    np.maximum.at(largest, chunk_owner, sizes)
    chunks = np.bincount(chunk_owner, minlength=players)
    per = cut_sides(graph.nbr, owner, players)
    with np.errstate(divide="ignore", invalid="ignore"):
        compact = np.where(cells > 0, per / np.sqrt(np.maximum(cells, 1)), np.inf)
    mean = mean_steps(graph.nbr, owner, np.asarray(seeds, dtype=np.int64))
    return PartitionReport(
        players=players,
        mode=mode,
        method=method,
        cells=cells,
        weight=weight,
        spread=float(weight.max() - weight.min()),
        tolerance=tol,
        largest_chunk=largest,
        chunks=chunks,
        perimeter=per,
        compactness=compact,
        starts=tuple(graph.cell_xy(int(s)) if s >= 0 else None for s in seeds),
        mean_distance=mean,
        seconds=seconds,
        chunk_histogram=np.bincount(sizes, minlength=1).astype(np.int64),
    )


def partition(
    grid: Grid,
    players: int,
    *,
    passable: np.ndarray | None = None,
    mode: str = "compact",
    max_chunk: int | None = None,
    min_chunk: int | None = None,
    weights: np.typing.ArrayLike | None = None,
    starts: Sequence[tuple[int, int]] | None = None,
    seed: int = 0,
    method: str | None = None,
    timeout: float | None = None,
    progress: Progress = True,
) -> Partition:
    """Divide the ``passable`` cells ((H, W) bool; ``None``: every valid cell) of
    ``grid`` between ``players``.

    ``weights`` ((H, W), >= 0) balances summed weight instead of cell counts;
    ``starts`` (one ``(x, y)`` per player) fixes each player's start, which stays
    its own; ``method`` picks the 'scattered' strategy (see
    ``wargrid.territory.chunks.METHODS``; ``'greedy'``: the one-cell
    colouring); ``min_chunk`` (scattered only, ``<= max_chunk``) is the
    smallest chunk allowed. Raises ``InfeasibleError`` for
    provably impossible requests and ``PartitionError`` when the search fails.

    The work is bounded whatever the request: a compact split runs a fixed
    number of steps; a scattered one makes at most six attempts of at most
    ``300 + 4 * max_chunk`` repair rounds each, dropping an attempt that stops
    improving. ``timeout`` (seconds, ``None``: no limit) bounds the wall-clock
    time too: when it runs out the partition raises ``PartitionError`` naming
    ``timeout`` (checked between steps, so it may run over by one step).

    >>> from wargrid import HexGrid
    >>> p = partition(HexGrid(6, 4), 3)
    >>> p.owners.shape, p.report.cells.tolist(), p.report.chunks.tolist()
    ((4, 6), [8, 8, 8], [1, 1, 1])
    >>> q = partition(HexGrid(6, 6), 3, mode="scattered", max_chunk=1)
    >>> q.report.largest_chunk.tolist(), q.report.cells.tolist()
    ([1, 1, 1], [12, 12, 12])
    >>> r = partition(HexGrid(12, 8), 4, mode="scattered", max_chunk=3, min_chunk=2).report
    >>> int(r.largest_chunk.max()) <= 3, r.chunk_histogram[:2].tolist(), r.cells.tolist()
    (True, [0, 0], [24, 24, 24, 24])
    """
    t0 = time.perf_counter()
    deadline = Deadline(check_timeout(timeout))
    if not isinstance(grid, Grid):
        raise ArgumentTypeError(f"grid must be a wargrid Grid, got {type(grid).__name__}")
    players = check_players(players)
    check_choice(mode, "mode", MODES)
    checked_seed = check_seed(seed)
    if checked_seed is None:
        raise ArgumentTypeError("seed must be a non-negative integer (partitions are reproducible), got None")
    seed = checked_seed
    if max_chunk is not None:
        max_chunk = check_int(max_chunk, "max_chunk")
        if max_chunk < 1:
            raise ArgumentError(f"max_chunk must be >= 1 (cells in one chunk), got {max_chunk}")
    if mode == "scattered" and max_chunk is None:
        raise ArgumentError("mode 'scattered' needs max_chunk (the largest chunk of one player's touching cells)")
    if mode == "compact" and max_chunk is not None:
        raise ArgumentError(f"max_chunk={max_chunk} only applies to mode 'scattered'; mode 'compact' makes one region a player")
    if min_chunk is not None:
        min_chunk = check_int(min_chunk, "min_chunk")
        if mode != "scattered":
            raise ArgumentError(f"min_chunk={min_chunk} only applies to mode 'scattered'")
        if min_chunk < 1 or (max_chunk is not None and min_chunk > max_chunk):
            raise ArgumentError(f"min_chunk must be between 1 and max_chunk={max_chunk}, got {min_chunk}")
    if mode == "compact" and method is not None:
        raise ArgumentError(f"method={method!r} only applies to mode 'scattered'")
    graph = land_graph(grid, grid.mask if passable is None else passable)
    given = check_weights(weights, graph)
    # balance relative to the weights' scale; zero weight everywhere: balance the cells
    w = unit_weights(given)
    tol = _tolerance(w)
    seeds = None
    if starts is not None:
        seeds = graph.nodes(starts, "starts")
        if seeds.size != players:
            raise ArgumentError(f"starts must hold one cell per player ({players}), got {seeds.size}")
    verdict = check_feasibility(graph, players, mode=mode, max_chunk=max_chunk, weights=w)
    if not verdict:
        raise InfeasibleError(verdict.reason)
    rng = np.random.default_rng(seed)
    deadline.check()
    tick = ticker(progress, 3, "partition")  # stages: the land checked, the split, the report
    tick(1)
    if mode == "compact":
        owner, seeds = _compact(graph, w, players, seeds, rng, tol, deadline)
        used = "grow-refine"
    else:
        from .chunks import scatter

        assert max_chunk is not None  # checked above: mode 'scattered' needs max_chunk
        # the kernels take int64: a chunk larger than any board (2**40 cells) is no cap at all, and seeds wrap at 2**39
        # (scatter's slices shift them by 24 bits; max_chunk=10**20 raised numba's TypingError, seed=2**63 OverflowError)
        owner, used = scatter(graph, w, players, min(max_chunk, 1 << 40), seeds, seed % (1 << 39), tol, method, deadline,
                              min(min_chunk or 1, 1 << 40))
        if seeds is None:
            seeds = _spread_seeds(graph, w, players, rng)
            # a start stands on its player's land: the nearest such cell
            seeds = _own_starts(graph, owner, seeds)
    tick(2)
    seconds = time.perf_counter() - t0
    report = _report(graph, given, owner, players, seeds, mode, used, _tolerance(given), seconds)
    tick(3)
    return Partition(owners=graph.to_layer(owner, -1).astype(np.int64), report=report, grid=grid)


def _own_starts(graph: LandGraph, owner: np.ndarray, seeds: np.ndarray) -> np.ndarray:
    from .._kernels.territory.graph import bfs

    out = seeds.copy()
    for k, s in enumerate(seeds):
        if owner[s] == k:
            continue
        d = bfs(graph.nbr, np.array([s], dtype=np.int64), owner, -1)
        mine = np.flatnonzero((owner == k) & (d >= 0))
        if mine.size:
            out[k] = mine[np.argmin(d[mine])]
        elif (owner == k).any():
            out[k] = np.flatnonzero(owner == k)[0]
        else:
            out[k] = -1
    return out
