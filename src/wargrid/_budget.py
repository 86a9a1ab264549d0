"""Up-front estimates for work whose size the caller controls: refuse, before
allocating, what the machine cannot hold.

The estimates are bytes per cell measured on the library's own code paths
(peak resident memory over the size of the board); each check compares one
with the memory the system reports available (``MemAvailable``; on systems
without ``/proc``, the physical memory).

>>> check_memory(1000, what="a test", name="size", value=10)
>>> check_memory(1 << 62, what="a test", name="size", value=10)
Traceback (most recent call last):
...
wargrid.errors.ResourceError: a test with size=10 needs about 4294967296.0 GiB of memory, past the ... GiB available; use a smaller size
"""

from __future__ import annotations

import os

from .errors import ResourceError

__all__ = ["available_memory", "check_memory"]


def available_memory() -> int | None:
    """Bytes of memory the system reports available, or ``None`` when it cannot tell."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return int(os.sysconf("SC_PHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, OSError, ValueError):
        return None


def check_memory(need: int, *, what: str, name: str, value: object, hint: str | None = None) -> None:
    """Raise ``ResourceError`` when ``need`` bytes are more than the memory available
    (``hint``: what to do instead; default: use a smaller ``name``)."""
    have = available_memory()
    if have is not None and need > have:
        raise ResourceError(
            f"{what} with {name}={value} needs about {need / 2**30:.1f} GiB of memory, past the "
            f"{have / 2**30:.1f} GiB available; {hint or f'use a smaller {name}'}"
        )
