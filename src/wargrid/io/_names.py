"""Terrain names a map file brings, matched to a terrain table (new ones added).

A name is used as written when the table has it; else its tidy form
(lower case, runs of anything but letters, digits, ``_`` and ``-`` turned
into ``_``) when the table has that; else the tidy form (or, with
``tidy_new=False``, the name as written if it is a valid terrain name)
becomes a new terrain: cost 1 for every movement class, not blocking sight (or, for
``impassable=True``, no class can enter and it blocks sight), a free
one-character symbol and a colour made from its name.

>>> from wargrid import TerrainTable
>>> t = TerrainNames(TerrainTable.default())
>>> t.id("forest"), t.id("Dark Grass"), t.added
(1, 10, ['dark_grass'])
>>> t.table().cost("dark_grass", "cavalry")
1.0
"""

from __future__ import annotations

import re
import zlib
from typing import Iterable, Iterator

from ..errors import ArgumentError
from ..terrain import Terrain, TerrainTable

__all__ = ["TerrainNames", "tidy", "free_symbols"]

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]*$")
_SYMBOLS = "abcdeghijklmnopqrtuvwxyzABCDEFGHIJKLNOPQRSTUVWXYZ0123456789!$%&*+?<>^@;:'|/\\`{}[]()"


def free_symbols(used: Iterable[str]) -> Iterator[str]:
    """One-character terrain symbols not in ``used``, in a fixed order, each once (linear in what it yields).

    ASCII symbols first, then CJK ideographs (U+3400 on), tens of thousands of them.

    >>> s = free_symbols("abc"); next(s), next(s)
    ('d', 'e')
    """
    taken = set(used)
    for c in _SYMBOLS:
        if c not in taken:
            yield c
    for k in range(0x3400, 0xA000):
        c = chr(k)
        if c not in taken:
            yield c


def tidy(name: str) -> str:
    """A terrain-table name for ``name`` (``'Dark Grass'`` -> ``'dark_grass'``).

    >>> tidy("Dark Grass"), tidy("3rd-level"), tidy("???")
    ('dark_grass', 't_3rd-level', 't_')
    """
    t = re.sub(r"[^a-z0-9_\\-]+", "_", str(name).strip().lower()).strip("_")
    return t if t and (t[0].isalpha() or t[0] == "_") else "t_" + t


class TerrainNames:
    """Terrain ids of names, growing a copy of ``table`` by the names it lacks."""

    def __init__(self, table: TerrainTable, *, tidy_new: bool = True) -> None:
        self.base = table
        self.tidy_new = tidy_new
        self.extra: list[Terrain] = []
        self.added: list[str] = []
        self._ids = {n: i for i, n in enumerate(table.names)}
        self._symbols = free_symbols(t.symbol for t in table)

    def known(self, name: str) -> bool:
        """Whether ``name`` (or its tidy form) is in the table as it stands."""
        return name in self._ids or tidy(name) in self._ids

    def id(self, name: str, *, impassable: bool = False) -> int:
        """The terrain id of ``name``, adding a terrain for it if needed."""
        if name in self._ids:
            return self._ids[name]
        t = tidy(name)
        if t in self._ids:
            return self._ids[t]
        if not self.tidy_new and _NAME.match(name):
            t = name
        costs = {} if impassable else {c: 1.0 for c in self.base.classes}
        tid = self.add(Terrain(t, "?", "#000000", costs=costs, blocks_sight=impassable))
        self.added.append(t + (" (impassable)" if impassable else ""))
        return tid

    def add(self, terrain: Terrain) -> int:
        """Append ``terrain`` (its name new to the table) with a free symbol and a colour made from its name; its id.

        Unlike ``id``, the terrain is not listed in ``added``: callers add on purpose what they document.
        """
        symbol = next(self._symbols, None)
        if symbol is None:
            raise ArgumentError(f"too many terrain names: no one-character symbol is left for {terrain.name!r}")
        h = zlib.crc32(terrain.name.encode("utf-8"))
        colour = "#%02x%02x%02x" % (64 + (h & 0x7F), 64 + ((h >> 8) & 0x7F), 64 + ((h >> 16) & 0x7F))
        self.extra.append(Terrain(terrain.name, symbol, colour, costs=dict(terrain.costs), blocks_sight=terrain.blocks_sight))
        self._ids[terrain.name] = len(self._ids)
        return self._ids[terrain.name]

    def table(self) -> TerrainTable:
        """The table with every added terrain appended."""
        return self.base.with_terrains(self.extra) if self.extra else self.base
