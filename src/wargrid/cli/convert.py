"""``wargrid convert``: from one map format to another (wargrid JSON/npz, Tiled TMX/TMJ, Moving AI; OpenRA maps read)."""

from __future__ import annotations

import argparse
from pathlib import Path

from . import CliError
from ._common import MAP_FORMATS, Subparsers, load_map, out_path, verb_parser, print_json

_KNOWN = tuple(MAP_FORMATS)


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    p = verb_parser(sub, "convert", examples=["wargrid convert board.json board.tmx",
                              "wargrid convert arena.map arena.json", "wargrid convert wesnoth.map board.tmx",
                              "wargrid convert keep-off-the-grass.oramap grass.json --tilesets ~/OpenRA/mods/ra/tilesets"],
                    help="convert a map between formats",
                       description="Read IN and write OUT; formats follow the extensions: .json / .npz (wargrid), "
                                   ".tmx / .tmj (Tiled), .map (read as Moving AI or Wesnoth by its first line, written "
                                   "as Moving AI). IN may also be an OpenRA map (an .oramap "
                                   "archive or a folder with map.yaml and map.bin, recognised by its content; its "
                                   "tileset is looked for as wargrid.load_openra does, see --tilesets). Layers a format "
                                   "cannot hold are dropped (Tiled keeps terrain and overlay; Moving AI keeps passability).")
    p.add_argument("src", metavar="IN", help="map file to read")
    p.add_argument("dst", metavar="OUT", help="map file to write")
    p.add_argument("--terrain-property", default="terrain", help="Tiled tile property naming the terrain (default terrain)")
    p.add_argument("--encoding", choices=("csv", "base64"), default="csv", help="Tiled layer data encoding")
    p.add_argument("--compression", choices=("zlib", "gzip"), default=None, help="Tiled base64 compression")
    p.add_argument("--tilesets", action="append", default=None, metavar="DIR",
                   help="OpenRA input: a folder of the mod's tileset files (repeatable; searched first)")
    p.add_argument("--unit", default=None, help="Moving AI output: the class whose passability is written")
    p.add_argument("--json", action="store_true", help="print what was written as JSON")
    return p


def run(args: argparse.Namespace) -> int:
    from ..io.openra import is_openra_map

    src, dst = Path(args.src), Path(args.dst)
    openra = is_openra_map(src)
    for p, what in ((src, "IN"), (dst, "OUT")):
        if not (openra and what == "IN") and p.suffix.lower() not in _KNOWN:
            raise CliError(f"{what} must end in one of {', '.join(_KNOWN)}; got {p.name!r}", 2)
    if not src.exists():
        raise CliError(f"no such file: {src}")
    s = src.suffix.lower()
    if openra:
        from ..io.openra import load_openra

        m = load_openra(src, tilesets=args.tilesets)
    elif s in (".tmx", ".tmj"):
        from ..io.tiled import load_tiled

        m = load_tiled(src, terrain_property=args.terrain_property)
    else:
        m = load_map(str(src))  # as every verb reads: a .map is Moving AI or Wesnoth by its first line
    d = dst.suffix.lower()
    out_path(str(dst))
    if d in (".tmx", ".tmj"):
        from ..io.tiled import save_tiled

        if args.compression and args.encoding != "base64":
            raise CliError("--compression needs --encoding base64", 2)
        save_tiled(m, dst, encoding=args.encoding, compression=args.compression)
    elif d == ".map":
        from ..io.movingai import save_movingai

        save_movingai(m, dst, unit=args.unit)
    else:
        from ..io.native import save_map

        save_map(m, dst)
    if args.json:
        print_json({"wrote": str(dst), "width": m.width, "height": m.height, "kind": m.grid.kind})
        return 0
    print(f"wrote {dst}: {m.grid!r}")
    return 0
