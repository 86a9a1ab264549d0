"""A search, step by step: what breadth-first, Dijkstra, greedy best-first and A* close and open, in order.

``trace_search`` runs the same walk over the board as ``Map.path``'s A*
(``wargrid._kernels.movement.explain``): the same entry costs, step lengths
(square-8 diagonals), corner rule, edge costs and order of ties. With
``algorithm='astar'`` its path and cost are ``Map.path``'s wherever A*
answers it. Pictures of a search (the playground's step-through, the guide)
draw from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..costs import CostField
from ..errors import ArgumentError, CellError
from .._kernels import load
from .search import SearchState, octile_bits, padded_id, plain_moves

__all__ = ["ALGORITHMS", "SearchTrace", "trace_search"]

ALGORITHMS = ("bfs", "dijkstra", "greedy", "astar")
"""The searches ``trace_search`` runs, by name (the kernel's ``mode`` is the index)."""


@dataclass(frozen=True, eq=False)
class SearchTrace:
    """What a search did, in order.

    Attributes
    ----------
    order : ndarray of int64
        Cell ids (``y * width + x``) in the order the search closed them.
    parent : ndarray of int64
        ``parent[k]``: the cell ``order[k]`` was reached from (-1 for the start).
    g : ndarray of float64
        ``g[k]``: the cost from the start to ``order[k]`` (breadth-first: the steps).
    h : ndarray of float64
        ``h[k]``: the heuristic estimate from ``order[k]`` to the goal, in steps
        (the search weighs it by the cheapest entry cost).
    opened : ndarray of int64
        Cell ids in the order the search first put them in its open set.
    opened_at : ndarray of int64
        ``opened_at[j]``: how many cells were closed when ``opened[j]`` was opened.
    goal_reached : bool
        The goal was closed.
    algorithm : str
        One of ``ALGORITHMS``.
    hscale : float
        What ``h`` is multiplied by in the priority (``f = g + hscale * h`` for A*).
    goal : int
        The goal's cell id (-1: none).
    """

    order: NDArray[np.int64]
    parent: NDArray[np.int64]
    g: NDArray[np.float64]
    h: NDArray[np.float64]
    opened: NDArray[np.int64]
    opened_at: NDArray[np.int64]
    goal_reached: bool
    algorithm: str
    hscale: float
    goal: int

    def open_after(self, k: int) -> NDArray[np.int64]:
        """The cell ids in the open set once ``k`` cells are closed.

        >>> from wargrid import Map, SquareGrid
        >>> t = trace_search(Map(SquareGrid(3, 1)).cost_field(), (0, 0), (2, 0))
        >>> t.open_after(0).tolist(), t.open_after(1).tolist(), t.open_after(3).tolist()
        ([0], [1], [])
        """
        opened = self.opened[self.opened_at <= k]
        return opened[~np.isin(opened, self.order[:k])]

    def path(self) -> list[int]:
        """The cell ids from the start to the goal along the parents (empty when the goal was not reached).

        >>> from wargrid import Map, SquareGrid
        >>> trace_search(Map(SquareGrid(3, 1)).cost_field(), (0, 0), (2, 0)).path()
        [0, 1, 2]
        """
        if not self.goal_reached:
            return []
        where = {c: k for k, c in enumerate(self.order.tolist())}
        k = where[self.goal]
        out = [self.goal]
        while self.parent[k] >= 0:
            out.append(int(self.parent[k]))
            k = where[out[-1]]
        return out[::-1]


def trace_search(
    costs: CostField,
    start: tuple[int, int],
    goal: tuple[int, int] | None,
    *,
    algorithm: str = "astar",
    early_exit: bool = True,
) -> SearchTrace:
    """Run one search from ``start`` over ``costs`` and record every cell it closes and opens.

    Parameters
    ----------
    costs : CostField
        The movement class's costs (``Map.cost_field(unit=...)``).
    start : tuple of int
        The ``(x, y)`` the search starts from (passable).
    goal : tuple of int or None
        The ``(x, y)`` it looks for; ``None``: no goal (the heuristic is 0
        and every reachable cell is closed).
    algorithm : str
        'bfs', 'dijkstra', 'greedy' or 'astar' (``Map.path``'s search).
    early_exit : bool
        Stop when the goal is closed.

    Returns
    -------
    SearchTrace

    Raises
    ------
    ValueError
        An unknown ``algorithm`` (``ArgumentError``), or an impassable start.
    IndexError
        A cell off the board.

    Examples
    --------
    >>> from wargrid import Map, SquareGrid
    >>> m = Map(SquareGrid(3, 1))
    >>> t = trace_search(m.cost_field(), (0, 0), (2, 0))
    >>> t.order.tolist(), t.parent.tolist(), t.g.tolist(), t.goal_reached
    ([0, 1, 2], [-1, 0, 1], [0.0, 2.0, 4.0], True)
    """
    if not isinstance(algorithm, str) or algorithm not in ALGORITHMS:
        raise ArgumentError(f"algorithm must be one of {', '.join(ALGORITHMS)}; got {algorithm!r}")
    topo = costs.topology
    w, h = topo.width, topo.height
    for name, c in (("start", start), ("goal", goal)):
        if c is None:
            continue
        if not (isinstance(c, tuple) and len(c) == 2 and all(isinstance(v, (int, np.integer)) for v in c)):
            raise ArgumentError(f"{name} must be an (x, y) tuple of integers, got {c!r}")
        if not (0 <= c[0] < w and 0 <= c[1] < h):
            raise CellError(f"{name} {c} is off the {w} x {h} board")
    s = padded_id(topo, start)
    if not np.isfinite(costs.cell[s]):
        raise ArgumentError(f"start {start} is impassable for {costs.unit}")
    t = padded_id(topo, goal) if goal is not None else -1
    n = topo.padded_size
    state = SearchState(n)
    order = np.empty(n, dtype=np.int64)
    par = np.empty(n, dtype=np.int64)
    gout = np.empty(n, dtype=np.float64)
    hout = np.empty(n, dtype=np.float64)
    opened = np.empty(n, dtype=np.int64)
    opened_at = np.empty(n, dtype=np.int64)
    mode = ALGORITHMS.index(algorithm)
    hscale = float(costs.min_cost) if goal is not None else 0.0
    # where Map.path's A* keeps exact costs (square-8, whole costs), the step-through is that very search
    moves = plain_moves(topo, costs, lazy=True) if algorithm == "astar" and t >= 0 and early_exit else None
    octb = octile_bits(topo, costs, hscale) if moves is not None and topo.heuristic == 1 else None
    reached = -2
    if octb is not None:
        a: Any = load("movement.astar")
        reached, nc, no = a.octile_search(costs.cell, moves, bool(costs.uniform), s, t, topo.kernel_bundle, octb,
                                          state.arrays, state.next_gen(), (order, par, gout, hout, opened, opened_at))
    if reached == -2:
        k: Any = load("movement.explain")
        nc, no, reached = k.search_trace(
            costs.cell, costs.edge, s, t if t >= 0 else s, bool(early_exit and t >= 0), topo.kernel_bundle, hscale,
            mode, state.arrays, state.next_gen(), order, par, gout, hout, opened, opened_at,
        )
    pw = topo.pw

    def ids(p: NDArray[np.int64]) -> NDArray[np.int64]:
        out = (p // pw - 1) * w + (p % pw - 1)
        return np.where(p < 0, -1, out)

    hh = hout[:nc].copy() if goal is not None else np.zeros(nc)
    return SearchTrace(
        order=ids(order[:nc]), parent=ids(par[:nc]), g=gout[:nc].copy(), h=hh,
        opened=ids(opened[:no]), opened_at=opened_at[:no].copy(),
        goal_reached=bool(goal is not None and reached >= 0), algorithm=algorithm, hscale=hscale,
        goal=-1 if goal is None else goal[1] * w + goal[0],
    )
