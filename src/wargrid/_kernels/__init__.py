"""Numba kernels: flat numpy arrays and integers in, arrays out.

No kernel module is imported by ``import wargrid``; each capability module
imports its kernels inside the function that needs them (or through ``load``),
so kernels compile on first use and are cached on disk.
"""

from __future__ import annotations

import importlib
from typing import Any

_LOADED: dict[str, Any] = {}


def load(name: str) -> Any:
    """The kernel module ``name`` (``'search'``, ``'sight'``, ...), imported on the first call only.

    Importing a kernel module imports numba; capability modules call this
    where a kernel is needed, so ``import wargrid`` stays free of it.
    """
    mod = _LOADED.get(name)
    if mod is None:
        mod = _LOADED[name] = importlib.import_module(f"{__name__}.{name}")
    return mod
