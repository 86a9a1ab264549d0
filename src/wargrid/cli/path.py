"""``wargrid path``: the cheapest path between two cells of a map file."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from ._adapt import path_cells, path_cost
from ._common import add_query_args, load_map, need, parse_cell


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("path", help="find the cheapest path between two cells",
                       description="Find the cheapest path from START to GOAL (cells written x,y) on MAP. "
                                   "Exit code 1 when there is no path.")
    add_query_args(p, [("goal", parse_cell, "GOAL", "x,y")])
    return p


def run(args: argparse.Namespace) -> int:
    m = load_map(args.map)
    unit = m.unit_class(args.unit)
    find = need(m, "path", "path finding")
    t0 = time.perf_counter()
    p = find(args.start, args.goal, unit=unit)
    dt = time.perf_counter() - t0
    found = p is not None
    if args.json:
        out: dict = {"start": list(args.start), "goal": list(args.goal), "unit": unit, "found": found,
                     "seconds": round(dt, 6)}
        if found:
            out["cost"] = path_cost(p)
            out["cells"] = [list(c) for c in path_cells(p)]
        print(json.dumps(out))
    elif found:
        cells = path_cells(p)
        print(f"path for {unit} from {args.start} to {args.goal}: {len(cells)} cells, cost {path_cost(p):g}")
        print(" ".join(f"{x},{y}" for x, y in cells))
    if not found:
        print(f"wargrid path: no path from {args.start} to {args.goal} for {unit!r}", file=sys.stderr)
        return 1
    return 0
