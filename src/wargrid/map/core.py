"""The typed core of ``Map``: the layers, the edits that change them, and the events they fire.

Layers are numpy arrays of shape ``(height, width)`` indexed ``[y, x]``,
handed out as **read-only views** (``m.terrain[0, 2] = ...`` raises): every
change goes through an edit method or the ``edit()`` context, so the derived
state (cost fields, zones, sight boards) is brought up to date on one path
(``Derived.after_edit``) and can never go stale.

- ``terrain``: terrain ids into the map's ``TerrainTable``;
- ``overlay``: ``-1`` or a terrain id (a road, a bridge) whose movement cost
  replaces the ground's while the ground stays what it is;
- ``elevation`` (optional): heights; with ``climb_cost`` > 0 a step uphill
  costs ``climb_cost * rise`` more;
- ``edges`` (optional): ``(height, width, ndir)`` extra costs (``inf``: a wall)
  for crossing from a cell to its neighbour in each direction, such as a river.

A map may have a **playable rectangle** (``playable=(x0, y0, w, h)``, the
classic engines' radar area and OpenRA's ``Bounds``): ``m.grid`` is then the
board ``m.container`` with every cell outside the rectangle masked out, so
every query (paths, sight, zones, territory, the RTS detail) treats those
cells as off the board; ``set_playable`` moves or removes it.

A map may carry **bridges** with hit points (``add_bridge``, see
``wargrid.map.bridges``): a bridge lays its overlay while it stands and
takes it off when destroyed, through the same edit path.

Beside the layers a map carries ``markers`` (named places: spawn points,
towns, regions; a tuple of frozen ``Marker``) and ``properties`` (a read-only
mapping of plain values a map file brought along); both are set when the map
is built and are part of its equality, pickling and copies.

Threads: a map may be queried from many threads at once; edits take the
map's lock (so do builds of derived state), so two threads that edit one map
are serialised and never leave a stale or half-updated cost behind.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence, TypeVar

import numpy as np
import numpy.typing as npt

from ..errors import ArgumentError, ArgumentTypeError, CallbackError, WargridError
from .._validate import check_cell_pair, check_real
from .._deprecation import warn_renamed
from ..costs import CostField, patched_field
from ..movement.dispatch import forget_cost_array
from ..grids.boards import Grid
from ..terrain import TerrainTable
from .derived import FEW_CELLS, Derived, xy_ids

__all__ = ["MapCore", "MapEvent", "MapEdit", "Marker", "EVENTS", "CallbackError"]

EVENTS = (
    "terrain_changed",
    "overlay_changed",
    "elevation_changed",
    "edge_changed",
    "zones_changed",
    "playable_changed",
    "bridge_damaged",
    "bridge_destroyed",
    "bridge_repaired",
)
"""Events a ``Map`` fires; subscribe with ``Map.on(event, callback)``."""

Cell = tuple[int, int]
M = TypeVar("M", bound="MapCore")
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class MapEvent:
    """What changed: the ``event`` name, the ``cells`` touched and event-specific ``data``."""

    event: str
    cells: tuple[Cell, ...]
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Marker:
    """A named place on a map: a spawn point, a town, a region.

    ``name`` and ``kind`` (the class a map editor gives it, e.g. ``'spawn'``;
    ``''`` when none) are strings, ``cells`` the ``(x, y)`` cells it covers,
    ``properties`` plain values (str, int, float, bool) by name.

    >>> Marker("red", ((2, 3),), kind="start", properties={"player": 1}).cells
    ((2, 3),)
    """

    name: str
    cells: tuple[Cell, ...]
    kind: str = ""
    properties: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not isinstance(self.kind, str):
            raise ArgumentTypeError(f"marker name and kind must be strings, got {self.name!r} and {self.kind!r}")
        if isinstance(self.cells, (str, bytes)) or not isinstance(self.cells, Iterable):
            raise ArgumentTypeError(f"marker {self.name!r}: cells must be a list of (x, y) cells, got {self.cells!r}")
        object.__setattr__(self, "cells", tuple(check_cell_pair(c, f"marker {self.name!r} cell") for c in self.cells))
        if not isinstance(self.properties, Mapping):
            raise ArgumentTypeError(f"marker {self.name!r}: properties must be a mapping, got {type(self.properties).__name__}")
        object.__setattr__(self, "properties", _plain_properties(self.properties, f"marker {self.name!r}"))


def _plain_properties(props: Mapping[str, Any], what: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in props.items():
        if not isinstance(k, str) or not isinstance(v, (str, int, float, bool)) or isinstance(v, float) and math.isnan(v):
            raise ArgumentTypeError(f"{what}: properties must map names to str, int, float or bool, got {k!r}: {v!r}")
        out[k] = v
    return out


def _read_only(a: np.ndarray) -> np.ndarray:
    v = a.view()
    v.setflags(write=False)
    return v


class MapEdit:
    """Writable copies of a map's layers inside ``with m.edit() as e:``; applied as ordinary edits on exit.

    ``terrain``, ``overlay`` and (when the map has one) ``elevation`` are
    writable ``(height, width)`` arrays; ``edges`` a writable ``(height,
    width, ndir)`` array. On leaving the block the changed cells are checked
    and written back, and the map fires one event per changed layer. An
    exception inside the block discards the edit.
    """

    def __init__(self, m: "MapCore") -> None:
        self.terrain = m._terrain.copy()
        self.overlay = m._overlay.copy()
        self.elevation = None if m._elevation is None else m._elevation.copy()
        self.edges = (
            np.zeros(m.grid.shape + (m.grid.ndir,), dtype=np.float64) if m._edges is None else m._edges.copy()
        )


class MapCore:
    """Layers, edits and events of a board (the part of ``Map`` every query method relies on).

    Parameters
    ----------
    grid : Grid
        The board (``SquareGrid``, ``HexGrid``, ``StaggeredGrid`` or a shaped board).
    terrain : array_like of int, shape ``(height, width)``, optional
        Terrain ids into ``terrains`` (default: the table's first terrain everywhere).
    terrains : TerrainTable, optional
        The terrain table with its movement classes (default ``TerrainTable.default()``).
    overlay : array_like of int, shape ``(height, width)``, optional
        ``-1`` or a terrain id (roads, bridges).
    elevation : array_like of float, shape ``(height, width)``, optional
        Heights (finite).
    edges : array_like of float, shape ``(height, width, ndir)``, optional
        Extra step costs (``>= 0``; ``inf``: a wall).
    climb_cost : float
        Extra cost a unit of rise on an uphill step (``>= 0``).
    markers : sequence of Marker, optional
        Named places (their cells must be on the board).
    properties : mapping, optional
        Plain values (str, int, float, bool) by name that a map file carried.
    playable : (x0, y0, w, h), optional
        The playable rectangle (see ``set_playable``); default: the whole board.
    """

    def __init__(
        self,
        grid: Grid,
        *,
        terrain: npt.ArrayLike | None = None,
        terrains: TerrainTable | None = None,
        overlay: npt.ArrayLike | None = None,
        elevation: npt.ArrayLike | None = None,
        edges: npt.ArrayLike | None = None,
        climb_cost: float = 0.0,
        markers: Iterable[Marker] = (),
        properties: Mapping[str, Any] | None = None,
        playable: tuple[int, int, int, int] | None = None,
    ) -> None:
        if not isinstance(grid, Grid):
            raise ArgumentTypeError(f"grid must be a wargrid Grid (SquareGrid, HexGrid, StaggeredGrid), got {type(grid).__name__}")
        self._container = grid
        self._playable = self._check_playable(playable)
        grid = self._playable_grid()
        if terrains is None:
            terrains = TerrainTable.default()
        if not isinstance(terrains, TerrainTable):
            raise ArgumentTypeError(f"terrains must be a TerrainTable or None, got {type(terrains).__name__}")
        self.grid = grid
        self._terrains = terrains
        self._terrain = self._check_id_layer(terrain, "terrain", allow_none=False)
        self._overlay = self._check_id_layer(overlay, "overlay", allow_none=True)
        self._elevation = None if elevation is None else self._check_float_layer(elevation, "elevation")
        self._edges = None if edges is None else self._check_edges(edges)
        self._climb_cost = check_real(climb_cost, "climb_cost", minimum=0.0)
        self._markers = self._check_markers(markers)
        if properties is not None and not isinstance(properties, Mapping):
            raise ArgumentTypeError(f"properties must be a mapping or None, got {type(properties).__name__}")
        self._properties = _plain_properties(properties or {}, "map")
        self._bridges: list[Any] = []  # ``bridges.Bridge`` records, by id (see ``BridgeEdits``)
        self._start_dynamic_state()

    def _check_markers(self, markers: Iterable[Marker]) -> tuple[Marker, ...]:
        if isinstance(markers, (str, bytes)) or not isinstance(markers, Iterable):
            raise ArgumentTypeError(f"markers must be a list of Marker, got {type(markers).__name__}")
        out = tuple(markers)
        for mk in out:
            if not isinstance(mk, Marker):
                raise ArgumentTypeError(f"markers must hold Marker objects, got {type(mk).__name__}")
            for c in mk.cells:
                self._container.check_cell(c, f"marker {mk.name!r} cell")
        return out

    def _start_dynamic_state(self) -> None:
        """What a map has besides its layers: listeners, the lock, derived state (never pickled or copied)."""
        self._callbacks: dict[str, list[Callable[[MapEvent], Any]]] = {e: [] for e in EVENTS}
        self.derived = Derived(self)
        self._lock = self.derived.lock  # one lock: edits and the derived state they update
        self.version = 0

    # -- pickling: the layers only; listeners and derived state rebuild -----------------------
    def __getstate__(self) -> dict[str, Any]:
        with self._lock:  # a state that existed: no edit half applied (the layers are copied, edits write in place)
            return {
                "grid": self.grid,
                "_terrains": self._terrains,
                "_terrain": self._terrain.copy(),
                "_overlay": self._overlay.copy(),
                "_elevation": None if self._elevation is None else self._elevation.copy(),
                "_edges": None if self._edges is None else self._edges.copy(),
                "_climb_cost": self._climb_cost,
                "_markers": self._markers,
                "_properties": dict(self._properties),
                "_container": self._container,
                "_playable": self._playable.copy() if isinstance(self._playable, np.ndarray) else self._playable,
                "_bridges": list(self._bridges),
                "version": self.version,
            }

    def __setstate__(self, state: dict[str, Any]) -> None:
        version = state.pop("version", 0)
        if "terrains" in state:  # pickled before the table became a read-only property
            state["_terrains"] = state.pop("terrains")
        state.setdefault("_markers", ())
        state.setdefault("_properties", {})
        state.setdefault("_container", state["grid"])
        state.setdefault("_playable", None)
        state.setdefault("_bridges", [])
        self.__dict__.update(state)
        self._start_dynamic_state()
        self.version = version

    # -- layer checks -------------------------------------------------------------------------
    def _check_id_layer(self, layer: Any, name: str, *, allow_none: bool) -> npt.NDArray[np.int16]:
        shape = self.grid.shape
        if layer is None:
            return np.full(shape, -1 if allow_none else 0, dtype=np.int16)
        a = np.asarray(layer)
        if a.shape != shape:
            raise ArgumentError(f"{name} must have shape (height, width) = {shape}, got {a.shape}")
        if a.dtype.kind not in "iu":
            raise ArgumentTypeError(f"{name} must be an integer array of terrain ids, got dtype {a.dtype}")
        lo = -1 if allow_none else 0
        if a.size and (a.min() < lo or a.max() >= len(self.terrains)):
            bad = a[(a < lo) | (a >= len(self.terrains))].ravel()[0]
            raise ArgumentError(f"{name} holds terrain id {int(bad)}; allowed: {lo}..{len(self.terrains) - 1}")
        return a.astype(np.int16)

    def _check_float_layer(self, layer: Any, name: str) -> npt.NDArray[np.float64]:
        try:
            a = np.asarray(layer, dtype=np.float64) if not np.iscomplexobj(layer) else None
        except (TypeError, ValueError):
            a = None
        if a is None:
            raise ArgumentTypeError(f"{name} must be a real (height, width) array, got {type(layer).__name__}")
        if a.shape != self.grid.shape:
            raise ArgumentError(f"{name} must have shape (height, width) = {self.grid.shape}, got {a.shape}")
        if not np.isfinite(a).all():
            raise ArgumentError(f"{name} must be finite (no NaN or inf)")
        return a.copy()

    def _check_edges(self, edges: Any) -> npt.NDArray[np.float64]:
        want = self.grid.shape + (self.grid.ndir,)
        try:
            e = np.asarray(edges, dtype=np.float64) if not np.iscomplexobj(edges) else None
        except (TypeError, ValueError):
            e = None
        if e is None:
            raise ArgumentTypeError(f"edges must be a real (height, width, ndir) array, got {type(edges).__name__}")
        if e.shape != want:
            raise ArgumentError(f"edges must have shape (height, width, ndir) = {want}, got {e.shape}")
        if np.isnan(e).any() or (e < 0).any():
            raise ArgumentError("edges must be >= 0 and not NaN (inf is a wall)")
        return e.copy()

    # -- reading ------------------------------------------------------------------------------
    @property
    def terrains(self) -> TerrainTable:
        """The terrain table the layers' ids index (read-only: swap it with ``set_terrains``)."""
        return self._terrains

    @terrains.setter
    def terrains(self, value: TerrainTable) -> None:
        raise AttributeError("Map.terrains is read-only: swap the table with m.set_terrains(table), which also "
                             "refreshes the costs, zones and sight that depend on it")

    @property
    def terrain(self) -> npt.NDArray[np.int16]:
        """Read-only ``(height, width)`` terrain ids, indexed ``[y, x]`` (edit with ``set_terrain`` or ``edit()``)."""
        return _read_only(self._terrain)

    @property
    def overlay(self) -> npt.NDArray[np.int16]:
        """Read-only ``(height, width)`` overlay ids (``-1``: none), indexed ``[y, x]``."""
        return _read_only(self._overlay)

    @property
    def elevation(self) -> npt.NDArray[np.float64] | None:
        """Read-only ``(height, width)`` heights indexed ``[y, x]``, or ``None``."""
        return None if self._elevation is None else _read_only(self._elevation)

    @property
    def edges(self) -> npt.NDArray[np.float64] | None:
        """Read-only ``(height, width, ndir)`` extra step costs, or ``None`` when no edge was ever set."""
        return None if self._edges is None else _read_only(self._edges)

    @property
    def markers(self) -> tuple[Marker, ...]:
        """Named places on the map (spawn points, towns, regions), as the map was built with them.

        >>> from wargrid import Map, SquareGrid
        >>> Map(SquareGrid(4, 4), markers=[Marker("town", ((1, 2),))]).markers[0].name
        'town'
        """
        return self._markers

    @property
    def properties(self) -> Mapping[str, Any]:
        """Read-only plain values by name that came with the map (from a map file or the constructor).

        >>> from wargrid import Map, SquareGrid
        >>> dict(Map(SquareGrid(2, 2), properties={"author": "me"}).properties)
        {'author': 'me'}
        """
        return MappingProxyType(self._properties)

    @property
    def climb_cost(self) -> float:
        """Extra cost a unit of rise on an uphill step (change it with ``set_elevation``)."""
        return self._climb_cost

    # -- the playable rectangle -------------------------------------------------------------------
    @property
    def playable(self) -> tuple[int, int, int, int] | None:
        """The playable rectangle ``(x0, y0, w, h)``, or ``None`` when the whole board plays.

        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(8, 6), playable=(1, 1, 6, 4))
        >>> m.playable, m.grid.contains((0, 0)), m.container.contains((0, 0)), len(m.grid)
        ((1, 1, 6, 4), False, True, 24)
        """
        return self._playable

    @property
    def container(self) -> Grid:
        """The whole board the map was built on (``grid`` is it with the cells outside ``playable`` masked out)."""
        return self._container

    def _check_playable(self, playable: Any) -> tuple[int, int, int, int] | None:
        if playable is None:
            return None
        g = self._container
        if isinstance(playable, (str, bytes)) or not isinstance(playable, Sequence) or len(playable) != 4:
            raise ArgumentTypeError(f"playable must be (x0, y0, w, h) or None, got {playable!r}")
        if not all(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) for v in playable):
            raise ArgumentTypeError(f"playable must hold four integers (x0, y0, w, h), got {playable!r}")
        x0, y0, w, h = (int(v) for v in playable)
        if w < 1 or h < 1 or x0 < 0 or y0 < 0 or x0 + w > g.width or y0 + h > g.height:
            raise ArgumentError(
                f"playable (x0, y0, w, h) = {(x0, y0, w, h)} must be a rectangle of at least one cell inside the "
                f"{g.width} x {g.height} board (0 <= x0, x0 + w <= {g.width}, 0 <= y0, y0 + h <= {g.height})"
            )
        if not g.mask[y0:y0 + h, x0:x0 + w].any():
            raise ArgumentError(f"playable {(x0, y0, w, h)} holds no cell of the board's shape")
        return (x0, y0, w, h)

    def _playable_grid(self) -> Grid:
        g = self._container
        if self._playable is None:
            return g
        x0, y0, w, h = self._playable
        inside = np.zeros(g.shape, dtype=bool)
        inside[y0:y0 + h, x0:x0 + w] = True
        return g.with_mask(g.mask & inside)

    def set_playable(self, playable: tuple[int, int, int, int] | None) -> None:
        """Make ``playable`` = ``(x0, y0, w, h)`` the playable rectangle (``None``: the whole board).

        Cells outside the rectangle are off the board for every query: no
        path enters them, no sight reaches them, no zone or territory holds
        them, and edits refuse them. Everything derived is rebuilt on the
        map's one invalidation path; fires 'playable_changed' with
        ``data={"old": ..., "new": ...}``. A ``Fog`` made from the map before
        keeps the board it was made on. A ``Simulation`` made before keeps
        its units where they stand and the costs of its own board's cells (a
        unit on a cell put off the board is not lost to a later edit), but
        its searches, zones and new units follow the map's board: a goal
        off it is not reached.

        Parameters
        ----------
        playable : (x0, y0, w, h) or None
            Column, row, width and height of the rectangle, inside the board.

        Raises
        ------
        ValueError
            A rectangle that does not fit the board or holds no valid cell.
        TypeError
            Not four integers.

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(8, 1))
        >>> m.set_playable((0, 0, 4, 1)); m.path((0, 0), (6, 0)) is None
        Traceback (most recent call last):
        ...
        wargrid.errors.CellError: goal (6, 0) is outside the board's shape (masked out)
        >>> m.set_playable(None); len(m.path((0, 0), (6, 0)).cells)
        7
        """
        new = self._check_playable(playable)
        with self._lock:
            old = self._playable
            self._playable = new
            self.grid = self._playable_grid()
            errors = self._changed_collect("playable_changed", np.zeros(0, np.int64), np.zeros(0, np.int64), (),
                                           {"old": old, "new": new})
        if errors:
            raise CallbackError("playable_changed", errors)

    @property
    def width(self) -> int:
        return self.grid.width

    @property
    def height(self) -> int:
        return self.grid.height

    @property
    def shape(self) -> tuple[int, int]:
        return self.grid.shape

    def terrain_name(self, cell: Cell) -> str:
        """Name of the ground terrain at ``cell`` (an ``(x, y)`` pair).

        Parameters
        ----------
        cell : tuple of int
            ``(x, y)``.

        Returns
        -------
        str

        Raises
        ------
        IndexError
            A cell off the board (``CellError``).

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(6, 4)); m.set_terrain([(2, 1)], "water"); m.terrain_name((2, 1))
        'water'
        """
        x, y = self.grid.check_cell(cell)
        return self.terrains.names[int(self._terrain[y, x])]

    def overlay_name(self, cell: Cell) -> str | None:
        """Name of the overlay at ``cell`` (an ``(x, y)`` pair), or ``None``.

        Parameters
        ----------
        cell : tuple of int
            ``(x, y)``.

        Returns
        -------
        str or None

        Raises
        ------
        IndexError
            A cell off the board (``CellError``).

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(6, 4)); m.set_overlay([(4, 2)], "road")
        >>> m.overlay_name((4, 2)), m.overlay_name((0, 0))
        ('road', None)
        """
        x, y = self.grid.check_cell(cell)
        o = int(self._overlay[y, x])
        return None if o < 0 else self.terrains.names[o]

    def count(self, name: str) -> int:
        """Number of valid cells whose ground or overlay is terrain ``name``.

        Parameters
        ----------
        name : str
            A terrain of the map's table.

        Returns
        -------
        int

        Raises
        ------
        ValueError
            An unknown terrain.

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(3, 3)); m.set_overlay([(1, 1)], "bridge"); m.count("bridge")
        1
        """
        i = self.terrains.index(name)
        hit = ((self._terrain == i) | (self._overlay == i)) & self.grid.mask
        return int(hit.sum())

    def unit_class(self, unit: str | None) -> str:
        """The movement class named ``unit`` (``None``: the table's first class).

        Parameters
        ----------
        unit : str or None
            A movement class of the terrain table.

        Returns
        -------
        str

        Raises
        ------
        ValueError
            An unknown class (the message lists the known ones).

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> Map(SquareGrid(6, 4)).unit_class(None)
        'foot'
        """
        return self.terrains.classes[self.terrains.class_index(unit)]

    def cost_field(self, *, unit: str | None = None) -> CostField:
        """The ``CostField`` of movement class ``unit``: what every movement function takes.

        Cached; an edit makes a new field (a field never changes).

        Parameters
        ----------
        unit : str, optional
            The movement class (default: the terrain table's first class).

        Returns
        -------
        CostField

        Raises
        ------
        ValueError
            An unknown unit class.

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> f = Map(SquareGrid(6, 4)).cost_field(unit="foot")
        >>> f.unit, f.cell.shape
        ('foot', (48,))
        """
        return self.derived.cost_field(self.unit_class(unit))

    def costs(self, *, unit: str | None = None) -> npt.NDArray[np.float64]:
        """``(height, width)`` cost of entering each cell for ``unit`` (``inf``: impassable or off the board).

        The array is a fresh copy indexed ``[y, x]``.

        Parameters
        ----------
        unit : str, optional
            The movement class (default: the terrain table's first class).

        Returns
        -------
        ndarray of float64, shape ``(height, width)``

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(6, 4)); m.set_terrain([(2, 1)], "water")
        >>> m.costs(unit="cavalry")[1].tolist()
        [1.0, 1.0, inf, 1.0, 1.0, 1.0]
        """
        return self.cost_field(unit=unit).cells()

    def passable(self, *, unit: str | None = None) -> npt.NDArray[np.bool_]:
        """``(height, width)`` booleans, indexed ``[y, x]``: cells ``unit`` can stand on.

        Parameters
        ----------
        unit : str, optional
            The movement class (default: the terrain table's first class).

        Returns
        -------
        ndarray of bool, shape ``(height, width)``

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(6, 4)); m.set_terrain([(2, 1)], "water")
        >>> m.passable(unit="foot")[1].tolist()
        [True, True, False, True, True, True]
        """
        out: npt.NDArray[np.bool_] = np.isfinite(self.costs(unit=unit))
        return out

    def blocks_sight(self) -> npt.NDArray[np.bool_]:
        """Read-only ``(height, width)`` booleans, indexed ``[y, x]``: cells whose ground or overlay blocks sight.

        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(6, 4)); m.set_terrain([(3, 1)], "forest")
        >>> m.blocks_sight()[1].tolist()
        [False, False, False, True, False, False]
        """
        return self.derived.blocks_sight()

    # -- building derived state (called by ``Derived``) ----------------------------------------
    def _build_blocks_sight(self) -> npt.NDArray[np.bool_]:
        """The sight-blocking layer computed from the layers (read-only)."""
        b = self.terrains.blocks_sight()
        out: npt.NDArray[np.bool_] = b[self._terrain]
        has = self._overlay >= 0
        out = out | (has & b[np.where(has, self._overlay, 0)])
        out.setflags(write=False)
        return out

    def _entry_costs(
        self, unit: str, ys: Any = slice(None), xs: Any = slice(None), walls: str = "stop"
    ) -> npt.NDArray[np.float64]:
        m = self.terrains.cost_matrix(walls=walls)[:, self.terrains.class_index(unit)]
        if type(xs) is np.ndarray and xs.shape[0] <= FEW_CELLS:  # (numpy's calls on a few cells cost more than this)
            ov, ter = self._overlay, self._terrain
            return np.array([m[o if (o := int(ov[y, x])) >= 0 else int(ter[y, x])] for y, x in zip(ys.tolist(), xs.tolist())],
                            dtype=np.float64)
        ov = self._overlay[ys, xs]
        has = ov >= 0
        out: npt.NDArray[np.float64] = np.where(has, m[np.where(has, ov, 0)], m[self._terrain[ys, xs]]).astype(np.float64)
        return out

    def _build_cost_field(self, unit: str, walls: str = "stop") -> CostField:
        """The cost field of class ``unit`` computed from the layers.

        Parameters
        ----------
        unit : str
            A movement class of the terrain table.
        walls : str
            What the unit does at a wall (``WALL_RULES``).

        Returns
        -------
        CostField
        """
        topo = self.grid.topology
        flat = topo.pad(self._entry_costs(unit, walls=walls), np.inf).astype(np.float64)
        climbing = self._elevation is not None and self._climb_cost > 0
        edge = None
        if self._edges is not None or climbing:
            e = np.zeros((topo.ph, topo.pw, topo.ndir), dtype=np.float64)
            if self._edges is not None:
                e[1:-1, 1:-1, :] = self._edges
            edge = e.ravel()
            if climbing:
                assert self._elevation is not None
                edge += self._climb_cost * topo.edge_rise(np.asarray(topo.pad(self._elevation, 0.0)))
        return CostField.from_padded(topo, flat, edge, unit=unit)

    def _patch_cost_field(
        self, f: CostField, xs: IntArray, ys: IntArray, walls: str = "stop", in_place: bool = False,
        ids: IntArray | None = None,
    ) -> CostField:
        """``f`` after a terrain or overlay edit of cells ``(xs, ys)``: a new field, the same edges.

        The same values ``_build_cost_field`` would give, at the price of one
        copy of the array instead of rebuilding it from the layers; with
        ``in_place`` (the caller knows no one else holds ``f`` or its array,
        ``Derived._catch_up``) not even that: ``f``'s array is patched and
        taken by the new field, and what the array caches hold for it is
        dropped (``movement.dispatch.forget_cost_array``).

        Parameters
        ----------
        f : CostField
            The field before the edit.
        xs, ys : ndarray of int64
            The edited cells.
        walls : str
            What the unit does at a wall (``WALL_RULES``), as ``f`` was built.
        in_place : bool
            Patch ``f``'s own array (see above).
        ids : ndarray of int64, optional
            The cells' padded ids, when the caller has them (``xy_ids``).

        Returns
        -------
        CostField
        """
        assert f.unit is not None
        flat = f.cell
        if in_place:
            try:
                flat.setflags(write=True)
            except ValueError:  # (an array that does not own its memory: copied)
                in_place = False
        if in_place:
            forget_cost_array(flat)
        else:
            flat = flat.copy()
        ids = xy_ids(xs, ys, self.grid.topology.pw, 1) if ids is None else ids
        flat[ids] = self._entry_costs(f.unit, ys, xs, walls)
        return patched_field(f, flat, ids)  # (only ``ids`` written: no pass over the whole array)

    # -- edits ----------------------------------------------------------------------------------
    def _cells(self, cells: Iterable[Cell], name: str) -> tuple[IntArray, IntArray, tuple[Cell, ...]]:
        if isinstance(cells, tuple) and len(cells) == 2 and all(isinstance(v, (int, np.integer)) for v in cells):
            raise ArgumentTypeError(f"{name} must be a list of (x, y) cells, got a single cell {cells!r}: wrap it in a list")
        if type(cells) is not list and (isinstance(cells, (str, bytes)) or not isinstance(cells, Iterable)
                                        or isinstance(cells, np.ndarray) and cells.ndim == 0):  # (0-d: no iteration)
            raise ArgumentTypeError(f"{name} must be a list of (x, y) cells, got {type(cells).__name__} {cells!r}")
        g = self.grid
        w, h, mask = g.width, g.height, g.mask
        pts = tuple(
            c if type(c) is tuple and len(c) == 2 and type(c[0]) is int and type(c[1]) is int
            and 0 <= c[0] < w and 0 <= c[1] < h and mask[c[1], c[0]]  # (a cell on the board: no names made)
            else g.check_cell(check_cell_pair(c, f"{name}[{i}]"), f"{name}[{i}]") for i, c in enumerate(cells)
        )
        xs = np.array([p[0] for p in pts], dtype=np.int64)
        ys = np.array([p[1] for p in pts], dtype=np.int64)
        return xs, ys, pts

    def set_terrain(self, cells: Sequence[Cell], name: str) -> None:
        """Set the ground of every cell in ``cells`` (a list of ``(x, y)``) to terrain ``name``.

        Fires 'terrain_changed' with the cells and their old terrain names.

        Parameters
        ----------
        cells : sequence of (x, y)
            The cells to change.
        name : str
            A terrain of the map's table.

        Raises
        ------
        IndexError
            A cell off the board (``CellError``); nothing is changed.
        ValueError
            An unknown terrain.

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(6, 4)); m.set_terrain([(0, 0), (1, 0)], "hills")
        >>> m.count("hills")
        2
        """
        tid = self.terrains.index(name)
        xs, ys, pts = self._cells(cells, "cells")
        with self._lock:
            names, ter = self.terrains.names, self._terrain
            if len(pts) <= FEW_CELLS:  # (Python scalars: numpy's indexing by arrays costs more on a few cells)
                old = [names[ter[y, x]] for x, y in pts]
                for x, y in pts:
                    ter[y, x] = tid
            else:
                old = [names[v] for v in ter[ys, xs].tolist()]
                ter[ys, xs] = tid
            self._changed("terrain_changed", xs, ys, pts, {"old": old, "new": name})

    def set_overlay(self, cells: Sequence[Cell], name: str | None) -> None:
        """Put overlay ``name`` (a road, a bridge) on ``cells``, or clear it with ``None``.

        Parameters
        ----------
        cells : sequence of (x, y)
            The cells to change.
        name : str or None
            A terrain of the map's table, or ``None`` to clear.

        Raises
        ------
        IndexError
            A cell off the board (``CellError``); nothing is changed.
        ValueError
            An unknown terrain.

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(6, 4)); m.set_overlay([(1, 1)], "road"); m.set_overlay([(1, 1)], None)
        >>> m.overlay_name((1, 1)) is None
        True
        """
        oid = -1 if name is None else self.terrains.index(name)
        xs, ys, pts = self._cells(cells, "cells")
        with self._lock:
            errors = self._overlay_collect(xs, ys, pts, name)
        if errors:
            raise CallbackError("overlay_changed", errors)

    def _overlay_collect(self, xs: IntArray, ys: IntArray, pts: tuple[Cell, ...], name: str | None) -> list[BaseException]:
        """Lay overlay ``name`` (checked) on cells ``(xs, ys)`` under the map's lock; the callbacks' errors."""
        old = [None if v < 0 else self.terrains.names[int(v)] for v in self._overlay[ys, xs]]
        self._overlay[ys, xs] = -1 if name is None else self.terrains.index(name)
        return self._changed_collect("overlay_changed", xs, ys, pts, {"old": old, "new": name})

    def set_elevation(self, elevation: npt.ArrayLike | None, *, climb_cost: float | None = None) -> None:
        """Replace the elevation layer (``None`` removes it); optionally change ``climb_cost``.

        ``elevation`` is a ``(height, width)`` array indexed ``[y, x]``.

        Parameters
        ----------
        elevation : array_like of float, shape ``(height, width)``, or None
            Finite heights; ``None`` removes the layer.
        climb_cost : float, optional
            Extra cost a unit of rise on an uphill step (``>= 0``; default: unchanged).

        Raises
        ------
        ValueError
            A wrong shape, a non-finite height or a negative ``climb_cost``.

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(6, 4)); m.set_elevation(np.arange(24.0).reshape(4, 6), climb_cost=0.5)
        >>> float(m.elevation[3, 5]), m.climb_cost
        (23.0, 0.5)
        """
        elev = None if elevation is None else self._check_float_layer(elevation, "elevation")
        cc = None if climb_cost is None else check_real(climb_cost, "climb_cost", minimum=0.0)
        with self._lock:
            self._elevation = elev
            if cc is not None:
                self._climb_cost = cc
            ys, xs = np.nonzero(self.grid.mask)
            self._changed("elevation_changed", xs.astype(np.int64), ys.astype(np.int64), (), {})

    def set_terrains(self, terrains: TerrainTable) -> None:
        """Use ``terrains`` as the map's terrain table; the layers keep their ids, so id ``i`` becomes ``terrains[i]``.

        Every cost field, zone labelling, sight board and prepared structure is
        dropped and rebuilt on its next use; ``terrain_changed`` fires with no
        cells (every cell) and ``data={"terrains": terrains}``.

        Parameters
        ----------
        terrains : TerrainTable
            The new table; it must have a terrain for every id the layers use.

        Raises
        ------
        TypeError
            ``terrains`` is not a ``TerrainTable`` (``ArgumentTypeError``).
        ValueError
            The layers use an id the new table lacks (``ArgumentError``).

        Examples
        --------
        >>> from wargrid import Map, SquareGrid, Terrain, TerrainTable
        >>> m = Map(SquareGrid(4, 1)); m.path((0, 0), (3, 0)).cost
        6.0
        >>> m.set_terrains(TerrainTable([Terrain("mud", ".", "#775533", costs={"foot": 5})]))
        >>> m.path((0, 0), (3, 0)).cost, m.terrain_name((0, 0))
        (15.0, 'mud')
        """
        if not isinstance(terrains, TerrainTable):
            raise ArgumentTypeError(f"terrains must be a TerrainTable, got {type(terrains).__name__}")
        with self._lock:
            top = max(int(self._terrain.max(initial=0)), int(self._overlay.max(initial=-1)))
            if top >= len(terrains):
                raise ArgumentError(f"the map's layers use terrain id {top} ({self._terrains.names[top]!r}); the new "
                                    f"table has {len(terrains)} terrains (ids 0..{len(terrains) - 1})")
            self._terrains = terrains
            self.derived.reset()
            ys, xs = np.nonzero(self.grid.mask)
            self._changed("terrain_changed", xs.astype(np.int64), ys.astype(np.int64), (), {"terrains": terrains})

    def set_edge(self, a: Cell, b: Cell, cost: float, *, both_ways: bool = True) -> None:
        """Extra ``cost`` for stepping from ``a`` to neighbour ``b`` (``inf``: a wall; ``0`` clears it).

        Parameters
        ----------
        a, b : tuple of int
            Neighbouring cells ``(x, y)``.
        cost : float
            ``>= 0``; ``inf`` is a wall.
        both_ways : bool
            Also set the step from ``b`` to ``a``.

        Raises
        ------
        ValueError
            ``a`` and ``b`` are not neighbours, or a negative or NaN cost (``ArgumentError``).
        IndexError
            A cell off the board (``CellError``).

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(3, 1)); m.set_edge((0, 0), (1, 0), math.inf)
        >>> m.edges[0, 0].tolist(), m.edges[0, 1].tolist()
        ([inf, 0.0, 0.0, 0.0], [0.0, 0.0, inf, 0.0])
        """
        cost = check_real(cost, "cost", minimum=0.0, allow_inf=True)
        a = self.grid.check_cell(a, "a")
        b = self.grid.check_cell(b, "b")
        da = self._direction(a, b)
        if da is None:
            raise ArgumentError(f"a {a} and b {b} must be neighbours to share an edge")
        db = self._direction(b, a)
        with self._lock:
            if self._edges is None:
                self._edges = np.zeros(self.grid.shape + (self.grid.ndir,), dtype=np.float64)
            self._edges[a[1], a[0], da] = cost
            if both_ways and db is not None:
                self._edges[b[1], b[0], db] = cost
            xs = np.array([a[0], b[0]], dtype=np.int64)
            ys = np.array([a[1], b[1]], dtype=np.int64)
            self._changed("edge_changed", xs, ys, (a, b), {"cost": cost})

    def _direction(self, a: Cell, b: Cell) -> int | None:
        for s in self.grid.steps(a):
            if s.cell == b:
                return s.direction
        return None

    @contextmanager
    def edit(self) -> Iterator[MapEdit]:
        """Edit many cells at once through writable copies of the layers (see ``MapEdit``).

        On leaving the block the changes are checked, written back and
        announced (one event per changed layer); derived state is brought up
        to date once. The map's lock is held for the whole block.

        Yields
        ------
        MapEdit
            Writable copies of the layers.

        Raises
        ------
        CallbackError
            A callback of the events fired on leaving raised (the edit is complete).
        ValueError
            A changed cell holds an unknown terrain id or a bad value (nothing is applied).

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(4, 2))
        >>> with m.edit() as e:
        ...     e.terrain[0, :] = m.terrains.index("water")
        >>> m.passable(unit="foot").astype(int).tolist()
        [[0, 0, 0, 0], [1, 1, 1, 1]]
        """
        with self._lock:
            e = MapEdit(self)
            yield e
            terrain = self._check_id_layer(e.terrain, "terrain", allow_none=False)
            overlay = self._check_id_layer(e.overlay, "overlay", allow_none=True)
            elevation = None if e.elevation is None else self._check_float_layer(e.elevation, "elevation")
            edges = self._check_edges(e.edges)
            errors: list[BaseException] = []
            for kind, new, old in (("terrain_changed", terrain, self._terrain), ("overlay_changed", overlay, self._overlay)):
                ys, xs = np.nonzero((new != old) & self.grid.mask)
                if xs.size:
                    names = self.terrains.names
                    data = {"old": [None if v < 0 else names[int(v)] for v in old[ys, xs]]}
                    old[...] = new
                    pts = tuple(zip(xs.tolist(), ys.tolist()))
                    errors += self._changed_collect(kind, xs.astype(np.int64), ys.astype(np.int64), pts, data)
            if elevation is not None and (self._elevation is None or not np.array_equal(elevation, self._elevation)):
                self._elevation = elevation
                ys, xs = np.nonzero(self.grid.mask)
                errors += self._changed_collect("elevation_changed", xs.astype(np.int64), ys.astype(np.int64), (), {})
            old_edges = self._edges if self._edges is not None else np.zeros_like(edges)
            diff = np.any(edges != old_edges, axis=2)
            if diff.any():
                self._edges = edges
                ys, xs = np.nonzero(diff)
                pts = tuple(zip(xs.tolist(), ys.tolist()))
                errors += self._changed_collect("edge_changed", xs.astype(np.int64), ys.astype(np.int64), pts, {})
            if errors:
                raise CallbackError("edit", errors)

    # -- events ---------------------------------------------------------------------------------
    def on(self, event: str, callback: Callable[[MapEvent], Any]) -> Callable[[MapEvent], Any]:
        """Call ``callback(MapEvent)`` after every ``event``; returns the callback (usable as a decorator).

        Parameters
        ----------
        event : str
            One of ``EVENTS``.
        callback : callable
            Called with a ``MapEvent``.

        Returns
        -------
        callable
            ``callback``.

        Raises
        ------
        ValueError
            An unknown event (``ArgumentError``).
        TypeError
            A ``callback`` that is not callable (``ArgumentTypeError``).

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(2, 2)); seen = []
        >>> _ = m.on("terrain_changed", lambda e: seen.append(e.cells))
        >>> m.set_terrain([(0, 1)], "water"); seen
        [((0, 1),)]
        """
        self._check_event(event)
        if not callable(callback):
            raise ArgumentTypeError(f"callback must be callable, got {type(callback).__name__}")
        self._callbacks[event].append(callback)
        return callback

    def off(self, event: str, callback: Callable[[MapEvent], Any]) -> None:
        """Stop calling ``callback`` for ``event``.

        Parameters
        ----------
        event : str
            One of ``EVENTS``.
        callback : callable
            A callback given to ``on``.

        Raises
        ------
        ValueError
            An unknown event, or a callback not subscribed to it (``ArgumentError``).

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(6, 4)); seen = []
        >>> f = m.on("terrain_changed", seen.append); m.off("terrain_changed", f)
        >>> m.set_terrain([(0, 0)], "water"); seen
        []
        """
        self._check_event(event)
        try:
            self._callbacks[event].remove(callback)
        except ValueError:
            raise ArgumentError(f"callback {callback!r} is not subscribed to {event!r}") from None

    @staticmethod
    def _check_event(event: str) -> None:
        if not isinstance(event, str) or event not in EVENTS:
            raise ArgumentError(f"event must be one of {', '.join(map(repr, EVENTS))}; got {event!r}")

    def emit(self, event: str, cells: Sequence[Cell] = (), **data: Any) -> None:
        """Deprecated: edits fire their events themselves; a game's own events belong to the game.

        Parameters
        ----------
        event : str
            One of ``EVENTS``.
        cells : sequence of (x, y)
            The cells it concerns.
        **data
            Event-specific values, in ``MapEvent.data``.
        """
        warn_renamed("Map.emit", "the edit methods (set_terrain, edit(), ...), which fire their events")
        self._emit(event, cells, **data)

    def build_cost_field(self, unit: str) -> CostField:
        """Deprecated: use ``cost_field(unit=...)`` (cached, and kept up to date by edits).

        Parameters
        ----------
        unit : str
            A movement class of the terrain table.

        Returns
        -------
        CostField
        """
        warn_renamed("Map.build_cost_field", "Map.cost_field(unit=...)")
        return self._build_cost_field(unit)

    def _emit(self, event: str, cells: Sequence[Cell] = (), **data: Any) -> None:
        """Fire ``event`` to its subscribers. Every callback runs even if one raises;
        then ``CallbackError`` carries what they raised.

        Parameters
        ----------
        event : str
            One of ``EVENTS``.
        cells : sequence of (x, y)
            The cells it concerns.
        **data
            Event-specific values, in ``MapEvent.data``.

        Raises
        ------
        CallbackError
            One or more callbacks raised (after all of them ran).
        ValueError
            An unknown event (``ArgumentError``).

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(6, 4)); seen = []
        >>> _ = m.on("terrain_changed", seen.append)
        >>> m._emit("terrain_changed", [(1, 1)]); seen[0].cells
        ((1, 1),)
        """
        self._check_event(event)
        errors = self._fire(event, self._cells(cells, "cells")[2], data)
        if errors:
            raise CallbackError(event, errors)

    def _fire(self, event: str, cells: tuple[Cell, ...], data: dict[str, Any]) -> list[BaseException]:
        errors: list[BaseException] = []
        if not self._callbacks[event]:
            return errors  # (no one listens: no event made)
        ev = MapEvent(event, cells, dict(data))
        for cb in list(self._callbacks[event]):
            try:
                cb(ev)
            except Exception as exc:  # noqa: BLE001 - reported after the others ran
                errors.append(exc)
        return errors

    def _changed(self, kind: str, xs: IntArray, ys: IntArray, pts: tuple[Cell, ...], data: dict[str, Any]) -> None:
        errors = self._changed_collect(kind, xs, ys, pts, data)
        if errors:
            raise CallbackError(kind, errors)

    def _changed_collect(
        self, kind: str, xs: IntArray, ys: IntArray, pts: tuple[Cell, ...], data: dict[str, Any]
    ) -> list[BaseException]:
        """The one path after every edit: derived state first, then zone events, then the edit's own event.

        Every callback runs whatever another one raised; the layers and the
        derived state are already consistent, so errors are returned for the
        caller to raise at the end.
        """
        zone_events = self.derived.after_edit(kind, xs, ys)
        self.version += 1  # last: a reader that sees the new version gets answers from the new state
        errors: list[BaseException] = []
        if zone_events and self._callbacks["zones_changed"]:
            if kind == "elevation_changed":
                cells: tuple[Cell, ...] = ()
            elif xs.shape[0] == 1:  # (one cell, checked: what ``grid.cell`` would give)
                cells = ((int(xs[0]), int(ys[0])),)
            else:
                cells = tuple(self.grid.cell(int(i)) for i in np.unique(ys * self.grid.width + xs))
            for ze in zone_events:
                data_z = {"unit": ze.unit, "walls": ze.walls, "old": list(ze.change.old), "new": list(ze.change.new)}
                errors += self._fire("zones_changed", cells, data_z)
        errors += self._fire(kind, pts, data)
        return errors

    # -- copies and equality ---------------------------------------------------------------------
    def copy(self: M) -> M:
        """A deep copy of the layers (subscribers and derived state are not copied).

        Taken under the map's lock, so a copy made while another thread edits
        holds the map as it was before or after each edit, never between.

        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(6, 4)); c = m.copy(); c == m
        True
        >>> c.set_terrain([(0, 0)], "water"); c == m
        False
        """
        state = self.__getstate__()  # under the map's lock
        state.pop("version")
        c = object.__new__(type(self))
        c.__setstate__(state)
        return c

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MapCore):
            return NotImplemented
        same_elev = (self._elevation is None and other._elevation is None) or (
            self._elevation is not None and other._elevation is not None and np.array_equal(self._elevation, other._elevation)
        )
        e1 = self._edges if self._edges is not None and self._edges.any() else None
        e2 = other._edges if other._edges is not None and other._edges.any() else None
        same_edges = (e1 is None and e2 is None) or (e1 is not None and e2 is not None and np.array_equal(e1, e2))
        return (
            self.grid == other.grid
            and self.terrains == other.terrains
            and np.array_equal(self._terrain, other._terrain)
            and np.array_equal(self._overlay, other._overlay)
            and same_elev
            and same_edges
            and math.isclose(self._climb_cost, other._climb_cost)
            and self._markers == other._markers
            and self._properties == other._properties
            and self._container == other._container
            and self._bridges == other._bridges
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Map({self.grid!r}, terrains={len(self.terrains)}, classes={list(self.terrains.classes)})"
