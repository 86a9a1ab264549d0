"""Scattered partitions, the feasibility proofs and bad input."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from territory_oracles import KINDS, boards, make_grid, pieces, zones

from wargrid import HexGrid, SquareGrid, StaggeredGrid
from wargrid.errors import ArgumentError, ArgumentTypeError
from wargrid.territory import InfeasibleError, PartitionError, check_feasibility, chunk_sizes, partition
from wargrid.territory._graph import land_graph


def _assert_scattered(grid, passable, p, players, cap):
    land = passable & grid.mask
    assert ((p.owners >= 0) == land).all()
    counts = np.bincount(p.owners[land], minlength=players)
    assert counts.max() - counts.min() <= 1
    pcs = pieces(grid, p.owners)
    biggest = max(max(v) for v in pcs.values())
    assert biggest <= cap
    assert p.report.largest_chunk.max() == biggest


@settings(max_examples=60)
@given(board=boards(), data=st.data())
def test_scattered_never_above_the_cap(board, data):
    grid, passable = board
    eight = isinstance(grid, SquareGrid) and grid.diagonal
    players = data.draw(st.integers(4 if eight else 3, 6))
    cap = data.draw(st.integers(2, 5))
    method = data.draw(st.sampled_from([None, "greedy", "random", "pattern"]))
    n = int((passable & grid.mask).sum())
    if players > n:
        with pytest.raises(InfeasibleError, match="players need"):
            partition(grid, players, passable=passable, mode="scattered", max_chunk=cap)
        return
    p = partition(grid, players, passable=passable, mode="scattered", max_chunk=cap, method=method)
    _assert_scattered(grid, passable, p, players, cap)
    again = partition(grid, players, passable=passable, mode="scattered", max_chunk=cap, method=method)
    assert np.array_equal(p.owners, again.owners)


def test_the_classic_setup_cap_4_on_400_cells_for_8_players():
    for grid in (HexGrid(20, 20), SquareGrid(20, 20), StaggeredGrid(20, 20)):
        p = partition(grid, 8, mode="scattered", max_chunk=4)
        _assert_scattered(grid, np.ones((20, 20), bool), p, 8, 4)
        assert p.report.cells.tolist() == [50] * 8


def _brute_two_players_cap_one(grid, passable):
    """Whether a balanced split in two with no two touching cells of one player exists."""
    cells = [c for c in grid.cells() if passable[c[1], c[0]]]
    n = len(cells)
    owners = np.full(grid.shape, -1)
    for bits in itertools.product((0, 1), repeat=n):
        if abs(2 * sum(bits) - n) > 1:
            continue
        for (x, y), b in zip(cells, bits):
            owners[y, x] = b
        if all(owners[v, u] != owners[y, x] for (x, y) in cells for (u, v) in grid.neighbors((x, y)) if passable[v, u]):
            return True
    return False


@settings(max_examples=40)
@given(board=boards(max_side=4))
def test_two_players_with_single_cells_refused_exactly_when_impossible(board):
    grid, passable = board
    land = passable & grid.mask
    if land.sum() > 12 or land.sum() < 2:
        return
    possible = _brute_two_players_cap_one(grid, land)
    verdict = check_feasibility(land_graph(grid, passable), 2, mode="scattered", max_chunk=1)
    assert verdict.feasible == possible
    if possible:
        p = partition(grid, 2, passable=passable, mode="scattered", max_chunk=1)
        _assert_scattered(grid, passable, p, 2, 1)
    else:
        with pytest.raises(InfeasibleError, match="two-colouring|max_chunk >= "):
            partition(grid, 2, passable=passable, mode="scattered", max_chunk=1)


def _stripes(grid):
    """Two players in alternating rows (or columns): chunks of min(width, height)."""
    h, w = grid.shape
    ys, xs = np.mgrid[0:h, 0:w]
    return (ys % 2) if w <= h else (xs % 2)


@pytest.mark.parametrize("kind", ["odd-q", "even-q", "odd-r", "even-r", "stagger-cols", "stagger-rows", "square8"])
@pytest.mark.parametrize("w,h", [(6, 10), (10, 6), (8, 8)])
def test_hex_theorem_refuses_exactly_below_the_crossing(kind, w, h):
    grid = make_grid(kind, w, h)
    full = np.ones((h, w), dtype=bool)
    span = min(w, h)
    g = land_graph(grid, full)
    for cap in range(1, span):
        v = check_feasibility(g, 2, mode="scattered", max_chunk=cap)
        assert not v.feasible and v.min_chunk == span
        with pytest.raises(InfeasibleError, match="Hex theorem|two-colouring|touch one another"):
            partition(grid, 2, mode="scattered", max_chunk=cap)
    assert check_feasibility(g, 2, mode="scattered", max_chunk=span).feasible
    # and the bound is met: alternating stripes balance and have chunks of exactly `span`
    witness = _stripes(grid)
    assert np.bincount(witness.ravel()).tolist() == [w * h // 2] * 2
    assert max(max(v) for v in pieces(grid, witness).values()) == span


def test_hex_theorem_holds_on_a_wrapped_board_too():
    grid = HexGrid(8, 6, wrap_x=True)
    v = check_feasibility(land_graph(grid, np.ones((6, 8), bool)), 2, mode="scattered", max_chunk=5)
    assert not v.feasible and "Hex theorem" in v.reason


def test_square4_two_players_checkerboard_is_fine():
    p = partition(SquareGrid(6, 5), 2, mode="scattered", max_chunk=1)
    assert p.report.largest_chunk.tolist() == [1, 1]
    assert p.report.method == "two-colouring"


def test_cliques_refuse_small_caps():
    # a 2x2 block on a square-8 board: four cells touching one another
    g = land_graph(SquareGrid(2, 2, diagonal=True), np.ones((2, 2), bool))
    v = check_feasibility(g, 3, mode="scattered", max_chunk=1)
    assert not v.feasible and "4 cells touch one another" in v.reason and v.min_chunk == 2
    assert check_feasibility(g, 4, mode="scattered", max_chunk=1).feasible
    p = partition(SquareGrid(2, 2, diagonal=True), 4, mode="scattered", max_chunk=1)
    assert sorted(p.owners.ravel().tolist()) == [0, 1, 2, 3]
    # a triangle on a hex board with holes (the Hex theorem needs a full board)
    passable = np.zeros((4, 4), dtype=bool)
    passable[1, 1] = passable[1, 2] = passable[2, 2] = True  # (1, 1), (2, 1), (2, 2)
    grid = HexGrid(4, 4)
    assert len(zones(grid, passable)) == 1
    with pytest.raises(InfeasibleError, match="3 cells touch one another"):
        partition(grid, 2, passable=passable, mode="scattered", max_chunk=1)


def test_forced_three_colouring():
    with pytest.raises(InfeasibleError, match=r"weigh \[9.0, 9.0, 6.0\]"):
        partition(HexGrid(6, 4), 3, mode="scattered", max_chunk=1)
    p = partition(HexGrid(6, 6), 3, mode="scattered", max_chunk=1)
    assert p.report.largest_chunk.tolist() == [1, 1, 1]
    assert p.report.cells.tolist() == [12, 12, 12]


def test_one_player_and_too_many_players():
    passable = np.ones((3, 5), dtype=bool)
    passable[:, 2] = False  # two zones of 6 cells
    grid = SquareGrid(5, 3)
    with pytest.raises(InfeasibleError, match="largest land zone \\(6 cells\\)"):
        partition(grid, 1, passable=passable, mode="scattered", max_chunk=5)
    p = partition(grid, 1, passable=passable, mode="scattered", max_chunk=6)
    assert p.report.largest_chunk.tolist() == [6]
    with pytest.raises(InfeasibleError, match="13 players need at least 13 passable cells; the land has 12"):
        partition(grid, 13, passable=passable)
    with pytest.raises(InfeasibleError, match="13 players"):
        partition(grid, 13, passable=passable, mode="scattered", max_chunk=3)
    assert partition(grid, 12, passable=passable).report.cells.tolist() == [1] * 12


def test_scattered_with_weights_and_starts():
    rng = np.random.default_rng(3)
    weights = rng.integers(1, 4, size=(12, 12)).astype(float)
    grid = HexGrid(12, 12)
    p = partition(grid, 4, mode="scattered", max_chunk=3, weights=weights)
    tot = [weights[p.owners == k].sum() for k in range(4)]
    assert max(tot) - min(tot) <= weights.max()
    assert max(max(v) for v in pieces(grid, p.owners).values()) <= 3
    starts = [(0, 0), (11, 11), (0, 11), (11, 0)]
    q = partition(grid, 4, mode="scattered", max_chunk=3, starts=starts)
    assert [int(q.owners[y, x]) for x, y in starts] == [0, 1, 2, 3]
    assert q.report.starts == tuple(starts)


def test_chunk_sizes_literal():
    grid = SquareGrid(4, 1)
    g = land_graph(grid, np.ones((1, 4), bool))
    assert chunk_sizes(g, np.array([0, 0, 1, 0])).tolist() == [2, 2, 1, 1]


def test_odd_ring_refuses_single_cells_for_two_players():
    # a wrapped 3x1 board is a ring of three: no proper two-colouring, but cap 2 is fine
    grid = SquareGrid(3, 1, wrap_x=True, diagonal=False)
    assert check_feasibility(land_graph(grid, np.ones((1, 3), bool)), 2, mode="scattered", max_chunk=1).feasible is False
    p = partition(grid, 2, mode="scattered", max_chunk=2)
    assert p.report.largest_chunk.max() <= 2


# -- bad input ----------------------------------------------------------------------


@pytest.mark.parametrize("players,err,msg", [
    (0, ValueError, "players must be >= 1, got 0"),
    (-2, ValueError, "players must be >= 1, got -2"),
    (2.5, TypeError, "players must be an integer"),
    (True, TypeError, "players must be an integer"),
])
def test_bad_players(players, err, msg):
    with pytest.raises(err, match=msg):
        partition(SquareGrid(3, 3), players)


def test_bad_options():
    g = SquareGrid(4, 4)
    with pytest.raises(ValueError, match="max_chunk must be >= 1.*got 0"):
        partition(g, 2, mode="scattered", max_chunk=0)
    with pytest.raises(ValueError, match="max_chunk must be >= 1.*got -3"):
        partition(g, 2, mode="scattered", max_chunk=-3)
    with pytest.raises(TypeError, match="max_chunk must be an integer"):
        partition(g, 2, mode="scattered", max_chunk=2.0)
    with pytest.raises(ValueError, match="mode 'scattered' needs max_chunk"):
        partition(g, 2, mode="scattered")
    with pytest.raises(ValueError, match="only applies to mode 'scattered'"):
        partition(g, 2, max_chunk=3)
    with pytest.raises(ValueError, match="mode must be one of 'compact', 'scattered'; got 'spread'"):
        partition(g, 2, mode="spread")
    with pytest.raises(ValueError, match="method must be one of"):
        partition(g, 2, mode="scattered", max_chunk=2, method="magic")
    with pytest.raises(ValueError, match="seed must be >= 0"):
        partition(g, 2, seed=-1)
    with pytest.raises(TypeError, match="grid must be a wargrid Grid"):
        partition(np.zeros((4, 4)), 2)


def test_bad_weights():
    g = SquareGrid(4, 3)
    with pytest.raises(ValueError, match=r"weights must have shape \(height, width\) = \(3, 4\), got \(4, 3\)"):
        partition(g, 2, weights=np.ones((4, 3)))
    w = np.ones((3, 4))
    w[1, 1] = -1
    with pytest.raises(ValueError, match="weights must be >= 0, got -1.0"):
        partition(g, 2, weights=w)
    w[1, 1] = np.nan
    with pytest.raises(ValueError, match="weights must be finite"):
        partition(g, 2, weights=w)
    with pytest.raises(TypeError, match="weights must be a numeric array"):
        partition(g, 2, weights=np.full((3, 4), "a"))
    # impassable cells may hold anything
    passable = np.ones((3, 4), bool)
    passable[1, 1] = False
    assert partition(g, 2, weights=w, passable=passable).report.cells.sum() == 11


def test_bad_starts():
    g = SquareGrid(4, 3)
    with pytest.raises(ValueError, match="starts must hold one cell per player \\(2\\), got 1"):
        partition(g, 2, starts=[(0, 0)])
    with pytest.raises(ValueError, match="starts must hold distinct cells"):
        partition(g, 2, starts=[(0, 0), (0, 0)])
    with pytest.raises(IndexError, match=r"starts\[1\] \(9, 0\) is off the board"):
        partition(g, 2, starts=[(0, 0), (9, 0)])
    passable = np.ones((3, 4), bool)
    passable[0, 3] = False
    with pytest.raises(ValueError, match=r"starts\[1\] \(3, 0\) is impassable"):
        partition(g, 2, passable=passable, starts=[(0, 0), (3, 0)])
    with pytest.raises(TypeError, match="a single cell"):
        partition(g, 2, starts=(0, 0))


def test_a_cap_or_seed_past_int64_is_taken():
    # max_chunk=10**20 reached the kernels (numba's TypingError), seed=2**63 too (OverflowError)
    g = HexGrid(8, 6)
    a = partition(g, 3, mode="scattered", max_chunk=10**20, seed=1)
    assert (a.owners >= 0).sum() == 48
    b = partition(g, 3, mode="scattered", max_chunk=4, seed=2**63)
    assert (b.owners >= 0).sum() == 48 and b.report.largest_chunk.max() <= 4


@pytest.mark.parametrize("players, options, error, match", [
    (0, {}, ArgumentError, "players must be >= 1, got 0"),  # a no-players request passed as 'feasible'
    (0, {"mode": "scattered", "max_chunk": 4}, ArgumentError, "players must be >= 1"),  # ZeroDivisionError before
    (-1, {"mode": "scattered", "max_chunk": 4}, ArgumentError, "players must be >= 1"),
    (2.5, {}, ArgumentTypeError, "players must be an integer"),
    (None, {}, ArgumentTypeError, "players must be an integer"),
    (2, {"mode": "scattered", "max_chunk": 0}, ArgumentError, "max_chunk must be >= 1, got 0"),
    (2, {"mode": "zigzag"}, ArgumentError, "mode must be one of"),
    (2, {"mode": "scattered", "max_chunk": 1, "weights": np.ones(3)}, ArgumentError, "weights must hold one number"),
])
def test_check_feasibility_refuses_bad_arguments(players, options, error, match):
    g = land_graph(HexGrid(10, 10), np.ones((10, 10), bool))
    with pytest.raises(error, match=match):
        check_feasibility(g, players, **options)


def test_check_feasibility_takes_a_grid_and_names_anything_else():
    assert check_feasibility(HexGrid(10, 10), 2, mode="scattered", max_chunk=4).min_chunk == 10
    with pytest.raises(ArgumentTypeError, match="graph must be a land graph .* got list"):
        check_feasibility([[1]], 2)


def test_chunk_sizes_checks_the_owners_and_the_graph():
    g = land_graph(SquareGrid(6, 4), np.ones((4, 6), bool))
    with pytest.raises(ArgumentError, match=r"owner must hold one player a node of the graph \(24\), got shape \(3,\)"):
        chunk_sizes(g, np.zeros(3, int))  # was read past its end
    with pytest.raises(ArgumentTypeError, match="owner must be an integer array"):
        chunk_sizes(g, np.zeros(24))
    with pytest.raises(ArgumentTypeError, match="graph must be a land graph"):
        chunk_sizes(SquareGrid(6, 4), np.zeros(24, int))
