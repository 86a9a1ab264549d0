"""Turning vehicles: a facing, a turn rate, paths that pay for turning, and continuous turn tracks.

A unit faces one of the board's directions (``0..ndir-1``: 8 on square-8
boards, 4 on square-4, 6 on hex and staggered boards; the numbering of
``Grid.neighbor``). It moves only straight ahead, one cell in the direction
it faces, and turns one facing step at a time (either way):

- a move into cell ``q`` takes ``(step length * cost of q + edge cost) / speed``
  ticks (``speed``: movement points per tick);
- a turn of one facing step takes ``1 / turn_rate`` ticks (``turn_rate``:
  facing steps per tick, > 0);
- ``pivot=True`` (tanks): the unit may turn on the spot. ``pivot=False``
  (wheeled vehicles that cannot turn on the spot): it turns only while it
  moves - a step in direction ``facing +- 1`` ends facing that way and takes
  the longer of the move and the turn - so a U-turn needs room.

``turning_path`` is the fastest way in ticks from a cell and facing to a goal
(optionally with a final facing): Dijkstra over ``(cell, facing)`` states in
a kernel over the padded layout. The state space is ``ndir`` times the board,
and its arrays (52 bytes a state) are kept between queries on boards
of one size: fine for tactical and RTS maps, not for 4096 x 4096 ones.

``TurnPath.track()`` (or ``turn_track`` for any walk of neighbouring cells)
samples the motion in frames of ``min(1, 1 / turn_rate)`` ticks: the position
moves in a straight line between cell centres (drawing units) and the facing
changes by at most one step from one frame to the next; ``heading`` is the
facing as a continuous number during a turn (``2.5`` halfway from 2 to 3).

>>> from wargrid import SquareGrid, Map
>>> m = Map(SquareGrid(4, 3, diagonal=True))
>>> p = turning_path(m.grid, m.cost_field(unit="cavalry"), (0, 1), (3, 1), facing=2, turn_rate=0.5)
>>> p.states[:4], p.time
([((0, 1), 2), ((0, 1), 1), ((0, 1), 0), ((1, 1), 0)], 7.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from .._deprecation import warn_renamed
from ..errors import ArgumentError, ArgumentTypeError, ResourceError
from .._validate import check_cell_pair, check_int, check_real
from ..costs import CostField
from ..grids.boards import Grid
from .._scratch import per_thread
from .search import SearchState
from ..grids.leptons import LEPTONS_PER_CELL

__all__ = ["TurnPath", "TrackPoint", "turning_path", "turn_track", "MIN_TURN_RATE", "MIN_SPEED", "MAX_TRACK_FRAMES"]

MIN_TURN_RATE = 1e-9
"""The slowest turn rate, in facing steps per tick: a facing step in at most a billion ticks (a slower one's
``1 / turn_rate`` overflows a simulation's integer tick count, and a denormal one's is infinite)."""

MIN_SPEED = 1e-9
"""The slowest speed, in movement points per tick (a slower one's ``1 / speed`` may be infinite)."""

MAX_TRACK_FRAMES = 1_000_000
"""The most frames ``TurnPath.track()`` makes; a longer track raises ``ResourceError`` instead of filling memory."""


@dataclass(frozen=True)
class TrackPoint:
    """One frame of a turn track: time in ticks, position in drawing units, facing, continuous heading and
    the position in leptons (``wargrid.rts``: along the board's cell rectangle, 256 to a cell)."""

    t: float
    x: float
    y: float
    facing: int
    heading: float
    lepton: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class TurnPath:
    """A path over ``(cell, facing)`` states: ``states`` in order (a move or a one-step turn between
    neighbours in the list), ``cells`` (the cells entered, no repeats), total ``time`` in ticks and
    ``facing_steps``, the number of facing steps turned (a game turn is another thing: ``Route.turns``)."""

    states: list[tuple[tuple[int, int], int]]
    time: float
    facing_steps: int
    turn_rate: float
    speed: float
    step_times: list[float] = field(repr=False)
    grid: Grid = field(repr=False)
    pivot: bool = True

    @property
    def turns(self) -> int:
        """Deprecated: ``facing_steps`` (``turns`` means game turns elsewhere, as in ``Route.turns``)."""
        warn_renamed("TurnPath.turns", "TurnPath.facing_steps")
        return self.facing_steps

    @property
    def cells(self) -> list[tuple[int, int]]:
        out = [self.states[0][0]]
        for c, _ in self.states[1:]:
            if c != out[-1]:
                out.append(c)
        return out

    def track(self) -> list[TrackPoint]:
        """The motion sampled in frames (see the module text); more than ``MAX_TRACK_FRAMES`` raise ``ResourceError``.

        >>> from wargrid import SquareGrid, Map
        >>> m = Map(SquareGrid(6, 4, diagonal=True))
        >>> p = turning_path(m.grid, m.cost_field(unit="cavalry"), (0, 1), (3, 1), facing=2, turn_rate=0.5)
        >>> t = p.track(); (t[0].x, t[0].y, t[0].facing), (t[-1].t, t[-1].x, t[-1].facing)
        ((0.5, 1.5, 2), (7.0, 3.5, 0))
        """
        return _sample(self.grid, self.states, self.step_times, self.turn_rate)


def check_turn_rate(turn_rate: Any) -> float:
    """A turn rate in facing steps per tick: a finite number > 0.

    >>> check_turn_rate(0.5)
    0.5
    """
    r = check_real(turn_rate, "turn_rate")
    if r <= 0:
        raise ArgumentError(
            f"turn_rate must be > 0 facing steps per tick, got {r}: a unit that cannot turn cannot follow a path "
            "that changes direction"
        )
    if r < MIN_TURN_RATE:
        raise ArgumentError(f"turn_rate must be at least MIN_TURN_RATE = {MIN_TURN_RATE} facing steps per tick, got {r}")
    return r


def _check_speed(speed: Any) -> float:
    v = check_real(speed, "speed")
    if v <= 0:
        raise ArgumentError(f"speed must be > 0 movement points per tick, got {v}")
    if v < MIN_SPEED:
        raise ArgumentError(f"speed must be at least MIN_SPEED = {MIN_SPEED} movement points per tick, got {v}")
    return v


def _check_facing(grid: Grid, facing: Any, name: str) -> int:
    f = check_int(facing, name)
    n = grid.topology.ndir
    if not 0 <= f < n:
        raise ArgumentError(f"{name} must be a board direction in 0..{n - 1}, got {f}")
    return f


def turning_path(
    grid: Grid,
    costs: CostField,
    start: tuple[int, int],
    goal: tuple[int, int],
    *,
    facing: int,
    turn_rate: float,
    speed: float = 1.0,
    final_facing: int | None = None,
    pivot: bool = True,
) -> TurnPath | None:
    """The fastest path in ticks for a unit that starts at ``start`` facing ``facing``; ``None`` if unreachable.

    ``costs`` is the unit class's ``CostField`` (``Map.cost_field(unit=...)``).

    >>> from wargrid import Map, SquareGrid
    >>> m = Map(SquareGrid(3, 3))
    >>> turning_path(m.grid, m.cost_field(unit="cavalry"), (0, 0), (0, 0), facing=0, turn_rate=1, final_facing=2).time
    2.0
    """
    from .._kernels.tactics.turning import facing_search

    start = grid.check_cell(start, "start")
    goal = grid.check_cell(goal, "goal")
    f0 = _check_facing(grid, facing, "facing")
    gf = -1 if final_facing is None else _check_facing(grid, final_facing, "final_facing")
    rate = check_turn_rate(turn_rate)
    v = _check_speed(speed)
    pivot = _check_pivot(pivot)
    t = grid.topology
    cell = np.asarray(costs.cell)
    edge = np.asarray(costs.edge)
    if not np.isfinite(cell[t.padded_id(*start)]):
        raise ArgumentError(f"start {start} is impassable for this unit class")
    sc = _scratch(t.padded_size * t.ndir)
    dist, parent = sc.g, sc.parent
    ends = (t.padded_id(*start), f0, t.padded_id(*goal), gf)
    end = facing_search(cell, edge, t.kernel_bundle, ends, (1.0 / v, 1.0 / rate, int(pivot)), sc.arrays, sc.next_gen())
    if end < 0:
        return None
    chain = [int(end)]
    while parent[chain[-1]] >= 0:
        chain.append(int(parent[chain[-1]]))
    chain.reverse()
    states = []
    for s in chain:
        p, f = divmod(s, t.ndir)
        states.append(((p % t.pw - 1, p // t.pw - 1), f))
    times = [float(dist[b] - dist[a]) for a, b in zip(chain[:-1], chain[1:])]
    facing_steps = sum(1 for a, b in zip(states[:-1], states[1:]) if a[1] != b[1])
    return TurnPath(states, float(dist[end]), facing_steps, rate, v, times, grid, pivot)


def _scratch(n: int) -> SearchState:
    """This thread's search state for ``n`` (cell, facing) states (the last size only: the arrays are large)."""
    return per_thread("turning", n, lambda k: SearchState(k, index_dtype=np.int64), keep=1)


def _check_pivot(pivot: Any) -> bool:
    if not isinstance(pivot, (bool, np.bool_)):
        raise ArgumentTypeError(f"pivot must be True (turns on the spot) or False (turns only while moving), got {pivot!r}")
    return bool(pivot)


def _turn_dir(a: int, b: int, n: int) -> int:
    """+1 or -1: the shorter way from facing ``a`` to ``b`` (+1 on a tie)."""
    return 1 if (b - a) % n <= n // 2 else -1


def turn_track(
    grid: Grid,
    costs: CostField,
    cells: Sequence[tuple[int, int]],
    *,
    facing: int,
    turn_rate: float,
    speed: float = 1.0,
    pivot: bool = True,
) -> TurnPath:
    """A walk of neighbouring ``cells`` (e.g. ``Map.path(...).cells``) driven by a turning unit.

    Before each step the unit turns, the shorter way, to face it (with
    ``pivot=False`` a step may bend the facing by one step only, while
    moving; a sharper bend raises ``ValueError``). Returns a ``TurnPath``
    whose ``track()`` is continuous.

    >>> from wargrid import HexGrid, Map
    >>> m = Map(HexGrid(4, 4))
    >>> p = turn_track(m.grid, m.cost_field(unit="cavalry"), [(0, 0), (1, 0), (1, 1)], facing=0, turn_rate=1)
    >>> p.states, p.time
    ([((0, 0), 0), ((1, 0), 0), ((1, 0), 5), ((1, 1), 5)], 3.0)
    >>> slow = turn_track(m.grid, m.cost_field(unit="cavalry"), [(0, 0), (1, 0), (1, 1)], facing=0, turn_rate=0.5)
    >>> [(q.t, q.facing, q.heading) for q in slow.track()]
    [(0.0, 0, 0.0), (1.0, 0, 0.0), (2.0, 0, 5.5), (3.0, 5, 5.0), (4.0, 5, 5.0)]
    """
    f = _check_facing(grid, facing, "facing")
    rate = check_turn_rate(turn_rate)
    v = _check_speed(speed)
    pivot = _check_pivot(pivot)
    walk = [grid.check_cell(check_cell_pair(c, f"cells[{i}]"), f"cells[{i}]") for i, c in enumerate(cells)]
    if not walk:
        raise ArgumentError("cells must hold at least one cell")
    t = grid.topology
    cell = np.asarray(costs.cell)
    edge = np.asarray(costs.edge)
    states = [(walk[0], f)]
    times: list[float] = []
    for i in range(1, len(walk)):
        a, b = walk[i - 1], walk[i]
        d = next((s.direction for s in grid.steps(a) if s.cell == b), None)
        if d is None:
            raise ArgumentError(f"cells[{i}] {b} is not a neighbour of cells[{i - 1}] {a}")
        bend = (d - f) % t.ndir
        if not pivot and bend not in (0, 1, t.ndir - 1):
            raise ArgumentError(
                f"cells[{i}] {b}: the step from {a} turns {min(bend, t.ndir - bend)} facing steps, and a unit that "
                "cannot turn on the spot (pivot=False) turns one step a move"
            )
        if pivot:
            way = _turn_dir(f, d, t.ndir)
            while f != d:
                f = (f + way) % t.ndir
                states.append((a, f))
                times.append(1.0 / rate)
        c = float(t.step[d]) * float(cell[t.padded_id(*b)])
        if edge.size:
            c += float(edge[t.padded_id(*a) * t.ndir + d])
        if not math.isfinite(c):
            raise ArgumentError(f"cells[{i}] {b} cannot be entered from {a} by this unit class")
        states.append((b, d))
        times.append(c / v if f == d else max(c / v, 1.0 / rate))
        f = d
    turns = sum(1 for a, b in zip(states[:-1], states[1:]) if a[1] != b[1])
    return TurnPath(states, float(sum(times)), turns, rate, v, times, grid, pivot)


def _sample(grid: Grid, states: list[tuple[tuple[int, int], int]], times: list[float], rate: float) -> list[TrackPoint]:
    from ..grids.boards import unwrap_cells

    n = grid.topology.ndir
    cells = [c for c, _ in states]
    vx, vy = unwrap_cells(grid, _dedupe(cells))
    cx, cy = grid.centers_of(vx, vy)
    # per state: its index among distinct cells
    idx = [0]
    for before, after in zip(cells[:-1], cells[1:]):
        idx.append(idx[-1] + (before != after))
    L = LEPTONS_PER_CELL
    lxs = vx * L + L // 2
    lys = vy * L + L // 2
    wrap_l = grid.width * L

    def lep(a: int, b: int, frac: float) -> tuple[int, int]:
        x = int(lxs[a] + math.floor(frac * (lxs[b] - lxs[a])))
        y = int(lys[a] + math.floor(frac * (lys[b] - lys[a])))
        return (x % wrap_l if grid.wrap_x else x, y)

    starts = np.concatenate([[0.0], np.cumsum(times)]) if times else np.zeros(1)
    total = float(starts[-1])
    dt = min(1.0, 1.0 / rate)
    count = total / dt
    if not count < MAX_TRACK_FRAMES:  # an infinite time too
        raise ResourceError(
            f"the track would take {total} ticks in frames of min(1, 1 / turn_rate) = {dt} ticks: more than "
            f"MAX_TRACK_FRAMES = {MAX_TRACK_FRAMES} frames"
        )
    frames = [i * dt for i in range(int(math.ceil(count - 1e-9)))] + [total]
    out = []
    last = len(states) - 1
    for tt in frames:
        k = int(np.searchsorted(starts, tt + 1e-9, side="right")) - 1  # a step ending within 1e-9 is done
        if k >= len(times):
            c, f = idx[last], states[last][1]
            out.append(TrackPoint(tt, float(cx[c]), float(cy[c]), f, float(f), lep(c, c, 0.0)))
            continue
        span = times[k]
        frac = 1.0 if span <= 0 else min(1.0, max(0.0, (tt - starts[k]) / span))
        f0, f1 = states[k][1], states[k + 1][1]
        a, b = idx[k], idx[k + 1]
        x = float(cx[a] + frac * (cx[b] - cx[a]))
        y = float(cy[a] + frac * (cy[b] - cy[a]))
        lp = lep(a, b, frac)
        if f0 == f1:
            out.append(TrackPoint(tt, x, y, f0, float(f0), lp))
        else:
            way = 1 if (f1 - f0) % n == 1 else -1
            out.append(TrackPoint(tt, x, y, f1 if frac >= 1.0 else f0, float((f0 + way * frac) % n), lp))
    return out


def _dedupe(cells: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out = [cells[0]]
    for c in cells[1:]:
        if c != out[-1]:
            out.append(c)
    return out
