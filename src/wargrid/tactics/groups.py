"""Group orders: several units move to one goal without fighting over one cell.

``group_move`` works in four steps:

1. *Destinations*: the ``len(cells)`` free passable cells nearest the goal
   (a small uniform-cost search from the goal over the unit's costs; the
   cells of other units, ``occupied``, are not free; the group's own cells
   are). With ``keep_formation`` the group keeps its shape instead: each
   unit's destination is the goal plus its lattice offset from the unit
   nearest the group's centre (or the nearest free cell to that spot).
2. *One search for the group*: a flow field (``wargrid.movement.flow_field``)
   toward all the destinations at once; every unit reads its way to the
   destination area from it.
3. *Assignment*: a unit's cost to a destination is its flow-field cost to
   the area plus the walk inside the area from where it enters to that
   destination; the assignment minimises the total (the Hungarian method,
   exact, ``O(k^3)``). With ``keep_formation`` the shape fixes it.
4. *Paths*: the flow-field path, then the walk inside the area.

Timing: ``speeds`` are movement points per tick (default 1 for every unit).
With ``keep_formation`` every unit moves at the speed of the slowest member
(``speed``); ``positions(tick)`` gives every unit's place in drawing units.

>>> from wargrid import SquareGrid, Map
>>> m = Map(SquareGrid(8, 5))
>>> g = group_move(m.grid, m.cost_field(unit="cavalry"), [(0, 0), (0, 2), (0, 4)], (6, 2))
>>> g.destinations, g.total_cost
([(6, 1), (5, 2), (6, 2)], 20.0)
>>> f = group_move(m.grid, m.cost_field(unit="cavalry"), [(0, 0), (0, 2), (0, 4)], (6, 2), keep_formation=True,
...                speeds=[1, 2, 0.5])
>>> f.destinations, f.speed, f.positions(3)
([(6, 0), (6, 2), (6, 4)], 0.5, [(2.0, 0.5), (2.0, 2.5), (2.0, 4.5)])
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..errors import ArgumentError, ArgumentTypeError
from .._validate import check_cell_pair, check_real
from ..costs import CostField
from ..grids.boards import Grid
from ..movement.dispatch import shortest_path
from ..movement.search import Path, distance_field
from .areas import is_hex, to_cells

Cell = tuple[int, int]

Tree = tuple[dict[Cell, float], dict[Cell, Cell | None]]
"""``(costs, parents)`` of a uniform-cost search inside an area (see ``_Board.tree``)."""

__all__ = ["GroupMove", "group_move", "assign"]


@dataclass(frozen=True)
class GroupMove:
    """The result of a group order, one entry per unit in the order given.

    ``destinations[i]`` / ``paths[i]`` are ``None`` for a unit that cannot
    reach the destination area. ``speed`` is the common speed with
    ``keep_formation`` (else ``None``); ``ticks`` the tick the last unit arrives.
    """

    starts: list[tuple[int, int]]
    goal: tuple[int, int]
    destinations: list[tuple[int, int] | None]
    paths: list[Path | None]
    total_cost: float
    speeds: list[float]
    speed: float | None
    ticks: float
    step_costs: list[list[float]] = field(repr=False)
    grid: Grid = field(repr=False)

    def positions(self, tick: float) -> list[tuple[float, float]]:
        """Every unit's place at ``tick`` in drawing units, along its path at its speed (cell centres
        joined by straight lines; a unit spends a step's cost moving between two centres).

        >>> from wargrid import SquareGrid, Map
        >>> m = Map(SquareGrid(5, 1))
        >>> g = group_move(m.grid, m.cost_field(unit="foot"), [(0, 0)], (4, 0))
        >>> g.positions(0), g.positions(3), g.positions(100)
        ([(0.5, 0.5)], [(2.0, 0.5)], [(4.5, 0.5)])
        """
        t = check_real(tick, "tick", minimum=0.0)
        out = []
        for i, p in enumerate(self.paths):
            if p is None:
                cx, cy = self.grid.center(self.starts[i])
                out.append((cx, cy))
                continue
            v = self.speed if self.speed is not None else self.speeds[i]
            out.append(point_along(self.grid, p.cells, self.step_costs[i], t * v))
        return out


def point_along(grid: Grid, cells: Sequence[tuple[int, int]], costs: Sequence[float], spent: float) -> tuple[float, float]:
    """The point reached after spending ``spent`` movement points along ``cells`` whose steps cost ``costs``
    (drawing units; continuous across the seam of a wrapped board).

    >>> from wargrid import SquareGrid
    >>> point_along(SquareGrid(3, 1), [(0, 0), (1, 0), (2, 0)], [2.0, 1.0], 2.5)
    (2.0, 0.5)
    """
    from ..grids.boards import unwrap_cells

    vx, vy = unwrap_cells(grid, cells)
    cx, cy = grid.centers_of(vx, vy)
    acc = 0.0
    for i, c in enumerate(costs):
        if spent < acc + c:
            f = (spent - acc) / c if c > 0 else 1.0
            return float(cx[i] + f * (cx[i + 1] - cx[i])), float(cy[i] + f * (cy[i + 1] - cy[i]))
        acc += c
    return float(cx[-1]), float(cy[-1])


# -- small searches --------------------------------------------------------------------

class _Board:
    """The unit's costs as Python reads them: entry cost, edge costs, the corner rule."""

    def __init__(self, grid: Grid, costs: CostField) -> None:
        self.grid = grid
        t = grid.topology
        self.t = t
        self.cell = np.asarray(costs.cell)
        self.edge = np.asarray(costs.edge)

    def pid(self, c: tuple[int, int]) -> int:
        return (c[1] + 1) * self.t.pw + c[0] + 1

    def passable(self, c: tuple[int, int] | None) -> bool:
        return c is not None and bool(np.isfinite(self.cell[self.pid(c)]))

    def moves(self, c: tuple[int, int]) -> list[tuple[tuple[int, int], float]]:
        """``(neighbour, cost)`` of every step ``c`` may take (passable, corner rule, edge costs)."""
        t = self.t
        out = []
        for st in self.grid.steps(c):
            n, d = st.cell, st.direction
            cost = st.length * float(self.cell[self.pid(n)])
            if self.edge.size:
                cost += float(self.edge[self.pid(c) * t.ndir + d])
            if not math.isfinite(cost):
                continue
            c0, c1 = int(t.corner[d, 0]), int(t.corner[d, 1])
            if c0 >= 0 and t.corner_rule:
                a = self.passable(self.grid.neighbor(c, c0))
                b = self.passable(self.grid.neighbor(c, c1))
                if (t.corner_rule == 1 and not (a and b)) or (t.corner_rule == 2 and not (a or b)):
                    continue
            out.append((n, cost))
        return out

    def nearest(
        self, source: Cell, k: int, taken: set[Cell], within: set[Cell] | None = None
    ) -> list[Cell]:
        """Up to ``k`` passable cells not in ``taken``, nearest ``source`` first (uniform-cost search)."""
        dist = {source: 0.0}
        heap = [(0.0, source[1], source[0])]
        out: list[tuple[int, int]] = []
        while heap and len(out) < k:
            d, y, x = heapq.heappop(heap)
            c = (x, y)
            if d > dist[c]:
                continue
            if self.passable(c) and c not in taken:
                out.append(c)
            if not self.passable(c) and c != source:
                continue
            for n, cost in self.moves(c):
                if within is not None and n not in within:
                    continue
                nd = d + cost
                if nd < dist.get(n, math.inf):
                    dist[n] = nd
                    heapq.heappush(heap, (nd, n[1], n[0]))
        return out

    def tree(self, source: Cell, within: set[Cell]) -> Tree:
        """Costs and parents of a uniform-cost search from ``source`` that stays inside ``within``."""
        dist = {source: 0.0}
        parent: dict[Cell, Cell | None] = {source: None}
        heap = [(0.0, source[1], source[0])]
        while heap:
            d, y, x = heapq.heappop(heap)
            c = (x, y)
            if d > dist[c]:
                continue
            for n, cost in self.moves(c):
                if n not in within:
                    continue
                nd = d + cost
                if nd < dist.get(n, math.inf):
                    dist[n] = nd
                    parent[n] = c
                    heapq.heappush(heap, (nd, n[1], n[0]))
        return dist, parent


def assign(cost: ArrayLike) -> NDArray[np.int64]:
    """The column for each row of a square ``cost`` matrix that minimises the total (Hungarian method, a kernel).

    ``inf`` entries are avoided whenever an assignment without them exists.

    >>> assign(np.array([[4.0, 1.0, 3.0], [2.0, 0.0, 5.0], [3.0, 2.0, 2.0]])).tolist()
    [1, 0, 2]
    """
    c = np.asarray(cost, dtype=np.float64)
    n = c.shape[0] if c.ndim else -1
    if c.ndim != 2 or c.shape != (n, n):
        raise ArgumentError(f"cost must be a square matrix, got shape {c.shape}")
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    finite = c[np.isfinite(c)]
    if np.isnan(c).any():
        raise ArgumentError("cost must not hold NaN")
    big = (float(np.abs(finite).max()) + 1.0) * (n + 1) if finite.size else 1.0
    from .._kernels.tactics.groups import hungarian

    cols: NDArray[np.int64] = hungarian(np.ascontiguousarray(np.where(np.isfinite(c), c, big)))
    return cols


# -- the order ------------------------------------------------------------------------------

def _check_cells(grid: Grid, cells: Any) -> list[tuple[int, int]]:
    if isinstance(cells, tuple) and len(cells) == 2 and all(isinstance(v, (int, np.integer)) for v in cells):
        raise ArgumentTypeError(f"cells must be a list of (x, y) cells, got a single cell {cells!r}: wrap it in a list")
    try:
        items = list(cells)
    except TypeError:
        raise ArgumentTypeError(f"cells must be a list of (x, y) cells, got {type(cells).__name__}") from None
    if not items:
        raise ArgumentError("cells must hold at least one cell")
    out = [grid.check_cell(check_cell_pair(c, f"cells[{i}]"), f"cells[{i}]") for i, c in enumerate(items)]
    if len(set(out)) != len(out):
        dup = next(c for c in out if out.count(c) > 1)
        raise ArgumentError(f"cells must stand on distinct cells; {dup} appears twice")
    return out


def _check_speeds(speeds: Any, n: int) -> list[float]:
    if speeds is None:
        return [1.0] * n
    vals = list(speeds)
    if len(vals) != n:
        raise ArgumentError(f"speeds must have one entry per unit: {n} units, got {len(vals)} speeds")
    out = []
    for i, v in enumerate(vals):
        f = check_real(v, f"speeds[{i}]")
        if f <= 0:
            raise ArgumentError(f"speeds[{i}] must be > 0 (movement points per tick), got {f}")
        out.append(f)
    return out


def _formation(board: _Board, units: list[Cell], goal: Cell, taken: set[Cell]) -> list[Cell | None]:
    grid = board.grid
    xs = np.array([u[0] for u in units])
    ys = np.array([u[1] for u in units])
    cx, cy = grid.centers_of(xs, ys)
    anchor = int(np.argmin((cx - cx.mean()) ** 2 + (cy - cy.mean()) ** 2))
    if is_hex(grid):
        q, r = grid.hexes_of(xs, ys)
        a, b = q - q[anchor], r - r[anchor]
    else:
        a, b = xs - xs[anchor], ys - ys[anchor]
        if grid.wrap_x:
            a = (a + grid.width // 2) % grid.width - grid.width // 2
    tx, ty, on = to_cells(grid, goal, a.astype(np.int64), b.astype(np.int64))
    used = set(taken)
    out: list[tuple[int, int] | None] = [None] * len(units)
    # the anchor first, then the others nearest the anchor first
    order = sorted(range(len(units)), key=lambda i: (abs(int(a[i])) + abs(int(b[i])), i))
    for i in order:
        spot = (int(tx[i]), int(ty[i])) if on[i] else None
        if spot is None or spot in used or not board.passable(spot):
            src = spot if spot is not None else goal
            near = board.nearest(src, 1, used)
            spot = near[0] if near else None
        if spot is not None:
            used.add(spot)
        out[i] = spot
    return out


def group_move(
    grid: Grid,
    costs: CostField,
    cells: Sequence[tuple[int, int]],
    goal: tuple[int, int],
    *,
    occupied: Sequence[tuple[int, int]] = (),
    keep_formation: bool = False,
    speeds: Sequence[float] | None = None,
) -> GroupMove:
    """Send the units standing on ``cells`` (``(x, y)`` each) to ``goal`` together; see the module text.

    ``costs`` is the unit class's ``CostField`` (``Map.cost_field(unit=...)``);
    ``occupied``: cells other units hold (never a destination).

    >>> from wargrid import Map, SquareGrid
    >>> m = Map(SquareGrid(4, 1))
    >>> group_move(m.grid, m.cost_field(unit="foot"), [(0, 0)], (3, 0), occupied=[(3, 0)]).destinations
    [(2, 0)]
    """
    from ..movement.fields import flow_field

    cells = _check_cells(grid, cells)
    goal = grid.check_cell(goal, "goal")
    if not isinstance(keep_formation, (bool, np.bool_)):
        raise ArgumentTypeError(f"keep_formation must be True or False, got {keep_formation!r}")
    speeds_l = _check_speeds(speeds, len(cells))
    taken = {grid.check_cell(check_cell_pair(c, f"occupied[{i}]"), f"occupied[{i}]") for i, c in enumerate(occupied)}
    taken -= set(cells)
    board = _Board(grid, costs)
    for i, u in enumerate(cells):
        if not board.passable(u):
            raise ArgumentError(f"cells[{i}] {u} stands on a cell impassable for this unit class")
    k = len(cells)
    if keep_formation:
        fixed = _formation(board, cells, goal, taken)
        dests = [d for d in fixed if d is not None]
    else:
        dests = board.nearest(goal, k, taken)
    if not dests:
        raise ArgumentError(f"goal {goal}: no free passable cell for this unit class is reachable around it")
    area = set(dests)
    ff = flow_field(grid, costs, dests)
    # where each unit enters the destination area, and what it costs to get there
    entry: list[tuple[int, int] | None] = []
    to_area: list[float] = []
    ff_paths: list[Path | None] = []
    for u in cells:
        p = ff.path_from(u)
        ff_paths.append(p)
        entry.append(None if p is None else p.cells[-1])
        to_area.append(math.inf if p is None else p.cost)
    trees = {e: board.tree(e, area) for e in set(e for e in entry if e is not None)}
    if keep_formation:
        chosen: list[tuple[int, int] | None] = list(fixed)
    else:
        cost = np.full((k, max(k, len(dests))), math.inf)
        for i in range(k):
            e = entry[i]
            if e is None:
                continue
            dist = trees[e][0]
            for j, dcell in enumerate(dests):
                cost[i, j] = to_area[i] + dist.get(dcell, math.inf)
            # the flow field's entry point depends on how it broke ties, so the
            # estimate above is only an upper bound: a Dijkstra from the unit,
            # bounded by it, gives the exact cost of every destination
            row = cost[i][np.isfinite(cost[i])]
            if row.size:
                exact = distance_field(grid, costs, [cells[i]], max_cost=float(row.max()))
                for j, (dx, dy) in enumerate(dests):
                    cost[i, j] = min(cost[i, j], float(exact[dy, dx]))
        m = max(k, len(dests))
        square = np.full((m, m), 0.0)
        square[:k, :] = cost
        cols = assign(square)[:k]
        chosen = [dests[j] if j < len(dests) and math.isfinite(cost[i, j]) else None for i, j in enumerate(cols.tolist())]
    paths: list[Path | None] = []
    steps: list[list[float]] = []
    for i, u in enumerate(cells):
        d = chosen[i]
        e = entry[i]
        tree = None if e is None else trees.get(e)
        got = None if d is None else _join(grid, costs, board, ff_paths[i], tree, u, d)
        if got is not None and d is not None and not keep_formation:
            j = dests.index(d)
            if got[0].cost > cost[i, j] + 1e-9:  # a straighter way than through the entry point
                direct = shortest_path(grid, costs, u, d, search="astar")
                if direct is not None:
                    got = (direct, [next(c for n, c in board.moves(a) if n == b)
                                    for a, b in zip(direct.cells, direct.cells[1:])])
        paths.append(None if got is None else got[0])
        steps.append([] if got is None else got[1])
    dest_out = [d if p is not None else None for d, p in zip(chosen, paths)]
    total = float(sum(p.cost for p in paths if p is not None))
    speed = min(speeds_l) if keep_formation else None
    ticks = 0.0
    for i, p in enumerate(paths):
        if p is not None:
            ticks = max(ticks, p.cost / (speed if speed is not None else speeds_l[i]))
    return GroupMove(cells, goal, dest_out, paths, total, speeds_l, speed, ticks, steps, grid)


def _join(grid: Grid, costs: CostField, board: _Board, ff_path: Path | None, tree: Tree | None,
          start: tuple[int, int], dest: tuple[int, int]) -> tuple[Path, list[float]] | None:
    """The flow-field path to the area, then the walk inside the area to ``dest`` (or A* if the area splits)."""
    if ff_path is not None and tree is not None and dest in tree[1]:
        walk = [dest]
        prev = tree[1][dest]
        while prev is not None:
            walk.append(prev)
            prev = tree[1][prev]
        cells = list(ff_path.cells) + walk[::-1][1:]
    else:
        p = shortest_path(grid, costs, start, dest)
        if p is None:
            return None
        cells = list(p.cells)
    steps = []
    for a, b in zip(cells[:-1], cells[1:]):
        steps.append(next(c for n, c in board.moves(a) if n == b))
    return Path(cells, float(sum(steps)), costs.unit), steps
