"""The folders a ``wargrid`` verb creates for its outputs, noted so that a verb that fails leaves none behind.

>>> import tempfile, pathlib
>>> root = pathlib.Path(tempfile.mkdtemp())
>>> make_folder(root / "a" / "b")
>>> remove_made_folders()
>>> sorted(p.name for p in root.iterdir())
[]
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["MADE_FOLDERS", "make_folder", "remove_made_folders"]

MADE_FOLDERS: list[Path] = []
"""The folders this run created for its outputs, the outermost first: ``main`` removes them again (those still
empty) when the verb fails, so a refused request leaves no folder behind."""


def make_folder(folder: Path) -> None:
    """Create ``folder`` and its missing parents, noting the ones created in ``MADE_FOLDERS``."""
    missing = []
    q = folder
    while not q.exists() and q != q.parent:
        missing.append(q)
        q = q.parent
    if missing:
        os.makedirs(folder, exist_ok=True)
        MADE_FOLDERS.extend(reversed(missing))


def remove_made_folders() -> None:
    """Remove the folders ``make_folder`` created, deepest first, where nothing was written into them."""
    while MADE_FOLDERS:
        try:
            MADE_FOLDERS.pop().rmdir()
        except OSError:
            pass
