"""Everything a ``Map`` derives from its layers, in one owner with one invalidation path.

``Derived`` holds, per map:

- the cost field of every movement class asked for (``CostField``), and of
  every class and wall rule (``terrain.WALL_RULES``: what the unit does at a
  wall) the zones were asked for; terrain and overlay edits patch a field
  when it is next asked for,
- the connectivity zones of every class and wall rule asked for
  (``ZoneState``; the classic engine's zone sets: normal, crusher,
  destroyer), kept up to date by local updates after each edit,
- the sight boards (with and without elevation) and the sight-blocking layer,
- ``extra``: any other structure a capability prepares from the cost fields
  (keyed by the caller; dropped on every edit),
- the board's customizable hierarchy (``wargrid.movement.cch.Structure``,
  built by the first ``Map.prepare``) and each prepared class's
  customization of it (``CustomizedPaths``). They are **kept** across
  edits: terrain and overlay edits tell each class which cells changed, and
  the class customizes them in before its next query, so it stays exact.

``Map`` calls ``Derived.after_edit`` once per edit, under the map's lock; it
is the only place that decides what survives an edit. Nothing here is
pickled: a map that is unpickled or copied starts with an empty ``Derived``
and rebuilds what it is asked for.
"""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass
from typing import Callable, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from .._progress import Progress
from ..costs import CostField
from ..grids.boards import Grid
from ..movement.cch import Structure
from ..movement.prepared import Prepared, prepare as _prepare
from ..movement.zones import ZoneChange, ZoneState
from ..sight.board import SightBoard, prepare

__all__ = ["Derived", "DerivedOwner", "ZoneEvent", "LockedZones", "xy_ids", "FEW_CELLS"]

T = TypeVar("T")
IntArray = npt.NDArray[np.int64]

def _one_frame() -> int:
    o = object()
    return sys.getrefcount(o)


class _Calls:
    """The call shape of ``Derived.cost_field`` -> ``_catch_up``: a method holding ``f`` in a local passes it to
    another that counts it (on Python 3.10 the caller's stack holds the arguments too, from 3.11 it does not)."""

    def outer(self) -> int:
        f = object()
        return self.inner(None, f)

    def inner(self, key: None, f: object) -> int:
        return sys.getrefcount(f)


_ONE_FRAME = _one_frame()
"""What ``sys.getrefcount`` counts for an object held by one local only (the call's own argument included, where
the interpreter counts it)."""
_TWO_FRAMES = _Calls().outer()
"""The same for an object a caller holds in a local and passes to the method that counts (``Derived._catch_up``)."""
_COUNTS = sys.implementation.name == "cpython" and getattr(sys, "_is_gil_enabled", lambda: True)()
"""Whether reference counts can tell that only the map holds a field (CPython with its global lock; elsewhere
every patched field is a copy)."""

FEW_CELLS = 16
"""An edit of at most this many cells is read with Python scalars (``xy_ids``, ``MapCore._entry_costs``): numpy's
calls on arrays of one to a few entries cost more (about 1.2 µs a call)."""


def xy_ids(xs: IntArray, ys: IntArray, width: int, pad: int = 0) -> IntArray:
    """``(ys + pad) * width + xs + pad``: the ids of cells ``(xs, ys)`` on a board ``width`` wide (``pad`` 1 and the
    padded width: padded ids), in Python for a few cells (``FEW_CELLS``). (``Topology.cell_ids`` goes the other way, padded
    ids to cell ids; ``Topology.padded_ids`` from cell ids.)

    >>> xy_ids(np.array([2, 0]), np.array([1, 3]), 7, 1).tolist()
    [17, 29]
    """
    if xs.shape[0] <= FEW_CELLS:
        return np.array([(y + pad) * width + x + pad for x, y in zip(xs.tolist(), ys.tolist())], dtype=np.int64)
    return (ys + pad) * width + xs + pad


BEHIND_SHARE = 8
"""A kept cost field whose unpatched edits would cover more than ``1 / BEHIND_SHARE`` of the board is dropped
instead (built whole from the layers when next asked)."""


@dataclass(frozen=True)
class ZoneEvent:
    """The zones of movement class ``unit`` under wall rule ``walls`` changed: ``old`` zone ids became ``new`` ones."""

    unit: str
    change: ZoneChange
    walls: str = "stop"


class LockedZones:
    """The zones of one class, read under the map's lock (an edit updates zones in place under it)."""

    __slots__ = ("zones", "lock")

    def __init__(self, zones: ZoneState, lock: threading.RLock) -> None:
        self.zones = zones
        self.lock = lock

    def connected(self, pa: int, pb: int) -> bool:
        """Whether padded cells ``pa`` and ``pb`` are in one zone (see ``ZoneState.connected``)."""
        with self.lock:
            return self.zones.connected(pa, pb)

    def connected_pairs(self, pa: np.ndarray, pb: np.ndarray) -> np.ndarray:
        """``connected`` of each pair ``pa[i]``, ``pb[i]``, as a bool array (``ZoneState.connected_pairs``)."""
        with self.lock:
            return self.zones.connected_pairs(pa, pb)


class DerivedOwner(Protocol):
    """What ``Derived`` needs of the map that owns it (``MapCore`` provides it)."""

    @property
    def grid(self) -> Grid: ...

    @property
    def elevation(self) -> npt.NDArray[np.float64] | None: ...

    def _build_cost_field(self, unit: str, walls: str = "stop") -> CostField: ...

    def _patch_cost_field(
        self, f: CostField, xs: npt.NDArray[np.int64], ys: npt.NDArray[np.int64], walls: str = "stop",
        in_place: bool = False, ids: npt.NDArray[np.int64] | None = None,
    ) -> CostField: ...

    def _build_blocks_sight(self) -> npt.NDArray[np.bool_]: ...


class Derived:
    """The derived state of one map (see the module notes); built lazily, dropped or patched on edits."""

    def __init__(self, owner: DerivedOwner) -> None:
        self._owner = owner
        self.lock = threading.RLock()
        self._costs: dict[tuple[str, str], CostField] = {}  # by (class, wall rule)
        # the cells (how many, their xs and ys) of the terrain and overlay edits a kept field was not patched for
        # yet: cost_field patches it when next asked, so an edit copies only the fields read after it
        self._behind: dict[tuple[str, str], tuple[int, list[tuple[IntArray, IntArray]]]] = {}
        self._zones: dict[tuple[str, str], ZoneState] = {}
        self._sight: dict[bool, SightBoard] = {}
        self._blocks: npt.NDArray[np.bool_] | None = None
        self._extra: dict[object, object] = {}
        self._prepared: dict[str, Prepared] = {}
        self._structure: Structure | None = None

    # -- cost fields ----------------------------------------------------------------------
    def cost_field(self, unit: str, walls: str = "stop") -> CostField:
        """The cost field of movement class ``unit`` (a class name already checked) under wall rule ``walls``."""
        key = (unit, walls)
        f = None if key in self._behind else self._costs.get(key)
        if f is None:
            with self.lock:
                f = self._costs.get(key)
                if f is None:
                    f = self._costs[key] = self._owner._build_cost_field(unit, walls)
                elif key in self._behind:
                    f = self._catch_up(key, f)
        return f

    def _catch_up(self, key: tuple[str, str], f: CostField) -> CostField:
        """Field ``f`` of ``key`` patched for the terrain and overlay edits since it was made (under the lock); in
        place when only this owner holds it (``_alone``). ``cost_field`` is the one caller (it holds ``f`` in a local
        while this runs: ``_alone`` counts on that)."""
        _, cells = self._behind.pop(key)
        # out of the cache before it is counted: a reader without the lock from here on finds no field and waits
        # for the lock (one that took ``f`` before holds a reference, counted below)
        del self._costs[key]
        xs = cells[0][0] if len(cells) == 1 else np.concatenate([c[0] for c in cells])
        ys = cells[0][1] if len(cells) == 1 else np.concatenate([c[1] for c in cells])
        pp = self._prepared.get(key[0]) if key[1] == "stop" else None  # (the field Map.prepare customizes)
        refs = sys.getrefcount(f) - _TWO_FRAMES  # (a statement of its own: nothing else on the stack holds ``f``)
        ids = xy_ids(xs, ys, self._owner.grid.topology.pw, 1)
        new = self._owner._patch_cost_field(f, xs, ys, key[1], in_place=_COUNTS and self._alone(f, pp, refs), ids=ids)
        self._costs[key] = new
        if pp is not None:
            pp.hint(f, new, ids)  # the cells it reads again
        return new

    def _alone(self, f: CostField, pp: Prepared | None, refs: int) -> bool:
        """Whether field ``f`` (``refs`` references besides ``cost_field``'s and ``_catch_up``'s; out of the cache
        while it is patched) and its cell array are held by nothing but this owner: its zones (they read the array),
        the prepared class's own references (``pp.holds``: the field it last customized or was told of, once it needs
        no more of the old costs) - so patching the array in place changes nothing anyone else reads."""
        theirs = 0 if pp is None else pp.holds(f)
        if theirs < 0 or refs != theirs:
            return False
        cell = f.cell
        zones = sum(z.reads(cell) for z in self._zones.values())
        return sys.getrefcount(cell) - _ONE_FRAME == 1 + zones

    # -- zones -----------------------------------------------------------------------------
    def zones(self, unit: str, walls: str = "stop") -> ZoneState:
        """The connectivity zones of class ``unit`` under wall rule ``walls``, labelled on first use
        and updated by every edit after."""
        key = (unit, walls)
        z = self._zones.get(key)
        if z is None:
            with self.lock:
                z = self._zones.get(key)
                if z is None:
                    f = self.cost_field(unit, walls)
                    z = self._zones[key] = ZoneState(f.topology, f.cell, f.edge)
        return z

    def locked_zones(self, unit: str, walls: str = "stop") -> LockedZones:
        """The zones of ``unit`` for a query that may run while another thread edits the map."""
        return LockedZones(self.zones(unit, walls), self.lock)

    def zones_if_built(self, unit: str, walls: str = "stop") -> ZoneState | None:
        """The zones of ``unit`` when something already asked for them, else ``None`` (no labelling)."""
        return self._zones.get((unit, walls))

    def zone_keys(self) -> list[tuple[str, str]]:
        """``(class, wall rule)`` of every zone labelling kept up to date, in the order they were first asked for."""
        return list(self._zones)

    # -- sight ----------------------------------------------------------------------------
    def blocks_sight(self) -> npt.NDArray[np.bool_]:
        """The read-only ``(height, width)`` sight-blocking layer."""
        b = self._blocks
        if b is None:
            with self.lock:
                b = self._blocks = self._owner._build_blocks_sight()
        return b

    def sight_board(self, elevation: bool) -> SightBoard:
        """The prepared sight board (``elevation``: with the elevation layer, when the map has one)."""
        use = elevation and self._owner.elevation is not None
        board = self._sight.get(use)
        if board is None:
            with self.lock:
                board = self._sight.get(use)
                if board is None:
                    board = self._sight[use] = prepare(
                        self._owner.grid, self.blocks_sight(), self._owner.elevation if use else None
                    )
        return board

    # -- prepared path structures ---------------------------------------------------------------
    def prepare(self, unit: str, progress: Progress = True) -> Prepared:
        """Customize (again) the board's hierarchy for class ``unit``'s current cost field; the board's structure
        is built by the first call and shared by every class."""
        with self.lock:
            pp = _prepare(self._owner.grid, self.cost_field(unit), progress=progress, shared=self._structure)
            self._structure = pp.structure
            self._prepared[unit] = pp
        return pp

    def prepared(self, unit: str) -> Prepared | None:
        """The prepared structure of ``unit`` (``None``: never prepared)."""
        return self._prepared.get(unit)

    # -- other prepared structures ----------------------------------------------------------
    def extra(self, key: object, build: Callable[[], T]) -> T:
        """A structure a capability prepares (``build()``), kept until the next edit."""
        got = self._extra.get(key)
        if got is None:
            with self.lock:
                got = self._extra.get(key)
                if got is None:
                    got = self._extra[key] = build()
        return got  # type: ignore[return-value]  # stored by this key with this type

    # -- the one invalidation path ------------------------------------------------------------
    def reset(self) -> None:
        """Drop everything (the terrain table changed: every class's costs may differ, classes may be gone)."""
        with self.lock:
            self._costs.clear()
            self._behind.clear()
            self._zones.clear()
            self._sight.clear()
            self._blocks = None
            self._extra.clear()
            self._prepared.clear()

    def after_edit(self, kind: str, xs: npt.NDArray[np.int64], ys: npt.NDArray[np.int64]) -> list[ZoneEvent]:
        """Bring everything up to date after an edit of kind ``kind`` on cells ``(xs, ys)``.

        A new playable rectangle drops everything (the board changed).
        Terrain and overlay edits leave the cached cost fields to be patched
        when next asked for (only the edited cells' entry costs change; a field
        no one reads after the edit is not copied); elevation and edge edits
        rebuild them.
        Zones are updated locally; prepared path structures are kept (each
        customizes the changed cells in at its next query); sight and other prepared
        structures are dropped. Returns the zone changes, for the map to announce.
        """
        owner = self._owner
        if kind == "playable_changed":  # a new board: nothing derived from the old one holds
            self._costs.clear()
            self._behind.clear()
            self._zones.clear()
            self._prepared.clear()
            self._structure = None
            self._sight.clear()
            self._blocks = None
            self._extra.clear()
            return []
        if kind in ("terrain_changed", "overlay_changed"):
            most = owner.grid.width * owner.grid.height // BEHIND_SHARE
            for key in list(self._costs):
                n, cells = self._behind.get(key, (0, []))
                if n + xs.shape[0] > most:  # cheaper built again from the layers when next asked
                    self._behind.pop(key, None)
                    del self._costs[key]
                else:
                    cells.append((xs, ys))
                    self._behind[key] = (n + xs.shape[0], cells)
        else:
            self._costs.clear()
            self._behind.clear()
        self._sight.clear()
        self._blocks = None
        self._extra.clear()
        events: list[ZoneEvent] = []
        if self._zones:
            ids = xy_ids(xs, ys, owner.grid.width)
            for (unit, walls), z in self._zones.items():
                f = self.cost_field(unit, walls)
                change = z.update(f.cell, f.edge, ids, full=kind == "elevation_changed")
                if change is not None:
                    events.append(ZoneEvent(unit, change, walls))
        return events
