"""``wargrid range``: every cell a unit reaches from a cell with a movement budget."""

from __future__ import annotations

import argparse
import json
import math

import numpy as np

from ..map import Map
from . import CliError
from ._common import Subparsers, add_query_args, load_map, verb_parser


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    p = verb_parser(sub, "range", examples=["wargrid range board.json 3,3 4",
                              "wargrid range board.json 3,3 4 --unit cavalry --json"],
                    help="cells reachable from a cell within a movement budget",
                       description="List the cells a unit at START (x,y) reaches on MAP with BUDGET movement points, "
                                   "with the cost to reach each.")
    add_query_args(p, [("budget", float, "BUDGET", "movement points (>= 0)")])
    return p


def reach(m: Map, start: tuple[int, int], budget: float, unit: str) -> np.ndarray:
    """``(height, width)`` cost to reach each cell within ``budget`` (``inf`` beyond)."""
    if not math.isfinite(budget) or budget < 0:
        raise CliError(f"BUDGET must be a finite number >= 0, got {budget}", 2)
    m.grid.check_cell(start, "START")
    r = m.movement_range(start, budget, unit=unit)
    return np.where(r.reachable, r.cost, np.inf)


def run(args: argparse.Namespace) -> int:
    m = load_map(args.map)
    unit = m.unit_class(args.unit)
    cost = reach(m, args.start, args.budget, unit)
    ys, xs = np.nonzero(np.isfinite(cost))
    order = np.lexsort((xs, ys, cost[ys, xs]))
    cells = [(int(xs[i]), int(ys[i]), float(cost[ys[i], xs[i]])) for i in order]
    if args.json:
        print(json.dumps({"start": list(args.start), "budget": args.budget, "unit": unit,
                          "cells": [{"cell": [x, y], "cost": c, "left": args.budget - c} for x, y, c in cells]}))
    else:
        print(f"{len(cells)} cells within {args.budget:g} points of {args.start} for {unit}:")
        print(" ".join(f"{x},{y}:{c:g}" for x, y, c in cells))
    return 0
