"""The simulation's crowd rule: the standing vehicles that are in each other's way move as one (PIBT).

Once a tick, before the units' turns (``sim.tick_units``), ``crowd_pass``
decides the next cell of the standing vehicles that are in each other's
way, all at once, as PIBT does for one timestep of a crowd (priority
inheritance with backtracking, Okumura et al., AIJ 2022):

- the crowd: on a 4-connected board, every vehicle that is standing on its
  way to a goal, as every agent of PIBT chooses each timestep (its route
  then only marks the cells ahead: units that kept to their routes until a
  standing friend blocked them took the same shortest ways and met the
  crowd late, docs/design/kernels.md); on other boards (where units go
  round each other diagonally, and a unit alone keeps to its route: the
  examples' bridge scenario's tank, choosing by the tables, never replanned
  when the bridge fell), and for one of a group sent to one cell (a goal
  another unit shares: its outer units, choosing each tick, pushed the
  settled ones about), every vehicle that is standing with a goal and
  blocked by a standing friend vehicle (its route's next cell holds one), or
  off its route; and, round them, every standing friend vehicle on a cell
  one of them may step to (one with a goal or with nothing to do: it can be
  pushed), and so on; and every standing friend vehicle, with a goal or
  none, that a soldier has waited for ``WAIT_ASKS`` turns to move aside, with
  no free cell beside it (``_asks``): it may not stay, and goes first (the
  rule moves vehicles only; on a board nine cells in ten held, a soldier
  among vehicles at home waited for good for one to step aside,
  docs/design/kernels.md); no member takes the cell of one with no goal;
- each member's candidates: its own cell and the neighbours its movement
  class may step to (the terrain and the corner rule as ``legal``) that are
  free for it (``_blocked``) or held by a member of its team; nearest its
  goal first (the per-goal lazy tables, ``lazydist``: steps, one row per
  goal and class, shared by the units with that goal; on a square board with
  diagonals, for a unit whose diagonal step takes twice the ticks of a
  straight one, a diagonal counts ``DIAGONAL`` steps more and comes after the
  straight ones among equals, until the unit has spent ``PATIENCE`` ticks
  without coming nearer), then, among equals (on
  a 4-connected board, a unit with nothing to do or one of lower priority),
  not a cell on the way of a member on its way that would step into its own:
  one step further along, or nearer that member's goal (the front rule, the
  planner's ``DODGE``: ahead of it, it was pushed again at each tick), then a
  cell off the next steps of the members' routes (when one of them has
  nothing to do), then (a unit pushed aside) a cell that is not the goal of a vehicle on its way
  or (a unit on its way) a cell not held by a unit on its goal, then (a unit on
  its way more than ``KEEP_RIGHT`` steps from its goal, on a 4-connected board) the cell on the right of
  its way (the sum of its steps one nearer its goal), then straight on, back or
  its own, then the left: two streams that meet head on in a passage take its
  two sides, then at random
  (the simulation's seeded generator; measured on the MAPF benchmark,
  preferring the route's next cell among equals made crowds slower: routes
  planned one by one crowd the same corridors; the two goal rules took 3 to
  5 % off the sums of costs and up to 4 % off the mean makespans,
  docs/design/kernels.md);
- units with the highest priority choose first: the ticks a unit has spent
  in the crowd since it set out, counted in steps of ``AGE`` ticks, plus a
  fraction that grows with its distance when it first joined (the farthest
  first, as LaCAM orders its agents; fixed, so the order of two units flips
  only when one has waited ``AGE`` ticks more); units sent to one cell
  together (a goal another member shares) count every tick, as PIBT does,
  so the units nearest it settle first; on a 4-connected board the members
  on their way whose distance to go is within ``CRITICAL`` steps of the
  largest (the band that sets the crowd's makespan) go first among those that
  have waited as long, as the planner's agents do (the band decided every
  ``AGE`` ticks, as the whole part changes: decided every tick, a unit at its
  edge went in and out of it as the largest unit stepped to and fro, and two
  units pushed each other back through a door in turn); then, among
  those, a unit that stepped nearer its goal since its last choice goes
  first (``_critical_band``: the stream through a door or a corridor keeps
  flowing, where the fraction let two streams take it in turn); a unit whose
  choice holds a standing member lends it its priority (that one chooses
  next, and may not take the lender's cell), and one left with no candidate
  makes its lender try its next one;
- two members that each want the other's cell, both coming nearer their goals so, where they cannot go
  round each other (a corridor, a dead end) or at the mouth of a one-cell door (4-connected boards), trade
  places (``_trade_places``, before PIBT, which never swaps two agents); both farther than ``NEAR_HOME`` from
  their goals, before any push chain, each only from nearer its goal than at its last such trade;
- the moves are started in the order they need (the unit ahead first): a
  unit steps with ``start_step`` and ``advance`` as every step does (the
  reservation, speeds, terrain, turning, events), so a follower can enter the
  cell of the unit ahead only when that one has left it, in the same tick at
  one cell a tick or more; a ring of units each taking the next one's cell
  trades places as one (``_ring``), except, on a 4-connected board, a ring
  of units near their goals that takes vehicles at home off theirs and
  brings no more units home (``_churns``);
- a member on its way left standing whose neighbour nearer its goal by the
  tables holds friend soldiers with nothing to do (no vehicle enters a
  soldiers' cell) trades places with them (``sim._trade``): its planned way
  round went to and fro with the tables' way.

A member that is left standing takes its turn as before (``decide``: the
entry ladder, asking aside, trading places, attacking, waiting, replanning).
A unit pushed off its route goes on by the table; left standing off its
route, it is planned anew (``decide``).

The bundle ``cz`` is ``(lz, nbr, gnode, node, urow, prio, band, last, least, stall,
traded, occ_now, occ_next, detour)``: the lazy tables; ``nbr[cls, p, d]`` the padded cell one step from
``p`` for movement class ``cls`` (-1: none), ``gnode`` the same graph over the
tables' nodes and ``node[p]`` cell ``p``'s node; ``urow[u]`` unit ``u``'s
table row (-1: none); ``prio[u]`` its priority; ``band[u]`` its place in the
band and ``last[u]`` its steps to go when it last chose (``_critical_band``; -1: none); ``least[u]`` its least
steps to go since its goal was set (-1: none) and ``stall[u]`` its ticks in the crowd off its goal since
(``PATIENCE``); ``traded[u]`` its steps to go at its last trade before the chains since its goal was set
(-1: none; ``crowd_pass``); two scratch arrays of one
entry a padded cell, -1 everywhere (left so); ``detour``, the searched
answers' lower bounds and answers summed (``WIDE_BUDGET``).
"""

from __future__ import annotations

import numpy as np

from .._jit import helper, jit
from ..movement.steps import step_to
from .crowd import pibt
from .layout import (
    ARRIVED, CELL, CLS, CROWD_CYCLE, EV_ASIDE, IDLE, INFANTRY, KIND, MOVED, MOVING, NEED, NEED_NONE, NEED_REPAIR, NXT,
    R_NONE, R_WAIT_FRIEND, RARG, RCELL, REASON, RLEN, ROFF, ROT, RPOS, SPEED, STATE, STUCK, TARGET, TEAM, VEHICLE,
    WAIT_ASKS, WAITED, WAITING,
)
from .lazydist import S_FLAG, S_GOAL, S_METRIC, S_TX, S_TY, UNREACHABLE, _h, estimate, finish, settle_within
from .sim import (
    _advance_step, _blocked, _event, _rand, _ring, _sole, _trade, advance, arrived, at_home, cid_of, direction, legal, settled, speed_into,
    start_step,
)


@helper
def _pushable(ui, w, tick):
    """A standing vehicle that may be pushed to another cell: on its way, or with nothing to do."""
    if ui[w, KIND] != VEHICLE or ui[w, NXT] >= 0 or ui[w, ROT] >= 0 or ui[w, MOVED] == tick:
        return False
    s = ui[w, STATE]
    return s == IDLE or s == MOVING or s == WAITING or s == ARRIVED or s == STUCK


@helper
def _soldiers_on(ui, infantry, c, u):
    """Whether unpadded cell ``c`` holds soldiers, none of them sent to vehicle ``u``'s goal (a crowd at one goal
    packs there: ``sim._crowd``)."""
    some = False
    for s in range(infantry.shape[1]):
        a = infantry[c, s]
        if a >= 0:
            if ui[a, TARGET] == ui[u, TARGET]:
                return False
            some = True
    return some


@helper
def _asks(ui, a, tick, topo, occ):
    """The vehicle, with a goal or none, that soldier ``a`` has waited for (``WAIT_ASKS`` turns) to move aside from the
    next cell of its way, with no free cell beside it (``decide``'s ``move_aside`` failed), or -1: the crowd rule
    pushes it on. A vehicle at home is pushed only after ``2 * WAIT_ASKS`` turns: the soldier trades places with it
    on its own turn first (pushed before, a ring of vehicles round the soldier's next cell turned each tick and the
    soldier never found one at home to trade with; docs/design/kernels.md)."""
    if ui[a, KIND] != INFANTRY or ui[a, STATE] != WAITING or ui[a, REASON] != R_WAIT_FRIEND or ui[a, NXT] >= 0:
        return -1
    v = ui[a, RARG]
    if ui[a, WAITED] < WAIT_ASKS or v < 0 or ui[v, TEAM] != ui[a, TEAM] or not _pushable(ui, v, tick):
        return -1
    q = ui[v, CELL]
    if q != ui[a, RCELL] or _sole(ui, cid_of(q, topo[8], topo[7]), occ) != v:
        return -1
    if ui[v, TARGET] == ui[a, TARGET] or (q == ui[a, TARGET] and at_home(ui, v, topo, occ[10])):
        return -1  # a crowd at one goal, or the goal held at home: it packs there (``decide``, ``_crowd``)
    if ui[a, WAITED] < 2 * WAIT_ASKS and at_home(ui, v, topo, occ[10]):
        return -1  # one at home: the soldier trades places with it on its own turn first (``decide``)
    return v


@helper
def _active(ui, u, tick, topo, occ, urow, nbr):
    """A standing vehicle on its way to its goal, free to decide its next cell this tick: one with a route or
    waiting for one (it goes by the table meanwhile: measured on the MAPF benchmark, waiting for the planner's
    budget made crowds a fifth slower). One that arrived and was moved off its goal goes back on its own turn
    (``decide``): taken back by the crowd rule as soon as it landed, the goal went again and again to a unit
    pushed aside by a slower one that was about to step into it (the stress campaign's seed 248; letting it
    back only while its goal is free or held by a unit on its way elsewhere took 2 to 4 % off the sums of
    costs on the MAPF benchmark, but brought that case back once no unit could move twice in a tick)."""
    if ui[u, KIND] != VEHICLE or ui[u, NXT] >= 0 or ui[u, ROT] >= 0 or ui[u, MOVED] == tick:
        return False
    s = ui[u, STATE]
    if ui[u, TARGET] < 0 or ui[u, NEED] == NEED_REPAIR or urow[u] < 0 or arrived(ui, u, topo, occ[10]):
        return False
    if s == ARRIVED:
        return False
    if not (s == IDLE or s == MOVING or s == WAITING):
        return False
    return True


@helper
def _churns(ui, mem, stack, at, k, q_from, q_to, dist0):
    """Whether the ring ``stack[at..at + k]`` (4-connected boards) only churns a packed crowd's goals: every member
    within ``NEAR_HOME`` steps of its goal, and it takes vehicles at home off their goals and brings no more units
    onto theirs. Started, such rings went on for good on boards nine cells in ten full: the vehicles taken off went
    back by rings that took others off (docs/design/kernels.md, "Rings that take vehicles at home off their
    goals")."""
    off = 0
    on = 0
    for t in range(k):
        i = stack[at + t]
        v = mem[i]
        if dist0[i] > NEAR_HOME:
            return False
        if ui[v, TARGET] < 0:
            continue
        if q_from[i] == ui[v, TARGET] and ui[v, STATE] == ARRIVED:
            off += 1
        elif q_to[i] == ui[v, TARGET]:
            on += 1
    return off > 0 and on <= off


NEAR_HOME = 2
"""Steps from its goal within which every member of a ring must be for ``_churns`` to refuse it: a ring that
carries a unit from farther through vehicles at home is its way through the crowd (refused too, the MAPF rows'
sums of arrival ticks grew 1.5-3 %)."""

AGE = 5
"""Ticks in the crowd that raise a unit's priority by one: the distance (the fraction) orders the units that
have waited about as long, and a unit held for long rises past them. Measured on the MAPF benchmark and the
stress cases (docs/design/kernels.md): a tick a step, as PIBT counts, let units near their goals go first and
held the far ones (the last to arrive) at gates crossed both ways; the distance alone, as LaCAM orders its
agents, or 10 or 20 ticks a step, left two units going to and fro for good in some of the stress cases.
Members that share their goal cell (a group sent to one cell) count every tick instead: in fives, the outer
units of 60 sent to one cell pushed the settled ones about for 466 ticks instead of 319."""


SEARCH_BUDGET = 20_000
"""Nodes the distance tables may settle in one tick; past it, an unsettled cell's distance is estimated
(``lazydist.estimate``: exact on open ground, a lower bound elsewhere) until later ticks search further.
(Estimating cells that need a new layer of their row's search even within the budget left crowds cycling on
the MAPF benchmark: the estimates never became exact.) With less than a quarter of the tables' chunk pool
free, the asked row is finished by breadth-first search instead (``lazydist.finish``: its chunks go back to
the pool): estimating there until the pool came back, as before, never ended on a cave board with a
thousand goals (the pool stayed short, the estimates' local minima kept units going to and fro). The budget
binds within a search too (``lazydist.settle_within``): one question could settle a whole plateau of ``f`` at
once, 100 000 nodes in the first tick of 3000 units on 512 x 512. (A budget of 8000 saved a tenth of the crowd
rule's time on ``bench_rts.py --units 1000 --crowd`` and made 400 units on the MAPF benchmark slower, makespan
79, 77, 87 against 68, 66, 74 for seeds 0..2.)"""

WIDE_BUDGET = 200_000
"""The tick's budget instead of ``SEARCH_BUDGET`` once the searches' answers so far exceed the coordinates' lower
bounds by more than a sixteenth in sum (``detour``, the crowd rule's ``[lower bounds, answers]``): there the
estimates lead units into dead ends, and a crowd with a goal a unit waits for its rows. 3000 units with random
goals on a 256 x 257 cave (``bench_crowd.py --cave 3000``) asked 15 million nodes; at 20 000 a tick rows were
still unsearched at tick 750, and the last unit arrived at tick 1176 (sum of costs 1.99 million); with this budget
890 (1.14 million). A million did no better on the cave (919, 1.10 million) and made the worst tick of
``bench_rts.py --units 1000`` (256 x 256, 15 % walls) 65 ms against 10 (this budget: 18). On open ground the
answers are the lower bounds and the budget stays (the frame test settles the same nodes)."""

ROW_SHARE = 200
"""Nodes a tick for each member of the crowd where ``WIDE_BUDGET`` applies, when that is more (crowds of more than
1000 vehicles): with every unit on its way in the crowd, 3000 units on den520d share the tables' budget, and the
units asking last in a tick went by the coordinates' lower bounds for the first ticks (measured: makespans 623,
611, 617 against 626, 624, 628 at seeds 0..2, and the cave's 3000 772, 483, 479 against 820, 511, 497;
docs/design/kernels.md). Crowds of up to 1000 keep ``WIDE_BUDGET``, and so the worst ticks measured with it."""


STALL_BUDGET = 200_000
"""Nodes a tick the tables may settle, beyond the tick's budget, for members on their way that no estimate leads
on (``STALL_NODES`` each): on a board with walls the coordinates' lower bound has local minima, a cell whose
every neighbour nearer the goal is a wall; a unit there whose row the budget never reached stood for good (3000
units with random goals on an open 256 x 256 with 2 % walls: one stood from tick 40 to 520, the makespan 760
against the planner's 458)."""

STALL_NODES = 50_000
"""Nodes a stalled member's row may settle in one tick (``STALL_BUDGET``); its search resumes in later ticks."""


KEEP_RIGHT = 6
"""Steps from its goal beyond which a unit on its way keeps right (among candidates as near its goal, ahead
and goal rules equal, the cell on the right of its way first, then straight on, then the left): two streams
that meet head on in a passage take its two sides instead of pushing each other back, and crossing streams on
open ground part the same way. Nearer its goal a unit picks at random as before: keeping right there too made
the units of a block of goals (``test_sim_crowd``'s door, 14 ticks) take L-shaped ways through each other's
goals (32 ticks). On 4-connected boards only, where a unit can pass another only by a step that takes it no
nearer its goal: on square-8 and hex boards units go round each other diagonally (there it changed which cell
a tank stepped to in the examples' bridge scenario and nothing measured). Measured on den520d (Moving AI, 3000
random pairs) and the cave of ``bench_crowd.py`` (docs/design/kernels.md)."""


CRITICAL = 4
"""How many steps short of the largest distance to go among the members on their way a member's may be for it to
be in the band that sets the crowd's makespan (4-connected boards, where every unit on its way is a member): those
go first among the units that have waited as long, as the planner's agents do (``rts.crowd._CRITICAL``). Without
it the priority's fraction (the distance when a unit joined, often a lower bound then) kept a unit held back early
behind the units it met: on the dense mazes of the held-out families a unit 173 steps from its goal lost a hundred
ticks pushed to and fro at a gap crossed by a stream, and the last units arrived 1.22-1.28 times the planner's
makespan (maze-32-32-2 with 150 random pairs, maze-32-32-4 with 200); with the band 0.87-1.06, den520d's 3000
pairs 503, 491, 506 against 565, 560, 569 (docs/design/kernels.md). A margin of 5 failed the passage test
(``test_two_streams_meeting_head_on_in_a_passage_keep_right``, 44 ticks at seed 3), 3 made rooms with one-cell
doors slower (room-32-32-4, 100 pairs, seeds 0..5: 414 ticks in sum against 396 without the band, 392 with 4);
a margin of 10 left two units going to and fro for good (the one 20 steps out of 30 in the band, then not, as
the other's distance changed by one): ``BAND_EXITS`` ends that."""

BAND_EXITS = 4
"""Times a unit may leave the band (decided every ``AGE`` ticks); after that it stays in it till it arrives: the
band's changing membership is finite, so its order settles, and so does any going to and fro it started."""

DIAGONAL = 2
"""Steps that a diagonal candidate counts beyond its distance (and after the straight ones among equals), on a square
board with diagonals, for a member with a goal, not of a group sent to one cell, whose diagonal step takes at least
twice the ticks of a straight one (``_slow_diagonals``: at one cell a tick on cost-1 terrain, 362 leptons take two
ticks against one), while it has its ``PATIENCE``, where both straight steps beside the diagonal are open
(``_open_corners``), and only in a tick where every such member's diagonals are slow. The tables count a diagonal
step as one, and in a crowd a diagonal holds two cells for two ticks. The measurements that set it:
docs/design/kernels.md, "Square boards with diagonals"."""

PATIENCE = 64
"""Ticks in the crowd off its goal without a new least distance to it after which a unit ranks its candidates by
the tables' steps alone (``DIAGONAL`` no longer added) until its goal changes. The raised diagonal is not the
tables' distance, so PIBT's progress (the highest priority steps nearer) can fail under it; with this budget a
unit's raised diagonals last at most ``PATIENCE`` ticks for each step of its least distance, and from some tick on
every unit still on its way ranks as on other boards (docs/design/kernels.md, "Why the raised diagonal held units
off their goals")."""


@helper
def _slow_diagonals(ui, uf, tcost, u, p, topo, leptons):
    """Unit ``u``'s diagonal steps from padded cell ``p`` (at its speed on ``p``'s terrain) take at least twice the
    ticks of its straight ones: at one cell a tick, a diagonal's 362 leptons take two ticks against one (as
    ``start_step`` and ``speed_into`` count)."""
    sp = speed_into(ui, uf, u, p, tcost)
    stepl = topo[1]
    longest = 0.0
    for d in range(topo[4]):
        longest = max(longest, stepl[d])
    diag = np.int64(np.round(longest * leptons))
    return (diag + sp - 1) // sp >= 2 * ((leptons + sp - 1) // sp)


@helper
def _open_corners(g, p, dx, dy, pw):
    """Both straight steps beside the diagonal ``(dx, dy)`` from padded cell ``p`` are steps of ``g`` (its two
    straight steps round the corner take the unit as far in the same ticks; where a wall stands at a corner, as on
    stairs of walls, the diagonal is the way and is not raised)."""
    found = 0
    for d in range(g.shape[1]):
        b = g[p, d]
        if b >= 0:
            ex, ey = _offset(p, b, pw)
            if (ex == dx and ey == 0) or (ex == 0 and ey == dy):
                found += 1
    return found == 2


@helper
def _offset(p, q, pw):
    """The step from padded cell ``p`` to its neighbour ``q`` as ``(dx, dy)``, each -1, 0 or 1 (a wrap-around
    step in x counted as one)."""
    dx = q % pw - p % pw
    dy = q // pw - p // pw
    if dx > 1:
        dx = np.int64(-1)
    elif dx < -1:
        dx = np.int64(1)
    return np.int64(dx), np.int64(dy)


@helper
def _steps(lz, nbr, r, v, budget, cap, detour):
    """Steps from ``v`` to row ``r``'s goal, exact up to ``cap`` (a larger answer is only known to be at least
    ``cap``): read, or bounded (``_bounded``), or searched (or the row finished, the pool short) while the tick's
    budget lasts, else estimated. A searched answer adds itself and its lower bound to ``detour``
    (``WIDE_BUDGET``)."""
    st = lz.st
    if st[r, S_FLAG] == 0:  # nothing settled: the row's memory is not read (its first touch costs a page fault)
        g = st[r, S_GOAL]
        lo = _h(lz.nxy, st[r, S_METRIC], np.int64(lz.nxy[g, 0]), np.int64(lz.nxy[g, 1]), v)
        if lo >= cap:
            return lo
    else:
        x = lz.dist[r, v]
        if x != 0:
            return np.int64(x) - 1
        lo = estimate(lz, r, v)  # a lower bound
        if lo >= cap or (lo < UNREACHABLE and _bounded(lz, nbr, r, v, lo)):
            return lo
    free = lz.free
    if free[2] < budget:
        if st[r, S_FLAG] == 0:  # the row's first search heads for the unit asking, where it is now
            st[r, S_TX] = lz.nxy[v, 0]
            st[r, S_TY] = lz.nxy[v, 1]
        if free[1] * 4 > lz.cnext.shape[0]:  # a quarter of the pool free
            x = settle_within(lz, nbr, r, v, budget)
            if x < 0:
                return estimate(lz, r, v)
            if x < UNREACHABLE:
                g = st[r, S_GOAL]
                detour[0] += _h(lz.nxy, st[r, S_METRIC], np.int64(lz.nxy[g, 0]), np.int64(lz.nxy[g, 1]), v)
                detour[1] += x
            return x
        free[2] += finish(lz, nbr, r)
        x = lz.dist[r, v]
        return np.int64(x) - 1 if x != 0 else UNREACHABLE
    return lo


@helper
def _bounded(lz, nbr, r, v, lo):
    """Whether a settled neighbour of ``v`` is ``lo - 1`` steps from the goal: then ``v`` is ``lo`` steps from it
    (no more, through that neighbour; no fewer, ``lo`` being a lower bound), exactly, without searching (the
    graph is symmetric). On open ground a unit's neighbours off the row's searched band are mostly so: searching
    them settled every node of the band's ``f`` first, the whole parallelogram between goal and target on a
    square-8 board (measured: 27 000 nodes a row for the nine cells round a unit 150 steps away, 180 for its own
    cell)."""
    row = lz.dist[r]
    for d in range(nbr.shape[1]):
        w = nbr[v, d]
        if w >= 0 and row[w] != 0 and np.int64(row[w]) <= lo:
            return True
    return False


@helper
def _follow(ui, pool, u, q):
    """Unit ``u`` steps to ``q``: along its route, or off it (then it goes on by the table: measured on the MAPF
    benchmark, taking the route up again where it crossed it made crowds slower)."""
    if ui[u, NEED] != NEED_NONE:
        return
    if ui[u, RPOS] < ui[u, RLEN] and pool[ui[u, ROFF] + ui[u, RPOS]] == q:
        ui[u, RPOS] += 1
    else:
        ui[u, RPOS] = ui[u, RLEN]


@helper
def _route_next(ui, pool, u):
    if ui[u, NEED] != NEED_NONE or ui[u, RPOS] >= ui[u, RLEN]:
        return np.int64(-1)
    return np.int64(pool[ui[u, ROFF] + ui[u, RPOS]])


@jit
def _shared_goals(ui, mem, m, count):
    """For each of the ``m`` members: whether another member has the same goal cell (a group sent to one cell).
    ``count``: one entry a padded cell, -1 everywhere (left so): the members heading for each cell counted there
    (by going down from -1) instead of sorting their goals (3000 units: a tenth of a millisecond a sort)."""
    for i in range(m):
        t = ui[mem[i], TARGET]
        if t >= 0:
            count[t] -= 1
    shared = np.zeros(m, dtype=np.bool_)
    for i in range(m):
        t = ui[mem[i], TARGET]
        if t >= 0:
            shared[i] = count[t] < -2
    for i in range(m):
        t = ui[mem[i], TARGET]
        if t >= 0:
            count[t] = -1
    return shared


@helper
def _narrow(g, q, pw):
    """Whether cell ``q`` has two ways out, opposite each other (a one-cell door, or a corridor one wide): ``g``, a
    class's graph of a 4-connected board (opposite by their steps, so that a door on a wrap-around board's seam
    counts: ids across the seam are not in line)."""
    a = np.int64(-1)
    b = np.int64(-1)
    for d in range(g.shape[1]):
        w = g[q, d]
        if w < 0:
            continue
        if a < 0:
            a = w
        elif b < 0:
            b = w
        else:
            return False
    if b < 0:
        return False
    ax, ay = _offset(q, a, pw)
    bx, by = _offset(q, b, pw)
    return ax == -bx and ay == -by


@helper
def _trade_places(i, q_from, q_to, occ_now, occ_next, cand, ncand, near, mouth):
    """Member ``i`` and the member on its best candidate trade places (``_ring`` starts it) when each is the
    other's best candidate, both come nearer their goals so, and one of the two cells has one way out at most
    besides the other's (a corridor, a dead end, a gap between walls or soldiers: they cannot go round each other
    there), or one of the two stands at the mouth of a door (``mouth``: on a 4-connected board, the cell behind it on
    the axis of its best step is ``_narrow``); returns whether they do.

    PIBT never lets two agents trade along an edge (a conflict in MAPF), so it cannot pass two units in a
    corridor: the one that lost the priority was pushed back along it and came back once the other had
    settled, pushing it out of its goal in turn, for good (the stress campaign's seeds 0, 30 and 161, 3 of
    300 runs: two units in a dead end, each with its goal beyond the other). On open ground the rule is
    PIBT's as before: trading wherever two units want each other's cells (measured, not kept) made about 200
    trades a run of 200 units on the MAPF benchmark against 35 (13 before), units passing through each other
    where they could go round (docs/design/kernels.md). At a one-cell door between rooms the corridor is the door
    alone: a unit that had just come through it met the stream going the other way in the room's cell beyond (three
    ways out), lost to its first unit and was pushed back through the door, three times in seven ticks, once four
    cells (the room packed) (room-32-32-4 of the held-out families, 100 random pairs, seed 6: 60 ticks, the
    planner 52; 53 with trades at the mouth; docs/design/kernels.md).
    """
    if not near[i]:
        return False
    q = cand[i, 0]
    k = occ_now[q]
    p = q_from[i]
    if k < 0 or q_to[k] >= 0 or not near[k] or cand[k, 0] != p or occ_next[q] >= 0 or occ_next[p] >= 0:
        return False
    if ncand[i] > 3 and ncand[k] > 3 and not mouth[i] and not mouth[k]:  # (its own cell, the other's and one more)
        return False
    q_to[i] = q
    occ_next[q] = i
    q_to[k] = p
    occ_next[p] = k
    return True


@helper
def _candidates(ui, u, p, r, dp, act, budget, lz, g, gn, node, mem, occ_now, occ_next, ahead, tq, tk, detour, topo, occ,
                ndir, pw, width):
    """Member ``u``'s candidates from cell ``p`` into ``tq`` and their keys into ``tk`` (``crowd_pass``: eight
    times the steps to its goal, plus the ahead and goal rules; the front rule adds 4 later); returns how many."""
    c = 0
    for d in range(-1, ndir):
        q = p if d < 0 else g[p, d]
        if q < 0:
            continue
        if q != p and occ_now[q] < 0 and _blocked(ui, u, cid_of(q, pw, width), occ):
            continue
        if q != p and occ_now[q] >= 0:
            w = mem[occ_now[q]]
            if ui[w, TEAM] != ui[u, TEAM]:
                continue
            if ui[u, TARGET] >= 0 and ((ui[w, TARGET] == ui[u, TARGET] and ui[w, STATE] == ARRIVED) or (
                    q == ui[u, TARGET] and at_home(ui, w, topo, occ[10]))):
                continue  # a goal held at home, or a crowd stopped at its goal: it packs there (``decide``); a
                # unit moved off its own goal onto this one is no holder at home (taken for one, it was asked
                # aside by ``decide`` instead of traded places with: ``_trade_places``)
        dq = np.int64(0)
        if r >= 0:
            dq = _steps(lz, gn, r, node[q], budget, dp + 1 if dp < UNREACHABLE else UNREACHABLE, detour)
            if dq >= UNREACHABLE:
                continue
            if dp < UNREACHABLE:
                dq = min(max(dq, dp - 1), dp + 1)  # neighbours: one step nearer, as near, or one farther
        dq *= 8
        if ahead.shape[0] > 1 and ahead[q]:
            dq += 2
        if q != p and not act and occ_next[q] >= 0 and occ_next[q] != u:
            dq += 1  # a unit pushed aside keeps off the goals of others on their way
        if q != p and act and occ_now[q] >= 0 and ui[mem[occ_now[q]], TARGET] == q:
            dq += 1  # a unit on its way goes round one on its goal
        tq[c] = q
        tk[c] = dq
        c += 1
    return c


@helper
def _critical_band(mem, roots, nroots, dist0, shared, prio, band, last, rkey, update):
    """The roots that set the crowd's makespan go first among those that have waited as long (``CRITICAL``):
    rewrites ``rkey`` of the roots on their way (not of a group sent to one cell) as the whole part of their
    priority plus half its fraction, plus a half for one in the band; ``band[u]``: whether unit ``u`` was in the
    band at its last update (bit 0) and how many times it left it (the rest). The band is decided again only when
    ``update`` (every ``AGE`` ticks); between, each root keeps its place in it or out of it.

    Then, among the roots as high (the whole part and the band equal), one that stepped nearer its goal since it
    last chose (``last[u]``, its steps to go then, is more than now) goes first, before the fraction: the key is
    the whole part plus a half for the band, a quarter for a step onward and a quarter of the fraction. At a
    one-cell door crossed both ways the fraction (the distance when a unit joined) let the two streams take the
    door in turn, each unit pushing the other back a step (room-32-32-4 with 50 random pairs, seed 2: 59 ticks,
    the planner 44-47; 48 with this rule); a unit that got through keeps its way and the stream behind it flows,
    as a stream keeps a corridor in the planner's plans (docs/design/kernels.md, 2026-12-03)."""
    top = np.int64(-1)
    for j in range(nroots):
        i = roots[j]
        if not shared[i] and dist0[i] < UNREACHABLE and dist0[i] > top:
            top = dist0[i]
    for j in range(nroots):
        i = roots[j]
        if shared[i]:
            continue
        u = mem[i]
        b = np.int64(band[u])
        exits = b // 2
        crit = dist0[i] < UNREACHABLE and dist0[i] >= top - CRITICAL
        if not update:
            crit = b % 2 == 1 or exits >= BAND_EXITS
        elif crit:
            b = exits * 2 + 1
        elif b % 2 == 1:  # leaving the band
            exits += 1
            b = exits * 2
        if exits >= BAND_EXITS:
            crit = True
        if update:
            band[u] = min(b, 127)
        pu = prio[u]
        frac = pu - np.floor(pu)
        onward = last[u] < 0 or dist0[i] < last[u]
        last[u] = dist0[i]
        rkey[j] = -(np.floor((pu - frac) / AGE) + (1.0 if crit else 0.0) * 0.5 + (1.0 if onward else 0.0) * 0.25
                    + frac * 0.25)


@jit
def crowd_pass(units, order, clock, topo, occ, out, cz):
    """Move the standing vehicles that are in each other's way, as one (see the module); returns how many moved."""
    ui, uf, pool, tcost, revealed = units
    lz, nbr, gnode, node, urow, prio, band, last, least, stall, traded, occ_now, occ_next, detour = cz
    rng = out[4]
    tick = clock[0]
    width, pw = topo[7], topo[8]
    vehicle = occ[0]
    ndir = nbr.shape[2]
    nu = ui.shape[0]
    anyone = False  # (most ticks of units on their way none stands: no member, the order's goals not sorted)
    for i in range(order.shape[0]):
        if _active(ui, order[i], tick, topo, occ, urow, nbr) or _asks(ui, order[i], tick, topo, occ) >= 0:
            anyone = True
            break
    if not anyone:
        return 0
    midx = np.full(nu, -1, dtype=np.int64)
    mem = np.empty(order.shape[0], dtype=np.int64)
    m = np.int64(0)  # (int64 from the start, as ``nroots``: a literal 0 carried round a loop types a callee once more)
    together = _shared_goals(ui, order, order.shape[0], occ_next)
    # the seeds: on a 4-connected board every vehicle on its way; else, and for one of a group sent to one cell,
    # those that a standing friend vehicle blocks, or off their routes
    for i in range(order.shape[0]):
        u = order[i]
        if not _active(ui, u, tick, topo, occ, urow, nbr):
            continue
        q = _route_next(ui, pool, u)
        # (a route whose next cell is not a step away: off it)
        if (ndir != 4 or together[i]) and q >= 0 and direction(ui[u, CELL], q, topo) >= 0:
            w = vehicle[cid_of(q, pw, width)]
            if w < 0 or w == u or ui[w, TEAM] != ui[u, TEAM] or not _pushable(ui, w, tick):
                continue
        midx[u] = m
        mem[m] = u
        m += 1
    # the vehicles that soldiers wait for, with no free cell beside them: pushed on first, off their cells
    asked = np.full(mem.shape[0], -1, dtype=np.int64)  # (by member: the soldier that asks it, -1 none)
    for i in range(order.shape[0]):
        a = order[i]
        v = _asks(ui, a, tick, topo, occ)
        if v < 0:
            continue
        if midx[v] < 0:
            midx[v] = m
            mem[m] = v
            m += 1
        if asked[midx[v]] < 0:
            asked[midx[v]] = a
    if m == 0:
        return 0
    # the crowd round them: standing friend vehicles on cells a member may step to
    head = 0
    while head < m:
        u = mem[head]
        head += 1
        p = ui[u, CELL]
        cls = ui[u, CLS]
        for d in range(ndir):
            q = nbr[cls, p, d]
            if q < 0:
                continue
            w = vehicle[cid_of(q, pw, width)]
            if w < 0 or midx[w] >= 0 or ui[w, TEAM] != ui[u, TEAM] or not _pushable(ui, w, tick):
                continue
            if _sole(ui, cid_of(q, pw, width), occ) != w:
                continue
            midx[w] = m
            mem[m] = w
            m += 1
    q_from = np.empty(m, dtype=np.int64)
    q_to = np.full(m, -1, dtype=np.int64)
    for i in range(m):
        q_from[i] = ui[mem[i], CELL]
    for i in range(m):
        occ_now[q_from[i]] = i
    # candidates, nearest the goal first
    cand = np.empty((m, ndir + 1), dtype=np.int64)
    ncand = np.zeros(m, dtype=np.int64)
    keys = np.empty(ndir + 1, dtype=np.int64)
    nochain = np.zeros((1, 1, 3), dtype=np.int32)  # PIBT without swaps reads no corridors
    tq = np.empty(ndir + 1, dtype=np.int64)
    tk = np.empty(ndir + 1, dtype=np.int64)
    ckey = np.empty((m, ndir + 1), dtype=np.int64)
    fwd = np.zeros((m, 2), dtype=np.int64)
    dist0 = np.zeros(m, dtype=np.int64)
    budget = lz.free[2] + (max(WIDE_BUDGET, ROW_SHARE * m) if detour[1] * 16 > detour[0] * 17 else SEARCH_BUDGET)
    rkey = np.zeros(m, dtype=np.float64)
    near = np.zeros(m, dtype=np.bool_)
    mouth = np.zeros(m, dtype=np.bool_)
    slow = np.zeros(m, dtype=np.bool_)  # its diagonals count ``DIAGONAL`` steps more
    mixed = False
    shared = _shared_goals(ui, mem, m, occ_next)
    isroot = np.zeros(m, dtype=np.bool_)
    roots = np.empty(m, dtype=np.int64)
    nroots = np.int64(0)
    ahead = np.zeros(1, dtype=np.bool_)  # the next steps of the members' routes: a unit with nothing to do that is
    for i in range(m):                   # pushed keeps off them if it can (as ``move_aside``)
        if settled(ui, mem[i]):
            ahead = np.zeros(tcost.shape[1], dtype=np.bool_)
            for i2 in range(m):
                v = mem[i2]
                if _active(ui, v, tick, topo, occ, urow, nbr) and ui[v, NEED] == NEED_NONE:
                    for k in range(ui[v, ROFF] + ui[v, RPOS], min(ui[v, ROFF] + ui[v, RPOS] + 3, ui[v, ROFF] + ui[v, RLEN])):
                        ahead[pool[k]] = True
            break
    for i in range(nu):  # the goals of the vehicles not on them (marked in ``occ_next``, cleared before PIBT)
        if ui[i, KIND] == VEHICLE and ui[i, TARGET] >= 0 and ui[i, TARGET] != ui[i, CELL]:
            occ_next[ui[i, TARGET]] = i
    for i in range(m):
        u = mem[i]
        p = q_from[i]
        cls = ui[u, CLS]
        r = urow[u]
        g = nbr[cls]
        gn = gnode[cls]
        act = _active(ui, u, tick, topo, occ, urow, nbr)
        mine = budget
        for attempt in range(2):
            dp = np.int64(0)
            if r >= 0:
                dp = _steps(lz, gn, r, node[p], mine, UNREACHABLE, detour)
            c = _candidates(ui, u, p, r, dp, act, mine, lz, g, gn, node, mem, occ_now, occ_next, ahead, tq, tk, detour,
                            topo, occ, ndir, pw, width)
            # stalled: no cell nearer its goal by the estimates (walls the coordinates' bound does not see), its
            # own distance unsearched; it searches its row now, out of the tick's budget (the row's memory read
            # last: its first touch costs a page fault)
            if attempt > 0 or not act or r < 0 or dp <= 0 or dp >= UNREACHABLE or lz.free[2] >= budget + STALL_BUDGET:
                break
            stalled = True
            for k in range(c):
                if tk[k] // 8 < dp:
                    stalled = False
            if not stalled or (lz.st[r, S_FLAG] != 0 and lz.dist[r, node[p]] != 0):
                break
            mine = lz.free[2] + STALL_NODES
        # the way ahead: the sum of the steps one nearer the goal (keep right, below)
        if r >= 0 and dp < UNREACHABLE:
            for k in range(c):
                if tk[k] // 8 < dp:
                    dx, dy = _offset(p, tq[k], pw)
                    fwd[i, 0] += dx
                    fwd[i, 1] += dy
        n = 0
        for k in range(c):
            if asked[i] >= 0 and tq[k] == p:
                continue  # asked aside: it may not stay
            cand[i, n] = tq[k]
            ckey[i, n] = tk[k]
            n += 1
        dist0[i] = dp
        ncand[i] = n
        if ndir == 8 and r >= 0 and dp < UNREACHABLE and not shared[i]:
            if _slow_diagonals(ui, uf, tcost, u, p, topo, occ[10]):
                if least[u] < 0 or dp < least[u]:  # a new least distance, or a tick more off its goal without one
                    least[u] = dp
                    stall[u] = 0
                elif dp > 0 and stall[u] < PATIENCE:
                    stall[u] += 1
                slow[i] = stall[u] < PATIENCE
            else:
                mixed = True
        if act:
            isroot[i] = True
            if prio[u] <= 0.0:  # joining the crowd: a fraction that grows with the distance, kept till arrival
                prio[u] = dp / (dp + 1.0)
            prio[u] += 1.0
            if shared[i]:  # a group sent to one cell: every tick counts (the units nearest it settle first)
                rkey[nroots] = -prio[u]
            else:
                frac = prio[u] - np.floor(prio[u])
                rkey[nroots] = -(np.floor((prio[u] - frac) / AGE) + frac)
            roots[nroots] = i
            nroots += 1
        elif ui[u, STATE] == ARRIVED:
            prio[u] = 0.0
            band[u] = 0
            last[u] = -1
    if mixed:  # a member whose diagonals are not slow: none raised (``DIAGONAL``)
        slow[:] = False
    # the band that sets the makespan (4-connected boards), before the front rule: it asks who outranks whom
    if ndir == 4:
        _critical_band(mem, roots, nroots, dist0, shared, prio, band, last, rkey, tick % AGE == 0)
    rootof = np.full(m, -1, dtype=np.int64)
    for j in range(nroots):
        rootof[roots[j]] = j
    # the front rule (4-connected boards): a unit that a member on its way may push (one with nothing to do, or on
    # its way with a lower priority) keeps out of that member's way among its cells as near its own goal: not one
    # cell further along it, nor a cell nearer that member's goal than its own (the planner's ``DODGE``); ahead of
    # it, it was pushed again at the next tick, and the next (a unit off its goal was driven 26 cells along a
    # board's edge by one on its way, its other neighbour on the route of a second: empty-48-48, 600 random pairs;
    # at the one-cell doors of rooms, units pushed ahead of a stream through the door held it). The pusher's
    # distances are read, bounded or estimated, never searched: the tick's budget is for the members' own rows.
    if ndir == 4:
        for i in range(m):
            if not isroot[i] or dist0[i] >= UNREACHABLE:
                continue
            p = q_from[i]
            ri = urow[mem[i]]
            gi = gnode[ui[mem[i], CLS]]
            for k in range(ncand[i]):
                c = cand[i, k]
                j = occ_now[c]
                dc = ckey[i, k] // 8
                if c == p or j < 0 or dc >= dist0[i] or (isroot[j] and rkey[rootof[j]] < rkey[rootof[i]]):
                    continue
                dx, dy = _offset(p, c, pw)
                for k2 in range(ncand[j]):
                    q = cand[j, k2]
                    if q == c or q == p or ckey[j, k2] % 8 >= 4:
                        continue
                    ex, ey = _offset(c, q, pw)
                    if (ex == dx and ey == dy) or _steps(lz, gi, ri, node[q], lz.free[2], dc + 1, detour) < dc:
                        ckey[j, k2] += 4
    # keep right (4-connected boards): a member on its way (not one of a group sent to one cell), more than
    # KEEP_RIGHT steps from its goal, takes among candidates otherwise equal the one on the right of its way
    # first, then straight on (or back, or staying), then the left one
    for i in range(m):
        p = q_from[i]
        fx, fy = fwd[i, 0], fwd[i, 1]
        lanes = ndir == 4 and (fx != 0 or fy != 0) and isroot[i] and not shared[i] and dist0[i] > KEEP_RIGHT
        best = np.int64(0)
        for k in range(ncand[i]):
            q = cand[i, k]
            lane = np.int64(1)
            if lanes and q != p:
                dx, dy = _offset(p, q, pw)
                side = dy * fx - dx * fy
                lane = np.int64(0) if side > 0 else (np.int64(2) if side < 0 else np.int64(1))
            pen = np.int64(0)
            if slow[i] and q != p:
                dx, dy = _offset(p, q, pw)
                if dx != 0 and dy != 0 and _open_corners(nbr[ui[mem[i], CLS]], p, dx, dy, pw):
                    pen = np.int64(DIAGONAL * 8)
                    lane = np.int64(2)
            key = ((ckey[i, k] + pen) * 4 + lane) * 64 + np.int64(_rand(rng) % np.uint64(64))
            j = k
            while j > 0 and keys[j - 1] > key:
                keys[j] = keys[j - 1]
                cand[i, j] = cand[i, j - 1]
                j -= 1
            keys[j] = key
            cand[i, j] = q
            if j == 0:
                best = ckey[i, k]
        # its best candidate is nearer its goal (``_trade_places``; by the tables' steps, not the ticks)
        near[i] = ncand[i] > 0 and cand[i, 0] != p and best // 8 < dist0[i]
        if ndir == 4 and near[i]:  # at the mouth of a door: the cell behind it, on the axis of its best step, narrow
            g = nbr[ui[mem[i], CLS]]
            sx, sy = _offset(p, cand[i, 0], pw)
            for d in range(ndir):
                b = g[p, d]
                if b >= 0:
                    ex, ey = _offset(p, b, pw)
                    if ex == -sx and ey == -sy:
                        mouth[i] = _narrow(g, b, pw)
    for i in range(nu):
        if ui[i, KIND] == VEHICLE and ui[i, TARGET] >= 0:
            occ_next[ui[i, TARGET]] = -1
    # PIBT, the highest priority first (ties: the tick's random order)
    rank = np.argsort(rkey[:nroots], kind="mergesort")
    st_agent = np.empty(m + 1, dtype=np.int64)
    st_pos = np.empty(m + 1, dtype=np.int64)
    lender = np.full(m, -1, dtype=np.int64)
    g0 = nbr[0]  # (unused: the candidates are listed)
    for i in range(m):  # the cell a soldier waits for, held by a vehicle with no goal: no member takes it (a ring
        if asked[i] >= 0 and ui[mem[i], TARGET] < 0:  # of such vehicles, all their cells as near, took the asked one
            occ_next[q_from[i]] = i                    # round and another onto the soldier's way)
    for i in range(m):  # the vehicles soldiers wait for first: a free cell for each, the way PIBT pushes
        if asked[i] >= 0 and q_to[i] < 0:
            pibt(i, q_from, q_to, occ_now, occ_next, st_agent, st_pos, ncand, cand, lender, 0, g0, nochain, lz, urow,
                 rng, keys, 0)
    # trades where two units cannot go round each other before any chain: in the order of priority, each root
    # farther than NEAR_HOME from its goal with its best candidate's holder, as far from its own, even where a root
    # before wants one of the two cells (it takes its next candidate); a trade at a door's mouth, or of a unit near
    # its goal, keeps its turn below. In the chains, a unit at a one-cell door was pushed back from it by a chain of
    # the stream coming through the other way (the last unit of a held-out rooms instance four ticks late: its trade
    # with the door's holder refused while the root behind that holder wanted the door first). Near their goals,
    # trades first churned a packed crowd (units at home traded off their goals and back). Each unit trades so only
    # from nearer its goal than at its last such trade (``traded``): the chains undid such trades and the same pair
    # traded again every few ticks, for good; bounded so, a unit's trades before the chains are fewer than its steps
    # to go at its first. Square boards with diagonals too; hex boards, not measured, as before (the measurements:
    # benchmarks/README.md, "Trades before the chains"; docs/design/kernels.md, "trades before the chains there too")
    if ndir != 6:
        nomouth = np.zeros(m, dtype=np.bool_)
        for j in range(nroots):
            i = roots[rank[j]]
            if ncand[i] == 0 or q_to[i] >= 0 or dist0[i] <= NEAR_HOME:
                continue
            o = occ_now[cand[i, 0]]
            if o < 0 or dist0[o] <= NEAR_HOME:
                continue
            ti = traded[mem[i]]
            to = traded[mem[o]]
            if (ti >= 0 and dist0[i] >= ti) or (to >= 0 and dist0[o] >= to):
                continue
            if _trade_places(i, q_from, q_to, occ_now, occ_next, cand, ncand, near, nomouth):
                traded[mem[i]] = dist0[i]
                traded[mem[o]] = dist0[o]
    for j in range(nroots):
        i = roots[rank[j]]
        if q_to[i] < 0 and not _trade_places(i, q_from, q_to, occ_now, occ_next, cand, ncand, near, mouth):
            pibt(i, q_from, q_to, occ_now, occ_next, st_agent, st_pos, ncand, cand, lender, 0, g0, nochain, lz, urow, rng,
                 keys, 0)
    # start the moves, the unit ahead first; a ring trades places
    state = np.zeros(m, dtype=np.int8)  # 0 to do, 1 on the stack, 2 moved, 3 stays
    stack = np.empty(m + 1, dtype=np.int64)
    ring = np.empty(m, dtype=np.int64)
    wants = np.empty(m, dtype=np.int64)
    land = np.empty(m, dtype=np.int64)
    nexts = np.empty(m, dtype=np.int64)
    moved = 0
    for i0 in range(m):
        if q_to[i0] < 0 or q_to[i0] == q_from[i0] or state[i0] != 0:
            continue
        stack[0] = i0
        state[i0] = 1
        depth = 1
        while depth > 0:
            i = stack[depth - 1]
            j = occ_now[q_to[i]]
            if j >= 0 and j != i and state[j] == 0 and q_to[j] >= 0 and q_to[j] != q_from[j]:
                state[j] = 1
                stack[depth] = j
                depth += 1
                continue
            if j >= 0 and j != i and state[j] == 1:  # a ring: stack[at..] each wants the next one's cell
                at = depth - 1
                while stack[at] != j:
                    at -= 1
                k = depth - at
                # of any length where its members have one speed (refused beyond 64 units, a packed crowd's rings
                # stood with every unit behind them, up to 890 planned moves a tick of 1700 on an open board nine
                # cells in ten held); a longer ring of mixed speeds would move at its slowest member's pace
                ok = True
                if k > CROWD_CYCLE:
                    for t in range(1, k):
                        if ui[mem[stack[at + t]], SPEED] != ui[mem[stack[at]], SPEED]:
                            ok = False
                            break
                if ok and ndir == 4 and _churns(ui, mem, stack, at, k, q_from, q_to, dist0):
                    ok = False
                if ok:
                    for t in range(k):
                        v = mem[stack[at + t]]
                        ring[t] = v
                        wants[t] = q_to[stack[at + t]]
                        land[t] = occ[6][v]
                        nexts[t] = ui[v, RPOS]
                        if _sole(ui, cid_of(q_from[stack[at + t]], pw, width), occ) != v:
                            ok = False
                if ok:
                    _ring(ui, ring, wants, land, k, ring[0], tick, topo, occ, out)
                    for t in range(k):
                        v = ring[t]
                        ui[v, RPOS] = nexts[t]
                        _follow(ui, pool, v, wants[t])
                        if isroot[stack[at + t]]:
                            ui[v, STATE] = MOVING
                            ui[v, REASON] = R_NONE
                    advance(units, ring[0], tick, topo, occ, out)
                    moved += k
                for t in range(k):
                    state[stack[at + t]] = 2 if ok else 3
                depth = at
                continue
            # the cell is free, or its holder has gone (or stays: then the step is refused)
            u = mem[i]
            q = q_to[i]
            d = direction(ui[u, CELL], q, topo)
            if d >= 0 and start_step(ui, uf, u, q, d, topo, occ, rng):
                state[i] = 2
                moved += 1
                _follow(ui, pool, u, q)
                if isroot[i]:
                    ui[u, STATE] = MOVING
                    ui[u, REASON] = R_NONE
                    ui[u, WAITED] = 0
                else:
                    _event(out, tick, u, np.int64(EV_ASIDE), q, mem[lender[i]] if lender[i] >= 0 else asked[i])
                if ui[u, ROT] >= 0:
                    advance(units, u, tick, topo, occ, out)
                elif ui[u, MOVED] != tick:  # (``advance`` without a kernel's call)
                    ui[u, MOVED] = tick
                    _advance_step(ui, uf, tcost, u, tick, topo, occ, out)
            else:
                state[i] = 3
            depth -= 1
    # a vehicle on its way left standing whose way by the tables is a cell of friend soldiers (no vehicle enters
    # one): it trades places with them where they have nothing to do (``_trade``; its planned way round was taken
    # back by the tables, to and fro for good); they go back on their own turns once it has passed
    infantry = occ[2]
    for i in range(m):
        u = mem[i]
        if not isroot[i] or ui[u, NXT] >= 0 or ui[u, ROT] >= 0 or ui[u, MOVED] == tick or dist0[i] <= 0:
            continue
        if dist0[i] >= UNREACHABLE:
            continue
        p = q_from[i]
        cls = ui[u, CLS]
        for d in range(ndir):
            q = nbr[cls, p, d]
            if q < 0 or not _soldiers_on(ui, infantry, cid_of(q, pw, width), u):
                continue
            if _steps(lz, gnode[cls], urow[u], node[q], budget, dist0[i], detour) >= dist0[i]:
                continue
            rpos = ui[u, RPOS]
            if _trade(units, u, q, tick, topo, occ, out, np.bool_(False)):
                ui[u, RPOS] = rpos
                _follow(ui, pool, u, q)
                ui[u, STATE] = MOVING
                ui[u, REASON] = R_NONE
                ui[u, WAITED] = 0
                advance(units, u, tick, topo, occ, out)
                moved += 1
                break
    for i in range(m):
        occ_now[q_from[i]] = -1
        if q_to[i] >= 0:
            occ_next[q_to[i]] = -1
        if asked[i] >= 0 and ui[mem[i], TARGET] < 0:
            occ_next[q_from[i]] = -1
    return moved


@jit
def class_graph(tc, topo, out):
    """``out[p, d]``: the padded cell one step from ``p`` in direction ``d`` for terrain costs ``tc`` (-1: none).

    Returns the coordinate metric no step changes by more than one (``lazydist``'s heuristic): 1 Manhattan,
    2 Chebyshev, 0 none.
    """
    off, ndir, pmode, wrap, width, pw = topo[0], topo[4], topo[5], topo[6], topo[7], topo[8]
    manhattan = True
    chebyshev = True
    for p in range(out.shape[0]):
        for d in range(ndir):
            out[p, d] = -1
        if not tc[p] < np.inf:
            continue
        for d in range(ndir):
            if legal(tc, p, d, topo):
                q = step_to(p, d, off, ndir, pmode, wrap, width, pw)
                out[p, d] = q
                dx = abs(q % pw - p % pw)
                dy = abs(q // pw - p // pw)
                if dx + dy > 1:
                    manhattan = False
                if max(dx, dy) > 1:
                    chebyshev = False
    return 1 if manhattan else (2 if chebyshev else 0)


@jit
def node_graph(nbr, node, cell, out):
    """``out[v, d]``: graph ``nbr`` (over padded cells, ``class_graph``) over nodes: ``node[p]`` is cell ``p``'s
    node, ``cell[v]`` node ``v``'s cell (-1: none, no steps)."""
    for v in range(out.shape[0]):
        p = cell[v]
        for d in range(out.shape[1]):
            out[v, d] = -1 if p < 0 or nbr[p, d] < 0 else node[nbr[p, d]]
    return 0
