"""``wargrid starts``: fair, far-apart start cells for the players of a map file."""

from __future__ import annotations

import argparse

from ._common import Subparsers, add_unit_json, map_and_unit, print_json, verb_parser


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    p = verb_parser(sub, "starts", help="start positions for the players",
                    description="Choose start cells for PLAYERS on MAP: far apart in steps, with balanced "
                                "land within --radius, all in the largest zone the unit can walk.",
                    examples=["wargrid starts board.json 4", "wargrid starts board.json 2 --seed 7 --radius 2 --json"])
    p.add_argument("map", metavar="MAP", help="map file")
    p.add_argument("players", type=int, metavar="PLAYERS", help="number of players (>= 1)")
    p.add_argument("--radius", type=int, default=3, help="cells around a start whose value is balanced (default 3)")
    add_unit_json(p, seed=True)
    return p


def run(args: argparse.Namespace) -> int:
    m, unit = map_and_unit(args)
    s = m.start_positions(args.players, unit=unit, seed=args.seed, radius=args.radius)
    if args.json:
        print_json({"unit": unit, "cells": [list(c) for c in s.cells], "min_distance": s.min_distance,
                    "values": s.values, "radius": s.radius, "zone_size": s.zone_size})
        return 0
    print(f"{len(s.cells)} starts for {unit}, at least {s.min_distance} steps apart (zone of {s.zone_size} cells)")
    for i, ((x, y), v) in enumerate(zip(s.cells, s.values)):
        print(f"player {i + 1}: {x},{y}  value {v:g}")
    return 0
