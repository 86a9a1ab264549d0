"""Kernels of crowd movement: PIBT's configuration generator.

The crowd moves on a compact graph: node ``v`` is a passable cell,
``nbr[v, d]`` the node one step away in direction ``d`` (``-1``: none).
Distances to the goals come from the lazy tables of ``lazydist`` (``lz``;
agent ``a``'s goal is row ``gidx[a]``). One timestep, every
agent stays or steps to a neighbour; no two agents end in one node, no two
trade nodes along one edge.

``configure`` is PIBT (priority inheritance with backtracking, Okumura et
al., AIJ 2022) as LaCAM (Okumura, AAAI 2023) uses it: agents listed in
``cw``/``cv`` are first put where the high-level search's constraints say;
then each agent of ``order`` (highest priority first) that has no next node
yet picks the free candidate nearest its goal (its own node included); an
agent whose candidate holds a standing agent that has not chosen lends it its
priority (the standing one chooses next, and may not take the lender's node);
an agent left with no candidate stays and its lender tries its next one. The
recursion of the papers is a stack here.

With ``SWAP`` in ``tie`` (the planner), PIBT swaps as LaCAM2 does (Okumura,
IJCAI 2023): an agent whose way is a corridor held by an agent that must come
the other way (or that is pulled after it along one) takes its candidates in
reverse order, stepping back, and pulls that agent into its node, until a
branch lets the two pass; plain PIBT leaves such pairs to the high-level
search, whose constraints then take a number of configurations exponential in
the pairs (a 64 x 64 board of one-cell corridors with 200 agents: no plan in
30 s without it). With ``DODGE``, an agent pushed takes, among its candidates
as near its goal, the one farthest from its pusher's goal: it steps off the
pusher's way (into a side cell) rather than being pushed on ahead of it.
"""

from __future__ import annotations

import numpy as np

from .._jit import helper, jit
from .lazydist import settle as _settle
from .sim import _rand  # the simulation's xorshift

SWAP = 4
"""The flag of ``tie`` for PIBT with swaps (LaCAM2's)."""

DODGE = 8
"""The flag of ``tie`` for a pushed agent to take, among its candidates as near its goal, the one farthest from the
goal of the agent pushing it: off that agent's way, so that it is not pushed on ahead of it."""

_OFF_WAY = 4095
"""The largest distance the tie-break of ``DODGE`` tells apart."""


@helper
def _candidates(a, v, nbr, lz, gidx, occ_now, q_to, cand, keys, rng, tie, lend):
    """Node ``v`` and its neighbours, nearest to agent ``a``'s goal first; ties: a free node first, then (``lend``
    the agent pushing ``a``, -1 none) the farthest from ``lend``'s goal, then at random."""
    ndir = nbr.shape[1]
    m = 0
    for d in range(-1, ndir):
        u = v if d < 0 else nbr[v, d]
        if u < 0:
            continue
        held = 0
        if tie == 1 and occ_now[u] >= 0 and u != v:
            held = 1
        elif tie == 2 and occ_now[u] >= 0 and u != v and q_to[occ_now[u]] < 0:
            held = 1
        du = _d(lz, nbr, gidx, a, u)
        off = np.int64(0)
        if lend >= 0:
            off = _OFF_WAY - min(_d(lz, nbr, gidx, lend, u), _OFF_WAY)
        key = ((du * 2 + held) * (_OFF_WAY + 1) + off) * 64 + np.int64(_rand(rng) % np.uint64(64))
        i = m
        while i > 0 and keys[i - 1] > key:
            keys[i] = keys[i - 1]
            cand[i] = cand[i - 1]
            i -= 1
        keys[i] = key
        cand[i] = u
        m += 1
    return m


@helper
def _d(lz, nbr, gidx, a, v):
    """Agent ``a``'s steps from node ``v`` to its goal."""
    x = lz.dist[gidx[a], v]
    return np.int64(x) - 1 if x != 0 else _settle(lz, nbr, gidx[a], v)


@helper
def _onward(lz, nbr, gidx, occ_now, v, back):
    """How many neighbours of ``v`` an agent there could be pulled to (not ``back``, not a dead end where an agent
    stands on its goal), counted up to 2, and the last of them."""
    n = 0
    last = np.int64(-1)
    for d in range(nbr.shape[1]):
        u = nbr[v, d]
        if u < 0 or u == back:
            continue
        a = occ_now[u]
        if a >= 0:
            deg = 0
            for e in range(nbr.shape[1]):
                if nbr[u, e] >= 0:
                    deg += 1
            if deg == 1 and lz.st[gidx[a], 0] == u:
                continue
        n += 1
        last = u
        if n == 2:
            break
    return n, last


@helper
def _slot(nbr, v, u):
    """The direction from node ``v`` to its neighbour ``u``."""
    for e in range(nbr.shape[1]):
        if nbr[v, e] == u:
            return e
    return 0


@helper
def _swap_required(lz, nbr, chain, gidx, occ_now, pusher, puller, v_pusher, v_puller):
    """Whether ``pusher`` (on ``v_pusher``) and ``puller`` (on ``v_puller``) must trade places along a corridor
    (LaCAM2's ``is_swap_required``). The walk along the corridor jumps to its last node of two neighbours
    (``chain``) when the pusher's distance falls by one at every step to there: every step before it would find
    one way on and a smaller distance."""
    dpu = _d(lz, nbr, gidx, pusher, v_puller)
    dps = _d(lz, nbr, gidx, pusher, v_pusher)
    while dpu < dps:
        e = _slot(nbr, v_puller, v_pusher)
        steps = chain[v_puller, e, 2]
        if steps > 0:
            last = np.int64(chain[v_puller, e, 0])
            dl = _d(lz, nbr, gidx, pusher, last)
            if dl == dpu - steps:
                v_pusher = np.int64(chain[v_puller, e, 1])
                v_puller = last
                dps = dl + 1
                dpu = dl
        n, nxt = _onward(lz, nbr, gidx, occ_now, v_puller, v_pusher)
        if n >= 2:
            return False  # a branch: they can pass there
        if n <= 0:
            break
        v_pusher = v_puller
        v_puller = nxt
        dps = dpu
        dpu = _d(lz, nbr, gidx, pusher, v_puller)
    return _d(lz, nbr, gidx, puller, v_pusher) < _d(lz, nbr, gidx, puller, v_puller) and (dps == 0 or dpu < dps)


@helper
def _swap_possible(lz, nbr, chain, gidx, occ_now, v_pusher, v_puller):
    """Whether pulling along the corridor from ``v_puller`` away from ``v_pusher`` reaches a branch (at once to
    the corridor's last node of two neighbours, ``chain``: none of those before it is a branch nor the origin)."""
    origin = v_pusher
    e = _slot(nbr, v_puller, v_pusher)
    if chain[v_puller, e, 2] > 0:
        v_pusher, v_puller = np.int64(chain[v_puller, e, 1]), np.int64(chain[v_puller, e, 0])
    while v_puller != origin:
        n, nxt = _onward(lz, nbr, gidx, occ_now, v_puller, v_pusher)
        if n >= 2:
            return True
        if n <= 0:
            return False
        v_pusher = v_puller
        v_puller = nxt
    return False


@helper
def _swap_agent(a, v, best, q_to, q_from, nbr, chain, lz, gidx, occ_now):
    """The agent that ``a`` (on ``v``, its best candidate ``best``) should swap with, or -1 (LaCAM2's
    ``swap_possible_and_required``)."""
    if best == v:
        return np.int64(-1)
    n, _ = _onward(lz, nbr, gidx, occ_now, best, v)
    if n >= 2:
        return np.int64(-1)  # both checks below end at once on a branch (and on open ground, every time)
    j = occ_now[best]
    if j >= 0 and q_to[j] < 0 and _swap_required(lz, nbr, chain, gidx, occ_now, a, j, v, best) and _swap_possible(
            lz, nbr, chain, gidx, occ_now, best, v):
        return j
    for d in range(nbr.shape[1]):
        u = nbr[v, d]
        if u < 0 or u == best:
            continue
        k = occ_now[u]
        if k < 0:
            continue
        if _swap_required(lz, nbr, chain, gidx, occ_now, k, a, v, best) and _swap_possible(lz, nbr, chain, gidx,
                                                                                           occ_now, best, v):
            return k
    return np.int64(-1)


@helper
def _frame(depth, a, q_from, q_to, occ_now, st_n, st_cand, nbr, chain, lz, gidx, rng, keys, tie, lend):
    """Agent ``a``'s candidates on row ``depth`` of the stack (``st_n[depth]``: their count, and with ``SWAP``
    the agent to pull plus one, times 256); ``lend``: the agent pushing ``a`` (-1: none)."""
    m = _candidates(a, q_from[a], nbr, lz, gidx, occ_now, q_to, st_cand[depth], keys, rng, tie & 3,
                    lend if tie & DODGE else np.int64(-1))
    pull = np.int64(-1)
    if tie & SWAP:
        row = st_cand[depth]
        pull = _swap_agent(a, q_from[a], row[0], q_to, q_from, nbr, chain, lz, gidx, occ_now)
        if pull >= 0:
            for i in range(m // 2):
                t = row[i]
                row[i] = row[m - 1 - i]
                row[m - 1 - i] = t
    st_n[depth] = m + (pull + 1) * 256


@helper
def _pull(top, a, q_from, q_to, occ_next, st_n, st_pos, gen, tie):
    """Frame ``top`` (agent ``a``) found a node: with ``SWAP``, when it took its first candidate, its agent to
    pull moves into ``a``'s node."""
    if gen == 1 and tie & SWAP and st_pos[top] == 1:
        j = st_n[top] // 256 - 1
        v = q_from[a]
        if j >= 0 and q_to[j] < 0 and occ_next[v] < 0:
            q_to[j] = v
            occ_next[v] = j


@helper
def pibt(root, q_from, q_to, occ_now, occ_next, st_agent, st_pos, st_n, st_cand, lender, gen, nbr, chain, lz, gidx, rng,
         keys, tie):
    """PIBT from agent ``root``; True when it found a next node (False: it stays, and its own node was taken).

    The one PIBT of the planner (``configure``) and the simulation's crowd rule (``simcrowd.crowd_pass``). ``gen``
    says where an agent's candidates come from: 0, listed beforehand, ``st_cand[a, :st_n[a]]`` for agent ``a``
    (``nbr``, ``chain``, ``lz``, ``gidx``, ``rng``, ``keys``, ``tie`` unused); 1, listed when the agent chooses
    (``_candidates``), into the row of its depth on the stack. ``lender[k]``: the agent that lent ``k`` its
    priority (written when it does).
    """
    st_agent[0] = root
    st_pos[0] = 0
    if gen == 1:  # (depths as int64 from the start: a literal 0 or 1 is a signature, a whole compile, of its own)
        _frame(np.int64(0), root, q_from, q_to, occ_now, st_n, st_cand, nbr, chain, lz, gidx, rng, keys, tie,
               np.int64(-1))
    depth = np.int64(1)
    result = -1  # -1: no child returned; 1: the child found a node; 0: it stays
    while depth > 0:
        top = depth - 1
        a = st_agent[top]
        if result == 1:
            _pull(top, a, q_from, q_to, occ_next, st_n, st_pos, gen, tie)
            depth -= 1
            continue
        result = -1
        done = False
        row = top if gen == 1 else a
        count = st_n[row] % 256 if gen == 1 else st_n[row]
        while st_pos[top] < count:
            u = st_cand[row, st_pos[top]]
            st_pos[top] += 1
            if occ_next[u] >= 0:
                continue
            k = occ_now[u]
            if k >= 0 and k != a and q_to[k] == q_from[a]:
                continue  # a swap along one edge
            occ_next[u] = a
            q_to[a] = u
            if k >= 0 and k != a and q_to[k] < 0:
                lender[k] = a
                st_agent[depth] = k
                st_pos[depth] = 0
                if gen == 1:
                    _frame(depth, k, q_from, q_to, occ_now, st_n, st_cand, nbr, chain, lz, gidx, rng, keys, tie,
                           np.int64(a))
                depth += 1
            else:
                _pull(top, a, q_from, q_to, occ_next, st_n, st_pos, gen, tie)
                result = 1
                depth -= 1
            done = True
            break
        if not done:  # no candidate: it stays (its lender, below it, tries its next one)
            v = q_from[a]
            q_to[a] = v
            ok = occ_next[v] < 0 or occ_next[v] == a
            if not ok:
                w = occ_next[v]
                if q_to[w] == v and top > 0 and st_agent[top - 1] == w:
                    ok = True  # the lender leaves for another candidate
            occ_next[v] = a
            depth -= 1
            result = 0
            if top == 0 and not ok:
                return False
    return True


@jit
def configure(nbr, lz, gidx, q_from, q_to, order, cw, cv, nc, occ_now, occ_next, rng, st_agent, st_pos, st_n, st_cand, tie,
              chain):
    """The next configuration after ``q_from``: the ``nc`` constraints ``cw[i] -> cv[i]`` first, then PIBT by ``order``.

    Writes ``q_to``; returns False when the constraints collide or an agent
    can find no node. ``chain``: ``chains`` of ``nbr`` (read with ``SWAP``). ``occ_now`` and ``occ_next`` (``-1`` everywhere) are
    scratch, left as found.
    """
    n = q_from.shape[0]
    for a in range(n):
        occ_now[q_from[a]] = a
        q_to[a] = -1
    ok = True
    for i in range(nc):
        a = cw[i]
        u = cv[i]
        if occ_next[u] >= 0:
            ok = False
            break
        k = occ_now[u]
        if k >= 0 and k != a and q_to[k] == q_from[a]:
            ok = False
            break
        q_to[a] = u
        occ_next[u] = a
    keys = np.empty(nbr.shape[1] + 1, dtype=np.int64)
    lender = np.empty(n, dtype=np.int64)
    if ok:
        st = lz.st
        for i in range(order.shape[0]):
            a = order[i]
            v = q_from[a]
            if q_to[a] < 0 and v == st[gidx[a], 0] and occ_next[v] < 0:
                q_to[a] = v  # on its goal, no one pushing: PIBT's first candidate, without the look-ups
                occ_next[v] = a
                continue
            if q_to[a] < 0 and not pibt(a, q_from, q_to, occ_now, occ_next, st_agent, st_pos, st_n, st_cand, lender, 1,
                                        nbr, chain, lz, gidx, rng, keys, tie):
                ok = False
                break
    for a in range(n):
        occ_now[q_from[a]] = -1
        if q_to[a] >= 0:
            occ_next[q_to[a]] = -1
    if ok:  # a last check: one agent a node (a stay can land on a node a constraint took)
        for a in range(n):
            if occ_next[q_to[a]] >= 0:
                ok = False
            occ_next[q_to[a]] = a
        for a in range(n):
            occ_next[q_to[a]] = -1
    return ok


@jit
def successor(nbr, lz, gidx, goals, q_from, q_to, order, cw, cv, nc, occ_now, occ_next, rng, st_agent, st_pos, st_n,
              st_cand, tie, prio, makespan, new_prio, new_order, d0, margin, dq, chain, exits, new_exits, band_exits):
    """``configure``, then what the high-level search keeps of the new configuration in one call: the agents'
    priorities (``new_prio``, by ``priority``; with ``margin`` at least 0 and ``band_exits`` above 0, by
    ``stay_in_band`` too, from the times ``exits`` each agent left the makespan's band, counted on in
    ``new_exits``), their order (``new_order``, from ``order`` by ``reorder``) and the heuristic of ``q_to``
    returned: the largest of the agents' distances to their goals (``makespan``) or their sum. ``d0``: the agents'
    distances from their starts; ``dq``: scratch of one an agent. Returns -1 when ``configure`` finds no
    configuration."""
    if not configure(nbr, lz, gidx, q_from, q_to, order, cw, cv, nc, occ_now, occ_next, rng, st_agent, st_pos, st_n,
                     st_cand, tie, chain):
        return np.int64(-1)
    dist = lz.dist
    h = np.int64(0)
    top = np.int64(0)
    for a in range(q_to.shape[0]):
        v = q_to[a]
        if v == goals[a]:
            dq[a] = 0
            continue
        k = gidx[a]
        x = dist[k, v]
        d = np.int64(x) - 1 if x != 0 else _settle(lz, nbr, k, v)
        dq[a] = d
        if d > top:
            top = d
        h += d
    priority(prio, d0, dq, top - margin, new_prio)
    if margin >= 0 and band_exits > 0:
        stay_in_band(prio, dq, new_prio, exits, new_exits, band_exits)
    else:
        new_exits[:] = exits
    reorder(order, prio, new_prio, new_order, dq)
    return top if makespan else h


@jit
def chains(nbr, out):
    """``out[v, e]``: for node ``v`` of two distinct neighbours entered from ``nbr[v, e]``, the corridor ahead (the
    nodes of two distinct neighbours one after another): its last node, the node before that, and the steps to
    it (0: ``v`` is the last, or not such a node, or the corridor is a ring). ``out`` has shape ``(nodes, dirs,
    3)``."""
    nv, ndir = nbr.shape
    two = np.zeros(nv, dtype=np.bool_)
    for v in range(nv):
        m = 0
        a = -1
        b = -1
        for d in range(ndir):
            u = nbr[v, d]
            if u >= 0:
                m += 1
                if a < 0:
                    a = u
                else:
                    b = u
        two[v] = m == 2 and a != b
        for d in range(ndir):
            out[v, d, 0] = -1
            out[v, d, 1] = -1
            out[v, d, 2] = 0
    seen = np.zeros(nv, dtype=np.bool_)
    path = np.empty(nv, dtype=np.int64)
    for s in range(nv):
        if not two[s] or seen[s]:
            continue
        p = np.int64(s)
        x = np.int64(_other(nbr, s, -1))
        while two[x] and x != s:
            p, x = x, np.int64(_other(nbr, x, p))
        if x == s:  # a ring: no corridor ends
            seen[s] = True
            p, x = np.int64(s), np.int64(_other(nbr, s, -1))
            while x != s:
                seen[x] = True
                p, x = x, np.int64(_other(nbr, x, p))
            continue
        m = 0
        prev = x
        cur = p
        while two[cur]:
            path[m] = cur
            seen[cur] = True
            m += 1
            prev, cur = cur, np.int64(_other(nbr, cur, prev))
        first_end = x
        for i in range(m):
            y = path[i]
            back = path[i - 1] if i > 0 else first_end
            fwd = path[i + 1] if i + 1 < m else cur
            e = _slot(nbr, y, back)
            if m - 1 - i > 0:
                out[y, e, 0] = path[m - 1]
                out[y, e, 1] = path[m - 2]
                out[y, e, 2] = m - 1 - i
            e = _slot(nbr, y, fwd)
            if i > 0:
                out[y, e, 0] = path[0]
                out[y, e, 1] = path[1]
                out[y, e, 2] = i
    return 0


@helper
def _other(nbr, v, p):
    """The neighbour of node ``v`` (two of them) that is not ``p`` (``p`` -1: the first)."""
    for d in range(nbr.shape[1]):
        u = nbr[v, d]
        if u >= 0 and u != p:
            return u
    return -1


@jit
def stay_in_band(prio, dq, out, exits, new_exits, limit):
    """An agent that has left the makespan's band ``limit`` times stays in it (``out``: a half more) till it
    reaches its goal. ``prio``: the priorities before the timestep, ``out`` after it (``priority``); ``exits``:
    how often each agent had left the band, ``new_exits``: counted on.

    The band's edge is the largest distance less a margin, and a push that puts the agent setting it one step back
    moves the edge: an agent at the edge then leaves and enters the band every other timestep, taking the lead
    from the pusher and pushing it back in turn, and in a packed corridor the two can do so for good (a
    128 x 128 maze of one-wide corridors). The simulation bounds the same exits (``sim``'s band)."""
    for a in range(out.shape[0]):
        e = exits[a]
        if dq[a] > 0 and prio[a] >= 1.0 and prio[a] - np.floor(prio[a]) >= 0.5 and out[a] - np.floor(out[a]) < 0.5:
            if e < limit:
                e += 1
            if e >= limit:
                out[a] += 0.5
        new_exits[a] = e
    return 0


@jit
def priority(prio, d0, dq, critical, out):
    """``out``: the agents' priorities after a timestep from ``prio``, the priorities before it.

    As in PIBT and LaCAM, an agent off its goal (``dq[a] > 0``: its steps
    to go) gains one a timestep, one on it drops to a fraction below one;
    the fraction orders agents of the same whole part: half of it, the agent's
    distance from its start over twice the largest (``d0``; LaCAM's
    tie-break), and a half more for an agent off its goal whose steps to go
    are at least ``critical`` (those that set the plan's makespan: they go
    first among agents that have waited as long).
    """
    scale = 0.5 / (np.float64(d0.max()) + 1.0)
    for a in range(prio.shape[0]):
        f = d0[a] * scale
        if dq[a] == 0:
            out[a] = f
        else:
            out[a] = np.floor(prio[a]) + 1.0 + f + (0.5 if dq[a] >= critical else 0.0)
    return 0


@jit
def reorder(prev, old, prio, out, moved):
    """``out``: the agents by ``prio`` highest first, ties by number (``argsort(-prio, kind='stable')``).

    ``prev`` is the parent configuration's order, by its priorities ``old``.
    An agent on its goal at both keeps its priority; one off its goal at both
    (whole parts at least one) and in the makespan's band at both or at
    neither (fractions at least a half, or both below) gained exactly one: so
    those agents keep their order in ``prev``; the others (the few that
    reached or left their goals or the band) are sorted apart and merged in. Should rounding have changed the order of the
    ones kept, an insertion sort from ``prev`` gives it. ``moved``: scratch of
    one an agent.
    """
    n = prev.shape[0]
    kept = 0
    m = 0
    for i in range(n):
        a = prev[i]
        p = prio[a]
        o = old[a]
        if p == o or (p >= 1.0 and o >= 1.0 and (p - np.floor(p) >= 0.5) == (o - np.floor(o) >= 0.5)):
            out[kept] = a
            kept += 1
        else:
            moved[m] = a
            m += 1
    if m > 0:
        _sort_by_priority(moved, m, prio)
        # merge from the back: the lowest of the two lists' last ones goes last
        i = kept - 1
        j = m - 1
        w = n - 1
        while j >= 0:
            if i >= 0 and _before(moved[j], out[i], prio):
                out[w] = out[i]
                i -= 1
            else:
                out[w] = moved[j]
                j -= 1
            w -= 1
    for w in range(1, n):
        if not _before(out[w - 1], out[w], prio):
            _insertion(prev, prio, out)
            break
    return 0


@helper
def _before(a, b, prio):
    """Whether agent ``a`` comes before agent ``b`` by ``prio`` (ties by number)."""
    return prio[a] > prio[b] or (prio[a] == prio[b] and a < b)


@jit
def _sort_by_priority(agents, m, prio):
    """``agents[:m]`` by ``prio`` highest first, ties by number."""
    if m > 32:
        part = agents[:m]
        part.sort()
        keys = np.empty(m)
        for i in range(m):
            keys[i] = -prio[part[i]]
        idx = np.argsort(keys, kind="mergesort")
        tmp = part[idx]
        part[:] = tmp
        return
    for i in range(1, m):
        a = agents[i]
        j = i
        while j > 0 and _before(a, agents[j - 1], prio):
            agents[j] = agents[j - 1]
            j -= 1
        agents[j] = a


@helper
def _insertion(prev, prio, out):
    """``out``: ``prev`` sorted by ``prio`` highest first, ties by number (insertion sort)."""
    n = prev.shape[0]
    for i in range(n):
        a = prev[i]
        pa = prio[a]
        j = i
        while j > 0:
            b = out[j - 1]
            if prio[b] > pa or (prio[b] == pa and b < a):
                break
            out[j] = b
            j -= 1
        out[j] = a
