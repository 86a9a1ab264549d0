"""``MapFileError``: one clear error for a bad map file, naming the file (and line).

>>> str(MapFileError("width must be >= 1, got 0", "maps/a.tmx", line=3))
'maps/a.tmx:3: width must be >= 1, got 0'
>>> isinstance(MapFileError("x", "a.json"), ValueError)
True
"""

from __future__ import annotations

from ..errors import MapFileError, MapFileWarning

__all__ = ["MapFileError", "MapFileWarning", "MAX_FILE_CELLS"]

MAX_FILE_CELLS = 1 << 26
"""Default cap on the cells a map file may declare (67 M: an 8192 x 8192 board)."""
