"""``MapFileError``: one clear error for a bad map file, naming the file (and line).

>>> str(MapFileError("width must be >= 1, got 0", "maps/a.tmx", line=3))
'maps/a.tmx:3: width must be >= 1, got 0'
>>> isinstance(MapFileError("x", "a.json"), ValueError)
True
"""

from __future__ import annotations

import os
from ..errors import WargridError

__all__ = ["MapFileError", "MapFileWarning", "MAX_FILE_CELLS"]

MAX_FILE_CELLS = 1 << 26
"""Default cap on the cells a map file may declare (67 M: an 8192 x 8192 board)."""


class MapFileError(WargridError, ValueError):
    """A map file is truncated, malformed, hostile or inconsistent.

    ``path`` is the file, ``line`` the line of the problem where known (else ``None``).
    """

    def __init__(self, message: str, path: str | os.PathLike[str] | None, line: int | None = None) -> None:
        self.path = None if path is None else os.fspath(path)
        self.line = line
        self.reason = message
        where = self.path if self.path is not None else "<map file>"
        if line is not None:
            where = f"{where}:{line}"
        super().__init__(f"{where}: {message}")


class MapFileWarning(UserWarning):
    """A map file was read, but something in it was guessed or added (say, terrains the table lacked)."""
