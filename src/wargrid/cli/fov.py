"""``wargrid fov``: what a unit standing on a cell sees (field of view, line of sight)."""

from __future__ import annotations

import argparse
import json

import numpy as np

from . import CliError
from ._common import PICTURES, Subparsers, check_output, load_map, parse_cell

_ASCII_LIMIT = 120


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    p = sub.add_parser("fov", help="the cells a unit at a cell sees",
                       description="Print the field of view from ORIGIN (x,y) on MAP: forest, mountains and other "
                                   "sight-blocking terrain hide what is behind them. Square boards use symmetric "
                                   "shadowcasting, hex and staggered boards the two-nudge hex line rule.")
    p.add_argument("map", metavar="MAP", help="map file")
    p.add_argument("origin", type=parse_cell, metavar="ORIGIN", help="x,y")
    p.add_argument("--radius", type=int, default=None, help="sight radius in cells (default: the whole board)")
    p.add_argument("--metric", default=None, choices=("euclidean", "chebyshev", "octile", "manhattan", "hex"),
                   help="radius metric (default euclidean on square boards, hex on hex boards)")
    p.add_argument("--no-elevation", action="store_true", help="ignore the elevation layer")
    p.add_argument("--to", type=parse_cell, metavar="X,Y", help="only answer whether ORIGIN sees this cell")
    p.add_argument("--out", metavar="PICTURE", help="also draw the view to a .svg or .png picture")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    return p


def ascii_view(seen: np.ndarray, blocks: np.ndarray, origin: tuple[int, int]) -> str:
    """A text picture: ``@`` the viewer, ``.`` seen, ``#`` a seen blocker, blank unseen.

    >>> print(ascii_view(np.array([[True, True, False]]), np.array([[False, True, False]]), (0, 0)))
    @#
    """
    rows = []
    for y in range(seen.shape[0]):
        row = "".join("@" if (x, y) == origin else ("#" if blocks[y, x] else ".") if seen[y, x] else " "
                      for x in range(seen.shape[1]))
        rows.append(row.rstrip())
    return "\n".join(rows)


def run(args: argparse.Namespace) -> int:
    if args.out:
        check_output(args.out, "--out", PICTURES)
    m = load_map(args.map)
    if args.radius is not None and args.radius < 0:
        raise CliError(f"--radius must be >= 0, got {args.radius}", 2)
    elevation = not args.no_elevation
    m.grid.check_cell(args.origin, "ORIGIN")
    if args.to is not None:
        m.grid.check_cell(args.to, "--to")
        ok = m.line_of_sight(args.origin, args.to, elevation=elevation)
        if args.json:
            print(json.dumps({"origin": list(args.origin), "to": list(args.to), "visible": ok}))
        else:
            print(f"{args.to} is {'in sight' if ok else 'hidden'} from {args.origin}")
        return 0
    seen = m.fov(args.origin, radius=args.radius, metric=args.metric, elevation=elevation)
    ys, xs = np.nonzero(seen)
    if args.json:
        print(json.dumps({"origin": list(args.origin), "radius": args.radius,
                          "cells": [[int(x), int(y)] for x, y in zip(xs, ys)]}))
    else:
        where = "the whole board" if args.radius is None else f"radius {args.radius}"
        print(f"{len(xs)} cells seen from {args.origin} ({where}):")
        if max(m.shape) <= _ASCII_LIMIT:
            print(ascii_view(seen, m.blocks_sight(), args.origin))
    if args.out:
        from ..render import CellMask, Markers
        from .render import draw

        draw(m, args.out, [CellMask(~seen & m.grid.mask, color="#000000", alpha=0.55), Markers([args.origin])])
        print(f"wrote {args.out}")
    return 0
