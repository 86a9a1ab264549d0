"""Crowds: collision-free timed paths for many agents at once (multi-agent path finding).

Every agent stands on one cell; one timestep, each stays or steps to a
neighbour on the board's topology (over cells passable for the movement
class). A plan has no two agents on one cell at one timestep (vertex
conflict) and no two trading cells along one edge in one timestep (edge
conflict); an agent stays on its goal once the plan ends. These are the
conventions of the MAPF benchmark (Stern et al., 2019).

``plan_crowd`` is LaCAM (Okumura, AAAI 2023): a depth-first search over
configurations (one cell for every agent) in which each successor is made by
PIBT (priority inheritance with backtracking; Okumura et al., AIJ 2022: one
timestep for the whole crowd, agents nearest to their goals' way yielding to
those that waited longest, and among those that waited as long to the ones
farthest from their goals, which set the makespan, an agent that left that
group four times staying in it; pushed agents stepping
aside instead of blocking, off the pusher's way where that is as near their
goals;
with LaCAM2's swaps, Okumura, IJCAI 2023, so that two agents meeting in a
one-cell corridor back out to a branch and pass) under constraints that the search adds one agent at a time when PIBT's
proposal was seen before. The search is complete: when a plan exists, it
finds one. Where it stops bringing more agents home far deeper than the
longest agent's distance (it wandered: rooms joined by one-cell doors,
crowded), it starts over with new tie-breaks, a few times at most; where
it stops so otherwise (trains of agents head-on in one-wide corridors,
which PIBT trades back and forth), the configuration with most agents
home is repaired: the agents off their
goals walk home one after another by push and swap (Luna and Bekris, IJCAI
2011: an agent in the way pushed to a free node off it, or the two taken to
a fork with room, traded there and every clearing move undone), the moves
timed as early as their order allows (``wargrid._kernels.rts.knots``); when
that brings every agent home, the search goes on for a while and the
shorter of the two plans is returned. A complete plan is then tightened
(``wargrid._kernels.rts.tighten``): where an agent leaves a node and comes
back to it with nobody there between, it stays instead, and every move is
re-timed as early as the order of the agents on each node allows (an
action-dependency graph); no agent arrives later, and PIBT's and the
repair's detours in perfect mazes fall away (maze-128-128-1's 500 random
pairs: makespan 14 678 down to 6037). Given time (``improve``), the agents that arrive last are
planned again, one at a time, by their earliest ways through the others'
(space-time A*, ``wargrid._kernels.rts.spacetime``) for as long as each of
them arrives earlier; then the search restarts with new tie-breaks and
keeps the best plan, pruning as LaCAM* does every configuration that cannot
beat it. The distance tables are lazy (one resumable A* from each goal
towards its agent's start, searched on only as far as PIBT asks; reverse
resumable A*, Silver 2005): on a large map most of the board is never looked
at. The tables and PIBT are numba kernels (``wargrid._kernels.rts.lazydist``,
``wargrid._kernels.rts.crowd``).

``check_plan`` validates any plan against the map, the starts and the goals.
``wargrid.io.load_movingai_agents`` reads agents from a Moving AI ``.scen``
file (the first N lines, as MAPF benchmarks do).

>>> from wargrid import Map, SquareGrid
>>> m = Map(SquareGrid(5, 3))
>>> plan = plan_crowd(m, [(0, 1), (4, 1)], [(4, 1), (0, 1)])
>>> plan.complete, plan.lower_bound_makespan, plan.makespan >= 4
(True, 4, True)
>>> check_plan(m, [(0, 1), (4, 1)], [(4, 1), (0, 1)], plan)
"""

from __future__ import annotations

import math
import mmap
import os
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from ..errors import ArgumentError, ArgumentTypeError
from .._budget import available_memory
from .._validate import check_choice, check_real, check_seed
from ..grids.board import CostBoard

try:
    import resource
except ImportError:  # not on Windows
    resource = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from .._kernels.rts.lazydist import LazyTables

__all__ = ["CrowdPlan", "plan_crowd", "check_plan", "OBJECTIVES"]

OBJECTIVES = ("makespan", "sum_of_costs")
"""What ``improve`` makes smaller (then the other one, on ties): the makespan,
or the sum of the agents' costs."""


@dataclass(frozen=True)
class CrowdPlan:
    """A plan for a crowd: where every agent stands at every timestep.

    Attributes
    ----------
    positions : ndarray of int64, shape ``(T + 1, n, 2)``
        ``positions[t, i]``: agent ``i``'s cell ``(x, y)`` at timestep ``t``
        (``t = 0``: the starts).
    complete : bool
        Every agent ends on its goal (False: the time ran out first, or no
        plan exists; ``positions`` then leads to the configuration nearest
        the goals that the search reached).
    makespan : int
        The last timestep at which an agent is off its goal, plus one
        (``T`` for a complete plan).
    sum_of_costs : int
        The sum over agents of the timestep after which it stays on its goal
        for good (``T`` for an agent that never arrives).
    lower_bound_makespan, lower_bound_sum_of_costs : int
        The longest and the sum of the agents' shortest path lengths (when
        the time ran out before every agent's was found, of those found:
        ``positions`` then holds the starts alone).
    seconds : float
        The planner's time (the distance tables included).
    first_seconds : float
        When the first complete plan was found (``nan``: none).
    first_makespan, first_sum_of_costs : int
        That first plan's quality (``-1``: none).
    expanded : int
        Configurations the search made.
    """

    positions: np.ndarray = field(repr=False)
    complete: bool
    makespan: int
    sum_of_costs: int
    lower_bound_makespan: int
    lower_bound_sum_of_costs: int
    seconds: float
    first_seconds: float
    first_makespan: int
    first_sum_of_costs: int
    expanded: int

    @property
    def agents(self) -> int:
        """How many agents."""
        return int(self.positions.shape[1])

    def path(self, agent: int) -> list[tuple[int, int]]:
        """Agent ``agent``'s cell at every timestep, ``(x, y)``.

        >>> from wargrid import Map, SquareGrid
        >>> plan_crowd(Map(SquareGrid(3, 1)), [(0, 0)], [(2, 0)]).path(0)
        [(0, 0), (1, 0), (2, 0)]
        """
        if isinstance(agent, bool) or not isinstance(agent, (int, np.integer)) or not 0 <= agent < self.agents:
            raise ArgumentError(f"agent must be an agent number 0..{self.agents - 1}, got {agent!r}")
        return [(int(x), int(y)) for x, y in self.positions[:, int(agent)].tolist()]


def _kernels() -> Any:
    from .._kernels import load

    return load("rts.crowd")


class _Graph:
    """The crowd's graph: node ``v`` a passable cell (``cells[v]``, unpadded id), ``nbr[v, d]`` its neighbours."""

    __slots__ = ("nbr", "cells", "node", "width", "_xy")

    def __init__(self, map: CostBoard, unit: str | None) -> None:
        grid = map.grid
        costs = np.asarray(map.costs(unit=unit), dtype=np.float64)
        ok = np.isfinite(costs).ravel() & grid.mask.ravel()
        nb = grid.neighbor_ids()
        step = (nb >= 0) & ok[:, None] & ok[nb.clip(0)]
        topo = grid.topology
        if topo.corner_rule:
            for d in range(topo.ndir):
                c0, c1 = int(topo.corner[d, 0]), int(topo.corner[d, 1])
                if c0 < 0:
                    continue
                a = (nb[:, c0] >= 0) & ok[nb[:, c0].clip(0)]
                b = (nb[:, c1] >= 0) & ok[nb[:, c1].clip(0)]
                step[:, d] &= (a & b) if topo.corner_rule == 1 else (a | b)
        self.cells = _z_order(np.flatnonzero(ok), grid.width)
        self.node = np.full(grid.size, -1, dtype=np.int64)
        self.node[self.cells] = np.arange(len(self.cells))
        self.nbr = np.where(step[self.cells], self.node[nb[self.cells].clip(0)], -1).astype(np.int32)
        self.width = grid.width
        self._xy: np.ndarray | None = None

    def xy(self, nodes: np.ndarray, within: np.ndarray | None = None) -> np.ndarray:
        """The cells ``(x, y)`` of ``nodes`` (any shape), by one gather from a table of every node's (a plan's
        positions: 2 M nodes on the 3000-agent cave, 4-5 times faster than gathering x and y apart); written into
        the first rows of ``within`` (an earlier answer) when they hold it."""
        if self._xy is None:
            y, x = np.divmod(self.cells, self.width)
            self._xy = np.stack([x, y], axis=1).astype(np.int64)
        if within is not None and within.shape[0] >= nodes.shape[0] and within.shape[1:] == nodes.shape[1:] + (2,):
            # mode "clip" (every node is in range): with "raise", numpy gathers into a fresh buffer and copies
            return np.take(self._xy, nodes, axis=0, out=within[:nodes.shape[0]], mode="clip")
        return np.take(self._xy, nodes, axis=0)


def _z_order(cells: np.ndarray, width: int) -> np.ndarray:
    """Cells ``y * width + x`` in Z order (Morton: the bits of ``x`` and ``y`` interleaved), so that a cell's
    neighbours are mostly a few nodes away: the distance tables' look-ups and searches around a node then fall
    in one or two cache lines, not three rows of the board apart."""
    y, x = np.divmod(cells, width)
    key = np.zeros(len(cells), dtype=np.int64)
    for b in range(16):
        key |= ((x >> b) & 1) << (2 * b) | ((y >> b) & 1) << (2 * b + 1)
    return cells[np.argsort(key, kind="stable")]


def _agents(map: CostBoard, cells: Any, name: str) -> list[tuple[int, int]]:
    if isinstance(cells, (str, bytes)) or not isinstance(cells, (Sequence, np.ndarray)) or isinstance(cells, np.ndarray) and cells.ndim == 0:
        raise ArgumentTypeError(f"{name} must be a sequence of (x, y) cells, got {type(cells).__name__} {cells!r:.60}")
    return [map.grid.check_cell(c, f"{name}[{i}]") for i, c in enumerate(cells)]


def _check_agents(map: CostBoard, starts: Any, goals: Any, unit: str | None) -> tuple[_Graph, np.ndarray, np.ndarray]:
    """The graph and the agents' start and goal nodes, or a clear error naming the agent."""
    s = _agents(map, starts, "starts")
    g = _agents(map, goals, "goals")
    if len(s) != len(g):
        raise ArgumentError(f"starts and goals must be as many, got {len(s)} starts and {len(g)} goals")
    if not s:
        raise ArgumentError("a crowd needs at least one agent, got no starts")
    map.unit_class(unit)  # validates the class name
    graph = _Graph(map, unit)
    w = map.grid.width
    out = []
    for name, cells in (("start", s), ("goal", g)):
        ids = np.array([y * w + x for x, y in cells], dtype=np.int64)
        nodes = graph.node[ids]
        bad = np.flatnonzero(nodes < 0)
        if len(bad):
            i = int(bad[0])
            raise ArgumentError(
                f"agent {i}'s {name} {cells[i]} is impassable for movement class {map.unit_class(unit)!r}"
            )
        _, first, counts = np.unique(nodes, return_index=True, return_counts=True)
        if (counts > 1).any():
            node = np.unique(nodes)[np.flatnonzero(counts > 1)[0]]
            who = np.flatnonzero(nodes == node)[:2].tolist()
            raise ArgumentError(f"agents {who[0]} and {who[1]} have the same {name} {cells[who[0]]}")
        out.append(nodes)
    return graph, out[0], out[1]


def _must_pass(graph: _Graph, s: np.ndarray, g: np.ndarray, zone: np.ndarray) -> bool:
    """Whether agents would have to pass each other in a zone that is one corridor (a path of cells, none with three
    neighbours) or one ring: no plan exists then, and a complete search would go through every configuration of
    the zone before it found so (six agents in a 1 x 30 corridor: not done in ten minutes, 2.9 GB). On a path the
    agents' order along it cannot change, on a ring their order round it (a full ring turns as one: its order kept,
    every agent goes as far)."""
    counts = np.bincount(zone[s])
    many = np.flatnonzero(counts >= 2)
    if not len(many):
        return False
    by_zone = np.argsort(zone, kind="stable")  # (the zones' nodes in one pass, not a pass a zone)
    first = np.searchsorted(zone[by_zone], many)
    sizes = np.bincount(zone, minlength=int(many[-1]) + 1)[many]
    for z, lo, size in zip(many.tolist(), first.tolist(), sizes.tolist()):
        nodes = by_zone[lo:lo + size]
        if int((graph.nbr[nodes] >= 0).sum(axis=1).max()) > 2:
            continue
        ways = {int(v): sorted({int(u) for u in graph.nbr[v] if u >= 0}) for v in nodes.tolist()}
        ends = [v for v, us in ways.items() if len(us) < 2]
        at: dict[int, int] = {}
        v = ends[0] if ends else int(nodes[0])
        while v >= 0:  # (along the path from one end, or round the ring)
            at[v] = len(at)
            v = next((u for u in ways[v] if u not in at), -1)
        who = np.flatnonzero(zone[s] == z).tolist()
        by_start = sorted(who, key=lambda a: at[int(s[a])])
        by_goal = sorted(who, key=lambda a: at[int(g[a])])
        if not ends:  # a ring: the goals' order read from where the first agent's goal lies
            i = by_goal.index(by_start[0])
            by_goal = by_goal[i:] + by_goal[:i]
        if by_goal != by_start:
            return True
    return False


class _Tables:
    """Lazy distance tables to the goals (``wargrid._kernels.rts.lazydist``): row ``k`` searches from ``goals[k]``.

    ``targets[k]``: the node the row's search heads for first (its agent's
    start; ``-1``: none); the heuristic is the Manhattan or Chebyshev distance
    of the cells when no step of the graph changes it by more than one.
    """

    __slots__ = ("lz", "nbr")

    def __init__(self, graph: _Graph, goals: np.ndarray, targets: np.ndarray | None = None, *,
                 chunks: int | None = None) -> None:
        nv = len(graph.cells)
        xy = graph.xy(np.arange(nv)).astype(np.int32)
        metric = 0 if targets is None else heuristic_metric(graph.nbr, xy)
        self.nbr = graph.nbr
        # 4 KiB pages: the first searches touch every 2 MiB of a large table, and faulting it in by huge pages
        # cost 2-7 times the system time on the 3000-agent cave, with no faster search after (kernels.md)
        self.lz = lazy_tables(nv, xy, goals, targets, np.full(len(goals), metric), chunks=chunks, huge=False)

    def lookup(self, gidx: np.ndarray, nodes: np.ndarray) -> np.ndarray:
        """Steps from ``nodes[i]`` to goal ``gidx[i]`` (``lazydist.UNREACHABLE``: none)."""
        out = np.empty(len(nodes), dtype=np.int64)
        _kernels_lazy().lookup(self.lz, self.nbr, gidx, nodes, out)
        return out


def heuristic_metric(nbr: np.ndarray, xy: np.ndarray) -> int:
    """The coordinate distance that no step of graph ``nbr`` changes by more than one: 1 Manhattan, 2 Chebyshev, 0 none."""
    src = np.repeat(np.arange(len(nbr)), nbr.shape[1])
    dst = nbr.ravel().astype(np.int64)
    src, dst = src[dst >= 0], dst[dst >= 0]
    dx = np.abs(xy[src, 0].astype(np.int64) - xy[dst, 0])
    dy = np.abs(xy[src, 1].astype(np.int64) - xy[dst, 1])
    return 1 if (dx + dy <= 1).all() else 2 if (np.maximum(dx, dy) <= 1).all() else 0


def lazy_tables(nv: int, xy: np.ndarray, goals: np.ndarray, targets: np.ndarray | None, metrics: np.ndarray, *,
                chunks: int | None = None, huge: bool = True) -> LazyTables:
    """The state ``lz`` of ``wargrid._kernels.rts.lazydist`` for rows searching from ``goals`` (nodes ``0..nv-1``
    with coordinates ``xy``) towards ``targets`` (``-1`` or ``None``: no target) by ``metrics`` (per row);
    ``huge``: the distances in huge pages (for tables whose rows are nearly all searched)."""
    lazydist = _kernels_lazy()
    k = len(goals)
    dt = np.uint16 if nv + 2 < np.iinfo(np.uint16).max else np.int32
    if chunks is None:
        chunks = max(4096, 24 * k)  # measured: 6 a goal in use at once on a 256 x 257 cave
    cnext = np.arange(1, chunks + 1, dtype=np.int64)
    cnext[-1] = -1
    st = np.full((k, lazydist.S_COLS), -1, dtype=np.int64)
    st[:, lazydist.S_GOAL] = goals
    st[:, lazydist.S_METRIC] = metrics
    if targets is not None:
        t = np.asarray(targets, dtype=np.int64)
        st[:, lazydist.S_TX], st[:, lazydist.S_TY] = xy[t.clip(0), 0], xy[t.clip(0), 1]
        st[t < 0, lazydist.S_METRIC] = 0
    else:
        st[:, lazydist.S_METRIC] = 0
    st[:, lazydist.S_F] = st[:, lazydist.S_FLAG] = 0
    tables: LazyTables = lazydist.LazyTables(
        dist=_zeros((k, nv), dt, huge=huge), st=st, cnext=cnext,
        cdata=np.empty((chunks, lazydist.CHUNK), dtype=np.int32), free=np.array([0, chunks, 0], dtype=np.int64),
        nxy=np.ascontiguousarray(xy, dtype=np.int32), queue=np.empty(nv, dtype=np.int64),
    )
    return tables


def _zeros(shape: tuple[int, int], dtype: Any, *, huge: bool = True) -> np.ndarray:
    """Zeros whose memory is touched only where written: a shared anonymous mapping (a row's search touches a
    small part of it), asked for huge pages (``huge``), which Linux gives such a mapping only where
    ``/sys/kernel/mm/transparent_hugepage/shmem_enabled`` allows it."""
    size = int(np.prod(shape)) * np.dtype(dtype).itemsize
    if size < 1 << 22:
        return np.zeros(shape, dtype=dtype)
    try:
        buf = mmap.mmap(-1, size)
    except OSError as e:  # the system refused the mapping (ENOMEM): say what was asked for
        raise MemoryError(f"distance tables of {shape[0]} goals x {shape[1]} cells need {size / 2**20:.0f} MiB "
                          f"of address space, which the system refused ({e.strerror}); give fewer agents or "
                          "distinct goals, or a smaller board") from e
    if huge and hasattr(mmap, "MADV_HUGEPAGE"):
        buf.madvise(mmap.MADV_HUGEPAGE)
    return np.frombuffer(buf, dtype=dtype).reshape(shape)


def _load_spacetime() -> Any:
    from .._kernels import load

    return load("rts.spacetime")


def _load_tighten() -> Any:
    """The kernels that make a complete plan shorter (``wargrid._kernels.rts.tighten``)."""
    from .._kernels import load

    return load("rts.tighten")


def _kernels_lazy() -> Any:
    from .._kernels import load

    return load("rts.lazydist")


class _High:
    """A configuration the search reached (LaCAM's high-level node)."""

    __slots__ = ("q", "parent", "order", "prio", "tree", "g", "h", "t", "exits")

    def __init__(self, q: np.ndarray, parent: "_High | None", prio: np.ndarray, order: np.ndarray, g: int,
                 h: int) -> None:
        self.q = q
        self.parent = parent
        self.t: int = 0 if parent is None else parent.t + 1
        self.prio = prio
        self.order = order
        self.tree: deque[tuple[Any, int, int, int]] = deque([(None, -1, -1, 0)])
        self.g = g
        self.h = h
        self.exits: np.ndarray | None = None  # how often each agent left the makespan's band (None: none did)


# The planner's tuning constants: what each is here; the measurements that set them are in docs/design/kernels.md,
# "The planner's tuning constants: what set them" (and the sections it names).

_PIECE = 32
"""Agents in the first piece of ``_start_distances`` on each thread; the next pieces are sized to take about
``_PIECE_SECONDS`` as the last did (every piece is a look at the clock and, on two threads, a hand-over of the GIL)."""

_PIECE_SECONDS = 0.005
"""About how long a piece of ``_start_distances`` should take."""

_WIDEN = 2
"""How far past its agent's distance a row's first search goes: every node of ``f`` up to that distance plus 2 is
settled, so the neighbours of every shortest way (``f`` changes by at most 2 a step) are known before the search
asks for them."""

_CRITICAL = 5
"""How many steps short of the largest an agent's steps to go may be for it to count as setting the makespan (it
goes first among the agents that have waited as long; ``_kernels.rts.crowd.priority``)."""

_BAND_CROWD = 0.2
"""The largest share of the nodes a crowd may hold for ``_CRITICAL``'s band to apply (for as many timesteps as the
longest agent's distance): in denser crowds the band's changing membership lets PIBT go round in circles, and
there they keep LaCAM's order."""

_BAND_STEPS = 1.5
"""For how many timesteps, in multiples of the longest agent's distance, the band applies (LaCAM's order after:
should the band's agents still go round in circles, they stop doing so)."""

_BAND_EXITS = 4
"""How often an agent may leave ``_CRITICAL``'s band before it stays in it till its goal
(``_kernels.rts.crowd.stay_in_band``; the simulation's ``BAND_EXITS``)."""

_STALL = 1024
"""Successors without a configuration that has more agents on their goals than any before, after which the first
search repairs the one that has most (``_Search.repair``: push and swap for the agents off their goals, where
PIBT leaves trains of agents head-on in one-wide corridors)."""

_WANDER = 4
"""How many times the longest agent's distance the configuration with most agents home may lie deep in the first
search when it stalls (``_STALL``) for the search to be repaired from it; deeper, the search starts over with new
tie-breaks instead, up to ``_RESTARTS`` times (docs/design/kernels.md, "A search that wanders: start over")."""

_RESTARTS = 2
"""How often the first search may start over (``_WANDER``) before it repairs the configuration it stalled at."""

_WALK_ROUNDS = 32
"""Most rounds of one repair (in each, the agents off their goals walk home one after another)."""

_REPAIRS = 8
"""How many repairs one search may make."""

_HOLD = 8
"""How long the search goes on after a repair brought every agent home, in multiples of the successors it tried till
then (within the time limit): the plan it finds in that time is returned instead when it is shorter (a repair's
plan walks the agents home a few at a time). Counted in successors, not seconds, the plan returned does not
depend on the machine's load."""

_HOLD_SUCCESSORS = 50_000
"""The fewest successors the search tries after such a repair (``_HOLD``)."""

_REPAIR_SECONDS = 2e-3
"""About the most a repair takes, an agent; none starts that would end past the time limit."""

_REPAIR_WORK = 10_000_000
"""The repair's work a second (nodes its searches take from their queues, steps of its ways: ``knots._spend``),
reckoned low: its budget is the time left to the stop times this, so that it ends before the stop with time to
spare for the search and the plan's output."""

_REPAIR_MOVES = 1 << 21
"""Most single moves one repair logs (24 bytes each)."""

_REPAIR_CELLS = 1 << 24
"""Most agents times timesteps of the configurations one repair adds to the search (a plan's positions take 16
bytes a cell)."""

_REPAIR_CELL_SECONDS = 1e-7
"""About what a repair's configuration takes to add to the search, a cell; none is added that would take past the
stop."""

_TIGHTEN_FILLS = 4
"""Passes of loop filling (``wargrid._kernels.rts.tighten.fill``) in a round of ``_Search.tighten`` (each pass may
find loops that the last one freed)."""

_TIGHTEN_GAIN = 200
"""``_Search.tighten`` stops after a round that took less than 1 / ``_TIGHTEN_GAIN`` off what it makes smaller."""

_FILL_CELL_SECONDS = 5e-9
"""What a pass of loop filling (``_Search.tighten``) is first reckoned to take, a cell of the plan's rows, times the
clock's slowness (``_Clock.slowness``); later passes are reckoned by the last one's time (``_TIGHTEN_SPARE``)."""

_RETIME_CELL_SECONDS = 3e-8
"""What a re-timing and the plan's quality are first reckoned to take, a cell, times the clock's slowness (the
measurements behind both: docs/design/kernels.md, "A search that wanders: start over")."""

_TIGHTEN_SPARE = 1.5
"""How many times its last measured time a pass of ``_Search.tighten`` is reckoned to take again."""

_MEMORY_RESERVE = 1 << 28
"""The least memory (bytes) the search leaves: with less available (``wargrid._budget.available_memory``, read
every ``_MEMORY_SECONDS`` once its own configurations take about as much: 32 bytes an agent and 400 a
configuration) it stops as at its time limit, the plan incomplete; a small search never stops so (a container's
reading counts page cache, and can be low while the process holds little). An instance with no plan has a
complete search go through every configuration it can reach, which can fill the memory."""

_MEMORY_SECONDS = 0.25
"""How often the search reads the memory left (a read walks the cgroups)."""

_SHORTEN_STATES = 1 << 18
"""Most states one agent's earliest way through the others' may take (``_Ways.sooner``; 10 MB of scratch)."""

_SHORTEN_CELLS = 1 << 26
"""Most nodes times timesteps of a plan whose last agents ``_Search.shorten`` plans again: its three tables take
two bytes a cell each."""

_STATES_A_SECOND = 1e6
"""About how many states ``_Ways.sooner``'s search takes a second (at least: its cap keeps it within the time
left)."""

_SHORTEN_SECONDS = 2e-8
"""Least time left, a node and timestep of the plan, for ``plan_crowd`` to plan its last agents again (building
the tables of who stands where, started with less time left, ran past the time limit)."""

_THREADED = 128
"""Fewest agents whose start distances are found on two threads (below, the thread costs more than it saves)."""

_OUT_SECONDS = 2e-8
"""About how long a plan takes to put out, an agent and timestep: its configurations gathered, its quality, its
cells (``_Clock``)."""

_RELEASE_SECONDS = 2e-6
"""About how long the tables' memory takes to give back, a page faulted in since the call began (``_Clock``)."""

_MARGIN_SECONDS = 0.005
"""Time ``_Clock`` keeps besides: the result's record, the call's return."""

_SLOWEST = 4.0
"""The most ``_Clock`` scales its reserve by for a wall clock that ran slower than the calling thread's CPU."""


class _Clock:
    """When ``plan_crowd`` must stop searching to return by its deadline: the deadline less a reserve for what
    comes after, a plan's cells put out (``_OUT_SECONDS`` an agent and timestep) and the tables' memory given back
    (``_RELEASE_SECONDS`` a page faulted in since the call began), both times how much slower the wall clock has
    run than the calling thread's CPU since the last ``mark``: less than one core's worth, other processes took
    the rest (at most ``_SLOWEST``); plus ``_MARGIN_SECONDS``. The calling thread's, not the process's: while
    ``_start_distances`` runs two threads, the process's CPU runs up to twice as fast as the wall clock, and a
    machine that halves both threads' speed would read as not slowed. A clock is read only in the thread that
    made it (``plan_crowd``'s)."""

    __slots__ = ("deadline", "wall0", "cpu0", "faults0")

    def __init__(self, t0: float, limit: float) -> None:
        self.deadline = t0 + limit
        self.wall0, self.cpu0, self.faults0 = t0, time.thread_time(), _faults()

    def mark(self) -> None:
        """Measure the wall clock against the calling thread's CPU from now on (a new phase begins)."""
        self.wall0, self.cpu0 = time.perf_counter(), time.thread_time()

    def slowness(self) -> float:
        """How many times slower the wall clock has run than the calling thread's CPU since the last ``mark`` (1
        to ``_SLOWEST``)."""
        cpu = time.thread_time() - self.cpu0
        return min(_SLOWEST, max(1.0, (time.perf_counter() - self.wall0) / cpu)) if cpu > 0.01 else 1.0

    def stop(self, cells: int) -> float:
        """When to stop with a plan of ``cells`` agents times timesteps to put out."""
        if math.isinf(self.deadline):
            return self.deadline
        work = cells * _OUT_SECONDS + (_faults() - self.faults0) * _RELEASE_SECONDS
        return self.deadline - self.slowness() * work - _MARGIN_SECONDS


def _faults() -> int:
    """This process's page faults so far (0 where the system does not count them)."""
    if resource is None:
        return 0
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_minflt)


def _start_distances(dist: _Tables, s: np.ndarray, d0: np.ndarray, clock: _Clock) -> int:
    """``d0[i]``: agent ``i``'s steps from its start ``s[i]`` to its goal (row ``i`` of ``dist``, searched on as far as
    ``_WIDEN`` says), a piece of agents at a time (``_PIECE``, ``_PIECE_SECONDS``) until all are found or the next
    piece would end past when ``clock`` says to stop (it takes as long as this thread's last); returns how many
    agents are done (the first ones).

    With two cores, two threads take the pieces in turn as each is free (the kernel runs without the GIL; a
    thread slowed by another process takes fewer), each searching rows of its own from its own half of the
    tables' chunk pool; the pool is joined afterwards. The distances are exact either way, so the plan does not
    depend on the threads."""
    lazydist = _kernels_lazy()
    wide = lazydist.lookup_wide
    n = len(s)
    agents = np.arange(n)
    taken = [0]  # the agents taken so far, the first ones; every piece taken is finished
    lock = threading.Lock()
    halt = threading.Event()

    def work(lz: LazyTables, timed: bool) -> None:
        took = 0.0
        size = _PIECE
        stacks = lazydist.wide_stacks(dist.nbr)
        while not halt.is_set():
            now = time.perf_counter()
            if timed and now + took >= clock.stop(n):
                halt.set()
                return
            with lock:
                lo = taken[0]
                hi = taken[0] = min(n, lo + size)
            if lo >= n:
                return
            wide(lz, dist.nbr, agents[lo:hi], s[lo:hi], d0[lo:hi], _WIDEN, stacks)
            took = time.perf_counter() - now
            size = int(min(4 * size, max(8, (hi - lo) * _PIECE_SECONDS / max(took, 1e-6))))

    if time.perf_counter() >= clock.stop(n):
        return 0
    if n < _THREADED or _cores() < 2:
        work(dist.lz, True)
    else:
        lz = dist.lz
        a, b = _pool_halves(lz)
        with ThreadPoolExecutor(1) as pool:
            other = pool.submit(work, b, False)
            work(a, True)
            other.result()
        lazydist.join_pools(lz.cnext, a.free, b.free, lz.free)
    return taken[0]


def _cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _pool_halves(lz: LazyTables) -> tuple[LazyTables, LazyTables]:
    """Two copies of fresh tables ``lz`` for two threads (``lazydist``: the same rows and chunks, each with half the
    pool's free chunks and its own fallback scratch); ``lazydist.join_pools`` joins them back."""
    c = len(lz.cnext)
    h = c // 2
    lz.cnext[h - 1] = -1  # the free list of a fresh pool is 0, 1, ..., c - 1
    a = lz._replace(free=np.array([0, h, 0], dtype=np.int64))
    b = lz._replace(free=np.array([h, c - h, 0], dtype=np.int64), queue=np.empty_like(lz.queue))
    return a, b


def plan_crowd(
    map: CostBoard,
    starts: Sequence[tuple[int, int]],
    goals: Sequence[tuple[int, int]],
    *,
    unit: str | None = None,
    time_limit: float | None = None,
    improve: float = 0.0,
    objective: str = "makespan",
    seed: int | None = 0,
) -> CrowdPlan:
    """Collision-free timed paths taking every agent from its start to its goal.

    Parameters
    ----------
    map : Map
        The board (any topology); agents move over the cells passable for ``unit``.
    starts, goals : sequence of (x, y)
        One start and one goal per agent, all distinct.
    unit : str, optional
        The movement class (``Map.costs``); costs only decide what is passable:
        every step takes one timestep.
    time_limit : float, optional
        Seconds the planner may take in all (``None``: until the first plan,
        then ``improve``). When it runs out before a plan is found, the result
        is marked incomplete and leads as near the goals as the search got.
        Where no plan exists the result is incomplete too: at once (the
        starts alone) where agents would have to pass each other in a zone
        that is one corridor or one ring of cells, elsewhere once the search
        has seen every configuration it can reach, which with ``None`` can
        take long on a large zone (the search also stops, incomplete, when
        less than 256 MB of memory is left).
    improve : float
        Seconds to go on improving the plan after the first one, within
        ``time_limit``; 0: return the first plan. First the agents that
        arrive last are planned again one at a time, each by its earliest way
        through the others' (an agent standing on its goal after that, too),
        for as long as every one of them arrives earlier; then the search
        restarts with new tie-breaks and prunes, as LaCAM* does, every
        configuration whose cost so far plus a lower bound of the rest (the
        agents' distances to their goals) cannot beat the best plan.
    objective : {'makespan', 'sum_of_costs'}
        What ``improve`` makes smaller.
    seed : int or None
        The tie-breaks (``None``: fresh randomness).

    Returns
    -------
    CrowdPlan

    Raises
    ------
    CellError
        A start or goal off the board (naming ``starts[i]`` or ``goals[i]``).
    ArgumentError
        Starts and goals of different counts; a start or goal impassable or
        shared by two agents; a goal its agent cannot reach (naming the agent);
        a bad option.
    MemoryError
        Distance tables (two or four bytes a goal a cell) larger than the
        system will map, saying their size.

    Examples
    --------
    >>> from wargrid import Map, SquareGrid
    >>> m = Map(SquareGrid(4, 4))
    >>> p = plan_crowd(m, [(0, 0), (3, 0), (0, 3)], [(3, 3), (0, 0), (3, 0)])
    >>> p.complete, p.makespan >= p.lower_bound_makespan, p.positions.shape[1:]
    (True, True, (3, 2))
    """
    t0 = time.perf_counter()
    if not isinstance(map, CostBoard):
        raise ArgumentTypeError(f"map must be a wargrid Map (a CostBoard), got {type(map).__name__}")
    limit = math.inf if time_limit is None else check_real(time_limit, "time_limit", minimum=0.0)
    more = check_real(improve, "improve", minimum=0.0)
    objective = check_choice(objective, "objective", OBJECTIVES)
    rng = np.random.default_rng(check_seed(seed))
    graph, s, g = _check_agents(map, starts, goals, unit)
    n = len(s)
    from .._kernels import load

    nbr = graph.nbr.astype(np.int64)  # the partitions' dtype: label_chunks compiles once for both
    zone, _ = load("territory.graph").label_chunks(nbr, np.zeros(len(graph.cells), dtype=np.int64))
    far = np.flatnonzero(zone[s] != zone[g])
    if len(far):
        i = int(far[0])
        raise ArgumentError(
            f"agent {i}'s goal {tuple(graph.xy(g[i:i + 1])[0].tolist())} cannot be reached from its start "
            f"{tuple(graph.xy(s[i:i + 1])[0].tolist())} (another zone for movement class {map.unit_class(unit)!r})"
        )
    if (s == g).all():  # (every agent home already: a plan of one row, whatever the time limit)
        took = time.perf_counter() - t0
        return CrowdPlan(
            positions=graph.xy(s[None, :]), complete=True, makespan=0, sum_of_costs=0, lower_bound_makespan=0,
            lower_bound_sum_of_costs=0, seconds=took, first_seconds=took, first_makespan=0, first_sum_of_costs=0,
            expanded=0,
        )
    clock = _Clock(t0, limit)
    dist = _Tables(graph, g, s)
    d0 = np.zeros(n, dtype=np.int64)
    done = _start_distances(dist, s, d0, clock)
    if done < n or _must_pass(graph, s, g, zone):
        ms, soc = _quality(s[None, :], g)
        return CrowdPlan(
            positions=graph.xy(s[None, :]), complete=False, makespan=ms, sum_of_costs=soc,
            lower_bound_makespan=int(d0.max()),
            lower_bound_sum_of_costs=int(d0.sum()), seconds=time.perf_counter() - t0, first_seconds=math.nan,
            first_makespan=-1, first_sum_of_costs=-1, expanded=0,
        )
    search = _Search(graph, dist, d0, s, g, objective)
    clock.mark()
    krng = np.array([np.uint64(rng.integers(1, 1 << 62))], dtype=np.uint64)
    # LaCAM's own tie-break (at random) first; restarts with new seeds keep it for the makespan (measured:
    # shorter plans) and prefer "a free cell first" for the sum of costs (fewer agents pushed aside)
    found, expanded = search.run(clock, math.inf, rng, krng, tie=0, bound=None)
    raw = found if found.complete else None
    # the first plan as returned without time to improve: its loops left out, its moves re-timed
    first = None if raw is None else search.tighten(raw, clock, math.inf)
    first_at = time.perf_counter() - t0
    best = found if first is None else first
    stop_at = time.perf_counter() + more
    cells = None
    if first is not None and raw is not None:
        # the positions' memory faulted in now, in the time to improve: a better plan's are written over them (a
        # plan's 25 MB fresh took 5-154 ms under load, written over 4-8 ms: docs/design/kernels.md)
        cells = graph.xy(first.nodes) if more > 0 else None
        # the last agents planned again in the plan as the search left it (its loops give them room; measured on
        # random-32-32-10's 400 agents, seed 5: 60 timesteps from the search's plan, 62 from the tightened one)
        best = search.better(best, raw, clock, stop_at)
    least = (int(d0.max()), int(d0.sum()))  # (a plan at both lower bounds cannot be bettered)
    while (first is not None and (best.makespan, best.soc) != least
           and time.perf_counter() < min(stop_at, clock.stop(best.nodes.size))):
        cap = min(stop_at, time.perf_counter() + max(0.05, 2 * first_at))  # a run that cannot do better ends soon
        got, more_expanded = search.run(clock, cap, rng, krng, tie=0 if objective == "makespan" else 1,
                                        bound=best.key)
        expanded += more_expanded
        if got.complete and got.key < best.key:
            best = search.better(best, got, clock, stop_at)
    ms, soc = best.makespan, best.soc
    fms, fsoc = (first.makespan, first.soc) if first is not None else (-1, -1)
    return CrowdPlan(
        positions=graph.xy(best.nodes, cells), complete=best.complete, makespan=ms, sum_of_costs=soc,
        lower_bound_makespan=int(d0.max()), lower_bound_sum_of_costs=int(d0.sum()),
        seconds=time.perf_counter() - t0, first_seconds=first_at if first is not None else math.nan,
        first_makespan=fms, first_sum_of_costs=fsoc, expanded=expanded,
    )


def warm_up_planner(map: CostBoard) -> None:
    """Compile (or load from numba's disk cache) the planner's kernels on ``map``: an agent planned, its plan
    shortened and tightened as time to improve does, the distance tables' pool split and joined as for crowds of
    ``_THREADED`` agents and more, and the knots' repair run once (it fires mid-search, where a first compile, 8-10
    s, would land inside a caller's time limit). ``wargrid.warm_up('rts')`` calls it.

    >>> from wargrid import Map, SquareGrid
    >>> warm_up_planner(Map(SquareGrid(4, 3)))
    """
    if not isinstance(map, CostBoard):
        raise ArgumentTypeError(f"map must be a wargrid Map (a CostBoard), got {type(map).__name__}")
    from .._kernels import load

    graph = _Graph(map, None)
    nbr = graph.nbr.astype(np.int64)  # the partitions' dtype: label_chunks compiles once for both
    zone, _ = load("territory.graph").label_chunks(nbr, np.zeros(len(graph.cells), dtype=np.int64))
    same = np.flatnonzero(zone == zone[0]) if len(zone) else zone
    if len(same) < 2:
        raise ArgumentError("map must have two passable cells connected to each other to warm the planner on")
    xy = graph.xy(same[[0, -1]]).tolist()
    a, b = (int(xy[0][0]), int(xy[0][1])), (int(xy[1][0]), int(xy[1][1]))
    # one agent: a plan always exists (two swapped in a corridor or a ring have none, and no search would run)
    plan_crowd(map, [a], [b], time_limit=60, seed=0)
    graph, s, g = _check_agents(map, [a], [b], None)
    lz = _Tables(graph, g, s).lz  # (fresh tables, as _start_distances splits them)
    left, right = _pool_halves(lz)
    _kernels_lazy().join_pools(lz.cnext, left.free, right.free, lz.free)
    dist = _Tables(graph, g, s)
    d0 = np.zeros(1, dtype=np.int64)
    clock = _Clock(time.perf_counter(), math.inf)
    _start_distances(dist, s, d0, clock)
    search = _Search(graph, dist, d0, s, g, "makespan")
    krng = np.array([np.uint64(1)], dtype=np.uint64)
    found, _ = search.run(clock, math.inf, np.random.default_rng(0), krng, tie=0, bound=None)
    search.better(found, found, clock, math.inf)  # (time to improve: planned again through the others' ways, tightened)
    prio = np.zeros(1)
    search.repair(_High(s.copy(), None, prio, np.zeros(1, dtype=np.int64), 0, search.h(s)), math.inf)


@dataclass
class _Found:
    """A run's result: the configurations (node rows), whether it reached the goals, its quality."""

    nodes: np.ndarray
    complete: bool
    makespan: int
    soc: int
    key: tuple[int, int]
    tight: bool = False  # ``_Search.tighten`` made it (again would change nothing, or little; not so when the time
    # left did not allow a round: a later call with more time left tightens it)


class _Search:
    """LaCAM over PIBT for one instance (the kernels' scratch kept between runs)."""

    def __init__(self, graph: _Graph, dist: _Tables, d0: np.ndarray, s: np.ndarray, g: np.ndarray,
                 objective: str) -> None:
        self.graph, self.dist, self.d0, self.s, self.g = graph, dist, d0, s, g
        n = len(s)
        nv, ndir = graph.nbr.shape
        self.n = n
        self.agents = np.arange(n)
        self.makespan_obj = objective == "makespan"
        self.occ_now = np.full(nv, -1, dtype=np.int64)
        self.occ_next = np.full(nv, -1, dtype=np.int64)
        self.stack = (np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64),
                      np.empty((n, ndir + 1), dtype=np.int64))
        self.gidx = self.agents.astype(np.int64)
        self.no_exits = np.zeros(n, dtype=np.int8)
        self.new_exits = np.zeros(n, dtype=np.int8)
        self.chain = np.empty((nv, ndir, 3), dtype=np.int32)  # the corridors ahead, for the swap checks' walks
        _kernels().chains(graph.nbr, self.chain)
        # the makespan's band for _BAND_STEPS times the longest distance, in crowds holding at most _BAND_CROWD of
        # the nodes
        self.band_steps = int(_BAND_STEPS * int(d0.max())) if n <= _BAND_CROWD * nv else 0

    def shorten(self, found: _Found, deadline: float, slowness: float = 1.0) -> _Found:
        """``found`` with the agents that arrive last planned again, one at a time, each by its earliest way
        through the others' (``_Ways.sooner``), for as long as every one of them arrives earlier and ``deadline``
        allows: a complete plan whose makespan, and sum of costs, are no larger. ``found`` itself when its table
        of who stands where would pass ``_SHORTEN_CELLS``, or when the time left is less than ``_SHORTEN_SECONDS``
        a cell of it times ``slowness`` (``_Clock.slowness``: on a busy machine the tables' fresh memory takes
        longer to fault in)."""
        cells = len(self.graph.cells) * (found.nodes.shape[0] + 1)
        if cells > _SHORTEN_CELLS or time.perf_counter() > deadline - _SHORTEN_SECONDS * slowness * cells:
            return found
        ways = _Ways(self, found.nodes, deadline)
        while time.perf_counter() < deadline:
            makespan = int(ways.arrival.max())
            if makespan == 0:
                break
            late = np.flatnonzero(ways.arrival == makespan).tolist()
            if not all(time.perf_counter() < deadline and ways.sooner(a, makespan - 1) for a in late):
                break
        nodes = ways.nodes[:int(ways.arrival.max()) + 1]
        ms, soc = _quality(nodes, self.g)
        return _Found(nodes, True, ms, soc, (ms, soc) if self.makespan_obj else (soc, ms))

    def better(self, best: _Found, got: _Found, clock: _Clock, stop_at: float) -> _Found:
        """The better of ``best`` and complete plan ``got`` shortened (``shorten``) and tightened (``tighten``), by
        ``stop_at`` and when ``clock`` says to stop."""
        short = self.shorten(got, min(stop_at, clock.stop(got.nodes.size)), clock.slowness())
        short = self.tighten(short, clock, stop_at)
        return short if short.key < best.key else best

    def tighten(self, found: _Found, clock: _Clock, cap: float) -> _Found:
        """``found`` with its agents' loops left out and its moves re-timed, each as early as the order of the agents
        on every node allows (``wargrid._kernels.rts.tighten``), in rounds of up to ``_TIGHTEN_FILLS`` passes of
        loop filling and one re-timing, for as long as a round makes the plan better by ``1 / _TIGHTEN_GAIN`` of
        itself and the time before ``cap`` and when ``clock`` says to stop allows: no pass starts that, with the
        re-timing after it, would end past the stop (``_FILL_CELL_SECONDS`` and ``_RETIME_CELL_SECONDS`` a cell of
        the rows at first, then as measured); ``found`` itself, not marked tight, when no round fits. No agent
        arrives later than in ``found``."""
        if found.tight or not found.complete:
            return found
        k = _load_tighten()
        best = found
        nodes = found.nodes
        slow = clock.slowness()
        fill, retime = _FILL_CELL_SECONDS * slow, _RETIME_CELL_SECONDS * slow  # (seconds a cell, till measured)
        while True:
            size = nodes.size
            stop = min(cap, clock.stop(size))
            if time.perf_counter() + size * (fill + retime) >= stop:
                if best is found:
                    return found  # (no round fitted: not marked tight, so that a later call with more time tightens it)
                break
            nodes = nodes.copy()  # (filled in place; the best rows so far stay as they are)
            filled = 0
            for _ in range(_TIGHTEN_FILLS):
                t = time.perf_counter()
                got = int(k.fill(nodes))
                now = time.perf_counter()
                fill = _TIGHTEN_SPARE * (now - t) / size
                filled += got
                if got == 0 or now + size * (fill + retime) >= stop:
                    break  # (a pass that found no loop leaves the rows for the next as they were)
            if filled == 0 and best is not found:
                break  # (re-timed as they are already)
            t = time.perf_counter()
            nodes = k.retime(nodes)
            ms, soc = _quality(nodes, self.g)
            retime = _TIGHTEN_SPARE * (time.perf_counter() - t) / size
            key = (ms, soc) if self.makespan_obj else (soc, ms)
            if key >= best.key:
                break
            gain = best.key[0] - key[0]
            best = _Found(nodes, True, ms, soc, key)
            if gain * _TIGHTEN_GAIN < key[0]:
                break  # (the rounds' gains fall off: on maze-128-128-1's 900 agents, the last 9 of 12 took 17 steps)
        return replace(best, tight=True)

    def repair(self, node: _High, stop: float) -> _High | None:
        """Configurations from ``node`` on in which the agents off their goals walk home one after another by push and
        swap (``wargrid._kernels.rts.knots.repair``), timed as early as their moves' order allows and chained
        into the search after ``node``, its work bounded to end by ``stop`` (``_REPAIR_WORK``); returns the last
        (None: no more agents got home, or the configurations would take more than ``_REPAIR_CELLS``)."""
        from .._kernels import load

        k = load("rts.knots")
        n, g = self.n, self.g
        nv = len(self.graph.cells)
        q = node.q.copy()
        occ = np.full(nv, -1, dtype=np.int64)
        occ[q] = self.agents
        log = np.empty((_REPAIR_MOVES, 3), dtype=np.int64)
        cnt = np.zeros(4, dtype=np.int64)  # the log's and the work's state (``knots._N`` to ``knots.BUDGET``)
        cnt[k.BUDGET] = int(min(max(0.0, stop - time.perf_counter()) * _REPAIR_WORK, 1 << 62))
        gen = np.zeros(1, dtype=np.int64)
        stamps = [np.zeros(nv, dtype=np.int64) for _ in range(5)]
        work = [np.empty(nv, dtype=np.int64) for _ in range(6)]
        home = k.repair(self.graph.nbr, self.dist.lz, self.gidx, g, q, occ, _WALK_ROUNDS, log, cnt, stamps[0],
                        stamps[1], stamps[2], stamps[3], work[0], work[1], gen, stamps[4], work[2], work[3], work[4],
                        work[5])
        m = int(cnt[0])
        if m == 0 or home <= np.count_nonzero(node.q == g):
            return None
        times = np.empty(m, dtype=np.int64)
        top = int(k.schedule(n, nv, log, m, times))
        if (top + 1) * n > _REPAIR_CELLS or time.perf_counter() + (top + 1) * n * _REPAIR_CELL_SECONDS > stop:
            return None
        rows = np.empty((top + 1, n), dtype=np.int64)
        k.replay(node.q, log, m, times, rows)
        d = self.dist.lookup(np.tile(self.gidx, top), rows[1:].ravel()).reshape(top, n)
        hs = d.max(axis=1) if self.makespan_obj else d.sum(axis=1)
        last = node
        for t in range(1, top + 1):
            qt = rows[t]
            nxt = _High(qt, last, node.prio, node.order, last.g + self.cost(last.q, qt), int(hs[t - 1]))
            nxt.exits = node.exits
            last = nxt
        return last

    def h(self, q: np.ndarray) -> int:
        d = self.dist.lookup(self.gidx, q)
        return int(d.max()) if self.makespan_obj else int(d.sum(dtype=np.int64))

    def cost(self, a: np.ndarray, b: np.ndarray) -> int:
        if self.makespan_obj:
            return 1
        g = self.g
        return int(self.n - np.count_nonzero((a == g) & (b == g)))

    def found(self, end: _High, complete: bool) -> _Found:
        seq = []
        x: _High | None = end
        while x is not None:
            seq.append(x.q)
            x = x.parent
        nodes = np.array(seq[::-1], dtype=np.int64)
        ms, soc = _quality(nodes, self.g)
        return _Found(nodes, complete, ms, soc, (ms, soc) if self.makespan_obj else (soc, ms))

    def run(self, clock: _Clock, cap: float, rng: np.random.Generator, krng: np.ndarray, *, tie: int,
            bound: tuple[int, int] | None) -> tuple[_Found, int]:
        """One LaCAM search to its first plan (pruning configurations that cannot beat ``bound``); with no plan by
        ``cap`` or by when ``clock`` says to stop, the configurations to the one nearest the goals (with a
        ``bound``: none, the caller keeps its best plan)."""
        k = _kernels()
        g, n, graph = self.g, self.n, self.graph
        d0 = self.d0
        prio0 = np.zeros(n)
        critical = int(d0.max()) - _CRITICAL if self.band_steps else 1 << 40
        k.priority(np.full(n, -1.0), d0, d0, critical, prio0)  # whole parts 0, as LaCAM's
        order0 = np.argsort(-prio0, kind="stable").astype(np.int64)
        h0 = self.h(self.s)
        root = _High(self.s.copy(), None, prio0, order0, 0, h0)
        explored: dict[bytes, _High] = {self.s.tobytes(): root}
        stack = [root]
        nearest = root
        q_to = np.empty(n, dtype=np.int64)
        cw = np.empty(n, dtype=np.int64)
        cv = np.empty(n, dtype=np.int64)
        dq = np.empty(n, dtype=np.int64)
        limit = math.inf if bound is None else bound[0]
        expanded = 0
        deepest = 0
        step = 0.0  # the last successor's time: none starts that would end past the stop
        stop = cap
        most, most_node, since, repairs = int(np.count_nonzero(self.s == g)), root, 0, 0
        failed: _High | None = None  # the configuration the last repair got no more agents home from
        held: _Found | None = None  # a repair's complete plan, kept while the search goes on till held_until
        held_until = math.inf
        tried = 0  # successors tried
        restarts = 0  # times the search started over (``_RESTARTS``)
        fallback, fallback_most = root, -1  # the stalled configuration with most agents home of the searches dropped
        began = time.perf_counter()  # when this search (or its last start over) began
        wander = _WANDER * max(1, int(d0.max()))  # a stall deeper than this starts the search over
        memory_at = time.perf_counter() + _MEMORY_SECONDS  # when the memory left is next read
        while stack:
            if expanded % 8 == 0:
                # a repair's plan (tens of thousands of timesteps) put out on fresh memory: 16 M cells took 1.2 s at
                # a load of 4, four times what a plan's cells are reckoned to take
                stop = min(cap, clock.stop(n * (deepest + 2) * (1 if held is None else 4)))
            now = time.perf_counter()
            if now + step >= stop or tried >= held_until:
                break
            if now >= memory_at:  # (a search with no plan to find, and no time limit, would fill the memory)
                memory_at = now + _MEMORY_SECONDS
                room = available_memory() if len(explored) * (32 * n + 400) > _MEMORY_RESERVE else None
                if room is not None and room < _MEMORY_RESERVE:
                    break
            if (since >= _STALL and bound is None and repairs == 0 and restarts < _RESTARTS and most_node.t > wander
                    and now + (now - began) < stop):
                # the search wandered far past the lower bound and stalled there: a repair would walk the agents home
                # from that deep configuration, and its plan would be as long; start over with new tie-breaks (``rng``
                # and ``krng`` have moved on), the configurations so far dropped, where the time left holds a search
                # as long as this one (should the new one not stall in time, ``last_call`` below repairs it)
                restarts += 1
                since = 0
                began = now
                if most > fallback_most:
                    fallback, fallback_most = most_node, most
                root = _High(self.s.copy(), None, prio0, order0, 0, h0)
                explored = {self.s.tobytes(): root}
                stack = [root]
                most, most_node, failed = int(np.count_nonzero(self.s == g)), root, None
                continue
            # after a start over, a search that has not stalled by the last time a repair fits is repaired then, from
            # the configuration with most agents home of all its starts (a plan, if a long one, rather than none)
            last_call = restarts > 0 and repairs == 0 and now + 2 * _REPAIR_SECONDS * n >= stop
            if ((since >= _STALL or last_call) and bound is None and repairs < _REPAIRS and held is None
                    and most_node is not failed and now + _REPAIR_SECONDS * n < stop):
                if last_call and fallback_most > most:
                    most_node, most = fallback, fallback_most
                repairs += 1
                since = 0
                end = self.repair(most_node, stop)
                if end is None:  # (the same again would do the same: the kernel is deterministic)
                    failed = most_node
                if end is not None and (end.q == g).all():
                    held = self.tighten(self.found(end, True), clock, stop)
                    deepest = max(deepest, end.t)
                    held_until = tried + max(_HOLD * tried, _HOLD_SUCCESSORS)
                elif end is not None:
                    x: _High | None = end
                    while x is not None and x is not most_node:
                        explored.setdefault(x.q.tobytes(), x)
                        x = x.parent
                    deepest = max(deepest, end.t)
                    if (end.h, end.g) < (nearest.h, nearest.g):
                        nearest = end
                    most_node = end
                    most = int(np.count_nonzero(end.q == g))
                    stack.append(end)
                continue
            node = stack[-1]
            if node.g + node.h >= limit:
                stack.pop()
                continue
            if node.h == 0 and (node.q == g).all():
                plan = self.found(node, True)
                if held is None:
                    return plan, expanded
                plan = self.tighten(plan, clock, cap)  # (the repair's plan is: compared alike)
                return (held if held.key < plan.key else plan), expanded
            if not node.tree:
                stack.pop()
                continue
            low = node.tree.popleft()
            depth = low[3]
            if depth < n:
                i = int(node.order[depth])
                v = int(node.q[i])
                cells = [v] + [int(u) for u in graph.nbr[v] if u >= 0]
                rng.shuffle(cells)
                for u in cells:
                    node.tree.append((low, i, u, depth + 1))
            m = 0
            c = low
            while c[0] is not None:
                cw[m], cv[m] = c[1], c[2]
                m += 1
                c = c[0]
            prio = np.empty(n, dtype=np.float64)
            order = np.empty(n, dtype=np.int64)
            exits = self.no_exits if node.exits is None else node.exits
            h = k.successor(graph.nbr, self.dist.lz, self.gidx, g, node.q, q_to, node.order, cw, cv, m, self.occ_now,
                            self.occ_next, krng, *self.stack, tie | k.SWAP | k.DODGE, node.prio, self.makespan_obj, prio, order,
                            d0, _CRITICAL if node.g < self.band_steps else -(1 << 40), dq, self.chain, exits,
                            self.new_exits, _BAND_EXITS)
            step = time.perf_counter() - now
            since += 1
            tried += 1
            if h < 0:
                continue
            key = q_to.tobytes()
            known = explored.get(key)
            if known is not None:
                stack.append(known)  # LaCAM: a known configuration goes back on top
                continue
            q = q_to.copy()
            new = _High(q, node, prio, order, node.g + self.cost(node.q, q), int(h))
            if self.new_exits.any():
                new.exits = self.new_exits.copy()
            explored[key] = new
            expanded += 1
            deepest = max(deepest, new.t)
            if (new.h, new.g) < (nearest.h, nearest.g):
                nearest = new
            home = int(np.count_nonzero(q == g))
            if home > most:
                most, most_node, since = home, new, 0
            stack.append(new)
        if held is not None:
            return held, expanded
        if bound is not None:  # a restart that found nothing better: its configurations are not wanted
            return _Found(self.s[None, :], False, -1, -1, (-1, -1)), expanded
        return self.found(nearest, False), expanded


class _Ways:
    """A complete plan's ways, changed one agent at a time: ``nodes[t, a]``, who stands where when (``occ[t, v]``:
    the agent plus one, 0 nobody) and when each arrives for good (``arrival``)."""

    def __init__(self, search: _Search, nodes: np.ndarray, deadline: float) -> None:
        self.search = search
        self.deadline = deadline
        self.nodes = nodes.copy()
        g, n = search.g, search.n
        last = nodes.shape[0] - 1
        nv = len(search.graph.cells)
        self.occ = np.zeros((nv, last + 1), dtype=np.uint16 if n < np.iinfo(np.uint16).max else np.int32)
        self.rows = np.arange(last + 1)
        self.occ[nodes, self.rows[:, None]] = np.arange(1, n + 1, dtype=self.occ.dtype)
        self.nxt = np.empty((nv, last + 2), dtype=np.uint16 if last + 2 < np.iinfo(np.uint16).max else np.int32)
        self.k = _load_spacetime()
        self.k.runs(self.occ, self.nxt)
        off = nodes != g[None, :]
        self.arrival = np.where(off.any(axis=0), last + 1 - np.argmax(off[::-1], axis=0), 0)
        cap = _SHORTEN_STATES
        self.scratch = tuple(np.empty(cap, dtype=np.int64) for _ in range(5))
        self.head = np.empty(last + 2, dtype=np.int64)
        self.best = np.zeros(nv * (last + 2), dtype=np.uint16 if last + 2 < np.iinfo(np.uint16).max else np.int32)
        self.path = np.empty(last + 1, dtype=np.int64)

    def _lift(self, a: int) -> np.ndarray:
        way = self.nodes[:, a].copy()
        self.k.occupy(self.occ, self.nxt, way, 0)
        return way

    def _put(self, a: int, way: np.ndarray, at: int) -> None:
        self.nodes[:, a] = way
        self.k.occupy(self.occ, self.nxt, way, a + 1)
        self.arrival[a] = at

    def _holder(self, a: int) -> tuple[int, int]:
        """The last timestep another agent stands on agent ``a``'s goal (-1: none), and that agent."""
        held = np.flatnonzero(self.occ[self.search.g[a]])
        if not len(held):
            return -1, -1
        t = int(held[-1])
        return t, int(self.occ[self.search.g[a], t]) - 1

    def _earliest(self, a: int, limit: int) -> np.ndarray | None:
        """Agent ``a``'s earliest way (lifted) by ``limit`` through the others', or None (none, or not found in
        the states that the time left allows)."""
        se = self.search
        after, _ = self._holder(a)
        cap = int(min(_SHORTEN_STATES, max(1024, (self.deadline - time.perf_counter()) * _STATES_A_SECOND)))
        at = self.k.earliest(se.graph.nbr, se.dist.lz, a, se.s[a], se.g[a], after, self.occ, self.nxt, limit,
                             *(x[:cap] for x in self.scratch), self.head, self.best, self.path)
        if at < 0:
            return None
        way = np.full(len(self.rows), se.g[a], dtype=np.int64)
        way[:at + 1] = self.path[:at + 1]
        return way

    def sooner(self, a: int, limit: int) -> bool:
        """Plan agent ``a`` again to arrive by ``limit``: by its earliest way through the others'; when another
        agent stands on its goal after ``limit``, that one planned again after it, by ``limit`` too. False (the
        ways as they were) when either finds none."""
        if self.arrival[a] <= limit:
            return True
        old = {a: (self._lift(a), int(self.arrival[a]))}
        t, b = self._holder(a)
        if t >= limit and b >= 0:
            old[b] = (self._lift(b), int(self.arrival[b]))
        done: list[int] = []
        for c in old:
            way = self._earliest(c, limit)
            if way is None:
                for d in done:
                    self.k.occupy(self.occ, self.nxt, self.nodes[:, d].copy(), 0)
                for d, (w, at) in old.items():
                    self._put(d, w, at)
                return False
            self._put(c, way, _arrived(way, int(self.search.g[c])))
            done.append(c)
        return True


def _arrived(way: np.ndarray, goal: int) -> int:
    """The timestep after which ``way`` stays on ``goal``."""
    off = np.flatnonzero(way != goal)
    return int(off[-1]) + 1 if len(off) else 0


def _quality(nodes: np.ndarray, goals: np.ndarray) -> tuple[int, int]:
    """``(makespan, sum of costs)`` of node rows ``nodes[t, i]``."""
    off = nodes != goals[None, :]
    t = nodes.shape[0]
    last = np.where(off.any(axis=0), t - np.argmax(off[::-1], axis=0), 0)
    return int(last.max()), int(last.sum())


def check_plan(
    map: CostBoard,
    starts: Sequence[tuple[int, int]],
    goals: Sequence[tuple[int, int]],
    plan: CrowdPlan | np.ndarray,
    *,
    unit: str | None = None,
    complete: bool = True,
) -> None:
    """Check a crowd's plan; raise ``ArgumentError`` at its first fault.

    A valid plan starts every agent on its start, ends it on its goal (when
    ``complete``), keeps it on cells passable for ``unit``, moves it at most
    one step (a neighbour on the board) a timestep, and has no two agents on
    one cell at one timestep nor two agents trading cells along one edge.

    Parameters
    ----------
    map : Map
    starts, goals : sequence of (x, y)
    plan : CrowdPlan or array-like of int, shape ``(T + 1, n, 2)``
        ``plan[t, i]``: agent ``i``'s cell ``(x, y)`` at timestep ``t``.
    unit : str, optional
        The movement class.
    complete : bool
        Require every agent on its goal at the end.

    Raises
    ------
    ArgumentError
        The first fault, naming the agents, the timestep and the cells; no agents.

    Examples
    --------
    >>> from wargrid import Map, SquareGrid
    >>> m = Map(SquareGrid(3, 1))
    >>> check_plan(m, [(0, 0), (2, 0)], [(1, 0), (2, 0)], [[[0, 0], [2, 0]], [[1, 0], [2, 0]]])
    >>> check_plan(m, [(0, 0), (1, 0)], [(1, 0), (0, 0)], [[[0, 0], [1, 0]], [[1, 0], [0, 0]]])
    Traceback (most recent call last):
    ...
    wargrid.errors.ArgumentError: agents 0 and 1 trade cells (0, 0) and (1, 0) between timesteps 0 and 1
    """
    if not isinstance(map, CostBoard):
        raise ArgumentTypeError(f"map must be a wargrid Map (a CostBoard), got {type(map).__name__}")
    s = _agents(map, starts, "starts")
    gl = _agents(map, goals, "goals")
    if len(s) != len(gl):
        raise ArgumentError(f"starts and goals must be as many, got {len(s)} starts and {len(gl)} goals")
    if not s:
        raise ArgumentError("a crowd needs at least one agent, got no starts")
    if not isinstance(complete, (bool, np.bool_)):
        raise ArgumentTypeError(f"complete must be True or False, got {complete!r}")
    try:
        pos = plan.positions if isinstance(plan, CrowdPlan) else np.asarray(plan)
    except ValueError:
        raise ArgumentError(f"plan must be a CrowdPlan or an array of shape (T + 1, {len(s)}, 2); "
                            "got rows of different lengths") from None
    if pos.ndim != 3 or pos.shape[0] < 1 or pos.shape[1] != len(s) or pos.shape[2] != 2:
        raise ArgumentError(f"plan must have shape (T + 1, {len(s)}, 2), got {pos.shape}")
    if not np.issubdtype(pos.dtype, np.integer):
        raise ArgumentTypeError(f"plan must hold integer cells, got dtype {pos.dtype}")
    grid = map.grid
    w, h = grid.width, grid.height
    x, y = pos[..., 0], pos[..., 1]
    off = (x < 0) | (x >= w) | (y < 0) | (y >= h)  # before the cast: an unsigned cell past int64 stays off the board
    if off.any():
        t, i = (int(v) for v in np.argwhere(off)[0])
        raise ArgumentError(f"agent {i} is off the board at timestep {t}: {tuple(pos[t, i].tolist())}")
    pos = pos.astype(np.int64)
    x, y = pos[..., 0], pos[..., 1]
    graph = _Graph(map, unit)
    nodes = graph.node[y * w + x]
    if (nodes < 0).any():
        t, i = (int(v) for v in np.argwhere(nodes < 0)[0])
        raise ArgumentError(f"agent {i} stands on impassable cell {tuple(pos[t, i].tolist())} at timestep {t}")
    start = np.array(s, dtype=np.int64)
    bad = np.flatnonzero((pos[0] != start).any(axis=1))
    if len(bad):
        i = int(bad[0])
        raise ArgumentError(f"agent {i} starts on {tuple(pos[0, i].tolist())}, not on its start {s[i]}")
    if complete:
        goal = np.array(gl, dtype=np.int64)
        bad = np.flatnonzero((pos[-1] != goal).any(axis=1))
        if len(bad):
            i = int(bad[0])
            raise ArgumentError(f"agent {i} ends on {tuple(pos[-1, i].tolist())}, not on its goal {gl[i]}")
    for t in range(nodes.shape[0]):
        row = nodes[t]
        order = np.argsort(row, kind="stable")
        same = np.flatnonzero(row[order][1:] == row[order][:-1])
        if len(same):
            a, b = sorted((int(order[same[0]]), int(order[same[0] + 1])))
            raise ArgumentError(f"agents {a} and {b} are both on {tuple(pos[t, a].tolist())} at timestep {t}")
        if t == 0:
            continue
        prev = nodes[t - 1]
        moved = row != prev
        legal = (graph.nbr[prev] == row[:, None]).any(axis=1) | ~moved
        if not legal.all():
            i = int(np.flatnonzero(~legal)[0])
            raise ArgumentError(
                f"agent {i} jumps from {tuple(pos[t - 1, i].tolist())} to {tuple(pos[t, i].tolist())} "
                f"between timesteps {t - 1} and {t} (not one step)"
            )
        where = np.full(len(graph.cells), -1, dtype=np.int64)
        where[prev] = np.arange(len(prev))
        other = where[row]  # who stood, before, where i stands now
        swap = moved & (other >= 0) & (other != np.arange(len(row)))
        swap &= np.where(other >= 0, nodes[t][other.clip(0)] == prev, False)
        if swap.any():
            i = int(np.flatnonzero(swap)[0])
            j = int(other[i])
            a, b = sorted((i, j))
            raise ArgumentError(
                f"agents {a} and {b} trade cells {tuple(pos[t - 1, a].tolist())} and {tuple(pos[t - 1, b].tolist())} "
                f"between timesteps {t - 1} and {t}"
            )
