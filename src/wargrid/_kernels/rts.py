"""Kernels of the classic RTS pathfinder: straight line, edge following, move optimiser.

The board is the padded flat layout of ``Topology`` (see ``search.py`` for the
topology arguments ``off``, ``stepl``, ``corner`` and the integers). Extra
arrays:

- ``cell[p]``: entry cost (``inf``: blocked, padding);
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

from ._jit import jit
from .search import corner_ok, step_to

INF = np.inf


@jit
def _dist2(a, b, cx, cy, period):
    dx = cx[a] - cx[b]
    if period > 0.0:
        dx -= period * np.floor(dx / period + 0.5)
    dy = cy[a] - cy[b]
    return dx * dx + dy * dy


@jit
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


@jit
def _can_step(cell, p, d, corner, crule, off, ndir, pmode, wrap, width, pw):
    q = step_to(p, d, off, ndir, pmode, wrap, width, pw)
    if cell[q] == INF:
        return -1
    if crule != 0 and not corner_ok(cell, p, d, corner, crule, off, ndir, pmode, wrap, width, pw):
        return -1
    return q


@jit
def _follow(cell, start, bdir, target, hand, limit, out, n, record, order, rank, stepl, corner, crule, off, ndir, pmode, wrap, width, pw):
    """Follow the edge of the obstacle that lies in direction ``bdir`` from ``start`` until ``target``.

    ``hand`` +1 turns one way round the obstacle, -1 the other. Returns the
    length walked and the number of steps (length ``inf`` when the limit is
    reached or the walk loops; the number of steps is -1 when ``out`` is
    full); with ``record`` the cells are written to ``out[n:]``.
    """
    p = start
    r0 = rank[bdir]
    first = -1
    length = 0.0
    cap = out.shape[0]
    for steps in range(limit):
        found = -1
        q = -1
        for k in range(ndir):
            dd = order[(r0 + hand * k) % ndir]
            q = _can_step(cell, p, dd, corner, crule, off, ndir, pmode, wrap, width, pw)
            if q >= 0:
                found = dd
                break
        if found < 0:
            return INF, 0
        if p == start:
            if first == found:
                return INF, 0  # went all the way round without meeting the target
            if first < 0:
                first = found
        p = q
        length += stepl[found]
        if record:
            if n + steps >= cap:
                return INF, -1  # out of buffer, not out of luck
            out[n + steps] = p
        if p == target:
            return length, steps + 1
        r0 = (rank[found] + ndir // 2 + hand) % ndir
    return INF, 0


@jit
def classic_find(
    cell, inb, cx, cy, period, start, goal, max_steps, limit, out, tmp,
    order, rank, stepl, corner, crule, off, ndir, pmode, wrap, width, pw,
):
    """Walk from ``start`` toward ``goal``; returns ``(n, status)`` with the cells in ``out[:n]``.

    ``tmp`` is scratch space as long as ``out``.
    """
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
            # one hand writes straight into out, the other into tmp; keep the shorter
            la, ka = _follow(cell, cur, d, t, 1, limit, out, n, True, order, rank, stepl, corner, crule, off, ndir, pmode, wrap, width, pw)
            lb, kb = _follow(cell, cur, d, t, -1, limit, tmp, 0, True, order, rank, stepl, corner, crule, off, ndir, pmode, wrap, width, pw)
            if ka < 0 or kb < 0:
                return n, 3
            if la < INF or lb < INF:
                if la <= lb:
                    n += ka
                else:
                    if n + kb > cap:
                        return n, 3
                    for i in range(kb):
                        out[n + i] = tmp[i]
                    n += kb
                cur = t
                done = True
            else:
                if t == goal:
                    return n, 2
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
def _direction(a, b, off, ndir, pmode, wrap, width, pw):
    for d in range(ndir):
        if step_to(a, d, off, ndir, pmode, wrap, width, pw) == b:
            return d
    return -1


@jit
def optimise_moves(cell, path, n, seen, pos, gen, out, dirs, stepl, corner, crule, off, ndir, pmode, wrap, width, pw):
    """The move optimiser: cut loops and back-and-forth steps, replace two steps by one where a step joins their ends.

    Returns the number of cells written to ``out``; ``dirs[:m-1]`` holds the
    direction of each step.
    """
    m = 0
    for i in range(n):
        c = path[i]
        if seen[c] == gen and pos[c] < m and out[pos[c]] == c:
            m = pos[c] + 1  # a loop back to c: drop it
            continue
        while m >= 2:
            a = out[m - 2]
            d = _direction(a, c, off, ndir, pmode, wrap, width, pw)
            if d < 0 or _can_step(cell, a, d, corner, crule, off, ndir, pmode, wrap, width, pw) < 0:
                break
            d1 = _direction(a, out[m - 1], off, ndir, pmode, wrap, width, pw)
            d2 = _direction(out[m - 1], c, off, ndir, pmode, wrap, width, pw)
            if stepl[d] * cell[c] >= stepl[d1] * cell[out[m - 1]] + stepl[d2] * cell[c]:
                break
            m -= 1  # the corner cell is not needed
        out[m] = c
        seen[c] = gen
        pos[c] = m
        m += 1
    for i in range(m - 1):
        dirs[i] = _direction(out[i], out[i + 1], off, ndir, pmode, wrap, width, pw)
    return m
