"""Scratch arrays kept per thread: searches on several threads at once, no page faults of fresh arrays a query.

>>> a = per_thread("demo", 4, lambda n: [0] * n)
>>> a is per_thread("demo", 4, lambda n: [1] * n)
True
"""

from __future__ import annotations

import threading
from typing import Callable, TypeVar

__all__ = ["per_thread"]

_LOCAL = threading.local()
T = TypeVar("T")


def per_thread(kind: str, n: int, make: Callable[[int], T], *, keep: int = 2) -> T:
    """This thread's ``make(n)`` for ``kind`` and size ``n``, reused between calls; the last ``keep`` sizes stay.

    Scratch kept per thread lets searches run on several threads at once and
    spares the page faults of fresh board-sized arrays on every query.
    """
    slots = getattr(_LOCAL, kind, None)
    if slots is None:
        slots = {}
        setattr(_LOCAL, kind, slots)
    got = slots.get(n)
    if got is None:
        while len(slots) >= keep:
            slots.pop(next(iter(slots)))
        got = slots[n] = make(n)
    return got
