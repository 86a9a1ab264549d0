"""Safe file IO: atomic writes, and reads of regular files only, with a byte cap.

Writes go to a temp file in the same folder, then ``os.replace``.

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

Reads (``read_regular``, ``open_regular``) refuse anything but a regular
file -- a device such as ``/dev/zero``, a FIFO, a socket, a directory, or a
symbolic link to one -- without blocking on it, and refuse a file past a
byte cap before reading it (and while reading it, should it grow):

>>> from wargrid import MapFileError
>>> read_regular(d / "a.txt", cap=10, error=MapFileError)
b'hello'
>>> read_regular("/dev/zero", cap=10, error=MapFileError)
Traceback (most recent call last):
...
wargrid.errors.MapFileError: /dev/zero: not a regular file (a character device); give a map file
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path
from typing import Callable, IO, BinaryIO

__all__ = ["atomic_write", "atomic_write_with", "read_regular", "open_regular", "read_capped", "UTF8_BOM", "skip_bom"]

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"))


FileError = Callable[[str, "str | os.PathLike[str]"], Exception]
"""Makes the error a refused read raises, from the reason and the path (the loaders pass ``MapFileError``)."""


def open_regular(path: str | os.PathLike[str], *, cap: int, error: FileError, what: str = "map file") -> BinaryIO:
    """``path`` opened for binary reading once it is known to be a regular file of at most ``cap`` bytes.

    The file is opened without blocking (a FIFO is refused, not waited on) and
    checked on the open descriptor (a symbolic link is judged by what it
    points to). Raises ``error(reason, path)``.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise error(f"cannot read: {exc.strerror or exc}", path) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = next((name for test, name in _KINDS if test(st.st_mode)), "a special file")
            raise error(f"not a regular file ({kind}); give a {what}", path)
        if st.st_size > cap:
            raise error(f"file is {st.st_size} bytes, past the limit of {cap} bytes for a {what}", path)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return open(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


UTF8_BOM = b"\xef\xbb\xbf"
"""The byte-order mark Windows editors write at the start of a UTF-8 file: the readers skip it."""


def skip_bom(f: BinaryIO) -> BinaryIO:
    """``f`` past a UTF-8 byte-order mark at its start, if it has one (``f`` is at its start and seekable).

    >>> import io
    >>> skip_bom(io.BytesIO(UTF8_BOM + b"type octile")).read(), skip_bom(io.BytesIO(b"type")).read()
    (b'type octile', b'type')
    """
    if f.read(3) != UTF8_BOM:
        f.seek(0)
    return f


def read_regular(path: str | os.PathLike[str], *, cap: int, error: FileError, what: str = "map file") -> bytes:
    """The bytes of the regular file ``path`` (see ``open_regular``), reading at most ``cap`` of them."""
    with open_regular(path, cap=cap, error=error, what=what) as f:
        return read_capped(f, path, cap=cap, error=error, what=what)


def read_capped(f: BinaryIO, path: str | os.PathLike[str], *, cap: int, error: FileError,
                what: str = "map file") -> bytes:
    """The rest of the regular file ``f`` (from ``open_regular(path)``), at most ``cap`` bytes.

    Buffers only what the file holds (its size first, then 1 MiB at a time
    should it grow), never ``cap`` bytes up front.
    """
    chunks = []
    total = 0
    try:
        want = min(cap, max(0, os.fstat(f.fileno()).st_size - f.tell())) + 1
        while total <= cap:
            chunk = f.read(min(want, cap + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            want = 1 << 20
    except OSError as exc:
        raise error(f"cannot read: {exc.strerror or exc}", path) from None
    if total > cap:
        raise error(f"file grew past the limit of {cap} bytes for a {what} while it was read", path)
    return b"".join(chunks)


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
