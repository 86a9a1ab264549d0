"""``Map``: a board plus layers, edits with events, and cached per-class cost arrays.

Layers are numpy arrays of shape ``(height, width)`` indexed ``[y, x]``:

- ``terrain``: terrain ids into the map's ``TerrainTable``;
- ``overlay``: ``-1`` or a terrain id (a road, a bridge) whose movement cost
  replaces the ground's while the ground stays what it is;
- ``elevation`` (optional): heights; with ``climb_cost`` > 0 a step uphill
  costs ``climb_cost * rise`` more;
- edge costs: an extra cost (``inf`` = a wall) for crossing between two
  neighbouring cells, such as a river.

The query methods (paths, ranges, sight, territory, ...) are thin: they hand
a capability module the grid and the arrays it needs.

>>> from wargrid import HexGrid, Map
>>> m = Map(HexGrid(6, 4))
>>> m.set_terrain([(2, 1), (3, 1)], "forest")
>>> m.terrain_name((2, 1)), float(m.costs("cavalry")[1, 2])
('forest', 4.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from ._validate import check_cell_pair, check_real
from ._queries import MovementQueries, RtsQueries, SightQueries, TacticsQueries, TerritoryQueries, ZoneQueries
from .grids.boards import Grid
from .terrain import TerrainTable

__all__ = ["Map", "MapEvent", "CostData", "EVENTS", "CallbackError"]

EVENTS = (
    "terrain_changed",
    "overlay_changed",
    "elevation_changed",
    "edge_changed",
    "zones_changed",
)
"""Events a ``Map`` fires; subscribe with ``Map.on(event, callback)``."""


@dataclass(frozen=True)
class MapEvent:
    """What changed: the event name, the cells touched and event-specific data."""

    kind: str
    cells: tuple[tuple[int, int], ...]
    data: dict = field(default_factory=dict)


class CallbackError(RuntimeError):
    """Raised after an edit when one or more event callbacks raised.

    The edit itself is complete and the map is consistent; ``errors`` holds
    the exceptions the callbacks raised.
    """

    def __init__(self, event: str, errors: list[BaseException]) -> None:
        super().__init__(f"{len(errors)} callback(s) for {event!r} raised; first: {errors[0]!r}")
        self.errors = errors


@dataclass(frozen=True, eq=False)
class CostData:
    """What the movement kernels need for one movement class (padded, flat, read-only).

    ``cell[p]`` is the cost of entering padded cell ``p`` (``inf``: impassable,
    off the board, or padding). ``edge[p * ndir + d]`` is the extra cost of the
    step from ``p`` in direction ``d`` (empty when the map has no edge costs).
    ``min_cost`` is the smallest finite entry cost plus nothing: it scales the
    A* heuristic so that it stays admissible.
    """

    unit: str
    cell: np.ndarray
    edge: np.ndarray
    min_cost: float
    uniform: bool


class Map(MovementQueries, ZoneQueries, SightQueries, TerritoryQueries, RtsQueries, TacticsQueries):
    """A board with terrain, overlay, elevation and edge-cost layers.

    ``terrain`` is an integer ``(height, width)`` array of terrain ids (or
    ``None``: every cell the table's first terrain); ``terrains`` the table
    (``None``: ``TerrainTable.default()``).
    """

    def __init__(
        self,
        grid: Grid,
        *,
        terrain: np.ndarray | None = None,
        terrains: TerrainTable | None = None,
        overlay: np.ndarray | None = None,
        elevation: np.ndarray | None = None,
        climb_cost: float = 0.0,
    ) -> None:
        if not isinstance(grid, Grid):
            raise TypeError(f"grid must be a wargrid Grid (SquareGrid, HexGrid, StaggeredGrid), got {type(grid).__name__}")
        if terrains is None:
            terrains = TerrainTable.default()
        if not isinstance(terrains, TerrainTable):
            raise TypeError(f"terrains must be a TerrainTable or None, got {type(terrains).__name__}")
        self.grid = grid
        self.terrains = terrains
        self.terrain = self._check_id_layer(terrain, "terrain", allow_none=False)
        self.overlay = self._check_id_layer(overlay, "overlay", allow_none=True)
        self.elevation = None if elevation is None else self._check_float_layer(elevation, "elevation")
        self.climb_cost = check_real(climb_cost, "climb_cost", minimum=0.0)
        self.edges: np.ndarray | None = None  # (height, width, ndir) extra costs
        self._callbacks: dict[str, list[Callable[[MapEvent], Any]]] = {e: [] for e in EVENTS}
        self._internal: list[Callable[[str, np.ndarray], None]] = []
        self._costs: dict[str, CostData] = {}
        self._cache: dict[str, Any] = {}
        self.version = 0

    # -- layer checks -------------------------------------------------------------
    def _check_id_layer(self, layer: Any, name: str, *, allow_none: bool) -> np.ndarray:
        shape = self.grid.shape
        if layer is None:
            return np.full(shape, -1 if allow_none else 0, dtype=np.int16)
        a = np.asarray(layer)
        if a.shape != shape:
            raise ValueError(f"{name} must have shape (height, width) = {shape}, got {a.shape}")
        if a.dtype.kind not in "iu":
            raise TypeError(f"{name} must be an integer array of terrain ids, got dtype {a.dtype}")
        lo = -1 if allow_none else 0
        if a.size and (a.min() < lo or a.max() >= len(self.terrains)):
            bad = a[(a < lo) | (a >= len(self.terrains))].ravel()[0]
            raise ValueError(f"{name} holds terrain id {int(bad)}; allowed: {lo}..{len(self.terrains) - 1}")
        return a.astype(np.int16)

    def _check_float_layer(self, layer: Any, name: str) -> np.ndarray:
        a = np.asarray(layer, dtype=np.float64)
        if a.shape != self.grid.shape:
            raise ValueError(f"{name} must have shape (height, width) = {self.grid.shape}, got {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} must be finite (no NaN or inf)")
        return a.copy()

    # -- reading ----------------------------------------------------------------------
    @property
    def width(self) -> int:
        return self.grid.width

    @property
    def height(self) -> int:
        return self.grid.height

    @property
    def shape(self) -> tuple[int, int]:
        return self.grid.shape

    def terrain_name(self, cell: tuple[int, int]) -> str:
        """Name of the ground terrain at ``cell`` (an ``(x, y)`` pair).

        >>> from wargrid import SquareGrid
        >>> m = Map(SquareGrid(6, 4)); m.set_terrain([(2, 1)], "water"); m.terrain_name((2, 1))
        'water'
        """
        x, y = self.grid.check_cell(cell)
        return self.terrains.names[int(self.terrain[y, x])]

    def overlay_name(self, cell: tuple[int, int]) -> str | None:
        """Name of the overlay at ``cell`` (an ``(x, y)`` pair), or ``None``.

        >>> from wargrid import SquareGrid
        >>> m = Map(SquareGrid(6, 4)); m.set_overlay([(4, 2)], "road")
        >>> m.overlay_name((4, 2)), m.overlay_name((0, 0))
        ('road', None)
        """
        x, y = self.grid.check_cell(cell)
        o = int(self.overlay[y, x])
        return None if o < 0 else self.terrains.names[o]

    def count(self, name: str) -> int:
        """Number of valid cells whose ground or overlay is terrain ``name``.

        >>> from wargrid import SquareGrid
        >>> m = Map(SquareGrid(3, 3)); m.set_overlay([(1, 1)], "bridge"); m.count("bridge")
        1
        """
        i = self.terrains.index(name)
        hit = ((self.terrain == i) | (self.overlay == i)) & self.grid.mask
        return int(hit.sum())

    def unit_class(self, unit: str | None) -> str:
        """The movement class named ``unit`` (``None``: the table's first class).

        >>> from wargrid import SquareGrid
        >>> Map(SquareGrid(6, 4)).unit_class(None)
        'foot'
        """
        return self.terrains.classes[self.terrains.class_index(unit)]

    def costs(self, unit: str | None = None) -> np.ndarray:
        """``(height, width)`` cost of entering each cell for ``unit`` (``inf``: impassable or off the board).

        The array is indexed ``[y, x]``.

        >>> from wargrid import SquareGrid
        >>> m = Map(SquareGrid(6, 4)); m.set_terrain([(2, 1)], "water")
        >>> m.costs("cavalry")[1].tolist()
        [1.0, 1.0, inf, 1.0, 1.0, 1.0]
        """
        return self.cost_data(unit).cell.reshape(self.grid.topology.ph, self.grid.topology.pw)[1:-1, 1:-1].copy()

    def passable(self, unit: str | None = None) -> np.ndarray:
        """``(height, width)`` booleans, indexed ``[y, x]``: cells ``unit`` can stand on.

        >>> from wargrid import SquareGrid
        >>> m = Map(SquareGrid(6, 4)); m.set_terrain([(2, 1)], "water")
        >>> m.passable("foot")[1].tolist()
        [True, True, False, True, True, True]
        """
        return np.isfinite(self.costs(unit))

    def blocks_sight(self) -> np.ndarray:
        """``(height, width)`` booleans, indexed ``[y, x]``: cells whose ground or overlay blocks sight.

        >>> from wargrid import SquareGrid
        >>> m = Map(SquareGrid(6, 4)); m.set_terrain([(3, 1)], "forest")
        >>> m.blocks_sight()[1].tolist()
        [False, False, False, True, False, False]
        """
        if "blocks_sight" not in self._cache:
            b = self.terrains.blocks_sight()
            out = b[self.terrain]
            has = self.overlay >= 0
            out = out | (has & b[np.where(has, self.overlay, 0)])
            out.setflags(write=False)
            self._cache["blocks_sight"] = out
        return self._cache["blocks_sight"]

    def cost_data(self, unit: str | None = None) -> CostData:
        """The cached padded cost arrays of ``unit`` for the kernels (rebuilt after edits).

        >>> from wargrid import SquareGrid
        >>> cd = Map(SquareGrid(6, 4)).cost_data("foot")
        >>> cd.unit, cd.cell.shape
        ('foot', (48,))
        """
        name = self.unit_class(unit)
        cd = self._costs.get(name)
        if cd is None:
            cd = self._build_costs(name)
            self._costs[name] = cd
        return cd

    def _build_costs(self, unit: str) -> CostData:
        topo = self.grid.topology
        col = self.terrains.class_index(unit)
        m = self.terrains.cost_matrix()[:, col]
        cell = m[self.terrain]
        has = self.overlay >= 0
        if has.any():
            cell = np.where(has, m[np.where(has, self.overlay, 0)], cell)
        flat = topo.pad(cell.astype(np.float64), np.inf)
        finite = flat[np.isfinite(flat)]
        min_cost = float(finite.min()) if finite.size else 1.0
        uniform = bool(finite.size == 0 or finite.max() == min_cost)
        edge = np.zeros(0, dtype=np.float64)
        climbing = self.elevation is not None and self.climb_cost > 0
        if self.edges is not None or climbing:
            n = topo.ndir
            e = np.zeros((topo.ph, topo.pw, n), dtype=np.float64)
            if self.edges is not None:
                e[1:-1, 1:-1, :] = self.edges
            if climbing:
                elev = np.asarray(topo.pad(self.elevation, 0.0))
                ids = np.arange(topo.padded_size, dtype=np.int64)
                xs = ids % topo.pw - 1
                ys = ids // topo.pw - 1
                if topo.parity_mode == 1:
                    par = xs & 1
                elif topo.parity_mode == 2:
                    par = ys & 1
                else:
                    par = np.zeros_like(xs)
                inner = (xs >= 0) & (xs < topo.width) & (ys >= 0) & (ys < topo.height)
                for d in range(n):
                    q = ids + topo.offsets[par, d]
                    if topo.wrap:
                        qx = q % topo.pw
                        q = np.where(qx == 0, q + topo.width, np.where(qx == topo.width + 1, q - topo.width, q))
                    q = np.clip(q, 0, topo.padded_size - 1)
                    rise = np.maximum(elev[q] - elev, 0.0)
                    e.reshape(-1, n)[:, d] += np.where(inner, rise * self.climb_cost, 0.0)
            edge = e.ravel()
            uniform = False
        for a in (flat, edge):
            a.setflags(write=False)
        return CostData(unit=unit, cell=flat, edge=edge, min_cost=min_cost, uniform=uniform)

    def _patched_costs(self, cd: CostData, xs: np.ndarray, ys: np.ndarray) -> CostData:
        """``cd`` after a terrain or overlay edit of cells ``(xs, ys)``: a new cell array, the same edges.

        The same values ``_build_costs`` would give, at the price of one copy of
        the array instead of rebuilding it from the layers.
        """
        m = self.terrains.cost_matrix()[:, self.terrains.class_index(cd.unit)]
        ov = self.overlay[ys, xs]
        vals = np.where(ov >= 0, m[np.where(ov >= 0, ov, 0)], m[self.terrain[ys, xs]]).astype(np.float64)
        topo = self.grid.topology
        flat = cd.cell.copy()
        flat[(ys + 1) * topo.pw + xs + 1] = vals
        finite = np.isfinite(flat)
        if finite.any():
            min_cost = float(np.min(flat, where=finite, initial=np.inf))
            uniform = cd.edge.size == 0 and float(np.max(flat, where=finite, initial=-np.inf)) == min_cost
        else:
            min_cost, uniform = 1.0, cd.edge.size == 0
        flat.setflags(write=False)
        return CostData(unit=cd.unit, cell=flat, edge=cd.edge, min_cost=min_cost, uniform=uniform)

    # -- edits --------------------------------------------------------------------------
    def _cells(self, cells: Iterable[tuple[int, int]], name: str) -> tuple[np.ndarray, np.ndarray, tuple]:
        if isinstance(cells, tuple) and len(cells) == 2 and all(isinstance(v, (int, np.integer)) for v in cells):
            raise TypeError(f"{name} must be a list of (x, y) cells, got a single cell {cells!r}: wrap it in a list")
        if isinstance(cells, (str, bytes)) or not isinstance(cells, Iterable):
            raise TypeError(f"{name} must be a list of (x, y) cells, got {type(cells).__name__} {cells!r}")
        pts = tuple(self.grid.check_cell(check_cell_pair(c, f"{name}[{i}]"), f"{name}[{i}]") for i, c in enumerate(cells))
        xs = np.array([p[0] for p in pts], dtype=np.int64)
        ys = np.array([p[1] for p in pts], dtype=np.int64)
        return xs, ys, pts

    def set_terrain(self, cells: Sequence[tuple[int, int]], name: str) -> None:
        """Set the ground of every cell in ``cells`` (a list of ``(x, y)``) to terrain ``name``.

        Fires 'terrain_changed' with the cells and their old terrain names.

        >>> from wargrid import SquareGrid
        >>> m = Map(SquareGrid(6, 4)); m.set_terrain([(0, 0), (1, 0)], "hills")
        >>> m.count("hills")
        2
        """
        tid = self.terrains.index(name)
        xs, ys, pts = self._cells(cells, "cells")
        old = [self.terrains.names[int(v)] for v in self.terrain[ys, xs]]
        self.terrain[ys, xs] = tid
        self._changed("terrain_changed", xs, ys, pts, {"old": old, "new": name})

    def set_overlay(self, cells: Sequence[tuple[int, int]], name: str | None) -> None:
        """Put overlay ``name`` (a road, a bridge) on ``cells``, or clear it with ``None``.

        >>> from wargrid import SquareGrid
        >>> m = Map(SquareGrid(6, 4)); m.set_overlay([(1, 1)], "road"); m.set_overlay([(1, 1)], None)
        >>> m.overlay_name((1, 1)) is None
        True
        """
        oid = -1 if name is None else self.terrains.index(name)
        xs, ys, pts = self._cells(cells, "cells")
        old = [None if v < 0 else self.terrains.names[int(v)] for v in self.overlay[ys, xs]]
        self.overlay[ys, xs] = oid
        self._changed("overlay_changed", xs, ys, pts, {"old": old, "new": name})

    def set_elevation(self, elevation: np.ndarray | None, *, climb_cost: float | None = None) -> None:
        """Replace the elevation layer (``None`` removes it); optionally change ``climb_cost``.

        ``elevation`` is a ``(height, width)`` array indexed ``[y, x]``.

        >>> from wargrid import SquareGrid
        >>> m = Map(SquareGrid(6, 4)); m.set_elevation(np.arange(24.0).reshape(4, 6), climb_cost=0.5)
        >>> float(m.elevation[3, 5]), m.climb_cost
        (23.0, 0.5)
        """
        self.elevation = None if elevation is None else self._check_float_layer(elevation, "elevation")
        if climb_cost is not None:
            self.climb_cost = check_real(climb_cost, "climb_cost", minimum=0.0)
        ys, xs = np.nonzero(self.grid.mask)
        self._changed("elevation_changed", xs, ys, (), {})

    def set_edge(self, a: tuple[int, int], b: tuple[int, int], cost: float, *, both_ways: bool = True) -> None:
        """Extra ``cost`` for stepping from ``a`` to neighbour ``b`` (``inf``: a wall; ``0`` clears it).

        >>> from wargrid import SquareGrid
        >>> m = Map(SquareGrid(3, 1)); m.set_edge((0, 0), (1, 0), math.inf)
        >>> m.edges[0, 0].tolist(), m.edges[0, 1].tolist()
        ([inf, 0.0, 0.0, 0.0], [0.0, 0.0, inf, 0.0])
        """
        cost = check_real(cost, "cost", minimum=0.0, allow_inf=True)
        a = self.grid.check_cell(a, "a")
        b = self.grid.check_cell(b, "b")
        da = self._direction(a, b)
        if da is None:
            raise ValueError(f"a {a} and b {b} must be neighbours to share an edge")
        if self.edges is None:
            self.edges = np.zeros(self.grid.shape + (self.grid.ndir,), dtype=np.float64)
        self.edges[a[1], a[0], da] = cost
        if both_ways:
            db = self._direction(b, a)
            assert db is not None  # the neighbour relation is symmetric
            self.edges[b[1], b[0], db] = cost
        xs = np.array([a[0], b[0]])
        ys = np.array([a[1], b[1]])
        self._changed("edge_changed", xs, ys, (a, b), {"cost": cost})

    def _direction(self, a: tuple[int, int], b: tuple[int, int]) -> int | None:
        for s in self.grid.steps(a):
            if s.cell == b:
                return s.direction
        return None

    # -- events -------------------------------------------------------------------------
    def on(self, event: str, callback: Callable[[MapEvent], Any]) -> Callable[[MapEvent], Any]:
        """Call ``callback(MapEvent)`` after every ``event``; returns the callback (usable as a decorator).

        >>> from wargrid import SquareGrid
        >>> m = Map(SquareGrid(2, 2)); seen = []
        >>> _ = m.on("terrain_changed", lambda e: seen.append(e.cells))
        >>> m.set_terrain([(0, 1)], "water"); seen
        [((0, 1),)]
        """
        if event not in EVENTS:
            raise ValueError(f"event must be one of {', '.join(map(repr, EVENTS))}; got {event!r}")
        if not callable(callback):
            raise TypeError(f"callback must be callable, got {type(callback).__name__}")
        self._callbacks[event].append(callback)
        return callback

    def off(self, event: str, callback: Callable[[MapEvent], Any]) -> None:
        """Stop calling ``callback`` for ``event``.

        >>> from wargrid import SquareGrid
        >>> m = Map(SquareGrid(6, 4)); seen = []
        >>> f = m.on("terrain_changed", seen.append); m.off("terrain_changed", f)
        >>> m.set_terrain([(0, 0)], "water"); seen
        []
        """
        if event not in EVENTS:
            raise ValueError(f"event must be one of {', '.join(map(repr, EVENTS))}; got {event!r}")
        try:
            self._callbacks[event].remove(callback)
        except ValueError:
            raise ValueError(f"callback {callback!r} is not subscribed to {event!r}") from None

    def _subscribe_internal(self, listener: Callable[[str, np.ndarray], None]) -> None:
        """Library-internal: ``listener(kind, cell_ids)`` runs after every edit, before public events."""
        self._internal.append(listener)

    def emit(self, event: str, cells: Sequence[tuple[int, int]] = (), **data: Any) -> None:
        """Fire ``event`` to its subscribers. Every callback runs even if one raises;
        then ``CallbackError`` carries what they raised.

        >>> from wargrid import SquareGrid
        >>> m = Map(SquareGrid(6, 4)); seen = []
        >>> _ = m.on("terrain_changed", seen.append)
        >>> m.emit("terrain_changed", [(1, 1)]); seen[0].cells
        ((1, 1),)
        """
        if event not in EVENTS:
            raise ValueError(f"event must be one of {', '.join(map(repr, EVENTS))}; got {event!r}")
        self._fire(event, self._cells(cells, "cells")[2], data)

    def _fire(self, event: str, cells: tuple, data: dict) -> None:
        ev = MapEvent(event, cells, dict(data))
        errors = []
        for cb in list(self._callbacks[event]):
            try:
                cb(ev)
            except Exception as exc:  # noqa: BLE001 - reported below, after the others ran
                errors.append(exc)
        if errors:
            raise CallbackError(event, errors)

    def _changed(self, kind: str, xs: np.ndarray, ys: np.ndarray, pts: tuple, data: dict) -> None:
        self.version += 1
        if kind in ("terrain_changed", "overlay_changed"):
            # only the edited cells' entry costs change: patch a copy of each cached array
            self._costs = {name: self._patched_costs(cd, xs, ys) for name, cd in self._costs.items()}
        else:
            self._costs.clear()
        self._cache.clear()
        ids = ys * self.grid.width + xs
        errors: list[BaseException] = []
        # every listener and callback runs, whatever another one raised; the
        # layers are already consistent, so errors are reported at the end
        for listener in list(self._internal):
            try:
                listener(kind, ids)
            except CallbackError as exc:  # a public callback of an event the listener fired
                errors.extend(exc.errors)
        try:
            self._fire(kind, tuple(pts), data)
        except CallbackError as exc:
            errors.extend(exc.errors)
        if errors:
            raise CallbackError(kind, errors)

    # -- copies and equality -----------------------------------------------------------
    def copy(self) -> "Map":
        """A deep copy of the layers (subscribers are not copied).

        >>> from wargrid import SquareGrid
        >>> m = Map(SquareGrid(6, 4)); c = m.copy(); c == m
        True
        >>> c.set_terrain([(0, 0)], "water"); c == m
        False
        """
        m = Map(
            self.grid,
            terrain=self.terrain.copy(),
            terrains=self.terrains,
            overlay=self.overlay.copy(),
            elevation=None if self.elevation is None else self.elevation.copy(),
            climb_cost=self.climb_cost,
        )
        m.edges = None if self.edges is None else self.edges.copy()
        return m

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Map):
            return NotImplemented
        same_elev = (self.elevation is None and other.elevation is None) or (
            self.elevation is not None and other.elevation is not None and np.array_equal(self.elevation, other.elevation)
        )
        e1 = self.edges if self.edges is not None and self.edges.any() else None
        e2 = other.edges if other.edges is not None and other.edges.any() else None
        same_edges = (e1 is None and e2 is None) or (e1 is not None and e2 is not None and np.array_equal(e1, e2))
        return (
            self.grid == other.grid
            and self.terrains == other.terrains
            and np.array_equal(self.terrain, other.terrain)
            and np.array_equal(self.overlay, other.overlay)
            and same_elev
            and same_edges
            and math.isclose(self.climb_cost, other.climb_cost)
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Map({self.grid!r}, terrains={len(self.terrains)}, classes={list(self.terrains.classes)})"
