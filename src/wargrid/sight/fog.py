"""Fog of war per team, updated incrementally as units move.

Each team keeps a per-cell reference count of how many of its units see the
cell. Placing, moving or removing a unit subtracts its old view and adds its
new one, so only the cells of those two views change, never the whole board.
A cell is *visible* to a team while its count (or an ally's) is above zero,
and *explored* once it has ever been visible; with ``regrow=n`` an explored
cell that nobody sees fades back to unknown ``n`` ticks after it was last
seen. Allies share vision (visible and explored). The spectator view is every
team's vision together.

The classic engines' shroud tools work on the explored layer: ``reveal``
marks an area (or the whole board: a spy's map, a map-reveal crate) as
explored for a team; ``shroud`` sends an area back to unexplored (a gap
generator), except the cells the team or its allies see now; ``shroud_edge``
gives, for drawing, every known cell that borders unknown ones with a bit
mask of the directions in which they lie (8 directions on square boards, 6 on
hex and staggered ones), as tile renderers pick their edge tiles.

>>> import numpy as np
>>> from wargrid import SquareGrid
>>> from wargrid.sight.board import prepare
>>> fog = Fog(prepare(SquareGrid(8, 1), np.zeros((1, 8), dtype=bool)), ["red", "blue"], radius=2)
>>> fog.place("scout", "red", (0, 0))
>>> fog.visible("red").astype(int).tolist()
[[1, 1, 1, 0, 0, 0, 0, 0]]
>>> fog.move("scout", (5, 0))
>>> fog.visible("red").astype(int).tolist(), fog.explored("red").astype(int).tolist()
([[0, 0, 0, 1, 1, 1, 1, 1]], [[1, 1, 1, 1, 1, 1, 1, 1]])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Hashable, Iterable, Sequence, TypeVar

import numpy as np
from numpy.typing import NDArray

from ..errors import ArgumentError, ArgumentTypeError, UnknownError
from ..grids.boards import Grid
from .._display import Shown, overlays_of
from .._validate import check_bool_layer, check_choice, check_int, check_iterable
from .board import SightBoard, kernels
from .fov import _kernel_ids, view_capacity

__all__ = ["Fog", "FogView", "SHROUD_LAYERS", "SHADOW_TILES"]

SHROUD_LAYERS = ("explored", "visible")
"""What ``Fog.shroud_edge`` calls known: explored cells (unknown: never seen or
regrown), or visible ones (unknown: fogged or unexplored)."""

SHADOW_TILES: tuple[int, ...] = (
    -1, 33, 2, 2, 34, 37, 2, 2, 4, 26, 6, 6, 4, 26, 6, 6,
    35, 45, 17, 17, 38, 41, 17, 17, 4, 26, 6, 6, 4, 26, 6, 6,
    8, 21, 10, 10, 27, 31, 10, 10, 12, 23, 14, 14, 12, 23, 14, 14,
    8, 21, 10, 10, 27, 31, 10, 10, 12, 23, 14, 14, 12, 23, 14, 14,
    32, 36, 25, 25, 44, 40, 25, 25, 19, 30, 20, 20, 19, 30, 20, 20,
    39, 43, 29, 29, 42, 46, 29, 29, 19, 30, 20, 20, 19, 30, 20, 20,
    8, 21, 10, 10, 27, 31, 10, 10, 12, 23, 14, 14, 12, 23, 14, 14,
    8, 21, 10, 10, 27, 31, 10, 10, 12, 23, 14, 14, 12, 23, 14, 14,
    1, 1, 3, 3, 16, 16, 3, 3, 5, 5, 7, 7, 5, 5, 7, 7,
    24, 24, 18, 18, 28, 28, 18, 18, 5, 5, 7, 7, 5, 5, 7, 7,
    9, 9, 11, 11, 22, 22, 11, 11, 13, 13, -2, -2, 13, 13, -2, -2,
    9, 9, 11, 11, 22, 22, 11, 11, 13, 13, -2, -2, 13, 13, -2, -2,
    1, 1, 3, 3, 16, 16, 3, 3, 5, 5, 7, 7, 5, 5, 7, 7,
    24, 24, 18, 18, 28, 28, 18, 18, 5, 5, 7, 7, 5, 5, 7, 7,
    9, 9, 11, 11, 22, 22, 11, 11, 13, 13, -2, -2, 13, 13, -2, -2,
    9, 9, 11, 11, 22, 22, 11, 11, 13, 13, -2, -2, 13, 13, -2, -2,
)
"""Red Alert's shroud-edge tile for each of the 256 patterns of unknown neighbours (``Fog.shroud_tiles``).

Indexed by the classic bit order, clockwise from the north-east: ``0x01``
NE, ``0x02`` E, ``0x04`` SE, ``0x08`` S, ``0x10`` SW, ``0x20`` W, ``0x40``
NW, ``0x80`` N. Values are frames of the 47-frame shadow artwork (45 of
them: ``1..46`` but ``15``; frame 0 is never picked), ``-1`` (no unknown neighbour: no edge) and ``-2`` (all four
orthogonal neighbours unknown: no tile fits, the cell is drawn black).
The values are those of ``DisplayClass::Cell_Shadow`` in Red Alert's
DISPLAY.CPP (Electronic Arts' CnC_Remastered_Collection, GPL-3.0).
"""

# the shroud-edge bit k (E, NE, N, NW, W, SW, S, SE) as a classic bit
_CLASSIC_BIT = (0x02, 0x01, 0x80, 0x40, 0x20, 0x10, 0x08, 0x04)
_CLASSIC_INDEX = np.array([sum(b for k, b in enumerate(_CLASSIC_BIT) if m >> k & 1) for m in range(256)],
                          dtype=np.uint8)

_S = TypeVar("_S", bound=np.generic)

_DEFAULT: Any = object()
_BATCH_IDS = 1 << 22  # move_many computes views in one buffer up to this many ids


@dataclass(frozen=True)
class FogView:
    """What a team (or the spectator) knows: ``(height, width)`` boolean layers."""

    visible: NDArray[np.bool_]
    explored: NDArray[np.bool_]


@dataclass
class _Unit:
    team: int
    cell: tuple[int, int]
    radius: int
    view: np.ndarray


class Fog(Shown):
    """Explored and visible layers for several teams, updated as units move.

    ``board`` is a prepared ``SightBoard`` (``Map.fog`` makes one); ``teams``
    the team names; ``radius`` and ``metric`` the default sight of a unit;
    ``regrow`` ``None`` (explored stays explored) or the number of ticks after
    which an unseen explored cell fades back; ``alliances`` pairs of teams that
    share vision. ``source``, when given, is called before each use and
    returns the current board: a board that is not the one in use (or any
    board after ``invalidate()``) makes every unit's view be recomputed.
    ``Map.fog`` passes the map's cached board, which changes only on edits.
    """

    def __init__(
        self,
        board: SightBoard,
        teams: Sequence[str],
        *,
        radius: int | None = 8,
        metric: str | None = None,
        regrow: int | None = None,
        alliances: Iterable[tuple[str, str]] = (),
        source: Callable[[], SightBoard] | None = None,
    ) -> None:
        if not isinstance(board, SightBoard):
            raise ArgumentTypeError(f"board must be a SightBoard (use Map.fog), got {type(board).__name__}")
        if isinstance(teams, str) or not isinstance(teams, Sequence):
            raise ArgumentTypeError(f"teams must be a list of team names, got {teams!r}")
        names = list(teams)
        if not names or not all(isinstance(t, str) for t in names):
            raise ArgumentError(f"teams must be a non-empty list of strings, got {teams!r}")
        if len(set(names)) != len(names):
            raise ArgumentError(f"teams must be distinct, got {teams!r}")
        self.teams = tuple(names)
        self._board = board
        self._source = source
        self._dirty = False
        self._code = board.metric_code(metric)
        board.radius(radius)
        self.radius = radius
        self.metric = metric
        if regrow is not None:
            regrow = check_int(regrow, "regrow")
            if regrow < 0:
                raise ArgumentError(f"regrow must be >= 0 ticks or None, got {regrow}")
        self.regrow = regrow
        size = board.grid.size
        n = len(self.teams)
        self._counts = np.zeros((n, size), dtype=np.int32)
        self._last_seen = np.full((n, size), -1, dtype=np.int64)
        self._group = np.eye(n, dtype=bool)
        self._units: dict[Hashable, _Unit] = {}
        self._edge_neighbours: NDArray[np.int64] | None = None
        self.time = 0
        for pair in alliances:
            self.ally(*pair)

    # -- teams ------------------------------------------------------------------------
    def _team(self, team: Any) -> int:
        if not isinstance(team, Hashable) or team not in self.teams:  # an array is neither (ambiguous truth value)
            raise ArgumentError(f"team must be one of {', '.join(map(repr, self.teams))}; got {team!r}")
        return self.teams.index(team)

    def ally(self, a: str, b: str, *, shared: bool = True) -> None:
        """Make teams ``a`` and ``b`` share vision (or stop sharing with ``shared=False``).

        >>> fog = _example(); fog.place(1, "red", (0, 0)); fog.ally("red", "blue")
        >>> int(fog.visible("blue").sum())
        2
        """
        i, j = self._team(a), self._team(b)
        if i != j:
            self._group[i, j] = self._group[j, i] = bool(shared)

    # -- units ------------------------------------------------------------------------
    def _sync(self) -> None:
        if self._source is None:
            return
        board = self._source()
        if self._dirty or board is not self._board:
            self._dirty = False
            self.set_board(board)

    def _view(self, cell: tuple[int, int], radius: int) -> np.ndarray:
        ids = _kernel_ids(self._board, cell[0], cell[1], radius, self._code)
        return np.unique(ids) if self._board.grid.wrap_x else ids

    def _apply(self, team: int, old: np.ndarray, new: np.ndarray) -> None:
        kernels("fog").fog_apply(self._counts[team], self._last_seen[team], old, new, self.time)

    def place(self, unit: Hashable, team: str, cell: tuple[int, int], *, radius: int | None = _DEFAULT) -> None:
        """Put a new unit of ``team`` at ``cell`` with sight ``radius`` (default: the fog's).

        >>> fog = _example(); fog.place("eye", "blue", (4, 0), radius=1)
        >>> fog.visible("blue").astype(int).tolist()
        [[0, 0, 0, 1, 1, 1, 0, 0]]
        """
        self._sync()
        try:
            hash(unit)  # a tuple holding a list is a Hashable that cannot be hashed
        except TypeError:
            raise ArgumentTypeError(f"unit must be a hashable id (a name or a number), got {type(unit).__name__} {unit!r}") from None
        if unit in self._units:
            raise ArgumentError(f"unit {unit!r} is already placed; use move()")
        t = self._team(team)
        r = self._board.radius(self.radius if radius is _DEFAULT else radius)
        cell = self._board.cell(cell, "cell")
        view = self._view(cell, r)
        self._apply(t, view[:0], view)
        self._units[unit] = _Unit(t, cell, r, view)

    def move(self, unit: Hashable, cell: tuple[int, int]) -> None:
        """Move ``unit`` to ``cell``: only the cells its view gained or lost change.

        >>> fog = _example(); fog.place(1, "red", (0, 0)); fog.move(1, (6, 0))
        >>> fog.visible("red").astype(int).tolist()
        [[0, 0, 0, 0, 0, 1, 1, 1]]
        """
        self._sync()
        u = self._get(unit)
        cell = self._board.cell(cell, "cell")
        view = self._view(cell, u.radius)
        self._apply(u.team, u.view, view)
        u.cell, u.view = cell, view

    def move_many(self, moves: dict[Hashable, tuple[int, int]]) -> None:
        """``move`` for every ``unit: cell`` of ``moves``, all views computed in one kernel call.

        >>> fog = _example(); fog.place(1, "red", (0, 0)); fog.place(2, "red", (7, 0))
        >>> fog.move_many({1: (1, 0), 2: (6, 0)}); fog.units[2]
        ('red', (6, 0))
        """
        self._sync()
        if not isinstance(moves, dict):
            raise ArgumentTypeError(f"moves must be a dict of unit: (x, y), got {type(moves).__name__}")
        units = [self._get(u) for u in moves]
        cells = [self._board.cell(c, f"moves[{u!r}]") for u, c in moves.items()]
        if not units:
            return
        board = self._board
        radii = np.array([u.radius for u in units], dtype=np.int64)
        caps = np.asarray(view_capacity(board, radii, self._code), dtype=np.int64)
        if board.grid.wrap_x or int(caps.sum()) > _BATCH_IDS:
            for u, c in zip(units, cells):
                view = self._view(c, u.radius)
                self._apply(u.team, u.view, view)
                u.cell, u.view = c, view
            return
        k = kernels("fog")
        xs = np.array([c[0] for c in cells], dtype=np.int64)
        ys = np.array([c[1] for c in cells], dtype=np.int64)
        hs = np.ones(len(units)) if board.elevation is None else board.elevation[ys, xs]
        starts = np.zeros(len(units) + 1, dtype=np.int64)
        np.cumsum(caps, out=starts[1:])
        out = np.empty(int(starts[-1]), dtype=np.int64)
        lens = k.fog_views(board.args, self._code, xs, ys, radii, hs, starts, out)
        old = np.concatenate([u.view for u in units])
        old_starts = np.zeros(len(units) + 1, dtype=np.int64)
        np.cumsum([len(u.view) for u in units], out=old_starts[1:])
        teams = np.array([u.team for u in units], dtype=np.int64)
        k.fog_apply_many(self._counts, self._last_seen, teams, old, old_starts, out, starts, lens, self.time)
        for i, (u, c) in enumerate(zip(units, cells)):
            u.cell, u.view = c, out[starts[i]:starts[i] + lens[i]]

    def remove(self, unit: Hashable) -> None:
        """Take ``unit`` off the board; the cells only it saw stop being visible.

        >>> fog = _example(); fog.place(1, "red", (0, 0)); fog.remove(1)
        >>> int(fog.visible("red").sum()), int(fog.explored("red").sum())
        (0, 2)
        """
        self._sync()
        u = self._get(unit)
        self._apply(u.team, u.view, u.view[:0])
        del self._units[unit]

    def _get(self, unit: Hashable) -> _Unit:
        try:
            return self._units[unit]
        except (KeyError, TypeError):
            raise UnknownError(f"unit {unit!r} is not on the board; place() it first") from None

    @property
    def units(self) -> dict[Hashable, tuple[str, tuple[int, int]]]:
        """Every unit with its team and cell."""
        return {k: (self.teams[u.team], u.cell) for k, u in self._units.items()}

    def tick(self, n: int = 1) -> None:
        """Advance time by ``n`` ticks (explored cells regrow fog after ``regrow`` ticks unseen).

        >>> fog = _example(regrow=1); fog.place(1, "red", (0, 0)); fog.move(1, (6, 0)); fog.tick(2)
        >>> fog.explored("red").astype(int).tolist()
        [[0, 0, 0, 0, 0, 1, 1, 1]]
        """
        n = check_int(n, "n")
        if n < 0:
            raise ArgumentError(f"n must be >= 0, got {n}")
        self.time += n

    def invalidate(self) -> None:
        """The board changed: views are recomputed from ``source`` before the next use.

        >>> from wargrid import SquareGrid
        >>> from wargrid.sight.board import prepare
        >>> g, walls = SquareGrid(6, 1), np.zeros((1, 6), dtype=bool)
        >>> fog = Fog(prepare(g, walls), ["red"], radius=3, source=lambda: prepare(g, walls))
        >>> fog.place(1, "red", (0, 0)); walls[0, 2] = True; fog.invalidate()
        >>> fog.visible("red").astype(int).tolist()
        [[1, 1, 1, 0, 0, 0]]
        """
        self._dirty = True

    def set_board(self, board: SightBoard) -> None:
        """Use a new sight board (after map edits): every unit's view is recomputed.

        >>> from wargrid import SquareGrid
        >>> from wargrid.sight.board import prepare
        >>> g, walls = SquareGrid(6, 1), np.zeros((1, 6), dtype=bool)
        >>> fog = Fog(prepare(g, walls), ["red"], radius=3); fog.place(1, "red", (0, 0))
        >>> walls[0, 1] = True; fog.set_board(prepare(g, walls))
        >>> fog.visible("red").astype(int).tolist()
        [[1, 1, 0, 0, 0, 0]]
        """
        if not isinstance(board, SightBoard) or board.grid != self._board.grid:
            raise ArgumentError("board must be a SightBoard of the same grid")
        self._board = board
        for u in self._units.values():
            view = self._view(u.cell, u.radius)
            self._apply(u.team, u.view, view)
            u.view = view

    # -- layers -----------------------------------------------------------------------
    def _teams_of(self, team: str | None) -> NDArray[np.bool_]:
        if team is None:
            return np.ones(len(self.teams), dtype=bool)
        row: NDArray[np.bool_] = self._group[self._team(team)]
        return row

    def _shape(self, flat: NDArray[_S]) -> NDArray[_S]:
        layer: NDArray[_S] = flat.reshape(self._board.grid.shape)
        return layer

    @property
    def grid(self) -> Grid:
        """The board the fog covers."""
        return self._board.grid

    def overlays(self, team: str | None = None) -> list[Any]:
        """What ``team`` knows, to draw over the board: unexplored cells dark, explored ones out of sight grey.

        ``None``: the first team. ``Map.picture(fog)`` and a notebook draw these.

        >>> fog = _example(); fog.place(1, "red", (3, 0))
        >>> [(o.mask.astype(int).tolist(), o.name) for o in fog.overlays()]
        [([[1, 1, 0, 0, 0, 1, 1, 1]], 'unexplored'), ([[0, 0, 0, 0, 0, 0, 0, 0]], 'fogged')]
        """
        return overlays_of(self, team=team)

    def visible(self, team: str | None) -> NDArray[np.bool_]:
        """``(height, width)`` booleans: cells ``team`` or an ally sees now (``None``: any team).

        >>> fog = _example(); fog.place(1, "red", (3, 0))
        >>> fog.visible("red").astype(int).tolist(), int(fog.visible("blue").sum())
        ([[0, 0, 1, 1, 1, 0, 0, 0]], 0)
        """
        self._sync()
        return self._shape(np.any(self._counts[self._teams_of(team)] > 0, axis=0))

    def explored(self, team: str | None) -> NDArray[np.bool_]:
        """``(height, width)`` booleans: cells ``team`` or an ally has seen and not forgotten.

        >>> fog = _example(); fog.place(1, "red", (0, 0)); fog.move(1, (3, 0))
        >>> fog.explored("red").astype(int).tolist()
        [[1, 1, 1, 1, 1, 0, 0, 0]]
        """
        self._sync()
        rows = self._teams_of(team)
        seen = self._last_seen[rows]
        known = seen >= 0
        if self.regrow is not None:
            known &= self.time - seen <= self.regrow
        return self._shape(np.any(known | (self._counts[rows] > 0), axis=0))

    def view(self, *, team: str | None = None) -> FogView:
        """Visible and explored layers of ``team``; ``None`` is the spectator, who sees what anyone sees.

        >>> fog = _example(); fog.place(1, "red", (0, 0)); fog.place(2, "blue", (7, 0))
        >>> fog.view().visible.astype(int).tolist()
        [[1, 1, 0, 0, 0, 0, 1, 1]]
        """
        return FogView(visible=self.visible(team), explored=self.explored(team))

    def spectator(self) -> FogView:
        """The spectator's view: every team's vision together (``view(None)``).

        >>> fog = _example(); fog.place(1, "red", (0, 0)); fog.place(2, "blue", (7, 0))
        >>> fog.spectator().visible.astype(int).tolist()
        [[1, 1, 0, 0, 0, 0, 1, 1]]
        """
        return self.view()

    def counts(self, team: str) -> NDArray[np.int32]:
        """``(height, width)`` number of ``team``'s own units that see each cell.

        >>> fog = _example(); fog.place(1, "red", (2, 0)); fog.place(2, "red", (3, 0))
        >>> fog.counts("red").tolist()
        [[0, 1, 2, 2, 1, 0, 0, 0]]
        """
        self._sync()
        return self._shape(self._counts[self._team(team)].copy())

    # -- shroud tools ------------------------------------------------------------------
    def _area(self, area: Any) -> NDArray[np.bool_]:
        """``area`` (a boolean ``(height, width)`` layer, or an iterable of ``(x, y)`` cells) as flat booleans."""
        g = self._board.grid
        if isinstance(area, np.ndarray):
            return check_bool_layer(area, "area", g.shape).ravel() & g.mask.ravel()
        flat = np.zeros(g.size, dtype=bool)
        for c in check_iterable(area, "area", "a boolean (height, width) layer or a list of (x, y) cells"):
            x, y = g.check_cell(c, "area cell")
            flat[y * g.width + x] = True
        return flat

    def reveal(self, team: str, area: Any = None) -> None:
        """Mark ``area`` as explored for ``team`` (``None``: the whole board), as a spy's map does.

        ``area`` is a boolean ``(height, width)`` layer or an iterable of
        ``(x, y)`` cells. Revealed cells count as seen at the current tick:
        with ``regrow`` they fade back like any other cell nobody sees.
        Another team's map is ``reveal(team, fog.explored(other))``.

        Parameters
        ----------
        team : str
            The team that learns the area (its allies share it).
        area : ndarray of bool or iterable of (int, int), optional
            The cells revealed; ``None`` reveals every cell of the board.

        Raises
        ------
        ValueError
            An unknown team, or a layer of the wrong shape (``ArgumentError``).
        IndexError
            A cell off the board (``CellError``).

        Examples
        --------
        >>> fog = _example(); fog.reveal("red", [(6, 0), (7, 0)])
        >>> fog.explored("red").astype(int).tolist(), int(fog.visible("red").sum())
        ([[0, 0, 0, 0, 0, 0, 1, 1]], 0)
        >>> fog.reveal("blue"); int(fog.explored("blue").sum())
        8
        """
        self._sync()
        t = self._team(team)
        cells = self._board.grid.mask.ravel() if area is None else self._area(area)
        self._last_seen[t, cells] = self.time

    def shroud(self, team: str, area: Any) -> None:
        """Send ``area`` back to unexplored for ``team``, as a gap generator does.

        The rule: every cell of ``area`` that neither ``team`` nor an ally
        sees now is forgotten by ``team`` and by its allies (they share one
        explored layer, so forgetting it for one alone would change
        nothing). A cell one of them sees now stays visible, and explored
        while it is seen; it is remembered again when it is no longer seen.
        The shroud is one-shot: a generator that keeps an area dark calls
        it every tick.

        Parameters
        ----------
        team : str
            The team that forgets the area.
        area : ndarray of bool or iterable of (int, int)
            A boolean ``(height, width)`` layer, or the ``(x, y)`` cells.

        Raises
        ------
        ValueError, IndexError
            As ``reveal``: an unknown team, a layer of the wrong shape, a cell off the board.

        Examples
        --------
        >>> fog = _example(); fog.place(1, "red", (0, 0)); fog.move(1, (3, 0))
        >>> fog.explored("red").astype(int).tolist()
        [[1, 1, 1, 1, 1, 0, 0, 0]]
        >>> fog.shroud("red", [(0, 0), (1, 0), (2, 0), (3, 0)])  # (2, 0) and (3, 0) are seen now
        >>> fog.explored("red").astype(int).tolist()
        [[0, 0, 1, 1, 1, 0, 0, 0]]
        """
        self._sync()
        cells = self._area(area)
        rows = np.flatnonzero(self._teams_of(team))
        seen_now = np.any(self._counts[rows] > 0, axis=0)
        forget = cells & ~seen_now
        for t in rows:
            self._last_seen[t, forget] = -1

    def shroud_edge(self, team: str | None, *, layer: str = "explored") -> NDArray[np.uint8]:
        """``(height, width)`` bit masks for drawing the shroud's edge: which unknown neighbours each known cell has.

        A cell's mask is 0 when it is unknown itself or borders no unknown
        cell; otherwise bit ``k`` is set when the neighbour in direction
        ``k`` is on the board and unknown. Square boards (4 or 8
        directions) always use the 8 directions of ``SQUARE8_DIRECTIONS``:
        bit 0 east, 1 north-east, 2 north, 3 north-west, 4 west, 5
        south-west, 6 south, 7 south-east (``y`` grows down). Hex and
        staggered boards use their 6 directions: bit ``k`` is
        ``grid.neighbor(cell, k)`` (``HEX_DIRECTIONS[k]``). Cells off the
        board or masked out are never unknown neighbours; on a board
        wrapped in x, neighbours across the seam count.

        Parameters
        ----------
        team : str or None
            The team (with its allies); ``None`` is the spectator.
        layer : str
            'explored' (explored against unexplored: the black shroud) or
            'visible' (seen now against not: the grey fog's edge).

        Returns
        -------
        ndarray of uint8, shape ``(height, width)``
            The masks, indexed ``[y, x]``.

        Raises
        ------
        ValueError
            An unknown team or layer (``ArgumentError``).

        Examples
        --------
        >>> fog = _example(); fog.place(1, "red", (2, 0))
        >>> fog.shroud_edge("red").tolist()  # unexplored (0, 0) west of (1, 0): bit 4; (4, 0) east of (3, 0): bit 0
        [[0, 16, 0, 1, 0, 0, 0, 0]]
        """
        check_choice(layer, "layer", SHROUD_LAYERS)
        known = (self.explored(team) if layer == "explored" else self.visible(team)).ravel()
        nb = self._edge_table()
        on = nb >= 0
        unknown = on & ~known[np.where(on, nb, 0)]
        weights = (1 << np.arange(nb.shape[1])).astype(np.uint8)
        bits = (unknown.astype(np.uint8) * weights).sum(axis=1, dtype=np.uint8)
        return self._shape(np.where(known, bits, np.uint8(0)).astype(np.uint8))

    def fix_shroud(self, team: str) -> NDArray[np.bool_]:
        """Explore the unknown cells the classic shroud cannot draw, as the classic ``Map_Cell`` does; returns them.

        The classic engines draw the shroud's edge with a fixed set of edge
        tiles, which has none for a one-cell-wide gap. Each time they map a
        cell, their ``Map_Cell`` looks at its unmapped neighbours and maps
        those that would need a missing tile, recursively (Command &
        Conquer's ``Map_Cell`` with ``Cell_Shadow``, DISPLAY.CPP). The rule,
        for an unknown cell of a square board:

        - two opposite orthogonal neighbours (north and south, or east and
          west) are explored: it is explored (an isolated hole, a one-cell
          wide channel or a 2-cell pocket fill in);
        - no orthogonal neighbour is explored and two or more diagonal ones
          are: it is explored;
        - otherwise it stays unknown (one explored orthogonal neighbour, or
          two at a corner, have edge tiles).

        Cells explored this way can make more cells due: the rule runs in
        rounds (each explores every cell due against the layer as the round
        found it) until none is. The classic recursion explores in the order
        cells were mapped, which the second rule can depend on; rounds give
        one answer whatever the order. On hex and staggered boards the same idea uses the 6
        directions: an unknown cell with two opposite neighbours (``k`` and
        ``k + 3``) explored is explored. Neighbours off the board or masked
        out count as unknown; on a board wrapped in x, neighbours across the
        seam count. Red Alert's own ``Map_Cell`` keeps Command & Conquer's
        recursion but not this rule (its ``Cell_Shadow`` answers black for
        every unmapped cell): it leaves such gaps and draws a known cell
        with no fitting tile black instead (``shroud_tiles``' ``-2``). The
        cells are explored as ``reveal`` does (for ``team``
        and its allies, seen at the current tick). Call it after a
        ``shroud`` or when the explored layer changed, before drawing.

        Parameters
        ----------
        team : str
            The team whose explored layer is fixed up (its allies share it).

        Returns
        -------
        ndarray of bool, shape ``(height, width)``
            The cells explored by the fix-up.

        Raises
        ------
        ValueError
            An unknown team (``ArgumentError``).

        Examples
        --------
        >>> fog = _example(); fog.reveal("red", [(1, 0), (3, 0), (4, 0), (7, 0)])
        >>> fog.fix_shroud("red").astype(int).tolist()  # (2, 0) lies between explored (1, 0) and (3, 0)
        [[0, 0, 1, 0, 0, 0, 0, 0]]
        >>> fog.explored("red").astype(int).tolist()
        [[0, 1, 1, 1, 1, 0, 0, 1]]
        """
        self._team(team)
        g = self._board.grid
        known = self.explored(team).ravel().copy()
        nb = self._edge_table()
        done = kernels("fog").shroud_fixup(known, g.mask.ravel().copy(), nb, nb.shape[1] == 8)
        flat = np.zeros(g.size, dtype=bool)
        flat[done] = True
        if done.shape[0]:
            self.reveal(team, self._shape(flat))
        return self._shape(flat)

    def shroud_tiles(self, team: str | None, *, layer: str = "explored") -> NDArray[np.int8]:
        """``(height, width)`` Red Alert shroud-edge tile numbers, as its renderer picks them (square boards).

        A known cell whose unknown neighbours (``shroud_edge``'s bits, in
        the classic bit order) form pattern ``i`` gets ``SHADOW_TILES[i]``:
        a frame ``1..46`` of the 47-frame edge tiles, ``-1`` when it borders no
        unknown cell, ``-2`` when its four orthogonal neighbours are all
        unknown (no tile: drawn black). Unknown cells are ``-2`` (black), as
        in Red Alert's ``Cell_Shadow``. Neighbours off the board or masked
        out are not unknown, as cells outside the classic radar area. After
        ``fix_shroud`` no unknown cell lies between two known ones, the
        patterns the tile set was drawn for. The tile set is square: hex and
        staggered boards have no classic tiles (use ``shroud_edge``'s bits).

        Parameters
        ----------
        team : str or None
            The team (with its allies); ``None`` is the spectator.
        layer : str
            'explored' or 'visible', as ``shroud_edge``.

        Returns
        -------
        ndarray of int8, shape ``(height, width)``
            The tile numbers, indexed ``[y, x]``.

        Raises
        ------
        ValueError
            An unknown team or layer, or a hex or staggered board (``ArgumentError``).

        Examples
        --------
        >>> fog = _example(); fog.reveal("red", [(1, 0), (2, 0), (3, 0)])
        >>> fog.shroud_tiles("red").tolist()  # (1, 0): unknown west (tile 8); (3, 0): east (tile 2)
        [[-2, 8, -1, 2, -2, -2, -2, -2]]
        """
        if self._edge_table().shape[1] != 8:
            raise ArgumentError("shroud_tiles needs a square board: the classic edge tiles are square "
                                "(use shroud_edge's bits on hex and staggered boards)")
        bits = self.shroud_edge(team, layer=layer)
        known = self.explored(team) if layer == "explored" else self.visible(team)
        tiles = np.asarray(SHADOW_TILES, dtype=np.int8)[_CLASSIC_INDEX[bits]]
        return np.where(known, tiles, np.int8(-2)).astype(np.int8)

    def _edge_table(self) -> NDArray[np.int64]:
        """``(size, 6 or 8)`` neighbour ids in the shroud-edge bit order (``-1``: none)."""
        if self._edge_neighbours is None:
            from ..grids.boards import SquareGrid

            g = self._board.grid
            if isinstance(g, SquareGrid) and not g.diagonal:
                g = SquareGrid(g.width, g.height, diagonal=True, wrap_x=g.wrap_x, mask=g.mask)
            self._edge_neighbours = np.asarray(g.neighbor_ids(), dtype=np.int64)
        return self._edge_neighbours


def _example(**options: Any) -> Fog:
    """A fog on an open 8 x 1 strip, units see 1 cell away (for the examples)."""
    from ..grids.boards import SquareGrid
    from .board import prepare

    return Fog(prepare(SquareGrid(8, 1), np.zeros((1, 8), dtype=bool)), ["red", "blue"], radius=1, **options)
