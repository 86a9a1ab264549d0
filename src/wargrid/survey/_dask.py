"""The Dask side of a survey: a worker plugin that warms each worker once, and the run over a client.

Imported only when a survey is given a client or a scheduler address, so
``distributed`` is needed only then.
"""

from __future__ import annotations

import gc
import uuid
from typing import Any, Callable, Sequence

from .._extras import require
from ..errors import ArgumentError, ArgumentTypeError
from .measuring import Row, SurveySpec, empty_row, measure, warm

distributed = require("distributed", extra="survey", feature="Surveys on a Dask cluster")

__all__ = ["WarmPlugin", "connect", "run_on_client"]


class WarmPlugin(distributed.WorkerPlugin):  # type: ignore[misc,name-defined]
    """Warms a worker's kernels when it starts (and every worker that joins or restarts later)."""

    def __init__(self, spec: SurveySpec) -> None:
        self.spec = spec

    def setup(self, worker: Any) -> None:
        warm(self.spec)


def connect(client: Any) -> tuple[Any, bool]:
    """The ``distributed.Client`` for ``client`` (a client, or a scheduler address to connect to) and whether it
    was opened here (and is to be closed after)."""
    if isinstance(client, distributed.Client):
        return client, False
    if not isinstance(client, str):
        raise ArgumentTypeError(f"client must be a distributed.Client or a scheduler address, got {type(client).__name__}")
    error: Exception
    try:
        return distributed.Client(client, timeout="10s"), True
    except ValueError as exc:
        error = ArgumentError(f"{client!r} is no Dask scheduler address (such as tcp://10.0.0.5:8786): {exc}")
    except (OSError, TimeoutError) as exc:
        error = OSError(f"cannot reach the Dask scheduler at {client}: {exc}")
    # the half-made client closed now, its traceback gone: left to a later garbage collection, its finalizer ran
    # inside another cluster's start, where distributed's loop runner waited on itself (a LocalCluster hung)
    gc.collect()
    raise error from None


def run_on_client(client: Any, spec: SurveySpec, seeds: Sequence[int], on_row: Callable[[Row], None]) -> None:
    """Measure the maps of ``seeds`` as tasks on ``client``'s cluster; ``on_row`` is called as each arrives.

    A task that the cluster gives up on (a worker died under it too often)
    becomes a row with its error.
    """
    client.register_plugin(WarmPlugin(spec), name="wargrid-survey-warm")  # replaces an earlier survey's: one a worker
    token = uuid.uuid4().hex[:12]
    futures = client.map(measure, [spec] * len(seeds), list(seeds), key=[f"wargrid-survey-{token}-{s}" for s in seeds],
                         pure=False)
    seed_of = {f.key: s for f, s in zip(futures, seeds)}
    try:
        for future in distributed.as_completed(futures):
            try:
                row = future.result()
            except Exception as exc:  # the cluster gave up on this map: keep it as a row with its error
                row = empty_row(seed_of[future.key])
                row["error"] = f"{type(exc).__name__}: {' '.join(str(exc).split())}"
            future.release()
            on_row(row)
    finally:
        client.cancel(futures)
