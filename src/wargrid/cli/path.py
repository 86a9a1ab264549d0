"""``wargrid path``: the cheapest path between two cells of a map file."""

from __future__ import annotations

import argparse
import json
import sys
import time

from ._common import Subparsers, add_query_args, load_map, parse_cell, verb_parser


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    p = verb_parser(sub, "path", examples=["wargrid path board.json 0,0 7,5",
                              "wargrid path board.json 0,0 7,5 --unit cavalry --json"],
                    help="find the cheapest path between two cells",
                       description="Find the cheapest path from START to GOAL (cells written x,y) on MAP. "
                                   "Exit code 1 when there is no path.")
    add_query_args(p, [("goal", parse_cell, "GOAL", "x,y")])
    return p


def run(args: argparse.Namespace) -> int:
    m = load_map(args.map)
    unit = m.unit_class(args.unit)
    t0 = time.perf_counter()
    p = m.path(args.start, args.goal, unit=unit)
    dt = time.perf_counter() - t0
    if args.json:
        out: dict[str, object] = {"start": list(args.start), "goal": list(args.goal), "unit": unit, "found": p is not None,
                     "seconds": round(dt, 6)}
        if p is not None:
            out["cost"] = p.cost
            out["cells"] = [list(c) for c in p.cells]
        print(json.dumps(out))
    elif p is not None:
        print(f"path for {unit} from {args.start} to {args.goal}: {len(p.cells)} cells, cost {p.cost:g}")
        print(" ".join(f"{x},{y}" for x, y in p.cells))
    if p is None:
        print(f"wargrid path: no path from {args.start} to {args.goal} for {unit!r}", file=sys.stderr)
        return 1
    return 0
