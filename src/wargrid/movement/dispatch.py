"""The one search dispatcher: which search answers a path query, decided in one place.

Every path entry point goes through ``dispatch_path`` (checked values in, no
checks of its own): ``shortest_path`` (the public one, which checks its
arguments) and ``path_over_arrays`` here, the batches of ``paths``,
``Map.path`` and ``Map.paths``.
In order:

1. trivial answers: start = goal; an impassable start (only itself is
   reached) or goal (unreachable) (the rules: ``wargrid.movement.search``);
2. the zone pre-check: when connectivity zones are at hand, a goal in
   another zone is unreachable in O(1), without a search. ``Map`` passes the
   zones it keeps up to date under edits; for a cost field used without a
   map the zones are labelled when the same field is searched a second time
   (``ZONES_AFTER_QUERIES``) on boards up to ``ZONES_MAX_CELLS``, and kept
   while the field lives;
3. the algorithm: Jump Point Search (with a jump table on boards up to
   2048 x 2048, bit scans beyond) where it is exact and pays (square-8,
   corner rule 'no-obstacle', no wrap, one cost everywhere, no edge costs,
   weight 1, no stop cells, not ``nearest``, and open ground enough:
   ``jps.OPEN_FRACTION_FOR_JPS``); A* everywhere else;
   before it, a prepared structure (``prepared.Prepared``, passed by
   ``Map`` once ``Map.prepare`` built one) answers the common query (weight
   1, no stop cells, not ``nearest``, ``search='auto'``), exactly, edits
   included (it customizes them in first).

``size`` > 1 (a unit bigger than one cell, see ``wargrid.movement.clearance``)
swaps the cost field for the footprint field of that size before step 1; the
zones of the one-cell field still answer the pre-check (a big unit's moves are
a subset of a one-cell unit's), a prepared structure does not.

>>> import numpy as np
>>> from wargrid import SquareGrid
>>> costs = np.ones((3, 4)); costs[1, 1:3] = np.inf
>>> p = path_over_arrays(SquareGrid(4, 3), costs, (0, 1), (3, 1))
>>> p.cells, p.cost
([(0, 1), (0, 0), (1, 0), (2, 0), (3, 0), (3, 1)], 5.0)
"""

from __future__ import annotations

import itertools
import math
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Protocol, Sequence

import numpy as np
import numpy.typing as npt

from .._budget import check_memory
from .._deprecation import deprecated_function
from .._progress import Progress, reporter
from ..errors import ArgumentError, ArgumentTypeError
from .._validate import check_int
from ..costs import CostField, check_cost_field
from ..grids.boards import Grid
from ._array_cache import ArrayCache, cached, forget, remember
from .clearance import check_size, footprint_costs
from .jps import jps_path, jps_pays
from .prepared import Prepared
from .search import SEARCH_BYTES_PER_CELL, Path, check_weight, jps_applies, search_checked, stop_array
from .zones import ZoneState

__all__ = ["shortest_path", "path_over_arrays", "astar", "find_path", "paths", "dispatch_path", "shortest_distance", "check_costs", "SEARCHES",
           "forget_cost_array"]

Cell = tuple[int, int]


class Connectivity(Protocol):
    """Connectivity zones as the dispatcher asks them: ``ZoneState``, or a map's zones read under its lock."""

    def connected(self, pa: int, pb: int) -> bool: ...


SEARCHES = ("auto", "astar", "jps")
"""What ``search=`` accepts: 'auto' (the dispatcher's choice), 'astar' (A* forced), 'jps' (JPS forced)."""

ZONES_AFTER_QUERIES = 2
"""A cost field searched without a map gets its zones on this query (the first
query on a field, often the only one, does not pay for a labelling)."""

ZONES_MAX_CELLS = 1 << 22
"""Zones are labelled for a cost field used without a map only on boards up to
this many padded cells (2048 x 2048): labelling costs about 50 ns a cell."""

_ZONES: ArrayCache[ZoneState | int] = {}
"""``id(cost array) -> (weakref, ZoneState or a query count)`` for cost fields used without a map."""


def _field_zones(costs: CostField) -> Connectivity | None:
    """The zones of a cost field used without a map, once it has been searched ``ZONES_AFTER_QUERIES`` times."""
    cell = costs.cell
    got = cached(_ZONES, cell)
    if isinstance(got, ZoneState):
        return got
    if cell.shape[0] > ZONES_MAX_CELLS:
        return None
    seen = 1 if got is None else got + 1
    if seen < ZONES_AFTER_QUERIES:
        remember(_ZONES, cell, seen, 64)
        return None
    z = ZoneState(costs.topology, cell, costs.edge)
    remember(_ZONES, cell, z, 64)
    return z


def forget_cost_array(cell: npt.NDArray[np.float64]) -> None:
    """Drop what the movement caches hold for the cost array ``cell`` (step bits, jump tables, clearance, zones of a
    field used without a map): its values change in place (a ``Map`` patches a field that only it holds).

    >>> from wargrid import SquareGrid
    >>> f = CostField.from_arrays(SquareGrid(3, 2), np.ones((2, 3)))
    >>> forget_cost_array(f.cell)
    """
    forget(cell)


def dispatch_path(
    grid: Grid,
    costs: CostField,
    start: Cell,
    goal: Cell,
    *,
    weight: float = 1.0,
    nearest: bool = False,
    stop: npt.NDArray[np.bool_] | None = None,
    search: str = "auto",
    zones: Connectivity | None = None,
    prepared: Prepared | None = None,
    size: int = 1,
) -> Path | None:
    """The dispatcher, on checked arguments (cells on the board, ``weight`` >= 1, ``search`` in ``SEARCHES``,
    ``size`` from ``check_size``).

    ``zones``: connectivity zones valid for ``costs`` or for a field no
    stricter than it (``Map`` passes its own); ``prepared``: a prepared
    structure of this board (``Map`` passes its own). See the module notes.
    """
    if size != 1:
        costs = footprint_costs(grid, costs, size)
        prepared = None
    topo = grid.topology
    s = topo.padded_id(*start)
    t = topo.padded_id(*goal)
    cell = costs.cell
    if s == t:
        return Path([start], 0.0, costs.unit, grid)
    if not cell[s] < np.inf:
        return Path([start], 0.0, costs.unit, grid) if nearest else None
    if not nearest:
        if not cell[t] < np.inf:
            return None
        z = zones if zones is not None else _field_zones(costs)
        if z is not None and not z.connected(s, t):
            return None
    consult = prepared is not None and not nearest and weight == 1.0 and stop is None and search == "auto"
    if consult:
        assert prepared is not None
        return _reachable(prepared.path(costs, s, t, grid))
    st = stop_array(grid, stop)
    use_jps = jps_applies(topo, costs, weight, nearest, st)
    if search == "jps" and not use_jps:
        raise ArgumentError(
            "search='jps' needs a square-8 board with corner rule 'no-obstacle', no wrap, one cost "
            "everywhere, no edge costs, weight 1, no stop cells and nearest=False"
        )
    if use_jps and search != "astar" and (search == "jps" or jps_pays(grid, costs)):
        found = jps_path(grid, costs, s, t)
    else:
        found = search_checked(grid, costs, start, goal, weight, nearest, stop)
    return _reachable(found)


def _reachable(p: Path | None) -> Path | None:
    """``p``, or ``None`` when its cost overflowed to inf: unreachable, as the fields say (see ``search``)."""
    return p if p is None or p.cost < np.inf else None


def shortest_distance(
    grid: Grid,
    costs: CostField,
    start: Cell,
    goal: Cell,
    *,
    zones: Connectivity | None = None,
    prepared: Prepared | None = None,
    size: int = 1,
) -> float:
    """The cheapest cost from ``start`` to ``goal`` (checked cells), ``inf`` when unreachable.

    A prepared structure answers without unpacking a path when it can;
    otherwise the cost of ``dispatch_path``'s path (``size``: as there, checked).
    """
    if size != 1:
        return _cost_of(dispatch_path(grid, costs, start, goal, zones=zones, size=size))
    topo = grid.topology
    s = topo.padded_id(*start)
    t = topo.padded_id(*goal)
    if prepared is not None and s != t and costs.cell[s] < np.inf and costs.cell[t] < np.inf:
        return float(prepared.distance(costs, s, t))
    return _cost_of(dispatch_path(grid, costs, start, goal, zones=zones, prepared=prepared))


def _cost_of(p: Path | None) -> float:
    return math.inf if p is None else float(p.cost)


def shortest_path(
    grid: Grid,
    costs: CostField,
    start: Cell,
    goal: Cell,
    *,
    weight: float = 1.0,
    nearest: bool = False,
    stop: npt.NDArray[np.bool_] | None = None,
    search: str = "auto",
    size: int = 1,
) -> Path | None:
    """The cheapest path from ``start`` to ``goal`` (``(x, y)`` cells) over ``costs``, or ``None``.

    Parameters
    ----------
    grid : Grid
        The board.
    costs : CostField
        What the movement class pays (``Map.cost_field(unit=...)`` or ``CostField.from_arrays``).
    start, goal : (x, y)
        Cells on the board.
    weight : float
        ``> 1`` runs weighted A*: at most ``weight`` times the optimal cost, usually faster.
    nearest : bool
        When the goal cannot be reached, return the path to the reachable
        cell closest to it by the board's distance.
    stop : ndarray of bool, shape ``(height, width)``, optional
        Cells where a move ends when entered.
    search : {'auto', 'astar', 'jps'}
        'auto' lets the dispatcher choose (see the module notes); 'astar'
        forces A*; 'jps' forces Jump Point Search (an error where it is not exact).
    size : int
        The unit's footprint (1: one cell; see ``wargrid.movement.clearance``):
        ``start``, ``goal`` and the path's cells are anchors.

    Returns
    -------
    Path or None
        ``None`` when the goal is unreachable.

    Raises
    ------
    TypeError, ValueError
        A cell off the board, a weight below 1, an unknown ``search``, costs of another board,
        a ``size`` that is not an integer from 1 to ``clearance.max_size(grid)``.

    Examples
    --------
    >>> from wargrid import HexGrid
    >>> g = HexGrid(5, 5)
    >>> shortest_path(g, CostField.from_arrays(g, np.ones((5, 5))), (0, 0), (4, 4)).cost
    6.0
    >>> shortest_path(g, CostField.from_arrays(g, np.ones((5, 5))), (1, 1), (3, 3), size=2).cost
    3.0
    """
    costs = check_cost_field(grid, costs)
    start = grid.check_cell(start, "start")
    goal = grid.check_cell(goal, "goal")
    w = check_weight(weight)
    if not isinstance(nearest, (bool, np.bool_)):
        raise ArgumentTypeError(f"nearest must be True or False, got {nearest!r}")
    if not isinstance(search, str) or search not in SEARCHES:
        raise ArgumentError(f"search must be one of 'auto', 'astar', 'jps'; got {search!r}")
    if stop is not None:
        stop = np.asarray(stop)
        if stop.shape != grid.shape:
            raise ArgumentError(f"stop must have shape (height, width) = {grid.shape}, got {stop.shape}")
    return dispatch_path(grid, costs, start, goal, weight=w, nearest=bool(nearest), stop=stop, search=search,
                         size=check_size(grid, size))


def path_over_arrays(
    grid: Grid,
    cell_costs: npt.ArrayLike,
    start: Cell,
    goal: Cell,
    *,
    edge_costs: npt.ArrayLike | None = None,
    weight: float = 1.0,
    nearest: bool = False,
) -> Path | None:
    """A* over a raw ``(height, width)`` array of entry costs (``inf`` = blocked), indexed ``[y, x]``.

    For modules that price cells their own way: ``shortest_path`` on
    ``CostField.from_arrays(grid, cell_costs, edge_costs)``. ``edge_costs``,
    when given, is ``(height, width, ndir)``: the extra cost of the step from
    ``[y, x]`` in each direction of the board (``grid.steps``).

    >>> from wargrid import SquareGrid
    >>> path_over_arrays(SquareGrid(3, 3, diagonal=True), np.ones((3, 3)), (0, 0), (2, 2)).cells
    [(0, 0), (1, 1), (2, 2)]
    """
    return shortest_path(grid, CostField.from_arrays(grid, cell_costs, edge_costs), start, goal, weight=weight,
                         nearest=nearest)


MAX_WORKERS = 256
"""The most threads ``paths`` accepts (each holds a search state the size of the board)."""

PROBE_QUERIES = 4
THREADS_PAY_SECONDS = 0.5e-3
"""``paths`` spreads a batch over threads only when ``PROBE_QUERIES`` of its
queries, spread over the batch and run first, took at least this long each: below it a query is mostly Python around
the kernel, and threads (sharing the GIL) were measured slower than one."""


def paths(
    grid: Grid,
    costs: CostField,
    pairs: Sequence[tuple[Cell, Cell]],
    *,
    weight: float = 1.0,
    workers: int = 2,
    zones: Connectivity | None = None,
    prepared: Prepared | None = None,
    progress: Progress = True,
    size: int = 1,
) -> list[Path | None]:
    """The path of every ``(start, goal)`` pair, spread over ``workers`` threads (the kernels release the GIL).

    ``workers`` is 1 to ``MAX_WORKERS``; each thread used holds a search state
    the size of the board (``SEARCH_BYTES_PER_CELL`` a cell), and a batch whose
    threads memory could not hold is refused up front (``ResourceError``).

    ``zones``, ``prepared``: as in ``dispatch_path`` (``Map.paths`` passes its own); ``size``: as in ``shortest_path``.

    >>> from wargrid import SquareGrid
    >>> g = SquareGrid(3, 3)
    >>> [p.cost for p in paths(g, CostField.from_arrays(g, np.ones((3, 3))), [((0, 0), (2, 2)), ((1, 1), (1, 2))])]
    [4.0, 1.0]
    """
    costs = check_cost_field(grid, costs)
    workers = check_int(workers, "workers")
    if not 1 <= workers <= MAX_WORKERS:
        raise ArgumentError(f"workers must be between 1 and {MAX_WORKERS} threads, got {workers}")
    try:
        items = list(pairs)
    except TypeError:
        raise ArgumentTypeError(f"pairs must be a list of (start, goal) pairs of (x, y) cells, got {type(pairs).__name__} {pairs!r}") from None
    checked: list[tuple[Cell, Cell]] = []
    for i, pr in enumerate(items):
        try:
            a, b = pr
        except (TypeError, ValueError):
            raise ArgumentTypeError(f"pairs[{i}] must be a (start, goal) pair of cells, got {pr!r}") from None
        checked.append((grid.check_cell(a, f"pairs[{i}][0]"), grid.check_cell(b, f"pairs[{i}][1]")))
    w = check_weight(weight)
    k = check_size(grid, size)
    if k != 1:
        costs = footprint_costs(grid, costs, k)
        prepared = None

    with reporter(progress, len(checked), "paths", unit="path") as tick:
        return _run_paths(grid, checked, workers, tick,
                          lambda pr: dispatch_path(grid, costs, pr[0], pr[1], weight=w, zones=zones, prepared=prepared))


def _run_paths(grid: Grid, checked: list[tuple[Cell, Cell]], workers: int, tick: Callable[[int], None],
               one: Callable[[tuple[Cell, Cell]], Path | None]) -> list[Path | None]:
    """``one`` of every pair, on up to ``workers`` threads when they pay; ``tick`` counts the paths found."""
    done = itertools.count(1)

    def counted(pr: tuple[Cell, Cell]) -> Path | None:
        p = one(pr)
        tick(next(done))
        return p

    if workers == 1 or len(checked) < 2:
        return [counted(pr) for pr in checked]
    # the first queries run here: the kernels are loaded before the workers start,
    # and their time says whether threads pay (a short query is mostly Python,
    # which holds the GIL: two threads would only take turns)
    n = len(checked)
    probe = sorted({i * n // PROBE_QUERIES for i in range(PROBE_QUERIES)})  # spread over the batch
    out: list[Path | None] = [None] * n
    t0 = time.perf_counter()
    for i in probe:
        out[i] = counted(checked[i])
    probed = set(probe)
    rest = [i for i in range(n) if i not in probed]
    if (time.perf_counter() - t0) / len(probe) < THREADS_PAY_SECONDS or not rest:
        for i in rest:
            out[i] = counted(checked[i])
        return out
    workers = min(workers, len(rest))
    # each thread keeps a search state of its own for the board
    check_memory(workers * SEARCH_BYTES_PER_CELL * grid.topology.padded_size, what="paths", name="workers", value=workers)
    with ThreadPoolExecutor(max_workers=workers) as ex:
        chunks = [rest[k::workers] for k in range(workers)]
        results = list(ex.map(lambda ch: [counted(checked[i]) for i in ch], chunks))
    for ch, res in zip(chunks, results):
        for i, p in zip(ch, res):
            out[i] = p
    return out


astar = deprecated_function(shortest_path, "wargrid.movement.astar", "wargrid.movement.shortest_path")
find_path = deprecated_function(path_over_arrays, "wargrid.movement.find_path", "wargrid.movement.path_over_arrays")
