"""A* over the padded flat layout: the general kernel, the plain one, and path tracing.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from .heap import before, close_top, heap_pop, heap_up, key_pop, key_up, open_start, reach_open
from .heuristics import heuristic, heuristic_xy
from .steps import INF, _U, corner_pass, parity_slot, slot_base, step_xy, topo_info


@jit
def astar(cell, edge, stop, start, goal, topo, hscale, nearest, state, gen):
    """A* from ``start`` to ``goal`` (padded ids); returns the padded id reached or -1.

    ``topo`` and ``state`` are the bundles of the package notes.
    ``hscale`` multiplies the heuristic (``min_cost * weight``). With
    ``nearest`` the search returns, when the goal is unreachable, the closed
    cell of smallest heuristic distance to the goal (ties: smaller cost, then
    smaller id). ``stop[p] != 0`` (when ``stop`` is not empty) means a move
    ends on entering ``p``: it is reached but not expanded (unless it is the
    start). ``g`` and ``parent`` hold the result for cells stamped this query.
    """
    off, dxa, dya, stepl, corner, ti = topo
    g, parent, stamp, pos, hf, hg, hid = state
    ndir, pmode, crule, wrap, width, pw, hk, hexk = topo_info(ti)
    has_edge = edge.shape[0] > 0
    has_stop = stop.shape[0] > 0
    gx = goal % pw - 1
    gy = goal // pw - 1
    op = 2 * gen
    cl = op + 1
    h0 = heuristic(start, gx, gy, hk, hexk, wrap, width, pw)
    n = open_start(start, h0 * hscale, state, gen)
    best = start
    besth = h0
    bestg = 0.0
    while n > 0:
        u, gu, n = close_top(n, state, gen)
        if u == goal:
            return u
        ux = u % pw - 1
        uy = u // pw - 1
        if nearest:
            hu = heuristic_xy(ux, uy, gx, gy, hk, hexk, wrap, width)
            if hu < besth or (hu == besth and (gu < bestg or (gu == bestg and u < best))):
                best = u
                besth = hu
                bestg = gu
        if has_stop and u != start and stop[u] != 0:
            continue
        base = parity_slot(ux, uy, pmode, ndir)
        for d in range(ndir):
            k = base + d
            q, qx = step_xy(u, ux, k, off, dxa, wrap, width)
            qu = np.uintp(q)
            c = cell[qu]
            if c == INF:
                continue
            s = stamp[qu]
            if s == cl:
                continue
            if not corner_pass(cell, u, ux, base, d, corner, crule, off, dxa, wrap, width):
                continue
            nd = gu + stepl[d] * c
            if has_edge:
                nd += edge[u * ndir + d]
                if nd == INF:
                    continue
            i, n = reach_open(qu, s, nd, u, op, n, g, parent, stamp, pos)
            if i < 0:
                continue
            f = nd + heuristic_xy(qx, uy + dya[k], gx, gy, hk, hexk, wrap, width) * hscale
            heap_up(i, f, nd, q, hf, hg, hid, pos)
    if nearest:
        return best
    return -1


@jit
def trace(parent, target):
    """Padded ids from the search's root to ``target`` along ``parent`` (-1 ends)."""
    k = 0
    p = target
    while p >= 0:
        k += 1
        p = parent[p]
    out = np.empty(k, dtype=np.int64)
    p = target
    while p >= 0:
        k -= 1
        out[k] = p
        p = parent[p]
    return out


@jit
def trace_xy(parent, target, pw):
    """The ``(2, n)`` x and y of the cells from the search's root to padded ``target`` along ``parent``."""
    k = 0
    p = target
    while p >= 0:
        k += 1
        p = parent[p]
    xy = np.empty((2, k), dtype=np.int64)
    p = target
    while p >= 0:
        k -= 1
        xy[0, k] = p % pw - 1
        xy[1, k] = p // pw - 1
        p = parent[p]
    return xy


@jit(inline="always")
def _goal_stamps(gl, pw, gen):
    """The plain kernels' prologue: the goal's column and row (from its ``np.uintp`` padded id) and the
    query's open and closed stamps."""
    return np.int64(gl % pw) - 1, np.int64(gl // pw) - 1, np.int32(2 * gen), np.int32(2 * gen + 1)


@jit
def astar_plain(cell, moves, uniform, start, goal, topo, hscale, state, gen):
    """``astar`` for boards without wrap, edge costs or stop cells, and without ``nearest``.

    ``moves`` comes from ``move_mask``; with ``uniform`` every passable cell
    costs ``cell[start]`` to enter. Same order, same results as ``astar``.

    The open list is the heap and one entry beside it, the front: a cell
    opened ahead of the front takes its place (the front goes into the heap),
    and the next cell closed is the front or the heap's top, whichever comes
    first in A*'s order. On open ground (and with a weight above 1) the cell
    opened toward the goal is most often the next one closed, so it never
    sifts up to the heap's top and down again: half the heap's work of a
    query gone (30 us against 55 a 340-step route on an empty 512 x 512,
    weight 1.2). The same cells are closed in the same order, so the same
    parents and costs.
    """
    off, dxa, dya, stepl, _, ti = topo
    g, parent, stamp, pos, hf, hg, hid = state
    one = _U(1)
    nd, pmode, _, wrap, width, pwi, hk, hexk = topo_info(ti)
    ndir = _U(nd)
    pw = _U(pwi)
    su = _U(start)
    gl = _U(goal)
    gx, gy, op, cl = _goal_stamps(gl, pw, gen)
    c_uni = cell[su]
    g[su] = 0.0
    parent[su] = -1
    stamp[su] = op
    n = np.int64(0)  # (int64 from the start: a literal counter types the heap helpers once more, never called)
    fu = np.int32(start)  # the front: cell, f, g, and whether there is one
    ff = 0.0
    fg = 0.0
    front = True
    while front or n > 0:
        if front and (n == 0 or before(ff, fg, fu, hf[0], hg[0], hid[0])):
            u = _U(fu)
            gu = fg
            front = False
        else:
            u = _U(hid[0])
            gu = hg[0]
            n = heap_pop(n, hf, hg, hid, pos)
        stamp[u] = cl
        if u == gl:
            return np.int64(u)
        mu = _U(moves[u])
        ux = np.int64(u % pw) - 1
        uy = np.int64(u // pw) - 1
        base = _U(slot_base(u, pmode, ndir, pw))
        for d in range(ndir):
            du = _U(d)
            if (mu >> du) & one == 0:
                continue
            k = base + du
            q = _U(np.int64(u) + off[k])
            s = stamp[q]
            if s == cl:
                continue
            if uniform:
                nd = gu + stepl[du] * c_uni
            else:
                nd = gu + stepl[du] * cell[q]
            qi = np.int32(q)
            if s == op and nd >= g[q]:
                continue
            g[q] = nd
            parent[q] = np.int32(u)
            f = nd + heuristic_xy(ux + dxa[k], uy + dya[k], gx, gy, hk, hexk, wrap, width) * hscale
            if s == op:  # open: cheaper now
                if front and qi == fu:
                    ff = f
                    fg = nd
                else:
                    heap_up(np.int64(pos[q]), f, nd, qi, hf, hg, hid, pos)
                continue
            stamp[q] = op
            if not front:
                fu, ff, fg, front = qi, f, nd, True
            elif before(f, nd, qi, ff, fg, fu):
                heap_up(n, ff, fg, fu, hf, hg, hid, pos)
                n += 1
                fu, ff, fg = qi, f, nd
            else:
                heap_up(n, f, nd, qi, hf, hg, hid, pos)
                n += 1
    return -1


@jit
def astar_plain_xy(cell, moves, uniform, start, goal, topo, hscale, state, gen):
    """``astar_plain`` and ``trace_xy`` in one call: ``(the padded id reached or -1, the path's (2, n) x and y)``.

    One call instead of two saves a query a dispatch of the arrays into
    numba (a few microseconds, most of a short query on a small board).
    """
    reached = astar_plain(cell, moves, uniform, start, goal, topo, hscale, state, gen)
    if reached < 0:
        return reached, np.empty((2, 0), dtype=np.int64)
    return reached, trace_xy(state[1], reached, topo_info(topo[5])[5])


@jit
def astar_plain_routes(cell, moves, uniform, starts, goals, topo, hscale, state, gen, cap):
    """``astar_plain`` from each ``starts[i]`` to ``goals[i]`` (padded ids; generation ``gen + i``) in one call:
    ``(ids, ends, costs)``, path ``i``'s padded ids from its start to its goal ``ids[ends[i - 1]:ends[i]]``
    (empty when unreachable) and its cost ``costs[i]`` (``inf``: unreachable). ``cap``: the room first given to
    ``ids`` (it grows as needed; the ids returned fill their array).

    A simulation's planning asks for tens of routes a tick: one call for all of them saves each query a
    dispatch of the arrays into numba and a path object.
    """
    k = starts.shape[0]
    g, parent = state[0], state[1]
    ends = np.empty(k, dtype=np.int64)
    costs = np.empty(k, dtype=np.float64)
    ids = np.empty(max(cap, 16), dtype=np.int64)
    at = 0
    for i in range(k):
        reached = astar_plain(cell, moves, uniform, starts[i], goals[i], topo, hscale, state, gen + i)
        if reached < 0:
            costs[i] = INF
            ends[i] = at
            continue
        n = 0
        p = reached
        while p >= 0:
            n += 1
            p = parent[p]
        if at + n > ids.shape[0]:
            grown = np.empty(2 * (at + n), dtype=np.int64)
            grown[:at] = ids[:at]
            ids = grown
        j = at + n
        p = reached
        while p >= 0:
            j -= 1
            ids[j] = p
            p = parent[p]
        at += n
        ends[i] = at
        costs[i] = g[reached]
    return ids[:at].copy(), ends, costs  # (its own array: the paths are kept, not the room left)


@jit
def astar_keyed(cell, start, goal, topo, hscale, keyb, state, gen):
    """``astar`` with one integer key a heap slot, for boards of unit steps whose costs are whole in units of ``1 / keyb[0]``.

    Boards without wrap, edge costs or stop cells, and without ``nearest``
    (as ``astar_plain``), whose steps are all of length 1 (hex, square-4,
    staggered): they have no diagonal, so no corner rule, and a step is
    allowed when it enters a passable cell; ``cell`` itself says so (the
    padding is ``inf``) and no step bits are needed, so the first query on
    new costs pays nothing before it starts. When every finite cell cost, every step length and ``hscale`` times
    ``L = keyb[0]`` (a power of two) are whole, every ``f`` and ``g`` the
    search forms is a multiple of ``1 / L``, computed exactly in floats. A*'s
    order (smaller ``f``, larger ``g``, smaller id) is then the order of the
    integer ``(f * L) << (hb + ib) | hd << ib | id``: with ``f`` equal, a larger
    ``g = f - hscale * hd`` is a smaller heuristic step count ``hd`` (``hscale``
    > 0). ``ib = keyb[1]`` bits hold a padded id, ``hb = keyb[2]`` bits the
    heuristic steps, and ``keyb[3]`` is the first ``f * L`` that does not fit.
    The open list is a 4-ary heap of these keys in ``hf`` read as ``int64``
    (``hg`` and ``hid`` are not used): one 8-byte compare a child, four
    children a cache line. Same pops, same results as ``astar`` (returns
    -2, and leaves no result, if a key would overflow).
    """
    off, dxa, dya, _, _, ti = topo
    g, parent, stamp, pos, hf, _, _ = state
    hk = hf.view(np.int64)
    nd, pmode, _, wrap, width, pwi, hkind, hexk = topo_info(ti)
    ndir = _U(nd)
    pw = _U(pwi)
    lscale = float(keyb[0])
    ib = np.int64(keyb[1])
    sh = np.int64(keyb[1] + keyb[2])
    fmax = float(keyb[3])
    imask = (np.int64(1) << ib) - 1
    su = _U(start)
    gl = _U(goal)
    gx, gy, op, cl = _goal_stamps(gl, pw, gen)
    g[su] = 0.0
    parent[su] = -1
    stamp[su] = op
    hk[0] = np.int64(start)
    pos[su] = 0
    n = np.int64(1)
    while n > 0:
        top = hk[0]
        u = _U(top & imask)
        gu = g[u]
        n = key_pop(n, hk, None, pos, 2, imask)
        stamp[u] = cl
        if u == gl:
            return np.int64(u)
        ux = np.int64(u % pw) - 1
        uy = np.int64(u // pw) - 1
        base = _U(slot_base(u, pmode, ndir, pw))
        for d in range(ndir):
            k = base + _U(d)
            q = _U(np.int64(u) + off[k])
            c = cell[q]
            if c == INF:
                continue
            s = stamp[q]
            if s == cl:
                continue
            nd = gu + c
            i, n = reach_open(q, s, nd, np.int32(u), op, n, g, parent, stamp, pos)
            if i < 0:
                continue
            hd = heuristic_xy(ux + dxa[k], uy + dya[k], gx, gy, hkind, hexk, wrap, width)
            fl = (nd + hd * hscale) * lscale
            if fl >= fmax:
                return -2
            key = (np.int64(fl) << sh) | (np.int64(hd) << ib) | np.int64(q)
            key_up(i, key, 0, hk, None, pos, 2, imask)
    return -1


@jit
def cost_unit(cell, most):
    """The smallest power of two ``L <= most`` making every finite ``cell[p] * L`` whole, or 0; also the largest finite cost.

    Returns ``(L, largest)``; ``L`` is 0 when some finite cost needs more
    (a third, say), or is too large for ``L * cost`` to stay exact.
    """
    unit = 1.0
    top = 0.0
    for p in range(cell.shape[0]):
        c = cell[p]
        if c == INF:
            continue
        if c > top:
            top = c
        while c * unit != np.floor(c * unit):
            unit *= 2.0
            if unit > most:
                return 0.0, top
    if top * unit >= 2.0 ** 40:
        return 0.0, top
    return unit, top


_SQRT2 = np.sqrt(2.0)
_LOW32 = np.int64(0xFFFFFFFF)


@jit(inline="always")
def _surd(a, b):
    """``a + b sqrt(2)`` in floats: the same float for the same integers, and on the keys' range in the order of the reals."""
    return float(a) + float(b) * _SQRT2


@jit
def astar_octile(cell, moves, uniform, start, goal, topo, keyb, state, gen):
    """``octile_search`` recording nothing: the padded id reached, -1, or -2 (a key would leave its bits)."""
    none = np.empty(0, dtype=np.int64)
    return octile_search(cell, moves, uniform, start, goal, topo, keyb, state, gen,
                         (none, none, np.empty(0), np.empty(0), none, none))[0]


@jit
def octile_search(cell, moves, uniform, start, goal, topo, keyb, state, gen, rec):
    """``astar_plain`` on square-8 boards whose costs are whole in units of ``1 / keyb[0]``, with exact integer keys.

    Every ``g`` is ``(a + b sqrt(2)) / L`` for whole ``a`` (orthogonal steps'
    costs) and ``b`` (diagonal steps'), held as ``a << 32 | b`` in ``g`` read
    as ``int64``; the octile heuristic times ``hscale`` (``keyb[1] / L``) is
    ``ha + hb sqrt(2)`` in the same units, so ``f = A + B sqrt(2)`` with ``A =
    a + ha``, ``B = b + hb``. Two such numbers that differ, with ``|B| <
    keyb[6]``, differ by at least ``1 / (4 keyb[6])`` (``|p - q sqrt(2)| =
    |p^2 - 2 q^2| / (p + q sqrt(2))``), so ``floor(f * keyb[2])`` with
    ``keyb[2] = 8 keyb[6]`` orders them exactly, and equal ``f`` are equal
    integers. The open list is a 4-ary heap of ``floor(f * keyb[2]) <<
    keyb[4] | floor(h * keyb[3])`` in ``hf`` read as ``int64`` (smaller ``f``,
    then smaller ``h``: larger ``g``; ``keyb[3]`` orders the heuristics as
    ``keyb[2]`` does ``f``), ids in ``hid``, equal keys in heap order.
    Returns ``(reached, closed, opened)``: the padded id reached, -1, or -2
    when a key would leave its bits (``B >= keyb[6]`` or ``f * keyb[2] >=
    keyb[5]``; no result then), and how many cells it closed and opened. ``rec``:
    ``(order, par, g, h, opened, opened_at)`` as ``explain.search_trace``
    writes them (the playground's step-through of this search), or empty
    arrays (nothing recorded).
    """
    off, dxa, dya, stepl, _, ti = topo
    g, parent, stamp, pos, hf, _, hid = state
    gi = g.view(np.int64)
    hk = hf.view(np.int64)
    _, _, _, _, _, pwi, _, _ = topo_info(ti)
    one = _U(1)
    pw = _U(pwi)
    lscale = float(keyb[0])
    hsi = np.int64(keyb[1])
    fsc = float(keyb[2])
    hsc = float(keyb[3])
    hbits = np.int64(keyb[4])
    fmax = float(keyb[5])
    bcap = np.int64(keyb[6])
    su = _U(start)
    gl = _U(goal)
    gx, gy, op, cl = _goal_stamps(gl, pw, gen)
    c_uni = np.int64(cell[su] * lscale)
    gi[su] = 0
    parent[su] = -1
    stamp[su] = op
    hk[0] = 0
    hid[0] = np.int32(start)
    pos[su] = 0
    n = np.int64(1)
    order, rpar, rg, rh, opened, opened_at = rec
    record = order.shape[0] > 0
    nc = 0
    no = 0
    if record:
        opened[0] = start
        opened_at[0] = 0
        no = 1
    while n > 0:
        u = _U(hid[0])
        n -= 1
        if n > 0:  # the 4-ary pop written out: heap.key_pop stays a call here (0.88-0.90 measured)
            last = _U(n)
            key = hk[last]
            v = hid[last]
            j = _U(0)
            while True:
                c0 = (j << _U(2)) + one
                if c0 >= last:
                    break
                m = c0
                mk = hk[c0]
                e = min(c0 + _U(4), last)
                cc = c0 + one
                while cc < e:
                    kc = hk[cc]
                    if kc < mk:
                        mk = kc
                        m = cc
                    cc += one
                if mk >= key:
                    break
                w = hid[m]
                hk[j] = mk
                hid[j] = w
                pos[_U(w)] = j
                j = m
            hk[j] = key
            hid[j] = v
            pos[_U(v)] = j
        stamp[u] = cl
        ab = gi[u]
        ga = ab >> 32
        gb = ab & _LOW32
        ux = np.int64(u % pw) - 1
        uy = np.int64(u // pw) - 1
        if record:
            order[nc] = np.int64(u)
            rpar[nc] = parent[u]
            rg[nc] = _surd(ga, gb) / lscale
            ex = abs(ux - gx)
            ey = abs(uy - gy)
            rh[nc] = _surd(abs(ex - ey), min(ex, ey))
        nc += 1
        if u == gl:
            return np.int64(u), nc, no
        mu = _U(moves[u])
        for d in range(8):
            du = _U(d)
            if (mu >> du) & one == 0:
                continue
            q = _U(np.int64(u) + off[du])
            s = stamp[q]
            if s == cl:
                continue
            c = c_uni if uniform else np.int64(cell[q] * lscale)
            na = ga
            nb = gb
            if stepl[du] == 1.0:
                na += c
            else:
                nb += c
            if s == op:
                old = gi[q]
                if _surd(na, nb) >= _surd(old >> 32, old & _LOW32):
                    continue
                i = np.int64(pos[q])
            else:
                stamp[q] = op
                i = np.int64(n)
                n += 1
                if record:
                    opened[no] = np.int64(q)
                    opened_at[no] = nc
                    no += 1
            gi[q] = (na << 32) | nb
            parent[q] = np.int32(u)
            dx = abs(ux + dxa[du] - gx)
            dy = abs(uy + dya[du] - gy)
            ha = abs(dx - dy) * hsi
            hb = min(dx, dy) * hsi
            bb = nb + hb
            fl = _surd(na + ha, bb) * fsc
            if bb >= bcap or fl >= fmax:
                return np.int64(-2), nc, no
            key = (np.int64(fl) << hbits) | np.int64(_surd(ha, hb) * hsc)
            key_up(i, key, np.int32(q), hk, hid, pos, 2, 0)
    return np.int64(-1), nc, no


@jit
def astar_octile_xy(cell, moves, uniform, start, goal, topo, keyb, state, gen):
    """``astar_octile`` and ``trace_xy`` in one call: ``(the padded id reached, -1 or -2, the path's (2, n) x and y, its cost)``."""
    reached = astar_octile(cell, moves, uniform, start, goal, topo, keyb, state, gen)
    if reached < 0:
        return reached, np.empty((2, 0), dtype=np.int64), np.inf
    ab = state[0].view(np.int64)[reached]
    cost = _surd(ab >> 32, ab & _LOW32) / float(keyb[0])
    return reached, trace_xy(state[1], reached, topo_info(topo[5])[5]), cost
