"""Influence maps for game AI: who holds the ground, where the front runs, where it is contested.

Every unit spreads its ``strength`` over the cells it can reach within
``radius`` movement points (path cost for its movement class, terrain and
edge costs included), decayed with the path cost ``d``:

- ``decay='linear'``: ``strength * (1 - d / radius)``, cells with ``d < radius``;
- ``decay=f`` (a number, ``0 < f < 1``): ``strength * f ** d``, cells with ``d <= radius``.

A team's influence is the sum over its units. With ``sight`` a unit adds
only to the cells it sees (its field of view within ``ceil(radius /
min_cost)`` cells: no reachable cell lies further), while its paths still
cross unseen ground.

From the team arrays: ``owner`` is the team with the most influence where it
is positive (``-1``: nobody; ties go to the team listed first); ``frontier``
marks owned cells next to a cell another team owns; ``contested`` marks
cells where the second strongest team has at least ``contested_ratio`` times
the strongest's influence; ``tension`` is the sum over teams.

All units run in one kernel call, each its own Dijkstra bounded by the radius
(see ``wargrid._kernels.tactics.influence`` for why not one search a team).

>>> import numpy as np
>>> from wargrid import SquareGrid
>>> from wargrid.costs import CostField
>>> g = SquareGrid(7, 1)
>>> inf = influence_map(g, CostField.from_arrays(g, np.ones((1, 7))), [((0, 0), "red", 4.0), ((6, 0), "blue")], radius=4)
>>> inf.team("red")[0].tolist()
[4.0, 3.0, 2.0, 1.0, 0.0, 0.0, 0.0]
>>> inf.owner[0].tolist(), inf.frontier[0].astype(int).tolist()
([0, 0, 0, 0, 1, 1, 1], [0, 0, 0, 1, 1, 0, 0])
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Hashable, Sequence

import numpy as np
from numpy.typing import NDArray

from ..errors import ArgumentError, ArgumentTypeError, UnknownError
from .._validate import check_real
from .._kernels import load
from .._kernels.bundles import SightArgs
from ..costs import CostField, check_cost_field
from ..grids.boards import Grid, SquareGrid
from ..movement.search import plain_moves
from ..sight.board import SightBoard
from .._display import Shown, overlays_of


__all__ = ["Influence", "influence_map"]

_NO_SIGHT = SightArgs(np.zeros(1, dtype=np.int8), 2.0, 0, 0, 0, 0, 0)
_NO_SIGHT.bh.flags.writeable = False

Cell = tuple[int, int]


@dataclass(frozen=True, eq=False)
class Influence(Shown):
    """Per-team influence over a board, and what an AI reads off it (arrays ``(height, width)``, indexed ``[y, x]``).

    Attributes
    ----------
    teams : tuple
        The teams, in order of first appearance among the units; ``values[i]`` is ``teams[i]``'s.
    values : ndarray of float64, shape ``(len(teams), height, width)``
        Each team's influence.
    owner : ndarray of int64
        Index into ``teams`` of the strongest team where some team has influence, ``-1`` elsewhere.
    frontier : ndarray of bool
        Owned cells with a board neighbour owned by another team.
    contested : ndarray of bool
        Cells where the second strongest team has at least ``contested_ratio`` times the strongest's influence.
    tension : ndarray of float64
        The sum of every team's influence.
    settled : int
        Cells the searches settled, over all units (the work done).
    unit_cells, unit_teams : tuple
        The units' cells and teams, as given (for pictures).
    """

    grid: Grid
    teams: tuple[Hashable, ...]
    values: NDArray[np.float64] = field(repr=False)
    owner: NDArray[np.int64] = field(repr=False)
    frontier: NDArray[np.bool_] = field(repr=False)
    contested: NDArray[np.bool_] = field(repr=False)
    tension: NDArray[np.float64] = field(repr=False)
    settled: int = 0
    unit_cells: tuple[Cell, ...] = field(default=(), repr=False)
    unit_teams: tuple[Hashable, ...] = field(default=(), repr=False)

    def team(self, name: Hashable) -> NDArray[np.float64]:
        """``(height, width)`` influence of team ``name``."""
        try:
            i = self.teams.index(name)
        except ValueError:
            raise UnknownError(f"no unit of team {name!r}; the teams are {list(self.teams)}") from None
        out: NDArray[np.float64] = self.values[i]
        return out

    def overlays(self) -> list[Any]:
        """Render overlays: the owners as regions (borders are the fronts), contested cells hatched dark.

        >>> from wargrid import Map, HexGrid
        >>> inf = Map(HexGrid(6, 4)).influence([((0, 0), "red"), ((5, 3), "blue")], radius=8)
        >>> [o.name for o in inf.overlays()]
        ['owner', 'contested', 'units']
        """
        return overlays_of(self)


def _units(grid: Grid, units: Any) -> tuple[list[Cell], list[Hashable], list[float]]:
    if isinstance(units, (str, bytes)) or not hasattr(units, "__iter__"):
        raise ArgumentTypeError(f"units must be a list of (cell, team) or (cell, team, strength), got {type(units).__name__}")
    cells, teams, strengths = [], [], []
    for i, u in enumerate(units):
        if not isinstance(u, (tuple, list)) or len(u) not in (2, 3):
            raise ArgumentTypeError(f"units[{i}] must be (cell, team) or (cell, team, strength), got {u!r}")
        cells.append(grid.check_cell(u[0], f"units[{i}] cell"))
        try:
            hash(u[1])
        except TypeError:
            raise ArgumentTypeError(f"units[{i}] team must be hashable (a name or a number), got {u[1]!r}") from None
        teams.append(u[1])
        strengths.append(check_real(u[2], f"units[{i}] strength", minimum=0.0) if len(u) == 3 else 1.0)
    return cells, teams, strengths


def _decay(decay: Any) -> tuple[bool, float]:
    if isinstance(decay, str):
        if decay != "linear":
            raise ArgumentError(f"decay must be 'linear' or a number between 0 and 1 (exclusive), got {decay!r}")
        return True, 0.0
    f = check_real(decay, "decay")
    if not 0.0 < f < 1.0:
        raise ArgumentError(f"decay must be 'linear' or a number between 0 and 1 (exclusive), got {f}")
    return False, f


def influence_map(
    grid: Grid,
    costs: CostField,
    units: Sequence[tuple[Any, ...]],
    *,
    decay: str | float = "linear",
    radius: float = 8.0,
    sight: SightBoard | None = None,
    contested_ratio: float = 0.5,
) -> Influence:
    """Per-team influence of ``units`` (see the module notes).

    Parameters
    ----------
    grid : Grid
        The board.
    costs : CostField
        What the units pay to move (one movement class for all).
    units : sequence of ``(cell, team)`` or ``(cell, team, strength)``
        ``cell`` an ``(x, y)`` on the board, ``team`` any hashable name,
        ``strength`` a number >= 0 (default 1).
    decay : 'linear' or float
        The fall-off with path cost (see the module notes).
    radius : float
        The path cost beyond which a unit has no influence (> 0).
    sight : SightBoard, optional
        Count a unit's influence only on the cells it sees on this sight board.
    contested_ratio : float
        In ``(0, 1]``: how close the second team must come to the first for a cell to be contested.

    Returns
    -------
    Influence

    Raises
    ------
    ArgumentError, ArgumentTypeError, CellError
        A malformed unit, a cell off the board, a bad ``decay``, ``radius`` or ``contested_ratio``.

    >>> import numpy as np
    >>> from wargrid import HexGrid
    >>> g = HexGrid(5, 5)
    >>> inf = influence_map(g, CostField.from_arrays(g, np.ones((5, 5))), [((2, 2), 1, 2.0)], decay=0.5, radius=1)
    >>> float(inf.team(1)[2, 2]), float(inf.tension.sum())
    (2.0, 8.0)
    """
    costs = check_cost_field(grid, costs)
    cells, teams, strengths = _units(grid, units)
    linear, factor = _decay(decay)
    radius = check_real(radius, "radius", minimum=0.0)
    if radius <= 0.0:
        raise ArgumentError(f"radius must be > 0 (a path cost), got {radius}")
    ratio = check_real(contested_ratio, "contested_ratio", minimum=0.0)
    if not 0.0 < ratio <= 1.0:
        raise ArgumentError(f"contested_ratio must be in (0, 1], got {ratio}")
    if sight is not None and not (isinstance(sight, SightBoard) and sight.grid == grid):
        raise ArgumentTypeError("sight must be a SightBoard of the same board (wargrid.sight.board.prepare) or None")
    names = list(dict.fromkeys(teams))
    index = {t: i for i, t in enumerate(names)}
    t = grid.topology
    n = t.padded_size
    xs = np.array([c[0] for c in cells], dtype=np.int64)
    ys = np.array([c[1] for c in cells], dtype=np.int64)
    src = (ys + 1) * t.pw + xs + 1
    out = np.zeros(max(1, len(names)) * n, dtype=np.float64)
    settled = 0
    if cells:
        if sight is None:
            sb = _NO_SIGHT  # typed as an open board's, so the kernels compile no signature of their own for it
            reach, heights = 0, np.zeros(len(cells))
        else:
            sb = sight.args
            reach = min(int(math.ceil(radius / costs.min_cost)), sight.whole)
            heights = np.array([sight.viewer_height(x, y) for x, y in cells], dtype=np.float64)
        k = load("tactics.influence")
        moves = plain_moves(t, costs)
        settled = int(k.influence(
            costs.cell, costs.edge, np.zeros(0, dtype=np.uint8) if moves is None else moves, bool(costs.uniform),
            float(costs.min_cost), t.kernel_bundle, src, np.array([index[x] for x in teams], dtype=np.int64),
            np.array(strengths, dtype=np.float64), radius, linear, factor, sb, max(reach, 0), heights,
            isinstance(grid, SquareGrid), out))
    values = np.stack([t.unpad(out[i * n:(i + 1) * n]) for i in range(len(names))]) if names else \
        np.zeros((0,) + grid.shape)
    return _summarise(grid, tuple(names), values, ratio, settled, tuple(cells), tuple(teams))


def _summarise(grid: Grid, names: tuple[Hashable, ...], values: NDArray[np.float64], ratio: float, settled: int,
               cells: tuple[Cell, ...], teams: tuple[Hashable, ...]) -> Influence:
    shape = grid.shape
    if len(names):
        order = np.argsort(-values, axis=0, kind="stable")
        top = np.take_along_axis(values, order[:1], 0)[0]
        second = np.take_along_axis(values, order[1:2], 0)[0] if len(names) > 1 else np.zeros(shape)
        owner = np.where(top > 0.0, order[0], -1).astype(np.int64)
        tension = values.sum(axis=0)
    else:
        top = second = tension = np.zeros(shape)
        owner = np.full(shape, -1, dtype=np.int64)
    contested = (second > 0.0) & (second >= ratio * top)
    flat = owner.ravel()
    nb = grid.neighbor_ids()
    other = np.where(nb >= 0, flat[np.maximum(nb, 0)], -1)
    frontier = ((flat[:, None] >= 0) & (other >= 0) & (other != flat[:, None])).any(axis=1).reshape(shape)
    for a in (values, owner, frontier, contested, tension):
        a.setflags(write=False)
    return Influence(grid, names, values, owner, frontier, contested, tension, settled, cells, teams)
