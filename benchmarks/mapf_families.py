"""Moving AI ``.map`` analogues of the MAPF benchmark's map families, generated (seeded), for ``bench_crowd.py --map``.

The benchmark's own maps are not in the shared data; these stand in for the
held-out maps a crowd is checked on: open boards (empty-32-32, empty-48-48),
random walls (random-32-32-20, random-64-64-10/20), mazes with corridors one,
two or four cells wide and walls one wide (maze-32-32-2/4, maze-128-128-1/2,
perfect mazes: one way between two cells), rooms joined by one-cell doors
(room-32-32-4, room-64-64-8: a spanning tree of doors and half the other
walls with a door), warehouses (warehouse-10-20-10-2-1/2: 20 rows of 10
shelves 10 long, one or two deep, aisles 2 wide, open ends 21 or 25 wide),
caves (den312d-like 81 x 65, ost003d-like 194 x 194: ``bench_crowd.cave``)
and open-256 (256 x 256, 2 % walls at random). Writes ``FAMILY.map`` files
into the folder given::

    python benchmarks/mapf_families.py /tmp/families
    PYTHONPATH=src python benchmarks/bench_crowd.py --agents "" --map /tmp/families/maze-32-32-4.map --random-pairs 50,100,200 --seed 0
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from bench_crowd import cave


def write(folder: Path, name: str, wall: np.ndarray) -> None:
    """``wall`` (True: '@') as a Moving AI map ``folder/name.map``."""
    h, w = wall.shape
    rows = "".join("".join("@" if c else "." for c in r) + "\n" for r in wall)
    (folder / f"{name}.map").write_text(f"type octile\nheight {h}\nwidth {w}\nmap\n{rows}", encoding="utf-8")


def random_walls(w: int, h: int, p: float, seed: int) -> np.ndarray:
    """A fraction ``p`` of the cells walls, drawn by ``seed``."""
    wall = np.zeros((h, w), dtype=bool)
    wall.flat[np.random.default_rng(seed).choice(w * h, int(round(p * w * h)), replace=False)] = True
    return wall


def maze(w: int, h: int, corridor: int, seed: int) -> np.ndarray:
    """A perfect maze (depth-first, by ``seed``): corridors ``corridor`` cells wide, walls one wide."""
    rng = np.random.default_rng(seed)
    s = corridor + 1
    cw, ch = (w - 1) // s, (h - 1) // s
    wall = np.ones((h, w), dtype=bool)
    seen = np.zeros((ch, cw), dtype=bool)
    seen[0, 0] = True
    wall[1: 1 + corridor, 1: 1 + corridor] = False
    stack = [(0, 0)]
    while stack:
        cx, cy = stack[-1]
        nb = [(cx + dx, cy + dy, dx, dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
              if 0 <= cx + dx < cw and 0 <= cy + dy < ch and not seen[cy + dy, cx + dx]]
        if not nb:
            stack.pop()
            continue
        nx, ny, dx, dy = nb[rng.integers(len(nb))]
        seen[ny, nx] = True
        wall[1 + ny * s: 1 + ny * s + corridor, 1 + nx * s: 1 + nx * s + corridor] = False
        x0, y0 = 1 + min(cx, nx) * s, 1 + min(cy, ny) * s  # the wall between the two
        if dx:
            wall[y0: y0 + corridor, x0 + corridor] = False
        else:
            wall[y0 + corridor, x0: x0 + corridor] = False
        stack.append((nx, ny))
    return wall


def rooms(w: int, h: int, side: int, seed: int, extra: float = 0.5) -> np.ndarray:
    """Rooms ``side - 1`` cells wide inside walls one wide; a door of one cell in the walls of a spanning tree of
    the rooms, and in each other wall with probability ``extra``."""
    rng = np.random.default_rng(seed)
    cw, ch = (w - 1) // side, (h - 1) // side
    wall = np.zeros((h, w), dtype=bool)
    wall[:, ::side] = True
    wall[::side, :] = True
    wall[:, cw * side:] = True
    wall[ch * side:, :] = True
    edges = [((x, y), (x + 1, y)) for y in range(ch) for x in range(cw - 1)] + \
            [((x, y), (x, y + 1)) for y in range(ch - 1) for x in range(cw)]
    rng.shuffle(edges)
    parent: dict[tuple[int, int], tuple[int, int]] = {}

    def root(a: tuple[int, int]) -> tuple[int, int]:
        while parent.get(a, a) != a:
            a = parent[a]
        return a

    for a, b in edges:
        ra, rb = root(a), root(b)
        door = ra != rb or rng.random() < extra
        if ra != rb:
            parent[ra] = rb
        if door:
            (x, y), (x2, _) = a, b
            k = 1 + int(rng.integers(side - 1))
            if x2 > x:
                wall[y * side + k, (x + 1) * side] = False
            else:
                wall[(y + 1) * side, x * side + k] = False
    return wall


def warehouse(shelf: int, rows: int, cols: int, aisle: int, depth: int, margin: int) -> np.ndarray:
    """``rows`` x ``cols`` shelves ``shelf`` long and ``depth`` deep, aisles ``aisle`` wide, open ends ``margin``."""
    wall = np.zeros((rows * depth + (rows + 1) * aisle, 2 * margin + cols * shelf + (cols - 1) * aisle), dtype=bool)
    for r in range(rows):
        y = aisle + r * (depth + aisle)
        for c in range(cols):
            x = margin + c * (shelf + aisle)
            wall[y: y + depth, x: x + shelf] = True
    return wall


def families() -> dict[str, np.ndarray]:
    """Each family's walls, by name."""
    def caves(w: int, h: int, seed: int) -> np.ndarray:
        return np.asarray(cave(w, h, seed).terrain) != 0

    return {
        "empty-32-32": np.zeros((32, 32), dtype=bool), "empty-48-48": np.zeros((48, 48), dtype=bool),
        "random-32-32-20": random_walls(32, 32, 0.2, 1), "random-64-64-10": random_walls(64, 64, 0.1, 2),
        "random-64-64-20": random_walls(64, 64, 0.2, 3),
        "maze-32-32-2": maze(32, 32, 2, 4), "maze-32-32-4": maze(32, 32, 4, 5),
        "maze-128-128-1": maze(128, 128, 1, 6), "maze-128-128-2": maze(128, 128, 2, 7),
        "room-32-32-4": rooms(32, 32, 4, 8), "room-64-64-8": rooms(64, 64, 8, 9),
        "warehouse-10-20-10-2-1": warehouse(10, 20, 10, 2, 1, 21), "warehouse-10-20-10-2-2": warehouse(10, 20, 10, 2, 2, 25),
        "den312d-like": caves(81, 65, 10), "ost003d-like": caves(194, 194, 11), "open-256": random_walls(256, 256, 0.02, 12),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", default="mapf-families", help="where the .map files go (made if missing)")
    folder = Path(ap.parse_args().folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name, wall in families().items():
        write(folder, name, wall)
        print(f"{folder / name}.map: {wall.shape[1]} x {wall.shape[0]}, {int((~wall).sum())} open cells")


if __name__ == "__main__":
    main()
