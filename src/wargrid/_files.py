"""Atomic file writes: a temp file in the same folder, then ``os.replace``.

Nothing half-written is ever left at the destination: on failure the temp
file is removed and the old file (if any) is untouched.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write(d / "a.txt", b"hello")
>>> (d / "a.txt").read_bytes()
b'hello'
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Callable, IO

__all__ = ["atomic_write", "atomic_write_with"]


def atomic_write_with(path: str | os.PathLike[str], write: Callable[[IO[bytes]], object]) -> None:
    """Call ``write(file)`` on a temp file beside ``path``, then move it into place."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix="." + path.name + ".", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def atomic_write(path: str | os.PathLike[str], data: bytes | str) -> None:
    """Write ``data`` (``str`` is written as UTF-8) to ``path`` atomically."""
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    atomic_write_with(path, lambda f: f.write(raw))
