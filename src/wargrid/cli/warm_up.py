"""``wargrid warm-up``: compile (or load from the disk cache) the kernels ahead of the first query."""

from __future__ import annotations

import argparse
import time

from ..warmup import CAPABILITIES, warm_up
from ._common import Subparsers, print_json, verb_parser


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    p = verb_parser(sub, "warm-up", help="compile the kernels now, so that first queries do not wait",
                    description="Compile (or load from the disk cache) the kernels of the named capabilities "
                                "(default: all) by running each once on tiny boards. Run it once after installing, "
                                "or when a server starts.",
                    examples=["wargrid warm-up", "wargrid warm-up movement sight", "wargrid warm-up --json"])
    p.add_argument("capabilities", nargs="*", choices=list(CAPABILITIES), metavar="CAPABILITY",
                   help=f"one of {', '.join(CAPABILITIES)} (default: all)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    return p


def run(args: argparse.Namespace) -> int:
    t0 = time.perf_counter()
    names = warm_up(*args.capabilities)
    dt = time.perf_counter() - t0
    if args.json:
        print_json({"warmed": names, "seconds": round(dt, 3)})
    else:
        print(f"warmed {', '.join(names)} in {dt:.1f} s")
    return 0
