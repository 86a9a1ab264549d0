"""wargrid's own map file: the board, the terrain table and every layer, in one file.

Two encodings of the same content, chosen by the file name:

- ``.json`` (or ``.wargrid.json``): readable JSON. Terrain and overlay are
  rows of terrain symbols (overlay ``' '`` = none); elevation rows of numbers;
  edge costs a list of ``[x, y, direction, cost]`` (``null`` cost = a wall).
- ``.npz``: compressed numpy arrays (loaded with ``allow_pickle=False``) plus
  the same header as JSON text; for big boards.

The header also holds the map's ``markers`` (``[{name, kind, cells,
properties}]``), ``properties``, playable rectangle and ``bridges``
(``[{cells, hp, max_hp, overlay, ruin}]``, in id order) when it has any.

Writes are atomic (temp file beside the target, then ``os.replace``).
Loading gives a map equal to the one saved (``Map.__eq__``).

>>> import tempfile, os
>>> from wargrid import HexGrid, Map
>>> m = Map(HexGrid(5, 4)); m.set_terrain([(1, 2)], "forest"); m.set_overlay([(0, 0)], "road")
>>> p = os.path.join(tempfile.mkdtemp(), "b.wargrid.json")
>>> save_map(m, p)
>>> load_map(p) == m
True
"""

from __future__ import annotations

import io
import json
import math
import os
import tokenize
import zipfile
import zlib
from pathlib import Path
from typing import IO, Any, BinaryIO, TypedDict

import numpy as np
from numpy.typing import NDArray

from ..errors import ArgumentError, ArgumentTypeError
from ..grids.boards import Grid, HexGrid, SquareGrid, StaggeredGrid
from ..grids.isometric import IsometricGrid
from .._validate import check_positive_int, check_path
from ..map import Map, Marker
from ..terrain import TerrainTable, TerrainTableData
from .._files import atomic_write, atomic_write_with, open_regular, read_capped
from .errors import MAX_FILE_CELLS, MapFileError

__all__ = ["save_map", "load_map", "map_to_dict", "map_from_dict", "grid_from_description", "FORMAT", "MapData",
           "MapLayersData"]

FORMAT = "wargrid-map"
VERSION = 1
_MAX_JSON_BYTES = 1 << 30
_MAX_HEADER_BYTES = 1 << 24  # the header array of an .npz file: the board and the terrain table as JSON
_NPY_SLACK = 1 << 16  # room for an .npy member's own header
# the dtype kinds each .npz layer may have, and how to name them
_KINDS = {
    "terrain": ("iu", "integer"),
    "overlay": ("iu", "integer"),
    "mask": ("b", "boolean"),
    "elevation": ("fiu", "real (not complex)"),
    "edges": ("fiu", "real (not complex)"),
}


class _MarkerData(TypedDict):
    name: str
    kind: str
    cells: list[list[int]]
    properties: dict[str, Any]


class _HeaderBase(TypedDict):
    format: str
    version: int
    grid: dict[str, Any]  # ``Grid.describe()``, plus ``mask`` rows of '0'/'1' on a masked board
    terrains: TerrainTableData
    climb_cost: float


class _HeaderData(_HeaderBase, total=False):
    markers: list[_MarkerData]
    properties: dict[str, Any]
    playable: list[int]  # [x0, y0, w, h]
    bridges: list[dict[str, Any]]  # [{cells, hp, max_hp, overlay, ruin}], by id


class _TerrainLayer(TypedDict):
    terrain: list[str]


class MapLayersData(_TerrainLayer, total=False):
    """The ``layers`` of a JSON map file: rows of terrain symbols, then the optional layers."""

    overlay: list[str]
    elevation: list[list[float]]
    edges: list[list[float | None]]  # [x, y, direction, cost]; a ``None`` cost is a wall


class MapData(_HeaderData):
    """``map_to_dict(m)``: the content of a JSON map file."""

    layers: MapLayersData


def save_map(m: Map, path: str | os.PathLike[str], *, encoding: str | None = None) -> None:
    """Write ``m`` to ``path``: ``.npz`` as compressed arrays, anything else as JSON.

    ``encoding`` ('json' or 'npz') overrides the choice by file name.

    Parameters
    ----------
    m : Map
        The map.
    path : str or path-like
        Where to write (the file is replaced atomically).
    encoding : str, optional
        'json' or 'npz' (default: by the file name).

    Raises
    ------
    ValueError
        An unknown ``encoding`` (``ArgumentError``).
    TypeError
        ``m`` is not a ``Map`` (``ArgumentTypeError``).

    Examples
    --------
    >>> import tempfile, os
    >>> from wargrid import SquareGrid, Map
    >>> p = os.path.join(tempfile.mkdtemp(), "big.npz")
    >>> save_map(Map(SquareGrid(64, 64)), p); load_map(p).shape
    (64, 64)
    """
    path = check_path(path)
    if not isinstance(m, Map):
        raise ArgumentTypeError(f"m must be a wargrid Map, got {type(m).__name__}")
    path = Path(path)
    enc = encoding if encoding is not None else ("npz" if path.suffix.lower() == ".npz" else "json")
    if not isinstance(enc, str) or enc not in ("json", "npz"):
        raise ArgumentError(f"encoding must be 'json', 'npz' or None, got {encoding!r}")
    m = m.copy()  # one state, taken under the map's lock: another thread's edit is all in or all out
    if enc == "json":
        atomic_write(path, json.dumps(map_to_dict(m), indent=1, allow_nan=False) + "\n")
        return
    header, arrays = _header(m), _arrays(m)

    def write(f: IO[bytes]) -> None:
        np.savez_compressed(f, header=np.array(json.dumps(header, allow_nan=False)), **arrays)

    atomic_write_with(path, write)


def load_map(path: str | os.PathLike[str], *, max_cells: int = MAX_FILE_CELLS) -> Map:
    """Read a map written by ``save_map`` (JSON or npz, told apart by content).

    Any problem raises ``MapFileError`` naming the file (and the line for JSON).

    Parameters
    ----------
    path : str or path-like
        The file.
    max_cells : int
        Refuse boards of more cells than this (a guard against hostile files).

    Returns
    -------
    Map

    Raises
    ------
    MapFileError
        An unreadable, malformed or oversized file (also a ``ValueError``).

    Examples
    --------
    >>> import tempfile, os
    >>> from wargrid import SquareGrid, Map
    >>> p = os.path.join(tempfile.mkdtemp(), "small.wargrid.json")
    >>> save_map(Map(SquareGrid(6, 4)), p); load_map(p).shape
    (4, 6)
    """
    path = check_path(path)
    max_cells = check_positive_int(max_cells, "max_cells")
    path = Path(path)
    npz_cap = _npz_byte_cap(max_cells)
    with open_regular(path, cap=max(npz_cap, _MAX_JSON_BYTES), error=MapFileError, what="wargrid map file") as f:
        try:
            head = f.read(4)
            size = f.seek(0, os.SEEK_END)
            f.seek(0)
        except OSError as exc:
            raise MapFileError(f"cannot read: {exc.strerror or exc}", path) from None
        if head.startswith(b"PK"):
            if size > npz_cap:
                raise MapFileError(f"file is {size} bytes, past the limit of {npz_cap} bytes for a .npz map of at "
                                   f"most {max_cells} cells", path)
            return _load_npz(f, path, max_cells)
        if size > _MAX_JSON_BYTES:
            raise MapFileError(f"file is {size} bytes; JSON map files are capped at {_MAX_JSON_BYTES}: use .npz", path)
        raw = read_capped(f, path, cap=_MAX_JSON_BYTES, error=MapFileError, what="JSON map file")
    try:
        text = raw.decode("utf-8-sig")  # a byte-order mark (Windows editors write one) is skipped
        data = json.loads(text)
    except UnicodeDecodeError as exc:
        raise MapFileError(f"not a text file ({exc.reason} at byte {exc.start})", path) from None
    except json.JSONDecodeError as exc:
        raise MapFileError(f"not valid JSON: {exc.msg} (column {exc.colno})", path, exc.lineno) from None
    except RecursionError:
        raise MapFileError("JSON nested too deeply", path) from None
    try:
        return map_from_dict(data, max_cells=max_cells)
    except MapFileError as exc:
        raise MapFileError(exc.reason, path) from None
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        raise MapFileError(_msg(exc), path) from None


# -- dict form -------------------------------------------------------------------------

def _header(m: Map) -> _HeaderData:
    g = m.container
    d: _HeaderData = {"format": FORMAT, "version": VERSION, "grid": g.describe(), "terrains": m.terrains.to_dict(),
                      "climb_cost": m.climb_cost}
    if not g.mask.all():
        d["grid"]["mask"] = ["".join("1" if v else "0" for v in row) for row in g.mask.tolist()]
    if m.markers:
        d["markers"] = [{"name": mk.name, "kind": mk.kind, "cells": [list(c) for c in mk.cells],
                         "properties": dict(mk.properties)} for mk in m.markers]
    if m.properties:
        d["properties"] = dict(m.properties)
    if m.playable is not None:
        d["playable"] = list(m.playable)
    if m.bridges:
        d["bridges"] = [{"cells": [list(c) for c in b.cells], "hp": b.hp, "max_hp": b.max_hp, "overlay": b.overlay,
                         "ruin": b.ruin} for b in m.bridges]
    return d


def _add_bridges(m: Map, d: Any) -> Map:
    """``m`` with the ``bridges`` of header ``d`` built on it, in id order."""
    raw = d.get("bridges", [])
    if not isinstance(raw, list):
        raise MapFileError("'bridges' must be a list of {cells, hp, max_hp, overlay, ruin}", None)
    for i, b in enumerate(raw):
        if not isinstance(b, dict) or not isinstance(b.get("cells"), list):
            raise MapFileError(f"bridges[{i}] must be an object with cells, hp, max_hp, overlay and ruin", None)
        cells = [tuple(c) if isinstance(c, list) else c for c in b["cells"]]
        m.add_bridge(cells, max_hp=b.get("max_hp", 100.0), hp=b.get("hp"), overlay=b.get("overlay", "bridge"),
                     ruin=b.get("ruin"))
    return m


def _extras(d: Any) -> dict[str, Any]:
    """The ``markers`` and ``properties`` of a header as ``Map`` keyword arguments."""
    out: dict[str, Any] = {}
    raw = d.get("markers", [])
    if not isinstance(raw, list):
        raise MapFileError("'markers' must be a list of {name, kind, cells, properties}", None)
    markers = []
    for i, mk in enumerate(raw):
        if not isinstance(mk, dict) or not isinstance(mk.get("cells"), list):
            raise MapFileError(f"markers[{i}] must be an object with name, kind, cells and properties", None)
        cells = [tuple(c) if isinstance(c, list) else c for c in mk["cells"]]
        markers.append(Marker(mk.get("name", ""), tuple(cells), kind=mk.get("kind", ""),
                              properties=mk.get("properties", {})))
    out["markers"] = markers
    props = d.get("properties", {})
    if not isinstance(props, dict):
        raise MapFileError("'properties' must be an object", None)
    out["properties"] = props
    playable = d.get("playable")
    if playable is not None:
        if not (isinstance(playable, list) and len(playable) == 4
                and all(isinstance(v, int) and not isinstance(v, bool) for v in playable)):
            raise MapFileError(f"'playable' must be [x0, y0, w, h] (four integers), got {playable!r}", None)
        out["playable"] = tuple(playable)
    return out


def map_to_dict(m: Map) -> MapData:
    """The JSON content of ``save_map`` as plain data.

    >>> from wargrid import SquareGrid, Map
    >>> d = map_to_dict(Map(SquareGrid(3, 2)))
    >>> d["grid"]["kind"], d["layers"]["terrain"]
    ('square', ['...', '...'])
    """
    m = m.copy()  # one state, taken under the map's lock
    sym = [t.symbol for t in m.terrains]
    layers: MapLayersData = {"terrain": ["".join(sym[i] for i in row) for row in m.terrain.tolist()]}
    if (m.overlay >= 0).any():
        layers["overlay"] = ["".join(" " if i < 0 else sym[i] for i in row) for row in m.overlay.tolist()]
    if m.elevation is not None:
        layers["elevation"] = [[_num(v) for v in row] for row in m.elevation.tolist()]
    if m.edges is not None and m.edges.any():
        ys, xs, ds = np.nonzero(m.edges)
        layers["edges"] = [
            [int(x), int(y), int(dd), None if math.isinf(c) else _num(c)]
            for x, y, dd, c in zip(xs.tolist(), ys.tolist(), ds.tolist(), m.edges[ys, xs, ds].tolist())
        ]
    return {**_header(m), "layers": layers}


def _num(v: float) -> float | int:
    return int(v) if float(v).is_integer() and abs(v) < 2**53 else float(v)


class _LayerArrays(TypedDict):  # the arrays of an .npz map file
    terrain: NDArray[np.int16]
    overlay: NDArray[np.int16]


class _Arrays(_LayerArrays, total=False):
    mask: NDArray[np.bool_]
    elevation: NDArray[np.float64]
    edges: NDArray[np.float64]


def _arrays(m: Map) -> _Arrays:
    a: _Arrays = {"terrain": m.terrain, "overlay": m.overlay}
    if not m.container.mask.all():
        a["mask"] = m.container.mask
    if m.elevation is not None:
        a["elevation"] = m.elevation
    if m.edges is not None and m.edges.any():
        a["edges"] = m.edges
    return a


def grid_from_description(d: Any, *, max_cells: int = MAX_FILE_CELLS, mask: NDArray[np.bool_] | None = None) -> Grid:
    """A grid from ``Grid.describe()`` data.

    >>> grid_from_description({"kind": "hex", "width": 4, "height": 3, "orientation": "pointy", "offset": "even-r"})
    HexGrid(4, 3, orientation='pointy', offset='even-r')
    """
    if not isinstance(d, dict):
        raise MapFileError("'grid' must be an object with kind, width and height", None)
    kind = d.get("kind")
    if not isinstance(kind, str):  # an array's == asked numpy for a truth value
        raise MapFileError(f"grid kind must be 'hex', 'square', 'staggered' or 'isometric', got {kind!r}", None)
    w, h = _grid_size(d, "width"), _grid_size(d, "height")
    if w * h > max_cells:
        raise MapFileError(f"board of {w} x {h} = {w * h} cells is larger than the cap of {max_cells} cells", None)
    wrap = d.get("wrap_x", False)
    if kind == "hex":
        return HexGrid(w, h, orientation=d.get("orientation", "flat"), offset=d.get("offset"), wrap_x=wrap, mask=mask)
    if kind == "square":
        return SquareGrid(w, h, diagonal=d.get("diagonal", False), corner_rule=d.get("corner_rule", "no-obstacle"),
                          wrap_x=wrap, mask=mask)
    if kind == "staggered":
        return StaggeredGrid(w, h, stagger=d.get("stagger", "columns"), wrap_x=wrap, mask=mask)
    if kind == "isometric":
        return IsometricGrid(w, h, diagonal=d.get("diagonal", True), corner_rule=d.get("corner_rule", "no-obstacle"),
                             wrap_x=wrap, mask=mask)
    raise MapFileError(f"grid kind must be 'hex', 'square', 'staggered' or 'isometric', got {kind!r}", None)


def _grid_size(d: dict[str, Any], name: str) -> int:
    v = d.get(name)
    if isinstance(v, bool) or not isinstance(v, int) or v < 1:
        raise MapFileError(f"grid {name} must be an integer >= 1, got {v!r}", None)
    return v


def _check_header(d: Any) -> None:
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise MapFileError(f"not a wargrid map file (no \"format\": \"{FORMAT}\")", None)
    if d.get("version") != VERSION:
        raise MapFileError(f"map file version {d.get('version')!r} is not supported (this wargrid reads {VERSION})", None)


def _mask_rows(rows: Any, w: int, h: int) -> NDArray[np.bool_] | None:
    if rows is None:
        return None
    if not isinstance(rows, list) or len(rows) != h or any(not isinstance(r, str) or len(r) != w for r in rows):
        raise MapFileError(f"grid mask must be {h} strings of {w} characters '0'/'1'", None)
    for y, r in enumerate(rows):
        if r.strip("01"):
            x = next(i for i, c in enumerate(r) if c not in "01")
            raise MapFileError(f"grid mask row {y} has {r[x]!r} at x={x}; a mask holds only '0' and '1'", None)
    return np.array([[c == "1" for c in r] for r in rows], dtype=bool)


def _symbol_rows(rows: Any, name: str, t: TerrainTable, w: int, h: int, *, blank: bool) -> NDArray[np.int16]:
    if not isinstance(rows, list) or len(rows) != h:
        raise MapFileError(f"layer {name!r} must be a list of {h} rows, got {type(rows).__name__} "
                           f"of {len(rows) if isinstance(rows, list) else '?'}", None)
    lut = {tt.symbol: i for i, tt in enumerate(t)}
    if blank:
        lut[" "] = -1
    out = np.empty((h, w), dtype=np.int16)
    for y, row in enumerate(rows):
        if not isinstance(row, str) or len(row) != w:
            raise MapFileError(f"layer {name!r} row {y} must be a string of {w} symbols, got "
                               f"{len(row) if isinstance(row, str) else type(row).__name__}", None)
        try:
            out[y] = [lut[c] for c in row]
        except KeyError as exc:
            raise MapFileError(f"layer {name!r} row {y} has unknown terrain symbol {exc.args[0]!r}; known: "
                               f"{''.join(lut)!r}", None) from None
    return out


def map_from_dict(d: Any, *, max_cells: int = MAX_FILE_CELLS) -> Map:
    """Inverse of ``map_to_dict`` (``MapFileError`` on bad content).

    >>> from wargrid import HexGrid, Map
    >>> m = Map(HexGrid(3, 3)); map_from_dict(map_to_dict(m)) == m
    True
    """
    _check_header(d)
    gd = d.get("grid")
    if not isinstance(gd, dict):
        raise MapFileError("'grid' must be an object", None)
    unmasked = grid_from_description({k: v for k, v in gd.items() if k != "mask"}, max_cells=max_cells)  # size checks
    w, h = unmasked.width, unmasked.height
    grid = grid_from_description(gd, max_cells=max_cells, mask=_mask_rows(gd.get("mask"), w, h))
    if not isinstance(d.get("terrains"), dict):
        raise MapFileError("'terrains' must be an object with classes and terrains", None)
    table = TerrainTable.from_dict(d["terrains"])
    layers = d.get("layers")
    if not isinstance(layers, dict):
        raise MapFileError("'layers' must be an object", None)
    terrain = _symbol_rows(layers.get("terrain"), "terrain", table, w, h, blank=False)
    overlay = None
    if layers.get("overlay") is not None:
        overlay = _symbol_rows(layers["overlay"], "overlay", table, w, h, blank=True)
    elevation = None
    if layers.get("elevation") is not None:
        try:
            elevation = np.array(layers["elevation"], dtype=np.float64)
        except (TypeError, ValueError, OverflowError):  # (an integer past a float's range overflows)
            raise MapFileError("layer 'elevation' must be rows of numbers a float holds", None) from None
    edges = layers.get("edges")
    e = None
    if edges:
        e = np.zeros((h, w, grid.ndir), dtype=np.float64)
        for i, item in enumerate(edges):
            if not (isinstance(item, list) and len(item) == 4):
                raise MapFileError(f"edges[{i}] must be [x, y, direction, cost], got {item!r}", None)
            x, y, dd, c = item
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in (x, y, dd)) or not (
                0 <= x < w and 0 <= y < h and 0 <= dd < grid.ndir
            ):
                raise MapFileError(f"edges[{i}] = {item!r} is off the board or not a direction 0..{grid.ndir - 1}", None)
            cost = math.inf if c is None else c
            if isinstance(cost, bool) or not isinstance(cost, (int, float)) or not cost >= 0 \
                    or isinstance(cost, int) and cost >= 1 << 1023:  # (past a float's range: an overflow)
                raise MapFileError(f"edges[{i}] cost must be a number >= 0 or null (a wall), got {c!r}", None)
            e[y, x, dd] = cost
    m = _add_bridges(Map(grid, terrain=terrain, terrains=table, overlay=overlay, elevation=elevation, edges=e,
                         climb_cost=d.get("climb_cost", 0.0), **_extras(d)), d)
    return m


def _npz_byte_cap(max_cells: int) -> int:
    """The largest .npz map file of at most ``max_cells`` cells: every layer stored, none compressed."""
    per_cell = 8 * 8 + 8 + 8 + 8 + 1  # edges (8 directions of float64), terrain, overlay, elevation, mask
    return max_cells * per_cell + _MAX_HEADER_BYTES + 8 * _NPY_SLACK


def _load_npz(f: BinaryIO, path: Path, max_cells: int) -> Map:
    try:
        with np.load(f, allow_pickle=False) as z:
            names = set(z.files)
            if "header" not in names:
                raise MapFileError("not a wargrid map file (no header array)", path)
            _check_member_bytes(z.zip, max_cells)
            shape, dtype = _declared(z.zip, "header")
            if math.prod(shape) * dtype.itemsize > _MAX_HEADER_BYTES:
                raise MapFileError(f"array 'header' declares shape {shape} of {dtype}, past the cap of "
                                   f"{_MAX_HEADER_BYTES} bytes", None)
            header = json.loads(str(z["header"][()]))
            _check_header(header)
            gd = header.get("grid")
            board = grid_from_description(gd, max_cells=max_cells)  # size cap before reading big arrays
            keys = [k for k in ("terrain", "overlay", "mask", "elevation", "edges") if k in names]
            for k in keys:  # each array's declared shape, dtype and inflated size, before inflating it
                _check_member(z.zip, k, board.shape + ((board.ndir,) if k == "edges" else ()))
            arr = {k: z[k] for k in keys}
            for k, v in arr.items():
                if v.dtype.kind not in _KINDS[k][0]:
                    raise MapFileError(f"array {k!r} has dtype {v.dtype}; it must be {_KINDS[k][1]}", None)
    except MapFileError as exc:
        raise MapFileError(exc.reason, path) from None
    except (OSError, ValueError, zipfile.BadZipFile, zlib.error, NotImplementedError, RuntimeError, EOFError, KeyError,
            SyntaxError, tokenize.TokenError) as exc:  # zip methods/encryption unsupported; a garbled .npy header
        raise MapFileError(f"not a readable .npz map file: {_msg(exc)}", path) from None
    except MemoryError:
        raise MapFileError("the arrays do not fit in memory", path) from None
    try:
        mask = arr.get("mask")
        grid = grid_from_description(gd, max_cells=max_cells, mask=mask)
        table = TerrainTable.from_dict(header["terrains"])
        if "terrain" not in arr:
            raise MapFileError("the terrain array is missing", None)
        e = None
        if "edges" in arr:
            e = np.asarray(arr["edges"], dtype=np.float64)
            if e.shape != grid.shape + (grid.ndir,):
                raise MapFileError(f"edges must have shape {grid.shape + (grid.ndir,)}, got {e.shape}", None)
            if np.isnan(e).any() or (e < 0).any():
                raise MapFileError("edge costs must be >= 0 or inf (no NaN)", None)
        m = Map(grid, terrain=arr["terrain"], terrains=table, overlay=arr.get("overlay"),
                elevation=arr.get("elevation"), edges=e, climb_cost=header.get("climb_cost", 0.0), **_extras(header))
        return _add_bridges(m, header)
    except MapFileError as exc:
        raise MapFileError(exc.reason, path) from None
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        raise MapFileError(_msg(exc), path) from None


def _declared(zf: zipfile.ZipFile, name: str) -> tuple[tuple[int, ...], np.dtype[Any]]:
    """The shape and dtype an .npy member declares, read without inflating its data."""
    with zf.open(name + ".npy") as raw:
        version = np.lib.format.read_magic(raw)
        fmt = np.lib.format
        read = fmt.read_array_header_1_0 if version == (1, 0) else fmt.read_array_header_2_0
        shape, _, dtype = read(raw)
    return tuple(shape), np.dtype(dtype)


def _check_member(zf: zipfile.ZipFile, name: str, shape: tuple[int, ...]) -> None:
    """Refuse layer ``name`` unless it declares exactly ``shape`` (the header's board), a dtype of its kind of at
    most 8 bytes, and inflates to no more than that needs -- all read before a byte of its data is inflated."""
    declared, dtype = _declared(zf, name)
    if declared != shape:
        raise MapFileError(f"array {name!r} declares shape {declared}; the header's board needs {shape}", None)
    kinds, kind_name = _KINDS[name]
    if dtype.kind not in kinds or dtype.itemsize > 8:
        raise MapFileError(f"array {name!r} has dtype {dtype}; it must be {kind_name} of at most 8 bytes", None)
    need = math.prod(shape) * dtype.itemsize + _NPY_SLACK
    size = zf.getinfo(name + ".npy").file_size
    if size > need:
        raise MapFileError(f"array {name!r} inflates to {size} bytes; its declared shape {shape} of {dtype} needs "
                           f"at most {need}", None)


def _check_member_bytes(zf: zipfile.ZipFile, max_cells: int) -> None:
    """Refuse members whose inflated size (from the zip's own directory, which
    also bounds what inflating yields) is past the caps, before inflating any."""
    caps = {"header.npy": _MAX_HEADER_BYTES}
    # the widest layer: a float64 edge cost per direction (at most 8) per cell
    layer_cap = max_cells * 8 * 8 + _NPY_SLACK
    for k in ("terrain", "overlay", "mask", "elevation", "edges"):
        caps[k + ".npy"] = layer_cap
    for info in zf.infolist():
        cap = caps.get(info.filename)
        if cap is not None and info.file_size > cap:
            name = info.filename[: -len(".npy")]
            raise MapFileError(f"array {name!r} inflates to {info.file_size} bytes, past the cap of {cap} bytes", None)


def _msg(exc: BaseException) -> str:
    if isinstance(exc, KeyError):
        return f"missing entry {exc.args[0]!r}" if exc.args else "missing entry"
    return " ".join(str(exc).split()) or type(exc).__name__
