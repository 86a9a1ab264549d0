"""Where a cold test run's numba compile time goes: a pytest plugin, and the report over what it wrote.

Run the tests cold with the plugin (each process writes ``OUT-<worker>.json``), then the report::

    rm -rf /tmp/nc && PYTHONPATH=src:scripts NUMBA_CACHE_DIR=/tmp/nc COMPILE_TIMES=/tmp/ct \\
        python -m pytest -p no:cacheprovider -p compile_times
    python scripts/compile_times.py /tmp/ct

Each compile is timed by numba's ``numba:compile`` event, in the compiling thread's CPU seconds and without
the compiles nested in it (a kernel's helpers are compiled, and counted, on their own). The report lists the
kernels by CPU, how many signatures each compiled (every signature is a whole compile: int32 against int64,
a read-only against a writable array, a literal argument), the same signature compiled by both workers, and
the tests that compiled the most.
"""

from __future__ import annotations

import collections
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

_EVENTS: list[dict[str, Any]] = []
_STACK: list[list[float]] = []
_TEST = ["<collection>"]


def _install() -> None:
    from numba.core import event

    class Timer(event.Listener):  # type: ignore[misc]
        def on_start(self, ev: Any) -> None:
            _STACK.append([time.thread_time(), 0.0])

        def on_end(self, ev: Any) -> None:
            start, nested = _STACK.pop()
            cpu = time.thread_time() - start
            if _STACK:
                _STACK[-1][1] += cpu
            f = getattr((ev.data or {}).get("dispatcher"), "py_func", None)
            name = f"{getattr(f, '__module__', '?')}.{getattr(f, '__qualname__', '?')}"
            _EVENTS.append({"kernel": name, "sig": str((ev.data or {}).get("args")), "cpu": cpu - nested,
                            "test": _TEST[0]})

    event.register("numba:compile", Timer())


def pytest_configure(config: Any) -> None:
    _install()


def pytest_runtest_logstart(nodeid: str, location: Any) -> None:
    _TEST[0] = nodeid


def pytest_sessionfinish(session: Any) -> None:
    out = os.environ.get("COMPILE_TIMES", "compile_times")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    Path(f"{out}-{worker}.json").write_text(json.dumps(_EVENTS), encoding="utf-8")


def report(out: str, most: int = 25) -> None:
    """Print the report over every ``OUT-*.json`` a run wrote."""
    cpu: collections.Counter[str] = collections.Counter()
    by_test: collections.Counter[str] = collections.Counter()
    sigs: dict[str, set[str]] = collections.defaultdict(set)
    where: dict[tuple[str, str], list[tuple[str, float]]] = collections.defaultdict(list)
    for path in sorted(Path(out).parent.glob(Path(out).name + "-*.json")):
        worker = path.stem.rsplit("-", 1)[1]
        for e in json.loads(path.read_text(encoding="utf-8")):
            cpu[e["kernel"]] += e["cpu"]
            by_test[e["test"]] += e["cpu"]
            sigs[e["kernel"]].add(e["sig"])
            where[(e["kernel"], e["sig"])].append((worker, e["cpu"]))
    twice = sum(sum(c for _, c in w) - max(c for _, c in w) for w in where.values() if len({k for k, _ in w}) > 1)
    print(f"compiles: {sum(cpu.values()):.1f} CPU s; the same signature in two workers: {twice:.1f} s")
    print("\nCPU s  signatures  kernel")
    for k, c in cpu.most_common(most):
        print(f"{c:6.1f}  {len(sigs[k]):3d}  {k}")
    print("\nCPU s  test")
    for t, c in by_test.most_common(most):
        print(f"{c:6.1f}  {t}")


if __name__ == "__main__":
    report(sys.argv[1] if len(sys.argv) > 1 else "compile_times")
