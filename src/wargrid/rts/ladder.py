"""The entry ladder: "can this unit enter this cell?" as an ordered category with a cost.

The categories, from best to worst: ``OK`` < ``CLOAKED_ENEMY`` (an enemy the
unit cannot see; the cell looks free) < ``MOVING_UNIT`` (will clear by itself)
< ``DESTROYABLE_OBSTACLE`` (a wall or a unit that can be shot away) <
``TEMP_BLOCKED_BY_FRIEND`` (a friend standing still, who can be asked to move)
< ``IMPASSABLE``. A search with threshold ``t`` treats every cell above ``t``
as blocked; when it fails, the threshold rises one step at a time up to a
limit.

What a step costs (``measure``):

- 'classic' (the default, the classic engine's ``Passable_Cell``): the cost
  measures how hard the cell is to get through, not travel time. The
  terrain only says whether the unit may enter; a step into a cell costs
  ``CLASSIC_ENTRY_COSTS[category]``: 1 free or hiding a cloaked enemy, 3
  a moving unit, 8 a destroyable obstacle, 10 a friend standing still.
  With both allowed, the search goes through the obstacle rather than the
  friend.
- 'travel' (an extension): the terrain cost plus ``TRAVEL_ENTRY_COSTS[category]``
  (0, 0, 1, 8, 4): a time-like cost, where a friend asked aside is cheaper
  than a wall shot away.

The classic engine's threat filter is an option of ``ladder_path``: with
``threat`` (a ``(height, width)`` array) and ``max_threat``, cells whose
threat exceeds the limit are blocked.

>>> import numpy as np
>>> from wargrid import SquareGrid
>>> cats = np.zeros((1, 4), dtype=np.int8); cats[0, 2] = Entry.TEMP_BLOCKED_BY_FRIEND
>>> p = ladder_path(SquareGrid(4, 1), np.ones((1, 4)), cats, (0, 0), (3, 0))
>>> p.threshold.name, p.cost, p.tried
('TEMP_BLOCKED_BY_FRIEND', 12.0, (2, 3, 4))
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Mapping

import numpy as np
import numpy.typing as npt

from ..errors import ArgumentError, ArgumentTypeError
from .._validate import check_choice, check_real
from ..grids.boards import Grid

__all__ = ["Entry", "DEFAULT_ENTRY_COSTS", "CLASSIC_ENTRY_COSTS", "TRAVEL_ENTRY_COSTS", "MEASURES", "LadderPath",
           "entry_costs", "ladder_path", "check_entry"]


class Entry(IntEnum):
    """Whether a unit can enter a cell, best first (an ordered ladder)."""

    OK = 0
    CLOAKED_ENEMY = 1
    MOVING_UNIT = 2
    DESTROYABLE_OBSTACLE = 3
    TEMP_BLOCKED_BY_FRIEND = 4
    IMPASSABLE = 5


CLASSIC_ENTRY_COSTS: Mapping[Entry, float] = {
    Entry.OK: 1.0,
    Entry.CLOAKED_ENEMY: 1.0,
    Entry.MOVING_UNIT: 3.0,
    Entry.DESTROYABLE_OBSTACLE: 8.0,
    Entry.TEMP_BLOCKED_BY_FRIEND: 10.0,
    Entry.IMPASSABLE: math.inf,
}
"""'classic': the cost of a step into a cell of each category (the terrain only says passable or not)."""

TRAVEL_ENTRY_COSTS: Mapping[Entry, float] = {
    Entry.OK: 0.0,
    Entry.CLOAKED_ENEMY: 0.0,
    Entry.MOVING_UNIT: 1.0,
    Entry.DESTROYABLE_OBSTACLE: 8.0,
    Entry.TEMP_BLOCKED_BY_FRIEND: 4.0,
    Entry.IMPASSABLE: math.inf,
}
"""'travel': the extra cost of entering a cell of each category, added to the terrain cost."""

DEFAULT_ENTRY_COSTS = CLASSIC_ENTRY_COSTS
"""The table of the default measure ('classic')."""

MEASURES = ("classic", "travel")
"""What a step on the ladder costs: see the module notes."""


def check_entry(value: Any, name: str = "category") -> Entry:
    """An ``Entry`` from an ``Entry``, its integer or its name (any case); ``ValueError`` otherwise.

    >>> check_entry("moving_unit"), check_entry(4).name
    (<Entry.MOVING_UNIT: 2>, 'TEMP_BLOCKED_BY_FRIEND')
    """
    allowed = ", ".join(e.name for e in Entry)
    if isinstance(value, Entry):
        return value
    if isinstance(value, str):
        try:
            return Entry[value.upper()]
        except KeyError:
            raise ArgumentError(f"{name} {value!r} is not a known category; known: {allowed}") from None
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        try:
            return Entry(int(value))
        except ValueError:
            raise ArgumentError(f"{name} {value!r} is not a known category: use 0..5 or one of {allowed}") from None
    raise ArgumentTypeError(f"{name} must be an Entry, its integer or its name, got {type(value).__name__} {value!r}")


def _check_costs(category_costs: Mapping[Any, float] | None, measure: str = "classic") -> np.ndarray:
    table = dict(CLASSIC_ENTRY_COSTS if measure == "classic" else TRAVEL_ENTRY_COSTS)
    if category_costs is not None:
        if not isinstance(category_costs, Mapping):
            raise ArgumentTypeError(f"category_costs must map categories to extra category_costs, got {type(category_costs).__name__}")
        for k, v in category_costs.items():
            e = check_entry(k, "category_costs key")
            if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)) or math.isnan(v) or v < 0:
                raise ArgumentError(f"category_costs[{e.name}] must be a number >= 0 (inf: blocked), got {v!r}")
            table[e] = float(v)
    table[Entry.IMPASSABLE] = math.inf
    return np.array([table[e] for e in Entry], dtype=np.float64)


def _check_categories(grid: Grid, categories: npt.ArrayLike) -> np.ndarray:
    c = np.asarray(categories)
    if c.shape != grid.shape:
        raise ArgumentError(f"categories must have shape (height, width) = {grid.shape}, got {c.shape}")
    if c.dtype.kind not in "iu":
        raise ArgumentTypeError(f"categories must be an integer array of Entry values, got dtype {c.dtype}")
    if c.size and (c.min() < 0 or c.max() > Entry.IMPASSABLE):
        bad = int(c[(c < 0) | (c > Entry.IMPASSABLE)].ravel()[0])
        raise ArgumentError(f"categories holds {bad}, not a known category: use 0..5 ({', '.join(e.name for e in Entry)})")
    return c.astype(np.int64)


def entry_costs(
    cell_costs: np.ndarray, categories: np.ndarray, *, threshold: Any = Entry.MOVING_UNIT,
    category_costs: Mapping[Any, float] | None = None, measure: str = "classic",
) -> np.ndarray:
    """Step costs with the ladder applied: ``inf`` above ``threshold`` (and where the terrain is impassable).

    At or below it, 'classic': the category's cost (``CLASSIC_ENTRY_COSTS``,
    overridden by ``category_costs``); 'travel': the terrain cost plus the
    category's (``TRAVEL_ENTRY_COSTS``).

    >>> entry_costs(np.array([[1.0, 1.0, 2.0]]), np.array([[0, 2, 3]]), threshold="MOVING_UNIT").tolist()
    [[1.0, 3.0, inf]]
    >>> entry_costs(np.array([[1.0, 1.0, 2.0]]), np.array([[0, 2, 3]]), threshold="MOVING_UNIT", measure="travel").tolist()
    [[1.0, 2.0, inf]]
    """
    measure = check_choice(measure, "measure", MEASURES)
    t = check_entry(threshold, "threshold")
    base = np.asarray(cell_costs)
    if base.dtype.kind not in "iuf":
        raise ArgumentTypeError(f"cell_costs must be an array of numbers, got dtype {base.dtype}")
    base = base.astype(np.float64)
    if np.isnan(base).any() or (base < 0).any():
        raise ArgumentError("cell_costs must be >= 0 or inf, got NaN or a negative cost")
    cats = np.asarray(categories)
    if cats.shape != base.shape:
        raise ArgumentError(f"categories must have the shape of cell_costs {base.shape}, got {cats.shape}")
    if cats.dtype.kind not in "iu":
        raise ArgumentTypeError(f"categories must be an integer array of Entry values, got dtype {cats.dtype}")
    if cats.size and (cats.min() < 0 or cats.max() > Entry.IMPASSABLE):  # before the cast: 10**20 stays out of range
        raise ArgumentError(f"categories must hold 0..5 ({', '.join(e.name for e in Entry)})")
    extra = _check_costs(category_costs, measure)
    cats = cats.astype(np.int64)
    step = np.where(np.isfinite(base), extra[cats], np.inf) if measure == "classic" else base + extra[cats]
    return np.where(cats > t, np.inf, step)


@dataclass(frozen=True)
class LadderPath:
    """A path found on the ladder: the cells, the cost, the threshold that let it through and every threshold tried."""

    cells: list[tuple[int, int]]
    cost: float
    threshold: Entry
    tried: tuple[int, ...]


def ladder_path(
    grid: Grid,
    cell_costs: np.ndarray,
    categories: npt.ArrayLike,
    start: tuple[int, int],
    goal: tuple[int, int],
    *,
    threshold: Any = Entry.MOVING_UNIT,
    max_threshold: Any = Entry.TEMP_BLOCKED_BY_FRIEND,
    category_costs: Mapping[Any, float] | None = None,
    nearest: bool = False,
    measure: str = "classic",
    threat: npt.ArrayLike | None = None,
    max_threat: float | None = None,
) -> LadderPath | None:
    """Search with a threshold on the ladder, raising it one step at a time up to ``max_threshold``.

    ``cell_costs`` is the terrain's ``(height, width)`` entry cost (``inf``:
    impassable) and ``categories`` the ``Entry`` of each cell for this unit;
    the start cell's own category is ignored. A step costs what ``measure``
    says (see the module notes; 'classic' by default). With ``threat`` (a
    ``(height, width)`` array of numbers) and ``max_threat``, cells whose
    threat exceeds ``max_threat`` are blocked (the start excepted). Returns
    ``None`` when even ``max_threshold`` finds no way (with
    ``nearest=True``, the way to the reachable cell nearest the goal at
    ``max_threshold``).

    >>> import numpy as np
    >>> from wargrid import SquareGrid
    >>> cats = np.array([[0, 5, 0]])
    >>> ladder_path(SquareGrid(3, 1), np.ones((1, 3)), cats, (0, 0), (2, 0)) is None
    True
    """
    from ..movement.dispatch import path_over_arrays

    if not isinstance(grid, Grid):
        raise ArgumentTypeError(f"grid must be a wargrid Grid, got {type(grid).__name__}")
    s = grid.check_cell(start, "start")
    grid.check_cell(goal, "goal")
    lo = check_entry(threshold, "threshold")
    hi = check_entry(max_threshold, "max_threshold")
    if hi < lo:
        raise ArgumentError(f"max_threshold {hi.name} must not be below threshold {lo.name}")
    if hi == Entry.IMPASSABLE:
        raise ArgumentError("max_threshold must be below IMPASSABLE: impassable cells are never entered")
    cats = _check_categories(grid, categories).copy()
    cats[s[1], s[0]] = Entry.OK
    if not isinstance(nearest, (bool, np.bool_)):
        raise ArgumentTypeError(f"nearest must be True or False, got {nearest!r}")
    measure = check_choice(measure, "measure", MEASURES)
    extra = _check_costs(category_costs, measure)
    base = np.asarray(cell_costs)
    if (threat is None) != (max_threat is None):
        raise ArgumentError("threat and max_threat go together: give both (the filter) or neither")
    if threat is not None:
        danger = np.asarray(threat)
        if danger.shape != grid.shape:
            raise ArgumentError(f"threat must have shape (height, width) = {grid.shape}, got {danger.shape}")
        if danger.dtype.kind not in "iuf" or np.isnan(danger).any():
            raise ArgumentTypeError(f"threat must be an array of numbers (no NaN), got dtype {danger.dtype}")
        limit = check_real(max_threat, "max_threat")
        over = danger > limit
        over[s[1], s[0]] = False
        base = np.where(over, np.inf, np.asarray(base, dtype=np.float64))
    tried = []
    table = {Entry(i): float(v) for i, v in enumerate(extra[:-1])}
    for t in range(int(lo), int(hi) + 1):
        tried.append(t)
        c = entry_costs(base, cats, threshold=t, category_costs=table, measure=measure)
        p = path_over_arrays(grid, c, start, goal, nearest=nearest and t == hi)
        if p is not None and (p.cells[-1] == tuple(goal) or t == hi):
            return LadderPath(list(p.cells), float(p.cost), Entry(t), tuple(tried))
    return None
