"""The crowd planner's first search run by hand, untimed, for the tests that look inside it (``_Search``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from wargrid import Map
from wargrid.rts import crowd


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
