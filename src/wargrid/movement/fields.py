"""Movement range (what a turn-based game highlights) and flow fields (one search, many units).

>>> from wargrid import Map, SquareGrid
>>> import numpy as np
>>> m = Map(SquareGrid(5, 1))
>>> r = m.movement_range((0, 0), 3, unit="foot", attack_range=1)
>>> r.cells(), r.remaining[0].tolist(), r.attack[0].tolist()
([(0, 0), (1, 0)], [3.0, 1.0, -inf, -inf, -inf], [True, True, True, False, False])
>>> f = m.flow_field((4, 0), unit="foot")
>>> f.step((0, 0)), f.path_from((2, 0)).cost
((1, 0), 4.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..errors import ArgumentError
from .._validate import check_int, check_real
from ..costs import CostField
from ..grids.boards import Grid
from .clearance import check_size, footprint_costs, sized_costs
from .search import Path, dijkstra_field
from .._kernels.bundles import INFO_CORNER_RULE, FieldArrays
from .zoc import occupied
from .._display import Shown

__all__ = ["MovementRange", "FlowField", "movement_range", "flow_field", "steps_field"]


@dataclass(frozen=True, eq=False)
class MovementRange(Shown):
    """Where a unit can move this turn.

    ``cost``: ``(height, width)`` cheapest cost from ``start`` (``inf`` past the
    ``max_cost`` or unreachable); ``remaining``: ``max_cost - cost``, so ``-inf`` where
    the unit cannot go; ``reachable``: cells it can end its move on (within
    ``max_cost`` and not held by a friend); ``attack``: cells within
    ``attack_range`` steps (board distance, terrain ignored) of a reachable
    cell, the reachable cells included.
    """

    start: tuple[int, int]
    max_cost: float
    cost: np.ndarray = field(repr=False)
    remaining: np.ndarray = field(repr=False)
    reachable: np.ndarray = field(repr=False)
    attack: np.ndarray = field(repr=False)
    unit: str | None
    grid: Grid
    _parent: np.ndarray = field(repr=False)

    def cells(self) -> list[tuple[int, int]]:
        """The reachable cells, row by row."""
        ys, xs = np.nonzero(self.reachable)
        return list(zip(xs.tolist(), ys.tolist()))

    def attack_cells(self) -> list[tuple[int, int]]:
        """Cells in attack range that the unit cannot move to, row by row."""
        ys, xs = np.nonzero(self.attack & ~self.reachable)
        return list(zip(xs.tolist(), ys.tolist()))

    def __contains__(self, cell: object) -> bool:
        try:
            x, y = self.grid.check_cell(cell)  # type: ignore[arg-type]
        except (TypeError, IndexError):
            return False
        return bool(self.reachable[y, x])

    def path_to(self, cell: tuple[int, int]) -> Path | None:
        """The cheapest path from ``start`` to ``cell``, or ``None`` if it is out of range."""
        from .._kernels.movement.astar import trace

        x, y = self.grid.check_cell(cell, "cell")
        if not math.isfinite(self.cost[y, x]):
            return None
        topo = self.grid.topology
        ids = trace(self._parent, topo.padded_id(x, y))
        pw = topo.pw
        return Path([(int(p % pw - 1), int(p // pw - 1)) for p in ids.tolist()], float(self.cost[y, x]), self.unit,
                    self.grid)


def steps_field(grid: Grid, sources: NDArray[np.int64], max_steps: int) -> NDArray[np.float64]:
    """Padded board distance in steps (every step 1, terrain and corner rule ignored) from padded sources."""
    from .._kernels.movement.dijkstra import dijkstra

    topo = grid.topology
    tb = topo.kernel_bundle
    info = tb.info.copy()
    info[INFO_CORNER_RULE] = 0  # every step counts, whatever stands at the corners
    n = topo.padded_size
    ones, none, step = topo.pad(np.ones(grid.shape), np.inf), np.zeros(0), np.ones(topo.ndir)
    for a in (ones, none, step):  # read-only as a cost field's and a topology's steps: no second signature compiled
        a.flags.writeable = False
    dist = np.full(n, np.inf)
    field = FieldArrays(dist, np.empty(n, dtype=np.int32), np.empty(n, dtype=np.int8), np.empty(n, dtype=np.int32),
                        np.empty(n), np.empty(n, dtype=np.int32))
    dijkstra(ones, none, np.zeros(0, dtype=np.uint8), sources, tb._replace(step=step, info=info), float(max_steps),
             False, field)
    return dist


def movement_range(
    grid: Grid,
    costs: CostField,
    start: tuple[int, int],
    max_cost: float,
    *,
    attack_range: int = 0,
    enemies: Any = None,
    friends: Any = None,
    ignore_zoc: bool = False,
    size: int = 1,
) -> MovementRange:
    """Every cell reachable from ``start`` within ``max_cost`` movement points (see ``MovementRange``).

    With ``size`` > 1 (a unit bigger than one cell, see
    ``wargrid.movement.clearance``) ``start`` and the reachable cells are
    anchors of the footprint; zones of control are for one-cell units only.
    """
    start = grid.check_cell(start, "start")
    max_cost = check_real(max_cost, "max_cost", minimum=0.0)
    attack_range = check_int(attack_range, "attack_range")
    if attack_range < 0:
        raise ArgumentError(f"attack_range must be >= 0, got {attack_range}")
    size = check_size(grid, size)
    if size != 1:
        if enemies is not None or friends is not None:
            raise ArgumentError("enemies and friends (zones of control) apply to one-cell units only; got size="
                                f"{size}")
        costs = footprint_costs(grid, costs, size)
    occ = occupied(grid, costs, enemies=enemies, friends=friends, ignore_zoc=ignore_zoc)
    topo = grid.topology
    f = dijkstra_field(grid, occ.costs, np.array([topo.padded_id(*start)]), max_cost=max_cost, stop=occ.stop)
    cost = topo.unpad(f.dist)
    reachable = np.isfinite(cost)
    if occ.no_stop is not None:
        reachable &= ~occ.no_stop
        reachable[start[1], start[0]] = bool(np.isfinite(cost[start[1], start[0]]))
    if attack_range > 0:
        ys, xs = np.nonzero(reachable)
        src = ((ys + 1) * topo.pw + xs + 1).astype(np.int64)
        attack = np.isfinite(topo.unpad(steps_field(grid, src, attack_range)))
    else:
        attack = reachable.copy()
    for a in (cost, reachable, attack):
        a.setflags(write=False)
    remaining = max_cost - cost
    remaining.setflags(write=False)
    return MovementRange(start, max_cost, cost, remaining, reachable, attack, costs.unit, grid, f.parent)


@dataclass(frozen=True, eq=False)
class FlowField(Shown):
    """The next step toward the nearest goal from every cell.

    ``cost``: ``(height, width)`` cheapest cost from each cell to the nearest
    goal (``inf``: cannot get there, or the cell is impassable); ``next``:
    ``(height, width)`` int8 direction of the first step (``grid.neighbor``),
    ``-1`` at a goal and where ``cost`` is ``inf``.
    """

    goals: tuple[tuple[int, int], ...]
    cost: np.ndarray = field(repr=False)
    next: np.ndarray = field(repr=False)
    unit: str | None
    grid: Grid
    _parent: np.ndarray = field(repr=False)

    def step(self, cell: tuple[int, int]) -> tuple[int, int] | None:
        """The cell to move to from ``cell``; ``None`` at a goal or where no goal can be reached."""
        x, y = self.grid.check_cell(cell, "cell")
        d = int(self.next[y, x])
        return None if d < 0 else self.grid.neighbor((x, y), d)

    def path_from(self, cell: tuple[int, int]) -> Path | None:
        """The cheapest path from ``cell`` to the nearest goal, or ``None``."""
        x, y = self.grid.check_cell(cell, "cell")
        if not math.isfinite(self.cost[y, x]):
            return None
        topo = self.grid.topology
        pw = topo.pw
        p = topo.padded_id(x, y)
        out = []
        while p >= 0:
            out.append((int(p % pw - 1), int(p // pw - 1)))
            p = int(self._parent[p])
        return Path(out, float(self.cost[y, x]), self.unit, self.grid)


def flow_field(grid: Grid, costs: CostField, goals: Any, *, size: int = 1) -> FlowField:
    """Search once backwards from ``goals`` (one ``(x, y)`` or a list); see ``FlowField``.

    Only passable cells get a direction, and a goal on an impassable cell is
    never reached from another cell (as with ``path``; the rules:
    ``wargrid.movement.search``). With ``size`` > 1 (a unit bigger than one
    cell, ``wargrid.movement.clearance``) the cells are the footprint's anchors.
    """
    gs = grid.check_cells(goals, "goals")
    if not gs:
        raise ArgumentError("goals must hold at least one (x, y) cell, got an empty list")
    costs = sized_costs(grid, costs, size)
    topo = grid.topology
    ids = np.array([topo.padded_id(*c) for c in gs], dtype=np.int64)
    f = dijkstra_field(grid, costs, ids, reverse=True)
    cost = topo.unpad(f.dist)
    nxt = topo.unpad(f.pdir)
    nxt[~np.isfinite(cost)] = -1
    for c in gs:
        nxt[c[1], c[0]] = -1
    cost.setflags(write=False)
    nxt.setflags(write=False)
    return FlowField(tuple(gs), cost, nxt, costs.unit, grid, f.parent)
