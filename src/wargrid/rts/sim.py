"""Units that move: a tick-based simulation of units following paths over a ``Map``.

Each tick every unit, in a seeded random order, either advances along the step
it is taking (speed in leptons per tick, divided by the terrain cost of the
cell it enters for its movement class) or, standing in a cell, re-checks the
next cell of its route on the entry ladder:

- free: reserve it and start the step;
- a moving unit there: wait (and replan after ``patience`` ticks);
- a friend standing still: ask it to move aside, and wait;
- a destroyable obstacle or a visible enemy: attack it when the unit may
  (``damage > 0``), else replan around it;
- a hidden (cloaked) enemy: it is found; replan;
- impassable for good: replan.

Routes are asked for in pieces of ``piece`` steps (A* on the entry ladder, or
the classic pathfinder) and replanned when a piece runs out, when the way is
closed, and when a map edit touches the route (the simulation subscribes to
the map's events). A unit stops when it is within ``close_enough`` leptons of
its goal. The same seed gives the same run.

>>> from wargrid import Map, SquareGrid
>>> sim = Simulation(Map(SquareGrid(6, 3)), seed=1)
>>> tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=128)
>>> sim.run(100).states()[tank]
'arrived'
>>> sim.unit(tank).cell
(5, 1)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import ArgumentError, ArgumentTypeError, UnknownError
from .._validate import check_choice, check_int, check_seed
from ..grids.board import CostBoard
from .classic import classic_path
from .ladder import Entry, entry_costs, ladder_path
from .leptons import LEPTONS_PER_CELL, octagonal_distance
from .occupancy import Occupancy

__all__ = ["Simulation", "SimUnit", "SimEvent", "SimReport", "UNIT_KINDS", "STATES", "PATHFINDERS"]

UNIT_KINDS = ("infantry", "vehicle", "obstacle", "building")
"""Obstacles can be destroyed; buildings cannot; neither moves."""

STATES = ("idle", "moving", "waiting", "attacking", "arrived", "stuck", "destroyed")
"""What a unit is doing; 'waiting' and 'stuck' come with a reason."""

PATHFINDERS = ("astar", "classic")


@dataclass
class SimUnit:
    """One unit of the simulation (read its fields; change it through ``Simulation``)."""

    uid: int
    kind: str
    unit: str | None
    team: int
    speed: int
    hp: float
    damage: float
    cloaked: bool
    close_enough: int
    cell: tuple[int, int]
    goal: tuple[int, int] | None = None
    state: str = "idle"
    reason: str = ""
    next_cell: tuple[int, int] | None = None
    progress: int = 0
    step_len: int = 0
    direction: int = -1
    route: list[tuple[int, int]] = field(default_factory=list)
    plans: list[list[tuple[int, int]]] = field(default_factory=list)
    trail: list[tuple[int, int]] = field(default_factory=list)
    waited: int = 0
    replans: int = 0

    @property
    def mobile(self) -> bool:
        return self.kind in ("infantry", "vehicle") and self.state != "destroyed"


@dataclass(frozen=True)
class SimEvent:
    """Something that happened: the tick, the unit, what, and a detail."""

    tick: int
    uid: int
    what: str
    detail: str = ""


@dataclass(frozen=True)
class SimReport:
    """The run so far: the tick reached and each unit's state, reason and cell."""

    tick: int
    units: tuple[tuple[int, str, str, tuple[int, int]], ...]

    def states(self) -> dict[int, str]:
        """``{uid: state}``.

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=128)
        >>> sim.run(100).states()
        {0: 'arrived'}
        """
        return {u: s for u, s, _, _ in self.units}

    def reasons(self) -> dict[int, str]:
        """``{uid: reason}`` for units that wait or are stuck.

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=128)
        >>> sim.run(100).reasons()
        {}
        """
        return {u: r for u, s, r, _ in self.units if r}


class Simulation:
    """Units moving over ``map`` tick by tick (``seed``: the order of units and every tie-break).

    ``pathfinder`` is 'astar' (on the entry ladder) or 'classic'; ``piece``
    the number of steps of route a unit takes before it replans; ``patience``
    the ticks a unit waits for a moving unit before it replans.
    """

    def __init__(
        self,
        map: CostBoard,
        *,
        seed: int | None = 0,
        pathfinder: str = "astar",
        piece: int = 12,
        patience: int = 6,
        leptons: int = LEPTONS_PER_CELL,
    ) -> None:
        if not isinstance(map, CostBoard):
            raise ArgumentTypeError(f"map must be a wargrid Map (a CostBoard), got {type(map).__name__}")
        self.map = map
        self.grid = map.grid
        self.seed = check_seed(seed)
        self.pathfinder = check_choice(pathfinder, "pathfinder", PATHFINDERS)
        self.piece = check_int(piece, "piece")
        if self.piece < 1:
            raise ArgumentError(f"piece must be >= 1, got {self.piece}")
        self.patience = check_int(patience, "patience")
        if self.patience < 0:
            raise ArgumentError(f"patience must be >= 0, got {self.patience}")
        self.rng = np.random.default_rng(self.seed)
        self.occupancy = Occupancy(self.grid, leptons=leptons, seed=self.seed)
        self.leptons = self.occupancy.leptons
        self.units: dict[int, SimUnit] = {}
        self.events: list[SimEvent] = []
        self.map_events: list[Any] = []
        self.revealed: set[tuple[int, int]] = set()  # (team, uid): hidden enemies a team has bumped into
        self.tick = 0
        self._next_uid = 0
        self._listeners = []
        for ev in ("terrain_changed", "overlay_changed", "edge_changed", "elevation_changed", "zones_changed"):
            self._listeners.append((ev, map.on(ev, self._on_map_event)))

    def close(self) -> None:
        """Stop listening to the map's events.

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=128)
        >>> sim.close(); sim.run(100).states()[tank]
        'arrived'
        """
        for ev, cb in self._listeners:
            self.map.off(ev, cb)
        self._listeners = []

    # -- units --------------------------------------------------------------------------
    def add_unit(
        self,
        cell: tuple[int, int],
        *,
        kind: str = "vehicle",
        unit: str | None = None,
        team: int = 0,
        speed: int = 64,
        goal: tuple[int, int] | None = None,
        hp: float = 100.0,
        damage: float = 0.0,
        cloaked: bool = False,
        close_enough: int = 0,
    ) -> int:
        """Put a unit on ``cell`` and return its id.

        ``unit`` is its movement class (``Map.costs``); ``speed`` leptons per
        tick on ground of cost 1 (slower on dearer ground); ``damage`` per
        tick when it attacks (0: it never attacks); ``close_enough`` how near
        its goal, in leptons, counts as arrived. Obstacles and buildings take
        ``cells`` through ``add_obstacle``.
        """
        check_choice(kind, "kind", ("infantry", "vehicle"))
        self.map.unit_class(unit)  # validates the class name
        c = self.grid.check_cell(cell, "cell")
        speed = check_int(speed, "speed")
        if speed <= 0:
            raise ArgumentError(f"speed must be > 0 leptons per tick, got {speed}")
        team = check_int(team, "team")
        close = check_int(close_enough, "close_enough")
        if close < 0:
            raise ArgumentError(f"close_enough must be >= 0 leptons, got {close}")
        hp, damage = self._check_amount(hp, "hp", positive=True), self._check_amount(damage, "damage")
        if not isinstance(cloaked, (bool, np.bool_)):
            raise ArgumentTypeError(f"cloaked must be True or False, got {cloaked!r}")
        if not math.isfinite(self.map.costs(unit=unit)[c[1], c[0]]):
            raise ArgumentError(f"cell {c} is impassable for movement class {self.map.unit_class(unit)!r}")
        uid = self._next_uid
        self.occupancy.place(uid, c, kind=kind)
        self._next_uid += 1
        u = SimUnit(uid, kind, unit, team, speed, hp, damage, bool(cloaked), close, c)
        u.trail.append(c)
        self.units[uid] = u
        if goal is not None:
            self.order(uid, goal)
        return uid

    def add_obstacle(self, cells: list[tuple[int, int]], *, hp: float | None = 100.0) -> int:
        """A wall, a crate or a building on ``cells``: destroyable with ``hp``, permanent with ``hp=None``.

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=128)
        >>> wall = sim.add_obstacle([(3, 3)], hp=None); sim.unit(wall).kind
        'building'
        """
        kind = "building" if hp is None else "obstacle"
        hp_v = math.inf if hp is None else self._check_amount(hp, "hp", positive=True)
        uid = self._next_uid
        self.occupancy.place_building(uid, cells)
        self._next_uid += 1
        self.units[uid] = SimUnit(uid, kind, None, -1, 1, hp_v, 0.0, False, 0, self.grid.check_cell(cells[0], "cells[0]"))
        return uid

    @staticmethod
    def _check_amount(v: Any, name: str, *, positive: bool = False) -> float:
        if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)) or not math.isfinite(v) or v < 0:
            raise ArgumentError(f"{name} must be a finite number >= 0, got {v!r}")
        if positive and v == 0:
            raise ArgumentError(f"{name} must be > 0, got {v!r}")
        return float(v)

    def unit(self, uid: int) -> SimUnit:
        """The unit ``uid``.

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=128)
        >>> sim.unit(tank).cell
        (0, 1)
        """
        u = check_int(uid, "uid")
        if u not in self.units:
            raise UnknownError(f"uid {u} is not a unit of this simulation; known: {sorted(self.units)}")
        return self.units[u]

    def order(self, uid: int, goal: tuple[int, int] | None) -> None:
        """Send unit ``uid`` to ``goal`` (``None``: stop where it is).

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=128)
        >>> sim.order(tank, (0, 3)); _ = sim.run(100); sim.unit(tank).cell
        (0, 3)
        """
        u = self.unit(uid)
        if not u.mobile:
            raise ArgumentError(f"unit {uid} is a {u.kind} ({u.state}) and cannot move")
        u.goal = None if goal is None else self.grid.check_cell(goal, "goal")
        u.route = []
        u.state, u.reason, u.waited = ("idle", "", 0)

    def lepton(self, uid: int) -> tuple[int, int]:
        """Where unit ``uid`` is, in leptons (between two cell centres while it steps).

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=128)
        >>> sim.lepton(tank)
        (128, 384)
        """
        u = self.unit(uid)
        h = self.leptons // 2
        x, y = u.cell[0] * self.leptons + h, u.cell[1] * self.leptons + h
        if u.next_cell is not None and u.step_len:
            dx, dy = self.grid.topology.step_deltas(*u.cell)
            x += int(dx[u.direction]) * self.leptons * u.progress // u.step_len
            y += int(dy[u.direction]) * self.leptons * u.progress // u.step_len
        return x, y

    # -- the ladder as this unit sees the board ----------------------------------------
    def _moving(self, v: SimUnit) -> bool:
        return v.next_cell is not None or (v.goal is not None and v.state in ("idle", "moving", "waiting"))

    def _category(self, u: SimUnit, cell: tuple[int, int], *, truth: bool) -> Entry:
        """The entry category of ``cell`` for ``u`` (``truth``: see hidden enemies as they are)."""
        if not math.isfinite(self.map.costs(unit=u.unit)[cell[1], cell[0]]):
            return Entry.IMPASSABLE
        if self.occupancy.blocker(cell, u.kind, uid=u.uid) is None:
            return Entry.OK
        occ = self.occupancy
        cid = cell[1] * self.grid.width + cell[0]
        ids = set(occ.occupants(cell))
        res = [int(r) for r in (occ.reserved_cell[cid], *occ.reserved_spot[cid]) if r >= 0]
        ids.update(res)
        ids.discard(u.uid)
        others = [self.units[i] for i in sorted(ids)]
        worst = Entry.OK
        for v in others:
            if v.kind == "building":
                e = Entry.IMPASSABLE
            elif v.kind == "obstacle":
                e = Entry.DESTROYABLE_OBSTACLE if u.damage > 0 else Entry.IMPASSABLE
            elif v.team != u.team and v.cloaked and not truth and (u.team, v.uid) not in self.revealed:
                e = Entry.CLOAKED_ENEMY
            elif v.uid in res or self._moving(v):
                e = Entry.MOVING_UNIT
            elif v.team == u.team:
                e = Entry.TEMP_BLOCKED_BY_FRIEND
            else:
                e = Entry.DESTROYABLE_OBSTACLE if u.damage > 0 else Entry.IMPASSABLE
            worst = max(worst, e)
        return worst

    def categories(self, uid: int) -> np.ndarray:
        """``(height, width)`` entry categories of every cell for unit ``uid``, as it sees them.

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=128)
        >>> _ = sim.add_obstacle([(3, 3)], hp=None)
        >>> Entry(sim.categories(tank)[3, 3]).name
        'IMPASSABLE'
        """
        u = self.unit(uid)
        cats = np.where(np.isfinite(self.map.costs(unit=u.unit)), int(Entry.OK), int(Entry.IMPASSABLE)).astype(np.int64)
        occ = self.occupancy
        busy = (occ.vehicle >= 0) | (occ.building >= 0) | (occ.infantry >= 0).any(axis=1)
        busy |= (occ.reserved_cell >= 0) | (occ.reserved_spot >= 0).any(axis=1)
        for cid in np.flatnonzero(busy).tolist():
            cell = (cid % self.grid.width, cid // self.grid.width)
            if cats[cell[1], cell[0]] != Entry.IMPASSABLE:
                cats[cell[1], cell[0]] = self._category(u, cell, truth=False)
        return cats

    # -- planning -----------------------------------------------------------------------
    def _plan(self, u: SimUnit, avoid: tuple[int, int] | None = None, *, report: bool = True) -> bool:
        u.route = []
        if u.goal is None:
            return False
        if u.goal != u.cell and math.isfinite(self.map.costs(unit=u.unit)[u.cell[1], u.cell[0]]):
            if not self.map.connected(u.cell, u.goal, unit=u.unit):
                self._stuck(u, f"goal {u.goal} is not connected to {u.cell} for {self.map.unit_class(u.unit)!r}")
                return False
        cats = self.categories(u.uid)
        if avoid is not None:
            cats[avoid[1], avoid[0]] = Entry.IMPASSABLE
        hi = Entry.TEMP_BLOCKED_BY_FRIEND
        costs = self.map.costs(unit=u.unit)
        cells: list[tuple[int, int]] | None = None
        if self.pathfinder == "astar":
            p = ladder_path(self.grid, costs, cats, u.cell, u.goal, threshold=Entry.MOVING_UNIT, max_threshold=hi)
            cells = None if p is None else p.cells
        else:
            cats[u.cell[1], u.cell[0]] = Entry.OK
            for t in range(int(Entry.MOVING_UNIT), int(hi) + 1):
                cp = classic_path(self.grid, entry_costs(costs, cats, threshold=t), u.cell, u.goal)
                if cp.arrived:
                    cells = cp.cells
                    break
        if cells is None:
            if report:
                self._stuck(u, f"no way to goal {u.goal} on the entry ladder up to {hi.name}")
            return False
        u.plans.append(list(cells))
        u.route = list(cells[1 : self.piece + 1])
        u.replans += 1
        self._log(u, "planned", f"{len(cells) - 1} steps via {cells[len(cells) // 2]}")
        return True

    def _stuck(self, u: SimUnit, why: str) -> None:
        if u.state != "stuck" or u.reason != why:
            self._log(u, "stuck", why)
        u.state, u.reason = "stuck", why

    def _log(self, u: SimUnit, what: str, detail: str = "") -> None:
        self.events.append(SimEvent(self.tick, u.uid, what, detail))

    # -- map events ---------------------------------------------------------------------
    def _on_map_event(self, ev: Any) -> None:
        self.map_events.append(ev)
        if ev.event == "zones_changed":
            touched = None  # a change of connectivity: every unit that is stuck may try again
        else:
            touched = set(ev.cells)
        for u in self.units.values():
            if not u.mobile or u.goal is None:
                continue
            if touched is None:
                if u.state == "stuck":
                    u.state, u.reason = "idle", ""
                continue
            ahead = set(u.route) | ({u.next_cell} if u.next_cell else set())
            if ahead & touched or (ev.event == "elevation_changed") or u.state == "stuck":
                if u.next_cell is not None and not math.isfinite(self.map.costs(unit=u.unit)[u.next_cell[1], u.next_cell[0]]):
                    self.occupancy.release(u.uid)
                    u.next_cell, u.progress = None, 0
                u.route = []
                if u.state == "stuck":
                    u.state, u.reason = "idle", ""
                self._log(u, "replan", f"map changed ({ev.event})")

    # -- running --------------------------------------------------------------------------
    def step(self) -> None:
        """Advance one tick.

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=128)
        >>> sim.step(); sim.tick
        1
        """
        self.tick += 1
        order = [u for u in self.units.values() if u.mobile]
        for i in self.rng.permutation(len(order)).tolist():
            u = order[i]
            if u.state == "destroyed":
                continue
            if u.next_cell is not None:
                self._advance(u)
            else:
                self._decide(u)

    def run(self, ticks: int, *, until_settled: bool = True) -> SimReport:
        """Advance up to ``ticks`` ticks (stopping early once no unit moves or waits when ``until_settled``).

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=128)
        >>> sim.run(100).states()[tank]
        'arrived'
        """
        n = check_int(ticks, "ticks")
        if n < 0:
            raise ArgumentError(f"ticks must be >= 0, got {n}")
        for _ in range(n):
            self.step()
            if until_settled and all(u.state in ("idle", "arrived", "stuck", "destroyed") and u.next_cell is None
                                     for u in self.units.values() if u.mobile):
                if not any(u.goal is not None and u.state == "idle" for u in self.units.values() if u.mobile):
                    break
        return self.report()

    def report(self) -> SimReport:
        """Each unit's state, reason and cell now.

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=128)
        >>> _ = sim.run(100); sim.report().states()[tank], sim.report().units[0][3]
        ('arrived', (5, 1))
        """
        rows = tuple((u.uid, u.state, u.reason, u.cell) for u in self.units.values() if u.kind in ("infantry", "vehicle"))
        return SimReport(self.tick, rows)

    def _speed(self, u: SimUnit, cell: tuple[int, int]) -> int:
        c = float(self.map.costs(unit=u.unit)[cell[1], cell[0]])
        return max(1, int(u.speed / max(c, 1e-9)))

    def _advance(self, u: SimUnit) -> None:
        nxt = u.next_cell
        assert nxt is not None
        u.progress += self._speed(u, nxt)
        if u.progress < u.step_len:
            return
        self.occupancy.place(u.uid, nxt, kind=u.kind, near=self.lepton(u.uid))
        u.cell, u.next_cell, u.progress = nxt, None, 0
        u.trail.append(nxt)
        if self._arrived(u):
            u.state, u.reason = "arrived", ""
            self._log(u, "arrived", str(u.cell))

    def _arrived(self, u: SimUnit) -> bool:
        if u.goal is None:
            return False
        if u.cell == u.goal:
            return True
        h = self.leptons // 2
        g = (u.goal[0] * self.leptons + h, u.goal[1] * self.leptons + h)
        return u.close_enough > 0 and octagonal_distance(self.lepton(u.uid), g) <= u.close_enough

    def _start_step(self, u: SimUnit, nxt: tuple[int, int]) -> bool:
        d = next((st.direction for st in self.grid.steps(u.cell) if st.cell == nxt), None)
        if d is None:
            return False
        spot = self.occupancy.reserve(u.uid, nxt, kind=u.kind, near=self.lepton(u.uid))
        if spot is None:
            return False
        u.next_cell, u.direction, u.progress = nxt, d, 0
        u.step_len = int(round(float(self.grid.topology.step[d]) * self.leptons))
        return True

    def _decide(self, u: SimUnit) -> None:
        if u.goal is None or u.state in ("arrived", "stuck"):
            return
        if self._arrived(u):
            u.state, u.reason, u.route = "arrived", "", []
            self._log(u, "arrived", str(u.cell))
            return
        if not u.route and not self._plan(u):
            return
        nxt = u.route[0]
        e = self._category(u, nxt, truth=False)
        if e == Entry.OK:
            if self._start_step(u, nxt):
                u.route.pop(0)
                u.state, u.reason, u.waited = "moving", "", 0
                self._advance(u)
                return
            e = Entry.IMPASSABLE  # not a neighbour any more: the route is stale
        if e == Entry.IMPASSABLE:
            self._plan(u, avoid=None)
            return
        blocker = self._blocker(u, nxt)
        if e == Entry.CLOAKED_ENEMY:
            if blocker is not None:
                self.revealed.add((u.team, blocker))
            self._log(u, "found", f"hidden enemy {blocker} at {nxt}")
            self._wait_or_replan(u, nxt, f"hidden enemy {blocker} at {nxt}", force=True)
        elif e == Entry.MOVING_UNIT:
            v = self.units[blocker] if blocker is not None else None
            if v is not None and v.team == u.team and v.next_cell is None and v.state == "waiting" and u.waited >= 2:
                # two friends waiting on each other: the one in the way steps aside
                if self._move_aside(v, u):
                    self._log(u, "asked", f"waiting unit {blocker} to move aside from {nxt}")
            if v is not None and v.next_cell is not None:
                u.state, u.reason = "waiting", f"waiting for moving unit {blocker} at {nxt}"  # it will clear the cell
            else:
                self._wait_or_replan(u, nxt, f"waiting for moving unit {blocker} at {nxt}")
        elif e == Entry.TEMP_BLOCKED_BY_FRIEND:
            friend = self.units[blocker] if blocker is not None else None
            if friend is not None and self._move_aside(friend, u):
                self._log(u, "asked", f"unit {blocker} to move aside from {nxt}")
            self._wait_or_replan(u, nxt, f"waiting for friend {blocker} to move aside from {nxt}")
        elif e == Entry.DESTROYABLE_OBSTACLE:
            target = self.units[blocker] if blocker is not None else None
            if target is None or u.damage <= 0:
                self._plan(u, avoid=nxt)
                return
            u.state, u.reason = "attacking", f"attacking {target.kind} {target.uid} at {nxt}"
            target.hp -= u.damage
            if target.hp <= 0:
                self._destroy(target, by=u)

    def _blocker(self, u: SimUnit, cell: tuple[int, int]) -> int | None:
        cid = cell[1] * self.grid.width + cell[0]
        occ = self.occupancy
        for v in occ.occupants(cell) + [int(r) for r in (occ.reserved_cell[cid], *occ.reserved_spot[cid]) if r >= 0]:
            if v != u.uid:
                return v
        return None

    def _wait_or_replan(self, u: SimUnit, cell: tuple[int, int], why: str, *, force: bool = False) -> None:
        u.waited += 1
        u.state, u.reason = "waiting", why
        if force or u.waited > self.patience:
            u.waited = 0
            self._log(u, "replan", why)
            self._plan(u, avoid=cell, report=False)  # no way round: keep waiting for the way to clear

    def _move_aside(self, friend: SimUnit, asker: SimUnit) -> bool:
        if friend.next_cell is not None or not friend.mobile:
            return False
        ahead = set(asker.route[:3])
        steps = self.grid.steps(friend.cell)
        shuffled = [steps[i].cell for i in self.rng.permutation(len(steps)).tolist()]
        # off the asker's way first; along it (ahead of the asker) only when there is no other room
        for c in sorted(shuffled, key=lambda c: c in ahead):
            if c == asker.cell or self._category(friend, c, truth=True) != Entry.OK:
                continue
            if self._start_step(friend, c):
                self._log(friend, "aside", f"to {c} for unit {asker.uid}")
                return True
        return False

    def _destroy(self, target: SimUnit, *, by: SimUnit) -> None:
        self.occupancy.remove(target.uid)
        self.occupancy.release(target.uid)
        target.state, target.reason, target.next_cell = "destroyed", f"destroyed by unit {by.uid}", None
        self._log(by, "destroyed", f"{target.kind} {target.uid}")
        by.state, by.reason = "moving", ""

    # -- checks -------------------------------------------------------------------------
    def check(self) -> None:
        """Raise ``AssertionError`` if two units claim one space or a unit is not where the occupancy says.

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=128)
        >>> _ = sim.run(5); sim.check()
        """
        seen: dict[tuple[int, int], int] = {}
        for c, s, uid in self.occupancy.claims():
            key = (c, s)
            if key in seen and seen[key] != uid:
                raise AssertionError(f"units {seen[key]} and {uid} claim cell {c} spot {s}")
            seen[key] = uid
        for c in {c for c, s in seen}:
            if (c, -1) in seen and len({seen[k] for k in seen if k[0] == c}) > 1:
                raise AssertionError(f"cell {c} is claimed whole and shared")
        for u in self.units.values():
            if u.mobile:
                pos = self.occupancy.position(u.uid)
                if pos is None or pos.cell != u.cell:
                    raise AssertionError(f"unit {u.uid} thinks it is at {u.cell}, the occupancy says {pos}")
