"""Customizable prepared queries: a board's shape prepared once, every unit class and every edit customized.

A **customizable contraction hierarchy** (CCH; Dibbelt, Strasser and Wagner): the expensive part depends on the
board's shape only and is shared by every movement class (``Structure``, built by ``structure``):

- a **nested-dissection order** of the cells: straight cuts (rows or columns; diagonals on 4-direction boards), 40-60 %
  of the cells each side, the cut of fewest estimated lower triangles, its smaller boundary ranked above both halves,
  which are cut again (``_kernels.movement.cch.nested_dissection``: board coordinates, no graph partitioner);
- the **chordal supergraph** of the board's steps under that order (every cell's upward neighbours, fill-in
  included) and its elimination tree;
- the **lower triangles** ``w < u < x`` of every arc, read through each node's down lists.

A class's costs are then a **metric** (``Metric``): the board steps' weights as the arcs' input, every arc's weight
both ways after **customization** (each lower triangle relaxed once, in increasing rank) and the middle node that gave
it. An edit's **partial customization** recomputes only the arcs whose lower triangles changed
(``_kernels.movement.cch.update``), so the next answer is exact whether costs rose or fell.

Queries are **elimination-tree searches**: both ends climb their chains of ancestors relaxing upward arcs (``_arcs``),
pruned once a node's cost passes the best meeting so far; a path's arcs are found from the costs and unpacked through
the middle nodes. Tables leave every target's chain in buckets and read them from every source's chain."""

from __future__ import annotations

import math
import mmap
import threading
import time
import weakref
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any, Callable, NamedTuple

import numpy as np
import numpy.typing as npt

from .._scratch import per_thread
from ..costs import CostField, changed_ids, check_board_field, padded_entries, padded_entry
from ..grids.boards import Grid, Topology
from .search import Path, check_costs, cut_loops

__all__ = ["Structure", "Metric", "CustomizedPaths", "structure", "customized"]


class Structure(NamedTuple):
    """The metric-independent part of a board's hierarchy (ranks are the nested-dissection order)."""

    rank_of: npt.NDArray[np.int32]
    """Padded cell id -> rank (``-1``: off the board)."""
    cell_of: npt.NDArray[np.int64]
    """Rank -> padded cell id."""
    up_first: npt.NDArray[np.int64]
    """Node ``u``'s upward arcs are ``up_first[u]:up_first[u + 1]``."""
    up_head: npt.NDArray[np.int32]
    """An arc's upper node (sorted within each node's arcs)."""
    tails: npt.NDArray[np.int32]
    """An arc's lower node."""
    parent: npt.NDArray[np.int32]
    """The elimination tree (``-1``: a root)."""
    down_first: npt.NDArray[np.int64]
    """Node ``u``'s arcs from below are ``down_arc[down_first[u]:down_first[u + 1]]``."""
    down_arc: npt.NDArray[np.int32]
    step_code: npt.NDArray[np.int64]
    """Board step ``p * ndir + d`` -> ``2 * arc`` (upward) or ``2 * arc + 1`` (downward), ``-1``: none."""
    parts: npt.NDArray[np.int64]
    """The first cut's halves, ranks ``[0, parts[0])`` and ``[parts[0], parts[1])``: no arc joins them, so
    they are customized on two threads."""
    arc_slot: npt.NDArray[np.int32]
    """An arc's row in a class's input weights (``Metric.inp``), ``-1``: the arc is no board step (a
    shortcut only; its input weight is ``inf``)."""

    @property
    def bytes(self) -> int:
        """Memory the structure holds."""
        return sum(int(a.nbytes) for a in self)


class Metric(NamedTuple):
    """One cost field's weights on a ``Structure``: ``(arcs, 2)`` arrays, column 0 upward, column 1 downward; or
    ``(arcs, 1)``, both ways' sum, where the steps are symmetric up to the cells' costs (``_inputs``; float64: ``_span``).

    The weights are ``float32`` where that is exact (``_exact32``: every step weight a whole multiple of a
    power of two small enough that no path's sum rounds), else ``float64``; ``inp`` and ``weight`` share
    the dtype and the columns."""

    inp: npt.NDArray[np.floating[Any]]
    """The board steps' weights, a row for each arc that is a board step (``Structure.arc_slot``; ``inf``: no
    step that way); no rows until a path or an edit first needs them (made again from the class's cost field with
    the middles, ``_with_middles``: the customization reads them once, the queries over distances never)."""
    weight: npt.NDArray[np.floating[Any]]
    """The customized weights: the cheapest path between the arc's ends through lower nodes; no rows where the class
    holds them as its finite arcs (fewer bytes) until a path, an edit or the query arcs need them (``_weighted``)."""
    middle: npt.NDArray[np.int32]
    """The lower triangle's node that gave the weight (``-1``: the board step itself); empty until a path or an
    edit first needs them (``CustomizedPaths._middles``)."""


class QueryArcs(NamedTuple):
    """The arcs a query relaxes: the perfect customization's (pruned), every finite arc, or every arc."""

    fwd: tuple[Any, ...]
    """``(first, head, weight)`` of the upward search from the start."""
    bwd: tuple[Any, ...]
    """``(first, head, weight)`` of the upward search from the goal."""
    fwd_arc: npt.NDArray[Any]
    """The structure's arc id of each forward query arc (empty: the query runs over every arc, or over the finite
    arcs that hold a class's weights, which no path reads)."""
    bwd_arc: npt.NDArray[Any]
    """The structure's arc id of each backward query arc (empty: every arc)."""
    walk: bool
    """A path's cost is the sum of its steps' input weights, read as it is unpacked; ``False`` where the search's
    cost is that sum already (a ``float32`` metric: every sum exact; no step weighs nothing: no loop to cut)."""
    low: float
    """A search's costs are keys: the weights whole multiples of ``low``, below them the depth of the node that set
    the cost, a path's arcs read from them (``0.0``: plain costs; keys where every sum is a whole number < 2 ** 53)."""
    unit: float
    """A search's cost times ``unit`` is the class's."""


@cache
def _k() -> Any:
    """The kernels' module, imported on first use (``import wargrid`` compiles nothing) and kept (an import: 3 µs)."""
    from .._kernels.movement import cch

    return cch


def structure(topo: Topology) -> Structure:
    """The order, chordal supergraph and lower triangles of a board's shape (see the module notes).

    >>> from wargrid import HexGrid
    >>> s = structure(HexGrid(4, 3).topology)
    >>> s.cell_of.shape[0], int(s.up_first[-1]) >= 12 * 3 - 4 - 3 * 2
    (12, True)
    """
    k, tb = _k(), topo.kernel_bundle
    valid = topo.pad(topo.valid, False).ravel()
    index, nb_first, nb = k.board_graph(valid, tb)
    cells = np.flatnonzero(index >= 0)
    x, y = cells % topo.pw, cells // topo.pw
    axes = [x + y, x - y + y.max(initial=0)] if topo.ndir == 4 else [x, y]  # 4 directions: cut along diagonals
    order, parts = k.nested_dissection(np.stack(axes).astype(np.int64), nb_first, nb)
    rank = np.empty(order.shape[0], dtype=np.int32)
    rank[order] = np.arange(order.shape[0], dtype=np.int32)
    up_first, up_head, parent = k.chordal(rank, nb_first, nb)
    down_first, down_arc = k.down_lists(up_first, up_head)
    tails = np.repeat(np.arange(order.shape[0], dtype=np.int32), np.diff(up_first))
    rank_of = np.full(index.shape[0], -1, dtype=np.int32)
    rank_of[cells] = rank
    code = k.step_arcs(index, rank, up_first, up_head, tb)
    arc_slot = np.full(up_head.shape[0], -1, dtype=np.int32)
    stepped = np.unique(code[code >= 0] >> 1)
    arc_slot[stepped] = np.arange(stepped.shape[0], dtype=np.int32)
    return Structure(rank_of, cells[order].astype(np.int64), up_first, up_head, tails, parent, down_first, down_arc,
                     code, parts, arc_slot)


METRIC_BYTES_PER_ARC = 52
"""A class's peak bytes an arc while it is customized (``prepared.prepare``'s memory guard), float64 weights:
weights and middles (24), the input of the board steps (16 bytes a step, about 7 % of the arcs), the perfect
customization's copy of the weights and its marks (17), the query arcs (about a quarter of the directions).
``float32`` weights (``_exact32``) need 16 bytes less, one column (``_inputs``) about half."""

_EXACT_BITS = 24
"""``float32``'s significand: whole numbers up to ``2 ** 24`` are exact, so are sums of two up to ``2 ** 23``."""


def _exact32(values: npt.NDArray[np.float64], nodes: int) -> tuple[float, float, float]:
    """``(quantum, limit, bound)``: with every step weight a whole multiple of ``quantum`` and at most ``limit``,
    ``float32`` customization of step weights ``values`` on ``nodes`` nodes is exact if every finite weight it
    stores is below ``bound`` (``0.0``: sure to be; ``(0.0, 0.0, 0.0)``: keep ``float64``). With ``quantum =
    2 ** -k``, a sum of two stored weights below ``2 ** (24 - k)`` is exact and one above rounds to no less
    (it neither wins against a smaller sum nor is stored below ``bound = 2 ** (23 - k)``); a stored weight is
    a path's of at most ``nodes - 1`` steps, so steps up to ``bound / (nodes - 1)`` make it sure, else the
    weights are checked after customizing and after each edit. An edit keeps to ``limit`` (``_fits32``).

    >>> _exact32(np.array([1.0, 2.0, 0.75, np.inf]), 100), _exact32(np.array([1.0, 3e4]), 1000)
    ((0.25, 21183.25, 0.0), (1.0, 8388608.0, 8388608.0))
    """
    finite = values[np.isfinite(values)]
    if finite.size == 0 or nodes < 2 or float(finite.min()) < 0.0:
        return 0.0, 0.0, 0.0
    for k in range(21):
        scaled = finite * float(2 ** k)
        if np.array_equal(scaled, np.floor(scaled)):
            quantum = 2.0 ** -k
            bound = 2.0 ** (_EXACT_BITS - 1) * quantum
            limit = math.floor(2 ** (_EXACT_BITS - 1) / (nodes - 1)) * quantum
            if float(finite.max()) <= limit:
                return quantum, limit, 0.0
            return (quantum, bound, bound) if float(finite.max()) < bound else (0.0, 0.0, 0.0)
    return 0.0, 0.0, 0.0


def _fits32(values: npt.NDArray[np.float64], quantum: float, limit: float) -> bool:
    """Whether an edit's new step weights ``values`` (a few: Python floats) keep a float32 metric of ``_exact32``'s ``(quantum, limit)`` exact."""
    return all(v == math.inf or 0.0 <= v <= limit and (v / quantum).is_integer() for v in set(values.ravel().tolist()))


def _inputs(st: Structure, costs: CostField) -> tuple[npt.NDArray[np.float64], bool]:
    """``(inp, symmetric)``: the board steps' weights over ``costs``, ``(rows, 2)`` (``Metric.inp`` before it takes a
    metric's columns and dtype), and whether each way's weight less the cost of the cell it enters is the same, ``inf``
    both ways or neither: then a path's cost is ``(sum of up + dn + cell[goal] - cell[start]) / 2`` (the cells' halves
    are a potential), so one weight an arc serves both ways (a hex or 4-direction board, edge costs alike both ways)."""
    inp = np.empty((int(st.arc_slot.max(initial=-1)) + 1, 2))
    return inp, _k().input_weights(st.step_code, costs.cell, costs.edge, costs.topology.kernel_bundle, st.arc_slot,
                                   st.cell_of, inp)


def _metric(st: Structure, costs: CostField, wide: bool = False) -> tuple[Metric, tuple[float, float, float], QueryArcs]:
    """A class's customized metric (one column where the steps are symmetric, ``_inputs``, and a float64 one's span allows,
    ``_span``; its input weights not held), its ``float32`` bounds (``_exact32``) or float64 span (``(0.0, 0.0, 0.0)``:
    two columns) and its finite arcs (``_listed``, without arc ids; their largest weight is the bound's check)."""
    inp, symmetric = _inputs(st, costs)
    one = inp[:, :1] + inp[:, 1:] if symmetric else inp  # (a sum a row: numpy's ``sum(axis=1)`` is 7 times slower)
    exact = _exact32(one.ravel(), int(st.parent.shape[0]))
    if exact[1] and not wide:  # (``wide``: a metric edits widened past float32 stays float64)
        mt = _customize(st, one.astype(np.float32))
        finite, top = _listed(st, mt.weight, False)
        if not exact[2] or top < exact[2]:
            return mt, exact, finite
    span = _span(inp, costs.cell, int(st.parent.shape[0]), _height(st)) if symmetric else (0.0, 0.0, 0.0)
    return (mt := _customize(st, one if span[1] else inp)), span, _listed(st, mt.weight, False)[0]


def _span(w: npt.NDArray[Any], cells: npt.NDArray[Any], nodes: int, height: int, held: Any = (math.inf, 0.0)) -> Any:
    """``(0.0, lo, hi)``, the least positive step weight (``w``, ``held[0]``) and largest finite cell cost (``cells``,
    ``held[1]``), where a float64 metric may keep one column (``_inputs``): its sums carry the start's cost through at most
    ``2 * height`` roundings (its chain's arcs), no more than ``nodes`` for any path's; else ``(0.0, 0.0, 0.0)``: two."""
    lo = min(float(np.min(w, initial=math.inf)) or float(np.min(w, where=w > 0.0, initial=math.inf)), held[0])
    hi = max(float(np.max(cells, where=cells < math.inf, initial=0.0)), held[1])
    return (0.0, lo, hi) if 2 * height * hi <= nodes * lo else (0.0, 0.0, 0.0)


def _listed(st: Structure, w: npt.NDArray[Any], ids: bool, keep: npt.NDArray[np.uint8] | None = None, low: float = 0.0,
            q: float = 0.0, walk: bool = True) -> tuple[QueryArcs, float]:
    """``(arcs, top)``: the arc directions of ``keep`` (bit 1 up, 2 down; ``None``: every one) finite in ``w`` as
    ``query``'s arcs, their arc ids where ``ids``, keys where ``low`` (of quantum ``q``); ``top`` the largest finite weight."""
    keep = np.zeros(0, dtype=np.uint8) if keep is None else keep
    fwd, bwd, fa, ba, top = _k().query_arcs(st.up_first, st.up_head, _k().depths(st.parent).astype(_head_type(_height(st))),
                                            w, keep, ids)
    ways = [fwd, bwd][:w.shape[1]]  # (a symmetric metric's serve both ways; keys: the quanta times 2 ** 16, exact)
    ways = [(_narrow(f), hd, wt * np.float32(low / q) if low else wt) for f, hd, wt in ways]
    return QueryArcs(ways[0], ways[-1], fa, ba if w.shape[1] == 2 else fa, walk, low, q / low if low else 1.0), top


def _customize(st: Structure, inp: npt.NDArray[Any]) -> Metric:
    """The metric of input weights ``inp`` in their dtype, neither they nor its middles held (``_with_middles``).
    Each of two threads customizes its half of the first cut (no arc joins them; ``_kernels.movement.cch.customize``),
    then relaxes the lower triangles whose lowest node is in its half for the arcs of the ranks above both halves
    (the second thread into a copy, merged by the least weight); then those among the ranks above, on one thread."""
    k, a, b, m = _k(), int(st.parts[0]), int(st.parts[1]), int(st.parent.shape[0])
    weight = _fresh((int(st.up_head.shape[0]), inp.shape[1]), inp.dtype)
    s = (st.up_first, st.up_head, st.down_first, st.down_arc, st.tails, weight)
    top = int(st.up_first[b])
    top_w = np.full((weight.shape[0] - top, inp.shape[1]), np.inf, dtype=inp.dtype)

    def second() -> None:
        k.customize(a, b, 0, m, *s, weight, 0, inp, st.arc_slot, True)
        k.customize(b, m, a, b, *s, top_w, top, inp, st.arc_slot, False)

    with ThreadPoolExecutor(1) as pool:
        other = pool.submit(second)
        k.customize(0, a, 0, m, *s, weight, 0, inp, st.arc_slot, True)
        k.customize(b, m, 0, a, *s, weight, 0, inp, st.arc_slot, True)
        other.result()
    np.minimum(weight[top:], top_w, out=weight[top:])
    k.customize(b, m, b, m, *s, weight, 0, inp, st.arc_slot, False)
    return Metric(np.empty((0, inp.shape[1]), dtype=inp.dtype), weight, np.empty((0, 2), dtype=np.int32))


def _fresh(shape: tuple[int, int], dtype: type[Any] | np.dtype[Any]) -> npt.NDArray[Any]:
    """An array of ``shape`` (not filled) in an anonymous map of small pages: numpy advises its large arrays for
    huge pages, which on a virtual machine that hands freed memory back to its host cost 6-7 times more to touch
    the first time (docs/design/prepared.md, "A further class: small pages, middles when first needed")."""
    n = shape[0] * shape[1]
    return np.frombuffer(mmap.mmap(-1, max(n * np.dtype(dtype).itemsize, 1)), dtype=dtype, count=n).reshape(shape)


def _with_middles(st: Structure, mt: Metric, costs: CostField, cnt: npt.NDArray[Any] | None = None) -> Metric:
    """``mt``, the metric of ``costs``, with its input weights (made again from ``costs`` in the metric's columns
    and dtype: the values its customization read) and its middles (``_kernels.movement.cch.middles``, every
    node's arcs apart: on two threads); with ``cnt`` (zeros): their legs counted (``update``'s)."""
    if mt.middle.shape[0] == mt.weight.shape[0]:
        if cnt is not None:  # made before: their legs counted from them
            _k().count_legs(st.up_first, st.up_head, st.tails, mt.middle, cnt)
        return mt
    inp = mt.inp
    if inp.shape[0] == 0:
        inp = _inputs(st, costs)[0]
        inp = (inp[:, :1] + inp[:, 1:] if mt.weight.shape[1] == 1 else inp).astype(mt.weight.dtype)
    mid = np.empty(mt.weight.shape, dtype=np.int32)  # huge pages: read at random by unpacking (prepared.md)
    cnt = np.zeros(0, dtype=np.uint16) if cnt is None else cnt
    _halves(_k().middles, st, (mt.weight, inp, st.arc_slot, mid, cnt))  # (each node's own: in any order)
    return Metric(inp, mt.weight, mid)


PERFECT_PER_CUSTOMIZE = 3.0
"""What the query arcs (a perfect customization) cost against the basic customization (docs/design/prepared.md): a
class's estimate of their price before they were first built. A class is customized basically only; its queries search
every arc (or its finite arcs) until they have cost that much (``_slow``), then the query arcs are built."""


def _halves(kernel: Any, st: Structure, args: tuple[Any, ...], *, lowest: bool = False) -> None:
    """``kernel(lo, hi, <structure>, *args)`` over every rank: the ranks above the first cut's halves on this
    thread, then one half on this thread and one on another (no arc joins them). ``lowest``: the kernel takes the triangles'
    lowest nodes' range too (``lo, hi, first, last``), and each half's thread first relaxes its own under the top."""
    a, b, m = int(st.parts[0]), int(st.parts[1]), int(st.parent.shape[0])
    common = (st.up_first, st.up_head, st.down_first, st.down_arc, st.tails, *args)
    kernel(*(b, m, b, m)[:4 if lowest else 2], *common)

    def half(lo: int, hi: int) -> None:
        if lowest:
            kernel(b, m, lo, hi, *common)
        kernel(*(lo, hi, 0, m)[:4 if lowest else 2], *common)

    with ThreadPoolExecutor(1) as pool:
        other = pool.submit(half, a, b)
        half(0, a)
        other.result()


class _Scratch:
    """One thread's query arrays for ``m`` nodes: costs by depth (a chain's first entries), a path's arcs, the two
    chains (grown to the tree's height when first asked)."""

    def __init__(self, m: int) -> None:
        self.df, self.db = np.empty(m), np.empty(m)
        self.pf, self.pb = np.empty(m, dtype=np.int64), np.empty(m, dtype=np.int64)
        self.cs = self.ct = np.empty(0, dtype=np.int64)

    def chains(self, height: int) -> _Scratch:
        """This scratch with chains of ``height`` nodes at least."""
        if self.cs.shape[0] < height:
            self.cs, self.ct = np.empty(height, dtype=np.int64), np.empty(height, dtype=np.int64)
        return self


class CustomizedPaths:
    """A customized hierarchy of one movement class: exact paths, distances and tables, kept exact after edits.

    Queries on a cost field other than the last one first bring the metric to it (``sync``: a partial customization
    of the arcs the changed cells touch), so every answer is exact.

    Attributes
    ----------
    unit : str or None
        The movement class.
    costs : CostField
        The field the metric holds (a map patches its cells in place once only it holds it: the next query syncs).
    build_seconds : float
        How long the customization took (the shared structure not counted when it was built before).
    structure : Structure
        The board's shared part.
    metric : Metric
        This class's weights.
    """

    def __init__(self, st: Structure, costs: CostField, seconds: float) -> None:
        self.structure, self.costs, self.unit, t0 = st, costs, costs.unit, time.perf_counter()
        self._fast: QueryArcs | None = None
        self._lean: QueryArcs | None = None  # every finite arc: made with ``_down``, or held for the weights
        self._down: tuple[npt.NDArray[Any], npt.NDArray[Any]] | None = None  # (weights in down-list order, leg counts)
        self._customized(costs)
        self.customize_seconds = time.perf_counter() - t0
        self._slow_seconds = 0.0
        self._lock = threading.Lock()
        self._pending_for: CostField | None = None
        self._pending: list[npt.NDArray[np.int64]] = []
        self._perfect_seconds = PERFECT_PER_CUSTOMIZE * self.customize_seconds  # until built once (rent or buy)
        self.edit_seconds = 0.0
        self._heap = np.empty(1024, dtype=np.int64)
        self._height, self._tree = _height(st), _climbs(st)
        self.build_seconds = seconds + time.perf_counter() - t0

    def _customized(self, costs: CostField, wide: bool = False) -> None:
        """The metric of ``costs`` customized afresh; its finite arcs held for its weights where fewer bytes (``_weighted``)."""
        mt, self._exact, ln = _metric(self.structure, costs, wide)
        self.metric, self._down, self._lean, w = mt, None, None, mt.weight
        if sum(int(a.nbytes) for a in {id(a): a for a in (*ln.fwd, *ln.bwd)}.values()) < w.nbytes:
            self.metric, self._lean = mt._replace(weight=np.empty((0, w.shape[1]), w.dtype)), ln

    def _query_arcs(self) -> None:
        """The query arcs of the metric (``_kernels.movement.cch.perfect``): the arc directions no path through an
        intermediate or upper node ties (no weight nor ``nodes - 1`` steps' sum lost to rounding); queries relax those."""
        st, k = self.structure, _k()
        t0 = time.perf_counter()
        w = self._weighted().weight.copy()
        keep = np.full(w.shape[0], 3, dtype=np.uint8)
        big = 0.0 if w.dtype == np.float32 else float(np.max(w, where=w < np.inf, initial=0.0)) * st.parent.shape[0]
        ties = bool(w.size) and float(w.min()) > big * 2.0 ** -52  # (float32: exact, ``_exact32``)
        _halves(k.perfect, st, (w, keep, ties), lowest=True)
        q, top, h = self._exact[0], float(np.max(w, where=np.isfinite(w), initial=0.0)), self._height
        low = 65536.0 if w.dtype == np.float32 and q and h <= 1 << 16 and h * top / q < 2.0 ** 36 else 0.0
        self._fast = _listed(st, w, True, keep, low, q, not ties or w.dtype != np.float32)[0]
        if self._down is not None and self._lean is None:  # (an edit made an arc finite that they lacked)
            self._lean = self._finite()
        self._perfect_seconds = time.perf_counter() - t0
        self._slow_seconds = 0.0

    def _finite(self) -> QueryArcs:
        """Every finite arc as ``query``'s arcs, with their arc ids (``update`` keeps their weights)."""
        return _listed(self.structure, self._weighted().weight, True)[0]

    def _weighted(self) -> Metric:
        """The metric with every arc's weight: made again from the finite arcs where only they held the weights (after
        customizing, ``__init__``: fewer bytes, and a distance query relaxes only them), which then go."""
        mt, st = self.metric, self.structure
        if mt.weight.shape[0] != self.arcs and self._lean is not None:
            w = _fresh((self.arcs, mt.weight.shape[1]), mt.weight.dtype)
            for c, way in enumerate((self._lean.fwd, self._lean.bwd)[:w.shape[1]]):
                _k().every_weight(st.up_first, _depth_heads(st), *way, w[:, c])
            self.metric, self._lean = mt._replace(weight=w), None
        return self.metric

    def build_query_arcs(self) -> None:
        """Build the query arcs now (a perfect customization) and the middles paths unpack by, rather than when
        queries need them: a class about to answer many queries, prepared ahead (while a game loads), skips the
        every-arc searches and the queries that would wait for them.

        >>> from wargrid import HexGrid
        >>> g = HexGrid(6, 5)
        >>> cp = customized(g, CostField.from_arrays(g, np.ones((5, 6))))
        >>> cp.build_query_arcs()
        >>> cp.distance(cp.costs, g.topology.padded_id(0, 0), g.topology.padded_id(5, 4))
        7.0
        """
        with self._lock:
            self.metric = _with_middles(self.structure, self._weighted(), self.costs)
            if self._fast is None:
                self._query_arcs()

    def prepare_edits(self) -> None:
        """Make now what the first edit would make (the middles and their legs' counts, the weights in down-list order,
        the finite arcs): a game that edits its board calls it while loading, so no edit waits for it (0.5-2 s on 512²).

        >>> from wargrid import Map, HexGrid
        >>> Map(HexGrid(6, 5)).prepare(unit="foot").prepare_edits()
        """
        with self._lock:
            self._edits_ready()

    def _edits_ready(self) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
        if self._down is None:  # the weights copied in down-list order, the middles with their legs' counts (``update``)
            st, w = self.structure, self._weighted().weight
            wd = np.empty_like(w)
            _k().down_copy(st.up_first, st.up_head, st.down_first, w, wd)
            cnt = np.zeros(w.shape[0], dtype=np.uint16 if np.diff(st.up_first).max(initial=0) < 1 << 15 else np.int32)
            self.metric, self._down = _with_middles(st, self.metric, self.costs, cnt), (wd, cnt)
            self._lean = self._finite()
        _down_tails(self.structure)
        return self._down

    def __getstate__(self) -> dict[str, Any]:  # (the finite arcs where they hold the weights; the told cells)
        drop = ("_lock", "_heap", "_fast", "_pending_for", "_down", "_tree", "_lean")[:6 if self._down is None else 7]
        return {k: v for k, v in self.__dict__.items() if k not in drop} | {"costs": self._own(self.costs)}

    def _own(self, f: CostField) -> CostField:  # ``f``; its own field patched in place: the told one (its flags hold)
        return p if f is self.costs and (p := self._pending_for) is not None and p.cell is f.cell else f

    def __setstate__(self, state: dict[str, Any]) -> None:
        state["_exact"] = (*state.get("_exact", (0.0, 0.0)), 0.0)[:3]  # pickled before float32 metrics: float64
        state.setdefault("_height", _height(state["structure"]))
        self.__dict__.update(state)
        self._tree = _climbs(self.structure)
        self._lock = threading.Lock()
        self._heap = np.empty(1024, dtype=np.int64)
        self._down, self._fast, self._lean = None, None, state.get("_lean")
        self._slow_seconds = 0.0
        self._pending_for, self._pending = None, state.get("_pending", [])

    @property
    def bytes(self) -> int:
        """Memory this class holds: its metric (the weights, or the finite arcs that hold them; the input weights and
        middles once a path or an edit needed them), query arcs and (once edited) the weights in down-list order, the
        legs' counts and the finite arcs (the shared ``structure.bytes`` and the arrays the structure's classes share,
        made once, not counted; nor the cost field, the class's input, which the ``Map`` holds)."""
        arcs = [a for f in (self._fast, self._lean) if f is not None for a in (*f.fwd, *f.bwd, f.fwd_arc, f.bwd_arc)]
        down = [] if self._down is None else [*self._down]
        return sum(int(a.nbytes) for a in {id(a): a for a in [*self.metric, *arcs, *down]}.values())  # (both ways': once)

    @property
    def arcs(self) -> int:
        """Arcs of the hierarchy (board steps and shortcuts)."""
        return int(self.structure.up_head.shape[0])

    # -- edits ------------------------------------------------------------------------------
    def sync(self, costs: CostField) -> None:
        """Bring the metric to ``costs`` (a field of the same board) by a partial customization."""
        if costs is self.costs and not self._pending:  # (told cells: its own field was patched in place)
            return
        with self._lock:
            if costs is self.costs and not self._pending:
                return
            t0, costs = time.perf_counter(), check_board_field(self._own(costs), self.costs)  # (not: another board's)
            got = self._pending if costs is self._pending_for else [changed_ids(self.costs, costs), *self._pending]
            ids = got[0] if len(got) == 1 else np.unique(np.concatenate(got))  # (repeated ids: the same arcs)
            if ids.size:
                st, k, mt = self.structure, _k(), self._weighted()
                arcs, new, sym = k.step_changes(ids.astype(np.int64, copy=False), st.step_code, costs.cell, costs.edge,
                                                costs.topology.kernel_bundle, st.cell_of, st.tails, st.up_head)
                if mt.weight.dtype == np.float64:  # (the span with the new weights: still one column, ``_span``)
                    self._exact = _span(new, costs.cell[ids], int(st.parent.shape[0]), self._height, self._exact[1:])
                asym = mt.weight.shape[1] == 1 and not (sym and self._exact[1])
                new = new[:1] + new[1:] if mt.weight.shape[1] == 1 else new  # (both ways' sum)
                if wide := mt.weight.dtype == np.float32 and not _fits32(new, *self._exact[:2]):  # would round: widened
                    one = mt.weight.shape[1] == 1 and not asym  # (one column: the board's span, ``_span``; past it: again)
                    span = _span(_inputs(st, costs)[0], costs.cell, int(st.parent.shape[0]), self._height) if one else (0.0,) * 3
                    asym = asym or one and not span[1]
                    self.metric = mt = mt if asym else Metric(mt.inp.astype(np.float64), mt.weight.astype(np.float64), mt.middle)
                    self._exact, self._down, self._lean = span, None, None
                queued = per_thread("cch_queued", int(st.up_head.shape[0]), lambda n: _fresh((n, 1), np.uint8)[:, 0], keep=1)
                (wd, cnt), mt = (None, None) if asym else self._edits_ready(), self.metric  # (middles first made there)
                _, self._heap, _, top, whole = (0, self._heap, 0, 0.0, True) if asym else k.update(
                    arcs, new, st.up_first, st.up_head, st.down_first, st.down_arc, st.tails, _down_tails(st), mt.inp,
                    st.arc_slot, mt.weight, wd, mt.middle, cnt, self._heap, queued, self._lean and self._lean[:4])
                self._lean = self._lean if whole else None  # (not: an edit made an arc finite that they lacked)
                if asym or (mt.weight.dtype == np.float32 and self._exact[2] and top >= self._exact[2]):
                    self._customized(costs, wide)  # no longer symmetric, or a weight may have rounded (``wide``: float64)
                self._fast, self._slow_seconds = None, 0.0  # (the query arcs hold no more: ``_slow``)
            self.costs, self._pending_for, self._pending = costs, None, []  # (told cells read until now: a query waits)
            self.edit_seconds += time.perf_counter() - t0

    def holds(self, f: CostField) -> int:
        """How many of its references (its field, the one it was told of) hold ``f``; ``-1``: it may read ``f``'s array's old costs."""
        held = [c for c in (self.costs, self._pending_for) if c is not None and c.cell is f.cell]
        return -1 if any(c is not f for c in held) or self.costs is f and not self.metric.inp.shape[0] else len(held)

    def hint(self, old: CostField, new: CostField, ids: npt.NDArray[np.int64]) -> None:
        """``new`` is ``old`` with the cells of padded ids ``ids`` changed (``Map``'s edits say so): ``sync`` to
        ``new`` then reads those cells only instead of comparing the fields. The cells told are kept until a ``sync``:
        a field of another chain (one built again) is compared, and the told cells added (patched in place, its
        ``costs``' array no longer shows them)."""
        with self._lock:
            self._pending = [np.unique(np.concatenate([*self._pending, ids]))] if len(self._pending) >= 64 else [*self._pending, ids]
            self._pending_for = new if old is self.costs or old is self._pending_for else None

    # -- queries on padded ids (the dispatcher checked the cells and the trivial cases) ---------
    def _scratch(self) -> _Scratch:
        return per_thread("cch_states", int(self.structure.parent.shape[0]), _Scratch, keep=1).chains(self._height)

    def _arcs(self) -> QueryArcs:
        """The arcs ``query`` relaxes: the query arcs; after edits (and before queries have paid for the query
        arcs) the finite arcs once edits are prepared (``_edits_ready``, kept by ``update``), else every arc."""
        fast = self._fast or self._lean
        if fast is not None:
            return fast
        st, w, none = self.structure, self.metric.weight, np.empty(0, dtype=np.int32)
        heads, first = _depth_heads(st), _shared(st.up_first, "first", lambda: _narrow(st.up_first))  # (one compile)
        return QueryArcs((first, heads, w[:, 0]), (first, heads, w[:, -1]), none, none, True, 0.0, 1.0)

    def _slow(self, seconds: float, costs: CostField) -> None:
        """Count a query without query arcs on ``costs``; rebuild them once such queries since the last edit cost as
        much (a query an edit overtook counts nothing: the edit dropped what it would pay for)."""
        self._slow_seconds += seconds if costs is self.costs else 0.0
        if self._slow_seconds >= self._perfect_seconds:  # (checked again under the lock: an edit may have come)
            with self._lock:
                if self._fast is None and costs is self.costs and self._slow_seconds >= self._perfect_seconds:
                    self._query_arcs()

    def _query(self, costs: CostField, s: int, t: int, paths: bool) -> tuple[Any, QueryArcs]:
        """``(out, arcs)``: ``out`` the kernel ``path``'s (``paths``; the middles made first) or ``query``'s without
        the path's arcs, from padded id ``s`` to ``t``; timed while there are no query arcs (``_slow``)."""
        self.sync(costs)
        mt = self._middles() if paths else self.metric  # (first: a path reads every arc's weight, ``_weighted``)
        st, sc, arcs = self.structure, self._scratch(), self._arcs()
        ends = (padded_entry(st.rank_of, s, "s"), padded_entry(st.rank_of, t, "t"), arcs.fwd, arcs.bwd, self._tree,
                arcs.low, sc.cs, sc.ct, sc.df, sc.db)
        t0 = time.perf_counter()
        out = _k().query(*ends, None, None) if not paths else _k().path(
            *ends, sc.pf, sc.pb, arcs.fwd_arc, arcs.bwd_arc, st.up_first, st.up_head, st.tails, mt.middle, mt.inp,
            st.arc_slot, arcs.walk, st.cell_of, costs.topology.pw)
        if arcs is not self._fast:
            self._slow(time.perf_counter() - t0, costs)
        return out, arcs

    def _middles(self) -> Metric:
        """The metric, its middles made by the first path (or edit) that needs them."""
        mt = self.metric
        if mt.middle.shape[0] != self.arcs:
            with self._lock:
                self.metric = mt = _with_middles(self.structure, self._weighted(), self.costs)
        return mt

    def distance(self, costs: CostField, s: int, t: int) -> float:
        """The optimal cost from padded id ``s`` to ``t`` over ``costs`` (``inf``: unreachable)."""
        (cost, meet, _, _), arcs = self._query(costs, s, t, False)
        d = float(cost) * arcs.unit if meet >= 0 else math.inf
        if self.metric.weight.shape[1] == 1 and 0.0 < d < math.inf:  # symmetric: both ways' sums (``_inputs``)
            d = float((d + costs.cell[t] - costs.cell[s]) / 2)
        return d

    def path(self, costs: CostField, s: int, t: int, grid: Grid | None = None) -> Path | None:
        """The optimal path from padded id ``s`` to ``t`` over ``costs`` (``None``: unreachable); ``grid``: its."""
        if padded_entry(self.structure.rank_of, s, "s") == padded_entry(self.structure.rank_of, t, "t"):  # no arc to unpack
            pw = check_board_field(costs, self.costs).topology.pw
            return Path.of_xy(np.array([[s % pw - 1, s // pw - 1]], dtype=np.int64), 0.0, costs.unit, grid)
        (cost, xy, walked, zero), arcs = self._query(costs, s, t, True)
        if not xy.shape[0]:
            return None
        if zero:  # a step that weighs nothing, or less than a sum's rounding, can close a loop: its cells go
            xy = cut_loops(xy)
        if (one := self.metric.weight.shape[1] == 1) or zero:  # symmetric: both ways' sum and the ends' cells, where
            cs, ct, h = float(costs.cell[s]), float(costs.cell[t]), self._exact[0] / 2 * one  # those are whole half
            if h and (cs / h).is_integer() and (ct / h).is_integer():  # quanta (exact: the search's sum), else the walk
                return Path.of_xy(xy, float((cost * arcs.unit + ct - cs) / 2), costs.unit, grid)
            pw, arcs = costs.topology.pw, arcs._replace(walk=True)
            walked = _k().walk_cost((xy[:, 1] + 1) * pw + xy[:, 0] + 1, costs.cell, costs.edge, costs.topology.kernel_bundle)
        return Path.of_xy(xy, float(walked if arcs.walk else cost * arcs.unit), costs.unit, grid)

    def table(self, costs: CostField, src: np.ndarray, tgt: np.ndarray) -> npt.NDArray[np.float64]:
        """The ``(len(src), len(tgt))`` costs between padded ids."""
        self.sync(costs)
        st, sc, arcs = self.structure, self._scratch(), self._arcs()
        t0 = time.perf_counter()
        out: npt.NDArray[np.float64] = _k().table(padded_entries(st.rank_of, src, "src"), padded_entries(st.rank_of, tgt, "tgt"),
                                                  arcs.fwd, arcs.bwd, self._tree, sc.cs, sc.df)
        if arcs is not self._fast:
            self._slow(time.perf_counter() - t0, costs)
        out *= arcs.unit
        if self.metric.weight.shape[1] == 1:  # symmetric: both ways' sums (``_inputs``; > 0: the ends' costs finite)
            r, c = np.nonzero((out > 0.0) & (out < np.inf))
            out[r, c] = (out[r, c] + costs.cell[np.asarray(tgt, np.int64)[c]] - costs.cell[np.asarray(src, np.int64)[r]]) / 2
        return out


_SHARED: dict[tuple[int, str], tuple[weakref.ref[Any], npt.NDArray[Any]]] = {}


def _shared(of: npt.NDArray[Any], name: str, make: Callable[[], npt.NDArray[Any]]) -> npt.NDArray[Any]:
    """``make()``, made once for the structure's array ``of`` and shared by its classes while it lives."""
    key = (id(of), name)
    if key not in _SHARED or _SHARED[key][0]() is not of:
        _SHARED[key] = (weakref.ref(of, lambda _: _SHARED.pop(key, None)), make())
    return _SHARED[key][1]


def _down_tails(st: Structure) -> npt.NDArray[np.int32]:
    """``st.tails[st.down_arc]``, made at the first edit of one of the structure's classes."""
    return _shared(st.down_arc, "tails", lambda: st.tails[st.down_arc])


def _head_type(height: int) -> type[Any]:
    """The dtype of arcs' heads as depths in a tree ``height`` nodes deep: ``uint16`` (2 bytes an arc) where it fits."""
    return np.uint16 if height <= 1 << 16 else np.int32


def _depth_heads(st: Structure) -> npt.NDArray[Any]:
    """Every arc's head as its depth, for the queries over every arc (the query arcs' form: one compile a weight type)."""
    return _shared(st.up_head, "depths", lambda: _k().depths(st.parent)[st.up_head].astype(_head_type(_height(st))))


def _narrow(first: npt.NDArray[np.int64]) -> npt.NDArray[Any]:
    """Arc offsets ``first`` as ``int32`` where they fit (4 bytes a node less; every query's arcs take them so)."""
    return first.astype(np.int32) if first[-1] < 1 << 31 else first


def _climbs(st: Structure) -> tuple[npt.NDArray[np.int32], npt.NDArray[Any]]:
    """``(parent, top)``: ``top[v]`` the last of ``v``'s ancestors ``v, v + 1, ...`` each the parent of the one
    before (a query's climb reads one parent a run: 5-10 runs make a 1 500-node chain on 512²)."""
    ends = np.flatnonzero(st.parent != np.arange(1, st.parent.shape[0] + 1))
    return st.parent, ends[np.searchsorted(ends, np.arange(st.parent.shape[0]))]


def _height(st: Structure) -> int:
    """The elimination tree's height: the most nodes a chain holds."""
    return int(_k().depths(st.parent).max(initial=-1)) + 1


def customized(grid: Grid, costs: CostField, *, shared: Structure | None = None) -> CustomizedPaths:
    """A customized hierarchy of ``costs`` on ``grid``, on the board's ``shared`` structure when given.

    >>> from wargrid import HexGrid
    >>> g = HexGrid(6, 5)
    >>> c = np.ones((5, 6)); c[1:4, 3] = np.inf
    >>> cp = customized(g, CostField.from_arrays(g, c))
    >>> p = cp.path(cp.costs, g.topology.padded_id(0, 2), g.topology.padded_id(5, 2))
    >>> p.cost, p.cells[:3]
    (6.0, [(0, 2), (1, 1), (2, 1)])
    """
    costs = check_costs(grid, costs)
    t0 = time.perf_counter()
    st = structure(grid.topology) if shared is None else shared
    return CustomizedPaths(st, costs, time.perf_counter() - t0)
