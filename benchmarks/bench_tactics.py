"""Tactics benchmark: path smoothing, group assignment and the turning search against their peers, as ratios.

Run by hand from the repository root (peers: ``pip install -r benchmarks/requirements.txt``)::

    python benchmarks/bench_tactics.py
    python benchmarks/bench_tactics.py --maps arena --scenarios 10

Every section times wargrid and a peer on the same inputs, interleaved query
by query, and prints wargrid's median time divided by the peer's (below 1:
wargrid is faster). First calls (kernel compilation) are not timed.

- Smoothing: ``wargrid.tactics.smooth_path`` (exact tile clearance, the
  passable array computed once beforehand) against python-pathfinding's
  ``smoothen_path(..., use_raytrace=True)`` on A* paths of the Moving AI
  scenarios of the top buckets. Also reported: the mean smoothed length of
  each (drawing units = cells) and how many of the peer's segments touch a
  blocked tile by wargrid's exact test (``line_clear``).
- Any-angle search: ``Map.any_angle_path`` (Lazy Theta* over terrain costs
  in a kernel) against python-pathfinding's ``ThetaStarFinder`` where the
  installed release has it, else its A* followed by
  ``smoothen_path(..., use_raytrace=True)`` (its any-angle answer; 1.0.23
  ships no Theta*), on the same scenarios; mean route lengths compared (the
  peer's empty answers, where its A* finds no path, left out of its mean).
- Assignment: ``wargrid.tactics.assign`` (pure Python Hungarian) against
  ``scipy.optimize.linear_sum_assignment`` on random square matrices; totals
  compared.
- Turning: ``Map.turning_path`` (Dijkstra over (cell, facing) states in a
  kernel) against networkx ``dijkstra_path_length`` on the same state graph
  built beforehand (not timed), random 48 x 48 square-8 board.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "movingai"


def peer(name: str):
    try:
        return __import__(name, fromlist=["_"])
    except ImportError:
        return None


def timed(f, *a, **k):
    t = time.perf_counter()
    out = f(*a, **k)
    return out, time.perf_counter() - t


def polyline(points) -> float:
    return sum(math.dist(a, b) for a, b in zip(points[:-1], points[1:]))


def top_scenarios(name: str, n: int):
    """A Moving AI map, its last ``n`` scenarios of the top three buckets, its first class and passable layer."""
    from wargrid import load_movingai, load_movingai_scenarios

    m = load_movingai(DATA / f"{name}.map")
    scen = load_movingai_scenarios(DATA / f"{name}.map.scen")
    top = max(s.bucket for s in scen)
    scen = [s for s in scen if s.bucket >= top - 2][-n:]
    unit = m.terrains.classes[0]
    return m, scen, unit, m.passable(unit=unit)


def bench_smoothing(maps: list[str], n: int) -> None:
    from wargrid.tactics import line_clear, smooth_path

    pf = peer("pathfinding.core.util")
    print("\n## Smoothing (A* paths of the top-bucket scenarios)\n")
    print("| map | n | wargrid ms | python-pathfinding ms | ratio | wargrid length | peer length | peer segments touching walls |")
    print("|---|---|---|---|---|---|---|---|")
    for name in maps:
        m, scen, unit, ok = top_scenarios(name, n)
        paths = [m.path(s.start, s.goal, unit=unit) for s in scen]
        paths = [p for p in paths if p is not None]
        smooth_path(m.grid, ok, paths[0].cells)  # compile
        tw, tp, lw, lp, bad = [], [], [], [], 0
        if pf is not None:
            from pathfinding.core.grid import Grid as PfGrid

            pg = PfGrid(matrix=ok.astype(int).tolist())
        for p in paths:
            s, t = timed(smooth_path, m.grid, ok, p.cells)
            tw.append(t)
            lw.append(s.length)
            if pf is not None:
                coords = [list(c) for c in p.cells]
                r, t = timed(pf.smoothen_path, pg, coords, use_raytrace=True)
                tp.append(t)
                pts = [(x + 0.5, y + 0.5) for x, y in r]
                lp.append(polyline(pts))
                bad += sum(not line_clear(m.grid, ok, tuple(a), tuple(b)) for a, b in zip(r[:-1], r[1:]))
        mw = statistics.median(tw) * 1e3
        if tp:
            mp = statistics.median(tp) * 1e3
            print(f"| {name} | {len(paths)} | {mw:.3f} | {mp:.3f} | {mw / mp:.2f} | {statistics.mean(lw):.2f} | "
                  f"{statistics.mean(lp):.2f} | {bad} |")
        else:
            print(f"| {name} | {len(paths)} | {mw:.3f} | not installed | | {statistics.mean(lw):.2f} | | |")


def bench_any_angle(maps: list[str], n: int) -> None:
    print("\n## Any-angle search (top-bucket scenarios)\n")
    theta = peer("pathfinding.finder.theta_star")
    how = "ThetaStarFinder" if theta is not None else "A* + smoothen_path"
    print(f"| map | n | wargrid ms | python-pathfinding ({how}) ms | ratio | wargrid length | peer length |")
    print("|---|---|---|---|---|---|---|")
    for name in maps:
        m, scen, unit, ok = top_scenarios(name, n)
        m.any_angle_path(scen[0].start, scen[0].goal, unit=unit)  # compile
        tw, tp, lw, lp = [], [], [], []
        pf = peer("pathfinding.core.grid")
        for s in scen:
            r, t = timed(m.any_angle_path, s.start, s.goal, unit=unit)
            if r is None:
                continue
            tw.append(t)
            lw.append(r.length)
            if pf is None:
                continue
            from pathfinding.core.diagonal_movement import DiagonalMovement
            from pathfinding.core.util import smoothen_path
            from pathfinding.finder.a_star import AStarFinder

            pg = pf.Grid(matrix=ok.astype(int).tolist())
            st, go = pg.node(*s.start), pg.node(*s.goal)
            t0 = time.perf_counter()
            if theta is not None:
                cells, _ = theta.ThetaStarFinder().find_path(st, go, pg)
                pts = [(c.x, c.y) for c in cells]
            else:
                cells, _ = AStarFinder(diagonal_movement=DiagonalMovement.only_when_no_obstacle).find_path(st, go, pg)
                pts = smoothen_path(pg, [[c.x, c.y] for c in cells], use_raytrace=True)
            tp.append(time.perf_counter() - t0)
            if len(pts) > 1:
                lp.append(polyline([(x + 0.5, y + 0.5) for x, y in pts]))
        mw = statistics.median(tw) * 1e3
        if tp:
            mp = statistics.median(tp) * 1e3
            print(f"| {name} | {len(tw)} | {mw:.3f} | {mp:.3f} | {mw / mp:.3f} | {statistics.mean(lw):.2f} | "
                  f"{statistics.mean(lp):.2f} |")
        else:
            print(f"| {name} | {len(tw)} | {mw:.3f} | not installed | | {statistics.mean(lw):.2f} | |")


def bench_assign() -> None:
    from wargrid.tactics import assign

    sp = peer("scipy.optimize")
    print("\n## Assignment (random k x k costs)\n")
    print("| k | wargrid ms | scipy ms | ratio | same total |")
    print("|---|---|---|---|---|")
    rng = np.random.default_rng(0)
    for k in (8, 32, 96):
        tw, ts, same = [], [], True
        for _ in range(5):
            c = rng.random((k, k)) * 100
            cols, t = timed(assign, c)
            tw.append(t)
            if sp is not None:
                (r, cc), t = timed(sp.linear_sum_assignment, c)
                ts.append(t)
                same &= math.isclose(c[np.arange(k), cols].sum(), c[r, cc].sum(), rel_tol=1e-9)
        mw = statistics.median(tw) * 1e3
        if ts:
            ms = statistics.median(ts) * 1e3
            print(f"| {k} | {mw:.3f} | {ms:.3f} | {mw / ms:.1f} | {same} |")
        else:
            print(f"| {k} | {mw:.3f} | not installed | | |")


def bench_turning(queries: int) -> None:
    from wargrid import Map, SquareGrid

    nx = peer("networkx")
    print("\n## Turning search (48 x 48 square-8, 20% walls, turn rate 0.5)\n")
    rng = np.random.default_rng(1)
    g = SquareGrid(48, 48, diagonal=True)
    m = Map(g)
    walls = [(int(x), int(y)) for y, x in zip(*np.nonzero(rng.random(g.shape) < 0.2))]
    m.set_terrain(walls, "mountains")
    ok = m.passable(unit="cavalry")
    free = [c for c in g.cells() if ok[c[1], c[0]]]
    rate = 0.5
    t = g.topology
    graph = None
    if nx is not None:
        cost = m.costs(unit="cavalry")
        graph = nx.DiGraph()
        for c in free:
            for f in range(8):
                graph.add_edge((c, f), (c, (f + 1) % 8), weight=1 / rate)
                graph.add_edge((c, f), (c, (f - 1) % 8), weight=1 / rate)
                q = g.neighbor(c, f)
                if q is None or not ok[q[1], q[0]]:
                    continue
                c0, c1 = int(t.corner[f, 0]), int(t.corner[f, 1])
                if c0 >= 0:
                    a, b = g.neighbor(c, c0), g.neighbor(c, c1)
                    if not (a is not None and ok[a[1], a[0]] and b is not None and ok[b[1], b[0]]):
                        continue
                graph.add_edge((c, f), (q, f), weight=float(t.step[f]) * float(cost[q[1], q[0]]))
        for c in free:  # a sink per cell so that "any facing" is one target
            for f in range(8):
                graph.add_edge((c, f), (c, "end"), weight=0.0)
    pairs = [tuple(free[i] for i in rng.choice(len(free), 2, replace=False)) for _ in range(queries)]
    m.turning_path(pairs[0][0], pairs[0][1], unit="cavalry", facing=0, turn_rate=rate)  # compile
    tw, tn, same = [], [], True
    for a, b in pairs:
        p, tt = timed(m.turning_path, a, b, unit="cavalry", facing=0, turn_rate=rate)
        tw.append(tt)
        if graph is not None:
            try:
                d, tt = timed(nx.dijkstra_path_length, graph, (a, 0), (b, "end"))
            except nx.NetworkXNoPath:
                d, tt = None, 0.0
            tn.append(tt)
            same &= (p is None and d is None) or (p is not None and d is not None and math.isclose(p.time, d))
    mw = statistics.median(tw) * 1e3
    print("| queries | wargrid ms | networkx ms | ratio | same times |")
    print("|---|---|---|---|---|")
    if tn:
        mn = statistics.median(tn) * 1e3
        print(f"| {len(pairs)} | {mw:.3f} | {mn:.3f} | {mw / mn:.3f} | {same} |")
    else:
        print(f"| {len(pairs)} | {mw:.3f} | not installed | | |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--maps", default="arena,lak303d,brc202d", help="Moving AI maps for the smoothing section")
    ap.add_argument("--scenarios", type=int, default=30, help="scenarios per map")
    ap.add_argument("--turning-queries", type=int, default=20)
    ap.add_argument("--any-angle-maps", default="arena,lak303d,brc202d,random512-20-0", help="Moving AI maps for the any-angle section")
    ap.add_argument("--any-angle-scenarios", type=int, default=10, help="scenarios per map (the peer is slow)")
    args = ap.parse_args(argv)
    maps = [s for s in args.maps.split(",") if s]
    if DATA.is_dir():
        bench_smoothing(maps, args.scenarios)
        bench_any_angle([s for s in args.any_angle_maps.split(",") if s], args.any_angle_scenarios)
    else:
        print(f"no Moving AI data in {DATA}: smoothing skipped")
    bench_assign()
    bench_turning(args.turning_queries)
    return 0


if __name__ == "__main__":
    sys.exit(main())
