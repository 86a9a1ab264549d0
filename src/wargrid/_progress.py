"""Progress of long work: the one convention of every ``progress=`` option, and lines that keep bars whole.

A function whose work can take seconds (a big ``generate``, a partition of
a large board, a batch of paths or a distance table) takes ``progress``:

- ``True`` (the default): a tqdm bar on stderr when stderr is a terminal,
  drawn only once the work has taken ``BAR_DELAY`` seconds; nothing when
  stderr is not a terminal or ``WARGRID_QUIET`` is set;
- ``False`` or ``None``: nothing;
- a callable ``progress(done, total)``: called with integer counts, ``done``
  never decreasing, the last call with ``done == total`` when the work ends
  (not after an error). ``total`` is the same in every call; what one unit
  of work is (a path, a source row, a stage) says the function's docstring.

>>> seen = []
>>> with reporter(lambda done, total: seen.append((done, total)), 3, "demo") as tick:
...     for i in range(3):
...         tick(i + 1)
>>> seen
[(0, 3), (1, 3), (2, 3), (3, 3)]

``say`` writes a whole line on stderr, above any bar on screen, so a notice
never lands in the middle of a bar or of a progress line.
"""

from __future__ import annotations

import os
import sys
import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator, TextIO, Union

from .errors import ArgumentTypeError

__all__ = ["Progress", "BAR_DELAY", "Ticker", "check_progress", "reporter", "ticker", "terminal", "say"]

Progress = Union[bool, None, Callable[[int, int], Any]]
"""What a ``progress=`` option takes (see the module notes)."""

BAR_DELAY = 1.0
"""Seconds of work before a terminal bar appears: quick calls draw nothing."""

_LIVE = [0]  # terminal bars open now (``say`` writes through tqdm while any is)
_LIVE_LOCK = threading.Lock()


def terminal() -> bool:
    """Whether stderr is a terminal a bar may be drawn on (and ``WARGRID_QUIET`` is not set).

    >>> import sys, io
    >>> saved, sys.stderr = sys.stderr, io.StringIO()
    >>> terminal()
    False
    >>> sys.stderr = saved
    """
    if os.environ.get("WARGRID_QUIET"):
        return False
    try:
        return bool(sys.stderr is not None and sys.stderr.isatty())
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False


def check_progress(progress: Any, name: str = "progress") -> Progress:
    """``progress`` when it is ``True``, ``False``, ``None`` or a callable; else ``ArgumentTypeError``.

    >>> check_progress(True), check_progress(None)
    (True, None)
    >>> check_progress(3)
    Traceback (most recent call last):
    ...
    wargrid.errors.ArgumentTypeError: progress must be True, False, None or a callable progress(done, total), got 3
    """
    if progress is None or isinstance(progress, bool) or callable(progress):
        return progress  # type: ignore[no-any-return]
    raise ArgumentTypeError(f"{name} must be True, False, None or a callable progress(done, total), got {progress!r}")


class Ticker:
    """``tick(done)``: reports ``done`` of ``total`` as a ``progress`` option asks (made by ``ticker``).

    May be called from several threads; a count lower than one already
    reported is ignored. A terminal bar closes when the count reaches
    ``total`` (or on ``close``).
    """

    def __init__(self, progress: Progress, total: int, desc: str, unit: str) -> None:
        progress = check_progress(progress)
        self.total = max(int(total), 0)
        self._lock = threading.Lock()
        self._last = -1
        self._bar: Any = None
        self._report: Callable[[int, int], Any] | None = None
        if callable(progress) and not isinstance(progress, bool):
            self._report = progress
        elif progress and terminal():
            from tqdm import tqdm

            self._bar = tqdm(total=self.total, desc=desc, unit=unit, delay=BAR_DELAY, leave=False,
                             file=sys.stderr, dynamic_ncols=True)
            with _LIVE_LOCK:
                _LIVE[0] += 1
            self._report = lambda done, _total: self._bar.update(done - self._bar.n)

    def __call__(self, done: int) -> None:
        if self._report is None:
            return
        done = min(int(done), self.total)
        with self._lock:
            if done <= self._last:
                return
            self._last = done
            self._report(done, self.total)
        if done == self.total:
            self.close()

    def close(self) -> None:
        """Take a terminal bar off the screen (nothing for a callback)."""
        with self._lock:
            bar, self._bar = self._bar, None
        if bar is not None:
            bar.close()
            with _LIVE_LOCK:
                _LIVE[0] -= 1


def ticker(progress: Progress, total: int, desc: str, *, unit: str = "step") -> Ticker:
    """A ``Ticker`` for ``total`` units of work, reporting 0 done at once; ``desc`` and ``unit`` label a bar.

    >>> seen = []
    >>> tick = ticker(lambda done, total: seen.append(done), 2, "demo")
    >>> tick(1); tick(1); tick(5); seen
    [0, 1, 2]
    """
    t = Ticker(progress, total, desc, unit)
    t(0)
    return t


@contextmanager
def reporter(progress: Progress, total: int, desc: str, *, unit: str = "step") -> Iterator[Ticker]:
    """A ``ticker`` for the block: the count ends at ``total`` when the block ends without an error."""
    t = ticker(progress, total, desc, unit=unit)
    try:
        yield t
        t(t.total)
    finally:
        t.close()


def say(line: str, *, file: TextIO | None = None) -> None:
    """Write ``line`` on ``file`` (default stderr) on a line of its own, above the bars on screen if any."""
    out = sys.stderr if file is None else file
    if _LIVE[0]:
        from tqdm import tqdm

        tqdm.write(line, file=out)
    else:
        print(line, file=out, flush=True)
