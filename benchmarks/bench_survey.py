"""Survey benchmark: maps per second of ``wargrid.survey`` in one process, on local processes and on a Dask cluster.

Run by hand from the repository root (needs ``pip install "wargrid[survey]"``)::

    python benchmarks/bench_survey.py
    python benchmarks/bench_survey.py --maps 200 --size 64 --players 2 --workers 2

The same survey (``--maps`` maps of ``--size``² hex, ``--players`` players,
seeds 0..) runs three ways, in one run:

- **one process**: ``survey(..., workers=1)``, the maps one after the other;
- **local processes**: ``survey(..., workers=W)`` (default: one a core), a
  pool of fresh processes, each warming its kernels once;
- **LocalCluster**: ``survey(..., client=client)`` on a
  ``distributed.LocalCluster`` of ``--workers`` single-threaded worker
  processes (the cluster is started before the clock starts; its start time
  is printed apart).

Each prints wall time, maps per second, the speed-up over one process, and
where the time went: the mean time per map of each step (generate, zones,
partition, starts, paths; measured inside the tasks), and the overhead, the
wall time not spent measuring maps (wall - summed map time / workers: process
start, kernel warm-up, scheduling, moving rows). The rows of the three runs
are checked equal (all columns but the timings).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from wargrid.survey import STEPS, SurveyResult, survey
from wargrid.survey.run import default_workers


def line(name: str, r: SurveyResult, workers: int, base: float | None) -> str:
    rate = r.measured / r.seconds
    busy = float(np.nansum(r.values("seconds_total")))
    overhead = r.seconds - busy / workers
    steps = "  ".join(f"{s} {np.nanmean(r.values(f'seconds_{s}')) * 1000:6.1f}" for s in STEPS)
    speed = f"{rate / base:5.2f}x" if base else "  1.00x"
    return (f"{name:<22}{r.seconds:8.2f} s {rate:8.2f} maps/s {speed}   overhead {overhead:6.2f} s   "
            f"ms a map: {steps}  (total {busy / r.measured * 1000:.1f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--maps", type=int, default=100)
    ap.add_argument("--size", type=int, default=128)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2, help="LocalCluster workers (default 2)")
    args = ap.parse_args()
    import distributed

    options = dict(size=args.size, kind="hex", players=args.players, progress=False)
    local = default_workers()
    print(f"{args.maps} maps of {args.size}x{args.size} hex, {args.players} players; {local} cores")
    one = survey(args.maps, workers=1, **options)
    print(line("one process", one, 1, None))
    base = one.measured / one.seconds
    pool = survey(args.maps, workers=local, **options)
    print(line(f"{local} local processes", pool, local, base))
    t0 = time.perf_counter()
    with distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        start = time.perf_counter() - t0
        dask = survey(args.maps, client=client, **options)
    print(line(f"LocalCluster {args.workers} workers", dask, args.workers, base) + f"   (cluster start {start:.2f} s)")
    same = one.measures() == pool.measures() == dask.measures()
    print(f"rows equal in all three runs: {same}; failed maps: {len(one.failed())}")
    if not same:
        raise SystemExit("the three runs disagree")


if __name__ == "__main__":
    main()
