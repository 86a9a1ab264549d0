"""Refuse partition requests that provably cannot be met, before any search.

Each rule below is a proof, not a guess; a request no rule refuses may still
be out of reach of the search, which then raises ``PartitionError``.

- **More players than land**: every player needs at least one cell.
- **One player with a cap**: a lone player owns every cell, so its chunks are
  the connected zones of the land.
- **Cliques**: ``c`` cells that all touch one another (three on a hex board,
  a 2x2 block on a square-8 board) shared by ``P`` players give someone
  ``ceil(c / P)`` touching cells.
- **The Hex theorem**: on a fully passable rectangle of hexes (or a square-8
  rectangle: king moves), coloured by two players, one colour connects the
  left column to the right one or the top row to the bottom one; such a chunk
  has at least ``min(width, height)`` cells because each step moves one column
  or one row at most. A board wrapped in x holds the unwrapped one's paths, so
  the bound holds there too. (A square-4 board escapes: a checkerboard has
  chunks of one.)
- **Two players, chunks of one**: the land must be coloured properly with two
  colours, so each zone must be bipartite (no triangle, no odd ring) and its
  two sides, each zone's flipped or not, must add up to counts within one of
  each other: a small subset-sum decides it exactly (``two_colouring``
  returns the colouring when it exists; counts only, not weights).
- **Forced colourings**: three players with chunks of one cell colour the land
  properly with three colours. Where triangles of touching cells chain over
  all the land (a hex board), that colouring is forced up to renaming the
  colours; when its colour classes differ by more than the balance allows, or
  a triangle chain contradicts itself, no such partition exists.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ..errors import ArgumentError, ArgumentTypeError, InfeasibleError
from .._validate import check_choice, check_positive_int
from ..grids.boards import Grid, SquareGrid
from ._graph import LandGraph, check_players, land_graph

__all__ = ["Feasibility", "InfeasibleError", "check_feasibility", "two_colouring"]


@dataclass(frozen=True)
class Feasibility:
    """Whether a request survives every proof of impossibility, and if not, why.

    ``min_chunk`` is the smallest cap the proofs allow (1 when none applies).
    """

    feasible: bool
    reason: str
    min_chunk: int = 1

    def __bool__(self) -> bool:
        return self.feasible


def _largest_zone(graph: LandGraph) -> int:
    from .._kernels.territory.graph import label_chunks

    _, sizes = label_chunks(graph.nbr, np.zeros(graph.n, dtype=np.int64))
    return int(sizes.max()) if sizes.size else 0


def _bipartition(graph: LandGraph) -> tuple[NDArray[np.int64], NDArray[np.int64]] | None:
    """Side (0/1) of each node and its zone, or ``None`` when some zone has an odd ring."""
    from .._kernels.territory.graph import bfs, label_chunks

    zero = np.zeros(graph.n, dtype=np.int64)
    labels, sizes = label_chunks(graph.nbr, zero)
    firsts = np.zeros(sizes.size, dtype=np.int64)
    firsts[labels[::-1]] = np.arange(graph.n - 1, -1, -1)
    side = bfs(graph.nbr, firsts, zero, -1) & 1
    nb = graph.nbr
    ok = nb >= 0
    if (side[:, None] == side[np.where(ok, nb, 0)])[ok].any():
        return None
    return side, labels


def two_colouring(graph: LandGraph) -> NDArray[np.int64] | None:
    """Owners (0/1) of a balanced split of the land into cells no two of which
    touch with the same owner, or ``None`` when none exists (exact).

    >>> from wargrid import SquareGrid
    >>> from wargrid.territory._graph import land_graph
    >>> two_colouring(land_graph(SquareGrid(3, 2), np.ones((2, 3), bool))).tolist()
    [0, 1, 0, 1, 0, 1]
    """
    bp = _bipartition(graph)
    if bp is None:
        return None
    side, labels = bp
    nz = int(labels.max()) + 1 if graph.n else 0
    a = np.bincount(labels, weights=(side == 0), minlength=nz).astype(np.int64)
    b = np.bincount(labels, weights=(side == 1), minlength=nz).astype(np.int64)
    diff = a - b
    off = int(np.abs(diff).sum())
    # reach[i]: bitset of sums of +-diff over the first i zones, shifted by off
    reach = [1 << off]
    for d in diff.tolist():
        r = reach[-1]
        reach.append((r << d if d >= 0 else r >> -d) | (r >> d if d >= 0 else r << -d))
    final = reach[-1]
    target = None
    for t in (0, 1, -1):
        if (final >> (t + off)) & 1:
            target = t
            break
    if target is None:
        return None
    flip = np.zeros(nz, dtype=bool)
    cur = target
    for i in range(nz - 1, -1, -1):
        d = int(diff[i])
        if (reach[i] >> (cur - d + off)) & 1:
            cur -= d
        else:
            flip[i] = True
            cur += d
    return np.where(flip[labels], 1 - side, side).astype(np.int64)


def check_feasibility(
    graph: LandGraph | Grid,
    players: int,
    *,
    mode: str = "compact",
    max_chunk: int | None = None,
    weights: NDArray[np.float64] | None = None,
) -> Feasibility:
    """Run the proofs of impossibility for ``players`` on ``graph``.

    ``graph`` is a land graph (``land_graph``) or a ``Grid`` (its mask is the land); ``players`` at least 1,
    ``mode`` one of 'compact' or 'scattered', ``max_chunk`` ``None`` or at least 1, ``weights`` ``None`` or one
    number a land cell.

    >>> from wargrid import HexGrid
    >>> from wargrid.territory._graph import land_graph
    >>> g = land_graph(HexGrid(10, 10), np.ones((10, 10), bool))
    >>> f = check_feasibility(g, 2, mode="scattered", max_chunk=4)
    >>> f.feasible, f.min_chunk
    (False, 10)
    >>> check_feasibility(g, 3, mode="scattered", max_chunk=2).feasible
    True
    >>> check_feasibility(g, 3, mode="scattered", max_chunk=1).reason[-30:]
    'allows (1); use max_chunk >= 2'
    >>> check_feasibility(HexGrid(10, 10), 0)
    Traceback (most recent call last):
    ...
    wargrid.errors.ArgumentError: players must be >= 1, got 0
    """
    if isinstance(graph, Grid):
        graph = land_graph(graph, graph.mask)
    elif not isinstance(graph, LandGraph):
        raise ArgumentTypeError(f"graph must be a land graph (land_graph) or a wargrid Grid, got {type(graph).__name__}")
    players = check_players(players)
    check_choice(mode, "mode", ("compact", "scattered"))
    if max_chunk is not None:
        max_chunk = check_positive_int(max_chunk, "max_chunk")
    if weights is not None and np.shape(weights) != (graph.n,):
        raise ArgumentError(f"weights must hold one number a land cell ({graph.n}), got shape {np.shape(weights)}")
    n = graph.n
    if players > n:
        return Feasibility(False, f"{players} players need at least {players} passable cells; the land has {n}")
    if mode != "scattered" or max_chunk is None:
        return Feasibility(True, "no proof of impossibility applies")
    need = 1
    why = ""
    if players == 1:
        z = _largest_zone(graph)
        if z > need:
            need, why = z, f"a single player owns every cell, so its largest chunk is the largest land zone ({z} cells)"
    else:
        from .._kernels.territory.feasibility import max_clique

        grid = graph.grid
        clique = int(max_clique(graph.nbr, 4))
        c = math.ceil(clique / players)
        if c > need:
            need, why = c, (
                f"{clique} cells touch one another, so with {players} players someone owns {c} touching cells"
            )
        full = bool(graph.passable.all())
        eight = isinstance(grid, SquareGrid) and grid.diagonal
        hexlike = not isinstance(grid, SquareGrid)
        if players == 2 and full and (hexlike or eight):
            span = min(grid.width, grid.height)
            if span > need:
                need, why = span, (
                    "by the Hex theorem two players on a fully passable "
                    f"{grid.width}x{grid.height} {'hex' if hexlike else 'square-8'} board leave one chunk "
                    f"crossing the board, of at least min(width, height) = {span} cells"
                )
    if max_chunk < need:
        return Feasibility(False, f"max_chunk={max_chunk} is impossible: {why}; use max_chunk >= {need}", need)
    if players == 2 and max_chunk == 1 and weights is None or (
        players == 2 and max_chunk == 1 and weights is not None and np.all(np.asarray(weights) == 1.0)
    ):
        if _bipartition(graph) is None:
            return Feasibility(False, "max_chunk=1 with 2 players needs a proper two-colouring of the land, and "
                               "it has an odd ring of touching cells (a triangle, say); use max_chunk >= 2", 2)
        if two_colouring(graph) is None:
            return Feasibility(False, "max_chunk=1 with 2 players needs a proper two-colouring of the land; each "
                               "zone's two sides are fixed, and no choice of sides gives counts within one of "
                               "each other; use max_chunk >= 2", 2)
    if players == 3 and max_chunk == 1:
        from .._kernels.territory.feasibility import forced_colouring

        col, pieces, conflict = forced_colouring(graph.nbr)
        if conflict:
            return Feasibility(False, "max_chunk=1 with 3 players needs a proper three-colouring of the land, "
                               "and its triangles of touching cells admit none; use max_chunk >= 2", 2)
        if pieces == 1 and (col >= 0).all():
            w = np.ones(graph.n) if weights is None else np.asarray(weights, dtype=np.float64)
            cls = np.bincount(col, weights=w, minlength=3)
            tol = float(w.max())
            if cls.max() - cls.min() > tol * (1 + 1e-9) + 1e-9:
                return Feasibility(False, (
                    "max_chunk=1 with 3 players needs a proper three-colouring of the land; its triangles "
                    f"force one, whose colour classes weigh {cls.tolist()}, further apart than the balance "
                    f"allows ({tol:g}); use max_chunk >= 2"), 2)
    return Feasibility(True, "no proof of impossibility applies", need)
