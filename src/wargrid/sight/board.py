"""What the sight kernels need from a board, prepared once and reused.

A ``SightBoard`` holds the grid and one flat padded array ``bh``: the height at
which each cell blocks sight. With elevation (float64): ``-inf`` never, the
cell's elevation for a sight-blocking cell, ``off = inf`` for padding and
masked-out cells. Without (int8): 0 open, 1 blocking, ``off = 2``. A viewer
standing at height ``h`` (its cell's elevation; 1 without elevation) is
blocked by the cells with ``bh >= h``: with elevation, a viewer sees over
blockers strictly lower than the cell it stands on; without, every blocker
blocks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..errors import ArgumentError, ArgumentTypeError
from .._validate import check_bool_layer, check_int
from .._kernels import load
from .._kernels.bundles import SightArgs
from ..grids.boards import Grid, SquareGrid

__all__ = ["SightBoard", "prepare", "kernels", "SQUARE_METRICS", "HEX_METRICS"]

def kernels(name: str) -> Any:
    """The sight kernel module ``name`` (``'fov'``, ``'los'``, ``'fog'``), imported on first use
    (``import wargrid`` compiles nothing)."""
    return load(f"sight.{name}")

SQUARE_METRICS = ("euclidean", "chebyshev", "octile", "manhattan", "octagonal")
"""Radius metrics on square boards (kernel codes 0..3, and 6 for 'octagonal': ``max + min / 2``)."""
_SQUARE_CODES = (0, 1, 2, 3, 6)
HEX_METRICS = ("hex",)
"""The radius metric on hex and staggered boards (hex steps, kernel code 4)."""


@dataclass(frozen=True, eq=False)
class SightBoard:
    """A grid with its sight-blocking heights in the kernels' padded layout (read-only)."""

    grid: Grid
    bh: NDArray[np.int8] | NDArray[np.float64]  # int8 without elevation, float64 with
    elevation: NDArray[np.float64] | None
    # derived in __post_init__: plain attributes for the per-call hot path
    off: float = field(init=False, repr=False)  # bh of padding and masked-out cells
    square: bool = field(init=False, repr=False)
    args: SightArgs = field(init=False, repr=False)  # the board as every sight kernel takes it
    max_ids: int = field(init=False, repr=False)  # the most ids a view can report
    whole: int = field(init=False, repr=False)  # a radius that covers the board

    def __post_init__(self) -> None:
        g = self.grid
        t = g.topology
        off = 2.0 if self.elevation is None else np.inf
        derived: dict[str, object] = {
            "off": off,
            "square": isinstance(g, SquareGrid),
            "args": SightArgs(self.bh, off, t.pw, g.width, g.height, t.wrap, t.hex_kind),
            "max_ids": (1 + t.wrap) * g.size + 1,
            "whole": g.width + g.height,
        }
        for k, v in derived.items():
            object.__setattr__(self, k, v)  # the dataclass is frozen

    def viewer_height(self, x: int, y: int) -> float:
        """The height the kernels compare blockers against for a viewer at ``(x, y)``."""
        return 1.0 if self.elevation is None else float(self.elevation[y, x])

    def cell(self, cell: Any, name: str) -> tuple[int, int]:
        """``cell`` checked to be on the board (a fast path for plain int pairs)."""
        g = self.grid
        if type(cell) is tuple and len(cell) == 2:
            x, y = cell
            if type(x) is int and type(y) is int and 0 <= x < g.width and 0 <= y < g.height and g.mask[y, x]:
                return x, y
        return g.check_cell(cell, name)

    def metric_code(self, metric: str | None) -> int:
        """Kernel code of ``metric`` (``None``: euclidean on square boards, hex steps otherwise)."""
        if metric is not None and not isinstance(metric, str):
            raise ArgumentTypeError(f"metric must be a metric's name or None, got {type(metric).__name__} {metric!r}")
        if self.square:
            if metric is None:
                return 0
            if metric not in SQUARE_METRICS:
                raise ArgumentError(f"metric must be one of {', '.join(map(repr, SQUARE_METRICS))} on a square board; got {metric!r}")
            return _SQUARE_CODES[SQUARE_METRICS.index(metric)]
        if metric is None or metric == "hex":
            return 4
        if metric in SQUARE_METRICS:
            raise ArgumentError(f"metric {metric!r} measures square tiles; on a {self.grid.kind} board sight is "
                                "measured in hex steps: use metric='hex' (or None)")
        raise ArgumentError(f"metric must be 'hex' (or None) on a {self.grid.kind} board; got {metric!r}")

    def radius(self, radius: Any) -> int:
        """``radius`` checked: an integer >= 0, or ``None`` for the whole board."""
        g = self.grid
        if radius is None:
            return self.whole
        if type(radius) is int and radius >= 0:
            return radius if radius < self.whole else self.whole
        if isinstance(radius, (float, np.floating)) and math.isnan(radius):
            raise ArgumentError("radius must be an integer >= 0 or None, got nan")
        r = check_int(radius, "radius", hint="a whole number of cells, or None for the whole board")
        if r < 0:
            raise ArgumentError(f"radius must be >= 0 (or None for the whole board), got {r}")
        return min(r, g.width + g.height)


def prepare(grid: Grid, blocks: Any, elevation: Any = None) -> SightBoard:
    """Check a ``(height, width)`` boolean ``blocks`` layer (and optional ``elevation``) and pad them.

    >>> from wargrid import SquareGrid
    >>> b = prepare(SquareGrid(3, 1), np.array([[False, True, False]]))
    >>> b.bh.reshape(3, 5)[1].tolist()
    [2, 0, 1, 0, 2]
    """
    if not isinstance(grid, Grid):
        raise ArgumentTypeError(f"grid must be a wargrid Grid, got {type(grid).__name__}")
    blk = check_bool_layer(blocks, "blocks", grid.shape)
    elev = None
    if elevation is not None:
        elev = np.asarray(elevation, dtype=np.float64)
        if elev.shape != grid.shape:
            raise ArgumentError(f"elevation must have shape (height, width) = {grid.shape}, got {elev.shape}")
        if not np.isfinite(elev).all():
            raise ArgumentError("elevation must be finite (no NaN or inf)")
        elev = elev.copy()
        elev.setflags(write=False)
    if elev is None:
        bh = grid.topology.pad(blk.astype(np.int8), 2)
    else:
        bh = grid.topology.pad(np.where(blk, elev, -np.inf), np.inf)
    bh.setflags(write=False)
    return SightBoard(grid=grid, bh=bh, elevation=elev)
