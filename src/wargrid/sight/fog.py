"""Fog of war per team, updated incrementally as units move.

Each team keeps a per-cell reference count of how many of its units see the
cell. Placing, moving or removing a unit subtracts its old view and adds its
new one, so only the cells of those two views change, never the whole board.
A cell is *visible* to a team while its count (or an ally's) is above zero,
and *explored* once it has ever been visible; with ``regrow=n`` an explored
cell that nobody sees fades back to unknown ``n`` ticks after it was last
seen. Allies share vision (visible and explored). The spectator view is every
team's vision together.

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
from .._validate import check_int
from .board import SightBoard, kernels
from .fov import _kernel_ids, view_capacity

__all__ = ["Fog", "FogView"]

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


class Fog:
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
        self.time = 0
        for pair in alliances:
            self.ally(*pair)

    # -- teams ------------------------------------------------------------------------
    def _team(self, team: Any) -> int:
        if team not in self.teams:
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


def _example(**options: Any) -> Fog:
    """A fog on an open 8 x 1 strip, units see 1 cell away (for the examples)."""
    from ..grids.boards import SquareGrid
    from .board import prepare

    return Fog(prepare(SquareGrid(8, 1), np.zeros((1, 8), dtype=bool)), ["red", "blue"], radius=1, **options)
