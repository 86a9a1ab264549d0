"""Big lookup tables on transparent huge pages, wherever the process's heap stands.

A prepared board's queries jump through tens of megabytes of arrays in no
useful order, so nearly every jump also needs the page-table entry of its
page; with 4 KiB pages those miss the processor's cache of them (a few
thousand entries cover a few megabytes), with 2 MiB pages far less. numpy
asks Linux for huge pages (``madvise``) for arrays of 4 MiB and up, but only
for memory it maps afresh: once a process has freed big arrays, the C
library serves the next ones from its heap, without. A 512² board prepared
after another one answered 10-50 % slower than the first for that reason.

``block`` lays arrays out one after another (each on a 64-byte line) in one
private anonymous mapping of its own, 2 MiB aligned and asked for huge
pages, and touches it once (a huge page is zeroed whole on its first touch:
better at build time than in a query). Below ``HUGE_MIN`` bytes, on systems
without ``madvise``, or when the mapping fails, the arrays are ordinary
numpy arrays: answers never depend on it, only speed.

>>> a, b = block([(3, np.float64), (5, np.int32)])
>>> a.tolist(), b.dtype.name
([0.0, 0.0, 0.0], 'int32')
"""

from __future__ import annotations

import mmap
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

HUGE = 2 << 20
"""The huge page size blocks are aligned to (x86-64 and arm64 Linux)."""

HUGE_MIN = 4 << 20
"""Blocks smaller than this are plain numpy arrays (numpy's own threshold for asking)."""

LINE = 64

ENABLED = all(hasattr(mmap, name) for name in ("MADV_HUGEPAGE", "MAP_PRIVATE", "MAP_ANONYMOUS"))
"""Whether blocks are mapped and asked for huge pages (Linux); tests switch it off to compare."""


def _mapping(nbytes: int) -> npt.NDArray[np.uint8] | None:
    """``nbytes`` zeroed, touched bytes in a private mapping asked for huge pages, 2 MiB aligned (``None``: not here)."""
    if not ENABLED or nbytes < HUGE_MIN:
        return None
    try:
        mm = mmap.mmap(-1, nbytes + HUGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        mm.madvise(mmap.MADV_HUGEPAGE)
    except (OSError, ValueError):
        return None
    raw = np.frombuffer(mm, dtype=np.uint8)
    skip = -raw.ctypes.data % HUGE
    out = raw[skip: skip + nbytes]
    out.fill(0)  # fault every page in now
    return out


def block(specs: Sequence[tuple[Any, Any]]) -> tuple[np.ndarray, ...]:
    """Zeroed C-contiguous arrays of the given ``(shape, dtype)`` pairs, in one huge-page block when it is big enough.

    The arrays keep the block alive; it is unmapped when the last of them goes.

    >>> s, d = block([(4, np.int64), ((2, 3), np.float32)])
    >>> int(s.sum()), d.shape, d.flags.c_contiguous
    (0, (2, 3), True)
    """
    lay = []
    at = 0
    for shape, dtype in specs:
        dt = np.dtype(dtype)
        shp = tuple(int(s) for s in np.atleast_1d(shape))
        size = int(np.prod(shp, dtype=np.int64)) * dt.itemsize
        lay.append((shp, dt, at, size))
        at += -(-size // LINE) * LINE
    raw = _mapping(at)
    if raw is None:
        return tuple(np.zeros(shp, dtype=dt) for shp, dt, _, _ in lay)
    return tuple(raw[a: a + size].view(dt).reshape(shp) for shp, dt, a, size in lay)


def packed(arrays: Sequence[np.ndarray]) -> tuple[np.ndarray, ...]:
    """C-contiguous copies of ``arrays`` in one block (see ``block``).

    >>> x, y = packed([np.arange(3), np.ones(2, dtype=np.float32)])
    >>> x.tolist(), y.tolist()
    ([0, 1, 2], [1.0, 1.0])
    """
    out = block([(a.shape, a.dtype) for a in arrays])
    for dst, src in zip(out, arrays):
        dst[...] = src
    return out
