"""Tiled TMX (XML) and TMJ (JSON) files to one plain form: map attributes, tilesets, layers, objects.

Both readers fill the same ``TiledFile``; what it means for a board is
decided in ``tiled.py``. Tile data may be CSV, base64 (uncompressed, zlib or
gzip) or XML ``<tile gid>`` elements; infinite maps come as chunks. External
tilesets (``.tsx`` / ``.tsj``) are read relative to the file that names them,
as Tiled does (``../tilesets/x.tsx`` from ``maps/``), only regular files, each
up to ``MAX_TILESET_BYTES`` and all of a map's up to ``MAX_MAP_TILESET_BYTES``;
``root`` confines them to one folder. The tiles of all tile layers and chunks
together are capped by ``max_cells``, the objects (and polygon points) by
``MAX_TILED_OBJECTS``, so a small file cannot inflate into gigabytes.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from .._files import UTF8_BOM
from .errors import MapFileError

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

__all__ = ["MAX_MAP_TILESET_BYTES", "MAX_TILED_OBJECTS", "MAX_TILESET_BYTES", "TiledFile", "TiledLayer", "TileInfo",
           "TiledObject", "read_tiled_file"]

MAX_TILESET_BYTES = 8 << 20
"""Largest external tileset file read (8 MB)."""
MAX_MAP_TILESET_BYTES = 64 << 20
"""Largest total of a map's external tileset files (64 MB; a file named twice is read once)."""
MAX_TILED_OBJECTS = 1 << 18
"""Most objects a map's object layers may hold, and most polygon points (each counted once)."""
_TILE = 32


@dataclass
class TileInfo:
    """What a tileset says about one tile."""

    properties: dict[str, Any] = field(default_factory=dict)
    cls: str = ""
    collision: bool = False
    colours: list[str] = field(default_factory=list)  # Wang / terrain colour names on its corners and edges, in set order
    order: dict[str, int] = field(default_factory=dict)  # colour name -> position in its set (ties)
    tileset: str = ""  # the name of its tileset


@dataclass
class TiledLayer:
    """One tile layer: its global ids (flip bits kept), and what Tiled says about the layer."""

    name: str
    gids: NDArray[np.uint32]
    visible: bool = True
    properties: dict[str, Any] = field(default_factory=dict)
    cls: str = ""


@dataclass
class TiledObject:
    """One object of an object layer, in Tiled's object coordinates."""

    layer: str
    oid: int
    name: str
    cls: str
    x: float
    y: float
    width: float
    height: float
    shape: str  # 'point', 'rectangle', 'ellipse', 'polygon', 'polyline', 'tile'
    points: list[tuple[float, float]]
    properties: dict[str, Any]
    layer_properties: dict[str, Any] = field(default_factory=dict)
    layer_cls: str = ""
    gid: int = 0


@dataclass
class TiledFile:
    """A Tiled map as plain data (tile layers as arrays of global ids, flip bits kept)."""

    orientation: str
    width: int
    height: int
    tilewidth: int
    tileheight: int
    hexsidelength: int
    staggeraxis: str
    staggerindex: str
    infinite: bool
    properties: dict[str, Any]
    tiles: dict[int, TileInfo]  # gid -> info
    layers: list[TiledLayer]  # tile layers, in file order (bottom first)
    objects: list[TiledObject]
    origin: tuple[int, int] = (0, 0)  # tile coordinates of the arrays' [0, 0] (infinite maps)
    tilesets: list[tuple[int, str]] = field(default_factory=list)  # (firstgid, name), by firstgid

    def tileset_of(self, gid: int) -> str:
        """The name of the tileset ``gid`` falls in ('' when before the first)."""
        name = ""
        for first, n in self.tilesets:
            if first > gid:
                break
            name = n
        return name


def to_int(v: Any, name: str, *, minimum: int | None = 0) -> int:
    try:
        if isinstance(v, bool):
            raise ValueError
        i = int(v)
        if isinstance(v, float) and not v.is_integer():
            raise ValueError
    except (TypeError, ValueError, OverflowError):
        raise MapFileError(f"{name} must be an integer, got {v!r}", None) from None
    if minimum is not None and i < minimum:
        raise MapFileError(f"{name} must be >= {minimum}, got {i}", None)
    return i


def _num(v: Any, name: str) -> float:
    try:
        if isinstance(v, bool):
            raise ValueError
        f = float(v)
    except (TypeError, ValueError, OverflowError):
        raise MapFileError(f"{name} must be a number, got {v!r}", None) from None
    if f != f or f in (float("inf"), float("-inf")):
        raise MapFileError(f"{name} must be a finite number, got {v!r}", None)
    return f


def check_size(w: int, h: int, max_cells: int) -> None:
    if w * h > max_cells:
        raise MapFileError(f"map of {w} x {h} = {w * h} tiles is larger than the cap of {max_cells} cells", None)


def decode(text: Any, encoding: str | None, compression: str | None, w: int, h: int, what: str) -> NDArray[np.uint32]:
    """Tile ids of a layer or chunk of ``w`` x ``h`` tiles, checked against that size before inflating."""
    n = w * h
    if encoding == "csv" or isinstance(text, list):
        if isinstance(text, list):
            vals = text
        else:
            parts = [p for p in str(text).replace("\n", ",").replace("\r", ",").split(",") if p.strip()]
            if len(parts) != n:
                raise MapFileError(f"{what}: CSV data has {len(parts)} tiles, the map needs {w} x {h} = {n}", None)
            for p in parts:  # plain ASCII decimals only: int() would also take "+1", "1_0" and other scripts' digits
                q = p.strip()
                if not (q.isascii() and q.isdigit()):
                    raise MapFileError(f"{what}: CSV data holds {q!r}, not a tile id (a plain decimal number)", None)
            vals = [int(p) for p in parts]
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


# -- the neutral form (TMJ-shaped dicts) ------------------------------------------------------

def _xml(data: bytes, path: Path, what: str) -> Element:
    import defusedxml.ElementTree as DET
    from defusedxml import DefusedXmlException
    from xml.etree.ElementTree import ParseError

    from .._xml import blank_doctype

    try:
        root: Element = DET.fromstring(blank_doctype(data), forbid_dtd=True)
    except DefusedXmlException as exc:
        raise MapFileError(f"{what}refused unsafe XML ({type(exc).__name__}: entities and DOCTYPEs with an internal subset "
                           "are not allowed)", path) from None
    except ParseError as exc:
        line = exc.position[0] if getattr(exc, "position", None) else None
        raise MapFileError(f"{what}not well-formed XML: {exc}", path, line) from None
    return root


_PROP_TYPES = {"int": int, "float": float}


def _xml_props(el: Element | None, depth: int = 0) -> list[dict[str, Any]]:
    if el is None:
        return []
    if depth > 16:
        raise MapFileError("class properties nested more than 16 deep", None)
    out: list[dict[str, Any]] = []
    for p in el.findall("property"):
        v: Any = p.get("value")
        if v is None:
            v = p.text or ""
        typ = p.get("type", "string")
        if typ == "bool":
            v = v.lower() == "true"
        elif typ in _PROP_TYPES:
            try:
                v = _PROP_TYPES[typ](v)
            except ValueError:
                raise MapFileError(f"property {p.get('name')!r} of type {typ} has value {v!r}", None) from None
        elif typ == "class":  # a custom class: its members, as a {name: value} dict
            v = {q["name"]: q["value"] for q in _xml_props(p.find("properties"), depth + 1)}
        out.append({"name": p.get("name", ""), "type": typ, "value": v})
    return out


def _xml_objects(group: Element | None) -> list[dict[str, Any]]:
    if group is None:
        return []
    out = []
    for o in group.findall("object"):
        d: dict[str, Any] = {k: o.get(k) for k in ("id", "name", "type", "class", "x", "y", "width", "height", "gid")
                             if o.get(k) is not None}
        d["properties"] = _xml_props(o.find("properties"))
        for kind in ("point", "ellipse"):
            if o.find(kind) is not None:
                d[kind] = True
        for kind in ("polygon", "polyline"):
            el = o.find(kind)
            if el is not None:
                pts = []
                for pair in (el.get("points") or "").split():
                    a, _, b = pair.partition(",")
                    pts.append({"x": a, "y": b})
                d[kind] = pts
        out.append(d)
    return out


def _xml_tileset(ts: Element) -> dict[str, Any]:
    d: dict[str, Any] = {k: ts.get(k) for k in ("firstgid", "source", "name", "class") if ts.get(k) is not None}
    d["properties"] = _xml_props(ts.find("properties"))
    tiles = []
    for t in ts.findall("tile"):
        td: dict[str, Any] = {"id": t.get("id"), "properties": _xml_props(t.find("properties"))}
        for k in ("type", "class"):
            if t.get(k):
                td[k] = t.get(k)
        if t.get("terrain") is not None:  # Tiled < 1.5 terrain sets: four corner indices, blank = none
            td["terrain"] = [int(v) if v.strip() else -1 for v in t.get("terrain", "").split(",")]
        og = t.find("objectgroup")
        if og is not None:
            td["objectgroup"] = {"objects": _xml_objects(og)}
        tiles.append(td)
    d["tiles"] = tiles
    tt = ts.find("terraintypes")
    if tt is not None:
        d["terrains"] = [{"name": e.get("name", "")} for e in tt.findall("terrain")]
    ws = ts.find("wangsets")
    if ws is not None:
        sets = []
        for w in ws.findall("wangset"):
            colours = [{"name": c.get("name", "")} for c in w.findall("wangcolor")]
            if not colours:  # Tiled < 1.5: separate corner and edge colours
                colours = [{"name": c.get("name", "")} for c in w.findall("wangcornercolor") + w.findall("wangedgecolor")]
            wt = [{"tileid": e.get("tileid"), "wangid": e.get("wangid", "")} for e in w.findall("wangtile")]
            sets.append({"name": w.get("name", ""), "colors": colours, "wangtiles": wt})
        d["wangsets"] = sets
    return d


def _xml_layer_head(el: Element, kind: str) -> dict[str, Any]:
    d: dict[str, Any] = {"type": kind, **{k: el.get(k) for k in ("name", "width", "height", "class") if el.get(k) is not None}}
    d["visible"] = el.get("visible", "1") not in ("0", "false")
    d["properties"] = _xml_props(el.find("properties"))
    return d


def _xml_layers(parent: Element, depth: int = 0) -> list[dict[str, Any]]:
    if depth > 32:
        raise MapFileError("layer groups nested more than 32 deep", None)
    out: list[dict[str, Any]] = []
    for el in parent:
        if el.tag == "layer":
            d = _xml_layer_head(el, "tilelayer")
            data = el.find("data")
            if data is None:
                raise MapFileError(f"layer {el.get('name', '')!r} has no <data>", None)
            d["encoding"], d["compression"] = data.get("encoding"), data.get("compression")
            chunks = data.findall("chunk")
            if chunks:
                d["chunks"] = [{**{k: c.get(k) for k in ("x", "y", "width", "height")}, "data": _xml_data(c, d)} for c in chunks]
            else:
                d["data"] = _xml_data(data, d)
            out.append(d)
        elif el.tag == "objectgroup":
            out.append({**_xml_layer_head(el, "objectgroup"), "objects": _xml_objects(el)})
        elif el.tag == "group":
            out.append({**_xml_layer_head(el, "group"), "layers": _xml_layers(el, depth + 1)})
    return out


def _xml_data(el: Element, layer: dict[str, Any]) -> Any:
    if layer.get("encoding") in (None, ""):
        layer["encoding"] = "csv"
        return [to_int(t.get("gid", 0), "tile gid") for t in el.findall("tile")]
    return el.text or ""


def _tmx_dict(data: bytes, path: Path) -> dict[str, Any]:
    root = _xml(data, path, "")
    if root.tag != "map":
        raise MapFileError(f"not a Tiled map: the root element is <{root.tag}>, not <map>", path)
    d: dict[str, Any] = dict(root.attrib)
    d["infinite"] = d.get("infinite", "0") not in ("0", "false")
    d["properties"] = _xml_props(root.find("properties"))
    d["tilesets"] = [_xml_tileset(ts) for ts in root.findall("tileset")]
    d["layers"] = _xml_layers(root)
    return d


def _tmj_dict(data: bytes, path: Path) -> dict[str, Any]:
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
    return d


# -- external tilesets ---------------------------------------------------------------------

class _Tilesets:
    """Reads a map's external tilesets: relative to the file naming them, regular files, bounded, each file once."""

    def __init__(self, path: Path, root: Path | None) -> None:
        self.path = path
        self.root = None if root is None else root.resolve()
        self.total = 0
        self.seen: dict[Path, dict[str, Any]] = {}

    def read(self, source: Any) -> dict[str, Any]:
        path = self.path
        if not isinstance(source, str) or not source:
            raise MapFileError("a tileset has neither tiles nor a 'source' file", path)
        if "://" in source or source.startswith(("\\\\", "//")):
            raise MapFileError(f"its tileset {source!r} is a URL or a network path: only files on the local disk are read", path)
        p = (path.parent / source).resolve()
        if p in self.seen:
            return self.seen[p]
        if self.root is not None and not p.is_relative_to(self.root):
            raise MapFileError(f"its tileset {source!r} (looked for {p}) lies outside {self.root}, the folder "
                               "tilesets must stay inside (root=)", path)
        try:
            # only a regular file, and only so much of it: a source naming a device or a pipe must not be read forever
            if not p.exists():
                raise MapFileError(f"its tileset file {source!r} is missing (looked for {p})", path)
            if not p.is_file():
                raise MapFileError(f"its tileset {source!r} (looked for {p}) is not a regular file", path)
            with p.open("rb") as fh:
                data = fh.read(min(os.fstat(fh.fileno()).st_size, MAX_TILESET_BYTES) + 1)
        except OSError as exc:
            raise MapFileError(f"cannot read its tileset {source!r} (looked for {p}): {exc.strerror or exc}", path) from None
        if len(data) > MAX_TILESET_BYTES:
            raise MapFileError(f"its tileset {source!r} ({p}) is larger than {MAX_TILESET_BYTES} bytes", path)
        self.total += len(data)
        if self.total > MAX_MAP_TILESET_BYTES:
            raise MapFileError(f"its tilesets together are larger than {MAX_MAP_TILESET_BYTES} bytes (at {source!r})", path)
        what = f"its tileset {source!r} ({p}): "
        data = data.removeprefix(UTF8_BOM)
        if data.lstrip()[:1] == b"<":
            root = _xml(data, path, what)
            if root.tag != "tileset":
                raise MapFileError(f"{what}not a Tiled tileset (the root element is <{root.tag}>)", path)
            d = _xml_tileset(root)
        else:
            try:
                d = json.loads(data.decode("utf-8"))
            except (UnicodeDecodeError, ValueError, RecursionError) as exc:
                raise MapFileError(f"{what}not a Tiled JSON tileset ({exc})", path) from None
            if not isinstance(d, dict):
                raise MapFileError(f"{what}not a JSON object", path)
        if not d.get("name"):
            d["name"] = p.stem
        self.seen[p] = d
        return d


# -- the neutral form to TiledFile ------------------------------------------------------------

def props_of(props: Any, depth: int = 0) -> dict[str, Any]:
    """``{name: value}`` of Tiled properties (custom class values as nested dicts of their members)."""
    if props is None:
        return {}
    if depth > 16:
        raise MapFileError("class properties nested more than 16 deep", None)
    if isinstance(props, dict):  # very old Tiled JSON
        return {str(k): v for k, v in props.items()}
    if not isinstance(props, list):
        raise MapFileError("properties must be a list of {name, value}", None)
    out: dict[str, Any] = {}
    for p in props:
        if not isinstance(p, dict):
            continue
        v = p.get("value")
        if p.get("type") == "class" and isinstance(v, dict):
            v = {str(k): (props_of(x, depth + 1) if isinstance(x, list) else x) for k, x in v.items()}
        out[str(p.get("name", ""))] = v
    return out


def _wang_ids(v: Any) -> list[int]:
    if isinstance(v, list):
        return [to_int(x, "wangid entry") for x in v]
    s = str(v).strip()
    if s.lower().startswith("0x"):  # Tiled < 1.5: eight 4-bit colours, lowest nibble first
        n = int(s, 16)
        return [(n >> (4 * k)) & 0xF for k in range(8)]
    return [to_int(x, "wangid entry") for x in s.split(",") if x.strip()]


def _has_area(o: Any) -> bool:
    """Whether a tile's collision object covers ground: a polygon, or a rectangle or ellipse with a size (not a point)."""
    if not isinstance(o, dict) or o.get("point"):
        return False
    if o.get("polygon"):
        return True
    try:
        return float(o.get("width", 0)) > 0 and float(o.get("height", 0)) > 0
    except (TypeError, ValueError):
        return False


def _tileset_tiles(ts: dict[str, Any], first: int, out: dict[int, TileInfo]) -> None:
    name = str(ts.get("name") or "")

    def info(tid: int) -> TileInfo:
        return out.setdefault(first + tid, TileInfo(tileset=name))

    tiles = ts.get("tiles") or []
    if isinstance(tiles, dict):  # Tiled < 1.2 JSON: {"id": {...}}
        tiles = [{"id": k, **v} for k, v in tiles.items() if isinstance(v, dict)]
    if not isinstance(tiles, list):
        raise MapFileError("tileset tiles must be a list", None)
    old_props = ts.get("tileproperties")  # Tiled < 1.2 JSON: {"id": {name: value}}
    if isinstance(old_props, dict):
        for k, v in old_props.items():
            info(to_int(k, "tile id")).properties = props_of(v)
    old_terrains = [str(t.get("name", "")) for t in ts.get("terrains") or [] if isinstance(t, dict)]
    for t in tiles:
        if not isinstance(t, dict):
            raise MapFileError("tileset tiles must be objects", None)
        ti = info(to_int(t.get("id"), "tile id"))
        if "properties" in t:
            ti.properties = props_of(t.get("properties"))
        ti.cls = str(t.get("class") or t.get("type") or "")
        og = t.get("objectgroup")
        ti.collision = isinstance(og, dict) and any(_has_area(o) for o in og.get("objects") or [])
        corners = t.get("terrain")
        if isinstance(corners, str):
            corners = [int(c) if c.strip().isdigit() else -1 for c in corners.split(",")]
        if isinstance(corners, list) and old_terrains:
            names = [old_terrains[c] for c in corners if isinstance(c, int) and 0 <= c < len(old_terrains)]
            if names and not ti.colours:
                ti.colours = names
                ti.order = {n: i for i, n in enumerate(old_terrains)}
    for ws in ts.get("wangsets") or []:
        if not isinstance(ws, dict):
            raise MapFileError("wangsets must be objects", None)
        colours = [str(c.get("name", "")) for c in ws.get("colors") or [] if isinstance(c, dict)]
        order = {n: i for i, n in enumerate(colours)}
        for wt in ws.get("wangtiles") or []:
            if not isinstance(wt, dict):
                raise MapFileError("wangtiles must be objects", None)
            ti = info(to_int(wt.get("tileid"), "wang tile id"))
            if ti.colours:  # the first set that names a tile gives its colours
                continue
            ti.colours = [colours[c - 1] for c in _wang_ids(wt.get("wangid")) if 0 < c <= len(colours)]
            ti.order = order


class _Count:
    """Objects and polygon points read so far, against ``MAX_TILED_OBJECTS``."""

    def __init__(self) -> None:
        self.objects = 0
        self.points = 0

    def add(self, objects: int, points: int) -> None:
        self.objects += objects
        self.points += points
        if self.objects > MAX_TILED_OBJECTS or self.points > MAX_TILED_OBJECTS:
            raise MapFileError(f"the map has more than {MAX_TILED_OBJECTS} objects or polygon points", None)


def _objects(layer: dict[str, Any], count: _Count) -> list[TiledObject]:
    out = []
    name = str(layer.get("name", ""))
    lprops = props_of(layer.get("properties"))
    lcls = str(layer.get("class") or "")
    raw_objects = layer.get("objects") or []
    if not isinstance(raw_objects, list):
        raise MapFileError(f"object layer {name!r}: objects must be a list", None)
    count.add(len(raw_objects), 0)
    for o in raw_objects:
        if not isinstance(o, dict):
            raise MapFileError(f"object layer {name!r}: objects must be objects", None)
        pts: list[tuple[float, float]] = []
        if o.get("point"):
            shape = "point"
        elif o.get("ellipse"):
            shape = "ellipse"
        elif o.get("polygon") or o.get("polyline"):
            shape = "polygon" if o.get("polygon") else "polyline"
            raw = o.get(shape)
            if not isinstance(raw, list):
                raise MapFileError(f"object layer {name!r}: a {shape} must be a list of points", None)
            count.add(0, len(raw))
            pts = [(_num(p.get("x"), "point x"), _num(p.get("y"), "point y")) for p in raw if isinstance(p, dict)]
        elif o.get("gid"):
            shape = "tile"
        else:
            shape = "rectangle"
        out.append(TiledObject(name, to_int(o.get("id", 0), "object id"), str(o.get("name") or ""),
                               str(o.get("class") or o.get("type") or ""), _num(o.get("x", 0), "object x"),
                               _num(o.get("y", 0), "object y"), _num(o.get("width", 0), "object width"),
                               _num(o.get("height", 0), "object height"), shape, pts, props_of(o.get("properties")),
                               lprops, lcls, to_int(o.get("gid", 0), "object gid") & 0x0FFFFFFF))
    return out


def _flatten(layers: Any, depth: int = 0, visible: bool = True) -> list[dict[str, Any]]:
    """Tile and object layers in file order; a layer in a hidden group is hidden."""
    if not isinstance(layers, list) or depth > 32:
        raise MapFileError("layers must be a list", None)
    out: list[dict[str, Any]] = []
    for layer in layers:
        if not isinstance(layer, dict):
            raise MapFileError("each layer must be an object", None)
        shown = visible and layer.get("visible", True) not in (False, 0, "0", "false")
        if layer.get("type") in ("tilelayer", "objectgroup"):
            out.append({**layer, "visible": shown})
        elif layer.get("type") == "group":
            out.extend(_flatten(layer.get("layers", []), depth + 1, shown))
    return out


class _Cells:
    """Tiles decoded so far over every layer and chunk, against ``max_cells``."""

    def __init__(self, max_cells: int) -> None:
        self.max_cells = max_cells
        self.total = 0

    def add(self, n: int, what: str) -> None:
        self.total += n
        if self.total > self.max_cells:
            raise MapFileError(f"{what}: the map's tile layers hold more than the cap of {self.max_cells} tiles "
                               "(counted over all layers and chunks)", None)


def _chunked(layers: list[dict[str, Any]], cells: _Cells) -> tuple[list[TiledLayer], tuple[int, int], int, int]:
    """Tile layers of an infinite map as arrays over the chunks' bounding box, checked before allocating."""
    boxes = []
    for layer in layers:
        name = layer.get("name", "")
        chunks = layer.get("chunks") or []
        if not isinstance(chunks, list):
            raise MapFileError(f"layer {name!r}: chunks must be a list", None)
        for c in chunks:
            if not isinstance(c, dict):
                raise MapFileError(f"layer {name!r}: chunks must be objects", None)
            x, y = to_int(c.get("x"), "chunk x", minimum=None), to_int(c.get("y"), "chunk y", minimum=None)
            w, h = to_int(c.get("width"), "chunk width", minimum=1), to_int(c.get("height"), "chunk height", minimum=1)
            check_size(w, h, cells.max_cells)
            cells.add(w * h, f"layer {name!r}")
            boxes.append((x, y, x + w, y + h))
    if not boxes:
        raise MapFileError("the infinite map has no chunks", None)
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    check_size(x1 - x0, y1 - y0, cells.max_cells)
    if len(layers) * (x1 - x0) * (y1 - y0) > cells.max_cells:  # every layer is an array over the whole box
        raise MapFileError(f"{len(layers)} tile layers over the chunks' {x1 - x0} x {y1 - y0} tiles exceed the cap of "
                           f"{cells.max_cells} tiles", None)
    out = []
    for layer in layers:
        name = layer.get("name", "")
        arr = np.zeros((y1 - y0, x1 - x0), dtype=np.uint32)
        for c in layer.get("chunks") or []:
            x, y, w, h = (int(c[k]) for k in ("x", "y", "width", "height"))
            arr[y - y0:y - y0 + h, x - x0:x - x0 + w] = decode(
                c.get("data"), layer.get("encoding", "csv"), layer.get("compression"), w, h, f"layer {name!r} chunk ({x}, {y})")
        out.append(_layer(layer, arr))
    return out, (x0, y0), x1 - x0, y1 - y0


def _layer(la: dict[str, Any], arr: NDArray[np.uint32]) -> TiledLayer:
    return TiledLayer(str(la.get("name", "")), arr, bool(la.get("visible", True)), props_of(la.get("properties")),
                      str(la.get("class") or ""))


def read_tiled_file(data: bytes, path: Path, max_cells: int, *, root: Path | None = None) -> TiledFile:
    """Parse a TMX or TMJ file's bytes (``MapFileError`` on anything wrong).

    ``max_cells`` caps the tiles of all tile layers and chunks together;
    ``root``, when given, is the folder external tilesets must lie in.
    """
    data = data.removeprefix(UTF8_BOM)  # Windows editors start a UTF-8 file with a byte-order mark
    d = _tmx_dict(data, path) if data.lstrip()[:1] == b"<" else _tmj_dict(data, path)
    infinite = bool(d.get("infinite"))
    w = to_int(d.get("width", 1), "map width", minimum=1)
    h = to_int(d.get("height", 1), "map height", minimum=1)
    if not infinite:
        check_size(w, h, max_cells)
    tiles: dict[int, TileInfo] = {}
    sets = d.get("tilesets") or []
    if not isinstance(sets, list):
        raise MapFileError("tilesets must be a list", None)
    reader = _Tilesets(path, root)
    named: list[tuple[int, str]] = []
    for ts in sets:
        if not isinstance(ts, dict):
            raise MapFileError("tilesets must be objects", None)
        first = to_int(ts.get("firstgid"), "tileset firstgid", minimum=1)
        body = reader.read(ts["source"]) if "source" in ts else ts
        _tileset_tiles(body, first, tiles)
        named.append((first, str(body.get("name") or "")))
    flat = _flatten(d.get("layers"))
    tile_layers = [la for la in flat if la.get("type") == "tilelayer"]
    count = _Count()
    objects = [o for la in flat if la.get("type") == "objectgroup" for o in _objects(la, count)]
    origin = (0, 0)
    cells = _Cells(max_cells)
    if infinite or any("chunks" in la for la in tile_layers):
        layers, origin, w, h = _chunked(tile_layers, cells)
        infinite = True
    else:
        layers = []
        for la in tile_layers:
            name = str(la.get("name", ""))
            lw = to_int(la.get("width", w), "layer width", minimum=1)
            lh = to_int(la.get("height", h), "layer height", minimum=1)
            if (lw, lh) != (w, h):
                raise MapFileError(f"layer {name!r} is {lw} x {lh}, the map is {w} x {h}", None)
            cells.add(w * h, f"layer {name!r}")
            arr = decode(la.get("data"), la.get("encoding", "csv"), la.get("compression"), w, h, f"layer {name!r}")
            layers.append(_layer(la, arr))
    return TiledFile(
        orientation=str(d.get("orientation", "")), width=w, height=h,
        tilewidth=to_int(d.get("tilewidth", _TILE), "tilewidth", minimum=1),
        tileheight=to_int(d.get("tileheight", _TILE), "tileheight", minimum=1),
        hexsidelength=to_int(d.get("hexsidelength", 0), "hexsidelength"),
        staggeraxis=str(d.get("staggeraxis", "y")), staggerindex=str(d.get("staggerindex", "odd")), infinite=infinite,
        properties=props_of(d.get("properties")), tiles=tiles, layers=layers, objects=objects, origin=origin,
        tilesets=sorted(named))
