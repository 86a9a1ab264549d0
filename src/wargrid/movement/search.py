"""Search kernels' runners: A*, Dijkstra fields, and the state and arguments they share.

The functions here take a grid and a ``CostField`` and never see a ``Map``.
Which search answers a path query is decided in one place,
``wargrid.movement.dispatch`` (``shortest_path``, ``path_over_arrays``, ``paths`` and
``Map.path`` all go through it); this module runs the A* and Dijkstra kernels.

Cost of a step from ``a`` to neighbour ``b`` in direction ``d``: the step
length (1, or sqrt(2) for a square diagonal) times the cost of entering
``b``, plus the edge cost of the move (a river, a climb). The start cell's own
cost is never paid.

The rules every movement function follows (``path``, ``paths``, ``route``,
``distance_field``, ``movement_range``, ``flow_field``, on ``Map`` too):

- ``inf`` is impassable and unreachable: a goal on an impassable cell is
  unreachable (``None``), not an error; a path whose cost overflows to
  ``inf`` (costs near 1e308) is unreachable too, as the fields say.
- A start on an impassable cell (a unit stranded there) reaches that cell
  alone, at cost 0 (as connectivity zones see it): ``path(s, s)`` costs 0,
  ``distance_field(s)`` is 0 at ``s`` and ``inf`` elsewhere, and so are a
  movement range from ``s`` and a flow field towards ``s``.
- Fields need at least one source or goal: an empty list raises
  ``ArgumentError``; an empty batch of ``paths`` is an empty list.

Ties are broken deterministically: the open list pops the smaller ``f``,
then the larger ``g``, then the smaller cell id.

Which kernel runs: boards without wrap, edge costs or stop cells use the
"plain" kernels, which read one byte of allowed steps a cell (``plain_moves``);
the rest use the general ones, which apply the neighbour and corner rules as
they go. Both give the same answers. Distance-only fields on uniform boards
use the FIFO-queue Dijkstra (``dijkstra_queues``). On such boards with steps
of length 1 (hex, square-4, staggered) whose costs are whole in units of a
power of two (``cost_unit``; the terrain tables' 1, 2, 0.75 ...), A* runs
``astar_keyed`` (one exact integer key a heap slot, the same pops) and
distance-only fields run ``dijkstra_buckets`` (Dial's bucket queue). On
square-8 boards with such costs A* runs ``astar_octile``: costs held exactly
as ``a + b sqrt(2)`` and one integer key a heap slot ordered as the real
costs are (ties: smaller ``f``, larger ``g``, then heap order; where the
float kernels' rounded sums differ, another path of the same cost).

>>> from wargrid import SquareGrid
>>> from wargrid.costs import CostField
>>> costs = np.ones((1, 4)); costs[0, 1] = 3.0
>>> distance_field(SquareGrid(4, 1), CostField.from_arrays(SquareGrid(4, 1), costs), (0, 0)).tolist()
[[0.0, 3.0, 4.0, 5.0]]
"""

from __future__ import annotations

import math
import numbers
import weakref
from dataclasses import dataclass, field
from decimal import Decimal
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

import numpy as np
from numpy.typing import NDArray

from ..errors import ArgumentError, ArgumentTypeError
from .._validate import check_real
from .._kernels import load
from ..costs import CostField, check_cost_field
from ..grids.boards import Grid, Topology
from .._kernels.bundles import FieldArrays, SearchArrays, TopoArgs, TopoBundle
from .._scratch import per_thread as per_thread  # re-exported for the modules that still take it from here
from ._array_cache import ArrayCache, cached, remember
from .clearance import sized_costs
from .._display import Shown

__all__ = ["Path", "distance_field"]


@dataclass(frozen=True)
class Path(Shown):
    """A path: ``cells`` from start to goal as ``(x, y)``, its total ``cost`` and the movement class.

    A search's path holds its cells as the ``(n, 2)`` array ``xy`` and makes the list ``cells`` (three Python
    objects a cell) when first asked: ``len``, ``start``, ``end`` and ``xy`` never make it, and the path
    compares and pickles as one made from the list.
    """

    cells: list[tuple[int, int]]
    cost: float
    unit: str | None = None
    grid: Grid | None = field(default=None, repr=False, compare=False)
    """The board the path is on (its picture in a notebook); ``None`` for a path made by hand."""
    _xy: np.ndarray | None = field(default=None, repr=False, compare=False)
    """``xy`` as the search found it (``None``: made from ``cells`` when asked)."""

    def __post_init__(self) -> None:
        """A path made by hand: ``cells`` a non-empty list of cells, ``cost`` a number >= 0 (``inf`` allowed), never NaN.

        >>> Path([(0, 0)], float("nan"))
        Traceback (most recent call last):
        ...
        wargrid.errors.ArgumentError: cost must be a number >= 0 (inf allowed), got nan
        """
        cost = self.cost
        if not (type(cost) is float and cost >= 0.0):
            if isinstance(cost, (bool, np.bool_)) or not isinstance(cost, (numbers.Real, Decimal, np.integer, np.floating)):
                raise ArgumentTypeError(f"cost must be a number, got {type(cost).__name__} {cost!r}")
            if isinstance(cost, Decimal) and cost.is_nan() or not float(cost) >= 0.0:  # (a Decimal sNaN: float raises)
                raise ArgumentError(f"cost must be a number >= 0 (inf allowed), got {cost}")
            if type(cost) is not int:  # a Fraction, a Decimal, a numpy scalar: the float the searches give
                object.__setattr__(self, "cost", float(cost))
        cells = self.cells
        if type(cells) is not list and (isinstance(cells, (str, bytes)) or not hasattr(cells, "__len__")):
            raise ArgumentTypeError(f"cells must be a list of (x, y) cells, got {type(cells).__name__} {cells!r}")
        if not len(cells):
            raise ArgumentError("cells must hold at least the start cell, got none")

    @classmethod
    def of_xy(cls, xy: np.ndarray, cost: float, unit: str | None, grid: Grid | None) -> Path:
        """The path of the ``(n, 2)`` int64 array ``xy`` of ``(x, y)`` rows; ``cells`` made when first asked.

        >>> p = Path.of_xy(np.array([[0, 0], [1, 0]]), 1.0, None, None)
        >>> len(p), p.end, p == Path([(0, 0), (1, 0)], 1.0), p.cells
        (2, (1, 0), True, [(0, 0), (1, 0)])
        """
        p = object.__new__(cls)
        p.__dict__.update(cost=cost, unit=unit, grid=grid, _xy=xy)
        return p

    if not TYPE_CHECKING:  # (mypy would take every attribute of a path for one)
        def __getattr__(self, name: str) -> Any:
            """``cells`` of a path made by ``of_xy``, made and kept when first asked."""
            xy = self.__dict__.get("_xy")
            if name != "cells" or xy is None:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            cells = list(zip(xy[:, 0].tolist(), xy[:, 1].tolist()))
            self.__dict__["cells"] = cells
            return cells

    def __len__(self) -> int:
        return len(self.cells) if self._xy is None else int(self._xy.shape[0])

    @property
    def start(self) -> tuple[int, int]:
        return self.cells[0] if self._xy is None else (int(self._xy[0, 0]), int(self._xy[0, 1]))

    @property
    def end(self) -> tuple[int, int]:
        """The last cell (the goal, or the nearest reachable cell with ``nearest=True``)."""
        return self.cells[-1] if self._xy is None else (int(self._xy[-1, 0]), int(self._xy[-1, 1]))

    @property
    def xy(self) -> np.ndarray:
        """The cells as an ``(n, 2)`` int64 array of ``(x, y)`` rows (as tcod returns paths).

        >>> Path([(0, 0), (1, 0)], 1.0).xy.tolist()
        [[0, 0], [1, 0]]
        """
        if self._xy is not None:
            return self._xy.copy()
        return np.array(self.cells, dtype=np.int64).reshape(-1, 2)


# -- kernel arguments and reusable search state ---------------------------------------------

def cut_loops(xy: np.ndarray) -> np.ndarray:
    """The ``(x, y)`` rows ``xy`` without the loops zero-cost steps can leave (a cell seen again: the cells between
    go)."""
    out: list[tuple[int, int]] = []
    at: dict[tuple[int, int], int] = {}
    for c in zip(xy[:, 0].tolist(), xy[:, 1].tolist()):
        if c in at:  # back at c: the loop since goes
            for y in out[at[c] + 1:]:
                del at[y]
            del out[at[c] + 1:]
        else:
            at[c] = len(out)
            out.append(c)
    return np.array(out, dtype=np.int64).reshape(-1, 2)


def topo_args(topo: Topology) -> TopoArgs:
    """``topo.kernel_args`` (kept for the modules not yet reading the topology's own bundle)."""
    return topo.kernel_args


def topo_bundle(topo: Topology) -> TopoBundle:
    """``topo.kernel_bundle`` (kept for the modules not yet reading the topology's own bundle)."""
    return topo.kernel_bundle


SEARCH_BYTES_PER_CELL = 40
"""Memory a ``SearchState`` reserves a padded cell (the arrays below, int32 ids)."""

BIG_SEARCH_CELLS = 1 << 24
"""From this many padded cells, a new search state checks first that memory can hold it."""


class SearchState:
    """Per-state arrays reused across queries on boards of one size (generation stamps).

    Memory: ``g`` 8 bytes, ``parent``, ``stamp``, ``pos`` 4 bytes each, and a
    heap of 20 bytes a slot whose pages are only touched as the open list grows.
    ``index_dtype`` is the type of the ids held (``parent``, ``pos``, ``hid``):
    int32 for cells; int64 where a state space can pass 2**31 states (cell
    and facing, in ``wargrid.tactics.turning``).
    """

    def __init__(self, n: int, *, index_dtype: Any = np.int32) -> None:
        if n >= BIG_SEARCH_CELLS:
            from .._budget import check_memory

            check_memory(SEARCH_BYTES_PER_CELL * n, what="a search", name="board cells (padded)", value=n,
                         hint="use a smaller board")
        self.n = n
        self.g = np.empty(n, dtype=np.float64)
        self.parent = np.empty(n, dtype=index_dtype)
        self.stamp = np.zeros(n, dtype=np.int32)
        self.pos = np.empty(n, dtype=index_dtype)
        self.hf = np.empty(n, dtype=np.float64)
        self.hg = np.empty(n, dtype=np.float64)
        self.hid = np.empty(n, dtype=index_dtype)
        self.gen = 0
        self.arrays = SearchArrays(self.g, self.parent, self.stamp, self.pos, self.hf, self.hg, self.hid)
        """The kernels' ``state`` argument."""

    def queues(self, nq: int) -> tuple[np.ndarray, np.ndarray]:
        """Scratch for ``dijkstra_queues``: ``nq`` blocks of ``n`` cell ids and keys (kept for the next call)."""
        need = nq * self.n
        q: tuple[np.ndarray, np.ndarray] | None = getattr(self, "_queues", None)
        if q is None or len(q[0]) < need:  # (ids, keys)
            q = self._queues = (np.empty(need, dtype=np.int32), np.empty(need, dtype=np.float64))
        return q

    def next_gen(self) -> int:
        return self.next_gens(1)

    def next_gens(self, k: int) -> int:
        """The first of ``k`` fresh generations, one a query (``gen``, ``gen + 1``, ...)."""
        if self.gen + k >= (1 << 30) - 1:
            self.stamp[:] = 0
            self.gen = 0
        self.gen += k
        return self.gen - k + 1


def search_state(n: int) -> SearchState:
    """This thread's search state for padded size ``n`` (the last two sizes are kept)."""
    return per_thread("states", n, SearchState)


_EMPTY_U8 = np.zeros(0, dtype=np.uint8)
_NO_TREE_I32 = np.zeros(0, dtype=np.int32)
_NO_TREE_I8 = np.zeros(0, dtype=np.int8)

_MOVES: ArrayCache[NDArray[np.uint8] | Literal[False]] = {}
"""``id(cost array) -> (weakref, step bits)``; ``False`` in place of the bits: seen once (lazy)."""

LAZY_MASK_CELLS = 1 << 16
"""On boards of more padded cells than this, ``plain_moves(..., lazy=True)`` builds
the step bits only when the same cost array is searched a second time: building
costs about 20 ns a cell, which one short query on a large board after an edit
should not pay (the general kernels answer it without them)."""


def plain_moves(topo: Topology, costs: CostField, *, lazy: bool = False) -> NDArray[np.uint8] | None:
    """The allowed-step bits of every padded cell (``move_mask``), or ``None`` where the plain kernels do not serve.

    The plain kernels serve boards without wrap and without edge costs. The
    bits are cached while the cost array ``costs.cell`` lives (a map edit
    makes a new one). With ``lazy`` a large board gets them on its second
    call only (``LAZY_MASK_CELLS``); the first answers ``None``.
    """
    if topo.wrap or costs.edge.size or topo.ndir > 8:
        return None
    cell = costs.cell
    got = cached(_MOVES, cell)
    if got is not None and got is not False:
        return got
    if got is None and lazy and cell.shape[0] > LAZY_MASK_CELLS:
        remember(_MOVES, cell, False, 16)
        return None
    from .._kernels.movement.steps import move_mask

    off, _, corner, ti = topo.kernel_args
    moves = np.empty(cell.shape[0], dtype=np.uint8)
    move_mask(cell, costs.edge, off, corner, ti, moves)
    remember(_MOVES, cell, moves, 16)
    return moves


def padded_id(topo: Topology, cell: tuple[int, int]) -> int:
    """``topo.padded_id(*cell)``."""
    return topo.padded_id(cell[0], cell[1])


def cells_of(topo: Topology, padded: np.ndarray) -> list[tuple[int, int]]:
    """``topo.cells_of(padded)``."""
    return topo.cells_of(padded)


def path_cost(topo: Topology, costs: CostField, padded: np.ndarray) -> float:
    """Cost of walking the padded ids ``padded`` in order (each a neighbour of the last)."""
    from .._kernels.movement.steps import step_to

    off, stepl, _, ti = topo.kernel_args
    total = 0.0
    ndir = topo.ndir
    for a, b in zip(padded[:-1].tolist(), padded[1:].tolist()):
        for d in range(ndir):
            if step_to(a, d, off, ndir, topo.parity_mode, topo.wrap, topo.width, topo.pw) == b:
                total += float(stepl[d] * costs.cell[b])
                if costs.edge.size:
                    total += float(costs.edge[a * ndir + d])
                break
        else:  # pragma: no cover - the kernels only step to neighbours
            raise AssertionError(f"padded cells {a} and {b} are not neighbours")
    return total


# -- checks -------------------------------------------------------------------------------------

def check_costs(grid: Grid, costs: object) -> CostField:
    """``wargrid.costs.check_cost_field``."""
    return check_cost_field(grid, costs)


MAX_WEIGHT = 1e6
"""The largest A* ``weight``: past it the search is greedy best-first already, and ``weight`` times a long
board's heuristic would overflow the priorities (``1e308`` did)."""


def check_weight(weight: Any) -> float:
    w = check_real(weight, "weight", minimum=1.0)
    if w > MAX_WEIGHT:
        raise ArgumentError(f"weight must be in 1..{MAX_WEIGHT:g}, got {w:g}: past {MAX_WEIGHT:g} the bound "
                            "(at most weight x the optimal cost) says nothing and the search is greedy already")
    return w


def stop_array(grid: Grid, stop: np.ndarray | None) -> np.ndarray:
    """``(height, width)`` booleans (or ``None``) to the kernels' padded uint8 flags."""
    if stop is None:
        return _EMPTY_U8
    return grid.topology.pad(np.asarray(stop, dtype=np.uint8), 0)


# -- A* ---------------------------------------------------------------------------------------------

class Routes(NamedTuple):
    """Paths of many queries at once (``search_routes``): path ``i``'s padded ids from its start to its goal are
    ``ids[ends[i - 1]:ends[i]]`` (``ends[-1]`` read as 0), empty when unreachable; ``costs[i]`` its cost (``inf``:
    unreachable)."""

    ids: NDArray[np.int64]
    ends: NDArray[np.int64]
    costs: NDArray[np.float64]

    def path(self, i: int) -> NDArray[np.int64]:
        """Path ``i``'s padded ids (a view of ``ids``)."""
        return self.ids[(int(self.ends[i - 1]) if i else 0): int(self.ends[i])]


def search_routes(grid: Grid, costs: CostField, starts: NDArray[np.int64], goals: NDArray[np.int64],
                  weight: float) -> Routes | None:
    """``search_checked``'s A* (not ``nearest``, no stop cells) from each padded ``starts[i]`` to ``goals[i]`` (checked:
    distinct passable cells) in one kernel call, or ``None`` where ``search_checked`` would run another kernel
    than the plain float one (integer keys, a board with wrap or edge costs, or the step bits not built for a
    single query on a large board): then ask it query by query. The same paths as ``search_checked``'s.

    >>> from wargrid import Map, SquareGrid
    >>> m = Map(SquareGrid(5, 3))
    >>> topo = m.grid.topology
    >>> r = search_routes(m.grid, m.cost_field(unit="tracked"), np.array([topo.padded_id(0, 0)]),
    ...                   np.array([topo.padded_id(2, 0)]), 1.2)
    >>> topo.cells_of(r.path(0)), float(r.costs[0]) > 0
    ([(0, 0), (1, 0), (2, 0)], True)
    """
    topo = grid.topology
    starts, goals = np.asarray(starts, dtype=np.int64), np.asarray(goals, dtype=np.int64)
    if starts.shape != goals.shape or starts.ndim != 1 or (starts.size and not (
            0 <= min(starts.min(), goals.min()) and max(starts.max(), goals.max()) < topo.padded_size)):
        raise ArgumentError(f"search_routes takes starts and goals as two equally long lists of padded ids below "
                            f"{topo.padded_size}, got shapes {starts.shape} and {goals.shape}")
    hscale = float(costs.min_cost) * weight
    if topo.wrap or costs.edge.size:
        return None
    if topo.heuristic != 1 and key_bits(topo, costs, hscale) is not None:
        return None  # (``astar_keyed``)
    moves = plain_moves(topo, costs, lazy=len(starts) < 2)
    if moves is None or (topo.heuristic == 1 and octile_bits(topo, costs, hscale) is not None):
        return None
    state = search_state(topo.padded_size)
    gen = state.next_gens(len(starts))
    ids, ends, cost = kernels().astar_plain_routes(costs.cell, moves, bool(costs.uniform), starts, goals,
                                                   topo.kernel_bundle, hscale, state.arrays, gen, 512 * len(starts))
    return Routes(ids, ends, cost)


def search_checked(
    grid: Grid,
    costs: CostField,
    start: tuple[int, int],
    goal: tuple[int, int],
    weight: float,
    nearest: bool,
    stop: np.ndarray | None,
) -> Path | None:
    """A* on arguments already checked (cells on the board, ``weight`` >= 1, passable ends unless ``nearest``).

    The kernel run for ``wargrid.movement.dispatch``, which decides when A*
    serves; call ``wargrid.movement.shortest_path`` instead.
    """
    topo = grid.topology
    s = topo.padded_id(*start)
    t = topo.padded_id(*goal)
    cell = costs.cell
    st = stop_array(grid, stop)
    k = kernels()
    tb = topo.kernel_bundle
    state = search_state(topo.padded_size)
    hscale = float(costs.min_cost) * weight
    plain = not (nearest or st.size or topo.wrap or costs.edge.size)
    keyb = key_bits(topo, costs, hscale) if plain and topo.heuristic != 1 else None  # (square-8: none)
    reached = -2 if keyb is None else k.astar_keyed(cell, s, t, tb, hscale, keyb, state.arrays, state.next_gen())
    xy = None
    moves = None
    if reached == -2 and plain:
        moves = plain_moves(topo, costs, lazy=True)
        octb = octile_bits(topo, costs, hscale) if moves is not None and topo.heuristic == 1 else None
        if octb is not None:
            reached, xy, cost = k.astar_octile_xy(cell, moves, bool(costs.uniform), s, t, tb, octb, state.arrays,
                                                   state.next_gen())
            if reached >= 0:
                return Path.of_xy(xy.T, float(cost), costs.unit, grid)
            # (-2: a key left its bits, the float kernel answers)
    if reached == -2:  # (also when astar_keyed found a key would overflow)
        if moves is not None:
            reached, xy = k.astar_plain_xy(cell, moves, bool(costs.uniform), s, t, tb, hscale, state.arrays,
                                           state.next_gen())
        else:
            reached = k.astar(cell, costs.edge, st, s, t, tb, hscale, nearest, state.arrays, state.next_gen())
    if reached < 0:
        return None
    if xy is None:
        xy = k.trace_xy(state.parent, reached, topo.pw)
    return Path.of_xy(xy.T, float(state.g[reached]), costs.unit, grid)


Units = tuple[float, float, dict[float, NDArray[np.int64] | None], dict[float, NDArray[np.int64] | None]]
"""``(L, largest finite cost, {hscale: keyb}, {hscale: octile keyb})``, see ``cost_unit``, ``key_bits`` and
``octile_bits``."""

_UNITS: ArrayCache[Units] = {}


def _units(topo: Topology, costs: CostField) -> Units:
    got = cached(_UNITS, costs.cell)
    if got is None:
        unit, top = kernels().cost_unit(costs.cell, 1024.0)
        got = (float(unit), float(top), {}, {})
        remember(_UNITS, costs.cell, got, 16)
    return got


def _unit_steps(topo: Topology) -> bool:
    return not np.any(np.asarray(topo.step) != 1.0)


def cost_unit(topo: Topology, costs: CostField) -> tuple[float, float]:
    """``(L, largest finite cost)``: ``L`` the power of two ``<= 1024`` making every cost whole (cached).

    ``L`` is 0 where none does, or where the board's steps are not all of
    length 1 (square-8 diagonals), so sums of costs would not be whole.
    """
    if not _unit_steps(topo):
        return 0.0, 0.0
    unit, top, _, _ = _units(topo, costs)
    return unit, top


def key_bits(topo: Topology, costs: CostField, hscale: float) -> NDArray[np.int64] | None:
    """``astar_keyed``'s ``keyb`` for these costs, or ``None`` where its integer keys do not serve (cached).

    They serve boards of unit steps (hex, square-4) whose costs and ``hscale``
    are whole in units of ``1 / L`` for a power of two ``L <= 1024``.
    """
    unit, top, keys, _ = _units(topo, costs)
    if hscale in keys:
        return keys[hscale]
    if topo.heuristic == 1 or not hscale > 0.0 or not _unit_steps(topo):
        unit = 0.0
    while unit and hscale * unit != math.floor(hscale * unit):
        unit = unit * 2.0 if unit < 1024.0 else 0.0
    keyb = None
    ib = int(topo.padded_size).bit_length()
    hb = int(topo.width + topo.height).bit_length()
    fmax = 1 << min(53, 63 - ib - hb)
    # a search that would run out of keys on ordinary queries (the kernel checks every key) is not tried
    if unit and 4 * (topo.width + topo.height) * max(top, hscale) * unit < fmax:
        keyb = np.array([unit, ib, hb, fmax], dtype=np.int64)
    if len(keys) >= 16:  # many weights: keep the few last
        keys.clear()
    keys[hscale] = keyb
    return keyb


OCTILE_F_BITS = 50
"""At most this many bits of ``astar_octile``'s key hold ``f``: ``f`` times the key's scale stays under
``2 ** 50``, where a float's rounding (``2 ** -52`` relative) is a quarter of the scaled gap between two
different costs, so the floor of each is exact."""


def octile_bits(topo: Topology, costs: CostField, hscale: float) -> NDArray[np.int64] | None:
    """``astar_octile``'s ``keyb`` for these costs, or ``None`` where its exact integer keys do not serve (cached).

    They serve square-8 boards (steps of length 1 and ``sqrt(2)``, the octile
    heuristic) whose costs and ``hscale`` are whole in units of ``1 / L`` for
    a power of two ``L <= 1024``. ``keyb`` is ``(L, hscale L, f scale, h
    scale, h bits, first scaled f that does not fit, first B that does not
    fit)``; see the kernel.
    """
    unit, top, _, keys = _units(topo, costs)
    if hscale in keys:
        return keys[hscale]
    steps = np.asarray(topo.step)
    if topo.heuristic != 1 or not hscale > 0.0 or not np.all((steps == 1.0) | (steps == math.sqrt(2.0))):
        unit = 0.0
    while unit and hscale * unit != math.floor(hscale * unit):
        unit = unit * 2.0 if unit < 1024.0 else 0.0
    keyb = None
    if unit:
        hsi = int(hscale * unit)
        w, h = int(topo.width), int(topo.height)
        hscale_k = 8 << (hsi * min(w, h)).bit_length()  # 8 x a power of two above the largest diagonal part
        hbits = (2 * hsi * max(w, h) * hscale_k).bit_length() + 1
        fbits = min(62 - hbits, OCTILE_F_BITS)
        bb = (fbits - 4) // 2
        # as key_bits: a search that would run out of keys on ordinary queries (the kernel checks every key,
        # and hands a query that does to the float kernel after its work) is not tried
        reach = (w + h) * max(top, hscale) * unit
        if 4 * reach < 1 << (fbits - bb - 3) and 2 * reach < 1 << bb:
            keyb = np.array([unit, hsi, 8 << bb, hscale_k, hbits, 1 << fbits, 1 << bb], dtype=np.int64)
    if len(keys) >= 16:
        keys.clear()
    keys[hscale] = keyb
    return keyb


def kernels() -> ModuleType:
    """The A* kernels' module, imported (and numba with it) on first use only."""
    return load("movement.astar")


def jps_applies(topo: Topology, costs: CostField, weight: float, nearest: bool, stop: np.ndarray) -> bool:
    """Whether Jump Point Search serves this query exactly."""
    return (
        topo.ndir == 8
        and topo.corner_rule == 1
        and not topo.wrap
        and bool(costs.uniform)
        and costs.edge.size == 0
        and weight == 1.0
        and not nearest
        and stop.size == 0
    )


# -- Dijkstra fields ---------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Field:
    """Raw Dijkstra output on the padded layout (internal)."""

    dist: np.ndarray
    parent: np.ndarray
    pdir: np.ndarray


def dijkstra_field(
    grid: Grid,
    costs: CostField,
    sources: np.ndarray,
    *,
    max_cost: float = math.inf,
    reverse: bool = False,
    stop: np.ndarray | None = None,
    tree: bool = True,
) -> Field:
    """Run the Dijkstra kernel from padded ``sources``; padded results.

    With ``tree=False`` only the distances are computed (``parent`` and
    ``pdir`` of the result are left unset).
    """
    from .._kernels.movement.dijkstra import dijkstra, dijkstra_plain

    topo = grid.topology
    n = topo.padded_size
    tb = topo.kernel_bundle
    dist = np.full(n, np.inf)
    parent = np.empty(n, dtype=np.int32)
    pdir = np.full(n, -1, dtype=np.int8) if tree else np.empty(n, dtype=np.int8)
    pos = np.empty(n, dtype=np.int32)
    hf = np.empty(n, dtype=np.float64)
    hid = np.empty(n, dtype=np.int32)
    src = np.asarray(sources, dtype=np.int64)
    st = stop_array(grid, stop)
    moves = None if st.size else plain_moves(topo, costs)
    field = FieldArrays(dist, parent, pdir, pos, hf, hid)
    if moves is not None:
        dijkstra_plain(
            costs.cell, moves, bool(costs.uniform), float(costs.min_cost), src, tb,
            float(max_cost), bool(reverse), bool(tree), field,
        )
    else:
        dijkstra(costs.cell, costs.edge, st, src, tb, float(max_cost), bool(reverse), field)
    stand_on_sources(costs, src, dist, parent, pdir)
    return Field(dist, parent, pdir)


def stand_on_sources(
    costs: CostField, sources: NDArray[np.int64], dist: NDArray[np.float64],
    parent: NDArray[np.int32] | None = None, pdir: NDArray[np.int8] | None = None,
) -> None:
    """Sources on impassable cells (which the kernels skip) reached at cost 0, alone (see the module notes)."""
    blocked = sources[~(costs.cell[sources] < np.inf)]
    if blocked.size:
        dist[blocked] = 0.0
        if parent is not None and pdir is not None:
            parent[blocked] = -1
            pdir[blocked] = -1


def check_cells(grid: Grid, cells: Any, name: str) -> list[tuple[int, int]]:
    """``grid.check_cells(cells, name)``."""
    return grid.check_cells(cells, name)


def distance_field(
    grid: Grid,
    costs: CostField,
    sources: Any,
    *,
    max_cost: float | None = None,
    size: int = 1,
) -> np.ndarray:
    """``(height, width)`` cheapest cost from the nearest source to every cell (``inf``: unreachable).

    ``sources`` is one ``(x, y)`` or a list of them; cells dearer than
    ``max_cost`` stay ``inf``. With ``size`` > 1 (a unit bigger than one
    cell, ``wargrid.movement.clearance``) the cells are the footprint's anchors.

    >>> from wargrid import SquareGrid
    >>> import numpy as np
    >>> g = SquareGrid(4, 1)
    >>> c = CostField.from_arrays(g, np.ones((1, 4)))
    >>> distance_field(g, c, [(0, 0), (3, 0)]).tolist()
    [[0.0, 1.0, 1.0, 0.0]]
    """
    srcs = grid.check_cells(sources, "sources")
    if not srcs:
        raise ArgumentError("sources must hold at least one (x, y) cell, got an empty list")
    mc = math.inf if max_cost is None else check_real(max_cost, "max_cost", minimum=0.0, allow_inf=True)
    costs = sized_costs(grid, costs, size)
    topo = grid.topology
    ids = np.array([topo.padded_id(*c) for c in srcs], dtype=np.int64)
    unit, top = (0.0, 0.0) if topo.wrap or costs.edge.size or costs.uniform else cost_unit(topo, costs)
    buckets = bool(unit) and top * unit < BUCKETS
    moves = None if buckets else plain_moves(topo, costs)
    if moves is None and not buckets:
        return topo.unpad(dijkstra_field(grid, costs, ids, max_cost=mc, tree=False).dist)
    from .._kernels.movement.dijkstra import dijkstra_buckets, dijkstra_plain

    # distances only: the thread's search state lends its arrays (A* trusts only
    # stamped entries, and no stamp is touched here), so no fresh board-sized
    # scratch is allocated (and faulted in) per call
    state = search_state(topo.padded_size)
    dist = state.g
    dist.fill(np.inf)
    tb = topo.kernel_bundle
    if buckets:  # whole costs: Dial's buckets, no step bits needed
        dijkstra_buckets(costs.cell, ids, tb, unit, int(top * unit) + 1, mc, dist, (state.pos, state.hid))
        stand_on_sources(costs, ids, dist)
        return topo.unpad(dist)
    if costs.uniform:
        from .._kernels.movement.dijkstra import dijkstra_queues

        qof, nq = step_queues(topo)
        queues = (qof, nq) + state.queues(nq)
        if dijkstra_queues(costs.cell, moves, float(costs.min_cost), ids, tb, queues, mc, dist) >= 0:
            stand_on_sources(costs, ids, dist)
            return topo.unpad(dist)
        dist.fill(np.inf)  # (never seen) a queue overflowed: the heap below answers instead
    dijkstra_plain(
        costs.cell, moves, False, float(costs.min_cost), ids, tb, mc, False, False,
        FieldArrays(dist, _NO_TREE_I32, _NO_TREE_I8, state.pos, state.hf, state.hid),  # as field_search's: one signature
    )
    stand_on_sources(costs, ids, dist)
    return topo.unpad(dist)


BUCKETS = 1 << 12
"""``distance_field`` runs ``dijkstra_buckets`` when the largest cost is under this many units ``1 / L``."""


_STEP_QUEUES: weakref.WeakKeyDictionary[Topology, tuple[NDArray[np.int64], int]] = weakref.WeakKeyDictionary()


def step_queues(topo: Topology) -> tuple[NDArray[np.int64], int]:
    """``(qof, nq)``: the queue of each direction for ``dijkstra_queues`` (one per distinct step length; cached)."""
    got = _STEP_QUEUES.get(topo)
    if got is None:
        steps = np.asarray(topo.step, dtype=np.float64).tolist()
        lengths = sorted(set(steps))
        got = _STEP_QUEUES[topo] = (np.array([lengths.index(v) for v in steps], dtype=np.int64), len(lengths))
    return got


class _TableState:
    """One thread's scratch for ``dijkstra_targets`` on boards of ``n`` padded cells (generation stamps)."""

    def __init__(self, n: int) -> None:
        self.dist = np.empty(n)
        self.stamp = np.zeros(n, dtype=np.int32)
        self.pos = np.empty(n, dtype=np.int32)
        self.key = np.empty(n)
        self.ids = np.empty(n, dtype=np.int32)
        self.want = np.zeros(n, dtype=np.int32)
        self.gen = 2

    def take(self) -> int:
        """A fresh pair of stamps (even, then odd); the arrays are cleared when the stamps would overflow."""
        if self.gen > (1 << 30):
            self.stamp[:] = 0
            self.want[:] = 0
            self.gen = 2
        g = self.gen
        self.gen += 2
        return g


def dijkstra_table(costs: CostField, src: np.ndarray, tgt: np.ndarray) -> NDArray[np.float64]:
    """``(len(src), len(tgt))`` cheapest costs between padded ids: one Dijkstra a source, stopped once every open
    target is settled (``prepared.distance_table`` without a hierarchy)."""
    from .._kernels.movement.dijkstra import dijkstra_targets

    tb = topo_bundle(costs.topology)
    n = costs.cell.shape[0]
    st = per_thread("table_states", n, _TableState, keep=1)
    out = np.full((src.shape[0], tgt.shape[0]), np.inf)
    cell = costs.cell
    open_t = np.unique(tgt[cell[tgt] < np.inf])
    for i, s in enumerate(src.tolist()):
        gen = st.take()
        st.want[open_t] = gen
        if cell[s] < np.inf:
            dijkstra_targets(s, st.want, open_t.shape[0], cell, costs.edge, tb, st.dist, st.stamp, st.pos, st.key,
                             st.ids, gen)
            ok = st.stamp[tgt] == gen + 1
            out[i, ok] = st.dist[tgt[ok]]
        out[i, tgt == s] = 0.0
    return out
