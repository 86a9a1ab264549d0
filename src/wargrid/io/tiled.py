"""Tiled maps: TMX (XML) and TMJ (JSON), read and written.

Boards: ``orthogonal`` maps are square boards; ``hexagonal`` maps with
``staggeraxis`` x are flat-top hex boards (``staggerindex`` odd/even =
odd-q/even-q), with ``staggeraxis`` y pointy-top (odd-r/even-r). A
hexagonal map whose ``hexsidelength`` equals the whole tile side has
rectangular tiles: wargrid writes its staggered boards that way and reads
them back as ``StaggeredGrid`` (odd index) boards.

Terrain: each tile's terrain comes from a tile property (``terrain`` unless
``terrain_property`` names another) or from ``tile_terrain``, a mapping of
global tile id to terrain name given by the user. Flip bits of global ids
are ignored. An empty cell (gid 0) is a cell outside the board's shape.
The first tile layer is the ground; a tile layer named ``overlay`` holds
roads and bridges. wargrid's own options (diagonal moves, corner rule,
wrap-around) ride along as map properties named ``wargrid.*``.

Layer data may be CSV or base64 (uncompressed, zlib or gzip); XML is
parsed with defusedxml (no entity expansion, no external entities, no DTD).
Every problem raises ``MapFileError`` naming the file.

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
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, TypedDict

import numpy as np
from numpy.typing import NDArray

from ..errors import ArgumentError, ArgumentTypeError
from .._xml import escape, quoteattr
from ..grids.boards import Grid, HexGrid, SquareGrid, StaggeredGrid
from .._validate import check_positive_int
from ..map import Map
from ..terrain import TerrainTable
from .._files import atomic_write, atomic_write_with
from .errors import MAX_FILE_CELLS, MapFileError

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

__all__ = ["load_tiled", "save_tiled"]

_FLIP_MASK = 0x0FFFFFFF  # clears the horizontal, vertical, diagonal and hex-120 flip bits
_MAX_BYTES = 1 << 28
_TILE = 32


@dataclass
class _Raw:
    """What both readers extract before it becomes a map."""

    orientation: str
    width: int
    height: int
    tilewidth: int
    tileheight: int
    hexsidelength: int
    staggeraxis: str
    staggerindex: str
    properties: dict[str, Any]
    tile_props: dict[int, dict[str, Any]]  # gid -> {name: value}
    ground: NDArray[np.uint32] | None
    overlay: NDArray[np.uint32] | None


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

def load_tiled(
    path: str | os.PathLike[str],
    *,
    terrains: TerrainTable | None = None,
    terrain_property: str = "terrain",
    tile_terrain: Mapping[int, str] | None = None,
    max_cells: int = MAX_FILE_CELLS,
) -> Map:
    """Read a Tiled ``.tmx`` or ``.tmj`` (``.json``) map as a ``Map``.

    ``terrains`` is the table terrain names refer to (default: the table
    wargrid wrote into the map's ``wargrid.terrains`` property, else
    ``TerrainTable.default()``); ``tile_terrain`` maps global tile ids to
    terrain names and wins over tile properties.

    >>> import tempfile, os
    >>> from wargrid import SquareGrid, Map
    >>> p = os.path.join(tempfile.mkdtemp(), "small.tmj")
    >>> save_tiled(Map(SquareGrid(6, 4)), p); load_tiled(p).shape
    (4, 6)
    """
    max_cells = check_positive_int(max_cells, "max_cells")
    path = Path(path)
    if terrains is not None and not isinstance(terrains, TerrainTable):
        raise ArgumentTypeError(f"terrains must be a TerrainTable or None, got {type(terrains).__name__}")
    if not isinstance(terrain_property, str) or not terrain_property:
        raise ArgumentTypeError(f"terrain_property must be a non-empty string, got {terrain_property!r}")
    if tile_terrain is not None and not isinstance(tile_terrain, Mapping):
        raise ArgumentTypeError(f"tile_terrain must be a mapping of tile id to terrain name, got {type(tile_terrain).__name__}")
    try:
        size = path.stat().st_size
        if size > _MAX_BYTES:
            raise MapFileError(f"file is {size} bytes, more than the {_MAX_BYTES} a map file may have", path)
        data = path.read_bytes()
    except OSError as exc:
        raise MapFileError(f"cannot read: {exc.strerror or exc}", path) from None
    try:
        if data.lstrip()[:1] == b"<":
            raw = _read_tmx(data, path, max_cells)
        else:
            raw = _read_tmj(data, path, max_cells)
        return _build(raw, terrains, terrain_property, tile_terrain)
    except MapFileError as exc:
        if exc.path is None:
            raise MapFileError(exc.reason, path, exc.line) from None
        raise
    except (ValueError, TypeError, LookupError, OverflowError) as exc:  # LookupError: KeyError, IndexError, unknown XML encoding
        raise MapFileError(" ".join(str(exc).split()) or type(exc).__name__, path) from None


def _int(v: Any, name: str, *, minimum: int = 0) -> int:
    try:
        if isinstance(v, bool):
            raise ValueError
        i = int(v)
        if isinstance(v, float) and not v.is_integer():
            raise ValueError
    except (TypeError, ValueError, OverflowError):
        raise MapFileError(f"{name} must be an integer, got {v!r}", None) from None
    if i < minimum:
        raise MapFileError(f"{name} must be >= {minimum}, got {i}", None)
    return i


def _check_size(w: int, h: int, max_cells: int) -> None:
    if w * h > max_cells:
        raise MapFileError(f"map of {w} x {h} = {w * h} tiles is larger than the cap of {max_cells} cells", None)


def _decode(text: Any, encoding: str | None, compression: str | None, w: int, h: int, what: str) -> NDArray[np.uint32]:
    n = w * h
    if encoding in (None, "", "xml"):
        raise MapFileError(f"{what}: tile data without an encoding (XML <tile> elements) is not supported", None)
    if encoding == "csv":
        if isinstance(text, list):
            vals = text
        else:
            parts = [p for p in str(text).replace("\n", ",").replace("\r", ",").split(",") if p.strip()]
            if len(parts) != n:
                raise MapFileError(f"{what}: CSV data has {len(parts)} tiles, the map needs {w} x {h} = {n}", None)
            try:
                vals = [int(p) for p in parts]
            except ValueError:
                bad = next(p for p in parts if not p.strip().isdigit())
                raise MapFileError(f"{what}: CSV data holds {bad.strip()!r}, not a tile id", None) from None
        if len(vals) != n:
            raise MapFileError(f"{what}: data has {len(vals)} tiles, the map needs {w} x {h} = {n}", None)
        if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 or v > 0xFFFFFFFF for v in vals):
            raise MapFileError(f"{what}: tile ids must be integers 0..4294967295", None)
        arr = np.array(vals, dtype=np.uint32)
    elif encoding == "base64":
        try:
            raw = base64.b64decode("".join(str(text).split()), validate=True)
        except (binascii.Error, ValueError):
            raise MapFileError(f"{what}: bad base64 data", None) from None
        want = 4 * n
        if compression in (None, ""):
            body = raw
        elif compression in ("zlib", "gzip"):
            d = zlib.decompressobj(zlib.MAX_WBITS | (16 if compression == "gzip" else 0))
            try:
                body = d.decompress(raw, want + 1)  # never inflate past what the map needs
            except zlib.error as exc:
                raise MapFileError(f"{what}: bad {compression} data ({exc})", None) from None
            if len(body) == want and not d.eof:
                raise MapFileError(f"{what}: {compression} data is cut short (no end of stream)", None)
        else:
            raise MapFileError(f"{what}: compression {compression!r} is not supported (use none, zlib or gzip)", None)
        if len(body) != want:
            raise MapFileError(f"{what}: data holds {len(body) // 4} tiles, the map needs {w} x {h} = {n}", None)
        arr = np.frombuffer(body, dtype="<u4").astype(np.uint32)
    else:
        raise MapFileError(f"{what}: encoding {encoding!r} is not supported (use csv or base64)", None)
    return arr.reshape(h, w)


def _read_tmx(data: bytes, path: Path, max_cells: int) -> _Raw:
    import defusedxml.ElementTree as DET
    from defusedxml import DefusedXmlException
    from xml.etree.ElementTree import ParseError

    try:
        root: Element = DET.fromstring(data, forbid_dtd=True)
    except DefusedXmlException as exc:
        raise MapFileError(f"refused unsafe XML ({type(exc).__name__}: DTDs and entities are not allowed)", path) from None
    except ParseError as exc:
        line = exc.position[0] if getattr(exc, "position", None) else None
        raise MapFileError(f"not well-formed XML: {exc}", path, line) from None
    if root.tag != "map":
        raise MapFileError(f"not a Tiled map: the root element is <{root.tag}>, not <map>", path)
    a = root.attrib
    if a.get("infinite", "0") not in ("0", "false"):
        raise MapFileError("infinite maps are not supported: resize the map to a fixed size in Tiled", path)
    w = _int(a.get("width"), "map width", minimum=1)
    h = _int(a.get("height"), "map height", minimum=1)
    _check_size(w, h, max_cells)
    props = _tmx_props(root.find("properties"))
    tile_props: dict[int, dict[str, Any]] = {}
    for ts in root.findall("tileset"):
        first = _int(ts.get("firstgid"), "tileset firstgid", minimum=1)
        source = ts.get("source")
        if source:
            ts = _external_tsx(path, source)
        for t in ts.findall("tile"):
            tid = _int(t.get("id"), "tile id")
            tile_props[first + tid] = _tmx_props(t.find("properties"))
    ground: NDArray[np.uint32] | None = None
    overlay: NDArray[np.uint32] | None = None
    for layer in root.iter("layer"):
        lw = _int(layer.get("width", w), "layer width", minimum=1)
        lh = _int(layer.get("height", h), "layer height", minimum=1)
        name = layer.get("name", "")
        if (lw, lh) != (w, h):
            raise MapFileError(f"layer {name!r} is {lw} x {lh}, the map is {w} x {h}", None)
        d = layer.find("data")
        if d is None:
            raise MapFileError(f"layer {name!r} has no <data>", None)
        if d.find("chunk") is not None:
            raise MapFileError("infinite maps (chunked data) are not supported", None)
        arr = _decode(d.text or "", d.get("encoding"), d.get("compression"), w, h, f"layer {name!r}")
        if name == "overlay":
            overlay = arr
        elif ground is None:
            ground = arr
    return _Raw(a.get("orientation", ""), w, h, _int(a.get("tilewidth", _TILE), "tilewidth", minimum=1),
                _int(a.get("tileheight", _TILE), "tileheight", minimum=1), _int(a.get("hexsidelength", 0), "hexsidelength"),
                a.get("staggeraxis", "y"), a.get("staggerindex", "odd"), props, tile_props, ground, overlay)


_MAX_TSX_BYTES = 8 << 20


def _external_tsx(path: Path, source: str) -> Element:
    import defusedxml.ElementTree as DET
    from defusedxml import DefusedXmlException
    from xml.etree.ElementTree import ParseError

    if not isinstance(source, str) or not source:
        raise MapFileError("a tileset has neither tiles nor a 'source' file", path)
    p = (path.parent / source).resolve()
    try:
        # only a regular file, and only so much of it: a source naming a device
        # or a pipe (/dev/zero) must not be read forever
        if not p.is_file():
            raise MapFileError(f"its tileset {source!r} is not a regular file", path)
        with p.open("rb") as fh:
            data = fh.read(_MAX_TSX_BYTES + 1)
        if len(data) > _MAX_TSX_BYTES:
            raise MapFileError(f"its tileset {source!r} is larger than {_MAX_TSX_BYTES} bytes", path)
        root: Element = DET.fromstring(data, forbid_dtd=True)
    except OSError as exc:
        raise MapFileError(f"cannot read its tileset {source!r}: {exc.strerror or exc}", path) from None
    except (DefusedXmlException, ParseError) as exc:
        raise MapFileError(f"its tileset {source!r} is not a safe, well-formed XML file ({exc})", path) from None
    if root.tag != "tileset":
        raise MapFileError(f"{source!r} is not a Tiled tileset", path)
    return root


def _tmx_props(el: Element | None) -> dict[str, str]:
    if el is None:
        return {}
    out: dict[str, str] = {}
    for p in el.findall("property"):
        v = p.get("value")
        if v is None:
            v = p.text or ""
        out[p.get("name", "")] = v
    return out


def _read_tmj(data: bytes, path: Path, max_cells: int) -> _Raw:
    try:
        d = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise MapFileError("not a text file", path) from None
    except json.JSONDecodeError as exc:
        raise MapFileError(f"not valid JSON: {exc.msg} (column {exc.colno})", path, exc.lineno) from None
    except RecursionError:
        raise MapFileError("JSON nested too deeply", path) from None
    if not isinstance(d, dict) or d.get("type", "map") != "map" or "layers" not in d:
        raise MapFileError("not a Tiled JSON map (no \"type\": \"map\" with layers)", path)
    if d.get("infinite"):
        raise MapFileError("infinite maps are not supported: resize the map to a fixed size in Tiled", path)
    w = _int(d.get("width"), "map width", minimum=1)
    h = _int(d.get("height"), "map height", minimum=1)
    _check_size(w, h, max_cells)
    tile_props: dict[int, dict[str, Any]] = {}
    for ts in d.get("tilesets") or []:
        if not isinstance(ts, dict):
            raise MapFileError("tilesets must be objects", None)
        first = _int(ts.get("firstgid"), "tileset firstgid", minimum=1)
        if "source" in ts:
            ts_root = _external_tileset_json(path, ts["source"])
        else:
            ts_root = ts
        if not isinstance(ts_root, dict):
            raise MapFileError("a tileset must be an object", None)
        for t in ts_root.get("tiles") or []:
            if not isinstance(t, dict):
                raise MapFileError("tileset tiles must be objects", None)
            tile_props[first + _int(t.get("id"), "tile id")] = _tmj_props(t.get("properties"))
    ground: NDArray[np.uint32] | None = None
    overlay: NDArray[np.uint32] | None = None
    for layer in _tmj_layers(d["layers"]):
        name = layer.get("name", "")
        lw = _int(layer.get("width", w), "layer width", minimum=1)
        lh = _int(layer.get("height", h), "layer height", minimum=1)
        if (lw, lh) != (w, h):
            raise MapFileError(f"layer {name!r} is {lw} x {lh}, the map is {w} x {h}", None)
        if "chunks" in layer:
            raise MapFileError("infinite maps (chunked data) are not supported", None)
        arr = _decode(layer.get("data"), layer.get("encoding", "csv"), layer.get("compression"), w, h, f"layer {name!r}")
        if name == "overlay":
            overlay = arr
        elif ground is None:
            ground = arr
    return _Raw(str(d.get("orientation", "")), w, h, _int(d.get("tilewidth", _TILE), "tilewidth", minimum=1),
                _int(d.get("tileheight", _TILE), "tileheight", minimum=1), _int(d.get("hexsidelength", 0), "hexsidelength"),
                str(d.get("staggeraxis", "y")), str(d.get("staggerindex", "odd")), _tmj_props(d.get("properties")),
                tile_props, ground, overlay)


def _tmj_layers(layers: Any, depth: int = 0) -> list[dict[str, Any]]:
    if not isinstance(layers, list) or depth > 32:
        raise MapFileError("layers must be a list", None)
    out: list[dict[str, Any]] = []
    for layer in layers:
        if not isinstance(layer, dict):
            raise MapFileError("each layer must be an object", None)
        if layer.get("type") == "tilelayer":
            out.append(layer)
        elif layer.get("type") == "group":
            out.extend(_tmj_layers(layer.get("layers", []), depth + 1))
    return out


def _external_tileset_json(path: Path, source: Any) -> dict[str, Any]:
    p = (path.parent / str(source)).resolve()
    if p.suffix.lower() == ".tsx":
        return {"tiles": [{"id": t.get("id"), "properties": [{"name": k, "value": v} for k, v in _tmx_props(t.find("properties")).items()]}
                          for t in _external_tsx(path, str(source)).findall("tile")]}
    try:
        d = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise MapFileError(f"cannot read its tileset {source!r}: {exc}", path) from None
    if not isinstance(d, dict):
        raise MapFileError(f"its tileset {source!r} is not a JSON object", path)
    return d


def _tmj_props(props: Any) -> dict[str, Any]:
    if props is None:
        return {}
    if isinstance(props, dict):  # very old Tiled JSON
        return {str(k): v for k, v in props.items()}
    if not isinstance(props, list):
        raise MapFileError("properties must be a list of {name, value}", None)
    return {str(p.get("name", "")): p.get("value") for p in props if isinstance(p, dict)}


def _flag(v: Any) -> bool:
    return v is True or str(v).lower() in ("true", "1")


def _grid_of(raw: _Raw, mask: NDArray[np.bool_] | None) -> Grid:
    props = raw.properties
    wrap = _flag(props.get("wargrid.wrap_x", False))
    w, h = raw.width, raw.height
    if raw.orientation == "orthogonal":
        return SquareGrid(w, h, diagonal=_flag(props.get("wargrid.diagonal", False)),
                          corner_rule=str(props.get("wargrid.corner_rule", "no-obstacle")), wrap_x=wrap, mask=mask)
    if raw.orientation == "hexagonal":
        if raw.staggeraxis not in ("x", "y") or raw.staggerindex not in ("odd", "even"):
            raise MapFileError(f"staggeraxis must be x or y and staggerindex odd or even, got "
                               f"{raw.staggeraxis!r} and {raw.staggerindex!r}", None)
        side = raw.tilewidth if raw.staggeraxis == "x" else raw.tileheight
        if raw.hexsidelength >= side and raw.staggerindex == "odd":
            return StaggeredGrid(w, h, stagger="columns" if raw.staggeraxis == "x" else "rows", wrap_x=wrap, mask=mask)
        if raw.staggeraxis == "x":
            return HexGrid(w, h, orientation="flat", offset=f"{raw.staggerindex}-q", wrap_x=wrap, mask=mask)
        return HexGrid(w, h, orientation="pointy", offset=f"{raw.staggerindex}-r", wrap_x=wrap, mask=mask)
    raise MapFileError(f"orientation {raw.orientation!r} is not supported: wargrid reads orthogonal and hexagonal maps", None)


def _table(raw: _Raw, terrains: TerrainTable | None) -> TerrainTable:
    """The given table, else the one wargrid wrote into the map's properties, else the default."""
    if terrains is not None:
        return terrains
    text = raw.properties.get("wargrid.terrains")
    if text is None:
        return TerrainTable.default()
    try:
        return TerrainTable.from_dict(json.loads(str(text)))
    except (ValueError, TypeError, KeyError, RecursionError) as exc:
        raise MapFileError(f"map property 'wargrid.terrains' is not a terrain table: {exc}", None) from None


def _build(raw: _Raw, terrains: TerrainTable | None, prop: str, tile_terrain: Mapping[int, str] | None) -> Map:
    if raw.ground is None:
        raise MapFileError("the map has no tile layer", None)
    terrains = _table(raw, terrains)
    lut: dict[int, int] = {}

    def terrain_id(gid: int, layer: str) -> int:
        if gid in lut:
            return lut[gid]
        name = None
        if tile_terrain is not None and gid in tile_terrain:
            name = tile_terrain[gid]
        elif prop in raw.tile_props.get(gid, {}):
            name = raw.tile_props[gid][prop]
        if name is None:
            how = f"no {prop!r} property" + (" and no entry in tile_terrain" if tile_terrain is not None else "")
            raise MapFileError(f"layer {layer!r}: tile {gid} has {how}", None)
        try:
            lut[gid] = terrains.index(str(name))
        except ValueError:
            raise MapFileError(f"layer {layer!r}: tile {gid} is terrain {name!r}, which is not in the terrain table "
                               f"(known: {', '.join(terrains.names)})", None) from None
        return lut[gid]

    def convert(arr: NDArray[np.uint32], layer: str, empty: int) -> NDArray[np.int16]:
        gids = arr & np.uint32(_FLIP_MASK)
        uniq, inv = np.unique(gids, return_inverse=True)
        ids = np.array([empty if g == 0 else terrain_id(int(g), layer) for g in uniq.tolist()], dtype=np.int16)
        return ids[inv].reshape(arr.shape)

    ground_gids = raw.ground & np.uint32(_FLIP_MASK)
    mask = ground_gids != 0
    if not mask.any():
        raise MapFileError("the ground layer is empty (every tile is 0)", None)
    grid = _grid_of(raw, None if mask.all() else mask)
    terrain = convert(raw.ground, "ground", 0)
    overlay = None if raw.overlay is None else convert(raw.overlay, "overlay", -1)
    return Map(grid, terrain=terrain, terrains=terrains, overlay=overlay)


# -- writing ------------------------------------------------------------------------

def _geometry(grid: Grid) -> _Geometry:
    """Tiled map attributes that draw ``grid`` the way wargrid does."""
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


def _map_props(m: Map) -> dict[str, str | bool]:
    grid = m.grid
    p: dict[str, str | bool] = {"wargrid.kind": grid.kind}
    if isinstance(grid, SquareGrid):
        p["wargrid.diagonal"] = grid.diagonal
        if grid.diagonal:
            p["wargrid.corner_rule"] = grid.corner_rule
    p["wargrid.wrap_x"] = grid.wrap_x
    if m.terrains != TerrainTable.default():
        p["wargrid.terrains"] = json.dumps(m.terrains.to_dict(), separators=(",", ":"))
    return p


def _gids(m: Map) -> tuple[NDArray[np.uint32], NDArray[np.uint32] | None]:
    ground = np.where(m.grid.mask, m.terrain.astype(np.int64) + 1, 0).astype(np.uint32)
    overlay = None
    if (m.overlay >= 0).any():
        overlay = np.where(m.grid.mask & (m.overlay >= 0), m.overlay.astype(np.int64) + 1, 0).astype(np.uint32)
    return ground, overlay


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
        else:
            draw.rectangle([x0, 0, x0 + tw - 1, th - 1], fill=c, outline="#00000040")
    atomic_write_with(path, lambda f: img.save(f, format="PNG"))


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
    beside the map so Tiled shows the terrain colours. Layers: ``ground``
    and, when the map has roads or bridges, ``overlay``. ``encoding`` is
    'csv' or 'base64' (then ``compression`` None, 'zlib' or 'gzip').
    Elevation and edge costs are not written (Tiled has no place for them).

    >>> import tempfile, os, json
    >>> from wargrid import SquareGrid, Map
    >>> p = os.path.join(tempfile.mkdtemp(), "s.tmj")
    >>> save_tiled(Map(SquareGrid(3, 2)), p, encoding="base64", compression="zlib", tileset_image=False)
    >>> d = json.load(open(p)); d["orientation"], d["layers"][0]["compression"]
    ('orthogonal', 'zlib')
    """
    if not isinstance(m, Map):
        raise ArgumentTypeError(f"m must be a wargrid Map, got {type(m).__name__}")
    if encoding not in ("csv", "base64"):
        raise ArgumentError(f"encoding must be 'csv' or 'base64', got {encoding!r}")
    if compression not in (None, "zlib", "gzip"):
        raise ArgumentError(f"compression must be None, 'zlib' or 'gzip', got {compression!r}")
    if compression is not None and encoding != "base64":
        raise ArgumentError("compression needs encoding='base64'")
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".tmx", ".tmj", ".json"):
        raise ArgumentError(f"path must end in .tmx, .tmj or .json, got {path.name!r}")
    geo = _geometry(m.grid)
    ground, overlay = _gids(m)
    image = f"{path.stem}-terrain.png"
    layers: _Layers = [("ground", ground)] + ([("overlay", overlay)] if overlay is not None else [])
    n = len(m.terrains)
    props = _map_props(m)
    if suffix == ".tmx":
        text = _tmx_text(m, geo, layers, props, encoding, compression, image if tileset_image else None)
    else:
        text = _tmj_text(m, geo, layers, props, encoding, compression, image if tileset_image else None)
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
    del n


def _tmx_text(m: Map, geo: _Geometry, layers: _Layers, props: dict[str, str | bool], encoding: str,
              compression: str | None, image: str | None) -> str:
    g = m.grid
    attrs = " ".join(f'{k}="{v}"' for k, v in geo.items())
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n',
           f'<map version="1.10" tiledversion="1.10.2" {attrs} renderorder="right-down" width="{g.width}" '
           f'height="{g.height}" infinite="0" nextlayerid="{len(layers) + 1}" nextobjectid="1">\n', " <properties>\n"]
    for k, v in props.items():
        typ = ' type="bool"' if isinstance(v, bool) else ""
        val = str(v).lower() if isinstance(v, bool) else str(v)
        out.append(f"  <property name={quoteattr(k)}{typ} value={quoteattr(val)}/>\n")
    out.append(" </properties>\n")
    n = len(m.terrains)
    tw, th = geo["tilewidth"], geo["tileheight"]
    out.append(f' <tileset firstgid="1" name="terrain" tilewidth="{tw}" tileheight="{th}" tilecount="{n}" columns="{n}">\n')
    if image:
        out.append(f"  <image source={quoteattr(image)} width=\"{tw * n}\" height=\"{th}\"/>\n")
    for i, t in enumerate(m.terrains):
        out.append(f'  <tile id="{i}">\n   <properties>\n'
                   f'    <property name="terrain" value={quoteattr(t.name)}/>\n'
                   f'    <property name="color" type="color" value={quoteattr("#ff" + t.color[1:])}/>\n'
                   f"   </properties>\n  </tile>\n")
    out.append(" </tileset>\n")
    for lid, (name, arr) in enumerate(layers, start=1):
        comp = f' compression="{compression}"' if compression else ""
        out.append(f' <layer id="{lid}" name="{escape(name)}" width="{g.width}" height="{g.height}">\n'
                   f'  <data encoding="{encoding}"{comp}>{_encode(arr, encoding, compression)}</data>\n </layer>\n')
    out.append("</map>\n")
    return "".join(out)


def _tmj_text(m: Map, geo: _Geometry, layers: _Layers, props: dict[str, str | bool], encoding: str,
              compression: str | None, image: str | None) -> str:
    g = m.grid
    n = len(m.terrains)
    tw, th = geo["tilewidth"], geo["tileheight"]
    tileset: dict[str, object]
    tileset = {"firstgid": 1, "name": "terrain", "tilewidth": tw, "tileheight": th, "tilecount": n, "columns": n,
               "margin": 0, "spacing": 0,
               "tiles": [{"id": i, "properties": [{"name": "terrain", "type": "string", "value": t.name},
                                                   {"name": "color", "type": "color", "value": "#ff" + t.color[1:]}]}
                         for i, t in enumerate(m.terrains)]}
    if image:
        tileset.update({"image": image, "imagewidth": tw * n, "imageheight": th})
    out_layers = []
    for lid, (name, arr) in enumerate(layers, start=1):
        layer: dict[str, object] = {"id": lid, "name": name, "type": "tilelayer", "width": g.width,
                                    "height": g.height, "x": 0, "y": 0, "opacity": 1, "visible": True}
        if encoding == "csv":
            layer["data"] = arr.ravel().tolist()
        else:
            layer["encoding"] = "base64"
            layer["data"] = _encode(arr, encoding, compression)
            if compression:
                layer["compression"] = compression
        out_layers.append(layer)
    d = {"type": "map", "version": "1.10", "tiledversion": "1.10.2", **geo, "renderorder": "right-down",
         "width": g.width, "height": g.height, "infinite": False, "nextlayerid": len(layers) + 1, "nextobjectid": 1,
         "compressionlevel": -1,
         "properties": [{"name": k, "type": "bool" if isinstance(v, bool) else "string", "value": v} for k, v in props.items()],
         "tilesets": [tileset], "layers": out_layers}
    return json.dumps(d, indent=1) + "\n"
