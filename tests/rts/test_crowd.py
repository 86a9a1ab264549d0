"""The crowd planner (LaCAM over PIBT) and its checker: valid plans, complete where a plan exists, bad input."""

from __future__ import annotations

import importlib.util
import itertools
from collections import deque
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crowd_search import first_search, plan_by_readings
from crowd_search import random_pairs as _random_pairs
from crowd_search import walls_board as _walls_board

from wargrid import Map, SquareGrid, WargridError
from wargrid.errors import ArgumentError, CellError
from wargrid.io import MOVINGAI_TERRAINS, load_movingai, load_movingai_agents
from wargrid.rts import CrowdPlan, check_plan, plan_crowd

DATA = Path(__file__).resolve().parents[1] / "data" / "mapf"
MAP = DATA / "random-32-32-10.map"
SCEN = DATA / "random-32-32-10-random-1.scen"
MAZE = DATA / "maze-24-24-1.map"


def _board(walls: list[str]) -> Map:
    """A square-4 board from rows of '.' (open) and '@' (wall)."""
    h, w = len(walls), len(walls[0])
    terrain = np.array([[3 if ch == "@" else 0 for ch in row] for row in walls], dtype=np.int16)
    return Map(SquareGrid(w, h), terrain=terrain, terrains=MOVINGAI_TERRAINS)


def _joint_bfs(walls: list[str], starts: list[tuple[int, int]], goals: list[tuple[int, int]]) -> int | None:
    """The optimal makespan by breadth-first search over joint configurations (None: no plan), slow and plain."""
    h, w = len(walls), len(walls[0])

    def moves(c: tuple[int, int]) -> list[tuple[int, int]]:
        x, y = c
        out = [c]
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nx, ny = x + dx, y + dy
            if 0 <= nx < w and 0 <= ny < h and walls[ny][nx] == ".":
                out.append((nx, ny))
        return out

    start, goal = tuple(starts), tuple(goals)
    seen = {start: 0}
    queue = deque([start])
    while queue:
        cfg = queue.popleft()
        if cfg == goal:
            return seen[cfg]
        for nxt in itertools.product(*(moves(c) for c in cfg)):
            if len(set(nxt)) < len(nxt):
                continue
            if any(nxt[i] == cfg[j] and nxt[j] == cfg[i] for i in range(len(cfg)) for j in range(i + 1, len(cfg))):
                continue
            if nxt not in seen:
                seen[nxt] = seen[cfg] + 1
                queue.append(nxt)
    return None


# -- literal values -------------------------------------------------------------------------


@pytest.mark.slow
def test_corridor_swap_uses_the_side_pocket() -> None:
    m = _board(["@.@", "...", "@.@", "@.@"])
    s, g = [(1, 0), (1, 3)], [(1, 3), (1, 0)]
    plan = plan_crowd(m, s, g)
    check_plan(m, s, g, plan)
    assert plan.complete and plan.lower_bound_makespan == 3
    assert plan.makespan == _joint_bfs(["@.@", "...", "@.@", "@.@"], s, g) == 5


def test_benchmark_instance_lower_bounds_match_the_published_ones() -> None:
    """The README's lower bounds of the MAPF instance (copied in tests/data/mapf) come out exactly."""
    m = load_movingai(MAP, diagonal=False)
    for n, lb_ms, lb_soc in ((100, 53, 2324), (200, 53, 4388)):
        s, g = load_movingai_agents(SCEN, agents=n)
        plan = plan_crowd(m, s, g, seed=0)
        assert (plan.lower_bound_makespan, plan.lower_bound_sum_of_costs) == (lb_ms, lb_soc)
        assert plan.complete
        check_plan(m, s, g, plan)
        assert plan.makespan >= lb_ms and plan.sum_of_costs >= lb_soc
        assert (plan.first_makespan, plan.first_sum_of_costs) == (plan.makespan, plan.sum_of_costs)


def test_benchmark_instance_first_plan_is_fixed_by_the_seed() -> None:
    m = load_movingai(MAP, diagonal=False)
    s, g = load_movingai_agents(SCEN, agents=50)
    a = plan_crowd(m, s, g, seed=3)
    b = plan_crowd(m, s, g, seed=3)
    assert np.array_equal(a.positions, b.positions)
    assert a.positions.shape == (a.makespan + 1, 50, 2)
    assert a.path(0)[0] == s[0] and a.path(0)[-1] == g[0]


def test_improving_never_makes_the_plan_worse() -> None:
    m = load_movingai(MAP, diagonal=False)
    s, g = load_movingai_agents(SCEN, agents=100)
    for objective in ("makespan", "sum_of_costs"):
        plan = plan_crowd(m, s, g, improve=0.3, objective=objective, seed=1)
        check_plan(m, s, g, plan)
        assert plan.positions.shape == (plan.makespan + 1, 100, 2)
        first = (plan.first_makespan, plan.first_sum_of_costs)
        got = (plan.makespan, plan.sum_of_costs)
        if objective == "makespan":
            assert got <= first
        else:
            assert got[::-1] <= first[::-1]


# -- properties against the joint-search oracle ------------------------------------------------


@st.composite
def _instances(draw: st.DrawFn) -> tuple[list[str], list[tuple[int, int]], list[tuple[int, int]]]:
    w = draw(st.integers(2, 4))
    h = draw(st.integers(2, 4))
    cells = [(x, y) for y in range(h) for x in range(w)]
    walls = draw(st.sets(st.sampled_from(cells), max_size=len(cells) // 3))
    open_cells = [c for c in cells if c not in walls]
    k = draw(st.integers(1, min(3, len(open_cells))))
    starts = draw(st.permutations(open_cells))[:k]
    goals = draw(st.permutations(open_cells))[:k]
    rows = ["".join("@" if (x, y) in walls else "." for x in range(w)) for y in range(h)]
    return rows, list(starts), list(goals)


def _same_zones(m: Map, s: list[tuple[int, int]], g: list[tuple[int, int]]) -> bool:
    return all(m.connected(a, b) for a, b in zip(s, g))


@settings(max_examples=80, deadline=None)
@given(_instances())
def test_plans_are_valid_and_complete_where_a_plan_exists(inst: tuple[list[str], list[tuple[int, int]], list[tuple[int, int]]]) -> None:
    rows, s, g = inst
    m = _board(rows)
    if not _same_zones(m, s, g):
        with pytest.raises(ArgumentError, match="cannot be reached"):
            plan_crowd(m, s, g)
        return
    best = _joint_bfs(rows, s, g)
    plan = plan_by_readings(m, s, g, time_limit=20.0)
    check_plan(m, s, g, plan, complete=plan.complete)
    assert plan.complete == (best is not None)
    if best is not None:
        assert plan.makespan >= best >= plan.lower_bound_makespan
        assert plan.sum_of_costs >= plan.lower_bound_sum_of_costs
        first, short, graph = _first_and_shortened(m, s, g, 0)  # the last agents planned again: valid, no worse
        check_plan(m, s, g, graph.xy(short.nodes))
        assert first.makespan >= short.makespan >= best and first.soc >= short.soc


# -- boards unlike the benchmark's ------------------------------------------------------------------


def _corridors(seed: int) -> np.ndarray:
    """65 x 65: one-cell corridors every fourth row and column, 5 % of the cells walled at random."""
    wall = np.ones((65, 65), dtype=bool)
    wall[::4, :] = False
    wall[:, ::4] = False
    wall[np.random.default_rng(seed).random(wall.shape) < 0.05] = True
    return wall


def _rooms(seed: int) -> np.ndarray:
    """49 x 49: 8 x 8 rooms of 5 x 5 cells, each with a one-cell door to its right and lower neighbours."""
    wall = np.zeros((49, 49), dtype=bool)
    wall[::6, :] = True
    wall[:, ::6] = True
    rng = np.random.default_rng(seed)
    for i in range(8):
        for j in range(8):
            if j < 7:
                wall[i * 6 + rng.integers(1, 6), j * 6 + 6] = False
            if i < 7:
                wall[i * 6 + 6, j * 6 + rng.integers(1, 6)] = False
    return wall


def _cave(seed: int) -> np.ndarray:
    """64 x 64: 45 % walls at random, five rounds of the 4-5 rule."""
    wall = np.random.default_rng(seed).random((64, 64)) < 0.45
    for _ in range(5):
        p = np.pad(wall, 1, constant_values=True)
        wall = sum(p[1 + dy: 65 + dy, 1 + dx: 65 + dx] for dy in (-1, 0, 1) for dx in (-1, 0, 1)) >= 5
    return wall


@pytest.mark.parametrize(("board", "seed", "agents"), [
    ("corridors", 0, 200), ("corridors", 1, 400), ("rooms", 1, 600), ("cave", 3, 800),
    ("dense", 0, 0), ("dense", 1, 0), ("dense", 2, 0), ("dense", 3, 0),
])
def test_held_out_boards_are_solved(board: str, seed: int, agents: int) -> None:
    """Narrow corridors (where agents must pass each other: PIBT's swaps), rooms joined by one-cell doors, a cave,
    and 20 x 20 boards with half their open cells holding agents: every instance planned, every plan valid."""
    if board == "dense":
        wall = np.random.default_rng(seed).random((20, 20)) < 0.2
    else:
        wall = {"corridors": _corridors, "rooms": _rooms, "cave": _cave}[board](seed)
    m = _walls_board(wall)
    n = agents or int(np.isfinite(m.costs()).sum()) // 2
    s, g = _random_pairs(m, n, seed)
    plan = plan_by_readings(m, s, g, time_limit=60.0)
    assert plan.complete
    check_plan(m, s, g, plan)
    assert plan.makespan >= plan.lower_bound_makespan


def test_a_perfect_maze_is_planned_without_the_band_going_back_and_forth() -> None:
    """A perfect maze (one-wide corridors, one way between two cells) with 24 random pairs: an agent that left the
    makespan's band four times stays in it, so two agents at its edge no longer take the lead from each other for
    good, pushing a packed corridor back and forth. The first search finds a plan in 658 configurations (the
    band's exits unbounded: in 3739, 9.7 s, makespan 795 against 637)."""
    m = load_movingai(MAZE, diagonal=False)
    s, g = _random_pairs(m, 24, 11)
    plan = plan_by_readings(m, s, g, time_limit=30, seed=0)
    assert plan.complete and plan.expanded < 1000
    check_plan(m, s, g, plan)


def test_stay_in_band_keeps_an_agent_that_left_it_often_in_the_band() -> None:
    """``stay_in_band``: an agent off its goal that leaves the band counts an exit; at the limit it stays in it (a
    half more) till it reaches its goal; one on its goal or that never was in the band is left as it is."""
    k = _kernels_of("rts.crowd")
    prio = np.array([5.5, 5.5, 5.5, 0.2, 5.2])  # in the band (a half), in, in, on its goal, out
    out = np.array([6.2, 6.2, 6.7, 0.2, 6.2])  # leaves, leaves, stays in, on its goal, still out
    dq = np.array([7, 7, 9, 0, 3])
    exits = np.array([0, 3, 3, 3, 3], dtype=np.int8)
    new = np.empty(5, dtype=np.int8)
    k.stay_in_band(prio, dq, out, exits, new, 4)
    assert new.tolist() == [1, 4, 3, 3, 3]
    assert out.tolist() == [6.2, 6.7, 6.7, 0.2, 6.2]


@pytest.mark.parametrize("seed", range(6))
def test_a_pushed_agent_steps_off_the_pushers_way(seed: int) -> None:
    """An agent on its goal at a junction, pushed by one passing along the corridor: of its two free cells, as far
    from its goal, it takes the one off the other's way (the side cell) and comes back as it passes, at every
    seed; pushed on ahead (a tie at random) it would have to come back past the other."""
    m = _board([".......", "@@@.@@@"])
    s, g = [(2, 0), (3, 0)], [(6, 0), (3, 0)]
    plan = plan_crowd(m, s, g, seed=seed)
    check_plan(m, s, g, plan)
    assert plan.path(1)[1] == (3, 1)
    assert plan.makespan == plan.lower_bound_makespan == 4


def test_a_one_cell_dead_end_pair_trades_places() -> None:
    """Two agents, one in a dead end and one at its mouth, each on the other's goal: one must step aside and come
    back; the plan is valid and no shorter than the joint search's optimum."""
    rows = ["@@@.@", "....."]
    m = _board(rows)
    s, g = [(3, 0), (3, 1)], [(3, 1), (3, 0)]
    plan = plan_crowd(m, s, g)
    assert plan.complete
    check_plan(m, s, g, plan)
    assert plan.makespan >= _joint_bfs(rows, s, g) == 3


# -- the checker finds faults -----------------------------------------------------------------


def test_checker_names_each_fault() -> None:
    m = _board(["....", "....", "..@."])
    s, g = [(0, 0), (1, 0)], [(1, 0), (2, 0)]
    good = [[[0, 0], [1, 0]], [[0, 0], [2, 0]], [[1, 0], [2, 0]]]
    check_plan(m, s, g, good)
    cases = {
        "trade cells": [[[0, 0], [1, 0]], [[1, 0], [0, 0]], [[1, 0], [2, 0]]],
        "both on": [[[0, 0], [1, 0]], [[1, 0], [1, 0]], [[1, 0], [2, 0]]],
        "not one step": [[[0, 0], [1, 0]], [[0, 0], [3, 0]], [[1, 0], [2, 0]]],
        "impassable": [[[0, 0], [1, 0]], [[0, 0], [2, 2]], [[1, 0], [2, 0]]],
        "off the board": [[[0, 0], [1, 0]], [[0, 0], [4, 0]], [[1, 0], [2, 0]]],
        "not on its start": [[[0, 1], [1, 0]], [[0, 0], [2, 0]], [[1, 0], [2, 0]]],
        "not on its goal": [[[0, 0], [1, 0]], [[0, 0], [2, 0]], [[0, 0], [2, 0]]],
    }
    for what, plan in cases.items():
        with pytest.raises(ArgumentError, match=what):
            check_plan(m, s, g, plan)
    with pytest.raises(ArgumentError, match="shape"):
        check_plan(m, s, g, [[0, 0], [1, 0]])
    with pytest.raises(ArgumentError, match="different lengths"):
        check_plan(m, s, g, [[[0, 0], [1, 0]], [[0, 0]]])
    with pytest.raises(WargridError, match="integer"):
        check_plan(m, s, g, [[[0.0, 0.0], [1.0, 0.0]]])
    check_plan(m, s, g, [[[0, 0], [1, 0]]], complete=False)
    with pytest.raises(ArgumentError, match=r"off the board at timestep 0: \(18446744073709551615, 0\)"):
        check_plan(m, s, g, np.array([[[2**64 - 1, 0], [1, 0]]], dtype=np.uint64), complete=False)
    with pytest.raises(ArgumentError, match="at least one agent"):
        check_plan(m, [], [], np.zeros((1, 0, 2), dtype=np.int64))
    with pytest.raises(TypeError, match="complete must be True or False"):
        check_plan(m, s, g, good, complete="no")


def test_a_rotation_is_legal_and_a_swap_is_not() -> None:
    m = _board(["..", ".."])
    s = [(0, 0), (1, 0), (1, 1), (0, 1)]
    g = [(1, 0), (1, 1), (0, 1), (0, 0)]
    check_plan(m, s, g, [s, g])  # four agents turning round a square at once
    plan = plan_crowd(m, s, g)
    check_plan(m, s, g, plan)
    assert plan.makespan == 1


# -- bad input -----------------------------------------------------------------------------------


def test_bad_agents_are_named() -> None:
    m = _board(["...@", "...@", "@@@."])
    with pytest.raises(CellError, match=r"starts\[1\]"):
        plan_crowd(m, [(0, 0), (9, 0)], [(1, 0), (2, 0)])
    with pytest.raises(ArgumentError, match="agent 1's goal .* impassable"):
        plan_crowd(m, [(0, 0), (1, 0)], [(2, 0), (3, 0)])
    with pytest.raises(ArgumentError, match=r"agent 1's start \(3, 0\) is impassable for movement class 'walk'"):
        plan_crowd(m, [(0, 0), (3, 0)], [(1, 0), (2, 0)])
    with pytest.raises(CellError, match=r"goals\[1\] \(-1, 0\) is off the board"):
        plan_crowd(m, [(0, 0), (1, 0)], [(1, 1), (-1, 0)])
    with pytest.raises(WargridError, match=r"goals\[1\]\[0\] \(x\) must be an integer"):
        plan_crowd(m, [(0, 0), (1, 0)], [(1, 1), (1.5, 0)])
    with pytest.raises(WargridError, match=r"starts must be a sequence"):
        plan_crowd(m, 5, [(1, 1)])
    with pytest.raises(ArgumentError, match="agents 0 and 1 have the same start"):
        plan_crowd(m, [(0, 0), (0, 0)], [(1, 0), (2, 0)])
    with pytest.raises(ArgumentError, match="agents 0 and 2 have the same goal"):
        plan_crowd(m, [(0, 0), (1, 0), (2, 0)], [(1, 1), (2, 1), (1, 1)])
    with pytest.raises(ArgumentError, match="agent 1's goal \\(3, 2\\) cannot be reached"):
        plan_crowd(m, [(0, 0), (1, 0)], [(1, 1), (3, 2)])
    with pytest.raises(ArgumentError, match="as many"):
        plan_crowd(m, [(0, 0)], [(1, 1), (2, 1)])
    with pytest.raises(ArgumentError, match="at least one"):
        plan_crowd(m, [], [])
    with pytest.raises(WargridError, match="time_limit"):
        plan_crowd(m, [(0, 0)], [(1, 1)], time_limit=-1)
    with pytest.raises(WargridError, match="objective"):
        plan_crowd(m, [(0, 0)], [(1, 1)], objective="speed")
    with pytest.raises(WargridError, match="unit"):
        plan_crowd(m, [(0, 0)], [(1, 1)], unit="hover")


def test_agents_in_different_zones_are_planned_together() -> None:
    """Each agent's start and goal share a zone; the zones differ between agents: one plan for all."""
    m = _board(["...@", "...@", "@@@."])
    s, g = [(0, 0), (3, 2), (2, 1)], [(2, 1), (3, 2), (0, 0)]
    plan = plan_crowd(m, s, g)
    assert plan.complete
    check_plan(m, s, g, plan)


def test_a_time_limit_that_runs_out_returns_an_incomplete_plan() -> None:
    m = load_movingai(MAP, diagonal=False)
    s, g = load_movingai_agents(SCEN, agents=100)
    plan = plan_crowd(m, s, g, time_limit=0.0)
    assert isinstance(plan, CrowdPlan) and not plan.complete
    check_plan(m, s, g, plan, complete=False)
    assert np.isnan(plan.first_seconds) and plan.first_makespan == -1


def test_a_time_limit_that_runs_out_before_the_distances_returns_the_starts() -> None:
    """With no time, the plan is the starts alone, marked incomplete; its lower bounds are those of the agents
    searched (none: the planner returns before any search)."""
    m = load_movingai(MAP, diagonal=False)
    s, g = load_movingai_agents(SCEN, agents=400)
    plan = plan_crowd(m, s, g, time_limit=0.0)
    assert not plan.complete and plan.expanded == 0 and plan.positions.shape == (1, 400, 2)
    check_plan(m, s, g, plan, complete=False)
    assert (plan.makespan, plan.sum_of_costs) == (1, 400)
    assert (plan.lower_bound_makespan, plan.lower_bound_sum_of_costs) == (0, 0)


def _searches(monkeypatch) -> list[int]:
    """Counts the planner's searches (``_Search.run``: the first, then one a restart while improving)."""
    import wargrid.rts.crowd as crowd

    calls: list[int] = []
    run = crowd._Search.run

    def counted(self, *args, **kwargs):
        calls.append(1)
        return run(self, *args, **kwargs)

    monkeypatch.setattr(crowd._Search, "run", counted)
    return calls


@pytest.mark.parametrize(
    "rows, starts, goals",
    [
        # three agents at each end of a 1 x 30 corridor (the complete search was not done in ten minutes)
        (["." * 30], [(0, 0), (1, 0), (2, 0), (27, 0), (28, 0), (29, 0)],
         [(27, 0), (28, 0), (29, 0), (0, 0), (1, 0), (2, 0)]),
        # a bent corridor, two agents swapped
        (["...@", "@@.@", "@@.."], [(0, 0), (3, 2)], [(3, 2), (0, 0)]),
        # a ring of eight cells round a wall, two agents whose order round it would change
        (["...", ".@.", "..."], [(0, 0), (1, 0), (2, 0)], [(1, 0), (0, 0), (2, 0)]),
        # the ring full, turned by one but for two goals traded
        (["...", ".@.", "..."], [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1)],
         [(1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 0), (0, 1)]),
    ],
)
def test_agents_that_would_have_to_pass_in_a_corridor_or_ring_get_an_incomplete_plan_at_once(
        monkeypatch, rows, starts, goals) -> None:
    """No plan exists where agents must pass each other in a zone that is one corridor or one ring: the plan is
    the starts alone, marked incomplete, with no search (``time_limit=None``: the search would go through every
    configuration of the zone first), its lower bounds the agents' own distances."""
    calls = _searches(monkeypatch)
    m = _board(rows)
    plan = plan_crowd(m, starts, goals)
    assert not plan.complete and calls == [] and plan.positions.tolist() == [[list(c) for c in starts]]
    check_plan(m, starts, goals, plan, complete=False)
    d = [int(m.distance_field([b])[a[1], a[0]]) for a, b in zip(starts, goals)]
    assert (plan.lower_bound_makespan, plan.lower_bound_sum_of_costs) == (max(d), sum(d))


@pytest.mark.parametrize(
    "rows, starts, goals",
    [
        (["." * 30], [(0, 0), (5, 0), (27, 0)], [(20, 0), (28, 0), (29, 0)]),  # the order kept along a corridor
        (["...", ".@.", "..."], [(0, 0), (1, 0), (2, 0)], [(2, 2), (1, 2), (0, 2)]),  # the order kept round a ring
        (["...", ".@.", "..."], [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1)],
         [(2, 1), (2, 2), (1, 2), (0, 2), (0, 1), (0, 0), (1, 0), (2, 0)]),  # a full ring turned by three
    ],
)
def test_agents_that_keep_their_order_in_a_corridor_or_ring_are_planned(rows, starts, goals) -> None:
    m = _board(rows)
    plan = plan_by_readings(m, starts, goals, time_limit=30, seed=0)
    assert plan.complete
    check_plan(m, starts, goals, plan)


def test_the_search_stops_incomplete_when_the_memory_runs_short(monkeypatch) -> None:
    """With less memory left than ``_MEMORY_RESERVE`` once its own configurations take about as much, the search
    stops as at a time limit: the plan incomplete and valid as far as it goes (an instance with no plan and no time
    limit filled the memory). A small search never stops so (a container's reading can be low while the process
    holds little)."""
    import wargrid.rts.crowd as crowd

    m = _board(["....", ".@..", "...."])
    s, g = [(0, 0), (3, 2), (2, 1)], [(3, 2), (0, 0), (0, 2)]
    monkeypatch.setattr(crowd, "available_memory", lambda: 0)
    assert plan_crowd(m, s, g, time_limit=None, seed=0).complete  # (its configurations: far below the reserve)
    monkeypatch.setattr(crowd, "_MEMORY_SECONDS", 0.0)
    monkeypatch.setattr(crowd, "_MEMORY_RESERVE", 1)
    plan = plan_crowd(m, s, g, time_limit=None, seed=0)
    assert not plan.complete
    check_plan(m, s, g, plan, complete=False)
    monkeypatch.setattr(crowd, "available_memory", lambda: None)  # (a system that cannot tell: no stop)
    assert plan_crowd(m, s, g, time_limit=None, seed=0).complete


def test_distance_tables_the_system_refuses_raise_a_clear_memory_error(monkeypatch) -> None:
    """Tables too large to map (40 000 agents on a 160 000-cell board asked for 12 GiB) raise ``MemoryError``
    saying how many goals, cells and bytes, not the mapping's bare ``OSError``."""
    import errno

    import wargrid.rts.crowd as crowd

    def refuse(*args: Any, **kw: Any) -> Any:
        raise OSError(errno.ENOMEM, "Cannot allocate memory")

    monkeypatch.setattr(crowd.mmap, "mmap", refuse)
    m = Map(SquareGrid(200, 200))
    starts = [(x, 0) for x in range(60)]
    goals = [(x, 199) for x in range(60)]
    with pytest.raises(MemoryError, match=r"60 goals x 40000 cells need 5 MiB.*refused \(Cannot allocate memory\)"):
        plan_crowd(m, starts, goals, seed=0)


def test_the_warm_up_improves_a_plan_also_where_the_first_zone_is_a_corridor(monkeypatch) -> None:
    """``warm_up_planner`` plans one agent (always possible), so that time to improve's kernels run on any map: two
    agents swapped in a corridor have no plan, and no search would run."""
    import wargrid.rts.crowd as crowd

    seen: list[bool] = []
    better = crowd._Search.better

    def recorded(self, best, got, clock, stop_at):
        seen.append(got.complete)
        return better(self, best, got, clock, stop_at)

    monkeypatch.setattr(crowd._Search, "better", recorded)
    crowd.warm_up_planner(_board(["." * 9]))
    crowd.warm_up_planner(_board(["..@...", "@@@...", "......"]))  # (a two-cell pocket first in the cells' order)
    assert seen == [True] * 4  # (each: the plan_crowd call, then the warm-up's own time to improve)


def test_agents_all_home_already_make_a_complete_plan_even_with_no_time(monkeypatch) -> None:
    """Every agent on its goal: a complete plan of one row at both lower bounds (0 and 0), with no search, also
    when the time limit is 0 (it was marked incomplete: no time to search the distances)."""
    calls = _searches(monkeypatch)
    m = _board(["....", ".@..", "...."])
    s = [(0, 0), (3, 2), (2, 1)]
    for limit in (0.0, None):
        plan = plan_crowd(m, s, s, time_limit=limit, improve=5.0)
        assert plan.complete and plan.positions.tolist() == [[[0, 0], [3, 2], [2, 1]]]
        assert (plan.makespan, plan.sum_of_costs, plan.first_makespan, plan.first_sum_of_costs) == (0, 0, 0, 0)
        assert (plan.lower_bound_makespan, plan.lower_bound_sum_of_costs) == (0, 0)
        check_plan(m, s, s, plan)
    assert calls == []


def test_time_to_improve_ends_once_the_plan_meets_both_lower_bounds(monkeypatch) -> None:
    """A plan at both lower bounds (each agent's own shortest way) cannot be bettered: the planner returns it
    after its first search, without restarts in the 10 s of ``improve``."""
    calls = _searches(monkeypatch)
    m = _board(["......", "......"])
    s, g = [(0, 0), (0, 1)], [(5, 0), (5, 1)]
    plan = plan_crowd(m, s, g, improve=10.0, seed=0)
    assert plan.complete and (plan.makespan, plan.sum_of_costs) == (5, 10) == (
        plan.lower_bound_makespan, plan.lower_bound_sum_of_costs)
    assert calls == [1]


def test_start_distances_stop_between_pieces_and_report_the_first_agents_done() -> None:
    """A clock that stops after some pieces: the agents done are the first ones (every piece taken is finished),
    their distances exact, the others' untouched."""
    import wargrid.rts.crowd as crowd

    m = load_movingai(MAP, diagonal=False)
    s, g = load_movingai_agents(SCEN, agents=200)
    graph, sn, gn = crowd._check_agents(m, s, g, None)
    whole = np.zeros(200, dtype=np.int64)
    crowd._start_distances(crowd._Tables(graph, gn, sn), sn, whole, crowd._Clock(0.0, np.inf))

    class Stops(crowd._Clock):
        """A clock whose stop passes after ``left`` looks."""

        def __init__(self, left: int) -> None:
            super().__init__(0.0, np.inf)
            self.left = left

        def stop(self, cells: int) -> float:
            self.left -= 1
            return np.inf if self.left >= 0 else -np.inf

    cores = crowd._cores
    for threads in (1, 2):
        crowd._cores = lambda t=threads: t  # type: ignore[misc]
        try:
            d0 = np.zeros(200, dtype=np.int64)
            done = crowd._start_distances(crowd._Tables(graph, gn, sn), sn, d0, Stops(3))
        finally:
            crowd._cores = cores
        # this thread takes two pieces (the first of _PIECE agents); a second thread takes pieces until this one
        # stops, and finishes its last
        assert crowd._PIECE < done < 200 or (threads == 2 and done == 200)
        assert d0[:done].tolist() == whole[:done].tolist() and (d0[done:] == 0).all()


def _chain_boards() -> list[Any]:
    """Crowd graphs with corridors: the corridor grid, rooms with doors, a ring, a ring with a spur, a hex cave."""
    from wargrid.rts.crowd import _Graph

    ring = Map(SquareGrid(7, 1, wrap_x=True))
    spur = _board(["@@@@@@@", "@.....@", "@.@@@.@", "@.....@", "@@@.@@@", "@@@.@@@"])
    return [_Graph(_walls_board(_corridors(1)), None), _Graph(_walls_board(_rooms(2)), None), _Graph(ring, None),
            _Graph(spur, None), _walled_graph("hex", 12, 9, 0.4, np.random.default_rng(3))]


def test_chains_are_the_corridors_walked_node_by_node() -> None:
    """``chains``: entering a node of two distinct neighbours from one of them, the last such node ahead, the one
    before it and the steps to it, as a walk finds them (0 on a ring and where the next node is no such node)."""
    k = _kernels_of("rts.crowd")
    for graph in _chain_boards():
        nbr = graph.nbr
        nv, ndir = nbr.shape
        out = np.empty((nv, ndir, 3), dtype=np.int32)
        k.chains(nbr, out)

        def two(v: int) -> bool:
            u = [int(x) for x in nbr[v] if x >= 0]
            return len(u) == 2 and u[0] != u[1]

        def other(v: int, p: int) -> int:
            return next(int(x) for x in nbr[v] if x >= 0 and x != p)

        for v in range(nv):
            for e in range(ndir):
                b = int(nbr[v, e])
                if b < 0 or not two(v):
                    assert out[v, e, 2] == 0
                    continue
                p, x, steps = b, v, 0
                while two(other(x, p)) and other(x, p) != v:
                    p, x, steps = x, other(x, p), steps + 1
                if two(other(x, p)):  # back at v: a ring
                    steps = 0
                assert out[v, e, 2] == steps, (v, e)
                if steps:
                    assert (out[v, e, 0], out[v, e, 1]) == (x, p)


@settings(max_examples=25, deadline=None)
@given(board=st.integers(0, 4), seed=st.integers(0, 2**31 - 1), share=st.sampled_from([0.1, 0.3, 0.6]))
def test_swap_checks_jumping_along_corridors_choose_as_walking_does(board: int, seed: int, share: float) -> None:
    """PIBT with swaps gives the same next configuration whether the swap checks jump to a corridor's end
    (``chains``) or walk it node by node (no corridors given), from random configurations of agents."""
    from wargrid.rts.crowd import _Tables

    k = _kernels_of("rts.crowd")
    graph = _chain_boards()[board]
    nbr = graph.nbr
    nv, ndir = nbr.shape
    rng = np.random.default_rng(seed)
    n = max(1, int(share * nv))
    q = rng.choice(nv, n, replace=False).astype(np.int64)
    goals = rng.choice(nv, n, replace=False).astype(np.int64)
    zone, _ = _kernels_of("territory.graph").label_chunks(nbr, np.zeros(nv, dtype=np.int64))
    goals = np.where(zone[goals] == zone[q], goals, q)  # an agent whose goal lies in another zone stays put
    if len(np.unique(goals)) < n:
        return
    tables = _Tables(graph, goals, q)
    order = rng.permutation(n).astype(np.int64)
    chain = np.empty((nv, ndir, 3), dtype=np.int32)
    k.chains(nbr, chain)
    got = []
    for ch in (chain, np.zeros_like(chain)):
        q_to = np.empty(n, dtype=np.int64)
        occ = [np.full(nv, -1, dtype=np.int64) for _ in range(2)]
        stack = (np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64),
                 np.empty((n, ndir + 1), dtype=np.int64))
        krng = np.array([np.uint64(seed + 1)], dtype=np.uint64)
        ok = k.configure(nbr, tables.lz, np.arange(n, dtype=np.int64), q, q_to, order, np.empty(0, dtype=np.int64),
                         np.empty(0, dtype=np.int64), 0, occ[0], occ[1], krng, *stack, k.SWAP, ch)
        got.append((bool(ok), q_to.tolist()))
    assert got[0] == got[1]


@pytest.mark.parametrize("board, agents", [(0, 300), (1, 150)])
def test_plans_are_the_same_with_the_swap_checks_walking_corridors(board: int, agents: int,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The first plan on boards of corridors is the same when the swap checks walk every corridor node by node
    (``chains`` giving no corridor)."""
    k = _kernels_of("rts.crowd")
    m = [_walls_board(_corridors(1)), _walls_board(_rooms(2))][board]
    s, g = _random_pairs(m, agents, 5)
    jump = plan_crowd(m, s, g, seed=1)

    def walk(nbr: np.ndarray, out: np.ndarray) -> int:
        out[:] = 0
        return 0

    monkeypatch.setattr(k, "chains", walk)
    same = plan_crowd(m, s, g, seed=1)
    assert jump.complete and np.array_equal(jump.positions, same.positions)


def _kernels_of(name: str) -> Any:
    from wargrid._kernels import load

    return load(name)


def test_reorder_sorts_as_argsort_from_the_parent_order() -> None:
    """The agents' order after a timestep (``reorder``, from the parent configuration's order and priorities) is
    ``argsort(-priorities, kind='stable')``: agents on their goals, off them, in the makespan's band or not, and
    changing between these, at random."""
    from wargrid._kernels import load

    k = load("rts.crowd")
    rng = np.random.default_rng(5)
    for _ in range(300):
        n = int(rng.integers(1, 120))
        d0 = rng.integers(0, 40, n)
        dq = rng.integers(0, 40, n) * (rng.random(n) < 0.7)
        old = np.empty(n)
        k.priority(rng.choice([-1.0, 2.0, 5.0]) + rng.integers(0, 2, n), d0, dq, int(rng.integers(0, 40)), old)
        prev = np.argsort(-old, kind="stable").astype(np.int64)
        dq = np.where(rng.random(n) < 0.9, dq, rng.integers(0, 40, n))
        new = np.empty(n)
        k.priority(old, d0, dq, int(rng.integers(0, 40)), new)
        out = np.empty(n, dtype=np.int64)
        k.reorder(prev, old, new, out, np.empty(n, dtype=np.int64))
        assert out.tolist() == np.argsort(-new, kind="stable").tolist()


def test_no_plan_exists_is_incomplete_not_a_hang() -> None:
    m = _board(["..."])
    plan = plan_crowd(m, [(0, 0), (1, 0)], [(1, 0), (0, 0)])
    assert not plan.complete
    check_plan(m, [(0, 0), (1, 0)], [(1, 0), (0, 0)], plan, complete=False)


def test_scenario_agents_are_the_first_lines() -> None:
    s, g = load_movingai_agents(SCEN, agents=3)
    assert s == [(11, 6), (29, 9), (9, 0)] and g == [(7, 18), (1, 16), (13, 21)]
    with pytest.raises(ArgumentError, match="at most the 461 problems"):
        load_movingai_agents(SCEN, agents=462)
    with pytest.raises(WargridError, match="agents"):
        load_movingai_agents(SCEN, agents=0)
    assert load_movingai(MAP, diagonal=False).grid.ndir == 4 and load_movingai(MAP).grid.ndir == 8


# -- lazy distance tables ---------------------------------------------------------------------


def _bfs_rows(graph, goals: np.ndarray) -> np.ndarray:
    """Plain breadth-first search from every goal over the crowd graph (-1: unreachable)."""
    out = np.full((len(goals), len(graph.cells)), -1, dtype=np.int64)
    for k, g in enumerate(goals.tolist()):
        out[k, g] = 0
        queue = deque([g])
        while queue:
            v = queue.popleft()
            for u in graph.nbr[v].tolist():
                if u >= 0 and out[k, u] < 0:
                    out[k, u] = out[k, v] + 1
                    queue.append(u)
    return out


def _walled_graph(kind: str, w: int, h: int, walls: float, rng: np.random.Generator) -> Any:
    """The crowd graph of a ``w`` x ``h`` board of topology ``kind`` with a share ``walls`` of its cells walls."""
    from wargrid import HexGrid
    from wargrid.rts.crowd import _Graph

    grid = {"square4": lambda: SquareGrid(w, h), "square8": lambda: SquareGrid(w, h, diagonal=True),
            "hex": lambda: HexGrid(w, h), "wrap": lambda: SquareGrid(w, h, wrap_x=True)}[kind]()
    wall = rng.random((h, w)) < walls
    return _Graph(Map(grid, terrain=np.where(wall, 3, 0).astype(np.int16), terrains=MOVINGAI_TERRAINS), None)


@settings(max_examples=30, deadline=None)
@given(
    kind=st.sampled_from(["square4", "square8", "hex", "wrap"]),
    seed=st.integers(0, 2**31 - 1),
    chunks=st.sampled_from([3, 4, 7, 4096]),
)
def test_lazy_tables_answer_exactly_in_any_order(kind: str, seed: int, chunks: int) -> None:
    """Resumable A* per goal gives breadth-first search's distances, whatever is asked first, on every topology;
    a pool too small for it falls back to whole rows."""
    from wargrid.rts.crowd import _Tables
    from wargrid._kernels.rts.lazydist import UNREACHABLE

    rng = np.random.default_rng(seed)
    graph = _walled_graph(kind, 9, 7, 0.3, rng)
    nv = len(graph.cells)
    if nv < 2:
        return
    goals = rng.choice(nv, size=min(4, nv), replace=False)
    targets = rng.integers(0, nv, size=len(goals))
    tables = _Tables(graph, goals, targets, chunks=chunks)
    want = _bfs_rows(graph, goals)
    ks = rng.integers(0, len(goals), size=60)
    vs = rng.integers(0, nv, size=60)
    got = tables.lookup(ks, vs)
    expect = np.where(want[ks, vs] < 0, UNREACHABLE, want[ks, vs])
    assert got.tolist() == expect.tolist()
    every = np.repeat(np.arange(len(goals)), nv)
    full = tables.lookup(every, np.tile(np.arange(nv), len(goals))).reshape(len(goals), nv)
    assert np.array_equal(np.where(full == UNREACHABLE, -1, full), want)


@settings(max_examples=30, deadline=None)
@given(
    kind=st.sampled_from(["square4", "square8", "hex", "wrap"]),
    seed=st.integers(0, 2**31 - 1),
    chunks=st.sampled_from([3, 5, 9, 4096]),
    slack=st.integers(0, 3),
    toward=st.booleans(),
)
def test_wide_lookups_settle_exactly_the_nodes_within_slack(kind: str, seed: int, chunks: int, slack: int,
                                                            toward: bool) -> None:
    """``lookup_wide`` answers breadth-first search's distances, whether the row heads for the node asked (flat
    stacks) or elsewhere (the chunked buckets); heading for it, it leaves settled exactly the nodes whose ``f``
    (distance plus the heuristic to that node) is at most the answer plus ``slack``; the rows then resume to the
    exact distances everywhere, a pool too small for the open nodes falling back to whole rows."""
    from wargrid.rts.crowd import _Tables
    from wargrid._kernels.rts import lazydist

    rng = np.random.default_rng(seed)
    graph = _walled_graph(kind, 11, 8, 0.25, rng)
    nv = len(graph.cells)
    if nv < 2:
        return
    n = min(5, nv)
    goals = rng.choice(nv, size=n, replace=False)
    asked = rng.choice(nv, size=n, replace=False)
    targets = asked if toward else rng.integers(0, nv, size=n)
    tables = _Tables(graph, goals, targets, chunks=chunks)
    lz = tables.lz
    out = np.zeros(n, dtype=np.int64)
    lazydist.lookup_wide(lz, graph.nbr, np.arange(n), asked, out, slack, lazydist.wide_stacks(graph.nbr))
    want = _bfs_rows(graph, goals)
    assert out.tolist() == np.where(want[np.arange(n), asked] < 0, lazydist.UNREACHABLE,
                                    want[np.arange(n), asked]).tolist()
    xy = graph.xy(np.arange(nv))
    for k in range(n):
        metric = int(lz.st[k, lazydist.S_METRIC])
        d = np.abs(xy - xy[targets[k]])
        hk = d.sum(axis=1) if metric == 1 else d.max(axis=1) if metric == 2 else np.zeros(nv, dtype=np.int64)
        row = lz.dist[k].astype(np.int64)
        if int(lz.st[k, lazydist.S_FLAG]) == 2:  # every node settled, or the whole row searched
            assert np.array_equal(np.where(row > 0, row - 1, -1), want[k])
        elif toward:
            near = (want[k] >= 0) & (want[k] + hk <= out[k] + slack)
            assert np.array_equal(row != 0, near)
            assert np.array_equal(row[near] - 1, want[k][near])
    full = tables.lookup(np.repeat(np.arange(n), nv), np.tile(np.arange(nv), n)).reshape(n, nv)
    assert np.array_equal(np.where(full == lazydist.UNREACHABLE, -1, full), want)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), chunks=st.sampled_from([3, 8, 20, 4096]), agents=st.integers(1, 40))
def test_start_distances_on_two_threads_are_exact_and_leave_one_pool(seed: int, chunks: int, agents: int) -> None:
    """The agents' first distances found on two threads (each with half the chunk pool) are breadth-first
    search's, each row searched on over the nodes within 2 of a shortest way; the joined pool holds every chunk
    once (free, or in a row's buckets), and the rows answer exactly after it."""
    import wargrid.rts.crowd as crowd
    from wargrid._kernels.rts import lazydist

    rng = np.random.default_rng(seed)
    w, h = 12, 10
    walls = rng.random((h, w)) < 0.25
    m = Map(SquareGrid(w, h), terrain=np.where(walls, 3, 0).astype(np.int16), terrains=MOVINGAI_TERRAINS)
    graph = crowd._Graph(m, None)
    nv = len(graph.cells)
    n = min(agents, nv)
    if n < 1:
        return
    goals = rng.choice(nv, size=n, replace=False)
    starts = rng.choice(nv, size=n, replace=False)
    tables = crowd._Tables(graph, goals, starts, chunks=chunks)
    d0 = np.zeros(n, dtype=np.int64)
    threaded, cores, size = crowd._THREADED, crowd._cores, crowd._PIECE
    crowd._THREADED, crowd._cores, crowd._PIECE = 1, lambda: 2, 3
    try:
        assert crowd._start_distances(tables, starts, d0, crowd._Clock(0.0, np.inf)) == n
    finally:
        crowd._THREADED, crowd._cores, crowd._PIECE = threaded, cores, size
    want = _bfs_rows(graph, goals)
    assert d0.tolist() == np.where(want[np.arange(n), starts] < 0, lazydist.UNREACHABLE,
                                   want[np.arange(n), starts]).tolist()
    lz = tables.lz
    xy = graph.xy(np.arange(nv))
    for k in range(n):  # searched on past the answer: every node of f up to d0 + 2 settled (Manhattan h)
        f = want[k] + np.abs(xy - xy[starts[k]]).sum(axis=1)
        near = (want[k] >= 0) & (f <= d0[k] + crowd._WIDEN)
        assert (lz.dist[k][near] != 0).all()
    seen = []
    c = int(lz.free[0])
    while c >= 0:
        seen.append(c)
        c = int(lz.cnext[c])
    assert len(seen) == lz.free[1]
    for k in range(n):
        for b in range(3):
            c = int(lz.st[k, lazydist.S_BT + b])
            while c >= 0:
                seen.append(c)
                c = int(lz.cnext[c])
    assert sorted(seen) == list(range(chunks))
    full = tables.lookup(np.repeat(np.arange(n), nv), np.tile(np.arange(nv), n)).reshape(n, nv)
    assert np.array_equal(np.where(full == lazydist.UNREACHABLE, -1, full), want)


def test_the_plan_does_not_depend_on_the_threads() -> None:
    """The agents' first distances on one thread or two: the same plan, bit for bit."""
    import wargrid.rts.crowd as crowd

    m = load_movingai(MAP, diagonal=False)
    s, g = load_movingai_agents(SCEN, agents=300)
    plans = []
    cores = crowd._cores
    for n in (1, 2):
        crowd._cores = lambda n=n: n  # type: ignore[misc]
        try:
            plans.append(plan_crowd(m, s, g, seed=3))
        finally:
            crowd._cores = cores
    assert plans[0].complete and np.array_equal(plans[0].positions, plans[1].positions)
    assert plans[0].lower_bound_sum_of_costs == plans[1].lower_bound_sum_of_costs


def test_positions_written_over_an_earlier_answer() -> None:
    """A plan's cells gathered into the first rows of an earlier, longer answer (the planner's first plan, whose
    memory is faulted in already): the same cells as a fresh gather; a longer plan or another crowd gets its own."""
    from wargrid.rts.crowd import _Graph

    graph = _Graph(Map(SquareGrid(5, 4)), None)
    rng = np.random.default_rng(2)
    first = rng.integers(0, 20, (6, 3))
    earlier = graph.xy(first)
    better = rng.integers(0, 20, (4, 3))
    got = graph.xy(better, earlier)
    assert got.shape == (4, 3, 2) and np.shares_memory(got, earlier)
    cell = graph.cells[better]  # node v is cell y * 5 + x
    assert got.tolist() == np.stack([cell % 5, cell // 5], axis=-1).tolist()
    longer = rng.integers(0, 20, (7, 3))
    assert not np.shares_memory(graph.xy(longer, earlier), earlier)
    assert not np.shares_memory(graph.xy(rng.integers(0, 20, (2, 4)), earlier), earlier)


def test_lazy_tables_look_at_little_of_a_large_board() -> None:
    """One agent crossing a 200 x 200 open board: its row's search settles one shortest way (ties of f broken
    towards the target), not the 40 000 cells."""
    from wargrid.rts.crowd import _Graph, _Tables

    m = Map(SquareGrid(200, 200))
    graph = _Graph(m, None)
    start, goal = graph.node[5 * 200 + 5], graph.node[190 * 200 + 180]
    tables = _Tables(graph, np.array([goal]), np.array([start]))
    assert tables.lookup(np.array([0]), np.array([start])).tolist() == [185 + 175]
    assert int(np.count_nonzero(tables.lz.dist)) == 361


def test_priorities_put_the_agents_that_set_the_makespan_first() -> None:
    """PIBT's priorities after a timestep: one more for an agent off its goal, a fraction for one on it; the
    fraction is half the distance from the start over twice the largest, and a half more for an agent whose steps
    to go are within the band that sets the makespan."""
    from wargrid._kernels import load

    k = load("rts.crowd")
    prio = np.array([3.25, 0.1, 7.4, 2.0])
    d0 = np.array([9, 4, 19, 0], dtype=np.int64)
    dq = np.array([12, 0, 15, 14], dtype=np.int64)  # agent 1 on its goal; 12 steps short of the largest: critical 10
    out = np.empty(4)
    k.priority(prio, d0, dq, 10, out)
    assert out.tolist() == [4 + 0.225 + 0.5, 0.1, 8 + 0.475 + 0.5, 3 + 0.0 + 0.5]
    k.priority(prio, d0, dq, 13, out)
    assert out.tolist() == [4.225, 0.1, 8.975, 3.5]


def _bench_crowd() -> Any:
    """``benchmarks/bench_crowd.py`` as a module (its cave board and random pairs)."""
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_crowd.py"
    spec = importlib.util.spec_from_file_location("bench_crowd", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_agents_that_set_the_makespan_go_first_in_a_large_crowd() -> None:
    """3000 agents on a 256 x 257 cave (the benchmark's, seed 0): the first plan's makespan with the agents
    farthest from their goals going first among those that waited as long (677 without; 630 with no bound on how
    often an agent leaves them)."""
    bench = _bench_crowd()
    m = bench.cave(256, 257, 1)
    s, g = bench.random_agents(m, 3000, 0)
    plan = plan_crowd(m, s, g, improve=0, seed=0)
    check_plan(m, s, g, plan)
    assert plan.complete and plan.lower_bound_makespan == 456
    assert plan.makespan == plan.first_makespan == 617  # 630 before an agent's exits from the band were bounded


def _first_and_shortened(m: Map, s: list[tuple[int, int]], g: list[tuple[int, int]], seed: int) -> tuple[Any, Any, Any]:
    """The planner's first plan and that plan with its last agents planned again (``_Search.shorten``), untimed."""
    search, first, graph = first_search(m, s, g, seed)
    return first, search.shorten(first, np.inf), graph


def test_shortening_plans_the_last_agents_again() -> None:
    """random-32-32-10's 400 agents: the first plan's last agents, planned again one at a time through the others'
    ways, arrive earlier; the plan stays valid and its sum of costs no larger."""
    m = load_movingai(MAP, diagonal=False)
    s, g = load_movingai_agents(SCEN, agents=400)
    first, short, graph = _first_and_shortened(m, s, g, 5)
    assert first.complete and short.complete
    check_plan(m, s, g, graph.xy(short.nodes))
    assert (first.makespan, short.makespan) == (64, 60)
    assert short.soc <= first.soc


class _StillTime:
    """A wall clock that stands still (every read the same time): what the planner does by a deadline then
    depends on its estimates only."""

    def __init__(self, t: float) -> None:
        self.t = t

    def perf_counter(self) -> float:
        return self.t

    def thread_time(self) -> float:
        return self.t


def test_shortening_does_not_start_when_the_slowed_estimate_passes_the_deadline(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The same 400 agents with time left for the tables of who stands where at ``_SHORTEN_SECONDS`` a cell, but
    not at twice that: shortened at the machine's own speed, left as they are on a machine running at half speed
    (``slowness`` 2)."""
    import wargrid.rts.crowd as crowd

    m = load_movingai(MAP, diagonal=False)
    s, g = load_movingai_agents(SCEN, agents=400)
    search, first, graph = first_search(m, s, g, 5)
    cells = len(graph.cells) * (first.nodes.shape[0] + 1)
    monkeypatch.setattr(crowd, "time", _StillTime(100.0))
    deadline = 100.0 + 1.5 * crowd._SHORTEN_SECONDS * cells
    assert search.shorten(first, deadline, 1.0).makespan == 60
    assert search.shorten(first, deadline, 2.0) is first


class _TwoThreadsAtHalfSpeed:
    """A machine where the planner's two threads each get half a core: the wall clock runs twice as fast as the
    calling thread's CPU, and as fast as the process's (both threads summed)."""

    def __init__(self) -> None:
        self.t = 0.0

    def perf_counter(self) -> float:
        return self.t

    def thread_time(self) -> float:
        return self.t / 2

    def process_time(self) -> float:
        return self.t


def test_the_clock_reads_two_slowed_threads_as_slowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """``_Clock.slowness`` measures the wall clock against the calling thread's CPU: two threads at half speed
    read as slowed 2 times (the process's CPU, both threads summed, would read 1), and the stop moves back by the
    reserve times 2."""
    import wargrid.rts.crowd as crowd

    fake = _TwoThreadsAtHalfSpeed()
    monkeypatch.setattr(crowd, "time", fake)
    monkeypatch.setattr(crowd, "_faults", lambda: 0)
    clock = crowd._Clock(0.0, 10.0)
    fake.t = 1.0
    assert clock.slowness() == 2.0
    assert clock.stop(10**6) == pytest.approx(10.0 - 2 * 10**6 * crowd._OUT_SECONDS - crowd._MARGIN_SECONDS)
    clock.mark()
    fake.t = 100.0
    assert clock.slowness() == 2.0


def test_dense_crowds_keep_lacams_order() -> None:
    """200 agents on a 30 x 24 square-8 board with a fifth of it walls (43 % of the open cells held): the band of
    the agents that set the makespan does not apply, and PIBT does not go round in circles (3080 timesteps with
    it)."""
    rng = np.random.default_rng(1)
    walls = rng.random((24, 30)) < 0.2
    m = Map(SquareGrid(30, 24, diagonal=True), terrain=np.where(walls, 3, 0).astype(np.int16),
            terrains=MOVINGAI_TERRAINS)
    z = m.zones()
    ys, xs = np.nonzero(z == np.bincount(z[z >= 0]).argmax())
    a, b = rng.choice(len(xs), 200, replace=False), rng.choice(len(xs), 200, replace=False)
    s = [(int(xs[i]), int(ys[i])) for i in a]
    g = [(int(xs[i]), int(ys[i])) for i in b]
    plan = plan_crowd(m, s, g, seed=0)
    check_plan(m, s, g, plan)
    assert plan.makespan == 51
