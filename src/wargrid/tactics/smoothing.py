"""Any-angle paths: string pulling over a grid path with straight-line clearance.

A straight segment between two cell centres is *clear* for a unit when every
tile it touches (closed tiles: an edge or a corner counts) is passable for
the unit, tested exactly with the board's own tile polygons on square, hex
and staggered boards. ``smooth_path`` keeps the start, then follows the grid
path while the straight line from the last waypoint to the next cell is
clear, and makes the cell before a waypoint where it is not. The waypoints
are a subsequence of the grid path, so the smoothed route is never longer
than the polyline through the grid path's cell centres (triangle
inequality), and each of its segments is either clear or one grid step.

Lengths are real distances in drawing units (a square tile is 1 x 1; a hex
has corner radius 1, so neighbouring hex centres are sqrt(3) apart). On a
wrapped board the points continue across the seam (x beyond the board) so
that every segment is straight; ``cells`` are the real cells.

>>> import numpy as np
>>> from wargrid import SquareGrid
>>> g = SquareGrid(6, 3, diagonal=True)
>>> s = smooth_path(g, np.ones((3, 6), dtype=bool), [(0, 0), (1, 1), (2, 1), (3, 1), (4, 1), (5, 2)])
>>> s.cells, round(s.length, 3), round(s.grid_length, 3)
([(0, 0), (5, 2)], 5.385, 5.828)
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ..errors import ArgumentError, ArgumentTypeError
from .._validate import check_bool_layer, check_cell_pair
from ..grids.boards import Grid, Topology
from ..movement import Path

__all__ = ["SmoothPath", "smooth_path", "line_clear", "unwrap_cells"]


@dataclass(frozen=True)
class SmoothPath:
    """Waypoints of a smoothed route: ``cells`` (``(x, y)``), ``points`` (their centres in drawing
    units), the real ``length`` of the polyline and ``grid_length``, that of the grid path it came from."""

    cells: list[tuple[int, int]]
    points: list[tuple[float, float]]
    length: float
    grid_length: float
    unit: str | None = None

    def __len__(self) -> int:
        return len(self.cells)


class _Geometry:
    """Padded tile centres and corners of a board, as the kernels read them."""

    def __init__(self, grid: Grid) -> None:
        t = grid.topology
        xs = np.arange(t.padded_size, dtype=np.int64) % t.pw - 1
        ys = np.arange(t.padded_size, dtype=np.int64) // t.pw - 1
        cx, cy = grid.centers_of(xs, ys)
        self.cxa = np.ascontiguousarray(cx, dtype=np.float64)
        self.cya = np.ascontiguousarray(cy, dtype=np.float64)
        a = grid.centers_of(np.array([0]), np.array([0]))[0][0]
        b = grid.centers_of(np.array([grid.width]), np.array([0]))[0][0]
        self.wshift = float(b - a)
        self.cor = np.ascontiguousarray(grid.corner_offsets(), dtype=np.float64)
        self.stamp = np.zeros(t.padded_size, dtype=np.int32)
        self.gen = 0
        # the kernels' ``geo`` argument (``stamp`` is cleared in place, so the tuple stays valid)
        self.args = (self.cxa, self.cya, self.wshift, self.cor, self.stamp, t.pw, t.width, t.height, t.wrap)

    def next_gen(self, used: int = 1) -> int:
        if self.gen + used >= (1 << 30):
            self.stamp[:] = 0
            self.gen = 0
        g = self.gen + 1
        self.gen += used
        return g


_GEOMETRY: "weakref.WeakKeyDictionary[Topology, _Geometry]" = weakref.WeakKeyDictionary()


def _geometry(grid: Grid) -> _Geometry:
    g = _GEOMETRY.get(grid.topology)
    if g is None:
        g = _GEOMETRY[grid.topology] = _Geometry(grid)
    return g


def _blocked(grid: Grid, passable: Any) -> np.ndarray:
    p = check_bool_layer(passable, "passable", grid.shape)
    return grid.topology.pad((~p).astype(np.uint8), 1)


def unwrap_cells(grid: Grid, cells: Sequence[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """Virtual x, y of a walk of neighbouring cells: on a wrapped board x keeps going across the seam.

    >>> from wargrid import SquareGrid
    >>> unwrap_cells(SquareGrid(4, 1, wrap_x=True), [(1, 0), (0, 0), (3, 0), (2, 0)])[0].tolist()
    [1, 0, -1, -2]
    """
    xs = np.array([c[0] for c in cells], dtype=np.int64)
    ys = np.array([c[1] for c in cells], dtype=np.int64)
    if grid.wrap_x and len(xs) > 1:
        d = np.diff(xs)
        d = np.where(d > 1, d - grid.width, np.where(d < -1, d + grid.width, d))
        xs = np.concatenate([xs[:1], xs[0] + np.cumsum(d)])
    return xs, ys


def _check_walk(grid: Grid, path: Path | Sequence[tuple[int, int]], name: str) -> list[tuple[int, int]]:
    """The cells of ``path`` checked: on the board, each a neighbour of the one before (vectorised)."""
    cells = path.cells if isinstance(path, Path) else path
    try:
        cells = list(cells)
    except TypeError:
        raise ArgumentTypeError(f"{name} must be a Path or a list of (x, y) cells, got {type(path).__name__}") from None
    if not cells:
        raise ArgumentError(f"{name} must hold at least one cell")
    # every cell checked on its own: its type (no floats, no booleans) and its
    # bounds, before any array conversion could overflow or coerce it
    for i, c in enumerate(cells):
        grid.check_cell(check_cell_pair(c, f"{name}[{i}]"), f"{name}[{i}]")
    xy = np.array(cells, dtype=np.int64).reshape(len(cells), 2)
    xs, ys = xy[:, 0], xy[:, 1]
    bad = (xs < 0) | (xs >= grid.width) | (ys < 0) | (ys >= grid.height)
    bad[~bad] = ~grid.mask[ys[~bad], xs[~bad]]
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        grid.check_cell((int(xs[i]), int(ys[i])), f"{name}[{i}]")
    if len(xs) > 1:
        sdx, sdy = grid.topology.step_deltas(xs[:-1], ys[:-1])
        dx = np.diff(xs)
        if grid.wrap_x:
            dx = np.where(dx > 1, dx - grid.width, np.where(dx < -1, dx + grid.width, dx))
        dy = np.diff(ys)
        ok = ((dx[:, None] == sdx) & (dy[:, None] == sdy)).any(axis=1)
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0]) + 1
            raise ArgumentError(
                f"{name}[{i}] {tuple(xy[i].tolist())} is not a neighbour of {name}[{i - 1}] {tuple(xy[i - 1].tolist())}: "
                "a path steps between neighbours"
            )
    return list(zip(xs.tolist(), ys.tolist()))


def _polyline_length(xs: np.ndarray, ys: np.ndarray) -> float:
    return float(np.hypot(np.diff(xs), np.diff(ys)).sum()) if len(xs) > 1 else 0.0


def _centres(geo: _Geometry, grid: Grid, vx: np.ndarray, vy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    k = vx // grid.width if grid.wrap_x else np.zeros_like(vx)
    p = (vy + 1) * (grid.width + 2) + (vx - k * grid.width) + 1
    return geo.cxa[p] + k * geo.wshift, geo.cya[p]


def smooth_path(
    grid: Grid, passable: np.ndarray, path: Path | Sequence[tuple[int, int]], *, unit: str | None = None
) -> SmoothPath:
    """String-pull ``path`` (a ``Path`` or a list of neighbouring ``(x, y)`` cells) over ``passable``.

    ``passable`` is a ``(height, width)`` bool array of the cells the unit
    may cross (``Map.passable(unit=...)``). Every cell of the path must be passable.

    >>> from wargrid import HexGrid
    >>> s = smooth_path(HexGrid(5, 5), np.ones((5, 5), dtype=bool), [(0, 2), (1, 2), (2, 2), (3, 2)])
    >>> s.cells, round(s.length, 4), round(s.grid_length, 4)
    ([(0, 2), (3, 2)], 4.5826, 5.1962)
    """
    cells = _check_walk(grid, path, "path")
    blocked = _blocked(grid, passable)
    vx, vy = unwrap_cells(grid, cells)
    stuck = ~np.asarray(passable)[vy, vx % grid.width]
    if stuck.any():
        i = int(np.flatnonzero(stuck)[0])
        raise ArgumentError(f"path[{i}] {cells[i]} is impassable for this unit: a path crosses passable cells only")
    from .._kernels.tactics.smoothing import string_pull

    geo = _geometry(grid)
    gen = geo.next_gen(max(1, len(cells)))
    keep, n, _ = string_pull(vx, vy, blocked, geo.args, gen - 1)
    keep = keep[:n]
    px, py = _centres(geo, grid, vx, vy)
    wx, wy = px[keep], py[keep]
    return SmoothPath(
        cells=[cells[i] for i in keep.tolist()],
        points=list(zip(wx.tolist(), wy.tolist())),
        length=_polyline_length(wx, wy),
        grid_length=_polyline_length(px, py),
        unit=unit if unit is not None or not isinstance(path, Path) else path.unit,
    )


def line_clear(grid: Grid, passable: np.ndarray, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether the straight segment between the centres of cells ``a`` and ``b`` touches only passable tiles.

    On a wrapped board the segment goes the shorter way round.

    >>> import numpy as np
    >>> from wargrid import HexGrid
    >>> ok = np.ones((3, 5), dtype=bool); ok[1, 2] = False
    >>> line_clear(HexGrid(5, 3), ok, (0, 1), (4, 1)), line_clear(HexGrid(5, 3), ok, (0, 2), (4, 2))
    (False, True)
    """
    a = grid.check_cell(a, "a")
    b = grid.check_cell(b, "b")
    blocked = _blocked(grid, passable)
    from .._kernels.tactics.smoothing import segment_clear

    geo = _geometry(grid)
    t = grid.topology
    bx = b[0]
    if grid.wrap_x:
        w = grid.width
        # the shift of b whose centre is nearest a's
        ax = geo.cxa[(a[1] + 1) * t.pw + a[0] + 1]
        cands = [bx - w, bx, bx + w]
        bx = min(cands, key=lambda v: abs(float(_centres(geo, grid, np.array([v]), np.array([b[1]]))[0][0]) - ax))
    ok, _ = segment_clear(a[0], a[1], bx, b[1], blocked, geo.args, geo.next_gen(), np.empty(256, dtype=np.int64))
    return bool(ok)

