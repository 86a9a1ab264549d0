"""``wargrid table``: the cheapest costs from every source cell to every target cell of a map file."""

from __future__ import annotations

import argparse

import numpy as np

from ._common import Subparsers, add_unit_json, map_and_unit, parse_cell, print_json, verb_parser


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    p = verb_parser(sub, "table", help="a distance table: cheapest costs from sources to targets",
                    description="Print the cheapest movement cost from every --from cell to every --to cell "
                                "(default: the --from cells) on MAP, one row a source; '-' (JSON null) where "
                                "a target cannot be reached.",
                    examples=["wargrid table board.json --from 0,0 5,3 --to 7,5 2,2",
                              "wargrid table board.json --from 0,0 5,3 7,5 --unit cavalry --json"])
    p.add_argument("map", metavar="MAP", help="map file")
    p.add_argument("--from", dest="sources", type=parse_cell, nargs="+", required=True, metavar="X,Y",
                   help="source cells")
    p.add_argument("--to", dest="targets", type=parse_cell, nargs="+", default=None, metavar="X,Y",
                   help="target cells (default: the sources)")
    add_unit_json(p)
    return p


def run(args: argparse.Namespace) -> int:
    m, unit = map_and_unit(args)
    targets = args.targets if args.targets is not None else args.sources
    table = m.distance_table(args.sources, targets, unit=unit)
    if args.json:
        rows = [[float(v) if np.isfinite(v) else None for v in row] for row in table]
        print_json({"unit": unit, "sources": [list(c) for c in args.sources], "targets": [list(c) for c in targets],
                    "costs": rows})
        return 0
    names = [f"{x},{y}" for x, y in targets]
    width = max(len(n) for n in names + [f"{v:g}" for v in table.ravel() if np.isfinite(v)])
    first = max(len(f"{x},{y}") for x, y in args.sources)
    print(" " * first + "  " + "  ".join(n.rjust(width) for n in names))
    for (x, y), row in zip(args.sources, table):
        cells = [(f"{v:g}" if np.isfinite(v) else "-").rjust(width) for v in row]
        print(f"{x},{y}".rjust(first) + "  " + "  ".join(cells))
    return 0
