"""Small OpenRA maps and tilesets built by the tests (no OpenRA file is copied: the tilesets here are
made up, in OpenRA's format), and a slow, independent reader of a map's terrain types.

A tileset is described as plain data: ``Template(id, w, h, tiles, pick_any)`` where ``tiles`` maps a
tile index to a terrain type name; the first template listed is the default tile.
"""

from __future__ import annotations

import struct
import zipfile
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Template:
    id: int
    w: int
    h: int
    tiles: dict[int, str]
    pick_any: bool = False
    ramps: dict[int, int] = field(default_factory=dict)


@dataclass
class Tileset:
    ident: str
    templates: list[Template]
    types: list[str]

    def yaml(self, indent: str = "\t") -> str:
        i1, i2, i3, i4 = indent, indent * 2, indent * 3, indent * 4
        out = ["General:", f"{i1}Name: Made up  # a comment", f"{i1}Id: {self.ident}", "", "Terrain:"]
        for t in self.types:
            out += [f"{i1}TerrainType@{t}:", f"{i2}Type: {t}", f"{i2}TargetTypes: Ground", f"{i2}Color: 40{len(t):02d}80"]
        out += ["", "Templates:"]
        for tp in self.templates:
            out += [f"{i1}Template@{tp.id}:", f"{i2}Id: {tp.id}", f"{i2}Images: made{tp.id}.tem", f"{i2}Size: {tp.w},{tp.h}"]
            if tp.pick_any:
                out.append(f"{i2}PickAny: True")
            out.append(f"{i2}Tiles:")
            for k, name in sorted(tp.tiles.items()):
                if k in tp.ramps:
                    out += [f"{i3}{k}: {name}", f"{i4}RampType: {tp.ramps[k]}"]
                else:
                    out.append(f"{i3}{k}: {name}")
        return "\n".join(out) + "\n"


RA_TYPES = ["Beach", "Bridge", "Clear", "Gems", "Ore", "River", "Road", "Rock", "Rough", "Tree", "Wall", "Water"]


def ra_like_tileset(ident: str = "MADEUP") -> Tileset:
    """A small RA-like tileset: 255 (16 Clear variants, listed first), one 1x1 template per RA type
    (ids 1..12 in ``RA_TYPES`` order), a 2x2 shore with an empty slot (id 40) and 65535 (Clear)."""
    templates = [Template(255, 1, 1, {k: "Clear" for k in range(16)}, pick_any=True)]
    templates += [Template(k + 1, 1, 1, {0: t}) for k, t in enumerate(RA_TYPES)]
    templates.append(Template(40, 2, 2, {0: "Water", 1: "Beach", 3: "Rock"}))
    templates.append(Template(65535, 1, 1, {k: "Clear" for k in range(16)}, pick_any=True))
    return Tileset(ident, templates, list(RA_TYPES))


def type_tile(name: str) -> tuple[int, int]:
    """The (template, index) of ``ra_like_tileset`` whose type is ``name``."""
    return RA_TYPES.index(name) + 1, 0


def map_bin(tiles: list[list[tuple[int, int]]], resources: list[list[tuple[int, int]]] | None = None, *,
            version: int = 2, gap: int = 0) -> bytes:
    """``map.bin`` for ``tiles[y][x] = (template, index)`` (and ``resources[y][x] = (type, density)``),
    every layer column by column; version 2 puts ``gap`` spare bytes between the header and the tiles."""
    h, w = len(tiles), len(tiles[0])
    res = resources or [[(0, 0)] * w for _ in range(h)]
    tile_bytes = b"".join(struct.pack("<HB", *tiles[v][u]) for u in range(w) for v in range(h))
    res_bytes = b"".join(struct.pack("<BB", *res[v][u]) for u in range(w) for v in range(h))
    if version == 1:
        return struct.pack("<BHH", 1, w, h) + tile_bytes + res_bytes
    tiles_at = 17 + gap
    return (struct.pack("<BHHIII", 2, w, h, tiles_at, 0, tiles_at + len(tile_bytes)) + bytes(gap)
            + tile_bytes + res_bytes)


def map_yaml(w: int, h: int, *, tileset: str = "MADEUP", mod: str = "ra", bounds: tuple[int, int, int, int] | None = None,
             actors: list[tuple[str, str, int, int]] = (), extra: str = "") -> str:
    """A ``map.yaml``; ``actors`` as ``(id, type, x, y)``."""
    b = bounds or (0, 0, w, h)
    lines = ["MapFormat: 12", f"RequiresMod: {mod}", "Title: Test map", "Author: wargrid tests", f"Tileset: {tileset}",
             f"MapSize: {w},{h}", f"Bounds: {b[0]},{b[1]},{b[2]},{b[3]}", "Visibility: Lobby", "Categories: Conquest",
             "", "Players:", "\tPlayerReference@Neutral:", "\t\tName: Neutral", "\t\tOwnsWorld: True", ""]
    if actors:
        lines.append("Actors:")
        for ident, kind, x, y in actors:
            lines += [f"\t{ident}: {kind}", f"\t\tLocation: {x},{y}", "\t\tOwner: Neutral"]
    return "\n".join(lines) + "\n" + extra


def write_oramap(path: Path, yaml: str, binary: bytes, extra: dict[str, bytes] | None = None) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("map.yaml", yaml)
        z.writestr("map.bin", binary)
        for name, data in (extra or {}).items():
            z.writestr(name, data)
    return path


def write_folder(path: Path, yaml: str, binary: bytes) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    (path / "map.yaml").write_text(yaml)
    (path / "map.bin").write_bytes(binary)
    return path


# -- the independent reader: one struct.unpack a cell, the rules as FORMAT prose states them -------------

RA_RESOURCES = {1: ("Ore", ("Clear", "Road")), 2: ("Gems", ("Clear", "Road"))}


def slow_terrain(binary: bytes, tileset: Tileset, resources: dict[int, tuple[str, tuple[str, ...]]] = RA_RESOURCES,
                 no_resource: set[tuple[int, int]] = frozenset()) -> list[list[str]]:
    """Each cell's terrain type name, ``[y][x]``, read cell by cell from ``binary``."""
    version, w, h = struct.unpack_from("<BHH", binary, 0)
    if version == 1:
        tiles_at, res_at = 5, 5 + 3 * w * h
    else:
        tiles_at, _, res_at = struct.unpack_from("<III", binary, 5)
    by_id: dict[int, Template] = {}
    for tp in tileset.templates:
        by_id.setdefault(tp.id, tp)
    first = tileset.templates[0]
    default = first.tiles[0]
    out = [["" for _ in range(w)] for _ in range(h)]
    for u in range(w):
        for v in range(h):
            tid, idx = struct.unpack_from("<HB", binary, tiles_at + 3 * (u * h + v))
            if idx == 255:
                idx = u % 4 + 4 * (v % 4)
            tp = by_id.get(tid)
            name = None
            ramp = 0
            if tp is not None:
                slots = 256 if tp.pick_any else tp.w * tp.h
                if idx < slots:
                    name = tp.tiles.get(idx)
                    ramp = tp.ramps.get(idx, 0)
            if name is None:
                name, ramp = default, first.ramps.get(0, 0)
            rtype, _density = struct.unpack_from("<BB", binary, res_at + 2 * (u * h + v))
            if rtype in resources and name in resources[rtype][1] and ramp == 0 and (u, v) not in no_resource:
                name = resources[rtype][0]
            out[v][u] = name
    return out
