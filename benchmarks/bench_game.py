"""Game-AI benchmark: clearance maps, big-unit A*, influence maps and heightmap sight, with ratios where a peer exists.

Run by hand from the repository root (peers: ``pip install -r benchmarks/requirements.txt``)::

    python benchmarks/bench_game.py
    python benchmarks/bench_game.py --quick

First calls (kernel compilation) are not timed; times are medians of
``--repeat`` runs.

- Clearance: ``wargrid.movement.clearance`` (true-distance clearance, the
  breadth-first kernel) against ``scipy.ndimage.distance_transform_cdt``
  (chessboard) and ``distance_transform_edt`` on the same blocked layer
  (the same kind of one pass over the board: the chessboard transform is the
  clearance of centred odd-sized squares), on Moving AI maps and a random
  1024 x 1024 board; ratio wargrid / scipy (below 1: wargrid is faster).
  Hex boards have no scipy counterpart; their time is given alone.
- Big-unit A*: ``Map.path(..., size=k)`` on the Moving AI scenarios of the
  longest buckets, sizes 1, 2 and 3: median time a query, the one-off build of
  the footprint field, and how many scenarios each size can still solve.
- Influence: 500 units (two teams) on a 256 x 256 square-8 board with
  terrain costs 1..3 and 10 % walls, radius 16 and 32: ``Map.influence`` (one
  kernel call, a bounded Dijkstra a unit) against scipy's
  ``csgraph.dijkstra(limit=radius)`` from every unit on the same graph (built
  beforehand, not timed) followed by the same decay and sums in numpy; and the
  alternative design, one multi-source search a team
  (``Map.distance_field(max_cost=radius)``), which gives the nearest unit's
  influence only.
- Heightmap sight: ``Map.line_of_sight`` and ``Map.fov`` with
  ``elevation='heightmap'`` against the plain rules on a 256 x 256 board with
  a smooth random heightmap: microseconds a query.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "movingai"


def best(f, repeat: int) -> float:
    """Median seconds of ``repeat`` calls (one untimed call first)."""
    f()
    ts = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def bench_clearance(maps: list[str], repeat: int) -> None:
    from scipy import ndimage

    from wargrid import HexGrid, SquareGrid, load_movingai
    from wargrid.movement.clearance import _clearance_of

    print("\n== clearance maps vs scipy.ndimage distance transforms ==")
    print(f"{'board':<24}{'size':>11}{'wargrid ms':>12}{'cdt ms':>9}{'edt ms':>9}{'/cdt':>7}{'/edt':>7}")
    boards = []
    for name in maps:
        m = load_movingai(DATA / f"{name}.map")
        boards.append((name, m.grid, ~np.isfinite(m.costs(unit=m.unit_class(None)))))
    rng = np.random.default_rng(0)
    walls = rng.random((1024, 1024)) < 0.2
    boards.append(("random 20 % walls", SquareGrid(1024, 1024, diagonal=True), walls))
    for name, g, blocked in boards:
        tw = best(lambda: _clearance_of(g, blocked), repeat)
        tc = best(lambda: ndimage.distance_transform_cdt(~blocked, metric="chessboard"), repeat)
        te = best(lambda: ndimage.distance_transform_edt(~blocked), repeat)
        print(f"{name:<24}{g.width:>5} x {g.height:<5}{tw * 1e3:>10.2f}{tc * 1e3:>9.2f}{te * 1e3:>9.2f}"
              f"{tw / tc:>7.2f}{tw / te:>7.2f}")
    hx = HexGrid(1024, 1024)
    tw = best(lambda: _clearance_of(hx, walls), repeat)
    print(f"{'hex, random 20 % walls':<24}{1024:>5} x {1024:<5}{tw * 1e3:>10.2f}{'':>9}{'':>9}")


def bench_big_paths(maps: list[str], n: int, repeat: int) -> None:
    from wargrid import load_movingai, load_movingai_scenarios
    from wargrid.movement.clearance import footprint_costs

    print("\n== big-unit A*: Map.path(..., size=k) on Moving AI scenarios ==")
    print(f"{'map':<18}{'size':>5}{'build ms':>10}{'ms/query':>10}{'solved':>9}{'mean cost / size 1':>20}")
    for name in maps:
        m = load_movingai(DATA / f"{name}.map")
        scen = sorted(load_movingai_scenarios(DATA / f"{name}.map.scen"), key=lambda s: -s.optimal)[:n]
        base = None
        for k in (1, 2, 3):
            f = m.cost_field()
            tb = 0.0
            if k > 1:
                t = time.perf_counter()
                footprint_costs(m.grid, f, k)
                tb = time.perf_counter() - t
            got = [m.path(s.start, s.goal, size=k) for s in scen]  # warm (and the answers)
            times = []
            for s in scen:
                times.append(best(lambda: m.path(s.start, s.goal, size=k), max(1, repeat // 2)))
            costs = [p.cost for p in got if p is not None]
            if k == 1:
                base = {i: p.cost for i, p in enumerate(got) if p is not None}
            both = [got[i].cost / base[i] for i in range(len(got)) if got[i] is not None and i in base and base[i] > 0]
            ratio = f"{statistics.mean(both):.3f}" if both else "-"
            print(f"{name:<18}{k:>5}{tb * 1e3:>10.2f}{statistics.median(times) * 1e3:>10.3f}"
                  f"{len(costs):>5}/{len(scen):<3}{ratio:>20}")


def bench_influence(repeat: int, quick: bool) -> None:
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import dijkstra

    from wargrid import Map, SquareGrid

    print("\n== influence maps: 500 units on 256 x 256 ==")
    n_side = 128 if quick else 256
    rng = np.random.default_rng(1)
    g = SquareGrid(n_side, n_side, diagonal=True)
    m = Map(g)
    terr = rng.choice(["plains", "plains", "forest", "hills"], size=(n_side, n_side))
    walls = rng.random((n_side, n_side)) < 0.10
    for name in ("forest", "hills"):
        m.set_terrain([(int(x), int(y)) for y, x in zip(*np.nonzero(terr == name))], name)
    cells = [(int(x), int(y)) for y, x in zip(*np.nonzero(~walls))]
    m.set_terrain([(x, y) for y, x in zip(*np.nonzero(walls))], "mountains")
    cost = m.costs(unit="foot")
    picks = rng.choice(len(cells), size=500, replace=False)
    units = [(cells[i], "red" if j % 2 else "blue", float(rng.integers(1, 4))) for j, i in enumerate(picks)]
    # the same graph for scipy: one arc a step, weight step length x entry cost (corner rule as the board's)
    f = m.cost_field(unit="foot")
    t = g.topology
    ids = np.arange(g.size)
    ys, xs = np.divmod(ids, g.width)
    rows, cols, w = [], [], []
    for d in range(t.ndir):
        dx, dy = int(t.dx[0, d]), int(t.dy[0, d])
        nx, ny = xs + dx, ys + dy
        ok = (nx >= 0) & (nx < g.width) & (ny >= 0) & (ny < g.height)
        ok &= np.isfinite(cost[ys, xs])
        nxc, nyc = np.where(ok, nx, 0), np.where(ok, ny, 0)
        ok &= np.isfinite(cost[nyc, nxc])
        if dx and dy:
            ok &= np.isfinite(cost[ys, np.clip(xs + dx, 0, g.width - 1)]) & np.isfinite(cost[np.clip(ys + dy, 0, g.height - 1), xs])
        rows.append(ids[ok])
        cols.append((nyc * g.width + nxc)[ok])
        w.append(float(t.step[d]) * cost[nyc, nxc][ok])
    graph = csr_matrix((np.concatenate(w), (np.concatenate(rows), np.concatenate(cols))), shape=(g.size, g.size))
    src = np.array([y * g.width + x for (x, y), _, _ in units])
    team = np.array([0 if tm == "red" else 1 for _, tm, _ in units])
    strength = np.array([s for _, _, s in units])
    print(f"{'radius':>7}{'wargrid ms':>12}{'scipy ms':>10}{'ratio':>8}{'max diff':>10}{'per-team fields ms':>20}"
          f"{'sight ms':>10}")
    for radius in (16.0, 32.0):
        rad = radius * f.min_cost

        def scipy_influence() -> np.ndarray:
            out = np.zeros((2, g.size))
            for lo in range(0, len(src), 50):
                dist = dijkstra(graph, indices=src[lo:lo + 50], limit=rad)
                wgt = np.where(dist < rad, 1.0 - dist / rad, 0.0) * strength[lo:lo + 50, None]
                for k in (0, 1):
                    out[k] += wgt[team[lo:lo + 50] == k].sum(axis=0)
            return out

        inf = m.influence(units, radius=rad, unit="foot")
        tw = best(lambda: m.influence(units, radius=rad, unit="foot"), repeat)
        ts = best(scipy_influence, max(1, repeat // 2))
        ref = scipy_influence()
        diff = float(np.abs(inf.values.reshape(2, -1)[[inf.teams.index("red"), inf.teams.index("blue")]] - ref).max())
        red = [c for c, tm, _ in units if tm == "red"]
        blue = [c for c, tm, _ in units if tm == "blue"]
        tt = best(lambda: (m.distance_field(red, unit="foot", max_cost=rad), m.distance_field(blue, unit="foot", max_cost=rad)),
                  repeat)
        tv = best(lambda: m.influence(units, radius=rad, unit="foot", sight=True), max(1, repeat // 2))
        print(f"{radius:>7g}{tw * 1e3:>12.1f}{ts * 1e3:>10.1f}{tw / ts:>8.3f}{diff:>10.1e}{tt * 1e3:>20.1f}{tv * 1e3:>10.1f}")
    print(f"({n_side} x {n_side}, radius in cells of plains: x{f.min_cost:g} movement points; settled cells at the "
          f"last radius: {inf.settled})")


def bench_heights(repeat: int, quick: bool) -> None:
    from scipy import ndimage

    from wargrid import HexGrid, Map, SquareGrid

    print("\n== heightmap sight: microseconds a query ==")
    n = 128 if quick else 256
    rng = np.random.default_rng(2)
    elev = ndimage.gaussian_filter(rng.random((n, n)), 6) * 400.0
    print(f"{'board':<12}{'los hm':>9}{'los plain':>11}{'fov r8 hm':>11}{'fov r8':>9}{'fov r16 hm':>12}{'fov r16':>9}")
    for name, g in (("square-8", SquareGrid(n, n, diagonal=True)), ("hex", HexGrid(n, n))):
        m = Map(g)
        m.set_elevation(elev)
        pairs = [((int(rng.integers(n)), int(rng.integers(n))), (int(rng.integers(n)), int(rng.integers(n)))) for _ in range(200)]
        pairs = [(a, (min(n - 1, a[0] + (b[0] - a[0]) // 4), min(n - 1, a[1] + (b[1] - a[1]) // 4))) for a, b in pairs]
        origins = [a for a, _ in pairs[:40]]

        def per(f, items):
            f(*items[0])
            t = time.perf_counter()
            for it in items:
                f(*it)
            return (time.perf_counter() - t) / len(items) * 1e6

        row = [per(lambda a, b: m.line_of_sight(a, b, elevation="heightmap", viewer_height=2.0), pairs),
               per(lambda a, b: m.line_of_sight(a, b), pairs)]
        for r in (8, 16):
            row.append(per(lambda o: m.fov(o, radius=r, elevation="heightmap", viewer_height=2.0), [(o,) for o in origins]))
            row.append(per(lambda o: m.fov(o, radius=r), [(o,) for o in origins]))
        print(f"{name:<12}{row[0]:>9.1f}{row[1]:>11.1f}{row[2]:>11.1f}{row[3]:>9.1f}{row[4]:>12.1f}{row[5]:>9.1f}")
    print("(line of sight between cells about n/8 apart on average; fov from 40 random origins)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--maps", nargs="*", default=["arena", "AR0602SR", "random512-20-0", "maze512-4-0"])
    ap.add_argument("--scenarios", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="smaller boards, fewer scenarios")
    args = ap.parse_args()
    maps = args.maps[:2] if args.quick else args.maps
    bench_clearance(maps, args.repeat)
    bench_big_paths(maps, 5 if args.quick else args.scenarios, args.repeat)
    bench_influence(args.repeat, args.quick)
    bench_heights(args.repeat, args.quick)


if __name__ == "__main__":
    main()
