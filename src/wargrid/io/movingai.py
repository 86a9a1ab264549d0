"""Moving AI grid benchmark files: ``.map`` boards and ``.map.scen`` scenarios, read and written.

A ``.map`` becomes a ``Map`` over ``SquareGrid(width, height, diagonal=True,
corner_rule='no-obstacle')`` (8 directions, no corner cutting: the benchmark's
rule) with the terrain table ``MOVINGAI_TERRAINS``: one movement class
``'walk'``; '.' (ground), 'G' (grass) and 'S' (swamp) cost 1; '@' and 'O'
(out of bounds), 'T' (trees) and 'W' (water) are impassable.

Reading is strict and bounded: a malformed file raises ``MapFileError`` (a ``ValueError``) naming
the file and the line, and a declared size past ``MAX_MOVINGAI_CELLS`` is
refused before anything is allocated.

>>> import tempfile, os
>>> from wargrid import SquareGrid
>>> d = tempfile.mkdtemp(); f = os.path.join(d, "tiny.map")
>>> _ = open(f, "w").write("type octile\\nheight 2\\nwidth 3\\nmap\\n..@\\n.T.\\n")
>>> m = load_movingai(f)
>>> m.shape, m.terrain_name((2, 0)), m.path((0, 0), (2, 1)) is None, m.path((0, 0), (1, 0)).cost
((2, 3), 'out_of_bounds', True, 1.0)
"""

from __future__ import annotations

import io
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path as FilePath
from typing import IO, TYPE_CHECKING, Iterable, Sequence

import numpy as np

from ..errors import ArgumentError, ArgumentTypeError
from .._validate import check_iterable, check_positive_int, check_path
from ..grids.boards import SquareGrid
from ..terrain import Terrain, TerrainTable
from .._files import atomic_write, open_regular, skip_bom
from .errors import MAX_FILE_CELLS, MapFileError

if TYPE_CHECKING:
    from ..map import Map

__all__ = [
    "MOVINGAI_TERRAINS",
    "MAX_MOVINGAI_CELLS",
    "Scenario",
    "load_movingai",
    "load_movingai_agents",
    "load_movingai_scenarios",
    "save_movingai",
    "save_movingai_scenarios",
]

MAX_MOVINGAI_CELLS = MAX_FILE_CELLS
"""Largest ``width * height`` a ``.map`` may declare (67 M cells, 8192 x 8192)."""

_MAX_SCEN_BYTES = 1 << 28
_HEADER_LINE = 256  # characters read for a header line at most

MOVINGAI_TERRAINS = TerrainTable(
    [
        Terrain("ground", ".", "#e8e4d8", costs={"walk": 1}),
        Terrain("grass", "G", "#a8cf7b", costs={"walk": 1}),
        Terrain("swamp", "S", "#7f9f7f", costs={"walk": 1}),
        Terrain("out_of_bounds", "@", "#202020", blocks_sight=True),
        Terrain("out_of_bounds_o", "O", "#303030", blocks_sight=True),
        Terrain("trees", "T", "#2f6f2f", blocks_sight=True),
        Terrain("water", "W", "#3f78b5"),
    ],
    classes=("walk",),
)
"""The Moving AI terrains: one movement class 'walk'; '.', 'G', 'S' cost 1; '@', 'O', 'T', 'W' impassable."""

_SYMBOL_ID = {t.symbol: i for i, t in enumerate(MOVINGAI_TERRAINS.terrains)}


@dataclass(frozen=True)
class Scenario:
    """One benchmark problem: shortest path from ``start`` to ``goal`` (``(x, y)``) of length ``optimal``."""

    bucket: int
    map: str
    width: int
    height: int
    start: tuple[int, int]
    goal: tuple[int, int]
    optimal: float


def _err(path: os.PathLike[str] | str, line: int, message: str) -> MapFileError:
    return MapFileError(message, path, line=line)


def _plain_int(path: os.PathLike[str] | str, lineno: int, key: str, text: str) -> int:
    """``text`` as an integer written in plain decimal digits (no sign, ``_`` or non-ASCII digit)."""
    if not (text.isascii() and text.isdigit()):
        raise _err(path, lineno, f"{key} must be an integer in decimal digits, got {text!r}")
    return int(text)


_NUMBER = re.compile(r"[0-9]+(\.[0-9]*)?([eE][+-]?[0-9]+)?")


def _open_text(path: str, encoding: str, cap: int) -> IO[str]:
    """``path`` opened for reading once it is known to be a regular file of at most ``cap`` bytes."""
    f = skip_bom(open_regular(path, cap=cap, error=MapFileError, what="Moving AI file"))  # as Windows editors write
    return io.TextIOWrapper(f, encoding=encoding, errors="strict", newline=None)


def _header_int(path: os.PathLike[str] | str, lineno: int, line: str, key: str) -> int:
    parts = line.split()
    if len(parts) != 2 or parts[0] != key:
        raise _err(path, lineno, f"expected '{key} <integer>', got {line.strip()!r}")
    v = _plain_int(path, lineno, key, parts[1])
    if v < 1:
        raise _err(path, lineno, f"{key} must be >= 1, got {v}")
    return v


def load_movingai(path: os.PathLike[str] | str, *, diagonal: bool = True) -> Map:
    """Read a Moving AI ``.map`` file into a ``Map`` (see the module notes for the rules).

    Parameters
    ----------
    path : str or path-like
        The ``.map`` file.
    diagonal : bool
        Eight directions with the Moving AI corner rule (the grid benchmark's
        moves, the default); False: four (the moves of the multi-agent path
        finding benchmark, ``wargrid.rts.plan_crowd``).

    Returns
    -------
    Map
        A square-8 (or square-4) board with ``MOVINGAI_TERRAINS``.

    Raises
    ------
    MapFileError
        A file that is not a well-formed ``type octile`` map (also a ``ValueError``).

    Examples
    --------
    >>> import os
    >>> from wargrid import load_movingai
    >>> here = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "shared", "data", "movingai")
    >>> m = load_movingai(os.path.join(here, "arena.map")) if os.path.isdir(here) else None
    >>> m is None or m.shape == (49, 49)
    True
    """
    path = check_path(path)
    from ..map import Map

    if not isinstance(diagonal, (bool, np.bool_)):
        raise ArgumentTypeError(f"diagonal must be True or False, got {diagonal!r}")
    path = os.fspath(path)
    # a cell is one character, with a line end of up to two: a bigger file is refused unread
    with _open_text(path, "ascii", 3 * MAX_MOVINGAI_CELLS + (1 << 16)) as fh:
        try:
            first = fh.readline(_HEADER_LINE)
            if first.split() != ["type", "octile"]:
                raise _err(path, 1, f"expected 'type octile', got {first.strip()!r}")
            h = _header_int(path, 2, fh.readline(_HEADER_LINE), "height")
            w = _header_int(path, 3, fh.readline(_HEADER_LINE), "width")
            if w * h > MAX_MOVINGAI_CELLS:
                raise _err(
                    path, 3, f"declared size {w} x {h} = {w * h} cells is past the limit of "
                    f"{MAX_MOVINGAI_CELLS} cells"
                )
            line = fh.readline(_HEADER_LINE)
            if line.strip() != "map":
                raise _err(path, 4, f"expected 'map', got {line.strip()!r}")
            lut = np.full(256, -1, dtype=np.int16)
            for sym, i in _SYMBOL_ID.items():
                lut[ord(sym)] = i
            terrain = np.empty((h, w), dtype=np.int16)
            for y in range(h):
                lineno = 5 + y
                row = fh.readline(w + 3)
                if not row:
                    raise _err(path, lineno, f"the map ends after {y} of {h} rows")
                row = row.rstrip("\r\n")
                if len(row) != w:
                    raise _err(path, lineno, f"row {y} has {len(row)} characters, expected width {w}")
                ids = lut[np.frombuffer(row.encode("ascii"), dtype=np.uint8)]
                if (ids < 0).any():
                    x = int(np.argmax(ids < 0))
                    raise _err(
                        path, lineno, f"unknown terrain {row[x]!r} at x={x}; "
                        f"allowed: {''.join(_SYMBOL_ID)}"
                    )
                terrain[y] = ids
            rest = fh.read(1 << 16)
            if rest.strip():
                raise _err(path, 5 + h, f"unexpected text after the {h} map rows")
        except UnicodeDecodeError as exc:
            raise MapFileError(f"not an ASCII Moving AI map ({exc.reason})", path) from None
    grid = SquareGrid(w, h, diagonal=True, corner_rule="no-obstacle") if diagonal else SquareGrid(w, h)
    return Map(grid, terrain=terrain, terrains=MOVINGAI_TERRAINS)


def save_movingai(map: Map, path: os.PathLike[str] | str, *, unit: str | None = None) -> None:  # noqa: A002 - the format's word
    """Write a square board as a Moving AI ``.map``.

    A map using ``MOVINGAI_TERRAINS`` keeps its symbols; any other map is
    written as '.' where ``unit`` can stand and '@' elsewhere.

    Parameters
    ----------
    map : Map
        A square board.
    path : str or path-like
        Where to write.
    unit : str, optional
        The movement class (default: the terrain table's first class).

    Raises
    ------
    TypeError
        ``map`` is not a ``Map`` over a ``SquareGrid`` (``ArgumentTypeError``).

    Examples
    --------
    >>> import tempfile, os
    >>> from wargrid import Map, SquareGrid
    >>> f = os.path.join(tempfile.mkdtemp(), "b.map")
    >>> save_movingai(Map(SquareGrid(2, 1)), f); open(f).read()
    'type octile\\nheight 1\\nwidth 2\\nmap\\n..\\n'
    """
    path = check_path(path)
    from ..map import Map

    if not isinstance(map, Map):
        raise ArgumentTypeError(f"map must be a wargrid Map, got {type(map).__name__}")
    grid = map.grid
    if not isinstance(grid, SquareGrid):
        raise ArgumentTypeError(f"map must be over a SquareGrid to be written as a Moving AI map, got {type(grid).__name__}")
    if map.terrains == MOVINGAI_TERRAINS:
        symbols = np.array([t.symbol for t in MOVINGAI_TERRAINS.terrains])
        chars = symbols[map.terrain]
        chars = np.where(map.overlay >= 0, symbols[np.maximum(map.overlay, 0)], chars)
        chars = np.where(grid.mask, chars, "@")
    else:
        chars = np.where(map.passable(unit=unit), ".", "@")
    lines = ["type octile", f"height {grid.height}", f"width {grid.width}", "map"]
    lines += ["".join(row) for row in chars.tolist()]
    atomic_write(path, ("\n".join(lines) + "\n").encode("ascii"))


def load_movingai_scenarios(path: os.PathLike[str] | str) -> list[Scenario]:
    """Read a Moving AI ``.scen`` file (version 1): one ``Scenario`` per problem line.

    Parameters
    ----------
    path : str or path-like
        The ``.scen`` file.

    Returns
    -------
    list of Scenario

    Raises
    ------
    MapFileError
        A malformed file (also a ``ValueError``).

    Examples
    --------
    >>> import tempfile, os
    >>> f = os.path.join(tempfile.mkdtemp(), "a.scen")
    >>> _ = open(f, "w").write("version 1\\n0\\ta.map\\t4\\t4\\t0\\t0\\t3\\t0\\t3.00000000\\n")
    >>> load_movingai_scenarios(f)[0].goal
    (3, 0)
    """
    path = check_path(path)
    return [s for _, s in _read_scenarios(os.fspath(path))]


def _read_scenarios(path: str) -> list[tuple[int, Scenario]]:
    """Each problem of the ``.scen`` file ``path`` with its line number."""
    out: list[tuple[int, Scenario]] = []
    with _open_text(path, "utf-8", _MAX_SCEN_BYTES) as fh:
        size = os.fstat(fh.fileno()).st_size
        try:
            for lineno, line in enumerate(fh, 1):
                if lineno == 1:
                    head = line.split()
                    if len(head) != 2 or head[0] != "version" or head[1] not in ("1", "1.0"):
                        raise _err(path, 1, f"expected 'version 1', got {line.strip()!r}")
                    continue
                if not line.strip():
                    continue
                out.append((lineno, _scenario(path, lineno, line)))
        except UnicodeDecodeError as exc:
            raise MapFileError(f"not a text scenario file ({exc.reason})", path) from None
    if not out and size == 0:
        raise _err(path, 1, f"empty file, expected 'version 1'")
    return out


def _scenario(path: str, lineno: int, line: str) -> Scenario:
    parts = line.rstrip("\r\n").split("\t")
    if len(parts) != 9:
        parts = line.split()
    if len(parts) != 9:
        raise _err(
            path, lineno, f"expected 9 fields (bucket map width height start_x start_y goal_x goal_y "
            f"optimal), got {len(parts)}"
        )
    names = ("bucket", "map", "width", "height", "start_x", "start_y", "goal_x", "goal_y")
    ints: list[int] = []
    for k, v in zip(names, parts):
        if k == "map":
            continue
        ints.append(_plain_int(path, lineno, k, v))
    if not _NUMBER.fullmatch(parts[8]):
        raise _err(path, lineno, f"optimal length must be a number written in decimal, finite and >= 0, got {parts[8]!r}")
    opt = float(parts[8])
    if not math.isfinite(opt) or opt < 0:
        raise _err(path, lineno, f"optimal length must be finite and >= 0, got {opt}")
    bucket, w, h, sx, sy, gx, gy = ints
    name = parts[1]
    if w < 1 or h < 1:
        raise _err(path, lineno, f"map size must be positive, got {w} x {h}")
    for k, x, y in (("start", sx, sy), ("goal", gx, gy)):
        if not (0 <= x < w and 0 <= y < h):
            raise _err(path, lineno, f"{k} {(x, y)} is outside the {w} x {h} map")
    return Scenario(bucket, name, w, h, (sx, sy), (gx, gy), opt)


def load_movingai_agents(
    path: os.PathLike[str] | str, *, agents: int
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The first ``agents`` problems of a Moving AI ``.scen`` file as a crowd: ``(starts, goals)``.

    Multi-agent path finding benchmarks (Stern et al., 2019) make an
    N-agent instance of a scenario file's first N lines.

    Parameters
    ----------
    path : str or path-like
        The ``.scen`` file.
    agents : int
        How many agents (``>= 1``, at most the file's problems).

    Returns
    -------
    (list of (x, y), list of (x, y))
        The starts and the goals, in file order.

    Raises
    ------
    MapFileError
        A malformed file, or two of the first ``agents`` problems sharing a start or a goal (naming both lines).
    ArgumentError
        ``agents`` below 1 or past the file's problems.

    Examples
    --------
    >>> import tempfile, os
    >>> f = os.path.join(tempfile.mkdtemp(), "a.scen")
    >>> _ = open(f, "w").write("version 1\\n0\\ta.map\\t4\\t4\\t0\\t0\\t3\\t0\\t3\\n0\\ta.map\\t4\\t4\\t1\\t1\\t2\\t2\\t2\\n")
    >>> load_movingai_agents(f, agents=2)
    ([(0, 0), (1, 1)], [(3, 0), (2, 2)])
    """
    path = check_path(path)
    n = check_positive_int(agents, "agents")
    problems = _read_scenarios(os.fspath(path))
    if n > len(problems):
        raise ArgumentError(f"agents must be at most the {len(problems)} problems of {os.fspath(path)!r}, got {n}")
    for end in ("start", "goal"):  # two agents on one cell: no crowd instance (a planner refuses it, naming no line)
        seen: dict[tuple[int, int], tuple[int, int]] = {}
        for i, (lineno, p) in enumerate(problems[:n]):
            cell = getattr(p, end)
            if cell in seen:
                j, first = seen[cell]
                raise _err(path, lineno, f"agent {i}'s {end} {cell} is agent {j}'s {end} too (line {first}): a crowd's "
                                         f"agents need {end}s of their own; take fewer agents or another file")
            seen[cell] = (i, lineno)
    return [p.start for _, p in problems[:n]], [p.goal for _, p in problems[:n]]


def save_movingai_scenarios(scenarios: Iterable[Scenario], path: os.PathLike[str] | str) -> None:
    """Write scenarios as a Moving AI ``.scen`` file (version 1, lengths to 8 decimals).

    Parameters
    ----------
    scenarios : iterable of Scenario
        The problems, written in order.
    path : str or path-like
        Where to write.

    Raises
    ------
    TypeError
        An item that is not a ``Scenario`` (``ArgumentTypeError``).

    Examples
    --------
    >>> import tempfile, os
    >>> f = os.path.join(tempfile.mkdtemp(), "a.scen")
    >>> save_movingai_scenarios([Scenario(0, "a.map", 4, 4, (0, 0), (3, 0), 3.0)], f)
    >>> load_movingai_scenarios(f)[0].optimal
    3.0
    """
    path = check_path(path)
    lines = ["version 1"]
    for i, s in enumerate(check_iterable(scenarios, "scenarios", "a list of Scenario objects")):
        if not isinstance(s, Scenario):
            raise ArgumentTypeError(f"scenarios[{i}] must be a Scenario, got {type(s).__name__}")
        try:
            line = (f"{s.bucket}\t{s.map}\t{s.width}\t{s.height}\t{s.start[0]}\t{s.start[1]}\t"
                    f"{s.goal[0]}\t{s.goal[1]}\t{s.optimal:.8f}")
            if not isinstance(s.map, str) or "\n" in s.map or "\r" in s.map:
                raise MapFileError(f"map must be a file name on one line, got {s.map!r}", None)
            _scenario(os.fspath(path), len(lines) + 1, line)  # as the reader takes it: no file it would refuse
        except (MapFileError, TypeError, ValueError, IndexError) as exc:
            reason = exc.reason if isinstance(exc, MapFileError) else str(exc)
            raise ArgumentError(f"scenarios[{i}] cannot be written so that it reads back: {reason}") from None
        lines.append(line)
    atomic_write(path, "\n".join(lines) + "\n")
