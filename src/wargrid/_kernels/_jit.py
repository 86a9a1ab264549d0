"""The one decorator every kernel goes through, and the cold-start notice.

``jit`` is ``numba.njit(cache=True)`` with no eager signatures, so nothing is
compiled at import time; kernels compile on first call and are cached on disk.

The first time a wargrid kernel really compiles in a process (not when numba
loads it from the on-disk cache), one line goes to stderr saying so, once per
process: a first query on a fresh install can take seconds.
``wargrid.warm_up`` does that work ahead of time. Set ``WARGRID_QUIET=1`` to
silence the line.
"""

from __future__ import annotations

import os
import threading

import numba
from numba.core import event

__all__ = ["jit", "helper", "COMPILE_NOTICE"]

COMPILE_NOTICE = ("wargrid: compiling kernels for first use (once; cached on disk afterwards, "
                  "wargrid.warm_up() or 'wargrid warm-up' does it ahead) ...")
"""The line printed on stderr when a kernel first compiles in this process."""


class _CompileNotice(event.Listener):
    """Prints ``COMPILE_NOTICE`` once, when numba starts compiling a wargrid kernel (a cache miss)."""

    def __init__(self) -> None:
        self.said = False
        self._lock = threading.Lock()

    def on_start(self, ev: event.Event) -> None:
        if self.said:
            return
        dispatcher = (ev.data or {}).get("dispatcher")
        module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
        if not module.startswith(__name__.rpartition(".")[0]):
            return
        with self._lock:
            if self.said:
                return
            self.said = True
        if not os.environ.get("WARGRID_QUIET"):
            from .._progress import say

            say(COMPILE_NOTICE)  # on a line of its own, above any progress bar

    def on_end(self, ev: event.Event) -> None:
        pass


_NOTICE = _CompileNotice()
event.register("numba:compile", _NOTICE)


def jit(func=None, **options):
    """Compile ``func`` lazily with ``cache=True`` and ``fastmath`` off."""
    options.setdefault("cache", True)
    options.setdefault("nogil", True)
    if func is None:
        return lambda f: numba.njit(**options)(f)
    return numba.njit(**options)(func)


def helper(func):
    """A kernel's small building block (a heap step, one relaxation) that reads and writes arrays it is given:
    compiled without reference counting, so LLVM inlines it into its caller as plain loads and stores.

    Numba counts references to every array a function takes, with atomic
    operations at each call, and ``inline="always"`` (numba's own inlining)
    brings the counting along: five arrays passed per relaxation made a
    Dijkstra step five times dearer than the same code written out. A
    ``helper`` must not allocate an array nor return one (numba then refuses
    or leaks); scalar helpers need no decorator but ``jit``. LLVM may still
    leave a larger one (a loop, called from several places) a call, its
    arrays pushed on the stack each time: ``jit(inline="always", _nrt=False)``
    inlines it in numba's own IR (the CCH query's ``_lower``; a kernel's
    ``inspect_asm()`` shows which calls are left).
    """
    return jit(func, _nrt=False)
