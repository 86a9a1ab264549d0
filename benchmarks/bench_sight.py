"""Sight: wargrid's symmetric shadowcasting against tcod's, same boards, same run.

    python benchmarks/bench_sight.py [--quick]

Prints, for 128x128 and 1024x1024 boards (20% random walls) and radius 8 and
20: microseconds per field of view for wargrid (``Map.fov``, the public call)
and tcod (``tcod.map.compute_fov`` with ``FOV_SYMMETRIC_SHADOWCAST``), the
ratio tcod / wargrid (> 1: wargrid faster), how often the two views agree
(tcod's radius leaves out the cells at exactly distance r, so those are set
aside; tcod also lights a few more cells than the published algorithm, which
wargrid follows exactly), and the number of asymmetric pairs of floor cells
each produces among all origins in a 25x25 block. Then radius 10 on 64x64 and
4096x4096 (cost must follow the radius, not the board), hex views for scale
(no peer), and a fog-of-war tick with 200 units moving on 512x512.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from wargrid import Map, SquareGrid, TerrainTable

try:
    import tcod.constants
    import tcod.map
except ImportError:  # pragma: no cover - tcod is a benchmark-only dependency
    tcod = None


def make_map(side: int, seed: int = 1, density: float = 0.2) -> tuple[Map, np.ndarray]:
    rng = np.random.default_rng(seed)
    walls = rng.random((side, side)) < density
    table = TerrainTable.default()
    terrain = np.where(walls, table.index("mountains"), table.index("plains")).astype(np.int16)
    return Map(SquareGrid(side, side), terrain=terrain), walls


def best_of(fn, origins, repeat: int) -> float:
    """Microseconds per call, best of ``repeat`` passes over ``origins``."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for o in origins:
            fn(o)
        best = min(best, time.perf_counter() - t0)
    return best / len(origins) * 1e6


def asymmetric_pairs(view, origins, walls) -> int:
    """Pairs (a, b) of floor cells among ``origins`` where a sees b but b does not see a."""
    views = {o: view(o) for o in origins}
    bad = 0
    for a, va in views.items():
        for b, vb in views.items():
            if a < b and va[b[1], b[0]] != vb[a[1], a[0]]:
                bad += 1
    return bad


def compare(side: int, radius: int, calls: int, repeat: int) -> None:
    m, walls = make_map(side)
    transparency = ~walls
    rng = np.random.default_rng(7)
    floors = np.argwhere(~walls)
    pick = floors[rng.integers(len(floors), size=calls)]
    origins = [(int(x), int(y)) for y, x in pick]

    def ours(o):
        return m.fov(o, radius=radius)

    def theirs(o):
        return tcod.map.compute_fov(transparency, (o[1], o[0]), radius=radius, light_walls=True,
                                    algorithm=tcod.constants.FOV_SYMMETRIC_SHADOWCAST)

    ours(origins[0])  # compile / load from the cache
    t_ours = best_of(ours, origins, repeat)
    t_theirs = best_of(theirs, origins, repeat)
    # tcod's radius leaves out the cells at exactly distance r (x^2 + y^2 == r^2): drop them from ours to compare
    yy, xx = np.mgrid[0:side, 0:side]
    same, diff = 0, 0
    for o in origins[:50]:
        ring = (xx - o[0]) ** 2 + (yy - o[1]) ** 2 == radius * radius
        d = int((np.where(ring, False, ours(o)) != theirs(o)).sum())
        same += d == 0
        diff += d
    # a block of floor cells near the centre for the symmetry count
    c = side // 2
    block = [(int(x), int(y)) for y, x in floors if abs(x - c) <= 12 and abs(y - c) <= 12]
    asym_ours = asymmetric_pairs(ours, block, walls)
    asym_theirs = asymmetric_pairs(theirs, block, walls)
    print(f"{side:>5}x{side:<5} r={radius:<3} wargrid {t_ours:8.1f} us   tcod {t_theirs:8.1f} us   "
          f"tcod/wargrid {t_theirs / t_ours:5.2f}   same view {same}/50 (cells differing {diff / 50:.1f} per view)   "
          f"asymmetric pairs ({len(block)} origins): wargrid {asym_ours}, tcod {asym_theirs}")


def board_independence(repeat: int) -> None:
    for side in (64, 4096):
        m, walls = make_map(side, seed=3)
        c = side // 2
        origins = [(c + dx, c + dy) for dx in range(-5, 5) for dy in range(-5, 5) if not walls[c + dy, c + dx]]
        m.fov(origins[0], radius=10)
        from wargrid.sight.fov import visible_cells

        board = m.derived.sight_board(False)
        t_ids = best_of(lambda o: visible_cells(board, o, radius=10), origins, repeat)
        t_arr = best_of(lambda o: m.fov(o, radius=10), origins, repeat)
        print(f"radius 10 on {side}x{side}: visible cell ids {t_ids:7.1f} us   Map.fov (allocates the "
              f"{side}x{side} answer) {t_arr:9.1f} us")


def hex_views(repeat: int) -> None:
    """Hex boards have no peer here: wargrid's own times, for scale."""
    from wargrid import HexGrid

    for side in (128, 1024):
        rng = np.random.default_rng(2)
        walls = rng.random((side, side)) < 0.2
        table = TerrainTable.default()
        terrain = np.where(walls, table.index("mountains"), table.index("plains")).astype(np.int16)
        m = Map(HexGrid(side, side), terrain=terrain)
        floors = np.argwhere(~walls)
        origins = [(int(x), int(y)) for y, x in floors[rng.integers(len(floors), size=100)]]
        m.fov(origins[0], radius=8)
        for radius in (8, 20):
            t = best_of(lambda o: m.fov(o, radius=radius), origins, repeat)
            print(f"hex {side}x{side} r={radius}: wargrid {t:8.1f} us per view (no peer)")


def fog_tick(units: int, ticks: int) -> None:
    m, walls = make_map(512, seed=5)
    fog = m.fog(["red", "blue"], radius=8)
    rng = np.random.default_rng(11)
    floors = np.argwhere(~walls)
    start = floors[rng.choice(len(floors), size=units, replace=False)]
    pos = {}
    for u, (y, x) in enumerate(start):
        pos[u] = (int(x), int(y))
        fog.place(u, "red" if u % 2 else "blue", pos[u])
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)]
    times = []
    for _ in range(ticks):
        moves = {}
        for u, (x, y) in pos.items():
            dx, dy = steps[int(rng.integers(8))]
            nx, ny = x + dx, y + dy
            if 0 <= nx < 512 and 0 <= ny < 512 and not walls[ny, nx]:
                moves[u] = pos[u] = (nx, ny)
        t0 = time.perf_counter()
        fog.move_many(moves)
        fog.tick()
        times.append(time.perf_counter() - t0)
    print(f"fog of war, {units} units moving one step per tick on 512x512, radius 8: "
          f"{np.median(times) * 1e3:.2f} ms per tick (median of {ticks})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer calls (a smoke run)")
    args = ap.parse_args()
    calls, repeat = (50, 2) if args.quick else (400, 5)
    if tcod is None:
        print("tcod is not installed (pip install tcod): skipping the comparison")
    else:
        for side in (128, 1024):
            for radius in (8, 20):
                compare(side, radius, calls, repeat)
    board_independence(repeat)
    hex_views(repeat)
    fog_tick(200, 20 if args.quick else 100)


if __name__ == "__main__":
    main()
