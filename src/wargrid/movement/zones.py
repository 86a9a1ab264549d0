"""Connectivity zones: which cells a movement class can travel between.

Two neighbouring cells are linked when both are passable (finite cost), the
board's corner rule allows the step (diagonals on square-8 boards: the same
rule the movement kernels use) and the step is not walled off in both
directions (edge cost ``inf``; a one-way wall still links, so "not
connected" always means "unreachable"). A zone is a connected set of
linked cells. Labels are an int32 ``(height, width)`` array indexed
``[y, x]``; ``-1`` marks impassable and off-board cells. Zone ids are
arbitrary non-negative integers (not necessarily ``0..n-1`` after edits):
equal ids mean the same zone.

A fresh labelling unions runs (a row's stretches of passable cells) with the
runs they touch in the row above when there are no walls, and goes cell by
cell otherwise; both number zones in row-major order of their first cell.

``ZoneState`` keeps the labels of one movement class and updates them after
an edit by touching only the zones around the changed cells:

- links only gained (a cell becomes passable, a wall is removed): the zones
  the new links join are merged by re-labelling the smaller ones;
- links only lost (a cell becomes impassable, a wall is built): a
  breadth-first search runs in lockstep from the cells of each zone around
  the change and stops as soon as its fronts have all met (no split) or all
  but one are exhausted (those are the parts split off, and get new ids), so
  the work is bounded by the parts split off, not by the zone;
- both at once (one call that closes a crossing and opens another): the
  zones around the change are flooded again (bounded by their sizes);
- a full re-label only when the edit touches more than an eighth of the
  board. An elevation edit touches every cell, but climbing costs are
  finite, so it never changes zones: the labels are kept when the partition
  is unchanged.

>>> from wargrid import SquareGrid
>>> costs = np.array([[1, 1, np.inf, 1], [1, 1, np.inf, 1]])
>>> label_zones(SquareGrid(4, 2), costs).tolist()
[[0, 0, -1, 1], [0, 0, -1, 1]]
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

from ..errors import ArgumentError, ArgumentTypeError
from ..grids.boards import Grid, Topology
from ..costs import CostField

__all__ = ["label_zones", "ZoneState", "ZoneChange"]

_FULL_FRACTION = 8  # re-label the whole board when an edit touches more than 1/8 of it


def _check_costs(grid: Grid, costs: np.ndarray, edge_costs: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """``(cell, edge)`` for the labelling kernel: a plain boolean layer as it is, or padded costs."""
    if not isinstance(grid, Grid):
        raise ArgumentTypeError(f"grid must be a wargrid Grid (SquareGrid, HexGrid, StaggeredGrid), got {type(grid).__name__}")
    c = np.asarray(costs)
    if c.dtype == bool:
        if c.shape != grid.shape:
            raise ArgumentError(f"costs must have shape (height, width) = {grid.shape}, got {c.shape}")
        if edge_costs is None:
            # the labelling kernel reads a plain boolean layer directly
            c = c & grid.mask if not grid.mask.all() else c
            return np.ascontiguousarray(c).ravel(), np.zeros(0, dtype=np.float64)
        c = np.where(c, 1.0, np.inf)
    checked = CostField.from_arrays(grid, c, edge_costs, name="costs")
    return checked.cell, checked.edge


def _directions(t: Topology, has_edge: bool) -> np.ndarray:
    """Directions the labelling follows.

    With a corner rule and no walls a diagonal link adds nothing: the open
    corner cell beside it is linked to both ends, so only orthogonal steps
    are followed (square-8 'no-obstacle' and 'one-obstacle' zones are the
    square-4 zones unless walls cut the orthogonal steps).
    """
    if t.corner_rule != 0 and not has_edge:
        return np.flatnonzero(t.corner[:, 0] < 0).astype(np.int64)
    return np.arange(t.ndir, dtype=np.int64)


def _ring(t: Topology) -> tuple[bool, tuple[list[int], list[int]]]:
    """``(round, offsets)``: each parity's padded neighbour offsets as lists, and whether every two consecutive
    directions (the last and the first too) lead to neighbouring cells with no corner rule between them (hex boards,
    square-8 without a corner rule): then a cell's open neighbours in one unbroken run round it are linked."""
    offs = (t.offsets[0].tolist(), t.offsets[1].tolist())
    if t.corner_rule != 0:
        return False, offs
    mx, my = t.parity_masks
    for x, y in ((0, 0), (1, 0), (0, 1), (1, 1)):
        par = (x & mx) | (y & my)
        steps = list(zip(t.dx[par].tolist(), t.dy[par].tolist()))
        for (ax, ay), (bx, by) in zip(steps, steps[1:] + steps[:1]):
            qa = ((x + ax) & mx) | ((y + ay) & my)
            if (bx - ax, by - ay) not in zip(t.dx[qa].tolist(), t.dy[qa].tolist()):
                return False, offs
    return True, offs


_SCRATCH = threading.local()
_SCRATCH_MAX = 1 << 25  # keep scratch (8 bytes a cell per thread) between calls up to this many cells


def _scratch(name: str, n: int) -> np.ndarray:
    """An int32 buffer of ``n`` entries, kept per thread between calls on boards of one size.

    Reusing it spares the page faults of fresh memory on every labelling.
    """
    bufs = getattr(_SCRATCH, "bufs", None)
    if bufs is None:
        bufs = _SCRATCH.bufs = {}
    buf = bufs.get(name)
    if buf is None or buf.shape[0] != n:
        buf = np.empty(n, dtype=np.int32)
        if n <= _SCRATCH_MAX:
            bufs[name] = buf
    return buf


def _runs_above(t: Topology, dirs: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """``(ulo, uhi)``: the columns ``x + ulo[par] .. x + uhi[par]`` of the row above linked to column ``x``.

    ``None`` when the directions followed are not "west, east and a range of
    the rows above and below that contains the column itself", or a
    direction followed has a corner rule (then zones are labelled cell by
    cell).
    """
    if t.corner_rule != 0 and (t.corner[dirs, 0] >= 0).any():
        return None
    pw = t.pw
    ulo = np.zeros(2, dtype=np.int64)
    uhi = np.zeros(2, dtype=np.int64)
    for par in range(2):
        offs = {int(o) for o in t.offsets[par, dirs]}
        up = sorted(o + pw for o in offs if -pw - 1 <= o <= -pw + 1)
        down = [o - pw for o in offs if pw - 1 <= o <= pw + 1]
        if (
            not {-1, 1} <= offs
            or len(up) + len(down) + 2 != len(offs)
            or not up
            or up != list(range(up[0], up[-1] + 1))
            or not up[0] <= 0 <= up[-1]
        ):
            return None
        ulo[par], uhi[par] = up[0], up[-1]
    return ulo, uhi


RunLinks = tuple[np.ndarray, np.ndarray, int, int, int, int, int]
"""``(ulo, uhi, pmx, pmy, wrap, width, height)``: the ``runs`` argument of ``label_runs``."""

_ABOVE: dict[int, tuple[Topology, RunLinks | None]] = {}


def _runs_above_cached(t: Topology) -> RunLinks | None:
    """``_runs_above`` for the directions followed without edge costs, with the board's parity masks
    and size as ``label_runs`` takes them; kept per topology."""
    hit = _ABOVE.get(id(t))
    if hit is not None and hit[0] is t:
        return hit[1]
    if len(_ABOVE) >= 64:
        _ABOVE.clear()
    above = _runs_above(t, _directions(t, False))
    pmx, pmy = t.parity_masks
    runs = None if above is None else (above[0], above[1], pmx, pmy, t.wrap, t.width, t.height)
    _ABOVE[id(t)] = (t, runs)
    return runs


def _read_only(a: np.ndarray) -> np.ndarray:
    """``a`` itself when read-only, else a read-only view of it (numba compiles a writable array apart)."""
    if not a.flags.writeable:
        return a
    v = a.view()
    v.flags.writeable = False
    return v


def _label(
    t: Topology, cell: np.ndarray, edge: np.ndarray, dest: np.ndarray | None = None, *, runs: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """Padded labels and the cells per zone.

    With ``dest`` the final labels go there, unpadded; the padded ones are
    then scratch and no sizes are counted. Without edge costs zones are
    labelled run by run (``label_runs``) where the board allows it and
    ``runs`` is set; otherwise cell by cell (``label_board``).
    """
    lo: float
    hi: float
    if cell.dtype == bool:  # compared as bytes: 0 < v < 2
        cell, lo, hi = cell.view(np.uint8), 0, 2
    else:
        lo, hi = -1.0, np.inf
    cell, edge = _read_only(cell), _read_only(edge)  # one signature of each kernel: as a CostField's arrays
    if cell.shape[0] == t.padded_size:
        stride, off = t.pw, t.pw + 1
    else:  # a plain (height, width) layer, raveled
        stride, off = t.width, 0
    src = (cell, stride, off, lo, hi)
    links = _runs_above_cached(t) if runs and edge.shape[0] == 0 else None
    if links is not None:
        from .._kernels.movement.zones import label_runs

        n = t.height * ((t.width + 1) // 2) + 1
        if dest is None:
            out, ostride, ooff = np.empty(t.padded_size, dtype=np.int32), t.pw, t.pw + 1
        else:
            out, ostride, ooff = dest, t.width, 0
        scratch = (_scratch("rs", n), _scratch("re", n), _scratch("runs", n))
        _, sizes = label_runs(src, links, (out, ostride, ooff), dest is None, scratch)
        return out, sizes
    from .._kernels.movement.zones import label_board

    dirs = _directions(t, edge.shape[0] > 0)
    out = _scratch("out", t.padded_size) if dest is not None else np.empty(t.padded_size, dtype=np.int32)
    parent = _scratch("parent", t.width * t.height + 1)
    if dest is None:
        dest = np.zeros(0, dtype=np.int32)
    _, sizes = label_board(src, edge, t.kernel_bundle, t.height, dirs, out, dest, parent)
    return out, sizes[1:]


def label_zones(grid: Grid, costs: np.ndarray, *, edge_costs: np.ndarray | None = None) -> np.ndarray:
    """Label the cells of ``grid`` by connected zone.

    ``costs`` is a ``(height, width)`` array: booleans (``True`` passable) or
    entry costs (``inf`` impassable). ``edge_costs`` optionally holds extra
    step costs of shape ``(height, width, ndir)`` (``inf``: a wall). Returns int32
    labels ``0..n-1`` in row-major order of each zone's first cell, ``-1`` on
    impassable cells.

    >>> from wargrid import HexGrid
    >>> passable = np.array([[True, False, True], [True, False, True]])
    >>> label_zones(HexGrid(3, 2), passable).tolist()
    [[0, -1, 1], [0, -1, 1]]
    """
    cell, edge = _check_costs(grid, costs, edge_costs)
    t = grid.topology
    dest = np.empty(grid.size, dtype=np.int32)
    _label(t, cell, edge, dest)
    return dest.reshape(grid.shape)


@dataclass(frozen=True)
class ZoneChange:
    """How an edit changed the zones: the ids that were involved before and after.

    ``old`` are ids that existed before the edit and were touched (merged,
    split, shrunk or grown); ``new`` the ids that hold those cells now. An id
    in ``old`` and not in ``new`` no longer exists.
    """

    old: tuple[int, ...]
    new: tuple[int, ...]


class ZoneState:
    """Zone labels of one movement class, kept up to date edit by edit.

    ``cell`` and ``edge`` are the padded cost arrays of a ``CostField``.

    >>> from wargrid import SquareGrid
    >>> g = SquareGrid(3, 1)
    >>> t = g.topology
    >>> z = ZoneState(t, t.pad(np.ones((1, 3)), np.inf), np.zeros(0))
    >>> z.connected(t.padded_id(0, 0), t.padded_id(2, 0))
    True
    >>> z.update(t.pad(np.array([[1.0, np.inf, 1.0]]), np.inf), np.zeros(0), np.array([1]))
    ZoneChange(old=(0,), new=(0, 1))
    >>> z.labels().tolist()
    [[0, -1, 1]]
    >>> z.connected_pairs(np.array([t.padded_id(0, 0)] * 2), np.array([t.padded_id(0, 0), t.padded_id(2, 0)])).tolist()
    [True, False]
    """

    def __init__(self, topology: Topology, cell: np.ndarray, edge: np.ndarray) -> None:
        self.topology = topology
        self._cell = cell
        self._edge = edge
        self._stamp: np.ndarray | None = None
        self._gen = 0
        self._ring = _ring(topology)
        self._relabel_all()

    # -- reading -----------------------------------------------------------------
    def labels(self) -> np.ndarray:
        """The ``(height, width)`` int32 labels (a copy)."""
        return self.topology.unpad(self._labels)

    def reads(self, cell: np.ndarray) -> bool:
        """Whether the labelling reads the cost array ``cell`` (it holds it: updates read the cells around an edit)."""
        return self._cell is cell

    def label_at(self, padded: int) -> int:
        """Zone id of padded cell ``padded`` (``-1``: impassable)."""
        return int(self._labels[padded])

    def connected(self, pa: int, pb: int) -> bool:
        """Whether padded cells ``pa`` and ``pb`` lie in the same zone (O(1))."""
        la = self._labels[pa]
        return bool(la >= 0 and la == self._labels[pb])

    def connected_pairs(self, pa: np.ndarray, pb: np.ndarray) -> np.ndarray:
        """``connected`` of each pair of padded cells ``pa[i]``, ``pb[i]`` (equally long), as a bool array."""
        if np.shape(pa) != np.shape(pb):
            raise ArgumentError(f"connected_pairs takes two equally long arrays, got {np.shape(pa)} and {np.shape(pb)}")
        la = self._labels[pa]
        ok: np.ndarray = (la >= 0) & (la == self._labels[pb])
        return ok

    @property
    def count(self) -> int:
        """Number of zones."""
        return int(np.count_nonzero(self._sizes[: self._next]))

    def size(self, zone: int) -> int:
        """Number of cells of zone ``zone`` (0 for an id not in use)."""
        return int(self._sizes[zone]) if 0 <= zone < self._next else 0

    # -- building ------------------------------------------------------------------
    def _relabel_all(self) -> None:
        self._labels, sizes = _label(self.topology, self._cell, self._edge)
        self._next = int(sizes.shape[0])
        self._sizes = sizes if sizes.shape[0] else np.zeros(1, dtype=np.int64)

    def _new_ids(self, k: int) -> int:
        """Reserve ``k`` fresh ids; return the first."""
        first = self._next
        self._next += k
        if self._next > self._sizes.shape[0]:
            grown = np.zeros(max(2 * self._sizes.shape[0], self._next), dtype=np.int64)
            grown[: first] = self._sizes[: first]
            self._sizes = grown
        return first

    def _grow_ids(self, upto: int) -> None:
        """Ids ``< upto`` were handed out by a kernel: make room for their sizes."""
        if upto > self._next:
            self._new_ids(upto - self._next)

    # -- edits ---------------------------------------------------------------------
    def update(self, cell: np.ndarray, edge: np.ndarray, changed: np.ndarray, *, full: bool = False) -> ZoneChange | None:
        """Bring the labels up to date after the cells ``changed`` (cell ids) were edited.

        ``cell`` and ``edge`` are the new padded costs. Returns the change, or
        ``None`` when no cell changed zone. ``full`` re-labels the whole board.
        """
        t = self.topology
        old_edge = self._edge
        self._cell, self._edge = cell, edge
        one = changed.size == 1 if type(changed) is np.ndarray else np.size(changed) == 1  # (a map's: an array)
        if not full and one and _FULL_FRACTION <= t.width * t.height and (
            edge is old_edge or edge.size == old_edge.size == 0
        ):  # one cell, the walls as they were (a terrain edit): its own path, no board-sized or numpy-sized work
            return self._update_one(int(np.asarray(changed).flat[0]))
        ids = np.unique(np.asarray(changed, dtype=np.int64))
        if full or ids.size * _FULL_FRACTION > t.width * t.height:
            return self._update_full()
        if ids.size == 0:
            return None
        pc = t.padded_ids(ids)
        was = self._labels[pc] >= 0  # (the labels say which cells were passable: the old costs are not kept)
        now = cell[pc] < np.inf
        lost = bool((was & ~now).any()) or self._walls_added(pc, old_edge, edge)
        if lost:
            gained = bool((~was & now).any()) or self._walls_removed(pc, old_edge, edge)
            return self._update_flood(pc, now) if gained else self._update_split(pc, now)
        return self._update_merge(pc, was, now)

    def _walls_added(self, pc: np.ndarray, old_edge: np.ndarray, edge: np.ndarray) -> bool:
        if edge.size == 0:
            return False
        n = self.topology.ndir
        idx = (pc[:, None] * n + np.arange(n)).ravel()
        new_wall = ~(edge[idx] < np.inf)
        if old_edge.size == 0:
            return bool(new_wall.any())
        return bool((new_wall & (old_edge[idx] < np.inf)).any())

    def _walls_removed(self, pc: np.ndarray, old_edge: np.ndarray, edge: np.ndarray) -> bool:
        return self._walls_added(pc, edge, old_edge)

    def _next_stamps(self, k: int) -> int:
        """A base ``b`` such that stamps ``b .. b + k`` are unused so far."""
        if self._stamp is None or self._gen + k + 1 >= np.iinfo(np.int32).max:
            self._stamp = np.zeros(self.topology.padded_size, dtype=np.int32)
            self._gen = 0
        base = self._gen + 1
        self._gen = base + k
        return base

    def _update_split(self, pc: np.ndarray, now: np.ndarray) -> ZoneChange | None:
        """Only links were lost (cells closed, walls built): zones can only shrink or split."""
        lab = self._labels
        gone = pc[~now]
        gone_labels = lab[gone].astype(np.int64)
        lab[gone] = -1
        old: set[int] = set()
        new: set[int] = set()
        for z in gone_labels[gone_labels >= 0].tolist():
            self._sizes[z] -= 1
            old.add(z)
            if self._sizes[z] > 0:
                new.add(z)
        around = self._around(pc)
        around = around[(lab[around] >= 0) & (self._cell[around] < np.inf)]
        zs = lab[around]
        for z in np.unique(zs).tolist():
            self._split(z, around[zs == z], old, new)
        if not old:
            return None
        return ZoneChange(tuple(sorted(old)), tuple(sorted(new)))

    def _split(self, z: int, seeds: np.ndarray, old: set[int], new: set[int]) -> None:
        """Zone ``z`` lost links around passable cells ``seeds`` (padded ids labelled ``z``): its parts that split
        off get new ids (``split_zone``); ``old`` and ``new`` gain the ids involved."""
        from .._kernels.movement.zones import split_zone

        if seeds.size < 2:
            return  # one cell of the zone touches the change: it cannot have split
        base = self._next_stamps(seeds.size)
        comp_ids = np.empty(seeds.size, dtype=np.int64)
        comp_sizes = np.empty(seeds.size, dtype=np.int64)
        ncomp, nxt = split_zone(self._cell, self._edge, self.topology.kernel_bundle, self._labels, self._stamp, base,
                                seeds, z, self._next, (comp_ids, comp_sizes))
        if ncomp == 0:
            return
        self._grow_ids(int(nxt))
        for cid, size in zip(comp_ids[:ncomp].tolist(), comp_sizes[:ncomp].tolist()):
            self._sizes[cid] = size
            self._sizes[z] -= size
            new.add(cid)
        old.add(z)
        new.add(z)

    def _update_one(self, i: int) -> ZoneChange | None:
        """``update`` of the one cell id ``i`` whose walls did not change: nothing when it stays passable or
        impassable (no link changed); opened, the merge; closed, its open neighbours, and the zones only where
        they may have come apart. Without walls or a corner rule, on a board whose directions go round a cell
        (hex; square-8 without a corner rule), open neighbours in one unbroken run round the closed cell stay
        linked through each other: the zone loses the cell and no search runs."""
        t, lab = self.topology, self._labels
        x, y = i % t.width, i // t.width
        p = (y + 1) * t.pw + x + 1
        was, now = bool(lab[p] >= 0), bool(self._cell[p] < np.inf)
        if was == now:
            return None
        pc = np.array([p], dtype=np.int64)
        if now:
            return self._update_merge(pc, np.zeros(1, dtype=np.bool_), np.ones(1, dtype=np.bool_))
        z = int(lab[p])
        lab[p] = -1
        self._sizes[z] -= 1
        old, new = {z}, {z} if self._sizes[z] > 0 else set()
        if t.wrap:
            ring = t.neighbors(pc)[0].tolist()
        else:
            mx, my = t.parity_masks
            ring = [p + o for o in self._ring[1][(x & mx) | (y & my)]]
        c = self._cell
        open_ = [bool(lab[q] >= 0 and c[q] < np.inf) for q in ring]
        if self._ring[0] and self._edge.size == 0 and sum(a and not b for a, b in zip(open_, open_[-1:] + open_[:-1])) <= 1:
            return ZoneChange((z,), tuple(new))  # one run of open neighbours (or none): no split
        by_zone: dict[int, list[int]] = {}
        for q, o in zip(ring, open_):
            if o and q not in by_zone.get(int(lab[q]), ()):
                by_zone.setdefault(int(lab[q]), []).append(q)
        for zz in sorted(by_zone):
            self._split(zz, np.array(sorted(by_zone[zz]), dtype=np.int64), old, new)  # (in id order, as ``_update_split``)
        return ZoneChange(tuple(sorted(old)), tuple(sorted(new)))

    def _around(self, pc: np.ndarray) -> np.ndarray:
        """``pc`` and all their neighbours (padded ids, unique)."""
        return np.unique(np.concatenate([pc, self.topology.neighbors(pc).ravel()]))

    def _update_flood(self, pc: np.ndarray, now: np.ndarray) -> ZoneChange | None:
        from .._kernels.movement.zones import reflood

        tb = self.topology.kernel_bundle
        lab = self._labels
        around = self._around(pc)
        old_ids = np.unique(lab[around])
        old_ids = old_ids[old_ids >= 0].astype(np.int64)
        before = {int(i): int(self._sizes[i]) for i in old_ids}
        gone = pc[~now]
        lab[gone] = -1
        seeds = around[self._cell[around] < np.inf]
        gen = self._next_stamps(0)
        comp_ids = np.empty(seeds.size, dtype=np.int64)
        comp_sizes = np.empty(seeds.size, dtype=np.int64)
        ncomp, nxt = reflood(
            self._cell, self._edge, tb, lab, self._stamp, gen, seeds, old_ids, self._next,
            (comp_ids, comp_sizes),
        )
        self._grow_ids(int(nxt))
        for i in old_ids:
            self._sizes[i] = 0
        after = {}
        for cid, size in zip(comp_ids[:ncomp].tolist(), comp_sizes[:ncomp].tolist()):
            self._sizes[cid] = size
            after[cid] = size
        if before == after and gone.size == 0:
            return None
        return ZoneChange(tuple(sorted(before)), tuple(sorted(after)))

    def _update_merge(self, pc: np.ndarray, was: np.ndarray, now: np.ndarray) -> ZoneChange | None:
        from .._kernels.movement.zones import link_pairs, relabel

        tb = self.topology.kernel_bundle
        lab = self._labels
        born = pc[~was & now]
        fresh: list[int] = []
        if born.size:
            first = self._new_ids(born.size)
            lab[born] = np.arange(first, first + born.size, dtype=np.int32)
            self._sizes[first : first + born.size] = 1
            fresh = list(range(first, first + born.size))
        pairs = link_pairs(self._cell, self._edge, tb, lab, self._around(pc))
        if pairs.shape[0] == 0:
            return ZoneChange((), tuple(fresh)) if fresh else None
        # union the labels that the new links join, then re-label the smaller zones
        parent: dict[int, int] = {}
        cell_of: dict[int, int] = {}

        def find(a: int) -> int:
            while parent.setdefault(a, a) != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            return a

        for p, q in pairs.tolist():
            a, b = int(lab[p]), int(lab[q])
            cell_of.setdefault(a, p)
            cell_of.setdefault(b, q)
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)
        groups: dict[int, list[int]] = {}
        for a in cell_of:
            groups.setdefault(find(a), []).append(a)
        merged_old: set[int] = set()
        new_ids = set(fresh)
        for members in groups.values():
            target = max(members, key=lambda z: (int(self._sizes[z]), -z))
            for z in members:
                if z != target:
                    relabel(self._cell, self._edge, tb, lab, cell_of[z], z, target)
                    self._sizes[target] += self._sizes[z]
                    self._sizes[z] = 0
                    new_ids.discard(z)
            new_ids.add(target)
            merged_old.update(z for z in members if z not in fresh)
        return ZoneChange(tuple(sorted(merged_old)), tuple(sorted(new_ids)))

    def _update_full(self) -> ZoneChange | None:
        old = self._labels
        old_ids = np.flatnonzero(self._sizes[: self._next])
        new, sizes = _label(self.topology, self._cell, self._edge)
        n = sizes.shape[0]
        if np.array_equal(old < 0, new < 0):
            both = old >= 0
            pairs = np.unique(old[both].astype(np.int64) * (n + 1) + new[both])
            if pairs.size == n == old_ids.size:
                return None  # same partition: keep the ids
        self._labels = new
        self._sizes = sizes if n else np.zeros(1, dtype=np.int64)
        self._next = n
        return ZoneChange(tuple(old_ids.tolist()), tuple(range(n)))
