"""Prepared exact queries: a contraction hierarchy of one cost field, exact paths and distance tables after it.

``prepare(grid, costs)`` builds, once for a movement class, a structure that
answers the common path query (no zones of control, exact, not ``nearest``)
and distances between cells much faster than a search; ``distance_table``
answers many sources to many targets at once. ``Map.prepare``,
``Map.path``, ``Map.distance`` and ``Map.distance_table`` use it.

What is built: a **contraction hierarchy** (CH) over the board's own graph
(every board kind is the same padded layout and neighbour rule, so one
structure serves square-4, square-8 with its corner rule, hex and staggered
boards, wrap and masks, edge costs and climbs), with a **core searched by
A* with landmark bounds** (core-ALT). Nodes are contracted in
**edge-difference order** with lazy updates (twice the shortcuts added,
less the arcs removed, plus the neighbours already contracted, plus the
node's level: one more than the highest contracted neighbour). The
priorities count shortcuts with cheap witness searches (``ESTIMATE_SETTLE``
settled nodes); the contraction itself keeps a shortcut unless a witness
search of up to ``WITNESS_SETTLE`` settled nodes (it stops as soon as every
other neighbour is settled) finds a path as cheap. The contraction takes
**batches**: up to ``BATCH`` nodes from the queue's front, no two of them
neighbours (a node next to one taken goes back); their witness searches go
round the whole batch, so they are shared among ``THREADS`` threads (the
graph is only read) and the lazy test and the contraction itself follow in
queue order (a witness path then runs through nodes that stay; contracting
one node of the batch leaves the others' lists as they were searched). The
same hierarchy on any number of threads. The last ``core_size``
nodes (``core_size``: ``CORE_FRACTION`` of a world map's passable cells,
fewer on smaller boards, at most ``CORE_MAX``) are
not contracted: they keep their lists as they are then, the **core**, and
``LANDMARKS`` core nodes picked farthest first keep their exact costs to
every core node (a sweep over the core each: contraction keeps the
distances between uncontracted nodes). The core is also kept as a compact
graph of its own (``_kernels.movement.ch_core``): its searches touch only
core-sized arrays. A core of at most ``LABEL_CORE_MAX`` nodes (boards up to
about 700², grown by ``LABEL_CORE_GROWTH`` because labels make a larger
core cheap) also gets **hub labels** (``_kernels.movement.ch_labels``:
pruned landmark labelling in the order of sampled shortest-path tree
sizes, 5 bytes an entry, at most ``LABEL_BYTES`` a cell).

Queries run a bidirectional upward Dijkstra with stall-on-demand below the
core. With labels, the forward side's core nodes (with their costs from the
start) fill one core-sized array of costs to every hub through their out
labels and the backward side's in labels are checked against it: the least
sum is the cost, and the labels' parents give the core path. Without, the
core nodes the backward side reaches (with their costs to the
goal) give each landmark ``l`` a cost ``X_l`` to the goal, and the forward
side's core nodes start an A* over the core whose potential ``max_l (X_l -
d(l, v))`` is a consistent lower bound, so it is exact and settles little
more than a corridor. The path is unpacked from the shortcuts into board
cells; its cost is the sum of its steps' weights, in path order. Tables
run the bucket many-to-many method: every upward search stops
at the core; the longer list's leave buckets, and each cell of the shorter
list then sweeps the core from its core entries, reading the buckets of
the nodes it settles, until its row can no longer change. The sweeps use a
bucket queue (Dial's, buckets as wide as the least core arc) when the
weights allow, else a heap, and share the rows among ``THREADS``
threads.

Why this design: on an open weighted grid the separators are a board's
side long, so the top of any hierarchy is dense; contracting it costs most
of the build and makes long queries slow, so it is left uncontracted and
searched with landmark bounds (or joined by hub labels when small). The
measurements that chose this, and every tuning constant below, are in the
design page ``docs/design/prepared.md`` with the commands that reproduce them.

**Exact after edits, always.** The hierarchy belongs to the cost field it
was built from. A query on another field of the same board (the map after
edits) first compares the two fields (cell and edge costs; once a field):

- nothing changed: the hierarchy answers;
- every changed step only got dearer (a bridge destroyed, a wall): the
  hierarchy's path is taken when it touches no changed cell nor a neighbour
  of one (its cost cannot have changed, and no path got cheaper, so it is
  still optimal); otherwise A* runs on the new costs with a lower bound on
  the old cost to the goal as its potential, consistent because no step got
  cheaper: exact, and it settles little more than the detour. The bound
  comes from the hierarchy: below the core the upward arcs, in the core the
  exact old costs of the nodes near the old path (an A* over the core from
  the goal toward the start, stopped at the old cost times ``1 +
  REPAIR_SLACK``) and landmark bounds elsewhere; no search crosses the
  whole core;
- some step got cheaper (a road built): the hierarchy is no lower bound any
  more; the dispatcher's ordinary search answers (``UNANSWERED``).

The time spent outside the hierarchy is added to ``fallback_seconds``; when
it reaches ``build_seconds`` the map rebuilds the structure (``stale``):
by then a rebuild has paid for itself, and the fallback never costs more
than twice what an oracle knowing the future would pay (the rent-or-buy rule).
"""

from __future__ import annotations

import math
import os
import threading
import time
import weakref
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
import numpy.typing as npt

from .. import _budget
from .._hugepages import block, packed
from .._kernels.movement.ch_records import CoreScratch, QueryScratch, Upward
from .._progress import Progress, check_progress, reporter
from ..costs import CostField
from ..errors import ArgumentError, PrepareMemoryError
from ..grids.boards import Grid, Topology
from .cch import CustomizedPaths
from .clearance import sized_costs
from .search import Path, cells_of, check_cells, check_costs, padded_id, per_thread, topo_bundle

__all__ = [
    "PreparedPaths", "Prepared", "PrepareMemoryError", "prepare", "distance_table", "UNANSWERED",
    "WITNESS_SETTLE",
]

WITNESS_SETTLE = 64
"""A witness search stops after this many settled nodes (and keeps the shortcut): size against build time."""

ESTIMATE_SETTLE = 8
"""The priorities (lazy updates) count shortcuts with witness searches stopped after this many settled nodes."""

LANDMARKS = 96
"""Core nodes whose exact costs to every core node guide the core's A* (see ``ch_core.lower_to_goal``)."""

LABEL_LANDMARKS = 32
"""Landmarks of a core with hub labels (its queries join by labels; the landmarks guide the repairs after edits)."""

CORE_FRACTION = 0.08
"""The last nodes stay uncontracted (the core): this fraction of the passable ones on a board of ``CORE_REFERENCE``
passable cells, shrinking with the square root of smaller boards (``core_size``), at most ``CORE_MAX``."""

CORE_REFERENCE = 1_000_000

CORE_MAX = 100_000

LABEL_CORE_MAX = 20_000
"""Cores of at most this many nodes get hub labels (``ch_labels``): a query joins its two sides by two label
scans instead of an A* over the core."""

LABEL_BYTES = 64
"""The labels may take at most this many bytes a cell of the board; a core whose labels would pass it keeps the A*."""

LABEL_CORE_GROWTH = 1.6
LABEL_CORE_GROWN = 11_500
"""A core that will be labelled is grown by ``LABEL_CORE_GROWTH``, to at most this many nodes (``core_size``)."""

LABEL_SAMPLES = 256
"""Shortest-path trees sampled to order the core for labelling (``ch_labels.tree_sizes``)."""

BATCH = 256
"""The contraction takes up to this many nodes from the front of its queue at a time (no two of them neighbours)."""

CONTRACT_THREAD_NODES = 50_000
"""The contraction and the first priorities take one more thread for every this many passable nodes."""

THREADS = max(1, min(8, os.cpu_count() or 1))
"""Threads the build (first priorities, the contraction's witness searches) and the table's sweeps use (each a
share; the kernels release the GIL)."""

TABLE_THREAD_ARCS = 100_000
"""A table takes one more thread for every this many core arcs (small cores are swept faster than threads start)."""

RING_MAX = 1 << 16
"""The table's sweeps use a bucket queue when the core's largest arc weight is at most this many times its least."""

REPAIR_STACK = 256
"""Room for the walk over upward arcs that gives the repair's potential of a cell (``ch._potential``; grown when short)."""

REPAIR_SLACK = 0.03
"""After raising edits, the core nodes whose old cost to the goal plus a bound from the start stays below the old
path's cost times ``1 + REPAIR_SLACK`` get their exact old costs (the rest landmark bounds): see ``potential_astar``."""


def core_size(m: int) -> int:
    """How many of ``m`` passable nodes stay in the core.

    The dense top of the contraction, which costs most of the build, grows
    with the board; the core's A* costs every query. So small boards keep a
    small core (fast queries, the build is short anyway) and the world map a
    large one (its build stays in bounds): ``CORE_FRACTION`` scaled by
    ``sqrt(m / CORE_REFERENCE)`` up to ``CORE_FRACTION``.

    A core small enough to get hub labels (``LABEL_CORE_MAX``) is grown by
    ``LABEL_CORE_GROWTH``, up to ``LABEL_CORE_GROWN`` nodes: joining the two
    sides by labels costs little more on a larger core, and the levels below
    it, which every query climbs, get fewer.

    >>> core_size(1_000_000), core_size(250_000), core_size(10_000)
    (80000, 11500, 128)
    """
    fraction = CORE_FRACTION * min(1.0, math.sqrt(m / CORE_REFERENCE))
    base = min(CORE_MAX, int(m * fraction))
    if base > LABEL_CORE_MAX:
        return base
    return max(base, min(int(base * LABEL_CORE_GROWTH), LABEL_CORE_GROWN))


MEMORY_CAP: int | None = None
"""An upper bound (bytes) on what ``prepare`` may hold while it builds; ``None``: what the process may still take
(``wargrid._budget.available_memory``: the system's available memory, the memory cgroup's limit, ``RLIMIT_AS``)."""

UNANSWERED = object()
"""What ``PreparedPaths.path`` returns when the hierarchy cannot answer exactly (a cost got cheaper since the build)."""




BYTES_PER_ARC = 28
"""An arc while the hierarchy is built: neighbour (int32), both weights (float64), both shortcut middles (int32).

Once built, the weights are kept as float32 when that is exact (20 bytes an arc)."""


PEAK_FACTOR = 2.6
"""The build's measured peak (address space, which ``RLIMIT_AS`` counts) over its arrays' first sizes, at most:
the arc pool and the upward arrays double when full, and a list that outgrows its room moves to the pool's top
(see ``docs/design/prepared.md``)."""


def _build_bytes(topo: Topology) -> int:
    """What the build holds at its peak, estimated before anything is allocated (bytes)."""
    n = topo.padded_size
    # pool: the board's arcs twice (both lists) with room to grow; upward arcs; per-node arrays and scratch
    # (the batches' marks; the witness searches' arrays once more for each further thread), times what growth adds
    first = n * (topo.ndir * BYTES_PER_ARC * 5 + 8 * 3 + 8 * 5 + 8 + 8 + 4 + (THREADS - 1) * 52)
    return int(PEAK_FACTOR * first)


def _available_bytes() -> int:
    avail = _budget.available_memory()
    if avail is None:  # pragma: no cover - systems that tell nothing
        avail = 1 << 62
    return avail if MEMORY_CAP is None else min(avail, int(MEMORY_CAP))


class _QueryState:
    """One thread's scratch for queries on boards of ``n`` padded cells (generation stamps)."""

    def __init__(self, n: int) -> None:
        got = block([(n, np.float64)] * 4 + [(n, np.int32)] * 6 + [(n, np.int64)] * 3)  # see _hugepages
        fl, ids = got[:4], got[4:10]
        self.stamps = got[10:12]
        self.qs = QueryScratch(dist_f=fl[0], dist_b=fl[1], stamp_f=self.stamps[0], stamp_b=self.stamps[1],
                               parent_f=ids[0], parent_b=ids[1], pos_f=ids[2], pos_b=ids[3], key_f=fl[2], id_f=ids[4],
                               key_b=fl[3], id_b=ids[5])
        self.ps = got[12]
        self._core: CoreScratch | None = None
        self.gen = 2

    def core(self, c: int) -> CoreScratch:
        """Scratch for the query's A* over a core of ``c`` nodes (``ch_core.core_astar``), grown when too short."""
        got = self._core
        if got is None or got.to_hub.shape[0] < c:
            m = max(c, 1)
            got = self._core = CoreScratch(*block([(m, np.float64), (m, np.int64), (m, np.int32), (m, np.int32), (m, np.float64),
                                      (m, np.int32), (m, np.float64), (m, np.float64), (m, np.int64), (m, np.float64),
                                                  (m, np.int32)]))
            got.cost[:] = np.inf  # the A*'s costs: inf between queries (core_astar resets what it reached)
            got.pos[:] = -1  # heap slots: -1 out of the heap
        return got

    def take(self, k: int) -> int:
        """``k`` fresh pairs of stamps; returns the first (even)."""
        g = self.gen
        self.gen += 2 * k + 8
        return g


def _kernels() -> Any:
    from .._kernels.movement import ch

    return ch


def _ch_core() -> Any:
    from .._kernels.movement import ch_core

    return ch_core


def _ch_labels() -> Any:
    from .._kernels.movement import ch_labels

    return ch_labels


@dataclass
class _Drift:
    """How a cost field differs from the hierarchy's: nothing, only dearer steps (``mark``: cells near a change), or cheaper ones."""

    clean: bool
    raised_only: bool
    mark: npt.NDArray[np.uint8] | None


@dataclass(eq=False)
class PreparedPaths:
    """A contraction hierarchy of one cost field (see the module notes).

    Attributes
    ----------
    unit : str or None
        The movement class.
    costs : CostField
        The field it was built from.
    build_seconds : float
        How long the build took.
    bytes : int
        Memory the structure holds.
    arcs : int
        Upward arcs stored (board steps and shortcuts).
    fallback_seconds : float
        Time queries spent outside the hierarchy since the build (see ``stale``).
    free_steps : bool
        Some steps cost nothing: unpacked paths are cut where they pass a cell twice.
    """

    unit: str | None
    costs: CostField
    build_seconds: float
    bytes: int
    arcs: int
    upward: Upward = field(repr=False)
    fallback_seconds: float = 0.0
    free_steps: bool = False
    _drift_of: tuple[Any, _Drift] | None = field(default=None, repr=False)
    _rings: dict[bool, tuple[float, int]] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def stale(self) -> bool:
        """The queries since the last edits spent as long outside the hierarchy as a rebuild takes."""
        return self.fallback_seconds >= self.build_seconds

    def note_fallback(self, seconds: float) -> None:
        """Count ``seconds`` a query spent outside the hierarchy."""
        self.fallback_seconds += seconds

    # -- the field it answers for -----------------------------------------------------------
    def drift(self, costs: CostField) -> _Drift:
        """How ``costs`` differs from the field the hierarchy was built from (cached for the last field)."""
        if costs is self.costs:
            return _CLEAN
        got = self._drift_of
        if got is not None and got[0]() is costs:
            return got[1]
        d = _drift(self.costs, costs)
        with self._lock:
            self._drift_of = (weakref.ref(costs), d)
        return d

    def _state(self) -> _QueryState:
        return per_thread("ch_states", self.costs.cell.shape[0], _QueryState, keep=1)

    # -- queries on padded ids (the dispatcher checked the cells and the trivial cases) ---------
    def _walk(self, costs: CostField, path: np.ndarray) -> float:
        return float(_kernels().walk_cost(path, costs.cell, costs.edge, topo_bundle(costs.topology)))

    def path(self, costs: CostField, s: int, t: int) -> Any:
        """The optimal path from padded id ``s`` to ``t`` over ``costs``: a ``Path``, ``None`` (unreachable) or ``UNANSWERED``."""
        got = self._search(costs, s, t, want_path=True)
        if got is UNANSWERED or got is None:
            return got
        path, cost = got
        return Path(cells_of(costs.topology, path), self._walk(costs, path) if cost is None else cost, costs.unit)

    def distance(self, costs: CostField, s: int, t: int) -> Any:
        """The optimal cost from ``s`` to ``t`` over ``costs`` (``inf``: unreachable) or ``UNANSWERED``."""
        got = self._search(costs, s, t, want_path=False)
        if got is UNANSWERED:
            return got
        if got is None:
            return math.inf
        path, cost = got
        return self._walk(costs, path) if cost is None else cost

    def _search(self, costs: CostField, s: int, t: int, *, want_path: bool) -> Any:
        """``None`` (unreachable), ``UNANSWERED`` or ``(path, cost)``: padded ids (``None`` when not asked for) and
        the cost when known (``None``: walk the path over ``costs``)."""
        d = self.drift(costs)
        if not (d.clean or d.raised_only):
            return UNANSWERED
        k = _kernels()
        st = self._state()
        gen = st.take(4)
        cost, meet = k.query(s, t, self.upward, st.qs, st.core(self.upward.core_ids.shape[0]), gen)
        if meet < 0:
            return None  # unreachable before; no step got cheaper since
        if d.clean and not want_path:
            return None, float(cost)
        path, walked = k.unpack(s, t, meet, self.upward, st.qs)
        if self.free_steps:
            path = k.cut_loops(path, st.qs.pos_f, st.qs.stamp_b, st.take(1) + 1)
        if d.clean:
            return path, float(walked)  # the steps' weights are the field's: walk_cost's sum, bit for bit
        if not k.touches(path, d.mark):
            return path, None
        t0 = time.perf_counter()
        gen = st.take(4)
        limit = float(cost) * (1.0 + REPAIR_SLACK)
        path = k.potential_astar(s, t, limit, costs.cell, costs.edge, topo_bundle(costs.topology), self.upward,
                                 st.qs, gen, st.ps, np.empty(REPAIR_STACK, dtype=np.int64))
        self.note_fallback(time.perf_counter() - t0)
        return (path, None) if path.shape[0] else None

    def table(self, costs: CostField, src: np.ndarray, tgt: np.ndarray) -> npt.NDArray[np.float64] | None:
        """The ``(len(src), len(tgt))`` costs between padded ids, or ``None`` when the hierarchy cannot answer exactly."""
        if not self.drift(costs).clean:
            return None
        flip = src.shape[0] > tgt.shape[0]  # the searches of the longer list stop at the core
        a, b = (tgt, src) if flip else (src, tgt)
        out = np.full((a.shape[0], b.shape[0]), np.inf)
        st = self._state()
        got = _kernels().table_entries(a, b, self.upward, flip, st.qs, st.take(0), out)
        st.gen = int(got[0]) + 8
        chead, bnext, bdist, btgt, sptr, snode, sdist = got[1:]
        self._sweeps(flip, (sptr, snode, sdist), (chead, bnext, bdist, btgt), out)
        return np.ascontiguousarray(out.T) if flip else out

    def _ring(self, flip: bool) -> tuple[float, int]:
        """``(width, slots)`` of the bucket queue over the core arcs one way (``width`` 0: a heap instead)."""
        got = self._rings.get(flip)
        if got is None:
            got = self._rings[flip] = _ring_of(self.upward.core_w_in if flip else self.upward.core_w_out)
        return got

    def _sweeps(self, flip: bool, entries: tuple[np.ndarray, ...], buckets: tuple[np.ndarray, ...],
                out: npt.NDArray[np.float64]) -> None:
        """The table's sweeps over the core (one a row of ``out``), on up to ``THREADS`` threads."""
        kc = _ch_core()
        cf, cnb = self.upward.core_first, self.upward.core_head
        w = self.upward.core_w_in if flip else self.upward.core_w_out
        width, slots = self._ring(flip)
        c = cf.shape[0] - 1
        rows = out.shape[0]
        threads = max(1, min(THREADS, rows // 4, 1 + cnb.shape[0] // max(1, TABLE_THREAD_ARCS)))

        def part(rows_: np.ndarray) -> None:
            cs = (np.empty(c), np.zeros(c, dtype=np.int64), np.empty(c, dtype=np.int32), np.empty(c),
                  np.empty(c, dtype=np.int32), np.empty(slots, dtype=np.int64),
                  np.empty(cnb.shape[0] + c + 1, dtype=np.int32), np.empty(cnb.shape[0] + c + 1, dtype=np.int32))
            kc.sweep_rows(rows_, *entries, cf, cnb, w, width, *buckets, out, cs, 2)

        if threads == 1:
            part(np.arange(rows, dtype=np.int64))
            return
        with ThreadPoolExecutor(threads) as pool:
            for f in [pool.submit(part, np.arange(i, rows, threads, dtype=np.int64)) for i in range(threads)]:
                f.result()


_CLEAN = _Drift(True, True, None)

Prepared = PreparedPaths | CustomizedPaths
"""What ``Map.prepare`` keeps for a class: a hierarchy of one field, or a customized one (``wargrid.movement.cch``)."""


def _drift(f0: CostField, f1: CostField) -> _Drift:
    topo = f1.topology
    c0, c1 = f0.cell, f1.cell
    changed = c0 != c1
    raised = bool(np.all(c1[changed] >= c0[changed]))
    if f0.edge.size or f1.edge.size:
        nd = topo.ndir
        e0 = f0.edge.reshape(-1, nd) if f0.edge.size else np.zeros((1, nd))
        e1 = f1.edge.reshape(-1, nd) if f1.edge.size else np.zeros((1, nd))
        e0, e1 = np.broadcast_arrays(e0, e1)
        diff = e0 != e1
        raised = raised and bool(np.all(e1[diff] >= e0[diff]))
        changed |= diff.any(axis=1)
    ids = np.flatnonzero(changed)
    if ids.size == 0:
        return _CLEAN
    mark = np.zeros(c1.shape[0], dtype=np.uint8)
    _kernels().mark_around(ids.astype(np.int64), topo_bundle(topo), mark)
    return _Drift(False, raised, mark)


# -- building ----------------------------------------------------------------------------------------

def prepare(
    grid: Grid,
    costs: CostField,
    *,
    progress: Progress = True,
    core: int | None = None,
) -> PreparedPaths:
    """Build the contraction hierarchy of ``costs`` on ``grid`` (see the module notes).

    Parameters
    ----------
    grid : Grid
        The board.
    costs : CostField
        What the movement class pays (``Map.cost_field(unit=...)`` or ``CostField.from_arrays``).
    progress : bool or callable, default True
        The library's convention (``wargrid._progress``): ``True`` a bar on
        stderr when that is a terminal and the build takes more than a
        second, ``False`` or ``None`` nothing, a callable gets ``(done,
        total)``. One unit is a passable cell ordered or contracted (``total``
        twice the passable cells); the core and its landmarks end the count.
    core : int, optional
        How many nodes stay uncontracted (searched at the top of every query
        by A* with landmark bounds); default ``core_size`` of the passable
        cells.

    Returns
    -------
    PreparedPaths

    Raises
    ------
    PrepareMemoryError
        The build would need more memory than is available (checked before allocating).
    TypeError
        ``progress`` is none of the above (``ArgumentTypeError``).

    >>> from wargrid import HexGrid
    >>> g = HexGrid(6, 5)
    >>> c = np.ones((5, 6)); c[1:4, 3] = np.inf
    >>> pp = prepare(g, CostField.from_arrays(g, c))
    >>> p = pp.path(pp.costs, g.topology.padded_id(0, 2), g.topology.padded_id(5, 2))
    >>> p.cost, p.cells[:3]
    (6.0, [(0, 2), (1, 1), (2, 1)])
    """
    costs = check_costs(grid, costs)
    progress = check_progress(progress)
    topo = grid.topology
    n = topo.padded_size
    if n >= (1 << 31) - 1:
        raise ArgumentError(f"prepare serves boards of fewer than 2**31 padded cells, got {n}")
    need = _build_bytes(topo)
    avail = _available_bytes()
    if need > avail:
        raise PrepareMemoryError(
            f"prepare needs about {need / 2**20:.0f} MiB for this {grid.width} x {grid.height} board, "
            f"{avail / 2**20:.0f} MiB are left to this process (the least of the system's available memory, the "
            f"memory cgroup's limit, RLIMIT_AS and wargrid.movement.prepared.MEMORY_CAP); queries without prepare "
            f"stay exact"
        )
    k = _kernels()
    t0 = time.perf_counter()
    tb = topo_bundle(topo)
    start = np.empty(n, dtype=np.int64)
    cnt = np.empty(n, dtype=np.int64)
    cap = np.empty(n, dtype=np.int64)
    pool, top = k.build_graph(costs.cell, costs.edge, tb, start, cnt, cap)
    first = np.zeros(n, dtype=np.int64)
    ucnt = np.zeros(n, dtype=np.int32)
    size = max(16, n * topo.ndir)
    uarr = (np.empty(size, dtype=np.int32), np.empty(size), np.empty(size),
            np.empty(size, dtype=np.int32), np.empty(size, dtype=np.int32))
    utop = 0
    wit = _witness_scratch(n)
    pq = (np.empty(n), np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64), np.zeros(3, dtype=np.int64))
    deleted = np.zeros((2, n), dtype=np.int32)
    rank = np.full(n, -1, dtype=np.int64)
    passable = int(np.count_nonzero(costs.cell < np.inf))
    with reporter(progress, 2 * passable, f"prepare {costs.unit or 'paths'}", unit="cell") as tick:
        prio = np.empty(n)
        graph = (start, cnt, cap, pool, top)
        _init_priorities(costs.cell, graph, wit, deleted, prio)
        m = k.order_init(n, costs.cell, prio, pq)
        del prio
        tick(m)
        stop = m - (core_size(m) if core is None else min(m, max(0, int(core))))
        pool, top, uarr, utop = _contract((start, cnt, cap, pool, top), (first, ucnt, uarr, utop), wit, pq, deleted,
                                          rank, stop, lambda done: tick(m + done))
        in_core = np.zeros(n, dtype=np.uint8)
        uarr, utop = k.freeze_core((start, cnt, cap, pool, top), (first, ucnt, uarr, utop), pq, rank, in_core)
        del pool, wit, start, cnt, cap, pq, deleted, rank
        un, uwo, uwi, uvo, uvi = (a[:utop].copy() for a in uarr)
        del uarr
        cids = np.flatnonzero(in_core)
        cids = cids[np.argsort(hilbert_index(cids % topo.pw, cids // topo.pw), kind="stable")].astype(np.int32)
        cidx = np.full(n, -1, dtype=np.int32)
        cidx[cids] = np.arange(cids.size, dtype=np.int32)
        cf, cnb, cwo, cwi = _ch_core().core_graph(cids, cidx, first, ucnt, un, uwo, uwi)
        labels = _core_labels(cf, cnb, cwo, cwi, int(np.count_nonzero(grid.mask)))
        dl = _landmarks(cf, cnb, cwo, LABEL_LANDMARKS if labels is not _NO_LABELS else LANDMARKS)
    dlp, lq = _pack_landmarks(dl)
    arcs = _interleaved([un, _narrow(uwo), _narrow(uwi), uvo, uvi, *_halves(first, ucnt, un, uvo, uvi)])
    counts = ucnt.astype(np.uint16) if int(ucnt.max(initial=0)) <= np.iinfo(np.uint16).max else ucnt
    nodes = _interleaved([_narrow(first), counts, in_core])
    rest = dict(zip(_PACKED, packed([cidx, dlp, cids, _narrow(cf), cnb, _narrow(cwo), _narrow(cwi), lq, *labels])))
    upward = Upward(first=nodes[0], count=nodes[1], in_core=nodes[2], **dict(zip(_ARCS, arcs)), **rest)
    held = sum(a.nbytes for a in upward)
    free = bool(utop) and min(float(uwo.min()), float(uwi.min())) == 0.0
    return PreparedPaths(costs.unit, costs, time.perf_counter() - t0, held, int(utop), upward, free_steps=free)


_ARCS = ("head", "w_out", "w_in", "mid_out", "mid_in", "half_out", "half_in")
_PACKED = ("core_index", "landmarks", "core_ids", "core_first", "core_head", "core_w_out", "core_w_in",
           "landmark_scale", "out_first", "out_hub", "out_dist", "out_slot", "in_first", "in_hub", "in_dist", "in_slot",
           "label_scale")
"""``Upward``'s fields in the order ``prepare`` packs them (arcs interleaved, the rest in one block)."""


def _witness_scratch(n: int) -> tuple[np.ndarray, ...]:
    """A witness search's arrays: ``(dist, stamp, pos, hk, hid, (gen, settled), target stamps, slots)``."""
    return (np.empty(n), np.zeros(n, dtype=np.int64), np.empty(n, dtype=np.int64), np.empty(n),
            np.empty(n, dtype=np.int64), np.zeros(2, dtype=np.int64), np.zeros(n, dtype=np.int64),
            np.zeros(n, dtype=np.int32))


def _contract(graph: tuple[Any, ...], up: tuple[Any, ...], wit: tuple[np.ndarray, ...], pq: tuple[np.ndarray, ...],
              deleted: np.ndarray, rank: np.ndarray, stop: int, tick: Any) -> tuple[Any, ...]:
    """Contract nodes until ``stop`` are contracted, a batch of ``BATCH`` queue-first nodes at a time (see the
    module notes), the witness searches shared among ``THREADS`` threads. Returns the pool, its top, the upward
    arrays and their top.

    Each candidate's searches are the same whatever thread runs them, so
    the hierarchy does not depend on the number of threads.
    """
    k = _kernels()
    start, cnt, cap, pool, top = graph
    n = start.shape[0]
    size = BATCH
    bt = (np.empty(2 * size, dtype=np.int64), np.empty(2 * size), np.zeros(n, dtype=np.int64), np.zeros(1, np.int64),
          np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64), np.empty(size), np.zeros(size, np.uint8),
          np.zeros(size, dtype=np.int64))
    threads = max(1, min(THREADS, int(pq[3][0]) // CONTRACT_THREAD_NODES))
    wits = [wit] + [_witness_scratch(n) for _ in range(threads - 1)]
    scs = [(np.empty(256, dtype=np.int64), np.empty(256, dtype=np.int64), np.empty(256)) for _ in range(threads)]
    reported = 0
    with ThreadPoolExecutor(max(1, threads - 1)) as workers:

        def each(fn: Any, nc: int, g: tuple[Any, ...], *args: Any) -> list[Any]:
            """``fn(t, nc, g, wits[t], *args, scs[t])`` for every thread ``t``, the first on this one."""
            calls = [(t, nc, g, wits[t], *args, scs[t]) for t in range(threads)]
            if threads == 1 or nc < 2 * threads:
                return [fn(*c) for c in calls]
            futures = [workers.submit(fn, *c) for c in calls[1:]]
            return [fn(*calls[0])] + [f.result() for f in futures]

        while int(pq[3][1]) < stop:
            g = (start, cnt, cap, pool, top)
            nc = k.batch_pick(g, pq, bt, size, stop, threads)
            if nc == 0:
                break
            scs = each(k.batch_estimate, nc, g, ESTIMATE_SETTLE, deleted, bt)
            if k.batch_decide(nc, pq, bt, stop) == 0:
                continue
            if ESTIMATE_SETTLE < WITNESS_SETTLE:
                each(k.batch_recheck, nc, g, WITNESS_SETTLE, bt)
            pool, top, uarr, utop = k.batch_apply(nc, g, up, wit, deleted, rank, pq, bt, tuple(scs))
            up = (up[0], up[1], uarr, utop)
            done = int(pq[3][1])
            if done - reported >= 4096 or done >= stop:
                reported = done
                tick(done)
    return pool, top, up[2], up[3]


def _init_priorities(cell: np.ndarray, graph: tuple[Any, ...], wit: tuple[np.ndarray, ...], deleted: np.ndarray,
                     prio: np.ndarray) -> None:
    """Every passable node's first priority into ``prio``, on up to ``THREADS`` threads (a share of the nodes each).

    The witness searches only read the graph, so the priorities are the same
    whatever the number of threads; each thread has its own search arrays.
    """
    k = _kernels()
    n = cell.shape[0]
    threads = max(1, min(THREADS, n // CONTRACT_THREAD_NODES))
    cuts = [n * i // threads for i in range(threads + 1)]
    wits = [wit] + [_witness_scratch(n) for _ in range(threads - 1)]
    if threads == 1:
        k.init_priorities(0, n, cell, graph, wit, ESTIMATE_SETTLE, deleted, prio)
        return
    with ThreadPoolExecutor(threads) as pool:
        for f in [pool.submit(k.init_priorities, cuts[i], cuts[i + 1], cell, graph, wits[i], ESTIMATE_SETTLE, deleted,
                              prio) for i in range(threads)]:
            f.result()
    wit[5][0] = max(int(w[5][0]) for w in wits)  # the stamps stay fresh


def _ring_of(weights: np.ndarray) -> tuple[float, int]:
    """``(width, slots)`` of a bucket queue (``ch_core.sweep_buckets``) over arcs of these weights; ``(0.0, 1)``: a
    heap instead (a weight of zero, or the largest more than ``RING_MAX`` times the least)."""
    w = np.asarray(weights, dtype=np.float64)
    w = w[np.isfinite(w)]
    if w.size and w.min() > 0.0:
        width = float(w.min()) * (1.0 - _ch_core().BUCKET_SHRINK)
        slots = int(float(w.max()) / width) + 3
        if slots <= RING_MAX:
            return width, slots
    return 0.0, 1


def _landmarks(cf: np.ndarray, cnb: np.ndarray, cwo: np.ndarray, count: int) -> np.ndarray:
    """Every core node's cost from ``count`` landmarks: ``dl[r, l]`` from landmark ``l`` to core node ``r`` (``inf``: none).

    Landmarks are core nodes picked farthest first: each one the core node
    farthest from those picked before (unreachable ones first, so every
    part of a split board gets one). The costs are sweeps over the core
    (its distances are the board's), with buckets where the weights allow
    (``sweep_buckets``: 96 landmarks on the world 2.5-2.8 -> 1.3-1.9 s).
    """
    kc = _ch_core()
    c = cf.shape[0] - 1
    nl = min(count, c)
    dl = np.empty((c, nl))
    if nl == 0:
        return dl
    dist, stamp, pos, hk, hid = (np.empty(c), np.zeros(c, dtype=np.int64), np.empty(c, dtype=np.int32), np.empty(c),
                                 np.empty(c, dtype=np.int32))
    width, slots = _ring_of(cwo)
    ring = (np.empty(slots, dtype=np.int64), np.empty(cnb.shape[0] + 1, dtype=np.int32),
            np.empty(cnb.shape[0] + 1, dtype=np.int32))
    no_buckets = (np.full(c, -1, dtype=np.int32), np.empty(0, dtype=np.int32), np.empty(0), np.empty(0, dtype=np.int32))
    gen = 0

    def field(root: int) -> np.ndarray:
        nonlocal gen
        gen += 2
        if width > 0.0:  # the costs stay in dist (inf where the sweep did not reach)
            kc.sweep_buckets(np.array([root], dtype=np.int32), np.zeros(1), cf, cnb, cwo, width, *no_buckets,
                             np.full(1, np.inf), (dist, stamp, pos, hk, hid, *ring), gen)
            return dist.copy()
        kc.sweep(root, cf, cnb, cwo, dist, stamp, pos, hk, hid, gen)
        return np.where(stamp == gen + 1, dist, np.inf)

    far = field(0)
    for l in range(nl):
        pick = int(np.argmax(far))
        dl[:, l] = field(pick)
        far = dl[:, l].copy() if l == 0 else np.minimum(far, dl[:, l])
        far[pick] = -1.0
    return dl


def _pack_landmarks(dl: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(dlp, lq)``: the landmark costs as 16-bit whole multiples of ``lq[0]`` when that is exact, else as floats.

    ``lq[1]`` stands for ``inf`` (see ``ch_core.landmark_cost``). The unit is
    the largest power of two (at most 1) dividing every finite cost; 16 bits
    hold the costs when the largest is below 65 535 units: the terrain
    tables' whole and half costs on boards up to the world map's size.
    """
    unit = _unit(dl[np.isfinite(dl)])
    if unit is not None:
        packed = np.where(np.isfinite(dl), np.round(dl / unit), 65535).astype(np.uint16)
        return packed, np.array([unit, 65535.0])
    return _narrow(dl), np.array([1.0, np.inf])


_NO_LABELS = (np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.uint16), np.zeros(0, dtype=np.uint16),
              np.zeros(0, dtype=np.uint8)) * 2 + (np.array([1.0, 255.0]),)

LABEL_ENTRY_BYTES = 5
"""A label entry's bytes as the build counts them against ``LABEL_BYTES`` (rank 2, cost 2, parent slot 1)."""


def _core_labels(cf: np.ndarray, cnb: np.ndarray, cwo: np.ndarray, cwi: np.ndarray,
                 cells: int) -> tuple[np.ndarray, ...]:
    """The core's hub labels ``(out..., in..., lq)``, each side ``(lf, hub, dist, slot)`` (``ch_labels``), or none.

    Labelled when the core has at most ``LABEL_CORE_MAX`` nodes and the
    labels fit in ``LABEL_BYTES`` a cell of the board; the order is by sampled
    shortest-path tree sizes (``LABEL_SAMPLES`` roots, fixed: the same board
    gives the same labels). Packed: ranks in 16 bits, costs as 16-bit
    multiples of ``lq[0]`` where exact, parents as their slot among the
    node's core arcs (``lq[1]``: the hub itself).
    """
    c = cf.shape[0] - 1
    if c == 0 or c > min(LABEL_CORE_MAX, np.iinfo(np.uint16).max):
        return _NO_LABELS
    kl = _ch_labels()
    roots = np.random.default_rng(0).choice(c, size=min(c, LABEL_SAMPLES), replace=False).astype(np.int64)
    score = np.zeros(c)
    kl.tree_sizes(roots, cf, cnb, cwo, score)
    kl.tree_sizes(roots, cf, cnb, cwi, score)
    order = np.argsort(-score, kind="stable").astype(np.int64)
    ok, out, inn = kl.core_labels(order, cf, cnb, cwo, cwi, LABEL_BYTES * cells // LABEL_ENTRY_BYTES)
    if not ok:
        return _NO_LABELS
    unit = _unit(np.concatenate([out[2], inn[2]]))
    slot = np.uint8 if int(np.diff(cf).max()) < 255 else np.uint16
    self_slot = np.iinfo(slot).max
    packed: list[np.ndarray] = []
    for lf, hub, dist, par in (out, inn):
        slots = np.empty(par.shape[0], dtype=slot)
        if kl.parent_slots(lf, par, cf, cnb, slots, self_slot):
            return _NO_LABELS  # a parent off the node's arcs: no path could be read back (never seen)
        costs = _narrow(dist) if unit is None else np.round(dist / unit).astype(np.uint16)
        packed += [_narrow(lf), hub.astype(np.uint16), costs, slots]
    labels = (*packed, np.array([1.0 if unit is None else unit, float(self_slot)]))
    if sum(a.nbytes for a in labels) > LABEL_BYTES * cells:
        return _NO_LABELS
    return labels


def _unit(costs: np.ndarray) -> float | None:
    """The largest power of two (at most 1) whose multiples hold every cost of ``costs`` exactly in 16 bits, or ``None``.

    >>> _unit(np.array([0.0, 3.0, 12.5])), _unit(np.array([1.0, 2 ** 0.5])), _unit(np.array([70_000.0]))
    (0.5, None, None)
    """
    top = float(costs.max()) if costs.size else 0.0
    unit = 1.0
    while unit >= 2.0 ** -4 and not np.array_equal(np.floor(costs / unit) * unit, costs):
        unit /= 2.0
    if np.array_equal(np.floor(costs / unit) * unit, costs) and top / unit < 65535:
        return unit
    return None


def landmark_costs(upward: Upward) -> npt.NDArray[np.float64]:
    """The landmark costs of a prepared structure as floats: ``[r, l]`` from landmark ``l`` to core node ``r`` (``inf``: none)."""
    dlp, lq = upward.landmarks, upward.landmark_scale
    return np.where(dlp == lq[1], np.inf, dlp.astype(np.float64) * lq[0])


def _halves(first: np.ndarray, ucnt: np.ndarray, un: np.ndarray, uvo: np.ndarray,
            uvi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each shortcut's halves as positions in its middle's list (``ch.shortcut_halves``), 8 bits where lists allow."""
    small = np.uint8 if un.shape[0] == 0 or int(ucnt.max()) <= 256 else np.uint16
    ho = np.zeros((un.shape[0], 2), dtype=small)
    hi = np.zeros((un.shape[0], 2), dtype=small)
    _kernels().shortcut_halves(first, ucnt, un, uvo, uvi, ho, hi)
    return ho, hi


def _interleaved(columns: Sequence[np.ndarray]) -> tuple[np.ndarray, ...]:
    """The columns as views into one array of packed records: what a search reads of one node or one arc
    together shares a cache line (a query on a large board finds few of its lines in the caches), on huge
    pages (``_hugepages``).

    >>> a, b = _interleaved([np.arange(3, dtype=np.int32), np.ones(3, dtype=np.float32)])
    >>> a.tolist(), b.tolist(), a.strides
    ([0, 1, 2], [1.0, 1.0, 1.0], (8,))
    """
    lengths = {c.shape[0] for c in columns}
    if len(lengths) != 1:
        raise ArgumentError(f"columns must all have one length, got lengths {sorted(lengths)}")
    rows = lengths.pop()
    rec, = block([(rows, np.dtype([(f"c{i}", c.dtype, c.shape[1:]) for i, c in enumerate(columns)]))])
    for i, c in enumerate(columns):
        rec[f"c{i}"] = c
    return tuple(rec[f"c{i}"] for i in range(len(columns)))


def hilbert_index(x: npt.NDArray[np.integer[Any]], y: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.int64]:
    """Each point's position along a Hilbert curve over the smallest power-of-two square holding them all.

    Points close on the curve are close on the board, and (unlike a Morton
    order) consecutive positions on the curve are neighbouring cells. The core is numbered in
    this order: a search's nodes settled one after another then share cache
    lines and pages (world 100 x 100 table 0.60 -> 0.50 s, long path median
    1.0-1.2 -> 0.94-0.98 ms against the padded ids' row order).

    >>> hilbert_index(np.array([0, 0, 1, 1]), np.array([0, 1, 1, 0])).tolist()
    [0, 1, 2, 3]
    """
    x = np.asarray(x, dtype=np.int64).copy()
    y = np.asarray(y, dtype=np.int64).copy()
    d = np.zeros(x.shape, dtype=np.int64)
    n = 1 << max(1, int(max(int(x.max(initial=0)), int(y.max(initial=0)))).bit_length())
    s = n >> 1
    while s > 0:
        rx = (x & s) > 0
        ry = (y & s) > 0
        d += s * s * ((3 * rx.astype(np.int64)) ^ ry.astype(np.int64))
        turn = ~ry  # rotate the quadrant so the curve joins its neighbours
        flip = turn & rx
        x = np.where(flip, n - 1 - x, x)
        y = np.where(flip, n - 1 - y, y)
        x, y = np.where(turn, y, x), np.where(turn, x, y)
        s >>= 1
    return d


def _narrow(a: np.ndarray) -> np.ndarray:
    """``a`` as float32 (weights) or int32 (offsets) when every value survives the round trip, else ``a``.

    Weights are sums of step costs; when they are small whole numbers or
    halves (the terrain tables' costs) float32 holds them exactly, and
    queries add them up in float64, so the answers stay exact.
    """
    small = a.astype(np.float32 if a.dtype.kind == "f" else np.int32)
    return small if np.array_equal(small.astype(a.dtype), a) else a


# -- tables --------------------------------------------------------------------------------------

def _cell_list(grid: Grid, cells: Any, name: str) -> npt.NDArray[np.int64]:
    got = check_cells(grid, cells, name)
    if not got:
        raise ArgumentError(f"{name} must hold at least one (x, y) cell, got an empty list")
    topo = grid.topology
    return np.array([padded_id(topo, c) for c in got], dtype=np.int64)


def distance_table(
    grid: Grid,
    costs: CostField,
    sources: Sequence[tuple[int, int]],
    targets: Sequence[tuple[int, int]],
    *,
    prepared: Prepared | None = None,
    size: int = 1,
) -> npt.NDArray[np.float64]:
    """``(len(sources), len(targets))`` cheapest costs from every source to every target (``inf``: unreachable).

    With ``prepared`` (a ``PreparedPaths`` or ``CustomizedPaths`` of this board) and a field it
    answers for, the hierarchy's bucket method; otherwise one Dijkstra a
    source, stopped when every target is settled.

    Parameters
    ----------
    grid : Grid
        The board.
    costs : CostField
        What the movement class pays.
    sources, targets : list of (x, y)
        Cells on the board (at least one each).
    prepared : PreparedPaths or CustomizedPaths, optional
        A hierarchy of this board (``prepare``); one-cell units only, so not
        used with ``size`` > 1.
    size : int
        A unit bigger than one cell (``wargrid.movement.clearance``): the
        cells are the footprint's anchors.

    Raises
    ------
    ValueError, IndexError
        An empty list, a cell off the board.

    >>> from wargrid import SquareGrid
    >>> g = SquareGrid(4, 3)
    >>> distance_table(g, CostField.from_arrays(g, np.ones((3, 4))), [(0, 0), (3, 2)], [(3, 0)]).tolist()
    [[3.0], [2.0]]
    """
    costs = check_costs(grid, costs)
    src = _cell_list(grid, sources, "sources")
    tgt = _cell_list(grid, targets, "targets")
    sized = sized_costs(grid, costs, size)
    if sized is not costs:
        costs, prepared = sized, None
    if prepared is not None:
        got = prepared.table(costs, src, tgt)
        if got is not None:
            return got
    t0 = time.perf_counter()
    out = _dijkstra_table(costs, src, tgt)
    if prepared is not None:
        prepared.note_fallback(time.perf_counter() - t0)
    return out


def _dijkstra_table(costs: CostField, src: np.ndarray, tgt: np.ndarray) -> npt.NDArray[np.float64]:
    k = _kernels()
    topo = costs.topology
    tb = topo_bundle(topo)
    n = costs.cell.shape[0]
    st = per_thread("ch_states", n, _QueryState, keep=1)
    qs = st.qs
    df, sf, posf, hkf, hidf = qs.dist_f, qs.stamp_f, qs.pos_f, qs.key_f, qs.id_f
    want = st.ps
    out = np.full((src.shape[0], tgt.shape[0]), np.inf)
    cell = costs.cell
    open_t = np.unique(tgt[cell[tgt] < np.inf])
    for i, s in enumerate(src.tolist()):
        gen = st.take(1)
        want[open_t] = gen
        if cell[s] < np.inf:
            k.dijkstra_targets(s, want, open_t.shape[0], cell, costs.edge, tb, df, sf, posf, hkf, hidf, gen)
            ok = sf[tgt] == gen + 1
            out[i, ok] = df[tgt[ok]]
        out[i, tgt == s] = 0.0
    return out
