"""The classic RTS pathfinder: a straight line, edge following, and a move optimiser.

In the tradition of the early real-time strategy engines: walk the straight
line toward the goal; at an obstacle, find the first passable cell beyond it
on that line, follow the obstacle's edge both ways (turning left and turning
right) until that cell is reached, and keep the shorter walk, counted in
moves as the classic engine counts it (a diagonal is one move); give up on
an edge after ``follow_limit`` steps. When neither way reaches the cell (it
is walled off from here), the next passable cell beyond the next obstacle on
the line is tried, at most ``retries`` times (``SKIP_RETRIES``, five, as in
the classic engine); then the search ends 'blocked' with the partial path. The move optimiser then cuts loops and
back-and-forth steps and replaces two steps by one wherever a single step
joins their ends (a diagonal on square-8 boards, the middle direction on hex
boards). The result is a list of directions, fast to find and not optimal;
units ask for it in pieces (``max_steps``) and replan as they go.

One kernel serves every board kind through the board's ``Topology``: the
straight line steps to the neighbour whose centre is nearest the goal's, and
edge following turns through the directions sorted by angle.

>>> import numpy as np
>>> from wargrid import SquareGrid
>>> costs = np.ones((5, 7)); costs[0:4, 3] = np.inf      # a wall with a gap at the bottom
>>> p = classic_path(SquareGrid(7, 5, diagonal=True), costs, (1, 1), (5, 1))
>>> p.outcome, p.cells[0], p.cells[-1], p.moves, round(p.length, 3)
('arrived', (1, 1), (5, 1), 8, 8.828)
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .._deprecation import warn_renamed
from ..errors import ArgumentError, ArgumentTypeError
from .._validate import check_int
from ..costs import CostField
from .._kernels.bundles import ClassicGeometry
from ..grids.boards import Grid, Topology
from .._scratch import per_thread

__all__ = ["ClassicPath", "classic_path", "OUTCOMES", "SKIP_RETRIES"]

SKIP_RETRIES = 5
"""How many more landing cells beyond an obstacle the search tries once the first is walled off (the classic five)."""

OUTCOMES = ("arrived", "piece", "blocked", "full")
"""How a classic search ended: reached the goal; stopped after ``max_steps``;
found no way on (the goal is blocked or walled off, edge following ran past
its limit, or ``retries`` landing cells beyond an obstacle were walled off);
or the path outgrew its buffer."""


@dataclass(frozen=True)
class ClassicPath:
    """A classic path: ``cells`` from the start, the ``directions`` of its steps, and how it ended.

    ``moves`` counts the steps (the classic engine's measure: a diagonal is
    one move); ``length`` sums the step lengths (a diagonal is sqrt 2);
    ``cost`` sums step length times the entry cost of each cell entered (the
    cost ``Map.path`` reports).
    ``outcome`` is one of ``OUTCOMES``; the path is partial unless it is
    'arrived'. (A path's outcome; a simulated unit has a ``state``.)
    """

    cells: list[tuple[int, int]]
    directions: np.ndarray
    length: float
    cost: float
    outcome: str

    @property
    def status(self) -> str:
        """Deprecated: ``outcome``."""
        warn_renamed("ClassicPath.status", "ClassicPath.outcome")
        return self.outcome

    @property
    def moves(self) -> int:
        """The number of steps (moves) of the path."""
        return len(self.directions)

    @property
    def arrived(self) -> bool:
        """Whether the path ends at the goal."""
        return self.outcome == "arrived"

    def __len__(self) -> int:
        return len(self.cells)


@dataclass(frozen=True, eq=False)
class _Geometry:
    inb: np.ndarray
    cx: np.ndarray
    cy: np.ndarray
    period: float
    order: np.ndarray
    rank: np.ndarray
    args: ClassicGeometry  # the kernels' ``geo``


_GEOMETRY: "weakref.WeakKeyDictionary[Topology, _Geometry]" = weakref.WeakKeyDictionary()
_FIRST_CAP = 1 << 16  # cells of path buffer before the first growth


def _geometry(grid: Grid) -> _Geometry:
    topo = grid.topology
    g = _GEOMETRY.get(topo)
    if g is not None:
        return g
    ph, pw = topo.ph, topo.pw
    inb = np.zeros((ph, pw), dtype=np.uint8)
    inb[1:-1, 1:-1] = 1
    ys, xs = np.mgrid[0:grid.height, 0:grid.width]
    cxs, cys = grid.centers_of(xs.ravel(), ys.ravel())
    cx = np.zeros((ph, pw), dtype=np.float64)
    cy = np.zeros((ph, pw), dtype=np.float64)
    cx[1:-1, 1:-1] = np.asarray(cxs).reshape(grid.shape)
    cy[1:-1, 1:-1] = np.asarray(cys).reshape(grid.shape)
    period = 0.0
    if topo.wrap and grid.width > 1:
        period = float(cx[1, grid.width] - cx[1, 1]) * grid.width / (grid.width - 1)
    # directions sorted by angle, measured from a cell of parity 0
    bx, by = grid.centers_of(np.array([2]), np.array([2]))
    nx, ny = grid.centers_of(2 + topo.dx[0], 2 + topo.dy[0])
    angle = np.arctan2(np.asarray(ny) - by[0], np.asarray(nx) - bx[0])
    order = np.argsort(angle, kind="stable").astype(np.int64)
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    geo = ClassicGeometry(inb.ravel(), cx.ravel(), cy.ravel(), period, order, rank)
    g = _Geometry(*geo, geo)
    _GEOMETRY[topo] = g
    return g


@dataclass
class _Workspace:
    """Scratch for one padded size, reused between searches (generation stamps)."""

    seen: NDArray[np.int64]
    pos: NDArray[np.int64]
    gen: int
    buf: NDArray[np.int64]  # grown on demand up to 8 n + 1
    tmp: NDArray[np.int64]


def _workspace(n: int) -> _Workspace:
    """This thread's workspace for padded size ``n``, with a fresh generation."""
    w = per_thread("classic", n, _new_workspace)
    w.gen += 1
    return w


def _new_workspace(n: int) -> _Workspace:
    cap = min(8 * n, _FIRST_CAP) + 1  # grown on demand up to 8 n + 1
    return _Workspace(np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), 0,
                      np.empty(cap, dtype=np.int64), np.empty(cap, dtype=np.int64))


def classic_path(
    grid: Grid,
    cell_costs: np.ndarray,
    start: tuple[int, int],
    goal: tuple[int, int],
    *,
    max_steps: int | None = None,
    follow_limit: int | None = None,
    optimise: bool = True,
    retries: int = SKIP_RETRIES,
) -> ClassicPath:
    """The classic pathfinder over a ``(height, width)`` array of entry costs (``inf``: blocked), indexed ``[y, x]``.

    ``max_steps`` stops after that many steps (a piece of the way, outcome
    'piece'); ``follow_limit`` caps each edge following (default ``8 *
    (width + height)``); ``retries`` bounds the landing cells tried beyond
    an obstacle after the first (``SKIP_RETRIES``); ``optimise=False``
    returns the raw walk. The start may be blocked (a unit standing where
    the ground just changed).

    >>> import numpy as np
    >>> from wargrid import HexGrid
    >>> p = classic_path(HexGrid(5, 5), np.ones((5, 5)), (0, 0), (4, 4), max_steps=2)
    >>> p.outcome, len(p.directions)
    ('piece', 2)
    """

    if not isinstance(grid, Grid):
        raise ArgumentTypeError(f"grid must be a wargrid Grid, got {type(grid).__name__}")
    opts = classic_options(grid, start, goal, max_steps=max_steps, follow_limit=follow_limit, optimise=optimise,
                           retries=retries)
    return classic_search(grid, CostField.from_arrays(grid, cell_costs, name="cell_costs").cell, *opts)


def classic_options(
    grid: Grid, start: Any, goal: Any, *, max_steps: Any = None, follow_limit: Any = None, optimise: Any = True,
    retries: Any = SKIP_RETRIES,
) -> tuple[tuple[int, int], tuple[int, int], int, int, bool, int]:
    """Checked ``(start, goal, max_steps, follow_limit, optimise, retries)`` for ``classic_search``."""
    s = grid.check_cell(start, "start")
    g = grid.check_cell(goal, "goal")
    if max_steps is None:
        steps = np.iinfo(np.int64).max
    else:
        steps = check_int(max_steps, "max_steps")
        if steps < 0:
            raise ArgumentError(f"max_steps must be >= 0 or None, got {steps}")
        steps = min(steps, np.iinfo(np.int64).max)  # past any board's path (10**20 raised numba's OverflowError)
    if follow_limit is None:
        limit = 8 * (grid.width + grid.height)
    else:
        limit = check_int(follow_limit, "follow_limit")
        if limit < 1:
            raise ArgumentError(f"follow_limit must be >= 1 or None, got {limit}")
        limit = min(limit, np.iinfo(np.int64).max)
    if not isinstance(optimise, (bool, np.bool_)):
        raise ArgumentTypeError(f"optimise must be True or False, got {optimise!r}")
    tries = check_int(retries, "retries")
    if tries < 0:
        raise ArgumentError(f"retries must be >= 0, got {tries}")
    return s, g, steps, limit, bool(optimise), min(tries, np.iinfo(np.int64).max)


def classic_search(
    grid: Grid, cell: np.ndarray, s: tuple[int, int], g: tuple[int, int], steps: int, limit: int, optimise: bool,
    retries: int = SKIP_RETRIES,
) -> ClassicPath:
    """``classic_path`` on checked input (``classic_options``): ``cell`` is the padded flat cost array (``CostField.cell``).

    The entry for callers that already hold padded costs, such as ``Map.classic_path``.

    >>> import numpy as np
    >>> from wargrid import SquareGrid
    >>> g = SquareGrid(4, 1)
    >>> p = classic_search(g, CostField.from_arrays(g, np.ones((1, 4))).cell, *classic_options(g, (0, 0), (3, 0)))
    >>> p.cells, p.outcome
    ([(0, 0), (1, 0), (2, 0), (3, 0)], 'arrived')
    """
    from .._kernels.rts.classic import classic_find, optimise_moves

    topo = grid.topology
    geo = _geometry(grid)
    tb = topo.kernel_bundle
    stepl = tb.step
    w = _workspace(topo.padded_size)
    seen, pos, gen = w.seen, w.pos, w.gen
    ps, pg = topo.padded_id(*s), topo.padded_id(*g)
    most = 8 * topo.padded_size + 1
    while True:
        buf, tmp = w.buf, w.tmp
        n, code = classic_find(cell, geo.args, tb, ps, pg, steps, limit, retries, buf, tmp)
        if code != 3 or len(buf) >= most:
            break
        size = min(4 * len(buf), most)  # the walk outgrew the buffers: grow them and walk again
        w.buf, w.tmp = np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64)
    path = buf[:n].copy()
    dirs = np.empty(max(n - 1, 0), dtype=np.int64)
    if optimise:
        out = np.empty(n, dtype=np.int64)
        m = optimise_moves(cell, path, n, seen, pos, gen, out, dirs, tb)
        path, dirs = out[:m], dirs[: m - 1]
    else:
        dirs[:] = topo.directions(path[:-1], path[1:])
    if len(dirs) > steps:  # an edge walk is taken whole: cut the piece to max_steps
        path, dirs = path[: steps + 1], dirs[:steps]
    cells = list(zip((path % topo.pw - 1).tolist(), (path // topo.pw - 1).tolist()))
    length = float(stepl[dirs].sum())
    cost = float((stepl[dirs] * cell[path[1:]]).sum()) if len(dirs) else 0.0
    outcome = OUTCOMES[code]
    if outcome == "piece" and cells[-1] == g:
        outcome = "arrived"
    return ClassicPath(cells, dirs, length, cost, outcome)
