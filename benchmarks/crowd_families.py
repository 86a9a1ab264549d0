"""The simulation against the planner on the narrow maps of the generated families: makespans, their ratios, sums.

The 107 instances that ``docs/design/kernels.md`` measures the crowd rule on
(its sections on the band and the front rule, and after): room-32-32-4 with
50, 100 and 200 random pairs (seeds 0..13), maze-32-32-2 with 100 (seeds
0..7) and 150 (0..11), maze-32-32-4 with 100 and 200 (0..11),
random-32-32-20 with 300 (0..11), and random-32-32-10 of the shared MAPF
data with 100, 200 and 400 (0..2), when that folder is beside the
repository; random pairs on every map (``bench_crowd.random_agents``; the
scenario file's agents are ``bench_crowd.py``'s rows). Every instance is simulated (``bench_crowd.simulate``: vehicles,
one cell a tick, 4-connected) once for each stream: the simulation's seed is
the pairs' seed plus the stream (0, 1000, 2000: other tie-breaks move one
run's makespan by up to 15 %, so three streams are the measure). The
planner's makespan (``plan_crowd``, 10 s, 1 s to improve: its best plan) is
planned once an instance and kept in ``--planner`` (a JSON file, read again
on the next run: the planner's plans do not change with the simulation).

Prints one line an instance and stream (``--verbose``), then the table of
each stream (the mean of the makespans' ratios to the planner's, how many
are over 1.1 times it, the largest, the sum of arrival ticks) and the
makespans summed by row::

    python benchmarks/mapf_families.py /tmp/families
    PYTHONPATH=src python benchmarks/crowd_families.py /tmp/families --planner /tmp/planner.json
    PYTHONPATH=src python benchmarks/crowd_families.py /tmp/families --rows maze-32-32-4:200 --streams 0
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from bench_crowd import MAPF, lower_bounds, random_agents, simulate, warm_planner  # (the scripts' folder is on sys.path)

from wargrid.io import load_movingai
from wargrid.rts import plan_crowd

ROWS: tuple[tuple[str, int, range], ...] = (
    ("room-32-32-4", 50, range(14)), ("room-32-32-4", 100, range(14)), ("room-32-32-4", 200, range(14)),
    ("maze-32-32-2", 100, range(8)), ("maze-32-32-2", 150, range(12)),
    ("maze-32-32-4", 100, range(12)), ("maze-32-32-4", 200, range(12)),
    ("random-32-32-20", 300, range(12)),
    ("random-32-32-10", 100, range(3)), ("random-32-32-10", 200, range(3)), ("random-32-32-10", 400, range(3)),
)
"""The instances: map, random pairs, the pairs' seeds."""


def map_file(folder: Path, name: str) -> Path | None:
    """The map's file: the generated families' folder, or the shared MAPF data for random-32-32-10."""
    for path in (folder / f"{name}.map", MAPF / f"{name}.map"):
        if path.is_file():
            return path
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folder", help="the generated families (benchmarks/mapf_families.py FOLDER)")
    ap.add_argument("--streams", default="0,1000,2000", help="added to the pairs' seed for the simulation's seed")
    ap.add_argument("--planner", default="", help="a JSON file of the planner's makespans (read, and written with "
                    "the instances it lacked); none: the planner is not run and no ratio is printed")
    ap.add_argument("--rows", default="", help="only these rows, as MAP:AGENTS (comma-separated)")
    ap.add_argument("--verbose", action="store_true", help="a line for every instance and stream")
    args = ap.parse_args()
    streams = [int(v) for v in args.streams.split(",")]
    only = {(r.split(":")[0], int(r.split(":")[1])) for r in args.rows.split(",") if r}
    unknown = only - {(name, n) for name, n, _ in ROWS}
    if unknown:
        raise SystemExit(f"--rows: no such row {sorted(unknown)}; the rows: {[f'{a}:{b}' for a, b, _ in ROWS]}")
    cache_path = Path(args.planner) if args.planner else None
    planned: dict[str, int] = json.loads(cache_path.read_text()) if cache_path and cache_path.is_file() else {}
    if cache_path is not None:  # (its kernels loaded before any timed plan: a first compile ate the 10 s)
        warm_planner()
    per_stream: dict[int, list[tuple[float | None, int]]] = {s: [] for s in streams}
    per_row: dict[tuple[str, int], dict[str, int]] = {}
    unfinished = 0
    for name, n, seeds in ROWS:
        if only and (name, n) not in only:
            continue
        path = map_file(Path(args.folder), name)
        if path is None:
            print(f"(no {name}.map in {args.folder} or {MAPF}: its row left out)", file=sys.stderr)
            continue
        m = load_movingai(path, diagonal=False)
        sums = per_row.setdefault((name, n), {"instances": 0, "sim": 0, "planner": 0})
        for seed in seeds:
            s, g = random_agents(m, n, seed)
            key = f"{name}:{n}:{seed}"
            if cache_path is not None and key not in planned:
                plan = plan_crowd(m, s, g, unit="walk", time_limit=10, improve=1, seed=seed)
                if plan.complete:  # (an incomplete plan's makespan is no reference: none kept, no ratio)
                    planned[key] = int(plan.makespan)
                    cache_path.write_text(json.dumps(planned, indent=0, sort_keys=True))
                else:
                    print(f"({key}: the planner found no complete plan in 10 s; no ratio)", file=sys.stderr)
            ref = planned.get(key)
            cap = 6 * lower_bounds(m, s, g)[0] + 200
            sums["instances"] += 1
            for stream in streams:
                r = simulate(m, s, g, cap, seed + stream)
                unfinished += not r["all"]
                ratio = r["makespan"] / ref if ref else None
                per_stream[stream].append((ratio, r["soc"]))
                sums["sim"] += r["makespan"]
                sums["planner"] += ref or 0
                if args.verbose:
                    print(f"{name} {n} seed {seed} stream {stream}: {r['makespan']} "
                          f"({'all' if r['all'] else 'NOT all'} on goal), sum {r['soc']}, planner {ref}", flush=True)
    print("\n| the simulation's seed | instances | mean ratio | over 1.1 x | largest | sum of arrivals |")
    print("|---|---|---|---|---|---|")
    for stream, got in per_stream.items():
        ratios = [r for r, _ in got if r is not None]
        mean = f"{statistics.fmean(ratios):.3f}" if ratios else "-"
        over = sum(r > 1.1 for r in ratios) if ratios else "-"
        top = f"{max(ratios):.3f}" if ratios else "-"
        print(f"| pairs' seed + {stream} | {len(got)} | {mean} | {over} | {top} | {sum(soc for _, soc in got)} |")
    print(f"\n| map | agents | instances | simulation, {len(streams)} streams | the planner's, {len(streams)} times |")
    print("|---|---|---|---|---|")
    for (name, n), s in per_row.items():
        print(f"| {name} | {n} | {s['instances']} | {s['sim']} | {s['planner'] or '-'} |")
    print(f"\nruns with a unit off its goal at the cap: {unfinished}")


if __name__ == "__main__":
    main()
