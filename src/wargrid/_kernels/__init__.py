"""Numba kernels: flat numpy arrays, integers and tuples of them in, arrays out.

The packages mirror the library: ``movement`` (A*, Dijkstra, routes, Jump
Point Search, zones, step bits), ``territory``, ``sight``, ``rts``,
``tactics``; each package's notes give its conventions. ``_jit.jit`` is the
one decorator.

No kernel module is imported by ``import wargrid``; each capability module
imports its kernels inside the function that needs them (or through ``load``),
so kernels compile on first use and are cached on disk.

The on-disk cache and helpers in other modules. Numba keys a cached kernel
on its own source file only (the file's modification time and size, plus the
argument types). A kernel that calls (or inlines) a helper from another
module, such as ``movement.heap`` or ``movement.steps``, keeps its stale
cached machine code when only the helper's file changes: the old helper goes
on running. After editing a helper, delete the caches
(``find src -name '*.nbi' -delete -o -name '*.nbc' -delete``) or touch the
files of the kernels that use it. An install or upgrade writes every file
anew, so every timestamp changes and nothing stale survives it. Kernels that take tuples (the argument bundles of ``movement``)
are cached per tuple type like any other signature.
"""

from __future__ import annotations

import importlib
from types import ModuleType

_LOADED: dict[str, ModuleType] = {}


def load(name: str) -> ModuleType:
    """The kernel module ``name`` (``'movement.astar'``, ``'sight.fov'``, ...), imported on the first call only.

    Importing a kernel module imports numba; capability modules call this
    where a kernel is needed, so ``import wargrid`` stays free of it.
    """
    mod = _LOADED.get(name)
    if mod is None:
        mod = _LOADED[name] = importlib.import_module(f"{__name__}.{name}")
    return mod
