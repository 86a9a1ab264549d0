"""Best-first search kernels over the padded flat layout: A*, Dijkstra, multi-turn routes.

Every kernel takes the board as flat padded arrays (see ``Topology``):

- ``cell[p]``: cost of entering padded cell ``p`` (``inf``: impassable, padding);
- ``edge[p * ndir + d]``: extra cost of the step from ``p`` in direction ``d``
  (an empty array when the board has none);
- ``off``: ``(2 * ndir,)`` padded offsets, parity-major; ``stepl``: step lengths;
  ``corner``: ``(2 * ndir,)`` the two orthogonal directions of a diagonal (or -1);
- ``ti``: the topology's integers ``[ndir, parity_mode, corner_rule, wrap, width,
  pw, heuristic, hex_kind]``.

A step from ``p`` in direction ``d`` to ``q`` costs ``stepl[d] * cell[q] +
edge[p * ndir + d]``. The open list is a binary heap with decrease-key kept in
preallocated arrays (``hf``, ``hg``, ``hid``, with ``pos`` per cell). A*'s order
is: smaller ``f`` first, then larger ``g`` (the node deeper along its path),
then the smaller padded id. Dijkstra keys on the distance alone (``hg`` is not
used), so equal distances leave in heap order: still the same for the same
input, and less to move per level. Per-cell search state is
reused between queries through generation stamps: ``stamp[p] == 2 * gen``
means open in this query, ``2 * gen + 1`` closed, anything else unseen.

The heap's sift loops and the corner rule are written out inside the A* and
Dijkstra loops rather than called: measured on the Moving AI maps, calling
the helpers (even with ``inline='always'``) costs 20-40 % per query, as
every call passes arrays.
"""

from __future__ import annotations

import math

import numpy as np

from ._jit import jit

INF = np.inf
_SQRT2M1 = math.sqrt(2.0) - 1.0


# -- neighbour rule -------------------------------------------------------------------

@jit
def step_to(p, d, off, ndir, pmode, wrap, width, pw):
    """Padded id of the neighbour of ``p`` in direction ``d`` (parity and wrap applied)."""
    if pmode == 0:
        q = p + off[d]
    elif pmode == 1:
        q = p + off[((p % pw - 1) & 1) * ndir + d]
    else:
        q = p + off[((p // pw - 1) & 1) * ndir + d]
    if wrap:
        qx = q % pw
        if qx == 0:
            q += width
        elif qx == width + 1:
            q -= width
    return q


@jit
def corner_ok(cell, p, d, corner, crule, off, ndir, pmode, wrap, width, pw):
    """Whether the diagonal step from ``p`` in direction ``d`` passes the corner rule."""
    c0 = corner[2 * d]
    if c0 < 0:
        return True
    a = cell[step_to(p, c0, off, ndir, pmode, wrap, width, pw)] < INF
    b = cell[step_to(p, corner[2 * d + 1], off, ndir, pmode, wrap, width, pw)] < INF
    if crule == 1:
        return a and b
    return a or b


# -- heuristics -------------------------------------------------------------------------

@jit(inline="always")
def _axial(x, y, hex_kind):
    # offset -> axial (q, r) for odd-q, even-q, odd-r, even-r
    if hex_kind == 0:
        return x, y - ((x - (x & 1)) >> 1)
    if hex_kind == 1:
        return x, y - ((x + (x & 1)) >> 1)
    if hex_kind == 2:
        return x - ((y - (y & 1)) >> 1), y
    return x - ((y + (y & 1)) >> 1), y


@jit(inline="always")
def _hexdist(q1, r1, q2, r2):
    dq = q1 - q2
    dr = r1 - r2
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@jit(inline="always")
def heuristic_xy(x, y, gx, gy, kind, hex_kind, wrap, width):
    """Unscaled admissible distance from cell ``(x, y)`` to cell ``(gx, gy)``."""
    if kind == 2:
        q, r = _axial(x, y, hex_kind)
        gq, gr = _axial(gx, gy, hex_kind)
        best = _hexdist(q, r, gq, gr)
        if wrap:
            gq, gr = _axial(gx - width, gy, hex_kind)
            best = min(best, _hexdist(q, r, gq, gr))
            gq, gr = _axial(gx + width, gy, hex_kind)
            best = min(best, _hexdist(q, r, gq, gr))
        return float(best)
    dx = abs(x - gx)
    if wrap:
        dx = min(dx, width - dx)
    dy = abs(y - gy)
    if kind == 0:
        return float(dx + dy)
    if dx > dy:
        return dx + _SQRT2M1 * dy
    return dy + _SQRT2M1 * dx


@jit
def heuristic(p, gx, gy, kind, hex_kind, wrap, width, pw):
    """Unscaled admissible distance from padded cell ``p`` to cell ``(gx, gy)``."""
    return heuristic_xy(p % pw - 1, p // pw - 1, gx, gy, kind, hex_kind, wrap, width)


@jit(inline="always")
def _before(f1, g1, i1, f2, g2, i2):
    if f1 != f2:
        return f1 < f2
    if g1 != g2:
        return g1 > g2
    return i1 < i2


@jit(inline="always")
def heap_up(i, f, g, v, hf, hg, hid, pos):
    """Put ``(f, g, v)`` at heap slot ``i`` and sift it up."""
    while i > 0:
        par = (i - 1) >> 1
        if _before(f, g, v, hf[par], hg[par], hid[par]):
            hf[i] = hf[par]
            hg[i] = hg[par]
            hid[i] = hid[par]
            pos[hid[i]] = i
            i = par
        else:
            break
    hf[i] = f
    hg[i] = g
    hid[i] = v
    pos[v] = i


@jit(inline="always")
def heap_pop(n, hf, hg, hid, pos):
    """Remove the top of a heap of size ``n`` (the caller read it first); returns the new size."""
    n -= 1
    if n == 0:
        return 0
    f = hf[n]
    g = hg[n]
    v = hid[n]
    i = 0
    while True:
        c = 2 * i + 1
        if c >= n:
            break
        if c + 1 < n and _before(hf[c + 1], hg[c + 1], hid[c + 1], hf[c], hg[c], hid[c]):
            c += 1
        if _before(hf[c], hg[c], hid[c], f, g, v):
            hf[i] = hf[c]
            hg[i] = hg[c]
            hid[i] = hid[c]
            pos[hid[i]] = i
            i = c
        else:
            break
    hf[i] = f
    hg[i] = g
    hid[i] = v
    pos[v] = i
    return n


# -- A* -----------------------------------------------------------------------------------

@jit
def astar(cell, edge, stop, start, goal, off, dxa, dya, stepl, corner, ti, hscale, nearest,
          g, parent, stamp, pos, hf, hg, hid, gen):
    """A* from ``start`` to ``goal`` (padded ids); returns the padded id reached or -1.

    ``dxa``, ``dya``: the offsets' x and y parts (parity-major, like ``off``).
    ``hscale`` multiplies the heuristic (``min_cost * weight``). With
    ``nearest`` the search returns, when the goal is unreachable, the closed
    cell of smallest heuristic distance to the goal (ties: smaller cost, then
    smaller id). ``stop[p] != 0`` (when ``stop`` is not empty) means a move
    ends on entering ``p``: it is reached but not expanded (unless it is the
    start). ``g`` and ``parent`` hold the result for cells stamped this query.
    """
    ndir = ti[0]
    pmode = ti[1]
    crule = ti[2]
    wrap = ti[3]
    width = ti[4]
    pw = ti[5]
    hk = ti[6]
    hexk = ti[7]
    has_edge = edge.shape[0] > 0
    has_stop = stop.shape[0] > 0
    gx = goal % pw - 1
    gy = goal // pw - 1
    op = 2 * gen
    cl = op + 1
    g[start] = 0.0
    parent[start] = -1
    stamp[start] = op
    h0 = heuristic(start, gx, gy, hk, hexk, wrap, width, pw)
    heap_up(0, h0 * hscale, 0.0, start, hf, hg, hid, pos)
    n = 1
    best = start
    besth = h0
    bestg = 0.0
    while n > 0:
        u = hid[0]
        gu = hg[0]
        # pop (inlined: helper calls with arrays cost reference counting in this loop)
        n -= 1
        if n > 0:
            f = hf[np.uintp(n)]
            gg = hg[np.uintp(n)]
            v = hid[np.uintp(n)]
            i = 0
            while True:
                c2 = 2 * i + 1
                if c2 >= n:
                    break
                if c2 + 1 < n and _before(hf[np.uintp(c2 + 1)], hg[np.uintp(c2 + 1)], hid[np.uintp(c2 + 1)], hf[np.uintp(c2)], hg[np.uintp(c2)], hid[np.uintp(c2)]):
                    c2 += 1
                if _before(hf[np.uintp(c2)], hg[np.uintp(c2)], hid[np.uintp(c2)], f, gg, v):
                    hf[np.uintp(i)] = hf[np.uintp(c2)]
                    hg[np.uintp(i)] = hg[np.uintp(c2)]
                    hid[np.uintp(i)] = hid[np.uintp(c2)]
                    pos[np.uintp(hid[np.uintp(i)])] = i
                    i = c2
                else:
                    break
            hf[np.uintp(i)] = f
            hg[np.uintp(i)] = gg
            hid[np.uintp(i)] = v
            pos[np.uintp(v)] = i
        stamp[u] = cl
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
        if pmode == 0:
            base = 0
        elif pmode == 1:
            base = (ux & 1) * ndir
        else:
            base = (uy & 1) * ndir
        for d in range(ndir):
            k = base + d
            q = u + off[k]
            qx = ux + dxa[k]
            if wrap:
                if qx < 0:
                    qx += width
                    q += width
                elif qx >= width:
                    qx -= width
                    q -= width
            qu = np.uintp(q)
            c = cell[qu]
            if c == INF:
                continue
            s = stamp[qu]
            if s == cl:
                continue
            if crule != 0:
                c0 = corner[2 * d]
                if c0 >= 0:
                    k0 = base + c0
                    k1 = base + corner[2 * d + 1]
                    q0 = u + off[k0]
                    q1 = u + off[k1]
                    if wrap:
                        x0 = ux + dxa[k0]
                        x1 = ux + dxa[k1]
                        q0 += width if x0 < 0 else (-width if x0 >= width else 0)
                        q1 += width if x1 < 0 else (-width if x1 >= width else 0)
                    a0 = cell[q0] < INF
                    a1 = cell[q1] < INF
                    if crule == 1:
                        if not (a0 and a1):
                            continue
                    elif not (a0 or a1):
                        continue
            nd = gu + stepl[d] * c
            if has_edge:
                nd += edge[u * ndir + d]
                if nd == INF:
                    continue
            if s == op:
                if nd >= g[qu]:
                    continue
                i = pos[qu]
            else:
                stamp[qu] = op
                i = n
                n += 1
            g[qu] = nd
            parent[qu] = u
            f = nd + heuristic_xy(qx, uy + dya[k], gx, gy, hk, hexk, wrap, width) * hscale
            # sift up (inlined)
            while i > 0:
                pa = (i - 1) >> 1
                if _before(f, nd, q, hf[np.uintp(pa)], hg[np.uintp(pa)], hid[np.uintp(pa)]):
                    hf[np.uintp(i)] = hf[np.uintp(pa)]
                    hg[np.uintp(i)] = hg[np.uintp(pa)]
                    hid[np.uintp(i)] = hid[np.uintp(pa)]
                    pos[np.uintp(hid[np.uintp(i)])] = i
                    i = pa
                else:
                    break
            hf[np.uintp(i)] = f
            hg[np.uintp(i)] = nd
            hid[np.uintp(i)] = q
            pos[qu] = i
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
    """``(xs, ys)``: the cells from the search's root to padded ``target`` along ``parent``."""
    k = 0
    p = target
    while p >= 0:
        k += 1
        p = parent[p]
    xs = np.empty(k, dtype=np.int64)
    ys = np.empty(k, dtype=np.int64)
    p = target
    while p >= 0:
        k -= 1
        xs[k] = p % pw - 1
        ys[k] = p // pw - 1
        p = parent[p]
    return xs, ys


# -- Dijkstra ---------------------------------------------------------------------------

@jit
def dijkstra(cell, edge, stop, sources, off, dxa, dya, stepl, corner, ti, max_cost, reverse,
             dist, parent, pdir, pos, hf, hg, hid):
    """Distances from every source (padded ids) up to ``max_cost``, into ``dist``.

    ``dist`` must be all ``inf`` on entry. A settled cell is never improved
    (costs are >= 0), so no closed set is kept. Forward: ``dist[q]``
    is the cost from the nearest source to ``q``, ``parent[q]`` the previous cell
    and ``pdir[q]`` the direction of the step into ``q``. With ``reverse`` the
    costs run the other way: ``dist[p]`` is the cost from ``p`` to the nearest
    source, ``parent[p]`` the next cell toward it and ``pdir[p]`` the direction
    of that step. Only passable cells get a distance: a source on an impassable
    cell is ignored. Returns the number of cells settled.
    """
    ndir = ti[0]
    pmode = ti[1]
    crule = ti[2]
    wrap = ti[3]
    width = ti[4]
    pw = ti[5]
    half = ndir // 2
    has_edge = edge.shape[0] > 0
    has_stop = stop.shape[0] > 0
    n = 0
    for si in range(sources.shape[0]):
        s = sources[si]
        if dist[s] == 0.0:
            continue
        if cell[s] == INF:
            continue
        dist[s] = 0.0
        parent[s] = -1
        pdir[s] = -1
        hf[np.uintp(n)] = 0.0
        hid[np.uintp(n)] = s
        pos[s] = n
        n += 1
    settled = 0
    while n > 0:
        u = hid[np.uintp(0)]
        gu = hf[np.uintp(0)]
        # pop (inlined, as in astar; keys are distances only: equal ones leave in heap order)
        n -= 1
        if n > 0:
            f = hf[np.uintp(n)]
            v = hid[np.uintp(n)]
            i = 0
            while True:
                c2 = 4 * i + 1
                if c2 >= n:
                    break
                m = c2
                mf = hf[np.uintp(c2)]
                e4 = min(c2 + 4, n)
                for cc in range(c2 + 1, e4):
                    if hf[np.uintp(cc)] < mf:
                        mf = hf[np.uintp(cc)]
                        m = cc
                if mf < f:
                    hf[np.uintp(i)] = mf
                    hid[np.uintp(i)] = hid[np.uintp(m)]
                    pos[np.uintp(hid[np.uintp(i)])] = i
                    i = m
                else:
                    break
            hf[np.uintp(i)] = f
            hid[np.uintp(i)] = v
            pos[np.uintp(v)] = i
        settled += 1
        if has_stop and stop[u] != 0 and parent[u] >= 0:
            continue
        ux = u % pw - 1
        uy = u // pw - 1
        if pmode == 0:
            base = 0
        elif pmode == 1:
            base = (ux & 1) * ndir
        else:
            base = (uy & 1) * ndir
        cu = cell[u]
        for e in range(ndir):
            k = base + e
            q = u + off[k]
            qx = ux + dxa[k]
            if wrap:
                if qx < 0:
                    qx += width
                    q += width
                elif qx >= width:
                    qx -= width
                    q -= width
            qu = np.uintp(q)
            c = cell[qu]
            if c == INF:
                continue
            if reverse:
                # the step q -> u, in direction d from q
                d = e + half if e < half else e - half
                p = q
                px = qx
                if pmode == 0:
                    pb = 0
                elif pmode == 1:
                    pb = (qx & 1) * ndir
                else:
                    pb = ((uy + dya[k]) & 1) * ndir
                sc = stepl[d] * cu
            else:
                d = e
                p = u
                px = ux
                pb = base
                sc = stepl[d] * c
            if crule != 0:
                c0 = corner[2 * d]
                if c0 >= 0:
                    k0 = pb + c0
                    k1 = pb + corner[2 * d + 1]
                    q0 = p + off[k0]
                    q1 = p + off[k1]
                    if wrap:
                        x0 = px + dxa[k0]
                        x1 = px + dxa[k1]
                        q0 += width if x0 < 0 else (-width if x0 >= width else 0)
                        q1 += width if x1 < 0 else (-width if x1 >= width else 0)
                    a0 = cell[q0] < INF
                    a1 = cell[q1] < INF
                    if crule == 1:
                        if not (a0 and a1):
                            continue
                    elif not (a0 or a1):
                        continue
            nd = gu + sc
            if has_edge:
                nd += edge[p * ndir + d]
            if nd > max_cost:
                continue
            dq = dist[qu]
            if nd >= dq:
                continue
            dist[qu] = nd
            parent[qu] = u
            pdir[qu] = d
            if dq == INF:
                i = n
                n += 1
            else:
                i = pos[qu]
            # sift up (inlined)
            while i > 0:
                pa = (i - 1) >> 2
                if nd < hf[np.uintp(pa)]:
                    hf[np.uintp(i)] = hf[np.uintp(pa)]
                    hid[np.uintp(i)] = hid[np.uintp(pa)]
                    pos[np.uintp(hid[np.uintp(i)])] = i
                    i = pa
                else:
                    break
            hf[np.uintp(i)] = nd
            hid[np.uintp(i)] = q
            pos[qu] = i
    return settled


# -- multi-turn routes ------------------------------------------------------------------

@jit
def route(cell, edge, stop, start, goal, off, stepl, corner, ti, points, used0,
          turn, used, parent, closed, pos, hf, hg, hid):
    """Fewest turns, then fewest points spent in the last turn, from ``start`` to ``goal``.

    A label is ``(turn, used)``. A step of cost ``c`` is made this turn when
    ``used + c <= points``; otherwise the unit waits: the step opens the next
    turn with ``used = c`` (points left over are lost). A step dearer than a
    whole turn is never made. Entering a ``stop`` cell (zone of control) ends
    the turn: ``used`` becomes ``points``. ``turn`` must be all -1 and
    ``closed`` all 0 on entry. Returns 1 when the goal was reached, else 0.
    The labels are ordered lexicographically and the step rule is monotone in
    them, so this Dijkstra is exact.
    """
    ndir = ti[0]
    pmode = ti[1]
    crule = ti[2]
    wrap = ti[3]
    width = ti[4]
    pw = ti[5]
    has_edge = edge.shape[0] > 0
    has_stop = stop.shape[0] > 0
    turn[start] = 0
    used[start] = used0
    parent[start] = -1
    heap_up(0, 0.0, -used0, start, hf, hg, hid, pos)
    n = 1
    while n > 0:
        u = hid[0]
        n = heap_pop(n, hf, hg, hid, pos)
        closed[u] = 1
        if u == goal:
            return 1
        tu = turn[u]
        uu = used[u]
        for d in range(ndir):
            q = step_to(u, d, off, ndir, pmode, wrap, width, pw)
            c = cell[q]
            if c == INF or closed[q]:
                continue
            if crule != 0 and not corner_ok(cell, u, d, corner, crule, off, ndir, pmode, wrap, width, pw):
                continue
            sc = stepl[d] * c
            if has_edge:
                sc += edge[u * ndir + d]
            if sc > points:
                continue
            if uu + sc <= points:
                nt = tu
                nu = uu + sc
            else:
                nt = tu + 1
                nu = sc
            if has_stop and stop[q] != 0:
                nu = points
            tq = turn[q]
            if tq < 0 or nt < tq or (nt == tq and nu < used[q]):
                turn[q] = nt
                used[q] = nu
                parent[q] = u
                if tq < 0:
                    heap_up(n, float(nt), -nu, q, hf, hg, hid, pos)
                    n += 1
                else:
                    heap_up(pos[q], float(nt), -nu, q, hf, hg, hid, pos)
    return 0


# -- the plain case: no wrap, no edge costs, no stop cells --------------------------------------
#
# Most queries run on boards without wrap, edge costs or zones of control. For
# them the neighbour rule and the corner rule are folded once per cost array
# into ``moves[p]`` (bit ``d`` set: the step from ``p`` in direction ``d`` is
# allowed), so the loops below read one byte per cell instead of three costs,
# and on uniform boards never read a cost at all. Indices are ``np.uintp``:
# signed indexing makes numba test every index for a negative value. (Mixing
# ``uintp`` with ``int64`` gives ``float64`` in numba, hence the typed constants.)

_U = np.uintp


@jit
def move_mask(cell, edge, off, corner, ti, out):
    """Fill ``out[p]`` with the bits of the allowed steps from every passable padded cell ``p``.

    A step is allowed when it enters a passable cell, passes the corner rule
    and its edge cost (when ``edge`` is not empty) is finite. Impassable and
    padding cells get 0. Boards without wrap only (the plain kernels' boards).
    Returns the largest finite cell cost (0 if none).
    """
    ndir = _U(ti[0])
    pmode = ti[1]
    crule = ti[2]
    pw = _U(ti[5])
    two = _U(2)
    one = _U(1)
    has_edge = edge.shape[0] > 0
    n = cell.shape[0]
    top = 0.0
    for pi in range(n):
        p = _U(pi)
        c = cell[p]
        if c == INF:
            out[p] = 0
            continue
        if c > top:
            top = c
        if pmode == 0:
            base = _U(0)
        elif pmode == 1:
            base = _U((np.int64(p % pw) - 1) & 1) * ndir
        else:
            base = _U((np.int64(p // pw) - 1) & 1) * ndir
        bits = 0
        for d in range(ndir):
            du = _U(d)
            if cell[_U(pi + off[base + du])] == INF:
                continue
            if has_edge and edge[p * ndir + du] == INF:
                continue
            if crule != 0:
                c0 = corner[two * du]
                if c0 >= 0:
                    a0 = cell[_U(pi + off[base + _U(c0)])] < INF
                    a1 = cell[_U(pi + off[base + _U(corner[two * du + one])])] < INF
                    if crule == 1:
                        if not (a0 and a1):
                            continue
                    elif not (a0 or a1):
                        continue
            bits |= 1 << d
        out[p] = bits
    return top


@jit
def astar_plain(cell, moves, uniform, start, goal, off, dxa, dya, stepl, ti, hscale,
                g, parent, stamp, pos, hf, hg, hid, gen):
    """``astar`` for boards without wrap, edge costs or stop cells, and without ``nearest``.

    ``moves`` comes from ``move_mask``; with ``uniform`` every passable cell
    costs ``cell[start]`` to enter. Same order, same results as ``astar``.
    """
    one = _U(1)
    two = _U(2)
    ndir = _U(ti[0])
    pmode = ti[1]
    pw = _U(ti[5])
    hk = ti[6]
    hexk = ti[7]
    wrap = ti[3]
    width = ti[4]
    su = _U(start)
    gl = _U(goal)
    gx = np.int64(gl % pw) - 1
    gy = np.int64(gl // pw) - 1
    op = np.int32(2 * gen)
    cl = np.int32(2 * gen + 1)
    c_uni = cell[su]
    g[su] = 0.0
    parent[su] = -1
    stamp[su] = op
    hf[0] = 0.0
    hg[0] = 0.0
    hid[0] = start
    pos[su] = 0
    n = one
    while n > 0:
        u = _U(hid[0])
        gu = hg[0]
        n -= one
        if n > 0:
            f = hf[n]
            gg = hg[n]
            v = hid[n]
            i = _U(0)
            while True:
                c2 = two * i + one
                if c2 >= n:
                    break
                c3 = c2 + one
                if c3 < n:
                    fa = hf[c3]
                    fb = hf[c2]
                    if fa < fb or (fa == fb and (hg[c3] > hg[c2] or (hg[c3] == hg[c2] and hid[c3] < hid[c2]))):
                        c2 = c3
                fc = hf[c2]
                if fc < f or (fc == f and (hg[c2] > gg or (hg[c2] == gg and hid[c2] < v))):
                    hf[i] = fc
                    hg[i] = hg[c2]
                    w = hid[c2]
                    hid[i] = w
                    pos[_U(w)] = i
                    i = c2
                else:
                    break
            hf[i] = f
            hg[i] = gg
            hid[i] = v
            pos[_U(v)] = i
        stamp[u] = cl
        if u == gl:
            return np.int64(u)
        mu = _U(moves[u])
        ux = np.int64(u % pw) - 1
        uy = np.int64(u // pw) - 1
        if pmode == 0:
            base = _U(0)
        elif pmode == 1:
            base = _U(ux & 1) * ndir
        else:
            base = _U(uy & 1) * ndir
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
            if s == op:
                if nd >= g[q]:
                    continue
                i = _U(pos[q])
            else:
                stamp[q] = op
                i = n
                n += one
            g[q] = nd
            parent[q] = np.int32(u)
            qi = np.int32(q)
            f = nd + heuristic_xy(ux + dxa[k], uy + dya[k], gx, gy, hk, hexk, wrap, width) * hscale
            while i > 0:
                pa = (i - one) >> one
                fp = hf[pa]
                if f < fp or (f == fp and (nd > hg[pa] or (nd == hg[pa] and qi < hid[pa]))):
                    hf[i] = fp
                    hg[i] = hg[pa]
                    w = hid[pa]
                    hid[i] = w
                    pos[_U(w)] = i
                    i = pa
                else:
                    break
            hf[i] = f
            hg[i] = nd
            hid[i] = qi
            pos[q] = i
    return -1


@jit
def dijkstra_plain(cell, moves, uniform, c_uni, sources, off, dxa, dya, stepl, ti, max_cost, reverse, tree,
                   dist, parent, pdir, pos, hf, hid):
    """``dijkstra`` for boards without wrap, edge costs or stop cells (``moves`` from ``move_mask``).

    With ``uniform`` every passable cell costs ``c_uni`` to enter. ``parent``
    and ``pdir`` are written only with ``tree``. Same distances as ``dijkstra``.
    """
    one = _U(1)
    four = _U(4)
    two = _U(2)
    ndir = _U(ti[0])
    pmode = ti[1]
    pw = _U(ti[5])
    half = ndir // two
    n = _U(0)
    for si in range(sources.shape[0]):
        s = _U(sources[si])
        if dist[s] == 0.0:
            continue
        if cell[s] == INF:
            continue
        dist[s] = 0.0
        if tree:
            parent[s] = -1
            pdir[s] = -1
        hf[n] = 0.0
        hid[n] = np.int32(s)
        pos[s] = n
        n += one
    settled = 0
    while n > 0:
        u = _U(hid[0])
        gu = hf[0]
        n -= one
        if n > 0:
            f = hf[n]
            v = hid[n]
            i = _U(0)
            while True:
                c2 = four * i + one
                if c2 >= n:
                    break
                m = c2
                mf = hf[c2]
                e4 = min(c2 + four, n)
                cc = c2 + one
                while cc < e4:
                    if hf[cc] < mf:
                        mf = hf[cc]
                        m = cc
                    cc += one
                if mf < f:
                    hf[i] = mf
                    w = hid[m]
                    hid[i] = w
                    pos[_U(w)] = i
                    i = m
                else:
                    break
            hf[i] = f
            hid[i] = v
            pos[_U(v)] = i
        settled += 1
        mu = _U(moves[u])
        if pmode == 0:
            base = _U(0)
        else:
            ux = np.int64(u % pw) - 1
            uy = np.int64(u // pw) - 1
            base = _U(ux & 1) * ndir if pmode == 1 else _U(uy & 1) * ndir
        cu = c_uni if uniform else cell[u]
        for e in range(ndir):
            eu = _U(e)
            k = base + eu
            q = _U(np.int64(u) + off[k])
            if reverse:
                d = eu + half if eu < half else eu - half
                if (_U(moves[q]) >> d) & one == 0:
                    continue
                nd = gu + stepl[d] * cu
            else:
                if (mu >> eu) & one == 0:
                    continue
                d = eu
                if uniform:
                    nd = gu + stepl[eu] * c_uni
                else:
                    nd = gu + stepl[eu] * cell[q]
            if nd > max_cost:
                continue
            dq = dist[q]
            if nd >= dq:
                continue
            dist[q] = nd
            if tree:
                parent[q] = np.int32(u)
                pdir[q] = np.int8(d)
            if dq == INF:
                i = n
                n += one
            else:
                i = _U(pos[q])
            qi = np.int32(q)
            while i > 0:
                pa = (i - one) >> two
                if nd < hf[pa]:
                    hf[i] = hf[pa]
                    w = hid[pa]
                    hid[i] = w
                    pos[_U(w)] = i
                    i = pa
                else:
                    break
            hf[i] = nd
            hid[i] = qi
            pos[q] = i
    return settled


@jit
def dijkstra_queues(cell, moves, c_uni, sources, off, stepl, qof, nq, ti, max_cost, dist, qid, qkey):
    """Distances only on a uniform board (plain kernels' boards), with one FIFO queue per step length.

    Every passable cell costs ``c_uni`` to enter, so a step costs one of
    ``nq`` values (``qof[d]``: the queue of direction ``d``). Cells leave in
    nondecreasing distance, so each queue, fed ``distance + its step cost``,
    stays sorted: the smallest of the queue heads is the next cell to settle
    and no heap is needed. A cell enters each queue at most once (a later
    entry would carry a larger key, never an improvement), so ``qid`` and
    ``qkey`` hold ``nq`` blocks of ``len(dist)`` entries. Ties between heads go to the
    lower queue. ``dist`` must be all ``inf`` on entry. Returns the number of cells
    settled (-1 if a block overflowed, which the argument above rules out).
    """
    one = _U(1)
    ndir = _U(ti[0])
    pmode = ti[1]
    pw = _U(ti[5])
    n = _U(dist.shape[0])
    head = np.zeros(nq, dtype=np.int64)
    tail = np.zeros(nq, dtype=np.int64)
    for si in range(sources.shape[0]):
        s = _U(sources[si])
        if dist[s] == 0.0 or cell[s] == INF:
            continue
        dist[s] = 0.0
        t = _U(tail[0])
        qid[t] = np.int32(s)
        qkey[t] = 0.0
        tail[0] += 1
    settled = 0
    while True:
        best = -1
        bk = INF
        for k in range(nq):
            # drop stale heads (the cell was reached cheaper through another queue)
            while head[k] < tail[k]:
                e = _U(k) * n + _U(head[k])
                if qkey[e] > dist[_U(qid[e])]:
                    head[k] += 1
                else:
                    break
            if head[k] < tail[k]:
                kk = qkey[_U(k) * n + _U(head[k])]
                if kk < bk:
                    bk = kk
                    best = k
        if best < 0:
            return settled
        e = _U(best) * n + _U(head[best])
        head[best] += 1
        u = _U(qid[e])
        gu = bk
        if gu > dist[u]:
            continue
        settled += 1
        mu = _U(moves[u])
        if pmode == 0:
            base = _U(0)
        else:
            ux = np.int64(u % pw) - 1
            uy = np.int64(u // pw) - 1
            base = _U(ux & 1) * ndir if pmode == 1 else _U(uy & 1) * ndir
        for d in range(ndir):
            du = _U(d)
            if (mu >> du) & one == 0:
                continue
            q = _U(np.int64(u) + off[base + du])
            nd = gu + stepl[du] * c_uni
            if nd > max_cost or nd >= dist[q]:
                continue
            dist[q] = nd
            k = _U(qof[du])
            t = _U(tail[k])
            if t >= n:  # cannot happen (see above); never write past the block
                return -1
            qid[k * n + t] = np.int32(q)
            qkey[k * n + t] = nd
            tail[k] += 1
