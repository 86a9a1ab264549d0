"""Movement benchmark: wargrid against the peers a user would otherwise pick, in one run, as ratios.

Run by hand from the repository root (peers: ``pip install -r benchmarks/requirements.txt``)::

    python benchmarks/bench_movement.py                 # everything
    python benchmarks/bench_movement.py --maps arena,lak303d --scenarios 20 --no-big

Maps and scenarios are the Moving AI files in ``../shared/data/movingai``
(square-8, no corner cutting). For each map the scenarios of the top buckets
(the longest paths) are used. Every section times wargrid and its peers on
the same inputs, interleaved query by query so both see the same machine
load, and prints wargrid's time divided by the peer's (below 1: wargrid is
faster). Costs are checked against the scenarios' optimal lengths.

Sections:

- A*: ``wargrid.movement.dispatch.shortest_path(..., search='astar')`` (a generic A*
  forced) and ``Map.path`` (the search wargrid picks itself: Jump Point Search
  on uniform square-8 boards when available) against tcod's ``CustomGraph`` +
  ``Pathfinder`` with conditional diagonal edges (no corner cutting) and an
  octile heuristic; python-pathfinding and networkx on a few scenarios only
  (they take seconds per query on the large maps).
- Dijkstra over the whole board: ``Map.distance_field`` against
  ``scipy.sparse.csgraph.dijkstra`` on a prebuilt CSR graph.
- Zones: ``wargrid.movement.zones.label_zones`` against ``scipy.ndimage.label``
  (4-connectivity, which is what the no-corner-cutting rule gives).
- A 4096 x 4096 board: bytes per cell of the search state; first use in a
  fresh process with a warm kernel cache; cold compile (empty
  ``NUMBA_CACHE_DIR``).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np
from _bar import bar

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "movingai"
SQRT2 = math.sqrt(2.0)
TCOD_SCALE = 100_000  # tcod costs are integers: 1 -> 100000, sqrt(2) -> 141421
DIRS8 = [(1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1)]
MAPS = ["arena", "lak303d", "brc202d", "AR0602SR", "divideandconquer", "random512-20-0", "32room_000", "maze512-4-0"]


def peer(name: str):
    """Import a peer, or ``None`` when it is not installed."""
    try:
        return __import__(name, fromlist=["_"])
    except ImportError:
        return None


def timed(fn, *args, **kw):
    t0 = time.perf_counter()
    out = fn(*args, **kw)
    return time.perf_counter() - t0, out


def median_ms(xs: list[float]) -> float:
    return statistics.median(xs) * 1e3 if xs else float("nan")


def geomean(xs: list[float]) -> float:
    xs = [x for x in xs if x > 0 and math.isfinite(x)]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def octile_length(cells) -> float:
    total = 0.0
    for (ax, ay), (bx, by) in zip(cells, cells[1:]):
        total += SQRT2 if ax != bx and ay != by else 1.0
    return total


# -- peers' graphs (built once per map, not timed) --------------------------------------------------


def diagonal_ok(passable: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """``[y, x]``: a diagonal step (dx, dy) from (x, y) keeps both orthogonal cells beside it passable."""
    h, w = passable.shape
    pad = np.zeros((h + 2, w + 2), dtype=bool)
    pad[1:-1, 1:-1] = passable
    side_x = pad[1:-1, 1 + dx : 1 + dx + w]
    side_y = pad[1 + dy : 1 + dy + h, 1:-1]
    return side_x & side_y


def edge_list(passable: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every legal step of the Moving AI rules as (from id, to id, length)."""
    h, w = passable.shape
    ys, xs = np.nonzero(passable)
    src, dst, wt = [], [], []
    for dx, dy in DIRS8:
        nx, ny = xs + dx, ys + dy
        ok = (nx >= 0) & (nx < w) & (ny >= 0) & (ny < h)
        ok[ok] &= passable[ny[ok], nx[ok]]
        if dx and dy:
            ok &= diagonal_ok(passable, dx, dy)[ys, xs]
        src.append(ys[ok] * w + xs[ok])
        dst.append(ny[ok] * w + nx[ok])
        wt.append(np.full(int(ok.sum()), SQRT2 if dx and dy else 1.0))
    return np.concatenate(src), np.concatenate(dst), np.concatenate(wt)


def tcod_graph(tcod, passable: np.ndarray):
    cost = passable.astype(np.int8)
    graph = tcod.path.CustomGraph(passable.shape)  # indexed [y, x]
    graph.add_edges(edge_map=[[0, TCOD_SCALE, 0], [TCOD_SCALE, 0, TCOD_SCALE], [0, TCOD_SCALE, 0]], cost=cost)
    diag = round(TCOD_SCALE * SQRT2)
    for dx, dy in DIRS8:
        if dx and dy:
            graph.add_edge((dy, dx), diag, cost=cost, condition=diagonal_ok(passable, dx, dy).astype(np.int8))
    graph.set_heuristic(cardinal=TCOD_SCALE, diagonal=diag)
    return graph


def tcod_query(tcod, graph, start, goal) -> float:
    pf = tcod.path.Pathfinder(graph)
    pf.add_root((start[1], start[0]))
    pf.path_to((goal[1], goal[0]))
    return float(pf.distance[goal[1], goal[0]]) / TCOD_SCALE


# -- sections -----------------------------------------------------------------------------------------


def pick_scenarios(scens, n: int):
    return sorted(scens, key=lambda s: (-s.bucket, s.start, s.goal))[:n]


def bench_astar(name, m, scens, tol, peers, args, rows, problems):
    from wargrid.movement import dispatch, search

    grid, cd = m.grid, m.cost_field()
    passable = np.isfinite(m.costs())
    tcod = peers["tcod"]
    graph = tcod_graph(tcod, passable) if tcod else None
    from wargrid.movement.jps import jps_pays

    # what Map.path's automatic choice runs here: JPS where it applies and the board is open enough
    jps_used = search.jps_applies(grid.topology, cd, 1.0, False, search.stop_array(grid, None)) and jps_pays(grid, cd)
    # warm up: compile, build caches
    s0 = scens[0]
    dispatch.shortest_path(grid, cd, s0.start, s0.goal, search="astar")
    m.path(s0.start, s0.goal)
    t_a, t_auto, t_tcod = [], [], []
    tcod_diffs = []
    for s in scens:
        dt, p = timed(dispatch.shortest_path, grid, cd, s.start, s.goal, search="astar")
        t_a.append(dt)
        if p is None or abs(p.cost - s.optimal) > tol:
            problems.append(f"{name}: wargrid A* {None if p is None else p.cost} != optimal {s.optimal} for {s.start}->{s.goal}")
        dt, p = timed(m.path, s.start, s.goal)
        t_auto.append(dt)
        if p is None or abs(p.cost - s.optimal) > tol:
            problems.append(f"{name}: wargrid Map.path {None if p is None else p.cost} != optimal {s.optimal}")
        if graph is not None:
            dt, c = timed(tcod_query, tcod, graph, s.start, s.goal)
            t_tcod.append(dt)
            tcod_diffs.append(c - s.optimal)
    row = {"map": name, "n": len(scens), "astar": median_ms(t_a), "auto": median_ms(t_auto), "jps": jps_used}
    row["tcod"] = median_ms(t_tcod) if graph is not None else None
    if tcod_diffs:
        d = np.abs(tcod_diffs)
        row["tcod_err"] = float(d.max())
        row["tcod_exact"] = int((d <= tol).sum())
    # slow peers on a few scenarios
    few = scens[: args.slow_scenarios]
    pf = peers["pathfinding"]
    if pf is not None and few:
        from pathfinding.core.diagonal_movement import DiagonalMovement
        from pathfinding.core.grid import Grid
        from pathfinding.finder.a_star import AStarFinder

        pgrid = Grid(matrix=passable.astype(int).tolist())
        finder = AStarFinder(diagonal_movement=DiagonalMovement.only_when_no_obstacle)
        ts, tw = [], []
        for s in few:
            pgrid.cleanup()
            dt, (path, _) = timed(finder.find_path, pgrid.node(*s.start), pgrid.node(*s.goal), pgrid)
            ts.append(dt)
            cells = [(n.x, n.y) for n in path]
            if abs(octile_length(cells) - s.optimal) > tol:
                problems.append(f"{name}: python-pathfinding length {octile_length(cells):.4f} != optimal {s.optimal}")
            tw.append(timed(dispatch.shortest_path, grid, cd, s.start, s.goal, search="astar")[0])
        row["pathfinding"] = (median_ms(ts), median_ms(tw), len(few))
    nx = peers["networkx"]
    if nx is not None and few:
        src, dst, wt = edge_list(passable)
        g = nx.DiGraph()
        g.add_weighted_edges_from(zip(src.tolist(), dst.tolist(), wt.tolist()))
        w = passable.shape[1]

        def h(a, b):
            dx, dy = abs(a % w - b % w), abs(a // w - b // w)
            return max(dx, dy) + (SQRT2 - 1) * min(dx, dy)

        ts, tw = [], []
        for s in few:
            a, b = s.start[1] * w + s.start[0], s.goal[1] * w + s.goal[0]
            dt, length = timed(nx.astar_path_length, g, a, b, heuristic=h, weight="weight")
            ts.append(dt)
            if abs(length - s.optimal) > tol:
                problems.append(f"{name}: networkx length {length:.4f} != optimal {s.optimal}")
            tw.append(timed(dispatch.shortest_path, grid, cd, s.start, s.goal, search="astar")[0])
        row["networkx"] = (median_ms(ts), median_ms(tw), len(few))
    rows.append(row)


def bench_dijkstra(name, m, scens, peers, rows, problems, repeats=15):
    sp = peers["scipy.sparse.csgraph"]
    src_cell = scens[0].start
    m.distance_field(src_cell)  # warm up
    row = {"map": name}
    tw, ts = [], []
    if sp is not None:
        from scipy.sparse import csr_matrix

        passable = np.isfinite(m.costs())
        a, b, wt = edge_list(passable)
        n = passable.size
        graph = csr_matrix((wt, (a, b)), shape=(n, n))
        src = src_cell[1] * m.width + src_cell[0]
        sp.dijkstra(graph, indices=src)
    for _ in range(repeats):
        dt, field = timed(m.distance_field, src_cell)
        tw.append(dt)
        if sp is not None:
            dt, dist = timed(sp.dijkstra, graph, indices=src)
            ts.append(dt)
    row["wargrid"] = median_ms(tw)
    row["wargrid_min"] = min(tw) * 1e3
    if sp is not None:
        ref = dist.reshape(m.shape)
        both = np.isfinite(ref)
        if not np.array_equal(both, np.isfinite(field)) or np.abs(field[both] - ref[both]).max() > 1e-6:
            problems.append(f"{name}: distance_field differs from scipy dijkstra")
        row["scipy"] = median_ms(ts)
        row["scipy_min"] = min(ts) * 1e3
    rows.append(row)


def bench_zones(name, m, peers, rows, problems, repeats=40):
    from wargrid.movement.zones import ZoneState, label_zones

    nd = peers["scipy.ndimage"]
    passable = np.isfinite(m.costs())
    label_zones(m.grid, passable)
    cd = m.cost_field()
    tw, tm, ts = [], [], []
    for _ in range(repeats):
        dt, z = timed(label_zones, m.grid, passable)
        tw.append(dt)
        tm.append(timed(ZoneState, m.grid.topology, cd.cell, cd.edge)[0])
        if nd is not None:
            dt, (lab, n) = timed(nd.label, passable)
            ts.append(dt)
    # incremental update after a one-cell edit (block a passable cell, then open it again)
    t = m.grid.topology
    state = ZoneState(t, cd.cell, cd.edge)
    rng = np.random.default_rng(5)
    open_ids = np.flatnonzero(passable.ravel())
    te, tb = [], []
    for i in rng.choice(open_ids, size=min(40, open_ids.size), replace=False):
        blocked = cd.cell.copy()
        blocked[t.padded_ids(np.array([i]))] = np.inf
        tb.append(timed(state.update, blocked, cd.edge, np.array([i]))[0])
        te.append(timed(state.update, cd.cell, cd.edge, np.array([i]))[0])
    row = {"map": name, "wargrid": median_ms(tw), "map_state": median_ms(tm), "zones": int(z.max()) + 1,
           "open": median_ms(te), "block": median_ms(tb)}
    row["wargrid_min"] = min(tw) * 1e3
    if nd is not None:
        row["scipy"] = median_ms(ts)
        row["scipy_min"] = min(ts) * 1e3
        if n != row["zones"]:
            problems.append(f"{name}: {row['zones']} zones, scipy.ndimage.label finds {n}")
    rows.append(row)


def bench_big(args) -> dict:
    """4096 x 4096: search-state bytes per cell, and a long query."""
    import wargrid
    from wargrid.movement import dispatch, search

    n = 4096
    rng = np.random.default_rng(1)
    g = wargrid.SquareGrid(n, n, diagonal=True)
    terrain = (rng.random((n, n)) < 0.2).astype(np.int16) * 4  # 20 % water
    terrain[0, :] = terrain[-1, :] = terrain[:, 0] = terrain[:, -1] = 0
    m = wargrid.Map(g, terrain=terrain)
    cd = m.cost_field(unit="foot")
    out = {"cells": n * n}
    tracemalloc.start()
    t0 = time.perf_counter()
    p = dispatch.shortest_path(g, cd, (0, 0), (n - 1, n - 1), search="astar")
    out["astar_s"] = time.perf_counter() - t0
    cur, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    state = search.search_state(g.topology.padded_size)
    arrays = [state.g, state.parent, state.stamp, state.pos, state.hf, state.hg, state.hid]
    out["state_bytes_per_cell"] = sum(a.nbytes for a in arrays) / (n * n)
    out["traced_peak_bytes_per_cell"] = peak / (n * n)
    out["cost_bytes_per_cell"] = (cd.cell.nbytes + cd.edge.nbytes) / (n * n)
    out["path_cost"] = None if p is None else p.cost
    t0 = time.perf_counter()
    m.zones(unit="foot")
    out["zones_s"] = time.perf_counter() - t0
    out["zone_bytes_per_cell"] = m.derived.zones("foot")._labels.nbytes / (n * n)
    return out


FIRST_USE = r"""
import time
t0 = time.perf_counter()
import wargrid
from wargrid.movement import dispatch
t1 = time.perf_counter()
m = wargrid.load_movingai({path!r})
t2 = time.perf_counter()
p = m.path({start!r}, {goal!r})
t3 = time.perf_counter()
q = dispatch.shortest_path(m.grid, m.cost_field(), {start!r}, {goal!r}, search="astar")
f = m.distance_field({start!r})
t4 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0)
"""


def first_use(path: Path, start, goal) -> dict:
    """Seconds for import, load, first Map.path, A* + distance field, and the total, in a fresh process."""
    code = FIRST_USE.format(path=str(path), start=start, goal=goal)

    def run(env: dict) -> list[float]:
        r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        if r.returncode:
            raise RuntimeError(f"first-use process failed:\n{r.stderr[-3000:]}")
        return [float(v) for v in r.stdout.split()[-5:]]

    env = dict(os.environ)
    run(env)  # make sure the on-disk cache is warm
    warm = min((run(env) for _ in range(3)), key=lambda v: v[-1])
    # numba imports scipy.linalg (when scipy is installed) as it loads its first kernel;
    # wargrid does not need scipy, so time also the process that cannot see it
    code = NO_SCIPY + code
    no_scipy = min((run(env) for _ in range(3)), key=lambda v: v[-1])
    code = FIRST_USE.format(path=str(path), start=start, goal=goal)
    with tempfile.TemporaryDirectory() as tmp:
        cold = run(dict(env, NUMBA_CACHE_DIR=tmp))
    return {"warm": warm, "no_scipy": no_scipy, "cold": cold}


NO_SCIPY = "import sys\nsys.modules['scipy'] = None  # as in an install without scipy\n"


# -- report ---------------------------------------------------------------------------------------------


def fmt(v, unit="ms") -> str:
    if v is None:
        return "not installed"
    if isinstance(v, float) and math.isnan(v):
        return "-"
    return f"{v:.3f} {unit}" if unit else f"{v:.3f}"


def ratio(a, b) -> str:
    if a is None or b is None or not b:
        return "-"
    return f"{a / b:.3f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--maps", default=",".join(MAPS), help="comma-separated map names")
    ap.add_argument("--scenarios", type=int, default=50, help="scenarios per map, from the top buckets")
    ap.add_argument("--slow-scenarios", type=int, default=3, help="scenarios per map for python-pathfinding and networkx")
    ap.add_argument("--no-big", action="store_true", help="skip the 4096 x 4096 board and the fresh-process timings")
    ap.add_argument("--sections", default="astar,dijkstra,zones,big", help="comma-separated subset of astar,dijkstra,zones,big")
    args = ap.parse_args()

    import wargrid

    peers = {k: peer(k) for k in ("tcod", "pathfinding", "networkx", "scipy.sparse.csgraph", "scipy.ndimage")}
    print("peers:", ", ".join(f"{k} {'ok' if v else 'not installed'}" for k, v in peers.items()))
    if peers["tcod"]:
        print(f"tcod {peers['tcod'].__version__}: CustomGraph, cardinal {TCOD_SCALE}, diagonal {round(TCOD_SCALE * SQRT2)} "
              "(integer costs), diagonal edges only where both orthogonal cells are open, octile heuristic")
    if not DATA.is_dir():
        sys.exit(f"Moving AI data not found in {DATA}")
    astar_rows, dij_rows, zone_rows, problems = [], [], [], []
    sections = set(args.sections.split(","))
    if args.no_big:
        sections.discard("big")
    for name in bar(args.maps.split(","), "maps"):
        mp = DATA / f"{name}.map"
        m = wargrid.load_movingai(mp)
        scens = pick_scenarios(wargrid.load_movingai_scenarios(DATA / f"{name}.map.scen"), args.scenarios)
        tol = 0.01 if name.startswith("maze") else 1e-4
        print(f"... {name} ({m.width}x{m.height}, {len(scens)} scenarios, buckets {scens[-1].bucket}..{scens[0].bucket})", flush=True)
        if "astar" in sections:
            bench_astar(name, m, scens, tol, peers, args, astar_rows, problems)
        if "dijkstra" in sections:
            bench_dijkstra(name, m, scens, peers, dij_rows, problems)
        if m.shape == (512, 512) and "zones" in sections:
            bench_zones(name, m, peers, zone_rows, problems)
    if "zones" in sections:
        # a board with many zones: 512 x 512, 45 % water at random
        rng = np.random.default_rng(3)
        terrain = np.where(rng.random((512, 512)) < 0.45, 4, 0).astype(np.int16)
        bench_zones("random 45 % water (synthetic)", wargrid.Map(wargrid.SquareGrid(512, 512, diagonal=True), terrain=terrain),
                    peers, zone_rows, problems)

    print("\n## A* median time per query (top-bucket scenarios)")
    print("| map | n | wargrid A* | tcod | A*/tcod | Map.path (auto) | search | auto/tcod | tcod max cost error | tcod exact |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in astar_rows:
        print(f"| {r['map']} | {r['n']} | {fmt(r['astar'])} | {fmt(r['tcod'])} | {ratio(r['astar'], r['tcod'])} | {fmt(r['auto'])} | "
              f"{'JPS' if r['jps'] else 'A*'} | {ratio(r['auto'], r['tcod'])} | {r.get('tcod_err', float('nan')):.2e} | "
              f"{r.get('tcod_exact', '-')}/{r['n']} |")
    shared = [r for r in astar_rows if r["tcod"]]
    if shared:
        print(f"\nA*/tcod: worst {max(r['astar'] / r['tcod'] for r in shared):.3f}, "
              f"geometric mean {geomean([r['astar'] / r['tcod'] for r in shared]):.3f} (target <= 0.333 on every map)")
        print(f"Map.path/tcod geometric mean {geomean([r['auto'] / r['tcod'] for r in shared]):.4f} "
              f"= 1/{1 / geomean([r['auto'] / r['tcod'] for r in shared]):.1f} (target <= 1/20)")
    print("\n## Slow peers (a few scenarios; wargrid A* timed on the same ones)")
    print("| map | n | python-pathfinding | wargrid | ratio | networkx | wargrid | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for r in astar_rows:
        pf = r.get("pathfinding")
        nx = r.get("networkx")
        n = (pf or nx or (None, None, 0))[2]
        cells = []
        for v in (pf, nx):
            cells += [fmt(v[0]), fmt(v[1]), ratio(v[1], v[0])] if v else ["not installed", "-", "-"]
        print(f"| {r['map']} | {n} | " + " | ".join(cells) + " |")
    print("\n## Full-board Dijkstra (Map.distance_field vs scipy.sparse.csgraph.dijkstra on a prebuilt CSR graph)")
    print("| map | wargrid median | scipy median | ratio | wargrid min | scipy min | ratio of mins |")
    print("|---|---|---|---|---|---|---|")
    for r in dij_rows:
        print(f"| {r['map']} | {fmt(r['wargrid'])} | {fmt(r.get('scipy'))} | {ratio(r['wargrid'], r.get('scipy'))} | "
              f"{fmt(r['wargrid_min'])} | {fmt(r.get('scipy_min'))} | {ratio(r['wargrid_min'], r.get('scipy_min'))} |")
    if any(r.get("scipy") for r in dij_rows):
        print(f"geometric mean ratio {geomean([r['wargrid'] / r['scipy'] for r in dij_rows if r.get('scipy')]):.3f} (target <= 0.5)")
    print("\n## Zone labelling, 512 x 512 (label_zones on a boolean array vs scipy.ndimage.label; Map state = ZoneState from cost arrays)")
    print("(edits: ZoneState.update after one cell is blocked, which floods the zone it was in again, and opened, which merges)")
    print("| map | zones | wargrid median | scipy median | ratio | wargrid min | scipy min | ratio of mins | ZoneState median | edit: block a cell | edit: open it |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in zone_rows:
        print(f"| {r['map']} | {r['zones']} | {fmt(r['wargrid'])} | {fmt(r.get('scipy'))} | {ratio(r['wargrid'], r.get('scipy'))} | "
              f"{fmt(r['wargrid_min'])} | {fmt(r.get('scipy_min'))} | {ratio(r['wargrid_min'], r.get('scipy_min'))} | "
              f"{fmt(r['map_state'])} | {fmt(r['block'])} | {fmt(r['open'])} |")
    if "big" in sections:
        print("\n## 4096 x 4096 board (20 % water, corner to corner)", flush=True)
        big = bench_big(args)
        print(f"A* {big['astar_s']:.2f} s, cost {big['path_cost']}; search state {big['state_bytes_per_cell']:.1f} bytes/cell "
              f"(allocated; tracemalloc peak during the query {big['traced_peak_bytes_per_cell']:.1f} bytes/cell); "
              f"cost arrays {big['cost_bytes_per_cell']:.1f} bytes/cell; zones {big['zones_s']:.2f} s, "
              f"{big['zone_bytes_per_cell']:.1f} bytes/cell")
        s = pick_scenarios(wargrid.load_movingai_scenarios(DATA / "AR0602SR.map.scen"), 1)[0]
        fu = first_use(DATA / "AR0602SR.map", s.start, s.goal)
        print("\n## First use in a fresh process (import, load AR0602SR, first Map.path, then A* + distance_field)")
        for label, v in (("warm kernel cache", fu["warm"]), ("warm, scipy not importable (a plain wargrid install)", fu["no_scipy"]),
                         ("cold (empty NUMBA_CACHE_DIR)", fu["cold"])):
            print(f"{label}: import {v[0]:.2f} s, load {v[1]:.2f} s, first Map.path {v[2]:.2f} s, "
                  f"A* + distance_field {v[3]:.2f} s; total {v[4]:.2f} s")
        print("target: first use with a warm cache under 1.5 s")
    print("\n## Checks")
    if problems:
        for p in problems[:40]:
            print("-", p)
        if len(problems) > 40:
            print(f"- ... and {len(problems) - 40} more")
    else:
        print("every cost checked equals the scenario's optimal length (1e-4; 0.01 on the maze) and every partition matches")


if __name__ == "__main__":
    main()
