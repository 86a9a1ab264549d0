"""Scattered partitions: exact balance with no chunk of touching cells above a cap.

Three known ways to start, then one repair:

``'random'``
    every cell, in random order, to the lightest player (a random balanced
    assignment);
``'greedy'`` (round-robin growth)
    cells in breadth-first order go to the player, among those still under
    quota, whose chunk there stays smallest;
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
board: a proper three-colouring). So the default, ``'auto'``, tries 'greedy',
then 'pattern', then 'random' (then again with new seeds) until one succeeds;
a named method is tried three times with new seeds, then the other two twice
each (``report.method`` says which start succeeded). After every attempt
failed: ``PartitionError``. Two players with single cells (counts only) are solved
exactly by ``feasibility.two_colouring``.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..errors import ArgumentError
from ..grids.boards import HexLikeGrid
from ._graph import Deadline, LandGraph, PartitionError, balance_slack

__all__ = ["METHODS", "DEFAULT_METHOD", "scatter", "chunk_sizes"]

METHODS = ("greedy", "random", "pattern")
_AUTO = ("greedy", "pattern", "random")
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
    from .._kernels.territory.scattered import scatter_greedy, scatter_pattern, scatter_random

    if method == "random":
        owner: NDArray[np.int64] = scatter_random(graph.nbr, w, players, seed)
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
    if players == 2 and cap == 1 and np.all(w == 1.0) and seeds is None:
        from .feasibility import two_colouring

        exact = two_colouring(graph)
        if exact is not None:
            return exact, "two-colouring"
    if method == "auto":
        plan = [m for _ in range(_ATTEMPTS // len(METHODS)) for m in _AUTO]
    else:  # the named start first, then the others
        plan = [method] * (_ATTEMPTS // 2) + [m for m in _AUTO if m != method for _ in range(2)]
    slack = balance_slack(tol, w)
    rounds = 300 + 4 * cap
    for attempt, how in enumerate(plan):
        deadline.check()
        s = seed * 16 + attempt
        owner = np.ascontiguousarray(_initial(graph, w, players, cap, slack, how, s), dtype=np.int64)
        pinned = np.zeros(graph.n, dtype=np.bool_) if seeds is None else _pin_starts(owner, seeds)
        scatter_balance(graph.nbr, w, owner, players, cap, slack, pinned, s)
        state = np.array([graph.n + 1, graph.n + 1, 0], dtype=np.int64)
        for done in range(0, rounds, _SLICE):
            deadline.check()
            slice_seed = s if done == 0 else (s << 20) + done
            got = scatter_repair(graph.nbr, w, owner, players, cap, slack, pinned, slice_seed, min(_SLICE, rounds - done), 128, state)
            if got >= 0 or state[2] >= _PATIENCE:
                break
        if got == 1:
            return owner, how
    raise PartitionError(
        f"no partition with chunks of at most max_chunk={cap} cells found for {players} players "
        f"({len(plan)} attempts, method {method!r}); try another seed or method, or a larger max_chunk"
    )


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

    labels, sizes = label_chunks(graph.nbr, np.asarray(owner, dtype=np.int64))
    per_cell: NDArray[np.int64] = sizes[labels]
    return per_cell
