"""Units that move: a tick-based simulation of units following paths over a ``Map``.

Each tick every unit, in a seeded random order, either advances along the step
it is taking (speed in leptons per tick, divided by the terrain cost of the
cell it enters for its movement class) or, standing in a cell, re-checks the
next cell of its route on the entry ladder:

- free: reserve it and start the step;
- a moving unit there: wait (and look for a way round after ``patience`` ticks);
- a friend standing still: ask it to move aside, and wait;
- a destroyable obstacle or a visible enemy: attack it when the unit may
  (``damage > 0``), else find a way round it;
- a hidden (cloaked) enemy: it is found; find a way round;
- impassable for good: replan.

The crowd rule (``crowd=True``, the default; ``wargrid._kernels.rts.simcrowd``)
comes first in a tick: the standing vehicles that are in each other's way
(blocked by a standing friend vehicle, off their routes, or waiting for a
route) and the standing friends round them choose their next cells together
(PIBT); a unit it leaves standing takes its turn on the ladder as above.

The simulation is data-oriented: unit state lives in two tables (integers and
floats, one row a unit, ``wargrid._kernels.rts.sim``), the tick is one numba
kernel over them and the occupancy arrays, and Python works per tick, not
per unit. The entry category of a cell is read from the occupancy arrays in
constant time, whatever the number of units.

Planning. A route is planned whole on the terrain and the standing obstacles
(buildings closed; destroyable obstacles dearer by their ladder cost for
units that may attack, closed for the others), not on the moving units:

- units with the same goal (and movement class) share one search: from
  ``FIELD_MIN`` units on, one distance field from the goal, which each
  follows down (``descend``); below it one A* each, and units standing on
  the same cell (infantry) share it;
- at most ``plan_budget`` searches run in a tick (a field counts as
  ``FIELD_COST``); the others wait ('waiting for a route') in order of asking;
- a way round a blocked cell is local: a bounded Dijkstra (``repair_nodes``
  cells) on the ladder as the unit sees it, from the unit to the first cell
  of its route beyond the block within ``piece`` steps; only when that fails
  a whole new route, with the blocked cell closed, is searched (and if none
  exists the unit keeps its route and waits for the way to clear).
- a goal on impassable ground (or a building) is replaced by the reachable
  cell nearest to it (the search's ``nearest``); a goal in another zone of
  the unit's movement class leaves the unit stuck (with the reason).

The classic pathfinder (``pathfinder='classic'``) plans in pieces of
``piece`` steps, as the classic engines do.

No deadlocks. The rules, for each meeting:

- head-on in a corridor, and any ring of standing units each wanting the
  next one's cell: they trade places (a swap when two), all stepping as one
  at the slowest one's speed and landing on the same tick; a trade only
  involves cells that each hold one unit of the ring and no reservation;
- a unit in the way with nothing to do (idle, arrived, stuck): it is asked to
  step aside (off the asker's next three steps if it can); when it has no
  room (or when a vehicle stands head-on with soldiers) the asker trades
  places with the cell: two soldiers trade spots; with a vehicle on either
  side both cells are emptied, every unit of the other cell (each with
  nothing to do, or wanting the asker's cell next) takes the asker's cell,
  the asker's cell-mates going along, each soldier keeping its spot; a cell
  whose soldier is trading places takes no one else until the trade lands;
  a friend vehicle that a soldier has asked aside for two turns with no
  free cell beside it is pushed on by the crowd rule, the way it pushes
  vehicles: a chain of vehicles steps towards a free cell; a vehicle with
  no goal so pushed stays where it was put; a soldier whose cell-mates on
  their way elsewhere keep it from trading places asks them aside, and
  where none can step aside they go along in the trade (behind walls the
  soldiers' cell can be the only way out for the vehicle in their way); a
  vehicle on its way whose way by the crowd rule's tables is a cell of
  friend soldiers with nothing to do trades places with them;
- going back (the classic engine's scatter and return): a unit that arrived
  and was then moved off its goal (asked aside, traded away, or stopped in a
  crowd) stays where it is while its goal is held by a unit at home there (a
  unit with no goal, or one standing on its own goal) or by units moving
  through; once the goal is free, or held only by friends with nothing to do
  away from their own home (who are asked aside in turn), it plans its way
  back. No unit goes back to a goal another unit holds as its home, and a
  unit at home is only moved for a unit passing through, so two units never
  chase each other off one goal. When a run has settled every unit whose
  goal is reachable and not another unit's home stands on its goal (the
  ``away`` check of ``benchmarks/bench_rts.py``);
- a unit waiting on a standing friend that waits too asks it aside after two
  ticks, when its id is the lower (two never push each other aside in turn);
- crossing streams: a unit waits while the cell is being left (a stepping
  unit always clears it); after ``patience`` ticks the waiting unit looks for
  a way round (the local repair above);
- crowds at one goal: when the goal cell is held by units at home, a unit
  whose next cell is held by such a unit, or by a friend with nothing to do
  that came for the same goal, steps to any free neighbour nearer the goal;
  when there is none (and none is being left) it stops where it is, arrived
  ('arrived' event ``crowd``): the crowd packs around the goal. A friend in
  the way that came for another goal is asked aside instead (stepping round
  it could lead back and forth for ever), and so is one that holds the goal
  away from its own home;
- no way round a blocked cell (the search with it closed finds nothing, or
  the cell is its goal): the unit keeps its route and waits for the cell to
  clear, saying so.

The classic engine's other rules:

- damaged units are slower (``health_rule``): 'classic' (the default, the
  classic engine's rule) takes a quarter off the speed of a unit at yellow
  health (``hp / max_hp <= CONDITION_YELLOW``, a half) and nothing above it;
  'linear' (an extension) scales the speed with ``hp / max_hp``, never below
  ``HEALTH_FLOOR`` (half speed);
- a unit standing on ground that becomes impassable for it (a bridge falls
  under it) is destroyed (event 'destroyed', detail 'the ground gave way');
  units whose route crosses edited cells replan;
- a vehicle with a ``turn_rate`` (facing steps a tick) plans with the turning
  search of ``wargrid.tactics`` and turns on the spot before each step whose
  direction differs from its facing.

A unit stops when it is within ``close_enough`` leptons of its goal. The same
seed gives the same run.

Steady ticks. The first simulation of a process loads every kernel a tick
may call (numba, from the disk cache; compiled when there is none) by running
a small private scenario, so that no tick of a game pays for it (a kernel
first used mid-run, a route repair say, cost its tick from milliseconds up to
a second). A tick allocates no Python objects that outlive it but a few per
planned route: routes, plan history and kernel events are arrays, events
become ``SimEvent`` objects only when ``events`` is read. Python's full
garbage collection walks every object of the process (numba's included: tens
of milliseconds here) and runs when enough objects have survived since the
last one; a game should collect (``gc.collect()``) after loading a level, as
``benchmarks/bench_rts.py`` does, so that the setup's garbage does not set one
off in the first ticks.

>>> from wargrid import Map, SquareGrid
>>> sim = Simulation(Map(SquareGrid(6, 3)), seed=1)
>>> tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=128)
>>> sim.run(100).states()[tank]
'arrived'
>>> sim.get(tank).cell
(5, 1)
"""

from __future__ import annotations

import math
from collections import OrderedDict
from itertools import chain
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from ..costs import CostField
from ..errors import ArgumentError, ArgumentTypeError, ConsistencyError, UnknownError
from .._kernels.rts import layout as L
from .._kernels.rts.layout import (  # the tables' columns and codes, shared with the kernels
    AVOID, CELL, CLOAKED, CLOSE, CLS, CONDITION_YELLOW, DAMAGE, DIR, FACING, GOAL, HEALTH_FLOOR, HEALTH_RULES, HP,
    HRULE, KIND, MOVED, NEED, NXT, YELLOW_SPEED,
    PROG, RARG, RCELL, REASON, RLEN, ROFF, ROT, RPOS, SLEN, SPEED, STATE, STATES, TARGET, TEAM, TROW,
    TURNLEFT, TURNRATE, UNIT_KINDS, WAITED,
)
from .._deprecation import warn_renamed
from .._validate import as_float, check_choice, check_int, check_iterable, check_seed
from ..grids.board import CostBoard
from ..grids.boards import Grid
from .classic import classic_path
from .ladder import TRAVEL_ENTRY_COSTS, Entry, entry_costs
from ..grids.leptons import LEPTONS_PER_CELL
from .occupancy import Occupancy

if TYPE_CHECKING:
    from .._kernels.rts.lazydist import LazyTables

__all__ = ["Simulation", "SimUnit", "SimEvent", "SimReport", "UNIT_KINDS", "STATES", "PATHFINDERS", "HEALTH_FLOOR",
           "HEALTH_RULES", "CONDITION_YELLOW", "YELLOW_SPEED", "MAX_SPEED", "MAX_TEAM"]

MAX_SPEED = 1 << 30
"""The fastest a unit may be, in leptons per tick (and the widest ``close_enough``): positions stay exact int64."""

MAX_TEAM = (1 << 31) - 1
"""Team numbers are in ``-MAX_TEAM..MAX_TEAM``."""

# ``UNIT_KINDS`` (obstacles can be destroyed; buildings cannot; neither moves), ``STATES`` (what a unit is
# doing; 'waiting' and 'stuck' come with a reason), ``HEALTH_RULES`` and their numbers (``CONDITION_YELLOW``,
# ``YELLOW_SPEED``: 'classic'; ``HEALTH_FLOOR``: 'linear') come from the tables' layout, which the kernels read too.

PATHFINDERS = ("astar", "classic")

FIELD_MIN = 4
"""Units asking for the same goal in one tick from which one distance field serves them all."""

FIELD_COST = 6
"""What a distance field counts for against ``plan_budget`` (one A* counts 1)."""

AVOID_COST = 4
"""What a search with a closed cell counts for against ``plan_budget`` (it builds its own costs)."""

_FIELDS_KEPT = 32



@dataclass
class SimUnit:
    """One unit of the simulation as it is now (a copy: change it through ``Simulation``).

    ``route`` (the cells still ahead), ``plans`` (every route it was given,
    its cell first) and ``trail`` (every cell it entered, its start first) are
    made when first read, as they were when the unit was taken: taking a unit
    costs the same whatever its history.
    """

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
    waited: int = 0
    replans: int = 0
    max_hp: float = 0.0
    turn_rate: float = 0.0
    facing: int = -1
    target: tuple[int, int] | None = None
    _history: "_History | None" = field(default=None, repr=False, compare=False)

    @property
    def route(self) -> list[tuple[int, int]]:
        """The cells still ahead on its route, ``(x, y)``."""
        return [] if self._history is None else self._history.route()

    @property
    def plans(self) -> list[list[tuple[int, int]]]:
        """Every route it was given, each from the cell it stood on."""
        return [] if self._history is None else self._history.plans()

    @property
    def trail(self) -> list[tuple[int, int]]:
        """Every cell it stood on, its start first."""
        return [] if self._history is None else self._history.trail()

    @property
    def mobile(self) -> bool:
        """Whether it can move (infantry or a vehicle, not destroyed)."""
        return self.kind in ("infantry", "vehicle") and self.state != "destroyed"


class _History:
    """A unit's route, plans and trail as they were when it was taken, made into cells when first read."""

    __slots__ = ("_uid", "_pw", "_route", "_plans", "_n_plans", "_moves", "_n_moves", "_start", "_mobile", "_made")

    def __init__(self, uid: int, pw: int, route: np.ndarray, plans: list[np.ndarray], moves: list[np.ndarray],
                 start: tuple[int, int], mobile: bool) -> None:
        self._uid, self._pw, self._route, self._plans = uid, pw, route, plans
        self._moves, self._n_moves = moves, len(moves)  # the trail's chunks and the plans are only ever appended
        self._n_plans = len(plans)
        self._start, self._mobile = start, mobile
        self._made: dict[str, Any] = {}

    def _xy(self, ids: np.ndarray) -> list[tuple[int, int]]:
        pw = self._pw
        return [(p % pw - 1, p // pw - 1) for p in ids.tolist()]

    def route(self) -> list[tuple[int, int]]:
        if "route" not in self._made:
            self._made["route"] = self._xy(self._route)
        return list(self._made["route"])

    def plans(self) -> list[list[tuple[int, int]]]:
        if "plans" not in self._made:
            self._made["plans"] = [self._xy(p) for p in self._plans[: self._n_plans]]
        return [list(p) for p in self._made["plans"]]

    def trail(self) -> list[tuple[int, int]]:
        if "trail" not in self._made:
            out = [self._start] if self._mobile else []
            if self._mobile:
                for chunk in self._moves[: self._n_moves]:
                    out += self._xy(chunk[chunk[:, 0] == self._uid, 1])
            self._made["trail"] = out
        return list(self._made["trail"])


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


_MAP_EVENTS = ("terrain_changed", "overlay_changed", "edge_changed", "elevation_changed", "zones_changed")
"""The map's events a simulation follows (``Simulation._on_map_event``)."""


def _kernels() -> Any:
    from .._kernels.rts import sim as k

    return k


class Simulation:
    """Units moving over ``map`` tick by tick (``seed``: the order of units and every tie-break).

    ``pathfinder`` is 'astar' (whole routes, shared by units with one goal)
    or 'classic' (pieces of ``piece`` steps); ``piece`` is also how far ahead
    a way round a blocked cell may rejoin the route; ``patience`` the ticks a
    unit waits for a standing unit before it looks for a way round;
    ``plan_budget`` the searches a tick may run; ``repair_nodes`` the cells a
    way round may look at; ``weight`` the A* weight of a unit planning alone
    (its route costs at most ``weight`` times the cheapest; 1: the cheapest,
    slower to find on large boards); ``health_rule`` how damage slows a unit
    ('classic': three quarters of its speed at yellow health, ``hp / max_hp
    <= CONDITION_YELLOW``; 'linear': ``max(HEALTH_FLOOR, hp / max_hp)`` of it);
    ``crowd`` whether the vehicles in each other's way move as one crowd each
    tick (PIBT: ``wargrid._kernels.rts.simcrowd``, the default; dense crowds
    of units that cross a cell a tick finish in about half the ticks), or each
    on its own turn as the classic engine does (``crowd=False``: no vehicle is
    pushed on for a soldier either, so a soldier whose way is held by vehicles
    with no free cell beside them, that it cannot trade places with, waits).
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
        plan_budget: int = 32,
        repair_nodes: int = 256,
        weight: float = 1.2,
        health_rule: str = "classic",
        crowd: bool = True,
    ) -> None:
        if not isinstance(map, CostBoard):
            raise ArgumentTypeError(f"map must be a wargrid Map (a CostBoard), got {type(map).__name__}")
        self.map = map
        self.grid = map.grid
        self.seed = check_seed(seed)
        self.pathfinder = check_choice(pathfinder, "pathfinder", PATHFINDERS)
        self.health_rule = check_choice(health_rule, "health_rule", HEALTH_RULES)
        if not isinstance(crowd, (bool, np.bool_)):
            raise ArgumentTypeError(f"crowd must be True or False, got {crowd!r}")
        self.crowd = bool(crowd)
        self.piece = check_int(piece, "piece")
        if self.piece < 1:
            raise ArgumentError(f"piece must be >= 1, got {self.piece}")
        self.patience = check_int(patience, "patience")
        if self.patience < 0:
            raise ArgumentError(f"patience must be >= 0, got {self.patience}")
        self.plan_budget = check_int(plan_budget, "plan_budget")
        if self.plan_budget < 1:
            raise ArgumentError(f"plan_budget must be >= 1, got {self.plan_budget}")
        self.repair_nodes = check_int(repair_nodes, "repair_nodes")
        if self.repair_nodes < 1:
            raise ArgumentError(f"repair_nodes must be >= 1, got {self.repair_nodes}")
        from ..movement.search import check_weight

        self.weight = check_weight(weight)
        self.rng = np.random.default_rng(self.seed)
        self.occupancy = Occupancy(self.grid, leptons=leptons, seed=self.seed)
        self.leptons = self.occupancy.leptons
        if self.leptons > MAX_SPEED:  # a step's progress times the cell's leptons stays exact int64
            raise ArgumentError(f"leptons must be at most MAX_SPEED = {MAX_SPEED} a cell, got {self.leptons}")
        self.map_events: list[Any] = []
        self.tick = 0
        topo = self.grid.topology
        self._topo = topo
        pid = np.arange(topo.padded_size, dtype=np.int64)
        self._cell_xy = np.stack([pid % topo.pw - 1, pid // topo.pw - 1], axis=1)  # padded id -> (x, y)
        self._n = 0
        self._ui = np.full((16, L.N_INT), -1, dtype=np.int64)
        self._uf = np.zeros((16, L.N_FLOAT), dtype=np.float64)
        self._units_meta: list[tuple[str | None, tuple[int, int]]] = []  # (movement class name given, start cell)
        self._classes: list[str] = []
        self._class_unit: list[str | None] = []
        self._tcost = np.zeros((0, topo.padded_size), dtype=np.float64)
        self._teams: dict[int, int] = {}
        self._revealed = np.zeros((1, 16), dtype=np.bool_)
        self._pool = np.empty(1 << 12, dtype=np.int64)
        self._pool_n = 0
        self._plans: dict[int, list[np.ndarray]] = {}  # padded ids, the start first: arrays, not tuples (module notes)
        self._stuck: dict[int, str] = {}
        self._asked = np.full(16, -1, dtype=np.int64)
        self._events: list[SimEvent] = []
        self._raw: list[np.ndarray | tuple[int, int, str, str]] = []  # events not yet made SimEvents, in order
        self._moves: list[np.ndarray] = []
        self._ev = np.zeros((256, 5), dtype=np.int64)
        self._mv = np.zeros((64, 2), dtype=np.int64)
        self._counts = np.zeros(3, dtype=np.int64)
        key = ((self.seed or 0) * 2654435761 + 88172645463325252) % (1 << 64)  # any seed: modulo the 64-bit key
        self._rngk = np.array([np.uint64(key) | np.uint64(1)], dtype=np.uint64)
        self._flags = np.zeros(1, dtype=np.int64)
        self._fields: "OrderedDict[tuple[int, int, bool], np.ndarray]" = OrderedDict()
        self._cfields: dict[tuple[int, bool], CostField] = {}
        self._scratch: tuple[np.ndarray, ...] | None = None
        self._crowd = _CrowdRule()
        self._zones: dict[int, Any] = {}  # movement class -> its zones (``_zones_of``)

        off, stepl, corner, _ = topo.kernel_args
        self._tb = (off, stepl, corner, int(topo.corner_rule), int(topo.ndir), int(topo.parity_mode), bool(topo.wrap),
                    int(topo.width), int(topo.pw), _direction_rank(self.grid))
        self._listeners: list[tuple[str, Callable[[Any], Any]]] = []
        for ev in _MAP_EVENTS:
            self._listeners.append((ev, map.on(ev, self._on_map_event)))
        # int32 distances from 65 000 table nodes (``lazy_tables``); the tables tile the padded board, a little more
        _load_kernels(self.pathfinder, type(map), wide=topo.padded_size >= 1 << 15)

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

    # -- pickling: the whole game state; the map's zones are asked again, its events listened to again ---------------
    def __getstate__(self) -> dict[str, Any]:
        """A game saved mid-run goes on as the original would.

        >>> import pickle
        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=128)
        >>> _ = sim.run(2); copy = pickle.loads(pickle.dumps(sim))
        >>> copy.run(100).states()[tank], copy.run(100).states() == sim.run(200).states()
        ('arrived', True)
        """
        state = self.__dict__.copy()
        state["_zones"] = {}  # a cache over the map's locked zones (a lock cannot be pickled)
        state["_listeners"] = bool(self._listeners)  # whether it listens to the map (closed: not)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        listening = state.pop("_listeners")
        self.__dict__.update(state)
        off, stepl, corner, _ = self._topo.kernel_args  # read-only as at the start (else every kernel compiles again)
        self._tb = (off, stepl, corner) + self._tb[3:]
        self._listeners = []
        if listening:
            for ev in _MAP_EVENTS:
                self._listeners.append((ev, self.map.on(ev, self._on_map_event)))

    # -- cells -------------------------------------------------------------------------
    def _pid(self, cell: tuple[int, int]) -> int:
        return (cell[1] + 1) * self._topo.pw + cell[0] + 1

    def _xy(self, p: int) -> tuple[int, int]:
        pw = self._topo.pw
        return (int(p) % pw - 1, int(p) // pw - 1)

    def _units(self) -> tuple[np.ndarray, ...]:
        """The kernels' ``units`` bundle."""
        return self._ui, self._uf, self._pool, self._tcost, self._revealed

    def _occ(self) -> tuple[Any, ...]:
        o = self.occupancy
        return (o.vehicle, o.building, o.infantry, o.reserved_cell, o.reserved_spot, o.where_cell, o.where_spot,
                o.res_cell, o.res_spot, o.spots, int(o.leptons))

    def _class(self, unit: str | None) -> int:
        name = self.map.unit_class(unit)
        if name not in self._classes:
            self._classes.append(name)
            self._class_unit.append(unit)
            self._tcost = np.vstack([self._tcost, self._topo.pad(self.map.costs(unit=unit), np.inf)[None, :]])
        return self._classes.index(name)

    def _refresh_costs(self) -> None:
        # a cell of this board that the map has since put off its own (``Map.set_playable``) keeps its cost: no
        # edit reaches it there, and the simulation keeps the board it was made on (its units there are not lost)
        gone = None if self.map.grid is self.grid else self._topo.pad(~self.map.grid.mask, False)
        for i, unit in enumerate(self._class_unit):
            row = self._topo.pad(self.map.costs(unit=unit), np.inf)
            if gone is not None:
                row[gone] = self._tcost[i, gone]
            self._tcost[i] = row
        self._crowd.stale = True
        self._fields.clear()
        self._cfields.clear()

    def _new_row(self) -> int:
        uid = self._n
        if uid >= len(self._ui):
            cap = 2 * len(self._ui)
            ui = np.full((cap, L.N_INT), -1, dtype=np.int64)
            ui[:uid] = self._ui[:uid]
            uf = np.zeros((cap, L.N_FLOAT), dtype=np.float64)
            uf[:uid] = self._uf[:uid]
            self._ui, self._uf = ui, uf
            rev = np.zeros((self._revealed.shape[0], cap), dtype=np.bool_)
            rev[:, :uid] = self._revealed
            self._revealed = rev
            asked = np.full(cap, -1, dtype=np.int64)
            asked[:uid] = self._asked
            self._asked = asked
        self.occupancy.grow(uid + 1)
        self._n += 1
        row = self._ui[uid]
        row[:] = -1
        row[[STATE, REASON, PROG, SLEN, WAITED, TURNLEFT, NEED, ROFF, RLEN, RPOS, CLOAKED, CLOSE]] = 0
        row[MOVED] = -1
        return uid

    def _team_row(self, team: int) -> int:
        if team not in self._teams:
            self._teams[team] = len(self._teams)
            if len(self._teams) > self._revealed.shape[0]:
                self._revealed = np.vstack([self._revealed, np.zeros((1, self._revealed.shape[1]), dtype=np.bool_)])
        return self._teams[team]

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
        max_hp: float | None = None,
        damage: float = 0.0,
        cloaked: bool = False,
        close_enough: int = 0,
        turn_rate: float | None = None,
        facing: int = 0,
    ) -> int:
        """Put a unit on ``cell`` and return its id.

        ``unit`` is its movement class (``Map.costs``); ``speed`` leptons per
        tick on ground of cost 1 (slower on dearer ground, and when damaged:
        see the simulation's ``health_rule``); ``max_hp`` its health when whole (default
        ``hp``); ``damage`` per tick when it attacks (0: it never attacks);
        ``close_enough`` how near its goal, in leptons, counts as arrived;
        ``turn_rate`` (vehicles) facing steps a tick, ``facing`` the direction
        it faces. Obstacles and buildings take ``cells`` through
        ``add_obstacle``.

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> sim.add_unit((0, 1), unit="tracked", hp=50, max_hp=100)
        0
        """
        check_choice(kind, "kind", ("infantry", "vehicle"))
        self.map.unit_class(unit)  # validates the class name
        c = self.grid.check_cell(cell, "cell")
        speed = check_int(speed, "speed")
        if speed <= 0:
            raise ArgumentError(f"speed must be > 0 leptons per tick, got {speed}")
        if speed > MAX_SPEED:
            raise ArgumentError(f"speed must be at most MAX_SPEED = {MAX_SPEED} leptons per tick, got {speed}")
        team = check_int(team, "team")
        if not -MAX_TEAM <= team <= MAX_TEAM:
            raise ArgumentError(f"team must be in {-MAX_TEAM}..{MAX_TEAM}, got {team}")
        close = check_int(close_enough, "close_enough")
        if close < 0:
            raise ArgumentError(f"close_enough must be >= 0 leptons, got {close}")
        if close > MAX_SPEED:
            raise ArgumentError(f"close_enough must be at most MAX_SPEED = {MAX_SPEED} leptons, got {close}")
        hp, damage = self._check_amount(hp, "hp", positive=True), self._check_amount(damage, "damage")
        whole = hp if max_hp is None else self._check_amount(max_hp, "max_hp", positive=True)
        if hp > whole:
            raise ArgumentError(f"hp must be <= max_hp, got hp {hp} and max_hp {whole}")
        if not isinstance(cloaked, (bool, np.bool_)):
            raise ArgumentTypeError(f"cloaked must be True or False, got {cloaked!r}")
        rate = 0.0
        if turn_rate is not None:
            if kind != "vehicle":
                raise ArgumentError("turn_rate is for vehicles; infantry turns on the spot")
            from ..movement.turning import check_turn_rate

            rate = check_turn_rate(turn_rate)
        f = check_int(facing, "facing")
        if not 0 <= f < self.grid.ndir:
            raise ArgumentError(f"facing must be a direction 0..{self.grid.ndir - 1}, got {f}")
        if goal is not None:
            self.grid.check_cell(goal, "goal")  # before the unit is placed: a bad goal adds no unit
        if not math.isfinite(self.map.costs(unit=unit)[c[1], c[0]]):
            raise ArgumentError(f"cell {c} is impassable for movement class {self.map.unit_class(unit)!r}")
        self.occupancy.place(self._n, c, kind=kind)  # raises (and changes nothing) when the space is taken
        uid = self._new_row()
        row = self._ui[uid]
        row[KIND] = L.INFANTRY if kind == "infantry" else L.VEHICLE
        row[CLS] = self._class(unit)
        row[TEAM] = team
        row[TROW] = self._team_row(team)
        row[SPEED] = speed
        row[CLOSE] = close
        row[CELL] = self._pid(c)
        row[CLOAKED] = int(bool(cloaked))
        row[FACING] = f
        row[HRULE] = HEALTH_RULES.index(self.health_rule)
        self._uf[uid] = (hp, whole, damage, rate)
        self._units_meta.append((unit, c))
        if self.crowd and kind == "vehicle":
            self._crowd.prepare(self)
        if goal is not None:
            self.order(uid, goal)
        return uid

    def add_obstacle(self, cells: list[tuple[int, int]], *, hp: float | None = 100.0) -> int:
        """A wall, a crate or a building on ``cells``: destroyable with ``hp``, permanent with ``hp=None``.

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=128)
        >>> wall = sim.add_obstacle([(3, 3)], hp=None); sim.get(wall).kind
        'building'
        """
        hp_v = math.inf if hp is None else self._check_amount(hp, "hp", positive=True)
        cells = list(check_iterable(cells, "cells", "a list of (x, y) cells"))  # (a set: no cells[0] after the row)
        self.occupancy.place_building(self._n, cells)  # every cell checked before anything changes
        first = self.grid.check_cell(cells[0], "cells[0]")
        uid = self._new_row()
        row = self._ui[uid]
        row[KIND] = L.BUILDING if hp is None else L.OBSTACLE
        row[CLS] = 0
        row[TEAM] = -1
        row[TROW] = self._team_row(-1)
        row[SPEED] = 1
        row[CELL] = self._pid(first)
        self._uf[uid] = (hp_v, hp_v, 0.0, 0.0)
        self._units_meta.append((None, first))
        self._cfields.clear()
        self._fields.clear()
        return uid

    @staticmethod
    def _check_amount(v: Any, name: str, *, positive: bool = False) -> float:
        if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)) \
                or not math.isfinite(as_float(v, name)) or v < 0:
            raise ArgumentError(f"{name} must be a finite number >= 0, got {v!r}")
        if positive and v == 0:
            raise ArgumentError(f"{name} must be > 0, got {v!r}")
        return float(v)

    def _uid(self, uid: Any) -> int:
        u = check_int(uid, "uid")
        if not 0 <= u < self._n:
            raise UnknownError(f"uid {u} is not a unit of this simulation; known: 0..{self._n - 1}")
        return u

    def unit(self, uid: int) -> SimUnit:
        """Deprecated: ``get(uid)`` (``unit=`` means a movement class everywhere else)."""
        warn_renamed("Simulation.unit(uid)", "Simulation.get(uid)")
        return self.get(uid)

    def get(self, uid: int) -> SimUnit:
        """Unit ``uid`` as it is now, in constant time (its route and plans are read when first asked for).

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=128)
        >>> sim.get(tank).cell
        (0, 1)
        """
        u = self._uid(uid)
        r = self._ui[u].tolist()
        hp, whole, damage, rate = self._uf[u].tolist()
        kind = UNIT_KINDS[r[KIND]]
        unit, start = self._units_meta[u]
        route = self._pool[r[ROFF] + r[RPOS]: r[ROFF] + r[RLEN]].copy() if r[RLEN] > r[RPOS] else self._pool[:0].copy()
        plans = self._plans.setdefault(u, [])
        history = _History(u, self._topo.pw, route, plans, self._moves, start, r[KIND] <= L.MOBILE_MAX)
        return SimUnit(
            uid=u, kind=kind, unit=unit, team=r[TEAM], speed=r[SPEED], hp=hp, damage=damage, cloaked=bool(r[CLOAKED]),
            close_enough=r[CLOSE], cell=self._xy(r[CELL]), goal=None if r[GOAL] < 0 else self._xy(r[GOAL]),
            state=STATES[r[STATE]], reason=self._reason(u), next_cell=None if r[NXT] < 0 else self._xy(r[NXT]),
            progress=r[PROG], step_len=r[SLEN] if r[NXT] >= 0 else 0, direction=r[DIR], waited=r[WAITED],
            replans=len(plans), max_hp=whole, turn_rate=rate, facing=r[FACING],
            target=None if r[TARGET] < 0 else self._xy(r[TARGET]), _history=history,
        )

    # -- every unit at once, as arrays (for a renderer's frame) ------------------------------
    def positions(self) -> np.ndarray:
        """``(n, 2)`` int64: every unit's ``(x, y)`` in leptons, row ``uid`` (between two cell centres while it steps).

        A new array each call (3000 units: a few microseconds); obstacles and
        buildings give the centre of their first cell.

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=128)
        >>> sim.step(); sim.positions().tolist()
        [[192, 384]]
        """
        out = np.empty((self._n, 2), dtype=np.int64)
        _kernels().leptons_of(self._ui, self._n, self._cell_xy, bool(self._topo.wrap), int(self.leptons), out)
        return out

    def cells(self) -> np.ndarray:
        """``(n, 2)`` int64: every unit's cell ``(x, y)``, row ``uid`` (a new array; a stepping unit's cell is the one it leaves).

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=128)
        >>> _ = sim.run(100); sim.cells().tolist()
        [[5, 1]]
        """
        out = np.empty((self._n, 2), dtype=np.int64)
        _kernels().cells_of(self._ui, self._n, self._cell_xy, out)
        return out

    def states(self) -> np.ndarray:
        """``(n,)`` int64: every unit's state code, row ``uid`` (``STATES[code]`` names it; a copy).

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=128)
        >>> _ = sim.run(100); [STATES[c] for c in sim.states()]
        ['arrived']
        """
        return self._ui[: self._n, STATE].copy()

    def facings(self) -> np.ndarray:
        """``(n,)`` int64: the direction every unit faces, row ``uid`` (a copy).

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked", facing=2)
        >>> sim.facings().tolist()
        [2]
        """
        return self._ui[: self._n, FACING].copy()

    def hp(self) -> np.ndarray:
        """``(n,)`` float64: every unit's health, row ``uid`` (a copy; obstacles too, buildings ``inf``).

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked", hp=80, max_hp=100)
        >>> sim.hp().tolist()
        [80.0]
        """
        return self._uf[: self._n, HP].copy()

    @property
    def units(self) -> dict[int, SimUnit]:
        """``{uid: SimUnit}`` of every unit, obstacles and buildings included (copies).

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked")
        >>> sorted(sim.units)
        [0]
        """
        return {u: self.get(u) for u in range(self._n)}

    @property
    def revealed(self) -> set[tuple[int, int]]:
        """``{(team, uid)}``: the hidden enemies each team has bumped into.

        >>> from wargrid import Map, SquareGrid
        >>> Simulation(Map(SquareGrid(6, 4))).revealed
        set()
        """
        teams = {row: t for t, row in self._teams.items()}
        rows, uids = np.nonzero(self._revealed[:, : self._n])
        return {(teams[int(r)], int(u)) for r, u in zip(rows, uids)}

    def _reason(self, u: int) -> str:
        r = self._ui[u]
        code, v, cell = int(r[REASON]), int(r[RARG]), self._xy(int(r[RCELL])) if r[RCELL] >= 0 else None
        if code == L.R_STUCK:
            return self._stuck.get(u, "")
        if code == L.R_WAIT_MOVING:
            return f"waiting for moving unit {v} at {cell}"
        if code == L.R_WAIT_FRIEND:
            return f"waiting for friend {v} to move aside from {cell}"
        if code == L.R_HIDDEN:
            return f"hidden enemy {v} at {cell}"
        if code == L.R_ATTACK:
            return f"attacking {UNIT_KINDS[int(self._ui[v, KIND])]} {v} at {cell}"
        if code == L.R_PLANNING:
            return "waiting for a route (the planner is busy)"
        if code == L.R_TURNING:
            return "turning"
        if code == L.R_NO_WAY_ROUND:
            return f"waiting for {cell} to clear (no way round it)"
        if code == L.R_REROUTE:
            return "finding a new route" if cell is None else f"finding a way round {cell}"
        return ""

    def order(self, uid: int, goal: tuple[int, int] | None) -> None:
        """Send unit ``uid`` to ``goal`` (``None``: stop where it is).

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=128)
        >>> sim.order(tank, (0, 3)); _ = sim.run(100); sim.get(tank).cell
        (0, 3)
        """
        u = self._uid(uid)
        r = self._ui[u]
        if r[KIND] > L.MOBILE_MAX or r[STATE] == L.DESTROYED:
            raise ArgumentError(f"unit {uid} is a {UNIT_KINDS[int(r[KIND])]} ({STATES[int(r[STATE])]}) and cannot move")
        g = None if goal is None else self.grid.check_cell(goal, "goal")
        r[GOAL] = r[TARGET] = -1 if g is None else self._pid(g)
        r[RPOS] = r[RLEN]
        r[STATE], r[REASON], r[WAITED], r[AVOID] = L.IDLE, L.R_NONE, 0, -1
        r[NEED] = L.NEED_NONE if g is None else L.NEED_PLAN
        self._asked[u] = -1
        self._stuck.pop(u, None)

    def hit(self, uid: int, amount: float) -> None:
        """Take ``amount`` of health from unit ``uid`` (it may slow down: ``health_rule``); at 0 it is destroyed.

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked")
        >>> sim.hit(tank, 30); sim.get(tank).hp
        70.0
        """
        u = self._uid(uid)
        a = self._check_amount(amount, "amount")
        if self._ui[u, STATE] == L.DESTROYED:
            return
        self._uf[u, HP] = max(0.0, self._uf[u, HP] - a)
        if self._uf[u, HP] <= 0:
            self._remove(u, "destroyed", "its health ran out")

    def lepton(self, uid: int) -> tuple[int, int]:
        """Where unit ``uid`` is, in leptons (between two cell centres while it steps).

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=128)
        >>> sim.lepton(tank)
        (128, 384)
        """
        u = self._uid(uid)
        x, y = _kernels().lepton(self._ui, u, self._tb, int(self.leptons))
        return int(x), int(y)

    # -- the ladder as this unit sees the board ----------------------------------------
    def categories(self, uid: int) -> np.ndarray:
        """``(height, width)`` entry categories of every cell for unit ``uid``, as it sees them.

        Each cell's category is read from the occupancy arrays in constant time.

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=128)
        >>> _ = sim.add_obstacle([(3, 3)], hp=None)
        >>> Entry(sim.categories(tank)[3, 3]).name
        'IMPASSABLE'
        """
        u = self._uid(uid)
        out = np.empty(self.grid.shape, dtype=np.int64)
        _kernels().categories_of(self._units(), u, self._tb, self._occ(), out)
        return out

    # -- planning -----------------------------------------------------------------------
    def _cost_field(self, cls: int, attack: bool) -> CostField:
        key = (cls, attack)
        cf = self._cfields.get(key)
        if cf is None:
            costs = self.map.costs(unit=self._class_unit[cls]).copy()
            b = self.occupancy.building.reshape(self.grid.shape)
            held = b >= 0
            if held.any():
                kinds = self._ui[b[held], KIND]
                extra = np.where((kinds == L.OBSTACLE) & attack, TRAVEL_ENTRY_COSTS[Entry.DESTROYABLE_OBSTACLE], np.inf)
                costs[held] = costs[held] + extra
            cf = CostField.from_arrays(self.grid, costs)
            self._cfields[key] = cf
        return cf

    def _set_route(self, u: int, cells: np.ndarray, plan: np.ndarray | None = None) -> None:
        """Give unit ``u`` the route ``cells`` (padded ids, its own cell excluded), and log it (``plan``: its cell
        and ``cells``, when at hand)."""
        n = len(cells)
        if self._pool_n + n > len(self._pool):
            self._compact(n)
        r = self._ui[u]
        r[ROFF], r[RLEN], r[RPOS] = self._pool_n, n, 0
        self._pool[self._pool_n: self._pool_n + n] = cells
        self._pool_n += n
        r[NEED], r[AVOID], r[WAITED] = L.NEED_NONE, -1, 0
        if r[STATE] in (L.IDLE, L.WAITING, L.STUCK):
            r[STATE], r[REASON] = L.IDLE, L.R_NONE
        self._asked[u] = -1
        if plan is None:
            plan = np.empty(n + 1, dtype=np.int64)
            plan[0], plan[1:] = r[CELL], cells
        self._plans.setdefault(u, []).append(plan)
        self._log(u, "planned", f"{n} steps via {self._xy(int(plan[(n + 1) // 2]))}")

    def _compact(self, extra: int) -> None:
        ui = self._ui[: self._n]
        live = ui[:, RLEN] > ui[:, RPOS]
        first = ui[live, ROFF] + ui[live, RPOS]
        lens = ui[live, RLEN] - ui[live, RPOS]
        total = int(lens.sum())
        pool = np.empty(max(2 * (total + extra), len(self._pool)), dtype=np.int64)
        at = np.cumsum(lens) - lens  # the live routes' rests one after the other, in order of the units
        pool[:total] = self._pool[np.repeat(first - at, lens) + np.arange(total)]
        ui[live, ROFF], ui[live, RLEN], ui[live, RPOS] = at, lens, 0
        ui[~live, ROFF] = ui[~live, RLEN] = ui[~live, RPOS] = 0
        self._pool, self._pool_n = pool, total

    def _stuck_unit(self, u: int, why: str) -> None:
        r = self._ui[u]
        if r[STATE] != L.STUCK or self._stuck.get(u) != why:
            self._log(u, "stuck", why)
        r[STATE], r[REASON], r[NEED] = L.STUCK, L.R_STUCK, L.NEED_NONE
        r[RPOS] = r[RLEN]
        self._stuck[u] = why

    def _log(self, u: int, what: str, detail: str = "") -> None:
        self._raw.append((self.tick, u, what, detail))

    @property
    def events(self) -> list[SimEvent]:
        """Everything that happened so far, in order.

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked", goal=(2, 1), speed=128)
        >>> _ = sim.run(20); [e.what for e in sim.events]
        ['planned', 'arrived']
        """
        self._flush()
        return self._events

    def _flush(self) -> None:
        for chunk in self._raw:
            if isinstance(chunk, tuple):
                self._events.append(SimEvent(*chunk))
                continue
            for t, u, code, a, b in chunk.tolist():
                self._events.append(SimEvent(t, u, L.EVENT_NAMES[code], self._detail(code, u, a, b)))
        self._raw = []

    def _detail(self, code: int, u: int, a: int, b: int) -> str:
        if code == L.EV_ARRIVED:
            return str(self._xy(a))
        if code == L.EV_ASKED:
            return f"unit {a} to move aside from {self._xy(b)}"
        if code == L.EV_ASIDE:
            return f"to {self._xy(a)} for unit {b}"
        if code == L.EV_FOUND:
            return f"hidden enemy {a} at {self._xy(b)}"
        if code == L.EV_REPLAN:
            why = {L.R_HIDDEN: "hidden enemy at", L.R_WAIT_MOVING: "waited for a moving unit at",
                   L.R_WAIT_FRIEND: "waited for a friend at"}.get(a, "blocked at")
            return f"{why} {self._xy(b)}"
        if code == L.EV_DESTROYED:
            return f"{UNIT_KINDS[b]} {a}"
        if code == L.EV_SWAP:
            return f"traded places with unit {a} ({b} units)"
        return f"crowd: {self._xy(b)} is taken, stopped at {self._xy(a)}"

    def _plan_phase(self) -> None:
        n = self._n
        ui = self._ui[:n]
        mobile = ui[:, KIND] <= L.MOBILE_MAX
        rep = np.flatnonzero(mobile & (ui[:, NEED] == L.NEED_REPAIR))
        for u in rep.tolist():
            self._repair(u)
        req = np.flatnonzero(mobile & (ui[:, NEED] == L.NEED_PLAN) & (ui[:, STATE] != L.DESTROYED))
        if not len(req):
            return
        fresh = req[self._asked[req] < 0]
        self._asked[fresh] = self.tick
        req = req[np.lexsort((req, self._asked[req]))][: 4 * self.plan_budget]  # the rest wait their turn
        if self.pathfinder == "classic":
            for u in req.tolist():
                self._plan_classic(u)
            return
        budget = self.plan_budget
        groups: dict[tuple[int, int, bool], list[int]] = {}
        singles: list[int] = []
        alone = (ui[req, AVOID] >= 0) | (self._uf[req, TURNRATE] > 0)
        alone[~alone] = ~self._targets_ok(req[~alone])
        attack = (self._uf[req, DAMAGE] > 0).tolist()
        for u, a, t, c, at in zip(req.tolist(), alone.tolist(), ui[req, TARGET].tolist(), ui[req, CLS].tolist(), attack):
            if a:
                singles.append(u)
            else:
                groups.setdefault((t, c, at), []).append(u)
        waiting: list[int] = []
        for key, members in groups.items():
            if key in self._fields or len(members) >= FIELD_MIN:
                if key not in self._fields:
                    if budget < FIELD_COST and budget < self.plan_budget:
                        waiting += members
                        continue
                    budget -= FIELD_COST
                self._plan_field(key, members)
            else:
                singles += members
        done: dict[tuple[int, int, int, bool], np.ndarray | None] = {}
        one = np.array(singles, dtype=np.int64)
        one = one[np.lexsort((one, self._asked[one]))]  # in order of asking (a unit's search changes no other's row)
        uf = self._uf[one]
        rows = list(zip(one.tolist(), zip(ui[one, CELL].tolist(), ui[one, TARGET].tolist(), ui[one, CLS].tolist(),
                                          (uf[:, DAMAGE] > 0).tolist()),
                        ui[one, AVOID].tolist(), (uf[:, TURNRATE] <= 0).tolist()))
        found = self._search_ahead(rows, budget)
        for u, key2, av, plain in rows:
            if key2 in done and av < 0 and plain:
                got = done[key2]
                if got is not None:
                    self._set_route(u, got)  # a second unit on the same cell shares the search
                    continue
            if budget <= 0:
                waiting.append(u)
                continue
            budget -= 1 if av < 0 else AVOID_COST
            res = self._plan_one(u, found.get(u))
            if ui[u, AVOID] < 0:
                done[key2] = res
        if waiting:
            w = np.array(waiting, dtype=np.int64)
            w = w[ui[w, NEED] == L.NEED_PLAN]
            ui[w, STATE], ui[w, REASON] = L.WAITING, L.R_PLANNING

    def _zones_of(self, cls: int) -> Any:
        """Movement class ``cls``'s zones (``Map.connected``'s, read by padded ids: a plan asks several times, and
        the checks of ``Map.connected`` cost more than the look-up), kept until the map changes."""
        z = self._zones.get(cls)
        if z is None:
            derived = getattr(self.map, "derived", None)  # a ``Map``'s; another board answers ``connected``
            z = derived.locked_zones(self._classes[cls]) if derived is not None else _BoardZones(
                self.map, self._classes[cls], self._topo.pw)
            self._zones[cls] = z
        return z

    def _linked(self, cls: int, pa: int, pb: int) -> bool:
        """``Map.connected`` for movement class ``cls`` between padded cells ``pa`` and ``pb``."""
        return bool(self._zones_of(cls).connected(pa, pb))

    def _linked_pairs(self, cls: np.ndarray, pa: np.ndarray, pb: np.ndarray) -> np.ndarray:
        """``_linked`` of each ``cls[i]``, ``pa[i]``, ``pb[i]``, as a bool array."""
        ok = np.zeros(len(cls), dtype=np.bool_)
        for k in np.unique(cls).tolist():
            sel = np.flatnonzero(cls == k)
            ok[sel] = self._zones_of(k).connected_pairs(pa[sel], pb[sel])
        return ok

    def _target_ok(self, u: int) -> bool:
        """Settle unit ``u``'s target: its goal, or the reachable cell nearest a goal it cannot stand on.

        Returns False when the unit must be planned alone (or is stuck).
        """
        r = self._ui[u]
        cls = int(r[CLS])
        tc = self._tcost[cls]
        g, c = int(r[GOAL]), int(r[CELL])
        gx, gy = self._xy(g)
        b = int(self.occupancy.building[gy * self.grid.width + gx])
        if not tc[g] < np.inf or (b >= 0 and self._ui[b, KIND] == L.BUILDING):
            return False
        r[TARGET] = r[GOAL]
        if g != c and tc[c] < np.inf and not self._linked(cls, c, g):
            return False
        return True

    def _targets_ok(self, us: np.ndarray) -> np.ndarray:
        """``_target_ok`` of each unit of ``us`` (distinct), as a bool array: the same checks, one array each."""
        ui = self._ui
        g, c, cls = ui[us, GOAL], ui[us, CELL], ui[us, CLS]
        pw, width = self._topo.pw, self.grid.width
        b = self.occupancy.building[(g // pw - 1) * width + g % pw - 1]
        ok: np.ndarray = (self._tcost[cls, g] < np.inf) & ~((b >= 0) & (ui[np.maximum(b, 0), KIND] == L.BUILDING))
        ui[us[ok], TARGET] = g[ok]
        ask = np.flatnonzero(ok & (g != c) & (self._tcost[cls, c] < np.inf))
        ok[ask] = self._linked_pairs(cls[ask], c[ask], g[ask])
        return ok

    def _plan_field(self, key: tuple[int, int, bool], members: list[int]) -> None:
        from ..movement.search import dijkstra_field

        k = _kernels()
        target, cls, attack = key
        dist = self._fields.get(key)
        if dist is None:
            cf = self._cost_field(cls, attack)
            dist = dijkstra_field(self.grid, cf, np.array([target]), reverse=True, tree=False).dist
            self._fields[key] = dist
            while len(self._fields) > _FIELDS_KEPT:
                self._fields.popitem(last=False)
        else:
            self._fields.move_to_end(key)
        tc = self._cost_field(cls, attack).cell
        buf = np.empty(self._topo.padded_size, dtype=np.int64)
        for u in members:
            start = int(self._ui[u, CELL])
            if not math.isfinite(dist[start]):
                self._stuck_unit(u, f"no way to goal {self._xy(target)} on the entry ladder up to TEMP_BLOCKED_BY_FRIEND")
                continue
            m = k.descend(dist, tc, start, self._tb, buf)
            if m < 0:
                self._ui[u, NEED] = L.NEED_PLAN  # (never seen) fall back to a search of its own
                self._plan_one(u)
                continue
            cells = buf[:m].copy()
            self._set_route(u, cells)

    def _search_ahead(self, rows: list[tuple[int, tuple[int, int, int, bool], int, bool]],
                      budget: int) -> dict[int, np.ndarray]:
        """The routes of the plain searches among ``rows`` (``_plan_phase``'s singles: unit, its key, the cell it
        avoids, whether it turns on the spot) that the budget lets run, found at once (``search_routes``): unit ->
        its route's padded ids, its cell first. The plain ones: no cell to avoid, no turning, a goal other than its
        cell, both passable and linked (``_plan_one`` would search them by ``dispatch_path``: the same A*, so the
        same routes). Which run is the phase's loop, as if every search found its way (one that does not leaves
        the loop to search later units itself)."""
        seen: set[tuple[int, int, int, bool]] = set()
        asked: list[int] = []
        for u, key2, av, plain in rows:
            if key2 in seen and av < 0 and plain:
                continue
            if budget <= 0:
                continue
            budget -= 1 if av < 0 else AVOID_COST
            seen.add(key2)
            if av < 0 and plain:
                asked.append(u)
        found: dict[int, np.ndarray] = {}
        if not asked:
            return found
        from ..movement.search import search_routes

        us = np.array(asked, dtype=np.int64)
        ui = self._ui
        c, g, cls = ui[us, CELL], ui[us, GOAL], ui[us, CLS]
        attack = self._uf[us, DAMAGE] > 0
        tc = self._tcost
        ok = (c != g) & (tc[cls, c] < np.inf) & (tc[cls, g] < np.inf)
        ask = np.flatnonzero(ok)
        ok[ask] = self._linked_pairs(cls[ask], c[ask], g[ask])
        keys = cls * 2 + attack
        for key in np.unique(keys[ok]).tolist():
            cf = self._cost_field(key // 2, bool(key % 2))
            sel = np.flatnonzero(ok & (keys == key))
            sel = sel[(cf.cell[c[sel]] < np.inf) & (cf.cell[g[sel]] < np.inf)]
            if not len(sel):
                continue
            got = search_routes(self.grid, cf, c[sel], g[sel], self.weight)
            if got is None:
                continue
            for j, i in enumerate(sel.tolist()):
                if got.costs[j] < np.inf:
                    found[asked[i]] = got.path(j)
        return found

    def _plan_one(self, u: int, found: np.ndarray | None = None) -> np.ndarray | None:
        """Plan unit ``u``'s route; ``found``: its route already searched (``_search_ahead``), its cell first."""
        from ..movement.dispatch import dispatch_path

        r = self._ui[u]
        if found is not None:
            r[TARGET] = r[GOAL]
            self._set_route(u, found[1:], found)
            return found[1:]
        cls, attack = int(r[CLS]), bool(self._uf[u, DAMAGE] > 0)
        cell, goal = self._xy(int(r[CELL])), self._xy(int(r[GOAL]))
        unit = self._class_unit[cls]
        tc = self._tcost[cls]
        avoid = int(r[AVOID])
        if goal != cell and tc[r[CELL]] < np.inf and tc[r[GOAL]] < np.inf:
            if not self._linked(cls, int(r[CELL]), int(r[GOAL])):
                self._stuck_unit(u, f"goal {goal} is not connected to {cell} for {self.map.unit_class(unit)!r}")
                return None
        cf = self._cost_field(cls, attack)
        blocked_goal = not math.isfinite(cf.cell[self._pid(goal)])
        if avoid >= 0:
            if avoid == r[TARGET]:  # its goal is the blocked cell: nothing to go round
                self._wait_for_way(u)
                return None
            c2 = self._topo.unpad(cf.cell).copy()
            a = self._xy(avoid)
            c2[a[1], a[0]] = np.inf
            cf = CostField.from_arrays(self.grid, c2)
        if self._uf[u, TURNRATE] > 0 and not blocked_goal:
            from ..movement.turning import turning_path

            tp = turning_path(self.grid, cf, cell, goal, facing=int(r[FACING]), turn_rate=float(self._uf[u, TURNRATE]),
                              speed=float(r[SPEED]) / self.leptons)
            cells = None if tp is None else _dedupe(tp.cells)
            xy = None
        else:
            # the map's zones answer the reachability check (they are valid for this stricter field)
            p = dispatch_path(self.grid, cf, cell, goal, nearest=blocked_goal, weight=self.weight, search="astar",
                              zones=self._zones_of(cls))
            cells = None if p is None else [p.end]  # (the search's array: its list of cells is never made)
            xy = None if p is None else p.xy[1:]
        if cells is None:
            if avoid >= 0:
                self._wait_for_way(u)
                return None
            self._stuck_unit(u, f"no way to goal {goal} on the entry ladder up to TEMP_BLOCKED_BY_FRIEND")
            return None
        r[TARGET] = self._pid(cells[-1])
        if xy is None:  # (``fromiter``: a tenth of ``np.array``'s time)
            xy = np.fromiter(chain.from_iterable(cells[1:]), dtype=np.int64, count=2 * len(cells) - 2).reshape(-1, 2)
        ids = (xy[:, 1] + 1) * self._topo.pw + xy[:, 0] + 1
        self._set_route(u, ids)
        return ids

    def _plan_classic(self, u: int) -> None:
        r = self._ui[u]
        cls = int(r[CLS])
        cell, goal = self._xy(int(r[CELL])), self._xy(int(r[GOAL]))
        unit = self._class_unit[cls]
        costs = self.map.costs(unit=unit)
        if goal != cell and math.isfinite(costs[cell[1], cell[0]]) and math.isfinite(costs[goal[1], goal[0]]):
            if not self.map.connected(cell, goal, unit=unit):
                self._stuck_unit(u, f"goal {goal} is not connected to {cell} for {self.map.unit_class(unit)!r}")
                return
        cats = self.categories(u)
        if r[AVOID] >= 0:
            a = self._xy(int(r[AVOID]))
            cats[a[1], a[0]] = Entry.IMPASSABLE
        cats[cell[1], cell[0]] = Entry.OK
        cells = None
        for t in range(int(Entry.MOVING_UNIT), int(Entry.TEMP_BLOCKED_BY_FRIEND) + 1):
            cp = classic_path(self.grid, entry_costs(costs, cats, threshold=t, measure="travel"), cell, goal, max_steps=self.piece)
            if cp.outcome in ("arrived", "piece") and len(cp.cells) > 1:
                cells = cp.cells
                break
        if cells is None:
            if r[AVOID] >= 0:
                self._wait_for_way(u)
                return
            self._stuck_unit(u, f"no way to goal {goal} on the entry ladder up to TEMP_BLOCKED_BY_FRIEND")
            return
        r[TARGET] = r[GOAL]
        self._set_route(u, np.array([self._pid(c) for c in cells[1:]], dtype=np.int64))

    def _wait_for_way(self, u: int) -> None:
        """No way round the blocked cell: keep the route and wait for the way to clear."""
        r = self._ui[u]
        r[STATE], r[REASON], r[RCELL] = L.WAITING, L.R_NO_WAY_ROUND, r[AVOID]
        r[NEED], r[AVOID] = L.NEED_NONE, -1

    def _repair(self, u: int) -> None:
        r = self._ui[u]
        if self.pathfinder == "astar" and r[RLEN] > r[RPOS] + 1:
            k = _kernels()
            if self._scratch is None:
                n = self._topo.padded_size
                self._scratch = (np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.float64), np.zeros(n, dtype=np.int64),
                                 np.zeros((8 * self.repair_nodes + 16, 2), dtype=np.float64),
                                 np.zeros(self.repair_nodes + 1, dtype=np.int64), np.zeros(1, dtype=np.int64))
            stamp, g, parent, heap, out, gen = self._scratch
            m = k_next = -1
            # near the block first; then further along the route, looking at more cells
            for ahead, nodes in ((self.piece, self.repair_nodes), (int(r[RLEN] - r[RPOS]), 8 * self.repair_nodes)):
                gen[0] += 1
                if len(out) < nodes + 1:
                    out = np.zeros(nodes + 1, dtype=np.int64)
                    heap = np.zeros((8 * nodes + 16, 2), dtype=np.float64)
                    self._scratch = (stamp, g, parent, heap, out, gen)
                m, k_next = k.repair(self._units(), u, self._tb, self._occ(), (ahead, nodes, int(gen[0])),
                                     (stamp, g, parent, heap, out))
                if m > 0:
                    break
            if m > 0:
                rest = self._pool[r[ROFF] + k_next: r[ROFF] + r[RLEN]]
                cells = np.concatenate([out[:m], rest])
                self._set_route(u, cells)
                return
        r[NEED] = L.NEED_PLAN

    # -- map events ---------------------------------------------------------------------
    def _on_map_event(self, ev: Any) -> None:
        self.map_events.append(ev)
        self._zones.clear()
        n = self._n
        ui = self._ui[:n]
        live = (ui[:, KIND] <= L.MOBILE_MAX) & (ui[:, STATE] != L.DESTROYED)
        if ev.event == "zones_changed":  # a change of connectivity: every unit that is stuck may try again
            for u in np.flatnonzero(live & (ui[:, STATE] == L.STUCK) & (ui[:, GOAL] >= 0)).tolist():
                ui[u, STATE], ui[u, REASON], ui[u, NEED] = L.IDLE, L.R_NONE, L.NEED_PLAN
                self._stuck.pop(u, None)
            return
        self._refresh_costs()
        if not live.any():  # nothing moves (obstacles alone have no movement class: no cost rows to read)
            return
        tc = self._tcost[ui[:, CLS].clip(0)]
        idx = np.arange(n)
        # the ground gave way under these units (a bridge fell): they are lost
        under = live & ~np.isfinite(tc[idx, ui[:, CELL]])
        for u in np.flatnonzero(under).tolist():
            self._remove(u, "destroyed", f"the ground gave way at {self._xy(int(ui[u, CELL]))} ({ev.event})")
        live &= ~under
        # stepping into ground that is gone: stop and replan
        nxt = ui[:, NXT]
        ahead_gone = live & (nxt >= 0) & ~np.isfinite(tc[idx, nxt.clip(0)])
        for u in np.flatnonzero(ahead_gone & (ui[:, ROT] < 0)).tolist():
            _kernels().release(u, self._occ())
            ui[u, NXT], ui[u, PROG] = -1, 0
        mask = np.zeros(self._topo.padded_size, dtype=np.bool_)
        cells = [self._pid(c) for c in ev.cells]
        mask[cells] = True
        hit = _kernels().routes_touching(self._pool, self._ui, n, mask)
        if ev.event == "elevation_changed":
            hit[:] = True
        hit |= ahead_gone | (ui[:, STATE] == L.STUCK)
        for u in np.flatnonzero(live & hit & (ui[:, GOAL] >= 0)).tolist():
            ui[u, RPOS] = ui[u, RLEN]
            ui[u, NEED], ui[u, AVOID] = L.NEED_PLAN, -1
            if ui[u, STATE] == L.STUCK:
                ui[u, STATE], ui[u, REASON] = L.IDLE, L.R_NONE
                self._stuck.pop(u, None)
            self._log(u, "replan", f"map changed ({ev.event})")

    def _remove(self, u: int, what: str, why: str) -> None:
        k = _kernels()
        occ = self._occ()
        r = self._ui[u]
        if r[ROT] >= 0:  # it was trading places: the others stay where they stand
            v = int(r[ROT])
            while v != u:
                w = int(self._ui[v, ROT])
                self._ui[v, NXT], self._ui[v, ROT], self._ui[v, PROG] = -1, -1, 0
                self.occupancy.res_spot[v] = -1  # its landing spot
                self._ui[v, RPOS] = self._ui[v, RLEN]
                self._ui[v, NEED] = L.NEED_PLAN if self._ui[v, GOAL] >= 0 else L.NEED_NONE
                v = w
        self.occupancy.remove(u)
        k.release(u, occ)
        r[STATE], r[REASON], r[NXT], r[TARGET], r[NEED], r[ROT] = L.DESTROYED, L.R_STUCK, -1, -1, L.NEED_NONE, -1
        self._stuck[u] = why
        self._log(u, what, why)

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
        self._plan_phase()
        n = self._n
        ui = self._ui[:n]
        mobile = np.flatnonzero((ui[:, KIND] <= L.MOBILE_MAX) & (ui[:, STATE] != L.DESTROYED))
        order = mobile[self.rng.permutation(len(mobile))]
        need_ev = 8 * len(order) + 16
        if len(self._ev) < need_ev:
            self._ev = np.zeros((need_ev, 5), dtype=np.int64)
        if len(self._mv) < 3 * len(order) + 16:
            self._mv = np.zeros((3 * len(order) + 16, 2), dtype=np.int64)
        self._counts[:] = 0
        out = (self._ev, self._counts[0:1], self._mv, self._counts[1:2], self._rngk, self._flags)
        cz = self._crowd.bundle(self) if self.crowd else None
        if cz is not None:
            _load_crowd().crowd_pass(self._units(), order, (self.tick, self.patience), self._tb, self._occ(), out, cz)
        _kernels().tick_units(self._units(), order, (self.tick, self.patience), self._tb, self._occ(), out)
        ne, nm = int(self._counts[0]), int(self._counts[1])
        if ne:
            self._raw.append(self._ev[:ne].copy())
        if nm:
            self._moves.append(self._mv[:nm].copy())
        if self._flags[0]:
            self._flags[0] = 0
            self._crowd.stale = True
            self._cfields.clear()
            self._fields.clear()

    def _settled(self) -> bool:
        ui = self._ui[: self._n]
        mob = (ui[:, KIND] <= L.MOBILE_MAX) & (ui[:, STATE] != L.DESTROYED)
        st = ui[mob, STATE]
        quiet = np.isin(st, (L.IDLE, L.ARRIVED, L.STUCK)) & (ui[mob, NXT] < 0)
        if not quiet.all() or ((ui[mob, GOAL] >= 0) & (st == L.IDLE)).any():
            return False
        return not _kernels().restless(self._ui, self._n, self._tb, self._occ())  # none goes back to its goal

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
        if not isinstance(until_settled, (bool, np.bool_)):
            raise ArgumentTypeError(f"until_settled must be True or False, got {until_settled!r}")
        for _ in range(n):
            self.step()
            if until_settled and self._settled():
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
        ui = self._ui[: self._n]
        rows = tuple((u, STATES[int(ui[u, STATE])], self._reason(u), self._xy(int(ui[u, CELL])))
                     for u in np.flatnonzero(ui[:, KIND] <= L.MOBILE_MAX).tolist())
        return SimReport(self.tick, rows)

    # -- checks -------------------------------------------------------------------------
    def check(self) -> None:
        """Raise ``wargrid.errors.ConsistencyError`` (an ``AssertionError``) if two units claim one space or a unit is not where the occupancy says.

        >>> from wargrid import Map, SquareGrid
        >>> sim = Simulation(Map(SquareGrid(6, 4)), seed=1)
        >>> tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=128)
        >>> _ = sim.run(5); sim.check()
        """
        seen: dict[tuple[int, int], int] = {}
        for c, s, uid in self.occupancy.claims():
            key = (c, s)
            if key in seen and seen[key] != uid:
                raise ConsistencyError(f"units {seen[key]} and {uid} claim cell {c} spot {s}")
            seen[key] = uid
        for c in {c for c, s in seen}:
            if (c, -1) in seen and len({seen[k] for k in seen if k[0] == c}) > 1:
                raise ConsistencyError(f"cell {c} is claimed whole and shared")
        ui = self._ui[: self._n]
        for u in np.flatnonzero((ui[:, KIND] <= L.MOBILE_MAX) & (ui[:, STATE] != L.DESTROYED)).tolist():
            pos = self.occupancy.position(u)
            cell = self._xy(int(ui[u, CELL]))
            if pos is None or pos.cell != cell:
                raise ConsistencyError(f"unit {u} thinks it is at {cell}, the occupancy says {pos}")


class _BoardZones:
    """The board's connectivity for one class, asked by padded id as the search dispatcher asks it."""

    __slots__ = ("board", "unit", "pw")

    def __init__(self, board: CostBoard, unit: str, pw: int) -> None:
        self.board, self.unit, self.pw = board, unit, pw

    def connected(self, pa: int, pb: int) -> bool:
        pw = self.pw
        return self.board.connected((pa % pw - 1, pa // pw - 1), (pb % pw - 1, pb // pw - 1), unit=self.unit)

    def connected_pairs(self, pa: np.ndarray, pb: np.ndarray) -> np.ndarray:
        return np.array([self.connected(a, b) for a, b in zip(pa.tolist(), pb.tolist())], dtype=np.bool_)


_LOADED: set[tuple[str, bool]] = set()


def _load_kernels(pathfinder: str, board: Callable[[Grid], CostBoard], *, wide: bool = False) -> None:
    """Load every kernel a tick may call, once per process and pathfinder, by running a small private scenario;
    ``wide``: the crowd rule's kernels over int32 distances too (a large board's), else over uint16.

    The scenario's board is a ``board`` (the simulated map's class: ``Map``,
    which makes a board from a grid) made for a small grid.

    Numba loads a kernel from its disk cache (or compiles it) on its first
    call; without this the tick that first repairs a route, plans around a
    blocked goal or shares a field would pay for it (milliseconds when
    cached, a second when not).
    """
    if (pathfinder, wide) in _LOADED:
        return
    _LOADED.update({(pathfinder, wide), (pathfinder, False)})
    from ..grids.boards import SquareGrid

    m = board(SquareGrid(8, 5, diagonal=True))
    m.set_terrain([(4, 0), (4, 1), (4, 2)], "water")
    sim = Simulation(m, seed=0, pathfinder=pathfinder)
    lead = sim.add_unit((0, 0), unit="tracked", goal=(7, 0), speed=128)
    sim.add_unit((0, 4), unit="tracked", goal=(4, 1), speed=128)  # a goal in the water: the nearest cell
    for y in range(1, 4):  # a group with one goal: a shared field
        sim.add_unit((1, y), kind="infantry", unit="foot", goal=(7, 4), speed=128)
    sim.add_unit((0, 1), kind="infantry", unit="foot", goal=(7, 4), speed=128)
    sim.add_obstacle([(6, 3)], hp=10.0)
    if pathfinder == "astar":
        sim.add_unit((2, 0), unit="tracked", goal=(6, 0), speed=128, turn_rate=1.0, damage=5.0)
    sim.categories(lead)
    sim.lepton(lead)
    sim.step()
    sim._repair(lead)
    m.set_terrain([(3, 3)], "water")  # a map edit: routes touching it replan
    sim.run(40)
    sim.close()
    # the crowd rule's kernels (over int32 distances when ``wide``: a large board's), and without it
    for crowd in (True, False):
        sim = Simulation(board(SquareGrid(6, 3)), seed=0, pathfinder=pathfinder, crowd=crowd)
        sim._crowd.wide = wide
        sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=128)
        sim.add_unit((5, 1), unit="tracked", goal=(0, 1), speed=128)
        sim.run(40)
        sim.close()


def _load_crowd() -> Any:
    from .._kernels import load

    return load("rts.simcrowd")


class _CrowdRule:
    """The crowd rule's state (``wargrid._kernels.rts.simcrowd``): a lazy distance table row for each goal and
    movement class of the vehicles (shared by the units with that goal), each unit's row, priority, place in the
    band of the critical units (``simcrowd.CRITICAL``) and steps to go when it last chose (``last``: a unit that
    stepped nearer since goes first among equals, ``simcrowd._critical_band``), its least steps to go since its goal
    was set and its ticks in the crowd off its goal since (``least``, ``stall``: ``simcrowd.PATIENCE``), and its
    steps to go at its last trade before the chains since (``traded``: ``simcrowd.crowd_pass``)."""

    wide = False
    """Distances in int32 whatever the board's size (``lazy_tables`` takes uint16 below 65 000 cells): the
    kernels' loading (``_load_kernels``) runs them once so."""

    min_chunks = 4096
    """The least chunks in the tables' pool (``lazydist``), ``chunks_per_row`` a row when there are more rows."""
    chunks_per_row = 128

    def __init__(self) -> None:
        self.rows: dict[int, int] = {}  # target * classes + class -> row
        self.row_target: list[int] = []  # the padded goal cell of each row
        self.row_class: list[int] = []
        self.row_toward: list[int] = []  # the cell its search heads for first (its first unit's)
        self.urow = np.full(16, -1, dtype=np.int64)
        self.ukey = np.full(16, -1, dtype=np.int64)
        self.prio = np.zeros(16, dtype=np.float64)
        self.band = np.zeros(16, dtype=np.int8)
        self.last = np.full(16, -1, dtype=np.int64)
        self.least = np.full(16, -1, dtype=np.int64)
        self.stall = np.zeros(16, dtype=np.int64)
        self.traded = np.full(16, -1, dtype=np.int64)
        self.lz: LazyTables | None = None
        self.nbr: np.ndarray | None = None  # (class, padded cell, direction): the cell one step away
        self.gnode: np.ndarray | None = None  # the same graph over the tables' nodes (``_tiles``)
        self.node: np.ndarray = np.zeros(0, dtype=np.int64)  # padded cell -> node
        self.xy: np.ndarray = np.zeros((0, 2), dtype=np.int32)  # node -> padded (x, y)
        self.classes = 0
        self.metrics = np.zeros(0, dtype=np.int64)
        self.occ_now = self.occ_next = np.zeros(0, dtype=np.int64)
        self.detour = np.zeros(2, dtype=np.int64)
        self.stale = True

    def _grow(self, cap: int) -> None:
        for name, fill in (("urow", -1), ("ukey", -1), ("prio", 0), ("band", 0), ("last", -1), ("least", -1),
                           ("stall", 0), ("traded", -1)):
            old = getattr(self, name, None)
            if old is None:  # (a game saved before the array was kept)
                old = np.zeros(0, dtype=np.int64)
            if len(old) >= cap:
                continue
            new = np.full(cap, fill, dtype=old.dtype)
            new[: len(old)] = old
            setattr(self, name, new)

    def bundle(self, sim: "Simulation") -> tuple[Any, ...] | None:
        """The bundle ``cz`` of ``crowd_pass`` (``simcrowd``), or None when no vehicle has a goal and no soldier has
        waited ``WAIT_ASKS`` turns for a friend to move aside (the vehicle it waits for, with a goal or not, is
        pushed on: ``simcrowd._asks``)."""
        n = sim._n
        ui = sim._ui[:n]
        self._grow(len(sim._ui))
        ncls = max(1, len(sim._classes))
        veh = (ui[:, KIND] == L.VEHICLE) & (ui[:, TARGET] >= 0) & (ui[:, STATE] != L.DESTROYED)
        if not veh.any() and not ((ui[:, KIND] == L.INFANTRY) & (ui[:, STATE] == L.WAITING)
                                  & (ui[:, REASON] == L.R_WAIT_FRIEND) & (ui[:, WAITED] >= L.WAIT_ASKS)).any():
            return None
        if ncls != self.classes:
            self.rows.clear()
            self.row_target.clear()
            self.row_class.clear()
            self.row_toward.clear()
            self.ukey[:] = -1
            self.classes = ncls
            self.lz = None  # new keys: new tables (``prepare`` builds the graph of a new class)
        key = np.where(veh, ui[:, TARGET] * ncls + ui[:, CLS], -1)
        changed = np.flatnonzero(key != self.ukey[:n])
        before = len(self.rows)
        if len(changed):
            self.ukey[changed] = key[changed]
            self.prio[changed] = 0.0
            self.band[changed] = 0
            self.last[changed] = -1
            self.least[changed] = -1
            self.stall[changed] = 0
            self.traded[changed] = -1
            urow = np.full(len(changed), -1, dtype=np.int64)
            rows = self.rows
            for i, k, t, c, p in zip(range(len(changed)), key[changed].tolist(), ui[changed, TARGET].tolist(),
                                     ui[changed, CLS].tolist(), ui[changed, CELL].tolist()):
                if k < 0:
                    continue
                row = rows.get(k)
                if row is None:  # a new row, in order of the units
                    row = rows[k] = len(self.row_target)
                    self.row_target.append(t)
                    self.row_class.append(c)
                    self.row_toward.append(p)
                urow[i] = row
            self.urow[changed] = urow
        if self.stale or self.lz is None or len(self.rows) > self.lz.dist.shape[0]:
            self._build(sim, max(64, len(self.rows) * 5 // 4))
        elif len(self.rows) > before:
            self._add_rows(before)
        assert self.lz is not None and self.nbr is not None and self.gnode is not None
        return (self.lz, self.nbr, self.gnode, self.node, self.urow, self.prio, self.band, self.last, self.least,
                self.stall, self.traded, self.occ_now, self.occ_next, self.detour)

    def prepare(self, sim: "Simulation") -> None:
        """Build the movement classes' graphs now, if the board or the classes changed (a setup's cost: 20 ms for
        a class on 512 x 512, that the first tick would pay)."""
        if self.stale or self.nbr is None or len(self.nbr) != len(sim._tcost):
            self._graph(sim)

    def _graph(self, sim: "Simulation") -> None:
        topo = sim._topo
        psize, pw = topo.padded_size, topo.pw
        k = _load_crowd()
        nbr = np.empty((len(sim._tcost), psize, int(topo.ndir)), dtype=np.int32)
        self.metrics = np.array([k.class_graph(sim._tcost[c], sim._tb, nbr[c]) for c in range(len(nbr))],
                                dtype=np.int64)
        node, cell = _tiles(pw, psize // pw)
        nv = len(cell)
        gnode = np.empty((len(nbr), nv, int(topo.ndir)), dtype=np.int32)
        for c in range(len(nbr)):
            k.node_graph(nbr[c], node, cell, gnode[c])
        real = cell >= 0
        self.xy = np.zeros((nv, 2), dtype=np.int32)
        self.xy[real, 0], self.xy[real, 1] = cell[real] % pw, cell[real] // pw
        self.nbr, self.gnode, self.node = nbr, gnode, node
        self.detour[:] = 0
        self.lz = None  # tables of the old graph
        self.stale = False

    def _build(self, sim: "Simulation", cap: int) -> None:
        from .crowd import lazy_tables

        self.prepare(sim)
        psize = sim._topo.padded_size
        self.occ_now = np.full(psize, -1, dtype=np.int64)
        self.occ_next = np.full(psize, -1, dtype=np.int64)
        goals = np.zeros(cap, dtype=np.int64)
        toward = np.full(cap, -1, dtype=np.int64)
        self.lz = lazy_tables(len(self.xy), self.xy, goals, toward, np.zeros(cap, dtype=np.int64), huge=False,
                              chunks=max(self.min_chunks, self.chunks_per_row * cap))
        if self.wide and self.lz.dist.dtype != np.int32:
            self.lz = self.lz._replace(dist=np.zeros(self.lz.dist.shape, dtype=np.int32))
        self._add_rows(0)

    def _add_rows(self, start: int) -> None:
        from .._kernels.rts import lazydist as ld

        assert self.lz is not None
        st, xy = self.lz.st, self.lz.nxy
        end = len(self.row_target)
        if end <= start:
            return
        t = self.node[np.array(self.row_toward[start:end], dtype=np.int64)]
        st[start:end, ld.S_GOAL] = self.node[np.array(self.row_target[start:end], dtype=np.int64)]
        st[start:end, ld.S_TX], st[start:end, ld.S_TY] = xy[t, 0], xy[t, 1]
        st[start:end, ld.S_METRIC] = self.metrics[np.array(self.row_class[start:end], dtype=np.int64)]


TILE = 32
"""The side of the square tiles the crowd rule's distance tables are laid out in (``_tiles``)."""


def _tiles(pw: int, ph: int) -> tuple[np.ndarray, np.ndarray]:
    """``(node, cell)``: each padded cell's node in the crowd rule's distance tables, and each node's padded cell
    (-1: none). Nodes go tile by tile (``TILE`` cells a side, row by row inside), so that a row's search, which
    spreads round a path, touches a few pages of its row, not a page for every few board rows: the memory is
    mapped as first touched, and each first touch costs a page fault (measured: 3.5 us a page here, as much as
    settling 50 nodes; 1000 units on 256 x 256 spent most of the crowd rule's time on them). Boards of at most
    ``TILE`` x ``TILE`` padded cells keep the cells' order."""
    cells = np.arange(pw * ph, dtype=np.int64)
    if pw * ph <= TILE * TILE:
        return cells, cells.copy()
    x, y = cells % pw, cells // pw
    ntx = -(-pw // TILE)
    node = (((y // TILE) * ntx + x // TILE) * TILE + y % TILE) * TILE + x % TILE
    cell = np.full(ntx * -(-ph // TILE) * TILE * TILE, -1, dtype=np.int64)
    cell[node] = cells
    return node, cell


def _direction_rank(grid: Any) -> np.ndarray:
    """``rank[d]``: direction ``d``'s place when the directions are sorted by angle."""
    from .classic import _geometry

    return np.ascontiguousarray(_geometry(grid).rank, dtype=np.int64)


def _dedupe(cells: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for c in cells:
        if not out or out[-1] != c:
            out.append(c)
    return out
