"""Helpers shared by the verb modules: options, cells, map files, progress."""

from __future__ import annotations

import argparse
import os
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, ParamSpec, TextIO, TypeAlias, TypedDict, TypeVar

from .._budget import available_memory
from .._progress import reporter, say
from ..errors import ArgumentTypeError
from ..generate import BOARD_KINDS
from ..map import Map
from . import CliError
from ._folders import make_folder

KINDS = BOARD_KINDS

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""What ``add_subparsers`` returns: each verb module's ``add_parser`` adds its sub-command to it."""

P = ParamSpec("P")
R = TypeVar("R")


class GridOptions(TypedDict):
    """The board-kind options chosen by ``add_grid_options`` (keyword options of ``generate_board``)."""

    kind: str
    orientation: str
    offset: str | None
    diagonal: bool
    stagger: str
    wrap_x: bool


class StepNote(TypedDict):
    """What a ``Progress`` step reports: a short result and the seconds spent computing (``None``: not timed)."""

    note: str
    compute: float | None


MAP_FORMATS = {".json": "wargrid JSON", ".npz": "wargrid npz", ".tmx": "Tiled XML", ".tmj": "Tiled JSON",
               ".map": "Moving AI (or Wesnoth, read by its first line)"}
"""Map file extensions wargrid reads and writes, and what each is."""

PICTURES = (".svg", ".png")
"""Picture file extensions wargrid draws."""

GENERATE_BYTES_PER_CELL = 450
"""Peak memory of ``generate_board`` per cell (measured about 415 on 256^2 to 2048^2 boards)."""

PNG_BYTES_PER_PIXEL = 64
"""Peak memory of ``render_png`` per pixel of the picture (measured about 58)."""


EXIT_CODES = "exit codes:\n  0  ok\n  1  failure (bad input file, nothing found)\n  2  usage (bad options)\n  130  interrupted"
"""The exit-code table every verb's ``--help`` ends with."""


def verb_parser(sub: Subparsers, name: str, *, help: str, description: str | None, examples: list[str],
                exit_codes: str = EXIT_CODES) -> argparse.ArgumentParser:
    """The sub-command ``name``, whose ``--help`` ends with ``examples`` (command lines) and the exit codes."""
    epilog = "examples:\n" + "\n".join(f"  {e}" for e in examples) + "\n\n" + exit_codes
    return sub.add_parser(name, help=help, description=description, epilog=epilog,
                          formatter_class=argparse.RawDescriptionHelpFormatter)


def print_json(data: object) -> None:
    """``data`` as one line of JSON on stdout (numpy scalars and arrays as plain numbers and lists)."""
    import json

    import numpy as np

    def plain(o: object) -> object:
        if isinstance(o, np.ndarray):
            return o.tolist()
        if isinstance(o, np.generic):
            return o.item()
        raise ArgumentTypeError(f"cannot write {type(o).__name__} as JSON")

    print(json.dumps(data, default=plain))


def parse_cell(text: str) -> tuple[int, int]:
    """``'x,y'`` to a cell (argparse type).

    >>> parse_cell("3,4"), parse_cell("-1,0")
    ((3, 4), (-1, 0))
    """
    try:
        x, y = (int(v) for v in str(text).split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a cell is written x,y (two integers), got {text!r}") from None
    return x, y


def parse_size(text: str) -> tuple[int, int]:
    """``'WxH'`` or ``'N'`` (square) to ``(width, height)`` (argparse type).

    >>> parse_size("40x30"), parse_size("16")
    ((40, 30), (16, 16))
    """
    try:
        parts = [int(v) for v in str(text).lower().split("x")]
    except ValueError:
        parts = []
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2 or min(parts) < 1:
        raise argparse.ArgumentTypeError(f"a size is WIDTHxHEIGHT or N, both >= 1, got {text!r}")
    if parts[0] * parts[1] > 16_777_216:
        raise argparse.ArgumentTypeError(f"a size must be at most 16777216 cells, got {text!r}")
    return parts[0], parts[1]


def add_grid_options(p: argparse.ArgumentParser, *, default_kind: str = "hex") -> None:
    """Options that choose the board kind (shared by generate and demo)."""
    g = p.add_argument_group("board")
    g.add_argument("--kind", choices=KINDS, default=default_kind, help=f"board kind (default {default_kind})")
    g.add_argument("--orientation", choices=("flat", "pointy"), default="flat", help="hex tiles: flat-top or pointy-top")
    g.add_argument("--offset", choices=("odd-q", "even-q", "odd-r", "even-r"), default=None,
                   help="hex offset kind (default odd-q for flat, odd-r for pointy)")
    g.add_argument("--diagonal", action="store_true", help="square boards: 8 directions")
    g.add_argument("--stagger", choices=("columns", "rows"), default="columns", help="staggered boards: what is shifted")
    g.add_argument("--wrap-x", action="store_true", help="wrap around in x (a cylinder world)")


def add_query_args(p: argparse.ArgumentParser, extra: list[tuple[str, Any, str, str]]) -> None:
    """``MAP START`` then ``extra`` positionals ``(dest, type, METAVAR, help)``, then ``--unit`` and ``--json``."""
    p.add_argument("map", metavar="MAP", help="map file")
    p.add_argument("start", type=parse_cell, metavar="START", help="x,y")
    for dest, typ, metavar, text in extra:
        p.add_argument(dest, type=typ, metavar=metavar, help=text)
    add_unit_json(p)


def add_unit_json(p: argparse.ArgumentParser, *, seed: bool = False,
                  unit_help: str = "movement class (default: the terrain table's first)") -> None:
    """``--seed`` (when ``seed``), ``--unit`` and ``--json``: the options of the verbs that query a map file."""
    if seed:
        p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--unit", default=None, help=unit_help)
    p.add_argument("--json", action="store_true", help="print the result as JSON")


def map_and_unit(args: argparse.Namespace) -> tuple[Map, str]:
    """The map file ``args.map`` and the movement class ``args.unit`` names on it."""
    m = load_map(args.map)
    return m, m.unit_class(args.unit)


def grid_options(args: argparse.Namespace) -> GridOptions:
    """The ``generate`` keyword options chosen by ``add_grid_options``."""
    return GridOptions(kind=args.kind, orientation=args.orientation, offset=args.offset, diagonal=args.diagonal,
                stagger=args.stagger, wrap_x=args.wrap_x)


def load_map(path: str) -> Map:
    """Any map file wargrid reads, chosen by extension (an OpenRA map by its content)."""
    from ..io.openra import is_openra_map

    p = Path(path)
    if not p.exists():
        raise CliError(f"no such file: {path}")
    if is_openra_map(p):
        from ..io.openra import load_openra

        return load_openra(p)
    suffix = p.suffix.lower()
    if suffix in (".tmx", ".tmj"):
        from ..io.tiled import load_tiled

        return load_tiled(p)
    if suffix == ".map":
        kind = map_kind(p)
        if kind == "movingai":
            from ..io.movingai import load_movingai

            return load_movingai(p)
        from ..io.wesnoth import load_wesnoth

        return load_wesnoth(p)
    from ..io.native import load_map as native

    return native(p)


def map_kind(path: Path) -> str:
    """Which ``.map`` format ``path`` holds, by its first line: ``'movingai'`` (``type octile``) or
    ``'wesnoth'`` (a ``usage=``/``border_size=`` header or a row of comma-separated terrain codes);
    ``CliError`` for anything else.

    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> for name, text in [("a.map", "type octile\\nheight 1\\n"), ("b.map", "Gg, Gg\\n"), ("c.map", "hello\\n")]:
    ...     _ = open(os.path.join(d, name), "w").write(text)
    >>> map_kind(Path(d, "a.map")), map_kind(Path(d, "b.map"))
    ('movingai', 'wesnoth')
    >>> map_kind(Path(d, "c.map"))
    Traceback (most recent call last):
    ...
    wargrid.cli.CliError: c.map is not a map wargrid reads: a Moving AI map starts with 'type octile', a Wesnoth map with rows of comma-separated terrain codes; its first line is 'hello'
    """
    from .._files import open_regular
    from ..io.errors import MapFileError

    try:
        with open_regular(path, cap=1 << 40, error=MapFileError, what=".map file") as f:  # a FIFO or a device is refused, not read
            first = f.readline(256).decode("utf-8-sig", "replace").strip()  # past a byte-order mark
    except MapFileError as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror or exc}") from None
    if first.split()[:1] == ["type"]:
        return "movingai"  # load_movingai names a type other than octile
    if "," in first or first.startswith(("usage=", "border_size=")):
        return "wesnoth"
    raise CliError(f"{path.name} is not a map wargrid reads: a Moving AI map starts with 'type octile', "
                   f"a Wesnoth map with rows of comma-separated terrain codes; its first line is {first[:60]!r}")


def map_format(path: str, fmt: str | None = None, what: str = "OUT") -> str:
    """The extension (``'.json'``, ``'.map'``, ...) of the format to write ``path`` in: ``fmt`` or the path's own.

    >>> map_format("a.TMX"), map_format("board.dat", "npz")
    ('.tmx', '.npz')
    """
    known = ", ".join(MAP_FORMATS)
    suffix = Path(path).suffix.lower()
    if fmt is None:
        if suffix not in MAP_FORMATS:
            raise CliError(f"{what} must end in one of {known} (or name the format with --format); got {Path(path).name!r}", 2)
        return suffix
    chosen = "." + fmt.lower().lstrip(".")
    if chosen not in MAP_FORMATS:
        raise CliError(f"--format must be one of {', '.join(f[1:] for f in MAP_FORMATS)}; got {fmt!r}", 2)
    if chosen in (".tmx", ".tmj") and suffix != chosen:
        raise CliError(f"a Tiled {chosen[1:]} file must end in {chosen}; got {Path(path).name!r}", 2)
    return chosen


def save_map(m: Map, path: str, fmt: str | None = None) -> None:
    """Write ``m`` in the format ``map_format(path, fmt)`` names."""
    suffix = map_format(path, fmt)
    p = out_path(path)
    if suffix in (".tmx", ".tmj"):
        from ..io.tiled import save_tiled

        save_tiled(m, p)
    elif suffix == ".map":
        from ..io.movingai import save_movingai

        save_movingai(m, p)
    else:
        from ..io.native import save_map as native

        native(m, p, encoding=suffix[1:])


def check_output(path: str, what: str, suffixes: tuple[str, ...] | None = None) -> Path:
    """Check, before any work, that ``path`` can be written: its extension is one of ``suffixes``, it is not a
    folder, and its folder, or the nearest of its parents that exists (the rest are made when the file is written),
    is a writable folder. Returns the path.
    """
    p = Path(path)
    if suffixes is not None and p.suffix.lower() not in suffixes:
        raise CliError(f"{what} must end in {' or '.join(suffixes)}, got {p.name!r}", 2)
    if p.is_dir():
        raise CliError(f"{what} {path} is a folder, not a file")
    folder = p.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise CliError(f"cannot write {what} {path}: {folder} is a file, not a folder")
    if not os.access(folder, os.W_OK):
        raise CliError(f"cannot write {what} {path}: the folder {folder} is not writable")
    return p


def check_memory(need: float, what: str, hint: str) -> None:
    """Refuse, before any work, a job estimated to need ``need`` bytes when the machine has less free."""
    free = available_memory()
    if free is not None and need > free:
        raise CliError(f"{what} would need about {_bytes(need)} of memory; {_bytes(free)} is free. {hint}")


def _bytes(n: float) -> str:
    """``n`` bytes, readable.

    >>> _bytes(3 * 2**30), _bytes(22 * 2**40), _bytes(512)
    ('3.0 GiB', '22.0 TiB', '512 B')
    """
    for unit, size in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{int(n)} B"


class Progress:
    """One whole line per finished step on stdout: ``[2/7] movement range  0.03 s``; keeps the timings.

    On a terminal a bar of the steps (tqdm, on stderr) names the step under
    way; the lines print above it, and so does the compile notice, so no
    line is ever cut in the middle. A step may put ``note["note"]`` (a short
    result) and ``note["compute"]`` (seconds spent computing, as opposed to
    drawing or writing) in the dict it is given.
    """

    def __init__(self, total: int, *, quiet: bool = False, stream: TextIO | None = None) -> None:
        self.total = total
        self.n = 0
        self.quiet = quiet
        self.stream = stream or sys.stdout
        self.rows: list[tuple[str, float, StepNote]] = []
        self._bar: Callable[[int], None] | None = None

    @contextmanager
    def run(self) -> Iterator["Progress"]:
        """Show the bar of the steps (on a terminal, unless ``quiet``) while the block runs."""
        with reporter(not self.quiet, self.total, "wargrid demo") as tick:
            self._bar = tick
            try:
                yield self
            finally:
                self._bar = None

    @contextmanager
    def step(self, name: str) -> Iterator[StepNote]:
        self.n += 1
        note: StepNote = {"note": "", "compute": None}
        t0 = time.perf_counter()
        try:
            yield note
        finally:
            dt = time.perf_counter() - t0
            self.rows.append((name, dt, note))
            if not self.quiet:
                extra = f"  ({note['note']})" if note["note"] else ""
                comp = f" (computing {note['compute'] * 1000:.1f} ms)" if note["compute"] is not None else ""
                say(f"[{self.n}/{self.total}] {name}  {dt:.2f} s{comp}{extra}", file=self.stream)
            if self._bar is not None:
                self._bar(self.n)


def timed(note: StepNote, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """``fn(*args, **kwargs)``, adding the seconds it took to ``note["compute"]``."""
    t0 = time.perf_counter()
    try:
        return fn(*args, **kwargs)
    finally:
        note["compute"] = (note.get("compute") or 0.0) + time.perf_counter() - t0


def out_path(path: str) -> Path:
    """An output path whose folder exists (created now, just before the write, if needed)."""
    p = Path(path)
    make_folder(p.parent)
    return p
