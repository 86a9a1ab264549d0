"""``bar(items, desc)``: the benchmarks' progress, a tqdm bar on stderr when it is a terminal.

Lines the loop prints go above the bar (tqdm's documented stdout redirect);
off a terminal (a log file, CI) the loop runs as it is, with no bar.
"""

from __future__ import annotations

import contextlib
import sys
from typing import Iterable, Iterator, TypeVar

T = TypeVar("T")


def bar(items: Iterable[T], desc: str) -> Iterator[T]:
    """Iterate ``items`` under a bar labelled ``desc`` (on a terminal only)."""
    items = list(items)
    if not sys.stderr.isatty():
        yield from items
        return
    from tqdm import tqdm
    from tqdm.contrib import DummyTqdmFile

    with contextlib.redirect_stdout(DummyTqdmFile(sys.stdout)):
        yield from tqdm(items, desc=desc, file=sys.stderr, leave=False, dynamic_ncols=True)
