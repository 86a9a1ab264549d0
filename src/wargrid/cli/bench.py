"""``wargrid bench movingai SCEN...``: check every scenario's optimal length and time each query."""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

from . import CliError
from ._common import Subparsers, verb_parser


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    p = verb_parser(sub, "bench", examples=["wargrid bench movingai arena.map.scen",
                              "wargrid bench movingai *.scen --limit 200"],
                    help="benchmarks a user can run: 'bench movingai SCEN...'",
                       description="Run benchmarks on your own machine.")
    what = p.add_subparsers(dest="suite", metavar="SUITE", required=True)
    mv = what.add_parser("movingai", help="check Moving AI scenarios' optimal lengths and time each query",
                         description="For each .scen file, load its .map (beside it), find every scenario's path "
                                     "and compare its cost with the optimal length in the file. Exit code 1 if any "
                                     "differs by more than --tolerance.")
    mv.add_argument("scen", nargs="+", metavar="SCEN", help="Moving AI .scen files")
    mv.add_argument("--limit", type=int, default=None, help="at most this many scenarios per file")
    mv.add_argument("--tolerance", type=float, default=0.01, help="allowed difference in length (default 0.01)")
    mv.add_argument("--map", default=None, help="the .map file (default: the SCEN name without .scen)")
    return p


def _map_for(scen: Path, named: str, override: str | None) -> Path:
    if override:
        return Path(override)
    if scen.name.endswith(".scen") and (scen.parent / scen.name[: -len(".scen")]).exists():
        return scen.parent / scen.name[: -len(".scen")]
    return scen.parent / Path(named).name


def run(args: argparse.Namespace) -> int:
    if args.limit is not None and args.limit < 1:
        raise CliError(f"--limit must be >= 1, got {args.limit}", 2)
    if not (args.tolerance >= 0):
        raise CliError(f"--tolerance must be >= 0, got {args.tolerance}", 2)
    from ..io.movingai import load_movingai, load_movingai_scenarios

    bad_total = 0
    for s in args.scen:
        scen = Path(s)
        if not scen.exists():
            raise CliError(f"no such file: {scen}")
        items = load_movingai_scenarios(scen)
        if args.limit:
            items = items[: args.limit]
        if not items:
            print(f"{scen.name}: no scenarios")
            continue
        mp = _map_for(scen, items[0].map, args.map)
        if not mp.exists():
            raise CliError(f"{scen}: its map {mp} is not there (give it with --map)")
        m = load_movingai(mp)
        t0 = time.perf_counter()
        m.path(items[0].start, items[0].goal)  # warm up: compiles the kernels on a first run
        warm = time.perf_counter() - t0
        times, bad = [], []
        for sc in items:
            t = time.perf_counter()
            p = m.path(sc.start, sc.goal)
            times.append(time.perf_counter() - t)
            got = math.inf if p is None else p.cost
            if not abs(got - sc.optimal) <= args.tolerance:
                bad.append((sc, got))
        bad_total += len(bad)
        us = [t * 1e6 for t in times]
        print(f"{scen.name}: {len(items)} scenarios on {mp.name} ({m.width}x{m.height}), "
              f"{len(items) - len(bad)} optimal, {len(bad)} wrong; per query mean {statistics.fmean(us):.0f} us, "
              f"median {statistics.median(us):.0f} us, max {max(us):.0f} us; total {sum(times):.2f} s "
              f"(first query with compiling {warm:.2f} s)")
        for sc, got in bad[:5]:
            print(f"  wrong: {sc.start} -> {sc.goal}: got {got}, optimal {sc.optimal}", file=sys.stderr)
    return 1 if bad_total else 0
