"""``wargrid partition``: divide the land of a map file between players with exact balance."""

from __future__ import annotations

import argparse

from ..territory.partition import MODES
from ._common import Subparsers, add_unit_json, map_and_unit, print_json, verb_parser


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    p = verb_parser(sub, "partition", help="divide the land between players",
                    description="Divide the land of MAP a unit can stand on between PLAYERS with exact balance: "
                                "compact regions, or scattered chunks of at most --max-chunk cells. Prints each "
                                "player's share; --json adds the owners ((height, width) rows, -1 unowned). "
                                "Large boards take a while the first time (kernel compilation).",
                    examples=["wargrid partition board.json 4",
                              "wargrid partition board.json 3 --mode scattered --max-chunk 6 --seed 2 --json"])
    p.add_argument("map", metavar="MAP", help="map file")
    p.add_argument("players", type=int, metavar="PLAYERS", help="number of players (>= 1)")
    p.add_argument("--mode", choices=MODES, default="compact", help="compact (default) or scattered")
    p.add_argument("--max-chunk", type=int, default=None, help="scattered mode: largest chunk in cells")
    add_unit_json(p, seed=True)
    return p


def run(args: argparse.Namespace) -> int:
    m, unit = map_and_unit(args)
    part = m.partition(args.players, mode=args.mode, max_chunk=args.max_chunk, seed=args.seed, unit=unit)
    r = part.report
    if args.json:
        print_json({"unit": unit, "players": r.players, "mode": r.mode, "method": r.method, "cells": r.cells,
                    "weight": r.weight, "spread": r.spread, "chunks": r.chunks,
                    "chunk_histogram": r.chunk_histogram, "owners": part.owners})
        return 0
    print(f"{r.players} players, {r.mode} ({r.method}) for {unit}: spread {r.spread:g}")
    for i in range(r.players):
        print(f"player {i + 1}: {int(r.cells[i])} cells, weight {float(r.weight[i]):g}, {int(r.chunks[i])} chunks")
    sizes = ", ".join(f"{s}: {int(n)}" for s, n in enumerate(r.chunk_histogram.tolist()) if n)
    print(f"chunk sizes (cells: chunks): {sizes}; mean {r.mean_chunk:.2f}")
    return 0
