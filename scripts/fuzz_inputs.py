"""Bad inputs against the newest public entry points, by hand: crowds, the simulation's accessors, prepared queries,
``CostField.with_cells`` and the map readers with damaged real files.

Each case draws its inputs from ``random.Random(seed, case)``; a worker process runs the cases one after another
with ``faulthandler`` on and a watchdog, and writes the case it is about to run to a progress file first, so that a
segfault or a hang ends the worker and the driver reports that case and starts a new worker after it. A case passes
when the call returns (and what it returns passes the checks below) or raises an error of the library
(``wargrid.WargridError``: it names the argument or the file); any other exception is a finding.

    PYTHONPATH=src python scripts/fuzz_inputs.py --seconds 600            # a random seed
    PYTHONPATH=src python scripts/fuzz_inputs.py --seed 7 --case 1234     # one case again, its traceback shown

A case number names the same inputs only for the same version of this script (``FAMILIES`` picks the family
first). Families: ``plan_crowd``/``check_plan``/``agents`` (crowds, plans, ``.scen`` files as crowds), ``sim``
(the simulation's accessors and ``get(uid)``), ``prepare``/``prepared``/``sequence`` (prepared queries against a
map never prepared, after every kind of edit), ``with_cells`` and ``file`` (every reader, damaged samples).

Not a test: the regressions it found are literal tests in ``tests/test_bad_input_round4.py``.
"""

from __future__ import annotations

import argparse
import faulthandler
import random
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import warnings
import zipfile
from pathlib import Path
from typing import Any, Callable

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
HANG_SECONDS = 240  # a cold numba cache compiles for minutes in the first cases

# -- values a caller might pass where something else belongs ---------------------------------------------------
SCALAR_TYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64, np.intp,
                np.float16, np.float32, np.float64, np.bool_]


def odd_scalar(r: random.Random) -> Any:
    pick = r.randrange(14)
    if pick == 0:
        return r.choice([True, False])
    if pick == 1:
        return r.choice([0.5, 1.0, -0.0, float("nan"), float("inf"), -float("inf"), 1e300])
    if pick == 2:
        return r.choice([2**31, 2**32, 2**63 - 1, 2**63, 2**64, 2**200, -(2**63), -(2**64), -1, -2])
    if pick == 3:
        t = r.choice(SCALAR_TYPES)
        try:
            return t(r.choice([0, 1, 2, 3, 127, 255]))
        except (OverflowError, ValueError):
            return t(0)
    if pick == 4:
        return np.uint64(r.choice([2**63, 2**64 - 1, 2**63 + 5]))
    if pick == 5:
        return r.choice([None, "1", b"1", "", object(), [], (), {}, 1j])
    if pick == 6:
        return np.array(r.randrange(-3, 5))  # 0-d
    if pick == 7:
        return np.float64(r.choice([np.nan, np.inf, 2.0]))
    if pick == 8:
        return r.choice([np.int64(-1), np.int8(-128), np.int64(2**62)])
    return r.randrange(-3, 12)


def odd_cell(r: random.Random, w: int, h: int) -> Any:
    pick = r.randrange(16)
    if pick < 5:
        return (r.randrange(w), r.randrange(h))
    if pick == 5:
        return (odd_scalar(r), r.randrange(h))
    if pick == 6:
        return (r.randrange(w), odd_scalar(r))
    if pick == 7:
        return np.array([r.randrange(w), r.randrange(h)], dtype=r.choice(SCALAR_TYPES))
    if pick == 8:
        return r.choice([(1,), (1, 2, 3), (), [1, 2], "ab", None, 5, np.array([[1, 2]]), np.array([1, 2], dtype=object)])
    if pick == 9:
        return (r.choice([-1, w, -w - 1, 2**63, 2**64]), r.randrange(h))
    if pick == 10:
        return (np.uint64(2**64 - 1), np.uint64(0))
    if pick == 11:
        return (float(r.randrange(w)), float(r.randrange(h)))
    if pick == 12:
        a = np.array([[r.randrange(w), 9, r.randrange(h)]])[0, ::2]  # a non-contiguous view
        return a
    if pick == 13:
        a = np.array([r.randrange(w), r.randrange(h)])
        a.setflags(write=False)
        return a
    return (r.randrange(-2, w + 2), r.randrange(-2, h + 2))


def odd_cells(r: random.Random, w: int, h: int, n: int) -> Any:
    pick = r.randrange(12)
    cells = [odd_cell(r, w, h) if r.random() < 0.3 else (r.randrange(w), r.randrange(h)) for _ in range(n)]
    if pick < 5:
        return cells
    if pick == 5:
        return np.array([(r.randrange(w), r.randrange(h)) for _ in range(n)], dtype=r.choice(SCALAR_TYPES))
    if pick == 6:
        return r.choice([[], (), np.zeros((0, 2), dtype=np.int64), np.zeros((n, 3), dtype=np.int64),
                         np.zeros((n, 2, 1), dtype=np.int64), np.zeros(2 * n, dtype=np.int64), None, "ab", 3,
                         np.array(5), {(0, 0)}, iter([(0, 0)])])
    if pick == 7:
        a = np.array([(r.randrange(w), r.randrange(h)) for _ in range(n)], dtype=np.int64)
        return a.T.copy().T  # Fortran order
    if pick == 8:
        return np.array([(r.randrange(w), 7, r.randrange(h)) for _ in range(n)], dtype=np.int64).reshape(n, 3)[:, ::2]
    if pick == 9:
        return np.array([(r.randrange(w), r.randrange(h)) for _ in range(n)], dtype=object)
    if pick == 10:
        c = (r.randrange(w), r.randrange(h))
        return [c] * n  # duplicates
    return np.array([(r.randrange(w), r.randrange(h)) for _ in range(n)], dtype=np.float64)


def odd_array(r: random.Random, shape: tuple[int, ...], base: np.ndarray | None = None) -> Any:
    """An array of ``shape`` made odd: dtype, layout, flags, NaN, or the wrong shape altogether."""
    a = np.ones(shape) if base is None else np.array(base, dtype=np.float64)
    pick = r.randrange(12)
    if pick == 0:
        return a.astype(r.choice(SCALAR_TYPES))
    if pick == 1:
        if a.size:
            a.flat[r.randrange(a.size)] = r.choice([np.nan, -1.0, -np.inf, 1e308, 0.0])
        return a
    if pick == 2:
        big = np.repeat(a[..., None], 2, axis=-1)
        return big[..., 0]  # non-contiguous
    if pick == 3:
        a.setflags(write=False)
        return a
    if pick == 4:
        return a.astype(object)
    if pick == 5:
        return a.reshape(-1) if a.ndim > 1 else a.reshape(1, -1)
    if pick == 6:
        return np.array(1.0)
    if pick == 7:
        return a[..., None]
    if pick == 8:
        return a.tolist()
    if pick == 9:
        return np.zeros((0,) + shape[1:])
    if pick == 10:
        return a.astype(">f8")  # big-endian
    return a


# -- the boards ---------------------------------------------------------------------------------------------------
def small_map(r: random.Random) -> Any:
    import wargrid as W

    w, h = r.randrange(1, 9), r.randrange(1, 7)
    kind = r.choice(["square", "square4", "hex"])
    if kind == "hex":
        grid = W.HexGrid(w, h)
    elif kind == "square4":
        grid = W.SquareGrid(w, h, diagonal=False)
    else:
        grid = W.SquareGrid(w, h)
    m = W.Map(grid)
    names = m.terrains.names
    walls = [n for n in names if not np.isfinite(m.terrains.cost(n))]
    cells = [(r.randrange(w), r.randrange(h)) for _ in range(r.randrange(0, w * h // 3 + 1))]
    if cells:
        try:
            m.set_terrain(cells, r.choice(walls) if walls and r.random() < 0.7 else r.choice(names))
        except Exception:
            pass
    return m


# -- the targets ----------------------------------------------------------------------------------------------------
def case_plan_crowd(r: random.Random) -> Callable[[], Any]:
    import wargrid as W
    from wargrid.rts import check_plan, plan_crowd

    m = small_map(r)
    w, h = m.width, m.height
    n = r.randrange(1, 6)
    ok = np.flatnonzero(np.isfinite(m.costs()).ravel())
    if len(ok) >= 2 * n and r.random() < 0.6:
        pick = r.sample(list(ok), 2 * n)
        starts = [(int(p % w), int(p // w)) for p in pick[:n]]
        goals = [(int(p % w), int(p // w)) for p in pick[n:]]
    else:
        starts, goals = odd_cells(r, w, h, n), odd_cells(r, w, h, n)
    kw: dict[str, Any] = {"time_limit": r.choice([0.5, 1.0, 0, 1e-9, None])}
    if r.random() < 0.4:
        kw[r.choice(["time_limit", "improve", "seed", "objective", "unit"])] = odd_scalar(r)
    if r.random() < 0.2:
        kw["improve"] = r.choice([0.0, 0.05, 1e-9])
    if kw.get("time_limit") is None and kw.get("improve") not in (None, 0, 0.0):
        kw["time_limit"] = 1.0

    def run() -> Any:
        plan = plan_crowd(m, starts, goals, **kw)
        check_plan(m, starts, goals, plan, complete=plan.complete)
        assert plan.positions.shape[1] == len(starts)
        return plan

    return run


def case_check_plan(r: random.Random) -> Callable[[], Any]:
    from wargrid.rts import check_plan, plan_crowd

    m = small_map(r)
    w, h = m.width, m.height
    ok = np.flatnonzero(np.isfinite(m.costs()).ravel())
    if len(ok) < 2:
        return lambda: check_plan(m, odd_cells(r, w, h, 1), odd_cells(r, w, h, 1), odd_array(r, (2, 1, 2)))
    n = r.randrange(1, max(2, min(4, len(ok) // 2)))
    pick = r.sample(list(ok), 2 * n)
    starts = [(int(p % w), int(p // w)) for p in pick[:n]]
    goals = [(int(p % w), int(p // w)) for p in pick[n:]]
    try:
        plan = plan_crowd(m, starts, goals, time_limit=1.0).positions
    except Exception:
        plan = np.array([starts], dtype=np.int64)
    pos = np.array(plan)
    op = r.randrange(9)
    if op == 0 and pos.size:
        pos[r.randrange(pos.shape[0]), r.randrange(n), r.randrange(2)] = r.choice([-1, w, h, 10**6, -(2**62)])
    elif op == 1:
        pos = pos.astype(r.choice([np.uint64, np.int8, np.uint8, np.int32, np.float64, np.bool_, object]))
    elif op == 2:
        pos = pos.astype(np.uint64)
        pos[-1, 0, 0] = np.uint64(2**64 - 1)
    elif op == 3:
        pos = pos[:, :, ::-1]
    elif op == 4:
        pos = np.concatenate([pos, pos[::-1]])
    elif op == 5:
        pos = odd_array(r, pos.shape, pos)
    elif op == 6:
        pos = pos.tolist() + [[0]]
    elif op == 7:
        pos = pos[:0]
    kw: dict[str, Any] = {}
    if r.random() < 0.3:
        kw[r.choice(["complete", "unit"])] = odd_scalar(r)
    return lambda: check_plan(m, starts, goals, pos, **kw)


def case_sim(r: random.Random) -> Callable[[], Any]:
    import wargrid as W
    from wargrid.rts import Simulation

    m = small_map(r)
    w, h = m.width, m.height
    sim = Simulation(m, seed=r.randrange(5))
    ok = np.flatnonzero(np.isfinite(m.costs(unit="tracked") if "tracked" in m.terrains.classes else m.costs()).ravel())
    for _ in range(r.randrange(0, 4)):
        try:
            c = (int(ok[r.randrange(len(ok))] % w), int(ok[r.randrange(len(ok))] // w)) if len(ok) else (0, 0)
            sim.add_unit(c if r.random() < 0.8 else odd_cell(r, w, h), unit=r.choice([None, "tracked", "foot"]),
                         goal=(r.randrange(w), r.randrange(h)) if r.random() < 0.5 else None,
                         speed=r.choice([64, 128, 256]) if r.random() < 0.9 else odd_scalar(r))
        except W.WargridError:
            pass
    if r.random() < 0.3:
        try:
            sim.run(r.randrange(1, 20))
        except W.WargridError:
            pass
    uid = odd_scalar(r) if r.random() < 0.7 else r.randrange(-1, 5)
    which = r.choice(["get", "unit", "lepton", "categories", "order", "hit", "positions", "cells", "states",
                      "facings", "hp", "units", "revealed", "add_obstacle", "step", "edit"])

    def run() -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            if which in ("positions", "cells", "states", "facings", "hp"):
                out = getattr(sim, which)()
                assert out.shape[0] == sim._n, (which, out.shape)
                return out
            if which in ("units", "revealed"):
                return getattr(sim, which)
            if which == "order":
                return sim.order(uid, odd_cell(r, w, h) if r.random() < 0.5 else None)
            if which == "hit":
                return sim.hit(uid, odd_scalar(r))
            if which == "add_obstacle":
                return sim.add_obstacle(odd_cells(r, w, h, r.randrange(0, 3)), hp=odd_scalar(r))
            if which == "step":
                sim.step()
                return sim.positions()
            if which == "edit":
                m.set_terrain(odd_cells(r, w, h, r.randrange(1, 3)), r.choice(m.terrains.names))
                sim.run(3)
                return sim.positions()
            return getattr(sim, which)(uid)

    return run


def case_prepare(r: random.Random) -> Callable[[], Any]:
    import wargrid as W

    m = small_map(r)
    w, h = m.width, m.height
    unit = r.choice(m.terrains.classes) if r.random() < 0.8 else odd_scalar(r)
    ops = []
    for _ in range(r.randrange(1, 6)):
        op = r.choice(["distance", "path", "table", "edit", "pp_distance", "pp_path", "pp_table", "paths", "elev",
                       "edge", "overlay"])
        ops.append(op)

    def run() -> Any:
        pp = m.prepare(unit=unit, progress=False)
        u = unit if isinstance(unit, str) else None
        for op in ops:
            a = odd_cell(r, w, h) if r.random() < 0.3 else (r.randrange(w), r.randrange(h))
            b = odd_cell(r, w, h) if r.random() < 0.3 else (r.randrange(w), r.randrange(h))
            try:
                if op == "distance":
                    d = m.distance(a, b, unit=u)
                    ref = W.Map.copy(m).distance(a, b, unit=u)
                    assert d == ref or abs(d - ref) < 1e-6 * max(1.0, ref), (d, ref)
                elif op == "path":
                    m.path(a, b, unit=u, weight=r.choice([1.0, 1.0, odd_scalar(r)]))
                elif op == "table":
                    t = m.distance_table(odd_cells(r, w, h, r.randrange(0, 3)), odd_cells(r, w, h, r.randrange(0, 3)),
                                         unit=u, progress=False)
                    assert t.dtype == np.float64
                elif op == "paths":
                    m.paths([(a, b), (b, a)] if r.random() < 0.7 else odd_cells(r, w, h, 2), unit=u, progress=False)
                elif op == "edit":
                    m.set_terrain(odd_cells(r, w, h, r.randrange(0, 4)), r.choice(list(m.terrains.names) + ["nope"]))
                elif op == "overlay":
                    m.set_overlay(odd_cells(r, w, h, r.randrange(0, 3)), None)
                elif op == "elev":
                    m.set_elevation(odd_array(r, (h, w)), climb_cost=r.choice([None, 1.0, odd_scalar(r)]))
                elif op == "edge":
                    m.set_edge(a, b, r.choice([1.0, np.inf, odd_scalar(r)]))
                else:
                    topo = m.grid.topology
                    costs = m.cost_field(unit=u)
                    s = odd_scalar(r) if r.random() < 0.5 else r.randrange(-2, topo.padded_size + 2)
                    t = odd_scalar(r) if r.random() < 0.5 else r.randrange(-2, topo.padded_size + 2)
                    if op == "pp_distance":
                        pp.distance(costs, s, t)
                    elif op == "pp_path":
                        pp.path(costs, s, t)
                    else:
                        pp.table(costs, odd_array(r, (2,)), odd_array(r, (1,)))
            except W.WargridError:
                pass
        return pp

    return run


def case_with_cells(r: random.Random) -> Callable[[], Any]:
    import wargrid as W

    m = small_map(r)
    f = m.cost_field()
    n = f.cell.shape[0]
    pw = f.topology.pw
    inner = [p for p in range(n) if pw <= p < n - pw and 0 < p % pw < pw - 1]
    cell = f.cell.copy()
    changed: Any = np.array(r.sample(inner, min(len(inner), r.randrange(0, 4))), dtype=np.int64)
    for p in changed:
        cell[p] = r.choice([1.0, 2.0, np.inf, 0.0, np.nan, -1.0, 1e308])
    if r.random() < 0.5:
        changed = r.choice([odd_array(r, changed.shape, changed), changed.astype(r.choice(SCALAR_TYPES)),
                            np.array([odd_scalar(r)], dtype=object), [odd_scalar(r)], np.array([n, -1, 2**40]),
                            np.array([2**64 - 1], dtype=np.uint64), changed.reshape(-1, 1), np.array(3)])
    if r.random() < 0.3:
        cell = odd_array(r, cell.shape, cell)
    if r.random() < 0.2 and isinstance(cell, np.ndarray) and cell.ndim == 1 and cell.size > pw and cell.flags.writeable:
        cell[r.randrange(pw)] = 1.0  # the padding ring
    view = r.random() < 0.3

    def run() -> Any:
        c = np.concatenate([cell, [0.0]])[:-1] if view and isinstance(cell, np.ndarray) and cell.ndim == 1 else cell
        g = f.with_cells(c, changed=changed)
        assert g.cell.flags.writeable is False
        assert np.all(~np.isfinite(g.topology.pad(np.zeros((m.height, m.width)), np.inf)) <= ~np.isfinite(g.cell))
        base = g.cell.base
        if isinstance(base, np.ndarray) and base.flags.writeable:
            raise AssertionError("with_cells kept a view whose base stays writable")
        from wargrid.movement import distance_field

        return distance_field(m.grid, g, (r.randrange(m.width), r.randrange(m.height)))

    return run


def case_sequence(r: random.Random) -> Callable[[], Any]:
    """Edits of every kind between prepared queries (checked against a copy that was never prepared) and ticks of a
    simulation on the same map."""
    import wargrid as W
    from wargrid.rts import Simulation

    m = small_map(r)
    w, h = m.width, m.height
    classes = list(m.terrains.classes)
    names = list(m.terrains.names)
    steps = [r.choice(["terrain", "overlay", "edge", "elev", "playable", "query", "query", "query", "table", "tick",
                       "unit", "prepare", "with_cells"]) for _ in range(r.randrange(3, 14))]

    def cell() -> Any:
        return odd_cell(r, w, h) if r.random() < 0.15 else (r.randrange(w), r.randrange(h))

    def run() -> Any:
        sim = Simulation(m, seed=r.randrange(3)) if r.random() < 0.5 else None
        pps = {}
        for op in steps:
            u = r.choice(classes)
            try:
                if op == "prepare":
                    pps[u] = m.prepare(unit=u, progress=False)
                elif op == "terrain":
                    m.set_terrain([cell() for _ in range(r.randrange(1, 4))], r.choice(names))
                elif op == "overlay":
                    m.set_overlay([cell()], r.choice([None] + names))
                elif op == "edge":
                    a = cell()
                    b = (a[0] + r.choice([-1, 0, 1]), a[1] + r.choice([-1, 0, 1])) if isinstance(a, tuple) and \
                        len(a) == 2 and all(type(v) is int for v in a) else cell()
                    m.set_edge(a, b, r.choice([0.0, 1.0, 2.5, np.inf, odd_scalar(r)]), both_ways=r.random() < 0.5)
                elif op == "elev":
                    e = np.array([[r.choice([0.0, 1.0, 3.0]) for _ in range(w)] for _ in range(h)])
                    m.set_elevation(e if r.random() < 0.8 else odd_array(r, (h, w), e),
                                    climb_cost=r.choice([None, 0.5, 2.0]))
                elif op == "playable":
                    if r.random() < 0.5:
                        m.set_playable(None)
                    else:
                        x0, y0 = r.randrange(w), r.randrange(h)
                        m.set_playable((x0, y0, r.randrange(1, w - x0 + 1), r.randrange(1, h - y0 + 1)))
                elif op == "query":
                    a, b = cell(), cell()
                    d = m.distance(a, b, unit=u)
                    ref = m.copy().distance(a, b, unit=u)
                    if not (d == ref or abs(d - ref) <= 1e-9 * max(1.0, abs(ref))):
                        raise AssertionError(f"prepared distance {d} != {ref} from {a} to {b} ({u}; {steps})")
                    p = m.path(a, b, unit=u)
                    if (p is None) != (ref == np.inf) or p is not None and abs(p.cost - ref) > 1e-9 * max(1.0, ref):
                        raise AssertionError(f"prepared path {p} but distance {ref} from {a} to {b} ({u}; {steps})")
                elif op == "table":
                    src = [cell() for _ in range(r.randrange(1, 3))]
                    tgt = [cell() for _ in range(r.randrange(1, 3))]
                    t = m.distance_table(src, tgt, unit=u, progress=False)
                    ref = m.copy().distance_table(src, tgt, unit=u, progress=False)
                    if not np.allclose(t, ref, rtol=1e-9, atol=0):
                        raise AssertionError(f"prepared table {t.tolist()} != {ref.tolist()} ({src} -> {tgt}; {steps})")
                elif op == "with_cells":
                    f = m.cost_field(unit=u)
                    c = f.cell.copy()
                    ids = np.array([m.grid.topology.padded_id(r.randrange(w), r.randrange(h))], dtype=np.int64)
                    c[ids] = r.choice([1.0, 3.0, np.inf])
                    from wargrid.movement import distance_field

                    distance_field(m.grid, f.with_cells(c, changed=ids), cell())
                elif sim is not None and op == "tick":
                    sim.run(r.randrange(1, 6))
                    assert sim.cells().shape == (sim._n, 2)
                elif sim is not None and op == "unit":
                    sim.add_unit(cell(), unit=r.choice([None, "tracked", "foot"]), goal=cell())
            except W.WargridError:
                pass
        if sim is not None:
            sim.check()

    return run


def case_agents(r: random.Random, folder: Path) -> Callable[[], Any]:
    """A Moving AI scenario file, damaged or not, read as a crowd (``agents`` odd or not) and planned on its map."""
    import wargrid as W
    from wargrid.io import load_movingai_agents
    from wargrid.rts import check_plan, plan_crowd

    raw = (ROOT / "tests/data/mapf/random-32-32-10-random-1.scen").read_bytes()
    lines = raw.split(b"\n")
    head, body = lines[:1], [ln for ln in lines[1:] if ln.strip()]
    body = body[: r.randrange(1, 40)]
    if r.random() < 0.6:
        body = [mutate(r, ln) if r.random() < 0.2 else ln for ln in body]
    if r.random() < 0.2:
        body.append(body[r.randrange(len(body))])  # a start and a goal twice
    target = folder / f"a{r.randrange(10**9)}.scen"
    target.write_bytes(b"\n".join(head + body) + r.choice([b"\n", b"", b"\r\n", b"\n\n\n"]))
    agents = r.randrange(1, 45) if r.random() < 0.7 else odd_scalar(r)
    board = W.load_movingai(ROOT / "tests/data/mapf/random-32-32-10.map")

    def run() -> Any:
        try:
            starts, goals = load_movingai_agents(target, agents=agents)
        except W.MapFileError as exc:
            if str(target) not in str(exc):
                raise AssertionError(f"MapFileError without the file's name: {exc}") from None
            raise
        plan = plan_crowd(board, starts, goals, time_limit=r.choice([0.2, 1.0]))
        check_plan(board, starts, goals, plan, complete=plan.complete)
        return plan

    return run


def case_prepared(r: random.Random) -> Callable[[], Any]:
    """The prepared structure's own queries (padded ids) against a plain search, odd ids refused."""
    import wargrid as W
    from wargrid.movement import distance_field

    m = small_map(r)
    u = r.choice(list(m.terrains.classes))
    topo = m.grid.topology

    def pid() -> Any:
        if r.random() < 0.25:
            return odd_scalar(r)
        return topo.padded_id(r.randrange(m.width), r.randrange(m.height))

    def run() -> Any:
        pp = m.prepare(unit=u, progress=False)
        for _ in range(r.randrange(1, 5)):
            if r.random() < 0.3:
                m.set_terrain([(r.randrange(m.width), r.randrange(m.height))], r.choice(list(m.terrains.names)))
            f = m.cost_field(unit=u)
            s, t = pid(), pid()
            try:
                d = pp.distance(f, s, t)
            except W.WargridError:
                continue
            x, y = int(s) % topo.pw - 1, int(s) // topo.pw - 1
            ref = distance_field(m.grid, f, (x, y))[int(t) // topo.pw - 1, int(t) % topo.pw - 1]
            if not (d == ref or abs(d - ref) <= 1e-9 * max(1.0, ref)):
                raise AssertionError(f"pp.distance {d} != {ref} ({s} -> {t}, {u})")
        return pp

    return run


# -- files ---------------------------------------------------------------------------------------------------------
def samples(folder: Path) -> dict[str, tuple[bytes, Callable[..., Any]]]:
    import wargrid as W

    hexm = W.generate(7, 5, kind="hex", seed=3)
    sq = W.generate(7, 5, kind="square", seed=3)
    W.save_map(hexm, folder / "a.json")
    W.save_map(hexm, folder / "a.npz")
    W.save_tiled(hexm, folder / "a.tmx", tileset_image=False)
    W.save_tiled(hexm, folder / "a.tmj", tileset_image=False)
    W.save_tiled(hexm, folder / "b.tmx", encoding="base64", compression="zlib", tileset_image=False)
    W.save_movingai(sq, folder / "a.map")
    W.save_wesnoth(W.load_wesnoth(ROOT / "tests/data/wesnoth/two_rivers.map"), folder / "w.map")
    out = {
        "a.json": W.load_map, "a.npz": W.load_map, "a.tmx": W.load_tiled, "a.tmj": W.load_tiled, "b.tmx": W.load_tiled,
        "a.map": W.load_movingai, "w.map": W.load_wesnoth,
    }
    res = {k: ((folder / k).read_bytes(), v) for k, v in out.items()}
    for name in ["random-32-32-10-random-1.scen"]:
        raw = (ROOT / "tests/data/mapf" / name).read_bytes()
        res["x.scen"] = (raw, W.load_movingai_scenarios)
        res["agents.scen"] = (raw, lambda p: __import__("wargrid.io", fromlist=["x"]).load_movingai_agents(p, agents=10))
    raw = (ROOT / "tests/data/movingai/arena.map").read_bytes()
    res["arena.map"] = (raw, W.load_movingai)
    for name in ["hexagonal_classes.tmj", "staggered.tmx"]:
        res["t_" + name] = ((ROOT / "tests/data/tiled" / name).read_bytes(), W.load_tiled)
    sys.path.insert(0, str(ROOT / "tests" / "io"))
    import openra_maps as om  # the tests' own builder of made-up OpenRA maps

    ts = om.ra_like_tileset()
    tdir = folder / "tilesets"
    tdir.mkdir(exist_ok=True)
    (tdir / "madeup.yaml").write_text(ts.yaml())
    tiles = [[om.type_tile(r.choice(om.RA_TYPES)) for _ in range(5)] for r in [random.Random(i) for i in range(4)]]
    om.write_oramap(folder / "o.oramap", om.map_yaml(5, 4), om.map_bin(tiles))
    res["o.oramap"] = ((folder / "o.oramap").read_bytes(), lambda p: W.load_openra(p, tilesets=tdir))
    res["o.yaml"] = (om.map_yaml(5, 4).encode(), "openra-yaml")
    res["o.bin"] = (om.map_bin(tiles), "openra-bin")
    res["_tiles"] = (b"", tiles)  # type: ignore[assignment]
    res["_tdir"] = (b"", tdir)  # type: ignore[assignment]
    return res


TOKENS = [b"9999999999", b"99999999999999999999999", b"-1", b"NaN", b"nan", b"inf", b"1e999", b"-0", b"0x10",
          b"\xef\xbb\xbf", b"\r\n", b"\r", b"\x00", b"\xff\xfe", "\u00e9\u4e2d".encode(), b"\xc3", b"\t", b" ",
          b",", b"=", b":", b"#", b"[", b"]", b"{", b"}", b"<", b"\"", b"1.5", b"+3", b"\xe2\x80\xa8", b"\x1a"]


def mutate(r: random.Random, raw: bytes) -> bytes:
    b = bytearray(raw)
    for _ in range(r.randrange(1, 4)):
        op = r.randrange(12)
        if op == 0 and b:
            b = b[: r.randrange(len(b))]
        elif op == 1 and b:
            for _ in range(r.randrange(1, 6)):
                b[r.randrange(len(b))] = r.randrange(256)
        elif op == 2:
            at = r.randrange(len(b) + 1)
            b[at:at] = r.choice(TOKENS)
        elif op == 3:
            b = bytearray(b"\xef\xbb\xbf") + b
        elif op == 4:
            b = bytearray(bytes(b).replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
        elif op == 5:
            lines = bytes(b).split(b"\n")
            if lines:
                i = r.randrange(len(lines))
                lines.insert(i, lines[i] * r.choice([1, 2, 50]))
            b = bytearray(b"\n".join(lines))
        elif op == 6:
            lines = bytes(b).split(b"\n")
            if len(lines) > 1:
                del lines[r.randrange(len(lines))]
            b = bytearray(b"\n".join(lines))
        elif op == 7:  # a number replaced
            import re

            nums = list(re.finditer(rb"-?\d+(\.\d+)?", bytes(b)))
            if nums:
                mt = r.choice(nums)
                b[mt.start():mt.end()] = r.choice([b"0", b"-1", b"99999999999", b"4294967296", b"1e9", b"nan", b"2.5",
                                                   b"65536", b"32768", b"-2147483649", str(r.randrange(100)).encode()])
        elif op == 8:
            lines = bytes(b).split(b"\n")
            if len(lines) > 2:
                i, j = r.randrange(len(lines)), r.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
            b = bytearray(b"\n".join(lines))
        elif op == 9:
            b = bytearray(bytes(b).replace(b"\n", b"\r"))
        elif op == 10:
            b = bytearray(bytes(b).decode("utf-8", "replace").encode("utf-16"))
        else:
            b = b + b[: r.randrange(len(b) + 1)]
    return bytes(b)


def case_file(r: random.Random, folder: Path, samp: dict[str, Any]) -> Callable[[], Any]:
    import wargrid as W

    names = [k for k in samp if not k.startswith("_")]
    name = r.choice(names)
    raw, reader = samp[name]
    target = folder / f"m{r.randrange(10**9)}_{name}"
    if reader in ("openra-yaml", "openra-bin"):
        sys.path.insert(0, str(ROOT / "tests" / "io"))
        import openra_maps as om

        yml, binary = samp["o.yaml"][0], samp["o.bin"][0]
        if reader == "openra-yaml":
            yml = mutate(r, yml)
        else:
            binary = mutate(r, binary)
        target = target.with_suffix(".oramap")
        if r.random() < 0.5:
            with zipfile.ZipFile(target, "w") as z:
                z.writestr("map.yaml", yml)
                z.writestr("map.bin", binary)
        else:
            target.mkdir()
            (target / "map.yaml").write_bytes(yml)
            (target / "map.bin").write_bytes(binary)
        tdir = samp["_tdir"][1]

        def reader(p: Path) -> Any:
            return W.load_openra(p, tilesets=tdir)
    else:
        target.write_bytes(mutate(r, raw))

    def run() -> Any:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return reader(target)
        except W.MapFileError as exc:
            if str(target) not in str(exc):
                raise AssertionError(f"MapFileError without the file's name: {exc}") from None
            raise

    return run


FAMILIES = ["plan_crowd", "check_plan", "sim", "prepare", "with_cells", "sequence", "sequence", "file", "file", "agents",
            "prepared"]


def build(seed: int, k: int, folder: Path, samp: dict[str, Any]) -> tuple[str, Callable[[], Any]]:
    r = random.Random(seed * 1_000_003 + k)
    fam = r.choice(FAMILIES)
    plain = {"plan_crowd": case_plan_crowd, "check_plan": case_check_plan, "sim": case_sim, "prepare": case_prepare,
             "with_cells": case_with_cells, "sequence": case_sequence, "prepared": case_prepared}
    if fam in plain:
        return fam, plain[fam](r)
    if fam == "agents":
        return fam, case_agents(r, folder)
    return fam, case_file(r, folder, samp)


def worker(seed: int, start: int, stop: int, progress: Path, show: bool) -> None:
    faulthandler.enable()
    warnings.simplefilter("ignore", RuntimeWarning)  # (the odd values' own casts and overflows)
    folder = Path(tempfile.mkdtemp(prefix="fuzz_inputs_"))
    try:
        run_cases(seed, start, stop, progress, show, folder, samples(folder))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run_cases(seed: int, start: int, stop: int, progress: Path, show: bool, folder: Path, samp: dict[str, Any]) -> None:
    import wargrid as W

    for k in range(start, stop):
        progress.write_text(str(k))
        faulthandler.dump_traceback_later(HANG_SECONDS, exit=True)
        try:
            fam, fn = build(seed, k, folder, samp)
        except W.WargridError:
            continue
        except Exception:
            print(f"SETUP {seed} {k}: {traceback.format_exc(limit=3)}", flush=True)
            continue
        try:
            fn()
        except W.WargridError:
            if show:
                traceback.print_exc()
        except Exception as exc:
            tb = traceback.format_exc()
            print(f"FINDING seed={seed} case={k} family={fam}: {type(exc).__name__}: {str(exc)[:300]}", flush=True)
            if show:
                print(tb, flush=True)
            else:
                print("    " + tb.strip().splitlines()[-3].strip(), flush=True)
        faulthandler.cancel_dump_traceback_later()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=300.0)
    ap.add_argument("--seed", type=int, default=None, help="default: a random seed")
    ap.add_argument("--case", type=int, default=None, help="run this one case, with its traceback")
    ap.add_argument("--worker", nargs=3, type=int, metavar=("SEED", "START", "STOP"), help=argparse.SUPPRESS)
    ap.add_argument("--progress", type=Path, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        worker(*a.worker, a.progress, show=False)
        return
    seed = random.randrange(1 << 30) if a.seed is None else a.seed
    if a.case is not None:
        worker(seed, a.case, a.case + 1, Path(tempfile.mktemp()), show=True)
        return
    print(f"seed {seed}", flush=True)
    end = time.monotonic() + a.seconds
    k = 0
    progress = Path(tempfile.mktemp(prefix="fuzz_progress_"))
    while time.monotonic() < end:
        chunk = 400
        proc = subprocess.Popen([sys.executable, __file__, "--worker", str(seed), str(k), str(k + chunk),
                                 "--progress", str(progress)])
        while proc.poll() is None and time.monotonic() < end + HANG_SECONDS:
            time.sleep(0.5)
        if proc.poll() is None:
            proc.terminate()
            proc.wait()
            print(f"stopped at case {progress.read_text()} (time up)", flush=True)
            break
        last = int(progress.read_text()) if progress.exists() else k
        if proc.returncode != 0:
            print(f"CRASH/HANG seed={seed} case={last} (exit {proc.returncode}); rerun with --seed {seed} --case {last}",
                  flush=True)
            k = last + 1
        else:
            k += chunk
    print(f"ran cases 0..{k} of seed {seed}", flush=True)


if __name__ == "__main__":
    main()
