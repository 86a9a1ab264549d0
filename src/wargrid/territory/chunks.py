"""Scattered partitions: exact balance with no chunk of touching cells above a cap.

Four known ways to start, then one repair:

``'chunks'`` (round-robin chunk growth, the default's first choice)
    the player furthest behind grows a whole chunk of up to ``K`` cells,
    breadth first from the next free cell touching none of its land, over
    free cells touching none of its other chunks; players take turns. Chunks
    use the cap: on open 24 x 16 hex boards with 5 players the mean chunk is
    about 0.8 ``K`` for ``K`` = 2, 4 and 6 (``benchmarks/bench_territory.py``);
``'random'``
    every cell, in random order, to the lightest player (a random balanced
    assignment);
``'greedy'`` (round-robin growth of single cells: the one-cell colouring)
    cells in breadth-first order go to the player, among those still under
    quota, whose chunk there stays smallest (mostly every chunk one cell,
    whatever ``K``);
``'pattern'``
    the regular colouring ``(a*x + b*y) mod players`` with the fewest touching
    equal colours, then cells moved from heavy to light players.

The repair swaps a cell of an over-sized chunk with a cell of another player
and keeps the swap only when neither cell ends in a chunk above the cap (a
swap keeps cell counts, so the balance stays exact); rounds without progress
shake a few cells. ``benchmarks/bench_territory.py`` compares the three:
on 20x20 boards with 8 players and cap 4 all succeed every time in a
millisecond or two; 'greedy' leaves the smallest chunks (mostly single cells),
'random' is a little faster but fills chunks up to the cap, and 'pattern' is
the one that finds the tight cases (three players, single cells on a hex
board: a proper three-colouring). So the default, ``'auto'``, tries 'chunks'
three times with new seeds, then 'greedy', 'pattern' and 'random' until one
succeeds; a named method is tried three times with new seeds, then the others
(``report.method`` says which start succeeded). With ``min_chunk`` above 1
only 'chunks' is tried (the others make single cells), and an attempt counts
only when every chunk has at least ``min_chunk`` cells. After every attempt
failed: ``PartitionError``. Two players with single cells (counts only) are solved
exactly by ``feasibility.two_colouring``.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..errors import ArgumentError, ArgumentTypeError
from ..grids.boards import HexLikeGrid
from .._kernels.bundles import REPAIR_FEWEST, REPAIR_LAST, REPAIR_STALLED
from ._graph import Deadline, LandGraph, PartitionError, balance_slack

__all__ = ["METHODS", "DEFAULT_METHOD", "scatter", "chunk_sizes"]

METHODS = ("chunks", "greedy", "random", "pattern")
_AUTO = ("chunks", "chunks", "chunks", "greedy", "pattern", "random")
DEFAULT_METHOD = "auto"
_ATTEMPTS = 6
_SLICE = 8  # repair rounds between two looks at the clock
_PATIENCE = 48  # repair rounds without 1/64 fewer over-sized cells before an attempt is dropped


def _quota(n: int, players: int, w: np.ndarray) -> np.ndarray:
    if not np.all(w == 1.0):
        return np.full(players, -1, dtype=np.int64)
    q = np.full(players, n // players, dtype=np.int64)
    q[: n % players] += 1
    return q


def _initial(graph: LandGraph, w: np.ndarray, players: int, cap: int, tol: float, method: str, seed: int) -> NDArray[np.int64]:
    from .._kernels.territory.scattered import scatter_chunks, scatter_greedy, scatter_pattern, scatter_random

    owner: NDArray[np.int64]
    if method == "chunks":
        owner = scatter_chunks(graph.nbr, w, players, cap, _quota(graph.n, players, w), seed)
        return owner
    if method == "random":
        owner = scatter_random(graph.nbr, w, players, seed)
        return owner
    if method == "greedy":
        owner = scatter_greedy(graph.nbr, w, players, cap, tol, _quota(graph.n, players, w), seed)
        return owner
    # offset columns and rows, and on hex-like boards axial coordinates too
    best: NDArray[np.int64]
    best, bad = scatter_pattern(graph.nbr, graph.xs, graph.ys, players)
    if isinstance(graph.grid, HexLikeGrid):
        q, r = graph.grid.hexes_of(graph.xs, graph.ys)
        alt, abad = scatter_pattern(graph.nbr, np.asarray(q, dtype=np.int64), np.asarray(r, dtype=np.int64), players)
        if abad < bad:
            best = alt
    return best


def _pin_starts(owner: np.ndarray, seeds: np.ndarray) -> np.ndarray:
    """Give each start to its player by swapping owners (counts stay the same)."""
    pinned = np.zeros(owner.size, dtype=np.bool_)
    pinned[seeds] = True
    for k, s in enumerate(seeds):
        if owner[s] == k:
            continue
        mine = np.flatnonzero((owner == k) & ~pinned)
        e = int(mine[0])
        owner[e], owner[s] = owner[s], k
    return pinned


def scatter(
    graph: LandGraph,
    w: np.ndarray,
    players: int,
    cap: int,
    seeds: np.ndarray | None,
    seed: int,
    tol: float,
    method: str | None,
    deadline: Deadline,
    min_chunk: int = 1,
) -> tuple[np.ndarray, str]:
    """Owners of the land's nodes with no chunk above ``cap``; returns ``(owner, method)``.

    Each attempt repairs for at most ``300 + 4 * cap`` rounds and is dropped
    after ``_PATIENCE`` rounds that do not lower the number of cells in
    over-sized chunks; ``deadline`` is checked every ``_SLICE`` rounds."""
    from .._kernels.territory.scattered import scatter_balance, scatter_repair

    if method is None:
        method = DEFAULT_METHOD
    if not isinstance(method, str) or method not in METHODS + ("auto",):
        allowed = ", ".join(map(repr, METHODS + ("auto",)))
        raise ArgumentError(f"method must be one of {allowed}; got {method!r}")
    if min_chunk > 1 and method not in ("auto", "chunks"):
        raise ArgumentError(f"min_chunk={min_chunk} needs method 'chunks' or 'auto' (method {method!r} makes single cells)")
    if players == 2 and cap == 1 and np.all(w == 1.0) and seeds is None:
        from .feasibility import two_colouring

        exact = two_colouring(graph)
        if exact is not None:
            return exact, "two-colouring"
    if min_chunk > 1:
        plan = ["chunks"] * (2 * _ATTEMPTS)
    elif method == "auto":
        plan = list(_AUTO)
    else:  # the named start first, then the others
        plan = [method] * (_ATTEMPTS // 2) + [m for m in METHODS if m != method]
    slack = balance_slack(tol, w)
    rounds = 300 + 4 * cap
    for attempt, how in enumerate(plan):
        deadline.check()
        s = seed * 16 + attempt
        owner = np.ascontiguousarray(_initial(graph, w, players, cap, slack, how, s), dtype=np.int64)
        pinned = np.zeros(graph.n, dtype=np.bool_) if seeds is None else _pin_starts(owner, seeds)
        scatter_balance(graph.nbr, w, owner, players, cap, slack, pinned, s)
        state = np.zeros(3, dtype=np.int64)
        state[REPAIR_LAST] = state[REPAIR_FEWEST] = graph.n + 1
        for done in range(0, rounds, _SLICE):
            deadline.check()
            slice_seed = s if done == 0 else (s << 20) + done
            got = scatter_repair(graph.nbr, w, owner, players, cap, slack, pinned, slice_seed, min(_SLICE, rounds - done), 128, state)
            if got >= 0 or state[REPAIR_STALLED] >= _PATIENCE:
                break
        if got == 1 and (min_chunk <= 1 or _lift_small(graph, w, owner, cap, min_chunk, pinned, deadline)):
            return owner, how
    least = f" and at least min_chunk={min_chunk}" if min_chunk > 1 else ""
    raise PartitionError(
        f"no partition with chunks of at most max_chunk={cap}{least} cells found for {players} players "
        f"({len(plan)} attempts, method {method!r}); try another seed or method, or a larger max_chunk"
    )


def _misfits(graph: LandGraph, owner: np.ndarray, cap: int, least: int) -> int:
    size = chunk_sizes(graph, owner)
    return int(((size < least) | (size > cap)).sum())


def _lift_small(graph: LandGraph, w: np.ndarray, owner: np.ndarray, cap: int, least: int, pinned: np.ndarray, deadline: Deadline) -> bool:
    """Swap cells until every chunk has ``least`` to ``cap`` cells; ``owner`` is changed in place.

    A chunk below ``least`` (player ``k``) takes a touching cell ``j`` of
    another player ``o`` and gives ``o`` a cell ``i`` of its own that touches
    ``o``'s land; a swap is kept when fewer cells sit in misfit chunks. Swaps
    keep every player's cell count, so the balance stays exact (equal weights;
    with weights only equal-weight swaps are made). Returns whether it succeeded."""
    nbr = graph.nbr
    bad = _misfits(graph, owner, cap, least)
    for _ in range(4 * graph.n):
        if bad == 0:
            return True
        deadline.check()
        size = chunk_sizes(graph, owner)
        small = np.flatnonzero(size < least)
        if small.size == 0:
            small = np.flatnonzero(size > cap)
        improved = False
        for c in small.tolist():
            k = int(owner[c])
            for j in nbr[c][nbr[c] >= 0].tolist():
                o = int(owner[j])
                if o == k or pinned[j]:
                    continue
                mine = np.flatnonzero((owner == k) & ~pinned)
                touch = np.zeros(graph.n, dtype=bool)
                ok = nbr[mine] >= 0
                touch[mine] = ((owner[np.where(ok, nbr[mine], 0)] == o) & ok).any(axis=1)
                for i in np.flatnonzero(touch).tolist():
                    if i == c or w[i] != w[j]:
                        continue
                    owner[j], owner[i] = k, o
                    now = _misfits(graph, owner, cap, least)
                    if now < bad:
                        bad = now
                        improved = True
                        break
                    owner[j], owner[i] = o, k
                if improved:
                    break
            if improved:
                break
        if not improved:
            return False
    return bad == 0


def chunk_sizes(graph: LandGraph, owner: np.ndarray) -> NDArray[np.int64]:
    """Size of the chunk holding each node (a chunk: touching cells of one owner).

    ``owner[i]`` is the player of node ``i`` of ``graph`` (see ``land_graph``).

    >>> from wargrid import SquareGrid
    >>> from wargrid.territory._graph import land_graph
    >>> g = land_graph(SquareGrid(6, 4), np.ones((4, 6), dtype=bool))
    >>> owner = np.array([0, 0, 1, 1, 0, 1] * 4)
    >>> chunk_sizes(g, owner)[:6].tolist()
    [8, 8, 8, 8, 4, 4]
    """
    from .._kernels.territory.graph import label_chunks

    if not isinstance(graph, LandGraph):
        raise ArgumentTypeError(f"graph must be a land graph (land_graph), got {type(graph).__name__}")
    own = np.asarray(owner)
    if own.shape != (graph.n,):  # a shorter array was read past its end
        raise ArgumentError(f"owner must hold one player a node of the graph ({graph.n}), got shape {own.shape}")
    if own.dtype.kind not in "iu":
        raise ArgumentTypeError(f"owner must be an integer array of players, got dtype {own.dtype}")
    labels, sizes = label_chunks(graph.nbr, own.astype(np.int64, copy=False))
    per_cell: NDArray[np.int64] = sizes[labels]
    return per_cell
