"""Any-angle paths: cost-aware string pulling over a grid path with straight-line clearance.

A straight segment between two cell centres is *clear* for a unit when every
tile it touches (closed tiles: an edge or a corner counts) is passable for
the unit, tested exactly with the board's own tile polygons on square, hex
and staggered boards. ``smooth_path`` keeps the start, then follows the grid
path while the straight line from the last waypoint to the next cell is
clear *and no dearer than the stretch of grid path it replaces*, and makes
the cell before a waypoint where it is not. The waypoints are a subsequence
of the grid path, so the smoothed route is never longer than the polyline
through the grid path's cell centres (triangle inequality), never costs
more than the grid path (``SmoothPath.cost <= SmoothPath.grid_cost``, up to
rounding), and each of its segments is either clear or one grid step.

The cost of a straight segment (the *segment cost rule*). The tiles a
segment crosses are found exactly (a supercover: every tile it touches,
edges and corners included, on square, hex and staggered tiles alike), and
each tile ``X`` other than the segment's start adds ``cost(X) * len(X) /
step``: its entry cost times the length the segment runs inside it,
measured in step lengths (``step`` is 1 on square and staggered boards,
``sqrt(3)`` on hex boards, the distance between neighbouring centres). The
stretch inside the start tile is paid at the entry cost of the segment's
end tile, so the start cell's own cost is never paid, as on the grid. Thus
a straight run along a row of hexes or squares costs exactly what the grid
path along it costs, and on a board of uniform cost ``c`` a segment costs
``c * length / step``. A stretch that runs along the edge between two tiles
(hex and staggered boards have such lines between centres) is paid once,
at the cheaper of the two. A segment between two neighbours is the grid step
and costs what the grid step costs (edge costs included). A segment may not
touch an impassable tile, nor a tile with an edge cost on any side (a river
bank: edge costs are only paid step by step).

Lengths are real distances in drawing units (a square tile is 1 x 1; a hex
has corner radius 1, so neighbouring hex centres are sqrt(3) apart). On a
wrapped board the points continue across the seam (x beyond the board) so
that every segment is straight; ``cells`` are the real cells.

>>> import numpy as np
>>> from wargrid import SquareGrid
>>> g = SquareGrid(6, 3, diagonal=True)
>>> s = smooth_path(g, np.ones((3, 6), dtype=bool), [(0, 0), (1, 1), (2, 1), (3, 1), (4, 1), (5, 2)])
>>> s.cells, round(s.length, 3), round(s.grid_length, 3), round(s.cost, 3), round(s.grid_cost, 3)
([(0, 0), (5, 2)], 5.385, 5.828, 5.385, 5.828)
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ..costs import CostField
from .._kernels.bundles import SegmentGeometry
from ..errors import ArgumentError, ArgumentTypeError
from .._validate import check_bool_layer, check_cell_pair
from ..grids.boards import Grid, Topology, unwrap_cells
from ..movement import Path

__all__ = ["SmoothPath", "smooth_path", "line_clear", "segment_cost", "unwrap_cells", "step_length"]


@dataclass(frozen=True)
class SmoothPath:
    """Waypoints of a smoothed route: ``cells`` (``(x, y)``), ``points`` (their centres in drawing
    units), the real ``length`` of the polyline and ``grid_length``, that of the grid path it came from;
    ``cost``, what the route costs by the segment cost rule, and ``grid_cost``, what the grid path costs."""

    cells: list[tuple[int, int]]
    points: list[tuple[float, float]]
    length: float
    grid_length: float
    unit: str | None = None
    cost: float = 0.0
    grid_cost: float = 0.0

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
        # square tiles on the integer lattice are walked column by column instead of flood filled
        self.square = grid.kind == "square"
        self.args = SegmentGeometry(self.cxa, self.cya, self.wshift, self.cor, self.stamp, t.pw, t.width, t.height,
                                    t.wrap, self.square)

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


def step_length(grid: Grid) -> float:
    """The drawing length of one step of cost 1 (the unit of the segment cost rule): the smallest
    distance between neighbouring centres divided by the step's length factor.

    >>> from wargrid import HexGrid, SquareGrid
    >>> round(step_length(HexGrid(3, 3)), 4), step_length(SquareGrid(3, 3, diagonal=True))
    (1.7321, 1.0)
    """
    return _step_ratios(grid)[0]


def _step_ratios(grid: Grid) -> tuple[float, float]:
    """``(step, spread)``: ``step_length`` and the largest (centre distance / step) / step length factor."""
    t = grid.topology
    ratios = []
    for x, y in ((2, 2), (3, 3)):  # both parities of a shoved column or row
        dx, dy = t.step_deltas(x, y)
        cx, cy = grid.centers_of(np.array([x, *(x + dx).tolist()]), np.array([y, *(y + dy).tolist()]))
        ratios.extend((np.hypot(cx[1:] - cx[0], cy[1:] - cy[0]) / t.step).tolist())
    return float(min(ratios)), float(max(ratios) / min(ratios))


_SEGMENT_COSTS: "weakref.WeakKeyDictionary[CostField, np.ndarray]" = weakref.WeakKeyDictionary()


def _segment_costs(field: CostField) -> np.ndarray:
    """Padded entry costs a straight segment reads: ``inf`` where impassable or where any step costs extra."""
    got = _SEGMENT_COSTS.get(field)
    if got is None:
        got = np.array(field.cell, dtype=np.float64)
        if field.edge.size:
            extra = (field.edge.reshape(-1, field.topology.ndir) != 0).any(axis=1)
            got[extra] = np.inf
        got.setflags(write=False)
        _SEGMENT_COSTS[field] = got
    return got


def _cost_field(grid: Grid, costs: Any, name: str) -> CostField:
    """``costs`` as a field: a ``CostField`` of this board, or a bool passable layer (cost 1 where passable)."""
    if isinstance(costs, CostField):
        if costs.topology is not grid.topology and costs.topology != grid.topology:
            raise ArgumentError(f"{name} is a cost field of another board: use one built for this grid")
        return costs
    p = check_bool_layer(costs, f"{name} (a CostField or a passable bool layer)", grid.shape)
    return CostField.from_arrays(grid, np.where(p, 1.0, np.inf))


def grid_step_costs(grid: Grid, field: CostField, vx: np.ndarray, vy: np.ndarray) -> np.ndarray:
    """Cost of each step of a walk of neighbouring (virtual) cells, as the grid searches price it.

    >>> from wargrid import SquareGrid
    >>> g = SquareGrid(3, 1)
    >>> f = CostField.from_arrays(g, [[1.0, 2.0, 3.0]])
    >>> grid_step_costs(g, f, np.array([0, 1, 2]), np.array([0, 0, 0])).tolist()
    [2.0, 3.0]
    """
    t = grid.topology
    if len(vx) < 2:
        return np.zeros(0, dtype=np.float64)
    p = (vy + 1) * t.pw + vx % grid.width + 1
    d = t.directions(p[:-1], p[1:])
    c = t.step[d] * field.cell[p[1:]]
    if field.edge.size:
        c = c + field.edge[p[:-1] * t.ndir + d]
    return np.asarray(c, dtype=np.float64)


def smooth_path(
    grid: Grid, costs: CostField | np.ndarray, path: Path | Sequence[tuple[int, int]], *, unit: str | None = None
) -> SmoothPath:
    """String-pull ``path`` (a ``Path`` or a list of neighbouring ``(x, y)`` cells), never dearer than it.

    ``costs`` is the unit's ``CostField`` (``Map.cost_field(unit=...)``), or
    a ``(height, width)`` bool array of the cells it may cross
    (``Map.passable(unit=...)``; every passable cell then costs 1). Every
    cell of the path must be passable. A shortcut is taken only when it is
    clear and costs no more than the stretch of path it replaces (the
    segment cost rule of the module notes).

    >>> from wargrid import HexGrid
    >>> s = smooth_path(HexGrid(5, 5), np.ones((5, 5), dtype=bool), [(0, 2), (1, 2), (2, 2), (3, 2)])
    >>> s.cells, round(s.length, 4), round(s.grid_length, 4), round(s.cost, 4), s.grid_cost
    ([(0, 2), (3, 2)], 4.5826, 5.1962, 2.6458, 3.0)
    """
    cells = _check_walk(grid, path, "path")
    field = _cost_field(grid, costs, "costs")
    vx, vy = unwrap_cells(grid, cells)
    t = grid.topology
    stuck = ~np.isfinite(field.cell[(vy + 1) * t.pw + vx % grid.width + 1])
    if stuck.any():
        i = int(np.flatnonzero(stuck)[0])
        raise ArgumentError(f"path[{i}] {cells[i]} is impassable for this unit: a path crosses passable cells only")
    from .._kernels.tactics.smoothing import string_pull_cost

    steps = grid_step_costs(grid, field, vx, vy)
    prefix = np.concatenate([[0.0], np.cumsum(steps)])
    geo = _geometry(grid)
    gen = geo.next_gen(max(1, len(cells)))
    keep, seg, n, _ = string_pull_cost(vx, vy, _segment_costs(field), prefix, geo.args, gen - 1, step_length(grid))
    keep = keep[:n]
    px, py = _centres(geo, grid, vx, vy)
    wx, wy = px[keep], py[keep]
    return SmoothPath(
        cells=[cells[i] for i in keep.tolist()],
        points=list(zip(wx.tolist(), wy.tolist())),
        length=_polyline_length(wx, wy),
        grid_length=_polyline_length(px, py),
        unit=unit if unit is not None or not isinstance(path, Path) else path.unit,
        cost=float(seg[: n - 1].sum()),
        grid_cost=float(prefix[-1]),
    )


def _virtual_b(grid: Grid, geo: _Geometry, a: tuple[int, int], b: tuple[int, int]) -> int:
    """The virtual x of ``b`` whose centre is nearest ``a``'s (the shorter way round a wrapped board)."""
    bx = b[0]
    if grid.wrap_x:
        w = grid.width
        ax = geo.cxa[(a[1] + 1) * grid.topology.pw + a[0] + 1]
        cands = [bx - w, bx, bx + w]
        bx = min(cands, key=lambda v: abs(float(_centres(geo, grid, np.array([v]), np.array([b[1]]))[0][0]) - ax))
    return bx


def segment_cost(grid: Grid, costs: CostField | np.ndarray, a: tuple[int, int], b: tuple[int, int]) -> float:
    """The cost of the straight move from the centre of ``a`` to that of ``b`` by the segment cost rule
    (``inf`` if it touches an impassable tile); between neighbours, the grid step's cost.

    >>> import numpy as np
    >>> from wargrid import SquareGrid
    >>> from wargrid.costs import CostField
    >>> g = SquareGrid(4, 1)
    >>> segment_cost(g, CostField.from_arrays(g, [[5.0, 1.0, 2.0, 3.0]]), (0, 0), (3, 0))
    6.0
    """
    a = grid.check_cell(a, "a")
    b = grid.check_cell(b, "b")
    field = _cost_field(grid, costs, "costs")
    geo = _geometry(grid)
    bx = _virtual_b(grid, geo, a, b)
    if a == b:
        return 0.0
    if b in grid.neighbors(a):
        vx, vy = unwrap_cells(grid, [a, b])
        return float(grid_step_costs(grid, field, vx, vy)[0])
    from .._kernels.tactics.smoothing import segment_cost as kernel

    c, _ = kernel(a[0], a[1], bx, b[1], _segment_costs(field), geo.args, geo.next_gen(), np.empty(256, dtype=np.int64),
                  step_length(grid))
    return float(c)


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
    bx = _virtual_b(grid, geo, a, b)
    ok, _ = segment_clear(a[0], a[1], bx, b[1], blocked, geo.args, geo.next_gen(), np.empty(256, dtype=np.int64))
    return bool(ok)

