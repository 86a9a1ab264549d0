"""``wargrid zones``: the connected zones of a map file for a movement class."""

from __future__ import annotations

import argparse

import numpy as np

from ._common import Subparsers, add_unit_json, map_and_unit, print_json, verb_parser


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    p = verb_parser(sub, "zones", help="the connected zones of a map for a movement class",
                    description="Label the connected zones of MAP for a movement class: cells with the same "
                                "zone reach each other. Prints the zones, largest first, with their sizes; "
                                "--json adds the labels ((height, width) rows, -1 impassable).",
                    examples=["wargrid zones board.json", "wargrid zones board.json --unit naval --json"])
    p.add_argument("map", metavar="MAP", help="map file")
    add_unit_json(p)
    return p


def run(args: argparse.Namespace) -> int:
    m, unit = map_and_unit(args)
    labels = m.zones(unit=unit)
    ids, sizes = np.unique(labels[labels >= 0], return_counts=True)
    order = np.argsort(-sizes, kind="stable")
    if args.json:
        print_json({"unit": unit, "zones": len(ids),
                    "sizes": {str(int(ids[i])): int(sizes[i]) for i in order}, "labels": labels})
        return 0
    print(f"{len(ids)} zones for {unit} on {m.width}x{m.height} ({int(sizes.sum())} passable cells)")
    for i in order:
        print(f"zone {int(ids[i])}: {int(sizes[i])} cells")
    return 0
