"""Battle for Wesnoth ``.map`` files, read and written.

A map is rows of comma-separated terrain codes. A code is a base and an
optional overlay joined by ``^`` (``Gs^Fp``: semi-dry grass under a pine
forest), optionally after a location name and one space (``1 Kh``: side 1
starts on this keep). Files written by Wesnoth 1.12 and before open with a
header (``usage=map``, ``border_size=1``) and an empty line; later files
have no header and always a border of 1. Cells may be padded with spaces or
not. The border ring (``border_size`` cells on every side) is scenery
outside the playable board: it is dropped on reading and rebuilt on
writing from the nearest board cell, as Wesnoth's editor does.

The board is a flat-top ``HexGrid`` in Wesnoth's column layout: with the
border dropped, board ``(x, y)`` is Wesnoth's location ``(x + 1, y + 1)``;
Wesnoth's even (1-based) columns sit half a hex lower, so the 0-based
board is ``odd-q``. ``_off^_usr`` cells are off the board (masked out).

Codes become terrains of ``WESNOTH_TERRAINS`` (costs after Wesnoth's
smallfoot, mounted, merfolk and flying movement types) by the first
matching prefix of ``WESNOTH_BASES`` and ``WESNOTH_OVERLAYS`` (longest
first); see those tables. A base no prefix matches becomes a new terrain
named after its code (cost 1 for every class) with a ``MapFileWarning``.
Overlays: forests, ``^X*`` walls, mushrooms and bridges become the map's
overlay layer; villages (``^V*``, ``^Wm``) become the ``village`` overlay and
a ``village`` marker; other overlays (flowers, farmland, rubble ...) are
scenery and are dropped (a warning names them). Location prefixes become
markers: a number ``n`` a ``start`` marker named ``'n'`` with property
``side``; a word a ``location`` marker. A bridge (``Ww^Bw|``, ``Ww^Bw/``,
``Ww^Bw\\``) joins only the two neighbours its direction names: ``|`` the
cells above and below, ``/`` upper right and lower left, ``\\`` upper left
and lower right; the four other sides get an impassable edge cost.

>>> import tempfile, os
>>> p = os.path.join(tempfile.mkdtemp(), "tiny.map")
>>> _ = open(p, "w").write("Gg, Gg, Gg, Gg\\nGg, 1 Kh, Gs^Fp, Gg\\nGg, Ww, Hh, Gg\\nGg, Gg, Gg, Gg\\n")
>>> m = load_wesnoth(p)
>>> m.grid, m.terrain_name((0, 0)), m.overlay_name((1, 0)), m.markers[0].name
(HexGrid(2, 2, orientation='flat', offset='odd-q'), 'keep', 'forest', '1')
"""

from __future__ import annotations

import os
import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ArgumentError, ArgumentTypeError
from ..grids.boards import HexGrid
from .._validate import check_positive_int
from ..map import Map, Marker
from ..terrain import Terrain, TerrainTable
from .._files import atomic_write
from ._names import TerrainNames
from .errors import MAX_FILE_CELLS, MapFileError, MapFileWarning

__all__ = ["load_wesnoth", "save_wesnoth", "WESNOTH_TERRAINS", "WESNOTH_BASES", "WESNOTH_OVERLAYS"]

_INF = float("inf")
_MAX_BYTES = 1 << 26


def _t(name: str, symbol: str, color: str, foot: float, mounted: float, swimmer: float, fly: float,
       blocks: bool = False) -> Terrain:
    return Terrain(name, symbol, color, costs={"foot": foot, "mounted": mounted, "swimmer": swimmer, "fly": fly},
                   blocks_sight=blocks)


WESNOTH_TERRAINS = TerrainTable(
    [
        _t("plains", ".", "#9dbf5a", 1, 1, 2, 1),
        _t("road", "=", "#c9ad7a", 1, 1, 2, 1),
        _t("forest", "f", "#3f7f3a", 2, 3, 5, 1, True),
        _t("hills", "h", "#a99560", 2, 2, 5, 1),
        _t("mountains", "M", "#7d7168", 3, _INF, _INF, 1, True),
        _t("shallow_water", "~", "#5b9bd5", 3, 4, 1, 1),
        _t("deep_water", "w", "#2e5c9a", _INF, _INF, 1, 1),
        _t("ford", "_", "#7fb3df", 1, 1, 1, 1),
        _t("reef", "r", "#b59a76", 2, 3, 2, 1),
        _t("swamp", "s", "#6b8e6b", 3, 4, 1, 1),
        _t("sand", ",", "#e3d59b", 2, 2, 2, 1),
        _t("frozen", "*", "#e8eef2", 3, 2, 2, 1),
        _t("cave", "u", "#6e6259", 2, 4, 3, 3),
        _t("fungus", "t", "#8f7aa8", 2, 3, 3, 3),
        _t("castle", "C", "#a9a9a9", 1, 1, 1, 1),
        _t("keep", "K", "#8c8c8c", 1, 1, 1, 1),
        _t("village", "V", "#c8553d", 1, 1, 1, 1),
        _t("bridge", "b", "#8b5a2b", 1, 1, 1, 1),
        _t("unwalkable", "q", "#3b2f2f", _INF, _INF, _INF, 1),
        _t("impassable", "X", "#202020", _INF, _INF, _INF, _INF, True),
    ],
    classes=("foot", "mounted", "swimmer", "fly"),
)
"""The terrains of a Wesnoth map, costed after its smallfoot, mounted, merfolk and flying movement types."""

WESNOTH_BASES: dict[str, str] = {
    "Wwf": "ford", "Wwr": "reef", "Wo": "deep_water", "Ww": "shallow_water", "Ss": "swamp", "Sm": "swamp",
    "Mv": "unwalkable", "M": "mountains", "H": "hills", "G": "plains", "R": "road", "I": "plains", "D": "sand",
    "A": "frozen", "U": "cave", "T": "fungus", "K": "keep", "C": "castle", "Q": "unwalkable", "X": "impassable",
}
"""Base-code prefix -> terrain (the longest matching prefix wins): water (``Ww`` shallow, ``Wo`` deep,
``Wwf`` ford, ``Wwr`` reef), ``S`` swamp, ``M`` mountains (``Mv`` volcano: unwalkable), ``H`` hills,
``G`` grass, ``R`` roads and dirt, ``I`` interiors, ``D`` sand, ``A`` snow and ice, ``U`` cave,
``T`` mushroom ground, ``K`` keeps, ``C`` castles, ``Q`` chasm and lava, ``X`` walls."""

WESNOTH_OVERLAYS: dict[str, str | None] = {
    "F": "forest", "X": "impassable", "V": "village", "Wm": "village", "B": "bridge", "Uf": "fungus", "Tf": "fungus",
}
"""Overlay-code prefix -> overlay terrain (the longest matching prefix wins); other overlays are scenery."""

_TO_CODE = {
    "plains": "Gg", "road": "Re", "forest": "Gs^Fp", "hills": "Hh", "mountains": "Mm", "shallow_water": "Ww",
    "deep_water": "Wo", "ford": "Wwf", "reef": "Wwr", "swamp": "Ss", "sand": "Dd", "frozen": "Aa", "cave": "Uu",
    "fungus": "Tb", "castle": "Ch", "keep": "Kh", "village": "Gg^Vh", "bridge": "Ww^Bw|", "unwalkable": "Qxu",
    "impassable": "Xu", "water": "Wo", "coast": "Ds",  # the last two: wargrid's default table
}
_OVERLAY_CODE = {"forest": "^Fp", "impassable": "^Xm", "village": "^Vh", "fungus": "^Uf", "bridge": "^Bw"}
_CODE = re.compile(r"^[A-Za-z_][A-Za-z0-9_|/\\]*$")
_OFF = "_off"


def _prefix(code: str, table: dict[str, Any]) -> str | None:
    for k in sorted(table, key=len, reverse=True):
        if code.startswith(k):
            return k
    return None


def _rows(text: str, path: Path) -> tuple[int, list[tuple[int, list[str]]]]:
    """The border size and the rows of cells (with their line numbers) of a map file's text."""
    lines = text.splitlines()
    border = 1
    k = 0
    header = False
    while k < len(lines) and ("=" in lines[k] or (header and not lines[k].strip())):
        key, _, value = lines[k].partition("=")
        header = True
        if key.strip() == "border_size":
            try:
                border = int(value.strip())
            except ValueError:
                raise MapFileError(f"border_size must be 0 or 1, got {value.strip()!r}", path, k + 1) from None
            if border not in (0, 1):
                raise MapFileError(f"border_size must be 0 or 1, got {border}", path, k + 1)
        elif key.strip() == "usage" and value.strip() != "map":
            raise MapFileError(f"usage={value.strip()} is not a map (a mask cannot be read as a board)", path, k + 1)
        k += 1
    rows = [(n + 1, [c.strip() for c in line.split(",")]) for n, line in enumerate(lines) if n >= k and line.strip()]
    if not rows:
        raise MapFileError("the map has no rows of terrain codes", path)
    return border, rows


def load_wesnoth(
    path: str | os.PathLike[str],
    *,
    border_size: int | None = None,
    terrains: TerrainTable | None = None,
    max_cells: int = MAX_FILE_CELLS,
) -> Map:
    """Read a Battle for Wesnoth ``.map`` file as a flat-top, odd-q hex ``Map`` (see the module's notes).

    Parameters
    ----------
    path : str or PathLike
        The map file.
    border_size : int, optional
        The border ring to drop (0 or 1; default: the header's
        ``border_size``, else 1 as Wesnoth 1.14 and later write).
    terrains : TerrainTable, optional
        The table the names of ``WESNOTH_BASES`` and ``WESNOTH_OVERLAYS`` refer
        to (default ``WESNOTH_TERRAINS``).
    max_cells : int
        Cap on the cells the file may hold.

    Raises
    ------
    MapFileError
        A bad file, naming it and the line.

    Examples
    --------
    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "b.map")
    >>> _ = open(p, "w").write("border_size=1\\nusage=map\\n\\nWw, Ww, Ww\\nWw, Ww^Bw|, Ww\\nWw, Gg, Ww\\n")
    >>> m = load_wesnoth(p); m.overlay_name((0, 0)), m.passable(unit="foot").tolist()
    ('bridge', [[True]])
    """
    max_cells = check_positive_int(max_cells, "max_cells")
    if border_size is not None and border_size not in (0, 1):
        raise ArgumentError(f"border_size must be 0, 1 or None, got {border_size!r}")
    if terrains is not None and not isinstance(terrains, TerrainTable):
        raise ArgumentTypeError(f"terrains must be a TerrainTable or None, got {type(terrains).__name__}")
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > _MAX_BYTES:
            raise MapFileError(f"file is {size} bytes, more than the {_MAX_BYTES} a Wesnoth map may have", path)
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise MapFileError(f"cannot read: {exc.strerror or exc}", path) from None
    except UnicodeDecodeError as exc:
        raise MapFileError(f"not a text file ({exc.reason} at byte {exc.start})", path) from None
    head_border, rows = _rows(text, path)
    border = head_border if border_size is None else border_size
    width = len(rows[0][1])
    for line, cells in rows:
        if len(cells) != width:
            raise MapFileError(f"a row has {len(cells)} cells, the first row has {width}", path, line)
    w, h = width - 2 * border, len(rows) - 2 * border
    if w < 1 or h < 1:
        raise MapFileError(f"the map is {width} x {len(rows)} cells with a border of {border}: no board is left", path)
    if w * h > max_cells:
        raise MapFileError(f"map of {w} x {h} = {w * h} cells is larger than the cap of {max_cells} cells", path)
    names = TerrainNames(terrains if terrains is not None else WESNOTH_TERRAINS, tidy_new=False)
    terrain = np.zeros((h, w), dtype=np.int16)
    overlay = np.full((h, w), -1, dtype=np.int16)
    mask = np.ones((h, w), dtype=bool)
    markers: list[Marker] = []
    bridges: list[tuple[int, int, str]] = []
    scenery: set[str] = set()
    for y, (line, cells) in enumerate(rows[border:border + h]):
        for x, raw in enumerate(cells[border:border + w]):
            where, _, code = raw.rpartition(" ")
            where = where.strip()
            base, _, over = code.partition("^")
            if not base or not _CODE.match(base) or (over and not _CODE.match(over)):
                raise MapFileError(f"column {x + border + 1}: {raw!r} is not a terrain code", path, line)
            if base == _OFF:
                mask[y, x] = False
                continue
            if where:
                if where.isdigit():
                    markers.append(Marker(where, ((x, y),), kind="start", properties={"side": int(where)}))
                else:
                    markers.append(Marker(where, ((x, y),), kind="location"))
            key = _prefix(base, WESNOTH_BASES)
            terrain[y, x] = names.id(WESNOTH_BASES[key] if key else base)
            if over:
                okey = _prefix(over, WESNOTH_OVERLAYS)
                oname = WESNOTH_OVERLAYS[okey] if okey else None
                if oname is None:
                    scenery.add("^" + over)
                    continue
                overlay[y, x] = names.id(oname)
                if oname == "village":
                    markers.append(Marker("village", ((x, y),), kind="village"))
                elif oname == "bridge":
                    bridges.append((x, y, over[-1] if over[-1] in "|/\\" else "|"))
    if not mask.any():
        raise MapFileError("every cell is off the map (_off^_usr)", path)
    grid = HexGrid(w, h, orientation="flat", offset="odd-q", mask=None if mask.all() else mask)
    edges = _bridge_edges(grid, bridges) if bridges else None
    m = Map(grid, terrain=terrain, terrains=names.table(), overlay=np.where(mask, overlay, -1), edges=edges,
            markers=markers)
    if names.added or scenery:
        what = []
        if names.added:
            what.append(f"terrain codes not in the table were added (cost 1 for every class): {', '.join(names.added)}")
        if scenery:
            what.append(f"scenery overlays were left out: {', '.join(sorted(scenery))}")
        warnings.warn(f"{path}: " + "; ".join(what), MapFileWarning, stacklevel=2)
    return m


def _sides(grid: HexGrid, cell: tuple[int, int]) -> dict[str, tuple[int, int, int]]:
    """The neighbours of ``cell`` by compass side (N, NE, SE, S, SW, NW): ``(x, y, direction)``."""
    cx, cy = grid.center(cell)
    out = {}
    for st in grid.steps(cell):
        nx, ny = grid.center(st.cell)
        dx, dy = nx - cx, ny - cy
        side = ("N" if dy < 0 else "S") if abs(dx) < 1e-9 else ("N" if dy < 0 else "S") + ("E" if dx > 0 else "W")
        out[side] = (st.cell[0], st.cell[1], st.direction)
    return out


_JOINS = {"|": ("N", "S"), "/": ("NE", "SW"), "\\": ("NW", "SE")}


def _bridge_edges(grid: HexGrid, bridges: list[tuple[int, int, str]]) -> np.ndarray:
    e = np.zeros(grid.shape + (grid.ndir,), dtype=np.float64)
    for x, y, d in bridges:
        for side, (nx, ny, direction) in _sides(grid, (x, y)).items():
            if side in _JOINS[d]:
                continue
            e[y, x, direction] = _INF
            back = next((s.direction for s in grid.steps((nx, ny)) if s.cell == (x, y)), None)
            if back is not None:
                e[ny, nx, back] = _INF
    return e


def _bridge_direction(m: Map, cell: tuple[int, int]) -> str:
    grid = m.grid
    assert isinstance(grid, HexGrid)
    sides = _sides(grid, cell)
    edges = m.edges
    for d, (a, b) in _JOINS.items():
        open_sides = {s for s, (_, _, k) in sides.items() if edges is None or not np.isinf(edges[cell[1], cell[0], k])}
        if open_sides and open_sides <= {a, b}:
            return d
    return "|"


def save_wesnoth(m: Map, path: str | os.PathLike[str]) -> None:
    """Write ``m`` (a flat-top, odd-q ``HexGrid`` map) as a Wesnoth ``.map`` file.

    The file has no header and a border of 1 built from the nearest board
    cell, as Wesnoth 1.14 and later write. Terrains become the codes of
    their table entry (``plains`` ``Gg``, ``forest`` ``Gs^Fp``, ``keep``
    ``Kh`` ...; a terrain named like a code, as unknown codes are read, is
    written as its name); overlays add theirs (a bridge its direction, from
    the sides its edge costs leave open); ``start`` and ``location``
    markers prefix their cell's code with their name. Other edge costs,
    elevation and marker properties have no place in the format. Forests,
    villages and bridges are overlays in Wesnoth: as a cell's ground they
    are written over grass (water) and read back as overlays, so load, save,
    load is the identity, while save, load may move them to the overlay.

    Parameters
    ----------
    m : Map
        A flat-top, odd-q ``HexGrid`` map.
    path : str or path-like
        Where to write.

    Raises
    ------
    ValueError
        A board that is not flat-top odd-q hex, or a terrain or overlay without a Wesnoth code (``ArgumentError``).
    TypeError
        ``m`` is not a ``Map`` (``ArgumentTypeError``).

    Examples
    --------
    >>> import tempfile, os
    >>> from wargrid import Map
    >>> m = Map(HexGrid(3, 2, orientation="flat", offset="odd-q"), terrains=WESNOTH_TERRAINS)
    >>> m.set_terrain([(1, 0)], "keep")
    >>> p = os.path.join(tempfile.mkdtemp(), "w.map"); save_wesnoth(m, p)
    >>> load_wesnoth(p) == m
    True
    """
    if not isinstance(m, Map):
        raise ArgumentTypeError(f"m must be a wargrid Map, got {type(m).__name__}")
    g = m.grid
    if not isinstance(g, HexGrid) or g.orientation != "flat" or g.offset != "odd-q":
        raise ArgumentError(f"a Wesnoth map is a flat-top odd-q hex board, got {g!r}")
    names = m.terrains.names
    prefix: dict[tuple[int, int], str] = {}
    for mk in m.markers:
        if mk.kind in ("start", "location") and mk.cells and " " not in mk.name and "," not in mk.name and mk.name:
            prefix[mk.cells[0]] = mk.name + " "
    codes = np.full((g.height, g.width), f"{_OFF}^_usr", dtype=object)
    for y in range(g.height):
        for x in range(g.width):
            if not g.mask[y, x]:
                continue
            name = names[int(m.terrain[y, x])]
            code = _TO_CODE.get(name, name)
            if not _CODE.match(code.replace("^", "")):
                raise ArgumentError(f"terrain {name!r} at {(x, y)} has no Wesnoth code; known: {', '.join(_TO_CODE)}")
            o = int(m.overlay[y, x])
            if o >= 0:
                oname = names[o]
                if oname not in _OVERLAY_CODE:
                    raise ArgumentError(f"overlay {oname!r} at {(x, y)} has no Wesnoth code; known: {', '.join(_OVERLAY_CODE)}")
                over = _OVERLAY_CODE[oname] + (_bridge_direction(m, (x, y)) if oname == "bridge" else "")
                code = code.split("^")[0] + over
            codes[y, x] = prefix.get((x, y), "") + code
    full = np.empty((g.height + 2, g.width + 2), dtype=object)
    full[1:-1, 1:-1] = codes
    for y in range(g.height + 2):  # the border: the nearest board cell's code, without its location or overlay
        for x in range(g.width + 2):
            if 0 < x < g.width + 1 and 0 < y < g.height + 1:
                continue
            near = str(codes[min(max(y - 1, 0), g.height - 1), min(max(x - 1, 0), g.width - 1)])
            full[y, x] = near.rpartition(" ")[2].split("^")[0] if not near.startswith(_OFF) else near
    atomic_write(Path(path), "".join(", ".join(str(c) for c in row) + "\n" for row in full))
