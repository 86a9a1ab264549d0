"""``survey``: measure many generated maps, here, on local processes or on a Dask cluster.

The same tasks run whichever way: ``measure(spec, seed)`` for each seed,
every worker warming its kernels once first. Rows come back in any order and
are sorted by seed, so the results are the same rows in the same order
wherever they ran (only the ``seconds_*`` columns differ).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from .._budget import check_memory
from .._extras import require
from .._progress import Progress, check_progress, ticker
from ..errors import ArgumentError, ArgumentTypeError
from .._validate import check_positive_int, check_real, check_seed
from ..generate import MAX_GENERATE_CELLS, generate_board
from .columns import MEASURE_COLUMNS
from .measuring import Row, SurveySpec, empty_row, measure, warm
from .store import read_rows, to_table, write_rows

__all__ = ["survey", "SurveyResult", "RowCallback", "default_workers"]

RowCallback = Callable[[Row], Any]
"""What ``on_row`` takes: called with each map's row as it arrives (in the order the maps finish)."""
"""Called after each map with (maps done, maps to do, the map's row)."""

_ROW_BYTES = 4096
"""Memory a map of a survey holds until the end (its row: about 2.4 kB measured, with its seed in the to-do list)."""

_POOL_TRIES = 3  # pools started before a map whose worker keeps dying is given up (its row holds the error)


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


@dataclass(frozen=True, eq=False)
class SurveyResult:
    """The rows of a survey (one a map, sorted by seed; columns: ``wargrid.survey.COLUMNS``), the ``spec`` of
    its maps, where it ran, how many maps this run measured (the rest came from a resumed file) and how long
    it took."""

    rows: tuple[Row, ...]
    spec: SurveySpec
    where: str
    measured: int
    seconds: float

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def seeds(self) -> list[int]:
        """The seeds, in order."""
        return [r["seed"] for r in self.rows]

    def measures(self) -> list[Row]:
        """The rows without their timings: what is the same whichever way the survey ran."""
        return [{k: r[k] for k in MEASURE_COLUMNS} for r in self.rows]

    def failed(self) -> list[Row]:
        """The rows of the maps whose measuring failed (``row['error']`` says why)."""
        return [r for r in self.rows if r["error"] is not None]

    def values(self, column: str) -> np.ndarray:
        """A numeric column as a float array, NaN where null.

        >>> r = survey(2, size=12, players=2, workers=1, progress=False)
        >>> r.values("cells").tolist()
        [144.0, 144.0]
        """
        if not self.rows or column not in self.rows[0]:
            raise ArgumentError(f"no column {column!r}; see wargrid.survey.COLUMNS")
        return np.array([np.nan if r[column] is None else float(r[column]) for r in self.rows], dtype=np.float64)

    def table(self) -> Any:
        """The rows as a ``pyarrow.Table`` (``.to_pandas()`` for a data frame)."""
        return to_table(self.rows, self.spec)

    def to_parquet(self, path: str | os.PathLike[str]) -> None:
        """Write the rows to the Parquet file ``path``."""
        write_rows(path, self.rows, self.spec)

    def summary(self) -> str:
        """A few lines for the terminal: counts, the fairness measures' spread, where the time went."""
        from .report import summary_text

        return summary_text(self)

    def write_report(self, path: str | os.PathLike[str], *, rank_by: str = "start_town_spread", show: int = 3) -> None:
        """An HTML page of the survey: summary, histograms, the ``show`` worst and best maps by ``rank_by``."""
        from .report import write_report

        write_report(self, path, rank_by=rank_by, show=show)


def _size(size: int | Sequence[int]) -> tuple[int, int]:
    if isinstance(size, (int, np.integer)) and not isinstance(size, bool):
        return int(size), int(size)
    try:
        w, h = size  # type: ignore[misc]
    except (TypeError, ValueError):
        raise ArgumentTypeError(f"size must be N or (width, height), got {size!r}") from None
    return check_positive_int(w, "size[0]"), check_positive_int(h, "size[1]")


def _check_spec(spec: SurveySpec, seed: int) -> None:
    """Fail now, not in every task, on board options or a unit the maps cannot have."""
    cells = spec.width * spec.height
    if cells > MAX_GENERATE_CELLS:
        raise ArgumentError(f"size {spec.width}x{spec.height} = {cells} cells is past the {MAX_GENERATE_CELLS} cells "
                            "of a generated board; survey smaller maps")
    generate_board(4, 4, kind=spec.kind, seed=seed, **dict(spec.board)).map.unit_class(spec.unit)


def survey(
    maps: int,
    *,
    size: int | Sequence[int] = 64,
    kind: str = "hex",
    players: int = 2,
    seed_start: int = 0,
    unit: str | None = None,
    board: Mapping[str, Any] | None = None,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    workers: int | None = None,
    client: Any = None,
    progress: Progress = True,
    on_row: RowCallback | None = None,
    checkpoint: float = 30.0,
) -> SurveyResult:
    """Generate and measure ``maps`` maps (seeds ``seed_start``, ``seed_start + 1``, ...): land, zones, a fair
    partition, start positions and paths; one row a map (columns: ``wargrid.survey.COLUMNS``).

    Parameters
    ----------
    maps
        How many maps (>= 1).
    size
        ``N`` or ``(width, height)`` of every map.
    kind, players, unit, board
        Board kind ('hex', 'square', 'staggered'), players to divide the land between, the movement class
        measured (``None``: the terrain table's first) and further ``generate_board`` options (``water``,
        ``forest``, ``towns``, ``rivers``, ``orientation``, ...).
    out
        A Parquet file the rows are written to: every ``checkpoint`` seconds while the survey runs, and at the end.
    resume
        Keep the rows already in ``out`` (made with the same options) and measure only the seeds it lacks.
    workers
        Local processes (default: one a core); 1 runs in this process.
    client
        A ``distributed.Client``, or a scheduler address such as ``'tcp://10.0.0.5:8786'``: the maps run as
        tasks on that Dask cluster instead (``workers`` must then be ``None``).
    progress
        The library's convention (``wargrid._progress``): ``True`` a bar on stderr when it is a terminal,
        ``False``/``None`` nothing, a callable ``progress(done, total)`` counts the maps measured.
    on_row
        Called with each row as it arrives (the maps finish in any order), e.g. to watch or stop a run.

    Returns
    -------
    SurveyResult
        The rows sorted by seed; the same whichever way they ran, but for the ``seconds_*`` columns.

    Raises
    ------
    ArgumentError, ArgumentTypeError
        Bad options, before any map is made. ``MissingExtraError`` without the ``survey`` extra.

    Examples
    --------
    >>> r = survey(3, size=(16, 12), players=2, workers=1, progress=False)
    >>> r.seeds, [row["error"] for row in r.rows], all(row["partition_balanced"] for row in r.rows)
    ([0, 1, 2], [None, None, None], True)
    """
    t0 = time.perf_counter()
    require("pyarrow", extra="survey", feature="Map surveys")
    maps = check_positive_int(maps, "maps")
    # every map's row is kept: 10**20 maps listed their seeds until the process was killed for memory
    check_memory(maps * _ROW_BYTES, what="a survey", name="maps", value=maps, hint="survey fewer maps at a time")
    start = check_seed(seed_start, "seed_start")
    if start is None:
        raise ArgumentTypeError("seed_start must be a non-negative integer, got None")
    width, height = _size(size)
    spec = SurveySpec.of(width, height, kind=kind, players=players, unit=unit, board=board)
    _check_spec(spec, start)
    if workers is not None:
        workers = check_positive_int(workers, "workers")
        if client is not None:
            raise ArgumentError("give workers (local processes) or client (a Dask cluster), not both")
    if not isinstance(resume, bool):
        raise ArgumentTypeError(f"resume must be True or False, got {resume!r}")
    if resume and out is None:
        raise ArgumentError("resume=True needs out=, the results file to resume")
    checkpoint = check_real(checkpoint, "checkpoint", minimum=0.0)
    progress = check_progress(progress)
    if on_row is not None and not callable(on_row):
        raise ArgumentTypeError(f"on_row must be None or a callable on_row(row), got {on_row!r}")
    out_path = None
    if out is not None:
        if not isinstance(out, (str, os.PathLike)):
            raise ArgumentTypeError(f"out must be a path to a .parquet file, got {type(out).__name__} {out!r}")
        out_path = Path(out)
        if out_path.suffix.lower() != ".parquet":
            raise ArgumentError(f"out must be a .parquet file, got {out_path.name!r}")
        if out_path.is_dir():
            raise ArgumentError(f"out {out_path} is a folder, not a file")

    rows: dict[int, Row] = {}
    if resume and out_path is not None and out_path.exists():
        rows = {r["seed"]: r for r in read_rows(out_path, spec)}
    todo = [s for s in range(start, start + maps) if s not in rows]

    tick = ticker(progress, len(todo), "survey", unit="map")
    done = 0
    last = time.monotonic()

    def arrived(row: Row) -> None:
        nonlocal done, last
        rows[row["seed"]] = row
        done += 1
        tick(done)
        if on_row is not None:
            on_row(row)
        if out_path is not None and time.monotonic() - last >= checkpoint:
            write_rows(out_path, [rows[s] for s in sorted(rows)], spec)
            last = time.monotonic()

    try:
        where = _run(spec, todo, workers, client, arrived)
    finally:
        tick.close()
        if out_path is not None and done:
            write_rows(out_path, [rows[s] for s in sorted(rows)], spec)
    return SurveyResult(rows=tuple(rows[s] for s in sorted(rows)), spec=spec, where=where, measured=done,
                        seconds=time.perf_counter() - t0)


def _run(spec: SurveySpec, seeds: list[int], workers: int | None, client: Any,
         on_row: Callable[[Row], None]) -> str:
    """Measure ``seeds`` where asked; returns where that was."""
    if client is not None:
        from ._dask import connect, run_on_client

        c, opened = connect(client)
        try:
            where = f"on the Dask cluster at {c.scheduler.address} ({len(c.scheduler_info()['workers'])} workers)"
            if seeds:
                run_on_client(c, spec, seeds, on_row)
            return where
        finally:
            if opened:
                c.close()
    n = default_workers() if workers is None else workers
    n = max(1, min(n, len(seeds)))
    if n == 1:
        if seeds:
            warm(spec)
        for s in seeds:
            on_row(measure(spec, s))
        return "in this process"
    _run_pool(spec, seeds, n, on_row)
    return f"on {n} local processes"


def _start_worker(parent: int, spec: SurveySpec) -> None:
    """A pool worker's first step: watch the survey's process, then warm the kernels."""
    watch_parent(parent)
    warm(spec)


def watch_parent(parent: int, *, every: float = 1.0) -> None:
    """End this process when process ``parent`` is gone (a ``kill -9`` of the survey leaves none to stop it).

    On Linux the kernel sends SIGKILL the moment the parent dies
    (``PR_SET_PDEATHSIG``); everywhere a daemon thread also checks the parent
    every ``every`` seconds, and a parent already gone ends the process at once.
    """
    import signal
    import sys
    import threading

    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0)  # 1: PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # pragma: no cover - no libc prctl: the thread below still watches
            pass
    if os.getppid() != parent:
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(every)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="wargrid-survey-parent-watch", daemon=True).start()


def _run_pool(spec: SurveySpec, seeds: list[int], n: int, on_row: Callable[[Row], None]) -> None:
    """Measure ``seeds`` on a pool of ``n`` fresh processes, each warmed once; a pool broken by a dying worker
    is replaced and the maps it had not finished run again."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool

    todo = list(seeds)
    context = multiprocessing.get_context("spawn")  # no fork of a process that may hold threads
    for _ in range(_POOL_TRIES):
        finished: set[int] = set()
        pool = ProcessPoolExecutor(max_workers=min(n, len(todo)), mp_context=context, initializer=_start_worker,
                                   initargs=(os.getpid(), spec))
        try:
            futures = {pool.submit(measure, spec, s): s for s in todo}
            for future in as_completed(futures):
                row = future.result()
                finished.add(futures[future])
                on_row(row)
        except BrokenProcessPool:
            pass
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        todo = [s for s in todo if s not in finished]
        if not todo:
            return
    for s in todo:
        row = empty_row(s)
        row["error"] = f"BrokenProcessPool: the worker process measuring this map died {_POOL_TRIES} times"
        on_row(row)

