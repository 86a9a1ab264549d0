"""``wargrid route``: a multi-turn route between two cells of a map file, each cell with its turn."""

from __future__ import annotations

import argparse
import sys

from ._common import Subparsers, add_query_args, map_and_unit, parse_cell, print_json, verb_parser


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    p = verb_parser(sub, "route", help="the fewest-turns route between two cells",
                    description="Find the route from START to GOAL (cells x,y) on MAP that takes the fewest turns "
                                "with POINTS movement points a turn; points left at the end of a turn are lost "
                                "when the next step costs more. Exit code 1 when GOAL cannot be reached.",
                    examples=["wargrid route board.json 0,0 7,5 --points 4",
                              "wargrid route board.json 0,0 7,5 --points 4 --points-left 1 --unit cavalry --json"])
    add_query_args(p, [("goal", parse_cell, "GOAL", "x,y")])
    p.add_argument("--points", type=float, required=True, help="movement points a turn (> 0)")
    p.add_argument("--points-left", type=float, default=None, help="points left in the first turn (default: --points)")
    return p


def run(args: argparse.Namespace) -> int:
    m, unit = map_and_unit(args)
    r = m.route(args.start, args.goal, unit=unit, points_per_turn=args.points, points_left=args.points_left)
    if args.json:
        out: dict[str, object] = {"start": list(args.start), "goal": list(args.goal), "unit": unit, "found": r is not None}
        if r is not None:
            out.update(turns=r.turns, cost=r.cost, cells=[list(c) for c in r.cells], turn_at=list(r.turn_at))
        print_json(out)
    elif r is not None:
        print(f"route for {unit} from {args.start} to {args.goal}: {r.turns} turns, {len(r.cells)} cells, cost {r.cost:g}")
        for turn in range(r.turns):
            print(f"turn {turn + 1}: " + " ".join(f"{x},{y}" for (x, y), t in zip(r.cells, r.turn_at) if t == turn))
    if r is None:
        print(f"wargrid route: no route from {args.start} to {args.goal} for {unit!r}", file=sys.stderr)
        return 1
    return 0
