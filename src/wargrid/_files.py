"""Atomic file writes: a temp file in the same folder, then ``os.replace``.

Nothing half-written is ever left at the destination: on failure the temp
file is removed and the old file (if any) is untouched. A save behaves like
writing the file in place otherwise: an existing file keeps its permission
bits, a new one gets those the umask allows (``0o666 & ~umask``), a symbolic
link stays a link and the file it points to is replaced, and an error names
the file asked for, never the hidden temp file.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write(d / "a.txt", b"hello")
>>> (d / "a.txt").read_bytes()
b'hello'
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path
from typing import Callable, IO

__all__ = ["atomic_write", "atomic_write_with"]


def _umask() -> int:
    """The process umask (read from ``/proc`` where it can be, so no other thread sees it change)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    old = os.umask(0o022)
    os.umask(old)
    return old


def _renamed(e: OSError, path: Path, tmp: str | None = None) -> OSError:
    """``e`` again, naming ``path`` instead of the temp file (any file when
    ``tmp`` is ``None``; else only an error about ``tmp`` or about no file)."""
    if e.errno is None or (tmp is not None and e.filename not in (None, tmp)):
        return e
    try:
        return type(e)(e.errno, e.strerror, str(path))
    except TypeError:  # an OSError subclass with its own constructor
        return e


def atomic_write_with(path: str | os.PathLike[str], write: Callable[[IO[bytes]], object]) -> None:
    """Call ``write(file)`` on a temp file beside ``path`` (beside the file a
    symbolic link ``path`` points to), then move it into place."""
    asked = Path(path)
    target = Path(os.path.realpath(asked)) if asked.is_symlink() else asked
    folder = target.parent if str(target.parent) else Path(".")
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    except OSError as e:
        raise _renamed(e, asked) from e
    try:
        fd, tmp = tempfile.mkstemp(prefix="." + target.name + ".", suffix=".tmp", dir=folder)
    except OSError as e:
        raise _renamed(e, asked) from e
    try:
        with os.fdopen(fd, "wb") as f:
            os.chmod(tmp, mode)
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(e, OSError):
            raise _renamed(e, asked, tmp) from e
        raise


def atomic_write(path: str | os.PathLike[str], data: bytes | str) -> None:
    """Write ``data`` (``str`` is written as UTF-8) to ``path`` atomically."""
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    atomic_write_with(path, lambda f: f.write(raw))
