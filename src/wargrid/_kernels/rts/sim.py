"""Kernels of the RTS simulation: one tick of every unit, local route repair, route descent.

Unit state is one ``int64`` table ``ui[uid, column]`` and one ``float64`` table
``uf[uid, column]`` (columns and codes in ``layout``, read by ``wargrid.rts.sim`` too). Cells in
routes, ``CELL``, ``TARGET``, ``NXT`` and ``AVOID`` are padded ids of the
board's ``Topology``; the occupancy arrays (``wargrid.rts.occupancy``) are
indexed by unpadded cell ids ``y * width + x``.

Bundles (tuples) keep the signatures short:

- ``topo``: ``(off, stepl, corner, crule, ndir, pmode, wrap, width, pw, rank)``;
- ``occ``: ``(vehicle, building, infantry, rcell, rspot, wcell, wspot, rescell, resspot, spots, leptons)``;
- ``units``: ``(ui, uf, pool, tcost, revealed)``: the two tables; the routes (unit ``u``'s is
  ``pool[ROFF : ROFF + RLEN]``, ``RPOS`` its next step); each movement class's padded terrain costs
  ``tcost[class, cell]``; ``revealed[team row, uid]``, the hidden enemies each team has found;
- ``clock``: ``(tick, patience)``;
- ``limits`` and ``scratch`` of ``repair``: ``(ahead, max_nodes, gen)`` and ``(stamp, g, parent, heap, out)``;
- ``out``: ``(events, n_events, moves, n_moves, rng, flags)``: events ``(tick, uid, code, a, b)``,
  moves ``(uid, cell)`` (the trail), a xorshift state, ``flags[0]`` set when an obstacle fell.
"""

from __future__ import annotations

import numpy as np

from .._jit import helper, jit
from ..movement.steps import corner_ok, direction_to, step_to
from .layout import (  # the tables' columns and codes: one home, shared with ``wargrid.rts.sim``
    ARRIVED, ATTACKING, AVOID, BUILDING, CELL, CLOAKED, CLOSE, CLS, DAMAGE, DESTROYED, DIR, E_CLOAKED,
    E_DESTROYABLE, E_FRIEND, E_IMPASSABLE, E_MOVING, E_OK, EV_ARRIVED, EV_ASIDE, EV_ASKED, EV_CROWD,
    EV_DESTROYED, EV_FOUND, EV_REPLAN, EV_SWAP, FACING, GOAL_BUSY, GOAL_FREE, GOAL_SQUATTED, GOAL_TAKEN,
    CONDITION_YELLOW, HEALTH_FLOOR, HEALTH_LINEAR, HRULE, HP, HP0, IDLE, INFANTRY, KIND, MAX_CYCLE, MOVED, MOVING,
    NEED, NEED_NONE, NEED_PLAN, YELLOW_SPEED,
    NEED_REPAIR, NXT, OBSTACLE, PROG, R_ATTACK, R_HIDDEN, R_NONE, R_REROUTE, R_TURNING, R_WAIT_FRIEND, R_WAIT_MOVING,
    RARG, RCELL, REASON, RLEN, ROFF, ROT, RPOS, SLEN, SPEED, STATE, STUCK, TARGET, TEAM, TROW, TURNLEFT,
    TURNRATE, VEHICLE, WAITED, WAITING,
)

INF = np.inf


@jit
def _rand(rng):
    x = rng[0]
    x ^= (x << np.uint64(13)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    x ^= x >> np.uint64(7)
    x ^= (x << np.uint64(17)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    rng[0] = x
    return x


@helper
def _randint(rng, n):
    return np.int64(_rand(rng) % np.uint64(n))


@jit
def cid_of(p, pw, width):
    return (p // pw - 1) * width + (p % pw - 1)


@helper
def _event(out, tick, uid, code, a, b):
    """Append event ``(tick, uid, code, a, b)``. Callers pass constants as ``np.int64(EV_...)``: numba types a bare
    constant as a literal, and each literal compiled ``_event`` (and ``_arrive``, ``_wait``) once more."""
    ev, nev = out[0], out[1]
    i = nev[0]
    if i < ev.shape[0]:
        ev[i, 0] = tick
        ev[i, 1] = uid
        ev[i, 2] = code
        ev[i, 3] = a
        ev[i, 4] = b
        nev[0] = i + 1


@helper
def _log_move(out, u, q):
    mv, nmv = out[2], out[3]
    i = nmv[0]
    if i < mv.shape[0]:
        mv[i, 0] = u
        mv[i, 1] = q
        nmv[0] = i + 1


@jit
def lepton(ui, u, topo, leptons):
    """Unit ``u``'s position in leptons (square lepton layout: cell * leptons + half)."""
    return _lepton_at(ui, u, topo[8], topo[6], leptons)


@jit
def _lepton_at(ui, u, pw, wrap, leptons):
    p = ui[u, CELL]
    px, py = p % pw - 1, p // pw - 1
    h = leptons // 2
    x = px * leptons + h
    y = py * leptons + h
    q = ui[u, NXT]
    if q >= 0 and ui[u, SLEN] > 0:
        dx = (q % pw - 1) - px
        dy = (q // pw - 1) - py
        if wrap and (dx > 1 or dx < -1):
            dx = -1 if dx > 0 else 1
        x += dx * leptons * ui[u, PROG] // ui[u, SLEN]
        y += dy * leptons * ui[u, PROG] // ui[u, SLEN]
    return x, y


@jit
def leptons_of(ui, n, xy, wrap, leptons, out):
    """``out[u]``: unit ``u``'s position in leptons, for the first ``n`` units.

    ``xy[p]``: padded cell ``p``'s ``(x, y)`` (a table: no division for a standing unit).
    """
    h = leptons // 2
    for u in range(n):
        p = ui[u, CELL]
        px = xy[p, 0]
        py = xy[p, 1]
        x = px * leptons + h
        y = py * leptons + h
        q = ui[u, NXT]
        if q >= 0 and ui[u, SLEN] > 0:
            dx = xy[q, 0] - px
            dy = xy[q, 1] - py
            if wrap and (dx > 1 or dx < -1):
                dx = -1 if dx > 0 else 1
            x += dx * leptons * ui[u, PROG] // ui[u, SLEN]
            y += dy * leptons * ui[u, PROG] // ui[u, SLEN]
        out[u, 0] = x
        out[u, 1] = y
    return n


@jit
def cells_of(ui, n, xy, out):
    """``out[u]``: unit ``u``'s cell ``(x, y)``, for the first ``n`` units (``xy`` as in ``leptons_of``)."""
    for u in range(n):
        p = ui[u, CELL]
        out[u, 0] = xy[p, 0]
        out[u, 1] = xy[p, 1]
    return n


@jit
def _moving(ui, v):
    if ui[v, NXT] >= 0:
        return True
    s = ui[v, STATE]
    return ui[v, TARGET] >= 0 and (s == IDLE or s == MOVING or s == WAITING)


@helper
def settled(ui, v):
    """A unit standing still with nothing to do: no goal, or arrived, or stuck."""
    if ui[v, NXT] >= 0 or ui[v, KIND] > VEHICLE:
        return False
    s = ui[v, STATE]
    return ui[v, TARGET] < 0 or s == ARRIVED or s == STUCK


@helper
def at_home(ui, v, topo, leptons):
    """A unit with nothing to do that stands where it belongs: no goal (it stays put), or arrived on its goal."""
    if not settled(ui, v):
        return False
    return ui[v, TARGET] < 0 or (ui[v, STATE] == ARRIVED and arrived(ui, v, topo, leptons))


@jit
def goal_state(ui, u, occ, topo):
    """How unit ``u``'s target cell is held: ``GOAL_FREE``, ``GOAL_TAKEN`` (by units at home, or for good),
    ``GOAL_BUSY`` (units moving in or through it) or ``GOAL_SQUATTED`` (only by friends with nothing to do
    that are not at home: they are asked aside)."""
    c = cid_of(ui[u, TARGET], topo[8], topo[7])
    if not _blocked(ui, u, c, occ):
        return GOAL_FREE
    vehicle, building, infantry, rcell, rspot = occ[0], occ[1], occ[2], occ[3], occ[4]
    if building[c] >= 0:
        return GOAL_TAKEN
    home = False
    busy = rcell[c] >= 0 and rcell[c] != u
    squat = False
    for s in range(-1, infantry.shape[1]):
        v = vehicle[c] if s < 0 else infantry[c, s]
        if s >= 0 and rspot[c, s] >= 0 and rspot[c, s] != u:
            busy = True
        if v < 0 or v == u:
            continue
        if ui[v, TEAM] != ui[u, TEAM] or at_home(ui, v, topo, occ[10]):
            home = True
        elif settled(ui, v) and ui[v, ROT] < 0:
            squat = True
        else:
            busy = True
    if ui[u, KIND] == VEHICLE:
        return GOAL_TAKEN if home else (GOAL_BUSY if busy else GOAL_SQUATTED)
    return GOAL_SQUATTED if squat else (GOAL_BUSY if busy else GOAL_TAKEN)


@jit
def _blocked(ui, u, c, occ):
    """Whether unit ``u`` cannot enter unpadded cell ``c`` now (its own claims do not block it)."""
    vehicle, building, infantry, rcell, rspot = occ[0], occ[1], occ[2], occ[3], occ[4]
    if building[c] >= 0:
        return True
    if vehicle[c] >= 0 and vehicle[c] != u:
        return True
    if rcell[c] >= 0 and rcell[c] != u:
        return True
    ns = infantry.shape[1]
    for s in range(ns):  # a cell whose soldier is trading places is closed until the trade lands
        a = infantry[c, s]
        if a >= 0 and a != u and ui[a, ROT] >= 0:
            return True
    if ui[u, KIND] == VEHICLE:
        for s in range(ns):
            a = infantry[c, s]
            b = rspot[c, s]
            if (a >= 0 and a != u) or (b >= 0 and b != u):
                return True
        return False
    for s in range(ns):
        a = infantry[c, s]
        b = rspot[c, s]
        if (a < 0 or a == u) and (b < 0 or b == u):
            return False
    return True


@helper
def _rate(ui, uf, u, v, truth, revealed, reserver):
    """The ladder category of unit ``v`` in the way of unit ``u``."""
    kv = ui[v, KIND]
    if kv == BUILDING:
        return E_IMPASSABLE
    if kv == OBSTACLE:
        return E_DESTROYABLE if uf[u, DAMAGE] > 0 else E_IMPASSABLE
    if ui[v, TEAM] != ui[u, TEAM] and ui[v, CLOAKED] != 0 and not truth and not revealed[ui[u, TROW], v]:
        return E_CLOAKED
    if reserver or _moving(ui, v):
        return E_MOVING
    if ui[v, TEAM] == ui[u, TEAM]:
        return E_FRIEND
    return E_DESTROYABLE if uf[u, DAMAGE] > 0 else E_IMPASSABLE


@helper
def category(units, u, q, truth, topo, occ):
    """``(entry category, the unit behind it or -1)`` of padded cell ``q`` for unit ``u``."""
    ui, uf, pool, tcost, revealed = units
    if not tcost[ui[u, CLS], q] < INF:
        return E_IMPASSABLE, -1
    c = cid_of(q, topo[8], topo[7])
    if not _blocked(ui, u, c, occ):
        return E_OK, -1
    vehicle, building, infantry, rcell, rspot = occ[0], occ[1], occ[2], occ[3], occ[4]
    worst = E_OK
    who = -1
    for k in range(3):
        v = building[c] if k == 0 else (vehicle[c] if k == 1 else rcell[c])
        if v >= 0 and v != u:
            e = _rate(ui, uf, u, v, truth, revealed, k == 2)
            if e > worst or who < 0:
                worst = max(worst, e)
                who = v
    for s in range(infantry.shape[1]):
        for k in range(2):
            v = infantry[c, s] if k == 0 else rspot[c, s]
            if v >= 0 and v != u:
                e = _rate(ui, uf, u, v, truth, revealed, k == 1)
                if e > worst or who < 0:
                    worst = max(worst, e)
                    who = v
    return worst, who


@helper
def direction(p, q, topo):
    """``direction_to`` with the simulation's topology bundle."""
    return direction_to(p, q, topo[0], topo[4], topo[5], topo[6], topo[7], topo[8])


@helper
def legal(tc, p, d, topo):
    """Whether a unit with padded terrain costs ``tc`` may step from ``p`` in direction ``d``."""
    off, corner, crule, ndir, pmode, wrap, width, pw = topo[0], topo[2], topo[3], topo[4], topo[5], topo[6], topo[7], topo[8]
    q = step_to(p, d, off, ndir, pmode, wrap, width, pw)
    if not tc[q] < INF:
        return False
    return crule == 0 or corner_ok(tc, p, d, corner, crule, off, ndir, pmode, wrap, width, pw)


@jit
def _spot(occ, c, u, near_x, near_y, pw_width, rng):
    """The free sub-spot of unpadded cell ``c`` nearest to lepton point ``near`` (fair random ties), or -1."""
    infantry, rspot, spots, leptons = occ[2], occ[4], occ[9], occ[10]
    width = pw_width
    cx = (c % width) * leptons + leptons // 2
    cy = (c // width) * leptons + leptons // 2
    best = -1
    bd = 0
    ties = 0
    for s in range(infantry.shape[1]):
        a = infantry[c, s]
        b = rspot[c, s]
        if not ((a < 0 or a == u) and (b < 0 or b == u)):
            continue
        dx = cx + spots[s, 0] - near_x
        dy = cy + spots[s, 1] - near_y
        d = dx * dx + dy * dy
        if best < 0 or d < bd:
            best = s
            bd = d
            ties = 1
        elif d == bd:
            ties += 1
            if _randint(rng, ties) == 0:
                best = s
    return best


@helper
def _lift(ui, u, occ):
    """Take unit ``u`` off its cell."""
    vehicle, infantry, wcell, wspot = occ[0], occ[2], occ[5], occ[6]
    c = wcell[u]
    if c < 0:
        return
    if ui[u, KIND] == VEHICLE:
        vehicle[c] = -1
    else:
        infantry[c, wspot[u]] = -1
    wcell[u] = -1
    wspot[u] = -1


@helper
def _put(ui, u, c, s, occ):
    vehicle, infantry, wcell, wspot = occ[0], occ[2], occ[5], occ[6]
    if ui[u, KIND] == VEHICLE:
        vehicle[c] = u
        s = -1
    else:
        infantry[c, s] = u
    wcell[u] = c
    wspot[u] = s


@jit
def release(u, occ):
    rcell, rspot, rescell, resspot = occ[3], occ[4], occ[7], occ[8]
    c = rescell[u]
    if c < 0:
        return
    if resspot[u] < 0:
        rcell[c] = -1
    else:
        rspot[c, resspot[u]] = -1
    rescell[u] = -1
    resspot[u] = -1


@jit
def _turns(a, b, topo):
    rank, ndir = topo[9], topo[4]
    k = abs(rank[a] - rank[b])
    return min(k, ndir - k)


@helper
def start_step(ui, uf, u, q, d, topo, occ, rng):
    """Reserve padded cell ``q`` for unit ``u`` and start the step in direction ``d``; False if it is taken."""
    width, pw = topo[7], topo[8]
    c = cid_of(q, pw, width)
    if _blocked(ui, u, c, occ):
        return False
    if ui[u, KIND] == VEHICLE:
        s = -1
        occ[3][c] = u
    else:
        x, y = lepton(ui, u, topo, occ[10])
        s = _spot(occ, c, u, x, y, width, rng)
        if s < 0:
            return False
        occ[4][c, s] = u
    occ[7][u] = c
    occ[8][u] = s
    ui[u, NXT] = q
    ui[u, DIR] = d
    ui[u, PROG] = 0
    ui[u, SLEN] = np.int64(np.round(topo[1][d] * occ[10]))
    ui[u, ROT] = -1
    ui[u, TURNLEFT] = 0
    rate = uf[u, TURNRATE]
    if rate > 0 and ui[u, FACING] >= 0 and ui[u, FACING] != d:
        ui[u, TURNLEFT] = np.int64(np.ceil(_turns(ui[u, FACING], d, topo) / rate - 1e-9))
    return True


@helper
def speed_into(ui, uf, u, q, tcost):
    """Leptons a tick for unit ``u`` entering padded cell ``q``: speed x health factor / terrain cost."""
    health = uf[u, HP] / uf[u, HP0] if uf[u, HP0] > 0 else 1.0
    if ui[u, HRULE] == HEALTH_LINEAR:
        f = max(HEALTH_FLOOR, min(1.0, health))
    else:
        f = YELLOW_SPEED if health <= CONDITION_YELLOW else 1.0
    c = tcost[ui[u, CLS], q]
    return max(1, np.int64(ui[u, SPEED] * f / max(c, 1e-9)))


@helper
def arrived(ui, u, topo, leptons):
    t = ui[u, TARGET]
    if t < 0:
        return False
    if ui[u, CELL] == t:
        return True
    if ui[u, CLOSE] <= 0:
        return False
    x, y = lepton(ui, u, topo, leptons)
    pw = topo[8]
    h = leptons // 2
    dx = abs(x - ((t % pw - 1) * leptons + h))
    dy = abs(y - ((t // pw - 1) * leptons + h))
    return max(dx, dy) + min(dx, dy) // 2 <= ui[u, CLOSE]


@helper
def _arrive(ui, u, tick, out, code, a):
    ui[u, STATE] = ARRIVED
    ui[u, REASON] = R_NONE
    ui[u, WAITED] = 0
    ui[u, RPOS] = ui[u, RLEN]
    _event(out, tick, u, code, ui[u, CELL], a)


@helper
def _enter(ui, u, tick, occ, topo, out):
    """Unit ``u`` finished its step: it stands on its next cell."""
    q = ui[u, NXT]
    c = cid_of(q, topo[8], topo[7])
    s = occ[8][u]
    _lift(ui, u, occ)
    release(u, occ)
    _put(ui, u, c, s, occ)
    ui[u, CELL] = q
    ui[u, NXT] = -1
    ui[u, PROG] = 0
    ui[u, FACING] = ui[u, DIR]
    ui[u, ROT] = -1
    _log_move(out, u, q)
    if ui[u, STATE] != ARRIVED and arrived(ui, u, topo, occ[10]):
        _arrive(ui, u, tick, out, np.int64(EV_ARRIVED), np.int64(-1))


@jit
def _advance_cycle(units, u, tick, topo, occ, out):
    """Units that trade places (a swap or a longer cycle) move as one and land on the same tick."""
    ui, uf, pool, tcost, revealed = units
    sp = 1 << 40
    slen = 0
    m = 0  # the ring's units (it may hold every unit)
    v = u
    for _ in range(ui.shape[0]):
        sp = min(sp, speed_into(ui, uf, v, ui[v, NXT], tcost))
        slen = max(slen, ui[v, SLEN])
        m += 1
        v = ui[v, ROT]
        if v == u:
            break
    prog = ui[u, PROG] + sp
    v = u
    for _ in range(m):
        ui[v, PROG] = min(prog, ui[v, SLEN] - 1) if prog < slen else ui[v, SLEN]
        ui[v, MOVED] = tick
        v = ui[v, ROT]
    if prog < slen:
        return
    # everyone leaves, then everyone lands (on the spot ``_ring`` chose)
    members = np.empty(m, dtype=np.int64)
    v = u
    for i in range(m):
        members[i] = v
        v = ui[v, ROT]
    for i in range(m):
        _lift(ui, members[i], occ)
    for i in range(m):
        v = members[i]
        q = ui[v, NXT]
        c = cid_of(q, topo[8], topo[7])
        s = occ[8][v]
        occ[8][v] = -1
        _put(ui, v, c, s, occ)
        ui[v, CELL] = q
        ui[v, NXT] = -1
        ui[v, PROG] = 0
        ui[v, FACING] = ui[v, DIR]
        ui[v, ROT] = -1
        _log_move(out, v, q)
    for i in range(m):
        v = members[i]
        if ui[v, TARGET] >= 0 and ui[v, STATE] != ARRIVED and arrived(ui, v, topo, occ[10]):
            _arrive(ui, v, tick, out, np.int64(EV_ARRIVED), np.int64(-1))


@jit
def advance(units, u, tick, topo, occ, out):
    """Unit ``u`` goes on with its step this tick (once a tick; a cycle's units move as one, ``_advance_cycle``)."""
    ui, uf, pool, tcost, revealed = units
    if ui[u, MOVED] == tick:
        return
    ui[u, MOVED] = tick
    if ui[u, ROT] >= 0:
        ui[u, MOVED] = tick - 1
        _advance_cycle(units, u, tick, topo, occ, out)
        return
    _advance_step(ui, uf, tcost, u, tick, topo, occ, out)


@helper
def _advance_step(ui, uf, tcost, u, tick, topo, occ, out):
    """``advance`` of a unit in no cycle (``ROT`` < 0) once ``MOVED`` is set. A helper: the tick's loops call it
    for every moving unit without the reference counting of a kernel's call (``advance`` counts every array of
    its four bundles in and out, some 70 atomic operations a call: 13 % of the frame test's samples went to
    them, docs/design/kernels.md)."""
    if ui[u, TURNLEFT] > 0:
        ui[u, TURNLEFT] -= 1
        ui[u, REASON] = R_TURNING
        return
    if ui[u, REASON] == R_TURNING:
        ui[u, REASON] = R_NONE
    ui[u, PROG] += speed_into(ui, uf, u, ui[u, NXT], tcost)
    if ui[u, PROG] >= ui[u, SLEN]:
        _enter(ui, u, tick, occ, topo, out)


@helper
def _sole(ui, c, occ):
    """The one unit holding unpadded cell ``c`` alone, with no reservation on it, or -1."""
    vehicle, building, infantry, rcell, rspot = occ[0], occ[1], occ[2], occ[3], occ[4]
    if building[c] >= 0 or rcell[c] >= 0:
        return -1
    who = vehicle[c]
    for s in range(infantry.shape[1]):
        if rspot[c, s] >= 0:
            return -1
        if infantry[c, s] >= 0:
            if who >= 0:
                return -1
            who = infantry[c, s]
    return who


@helper
def _wanted(ui, v):
    """The next cell unit ``v`` wants to enter (standing, on its route), or -1."""
    if ui[v, NXT] >= 0 or ui[v, TARGET] < 0 or ui[v, NEED] != NEED_NONE or ui[v, RPOS] >= ui[v, RLEN]:
        return -1
    s = ui[v, STATE]
    if s == ARRIVED or s == STUCK or s == DESTROYED:
        return -1
    return -2


@jit
def _ring(ui, members, wants, land, m, u, tick, topo, occ, out):
    """Start a trade of places: ``members[i]`` steps to ``wants[i]``, landing on spot ``land[i]``; all land as one.

    A member on its route advances along it; a member with nothing to do
    keeps its state (an arrived one goes back later, when its goal is open:
    ``decide``). The landing spot waits in ``occ``'s reserved-spot column
    (no cell is reserved: the ring's cells are closed by ``ROT``).
    """
    for i in range(m):
        v = members[i]
        q = wants[i]
        d = direction(ui[v, CELL], q, topo)
        on_route = _wanted(ui, v) != -1
        ui[v, NXT] = q
        ui[v, DIR] = d
        ui[v, PROG] = 0
        ui[v, SLEN] = np.int64(np.round(topo[1][d] * occ[10]))
        ui[v, ROT] = members[(i + 1) % m]
        ui[v, WAITED] = 0
        ui[v, TURNLEFT] = 0
        occ[8][v] = land[i]
        if on_route:
            ui[v, RPOS] += 1
            ui[v, STATE] = MOVING
            ui[v, REASON] = R_NONE
    _event(out, tick, u, np.int64(EV_SWAP), members[1], m)


@jit
def _rotate(units, u, tick, topo, occ, out):
    """Trade places along a cycle of standing units, each wanting the cell of the next (a swap when two)."""
    ui, uf, pool, tcost, revealed = units
    width, pw = topo[7], topo[8]
    members = np.empty(MAX_CYCLE, dtype=np.int64)
    wants = np.empty(MAX_CYCLE, dtype=np.int64)
    land = np.empty(MAX_CYCLE, dtype=np.int64)
    m = np.int64(0)  # (an int64 from the start: a literal 0 carried round the loop types ``_ring`` once more for it)
    v = u
    if _sole(ui, cid_of(ui[u, CELL], pw, width), occ) != u:
        return False
    closed = False
    while m < MAX_CYCLE and not closed:
        if _wanted(ui, v) == -1:
            return False
        q = pool[ui[v, ROFF] + ui[v, RPOS]]
        d = direction(ui[v, CELL], q, topo)
        if d < 0 or not legal(tcost[ui[v, CLS]], ui[v, CELL], d, topo):
            return False
        members[m] = v
        wants[m] = q
        m += 1
        h = _sole(ui, cid_of(q, pw, width), occ)
        if h == u:
            closed = True
            break
        if h < 0 or ui[h, NXT] >= 0 or ui[h, KIND] > VEHICLE or ui[h, TEAM] != ui[u, TEAM] or ui[h, MOVED] == tick:
            return False  # (one that stepped this tick already: it would move twice)
        for i in range(m):
            if members[i] == h:
                return False
        v = h
    if not closed or m < 2:
        return False
    for i in range(m):  # each lands on the spot the next one leaves (its own, when the next is a vehicle)
        w = members[(i + 1) % m]
        land[i] = occ[6][w] if ui[w, KIND] == INFANTRY else occ[6][members[i]]
    _ring(ui, members, wants, land, m, u, tick, topo, occ, out)
    return True


@helper
def _joins(ui, v, u, dest, pool):
    """Whether unit ``v``, standing, may trade places with ``u``: a friend with nothing to do, or wanting ``dest`` next."""
    if ui[v, NXT] >= 0 or ui[v, ROT] >= 0 or ui[v, TEAM] != ui[u, TEAM] or ui[v, KIND] > VEHICLE:
        return False
    return settled(ui, v) or (_wanted(ui, v) == -2 and pool[ui[v, ROFF] + ui[v, RPOS]] == dest)


@helper
def _carried(ui, v, u):
    """Whether soldier ``v``, standing in soldier ``u``'s cell and on its way elsewhere, may be carried along in a
    trade of places (``_trade``'s ``carry``)."""
    return (ui[v, KIND] == INFANTRY and ui[v, TEAM] == ui[u, TEAM] and ui[v, NXT] < 0 and ui[v, ROT] < 0
            and ui[v, STATE] != ATTACKING and _wanted(ui, v) == -2)  # (not one attacking: it stays on its target)


@jit
def _trade(units, u, q, tick, topo, occ, out, carry):
    """Unit ``u``, standing, trades places with the friends holding padded cell ``q`` beside it, the next cell of
    its way (``_joins``).

    Two soldiers trade spots (the others in either cell stay). With a vehicle
    on either side both cells are emptied: the vehicle takes the other cell
    whole, and every soldier of that cell (with nothing to do, or wanting the
    vehicle's cell) takes the vehicle's, each keeping its spot; no
    reservation may lie on either cell. When ``carry``, ``u``'s standing
    cell-mates on their way elsewhere go along too, their routes left as they
    were (``decide`` plans them anew from the cell they land on).
    """
    ui, uf, pool, tcost, revealed = units
    width, pw = topo[7], topo[8]
    vehicle, building, infantry, rcell, rspot = occ[0], occ[1], occ[2], occ[3], occ[4]
    p = ui[u, CELL]
    cp, cq = cid_of(p, pw, width), cid_of(q, pw, width)
    fwd, back = direction(p, q, topo), direction(q, p, topo)
    if fwd < 0 or back < 0 or building[cq] >= 0 or not legal(tcost[ui[u, CLS]], p, fwd, topo):
        return False
    whole = vehicle[cp] >= 0 or vehicle[cq] >= 0
    ns = infantry.shape[1]
    if whole:
        if rcell[cp] >= 0 or rcell[cq] >= 0:
            return False
        for s in range(ns):
            if rspot[cp, s] >= 0 or rspot[cq, s] >= 0:
                return False
    members = np.empty(MAX_CYCLE, dtype=np.int64)
    wants = np.empty(MAX_CYCLE, dtype=np.int64)
    land = np.empty(MAX_CYCLE, dtype=np.int64)
    keep = np.full(MAX_CYCLE, -1, dtype=np.int64)  # a carried member's place on its route, kept
    members[0] = u
    wants[0] = q
    m = np.int64(1)  # (see ``_rotate``)
    for side in range(2):  # the holders of q, then (when both cells are emptied) u's cell-mates
        c, here, there, d = (cq, q, p, back) if side == 0 else (cp, p, q, fwd)
        if side == 1 and not whole:
            break
        for s in range(-1, ns):
            v = vehicle[c] if s < 0 else infantry[c, s]
            if v < 0 or v == u:
                continue
            if ui[v, MOVED] != tick and _joins(ui, v, u, there, pool) and legal(tcost[ui[v, CLS]], here, d, topo):
                if whole or m == 1:
                    members[m] = v
                    wants[m] = there
                    m += 1
            elif (whole and carry and side == 1 and ui[v, MOVED] != tick and _carried(ui, v, u)
                  and legal(tcost[ui[v, CLS]], here, d, topo)):
                members[m] = v
                wants[m] = there
                keep[m] = ui[v, RPOS]
                m += 1
            elif whole:
                return False
    if m < 2:
        return False
    for i in range(m):  # two soldiers trade spots; in emptied cells each keeps its own
        land[i] = occ[6][members[1 - i]] if not whole else occ[6][members[i]]
    _ring(ui, members, wants, land, m, u, tick, topo, occ, out)
    for i in range(m):  # (``_ring`` moves a member on its way one place along its route)
        if keep[i] >= 0:
            ui[members[i], RPOS] = keep[i]
    return True


@jit
def move_aside(units, f, asker, tick, topo, occ, out):
    """Friend ``f``, standing, steps to a free neighbour, off the asker's next steps if it can."""
    ui, uf, pool, tcost, revealed = units
    rng = out[4]
    if ui[f, NXT] >= 0 or ui[f, KIND] > VEHICLE or ui[f, STATE] == DESTROYED or ui[f, MOVED] == tick:
        return False  # (one that stepped this tick already would move twice)
    off, ndir, pmode, wrap, width, pw = topo[0], topo[4], topo[5], topo[6], topo[7], topo[8]
    perm = np.arange(ndir)
    for i in range(ndir - 1, 0, -1):
        j = _randint(rng, i + 1)
        t = perm[i]
        perm[i] = perm[j]
        perm[j] = t
    p = ui[f, CELL]
    a0 = ui[asker, ROFF] + ui[asker, RPOS]
    a1 = min(a0 + 3, ui[asker, ROFF] + ui[asker, RLEN])
    for ahead_ok in range(2):
        for k in range(ndir):
            d = perm[k]
            q = step_to(p, d, off, ndir, pmode, wrap, width, pw)
            if q == ui[asker, CELL] or not legal(tcost[ui[f, CLS]], p, d, topo):
                continue
            ahead = False
            for i in range(a0, a1):
                if pool[i] == q:
                    ahead = True
            if ahead and ahead_ok == 0:
                continue
            e, _ = category(units, f, q, np.bool_(True), topo, occ)
            if e != E_OK:
                continue
            if start_step(ui, uf, f, q, d, topo, occ, rng):
                _event(out, tick, f, np.int64(EV_ASIDE), q, asker)
                return True
    return False


@jit
def _part(units, u, q, tick, topo, occ, out):
    """Soldier ``u`` could not trade places with the friend vehicle on ``q``, the next cell of its way, which has no
    free cell beside it: the cell-mates that would not go along (``_joins``: on their way elsewhere) are asked
    aside, to a free cell or a soldiers' cell with room beside theirs (``move_aside``), so that ``u`` trades alone
    next turn and the vehicle gets out through its cell (behind walls the soldiers' cell can be the vehicle's only
    way to a free cell: the pair waited there for good). Returns how many stepped aside."""
    ui, uf, pool, tcost, revealed = units
    vehicle, infantry = occ[0], occ[2]
    cp = cid_of(ui[u, CELL], topo[8], topo[7])
    cq = cid_of(q, topo[8], topo[7])
    if vehicle[cq] < 0:
        return 0
    n = 0
    for s in range(infantry.shape[1]):
        w = infantry[cp, s]
        if w < 0 or w == u or ui[w, TEAM] != ui[u, TEAM] or ui[w, STATE] == ATTACKING or _joins(ui, w, u, q, pool):
            continue  # (one attacking is not asked aside: it stays on its target)
        if move_aside(units, w, u, tick, topo, occ, out):
            _event(out, tick, u, np.int64(EV_ASKED), w, ui[u, CELL])
            n += 1
    return n


@jit
def _part_or_carry(units, u, q, tick, topo, occ, out):
    """Soldier ``u``, kept from trading places with the friend vehicle on ``q`` by cell-mates on their way elsewhere:
    they step aside (``_part``: ``u`` trades alone next turn), or where none can, ``u`` trades now with them carried
    along (``_trade``'s ``carry``). Returns whether it traded."""
    return _part(units, u, q, tick, topo, occ, out) == 0 and _trade(units, u, q, tick, topo, occ, out, np.bool_(True))


@jit
def _dist2(p, t, pw):
    dx = (p % pw) - (t % pw)
    dy = (p // pw) - (t // pw)
    return dx * dx + dy * dy


@jit
def _crowd(units, u, tick, topo, occ, out):
    """The goal is held by a unit with nothing to do: step nearer if a free cell is nearer, else stop here (arrived).

    Returns True when the unit stepped or stopped; False when it should wait (a nearer cell will clear).
    """
    ui, uf, pool, tcost, revealed = units
    rng = out[4]
    off, ndir, pmode, wrap, width, pw = topo[0], topo[4], topo[5], topo[6], topo[7], topo[8]
    t = ui[u, TARGET]
    p = ui[u, CELL]
    here = _dist2(p, t, pw)
    best = np.int64(-1)  # (see ``_rotate``: else ``step_to``, ``start_step`` and ``_turns`` compile for a literal -1 too)
    bd = here
    clearing = False
    for d in range(ndir):
        q = step_to(p, d, off, ndir, pmode, wrap, width, pw)
        if not legal(tcost[ui[u, CLS]], p, d, topo):
            continue
        dq = _dist2(q, t, pw)
        if dq >= here:
            continue
        e, v = category(units, u, q, np.bool_(False), topo, occ)
        if e == E_OK and dq < bd:
            best = d
            bd = dq
        elif e == E_MOVING and v >= 0 and not settled(ui, v):
            clearing = True
    if best >= 0:
        q = step_to(p, best, off, ndir, pmode, wrap, width, pw)
        if start_step(ui, uf, u, q, best, topo, occ, rng):
            ui[u, RPOS] = ui[u, RLEN]  # a new route from the new cell
            ui[u, STATE] = MOVING
            ui[u, REASON] = R_NONE
            ui[u, WAITED] = 0
            advance(units, u, tick, topo, occ, out)
            return True
    if clearing:
        return False
    _arrive(ui, u, tick, out, np.int64(EV_CROWD), t)
    return True


@jit
def _wait(ui, u, q, v, reason, patience, tick, out):
    ui[u, WAITED] += 1
    ui[u, STATE] = WAITING
    ui[u, REASON] = reason
    ui[u, RARG] = v
    ui[u, RCELL] = q
    if ui[u, WAITED] > patience:
        ui[u, WAITED] = 0
        ui[u, NEED] = NEED_REPAIR
        ui[u, AVOID] = q
        _event(out, tick, u, np.int64(EV_REPLAN), reason, q)


@jit
def _destroy(ui, v, by, occ, tick, out):
    building = occ[1]
    if ui[v, KIND] == OBSTACLE:
        for c in range(building.shape[0]):
            if building[c] == v:
                building[c] = -1
        occ[5][v] = -1
        occ[6][v] = -1
        out[5][0] = 1
    else:
        _lift(ui, v, occ)
    release(v, occ)
    ui[v, STATE] = DESTROYED
    ui[v, REASON] = R_NONE
    ui[v, RARG] = by
    ui[v, NXT] = -1
    ui[v, TARGET] = -1
    _event(out, tick, by, np.int64(EV_DESTROYED), v, ui[v, KIND])


@jit
def decide(units, u, clock, topo, occ, out):
    """A standing unit with a goal re-checks the next cell of its route on the entry ladder."""
    ui, uf, pool, tcost, revealed = units
    rng = out[4]
    tick, patience = clock
    s = ui[u, STATE]
    if ui[u, TARGET] < 0 or s == STUCK:
        return
    if s == ARRIVED:
        if _goes_back(ui, u, topo, occ):
            ui[u, STATE] = IDLE  # it was moved off its goal, and the goal is open again: back to it
            ui[u, REASON] = R_NONE
            ui[u, RPOS] = ui[u, RLEN]
            ui[u, NEED] = NEED_PLAN
        return
    if arrived(ui, u, topo, occ[10]):
        _arrive(ui, u, tick, out, np.int64(EV_ARRIVED), np.int64(-1))
        return
    if ui[u, NEED] != NEED_NONE:
        ui[u, STATE] = WAITING if s != IDLE else IDLE
        if s != IDLE and ui[u, REASON] == R_NONE:
            ui[u, REASON] = R_REROUTE  # a waiting unit says why
            ui[u, RCELL] = -1
        return
    if ui[u, RPOS] >= ui[u, RLEN]:
        ui[u, NEED] = NEED_PLAN
        return
    q = pool[ui[u, ROFF] + ui[u, RPOS]]
    d = direction(ui[u, CELL], q, topo)
    e, v = category(units, u, q, np.bool_(False), topo, occ)
    if d < 0 or not legal(tcost[ui[u, CLS]], ui[u, CELL], d, topo):
        ui[u, NEED] = NEED_PLAN  # the route is stale, or the ground changed
        return
    if e == E_OK:
        if start_step(ui, uf, u, q, d, topo, occ, rng):
            ui[u, RPOS] += 1
            ui[u, STATE] = MOVING
            ui[u, REASON] = R_NONE
            ui[u, WAITED] = 0
            advance(units, u, tick, topo, occ, out)
            return
        e = E_IMPASSABLE
    if v >= 0 and ui[v, TEAM] == ui[u, TEAM] and settled(ui, v) and e >= E_MOVING:
        # the goal's holder at home in the way, or a crowd at a goal so held (the friend in the way came for it
        # too); a friend that came for another goal is asked aside (stepping round it towards a held goal could
        # go back and forth), and so is one that holds the goal away from its own home
        if (ui[v, CELL] == ui[u, TARGET] or ui[v, TARGET] == ui[u, TARGET]) and goal_state(ui, u, occ, topo) == GOAL_TAKEN:
            if not _crowd(units, u, tick, topo, occ, out):
                ui[u, STATE] = WAITING  # a nearer cell is clearing
                ui[u, REASON] = R_WAIT_FRIEND
                ui[u, RARG] = v
                ui[u, RCELL] = q
            return
    if e == E_IMPASSABLE:
        ui[u, NEED] = NEED_REPAIR if v >= 0 else NEED_PLAN
        ui[u, AVOID] = q if v >= 0 else -1
        ui[u, STATE] = WAITING
        if ui[u, REASON] == R_NONE:
            ui[u, REASON] = R_REROUTE
            ui[u, RCELL] = q
        return
    if e == E_CLOAKED:
        revealed[ui[u, TROW], v] = True
        _event(out, tick, u, np.int64(EV_FOUND), v, q)
        ui[u, STATE] = WAITING
        ui[u, REASON] = R_HIDDEN
        ui[u, RARG] = v
        ui[u, RCELL] = q
        ui[u, WAITED] = 0
        ui[u, NEED] = NEED_REPAIR
        ui[u, AVOID] = q
        _event(out, tick, u, np.int64(EV_REPLAN), np.int64(R_HIDDEN), q)
        return
    if e == E_MOVING:
        if ui[v, NXT] >= 0:
            ui[u, STATE] = WAITING  # it is stepping: it will clear the cell
            ui[u, REASON] = R_WAIT_MOVING
            ui[u, RARG] = v
            ui[u, RCELL] = q
            return
        if _rotate(units, u, tick, topo, occ, out) or _trade(units, u, q, tick, topo, occ, out, np.bool_(False)):
            advance(units, u, tick, topo, occ, out)
            return
        # a soldier and a friend vehicle that want each other's cells, kept from trading by the soldier's
        # cell-mates on their way elsewhere: they step aside, or where none can, they go along (as below)
        if (ui[u, KIND] == INFANTRY and ui[u, WAITED] >= 2 and ui[v, KIND] == VEHICLE and ui[v, TEAM] == ui[u, TEAM]
                and _part_or_carry(units, u, q, tick, topo, occ, out)):
            advance(units, u, tick, topo, occ, out)
            return
        # a waiting friend is asked aside by a unit of lower id only: two never ask each other aside in turn
        if ui[v, TEAM] == ui[u, TEAM] and ui[v, STATE] == WAITING and ui[u, WAITED] >= 2 and u < v:
            if move_aside(units, v, u, tick, topo, occ, out):
                _event(out, tick, u, np.int64(EV_ASKED), v, q)
        _wait(ui, u, q, v, np.int64(R_WAIT_MOVING), patience, tick, out)
        return
    if e == E_FRIEND:
        # a soldier trades places with a friend vehicle with nothing to do before it asks it aside: asked aside, a
        # row of vehicles at home went along a corridor off their goals ahead of the soldier, and came back by
        # trades that carried it back (docs/design/kernels.md, "Soldiers mixed with vehicles")
        if (ui[u, KIND] == INFANTRY and ui[v, KIND] == VEHICLE and settled(ui, v)
                and _trade(units, u, q, tick, topo, occ, out, np.bool_(False))):
            advance(units, u, tick, topo, occ, out)
            return
        if move_aside(units, v, u, tick, topo, occ, out):
            _event(out, tick, u, np.int64(EV_ASKED), v, q)
        elif ui[u, WAITED] >= 2:
            if _trade(units, u, q, tick, topo, occ, out, np.bool_(False)):
                advance(units, u, tick, topo, occ, out)
                return
            # a soldier whose cell-mates on their way elsewhere keep it from trading: they step aside, or where
            # none can, they go along (behind walls the soldiers' cell can be the vehicle's only way out)
            if ui[u, KIND] == INFANTRY and _part_or_carry(units, u, q, tick, topo, occ, out):
                advance(units, u, tick, topo, occ, out)
                return
        _wait(ui, u, q, v, np.int64(R_WAIT_FRIEND), patience, tick, out)
        return
    # a destroyable obstacle or an enemy in the way
    if v < 0 or uf[u, DAMAGE] <= 0:
        ui[u, NEED] = NEED_REPAIR
        ui[u, AVOID] = q
        return
    ui[u, STATE] = ATTACKING
    ui[u, REASON] = R_ATTACK
    ui[u, RARG] = v
    ui[u, RCELL] = q
    uf[v, HP] -= uf[u, DAMAGE]
    if uf[v, HP] <= 0:
        _destroy(ui, v, u, occ, tick, out)
        ui[u, STATE] = MOVING
        ui[u, REASON] = R_NONE


@helper
def _goes_back(ui, u, topo, occ):
    """Unit ``u`` arrived, stands off its goal (moved aside, or stopped in a crowd), and the goal is open."""
    if ui[u, STATE] != ARRIVED or ui[u, TARGET] < 0 or ui[u, NXT] >= 0 or ui[u, NEED] != NEED_NONE:
        return False
    if arrived(ui, u, topo, occ[10]):
        return False
    g = goal_state(ui, u, occ, topo)
    return g == GOAL_FREE or g == GOAL_SQUATTED


@jit
def restless(ui, n, topo, occ):
    """Whether some unit of the first ``n`` would go back to its goal (``_goes_back``) on its next turn."""
    for u in range(n):
        if ui[u, KIND] <= VEHICLE and _goes_back(ui, u, topo, occ):
            return True
    return False


@jit
def tick_units(units, order, clock, topo, occ, out):
    """One tick: every unit of ``order`` in turn advances its step or decides its next one."""
    ui, uf, tcost = units[0], units[1], units[3]
    tick = clock[0]
    for i in range(order.shape[0]):
        u = order[i]
        if ui[u, STATE] == DESTROYED:
            continue
        if ui[u, NXT] >= 0:
            if ui[u, ROT] >= 0:
                advance(units, u, tick, topo, occ, out)
            elif ui[u, MOVED] != tick:  # (``advance`` without a kernel's call)
                ui[u, MOVED] = tick
                _advance_step(ui, uf, tcost, u, tick, topo, occ, out)
        elif ui[u, MOVED] != tick:
            decide(units, u, clock, topo, occ, out)


@jit
def descend(dist, tc, start, topo, out):
    """Follow a distance-to-goal field down from ``start``: the cheapest way; returns the steps written to ``out``."""
    off, stepl, ndir, pmode, wrap, width, pw = topo[0], topo[1], topo[4], topo[5], topo[6], topo[7], topo[8]
    p = start
    n = 0
    while dist[p] > 0 and n < out.shape[0]:
        best = -1
        bv = INF
        for d in range(ndir):
            if not legal(tc, p, d, topo):
                continue
            q = step_to(p, d, off, ndir, pmode, wrap, width, pw)
            val = dist[q] + stepl[d] * tc[q]
            if dist[q] < dist[p] and val < bv:
                best = q
                bv = val
        if best < 0:
            return -1
        p = best
        out[n] = p
        n += 1
    return n


@jit
def repair(units, u, topo, occ, limits, scratch):
    """A detour around the cell ``AVOID`` that rejoins the route within ``ahead`` steps.

    A bounded Dijkstra (``max_nodes`` cells) from the unit's cell over the
    terrain and the entry ladder as the unit sees it (cells above
    ``MOVING_UNIT`` and the avoided cell are closed; a moving unit costs one
    more). Writes the detour (ending on the route cell it rejoins) to ``out``
    and returns ``(length, route index after the rejoin)``, or ``(-1, -1)``. ``gen`` stamps the scratch arrays.
    """
    ui, uf, pool, tcost, revealed = units
    ahead, max_nodes, gen = limits
    stamp, g, parent, heap, out = scratch
    off, stepl, ndir, pmode, wrap, width, pw = topo[0], topo[1], topo[4], topo[5], topo[6], topo[7], topo[8]
    tc = tcost[ui[u, CLS]]
    r0 = ui[u, ROFF]
    lo = ui[u, RPOS] + 1
    hi = min(ui[u, RPOS] + 1 + ahead, ui[u, RLEN])
    if lo >= hi:
        return -1, -1
    avoid = ui[u, AVOID]
    start = ui[u, CELL]
    hf = heap
    nheap = 0
    stamp[start] = gen
    g[start] = 0.0
    parent[start] = -1
    hf[0, 0] = 0.0
    hf[0, 1] = start
    nheap = 1
    done = 0
    while nheap > 0 and done < max_nodes:
        # pop the smallest (a plain binary heap on (g, cell))
        gp = hf[0, 0]
        p = np.int64(hf[0, 1])
        nheap -= 1
        if nheap > 0:
            lg, lp = hf[nheap, 0], hf[nheap, 1]
            i = 0
            while True:
                c = 2 * i + 1
                if c >= nheap:
                    break
                if c + 1 < nheap and hf[c + 1, 0] < hf[c, 0]:
                    c += 1
                if hf[c, 0] < lg:
                    hf[i, 0] = hf[c, 0]
                    hf[i, 1] = hf[c, 1]
                    i = c
                else:
                    break
            hf[i, 0] = lg
            hf[i, 1] = lp
        if gp > g[p]:
            continue
        done += 1
        if p != start:
            for k in range(lo, hi):
                if pool[r0 + k] == p:
                    n = 0
                    x = p
                    while x != start:
                        n += 1
                        x = parent[x]
                    if n > out.shape[0]:
                        return -1, -1
                    x = p
                    for j in range(n - 1, -1, -1):
                        out[j] = x
                        x = parent[x]
                    return n, k + 1
        for d in range(ndir):
            if not legal(tc, p, d, topo):
                continue
            q = step_to(p, d, off, ndir, pmode, wrap, width, pw)
            if q == avoid:
                continue
            e, _ = category(units, u, q, np.bool_(False), topo, occ)
            if e > E_MOVING:
                continue
            nq = gp + stepl[d] * (tc[q] + (1.0 if e == E_MOVING else 0.0))
            if stamp[q] != gen or nq < g[q]:
                stamp[q] = gen
                g[q] = nq
                parent[q] = p
                if nheap >= hf.shape[0]:
                    return -1, -1
                i = nheap
                nheap += 1
                while i > 0:
                    par = (i - 1) >> 1
                    if hf[par, 0] > nq:
                        hf[i, 0] = hf[par, 0]
                        hf[i, 1] = hf[par, 1]
                        i = par
                    else:
                        break
                hf[i, 0] = nq
                hf[i, 1] = q
    return -1, -1


@jit
def routes_touching(pool, ui, n, mask):
    """``hit[u]``: the rest of unit ``u``'s route, or its next cell, lies on a cell of ``mask`` (padded)."""
    hit = np.zeros(n, dtype=np.bool_)
    for u in range(n):
        if ui[u, NXT] >= 0 and mask[ui[u, NXT]]:
            hit[u] = True
            continue
        for i in range(ui[u, ROFF] + ui[u, RPOS], ui[u, ROFF] + ui[u, RLEN]):
            if mask[pool[i]]:
                hit[u] = True
                break
    return hit


@jit
def categories_of(units, u, topo, occ, out):
    """``out[y, x]``: the entry category of every cell for unit ``u`` (each from the occupancy arrays, O(1) a cell)."""
    h, w = out.shape
    pw = topo[8]
    for y in range(h):
        for x in range(w):
            q = (y + 1) * pw + x + 1
            e, _ = category(units, u, q, np.bool_(False), topo, occ)
            out[y, x] = e
