"""The crowd planner's first search starting over when it wanders (``_WANDER``, ``_RESTARTS``): a better plan where it
stalled deep, plans still valid, the restarts bounded in number and by the time limit."""

from __future__ import annotations

import functools
import importlib.util
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crowd_search import ReadingClock, random_pairs, walls_board

from wargrid.rts import check_plan, crowd, plan_crowd

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@functools.lru_cache(maxsize=None)
def _module(name: str) -> Any:
    """``benchmarks/NAME.py`` as a module (``mapf_families`` imports ``bench_crowd``: loaded first)."""
    if name == "mapf_families":
        _module("bench_crowd")
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Counts of the searches' starts (a root configuration made: the first and every start over) and repairs."""
    calls = {"roots": 0, "repairs": 0}
    high, repair = crowd._High, crowd._Search.repair

    class Counted(high):  # type: ignore[misc, valid-type]
        __slots__ = ()

        def __init__(self, q: np.ndarray, parent: Any, *args: Any) -> None:
            if parent is None:
                calls["roots"] += 1
            super().__init__(q, parent, *args)

    def counted_repair(self: Any, node: Any, stop: float) -> Any:
        calls["repairs"] += 1
        return repair(self, node, stop)

    monkeypatch.setattr(crowd, "_High", Counted)
    monkeypatch.setattr(crowd._Search, "repair", counted_repair)
    return calls


@pytest.mark.slow
def test_a_search_that_wanders_starts_over_instead_of_repairing(monkeypatch: pytest.MonkeyPatch) -> None:
    """room-64-64-8 of ``benchmarks/mapf_families.py`` with 1200 random pairs (``bench_crowd.random_agents``, seed
    0), planned with seed 0 and no time to improve: the first search stalls at depth 1772 (lower bound 112) with
    1119 agents home; repaired from there, the plan had 2956 timesteps, 2185 tightened. Started over, the search
    finds its own plan, no repair made: 624 (the seeds 1-4 of the same agents: 567-623)."""
    families, bench = _module("mapf_families"), _module("bench_crowd")
    m = walls_board(families.rooms(64, 64, 8, 9))
    s, g = bench.random_agents(m, 1200, 0)
    calls = _counted(monkeypatch)
    plan = plan_crowd(m, s, g, seed=0)
    check_plan(m, s, g, plan)
    assert (plan.lower_bound_makespan, plan.makespan, plan.sum_of_costs) == (112, 624, 498243)
    assert calls == {"roots": 2, "repairs": 0}
    monkeypatch.setattr(crowd, "_RESTARTS", 0)
    calls.update(roots=0, repairs=0)
    before = plan_crowd(m, s, g, seed=0)
    check_plan(m, s, g, before)
    assert before.makespan == 2185 and calls == {"roots": 1, "repairs": 1}


def test_a_search_starts_over_at_most_restarts_times_then_repairs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every stall counted as wandering (``_WANDER`` 0) after a few successors (``_STALL``): the search starts over
    ``_RESTARTS`` times, no more, and then goes on as before (repairs where it stalls again); its plan is valid."""
    m = walls_board(_module("mapf_families").rooms(24, 24, 4, 3))
    s, g = random_pairs(m, 120, 3)
    monkeypatch.setattr(crowd, "_WANDER", 0)
    monkeypatch.setattr(crowd, "_STALL", 4)
    calls = _counted(monkeypatch)
    plan = plan_crowd(m, s, g, seed=0)
    check_plan(m, s, g, plan, complete=plan.complete)
    assert plan.complete
    assert calls["roots"] == 1 + crowd._RESTARTS


def test_a_search_started_over_is_repaired_from_the_best_stall_when_time_is_short(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """On a clock that moves on 10 microseconds a reading, a repair reckoned at 0.5 s (``_REPAIR_SECONDS``) and a 0.9
    s limit: the first search stalls at once and starts over, and then only a repair fits before the stop: the
    planner repairs the configuration with most agents home of the search it dropped instead of searching on until
    time runs out (a plan, not none; a restart had returned incomplete where the repair made a plan), and starts
    over no more."""
    m = walls_board(_module("mapf_families").rooms(24, 24, 4, 3))
    s, g = random_pairs(m, 120, 3)
    monkeypatch.setattr(crowd, "_WANDER", 0)
    monkeypatch.setattr(crowd, "_STALL", 4)
    monkeypatch.setattr(crowd, "_RESTARTS", 5)
    monkeypatch.setattr(crowd, "_REPAIR_SECONDS", 0.5 / len(s))
    roots: list[Any] = []
    repaired: list[Any] = []
    high, repair = crowd._High, crowd._Search.repair

    class Rooted(high):  # type: ignore[misc, valid-type]
        __slots__ = ()

        def __init__(self, q: np.ndarray, parent: Any, *args: Any) -> None:
            super().__init__(q, parent, *args)
            if parent is None:
                roots.append(self)

    def logged(self: Any, node: Any, stop: float) -> Any:
        repaired.append(node)
        return repair(self, node, stop)

    monkeypatch.setattr(crowd, "_High", Rooted)
    monkeypatch.setattr(crowd._Search, "repair", logged)
    monkeypatch.setattr(crowd, "time", ReadingClock(1e-5))
    plan = plan_crowd(m, s, g, time_limit=0.9, seed=0)
    check_plan(m, s, g, plan, complete=plan.complete)
    assert plan.complete
    assert len(roots) == 2 and len(repaired) == 1
    first = repaired[0]
    while first.parent is not None:
        first = first.parent
    assert first is roots[0]  # (the dropped search's stall, which had more agents home than the new search's start)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), share=st.sampled_from([0.2, 0.4, 0.6]), side=st.sampled_from([3, 4]),
       limit=st.sampled_from([0.002, 0.02, 0.2, 2.0]), restarts=st.sampled_from([0, 2, 50]))
def test_restarts_keep_within_the_time_limit_and_plans_valid(seed: int, share: float, side: int, limit: float,
                                                             restarts: int) -> None:
    """Small boards of rooms joined by one-cell doors, crowds of 20-60 % of the cells, the search starting over at
    every stall (``_WANDER`` 0, ``_STALL`` 8) up to ``restarts`` times, on a clock that moves on 10 microseconds a
    reading: the plan passes ``check_plan`` (complete or not) and is returned by the time limit."""
    m = walls_board(_module("mapf_families").rooms(17, 17, side, seed % 1000))
    n = max(2, int(share * np.isfinite(m.costs()).sum()))
    s, g = random_pairs(m, n, seed)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(crowd, "_WANDER", 0)
        mp.setattr(crowd, "_STALL", 8)
        mp.setattr(crowd, "_RESTARTS", restarts)
        mp.setattr(crowd, "_THREADED", 1 << 30)  # (one thread: the fake clock's readings in one order every run)
        mp.setattr(crowd, "time", ReadingClock(1e-5))
        plan = plan_crowd(m, s, g, time_limit=limit, seed=seed)
    check_plan(m, s, g, plan, complete=plan.complete)
    assert plan.seconds <= limit
    if plan.complete:
        assert plan.makespan >= plan.lower_bound_makespan
