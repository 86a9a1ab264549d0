"""The land graph every territory algorithm runs on, and the checks they share.

Two passable cells *touch* when one is a neighbour of the other in the
board's topology directions (the padded layout of ``Topology``, wrap
included). On square-8 boards diagonal neighbours touch whatever the corner
rule: a player sees two diagonal cells as touching, so a chunk cap counts them
together and a region may hang together through a corner. Edge costs (walls,
rivers) do not separate cells here.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..errors import ArgumentError, ArgumentTypeError, PartitionError
from .._validate import check_bool_layer, check_cell_pair, check_iterable, check_positive_int
from ..grids.boards import Grid

__all__ = ["LandGraph", "land_graph", "PartitionError", "balance_slack", "Deadline", "check_timeout"]


class Deadline:
    """The wall-clock budget of one partition: ``timeout`` seconds (``None``: no limit).

    >>> Deadline(None).check()
    >>> Deadline(1e-12).check()
    Traceback (most recent call last):
    ...
    wargrid.errors.PartitionError: the partition ran out of time (timeout=1e-12 seconds); give it a larger timeout, or ease the request (a larger max_chunk, fewer players)
    """

    def __init__(self, timeout: float | None) -> None:
        self.timeout = timeout
        self.end = None if timeout is None else time.perf_counter() + timeout

    def check(self) -> None:
        """Raise ``PartitionError`` naming ``timeout`` once the budget is spent."""
        if self.end is not None and time.perf_counter() >= self.end:
            raise PartitionError(
                f"the partition ran out of time (timeout={self.timeout:g} seconds); give it a larger "
                "timeout, or ease the request (a larger max_chunk, fewer players)"
            )


def check_timeout(timeout: Any) -> float | None:
    """``None`` or a positive, finite number of seconds.

    >>> check_timeout(2)
    2.0
    """
    if timeout is None:
        return None
    if isinstance(timeout, (bool, np.bool_)) or not isinstance(timeout, (int, float, np.integer, np.floating)):
        raise ArgumentTypeError(f"timeout must be a number of seconds or None, got {type(timeout).__name__}")
    t = float(timeout)
    if not (math.isfinite(t) and t > 0):
        raise ArgumentError(f"timeout must be a positive, finite number of seconds (or None: no limit), got {timeout!r}")
    return t


def balance_slack(tol: float, w: np.ndarray) -> float:
    """``tol`` plus room for rounding in float sums of the weights ``w``.

    >>> balance_slack(2.0, np.ones(3)) - 2.0 < 1e-8
    True
    """
    return tol + 1e-9 * max(1.0, float(w.sum()))


@dataclass(frozen=True, eq=False)
class LandGraph:
    """Passable cells as nodes ``0..n-1`` (in cell-id order) with their neighbours."""

    grid: Grid
    passable: NDArray[np.bool_]  # (H, W), valid and passable
    nbr: NDArray[np.int64]  # (n, ndir), -1 for none
    cells: NDArray[np.int64]  # (n,) cell ids
    node_of: NDArray[np.int64]  # (H*W,) node or -1

    @property
    def n(self) -> int:
        return int(self.cells.size)

    @property
    def xs(self) -> NDArray[np.int64]:
        return self.cells % self.grid.width

    @property
    def ys(self) -> NDArray[np.int64]:
        return self.cells // self.grid.width

    def to_layer(self, values: ArrayLike, fill: Any) -> NDArray[Any]:
        """Node values as a ``(height, width)`` layer of their dtype, ``fill`` elsewhere."""
        vals = np.asarray(values)
        out = np.full(self.grid.size, fill, dtype=vals.dtype)
        out[self.cells] = vals
        return out.reshape(self.grid.shape)

    def node(self, cell: Any, name: str) -> int:
        """The node of a passable ``(x, y)`` cell; ``IndexError``/``ValueError`` naming ``name``."""
        x, y = self.grid.check_cell(check_cell_pair(cell, name), name)
        i = int(self.node_of[y * self.grid.width + x])
        if i < 0:
            raise ArgumentError(f"{name} {(x, y)} is impassable for this unit; pick a passable cell")
        return i

    def nodes(self, cells: Sequence[Any], name: str) -> NDArray[np.int64]:
        if isinstance(cells, tuple) and len(cells) == 2 and all(isinstance(v, (int, np.integer)) for v in cells):
            raise ArgumentTypeError(f"{name} must be a list of (x, y) cells, got a single cell {cells!r}: wrap it in a list")
        cells = list(check_iterable(cells, name, "a list of (x, y) cells"))
        out = np.array([self.node(c, f"{name}[{i}]") for i, c in enumerate(cells)], dtype=np.int64)
        if len(set(out.tolist())) != out.size:
            raise ArgumentError(f"{name} must hold distinct cells, got {list(cells)!r}")
        return out

    def cell_xy(self, node: int) -> tuple[int, int]:
        c = int(self.cells[node])
        return c % self.grid.width, c // self.grid.width


def land_graph(grid: Grid, passable: NDArray[np.bool_]) -> LandGraph:
    """Build the land graph of ``grid`` restricted to the ``passable`` cells ((H, W) bool).

    >>> from wargrid import SquareGrid
    >>> g = land_graph(SquareGrid(3, 1), np.array([[True, True, False]]))
    >>> g.nbr.tolist()
    [[1, -1, -1, -1], [-1, -1, 0, -1]]
    """
    from .._kernels.territory.graph import build_graph

    if not isinstance(grid, Grid):
        raise ArgumentTypeError(f"grid must be a wargrid Grid, got {type(grid).__name__}")
    p = check_bool_layer(passable, "passable", grid.shape)
    p = p & grid.mask
    t = grid.topology
    padded = t.pad(p.astype(np.uint8), 0)
    nbr, cells = build_graph(padded, t.offsets, t.pw, t.ph, t.width, t.parity_mode, t.wrap)
    node_of = np.full(grid.size, -1, dtype=np.int64)
    node_of[cells] = np.arange(cells.size, dtype=np.int64)
    return LandGraph(grid=grid, passable=p, nbr=nbr, cells=cells, node_of=node_of)


def check_players(players: Any) -> int:
    """A player count >= 1."""
    return check_positive_int(players, "players")


def check_weights(weights: Any, graph: LandGraph) -> NDArray[np.float64]:
    """Per-node weights from an ``(H, W)`` layer (``None``: every cell weighs 1).

    Weights whose sum over the land overflows a float are refused: a player's
    total could not be told from another's.

    >>> from wargrid import SquareGrid
    >>> g = land_graph(SquareGrid(2, 1), np.ones((1, 2), dtype=bool))
    >>> check_weights(np.full((1, 2), 1e308), g)
    Traceback (most recent call last):
    ...
    wargrid.errors.ArgumentError: weights sum to more than a float holds (2 cells up to 1e+308); scale them down
    """
    if weights is None:
        return np.ones(graph.n, dtype=np.float64)
    a = np.asarray(weights)
    if a.shape != graph.grid.shape:
        raise ArgumentError(f"weights must have shape (height, width) = {graph.grid.shape}, got {a.shape}")
    if a.dtype.kind not in "iuf" or a.dtype == bool:
        raise ArgumentTypeError(f"weights must be a numeric array, got dtype {a.dtype}")
    a = a.astype(np.float64)
    flat = a.ravel()[graph.cells]
    if np.isnan(flat).any() or np.isinf(flat).any():
        raise ArgumentError("weights must be finite (no NaN or inf) on passable cells")
    if (flat < 0).any():
        raise ArgumentError(f"weights must be >= 0, got {float(flat.min())} on a passable cell")
    with np.errstate(over="ignore"):
        total = float(flat.sum())
    if not math.isfinite(total):
        raise ArgumentError(
            f"weights sum to more than a float holds ({flat.size} cells up to {float(flat.max()):g}); scale them down"
        )
    return np.ascontiguousarray(flat)


def unit_weights(w: NDArray[np.float64]) -> NDArray[np.float64]:
    """``w`` divided by its largest value, so that balance is judged relative to
    the weights' scale (all zero: every cell weighs 1).

    >>> unit_weights(np.array([2e-12, 1e-12])).tolist()
    [1.0, 0.5]
    """
    top = float(w.max()) if w.size else 0.0
    if top <= 0:
        return np.ones(w.size, dtype=np.float64)
    return np.ascontiguousarray(w / top)
