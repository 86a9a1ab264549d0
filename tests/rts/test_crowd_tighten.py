"""Making a complete crowd plan shorter (``wargrid._kernels.rts.tighten``): loops left out, moves re-timed as early as
the order of the agents on every node allows; the plan stays valid and no agent arrives later."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crowd_search import first_search

from wargrid import Map, SquareGrid
from wargrid.io import load_movingai
from wargrid.rts import check_plan, plan_crowd
from wargrid.rts import crowd as crowd_mod

DATA = Path(__file__).resolve().parents[1] / "data" / "mapf"


def _tighten() -> Any:
    from wargrid._kernels import load

    return load("rts.tighten")


def _rows(*rows: list[int]) -> np.ndarray:
    return np.array(rows, dtype=np.int64)


def _arrivals(nodes: np.ndarray) -> np.ndarray:
    off = nodes != nodes[-1][None, :]
    return np.where(off.any(axis=0), nodes.shape[0] - np.argmax(off[::-1], axis=0), 0)


def test_retime_moves_an_agent_that_waited_for_nothing_to_its_earliest_timesteps() -> None:
    """A path ``0-1-2``: agent 0 waits two timesteps for nothing, then walks; re-timed, it walks at once."""
    out = _tighten().retime(_rows([0], [0], [0], [1], [2]))
    assert out.tolist() == [[0], [1], [2]]


def test_retime_keeps_who_enters_a_node_first_and_lets_an_agent_follow_into_a_node_left_in_the_same_timestep() -> None:
    """A path ``0-1-2-3``: agent 1 (on 1) goes to 3 after a wait, agent 0 follows it from 0 to 2; agent 0 enters node 1
    in the timestep agent 1 leaves it, and node 2 likewise, never before."""
    plan = _rows([0, 1], [0, 1], [0, 1], [0, 2], [1, 3], [2, 3])
    out = _tighten().retime(plan)
    assert out.tolist() == [[0, 1], [1, 2], [2, 3]]


def test_retime_keeps_a_rotation_in_one_timestep() -> None:
    """Four agents round the cycle ``0-1-2-3`` of a 2 x 2 block, after a wait of everyone: one timestep, all at once
    (no agent can move before the one ahead does)."""
    plan = _rows([0, 1, 2, 3], [0, 1, 2, 3], [1, 2, 3, 0])
    assert _tighten().retime(plan).tolist() == [[0, 1, 2, 3], [1, 2, 3, 0]]


def test_fill_leaves_out_a_loop_only_where_nobody_stood_on_the_node_between() -> None:
    """Agent 0 steps 0 -> 1 -> 0 and back to 1; agent 1 walks 3 -> 2 -> 3. Nobody else is on node 0 between agent 0's
    two stays there: it stays on 0. Agent 1 comes back to 3 with nobody there between too: it stays. A loop whose node
    another agent stood on between is kept."""
    k = _tighten()
    plan = _rows([0, 3], [1, 2], [0, 3], [1, 3])
    assert k.fill(plan) == 2
    assert plan.tolist() == [[0, 3], [0, 3], [0, 3], [1, 3]]
    # a T of nodes 0-1-2 and 3 beside 1: agent 0 steps aside from 1 to 3, agent 1 passes 0 -> 1 -> 2, agent 0 steps
    # back onto 1, where agent 1 stood between: kept
    aside = _rows([1, 0], [3, 0], [3, 1], [3, 2], [1, 2])
    assert k.fill(aside) == 0
    assert aside.tolist() == [[1, 0], [3, 0], [3, 1], [3, 2], [1, 2]]


def _random_plan(rng: np.random.Generator, side: int, n: int, steps: int) -> tuple[Map, list[Any], list[Any],
                                                                                   np.ndarray]:
    """A valid random plan on an open ``side`` x ``side`` board: each timestep, agents in a random order step to a
    random neighbour (or stay) when nobody stands there now that has not moved yet, nobody moves there, and it is no
    trade of two agents (following into a node left in the same timestep happens)."""
    m = Map(SquareGrid(side, side))
    graph = crowd_mod._Graph(m, None)
    nv = len(graph.cells)
    q = rng.choice(nv, n, replace=False).astype(np.int64)
    rows = [q.copy()]
    for _ in range(steps):
        now = np.full(nv, -1, dtype=np.int64)
        now[q] = np.arange(n)
        nxt = np.full(nv, -1, dtype=np.int64)
        new = q.copy()
        moved = np.zeros(n, dtype=bool)
        for a in rng.permutation(n).tolist():
            opts = [int(u) for u in graph.nbr[q[a]] if u >= 0]
            u = opts[int(rng.integers(len(opts)))] if opts and rng.random() < 0.7 else int(q[a])
            b = int(now[u])
            if u != q[a] and nxt[u] < 0 and (b < 0 or (moved[b] and new[b] != q[a])):
                new[a] = u
                moved[a] = True
                now[q[a]] = -1
            nxt[new[a]] = a
        # an agent that stayed may have been followed into: keep only moves whose node nobody stays on
        stay = np.full(nv, -1, dtype=np.int64)
        stay[new[~moved]] = np.flatnonzero(~moved)
        if (stay[new[moved]] >= 0).any() or len(np.unique(new)) < n:
            new = q.copy()
        q = new
        rows.append(q.copy())
    nodes = np.array(rows, dtype=np.int64)
    xy = graph.xy(nodes)
    starts = [tuple(c) for c in xy[0].tolist()]
    goals = [tuple(c) for c in xy[-1].tolist()]
    return m, starts, goals, nodes


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), side=st.integers(2, 7), density=st.floats(0.1, 0.9),
       steps=st.integers(1, 40), passes=st.integers(0, 4))
def test_loops_filled_and_moves_retimed_leave_a_valid_plan_where_no_agent_arrives_later(
        seed: int, side: int, density: float, steps: int, passes: int) -> None:
    """Random valid plans (random walks with waits, following into nodes left in the same timestep): after ``passes``
    passes of ``fill`` and a ``retime``, the plan passes ``check_plan``, starts and ends where it did, is no longer,
    and no agent arrives later."""
    rng = np.random.default_rng(seed)
    n = max(1, int(density * side * side))
    m, starts, goals, nodes = _random_plan(rng, side, n, steps)
    check_plan(m, starts, goals, crowd_mod._Graph(m, None).xy(nodes))
    k = _tighten()
    x = nodes.copy()
    for _ in range(passes):
        k.fill(x)
    check_plan(m, starts, goals, crowd_mod._Graph(m, None).xy(x))
    out = k.retime(x)
    check_plan(m, starts, goals, crowd_mod._Graph(m, None).xy(out))
    assert out.shape[0] <= nodes.shape[0]
    assert (out[0] == nodes[0]).all() and (out[-1] == nodes[-1]).all()
    assert (_arrivals(out) <= _arrivals(nodes)).all()


@pytest.mark.slow  # (a sweep of whole plans: 3-4 s warm; the fast part keeps the literal cases)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(2, 60))
def test_planned_crowds_on_a_perfect_maze_stay_valid_within_the_limit(seed: int, n: int) -> None:
    """``plan_crowd`` on a 24 x 24 perfect maze with random pairs (the plans tightened): every plan passes
    ``check_plan``, complete or not."""
    m = load_movingai(DATA / "maze-24-24-1.map", diagonal=False)
    ys, xs = np.nonzero(np.isfinite(m.costs()))
    rng = np.random.default_rng(seed)
    a, b = rng.choice(len(xs), n, replace=False), rng.choice(len(xs), n, replace=False)
    s = [(int(xs[i]), int(ys[i])) for i in a]
    g = [(int(xs[i]), int(ys[i])) for i in b]
    plan = plan_crowd(m, s, g, time_limit=1.0, seed=0)
    check_plan(m, s, g, plan, complete=plan.complete)
    if plan.complete:
        assert plan.makespan >= plan.lower_bound_makespan


def test_the_planner_tightens_within_its_stop_and_never_lengthens_a_plan() -> None:
    """A 24 x 24 perfect maze with 24 random pairs (seed 7): the search's plan, tightened with no time left
    (a stop already past), is the plan as it was, not marked tight; with time, its loops left out and its moves
    re-timed, it is valid and shorter (makespan and sum of costs 371 and 6716 down to 289 and 5136)."""
    m = load_movingai(DATA / "maze-24-24-1.map", diagonal=False)
    ys, xs = np.nonzero(np.isfinite(m.costs()))
    rng = np.random.default_rng(7)
    a, b = rng.choice(len(xs), 24, replace=False), rng.choice(len(xs), 24, replace=False)
    s = [(int(xs[i]), int(ys[i])) for i in a]
    g = [(int(xs[i]), int(ys[i])) for i in b]
    search, raw, graph = first_search(m, s, g, 0)
    clock = crowd_mod._Clock(0.0, np.inf)
    assert raw.complete and not raw.tight
    late = search.tighten(raw, clock, -np.inf)  # (a stop already past)
    assert late is raw and not late.tight  # (not marked tight: a later call with time left tightens it)
    tight = search.tighten(raw, clock, np.inf)
    check_plan(m, s, g, graph.xy(tight.nodes))
    assert (raw.key, tight.key) == ((371, 6716), (289, 5136))
    assert (_arrivals(tight.nodes) <= _arrivals(raw.nodes)).all()
    assert search.tighten(tight, clock, np.inf) is tight
