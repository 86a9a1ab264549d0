"""Territory benchmark: wargrid's partitions against METIS (pymetis), in one run, as ratios.

Run by hand from the repository root (peer: ``pip install pymetis``, listed in
``benchmarks/requirements.txt``)::

    python benchmarks/bench_territory.py
    python benchmarks/bench_territory.py --size 128 --players 8 --repeat 7

Sections:

- **compact**: ``wargrid.territory.partition(mode='compact')`` against
  ``pymetis.part_graph`` (k-way, default options, and with ``contig=1``) on the
  same land graph (built once, not timed), on a full hex board, on one with
  20 % water and on one whose cells weigh 1 to 9 (METIS ``vweights``), with
  ``--players``; then 12 and 16 players, where METIS is only near-balanced. Times are the median of ``--repeat`` runs, interleaved so both
  see the same machine load; the ratio is wargrid / METIS (below 1: wargrid is
  faster). Balance is ``max - min`` cells (summed weight on the weighted board,
  where wargrid promises at most the largest weight, 9) and ``max / mean``; cut is the number
  of touching pairs of cells owned by different players; pieces counts connected
  pieces (one per player is best).
- **scattered**: cap 4 on a 20 x 20 board (400 cells) for 8 players, every
  start method and the default, on hex, square-4, square-8 and staggered
  boards, over ``--seeds`` seeds: how often it succeeds, median and worst time,
  the largest chunk and the mean chunk size (cells a chunk, averaged over the
  successful seeds; the default, ``auto``, aims at >= 0.6 * cap on open boards).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from wargrid import HexGrid, SquareGrid, StaggeredGrid
from wargrid.territory import PartitionError, partition
from wargrid.territory._graph import land_graph
from wargrid.territory.chunks import METHODS


def csr(graph) -> tuple[np.ndarray, np.ndarray]:
    ok = graph.nbr >= 0
    xadj = np.concatenate(([0], np.cumsum(ok.sum(axis=1)))).astype(np.int64)
    return xadj, graph.nbr[ok].astype(np.int64)


def cut(graph, owner: np.ndarray) -> int:
    ok = graph.nbr >= 0
    other = owner[np.where(ok, graph.nbr, 0)]
    return int(((owner[:, None] != other) & ok).sum() // 2)


def pieces(graph, owner: np.ndarray) -> int:
    from wargrid._kernels.territory.graph import label_chunks

    return int(label_chunks(graph.nbr, np.asarray(owner, dtype=np.int64))[1].size)


def balance(owner: np.ndarray, players: int, weights: np.ndarray | None = None) -> tuple[int, float]:
    c = np.bincount(owner, weights=weights, minlength=players)
    return int(c.max() - c.min()), float(c.max() / c.mean())


def compact_section(size: int, players: int, repeat: int) -> None:
    try:
        import pymetis
    except ImportError:
        print("pymetis: not installed (pip install pymetis)")
        pymetis = None
    rng = np.random.default_rng(1)
    full = np.ones((size, size), bool)
    resources = rng.integers(1, 10, size=(size, size))
    water = rng.random((size, size)) >= 0.2
    boards = {
        f"hex {size}x{size}": (HexGrid(size, size), full, None, players),
        f"hex {size}x{size}, 20% water": (HexGrid(size, size), water, None, players),
        f"hex {size}x{size}, weights 1-9": (HexGrid(size, size), full, resources, players),
        f"hex {size}x{size}, 12 players": (HexGrid(size, size), full, None, 12),
        f"hex {size}x{size}, water, 16 pl.": (HexGrid(size, size), water, None, 16),
    }
    print(f"\n== compact: {players} players (unless the board says otherwise) ==")
    head = f"{'board':28} {'who':22} {'time ms':>9} {'ratio':>7} {'max-min':>8} {'max/mean':>9} {'cut':>6} {'pieces':>7}"
    print(head)
    for name, (grid, passable, weights, players) in boards.items():
        g = land_graph(grid, passable)
        xadj, adjncy = csr(g)
        vw = None if weights is None else weights.ravel()[g.cells].astype(np.int64)
        partition(grid, players, passable=passable, weights=weights)  # compile
        runs: dict[str, list[float]] = {"wargrid": [], "metis": [], "metis contiguous": []}
        outs: dict[str, np.ndarray] = {}
        for _ in range(repeat):
            t0 = time.perf_counter()
            p = partition(grid, players, passable=passable, weights=weights)
            runs["wargrid"].append(time.perf_counter() - t0)
            outs["wargrid"] = p.owners.ravel()[g.cells]
            if pymetis is None:
                continue
            for label, contiguous in (("metis", False), ("metis contiguous", True)):
                adj = pymetis.CSRAdjacency(xadj, adjncy)
                opts = pymetis.Options(contig=1) if contiguous else None
                t0 = time.perf_counter()
                try:
                    res = pymetis.part_graph(
                        players, adjacency=adj, vweights=None if vw is None else vw.tolist(), options=opts
                    )
                except Exception:  # METIS refuses contiguity on disconnected land
                    outs[label] = None
                    continue
                runs[label].append(time.perf_counter() - t0)
                outs[label] = np.asarray(res[1], dtype=np.int64)
        base = statistics.median(runs["metis"]) if runs["metis"] else float("nan")
        for who, ts in runs.items():
            if not ts or outs.get(who) is None:
                if who in outs:
                    print(f"{name:28} {who:22} failed (METIS refuses contiguity on land in pieces)")
                continue
            t = statistics.median(ts)
            mm, ratio = balance(outs[who], players, vw)
            r = t / base if base == base else float("nan")
            print(
                f"{name:28} {who:22} {t * 1e3:9.2f} {r:7.2f} {mm:8d} {ratio:9.4f} "
                f"{cut(g, outs[who]):6d} {pieces(g, outs[who]):7d}"
            )
    print("ratio = time / METIS default time (below 1: faster than METIS)")


def scattered_section(players: int, cap: int, side: int, seeds: int) -> None:
    boards = {
        "hex": HexGrid(side, side),
        "square-4": SquareGrid(side, side),
        "square-8": SquareGrid(side, side, diagonal=True),
        "staggered": StaggeredGrid(side, side),
    }
    print(f"\n== scattered: cap {cap}, {side}x{side} = {side * side} cells, {players} players, {seeds} seeds ==")
    print(f"{'board':10} {'method':10} {'ok':>6} {'median ms':>10} {'worst ms':>9} {'largest':>8} {'mean chunk':>11}")
    for name, grid in boards.items():
        for method in METHODS + ("auto",):
            try:
                partition(grid, players, mode="scattered", max_chunk=cap, method=method)  # compile
            except PartitionError:
                pass
            ts = []
            ok = 0
            largest = 0
            means = []
            for s in range(seeds):
                t0 = time.perf_counter()
                try:
                    p = partition(grid, players, mode="scattered", max_chunk=cap, method=method, seed=s)
                    ok += 1
                    largest = max(largest, int(p.report.largest_chunk.max()))
                    means.append(p.report.mean_chunk)
                except PartitionError:
                    pass
                ts.append(time.perf_counter() - t0)
            print(
                f"{name:10} {method:10} {ok:3d}/{seeds:<2d} {statistics.median(ts) * 1e3:10.2f} "
                f"{max(ts) * 1e3:9.2f} {largest:8d} {statistics.mean(means) if means else float('nan'):11.2f}"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=128, help="side of the compact boards")
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=7, help="timed runs per partitioner (median kept)")
    ap.add_argument("--seeds", type=int, default=20, help="seeds per scattered method")
    args = ap.parse_args()
    compact_section(args.size, args.players, args.repeat)
    scattered_section(args.players, 4, 20, args.seeds)


if __name__ == "__main__":
    main()
