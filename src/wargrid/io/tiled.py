"""Tiled maps: TMX (XML) and TMJ (JSON), read and written, as Tiled's own example maps make them.

Boards, by the map's ``orientation``:

- ``orthogonal``: a ``SquareGrid`` (4 directions unless the ``wargrid.diagonal``
  map property or the ``diagonal`` argument says 8).
- ``isometric``: an ``IsometricGrid``, a square board drawn as diamonds
  (8 directions with the no-corner-cutting rule unless told otherwise).
- ``staggered`` (staggered isometric): mapped exactly onto an
  ``IsometricGrid`` by ``IsoStagger`` (each diamond touches four across its
  edges, the orthogonal steps, and four at its corners, the diagonal ones);
  board cells are the rotated ``(i, j)``, ``IsoStagger`` converts from and to
  Tiled's ``(col, row)``. The map keeps ``tiled.stagger`` in its properties.
- ``hexagonal``: ``staggeraxis`` x is flat-top hex (``staggerindex`` odd/even =
  odd-q/even-q), y pointy-top (odd-r/even-r). A hexagonal map whose
  ``hexsidelength`` equals the whole tile side has rectangular tiles:
  wargrid writes its staggered boards that way and reads them back as
  ``StaggeredGrid`` (odd index) boards.

Infinite maps are read from their chunks and cropped to the tiles in use
(on hex and staggered maps to an even column or row, so parity is kept);
the map keeps the crop's Tiled coordinates as ``tiled.origin`` = ``'x,y'``
and ``save_tiled`` writes it back as an infinite map at the same place.

Terrain of a tile, the first of (each step documented in ``load_tiled``):
its ``terrain_property`` property; its class (Tiled 1.9+) or type; its Wang
or terrain-set colours (the colour on most of its corners and edges; a tie
goes to the colour listed first in the set); a collision shape
(``collision_terrain``, impassable); ``tile_terrain`` (a mapping or a
callable); ``default_terrain``. Flip bits are ignored; an empty cell (gid 0)
is off the board. The first tile layer is the ground; a tile layer named
``overlay`` holds roads and bridges. Object layers become ``Map.markers``.

wargrid's own data rides along as map properties named ``wargrid.*``:
diagonal moves, corner rule, wrap-around, the terrain table, elevation
(``wargrid.elevation``: base64 of zlib'd little-endian float64, row by row),
edge costs (``wargrid.edges``: JSON ``[[x, y, direction, cost or null], ...]``)
and ``wargrid.climb_cost``; other map properties become ``Map.properties``.

Layer data may be CSV, base64 (uncompressed, zlib or gzip) or XML tiles;
XML is parsed with defusedxml (no entity expansion, no external entities,
no DTD). Every problem raises ``MapFileError`` naming the file.

>>> import tempfile, os
>>> from wargrid import HexGrid, Map
>>> m = Map(HexGrid(6, 4, orientation="pointy", offset="even-r")); m.set_terrain([(2, 1)], "hills")
>>> p = os.path.join(tempfile.mkdtemp(), "board.tmx")
>>> save_tiled(m, p)
>>> load_tiled(p) == m
True
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import os
import warnings
import zlib
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Mapping, Sequence, TypedDict, Union

import numpy as np
from numpy.typing import NDArray

from .._extras import require
from ..errors import ArgumentError, ArgumentTypeError
from .._xml import escape, quoteattr
from ..grids.boards import Grid, HexGrid, SquareGrid, StaggeredGrid
from ..grids.isometric import IsometricGrid, IsoStagger
from .._validate import check_positive_int, check_path
from ..map import Map, Marker
from ..terrain import TerrainTable
from .._files import atomic_write, atomic_write_with, read_regular
from ._names import TerrainNames
from ._tiled_parse import (MAX_MAP_TILESET_BYTES, MAX_TILED_OBJECTS, MAX_TILESET_BYTES, TiledFile, TiledLayer, TiledObject,
                           check_size, read_tiled_file, to_int)
from ._tiled_rules import (BLOCK_FALSE, BLOCK_TRUE, COST_KEYS, NAME_KEYS, SPEED_KEYS, WATER_TRUE, TileRules, canonical,
                           collision_name, cost_value, flat_props, norm_key, speed_cost, truthy)
from .errors import MAX_FILE_CELLS, MapFileError, MapFileWarning

__all__ = ["MAX_MAP_TILESET_BYTES", "MAX_TILED_OBJECTS", "MAX_TILESET_BYTES", "load_tiled", "save_tiled"]

_FLIP_MASK = 0x0FFFFFFF  # clears the horizontal, vertical, diagonal and hex-120 flip bits
_MAX_BYTES = 1 << 28
_TILE = 32


class _Tile(TypedDict):
    orientation: str
    tilewidth: int
    tileheight: int


class _Geometry(_Tile, total=False):
    """Tiled map attributes of a board's tile shape (the stagger ones on hexagonal maps only)."""

    hexsidelength: int
    staggeraxis: str
    staggerindex: str


_Layers = list[tuple[str, NDArray[np.uint32]]]  # (layer name, global tile ids)


# -- reading ------------------------------------------------------------------------

TileTerrain = Union[Mapping[int, str], Callable[[int, Mapping[str, Any]], "str | None"]]
_OWN = ("wargrid.kind", "wargrid.diagonal", "wargrid.corner_rule", "wargrid.wrap_x", "wargrid.terrains",
        "wargrid.elevation", "wargrid.edges", "wargrid.climb_cost")


def load_tiled(
    path: str | os.PathLike[str],
    *,
    terrains: TerrainTable | None = None,
    terrain_property: str = "terrain",
    tile_terrain: TileTerrain | None = None,
    default_terrain: str | None = None,
    collision_terrain: str | None = "wall",
    ground: str | Sequence[str] | None = None,
    collision_layers: str | Sequence[str] | None = None,
    diagonal: bool | None = None,
    strict: bool = False,
    max_cells: int = MAX_FILE_CELLS,
    root: str | os.PathLike[str] | None = None,
) -> Map:
    """Read a Tiled ``.tmx`` or ``.tmj`` (``.json``) map as a ``Map``, with the conventions games use.

    ``docs/import.md`` ("Import your maps") lists every convention recognised;
    in short: the ground is the topmost tile naming a terrain over all
    visible tile layers; collision layers, collision objects and blocking
    tiles make walls; terrain names and costs come from tile properties
    under the names games use, matched to the terrain table by a synonym
    table; tiles that name nothing take ``default_terrain``.

    Parameters
    ----------
    path : str or PathLike
        The map file; external tilesets (``.tsx``/``.tsj``) are read
        relative to it, as Tiled does (``../tilesets/x.tsx``). Images are
        never read.
    terrains : TerrainTable, optional
        The table terrain names refer to (default: the table wargrid wrote
        into the ``wargrid.terrains`` map property, else ``TerrainTable.default()``).
    terrain_property : str
        The tile property that names a tile's terrain, looked at first.
    tile_terrain : mapping or callable, optional
        Global tile id to terrain name, as a mapping (ids it lacks fall
        through) or a callable ``(gid, properties) -> name or None``, for
        tiles whose properties, class and colours name nothing.
    default_terrain : str, optional
        The terrain of cells no tile names (default ``'plains'``, or the
        table's first terrain when it has no plains).
    collision_terrain : str or None
        What blocking cells become (default ``'wall'``, added as impassable
        and blocking sight when the table lacks it; ``None`` ignores
        collision layers, objects and blocking tiles).
    ground : str or sequence of str, optional
        The tile layers that make the ground (default: every visible tile
        layer that is not a collision layer).
    collision_layers : str or sequence of str, optional
        The tile and object layers that block (default: found by name and
        properties; an empty list: none).
    diagonal : bool, optional
        8 directions on orthogonal and isometric maps (default: the
        ``wargrid.diagonal`` map property, else ``False`` on orthogonal and
        ``True`` on isometric maps).
    strict : bool
        Refuse terrain names neither table knows, and tiles that name no
        terrain, instead of adding or defaulting them.
    max_cells : int
        Cap on the tiles decoded over all tile layers and chunks together.
    root : str or PathLike, optional
        A folder external tilesets must lie in (for servers that read
        untrusted files).

    Raises
    ------
    MapFileError
        Anything wrong with the file, naming it (and the line, layer or tileset).

    Examples
    --------
    >>> import tempfile, os
    >>> from wargrid import SquareGrid, Map
    >>> p = os.path.join(tempfile.mkdtemp(), "small.tmj")
    >>> save_tiled(Map(SquareGrid(6, 4)), p); load_tiled(p).shape
    (4, 6)
    """
    path = check_path(path)
    max_cells = check_positive_int(max_cells, "max_cells")
    path = Path(path)
    if terrains is not None and not isinstance(terrains, TerrainTable):
        raise ArgumentTypeError(f"terrains must be a TerrainTable or None, got {type(terrains).__name__}")
    if not isinstance(terrain_property, str) or not terrain_property:
        raise ArgumentTypeError(f"terrain_property must be a non-empty string, got {terrain_property!r}")
    if tile_terrain is not None and not isinstance(tile_terrain, Mapping) and not callable(tile_terrain):
        raise ArgumentTypeError("tile_terrain must be a mapping of tile id to terrain name or a callable "
                                f"(gid, properties) -> name, got {type(tile_terrain).__name__}")
    for name, v in (("default_terrain", default_terrain), ("collision_terrain", collision_terrain)):
        if v is not None and (not isinstance(v, str) or not v):
            raise ArgumentTypeError(f"{name} must be a terrain name or None, got {v!r}")
    if diagonal is not None and not isinstance(diagonal, bool):
        raise ArgumentTypeError(f"diagonal must be True, False or None, got {diagonal!r}")
    ground_names = _layer_names(ground, "ground")
    collision_names = _layer_names(collision_layers, "collision_layers")
    root_path = None
    if root is not None:
        if not isinstance(root, (str, os.PathLike)):
            raise ArgumentTypeError(f"root must be a folder path or None, got {type(root).__name__}")
        root_path = Path(root)
        if not path.resolve().is_relative_to(root_path.resolve()):
            raise MapFileError(f"the map lies outside {root_path} (root=)", path)
    data = read_regular_file(path, _MAX_BYTES)
    opts = _Options(terrain_property, tile_terrain, default_terrain, collision_terrain, diagonal, bool(strict), max_cells,
                    ground_names, collision_names)
    try:
        f = read_tiled_file(data, path, max_cells, root=root_path)
        m, added, unnamed = _build(f, terrains, opts)
    except MapFileError as exc:
        if exc.path is None:
            raise MapFileError(exc.reason, path, exc.line) from None
        raise
    except (ValueError, TypeError, LookupError, OverflowError) as exc:  # LookupError: KeyError, IndexError, unknown XML encoding
        raise MapFileError(" ".join(str(exc).split()) or type(exc).__name__, path) from None
    if added:
        warnings.warn(f"{path}: terrains not in the terrain table were added (cost 1 for every class unless "
                      f"impassable): {', '.join(added)}", MapFileWarning, stacklevel=2)
    if unnamed:
        warnings.warn(f"{path}: {unnamed}", MapFileWarning, stacklevel=2)
    return m


def _layer_names(v: str | Sequence[str] | None, what: str) -> tuple[str, ...] | None:
    if v is None:
        return None
    if isinstance(v, str):
        return (v,)
    if not isinstance(v, Sequence) or not all(isinstance(n, str) for n in v):
        raise ArgumentTypeError(f"{what} must be a layer name or a list of layer names, got {v!r}")
    return tuple(v)


def read_regular_file(path: Path, cap: int) -> bytes:
    """The bytes of a regular file of at most ``cap`` bytes (``MapFileError`` otherwise: a device, a FIFO, a folder
    or a link to one is refused without reading or waiting on it)."""
    return read_regular(path, cap=cap, error=MapFileError, what="Tiled map file")


@dataclass(frozen=True)
class _Options:
    prop: str
    tile_terrain: TileTerrain | None
    default: str | None
    collision: str | None
    diagonal: bool | None
    strict: bool
    max_cells: int
    ground: tuple[str, ...] | None = None
    collision_layers: tuple[str, ...] | None = None


def _flag(v: Any) -> bool:
    return v is True or str(v).lower() in ("true", "1")


def _crop(f: TiledFile, layers: list[TiledLayer]) -> tuple[list[TiledLayer], tuple[int, int], int, int]:
    """An infinite map's layers cut to the tiles in use (stagger axis to an even start)."""
    used = np.zeros((f.height, f.width), dtype=bool)
    for la in layers:
        used |= (la.gids & np.uint32(_FLIP_MASK)) != 0
    if not used.any():
        raise MapFileError("the infinite map's chunks hold no tile", None)
    ys, xs = np.nonzero(used)
    x0, x1, y0, y1 = int(xs.min()), int(xs.max()) + 1, int(ys.min()), int(ys.max()) + 1
    if f.orientation in ("hexagonal", "staggered"):  # keep each column's (row's) parity
        if f.staggeraxis == "x":
            x0 -= (f.origin[0] + x0) & 1
        else:
            y0 -= (f.origin[1] + y0) & 1
        x0, y0 = max(x0, 0), max(y0, 0)
    out = [replace(la, gids=la.gids[y0:y1, x0:x1]) for la in f.layers]
    return out, (f.origin[0] + x0, f.origin[1] + y0), x1 - x0, y1 - y0


def _grid_of(f: TiledFile, w: int, h: int, mask: NDArray[np.bool_] | None, opts: _Options) -> Grid:
    props = f.properties
    wrap = _flag(props.get("wargrid.wrap_x", False))
    rule = str(props.get("wargrid.corner_rule", "no-obstacle"))
    if f.orientation in ("orthogonal", "isometric"):
        diag = opts.diagonal
        if diag is None:
            diag = _flag(props["wargrid.diagonal"]) if "wargrid.diagonal" in props else f.orientation == "isometric"
        kind = SquareGrid if f.orientation == "orthogonal" else IsometricGrid
        return kind(w, h, diagonal=diag, corner_rule=rule, wrap_x=wrap, mask=mask)
    if f.orientation == "hexagonal":
        if f.staggeraxis not in ("x", "y") or f.staggerindex not in ("odd", "even"):
            raise MapFileError(f"staggeraxis must be x or y and staggerindex odd or even, got "
                               f"{f.staggeraxis!r} and {f.staggerindex!r}", None)
        side = f.tilewidth if f.staggeraxis == "x" else f.tileheight
        if f.hexsidelength >= side and f.staggerindex == "odd":
            return StaggeredGrid(w, h, stagger="columns" if f.staggeraxis == "x" else "rows", wrap_x=wrap, mask=mask)
        if f.staggeraxis == "x":
            return HexGrid(w, h, orientation="flat", offset=f"{f.staggerindex}-q", wrap_x=wrap, mask=mask)
        return HexGrid(w, h, orientation="pointy", offset=f"{f.staggerindex}-r", wrap_x=wrap, mask=mask)
    raise MapFileError(f"orientation {f.orientation!r} is not supported: wargrid reads orthogonal, isometric, "
                       "staggered and hexagonal maps", None)


def _table(f: TiledFile, terrains: TerrainTable | None) -> TerrainTable:
    """The given table, else the one wargrid wrote into the map's properties, else the default."""
    if terrains is not None:
        return terrains
    text = f.properties.get("wargrid.terrains")
    if text is None:
        return TerrainTable.default()
    try:
        return TerrainTable.from_dict(json.loads(str(text)))
    except (ValueError, TypeError, KeyError, RecursionError) as exc:
        raise MapFileError(f"map property 'wargrid.terrains' is not a terrain table: {exc}", None) from None


def _blocks(props: Mapping[str, Any]) -> bool:
    """Whether properties say "this blocks" (``collides`` true, ``walkable`` false, ...)."""
    flat = flat_props(props)
    return (any(truthy(flat.get(k)) is True for k in BLOCK_TRUE)
            or any(truthy(flat.get(k)) is False for k in BLOCK_FALSE))


class _Tiles:
    """The ground terrain id of each global tile id (-1: the tile names nothing), by the documented conventions."""

    def __init__(self, f: TiledFile, names: TerrainNames, opts: _Options) -> None:
        self.f = f
        self.names = names
        self.opts = opts
        self.rules = TileRules(names)
        self.ids: dict[int, int] = {}
        self.blocking: dict[int, bool] = {}
        self.unnamed: dict[int, None] = {}
        self.unknown: list[str] = []
        self.prop = norm_key(opts.prop)

    def _strict_unknown(self, name: str) -> None:
        raise MapFileError(f"a tile names terrain {name!r}, which is not in the terrain table (known: "
                           f"{', '.join(self.names.base.names)}) nor in the synonym table (strict=True)", None)

    def name_of(self, gid: int) -> tuple[str | None, float | None, bool]:
        """The terrain name a tile gives, its step cost (``inf``: impassable) and whether it blocks."""
        info = self.f.tiles.get(gid)
        props: Mapping[str, Any] = info.properties if info is not None else {}
        flat = flat_props(props)
        block = self.opts.collision is not None and (_blocks(props) or (info is not None and info.collision))
        name: str | None = None
        v = flat.get(self.prop)
        if v is not None and str(v).strip():
            name = str(v).strip()
        if name is None:
            name = self._given(gid, props)
        for key in NAME_KEYS if name is None else ():
            v = flat.get(key)
            if isinstance(v, str) and v.strip() and not v.strip().lstrip("-").isdigit():
                name = v.strip()
                break
        if name is None and info is not None and info.cls:
            name = info.cls
        if name is None and info is not None and info.colours:
            counts: dict[str, int] = {}
            for c in info.colours:
                counts[c] = counts.get(c, 0) + 1
            name = max(counts, key=lambda c: (counts[c], -info.order.get(c, 0)))
        if name is None and any(truthy(flat.get(k)) is True for k in WATER_TRUE):
            name = "water"
        cost = None
        for key in COST_KEYS:
            if key in flat and (cost := cost_value(flat[key])) is not None:
                break
        if cost is None:
            for key in SPEED_KEYS:
                if key in flat and (cost := speed_cost(flat[key])) is not None:
                    break
        hint = flat.get("name")  # a weak hint: a name property the synonym table knows, or that names a costed tile
        if name is None and isinstance(hint, str) and hint.strip() and (cost is not None or canonical(hint) is not None):
            name = hint.strip()
        return name, cost, block

    def _given(self, gid: int, props: Mapping[str, Any]) -> str | None:
        tt = self.opts.tile_terrain
        if tt is None:
            return None
        name: object
        if isinstance(tt, Mapping):
            try:
                name = tt[gid]  # a defaultdict answers every id
            except KeyError:
                return None
        else:
            name = tt(gid, MappingProxyType(dict(props)))
        if name is not None and not isinstance(name, str):
            raise MapFileError(f"tile_terrain gave {name!r} for tile {gid}, not a terrain name", None)
        return name

    def id(self, gid: int) -> int:
        if gid in self.ids:
            return self.ids[gid]
        name, cost, block = self.name_of(gid)
        self.blocking[gid] = block
        tid = -1
        if cost is not None:
            tid = self.rules.cost_id(name, cost)
        elif name is not None:
            tid = self.rules.name_id(name, strict=self.opts.strict, unknown=self._strict_unknown)
        if block:
            tid = self._blocking(tid)
        if tid < 0:
            self.unnamed[gid] = None
        self.ids[gid] = tid
        return tid

    def wall(self) -> int:
        assert self.opts.collision is not None
        return self.rules.wall(self.opts.collision)

    def _blocking(self, tid: int) -> int:
        """A blocking tile: its own terrain when no land class may enter it already (water stays water), else the wall."""
        if tid >= 0:
            t = self.names.table()[tid]
            if not any(math.isfinite(t.costs.get(c, math.inf)) for c in self.rules.land):
                return tid
        return self.wall()

    def blocks(self, gids: NDArray[np.uint32]) -> NDArray[np.bool_]:
        """Where a layer's tiles block (a property or a collision shape says so)."""
        g = gids & np.uint32(_FLIP_MASK)
        uniq, inv = np.unique(g, return_inverse=True)
        for u in uniq.tolist():
            if u and u not in self.blocking:
                self.id(u)
        lut = np.array([u != 0 and self.blocking[u] for u in uniq.tolist()], dtype=bool)
        return lut[inv].reshape(g.shape)

    def layer_ids(self, gids: NDArray[np.uint32]) -> NDArray[np.int32]:
        """Terrain ids of a layer's tiles: -1 names nothing, -2 no tile."""
        g = gids & np.uint32(_FLIP_MASK)
        uniq, inv = np.unique(g, return_inverse=True)
        lut = np.array([-2 if u == 0 else self.id(u) for u in uniq.tolist()], dtype=np.int32)
        return lut[inv].reshape(g.shape)


def _is_collision_layer(name: str, cls: str, props: Mapping[str, Any], opts: _Options) -> bool:
    if opts.collision is None:
        return False
    if opts.collision_layers is not None:
        return name in opts.collision_layers
    return collision_name(name) or collision_name(cls) or _blocks(props)


def _roles(f: TiledFile, opts: _Options) -> tuple[list[TiledLayer], list[TiledLayer], TiledLayer | None]:
    """The ground layers (bottom first), the collision layers and the overlay layer."""
    names = [la.name for la in f.layers] + sorted({o.layer for o in f.objects})
    for want, what in ((opts.ground, "ground"), (opts.collision_layers, "collision_layers")):
        for n in want or ():
            if n not in names:
                raise MapFileError(f"{what} names layer {n!r}, which the map does not have (its layers: "
                                   f"{', '.join(repr(x) for x in names) or 'none'})", None)
    collision = [la for la in f.layers if _is_collision_layer(la.name, la.cls, la.properties, opts)]
    overlay = next((la for la in f.layers if la.name == "overlay"), None)
    if opts.ground is not None:
        ground = [la for la in f.layers if la.name in opts.ground]
    else:
        rest = [la for la in f.layers if la not in collision and la is not overlay]
        ground = [la for la in rest if la.visible] or rest
    return ground, collision, overlay


def _collision_objects(f: TiledFile, opts: _Options) -> tuple[list[TiledObject], list[TiledObject]]:
    """The objects that block, and the others (the markers)."""
    if opts.collision is None:
        return [], list(f.objects)
    walls: list[TiledObject] = []
    rest: list[TiledObject] = []
    for o in f.objects:
        if opts.collision_layers is not None:
            hit = o.layer in opts.collision_layers
        else:
            hit = (_is_collision_layer(o.layer, o.layer_cls, o.layer_properties, opts) or collision_name(o.cls)
                   or collision_name(o.name) or _blocks(o.properties))
        (walls if hit and o.shape != "point" else rest).append(o)
    return walls, rest


def _unnamed_note(f: TiledFile, tiles: _Tiles, cells: int, default: str) -> str:
    sets: dict[str, int] = {}
    for g in tiles.unnamed:
        info = f.tiles.get(g)
        ts = (info.tileset if info is not None else f.tileset_of(g)) or "(no tileset)"
        sets[ts] = sets.get(ts, 0) + 1
    listed = ", ".join(f"{n!r} ({k})" for n, k in sorted(sets.items(), key=lambda kv: -kv[1])[:8])
    more = f" and {len(sets) - 8} more" if len(sets) > 8 else ""
    return (f"{cells} cells are drawn only with tiles that name no terrain ({len(tiles.unnamed)} tiles, of tilesets "
            f"{listed}{more}); they are {default!r} (default_terrain). Give the tiles a terrain property or a class in "
            "Tiled, or pass default_terrain= or tile_terrain=")


def _plain(props: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in props.items() if isinstance(v, (str, int, float, bool)) and not
            (isinstance(v, float) and not math.isfinite(v))}


def _elevation_size_message(size: int, cells: int) -> str:
    """Why ``size`` bytes of 'wargrid.elevation' do not fit a board of ``cells`` cells (read at most 8 * cells + 1)."""
    if size > 8 * cells:
        return f"map property 'wargrid.elevation' holds more than {cells} heights; the board has {cells} cells"
    if size % 8:
        return f"map property 'wargrid.elevation' holds {size} bytes, not whole 8-byte heights"
    return f"map property 'wargrid.elevation' holds {size // 8} heights; the board has {cells} cells"


def _extras(f: TiledFile, shape: tuple[int, int], ndir: int) -> dict[str, Any]:
    """Elevation, edge costs and climb cost that wargrid wrote into the map's properties."""
    p = f.properties
    out: dict[str, Any] = {}
    if "wargrid.elevation" in p:
        try:
            raw = zlib.decompressobj().decompress(base64.b64decode(str(p["wargrid.elevation"]), validate=True),
                                                 8 * shape[0] * shape[1] + 1)
        except (binascii.Error, ValueError, zlib.error):
            raise MapFileError("map property 'wargrid.elevation' is not base64 zlib data", None) from None
        if len(raw) != 8 * shape[0] * shape[1]:
            raise MapFileError(_elevation_size_message(len(raw), shape[0] * shape[1]), None)
        out["elevation"] = np.frombuffer(raw, dtype="<f8").reshape(shape).astype(np.float64)
    if "wargrid.edges" in p:
        try:
            items = json.loads(str(p["wargrid.edges"]))
        except (ValueError, RecursionError):
            raise MapFileError("map property 'wargrid.edges' is not JSON", None) from None
        e = np.zeros(shape + (ndir,), dtype=np.float64)
        if not isinstance(items, list):
            raise MapFileError("map property 'wargrid.edges' must be a list of [x, y, direction, cost]", None)
        for item in items:
            if not (isinstance(item, list) and len(item) == 4 and all(type(v) is int for v in item[:3])):
                raise MapFileError(f"map property 'wargrid.edges' holds {item!r}, not [x, y, direction, cost]", None)
            x, y, d, c = item
            if not (0 <= x < shape[1] and 0 <= y < shape[0] and 0 <= d < ndir):
                raise MapFileError(f"map property 'wargrid.edges' holds {item!r}, off the board", None)
            e[y, x, d] = math.inf if c is None else _to_float(c)
        out["edges"] = e
    if "wargrid.climb_cost" in p:
        out["climb_cost"] = _to_float(p["wargrid.climb_cost"])
    return out


def _to_float(v: Any) -> float:
    if isinstance(v, bool):
        raise MapFileError(f"{v!r} is not a number", None)
    try:
        return float(v)
    except (TypeError, ValueError):
        raise MapFileError(f"{v!r} is not a number", None) from None


def _build(f: TiledFile, terrains: TerrainTable | None, opts: _Options) -> tuple[Map, list[str], str]:
    ground_layers, collision_layers, overlay_layer = _roles(f, opts)
    used = ground_layers + collision_layers + ([overlay_layer] if overlay_layer is not None else [])
    other_layers = [la for la in f.layers if all(la is not u for u in used)]
    if not f.layers:
        raise MapFileError("the map has no tile layer", None)
    if f.infinite:
        cropped, origin, w, h = _crop(f, used or f.layers)
        by_id = {id(a): b for a, b in zip(f.layers, cropped)}
        ground_layers = [by_id[id(la)] for la in ground_layers]
        collision_layers = [by_id[id(la)] for la in collision_layers]
        overlay_layer = None if overlay_layer is None else by_id[id(overlay_layer)]
        other_layers = [by_id[id(la)] for la in other_layers]
    else:
        origin, w, h = f.origin, f.width, f.height
    names = TerrainNames(_table(f, terrains))
    tiles = _Tiles(f, names, opts)
    terrain = np.full((h, w), -2, dtype=np.int32)
    for la in reversed(ground_layers):  # topmost first: a cell keeps the first tile that names a terrain
        ids = tiles.layer_ids(la.gids)
        take = (terrain < 0) & (ids != -2) & ((terrain == -2) | (ids >= 0))
        terrain[take] = ids[take]
    blocked = np.zeros((h, w), dtype=bool)
    for la in collision_layers:
        blocked |= (la.gids & np.uint32(_FLIP_MASK)) != 0
    if opts.collision is not None:  # blocking tiles in the other layers too (a hidden 'Meta' layer of collidable tiles)
        for la in other_layers:
            blocked |= tiles.blocks(la.gids)
    walls, marker_objects = _collision_objects(f, opts)
    bounds = (origin[0], origin[1], origin[0] + w, origin[1] + h)
    budget = [opts.max_cells]
    for o in walls:
        for c, r in _object_cells(f, o, bounds, budget):
            blocked[r - origin[1], c - origin[0]] = True
    unnamed = ""
    defaulted = terrain == -1
    if defaulted.any():
        if opts.strict:
            g = next(iter(tiles.unnamed))
            raise MapFileError(f"tile {g} (of tileset {f.tileset_of(g) or '?'!r}) has no {opts.prop!r} property, class, "
                               f"Wang colour, cost or collision shape ({len(tiles.unnamed)} such tiles, "
                               f"{int(defaulted.sum())} cells). To load the map, give default_terrain='plains' (any "
                               f"terrain name), tile_terrain={{gid: name}} or a callable (gid, properties) -> name, or "
                               f"give the tiles a {opts.prop!r} property or a class in Tiled", None)
        default = opts.default if opts.default is not None else ("plains" if "plains" in names.base.names else names.base.names[0])
        if opts.default is not None and opts.strict and not names.known(opts.default):
            tiles._strict_unknown(opts.default)
        terrain[defaulted] = tiles.rules.name_id(default, strict=False, unknown=tiles._strict_unknown)
        if opts.default is None:
            unnamed = _unnamed_note(f, tiles, int(defaulted.sum()), default)
    if blocked.any():
        wall = tiles.wall()
        table = names.table()
        land_ok = np.array([tiles.rules.passable_on_land(table, i) for i in range(len(table))], dtype=bool)
        turn = blocked & ((terrain < 0) | land_ok[np.maximum(terrain, 0)])  # a blocked cell with no ground tile is a wall
        terrain[turn] = wall
    overlay = None
    if overlay_layer is not None:
        ov = tiles.layer_ids(overlay_layer.gids)
        overlay = np.where(ov >= 0, ov, -1).astype(np.int32)
    mask = terrain >= 0
    if not mask.any():
        raise MapFileError("the ground layers are empty (every tile is 0)", None)
    props = {k: v for k, v in _plain(f.properties).items() if k not in _OWN and not k.startswith("tiled.")}
    stagger: IsoStagger | None = None
    if f.orientation == "staggered":
        if f.staggeraxis not in ("x", "y") or f.staggerindex not in ("odd", "even"):
            raise MapFileError(f"staggeraxis must be x or y and staggerindex odd or even, got "
                               f"{f.staggeraxis!r} and {f.staggerindex!r}", None)
        stagger = IsoStagger(f.staggeraxis, f.staggerindex, w, h)
        check_size(*stagger.board_shape(), opts.max_cells)
        terrain = stagger.to_board(np.where(mask, terrain, -1), -1)
        overlay = None if overlay is None else stagger.to_board(overlay, -1)
        mask = terrain >= 0
        base = _grid_of(replace(f, orientation="isometric"), mask.shape[1], mask.shape[0], None, opts)
        assert isinstance(base, SquareGrid)
        grid: Grid = IsometricGrid(mask.shape[1], mask.shape[0], diagonal=base.diagonal, corner_rule=base.corner_rule, mask=mask)
        props["tiled.stagger"] = f"{f.staggeraxis},{f.staggerindex},{w},{h}"
    else:
        grid = _grid_of(f, w, h, None if mask.all() else mask, opts)
    if f.infinite:
        props["tiled.origin"] = f"{origin[0]},{origin[1]}"
    markers = markers_from_objects(f, grid, origin, stagger, marker_objects, budget)
    table = names.table()
    if len(table) > np.iinfo(np.int16).max:
        raise MapFileError(f"the map names {len(table)} terrains, more than the {np.iinfo(np.int16).max} a board holds", None)
    m = Map(grid, terrain=np.where(mask, terrain, 0).astype(np.int16), terrains=table,
            overlay=None if overlay is None else np.where(mask, overlay, -1).astype(np.int16),
            markers=markers, properties=props, **_extras(f, grid.shape, grid.ndir))
    return m, names.added, unnamed


# -- objects to markers ---------------------------------------------------------------------

def _centres(f: TiledFile, c: NDArray[np.int64], r: NDArray[np.int64]) -> tuple[Any, Any]:
    """Object-space centres of Tiled cells ``(c, r)`` (absolute tile coordinates)."""
    tw, th = float(f.tilewidth), float(f.tileheight)
    if f.orientation == "orthogonal":
        return (c + 0.5) * tw, (r + 0.5) * th
    if f.orientation == "isometric":  # objects live in an unprojected space of th x th tiles
        return (c + 0.5) * th, (r + 0.5) * th
    side = float(f.hexsidelength) if f.orientation == "hexagonal" else 0.0
    odd = 1 if f.staggerindex == "odd" else 0
    if f.staggeraxis == "x":
        colw = (tw - side) / 2 + side
        return c * colw + tw / 2, r * th + th / 2 + th / 2 * ((c & 1) == odd)
    rowh = (th - side) / 2 + side
    return c * tw + tw / 2 + tw / 2 * ((r & 1) == odd), r * rowh + th / 2


def _step(f: TiledFile) -> tuple[float, float]:
    """Object-space distance between neighbouring columns and rows."""
    tw, th = float(f.tilewidth), float(f.tileheight)
    if f.orientation == "orthogonal":
        return tw, th
    if f.orientation == "isometric":
        return th, th
    side = float(f.hexsidelength) if f.orientation == "hexagonal" else 0.0
    if f.staggeraxis == "x":
        return (tw - side) / 2 + side, th
    return tw, (th - side) / 2 + side


def _spend(budget: list[int], n: int) -> None:
    """Take ``n`` cells from the objects' budget (``max_cells`` over every object of the map)."""
    budget[0] -= n
    if budget[0] < 0:
        raise MapFileError("the map's objects cover more cells, all together, than the cap (max_cells)", None)


def _cells_in(f: TiledFile, box: tuple[float, float, float, float], inside: Callable[[NDArray[np.float64], NDArray[np.float64]], NDArray[np.bool_]],
              bounds: tuple[int, int, int, int], budget: list[int]) -> list[tuple[int, int]]:
    """Tiled cells (absolute) within ``bounds`` whose centre is ``inside`` the shape with bounding ``box``."""
    sx, sy = _step(f)
    c0, r0, c1, r1 = bounds
    ca, cb = max(c0, math.floor(box[0] / sx) - 2), min(c1, math.floor(box[2] / sx) + 3)
    ra, rb = max(r0, math.floor(box[1] / sy) - 2), min(r1, math.floor(box[3] / sy) + 3)
    if ca >= cb or ra >= rb:
        return []
    _spend(budget, (cb - ca) * (rb - ra))
    r, c = np.mgrid[ra:rb, ca:cb]
    cx, cy = _centres(f, c.ravel(), r.ravel())
    hit = inside(cx, cy)
    return list(zip(c.ravel()[hit].tolist(), r.ravel()[hit].tolist()))


def _nearest(f: TiledFile, x: float, y: float, bounds: tuple[int, int, int, int]) -> tuple[int, int] | None:
    """The Tiled cell (absolute) under object-space point ``(x, y)``."""
    sx, sy = _step(f)
    c0, r0, c1, r1 = bounds
    ca, ra = math.floor(x / sx), math.floor(y / sy)
    r, c = np.mgrid[max(ra - 2, r0):min(ra + 3, r1), max(ca - 2, c0):min(ca + 3, c1)]
    if not r.size:
        return None
    cx, cy = _centres(f, c.ravel(), r.ravel())
    if f.orientation in ("orthogonal", "isometric"):
        d = np.maximum(np.abs(cx - x) / sx, np.abs(cy - y) / sy)  # a square's own tile is the Chebyshev-nearest centre
    elif f.orientation == "staggered":
        d = np.abs(cx - x) / f.tilewidth + np.abs(cy - y) / f.tileheight  # a diamond is an L1 ball
    else:
        d = np.hypot((cx - x) / f.tilewidth, (cy - y) / f.tileheight)
    k = int(np.argmin(d))
    if f.orientation in ("orthogonal", "isometric") and d[k] > 0.5:
        return None
    return int(c.ravel()[k]), int(r.ravel()[k])


def _in_polygon(pts: list[tuple[float, float]]) -> Callable[[NDArray[np.float64], NDArray[np.float64]], NDArray[np.bool_]]:
    def inside(x: NDArray[np.float64], y: NDArray[np.float64]) -> NDArray[np.bool_]:
        hit = np.zeros(x.shape, dtype=bool)
        n = len(pts)
        for k in range(n):
            (ax, ay), (bx, by) = pts[k], pts[(k + 1) % n]
            cross = (ay > y) != (by > y)
            with np.errstate(divide="ignore", invalid="ignore"):
                xi = ax + (y - ay) * (bx - ax) / np.where(by == ay, 1.0, by - ay)
            hit ^= cross & (x < xi)
        return hit
    return inside


def _object_cells(f: TiledFile, o: TiledObject, bounds: tuple[int, int, int, int], budget: list[int]) -> list[tuple[int, int]]:
    if o.shape == "point":
        c = _nearest(f, o.x, o.y, bounds)
        return [] if c is None else [c]
    if o.shape == "tile":  # the tile's bottom-left (orthogonal) or bottom-centre (isometric) is (x, y)
        dx = o.width / 2 if f.orientation != "isometric" else 0.0
        c = _nearest(f, o.x + dx, o.y - o.height / 2 if f.orientation != "isometric" else o.y - f.tileheight / 2, bounds)
        return [] if c is None else [c]
    if o.shape in ("polygon", "polyline"):
        pts = [(o.x + px, o.y + py) for px, py in o.points]
        if not pts:
            return []
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        box = (min(xs), min(ys), max(xs), max(ys))
        cells: list[tuple[int, int]] = []
        if o.shape == "polygon" and len(pts) >= 3:
            cells = _cells_in(f, box, _in_polygon(pts), bounds, budget)
        if not cells:  # a line, or a shape too thin to hold a centre: the cells it passes over
            sx, sy = _step(f)
            seen: dict[tuple[int, int], None] = {}
            for (ax, ay), (bx, by) in zip(pts, pts[1:] or pts):
                n = max(1, int(4 * max(abs(bx - ax) / sx, abs(by - ay) / sy)))
                _spend(budget, n)
                for t in np.linspace(0.0, 1.0, n + 1).tolist():
                    c = _nearest(f, ax + (bx - ax) * t, ay + (by - ay) * t, bounds)
                    if c is not None:
                        seen[c] = None
            cells = list(seen)
        return cells
    box = (o.x, o.y, o.x + o.width, o.y + o.height)
    if o.shape == "ellipse" and o.width > 0 and o.height > 0:
        ex, ey, rx, ry = o.x + o.width / 2, o.y + o.height / 2, o.width / 2, o.height / 2
        cells = _cells_in(f, box, lambda x, y: ((x - ex) / rx) ** 2 + ((y - ey) / ry) ** 2 <= 1.0, bounds, budget)
    else:
        cells = _cells_in(f, box, lambda x, y: (x >= box[0]) & (x < box[2]) & (y >= box[1]) & (y < box[3]), bounds, budget)
    if not cells:
        c = _nearest(f, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, bounds)
        cells = [] if c is None else [c]
    return cells


def _parse_cells(text: Any) -> list[tuple[int, int]]:
    out = []
    for part in str(text).split(";"):
        if part.strip():
            a, _, b = part.partition(",")
            out.append((to_int(a.strip(), "wargrid.cells x", minimum=None), to_int(b.strip(), "wargrid.cells y", minimum=None)))
    return out


def markers_from_objects(f: TiledFile, grid: Grid, origin: tuple[int, int], stagger: IsoStagger | None,
                         objects: list[TiledObject], budget: list[int]) -> list[Marker]:
    """Every object of the object layers as a ``Marker`` on ``grid`` (cells off the board left out)."""
    out = []
    ox, oy = origin
    bounds = (ox, oy, ox + (stagger.width if stagger else grid.width), oy + (stagger.height if stagger else grid.height))
    for o in objects:
        props = _plain(o.properties)
        if "wargrid.cells" in props:  # wargrid wrote the exact board cells
            cells = _parse_cells(props.pop("wargrid.cells"))
            _spend(budget, len(cells))
        else:
            tiled = [(c - ox, r - oy) for c, r in _object_cells(f, o, bounds, budget)]
            cells = [stagger.cell(t) for t in tiled] if stagger is not None else tiled
        cells = [c for c in cells if 0 <= c[0] < grid.width and 0 <= c[1] < grid.height and grid.mask[c[1], c[0]]]
        out.append(Marker(o.name, tuple(cells), kind=o.cls, properties=props))
    return out


# -- writing ------------------------------------------------------------------------

_CHUNK = 16
_Value = Union[str, int, float, bool]


def _geometry(m: Map) -> _Geometry:
    """Tiled map attributes that draw ``m``'s board the way wargrid does."""
    grid = m.grid
    if isinstance(grid, IsometricGrid):
        if _stagger_of(m) is not None:
            st = _stagger_of(m)
            assert st is not None
            return {"orientation": "staggered", "tilewidth": 2 * _TILE, "tileheight": _TILE, "staggeraxis": st.axis,
                    "staggerindex": st.index}
        return {"orientation": "isometric", "tilewidth": 2 * _TILE, "tileheight": _TILE}
    if isinstance(grid, SquareGrid):
        return {"orientation": "orthogonal", "tilewidth": _TILE, "tileheight": _TILE}
    if isinstance(grid, StaggeredGrid):
        axis = "x" if grid.stagger == "columns" else "y"
        return {"orientation": "hexagonal", "tilewidth": _TILE, "tileheight": _TILE, "hexsidelength": _TILE,
                "staggeraxis": axis, "staggerindex": "odd"}
    if isinstance(grid, HexGrid):
        long, short = _TILE, round(_TILE * math.sqrt(3) / 2)
        axis = "x" if grid.orientation == "flat" else "y"
        tw, th = (long, short) if axis == "x" else (short, long)
        return {"orientation": "hexagonal", "tilewidth": tw, "tileheight": th, "hexsidelength": _TILE // 2,
                "staggeraxis": axis, "staggerindex": grid.offset.split("-")[0]}
    raise ArgumentTypeError(f"cannot write a {type(grid).__name__} to Tiled")


def _stagger_of(m: Map) -> IsoStagger | None:
    """The staggered isometric layout an ``IsometricGrid`` map was read from (its ``tiled.stagger`` property)."""
    text = m.properties.get("tiled.stagger")
    if text is None or not isinstance(m.grid, IsometricGrid):
        return None
    try:
        axis, index, w, h = str(text).split(",")
        st = IsoStagger(axis, index, int(w), int(h))
    except (ValueError, TypeError):
        raise ArgumentError(f"map property 'tiled.stagger' must be 'axis,index,width,height', got {text!r}") from None
    if st.board_shape() != (m.grid.width, m.grid.height):
        raise ArgumentError(f"map property 'tiled.stagger' = {text!r} does not fit the {m.grid.width} x {m.grid.height} board")
    return st


def _origin_of(m: Map) -> tuple[int, int] | None:
    text = m.properties.get("tiled.origin")
    if text is None:
        return None
    try:
        x, y = (int(v) for v in str(text).split(","))
    except ValueError:
        raise ArgumentError(f"map property 'tiled.origin' must be 'x,y', got {text!r}") from None
    return x, y


def _map_props(m: Map) -> dict[str, _Value]:
    grid = m.grid
    p: dict[str, _Value] = {"wargrid.kind": grid.kind}
    if isinstance(grid, SquareGrid):
        p["wargrid.diagonal"] = grid.diagonal
        if grid.diagonal:
            p["wargrid.corner_rule"] = grid.corner_rule
    p["wargrid.wrap_x"] = grid.wrap_x
    if m.terrains != TerrainTable.default():
        p["wargrid.terrains"] = json.dumps(m.terrains.to_dict(), separators=(",", ":"))
    if m.elevation is not None:
        raw = zlib.compress(np.ascontiguousarray(m.elevation, dtype="<f8").tobytes())
        p["wargrid.elevation"] = base64.b64encode(raw).decode("ascii")
    if m.edges is not None and m.edges.any():
        ys, xs, ds = np.nonzero(m.edges)
        items = [[x, y, d, None if math.isinf(c) else c]
                 for x, y, d, c in zip(xs.tolist(), ys.tolist(), ds.tolist(), m.edges[ys, xs, ds].tolist())]
        p["wargrid.edges"] = json.dumps(items, separators=(",", ":"))
    if m.climb_cost:
        p["wargrid.climb_cost"] = m.climb_cost
    p.update({k: v for k, v in m.properties.items() if not k.startswith("tiled.") and k not in p})
    return p


def _gids(m: Map, stagger: IsoStagger | None) -> _Layers:
    mask = m.grid.mask
    ground = np.where(mask, m.terrain.astype(np.int64) + 1, 0).astype(np.uint32)
    layers: _Layers = [("ground", ground)]
    if (m.overlay >= 0).any():
        layers.append(("overlay", np.where(mask & (m.overlay >= 0), m.overlay.astype(np.int64) + 1, 0).astype(np.uint32)))
    if stagger is not None:
        layers = [(n, stagger.from_board(a)) for n, a in layers]
    return layers


def _objects(m: Map, geo: _Geometry, stagger: IsoStagger | None, origin: tuple[int, int]) -> list[dict[str, Any]]:
    """``m.markers`` as Tiled point objects at their first cell, the exact cells in ``wargrid.cells`` when not one."""
    f = TiledFile(geo["orientation"], 1, 1, geo["tilewidth"], geo["tileheight"], geo.get("hexsidelength", 0),
                  geo.get("staggeraxis", "y"), geo.get("staggerindex", "odd"), False, {}, {}, [], [])
    lookup: dict[tuple[int, int], tuple[int, int]] = {}
    if stagger is not None and m.markers:
        r, c = np.divmod(np.arange(stagger.width * stagger.height, dtype=np.int64), stagger.width)
        bx, by = stagger.cells(c, r)
        lookup = {(int(a), int(b)): (int(cc), int(rr)) for a, b, cc, rr in zip(bx, by, c, r)}
    out = []
    for k, mk in enumerate(m.markers, start=1):
        props: dict[str, _Value] = dict(mk.properties)
        if len(mk.cells) != 1:
            props["wargrid.cells"] = ";".join(f"{x},{y}" for x, y in mk.cells)
        first = mk.cells[0] if mk.cells else m.grid.cell(int(np.flatnonzero(m.grid.mask.ravel())[0]))
        c0, r0 = lookup[first] if stagger is not None else first
        cx, cy = _centres(f, np.array([c0 + origin[0]]), np.array([r0 + origin[1]]))
        out.append({"id": k, "name": mk.name, "class": mk.kind, "x": round(float(cx[0]), 4), "y": round(float(cy[0]), 4),
                    "properties": props})
    return out


def _chunks(arr: NDArray[np.uint32], origin: tuple[int, int]) -> list[tuple[int, int, NDArray[np.uint32]]]:
    """16 x 16 chunks at multiples of 16 (Tiled's own layout) holding ``arr`` placed at ``origin``; empty ones left out."""
    ox, oy = origin
    h, w = arr.shape
    out = []
    for cy in range(oy - oy % _CHUNK, oy + h, _CHUNK):
        for cx in range(ox - ox % _CHUNK, ox + w, _CHUNK):
            block = np.zeros((_CHUNK, _CHUNK), dtype=np.uint32)
            ya, yb, xa, xb = max(cy, oy), min(cy + _CHUNK, oy + h), max(cx, ox), min(cx + _CHUNK, ox + w)
            block[ya - cy:yb - cy, xa - cx:xb - cx] = arr[ya - oy:yb - oy, xa - ox:xb - ox]
            if block.any():
                out.append((cx, cy, block))
    return out


def _encode(arr: NDArray[np.uint32], encoding: str, compression: str | None) -> str:
    if encoding == "csv":
        return "\n" + ",\n".join(",".join(str(v) for v in row) for row in arr.tolist()) + "\n"
    raw = arr.astype("<u4").tobytes()
    if compression == "zlib":
        raw = zlib.compress(raw)
    elif compression == "gzip":
        import gzip

        raw = gzip.compress(raw, mtime=0)
    return base64.b64encode(raw).decode("ascii")


def _tileset_png(m: Map, path: Path, geo: _Geometry) -> None:
    require("PIL", extra="png", feature="Tileset images (tileset_image=True)")
    from PIL import Image, ImageDraw

    tw, th = geo["tilewidth"], geo["tileheight"]
    colors = m.terrains.colors()
    img = Image.new("RGBA", (tw * len(colors), th), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    for i, c in enumerate(colors):
        x0 = i * tw
        if isinstance(m.grid, HexGrid):
            s = geo["hexsidelength"]
            if geo["staggeraxis"] == "x":
                e = (tw - s) / 2
                pts = [(x0 + e, 0), (x0 + tw - e, 0), (x0 + tw - 1, th / 2), (x0 + tw - e, th - 1), (x0 + e, th - 1), (x0, th / 2)]
            else:
                e = (th - s) / 2
                pts = [(x0 + tw / 2, 0), (x0 + tw - 1, e), (x0 + tw - 1, th - e), (x0 + tw / 2, th - 1), (x0, th - e), (x0, e)]
            draw.polygon(pts, fill=c, outline="#00000040")
        elif isinstance(m.grid, IsometricGrid):
            draw.polygon([(x0 + tw / 2, 0), (x0 + tw - 1, th / 2), (x0 + tw / 2, th - 1), (x0, th / 2)], fill=c, outline="#00000040")
        else:
            draw.rectangle([x0, 0, x0 + tw - 1, th - 1], fill=c, outline="#00000040")
    atomic_write_with(path, lambda f: img.save(f, format="PNG"))


@dataclass
class _Plan:
    """Everything a TMX or TMJ file of a map holds, format aside."""

    geo: _Geometry
    width: int
    height: int
    origin: tuple[int, int] | None
    layers: _Layers
    props: dict[str, _Value]
    objects: list[dict[str, Any]]
    encoding: str
    compression: str | None
    image: str | None


def save_tiled(
    m: Map,
    path: str | os.PathLike[str],
    *,
    encoding: str = "csv",
    compression: str | None = None,
    tileset_image: bool = True,
) -> None:
    """Write ``m`` as a Tiled ``.tmx`` (XML) or ``.tmj``/``.json`` map.

    One embedded tileset has a tile per terrain (tile id = terrain id, with a
    ``terrain`` property); ``tileset_image`` also writes ``<name>-terrain.png``
    beside the map so Tiled shows the terrain colours. Layers: ``ground``,
    ``overlay`` when the map has roads or bridges, and an object layer
    ``markers`` (one point object per marker at its first cell; the exact
    cells in a ``wargrid.cells`` property when there is not exactly one).
    Elevation, edge costs, the climb cost and ``m.properties`` ride along
    as map properties, so ``load_tiled`` gives back an equal map. A map read
    from a staggered isometric or an infinite map is written as one again.
    ``encoding`` is 'csv' or 'base64' (then ``compression`` None, 'zlib' or 'gzip').

    Parameters
    ----------
    m : Map
        The map.
    path : str or path-like
        ``.tmx`` for XML; ``.tmj`` or ``.json`` for JSON.
    encoding : str
        Layer data: 'csv' or 'base64'.
    compression : str, optional
        With base64: 'zlib' or 'gzip' (default none).
    tileset_image : bool
        Also write the tileset's picture of terrain colours.

    Raises
    ------
    ValueError
        An unknown extension, encoding or compression (``ArgumentError``).
    TypeError
        ``m`` is not a ``Map`` (``ArgumentTypeError``).

    Examples
    --------
    >>> import tempfile, os, json
    >>> from wargrid import SquareGrid, Map
    >>> p = os.path.join(tempfile.mkdtemp(), "s.tmj")
    >>> save_tiled(Map(SquareGrid(3, 2)), p, encoding="base64", compression="zlib", tileset_image=False)
    >>> d = json.load(open(p)); d["orientation"], d["layers"][0]["compression"]
    ('orthogonal', 'zlib')
    """
    path = check_path(path)
    if not isinstance(m, Map):
        raise ArgumentTypeError(f"m must be a wargrid Map, got {type(m).__name__}")
    if not isinstance(encoding, str) or encoding not in ("csv", "base64"):
        raise ArgumentError(f"encoding must be 'csv' or 'base64', got {encoding!r}")
    if compression is not None and (not isinstance(compression, str) or compression not in ("zlib", "gzip")):
        raise ArgumentError(f"compression must be None, 'zlib' or 'gzip', got {compression!r}")
    if compression is not None and encoding != "base64":
        raise ArgumentError("compression needs encoding='base64'")
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".tmx", ".tmj", ".json"):
        raise ArgumentError(f"path must end in .tmx, .tmj or .json, got {path.name!r}")
    geo = _geometry(m)
    stagger = _stagger_of(m)
    origin = _origin_of(m)
    layers = _gids(m, stagger)
    h, w = layers[0][1].shape
    image = f"{path.stem}-terrain.png"
    plan = _Plan(geo, w, h, origin, layers, _map_props(m), _objects(m, geo, stagger, origin or (0, 0)), encoding, compression,
                 image if tileset_image else None)
    text = _tmx_text(m, plan) if suffix == ".tmx" else _tmj_text(m, plan)
    png = path.parent / image
    png_new = tileset_image and not png.exists()
    if tileset_image:
        _tileset_png(m, png, geo)
    try:
        atomic_write(path, text)
    except BaseException:
        if png_new:  # leave nothing behind when the map itself could not be written
            png.unlink(missing_ok=True)
        raise


def _prop_type(v: _Value) -> str:
    return "bool" if isinstance(v, bool) else "int" if isinstance(v, int) else "float" if isinstance(v, float) else "string"


def _tmx_props(props: Mapping[str, _Value], indent: str) -> list[str]:
    if not props:
        return []
    out = [f"{indent}<properties>\n"]
    for k, v in props.items():
        typ = _prop_type(v)
        val = str(v).lower() if isinstance(v, bool) else repr(v) if isinstance(v, float) else str(v)
        if typ == "string" and ("\n" in val or "\r" in val):  # an attribute would turn line breaks into spaces
            out.append(f"{indent} <property name={quoteattr(k)}>{escape(val)}</property>\n")
            continue
        out.append(f"{indent} <property name={quoteattr(k)}{'' if typ == 'string' else f' type={quoteattr(typ)}'} "
                   f"value={quoteattr(val)}/>\n")
    out.append(f"{indent}</properties>\n")
    return out


def _tmx_text(m: Map, plan: _Plan) -> str:
    geo = plan.geo
    attrs = " ".join(f'{k}="{v}"' for k, v in geo.items())
    nlayers = len(plan.layers) + (1 if plan.objects else 0)
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n',
           f'<map version="1.10" tiledversion="1.10.2" {attrs} renderorder="right-down" width="{plan.width}" '
           f'height="{plan.height}" infinite="{int(plan.origin is not None)}" nextlayerid="{nlayers + 1}" '
           f'nextobjectid="{len(plan.objects) + 1}">\n']
    out += _tmx_props(plan.props, " ")
    n = len(m.terrains)
    tw, th = geo["tilewidth"], geo["tileheight"]
    out.append(f' <tileset firstgid="1" name="terrain" tilewidth="{tw}" tileheight="{th}" tilecount="{n}" columns="{n}">\n')
    if plan.image:
        out.append(f"  <image source={quoteattr(plan.image)} width=\"{tw * n}\" height=\"{th}\"/>\n")
    for i, t in enumerate(m.terrains):
        out.append(f'  <tile id="{i}">\n   <properties>\n'
                   f'    <property name="terrain" value={quoteattr(t.name)}/>\n'
                   f'    <property name="color" type="color" value={quoteattr("#ff" + t.color[1:])}/>\n'
                   f"   </properties>\n  </tile>\n")
    out.append(" </tileset>\n")
    comp = f' compression="{plan.compression}"' if plan.compression else ""
    for lid, (name, arr) in enumerate(plan.layers, start=1):
        out.append(f' <layer id="{lid}" name="{escape(name)}" width="{plan.width}" height="{plan.height}">\n'
                   f'  <data encoding="{plan.encoding}"{comp}>')
        if plan.origin is None:
            out.append(_encode(arr, plan.encoding, plan.compression))
        else:
            out.append("\n")
            for cx, cy, block in _chunks(arr, plan.origin):
                out.append(f'   <chunk x="{cx}" y="{cy}" width="{_CHUNK}" height="{_CHUNK}">'
                           f"{_encode(block, plan.encoding, plan.compression)}</chunk>\n")
            out.append("  ")
        out.append("</data>\n </layer>\n")
    if plan.objects:
        out.append(f' <objectgroup id="{len(plan.layers) + 1}" name="markers">\n')
        for o in plan.objects:
            cls = f" class={quoteattr(o['class'])}" if o["class"] else ""
            out.append(f'  <object id="{o["id"]}" name={quoteattr(o["name"])}{cls} x="{o["x"]}" y="{o["y"]}">\n')
            out += _tmx_props(o["properties"], "   ")
            out.append("   <point/>\n  </object>\n")
        out.append(" </objectgroup>\n")
    out.append("</map>\n")
    return "".join(out)


def _tmj_props(props: Mapping[str, _Value]) -> list[dict[str, Any]]:
    return [{"name": k, "type": _prop_type(v), "value": v} for k, v in props.items()]


def _tmj_text(m: Map, plan: _Plan) -> str:
    geo = plan.geo
    n = len(m.terrains)
    tw, th = geo["tilewidth"], geo["tileheight"]
    tileset: dict[str, object]
    tileset = {"firstgid": 1, "name": "terrain", "tilewidth": tw, "tileheight": th, "tilecount": n, "columns": n,
               "margin": 0, "spacing": 0,
               "tiles": [{"id": i, "properties": [{"name": "terrain", "type": "string", "value": t.name},
                                                   {"name": "color", "type": "color", "value": "#ff" + t.color[1:]}]}
                         for i, t in enumerate(m.terrains)]}
    if plan.image:
        tileset.update({"image": plan.image, "imagewidth": tw * n, "imageheight": th})

    def data(arr: NDArray[np.uint32]) -> Any:
        return arr.ravel().tolist() if plan.encoding == "csv" else _encode(arr, plan.encoding, plan.compression)

    out_layers: list[dict[str, object]] = []
    for lid, (name, arr) in enumerate(plan.layers, start=1):
        layer: dict[str, object] = {"id": lid, "name": name, "type": "tilelayer", "width": plan.width,
                                    "height": plan.height, "x": 0, "y": 0, "opacity": 1, "visible": True}
        if plan.encoding != "csv":
            layer["encoding"] = "base64"
            if plan.compression:
                layer["compression"] = plan.compression
        if plan.origin is None:
            layer["data"] = data(arr)
        else:
            layer.update(startx=plan.origin[0], starty=plan.origin[1])
            layer["chunks"] = [{"x": cx, "y": cy, "width": _CHUNK, "height": _CHUNK, "data": data(b)}
                               for cx, cy, b in _chunks(arr, plan.origin)]
        out_layers.append(layer)
    if plan.objects:
        out_layers.append({"id": len(plan.layers) + 1, "name": "markers", "type": "objectgroup", "draworder": "topdown",
                           "opacity": 1, "visible": True, "x": 0, "y": 0,
                           "objects": [{"id": o["id"], "name": o["name"], "class": o["class"], "x": o["x"], "y": o["y"],
                                        "width": 0, "height": 0, "rotation": 0, "visible": True, "point": True,
                                        **({"properties": _tmj_props(o["properties"])} if o["properties"] else {})}
                                       for o in plan.objects]})
    d = {"type": "map", "version": "1.10", "tiledversion": "1.10.2", **geo, "renderorder": "right-down",
         "width": plan.width, "height": plan.height, "infinite": plan.origin is not None,
         "nextlayerid": len(out_layers) + 1, "nextobjectid": len(plan.objects) + 1, "compressionlevel": -1,
         "properties": _tmj_props(plan.props), "tilesets": [tileset], "layers": out_layers}
    return json.dumps(d, indent=1) + "\n"
