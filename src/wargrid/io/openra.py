"""OpenRA maps (``.oramap`` archives and unpacked map folders), read with the mod's own movement rules.

An OpenRA map is a ``map.yaml`` (MiniYaml: size, playable bounds, tileset,
players, actors) and a ``map.bin`` (per cell: a tile, as a template id and an
index in that template, and a resource), either zipped as an ``.oramap`` or
loose in a folder. ``load_openra`` turns one into a ``Map``:

- **terrain**: each cell's tile is looked up in the map's tileset (a yaml file
  of the mod, found as ``load_openra`` says) and becomes the tile's terrain
  type (``Clear``, ``Rough``, ``Road``, ``Water``, ``Rock``, ``Tree``, ...,
  by OpenRA's names). Index 255 is the old "any variant" marker; an unknown
  template, an index past the template's slots or an empty slot take the
  tileset's default tile (its first template's first tile), as the engine
  does. A resource (ore, gems, Tiberium, spice) on a tile type it may lie on
  turns the cell into the resource's type, unless a building stands there.
- **movement classes**: the mod's locomotors (RA: foot, wheeled,
  heavywheeled, lighttracked, tracked, heavytracked, naval, lcraft; TD:
  also chem, critter, visc; D2K: foot, vehicle, tank, devastator, worm). A
  cell costs the engine's pathing cost divided by 100: ``10000 // percent``
  of the locomotor's ``TerrainSpeeds`` (``PathingCost`` where the rules set
  one), so Clear costs 1, RA's foot on Road 0.9, wheeled on Rough 2. A type
  the locomotor does not list is impassable. The board is an 8-direction
  ``SquareGrid`` with ``corner_rule='always'``: the engine lets a unit pass
  diagonally between two blocked cells and charges a diagonal step the
  entered cell's cost times the square root of two. Terrain never blocks
  sight (OpenRA's shroud is revealed by range alone).
- **playable area**: the map's ``Bounds`` is the map's playable rectangle
  (``Map.playable``): cells outside it are off ``m.grid`` (paths, ranges,
  sight and partitions never use them), though their terrain is read and
  ``m.container`` is the whole stored map.
- **actors**: every actor on the map becomes a ``Marker`` named by its
  id (kind ``'start'`` for ``mpspawn``; ``'building'`` for an actor with a
  footprint; ``'actor'`` otherwise; properties ``type``, ``owner`` and the
  actor's other plain fields). Buildings, trees, rocks and the like block the
  cells their footprint occupies (``x``/``X``): the overlay ``Actor`` there
  is impassable for every class. An actor that can be crushed (walls,
  sandbags; minefields, which occupy their cell) gets an overlay named
  ``Actor-<crush classes>-<ground>``, costing the ground's cost for the
  locomotors that crush it and impassable for the others.
- a map's own ``Rules`` that change a locomotor's ``TerrainSpeeds`` (inline,
  or in a rules file inside the map) are applied.

The mods' rules (locomotors, resources, footprints, crush classes) are
wargrid's own table, made from OpenRA's rules by
``scripts/make_openra_rules.py`` (OpenRA is GPL-3.0; the table holds facts
only). Tilesets are OpenRA's files and are not shipped: ``load_openra``
looks for the map's tileset (by its ``General: Id`` and the map's mod), in
order, in ``tilesets=`` (folders or yaml files), next to the map (the map's
folder and the folder holding it, each with ``tilesets/<mod>/`` and
``tilesets/``; then ``../tilesets/<mod>/`` and ``../tilesets/`` of the
folder holding it, as in OpenRA's ``mods/<mod>/maps/`` beside
``mods/<mod>/tilesets/``), under ``$OPENRA_DIR/mods/<mod>/tilesets/``, and in the usual
install places (``OPENRA_INSTALL_DIRS``); a file of that Id naming another
mod's resource type (Ore for a Tiberian Dawn map) is passed over.

Tiberian Sun's isometric maps (``RequiresMod: ts``) are refused with a clear error.

>>> import tempfile, pathlib, struct
>>> d = pathlib.Path(tempfile.mkdtemp()); (d / "tiny").mkdir()
>>> _ = (d / "tiny.yaml").write_text("General:\\n\\tId: TINY\\nTerrain:\\n\\tTerrainType@Clear:\\n\\t\\tType: Clear\\n"
...     "\\tTerrainType@Water:\\n\\t\\tType: Water\\nTemplates:\\n\\tTemplate@255:\\n\\t\\tId: 255\\n\\t\\tSize: 1,1\\n"
...     "\\t\\tTiles:\\n\\t\\t\\t0: Clear\\n\\tTemplate@1:\\n\\t\\tId: 1\\n\\t\\tSize: 1,1\\n\\t\\tTiles:\\n\\t\\t\\t0: Water\\n")
>>> _ = (d / "tiny" / "map.yaml").write_text("MapFormat: 12\\nRequiresMod: ra\\nTileset: TINY\\nMapSize: 3,2\\n"
...     "Bounds: 0,0,3,2\\nActors:\\n\\tActor0: mpspawn\\n\\t\\tLocation: 2,1\\n\\t\\tOwner: Neutral\\n")
>>> cells = [(1, 0), (255, 0), (255, 0), (255, 0), (255, 0), (255, 0)]  # column by column: (0,0), (0,1), (1,0), ...
>>> body = b"".join(struct.pack("<HB", t, i) for t, i in cells) + bytes(2 * 6)
>>> _ = (d / "tiny" / "map.bin").write_bytes(struct.pack("<BHHIII", 2, 3, 2, 17, 0, 17 + 18) + body)
>>> m = load_openra(d / "tiny")
>>> m.terrain_name((0, 0)), m.terrain_name((1, 0)), m.markers[0].kind, m.markers[0].cells
('Water', 'Clear', 'start', ((2, 1),))
>>> m.terrains.cost("Clear", "foot"), m.terrains.cost("Water", "foot"), m.terrains.cost("Water", "naval")
(1.0, inf, 1.0)
"""

from __future__ import annotations

import functools
import json
import os
import re
import stat
import struct
import sys
import warnings
import zipfile
import zlib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np
from numpy.typing import NDArray

from .._validate import check_positive_int, check_path
from ..errors import ArgumentError, ArgumentTypeError
from ..grids.boards import SquareGrid
from ..map import Map, Marker
from ..terrain import Terrain, TerrainTable
from ._miniyaml import Node, merged, parse
from ._names import _NAME
from .errors import MAX_FILE_CELLS, MapFileError, MapFileWarning

__all__ = ["load_openra", "openra_locomotors", "is_openra_map", "OPENRA_INSTALL_DIRS", "OPENRA_MODS"]

OPENRA_MODS = ("ra", "cnc", "d2k")
"""The mods whose maps ``load_openra`` reads (Red Alert, Tiberian Dawn, Dune 2000)."""

OPENRA_INSTALL_DIRS: dict[str, tuple[str, ...]] = {
    "linux": (
        "/usr/lib/openra",
        "/usr/share/openra",
        "/usr/local/lib/openra",
        "/usr/local/share/openra",
        "/opt/openra",
        "/usr/lib/games/openra",
        "/var/lib/flatpak/app/net.openra.OpenRA/current/active/files/lib/openra",
        "~/.local/share/flatpak/app/net.openra.OpenRA/current/active/files/lib/openra",
    ),
    "win32": ("C:/Program Files/OpenRA", "C:/Program Files (x86)/OpenRA"),
    "darwin": ("/Applications/OpenRA - {game}.app/Contents/Resources",),
}
"""Where OpenRA is usually installed, by platform (``sys.platform``; any other platform uses ``linux``'s):
their ``mods/<mod>/tilesets/`` are searched after ``$OPENRA_DIR``'s. ``{game}`` is the mod's game
(Red Alert, Tiberian Dawn, Dune 2000), as the macOS app bundles are named."""

_GAMES = {"ra": "Red Alert", "cnc": "Tiberian Dawn", "d2k": "Dune 2000"}

MAX_YAML_BYTES = 16 << 20
"""Cap on a ``map.yaml``, a map's rules file or a tileset file (OpenRA's largest tileset is about 350 kB)."""

MAX_MEMBERS = 4096
"""Cap on the files an ``.oramap`` archive may hold."""

MAX_ARCHIVE_BYTES = 256 << 20
"""Cap on the unpacked size of all the files of an ``.oramap`` archive together."""

_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
_ZIP_ERRORS = (OSError, zipfile.BadZipFile, zlib.error, NotImplementedError, RuntimeError, EOFError, ValueError,
               KeyError, IndexError, OverflowError, struct.error, UnicodeDecodeError)
"""What a damaged archive can make ``zipfile`` raise."""
_HEADER_V1 = 5
_HEADER_V2 = 17
_INF = float("inf")
_ANY = 255


# -- the packaged rules ---------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _rules() -> dict[str, Any]:
    data = resources.files("wargrid.io").joinpath("data/openra_rules.json").read_text(encoding="utf-8")
    out: dict[str, Any] = json.loads(data)
    return out


def openra_locomotors(mod: str = "ra") -> dict[str, dict[str, float]]:
    """The cost of each terrain type for each locomotor of ``mod`` (``inf`` where the type is not listed).

    The cost is OpenRA's pathing cost divided by 100 (``10000 // percent`` of
    the locomotor's ``TerrainSpeeds``), so a Clear cell costs 1.

    Parameters
    ----------
    mod : str
        ``'ra'``, ``'cnc'``, ``'d2k'`` (or ``'ts'``).

    Returns
    -------
    dict
        Locomotor name -> terrain type -> cost (types the locomotor cannot enter are left out).

    Raises
    ------
    ValueError
        An unknown mod (``ArgumentError``).

    Examples
    --------
    >>> loc = openra_locomotors("ra")
    >>> sorted(loc)[:3], loc["foot"]["Road"], loc["wheeled"]["Rough"], "Water" in loc["foot"]
    (['foot', 'heavytracked', 'heavywheeled'], 0.9, 2.0, False)
    """
    mods = _rules()["mods"]
    if not isinstance(mod, str) or mod not in mods:
        raise ArgumentError(f"mod must be one of {', '.join(sorted(mods))}, got {mod!r}")
    return {name: {t: sc[1] / 100.0 for t, sc in loc["speeds"].items()} for name, loc in mods[mod]["locomotors"].items()}


# -- reading the files safely ---------------------------------------------------------------------------


def _read_regular(path: Path, cap: int, what: str) -> bytes:
    """The bytes of ``path``, a regular file of at most ``cap`` bytes (``MapFileError`` otherwise)."""
    try:
        st = os.stat(path)
    except OSError as exc:
        raise MapFileError(f"cannot read {what}: {exc.strerror or exc}", path) from None
    if not stat.S_ISREG(st.st_mode):
        raise MapFileError(f"{what} is not a regular file", path)
    if st.st_size > cap:
        raise MapFileError(f"{what} is {st.st_size} bytes, more than the {cap} allowed", path)
    try:
        with open(path, "rb") as f:
            data = f.read(cap + 1)
    except OSError as exc:
        raise MapFileError(f"cannot read {what}: {exc.strerror or exc}", path) from None
    if len(data) > cap:
        raise MapFileError(f"{what} grew past the {cap} bytes allowed while it was read", path)
    return data


class _Package:
    """The files of a map: a zip archive or a folder."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.folder: Path | None = None
        self.zip: zipfile.ZipFile | None = None
        self.members: dict[str, zipfile.ZipInfo] = {}
        if path.is_dir():
            self.folder = path
            return
        try:
            with open(path, "rb") as f:
                head = f.read(4)
        except OSError as exc:
            raise MapFileError(f"cannot read: {exc.strerror or exc}", path) from None
        if head not in _ZIP_MAGIC:
            raise MapFileError("not an OpenRA map: neither a zip archive (.oramap) nor a folder holding map.yaml "
                               "and map.bin", path)
        try:
            st = os.stat(path)
            if not stat.S_ISREG(st.st_mode):
                raise MapFileError("not a regular file", path)
            self.zip = zipfile.ZipFile(path)
            infos = self.zip.infolist()
        except _ZIP_ERRORS as exc:
            raise MapFileError(f"not a readable zip archive ({exc})", path) from None
        if len(infos) > MAX_MEMBERS:
            raise MapFileError(f"the archive holds {len(infos)} files, more than the {MAX_MEMBERS} allowed", path)
        total = 0
        for info in infos:
            if info.is_dir():
                continue
            mode = (info.external_attr >> 16) & 0o170000
            if mode not in (0, stat.S_IFREG):
                raise MapFileError(f"archive member {info.filename!r} is not a regular file", path)
            total += info.file_size
            if total > MAX_ARCHIVE_BYTES:
                raise MapFileError(f"the archive unpacks to more than {MAX_ARCHIVE_BYTES} bytes", path)
            if info.filename in self.members:
                raise MapFileError(f"the archive holds {info.filename!r} twice", path)
            self.members[info.filename] = info

    def close(self) -> None:
        if self.zip is not None:
            self.zip.close()

    def where(self, name: str) -> str:
        """How an error names file ``name`` of the map."""
        return str(self.folder / name) if self.folder is not None else f"{self.path}!{name}"

    def has(self, name: str) -> bool:
        if self.folder is not None:
            return (self.folder / name).exists()
        return name in self.members

    def read(self, name: str, cap: int) -> bytes:
        """File ``name`` of the map, at most ``cap`` bytes (``MapFileError`` naming it otherwise)."""
        if self.folder is not None:
            if "/" in name or "\\" in name or name in ("", ".", ".."):
                raise MapFileError(f"a map's file names no folder, got {name!r}", self.path)
            return _read_regular(self.folder / name, cap, name)
        info = self.members.get(name)
        if info is None:
            raise MapFileError("missing from the archive", self.where(name))
        if info.file_size > cap:
            raise MapFileError(f"{info.file_size} bytes unpacked, more than the {cap} allowed", self.where(name))
        assert self.zip is not None
        try:
            with self.zip.open(info) as f:
                data = f.read(cap + 1)
        except _ZIP_ERRORS as exc:
            raise MapFileError(f"cannot unpack ({exc})", self.where(name)) from None
        if len(data) > cap:
            raise MapFileError(f"unpacks to more than the {cap} bytes allowed", self.where(name))
        return data


def _text(data: bytes, where: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MapFileError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", where) from None


# -- map.yaml ---------------------------------------------------------------------------------------------


def _ints(node: Node | None, n: int, where: str, what: str) -> list[int]:
    if node is None:
        raise MapFileError(f"{what} is missing", where)
    try:
        vals = [int(v.strip()) for v in node.value.split(",")]
    except ValueError:
        vals = []
    if len(vals) != n:
        raise MapFileError(f"{what} must be {n} integers separated by commas, got {node.value!r}", where, node.line)
    return vals


@dataclass
class _Header:
    mod: str
    tileset: str
    width: int
    height: int
    bounds: tuple[int, int, int, int]
    root: dict[str, Node]


def _header(nodes: list[Node], where: str, max_cells: int) -> _Header:
    root = {n.key: n for n in nodes}
    mod_node = root.get("RequiresMod")
    mod = mod_node.value.strip().lower() if mod_node is not None else ""
    if not mod:
        raise MapFileError("RequiresMod is missing (the mod decides the rules and the tileset)", where)
    if mod == "ts":
        raise MapFileError("Tiberian Sun maps (isometric, with heights) are not read; "
                           f"load_openra reads the mods {', '.join(OPENRA_MODS)}", where, mod_node.line if mod_node else None)
    if mod not in OPENRA_MODS:
        raise MapFileError(f"RequiresMod {mod!r} is not a mod load_openra knows; known: {', '.join(OPENRA_MODS)}",
                           where, mod_node.line if mod_node else None)
    ts = root.get("Tileset")
    if ts is None or not ts.value:
        raise MapFileError("Tileset is missing", where)
    w, h = _ints(root.get("MapSize"), 2, where, "MapSize")
    if w < 1 or h < 1 or w > 0xFFFF or h > 0xFFFF:
        raise MapFileError(f"MapSize must be two numbers from 1 to 65535, got {w},{h}", where, root["MapSize"].line)
    if w * h > max_cells:
        raise MapFileError(f"map of {w} x {h} = {w * h} cells is larger than the cap of {max_cells} cells", where,
                           root["MapSize"].line)
    if "Bounds" in root:
        left, top, bw, bh = _ints(root["Bounds"], 4, where, "Bounds")
        if left < 0 or top < 0 or bw < 1 or bh < 1 or left + bw > w or top + bh > h:
            raise MapFileError(f"Bounds {left},{top},{bw},{bh} (left, top, width, height) must lie inside the "
                               f"{w} x {h} map and hold a cell", where, root["Bounds"].line)
    else:
        left, top, bw, bh = 0, 0, w, h
    return _Header(mod, ts.value.strip(), w, h, (left, top, bw, bh), root)


# -- map.bin ----------------------------------------------------------------------------------------------


@dataclass
class _Layers:
    template: NDArray[np.uint16]  # (h, w)
    index: NDArray[np.uint8]
    resource: NDArray[np.uint8]
    version: int


def _layers(data: bytes, w: int, h: int, where: str) -> _Layers:
    """The tile and resource layers of ``map.bin`` (every layer stored column by column), as ``(h, w)`` arrays."""
    if len(data) < _HEADER_V1:
        raise MapFileError(f"{len(data)} bytes: too short for the header", where)
    version = data[0]
    fw, fh = int.from_bytes(data[1:3], "little"), int.from_bytes(data[3:5], "little")
    if version not in (1, 2):
        raise MapFileError(f"layout version {version}; known versions are 1 and 2", where)
    if (fw, fh) != (w, h):
        raise MapFileError(f"holds a {fw} x {fh} map, but map.yaml's MapSize is {w},{h}", where)
    n = w * h
    if version == 1:
        tiles_at, res_at = _HEADER_V1, _HEADER_V1 + 3 * n
    else:
        if len(data) < _HEADER_V2:
            raise MapFileError(f"{len(data)} bytes: too short for a version 2 header", where)
        tiles_at = int.from_bytes(data[5:9], "little")
        res_at = int.from_bytes(data[13:17], "little")
    for name, at, size in (("tile", tiles_at, 3), ("resource", res_at, 2)):
        if at and (at < (_HEADER_V1 if version == 1 else _HEADER_V2) or at + size * n > len(data)):
            raise MapFileError(f"the {name} layer ({size * n} bytes at offset {at}) does not fit in the "
                               f"{len(data)} bytes of the file", where)
    if tiles_at:
        rec = np.frombuffer(data, dtype=np.dtype([("t", "<u2"), ("i", "u1")]), count=n, offset=tiles_at)
        template = np.ascontiguousarray(rec["t"].reshape(w, h).T)
        index = np.ascontiguousarray(rec["i"].reshape(w, h).T)
    else:
        template = np.zeros((h, w), dtype=np.uint16)
        index = np.zeros((h, w), dtype=np.uint8)
    if res_at:
        res = np.frombuffer(data, dtype=np.uint8, count=2 * n, offset=res_at)
        resource = np.ascontiguousarray(res[0::2].reshape(w, h).T)
    else:
        resource = np.zeros((h, w), dtype=np.uint8)
    return _Layers(template.astype(np.uint16), index.astype(np.uint8), resource, version)


# -- tilesets ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Tileset:
    id: str
    types: tuple[str, ...]  # terrain type names, in the file's order (then any a tile names that Terrain lacks)
    colors: tuple[str, ...]  # '#rrggbb' per type
    row_of: NDArray[np.int32]  # (65536,): row of a template id in `slots`, -1 when the tileset lacks it
    slots: NDArray[np.int16]  # (n_templates, 256): type of each slot, -1 when empty
    flat: NDArray[np.bool_]  # (n_templates, 256): slot may carry a resource (RampType 0)
    default: int  # the type of the default tile
    default_flat: bool  # whether the default tile may carry a resource
    path: str


def _tileset_id(text: str) -> str | None:
    """The ``General: Id`` of a tileset file's text, read from its first section only (cheap)."""
    in_general = False
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        if line[0] not in " \t":
            if in_general:
                return None
            in_general = line.strip() == "General:"
            continue
        if in_general:
            key, _, value = line.strip().partition(":")
            if key.strip() == "Id":
                return value.strip()
    return None


@functools.lru_cache(maxsize=32)
def _parse_tileset(path: str, mtime: int, size: int) -> _Tileset:
    data = _read_regular(Path(path), MAX_YAML_BYTES, "tileset")
    nodes = parse(_text(data, path), path)
    root = {n.key: n for n in nodes}
    general = root.get("General")
    ident = general.get("Id") if general is not None else ""
    types: list[str] = []
    colors: list[str] = []
    terrain = root.get("Terrain")
    for t in terrain.children if terrain is not None else []:
        name = t.get("Type") or t.key.partition("@")[2]
        if not name:
            raise MapFileError("a terrain type with no Type", path, t.line)
        _check_type_name(name, path, t.line)
        if name in types:
            continue
        types.append(name)
        c = t.get("Color").strip().lstrip("#")
        colors.append("#" + c[-6:].lower() if re.fullmatch(r"[0-9A-Fa-f]{6}([0-9A-Fa-f]{2})?", c) else "")
    index = {n: k for k, n in enumerate(types)}
    templates = root.get("Templates")
    if templates is None or not templates.children:
        raise MapFileError("the tileset has no Templates", path)
    row_of = np.full(65536, -1, dtype=np.int32)
    slots = np.full((len(templates.children), 256), -1, dtype=np.int16)
    flat = np.ones((len(templates.children), 256), dtype=bool)
    first = -1
    for k, t in enumerate(templates.children):
        idn = t.child("Id")
        try:
            tid = int(idn.value) if idn is not None else 0
        except ValueError:
            tid = -1
        if not 0 <= tid <= 0xFFFF:
            raise MapFileError(f"template Id must be 0..65535, got {idn.value if idn else ''!r}", path,
                               idn.line if idn else t.line)
        size_node = t.child("Size")
        sw, sh = _ints(size_node, 2, path, f"{t.key} Size") if size_node is not None else (1, 1)
        pick_any = t.get("PickAny").lower() == "true"
        n_slots = 256 if pick_any else sw * sh
        tiles = t.child("Tiles")
        for tile in tiles.children if tiles is not None else []:
            try:
                i = int(tile.key)
            except ValueError:
                raise MapFileError(f"a tile index must be a number, got {tile.key!r}", path, tile.line) from None
            if not 0 <= i <= 255:
                raise MapFileError(f"a tile index must be 0..255, got {i}", path, tile.line)
            name = tile.value or tile.get("Type")
            if not name:
                raise MapFileError(f"tile {i} names no terrain type", path, tile.line)
            _check_type_name(name, path, tile.line)
            if name not in index:
                index[name] = len(types)
                types.append(name)
                colors.append("")
            if i < n_slots:
                slots[k, i] = index[name]
                ramp = tile.get("RampType", "0").strip()
                flat[k, i] = ramp in ("", "0")
        if row_of[tid] < 0:
            row_of[tid] = k  # the engine keeps the first template of an id
        if first < 0:
            first = k
    listed = np.flatnonzero(slots[first] >= 0)
    slot = 0 if slots[first, 0] >= 0 else (int(listed[0]) if listed.size else 0)
    default = max(int(slots[first, slot]), 0)
    if not types:
        raise MapFileError("the tileset names no terrain type", path)
    for a in (row_of, slots, flat):
        a.setflags(write=False)
    return _Tileset(ident, tuple(types), tuple(colors), row_of, slots, flat, default, bool(flat[first, slot]), path)


def _check_type_name(name: str, path: str | os.PathLike[str], line: int) -> None:
    """A tileset's terrain type name must be a terrain name (a word), or the tileset is malformed."""
    if not _NAME.match(name):
        raise MapFileError(f"terrain type must be a word (letters, digits, _ or -), got {name!r}", path, line)


def _candidate_dirs(map_path: Path, mod: str, tilesets: Sequence[Path]) -> list[Path]:
    out: list[Path] = []

    def add(p: Path) -> None:
        if p not in out:
            out.append(p)

    for t in tilesets:
        if t.is_dir():
            add(t / mod)
        add(t)
    map_path = map_path.absolute()
    near = [map_path] if map_path.is_dir() else []
    near.append(map_path.parent)
    for d in near:
        add(d / "tilesets" / mod)
        add(d / "tilesets")
        add(d)
    # the folder holding the maps' folder, as in OpenRA's own layout: mods/<mod>/maps/ beside mods/<mod>/tilesets/
    add(near[-1].parent / "tilesets" / mod)
    add(near[-1].parent / "tilesets")
    env = os.environ.get("OPENRA_DIR")
    if env:
        add(Path(env).expanduser() / "mods" / mod / "tilesets")
    for place in OPENRA_INSTALL_DIRS.get(sys.platform, OPENRA_INSTALL_DIRS["linux"]):
        add(Path(place.format(game=_GAMES.get(mod, mod))).expanduser() / "mods" / mod / "tilesets")
    return out


def _find_tileset(ident: str, mod: str, map_path: Path, tilesets: Sequence[Path], where: str,
                  line: int | None) -> _Tileset:
    looked = _candidate_dirs(map_path, mod, tilesets)
    skipped: list[str] = []
    for place in looked:
        files: list[Path]
        if place.is_file():
            files = [place]
        elif place.is_dir():
            try:
                files = sorted(p for p in place.iterdir() if p.suffix.lower() == ".yaml")[:1000]
            except OSError:
                continue
            # a file named like the id first (temperat.yaml for TEMPERAT)
            files.sort(key=lambda p: p.stem.lower() != ident.lower())
        else:
            continue
        for f in files:
            try:
                st = os.stat(f)
                if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_YAML_BYTES:
                    continue
                with open(f, "rb") as fh:
                    head = fh.read(4096).decode("utf-8", "replace")
            except OSError:
                continue
            found = _tileset_id(head)
            if found is not None and found.upper() == ident.upper():
                ts = _parse_tileset(str(f), st.st_mtime_ns, st.st_size)
                alien = sorted(set(ts.types) & _foreign_resources(mod))
                if not alien:
                    return ts
                skipped.append(f"{f} (names {', '.join(alien)}: another mod's tileset)")
    shown = "; ".join(str(p) for p in looked)
    also = f"; skipped {'; '.join(skipped)}" if skipped else ""
    raise MapFileError(f"tileset {ident!r} of mod {mod!r} not found (a yaml file whose General: Id is {ident}); "
                       f"looked in: {shown}{also}. Pass tilesets= (a folder of the mod's tileset files, such as "
                       f"OpenRA's mods/{mod}/tilesets) or set OPENRA_DIR to an OpenRA installation", where, line)


def _foreign_resources(mod: str) -> set[str]:
    """Resource terrain types only other mods have: a tileset naming one belongs to another mod
    (Red Alert and Tiberian Dawn both have a TEMPERAT, with Ore and Gems in one, Tiberium in the other)."""
    mods = _rules()["mods"]
    own = {r["terrain_type"] for r in mods[mod]["resources"].values()}
    return {r["terrain_type"] for m, d in mods.items() if m != mod for r in d["resources"].values()} - own


# -- rules ------------------------------------------------------------------------------------------------


def _map_rules(pkg: _Package, root: dict[str, Node], where: str) -> list[Node]:
    """The map's own ``Rules``: its inline nodes, then the files it names inside the package."""
    node = root.get("Rules")
    if node is None:
        return []
    out: list[Node] = list(node.children)
    for name in (v.strip() for v in node.value.split(",")):
        if not name:
            continue
        if not pkg.has(name):
            warnings.warn(f"{where}: the map's rules file {name!r} is not in the map; its rules are left out",
                          MapFileWarning, stacklevel=3)
            continue
        text = _text(pkg.read(name, MAX_YAML_BYTES), pkg.where(name))
        out = merged(out, parse(text, pkg.where(name)))
    return out


def _locomotors(mod: str, rules: list[Node], where: str) -> dict[str, dict[str, Any]]:
    """The mod's locomotors (``speeds``: type -> [percent, cost]; ``crushes``), with the map's rules applied."""
    base = _rules()["mods"][mod]["locomotors"]
    locs: dict[str, dict[str, Any]] = {name: {"speeds": {t: list(v) for t, v in loc["speeds"].items()}, "crushes": list(loc["crushes"])}
            for name, loc in base.items()}
    for actor in rules:
        if actor.key not in ("World", "^BaseWorld"):
            continue
        for trait in actor.children:
            kind, _, suffix = trait.key.partition("@")
            if not kind.endswith("Locomotor") or kind.startswith("-"):
                continue
            name = trait.get("Name") or suffix.lower()
            if name not in locs:
                warnings.warn(f"{where}: the map's rules change locomotor {name!r}, which mod {mod!r} lacks; "
                              "left out", MapFileWarning, stacklevel=3)
                continue
            speeds = trait.child("TerrainSpeeds")
            for s in speeds.children if speeds is not None else []:
                if s.key.startswith("-"):
                    locs[name]["speeds"].pop(s.key[1:], None)
                    continue
                try:
                    percent = int(s.value or s.get("Speed", "0"))
                    cost = int(s.get("PathingCost", "0")) or (10000 // percent if percent > 0 else 0)
                except ValueError:
                    raise MapFileError(f"TerrainSpeeds {s.key}: a speed is a whole percent, got {s.value!r}",
                                       where, s.line) from None
                if percent <= 0:
                    locs[name]["speeds"].pop(s.key, None)
                else:
                    locs[name]["speeds"][s.key] = [percent, cost]
    return locs


# -- building the map -------------------------------------------------------------------------------------

_SYMBOL_POOL = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!$%&*+?<>^@;:'|/\\`{}[]()=~,._-\""


def _symbols(names: Sequence[str]) -> list[str]:
    used: set[str] = set()
    out = []
    for n in names:
        pick = next((c for c in (n[:1], n[:1].lower(), n[:1].upper()) if c and c not in used), None)
        if pick is None:
            pick = next((c for c in _SYMBOL_POOL if c not in used), None)
        k = 0
        while pick is None:
            c = chr(0x3400 + k)
            pick = None if c in used else c
            k += 1
        used.add(pick)
        out.append(pick)
    return out


_COLOURS = {  # for tilesets that give no colour: the usual look of each type (an occupied cell: dark grey)
    "Clear": "#4a7a3a", "Rough": "#7a6a4a", "Road": "#8a6a3a", "Bridge": "#606060", "Water": "#3f78b5",
    "River": "#5c8cb4", "Beach": "#c8b478", "Rock": "#55554c", "Cliff": "#55554c", "Wall": "#a09080",
    "Tree": "#2e5a2a", "Ore": "#b09060", "Gems": "#8470ff", "Tiberium": "#3aa040", "BlueTiberium": "#3a80c0",
    "Sand": "#d8b070", "Dune": "#c89850", "SpiceSand": "#c87840", "Spice": "#b05020", "Concrete": "#909090",
    "Actor": "#303030",
}


def _colour(name: str, given: str) -> str:
    """``given`` (the tileset's colour), else the type's usual colour, else one made from the name."""
    if given:
        return given
    if name in _COLOURS or name.startswith("Actor"):
        return _COLOURS.get(name, "#484040")
    h = sum((i + 1) * ord(c) for i, c in enumerate(name))
    return "#%02x%02x%02x" % (64 + h % 128, 64 + (h // 7) % 128, 64 + (h // 49) % 128)


@dataclass
class _Actor:
    id: str
    type: str
    x: int
    y: int
    node: Node


def _actors(root: dict[str, Node], where: str) -> list[_Actor]:
    node = root.get("Actors")
    out = []
    for a in node.children if node is not None else []:
        loc = a.child("Location")
        if loc is None:
            continue  # an actor without a place (the world's own, say) stands nowhere on the board
        x, y = _ints(loc, 2, where, f"actor {a.key} Location")
        out.append(_Actor(a.key, a.value.strip().lower(), x, y, a))
    return out


def load_openra(
    path: str | os.PathLike[str],
    *,
    tilesets: str | os.PathLike[str] | Iterable[str | os.PathLike[str]] | None = None,
    max_cells: int = MAX_FILE_CELLS,
) -> Map:
    """Read an OpenRA map (an ``.oramap`` archive or a folder with ``map.yaml`` and ``map.bin``) as a ``Map``.

    See the module's notes for what becomes what: terrain types from the
    tileset, movement classes from the mod's locomotors, the ``Bounds`` as
    the board's playable area, actors as markers and obstacles.

    Parameters
    ----------
    path : str or PathLike
        The ``.oramap`` file (any name: a zip archive is recognised by its
        content), the map's folder, or the ``map.yaml`` inside it.
    tilesets : path or list of paths, optional
        Folders holding the mod's tileset files (or tileset files), searched
        first; then the places next to the map, ``$OPENRA_DIR`` and the usual
        install folders (``OPENRA_INSTALL_DIRS``).
    max_cells : int
        Cap on the cells the map may hold.

    Returns
    -------
    Map
        A map on an 8-direction ``SquareGrid`` (``corner_rule='always'``)
        whose ``playable`` rectangle is the map's ``Bounds``; terrains named
        by OpenRA's terrain types, movement classes named by the mod's
        locomotors; properties ``title``, ``author``, ``mod``, ``tileset`` and
        ``map_format``.

    Raises
    ------
    MapFileError
        A malformed map (naming the file, and the line for ``map.yaml``), a
        tileset not found (naming it and the places looked), a Tiberian Sun map.
    ValueError
        A bad ``max_cells`` (``ArgumentError``).
    TypeError
        A ``tilesets`` that is not a path or a list of paths (``ArgumentTypeError``).

    Examples
    --------
    >>> import tempfile, pathlib, zipfile, struct
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "mini.yaml").write_text("General:\\n\\tId: MINI\\nTemplates:\\n\\tTemplate@255:\\n\\t\\tId: 255\\n"
    ...     "\\t\\tSize: 1,1\\n\\t\\tTiles:\\n\\t\\t\\t0: Clear\\n\\tTemplate@7:\\n\\t\\tId: 7\\n\\t\\tSize: 2,1\\n"
    ...     "\\t\\tTiles:\\n\\t\\t\\t0: Road\\n\\t\\t\\t1: Rough\\n")
    >>> tiles = [(7, 0), (7, 1), (255, 0), (255, 0)]  # cells (0,0), (0,1), (1,0), (1,1)
    >>> binary = struct.pack("<BHH", 1, 2, 2) + b"".join(struct.pack("<HB", *t) for t in tiles) + bytes(8)
    >>> with zipfile.ZipFile(d / "two.oramap", "w") as z:
    ...     z.writestr("map.yaml", "MapFormat: 12\\nRequiresMod: ra\\nTileset: MINI\\nMapSize: 2,2\\nBounds: 0,0,2,2\\n")
    ...     z.writestr("map.bin", binary)
    >>> m = load_openra(d / "two.oramap")
    >>> [[m.terrain_name((x, y)) for x in range(2)] for y in range(2)]
    [['Road', 'Clear'], ['Rough', 'Clear']]
    >>> m.cost_field(unit="wheeled").cells().tolist()
    [[0.8, 1.0], [2.0, 1.0]]
    """
    path = check_path(path)
    max_cells = check_positive_int(max_cells, "max_cells")
    if tilesets is None:
        extra: list[Path] = []
    elif isinstance(tilesets, (str, os.PathLike)):
        extra = [Path(tilesets)]
    elif isinstance(tilesets, Iterable) and not isinstance(tilesets, bytes):
        extra = []
        for t in tilesets:
            if not isinstance(t, (str, os.PathLike)):
                raise ArgumentTypeError(f"tilesets must be a path or a list of paths, got an item {t!r}")
            extra.append(Path(t))
    else:
        raise ArgumentTypeError(f"tilesets must be a path or a list of paths, got {type(tilesets).__name__}")
    p = Path(path)
    if p.name.lower() == "map.yaml" and p.is_file():
        p = p.parent
    if not p.exists():
        raise MapFileError("no such file or folder", p)
    pkg = _Package(p)
    try:
        return _load(pkg, p, extra, max_cells)
    finally:
        pkg.close()


def _load(pkg: _Package, p: Path, extra: list[Path], max_cells: int) -> Map:
    for name in ("map.yaml", "map.bin"):
        if not pkg.has(name):
            raise MapFileError(f"not an OpenRA map: it has no {name}", pkg.where(name))
    ywhere = pkg.where("map.yaml")
    nodes = parse(_text(pkg.read("map.yaml", MAX_YAML_BYTES), ywhere), ywhere)
    head = _header(nodes, ywhere, max_cells)
    w, h = head.width, head.height
    bwhere = pkg.where("map.bin")
    layers = _layers(pkg.read("map.bin", _HEADER_V2 + 6 * w * h + 64), w, h, bwhere)
    tnode = head.root["Tileset"]
    ts = _find_tileset(head.tileset, head.mod, p, extra, ywhere, tnode.line)
    rules = _rules()["mods"][head.mod]
    locs = _locomotors(head.mod, _map_rules(pkg, head.root, ywhere), ywhere)

    ttype, flat = _tile_types(layers, ts)
    types, colors = list(ts.types), list(ts.colors)
    actors = _actors(head.root, ywhere)
    building, blockers, actor_cells = _footprints(actors, rules, w, h)
    # resources: the resource's type where the tile allows it (flat tiles, no building)
    for res in rules["resources"].values():
        allowed = np.zeros(len(types), dtype=bool)
        allowed[[types.index(t) for t in res["allowed"] if t in types]] = True
        on = (layers.resource == res["index"]) & allowed[ttype] & flat & ~building
        if on.any():
            if res["terrain_type"] not in types:
                types.append(res["terrain_type"])
                colors.append("")
            ttype = np.where(on, types.index(res["terrain_type"]), ttype)

    classes = list(locs)
    costs = [{c: locs[c]["speeds"][t][1] / 100.0 for c in classes if t in locs[c]["speeds"]} for t in types]
    overlay = np.full((h, w), -1, dtype=np.int16)
    names = list(types)
    for (x, y), sets in blockers.items():
        name, cost = _obstacle(sets, types[ttype[y, x]], costs[ttype[y, x]], locs)
        if name not in names:
            names.append(name)
            costs.append(cost)
        overlay[y, x] = names.index(name)
    symbols = _symbols(names)
    table = TerrainTable([Terrain(n, symbols[k], _colour(n, colors[k] if k < len(colors) else ""), costs=costs[k])
                          for k, n in enumerate(names)], classes=classes)

    markers = [_marker(a, cells, rules["footprints"]) for a, cells in zip(actors, actor_cells) if cells]
    props = {"mod": head.mod, "tileset": head.tileset}
    for key, field_ in (("Title", "title"), ("Author", "author"), ("MapFormat", "map_format")):
        if key in head.root and head.root[key].value:
            props[field_] = head.root[key].value
    return Map(SquareGrid(w, h, diagonal=True, corner_rule="always"), terrain=ttype.astype(np.int16), terrains=table,
               overlay=overlay, markers=markers, properties=props, playable=head.bounds)


def _tile_types(layers: _Layers, ts: _Tileset) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
    """Each cell's tile terrain type (an index into ``ts.types``) and whether its tile is flat.

    Index 255 is "any variant"; unknown templates, indices past a template's
    slots and empty slots take the tileset's default tile.
    """
    h, w = layers.template.shape
    vv, uu = np.indices((h, w))
    index = layers.index.astype(np.int64)
    index = np.where(index == _ANY, (uu % 4) + 4 * (vv % 4), index)
    row = ts.row_of[layers.template.astype(np.int64)]
    known = row >= 0
    safe_row = np.where(known, row, 0)
    ttype = np.where(known, ts.slots[safe_row, index], -1).astype(np.int64)
    empty = ttype < 0
    return np.where(empty, ts.default, ttype), np.where(empty, ts.default_flat, ts.flat[safe_row, index])


_Blockers = dict[tuple[int, int], set[frozenset[str]]]


def _footprints(actors: list[_Actor], rules: dict[str, Any], w: int, h: int
                ) -> tuple[NDArray[np.bool_], _Blockers, list[list[tuple[int, int]]]]:
    """Where buildings stand (no resource lies there), the crush classes of the actors blocking
    each cell (an empty set: not crushable), and each actor's cells on the map."""
    footprints: dict[str, list[Any]] = rules["footprints"]
    crushable: dict[str, list[str]] = rules["crushable"]
    immobile = set(rules["immobile"])
    building = np.zeros((h, w), dtype=bool)
    blockers: _Blockers = {}
    actor_cells: list[list[tuple[int, int]]] = []
    for a in actors:
        cells: list[tuple[int, int]] = []
        crush = frozenset(crushable.get(a.type, ()))
        for dy, line in enumerate(footprints.get(a.type, (0, 0, []))[2]):
            for dx, ch in enumerate(line):
                x, y = a.x + dx, a.y + dy
                if ch == "_" or not (0 <= x < w and 0 <= y < h):
                    continue
                cells.append((x, y))
                building[y, x] = True
                if ch in "xX":
                    blockers.setdefault((x, y), set()).add(crush)
        if not cells and 0 <= a.x < w and 0 <= a.y < h:
            cells = [(a.x, a.y)]
            if a.type in immobile:
                blockers.setdefault((a.x, a.y), set()).add(crush)
        actor_cells.append(cells)
    return building, blockers, actor_cells


def _obstacle(sets: set[frozenset[str]], ground: str, ground_costs: dict[str, float],
              locs: dict[str, dict[str, Any]]) -> tuple[str, dict[str, float]]:
    """The overlay of a cell blocked by actors of crush classes ``sets``: its name and costs."""
    if any(not s for s in sets):
        return "Actor", {}
    crushers = {c for c, loc in locs.items() if all(set(loc["crushes"]) & s for s in sets)}
    name = f"Actor-{'_'.join(sorted(set().union(*sets)))}-{ground}"
    return name, {c: v for c, v in ground_costs.items() if c in crushers}


def _marker(a: _Actor, cells: list[tuple[int, int]], footprints: dict[str, Any]) -> Marker:
    props: dict[str, Any] = {"type": a.type}
    for c in a.node.children:
        if c.key != "Location" and not c.children and c.value:
            props[c.key.lower()] = c.value
    kind = "start" if a.type == "mpspawn" else ("building" if a.type in footprints else "actor")
    return Marker(a.id, tuple(cells), kind=kind, properties=props)


def is_openra_map(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` looks like an OpenRA map: a folder (or its ``map.yaml``) holding ``map.yaml`` and
    ``map.bin``, or a zip archive holding them (by content, not by name).

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp()); is_openra_map(d)
    False
    >>> _ = (d / "map.yaml").write_text("MapFormat: 12\\n"); _ = (d / "map.bin").write_bytes(b"\\2")
    >>> is_openra_map(d), is_openra_map(d / "map.yaml")
    (True, True)
    """
    p = Path(path)
    try:
        if p.is_file() and p.name.lower() == "map.yaml":
            p = p.parent
        if p.is_dir():
            return (p / "map.yaml").is_file() and (p / "map.bin").is_file()
        if not p.is_file():  # a FIFO or a device: never opened (opening a FIFO waits for a writer)
            return False
        with open(p, "rb") as f:
            if f.read(4) not in _ZIP_MAGIC:
                return False
        with zipfile.ZipFile(p) as z:
            names = set(z.namelist())
        return "map.yaml" in names and "map.bin" in names
    except _ZIP_ERRORS:
        return False

