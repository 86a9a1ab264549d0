"""``wargrid survey``: generate many seeded maps and measure how fair they are, here or on a Dask cluster."""

from __future__ import annotations

import argparse

from ._common import KINDS, Subparsers, check_output, out_path, parse_size, print_json, verb_parser
from . import CliError

EXIT_CODES = ("exit codes:\n  0  ok (maps that failed are rows with their error, counted in the summary)\n"
              "  1  failure (scheduler unreachable, results file of other options, extra not installed)\n"
              "  2  usage (bad options)\n  130  interrupted (the rows done so far are saved: --resume continues)")


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    p = verb_parser(sub, "survey", help="measure the fairness of many generated maps",
                    description="Generate --maps maps (seeds --seed-start, --seed-start + 1, ...) and measure each: "
                                "land and connectivity, a fair partition between --players, start positions and "
                                "their fairness, paths between starts, and the time of each step. One row a map "
                                "in --out (Parquet); a summary on the terminal; --report draws histograms and the "
                                "worst and best maps. Runs on all local cores, or on the Dask cluster whose "
                                "scheduler is --scheduler. Needs the survey extra: pip install \"wargrid[survey]\".",
                    examples=["wargrid survey --maps 1000 --size 64x64 --players 4 --out results.parquet",
                              "wargrid survey --maps 2000 --size 128x128 --players 4 --out results.parquet --resume "
                              "--report report.html",
                              "wargrid survey --maps 10000 --size 128x128 --out results.parquet "
                              "--scheduler tcp://10.0.0.5:8786"],
                    exit_codes=EXIT_CODES)
    p.add_argument("--maps", type=int, required=True, help="how many maps (>= 1)")
    p.add_argument("--size", type=parse_size, default=(64, 64), help="WIDTHxHEIGHT or N of every map (default 64x64)")
    p.add_argument("--kind", choices=KINDS, default="hex", help="board kind (default hex)")
    p.add_argument("--players", type=int, default=2, help="players to divide the land between (default 2)")
    p.add_argument("--seed-start", type=int, default=0, help="the first seed (default 0)")
    p.add_argument("--unit", default=None, help="movement class measured (default: the terrain table's first, foot)")
    p.add_argument("--out", default=None, help="Parquet file of the rows (written as the survey runs)")
    p.add_argument("--resume", action="store_true", help="keep the rows already in --out, measure only missing seeds")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=None, help="local processes (default: one a core; 1: this process)")
    where.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help="run on the Dask cluster of this scheduler, e.g. tcp://10.0.0.5:8786")
    p.add_argument("--report", default=None, metavar="HTML", help="write an HTML report (histograms, worst and best maps)")
    p.add_argument("--rank-by", default="start_town_spread",
                   help="the column that ranks the report's worst and best maps (default start_town_spread)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    return p


def run(args: argparse.Namespace) -> int:
    from .._extras import MissingExtraError
    from ..errors import ArgumentError
    from ..survey import survey
    from ..survey.report import check_rank_by, summary_data

    if args.maps < 1:
        raise CliError(f"--maps must be >= 1, got {args.maps}", 2)
    if args.players < 1:
        raise CliError(f"--players must be >= 1, got {args.players}", 2)
    if args.seed_start < 0:
        raise CliError(f"--seed-start must be >= 0, got {args.seed_start}", 2)
    if args.workers is not None and args.workers < 1:
        raise CliError(f"--workers must be >= 1, got {args.workers}", 2)
    if args.resume and args.out is None:
        raise CliError("--resume needs --out, the results file to resume", 2)
    if args.out is not None:
        check_output(args.out, "--out", (".parquet",))
    if args.report is not None:
        check_output(args.report, "--report", (".html", ".htm"))
    try:
        check_rank_by(args.rank_by)
    except ArgumentError as exc:
        raise CliError(str(exc).replace("rank_by", "--rank-by", 1), 2) from None
    for path in (args.out, args.report):
        if path is not None:
            out_path(path)  # its folder, made now that the request is checked (removed again should the survey fail)
    try:
        result = survey(args.maps, size=args.size, kind=args.kind, players=args.players, seed_start=args.seed_start,
                        unit=args.unit, out=args.out, resume=args.resume, workers=args.workers,
                        client=args.scheduler, progress=not (args.quiet or args.json))
        if args.report is not None:
            result.write_report(args.report, rank_by=args.rank_by)
    except MissingExtraError as exc:
        raise CliError(str(exc), 2) from None
    except ArgumentError as exc:
        raise CliError(str(exc), 1) from None
    if args.json:
        print_json(summary_data(result))
    else:
        print(result.summary())
        for name, path in (("rows", args.out), ("report", args.report)):
            if path is not None:
                print(f"{name}: {path}")
    return 0
