"""The playground's JSON API, free of any web framework: boards kept per session, one handler per endpoint.

Each handler takes the board store and a decoded JSON object, validates every
field, and returns plain JSON data. Bad input raises ``ApiError`` with an HTTP
status and a message that names the field, the value and what is allowed;
a capability that this build of wargrid does not have yet raises status 501.

Cells travel as ``[x, y]`` pairs; whole-board layers travel as flat lists
indexed by cell id ``y * width + x``; ``inf`` travels as ``null``.

>>> store = BoardStore()
>>> b = HANDLERS["board"](store, {"kind": "square-4", "width": 4, "height": 3, "seed": 1})
>>> b["width"], b["height"], len(b["terrain"])
(4, 3, 12)
>>> HANDLERS["paint"](store, {"session": b["session"], "cells": [[0, 0]], "terrain": "water"})["terrain"]
[4]
"""

from __future__ import annotations

import math
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ..grids.boards import Grid, HexGrid, SquareGrid, StaggeredGrid
from ..map import Map
from ..terrain import TerrainTable

__all__ = [
    "ApiError",
    "BoardStore",
    "Session",
    "HANDLERS",
    "BOARD_KINDS",
    "MAX_SIDE",
    "MAX_CELLS",
    "make_grid",
    "random_terrain",
    "describe_board",
]

BOARD_KINDS = ("square-4", "square-8", "hex-flat", "hex-pointy", "staggered")
"""Board kinds the playground can make."""

MAX_SIDE = 256
"""Largest width or height of a board the playground makes or loads."""

MAX_CELLS = MAX_SIDE * MAX_SIDE
"""Largest number of cells of a board the playground makes or loads."""

MAX_UPLOAD_CHARS = 1_500_000
"""Largest uploaded map text, in characters (the request body is capped too)."""

MAX_PLAYERS = 16
MAX_UNITS = 200
MAX_PAINT = 4096
MAX_RADIUS = 64
_SESSION_CHARS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


class ApiError(Exception):
    """A request the API refuses: ``status`` is the HTTP status, ``message`` says why and what is allowed.

    >>> ApiError(400, "width must be an integer").status
    400
    """

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Session:
    """One board in the store, with a lock that serialises its queries and edits."""

    id: str
    map: Map
    source: str
    lock: threading.Lock


class BoardStore:
    """A small, thread-safe LRU of boards by session id (the oldest is dropped past ``capacity``).

    >>> s = BoardStore(capacity=1)
    >>> a = s.add(Map(SquareGrid(2, 2)), source="test")
    >>> b = s.add(Map(SquareGrid(2, 2)), source="test")
    >>> len(s), s.get(b.id) is b
    (1, True)
    """

    def __init__(self, capacity: int = 32) -> None:
        if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
            raise ValueError(f"capacity must be an integer >= 1, got {capacity!r}")
        self.capacity = capacity
        self._boards: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._boards)

    def add(self, m: Map, *, source: str) -> Session:
        """Keep ``m`` under a new random session id; returns the session."""
        s = Session(secrets.token_urlsafe(12), m, source, threading.Lock())
        with self._lock:
            self._boards[s.id] = s
            while len(self._boards) > self.capacity:
                self._boards.popitem(last=False)
        return s

    def get(self, session: Any) -> Session:
        """The session named ``session``; ``ApiError`` 400 for a malformed id, 404 for an unknown one."""
        if not isinstance(session, str) or not 1 <= len(session) <= 64 or not set(session) <= _SESSION_CHARS:
            raise ApiError(400, f"session must be the id string a board request returned, got {_short(session)}")
        with self._lock:
            s = self._boards.get(session)
            if s is None:
                raise ApiError(
                    404,
                    f"unknown session {session!r}: the server keeps the {self.capacity} most recent boards; make a new board",
                )
            self._boards.move_to_end(session)
            return s


# -- field checks ---------------------------------------------------------------------------

def _short(v: Any) -> str:
    r = repr(v)
    return r if len(r) <= 60 else r[:57] + "..."


def _fields(payload: Any, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict:
    if not isinstance(payload, dict):
        raise ApiError(400, f"the request body must be a JSON object, got {type(payload).__name__}")
    missing = [k for k in required if k not in payload]
    if missing:
        raise ApiError(400, f"missing field(s) {', '.join(missing)}; this request needs {', '.join(required)}")
    unknown = sorted(set(payload) - set(required) - set(optional))
    if unknown:
        allowed = ", ".join(required + optional)
        raise ApiError(400, f"unknown field(s) {', '.join(unknown)}; allowed fields: {allowed}")
    return payload


def _int(v: Any, name: str, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise ApiError(400, f"{name} must be an integer in {lo}..{hi}, got {_short(v)}")
    if not lo <= v <= hi:
        raise ApiError(400, f"{name} must be in {lo}..{hi}, got {v}")
    return v


def _number(v: Any, name: str, lo: float, hi: float) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise ApiError(400, f"{name} must be a finite number in {lo}..{hi}, got {_short(v)}")
    if not lo <= v <= hi:
        raise ApiError(400, f"{name} must be in {lo}..{hi}, got {v}")
    return float(v)


def _choice(v: Any, name: str, choices: tuple[str, ...]) -> str:
    if not isinstance(v, str) or v not in choices:
        raise ApiError(400, f"{name} must be one of {', '.join(map(repr, choices))}; got {_short(v)}")
    return v


def _cell(v: Any, name: str, grid: Grid) -> tuple[int, int]:
    if not isinstance(v, list) or len(v) != 2 or any(isinstance(c, bool) or not isinstance(c, int) for c in v):
        raise ApiError(400, f"{name} must be an [x, y] pair of integers, got {_short(v)}")
    x, y = v
    if not (0 <= x < grid.width and 0 <= y < grid.height):
        raise ApiError(
            400, f"{name} {[x, y]} is off the board: x must be in 0..{grid.width - 1} and y in 0..{grid.height - 1}"
        )
    if not grid.mask[y, x]:
        raise ApiError(400, f"{name} {[x, y]} is outside the board's shape")
    return x, y


def _cells(v: Any, name: str, grid: Grid, limit: int) -> list[tuple[int, int]]:
    if not isinstance(v, list):
        raise ApiError(400, f"{name} must be a list of [x, y] cells, got {_short(v)}")
    if len(v) > limit:
        raise ApiError(400, f"{name} holds {len(v)} cells; at most {limit} are allowed")
    return [_cell(c, f"{name}[{i}]", grid) for i, c in enumerate(v)]


def _unit(v: Any, m: Map) -> str:
    if v is None:
        return m.terrains.classes[0]
    return _choice(v, "unit", tuple(m.terrains.classes))


def _missing(what: str, name: str) -> ApiError:
    return ApiError(501, f"{what} is not available in this build of wargrid ({name} is missing)")


def _cap(m: Map, method: str, what: str) -> Callable:
    f = getattr(m, method, None)
    if not callable(f):
        raise _missing(what, f"Map.{method}")
    return f


def _user_error(exc: Exception) -> ApiError:
    return ApiError(400, str(exc) or type(exc).__name__)


# -- boards ---------------------------------------------------------------------------------

def make_grid(kind: str, width: int, height: int) -> Grid:
    """An empty board of a playground kind.

    >>> make_grid("hex-pointy", 5, 4)
    HexGrid(5, 4, orientation='pointy', offset='odd-r')
    """
    _choice(kind, "kind", BOARD_KINDS)
    _int(width, "width", 1, MAX_SIDE)
    _int(height, "height", 1, MAX_SIDE)
    if kind in ("square-4", "square-8"):
        return SquareGrid(width, height, diagonal=kind == "square-8")
    if kind == "staggered":
        return StaggeredGrid(width, height)
    return HexGrid(width, height, orientation="flat" if kind == "hex-flat" else "pointy")


def _smooth_noise(rng: np.random.Generator, h: int, w: int, scale: float) -> np.ndarray:
    gh, gw = int(h / scale) + 2, int(w / scale) + 2
    coarse = rng.random((gh, gw))
    ys = np.arange(h) / scale
    xs = np.arange(w) / scale
    y0 = ys.astype(np.int64)
    x0 = xs.astype(np.int64)
    fy = (ys - y0)[:, None]
    fx = (xs - x0)[None, :]
    fy = fy * fy * (3 - 2 * fy)
    fx = fx * fx * (3 - 2 * fx)
    a = coarse[y0][:, x0]
    b = coarse[y0][:, x0 + 1]
    c = coarse[y0 + 1][:, x0]
    d = coarse[y0 + 1][:, x0 + 1]
    return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy


def random_terrain(grid: Grid, terrains: TerrainTable, *, seed: int) -> np.ndarray:
    """A seeded ``(height, width)`` layer of terrain ids: lakes, plains, forests, hills and mountains.

    >>> from wargrid import SquareGrid, TerrainTable
    >>> t = random_terrain(SquareGrid(8, 6), TerrainTable.default(), seed=3)
    >>> t.shape, bool((t == random_terrain(SquareGrid(8, 6), TerrainTable.default(), seed=3)).all())
    ((6, 8), True)
    """
    rng = np.random.default_rng(seed)
    h, w = grid.shape
    height = 0.65 * _smooth_noise(rng, h, w, 6.0) + 0.35 * _smooth_noise(rng, h, w, 2.5)
    wood = _smooth_noise(rng, h, w, 4.0)
    names = terrains.names

    def tid(name: str) -> int:
        return names.index(name) if name in names else 0

    out = np.full((h, w), tid("plains"), dtype=np.int16)
    out[wood > 0.62] = tid("forest")
    out[height > 0.66] = tid("hills")
    out[height > 0.78] = tid("mountains")
    out[height < 0.24] = tid("water")
    return out


def describe_board(s: Session | Map, session: str | None = None) -> dict:
    """Everything the page needs to draw a board: geometry, terrain ids and the terrain table.

    ``centers`` is a flat ``[cx0, cy0, cx1, cy1, ...]`` list by cell id in drawing
    units; a cell's polygon is its centre plus each of ``corners``.

    >>> d = describe_board(Map(SquareGrid(2, 1)))
    >>> d["centers"], d["corners"][0], d["bounds"]
    ([0.5, 0.5, 1.5, 0.5], [-0.5, -0.5], [0.0, 0.0, 2.0, 1.0])
    """
    if isinstance(s, Session):
        m, session, source = s.map, s.id, s.source
    else:
        m, source = s, ""
    g = m.grid
    ids = np.arange(g.size, dtype=np.int64)
    cx, cy = g.centers_of(ids % g.width, ids // g.width)
    centers = np.round(np.stack([cx, cy], axis=1).ravel(), 4)
    if isinstance(g, HexGrid):
        kind = "hex-flat" if g.orientation == "flat" else "hex-pointy"
    elif isinstance(g, SquareGrid):
        kind = "square-8" if g.diagonal else "square-4"
    else:
        kind = "staggered"
    return {
        "session": session,
        "source": source,
        "kind": kind,
        "grid": g.describe(),
        "width": g.width,
        "height": g.height,
        "square": isinstance(g, SquareGrid),
        "corners": [[round(float(a), 6), round(float(b), 6)] for a, b in g.corner_offsets()],
        "centers": centers.tolist(),
        "bounds": [round(v, 6) for v in g.bounds()],
        "valid": None if g.mask.all() else g.mask.ravel().astype(int).tolist(),
        "terrain": m.terrain.ravel().astype(int).tolist(),
        "terrains": [
            {"id": i, "name": t.name, "symbol": t.symbol, "color": t.color, "blocks_sight": t.blocks_sight}
            for i, t in enumerate(m.terrains)
        ],
        "classes": list(m.terrains.classes),
        "version": m.version,
    }


def _board_map(kind: str, width: int, height: int, seed: int) -> Map:
    import wargrid

    gen = getattr(wargrid, "generate", None)
    if callable(gen):
        try:
            m = gen(width, height, kind=kind, seed=seed)
        except (TypeError, ValueError):
            m = None
        if isinstance(m, Map):
            return m
    grid = make_grid(kind, width, height)
    terrains = TerrainTable.default()
    return Map(grid, terrain=random_terrain(grid, terrains, seed=seed), terrains=terrains)


def h_board(store: BoardStore, payload: Any) -> dict:
    """``POST /api/board``: a new seeded board ``{kind, width, height, seed}``; returns its description."""
    p = _fields(payload, ("kind", "width", "height"), ("seed",))
    kind = _choice(p["kind"], "kind", BOARD_KINDS)
    width = _int(p["width"], "width", 1, MAX_SIDE)
    height = _int(p["height"], "height", 1, MAX_SIDE)
    if width * height > MAX_CELLS:  # pragma: no cover - implied by MAX_SIDE today
        raise ApiError(400, f"width * height must be at most {MAX_CELLS} cells, got {width} x {height}")
    seed = _int(p.get("seed", 0), "seed", 0, 2**31 - 1)
    m = _board_map(kind, width, height, seed)
    return describe_board(store.add(m, source=f"{kind} {width}x{height} seed {seed}"))


def h_get_board(store: BoardStore, payload: Any) -> dict:
    """``POST /api/board/get``: the description of a session's board ``{session}``."""
    p = _fields(payload, ("session",))
    s = store.get(p["session"])
    with s.lock:
        return describe_board(s)


# -- uploads --------------------------------------------------------------------------------

UPLOAD_FORMATS = ("auto", "wargrid", "movingai", "tiled")


def _sniff(name: str, text: str) -> str:
    low = name.lower()
    head = text.lstrip()[:200]
    if low.endswith((".tmx", ".tmj")) or head.startswith("<?xml") or head.startswith("<map") or '"tiledversion"' in text[:2000]:
        return "tiled"
    if low.endswith(".map") or head.startswith("type "):
        return "movingai"
    return "wargrid"


def _check_loaded(m: Any, fmt: str) -> Map:
    if not isinstance(m, Map):
        raise ApiError(400, f"the {fmt} reader returned {type(m).__name__}, not a map")
    if m.width > MAX_SIDE or m.height > MAX_SIDE:
        raise ApiError(
            413, f"the uploaded map is {m.width} x {m.height}; the playground shows boards up to {MAX_SIDE} x {MAX_SIDE}"
        )
    return m


def _header_size(text: str) -> tuple[int, int] | None:
    """``(width, height)`` from a Moving AI header, read before the whole map is parsed."""
    w = h = None
    for line in text.splitlines()[:6]:
        parts = line.split()
        if len(parts) == 2 and parts[0] in ("width", "height") and parts[1].isdigit():
            if parts[0] == "width":
                w = int(parts[1])
            else:
                h = int(parts[1])
    return (w, h) if w is not None and h is not None else None


def _read_upload(fmt: str, name: str, text: str) -> Map:
    import importlib
    import os
    import tempfile

    import wargrid

    if fmt == "movingai":
        size = _header_size(text)
        if size and (size[0] > MAX_SIDE or size[1] > MAX_SIDE):
            raise ApiError(
                413, f"the uploaded map is {size[0]} x {size[1]}; the playground shows boards up to {MAX_SIDE} x {MAX_SIDE}"
            )
        reader = getattr(wargrid, "load_movingai", None)
        what = "wargrid.load_movingai"
    elif fmt == "tiled":
        try:
            mod = importlib.import_module("wargrid.io.tiled")
        except ImportError:
            mod = None
        reader = getattr(mod, "load_tiled", None) or getattr(mod, "read_tiled", None) or getattr(wargrid, "load_tiled", None)
        what = "wargrid.io.tiled"
    else:
        reader = getattr(wargrid, "load_map", None)
        what = "wargrid.load_map"
    if not callable(reader):
        raise _missing(f"reading {fmt} map files", what)
    suffix = {"movingai": ".map", "tiled": ".tmj" if text.lstrip().startswith("{") else ".tmx"}.get(fmt, "")
    if fmt == "wargrid":
        suffix = os.path.splitext(name)[1][:12] or ".json"
    # the readers take a path: write the text to a private temporary file (never a user-chosen path)
    fd, path = tempfile.mkstemp(suffix=suffix, prefix="wargrid-upload-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        try:
            m = reader(path)
        except (TypeError, ValueError, IndexError, KeyError, UnicodeError, OSError) as exc:
            raise ApiError(400, f"could not read {name!r} as a {fmt} map: {exc}") from None
    finally:
        os.unlink(path)
    return _check_loaded(m, fmt)


def h_upload(store: BoardStore, payload: Any) -> dict:
    """``POST /api/upload``: a board from a map file's text ``{name, text, format?}`` (own format, Moving AI, Tiled)."""
    p = _fields(payload, ("name", "text"), ("format",))
    name, text = p["name"], p["text"]
    if not isinstance(name, str) or len(name) > 200:
        raise ApiError(400, f"name must be the file's name (a string of at most 200 characters), got {_short(name)}")
    if not isinstance(text, str) or not text.strip():
        raise ApiError(400, "text must be the map file's contents as a non-empty string")
    if len(text) > MAX_UPLOAD_CHARS:
        raise ApiError(413, f"text holds {len(text)} characters; at most {MAX_UPLOAD_CHARS} are allowed")
    fmt = _choice(p.get("format", "auto"), "format", UPLOAD_FORMATS)
    if fmt == "auto":
        fmt = _sniff(name, text)
    m = _read_upload(fmt, name, text)
    return describe_board(store.add(m, source=f"{fmt} file {name}"))


# -- queries ------------------------------------------------------------------------------

def _num(v: Any) -> float | None:
    f = float(v)
    return None if math.isinf(f) or math.isnan(f) else round(f, 6)


def _ids(mask: np.ndarray) -> list[int]:
    return np.flatnonzero(np.asarray(mask, dtype=bool).ravel()).astype(int).tolist()


def h_path(store: BoardStore, payload: Any) -> dict:
    """``POST /api/path``: the A* path ``{session, start, goal, unit?}``; ``cells`` and ``cost`` are null when unreachable."""
    p = _fields(payload, ("session", "start", "goal"), ("unit",))
    s = store.get(p["session"])
    with s.lock:
        m = s.map
        start = _cell(p["start"], "start", m.grid)
        goal = _cell(p["goal"], "goal", m.grid)
        unit = _unit(p.get("unit"), m)
        f = _cap(m, "path", "path finding")
        try:
            r = f(start, goal, unit=unit)
        except (TypeError, ValueError, IndexError) as exc:
            raise _user_error(exc) from None
    if r is None:
        return {"cells": None, "cost": None, "unit": unit}
    cells = [[int(c[0]), int(c[1])] for c in r.cells]
    return {"cells": cells, "cost": _num(r.cost), "unit": unit}


def h_meta(store: BoardStore, payload: Any) -> dict:
    """``GET /api/meta``: board kinds, limits, and which capabilities this build has."""
    caps = {
        "path": hasattr(Map, "path"),
        "range": hasattr(Map, "movement_range"),
        "zones": hasattr(Map, "zones"),
        "fov": hasattr(Map, "fov"),
        "visibility_polygon": hasattr(Map, "visibility_polygon"),
        "partition": hasattr(Map, "partition"),
    }
    return {
        "kinds": list(BOARD_KINDS),
        "max_side": MAX_SIDE,
        "max_cells": MAX_CELLS,
        "upload_formats": list(UPLOAD_FORMATS),
        "capabilities": caps,
        "sessions": store.capacity,
    }


def h_paint(store: BoardStore, payload: Any) -> dict:
    """``POST /api/paint``: set the terrain of ``cells`` ``{session, cells, terrain}``; returns the new ids of those cells."""
    p = _fields(payload, ("session", "cells", "terrain"))
    s = store.get(p["session"])
    with s.lock:
        m = s.map
        cells = _cells(p["cells"], "cells", m.grid, MAX_PAINT)
        name = _choice(p["terrain"], "terrain", tuple(m.terrains.names))
        if cells:
            m.set_terrain(cells, name)
        return {
            "cells": [list(c) for c in cells],
            "terrain": [int(m.terrain[y, x]) for x, y in cells],
            "version": m.version,
        }


HANDLERS: dict[str, Callable[[BoardStore, Any], dict]] = {
    "meta": h_meta,
    "board": h_board,
    "board/get": h_get_board,
    "upload": h_upload,
    "paint": h_paint,
    "path": h_path,
}
"""Endpoint name (the part after ``/api/``) to handler."""
