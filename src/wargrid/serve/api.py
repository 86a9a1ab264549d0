"""The playground's JSON API, free of any web framework: boards kept per session, one handler per endpoint.

Each handler takes the board store and a decoded JSON object, validates every
field, and returns plain JSON data. Bad input raises ``ApiError`` with an HTTP
status and a message that names the field, the value and what is allowed.

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
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable, ParamSpec, Sequence, TypedDict, TypeVar, cast

import numpy as np

from ..errors import ArgumentError, WargridError
from ..grids.boards import Grid, HexGrid, SquareGrid
from ..io.movingai import load_movingai
from ..io.native import load_map
from ..io.tiled import load_tiled
from ..io.wesnoth import load_wesnoth
from ..map import Map
from ..movement.fields import MovementRange
from ..sight.fog import Fog
from ..territory.partition import PartitionReport

__all__ = [
    "ApiError",
    "BoardStore",
    "ClientBoards",
    "Session",
    "HANDLERS",
    "BOARD_KINDS",
    "MAX_SIDE",
    "MAX_CELLS",
    "make_grid",
    "partition_answer",
    "describe_board",
    "warm_up",
    "warm_partition",
    "explain_search",
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
MAX_SEED = 2**31 - 1
MAX_BUDGET = 1e6
SEARCHES = ("bfs", "dijkstra", "greedy", "astar")
"""The searches the step-through shows (``wargrid.movement.trace.ALGORITHMS``)."""
LAYERS = ("lists", "binary")
_SESSION_CHARS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

P = ParamSpec("P")
R = TypeVar("R")

Payload = dict[str, Any]
"""A request's decoded JSON object, before its fields are checked."""


# -- answers (plain JSON data) ---------------------------------------------------------------

class TerrainInfo(TypedDict):
    """One row of the terrain table, as the page colours it."""

    id: int
    name: str
    symbol: str
    color: str
    blocks_sight: bool


class BoardAnswer(TypedDict):
    """A board's description: geometry, terrain ids and the terrain table (see ``describe_board``)."""

    session: str | None
    source: str
    kind: str
    grid: dict[str, str | int]
    width: int
    height: int
    square: bool
    corners: list[list[float]]
    centers: list[float]
    bounds: list[float]
    valid: list[int] | None
    terrain: list[int]
    overlay: list[int]
    terrains: list[TerrainInfo]
    classes: list[str]
    costs: dict[str, list[float | None]]
    version: int
    layers: str
    neighbors: dict[str, Any]
    elevation: list[float | None] | None


class PathAnswer(TypedDict):
    """``cells`` as ``[x, y]``, ``cost`` and ``so_far`` (the cost paid on reaching each cell); ``None`` when unreachable, with ``reason``."""

    cells: list[list[int]] | None
    cost: float | None
    so_far: list[float | None] | None
    unit: str
    reason: str | None


class RangeAnswer(TypedDict):
    """``cells`` as ``[x, y, points_left]``; ``zoc`` the reached cells in an enemy's zone of control."""

    cells: list[list[float]]
    zoc: list[list[int]]
    budget: float
    unit: str
    reason: str | None


class ZonesAnswer(TypedDict):
    """Zone ``labels`` by cell id (-1: none) and how many zones there are."""

    labels: list[int]
    count: int
    unit: str


class FovAnswer(TypedDict):
    """Cell ids in sight, and on square boards the visibility polygon ``[[x, y], ...]``."""

    visible: list[int]
    polygon: list[list[float]] | None
    origin: list[int]
    radius: int
    polygon_radius: float | None
    sight_radius: float | None


class FogAnswer(TypedDict):
    """Cell ids the team sees now and those it has seen."""

    visible: list[int]
    explored: list[int]
    team: int
    radius: int


class ReportAnswer(TypedDict):
    """A partition's fairness report: lists by player, ``inf`` as ``None``."""

    players: int
    mode: str
    method: str | None
    cells: list[int]
    weight: list[float | None]
    spread: float | None
    tolerance: float | None
    largest_chunk: list[int]
    chunks: list[int]
    perimeter: list[int]
    compactness: list[float | None]
    starts: list[list[int] | None]
    mean_distance: list[float | None]
    balanced: bool


class PartitionAnswer(TypedDict):
    """``owners`` by cell id (-1: no one's), the report, cells per player and the players' starts."""

    owners: list[int]
    report: ReportAnswer
    sizes: list[int]
    seeds: list[list[int] | None]
    players: int
    mode: str


class MetaAnswer(TypedDict):
    """What the page may ask for: board kinds, limits, formats, modes and teams."""

    kinds: list[str]
    max_side: int
    max_cells: int
    upload_formats: list[str]
    partition_modes: list[str]
    teams: list[str]
    sessions: int
    limits: dict[str, list[float]]


class ExportAnswer(TypedDict):
    """A board as a file: its suggested ``name``, media ``type`` and ``text``."""

    name: str
    type: str
    text: str


class ExplainAnswer(TypedDict):
    """A search step by step: cell ids in the order they were closed, where each came from, ``g`` and ``h``.

    With ``arrays="binary"`` each list is a base64 string of little-endian
    ``int32`` (ids, counts) or ``float32`` (``cost``, ``h``) values instead.
    """

    order: list[int] | str
    came_from: list[int] | str
    cost: list[float | None] | str
    h: list[float] | str
    hscale: float
    opened: list[int] | str
    opened_at: list[int] | str
    arrays: str
    goal_reached: bool
    unit: str
    algorithm: str
    early: bool


class PaintAnswer(TypedDict):
    """The painted cells with their new terrain and overlay ids, and the map's version."""

    cells: list[list[int]]
    terrain: list[int]
    overlay: list[int]
    version: int


class FieldAnswer(TypedDict):
    """A flow field toward ``goal``: per cell id its cost to the goal and the direction of its first step.

    ``cost``: base64 little-endian ``float32`` (``inf``: no way to the goal);
    ``next``: base64 ``int8`` direction (``grid.neighbor``'s, -1 at the goal
    and where the goal cannot be reached); ``top``: the largest finite cost.
    """

    goal: list[int]
    cost: str
    next: str
    top: float
    reached: int
    unit: str


Answer = (BoardAnswer | PathAnswer | RangeAnswer | ZonesAnswer | FovAnswer | FogAnswer | PartitionAnswer | MetaAnswer
          | PaintAnswer | ExportAnswer | ExplainAnswer | FieldAnswer)
"""What a handler returns."""


class _GridKw(TypedDict, total=False):
    """The ``make_grid`` / ``generate`` keyword options of a playground board kind."""

    kind: str
    diagonal: bool
    orientation: str


class _Others(TypedDict, total=False):
    """The ``enemies`` and ``friends`` keyword arguments of a path or range query."""

    enemies: list[tuple[int, int]]
    friends: list[tuple[int, int]]


class ApiError(WargridError):
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
    """One board in the store, with a lock that serialises its queries and edits; ``client`` made it."""

    id: str
    map: Map
    source: str
    lock: threading.Lock
    fog: Fog | None = None
    fog_radius: int = -1
    client: str = ""
    fog_explored: dict[str, Any] = field(default_factory=dict)


def _in_process(fn: Callable[..., R], *args: Any, what: str = "") -> R:
    return fn(*args)


class BoardStore:
    """A small, thread-safe LRU of boards by session id.

    Each client (the ``client`` id a board is added under; the page's own id
    from its cookie) keeps at most ``per_client`` boards: its own new board
    replaces its own least recently used one. Past ``capacity`` boards in all,
    the least recently used board of the client holding the most goes. So a
    flood of requests from one client never evicts another client's boards.

    ``run_heavy(fn, *args)`` runs a heavy job: in this process unless the
    application gave the store a worker (see ``wargrid.serve.worker``).

    >>> s = BoardStore(capacity=1)
    >>> a = s.add(Map(SquareGrid(2, 2)), source="test")
    >>> b = s.add(Map(SquareGrid(2, 2)), source="test")
    >>> len(s), s.get(b.id) is b
    (1, True)
    """

    def __init__(
        self, capacity: int = 32, *, per_client: int | None = None, run_heavy: Callable[..., Any] = _in_process
    ) -> None:
        if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
            raise ArgumentError(f"capacity must be an integer >= 1, got {capacity!r}")
        per = capacity if per_client is None else per_client
        if isinstance(per, bool) or not isinstance(per, int) or not 1 <= per <= capacity:
            raise ArgumentError(f"per_client must be an integer in 1..capacity ({capacity}), got {per_client!r}")
        self.capacity = capacity
        self.per_client = per
        self.run_heavy = run_heavy
        self._boards: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._boards)

    def add(self, m: Map, *, source: str, client: str = "") -> Session:
        """Keep ``m`` under a new random session id for ``client``; returns the session."""
        s = Session(secrets.token_urlsafe(12), m, source, threading.Lock(), client=client)
        with self._lock:
            mine = [k for k, v in self._boards.items() if v.client == client]
            for k in mine[: max(0, len(mine) - self.per_client + 1)]:
                del self._boards[k]
            self._boards[s.id] = s
            while len(self._boards) > self.capacity:
                counts = Counter(v.client for v in self._boards.values())
                most = max(counts.values())
                del self._boards[next(k for k, v in self._boards.items() if counts[v.client] == most)]
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
                    f"unknown session {session!r}: the server keeps the {self.per_client} most recent boards of a page; "
                    "make a new board",
                )
            self._boards.move_to_end(session)
            return s

    def client(self, client: str) -> ClientBoards:
        """The store as one client sees it: boards it adds are its own."""
        return ClientBoards(self, client)


class ClientBoards:
    """A ``BoardStore`` seen by one client: ``add`` files boards under the client's id.

    >>> store = BoardStore(capacity=4, per_client=1)
    >>> mine, theirs = store.client("me"), store.client("flood")
    >>> kept = mine.add(Map(SquareGrid(2, 2)), source="test")
    >>> for _ in range(9): _ = theirs.add(Map(SquareGrid(2, 2)), source="test")
    >>> store.get(kept.id) is kept, len(store)
    (True, 2)
    """

    def __init__(self, store: BoardStore, client: str) -> None:
        self.store = store
        self.id = client
        self.capacity = store.capacity
        self.run_heavy = store.run_heavy

    def add(self, m: Map, *, source: str) -> Session:
        """Keep ``m`` under a new session id of this client."""
        return self.store.add(m, source=source, client=self.id)

    def get(self, session: Any) -> Session:
        """The session named ``session`` (see ``BoardStore.get``)."""
        return self.store.get(session)


Boards = BoardStore | ClientBoards
"""What a handler is given: the store, or the store as the requesting client sees it."""


# -- field checks ---------------------------------------------------------------------------

def _short(v: Any) -> str:
    r = repr(v)
    return r if len(r) <= 60 else r[:57] + "..."


def _fields(payload: Any, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> Payload:
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


def _user_error(exc: Exception) -> ApiError:
    return ApiError(400, str(exc) or type(exc).__name__)


# -- boards ---------------------------------------------------------------------------------

_GENERATE_KW: dict[str, _GridKw] = {
    "square-4": {"kind": "square", "diagonal": False},
    "square-8": {"kind": "square", "diagonal": True},
    "hex-flat": {"kind": "hex", "orientation": "flat"},
    "hex-pointy": {"kind": "hex", "orientation": "pointy"},
    "staggered": {"kind": "staggered"},
}


def make_grid(kind: str, width: int, height: int) -> Grid:
    """An empty board of a playground kind.

    >>> make_grid("hex-pointy", 5, 4)
    HexGrid(5, 4, orientation='pointy', offset='odd-r')
    """
    from ..generate import make_grid as grid_of

    _choice(kind, "kind", BOARD_KINDS)
    return grid_of(_int(width, "width", 1, MAX_SIDE), _int(height, "height", 1, MAX_SIDE), **_GENERATE_KW[kind])


def _b64(a: np.ndarray) -> str:
    import base64

    return base64.b64encode(np.ascontiguousarray(a).tobytes()).decode("ascii")


def _lattice(g: Grid) -> list[float] | None:
    """Centres of cells ``(0,0) (1,0) (0,1) (1,1) (2,0) (0,2)`` when they give every centre, else ``None``.

    Every board kind repeats with period 2 in x and y: the centre of ``(x, y)``
    is the centre of ``(x % 2, y % 2)`` plus ``x // 2`` times the step to
    ``(2, 0)`` and ``y // 2`` times the step to ``(0, 2)``. The page rebuilds
    the centres from these twelve numbers; a board where that fails sends them all.
    """
    cx, cy = g.centers_of(np.array([0, 1, 0, 1, 2, 0]), np.array([0, 0, 1, 1, 0, 2]))
    base = np.stack([cx[:4], cy[:4]], axis=1)
    ex, ey = np.array([cx[4] - cx[0], cy[4] - cy[0]]), np.array([cx[5] - cx[0], cy[5] - cy[0]])
    ids = np.arange(g.size, dtype=np.int64)
    x, y = ids % g.width, ids // g.width
    ax, ay = g.centers_of(x, y)
    px = base[(x % 2) + 2 * (y % 2)] + np.outer(x // 2, ex) + np.outer(y // 2, ey)
    if not np.allclose(px, np.stack([ax, ay], axis=1), atol=1e-6):
        return None
    return [round(float(v), 9) for v in np.concatenate([np.stack([cx, cy], axis=1).ravel()])]


def describe_board(s: Session | Map, session: str | None = None, *, layers: str = "lists") -> BoardAnswer:
    """Everything the page needs to draw a board: geometry, terrain ids and the terrain table.

    ``centers`` is a flat ``[cx0, cy0, cx1, cy1, ...]`` list by cell id in drawing
    units; a cell's polygon is its centre plus each of ``corners``. ``costs``
    gives each movement class's entry cost by terrain id (``None``: impassable;
    a cell with an overlay costs what its overlay costs).

    ``layers="binary"`` (what the page asks for) sends the layers compactly:
    ``terrain`` and ``overlay`` (255: none) as base64 ``uint8``, ``valid`` as
    base64 ``uint8`` or ``None``, and ``centers`` as the twelve numbers of
    ``_lattice`` (or, failing that, base64 little-endian ``float32`` pairs).

    >>> d = describe_board(Map(SquareGrid(2, 1)))
    >>> d["centers"], d["corners"][0], d["bounds"]
    ([0.5, 0.5, 1.5, 0.5], [-0.5, -0.5], [0.0, 0.0, 2.0, 1.0])
    """
    if isinstance(s, Session):
        m, session, source = s.map, s.id, s.source
    else:
        m, source = s, ""
    g = m.grid
    binary = _choice(layers, "layers", LAYERS) == "binary"
    lattice = _lattice(g) if binary else None
    centers: Any
    if lattice is not None:
        centers = lattice
    else:
        ids = np.arange(g.size, dtype=np.int64)
        cx, cy = g.centers_of(ids % g.width, ids // g.width)
        pairs = np.stack([cx, cy], axis=1).ravel()
        centers = _b64(pairs.astype("<f4")) if binary else np.round(pairs, 4).tolist()
    terrain: Any = m.terrain.ravel()
    overlay: Any = m.overlay.ravel()
    valid: Any = None if g.mask.all() else g.mask.ravel()
    if binary:
        terrain, overlay = _b64(terrain.astype(np.uint8)), _b64(overlay.astype(np.int16).astype(np.uint8))
        valid = None if valid is None else _b64(valid.astype(np.uint8))
    else:
        terrain, overlay = terrain.astype(int).tolist(), overlay.astype(int).tolist()
        valid = None if valid is None else valid.astype(int).tolist()
    cost = m.terrains.cost_matrix()
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
        "centers": centers,
        "bounds": [round(v, 6) for v in g.bounds()],
        "valid": valid,
        "terrain": terrain,
        "overlay": overlay,
        "terrains": [
            {"id": i, "name": t.name, "symbol": t.symbol, "color": t.color, "blocks_sight": t.blocks_sight}
            for i, t in enumerate(m.terrains)
        ],
        "classes": list(m.terrains.classes),
        "costs": {c: [_num(v) for v in cost[:, k]] for k, c in enumerate(m.terrains.classes)},
        "version": m.version,
        "layers": "binary-lattice" if lattice is not None else ("binary" if binary else "lists"),
        "neighbors": _neighbor_rule(g),
        "elevation": None if m.elevation is None else [_num(v) for v in np.round(m.elevation.ravel(), 3).tolist()],
    }


def _neighbor_rule(g: Grid) -> dict[str, Any]:
    """The topology's neighbour rule for the page: ``dx[parity][d]``, ``dy[parity][d]``, which parity, wrap, step lengths.

    ``parity`` 0: none, 1: the cell's column (``x & 1``), 2: its row (``y & 1``).
    """
    t = g.topology
    return {"dx": t.dx.tolist(), "dy": t.dy.tolist(), "parity": int(t.parity_mode), "wrap": bool(t.wrap),
            "step": [float(v) for v in t.step], "corner": t.corner.tolist(), "corner_rule": int(t.corner_rule)}


def _board_map(kind: str, width: int, height: int, seed: int) -> Map:
    """A seeded strategy-game board from ``wargrid.generate``."""
    from ..generate import generate

    return _call(generate, width, height, seed=seed, **_GENERATE_KW[kind])


def h_board(store: Boards, payload: Any) -> BoardAnswer:
    """``POST /api/board``: a new seeded board ``{kind, width, height, seed}``; returns its description."""
    p = _fields(payload, ("kind", "width", "height"), ("seed", "layers"))
    kind = _choice(p["kind"], "kind", BOARD_KINDS)
    width = _int(p["width"], "width", 1, MAX_SIDE)
    height = _int(p["height"], "height", 1, MAX_SIDE)
    if width * height > MAX_CELLS:  # pragma: no cover - implied by MAX_SIDE today
        raise ApiError(400, f"width * height must be at most {MAX_CELLS} cells, got {width} x {height}")
    seed = _int(p.get("seed", 0), "seed", 0, MAX_SEED)
    layers = _choice(p.get("layers", "lists"), "layers", LAYERS)
    m = _board_map(kind, width, height, seed)
    return describe_board(store.add(m, source=f"{kind} {width}x{height} seed {seed}"), layers=layers)


def h_get_board(store: Boards, payload: Any) -> BoardAnswer:
    """``POST /api/board/get``: the description of a session's board ``{session, layers?}``."""
    p = _fields(payload, ("session",), ("layers",))
    s = store.get(p["session"])
    layers = _choice(p.get("layers", "lists"), "layers", LAYERS)
    with s.lock:
        return describe_board(s, layers=layers)


# -- uploads --------------------------------------------------------------------------------

UPLOAD_FORMATS = ("auto", "wargrid", "movingai", "tiled", "wesnoth")


def _sniff(name: str, text: str) -> str:
    low = name.lower()
    head = text.lstrip()[:200]
    if low.endswith((".tmx", ".tmj")) or head.startswith("<?xml") or head.startswith("<map") or '"tiledversion"' in text[:2000]:
        return "tiled"
    first = next((line for line in text[:4000].splitlines() if line.strip()), "")
    if head.startswith(("border_size=", "usage=")) or (low.endswith(".map") and "," in first and not head.startswith("type ")):
        return "wesnoth"  # a Wesnoth map: a header, or rows of comma-separated terrain codes
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


def _tiled_tilesets_embedded(text: str) -> None:
    """Refuse a Tiled upload that names an external tileset file: an upload may not make the server open paths.

    Image sources are fine (the reader never opens images); the error names the tileset file the map needs.
    """

    def refuse(source: object) -> ApiError:
        return ApiError(400, f"uploaded Tiled maps must embed their tilesets: this map needs the tileset file {str(source)[:200]!r}, "
                             "which an upload cannot carry (in Tiled: Map > Embed Tilesets, then upload again)")

    if text.lstrip().startswith("<"):
        import defusedxml.ElementTree as DET
        from defusedxml import DefusedXmlException
        from xml.etree.ElementTree import ParseError

        from .._xml import blank_doctype

        try:  # an old file's harmless DOCTYPE line is blanked, as the reader does
            root = DET.fromstring(blank_doctype(text.encode("utf-8")), forbid_dtd=True)
        except (DefusedXmlException, ParseError, ValueError) as exc:
            raise ApiError(400, f"the uploaded Tiled map is not a safe, well-formed XML file: {exc}") from None
        for el in root.iter("tileset"):
            if el.get("source") is not None:
                raise refuse(el.get("source"))
        return
    import json

    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ApiError(400, f"the uploaded Tiled map is not valid JSON: {exc}") from None
    sets = data.get("tilesets", []) if isinstance(data, dict) else []
    if not isinstance(sets, list):
        raise ApiError(400, "the uploaded Tiled map's tilesets must be a list")
    for t in sets:
        if not isinstance(t, dict) or "source" in t:
            raise refuse(t.get("source") if isinstance(t, dict) else t)


_READERS: dict[str, tuple[Callable[..., Map], dict[str, int]]] = {
    "movingai": (load_movingai, {}),  # the header's size is checked before the file is read
    "tiled": (load_tiled, {"max_cells": MAX_CELLS}),
    "wesnoth": (load_wesnoth, {"max_cells": MAX_CELLS}),
    "wargrid": (load_map, {"max_cells": MAX_CELLS}),
}


def _read_upload(fmt: str, name: str, text: str, *, terrain_property: str = "terrain") -> Map:
    import os
    import tempfile

    if fmt == "movingai":
        size = _header_size(text)
        if size and (size[0] > MAX_SIDE or size[1] > MAX_SIDE):
            raise ApiError(
                413, f"the uploaded map is {size[0]} x {size[1]}; the playground shows boards up to {MAX_SIDE} x {MAX_SIDE}"
            )
    if fmt == "tiled":
        _tiled_tilesets_embedded(text)
    reader, sizes = _READERS[fmt]
    kw: dict[str, Any] = dict(sizes)
    if fmt == "tiled":
        kw["terrain_property"] = terrain_property
    suffix = {"movingai": ".map", "wesnoth": ".map", "tiled": ".tmx" if text.lstrip().startswith("<") else ".tmj"}.get(fmt, ".json")
    # the readers take a path: the text goes to a fresh private folder under a fixed name (never the user's name)
    with tempfile.TemporaryDirectory(prefix="wargrid-upload-") as folder:
        path = os.path.join(folder, "upload" + suffix)
        if fmt == "tiled":
            kw["root"] = folder  # nothing outside the upload's own folder is ever opened
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        try:
            m = reader(path, **kw)
        except (TypeError, ValueError, IndexError, KeyError, UnicodeError, OSError, RecursionError) as exc:
            msg = str(exc).replace(path, name)
            raise ApiError(400, f"could not read {name!r} as a {fmt} map: {msg}") from None
    return _check_loaded(m, fmt)


def h_upload(store: Boards, payload: Any) -> BoardAnswer:
    """``POST /api/upload``: a board from a map file's text ``{name, text, format?, terrain_property?, layers?}``.

    Reads wargrid's own format, Moving AI, Tiled and Wesnoth maps. ``terrain_property``
    names the Tiled tile property that holds a tile's terrain (default ``terrain``).
    """
    p = _fields(payload, ("name", "text"), ("format", "terrain_property", "layers"))
    name, text = p["name"], p["text"]
    if not isinstance(name, str) or len(name) > 200:
        raise ApiError(400, f"name must be the file's name (a string of at most 200 characters), got {_short(name)}")
    if not isinstance(text, str) or not text.strip():
        raise ApiError(400, "text must be the map file's contents as a non-empty string")
    if len(text) > MAX_UPLOAD_CHARS:
        raise ApiError(413, f"text holds {len(text)} characters; at most {MAX_UPLOAD_CHARS} are allowed")
    fmt = _choice(p.get("format", "auto"), "format", UPLOAD_FORMATS)
    prop = p.get("terrain_property") or "terrain"
    if not isinstance(prop, str) or len(prop) > 100:
        raise ApiError(400, f"terrain_property must be a tile property name (at most 100 characters), got {_short(prop)}")
    layers = _choice(p.get("layers", "lists"), "layers", LAYERS)
    if fmt == "auto":
        fmt = _sniff(name, text)
    m = _read_upload(fmt, name, text, terrain_property=prop)
    return describe_board(store.add(m, source=f"{fmt} file {name}"), layers=layers)


# -- queries ------------------------------------------------------------------------------

def _num(v: Any) -> float | None:
    f = float(v)
    return None if math.isinf(f) or math.isnan(f) else round(f, 6)


def _ids(mask: np.ndarray) -> list[int]:
    return np.flatnonzero(np.asarray(mask, dtype=bool).ravel()).astype(int).tolist()


def _units(v: Any, name: str, grid: Grid) -> list[tuple[int, int]]:
    return _cells([] if v is None else v, name, grid, MAX_UNITS)


def _others(p: Payload, grid: Grid) -> _Others:
    """The ``enemies`` and ``friends`` keyword arguments of a path or range query (left out when empty)."""
    out: _Others = {}
    enemies = _units(p.get("enemies"), "enemies", grid)
    if enemies:
        out["enemies"] = enemies
    friends = _units(p.get("friends"), "friends", grid)
    if friends:
        out["friends"] = friends
    return out


def _call(f: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Call into wargrid with input this module has already checked.

    A ``ValueError`` left is about the request itself (an impossible split, a
    goal no unit may stand on): 400. Anything else is a fault, answered 500.
    """
    try:
        return f(*args, **kwargs)
    except ValueError as exc:
        raise _user_error(exc) from None


def h_path(store: Boards, payload: Any) -> PathAnswer:
    """``POST /api/path``: the A* path ``{session, start, goal, unit?, enemies?, friends?}``; ``cells`` and ``cost`` are null when unreachable.

    Enemy units block their cells and stop a move next to them; friendly units
    may be passed through but not stopped on.
    """
    p = _fields(payload, ("session", "start", "goal"), ("unit", "enemies", "friends"))
    s = store.get(p["session"])
    with s.lock:
        m = s.map
        start = _cell(p["start"], "start", m.grid)
        goal = _cell(p["goal"], "goal", m.grid)
        unit = _unit(p.get("unit"), m)
        others = _others(p, m.grid)
        reason = _stuck(m, unit, start=start, goal=goal)
        r = None if reason else _call(m.path, start, goal, unit=unit, **others)
        if r is None:
            return {"cells": None, "cost": None, "so_far": None, "unit": unit,
                    "reason": reason or f"no route for {unit} joins {list(start)} and {list(goal)}"}
        cf = m.cost_field(unit=unit)
    cells = [[int(c[0]), int(c[1])] for c in r.cells]
    so_far = _costs_so_far(m.grid, cf, r.cells)
    if len(so_far) and abs(so_far[-1] - float(r.cost)) > 1e-6:  # edge costs or climbing: only the total is known
        so_far = np.full(len(cells), np.nan)
        so_far[0], so_far[-1] = 0.0, float(r.cost)
    return {"cells": cells, "cost": _num(r.cost), "so_far": [_num(v) for v in so_far], "unit": unit, "reason": None}


def _costs_so_far(g: Grid, field: Any, cells: Sequence[tuple[int, int]]) -> np.ndarray:
    """The cost paid on reaching each cell of a path: step lengths (square-8 diagonals) and edge costs included."""
    from ..movement.search import padded_id, path_cost

    topo = g.topology
    ids = np.array([padded_id(topo, (int(x), int(y))) for x, y in cells], dtype=np.int64)
    steps = [path_cost(topo, field, ids[k:k + 2]) for k in range(len(ids) - 1)]
    return np.concatenate([[0.0], np.cumsum(steps)]) if len(ids) else np.zeros(0)


def _stuck(m: Map, unit: str, **cells: tuple[int, int]) -> str | None:
    """Why a move cannot start or end: the named cell is impassable for ``unit`` (``None``: it is not)."""
    for role, (x, y) in cells.items():
        if not math.isfinite(float(m.costs(unit=unit)[y, x])):
            t = m.terrains[int(m.overlay[y, x]) if m.overlay[y, x] >= 0 else int(m.terrain[y, x])].name
            return f"the {role} {[x, y]} is {t}, impassable for {unit}"
    return None


def _points_left(r: MovementRange) -> np.ndarray:
    """Points left per cell, ``-inf`` where the unit cannot end its move."""
    return np.where(r.reachable, r.remaining, -np.inf)


def _zoc_cells(grid: Grid, enemies: list[tuple[int, int]], reached: np.ndarray) -> list[list[int]]:
    """Reached cells next to an enemy: zones of control, where a move ends."""
    out = set()
    for e in enemies:
        for x, y in grid.neighbors(e):
            if reached[y, x]:
                out.add((x, y))
    return [[x, y] for x, y in sorted(out, key=lambda c: (c[1], c[0]))]


def h_range(store: Boards, payload: Any) -> RangeAnswer:
    """``POST /api/range``: cells reachable from ``start`` within ``budget`` ``{session, start, budget, unit?, enemies?, friends?}``.

    ``cells`` lists ``[x, y, points_left]``; ``zoc`` the reached cells where an
    enemy's zone of control ends the move (their points left are 0: the move
    stops there). ``reason`` says why a range holds only its start, if the
    start is impassable for the class.
    """
    p = _fields(payload, ("session", "start", "budget"), ("unit", "enemies", "friends"))
    s = store.get(p["session"])
    with s.lock:
        m = s.map
        g = m.grid
        start = _cell(p["start"], "start", g)
        budget = _number(p["budget"], "budget", 0.0, MAX_BUDGET)
        unit = _unit(p.get("unit"), m)
        others = _others(p, g)
        enemies = others.get("enemies", [])
        reason = _stuck(m, unit, start=start)
        left = _points_left(_call(m.movement_range, start, budget, unit=unit, **others))
        reached = left >= 0
        zoc = _zoc_cells(g, enemies, reached)
    for x, y in zoc:  # a move into an enemy's zone of control ends there: no points are left to spend
        left[y, x] = 0.0
    ys, xs = np.nonzero(reached)
    cells = [[int(x), int(y), round(float(left[y, x]), 6)] for x, y in zip(xs, ys)]
    return {"cells": cells, "zoc": zoc, "budget": budget, "unit": unit, "reason": reason}


def h_zones(store: Boards, payload: Any) -> ZonesAnswer:
    """``POST /api/zones``: connectivity zones of a movement class ``{session, unit?}``; ``labels`` by cell id, -1: none."""
    p = _fields(payload, ("session",), ("unit",))
    s = store.get(p["session"])
    with s.lock:
        m = s.map
        unit = _unit(p.get("unit"), m)
        labels = _call(m.zones, unit=unit).astype(np.int64)
    return {"labels": labels.ravel().tolist(), "count": int(len(np.unique(labels[labels >= 0]))), "unit": unit}


def _light(v: Any, origin: tuple[int, int]) -> tuple[float, float]:
    """A float point inside the square tile ``origin`` (tile ``(x, y)`` covers ``[x, x + 1] x [y, y + 1]``)."""
    if not isinstance(v, list) or len(v) != 2:
        raise ApiError(400, f"point must be an [x, y] pair of numbers inside the origin tile, got {_short(v)}")
    x, y = origin
    px = _number(v[0], "point[0] (x)", x, x + 1)
    py = _number(v[1], "point[1] (y)", y, y + 1)
    return px, py


POLYGON_BLOCKERS = 80
"""Most sight-blocking cells the visibility polygon is built against on one hover: its work grows with
their square, so past them the polygon is drawn for a smaller disc (the answer's ``polygon_radius``)."""


def sight_walls(m: Map, origin: tuple[int, int]) -> np.ndarray:
    """The cells that block the view from ``origin``: the rule of ``Map.fov`` (sight-blocking terrain, seen over
    when it stands strictly lower than the viewer's cell), as a ``(height, width)`` bool layer.

    >>> m = Map(SquareGrid(3, 1)); m.set_terrain([(1, 0)], "forest")
    >>> sight_walls(m, (0, 0)).tolist(), sight_walls(m, (1, 0)).tolist()
    ([[False, True, False]], [[False, True, False]])
    """
    walls = np.array(m.blocks_sight(), dtype=bool, copy=True)
    if m.elevation is not None:
        walls &= ~(m.elevation < m.elevation[origin[1], origin[0]])
    return walls


def _polygon_radius(g: Grid, walls: np.ndarray, point: tuple[float, float], radius: float) -> float:
    """``radius``, or the smaller one whose disc around ``point`` holds ``POLYGON_BLOCKERS`` blocking cells."""
    ys, xs = np.nonzero(walls)
    if len(xs) <= POLYGON_BLOCKERS:
        return radius
    cx, cy = g.centers_of(xs, ys)
    d = np.sort(np.hypot(cx - point[0], cy - point[1]))
    if d[POLYGON_BLOCKERS] > radius + 1.0:
        return radius
    return max(0.0, float(d[POLYGON_BLOCKERS]) - 1.0)


def h_fov(store: Boards, payload: Any) -> FovAnswer:
    """``POST /api/fov``: what ``origin`` sees within ``radius`` ``{session, origin, radius, point?}``.

    On square and hex boards the answer also carries the visibility polygon of
    a light at ``point`` (square boards: a float point in the origin tile;
    default, and always on hex boards, its centre), clipped to the disc that
    holds the cells in range (``radius + 0.5`` cell spacings around it). Both
    follow one rule (``sight_walls``): sight-blocking terrain blocks unless it
    stands strictly lower than the viewer's cell. The polygon's disc shrinks
    (``polygon_radius``, in drawing units) where more than
    ``POLYGON_BLOCKERS`` blocking cells lie in it, so a hover stays quick.
    """
    from ..sight.polygon import visibility_polygon

    p = _fields(payload, ("session", "origin", "radius"), ("point",))
    s = store.get(p["session"])
    with s.lock:
        m = s.map
        origin = _cell(p["origin"], "origin", m.grid)
        radius = _int(p["radius"], "radius", 0, MAX_RADIUS)
        square = isinstance(m.grid, SquareGrid)
        light = _light(p["point"], origin) if p.get("point") is not None and square else None
        seen = _call(m.fov, origin, radius=radius)
        polygon = None
        reach = None
        full = None
        if square or isinstance(m.grid, HexGrid):
            point = light if light is not None else m.grid.center(origin)
            spacing = 1.0 if square else math.sqrt(3.0)  # between neighbouring centres (hexes of corner radius 1)
            walls = sight_walls(m, origin)
            full = (radius + 0.5) * spacing
            reach = _polygon_radius(m.grid, walls, point, full)
            pts = _call(visibility_polygon, m.grid, walls, point, radius=reach).points
            polygon = (np.round(pts.astype(np.float64).reshape(-1, 2), 4) + 0.0).tolist()  # + 0.0: no -0.0
    return {"visible": _ids(seen), "polygon": polygon, "origin": list(origin), "radius": radius,
            "polygon_radius": reach, "sight_radius": full}


TEAMS = ("blue", "red")
"""The playground's two teams (``team`` 0 and 1 in requests)."""


def _team_units(v: Any, grid: Grid) -> dict[int, tuple[int, int, int]]:
    if not isinstance(v, list):
        raise ApiError(400, f"units must be a list of [id, x, y, team] entries, got {_short(v)}")
    if len(v) > MAX_UNITS:
        raise ApiError(400, f"units holds {len(v)} units; at most {MAX_UNITS} are allowed")
    out: dict[int, tuple[int, int, int]] = {}
    for i, u in enumerate(v):
        if not isinstance(u, list) or len(u) != 4:
            raise ApiError(400, f"units[{i}] must be an [id, x, y, team] list, got {_short(u)}")
        uid = _int(u[0], f"units[{i}] id", 0, 10**9)
        x, y = _cell(u[1:3], f"units[{i}] cell", grid)
        team = _int(u[3], f"units[{i}] team", 0, len(TEAMS) - 1)
        if uid in out:
            raise ApiError(400, f"units[{i}] repeats unit id {uid}; unit ids must be unique")
        out[uid] = (x, y, team)
    return out


def h_fog(store: Boards, payload: Any) -> FogAnswer:
    """``POST /api/fog``: the fog of war of ``team`` ``{session, units, team, radius}``.

    ``units`` lists every unit on the board as ``[id, x, y, team]`` (team 0 blue,
    1 red). The session keeps its fog between requests, so a unit that moves
    leaves explored cells behind it: ``visible`` are the cells the team sees
    now, ``explored`` those it has seen.
    """
    p = _fields(payload, ("session", "units", "team", "radius"))
    s = store.get(p["session"])
    with s.lock:
        m = s.map
        units = _team_units(p["units"], m.grid)
        team = _int(p["team"], "team", 0, len(TEAMS) - 1)
        radius = _int(p["radius"], "radius", 0, MAX_RADIUS)
        if s.fog is None or s.fog_radius != radius:
            if s.fog is not None:  # a new radius keeps what each team has explored
                for name in TEAMS:
                    s.fog_explored[name] = s.fog_explored.get(name, False) | s.fog.explored(name)
            s.fog = _call(m.fog, list(TEAMS), radius=radius)
            s.fog_radius = radius
        fog = s.fog
        now = fog.units
        for uid in [k for k in now if k not in units or TEAMS.index(now[k][0]) != units[k][2]]:
            fog.remove(uid)
            del now[uid]
        for uid, (x, y, t) in units.items():
            if uid not in now:
                _call(fog.place, uid, TEAMS[t], (x, y))
            elif now[uid][1] != (x, y):
                _call(fog.move, uid, (x, y))
        visible = fog.visible(TEAMS[team])
        explored = fog.explored(TEAMS[team]) | s.fog_explored.get(TEAMS[team], False)
    return {"visible": _ids(visible), "explored": _ids(explored), "team": team, "radius": radius}


PARTITION_MODES = ("compact", "scattered")


def _report_json(rep: PartitionReport) -> ReportAnswer:
    """The fairness report as JSON: arrays as lists by player, ``inf`` as ``null``, starts as ``[x, y]``."""
    def floats(a: np.ndarray) -> list[float | None]:
        return [_num(v) for v in a.tolist()]

    return {
        "players": rep.players,
        "mode": rep.mode,
        "method": rep.method,
        "cells": rep.cells.tolist(),
        "weight": floats(rep.weight),
        "spread": _num(rep.spread),
        "tolerance": _num(rep.tolerance),
        "largest_chunk": rep.largest_chunk.tolist(),
        "chunks": rep.chunks.tolist(),
        "perimeter": rep.perimeter.tolist(),
        "compactness": floats(rep.compactness),
        "starts": [None if c is None else list(c) for c in rep.starts],
        "mean_distance": floats(rep.mean_distance),
        "balanced": bool(rep.balanced),
    }


def partition_answer(board: bytes, players: int, mode: str, max_chunk: int | None, unit: str) -> PartitionAnswer:
    """The answer of a partition request on a pickled map (a job the server may run in its worker process)."""
    import pickle

    m = pickle.loads(board)
    try:
        r = m.partition(players, unit=unit, mode=mode, max_chunk=max_chunk)
    except (ValueError, RuntimeError) as exc:  # infeasible, or no split found within the search budget
        raise _user_error(exc) from None
    owners = np.asarray(r.owners, dtype=np.int64)
    rep = _report_json(r.report)
    sizes = [int((owners == k).sum()) for k in range(players)]
    starts = rep.get("starts") or []
    return {"owners": owners.ravel().tolist(), "report": rep, "sizes": sizes, "seeds": starts, "players": players, "mode": mode}


def h_partition(store: Boards, payload: Any) -> PartitionAnswer:
    """``POST /api/partition``: split the land between ``players`` ``{session, players, mode?, max_chunk?, unit?}``.

    ``owners`` is a player index by cell id (-1: no one's); ``report`` the fairness report.
    The split runs as a heavy job (``BoardStore.run_heavy``) on a copy of the board.
    """
    import pickle

    p = _fields(payload, ("session", "players"), ("mode", "max_chunk", "unit"))
    s = store.get(p["session"])
    with s.lock:
        m = s.map
        players = _int(p["players"], "players", 1, MAX_PLAYERS)
        mode = _choice(p.get("mode") or "compact", "mode", PARTITION_MODES)
        unit = _unit(p.get("unit"), m)
        max_chunk = _int(p.get("max_chunk", 4), "max_chunk", 1, MAX_CELLS) if mode == "scattered" else None
        board = pickle.dumps(m, protocol=pickle.HIGHEST_PROTOCOL)
    answer: PartitionAnswer = store.run_heavy(partition_answer, board, players, mode, max_chunk, unit, what="the partition")
    return answer


def h_meta(store: Boards, payload: Any) -> MetaAnswer:
    """``GET /api/meta``: board kinds, limits, upload formats, partition modes and teams."""
    return {
        "kinds": list(BOARD_KINDS),
        "max_side": MAX_SIDE,
        "max_cells": MAX_CELLS,
        "upload_formats": list(UPLOAD_FORMATS),
        "partition_modes": list(PARTITION_MODES),
        "teams": list(TEAMS),
        "sessions": store.capacity,
        "limits": {
            "width": [1, MAX_SIDE], "height": [1, MAX_SIDE], "seed": [0, MAX_SEED], "players": [1, MAX_PLAYERS],
            "radius": [0, MAX_RADIUS], "budget": [0, MAX_BUDGET], "max_chunk": [1, MAX_CELLS],
        },
    }


def h_paint(store: Boards, payload: Any) -> PaintAnswer:
    """``POST /api/paint``: set the ground of ``cells`` to ``terrain`` ``{session, cells, terrain, overlay?}``.

    Their overlay becomes ``overlay`` (a terrain name, such as a road; default
    none: what is painted is what the cell becomes). Returns the new terrain
    and overlay ids of those cells.
    """
    p = _fields(payload, ("session", "cells", "terrain"), ("overlay",))
    s = store.get(p["session"])
    with s.lock:
        m = s.map
        cells = _cells(p["cells"], "cells", m.grid, MAX_PAINT)
        names = tuple(m.terrains.names)
        name = _choice(p["terrain"], "terrain", names)
        over = None if p.get("overlay") is None else _choice(p["overlay"], "overlay", names)
        if cells:
            if over is not None or any(m.overlay[y, x] >= 0 for x, y in cells):
                m.set_overlay(cells, over)
            m.set_terrain(cells, name)
        return {
            "cells": [list(c) for c in cells],
            "terrain": [int(m.terrain[y, x]) for x, y in cells],
            "overlay": [int(m.overlay[y, x]) for x, y in cells],
            "version": m.version,
        }


EXPORT_FORMATS = ("wargrid", "tmx")


def h_export(store: Boards, payload: Any) -> ExportAnswer:
    """``POST /api/export``: the board as a file's text ``{session, format}`` (``wargrid`` JSON or Tiled ``tmx``)."""
    import os
    import tempfile

    from ..io.native import save_map
    from ..io.tiled import save_tiled

    p = _fields(payload, ("session", "format"))
    s = store.get(p["session"])
    fmt = _choice(p["format"], "format", EXPORT_FORMATS)
    name = "board.json" if fmt == "wargrid" else "board.tmx"
    with tempfile.TemporaryDirectory(prefix="wargrid-export-") as folder:
        path = os.path.join(folder, name)
        with s.lock:
            if fmt == "wargrid":
                save_map(s.map, path)
            else:
                save_tiled(s.map, path, tileset_image=False)
        with open(path, encoding="utf-8") as f:
            text = f.read()
    kind = "application/json" if fmt == "wargrid" else "application/xml"
    return {"name": name, "type": kind, "text": text}


def explain_search(
    m: Map, start: tuple[int, int], goal: tuple[int, int] | None, unit: str, *, algorithm: str = "astar", early: bool = True,
    arrays: str = "lists",
) -> ExplainAnswer:
    """One search from ``start`` step by step, for the page's step-through and search comparison.

    The search is ``wargrid.movement.trace.trace_search`` over ``m``'s cost
    field: ``algorithm='astar'`` walks the board as ``Map.path`` does (same
    costs, diagonal steps, corner rule, edge costs and ties). ``order`` holds
    cell ids as the search closes them; ``came_from[i]`` is the cell
    ``order[i]`` was reached from (-1 for the start), ``cost[i]`` its cost
    from the start (``g``) and ``h[i]`` its heuristic steps to the goal
    (weighed by ``hscale``); ``opened`` / ``opened_at`` list the cells in the
    order they entered the open set, with how many cells were closed then.
    ``arrays="binary"`` sends each of them as base64 little-endian ``int32`` or
    ``float32`` values (a search over a big board is quicker to write and
    read than as JSON lists).

    >>> m = Map(SquareGrid(3, 1))
    >>> e = explain_search(m, (0, 0), (2, 0), "foot")
    >>> e["order"], e["came_from"], e["cost"], e["goal_reached"]
    ([0, 1, 2], [-1, 0, 1], [0.0, 2.0, 4.0], True)
    """
    from ..movement.trace import trace_search

    t = trace_search(m.cost_field(unit=unit), start, goal, algorithm=algorithm, early_exit=early)
    common = {"hscale": t.hscale, "goal_reached": t.goal_reached, "unit": unit, "algorithm": algorithm, "early": early}
    if _choice(arrays, "arrays", LAYERS) == "binary":
        ints = {k: _b64(np.asarray(v, dtype="<i4")) for k, v in
                (("order", t.order), ("came_from", t.parent), ("opened", t.opened), ("opened_at", t.opened_at))}
        floats = {k: _b64(np.asarray(v, dtype="<f4")) for k, v in (("cost", t.g), ("h", t.h))}
        return cast(ExplainAnswer, {**ints, **floats, **common, "arrays": "binary"})
    return cast(ExplainAnswer, {
        "order": t.order.tolist(), "came_from": t.parent.tolist(), "cost": [_num(v) for v in t.g.tolist()],
        "h": t.h.tolist(), "opened": t.opened.tolist(), "opened_at": t.opened_at.tolist(), **common, "arrays": "lists",
    })


def h_explain(store: Boards, payload: Any) -> ExplainAnswer:
    """``POST /api/explain``: a search step by step ``{session, start, goal?, unit?, algorithm?, early?, arrays?}``.

    ``algorithm``: one of ``SEARCHES`` (default 'astar', ``Map.path``'s
    search); ``early`` (default true): stop when the goal is closed;
    ``arrays``: 'lists' (default) or 'binary' (see ``explain_search``).
    """
    p = _fields(payload, ("session", "start"), ("goal", "unit", "algorithm", "early", "arrays"))
    s = store.get(p["session"])
    with s.lock:
        m = s.map
        start = _cell(p["start"], "start", m.grid)
        goal = None if p.get("goal") is None else _cell(p["goal"], "goal", m.grid)
        unit = _unit(p.get("unit"), m)
        algorithm = _choice(p.get("algorithm", "astar"), "algorithm", SEARCHES)
        early = p.get("early", True)
        if not isinstance(early, bool):
            raise ApiError(400, f"early must be true or false, got {_short(early)}")
        reason = _stuck(m, unit, start=start)
        if reason:
            raise ApiError(400, reason)
        arrays = _choice(p.get("arrays", "lists"), "arrays", LAYERS)
        return explain_search(m, start, goal, unit, algorithm=algorithm, early=early, arrays=arrays)


def h_field(store: Boards, payload: Any) -> FieldAnswer:
    """``POST /api/field``: ``Map.flow_field`` toward ``goal`` ``{session, goal, unit?}``, compactly (see ``FieldAnswer``).

    >>> store = BoardStore()
    >>> s = store.add(Map(SquareGrid(3, 1)), source="test")
    >>> a = h_field(store, {"session": s.id, "goal": [2, 0]})
    >>> import base64
    >>> np.frombuffer(base64.b64decode(a["cost"]), "<f4").tolist(), np.frombuffer(base64.b64decode(a["next"]), "i1").tolist()
    ([4.0, 2.0, 0.0], [0, 0, -1])
    """
    p = _fields(payload, ("session", "goal"), ("unit",))
    s = store.get(p["session"])
    with s.lock:
        m = s.map
        goal = _cell(p["goal"], "goal", m.grid)
        unit = _unit(p.get("unit"), m)
        reason = _stuck(m, unit, goal=goal)
        if reason:
            raise ApiError(400, reason)
        f = _call(m.flow_field, goal, unit=unit)
    cost = np.asarray(f.cost, dtype=np.float64)
    finite = np.isfinite(cost)
    return {"goal": list(goal), "cost": _b64(cost.astype("<f4")), "next": _b64(np.asarray(f.next, dtype="i1")),
            "top": float(cost[finite].max()) if finite.any() else 0.0, "reached": int(finite.sum()), "unit": unit}


def warm_partition() -> None:
    """Split a tiny board of every kind once, so that the partition kernels are loaded (a worker's warm-up)."""
    from ..generate import make_grid as grid_of

    for kind in BOARD_KINDS:
        Map(grid_of(4, 3, **_GENERATE_KW[kind])).partition(2)


def warm_up() -> list[str]:
    """Compile (or load from the disk cache) every capability's kernels now (``wargrid.warm_up``, one at a time).

    The server calls this in a background thread at start, so a person's
    first clicks do not wait for compilation. Returns the capabilities that
    failed.

    >>> warm_up() == []
    True
    """
    from ..warmup import CAPABILITIES, warm_up as warm

    failed = []
    for name in CAPABILITIES:
        try:
            warm(name)
        except Exception:  # noqa: BLE001 - a warm-up failure shows again, clearly, on the real request
            failed.append(name)
    return failed


HANDLERS: dict[str, Callable[[Boards, Any], Answer]] = {
    "meta": h_meta,
    "board": h_board,
    "board/get": h_get_board,
    "upload": h_upload,
    "paint": h_paint,
    "path": h_path,
    "range": h_range,
    "zones": h_zones,
    "fov": h_fov,
    "fog": h_fog,
    "partition": h_partition,
    "export": h_export,
    "explain": h_explain,
    "field": h_field,
}
"""Endpoint name (the part after ``/api/``) to handler."""
