"""``wargrid area``: the cells of an attack or effect area around a cell of a map file."""

from __future__ import annotations

import argparse

from ..map.tactics import AREA_MASKS
from ..tactics.areas import AREA_SHAPES
from ._common import Subparsers, add_unit_json, map_and_unit, parse_cell, print_json, verb_parser


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    p = verb_parser(sub, "area", help="the cells of an attack or effect area",
                    description="List the cells of a SHAPE area around ORIGIN (x,y) on MAP: 'line' and 'cross' "
                                "take --length, 'cone'/'sector' --length and --width, 'ring', 'radius' and "
                                "'circle' --radius. --mask sight keeps what ORIGIN sees; --mask terrain also "
                                "drops cells the unit cannot stand on.",
                    examples=["wargrid area board.json line 2,2 --length 4 --direction 1",
                              "wargrid area board.json circle 4,3 --radius 2.5 --mask sight --json"])
    p.add_argument("map", metavar="MAP", help="map file")
    p.add_argument("shape", choices=AREA_SHAPES, metavar="SHAPE", help=", ".join(AREA_SHAPES))
    p.add_argument("origin", type=parse_cell, metavar="ORIGIN", help="x,y")
    p.add_argument("--direction", type=int, default=0, help="a board direction, 0..directions-1 (default 0)")
    p.add_argument("--length", type=int, default=None, help="cells along the direction (line, cross, cone)")
    p.add_argument("--width", type=int, default=None, help="cone half-width in cells")
    p.add_argument("--radius", type=_radius, default=None, help="ring, radius and circle size")
    p.add_argument("--mask", choices=AREA_MASKS, default="none", help="none (default), sight or terrain")
    add_unit_json(p, unit_help="movement class for --mask terrain (default: the terrain table's first)")
    return p


def _radius(text: str) -> int | float:
    """An integer as written (``ring`` and ``radius`` count whole steps; ``3`` as a float was refused), else a number.

    >>> _radius("3"), _radius("2.5")
    (3, 2.5)
    """
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a radius is a number, got {text!r}") from None


def run(args: argparse.Namespace) -> int:
    m, unit = map_and_unit(args)
    a = m.area(args.shape, args.origin, direction=args.direction, length=args.length, radius=args.radius,
               width=args.width, mask=args.mask, unit=unit)
    if args.json:
        print_json({"shape": a.shape, "origin": list(a.origin), "mask": args.mask, "cells": [list(c) for c in a.cells]})
    else:
        print(f"{a.shape} around {a.origin}: {len(a.cells)} cells")
        if a.cells:
            print(" ".join(f"{x},{y}" for x, y in a.cells))
    return 0
