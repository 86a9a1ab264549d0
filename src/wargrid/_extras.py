"""Optional parts of wargrid and the error that names the extra to install.

The core (grids, maps, movement, sight, territory, RTS, tactics, map files,
SVG pictures) needs numpy, numba and defusedxml only. These parts need more:

=========  ===========================  ======================================
extra      packages                     what for
=========  ===========================  ======================================
``png``    Pillow                       PNG pictures, Tiled tileset images
``serve``  Starlette, uvicorn           the local web playground
``survey`` Dask distributed, pyarrow,   map surveys (``wargrid.survey``)
           tqdm
``all``    every extra above
=========  ===========================  ======================================

>>> require("numpy", extra="png", feature="arrays").__name__
'numpy'
>>> require("no_such_module_here", extra="png", feature="PNG pictures")
Traceback (most recent call last):
  ...
wargrid.errors.MissingExtraError: PNG pictures need the optional package 'no_such_module_here': pip install "wargrid[png]"
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .errors import MissingExtraError

__all__ = ["MissingExtraError", "require", "EXTRAS"]

EXTRAS = {"png": ("PIL",), "serve": ("starlette", "uvicorn"), "survey": ("dask", "distributed", "pyarrow", "tqdm")}
"""The modules each extra brings."""


def require(module: str, *, extra: str | None, feature: str) -> ModuleType:
    """Import ``module``, or raise ``MissingExtraError`` naming ``extra`` (``pip install "wargrid[extra]"``);
    with ``extra=None`` the package is no extra of wargrid's and the message says ``pip install <package>``.

    >>> require("no_such_graph_library", extra=None, feature="graph exports")
    Traceback (most recent call last):
      ...
    wargrid.errors.MissingExtraError: graph exports need the optional package 'no_such_graph_library': pip install no_such_graph_library
    """
    try:
        return importlib.import_module(module)
    except ImportError:
        root = module.split(".")[0]
        command = f"pip install \"wargrid[{extra}]\"" if extra is not None else f"pip install {root}"
        raise MissingExtraError(f"{feature} need the optional package {root!r}: {command}") from None
