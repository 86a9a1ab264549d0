"""Up-front estimates for work whose size the caller controls: refuse, before
allocating, what the machine cannot hold.

The estimates are bytes per cell measured on the library's own code paths
(peak resident memory over the size of the board); each check compares one
with what this process may still take (``available_memory``): the least of
the memory the system reports available (``MemAvailable``; on systems
without ``/proc``, the physical memory), what the process's memory cgroup
leaves (v2 and v1, the cgroup and every parent) and what ``RLIMIT_AS`` and
``RLIMIT_DATA`` leave of the address space.

>>> check_memory(1000, what="a test", name="size", value=10)
>>> check_memory(1 << 62, what="a test", name="size", value=10)
Traceback (most recent call last):
...
wargrid.errors.ResourceError: a test with size=10 needs about 4294967296.0 GiB of memory, past the ... GiB available; use a smaller size
"""

from __future__ import annotations

import os

from .errors import ResourceError

__all__ = ["available_memory", "check_memory", "check_table_memory"]


PROC = "/proc"
"""Where the process's own files are read (``meminfo``, ``self/status``, ``self/cgroup``)."""

CGROUP = "/sys/fs/cgroup"
"""Where the cgroup file systems are mounted (v2 at the top or under ``unified``, v1's memory controller under ``memory``)."""

_NO_LIMIT = 1 << 60
"""A cgroup limit at or above this is no limit (v1 writes ``PAGE_COUNTER_MAX`` pages, about 2**63 bytes)."""


def available_memory() -> int | None:
    """Bytes this process may still allocate, or ``None`` when it cannot tell.

    The least of the system's available memory, the room the memory cgroup
    leaves (``memory.max - memory.current`` in v2, ``limit_in_bytes -
    usage_in_bytes`` in v1, for the process's cgroup and every parent) and
    the room ``RLIMIT_AS`` (address space, ``VmSize``) and ``RLIMIT_DATA``
    (``VmData``) leave.
    """
    rooms = [r for r in (_system_room(), _cgroup_room(), _rlimit_room()) if r is not None]
    return max(0, min(rooms)) if rooms else None


def _system_room() -> int | None:
    try:
        with open(f"{PROC}/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return int(os.sysconf("SC_PHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, OSError, ValueError):
        return None


def _read_int(path: str) -> int | None:
    try:
        with open(path, encoding="ascii") as f:
            text = f.read().strip()
    except OSError:
        return None
    if text == "max":
        return _NO_LIMIT
    try:
        return int(text)
    except ValueError:
        return None


def _cgroup_room() -> int | None:
    """The least room left by the memory limits of the process's cgroups (``None``: no limit found)."""
    try:
        with open(f"{PROC}/self/cgroup", encoding="ascii") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    rooms: list[int] = []
    mounts: tuple[str, ...]
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        hid, controllers, path = parts
        if hid == "0" and controllers == "":
            mounts, files = (CGROUP, f"{CGROUP}/unified"), ("memory.max", "memory.current")
        elif "memory" in controllers.split(","):
            mounts, files = (f"{CGROUP}/memory",), ("memory.limit_in_bytes", "memory.usage_in_bytes")
        else:
            continue
        for mount in mounts:
            rel = path.strip("/")
            seen = False
            while True:  # the cgroup, then each parent up to the mount (inside a namespace only the mount exists)
                d = f"{mount}/{rel}" if rel else mount
                limit = _read_int(f"{d}/{files[0]}")
                if limit is not None:
                    seen = True
                    if limit < _NO_LIMIT:
                        used = _read_int(f"{d}/{files[1]}") or 0
                        rooms.append(limit - used)
                if not rel:
                    break
                rel = rel.rpartition("/")[0]
            if seen:
                break
    return min(rooms) if rooms else None


def _rlimit_room() -> int | None:
    """The least room ``RLIMIT_AS`` and ``RLIMIT_DATA`` leave (``None``: neither is set)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        return None
    rooms: list[int] = []
    for limit, key in ((resource.RLIMIT_AS, "VmSize"), (resource.RLIMIT_DATA, "VmData")):
        soft = resource.getrlimit(limit)[0]
        if soft != resource.RLIM_INFINITY and soft >= 0:
            rooms.append(soft - (_status_bytes(key) or 0))
    return min(rooms) if rooms else None


def _status_bytes(key: str) -> int | None:
    try:
        with open(f"{PROC}/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
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


def check_table_memory(rows: int, columns: int) -> None:
    """Refuse a table of ``rows x columns`` costs that the memory cannot hold (16 bytes an entry: the table and a
    copy), before any search: 100 000 sources by 100 000 targets asked for 80 GB and the process was killed.

    >>> check_table_memory(3, 4)  # 192 bytes: fine
    """
    check_memory(16 * rows * columns, what="a distance table", name="sources x targets",
                 value=f"{rows} x {columns}", hint="ask for fewer sources or targets at a time")
