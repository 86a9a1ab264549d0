"""The one decorator every kernel goes through.

``jit`` is ``numba.njit(cache=True)`` with no eager signatures, so nothing is
compiled at import time; kernels compile on first call and are cached on disk.
"""

from __future__ import annotations

import numba

__all__ = ["jit"]


def jit(func=None, **options):
    """Compile ``func`` lazily with ``cache=True`` and ``fastmath`` off."""
    options.setdefault("cache", True)
    options.setdefault("nogil", True)
    if func is None:
        return lambda f: numba.njit(**options)(f)
    return numba.njit(**options)(func)
