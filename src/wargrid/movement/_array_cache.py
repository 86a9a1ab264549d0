"""Values kept per numpy array, by identity, while the array lives.

A map edit makes new cost arrays, so whatever is derived from one (step bits,
jump tables, work boards) is keyed on the array itself: the entry goes when the
array is collected, and a new array with a recycled ``id`` never sees it.

>>> import numpy as np
>>> cache: ArrayCache[str] = {}
>>> a = np.zeros(3)
>>> remember(cache, a, "derived", 4); cached(cache, a)
'derived'
>>> del a
>>> len(cache)
0
"""

from __future__ import annotations

import threading
import weakref
from typing import Any, TypeVar

from numpy.typing import NDArray

__all__ = ["ArrayCache", "cached", "remember", "forget", "LOCK"]

V = TypeVar("V")

ArrayCache = dict[int, tuple[weakref.ref[NDArray[Any]], V]]
"""``id(array) -> (weakref to the array, value)``: the store ``cached`` and ``remember`` work on."""

LOCK = threading.Lock()
"""Held while a cache is changed (batched queries run on threads)."""

_STORES: dict[int, ArrayCache[Any]] = {}
"""Every store ``remember`` has written to (module-level dicts: they live as long as the process), for ``forget``."""


def cached(cache: ArrayCache[V], arr: NDArray[Any]) -> V | None:
    """What ``remember`` stored for ``arr`` while it lives, or ``None``."""
    got = cache.get(id(arr))
    if got is not None and got[0]() is arr:
        return got[1]
    return None


def remember(cache: ArrayCache[V], arr: NDArray[Any], value: V, limit: int) -> None:
    """Keep ``value`` for ``arr`` (by identity) until the array dies, at most ``limit`` entries (the oldest go first)."""
    key = id(arr)

    def drop(ref: weakref.ref[NDArray[Any]], cache: ArrayCache[V] = cache, key: int = key) -> None:
        got = cache.get(key)
        if got is not None and got[0] is ref:
            cache.pop(key, None)

    with LOCK:
        _STORES[id(cache)] = cache
        for k in list(cache)[: max(0, len(cache) - limit + 1)]:
            cache.pop(k, None)
        cache[key] = (weakref.ref(arr, drop), value)


def forget(arr: NDArray[Any]) -> None:
    """Drop what every store holds for ``arr``: its values change in place (a map patches a cost field no one else
    holds), so nothing derived from them holds.

    >>> import numpy as np
    >>> cache: ArrayCache[str] = {}
    >>> a = np.zeros(3)
    >>> remember(cache, a, "derived", 4); forget(a); cached(cache, a) is None
    True
    """
    key = id(arr)
    with LOCK:
        for cache in _STORES.values():
            got = cache.get(key)
            if got is not None and got[0]() is arr:
                del cache[key]
