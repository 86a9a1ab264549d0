"""Kernels that make a complete crowd plan shorter without changing who passes whom: loops left out, moves re-timed.

A plan is node rows ``nodes[t, a]`` (agent ``a``'s node at timestep ``t``),
valid: no two agents on one node at one timestep, none trading nodes along
one edge in one timestep. Every node is entered by its agents in an order
(its occupants one after another); the plan's moves are kept apart by those
orders alone.

``fill`` leaves loops out: where an agent leaves node ``v`` and comes back to
it with nobody on ``v`` in between, it stays on ``v`` instead (the nodes of its
loop are left free; nobody enters ``v`` meanwhile, so nobody meets it there).
PIBT's plans and the knots' repair (``knots``) have many such loops: agents
pushed aside that step back, trains that go round and come back. One pass
fills the loops of every agent found in the rows as they are (a loop that holds
another of the same agent's replaces it); a filled loop frees nodes, so that
the next pass may find more.

``retime`` then gives every move its earliest timestep with the same order of
occupants on every node (an action-dependency graph, Hönig et al. 2016): an
agent's move comes a timestep after its last one at the earliest, and it
enters a node no earlier than the timestep its last occupant left it
(following into a node left in the same timestep is allowed, and so are
rotations of three or more agents, which the plan had). No move comes later
than it did, so no agent arrives later, and two agents never trade nodes
(they would have in the plan).
"""

from __future__ import annotations

import numpy as np

from .._jit import jit


@jit
def _size(nodes):
    """The nodes that rows ``nodes`` name (one more than the largest) and their moves (an agent on another node than
    the timestep before)."""
    rows, n = nodes.shape
    nv = 0
    moves = 0
    for a in range(n):
        nv = max(nv, nodes[0, a] + 1)
    for t in range(1, rows):
        for a in range(n):
            if nodes[t, a] != nodes[t - 1, a]:
                moves += 1
                nv = max(nv, nodes[t, a] + 1)
    return nv, moves


@jit
def fill(nodes):
    """One pass of loop filling over ``nodes`` (changed in place): an agent whose stay on node ``v`` is the next one
    there after its own last stay (nobody else on ``v`` between) stays on ``v`` between the two. Of an agent's loops
    that cross, the earlier one is filled; one that holds earlier ones replaces them. Returns how many loops were
    filled."""
    rows, n = nodes.shape
    nv, entries = _size(nodes)
    who = np.full(nv, -1, dtype=np.int64)  # the last agent to stand on each node so far, and when it last did
    till = np.full(nv, -1, dtype=np.int64)
    fa = np.empty(entries, dtype=np.int32)  # each loop's agent, node, first and last timestep off the node + 1
    fv = np.empty(entries, dtype=np.int32)
    flo = np.empty(entries, dtype=np.int32)
    fhi = np.empty(entries, dtype=np.int32)
    below = np.empty(entries, dtype=np.int32)  # the agent's previous loop kept (-1: none)
    alive = np.zeros(entries, dtype=np.bool_)
    top = np.full(n, -1, dtype=np.int64)  # each agent's last loop kept
    k = 0
    for t in range(rows):
        for a in range(n):
            v = nodes[t, a]
            if t > 0 and nodes[t - 1, a] == v:
                till[v] = t
                continue
            if who[v] == a and till[v] < t - 1:
                lo = till[v] + 1
                j = top[a]
                while j >= 0 and flo[j] >= lo:  # held by this loop
                    j = below[j]
                if j < 0 or fhi[j] < lo:  # (else it crosses an earlier one, which stays)
                    i = top[a]
                    while i != j:
                        alive[i] = False
                        i = below[i]
                    fa[k], fv[k], flo[k], fhi[k], below[k] = a, v, lo, t, j
                    alive[k] = True
                    top[a] = k
                    k += 1
            who[v] = a
            till[v] = t
    filled = 0
    for i in range(k):
        if alive[i]:
            a = fa[i]
            for t in range(flo[i], fhi[i]):
                nodes[t, a] = fv[i]
            filled += 1
    return filled


@jit
def retime(nodes):
    """The rows of ``nodes`` with every move at its earliest timestep that keeps the order of occupants on every node
    (and each agent's moves in order); the rows end at the last move."""
    rows, n = nodes.shape
    nv, moves = _size(nodes)
    ma = np.empty(moves, dtype=np.int32)  # each move's agent, node entered and new timestep
    mu = np.empty(moves, dtype=np.int32)
    mt = np.empty(moves, dtype=np.int32)
    last = np.zeros(n, dtype=np.int64)  # each agent's last move's new timestep
    left = np.zeros(nv, dtype=np.int64)  # when each node's last occupant left it
    occ = np.full(nv, -1, dtype=np.int64)
    for a in range(n):
        occ[nodes[0, a]] = a
    mover = np.full(n, -1, dtype=np.int64)  # this timestep's move of each agent (its index in the step)
    dep = np.empty(n, dtype=np.int64)  # the move out of the node a move enters, in the same timestep (-1: none)
    base = np.empty(n, dtype=np.int64)
    tn = np.empty(n, dtype=np.int64)
    state = np.zeros(n, dtype=np.int8)
    trail = np.empty(n, dtype=np.int64)
    k = 0
    top = 0
    for t in range(1, rows):
        m = 0
        for a in range(n):
            if nodes[t, a] != nodes[t - 1, a]:
                ma[k + m] = a
                mu[k + m] = nodes[t, a]
                mover[a] = m
                m += 1
        for j in range(m):
            a = ma[k + j]
            u = mu[k + j]
            b = occ[u]
            dep[j] = mover[b] if b >= 0 else -1
            base[j] = max(last[a] + 1, left[u])
            state[j] = 0
        # each move no earlier than the one it follows into a node: chains, and rotations (all at one timestep)
        for j in range(m):
            if state[j] == 2:
                continue
            h = 0
            x = j
            while state[x] == 0:
                state[x] = 1
                trail[h] = x
                h += 1
                if dep[x] < 0:
                    break
                x = dep[x]
            if state[x] == 1 and dep[x] >= 0:
                # a rotation: the trail from x on (the walk came back to x)
                c = h - 1
                while trail[c] != x:
                    c -= 1
                hi = 0
                for i in range(c, h):
                    hi = max(hi, base[trail[i]])
                for i in range(c, h):
                    tn[trail[i]] = hi
                    state[trail[i]] = 2
                h = c
            elif state[x] == 1:  # the chain's head enters a node nobody left this timestep
                tn[x] = base[x]
                state[x] = 2
                h -= 1
            for i in range(h - 1, -1, -1):
                y = trail[i]
                tn[y] = max(base[y], tn[dep[y]])
                state[y] = 2
        for j in range(m):
            a = ma[k + j]
            occ[nodes[t - 1, a]] = -1
        for j in range(m):
            a = ma[k + j]
            occ[mu[k + j]] = a
            last[a] = tn[j]
            left[nodes[t - 1, a]] = tn[j]
            mover[a] = -1
            mt[k + j] = tn[j]
            if tn[j] > top:
                top = tn[j]
        k += m
    # the moves by their new timesteps (a counting sort), made in that order
    start = np.zeros(top + 2, dtype=np.int64)
    for i in range(moves):
        start[mt[i] + 1] += 1
    for t in range(top + 1):
        start[t + 1] += start[t]
    by = np.empty(moves, dtype=np.int64)
    at = start.copy()
    for i in range(moves):
        by[at[mt[i]]] = i
        at[mt[i]] += 1
    out = np.empty((top + 1, n), dtype=nodes.dtype)
    out[0] = nodes[0]
    for t in range(1, top + 1):
        out[t] = out[t - 1]
        for j in range(start[t], start[t + 1]):
            i = by[j]
            out[t, ma[i]] = mu[i]
    return out
