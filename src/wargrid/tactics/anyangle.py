"""Any-angle search over terrain costs: Theta* whose straight segments pay what they cross.

``any_angle_path`` finds a route of straight segments between cell centres
from ``start`` to ``goal``. Each segment is clear (it touches only tiles
the unit may enter, edges and corners included) and is priced by the
segment cost rule of ``wargrid.tactics.smoothing``: the entry cost of every
tile it crosses times the length it runs inside it, in step lengths (the
stretch inside its start tile at its end tile's cost). The search is Lazy
Theta* (Nash, Koenig, Tovey) made cost-aware: expanding a cell relaxes each
neighbour by the grid step (path 1, exact) and by a *guess* of the straight
segment from the cell's parent (path 2: the parent segment's cost rate
continued); a guessed segment is priced exactly once, when its cell comes
off the open list with the guess as its best candidate, and a cell found
dearer than its key goes back into the list. A cell is closed only at an
exact price no higher than its key, path 1 is always a candidate and the
straight-line heuristic is consistent for grid steps, so the route never
costs more than the cheapest grid path (``Map.path``), and on a board of
uniform cost where the straight line is clear it is that line on square
and hex boards (on staggered boards a step costs 1 whatever its drawing
length, so a bent route can be cheaper than the line; a last pass links
each waypoint straight to the furthest later one where that is no dearer).
Like Theta* it is not always the cheapest any-angle route. On square boards
a segment's tiles are walked column by column in integer arithmetic.

Boards: square (4 or 8 directions), hex and staggered; not wrapped boards
(a straight segment across the seam has no single drawing).

>>> import numpy as np
>>> from wargrid import HexGrid
>>> from wargrid.costs import CostField
>>> g = HexGrid(8, 5)
>>> p = any_angle_path(g, CostField.from_arrays(g, np.ones((5, 8))), (0, 2), (6, 1))
>>> p.cells, round(p.cost, 4), round(p.length / 3 ** 0.5, 4)
([(0, 2), (6, 1)], 5.2915, 5.2915)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..costs import CostField
from ..errors import ArgumentError
from ..grids.boards import Grid
from .smoothing import _cost_field, _geometry, _polyline_length, _segment_costs, _step_ratios

__all__ = ["AnyAnglePath", "any_angle_path"]


@dataclass(frozen=True)
class AnyAnglePath:
    """An any-angle route: waypoint ``cells`` (``(x, y)``), their centres ``points`` in drawing units, the
    polyline's ``length`` and its ``cost`` by the segment cost rule, and the movement class ``unit``."""

    cells: list[tuple[int, int]]
    points: list[tuple[float, float]]
    length: float
    cost: float
    unit: str | None = None

    def __len__(self) -> int:
        return len(self.cells)


def any_angle_path(
    grid: Grid, costs: CostField | np.ndarray, start: tuple[int, int], goal: tuple[int, int], *, unit: str | None = None
) -> AnyAnglePath | None:
    """Theta* from ``start`` to ``goal`` (``(x, y)`` cells) over ``costs``; ``None`` if the goal cannot be reached.

    ``costs`` is a ``CostField`` (``Map.cost_field(unit=...)``) or a bool
    passable layer (every passable cell costs 1). A cell with an extra edge
    cost (a river bank) is entered step by step, never crossed by a longer
    segment.

    Raises
    ------
    ValueError
        On a wrapped board, or when ``costs`` belongs to another board.

    >>> import numpy as np
    >>> from wargrid import SquareGrid
    >>> ok = np.ones((5, 7), dtype=bool); ok[0:4, 3] = False
    >>> p = any_angle_path(SquareGrid(7, 5, diagonal=True), ok, (0, 0), (6, 0))
    >>> p.cells, round(p.cost, 3)
    ([(0, 0), (2, 4), (4, 4), (6, 0)], 10.944)
    """
    start = grid.check_cell(start, "start")
    goal = grid.check_cell(goal, "goal")
    if grid.wrap_x:
        raise ArgumentError("any_angle_path does not run on wrapped boards: use Map.path and smooth_path there")
    field = _cost_field(grid, costs, "costs")
    name = unit if unit is not None else field.unit
    geo = _geometry(grid)
    t = grid.topology
    if start == goal:
        x, y = start
        pt = (float(geo.cxa[t.padded_id(x, y)]), float(geo.cya[t.padded_id(x, y)]))
        return AnyAnglePath([start], [pt], 0.0, 0.0, name)
    s, g = t.padded_id(*start), t.padded_id(*goal)
    if not (np.isfinite(field.cell[s]) and np.isfinite(field.cell[g])):
        return None
    from .._kernels.tactics.anyangle import shortcut, theta_star

    step, spread = _step_ratios(grid)
    segc = _segment_costs(field)
    blocked = (~np.isfinite(segc)).view(np.uint8)
    topo = t.kernel_bundle
    flat = field.min_cost if field.uniform else 0.0
    # the search prices at most one segment a relaxation (ndir a cell), the last pass one a pair of waypoints
    gen = geo.next_gen(t.ndir * t.padded_size + 1)
    parent, cost, reached, _ = theta_star(field.cell, field.edge, segc, blocked, s, g, topo, geo.args, gen, step,
                                          field.min_cost / spread, flat)
    if not reached:
        return None
    chain = [g]
    while parent[chain[-1]] >= 0:
        chain.append(int(parent[chain[-1]]))
    ids = np.array(chain[::-1], dtype=np.int64)
    gen = geo.next_gen(len(ids) ** 2 + 1)
    keep, seg, n, _ = shortcut(ids, cost, field.cell, field.edge, segc, blocked, topo, geo.args, gen, step, flat)
    ids, total = ids[keep[:n]], float(seg[: n - 1].sum())
    xs, ys = ids % t.pw - 1, ids // t.pw - 1
    px, py = geo.cxa[ids], geo.cya[ids]
    return AnyAnglePath(
        cells=list(zip(xs.tolist(), ys.tolist())),
        points=list(zip(px.tolist(), py.tolist())),
        length=_polyline_length(px, py),
        cost=total,
        unit=name,
    )

