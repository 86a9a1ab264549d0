"""The crowd rule's distance tables in the simulation: tiled layout, a search bounded by a budget, exact bounds."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import Map, SquareGrid
from wargrid._kernels import load
from wargrid.io import MOVINGAI_TERRAINS
from wargrid.rts import LEPTONS_PER_CELL, Simulation
from wargrid.rts.crowd import lazy_tables
from wargrid.rts.sim import TILE, _tiles


def test_the_crowd_rule_is_the_default_and_can_be_turned_off() -> None:
    m = Map(SquareGrid(6, 3))
    assert Simulation(m).crowd is True
    assert Simulation(m, crowd=False).crowd is False


def test_small_boards_keep_the_cells_order() -> None:
    node, cell = _tiles(10, 7)
    assert node.tolist() == list(range(70)) and cell.tolist() == list(range(70))


def test_tiles_literal() -> None:
    """A 34 x 34 padded board: 2 x 2 tiles of 32 x 32; cell (x, y) = (32, 0) is the first of the second tile."""
    node, cell = _tiles(34, 34)
    assert len(cell) == 4 * TILE * TILE
    assert node[0 * 34 + 32] == 1024 and node[0 * 34 + 33] == 1025 and cell[1025] == 33
    assert node[1 * 34 + 0] == TILE
    assert node[32 * 34 + 0] == 2 * TILE * TILE


@given(st.integers(1, 90), st.integers(1, 90))
def test_tiles_are_a_permutation_of_the_cells(pw: int, ph: int) -> None:
    node, cell = _tiles(pw, ph)
    assert len(node) == pw * ph
    assert (cell[node] == np.arange(pw * ph)).all()
    assert sorted(cell[cell >= 0].tolist()) == list(range(pw * ph))


def _graph(walls: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """The 4-connected graph of the open cells of ``walls`` (padded: a ring of walls), its coordinates, metric 1."""
    h, w = walls.shape
    pw = w + 2
    open_ = np.zeros((h + 2, pw), dtype=bool)
    open_[1:-1, 1:-1] = ~walls
    flat = open_.ravel()
    nbr = np.full((flat.size, 4), -1, dtype=np.int32)
    for p in np.flatnonzero(flat):
        for d, q in enumerate((p - pw, p + 1, p + pw, p - 1)):
            if flat[q]:
                nbr[p, d] = q
    xy = np.stack([np.arange(flat.size) % pw, np.arange(flat.size) // pw], axis=1).astype(np.int32)
    return nbr, xy, 1


def _bfs(nbr: np.ndarray, goal: int) -> np.ndarray:
    dist = np.full(nbr.shape[0], -1, dtype=np.int64)
    dist[goal] = 0
    q = deque([goal])
    while q:
        v = q.popleft()
        for u in nbr[v]:
            if u >= 0 and dist[u] < 0:
                dist[u] = dist[v] + 1
                q.append(int(u))
    return dist


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 40))
def test_a_search_cut_by_a_budget_resumes_to_the_exact_distances(seed: int, step: int) -> None:
    """``settle_within`` stops after ``step`` more nodes each call; asked again and again, every answer is the
    breadth-first oracle's (and ``settle`` is the unbounded search)."""
    rng = np.random.default_rng(seed)
    walls = rng.random((9, 11)) < 0.25
    walls[0, 0] = False
    nbr, xy, metric = _graph(walls)
    goal = 1 * 13 + 1
    oracle = _bfs(nbr, goal)
    k = load("rts.lazydist")
    targets = np.flatnonzero(oracle >= 0)
    lz = lazy_tables(nbr.shape[0], xy, np.array([goal]), np.array([int(targets[-1])]), np.array([metric]), huge=False)
    for v in rng.permutation(np.flatnonzero(nbr.max(axis=1) >= 0))[:12].tolist():
        got = -1
        for _ in range(nbr.shape[0] + 1):
            got = k.settle_within(lz, nbr, 0, v, lz.free[2] + step)
            if got >= 0:
                break
        want = oracle[v] if oracle[v] >= 0 else k.UNREACHABLE
        assert got == want
        assert k.settle(lz, nbr, 0, v) == want


CAVE = ["..........",
        ".@@@@.@@..",
        ".@......@.",
        ".@.@@@@.@.",
        "...@..@...",
        ".@.@..@.@.",
        ".@......@.",
        ".@@@.@@@@.",
        ".........."]


def _cave() -> Map:
    terrain = np.array([[3 if c == "@" else 0 for c in r] for r in CAVE], dtype=np.int16)
    return Map(SquareGrid(len(CAVE[0]), len(CAVE)), terrain=terrain, terrains=MOVINGAI_TERRAINS)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 1000))
def test_the_tables_the_rule_searched_hold_exact_distances(seed: int) -> None:
    """Whatever the tick's bounds answered without searching, every distance the tables settled is the oracle's
    (the graph over tiles' nodes is the board's, renumbered)."""
    m = _cave()
    rng = np.random.default_rng(seed)
    free = [(x, y) for y, r in enumerate(CAVE) for x, c in enumerate(r) if c == "."]
    pick = rng.choice(len(free), 24, replace=False)
    sim = Simulation(m, seed=seed)
    for a, b in zip(pick[:12].tolist(), pick[12:].tolist()):
        sim.add_unit(free[a], unit="walk", goal=free[b], speed=LEPTONS_PER_CELL)
    sim.run(60)
    cr = sim._crowd
    assert cr.lz is not None and cr.gnode is not None
    for key, row in cr.rows.items():
        cls = cr.row_class[row]
        g = cr.gnode[cls]
        oracle = _bfs(g, int(cr.node[cr.row_target[row]]))
        got = cr.lz.dist[row].astype(np.int64)
        seen = got > 0
        assert (got[seen] - 1 == oracle[seen]).all()


@pytest.mark.slow  # the only fast test of the int32 tables: a second compile of the whole crowd rule (~10 CPU s cold)
def test_distances_in_int32_give_the_same_run() -> None:
    """The tables of boards of more than 65 000 cells (int32) and of smaller ones (uint16) move units alike
    (the fast tests run the rule on the uint16 tables)."""
    runs = []
    for wide in (False, True):
        sim = Simulation(_cave(), seed=3)
        sim._crowd.wide = wide
        for a, b in (((0, 0), (9, 8)), ((9, 8), (0, 0)), ((0, 8), (9, 0)), ((9, 0), (0, 8))):
            sim.add_unit(a, unit="walk", goal=b, speed=LEPTONS_PER_CELL)
        sim.run(200)
        runs.append((sim.tick, sim.cells().tolist()))
        assert sim._crowd.lz is not None and sim._crowd.lz.dist.dtype == (np.int32 if wide else np.uint16)
    assert runs[0] == runs[1]


def test_the_budget_widens_only_where_the_answers_exceed_their_lower_bounds() -> None:
    """``detour`` sums the searched answers' coordinate lower bounds and the answers (``simcrowd.WIDE_BUDGET``): on
    open ground they are equal (the tick's budget stays ``SEARCH_BUDGET``), round a wall the answers are longer by
    more than a sixteenth (the budget widens)."""
    sums = []
    pairs = ((0, 0), (9, 0), (9, 0), (0, 0), (0, 1), (9, 1), (9, 1), (0, 1), (1, 0), (8, 1), (8, 0), (1, 1))
    for wall in (False, True):
        terrain = np.zeros((9, 10), dtype=np.int16)
        terrain[:8, 5] = 3 if wall else 0  # a wall with a gap at the bottom
        sim = Simulation(Map(SquareGrid(10, 9), terrain=terrain, terrains=MOVINGAI_TERRAINS), seed=3)
        for a, b in zip(pairs[::2], pairs[1::2]):
            sim.add_unit(a, unit="walk", goal=b, speed=LEPTONS_PER_CELL)
        sim.run(200)
        assert (sim.cells() == np.array(pairs[1::2])).all()
        sums.append(sim._crowd.detour.tolist())
    (open_low, open_got), (wall_low, wall_got) = sums
    assert open_low > 0 and open_got == open_low
    assert wall_got * 16 > wall_low * 17
