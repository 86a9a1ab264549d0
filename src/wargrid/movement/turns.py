"""Multi-turn routes: the fewest turns to a far goal, with the turn on which each cell is reached.

The rule for points left at the end of a turn: each turn the unit has
``points_per_turn`` movement points. A step is made this turn when its cost
fits in the points left; otherwise the unit stops and makes the step at the
start of the next turn, and the points it did not use are lost. A step that
costs more than a whole turn's points is never made. Entering a cell in an
enemy's zone of control ends the turn (see ``wargrid.movement.zoc``); enemy
cells block. Friendly units are not modelled here: a turn may end on a cell
a friend holds now (it may have moved on by then).

Among routes with the fewest turns the search picks one that spends the
fewest points in the last turn, so the unit arrives with the most points
left. The labels ``(turn, points used)`` are compared lexicographically and
the step rule is monotone in them, so one Dijkstra search is exact.

>>> from wargrid import Map, SquareGrid
>>> m = Map(SquareGrid(6, 1))
>>> r = m.route((0, 0), (5, 0), unit="foot", points_per_turn=5)
>>> r.turn_at, r.turns, r.ends()
([0, 0, 0, 1, 1, 2], 3, [(2, 0), (4, 0), (5, 0)])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ArgumentError
from .._validate import check_real
from ..costs import CostField
from ..grids.boards import Grid
from .search import path_cost, stop_array
from .zoc import occupied

__all__ = ["Route", "route"]


@dataclass(frozen=True)
class Route:
    """``cells`` from start to goal, ``turn_at[i]`` the turn on which ``cells[i]`` is reached (0: this turn).

    ``turns`` is how many turns the move takes (0 when already there);
    ``cost`` the movement points spent on the steps; ``unit`` the class.
    """

    cells: list[tuple[int, int]]
    turn_at: list[int]
    turns: int
    cost: float
    unit: str | None = None

    def __len__(self) -> int:
        return len(self.cells)

    def ends(self) -> list[tuple[int, int]]:
        """Where the unit stands at the end of each turn (the last one is the goal).

        >>> Route([(0, 0), (1, 0), (2, 0)], [0, 0, 1], 1, 4.0).ends()
        [(1, 0), (2, 0)]
        """
        out = []
        for i, c in enumerate(self.cells):
            if i + 1 == len(self.cells) or self.turn_at[i + 1] != self.turn_at[i]:
                if i > 0:
                    out.append(c)
        return out


def route(
    grid: Grid,
    costs: CostField,
    start: tuple[int, int],
    goal: tuple[int, int],
    *,
    points_per_turn: float,
    points_left: float | None = None,
    enemies: Any = None,
    ignore_zoc: bool = False,
) -> Route | None:
    """The route from ``start`` to ``goal`` taking the fewest turns (see the module notes), or ``None``.

    ``points_left``: the points the unit still has this turn (default: a full turn).
    Cells are ``(x, y)``; ``costs`` is a ``CostField`` such as ``Map.cost_field(unit=...)``.

    >>> from wargrid import Map, SquareGrid
    >>> m = Map(SquareGrid(6, 4))
    >>> r = route(m.grid, m.cost_field(unit="foot"), (0, 0), (5, 3), points_per_turn=4)
    >>> r.turns, r.ends()
    (4, [(2, 0), (4, 0), (5, 1), (5, 3)])
    """
    from .._kernels.movement.turns import route as _route_kernel
    from .._kernels.movement.astar import trace

    s_cell = grid.check_cell(start, "start")
    g_cell = grid.check_cell(goal, "goal")
    ppt = check_real(points_per_turn, "points_per_turn", minimum=0.0)
    if ppt <= 0:
        raise ArgumentError(f"points_per_turn must be > 0, got {ppt}")
    left = ppt if points_left is None else check_real(points_left, "points_left", minimum=0.0)
    if left > ppt:
        raise ArgumentError(f"points_left must be <= points_per_turn ({ppt}), got {left}")
    occ = occupied(grid, costs, enemies=enemies, ignore_zoc=ignore_zoc)
    unit = costs.unit
    if s_cell == g_cell:
        return Route([s_cell], [0], 0, 0.0, unit)
    topo = grid.topology
    c = occ.costs
    t = topo.padded_id(*g_cell)
    if not np.isfinite(c.cell[t]) or not np.isfinite(c.cell[topo.padded_id(*s_cell)]):
        return None
    n = topo.padded_size
    turn = np.full(n, -1, dtype=np.int64)
    used = np.zeros(n, dtype=np.float64)
    parent = np.empty(n, dtype=np.int32)
    found = _route_kernel(
        c.cell, c.edge, stop_array(grid, occ.stop), topo.padded_id(*s_cell), t, topo.kernel_bundle, ppt, ppt - left,
        (turn, used, parent, np.zeros(n, dtype=np.uint8)),
        (np.empty(n, dtype=np.int32), np.empty(n), np.empty(n), np.empty(n, dtype=np.int32)),
    )
    if not found:
        return None
    ids = trace(parent, t)
    turns = turn[ids].tolist()
    cost = path_cost(topo, c, ids)
    if not cost < np.inf:  # overflowed: unreachable, as for a path
        return None
    return Route(topo.cells_of(ids), turns, turns[-1] + 1, cost, unit)

