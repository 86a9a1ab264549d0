"""The crowd planner's repair of knots (push and swap, ``wargrid._kernels.rts.knots``): a swap moves only its two
agents, a repair's moves timed by ``schedule`` make a valid plan, and a perfect maze where PIBT leaves trains of
agents head-on is planned."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import Map, SquareGrid
from wargrid.io import load_movingai
from wargrid.rts import check_plan, plan_crowd
from wargrid.rts import crowd as crowd_mod

DATA = Path(__file__).resolve().parents[1] / "data" / "mapf"
MAZE = DATA / "maze-24-24-1.map"
KNOTTED = DATA / "maze-48-48-1.map"


def _knots() -> Any:
    from wargrid._kernels import load

    return load("rts.knots")


def _random_pairs(m: Map, n: int, seed: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    ys, xs = np.nonzero(np.isfinite(m.costs()))
    rng = np.random.default_rng(seed)
    a, b = rng.choice(len(xs), n, replace=False), rng.choice(len(xs), n, replace=False)
    return [(int(xs[i]), int(ys[i])) for i in a], [(int(xs[i]), int(ys[i])) for i in b]


class _Case:
    """A configuration on a board's crowd graph, with the kernels' scratch."""

    def __init__(self, m: Map, n: int, seed: int) -> None:
        s, g = _random_pairs(m, n, seed)
        self.map, self.starts, self.goals = m, s, g
        self.graph, self.s, self.g = crowd_mod._check_agents(m, s, g, None)
        nv = len(self.graph.cells)
        self.nv, self.n = nv, n
        self.q = self.s.copy()
        self.occ = np.full(nv, -1, dtype=np.int64)
        self.occ[self.q] = np.arange(n)
        self.log = np.empty((1 << 18, 3), dtype=np.int64)
        self.cnt = np.array([0, 0, 0, 1 << 62], dtype=np.int64)  # moves, stopped, work, budget
        self.gen = np.zeros(1, dtype=np.int64)
        self.stamps = [np.zeros(nv, dtype=np.int64) for _ in range(5)]
        self.work = [np.empty(nv, dtype=np.int64) for _ in range(6)]

    def replayed(self, q0: np.ndarray, lo: int, hi: int) -> np.ndarray:
        """The logged moves ``lo..hi`` made one after another from ``q0``, each checked: one agent one step into a
        free node."""
        q = q0.copy()
        occ = np.full(self.nv, -1, dtype=np.int64)
        occ[q] = np.arange(self.n)
        for a, v, u in self.log[lo:hi].tolist():
            assert q[a] == v and occ[u] < 0 and u in self.graph.nbr[v].tolist(), (a, v, u)
            occ[v], occ[u], q[a] = -1, a, u
        return q


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(2, 120))
def test_a_swap_exchanges_two_neighbours_and_leaves_every_other_agent_where_it_stood(seed: int, n: int) -> None:
    """``_swap`` of two agents on neighbouring nodes of a perfect maze: when it works, the two have traded nodes and
    every other agent stands where it stood; every logged move is one agent's step into a free node. When it
    fails, nothing has moved."""
    c = _Case(load_movingai(MAZE, diagonal=False), n, seed)
    k = _knots()
    pairs = [(int(c.occ[v]), int(c.occ[u])) for v in c.q for u in c.graph.nbr[v] if u >= 0 and c.occ[u] >= 0]
    if not pairs:
        return
    r, s = pairs[np.random.default_rng(seed).integers(len(pairs))]
    q0 = c.q.copy()
    st_, wk = c.stamps, c.work
    ok = k._swap(r, s, c.graph.nbr, c.q, c.occ, c.log, c.cnt, st_[0], st_[1], wk[0], wk[1], wk[2], c.gen, st_[2],
                 wk[3], wk[4], wk[5])
    want = q0.copy()
    if ok:
        want[r], want[s] = q0[s], q0[r]
    else:
        assert c.cnt[0] == 0
    assert c.q.tolist() == want.tolist()
    assert (c.occ[c.q] == np.arange(n)).all() and np.count_nonzero(c.occ >= 0) == n
    assert c.replayed(q0, 0, int(c.cnt[0])).tolist() == want.tolist()


def test_a_swap_in_a_corridor_trades_two_agents_at_the_fork_with_room() -> None:
    """A literal case: a corridor ``0-1-2-3`` with a fork at 3 (branches 4 and 5); agents 0 and 1 on nodes 1 and 2
    trade places: the two step up to the fork (2 moves), trade there through its free branches (6) and the first
    two moves are undone with their parts exchanged (2); the agent on node 0 never moves."""
    nbr = np.array([[1, -1, -1], [0, 2, -1], [1, 3, -1], [2, 4, 5], [3, -1, -1], [3, -1, -1]], dtype=np.int32)
    q = np.array([1, 2, 0], dtype=np.int64)
    occ = np.array([2, 0, 1, -1, -1, -1], dtype=np.int64)
    log = np.empty((64, 3), dtype=np.int64)
    cnt = np.array([0, 0, 0, 1 << 62], dtype=np.int64)
    z = [np.zeros(6, dtype=np.int64) for _ in range(4)]
    w = [np.empty(6, dtype=np.int64) for _ in range(6)]
    assert _knots()._swap(0, 1, nbr, q, occ, log, cnt, z[0], z[1], w[0], w[1], w[2], np.zeros(1, dtype=np.int64),
                          z[2], w[3], w[4], w[5])
    assert q.tolist() == [2, 1, 0]
    assert occ.tolist() == [2, 1, 0, -1, -1, -1]
    assert int(cnt[0]) == 10
    assert 2 not in log[:10, 0].tolist()


@pytest.mark.slow  # (a sweep of whole plans: 3-4 s warm; the fast part keeps the literal cases)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(1, 60))
def test_a_repairs_moves_timed_by_schedule_make_a_valid_plan_to_where_they_lead(seed: int, n: int) -> None:
    """``repair`` from the starts of random pairs on a perfect maze, then ``schedule`` and ``replay``: the timed
    configurations pass ``check_plan``, end where the moves one after another end, and ``repair`` counts the
    agents on their goals there; the agents it reports home (most, at these densities) are."""
    m = load_movingai(MAZE, diagonal=False)
    c = _Case(m, n, seed)
    k = _knots()
    tables = crowd_mod._Tables(c.graph, c.g, c.s)
    gidx = np.arange(n, dtype=np.int64)
    st_, wk = c.stamps, c.work
    home = k.repair(c.graph.nbr, tables.lz, gidx, c.g, c.q, c.occ, 8, c.log, c.cnt, st_[0], st_[1], st_[2], st_[3],
                    wk[0], wk[1], c.gen, st_[4], wk[2], wk[3], wk[4], wk[5])
    assert home == int(np.count_nonzero(c.q == c.g))
    moves = int(c.cnt[0])
    assert c.replayed(c.s, 0, moves).tolist() == c.q.tolist()
    times = np.empty(moves, dtype=np.int64)
    top = int(k.schedule(n, c.nv, c.log, moves, times))
    rows = np.empty((top + 1, n), dtype=np.int64)
    k.replay(c.s, c.log, moves, times, rows)
    assert rows[-1].tolist() == c.q.tolist()
    check_plan(m, c.starts, c.goals, c.graph.xy(rows), complete=home == n)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), budget=st.integers(0, 3000))
def test_a_repair_stops_when_its_work_budget_is_spent_and_leaves_its_moves_whole(seed: int, budget: int) -> None:
    """``repair`` with a budget of ``budget`` units of work (``cnt[3]``; the planner's is the time left to its stop):
    it spends at most one unit past it (a way's steps at most past it), says it stopped (``cnt[1]``), and the moves
    it logged are whole walks, one step each into a free node, that end where ``q`` says."""
    m = load_movingai(MAZE, diagonal=False)
    c = _Case(m, 60, seed)
    c.cnt[3] = budget
    k = _knots()
    tables = crowd_mod._Tables(c.graph, c.g, c.s)
    st_, wk = c.stamps, c.work
    home = k.repair(c.graph.nbr, tables.lz, np.arange(60, dtype=np.int64), c.g, c.q, c.occ, 32, c.log, c.cnt, st_[0],
                    st_[1], st_[2], st_[3], wk[0], wk[1], c.gen, st_[4], wk[2], wk[3], wk[4], wk[5])
    unbounded = _Case(m, 60, seed)
    k.repair(c.graph.nbr, tables.lz, np.arange(60, dtype=np.int64), c.g, unbounded.q, unbounded.occ, 32, unbounded.log,
             unbounded.cnt, *unbounded.stamps[:4], unbounded.work[0], unbounded.work[1], unbounded.gen,
             unbounded.stamps[4], *unbounded.work[2:])
    if int(unbounded.cnt[2]) > budget:  # the budget bit: the repair stopped there
        assert c.cnt[1] == 1 and int(c.cnt[2]) <= budget + m.width * m.height
        assert int(c.cnt[0]) <= int(unbounded.cnt[0])
    else:
        assert c.q.tolist() == unbounded.q.tolist()
    assert c.replayed(c.s, 0, int(c.cnt[0])).tolist() == c.q.tolist()
    assert home == int(np.count_nonzero(c.q == c.g))
    assert (c.occ[c.q] == np.arange(60)).all() and np.count_nonzero(c.occ >= 0) == 60


def test_a_repair_that_brings_no_more_agents_home_is_not_tried_again_from_the_same_configuration(monkeypatch) -> None:
    """A 24 x 24 perfect maze nine tenths full (216 random pairs, seed 0): PIBT stalls, a repair gets agents home,
    the next one runs out of room and returns nothing; the search does not repair that configuration again (the
    kernel would do the same: before, it did up to 8 times, each to the end of its budget)."""
    m = load_movingai(DATA / "maze-24-24-1.map", diagonal=False)
    ys, xs = np.nonzero(np.isfinite(m.costs()))
    s, g = _random_pairs(m, int(0.9 * len(xs)), 0)
    seen: list[int] = []
    failed: list[int] = []
    repair = crowd_mod._Search.repair

    def counted(self: Any, node: Any, stop: float) -> Any:
        assert id(node) not in failed
        seen.append(id(node))
        end = repair(self, node, stop)
        if end is None:
            failed.append(id(node))
        return end

    monkeypatch.setattr(crowd_mod._Search, "repair", counted)
    plan = plan_crowd(m, s, g, time_limit=3, seed=0, improve=0)
    check_plan(m, s, g, plan, complete=plan.complete)
    assert seen


def test_schedule_lets_an_agent_follow_into_a_node_left_in_the_same_timestep() -> None:
    """A literal log on a path ``0-1-2``: agent 0 steps 1 -> 2, then agent 1 steps 0 -> 1 into the node it left; both
    in timestep 1 (agent 1 follows agent 0)."""
    log = np.array([[0, 1, 2], [1, 0, 1]], dtype=np.int64)
    times = np.empty(2, dtype=np.int64)
    assert _knots().schedule(2, 3, log, 2, times) == 1
    assert times.tolist() == [1, 1]
    rows = np.empty((2, 2), dtype=np.int64)
    _knots().replay(np.array([1, 0], dtype=np.int64), log, 2, times, rows)
    assert rows.tolist() == [[1, 0], [2, 1]]


def test_a_perfect_maze_whose_corridors_pibt_knots_is_planned() -> None:
    """95 random pairs on a 48 x 48 perfect maze (seed 12): PIBT leaves trains of agents head-on in one-wide
    corridors, where LaCAM's search went round for 20 s with no plan; the repair walks the agents off their goals
    home by push and swap and the plan is complete and valid."""
    crowd_mod.warm_up_planner(Map(SquareGrid(6, 4)))  # the repair's kernels, as ``wargrid.warm_up('rts')`` does
    k = _knots()
    from wargrid._kernels import load

    t = load("rts.tighten")
    warmed = {name: list(getattr(k, name).signatures) for name in ("repair", "schedule", "replay")}
    warmed.update({name: list(getattr(t, name).signatures) for name in ("fill", "retime")})
    m = load_movingai(KNOTTED, diagonal=False)
    s, g = _random_pairs(m, 95, 12)
    plan = plan_crowd(m, s, g, time_limit=60, seed=0)
    assert plan.complete
    check_plan(m, s, g, plan)
    # the repair's plan tightened (``wargrid._kernels.rts.tighten``): 1899 timesteps before, sum of costs 81 211
    assert (plan.makespan, plan.sum_of_costs) == (1098, 70195)
    # the warm-up compiled what the repair ran: no compile left to land inside a caller's time limit
    # (no count of the signatures: a test earlier in the process, `warm_up('rts')` on a big board, adds others)
    assert {name: list(getattr(t if name in ("fill", "retime") else k, name).signatures) for name in warmed} == warmed


def test_the_warm_up_compiles_what_time_to_improve_and_large_crowds_run() -> None:
    """``warm_up_planner`` also runs the last agents' re-planning (``spacetime``), the tightening and the join of
    the distance tables' two pools (crowds of ``_THREADED`` agents and more): a first ``plan_crowd`` with time to
    improve compiled them inside its time limit (1.3 s over a 1 s limit on a cold install)."""
    from wargrid._kernels import load

    crowd_mod.warm_up_planner(Map(SquareGrid(6, 4)))
    kernels = {"rts.spacetime": ("runs", "occupy", "earliest"), "rts.tighten": ("fill", "retime"),
               "rts.lazydist": ("join_pools",)}
    warmed = {(mod, name): list(getattr(load(mod), name).signatures) for mod, names in kernels.items() for name in names}
    assert all(len(sigs) >= 1 for sigs in warmed.values()), warmed
    m = Map(SquareGrid(24, 24))
    n = crowd_mod._THREADED
    cells = [(int(c) % 24, int(c) // 24) for c in np.random.default_rng(3).choice(24 * 24, 2 * n, replace=False)]
    plan = plan_crowd(m, cells[:n], cells[n:], time_limit=60, improve=0.2, seed=0)
    check_plan(m, cells[:n], cells[n:], plan)
    assert {key: list(getattr(load(key[0]), key[1]).signatures) for key in warmed} == warmed
