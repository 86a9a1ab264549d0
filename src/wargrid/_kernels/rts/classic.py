"""Kernels of the classic RTS pathfinder: straight line, edge following, move optimiser.

The board is the padded flat layout of ``Topology``; the entry kernels take
the topology as the ``topo`` bundle of the ``movement`` kernels
(``movement.search.topo_bundle``) and unpack it for the helpers. Extra arrays:

- ``cell[p]``: entry cost (``inf``: blocked, padding);
- ``geo``: the board's geometry ``(inb, cx, cy, period, order, rank)``, with
- ``inb[p]``: 1 for every cell of the board's rectangle (masked cells too), 0
  for the padding: the straight line may cross blocked cells but never leaves
  the rectangle;
- ``cx``, ``cy``: cell centres in drawing units; ``period``: the board's
  drawing width on a wrapped board (0 otherwise);
- ``order[r]``: the directions sorted by angle, ``rank[d]`` the inverse, so
  that edge following can turn left or right on every board kind.

Status codes: 0 reached the goal, 1 stopped after ``max_steps`` steps,
2 no way found (the line has no next cell, or edge following failed or ran
past its limit), 3 the output buffer is full.
"""

from __future__ import annotations

import numpy as np

from .._jit import helper, jit
from ..movement.steps import corner_ok, direction_to, step_to, unpack_topo


INF = np.inf


@helper
def _dist2(a, b, cx, cy, period):
    dx = cx[a] - cx[b]
    if period > 0.0:
        dx -= period * np.floor(dx / period + 0.5)
    dy = cy[a] - cy[b]
    return dx * dx + dy * dy


@helper
def _toward(p, goal, inb, cx, cy, period, off, ndir, pmode, wrap, width, pw):
    """Direction of the in-rectangle neighbour of ``p`` nearest to ``goal`` (strictly nearer than ``p``), or -1."""
    best = -1
    bd = _dist2(p, goal, cx, cy, period) - 1e-9
    for d in range(ndir):
        q = step_to(p, d, off, ndir, pmode, wrap, width, pw)
        if inb[q] == 0:
            continue
        dd = _dist2(q, goal, cx, cy, period)
        if dd < bd:
            bd = dd
            best = d
    return best


@helper
def _can_step(cell, p, d, corner, crule, off, ndir, pmode, wrap, width, pw):
    q = step_to(p, d, off, ndir, pmode, wrap, width, pw)
    if cell[q] == INF:
        return -1
    if crule != 0 and not corner_ok(cell, p, d, corner, crule, off, ndir, pmode, wrap, width, pw):
        return -1
    return q


@helper
def _turn(cell, p, r0, hand, order, corner, crule, off, ndir, pmode, wrap, width, pw):
    """The first open direction from ``p``, turning from rank ``r0`` by ``hand``; ``(direction, cell)`` or ``(-1, -1)``."""
    for k in range(ndir):
        dd = order[(r0 + hand * k) % ndir]
        q = _can_step(cell, p, dd, corner, crule, off, ndir, pmode, wrap, width, pw)
        if q >= 0:
            return dd, q
    return -1, -1


@helper
def _follow_both(cell, start, bdir, target, limit, out, n, tmp, order, rank, corner, crule, off, ndir, pmode, wrap, width, pw):
    """Follow the edge of the obstacle in direction ``bdir`` from ``start`` both ways until ``target``.

    Hand +1 turns one way round the obstacle and writes its cells to
    ``out[n:]``; hand -1 turns the other way and writes to ``tmp[0:]``. Each
    hand gives up after ``limit`` steps or when it comes back to ``start``
    about to repeat its first move. The two walk in lockstep (the shorter so
    far moves next), so a hand stops as soon as it can no longer be the
    shorter. A walk is measured in moves, as the classic engine measures it
    (a diagonal is one move, like a straight step). Returns ``(hand,
    steps)``: the hand that reached ``target`` by the shorter walk (+1 on a
    tie) and its number of steps; ``(0, 0)`` when
    neither did; ``(-2, 0)`` when a buffer is full.
    """
    cap_a = out.shape[0]
    cap_b = tmp.shape[0]
    pa = start
    pb = start
    ra = rank[bdir]
    rb = rank[bdir]
    fa = -1
    fb = -1
    la = 0.0
    lb = 0.0
    ka = 0
    kb = 0
    sa = 0  # 0 walking, 1 arrived, 2 gave up
    sb = 0
    while True:
        if sa == 1 and (sb == 2 or (sb == 0 and lb >= la) or (sb == 1 and la <= lb)):
            return 1, ka
        if sb == 1 and (sa == 2 or (sa == 0 and la > lb) or (sa == 1 and lb < la)):
            return -1, kb
        if sa == 2 and sb == 2:
            return 0, 0
        if sa == 0 and (sb != 0 or la <= lb):
            if ka >= limit:
                sa = 2
                continue
            f, q = _turn(cell, pa, ra, 1, order, corner, crule, off, ndir, pmode, wrap, width, pw)
            if f < 0 or (pa == start and fa == f):
                sa = 2  # shut in, or all the way round without meeting the target
                continue
            if pa == start and fa < 0:
                fa = f
            if n + ka >= cap_a:
                return -2, 0
            pa = q
            out[n + ka] = q
            ka += 1
            la += 1.0
            ra = (rank[f] + ndir // 2 + 1) % ndir
            if pa == target:
                sa = 1
        else:
            if kb >= limit:
                sb = 2
                continue
            f, q = _turn(cell, pb, rb, -1, order, corner, crule, off, ndir, pmode, wrap, width, pw)
            if f < 0 or (pb == start and fb == f):
                sb = 2
                continue
            if pb == start and fb < 0:
                fb = f
            if kb >= cap_b:
                return -2, 0
            pb = q
            tmp[kb] = q
            kb += 1
            lb += 1.0
            rb = (rank[f] + ndir // 2 - 1) % ndir
            if pb == target:
                sb = 1


@jit
def classic_find(cell, geo, topo, start, goal, max_steps, limit, retries, out, tmp):
    """Walk from ``start`` toward ``goal``; returns ``(n, status)`` with the cells in ``out[:n]``.

    At an obstacle, when the landing cell beyond it turns out walled off, the
    next one beyond the next obstacle is tried, at most ``retries`` times;
    then the walk ends there ('blocked', the partial path). ``tmp`` is
    scratch space as long as ``out``.
    """
    inb, cx, cy, period, order, rank = geo
    off, stepl, corner, ndir, pmode, crule, wrap, width, pw = unpack_topo(topo)
    out[0] = start
    n = 1
    cur = start
    cap = out.shape[0]
    while cur != goal:
        if n - 1 >= max_steps:
            return n, 1
        if n >= cap:
            return n, 3
        d = _toward(cur, goal, inb, cx, cy, period, off, ndir, pmode, wrap, width, pw)
        if d < 0:
            return n, 2
        q = _can_step(cell, cur, d, corner, crule, off, ndir, pmode, wrap, width, pw)
        if q >= 0:
            out[n] = q
            n += 1
            cur = q
            continue
        # an obstacle: try each passable cell beyond it on the line, nearest first
        t = step_to(cur, d, off, ndir, pmode, wrap, width, pw)
        blocked = cell[t] == INF
        done = False
        tries = 0
        while not done:
            if blocked:
                # skip the obstacle along the line
                while cell[t] == INF and t != goal:
                    e = _toward(t, goal, inb, cx, cy, period, off, ndir, pmode, wrap, width, pw)
                    if e < 0:
                        return n, 2
                    t = step_to(t, e, off, ndir, pmode, wrap, width, pw)
                if cell[t] == INF:
                    return n, 2  # the goal itself is blocked
            hand, k = _follow_both(cell, cur, d, t, limit, out, n, tmp, order, rank, corner, crule, off, ndir, pmode, wrap, width, pw)
            if hand == -2:
                return n, 3
            if hand != 0:
                if hand == 1:
                    n += k
                else:
                    if n + k > cap:
                        return n, 3
                    for i in range(k):
                        out[n + i] = tmp[i]
                    n += k
                cur = t
                done = True
            else:
                if t == goal or tries >= retries:
                    return n, 2
                tries += 1
                # the landing cell is walled off from here: the next one beyond the next obstacle
                while cell[t] < INF and t != goal:
                    e = _toward(t, goal, inb, cx, cy, period, off, ndir, pmode, wrap, width, pw)
                    if e < 0:
                        return n, 2
                    t = step_to(t, e, off, ndir, pmode, wrap, width, pw)
                blocked = True
                if cell[t] < INF:
                    blocked = False  # reached the goal along passable cells
    return n, 0


@jit
def optimise_moves(cell, path, n, seen, pos, gen, out, dirs, topo):
    """The move optimiser: cut loops and back-and-forth steps, replace two steps by one where a step joins their ends.

    Returns the number of cells written to ``out``; ``dirs[:m-1]`` holds the
    direction of each step.
    """
    off, stepl, corner, ndir, pmode, crule, wrap, width, pw = unpack_topo(topo)
    m = 0
    for i in range(n):
        c = path[i]
        if seen[c] == gen and pos[c] < m and out[pos[c]] == c:
            m = pos[c] + 1  # a loop back to c: drop it
            continue
        while m >= 2:
            a = out[m - 2]
            d = direction_to(a, c, off, ndir, pmode, wrap, width, pw)
            if d < 0 or _can_step(cell, a, d, corner, crule, off, ndir, pmode, wrap, width, pw) < 0:
                break
            d1 = direction_to(a, out[m - 1], off, ndir, pmode, wrap, width, pw)
            d2 = direction_to(out[m - 1], c, off, ndir, pmode, wrap, width, pw)
            if stepl[d] * cell[c] >= stepl[d1] * cell[out[m - 1]] + stepl[d2] * cell[c]:
                break
            m -= 1  # the corner cell is not needed
        out[m] = c
        seen[c] = gen
        pos[c] = m
        m += 1
    for i in range(m - 1):
        dirs[i] = direction_to(out[i], out[i + 1], off, ndir, pmode, wrap, width, pw)
    return m
