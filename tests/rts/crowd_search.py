"""The crowd planner's first search run by hand, untimed, for the tests that look inside it (``_Search``); boards of
walls and random pairs of agents for the planner's tests."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from wargrid import Map, SquareGrid
from wargrid.io import MOVINGAI_TERRAINS
from wargrid.rts import crowd, plan_crowd


def first_search(m: Map, s: list[tuple[int, int]], g: list[tuple[int, int]], seed: int) -> tuple[Any, Any, Any]:
    """``(search, first, graph)``: the planner's ``_Search`` for agents from ``s`` to ``g`` on ``m``, its first
    plan (LaCAM's tie-breaks seeded by ``seed``, no clock) and the planner's graph."""
    graph, sn, gn = crowd._check_agents(m, s, g, None)
    tables = crowd._Tables(graph, gn, sn)
    d0 = np.zeros(len(sn), dtype=np.int64)
    clock = crowd._Clock(0.0, np.inf)
    crowd._start_distances(tables, sn, d0, clock)
    search = crowd._Search(graph, tables, d0, sn, gn, "makespan")
    rng = np.random.default_rng(seed)
    krng = np.array([np.uint64(rng.integers(1, 1 << 62))], dtype=np.uint64)
    first, _ = search.run(clock, np.inf, rng, krng, tie=0, bound=None)
    return search, first, graph


def walls_board(wall: np.ndarray) -> Map:
    """A square-4 board of the open cells of ``wall`` (True: wall) in its largest zone."""
    h, w = wall.shape
    m = Map(SquareGrid(w, h), terrain=np.where(wall, 3, 0).astype(np.int16), terrains=MOVINGAI_TERRAINS)
    z = m.zones()
    keep = np.bincount(z[z >= 0]).argmax()
    return Map(SquareGrid(w, h), terrain=np.where(z == keep, 0, 3).astype(np.int16), terrains=MOVINGAI_TERRAINS)


def random_pairs(m: Map, n: int, seed: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """``n`` random distinct starts and distinct goals on the passable cells of ``m`` (a start may be another's goal)."""
    ys, xs = np.nonzero(np.isfinite(m.costs()))
    rng = np.random.default_rng(seed)
    a, b = rng.choice(len(xs), n, replace=False), rng.choice(len(xs), n, replace=False)
    return [(int(xs[i]), int(ys[i])) for i in a], [(int(xs[i]), int(ys[i])) for i in b]


class ReadingClock:
    """A clock that moves on by ``step`` seconds every time it is read (the thread's CPU with it: no slowness), so
    that what the planner does by its time limit does not depend on the machine."""

    def __init__(self, step: float) -> None:
        self.t = 0.0
        self.step = step

    def perf_counter(self) -> float:
        self.t += self.step
        return self.t

    def thread_time(self) -> float:
        return self.t


def plan_by_readings(m: Map, s: list[tuple[int, int]], g: list[tuple[int, int]], **options: Any) -> Any:
    """``plan_crowd`` on a ``ReadingClock`` of 10 microseconds a reading: its time limit (a guard against a search
    that never ends) counts the planner's readings, not the machine's speed."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(crowd, "time", ReadingClock(1e-5))
        return plan_crowd(m, s, g, **options)
