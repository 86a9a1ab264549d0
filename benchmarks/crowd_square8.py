"""The simulation's crowd rule on square boards with diagonals: the last arrival, and a campaign that every unit arrives.

Two commands (run from the repository root):

``ticks N AGENTS SEED...``
    An ``N x N`` square board with diagonals and a tenth of its cells walls
    (Moving AI terrain, only the largest zone kept, wall seed 7), ``AGENTS``
    vehicles with random distinct starts and distinct goals on it (seed
    ``SEED``), one cell a tick: prints the tick after which every vehicle
    stays on its goal (``docs/design/kernels.md``, "Square boards with
    diagonals")::

        PYTHONPATH=src python benchmarks/crowd_square8.py ticks 32 600 0 1 2 3 4

``campaign FIRST LAST [CAP]``
    Random crowds ``FIRST`` to ``LAST - 1`` on square boards with diagonals
    (8 to 48 a side, every corner rule, a fifth wrapped in x, 0-30 % walls and
    some mud, every tenth a board of diagonal stairs; 10-90 % of the free
    cells held; mixed speeds in three fifths of them, infantry and cloaked
    units in a third), run to ``CAP`` ticks (5000) with ``Simulation.check``
    every seventh tick: one JSON line each (``tick``: when every unit stood on
    its goal, ``null`` if not by the cap; ``off``: units off their goals)::

        PYTHONPATH=src python benchmarks/crowd_square8.py campaign 0 600 > campaign.jsonl

``soldiers FIRST LAST [CAP]``
    The same on 4-connected boards (8 to 39 a side, 0-30 % walls), 60-95 % of
    the largest zone held, in every run a seventh of the units soldiers and a
    tenth cloaked, speeds 80-512 (``docs/design/kernels.md``, "Soldiers among
    packed vehicles")::

        PYTHONPATH=src python benchmarks/crowd_square8.py soldiers 0 60 3000 > soldiers.jsonl
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import numpy as np

from wargrid import Map, SquareGrid
from wargrid.io import MOVINGAI_TERRAINS
from wargrid.rts import LEPTONS_PER_CELL, Simulation
from wargrid.terrain import Terrain, TerrainTable

CAMPAIGN_TERRAINS = TerrainTable([Terrain("floor", ".", "#dddddd", costs={"walk": 1}),
                                  Terrain("mud", "m", "#886644", costs={"walk": 2}),
                                  Terrain("wall", "#", "#333333", costs={"walk": float("inf")})])


def walled(n: int, share: float, seed: int) -> Map:
    """An ``n x n`` square board with diagonals, ``share`` of its cells walls at random (``seed``), only the largest
    zone open."""
    rng = np.random.default_rng(seed)
    rock = MOVINGAI_TERRAINS.names.index("out_of_bounds")
    wall = rng.random((n, n)) < share
    m = Map(SquareGrid(n, n, diagonal=True), terrain=np.where(wall, rock, 0).astype(np.int16),
            terrains=MOVINGAI_TERRAINS)
    z = m.zones(unit="walk")
    keep = np.bincount(z[z >= 0]).argmax()
    return Map(SquareGrid(n, n, diagonal=True), terrain=np.where(z == keep, 0, rock).astype(np.int16),
               terrains=MOVINGAI_TERRAINS)


def pairs(m: Map, n: int, seed: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """``n`` distinct starts and ``n`` distinct goals at random on the largest zone of ``m``."""
    z = m.zones(unit="walk")
    keep = np.bincount(z[z >= 0]).argmax()
    ys, xs = np.nonzero(z == keep)
    rng = np.random.default_rng(seed)
    a, b = rng.choice(len(xs), n, replace=False), rng.choice(len(xs), n, replace=False)
    return [(int(xs[i]), int(ys[i])) for i in a], [(int(xs[i]), int(ys[i])) for i in b]


def last_arrival(m: Map, starts: list[tuple[int, int]], goals: list[tuple[int, int]], cap: int,
                 seed: int) -> tuple[bool, int]:
    """Vehicles at one cell a tick from ``starts`` to ``goals``: (all on their goals by ``cap``, the tick after which
    every one stays on its goal)."""
    sim = Simulation(m, seed=seed)
    for s, g in zip(starts, goals):
        sim.add_unit(s, unit="walk", goal=g, speed=LEPTONS_PER_CELL)
    gl = np.array(goals, dtype=np.int64)
    last = np.where((np.array(starts) != gl).any(axis=1), 0, -1)
    for tick in range(1, cap + 1):
        sim.step()
        off = (sim.cells() != gl).any(axis=1)
        last[off] = tick
        if not off.any():
            break
    return bool((sim.cells() == gl).all()), int((last + 1).max(initial=0))


def ticks(n: int, agents: int, seeds: list[int]) -> None:
    total = 0
    for s in seeds:
        m = walled(n, 0.10, 7)
        ok, ms = last_arrival(m, *pairs(m, agents, s), 3000, s)
        total += ms if ok else 0
        print(f"{n} x {n}, {agents} vehicles, seed {s}: {'all home' if ok else 'NOT all home'} by tick {ms}",
              flush=True)
    print("sum", total)


def _stairs() -> Map:
    """Two rooms joined by diagonal stairs (cells that touch only at corners)."""
    w, h = 24, 16
    t = np.full((h, w), 2, dtype=np.int16)
    t[1:8, 1:8] = 0
    t[8:15, 16:23] = 0
    for k in range(9):
        t[min(7 + k, 14), 7 + k] = 0
        if 1 + k < 15:
            t[1 + k, 8 + k] = 0
    return Map(SquareGrid(w, h, diagonal=True, corner_rule="always"), terrain=t, terrains=CAMPAIGN_TERRAINS)


def case(cid: int) -> tuple[Map, list[tuple[int, int]], list[tuple[int, int]], np.ndarray, np.ndarray, np.ndarray,
                            dict[str, Any]]:
    """The campaign's crowd ``cid``: board, starts, goals, speeds, infantry and cloaked flags, and what it is."""
    rng = np.random.default_rng(52000 + cid)
    kind, rule, wrap, p = ("stairs" if cid % 10 == 9 else "rand"), "always", False, 0.0
    if kind == "stairs":
        m = _stairs()
    else:
        w, h = int(rng.integers(8, 49)), int(rng.integers(8, 49))
        rule = ["always", "no-obstacle", "one-obstacle"][cid % 3]
        wrap = bool(rng.random() < 0.2)
        p = float(rng.uniform(0.0, 0.3))
        mud = float(rng.choice([0.0, 0.0, 0.2]))
        r = rng.random((h, w))
        t = np.where(r < p, 2, np.where(r < p + mud, 1, 0)).astype(np.int16)
        m = Map(SquareGrid(w, h, diagonal=True, corner_rule=rule, wrap_x=wrap), terrain=t, terrains=CAMPAIGN_TERRAINS)
    z = m.zones(unit="walk")
    ys, xs = np.nonzero(z == np.bincount(z[z >= 0]).argmax())
    dens = float(rng.uniform(0.1, 0.9))
    k = max(2, int(dens * len(xs)))
    a, b = rng.choice(len(xs), k, replace=False), rng.choice(len(xs), k, replace=False)
    mix = rng.random() < 0.6
    speeds = rng.choice([80, 128, 256, 300, 512], k) if mix else np.full(k, 256)
    kinds = rng.random() < 0.33
    infantry = rng.random(k) < (1 / 7 if kinds else 0)
    cloaked = rng.random(k) < (1 / 10 if kinds else 0)
    info = dict(kind=kind, rule=rule, wrap=wrap, w=int(m.grid.width), h=int(m.grid.height), walls=round(p, 2),
                units=k, dens=round(dens, 2), mix=bool(mix), kinds=bool(kinds))
    return (m, [(int(xs[i]), int(ys[i])) for i in a], [(int(xs[i]), int(ys[i])) for i in b], speeds, infantry,
            cloaked, info)


def soldiers_case(cid: int) -> tuple[Map, list[tuple[int, int]], list[tuple[int, int]], np.ndarray, np.ndarray,
                                    np.ndarray, dict[str, Any]]:
    """The soldiers campaign's crowd ``cid`` (4-connected): board, starts, goals, speeds, infantry and cloaked flags,
    and what it is."""
    rng = np.random.default_rng(77000 + cid)
    w, h = int(rng.integers(8, 40)), int(rng.integers(8, 40))
    p = float(rng.uniform(0.0, 0.3))
    t = np.where(rng.random((h, w)) < p, 2, 0).astype(np.int16)
    m = Map(SquareGrid(w, h), terrain=t, terrains=CAMPAIGN_TERRAINS)
    z = m.zones(unit="walk")
    ys, xs = np.nonzero(z == np.bincount(z[z >= 0]).argmax())
    dens = float(rng.uniform(0.6, 0.95))
    k = max(2, int(dens * len(xs)))
    a, b = rng.choice(len(xs), k, replace=False), rng.choice(len(xs), k, replace=False)
    speeds = rng.choice([80, 128, 256, 300, 512], k)
    infantry = rng.random(k) < 1 / 7
    cloaked = rng.random(k) < 1 / 10
    return (m, [(int(xs[i]), int(ys[i])) for i in a], [(int(xs[i]), int(ys[i])) for i in b], speeds, infantry,
            cloaked, dict(w=w, h=h, units=k, dens=round(dens, 2)))


def run(cid: int, cap: int, soldiers: bool = False) -> dict[str, Any]:
    m, s, g, speeds, infantry, cloaked, info = (soldiers_case if soldiers else case)(cid)
    sim = Simulation(m, seed=cid)
    for a, b, v, i, c in zip(s, g, speeds, infantry, cloaked):
        sim.add_unit(a, unit="walk", goal=b, speed=int(v), kind="infantry" if i else "vehicle", cloaked=bool(c))
    gl = np.array(g, dtype=np.int64)
    t0, tick, err = time.perf_counter(), None, None
    try:
        for t in range(1, cap + 1):
            sim.step()
            if t % 7 == 0:
                sim.check()
            if (sim.cells() == gl).all():
                tick = t
                break
        sim.check()
    except Exception as e:  # (a broken invariant: reported in the line, the campaign goes on)
        err = repr(e)[:200]
    off = int((sim.cells() != gl).any(axis=1).sum())
    return dict(cid=cid, tick=tick, off=off, err=err, secs=round(time.perf_counter() - t0, 1), **info)


def main(argv: list[str]) -> None:
    if len(argv) >= 4 and argv[0] == "ticks":
        ticks(int(argv[1]), int(argv[2]), [int(s) for s in argv[3:]])
    elif len(argv) in (3, 4) and argv[0] in ("campaign", "soldiers"):
        cap = int(argv[3]) if len(argv) == 4 else 5000
        for cid in range(int(argv[1]), int(argv[2])):
            print(json.dumps(run(cid, cap, argv[0] == "soldiers")), flush=True)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
