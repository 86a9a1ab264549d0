"""The layout of the RTS simulation's unit tables and codes: one home, two readers.

The simulation keeps unit state in two tables, ``ui[uid, column]`` (``int64``)
and ``uf[uid, column]`` (``float64``). The tick kernels
(``wargrid._kernels.rts.sim``) and the simulation that owns the tables
(``wargrid.rts.sim``) both read the columns and codes below by name, and
from this module only (``tests/rts/test_layout.py`` ties them to it). It
imports nothing but the standard library, so the wrapper can read it without
importing numba.

Numba reads these module constants when it compiles a kernel and keys its
disk cache on the kernel's own file: after changing a value here, touch
``_kernels/rts/sim.py`` (or delete the caches) so the kernels pick it up.
"""

from __future__ import annotations

# -- int columns (``ui``) ------------------------------------------------------------------
KIND = 0  # a kind code below
CLS = 1  # movement class row (``tcost[CLS]``)
TROW = 2  # team row of ``revealed``
SPEED = 3  # leptons a tick on ground of cost 1
CLOSE = 4  # close enough to the target, in leptons
CELL = 5  # padded id of the cell it stands on
TARGET = 6  # padded id of the cell it heads for (the goal, or the reachable cell nearest it), -1 none
STATE = 7  # a state code below
REASON = 8  # a reason code below
RARG = 9  # the unit the reason names
RCELL = 10  # the cell the reason names
NXT = 11  # padded id of the cell it is stepping into, -1 standing
DIR = 12  # direction of that step
PROG = 13  # leptons done of that step
SLEN = 14  # leptons of that step
WAITED = 15  # ticks waited in a row
FACING = 16  # the direction it faces
TURNLEFT = 17  # ticks of turning left before the step starts
NEED = 18  # a need code below
AVOID = 19  # padded id of the cell its next route must go round, -1 none
ROT = 20  # the next unit of the ring it trades places with, -1 none
ROFF = 21  # its route in the pool: offset
RLEN = 22  # its route in the pool: length
RPOS = 23  # its route in the pool: index of the next step
MOVED = 24  # the last tick it moved on
CLOAKED = 25  # 1 when hidden from enemies that have not found it
TEAM = 26  # its team
GOAL = 27  # padded id of its goal, -1 none
HRULE = 28  # how damage slows it: a health rule code below
N_INT = 29

# -- float columns (``uf``) -----------------------------------------------------------------
HP = 0
HP0 = 1  # health when whole
DAMAGE = 2  # damage a tick when it attacks
TURNRATE = 3  # facing steps a tick (0: turns on the spot at once)
N_FLOAT = 4

# -- kind codes: ``UNIT_KINDS[code]`` ---------------------------------------------------------
INFANTRY, VEHICLE, OBSTACLE, BUILDING = range(4)
UNIT_KINDS = ("infantry", "vehicle", "obstacle", "building")
MOBILE_MAX = VEHICLE  # kinds up to this one move

# -- state codes: ``STATES[code]`` ------------------------------------------------------------
IDLE, MOVING, WAITING, ATTACKING, ARRIVED, STUCK, DESTROYED = range(7)
STATES = ("idle", "moving", "waiting", "attacking", "arrived", "stuck", "destroyed")

# -- reason codes (why a unit waits or is stuck) ------------------------------------------------
R_NONE, R_WAIT_MOVING, R_WAIT_FRIEND, R_HIDDEN, R_ATTACK, R_PLANNING, R_STUCK, R_TURNING, R_NO_WAY_ROUND, R_REROUTE = range(10)
N_REASONS = 10

# -- event codes of the kernels' event table: ``EVENT_NAMES[code]`` --------------------------------
EV_ARRIVED, EV_ASKED, EV_ASIDE, EV_FOUND, EV_REPLAN, EV_DESTROYED, EV_SWAP, EV_CROWD = range(8)
EVENT_NAMES = ("arrived", "asked", "aside", "found", "replan", "destroyed", "swap", "arrived")

# -- need codes (what the planner owes a unit) ---------------------------------------------------
NEED_NONE, NEED_PLAN, NEED_REPAIR = range(3)

# -- how a unit's target cell is held (``goal_state``) ----------------------------------------------
GOAL_FREE, GOAL_TAKEN, GOAL_BUSY, GOAL_SQUATTED = range(4)

# -- the entry ladder's categories (``wargrid.rts.ladder.Entry``) -------------------------------------
E_OK, E_CLOAKED, E_MOVING, E_DESTROYABLE, E_FRIEND, E_IMPASSABLE = range(6)

# -- health rule codes: ``HEALTH_RULES[code]`` -------------------------------------------------------
HEALTH_CLASSIC, HEALTH_LINEAR = range(2)
HEALTH_RULES = ("classic", "linear")

CONDITION_YELLOW = 0.5
"""'classic': at ``hp / max_hp <= CONDITION_YELLOW`` (yellow health) a unit moves at ``YELLOW_SPEED``."""

YELLOW_SPEED = 0.75
"""'classic': the speed factor of a unit at yellow health (the classic engine takes a quarter off)."""

HEALTH_FLOOR = 0.5
"""'linear': a damaged unit moves at ``speed * max(HEALTH_FLOOR, hp / max_hp)``."""

MAX_CYCLE = 8
"""The most units a trade of places a unit starts on its own turn (``_rotate``) may hold."""
WAIT_ASKS = 2
"""Turns a soldier waits for a friend vehicle to move aside (``decide`` asks it each turn) before the crowd rule
pushes that vehicle on (``simcrowd._asks``): where no cell beside the vehicle is free, only a chain of vehicles
stepping on towards a free cell opens the soldier's way (the rule moves vehicles; soldiers decide on their own
turns)."""
CROWD_CYCLE = 64
"""The most units a ring of the crowd rule (``simcrowd.crowd_pass``) may hold unless all its members have one speed: a
ring moves at its slowest member's pace, and a long ring of mixed speeds held every member behind its slowest
(docs/design/kernels.md, "Packed crowds: rings of any length")."""
