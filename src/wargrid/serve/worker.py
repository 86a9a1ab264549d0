"""A child process that runs the playground's heavy requests, so they can be stopped.

A compiled kernel holds the interpreter while it runs: in the server's own
process, a partition that takes minutes would keep the server deaf to
Ctrl+C and SIGTERM until it ends. ``Worker`` runs such a job in one child
process instead; the request waits for it at most ``timeout`` seconds, then
the child is killed (freeing the CPU at once) and the request is answered
503. ``stop()`` kills the child too: the server calls it on the first
Ctrl+C or SIGTERM, so the waiting request ends and the server can exit.

The child is started with ``spawn`` (never a fork of a threaded server) and
replaced on the next job after it was killed; a new child first runs
``warm()`` (say, tiny jobs that load or compile the kernels) and then says it
is ready. A job's ``timeout`` counts from then: the first job after a cold
start waits for the warm-up (at most ``WARM_TIMEOUT`` seconds) without it
eating the job's own time. Jobs run one at a time; a job that cannot start
within its deadline is answered 503 too.

>>> w = Worker(timeout=60)
>>> w.call(pow, 2, 10)
1024
>>> w.stop()
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
import time
from multiprocessing.connection import Connection
from typing import Any, Callable

from ..errors import ArgumentError
from .api import ApiError

__all__ = ["Worker", "WORK_TIMEOUT", "WARM_TIMEOUT"]

WORK_TIMEOUT = 30.0
"""Seconds a heavy request may run before it is stopped and answered 503."""

WARM_TIMEOUT = 600.0
"""Seconds a new child may take to warm up (compiling kernels on a cold cache) before a job gives up with 503."""

_READY = ("ready",)

_CLOSED = (EOFError, OSError, TypeError, ValueError)
"""What reading or writing the pipe raises once the child died or ``stop()`` closed the pipe: ``stop()`` runs from
a signal handler, and a ``Connection`` closed while another thread is inside ``recv`` reads from a handle that is
now ``None`` (``TypeError``) rather than raising ``OSError``."""


def _serve_jobs(conn: Connection, warm: Callable[[], object] | None) -> None:  # pragma: no cover - the child
    """The child's loop: ``warm()`` once, then run each ``(function, args)`` received, send back what came of it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server decides when its worker stops
    if warm is not None:
        try:
            warm()
        except Exception:  # noqa: BLE001 - a failed warm-up shows again on the real job
            pass
    try:
        conn.send(_READY)
    except (EOFError, OSError):
        return
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            out: tuple[Any, ...] = ("ok", fn(*args))
        except ApiError as exc:
            out = ("refused", exc.status, exc.message)
        except Exception as exc:  # noqa: BLE001 - a fault in a job is answered 500, the worker lives on
            out = ("fault", f"{type(exc).__name__}: {exc}")
        conn.send(out)


class Worker:
    """Runs functions in one child process, each for at most ``timeout`` seconds (see the module's text)."""

    def __init__(self, *, timeout: float = WORK_TIMEOUT, warm: Callable[[], object] | None = None) -> None:
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
            raise ArgumentError(f"timeout must be a number of seconds > 0, got {timeout!r}")
        self.timeout = float(timeout)
        self.warm = warm  # run first in each new child (a module-level function: loads the kernels)
        self._job = threading.Lock()  # one job at a time
        self._guard = threading.Lock()  # the child and its pipe
        self._proc: Any = None
        self._conn: Connection | None = None
        self._ready = False  # the current child has said it is warm
        self._stopped = False

    def start(self) -> None:
        """Start the child now (it is also started by the first job)."""
        with self._guard:
            self._stopped = False
            self._start()

    def _start(self) -> Connection:
        if self._proc is None or not self._proc.is_alive() or self._conn is None:
            ctx = multiprocessing.get_context("spawn")
            ours, theirs = ctx.Pipe()
            proc = ctx.Process(target=_serve_jobs, args=(theirs, self.warm), name="wargrid-worker", daemon=True)
            proc.start()
            theirs.close()
            self._proc, self._conn, self._ready = proc, ours, False
        return self._conn

    def _await_ready(self, conn: Connection, what: str) -> None:
        """Wait for a new child's warm-up to end (``WARM_TIMEOUT`` at most); ``ApiError`` 503 when it does not."""
        try:
            msg = conn.recv() if conn.poll(WARM_TIMEOUT) else None
        except _CLOSED:  # the child died, or stop() closed the pipe
            msg = None
        if msg == _READY:
            with self._guard:
                if self._conn is conn:
                    self._ready = True
            return
        with self._guard:
            stopping = self._stopped
            self._kill()
        if stopping:
            raise ApiError(503, f"the server is stopping: {what} was cancelled")
        raise ApiError(503, f"the worker was not ready within {WARM_TIMEOUT:g} s (compiling its kernels); "
                            f"{what} was not run, try again")

    def stop(self) -> None:
        """Kill the child (a running job ends with 503); safe from a signal handler and more than once."""
        self._stopped = True
        self._kill()

    def _kill(self) -> None:
        proc, conn = self._proc, self._conn
        self._proc = self._conn = None
        self._ready = False
        if proc is not None and proc.pid is not None:
            try:
                proc.kill()
                proc.join(5)  # reap it: the CPU is free when this returns
            except (OSError, ValueError, AssertionError):  # already gone, or not ours to join
                pass
        if conn is not None:
            try:
                conn.close()
            except OSError:
                pass

    @property
    def pid(self) -> int | None:
        """The child's process id, ``None`` when none runs."""
        proc = self._proc
        return None if proc is None else proc.pid

    def call(self, fn: Callable[..., Any], *args: Any, what: str = "the request") -> Any:
        """``fn(*args)`` in the child: its result, or ``ApiError`` 503 when it runs past the deadline.

        ``fn`` and ``args`` must pickle (``fn`` a module-level function). An
        ``ApiError`` raised by ``fn`` comes back as it was; any other error is
        answered 500.
        """
        deadline = time.monotonic() + self.timeout
        if not self._job.acquire(timeout=self.timeout):
            raise ApiError(503, f"the server is busy with other heavy requests; {what} waited {self.timeout:g} s, try again")
        try:
            with self._guard:
                if self._stopped:
                    raise ApiError(503, "the server is stopping")
                conn = self._start()
                ready = self._ready
            if not ready:
                self._await_ready(conn, what)
                deadline = time.monotonic() + self.timeout  # the job's time starts once the child is warm
            try:
                conn.send((fn, args))
                ready = conn.poll(max(0.0, deadline - time.monotonic()))
                out = conn.recv() if ready else None
            except _CLOSED:
                out = None
            if out is None:
                with self._guard:
                    stopping = self._stopped
                    self._kill()
                if stopping:
                    raise ApiError(503, f"the server is stopping: {what} was cancelled")
                raise ApiError(
                    503, f"{what} ran longer than {self.timeout:g} s and was stopped; ask for less work and try again"
                )
        finally:
            self._job.release()
        if out[0] == "ok":
            return out[1]
        if out[0] == "refused":
            raise ApiError(out[1], out[2])
        raise ApiError(500, f"internal error: {out[1]}")
