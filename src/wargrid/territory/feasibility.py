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
  or one row at most. (A square-4 board escapes: a checkerboard has chunks of one.)
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

from ..grids.boards import SquareGrid
from ._graph import LandGraph

__all__ = ["Feasibility", "InfeasibleError", "check_feasibility"]


class InfeasibleError(ValueError):
    """A partition request that provably has no solution; the message says why."""


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
    from .._kernels.territory import label_chunks

    _, sizes = label_chunks(graph.nbr, np.zeros(graph.n, dtype=np.int64))
    return int(sizes.max()) if sizes.size else 0


def check_feasibility(
    graph: LandGraph,
    players: int,
    *,
    mode: str = "compact",
    max_chunk: int | None = None,
    weights: np.ndarray | None = None,
) -> Feasibility:
    """Run the proofs of impossibility for ``players`` on ``graph``.

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
    """
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
        from .._kernels.territory import max_clique

        grid = graph.grid
        clique = int(max_clique(graph.nbr, 4))
        c = math.ceil(clique / players)
        if c > need:
            need, why = c, (
                f"{clique} cells touch one another, so with {players} players someone owns {c} touching cells"
            )
        full = bool(graph.passable.all()) and not grid.wrap_x
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
    if players == 3 and max_chunk == 1:
        from .._kernels.territory import forced_colouring

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
