"""Compact partitions: exact balance, passable land, connected regions, reports."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from territory_oracles import boards, make_grid, pieces, steps, zones, KINDS

from wargrid import HexGrid, Map, SquareGrid
from wargrid.territory import InfeasibleError, partition


def _check_common(grid, passable, p, players):
    owners = p.owners
    assert owners.shape == grid.shape
    land = passable & grid.mask
    assert ((owners >= 0) == land).all()  # every owned cell passable, all land owned
    assert owners.max() < players
    counts = np.bincount(owners[owners >= 0], minlength=players)
    assert counts.max() - counts.min() <= 1
    assert p.report.cells.tolist() == counts.tolist()
    pcs = pieces(grid, owners)
    assert p.report.chunks.tolist() == [len(pcs.get(k, [])) for k in range(players)]
    assert p.report.largest_chunk.tolist() == [pcs[k][0] if k in pcs else 0 for k in range(players)]
    for k, (x, y) in enumerate(p.report.starts):
        assert owners[y, x] == k
    assert p.report.balanced


@settings(max_examples=60)
@given(board=boards(), players=st.integers(1, 6), seed=st.integers(0, 3))
def test_compact_balanced_on_any_board(board, players, seed):
    grid, passable = board
    n = int((passable & grid.mask).sum())
    if players > n:
        with pytest.raises(InfeasibleError, match="players need"):
            partition(grid, players, passable=passable, seed=seed)
        return
    p = partition(grid, players, passable=passable, seed=seed)
    _check_common(grid, passable, p, players)
    q = partition(grid, players, passable=passable, seed=seed)
    assert np.array_equal(p.owners, q.owners)


@settings(max_examples=60)
@given(
    kind=st.sampled_from(KINDS),
    w=st.integers(2, 12),
    h=st.integers(2, 12),
    players=st.integers(1, 7),
    seed=st.integers(0, 3),
)
def test_compact_regions_connected_on_connected_land(kind, w, h, players, seed):
    if kind in ("odd-q", "even-q", "stagger-cols") and w % 2:
        w += 1
    grid = make_grid(kind, w, h)
    passable = np.ones((h, w), dtype=bool)
    players = min(players, w * h)
    p = partition(grid, players, passable=passable, seed=seed)
    _check_common(grid, passable, p, players)
    assert p.report.chunks.tolist() == [1] * players


def test_islands_get_players_in_proportion():
    # two islands of 12 and 4 cells and 4 players: 3 players on the big one, 1 on the small
    passable = np.zeros((4, 9), dtype=bool)
    passable[:, :3] = True
    passable[:, 8] = True
    grid = SquareGrid(9, 4)
    p = partition(grid, 4, passable=passable)
    assert p.report.cells.tolist() == [4, 4, 4, 4]
    assert p.report.chunks.tolist() == [1, 1, 1, 1]
    assert len(set(p.owners[:, 8].tolist())) == 1
    assert set(p.owners[:, :3].ravel().tolist()) == {0, 1, 2, 3} - set(p.owners[:, 8].tolist())


def test_a_small_island_goes_to_a_light_player_and_balance_holds():
    passable = np.zeros((3, 8), dtype=bool)
    passable[:, :5] = True  # 15 cells
    passable[1, 7] = True  # an island of one cell
    p = partition(SquareGrid(8, 3), 2, passable=passable)
    assert sorted(p.report.cells.tolist()) == [8, 8]
    assert sorted(p.report.chunks.tolist()) == [1, 2]


@pytest.mark.slow
def test_weights_balance_within_the_largest_weight():
    rng = np.random.default_rng(5)
    weights = rng.integers(0, 6, size=(10, 12)).astype(float)
    grid = HexGrid(12, 10)
    p = partition(grid, 4, weights=weights)
    tot = [weights[p.owners == k].sum() for k in range(4)]
    assert max(tot) - min(tot) <= weights.max()
    assert np.allclose(p.report.weight, tot)
    assert p.report.tolerance == weights.max()


@settings(max_examples=30)
@given(board=boards(max_side=9), players=st.integers(1, 5), data=st.data())
def test_weights_balance_on_any_board(board, players, data):
    grid, passable = board
    n = int((passable & grid.mask).sum())
    if players > n:
        return
    rng = np.random.default_rng(data.draw(st.integers(0, 1000)))
    weights = rng.random(grid.shape) * data.draw(st.sampled_from([1.0, 10.0]))
    p = partition(grid, players, passable=passable, weights=weights)
    land = passable & grid.mask
    tot = np.array([weights[(p.owners == k) & land].sum() for k in range(players)])
    assert tot.max() - tot.min() <= weights[land].max() + 1e-9
    assert ((p.owners >= 0) == land).all()


def test_given_starts_stay_their_players():
    grid = SquareGrid(10, 6)
    starts = [(0, 0), (9, 5), (9, 0)]
    p = partition(grid, 3, starts=starts)
    for k, (x, y) in enumerate(starts):
        assert p.owners[y, x] == k
    assert p.report.starts == tuple(starts)
    assert p.report.cells.tolist() == [20, 20, 20]


def test_report_literals_on_a_line():
    # a 6x1 strip in three: runs of two cells, 6 open sides each (board edges count)
    p = partition(SquareGrid(6, 1), 3)
    r = p.report
    assert p.owners[0].tolist() in ([0, 0, 1, 1, 2, 2], [0, 0, 2, 2, 1, 1], [1, 1, 0, 0, 2, 2],
                                    [1, 1, 2, 2, 0, 0], [2, 2, 0, 0, 1, 1], [2, 2, 1, 1, 0, 0])
    assert r.cells.tolist() == [2, 2, 2]
    assert r.chunks.tolist() == [1, 1, 1]
    assert r.spread == 0.0 and r.mode == "compact"
    assert r.perimeter.tolist() == [6, 6, 6]
    assert np.allclose(r.compactness, 6 / np.sqrt(2))
    assert r.mean_distance.tolist() == [0.5, 0.5, 0.5]
    assert r.seconds >= 0


@settings(max_examples=25)
@given(board=boards(max_side=8), players=st.integers(1, 4))
def test_perimeter_matches_an_oracle(board, players):
    grid, passable = board
    if players > int((passable & grid.mask).sum()):
        return
    p = partition(grid, players, passable=passable)
    per = [0] * players
    for (x, y) in grid.cells():
        k = p.owners[y, x]
        if k < 0:
            continue
        ns = grid.neighbors((x, y))
        ndir = grid.ndir
        same = sum(1 for (u, v) in ns if p.owners[v, u] == k and (u, v) != (x, y))
        per[k] += ndir - same
    assert p.report.perimeter.tolist() == per


def test_mean_distance_matches_an_oracle():
    grid = HexGrid(7, 5)
    passable = np.ones((5, 7), dtype=bool)
    passable[2, 2:5] = False
    p = partition(grid, 3, passable=passable)
    for k, s in enumerate(p.report.starts):
        d = steps(grid, passable, s)
        mine = [d[(x, y)] for y, x in zip(*np.nonzero(p.owners == k))]
        assert p.report.mean_distance[k] == pytest.approx(np.mean(mine))


def test_map_partition_uses_the_units_land():
    m = Map(HexGrid(8, 6))
    m.set_terrain([(x, 3) for x in range(8)], "water")
    p = m.partition(2)
    assert (p.owners[3] == -1).all()
    assert p.report.cells.tolist() == [20, 20]
    boat = m.partition(1, unit="naval")
    assert (boat.owners[3] == 0).all() and (boat.owners[:3] == -1).all()
    assert len(zones(m.grid, m.passable())) == 1


@settings(max_examples=40)
@given(
    shape=st.sampled_from(["hexagon", "triangle", "parallelogram"]),
    size=st.integers(1, 7),
    players=st.integers(2, 12),
    orientation=st.sampled_from(["flat", "pointy"]),
    seed=st.integers(0, 3),
)
def test_shaped_hex_boards_get_connected_regions(shape, size, players, orientation, seed):
    from wargrid import hexagon_board, parallelogram_board, triangle_board

    if shape == "hexagon":
        grid = hexagon_board(size, orientation=orientation)
    elif shape == "triangle":
        grid = triangle_board(size + 1, orientation=orientation)
    else:
        grid = parallelogram_board(size + 1, size + 2, orientation=orientation)
    players = min(players, len(grid))
    p = partition(grid, players, seed=seed)
    _check_common(grid, grid.mask, p, players)
    assert p.report.chunks.tolist() == [1] * players


@settings(max_examples=25)
@given(board=boards(max_side=8, holes=False), players=st.integers(2, 6), data=st.data())
def test_zero_weights_still_leave_every_player_land(board, players, data):
    grid, passable = board
    if players > int(passable.sum()):
        return
    rng = np.random.default_rng(data.draw(st.integers(0, 1000)))
    weights = rng.integers(0, 3, size=grid.shape).astype(float)
    weights[rng.random(grid.shape) < 0.5] = 0.0
    p = partition(grid, players, passable=passable, weights=weights)
    assert (p.report.cells >= 1).all()
    tot = np.array([weights[p.owners == k].sum() for k in range(players)])
    assert tot.max() - tot.min() <= weights.max() + 1e-9


def test_counters_do_not_compile_literal_signatures():
    # counters that began at a literal 0 typed ``_best_cell``/``_border`` and ``spread`` once more for it (never
    # called): two and one signatures more than the flags they are given (fewer when numba's disk cache held them)
    from wargrid._kernels.territory import balance, graph

    partition(HexGrid(12, 10), 3, seed=1)
    partition(HexGrid(12, 10), 3, mode="scattered", max_chunk=4, seed=1)
    assert len(balance._best_cell.signatures) <= 2 and len(balance._border.signatures) <= 1
    assert len(graph.spread.signatures) <= 3
