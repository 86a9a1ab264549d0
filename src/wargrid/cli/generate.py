"""``wargrid generate``: write a seeded random strategy board to a map file (and a picture)."""

from __future__ import annotations

import argparse

from ._common import (
    GENERATE_BYTES_PER_CELL,
    MAP_FORMATS,
    PICTURES,
    Subparsers,
    add_grid_options,
    check_memory,
    check_output,
    grid_options,
    map_format,
    parse_size,
    save_map,
)


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    p = sub.add_parser("generate", help="generate a seeded random board and save it",
                       description="Generate a board with water, coast, plains, forest, hills, mountains, rivers, "
                                   "roads, bridges and towns; the same seed gives the same board on every machine. "
                                   "The format follows OUT's extension: .json / .npz (wargrid), .tmx / .tmj (Tiled), "
                                   ".map (Moving AI); --format names it for any other file name.")
    p.add_argument("out", metavar="OUT", help="map file to write")
    p.add_argument("--format", choices=[f[1:] for f in MAP_FORMATS], default=None,
                   help="the format to write (default: OUT's extension)")
    p.add_argument("--size", type=parse_size, default=(40, 28), help="WIDTHxHEIGHT (default 40x28)")
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    p.add_argument("--water", type=float, default=0.3, help="share of sea, 0..0.9 (default 0.3)")
    p.add_argument("--forest", type=float, default=0.3, help="share of woodland on low land, 0..0.9 (default 0.3)")
    p.add_argument("--towns", type=int, default=None, help="number of towns (default: by size)")
    p.add_argument("--rivers", type=int, default=None, help="number of rivers (default: by size)")
    p.add_argument("--picture", metavar="FILE", default=None, help="also draw the board to FILE (.svg or .png)")
    add_grid_options(p)
    return p


def run(args: argparse.Namespace) -> int:
    from ..generate import generate_board

    w, h = args.size
    fmt = map_format(args.out, args.format)
    check_output(args.out, "OUT")
    if args.picture:
        check_output(args.picture, "--picture", PICTURES)
    check_memory(w * h * GENERATE_BYTES_PER_CELL, f"a {w}x{h} board", "Ask for a smaller --size.")
    b = generate_board(w, h, seed=args.seed, water=args.water, forest=args.forest, towns=args.towns,
                       rivers=args.rivers, **grid_options(args))
    m = b.map
    save_map(m, args.out, fmt)
    if args.picture:
        from .render import draw

        draw(m, args.picture, [])
    counts = ", ".join(f"{n} {m.count(n)}" for n in ("water", "forest", "hills", "mountains", "road", "bridge"))
    print(f"wrote {args.out}: {m.grid!r}, seed {args.seed}, {len(b.towns)} towns; cells: {counts}")
    return 0
