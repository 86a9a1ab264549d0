"""The classic pathfinder: literal cases, valid walks on every board kind, never shorter than the optimum."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import HexGrid, Map, SquareGrid, StaggeredGrid, hexagon_board
from wargrid.rts.classic import SKIP_RETRIES, classic_path

from rts_oracle import check_walk, dijkstra

KINDS = {
    "square4": lambda w, h: SquareGrid(w, h),
    "square8": lambda w, h: SquareGrid(w, h, diagonal=True),
    "square8-always": lambda w, h: SquareGrid(w, h, diagonal=True, corner_rule="always"),
    "square8-one": lambda w, h: SquareGrid(w, h, diagonal=True, corner_rule="one-obstacle"),
    "hex-odd-q": lambda w, h: HexGrid(w, h),
    "hex-even-q": lambda w, h: HexGrid(w, h, offset="even-q"),
    "hex-odd-r": lambda w, h: HexGrid(w, h, orientation="pointy"),
    "hex-even-r": lambda w, h: HexGrid(w, h, orientation="pointy", offset="even-r"),
    "staggered": lambda w, h: StaggeredGrid(w, h),
    "staggered-rows": lambda w, h: StaggeredGrid(w, h, stagger="rows"),
    "square8-wrap": lambda w, h: SquareGrid(w + 1, h, diagonal=True, wrap_x=True),
    "hex-wrap": lambda w, h: HexGrid(2 * (w // 2) + 2, h, wrap_x=True),
}


def test_open_board_is_straight():
    g = SquareGrid(10, 10, diagonal=True)
    p = classic_path(g, np.ones((10, 10)), (0, 0), (9, 3))
    assert p.arrived and p.length == pytest.approx(6 + 3 * math.sqrt(2))
    h = HexGrid(10, 10)
    p = classic_path(h, np.ones((10, 10)), (0, 0), (9, 9))
    assert p.arrived and p.length == h.distance((0, 0), (9, 9))


def test_wall_both_ways_keeps_the_shorter():
    # a wall in column 4 from row 1 to row 8; the gap at the top is nearer
    costs = np.ones((10, 9))
    costs[1:10, 4] = np.inf
    costs[9, 4] = 1.0
    g = SquareGrid(9, 10)
    p = classic_path(g, costs, (1, 2), (7, 2))
    assert p.arrived
    assert (4, 0) in p.cells
    assert p.length == dijkstra(g, costs, (1, 2), (7, 2))
    # from lower down, the bottom gap is nearer
    p = classic_path(g, costs, (1, 8), (7, 8))
    assert (4, 9) in p.cells


def test_literal_directions():
    g = SquareGrid(5, 3)
    costs = np.ones((3, 5))
    costs[1, 2] = np.inf
    p = classic_path(g, costs, (0, 1), (4, 1))
    # east, then round the block (north or south: equal lengths, the first hand wins), then east
    assert p.arrived and len(p.directions) == 6
    assert p.directions[0] == 0 and p.directions[-1] == 0


def test_pieces_and_blocked_goal():
    g = SquareGrid(6, 1)
    costs = np.ones((1, 6))
    p = classic_path(g, costs, (0, 0), (5, 0), max_steps=2)
    assert p.outcome == "piece" and p.cells == [(0, 0), (1, 0), (2, 0)]
    assert p.directions.tolist() == [0, 0]
    costs[0, 5] = np.inf
    p = classic_path(g, costs, (0, 0), (5, 0))
    assert p.outcome == "blocked" and p.cells[-1] == (4, 0)
    # walled off entirely
    costs[0, 3] = np.inf
    costs[0, 5] = 1.0
    p = classic_path(g, costs, (0, 0), (5, 0))
    assert p.outcome == "blocked" and p.cells[-1] == (2, 0)
    assert classic_path(g, costs, (1, 0), (1, 0)).cells == [(1, 0)]


def test_follow_limit_gives_up():
    costs = np.ones((20, 5))
    costs[0:19, 2] = np.inf
    g = SquareGrid(5, 20)
    assert classic_path(g, costs, (0, 0), (4, 0)).arrived
    assert classic_path(g, costs, (0, 0), (4, 0), follow_limit=10).outcome == "blocked"


def test_map_method():
    m = Map(SquareGrid(6, 4, diagonal=True))
    m.set_terrain([(3, 0), (3, 1), (3, 2)], "water")
    p = m.classic_path((0, 0), (5, 0), unit="tracked")
    assert p.arrived and all(m.terrain_name(c) != "water" for c in p.cells)
    assert p.cost == pytest.approx(check_walk(m.grid, m.costs(unit="tracked"), p.cells))


@pytest.mark.parametrize(
    "kwargs, err, words",
    [
        ({"start": (9, 0)}, IndexError, "start (9, 0) is off the board"),
        ({"goal": (0, -1)}, IndexError, "goal (0, -1) is off the board"),
        ({"max_steps": -1}, ValueError, "max_steps must be >= 0"),
        ({"max_steps": 2.5}, TypeError, "max_steps must be an integer"),
        ({"follow_limit": 0}, ValueError, "follow_limit must be >= 1"),
        ({"optimise": "yes"}, TypeError, "optimise must be True or False"),
        ({"cell_costs": -np.ones((3, 3))}, ValueError, "cell_costs"),
        ({"cell_costs": np.ones((2, 3))}, ValueError, "cell_costs"),
    ],
)
def test_bad_input(kwargs, err, words):
    args = {"cell_costs": np.ones((3, 3)), "start": (0, 0), "goal": (2, 2)}
    args.update(kwargs)
    with pytest.raises(err) as e:
        classic_path(SquareGrid(3, 3), args.pop("cell_costs"), args.pop("start"), args.pop("goal"), **args)
    assert words in str(e.value)


@st.composite
def boards(draw):
    kind = draw(st.sampled_from(sorted(KINDS)))
    w, h = draw(st.integers(2, 9)), draw(st.integers(2, 9))
    grid = KINDS[kind](max(w, 2), h)
    blocked = draw(st.lists(st.booleans(), min_size=grid.size, max_size=grid.size))
    costs = np.where(np.array(blocked).reshape(grid.shape) & (np.arange(grid.size).reshape(grid.shape) % 3 == 0), np.inf, 1.0)
    if draw(st.booleans()):
        costs = costs * np.array(draw(st.lists(st.sampled_from([1.0, 2.0, 3.0]), min_size=grid.size, max_size=grid.size))).reshape(grid.shape)
    free = np.flatnonzero(np.isfinite(costs).ravel())
    if len(free) < 2:
        costs.flat[:2] = 1.0
        free = np.array([0, 1])
    a = int(draw(st.sampled_from(free.tolist())))
    b = int(draw(st.sampled_from(free.tolist())))
    return grid, costs, grid.cell(a), grid.cell(b)


@settings(max_examples=150)
@given(boards(), st.booleans())
def test_paths_valid_and_never_shorter_than_optimal(board, optimise):
    grid, costs, a, b = board
    p = classic_path(grid, costs, a, b, optimise=optimise)
    assert p.cells[0] == a
    cost = check_walk(grid, costs, p.cells)
    assert p.cost == pytest.approx(cost)
    best = dijkstra(grid, costs, a, b)
    if p.arrived:
        assert p.cells[-1] == b
        assert cost >= best - 1e-9
    if math.isinf(best):
        assert not p.arrived
    # directions replay the cells
    for (c, n), d in zip(zip(p.cells, p.cells[1:]), p.directions.tolist()):
        assert grid.neighbor(c, d) == n
    # the optimiser never makes a walk longer
    raw = classic_path(grid, costs, a, b, optimise=False)
    assert p.cost <= raw.cost + 1e-9


def test_shaped_board():
    g = hexagon_board(3)
    costs = np.where(g.mask, 1.0, np.inf)
    p = classic_path(g, costs, (0, 3), (6, 3))
    assert p.arrived and check_walk(g, costs, p.cells) == 6


@settings(max_examples=80)
@given(boards())
def test_kernel_matches_plain_python_walk(board):
    grid, costs, a, b = board
    from rts_oracle import classic_walk

    cells, status = classic_walk(grid, costs, a, b, limit=8 * (grid.width + grid.height))
    p = classic_path(grid, costs, a, b, optimise=False)
    assert p.cells == cells
    assert p.outcome == status


def test_buffers_grow_for_long_walks(monkeypatch):
    import wargrid._scratch as scratch
    import wargrid.rts.classic as classic

    monkeypatch.setattr(classic, "_FIRST_CAP", 8)
    monkeypatch.setattr(scratch._LOCAL, "classic", {}, raising=False)  # this thread's classic buffers, fresh
    g = SquareGrid(13, 9)
    costs = np.ones((9, 13))
    for x in range(2, 10, 4):  # a serpentine: the walk is far longer than 8 cells
        costs[0:8, x] = np.inf
        costs[1:9, x + 2] = np.inf
    p = classic_path(g, costs, (0, 0), (12, 8))
    assert p.arrived and len(p.cells) > 40
    assert p.cost == pytest.approx(check_walk(g, costs, p.cells))
    assert len(scratch._LOCAL.classic[g.topology.padded_size].buf) > 9


@pytest.mark.parametrize("grid", [SquareGrid(12, 9, diagonal=True), SquareGrid(12, 9), HexGrid(12, 9)])
def test_pieces_behind_a_wall_keep_to_max_steps(grid):
    costs = np.ones(grid.shape)
    costs[0:8, 4] = np.inf  # a wall with one gap at its foot: the walk follows it down and back up
    at, pieces = (2, 4), 0
    while True:
        p = classic_path(grid, costs, at, (9, 4), max_steps=5)
        assert len(p.directions) <= 5 and len(p.cells) <= 6 and p.cells[0] == at
        pieces += 1
        if p.arrived:
            break
        assert p.outcome == "piece" and len(p.directions) > 0 and pieces < 20
        at = p.cells[-1]
    assert pieces >= 3 and p.cells[-1] == (9, 4)


def _slits(k):
    """A wall across the line from (0, 3) to the goal, with ``k`` sealed one-cell slits one after another beyond it."""
    w = 2 * k + 7
    costs = np.ones((7, w))
    for x in range(2, 2 * k + 3, 2):
        costs[1:6, x] = np.inf
    for x in range(3, 2 * k + 2, 2):
        costs[2, x] = costs[4, x] = np.inf
    return SquareGrid(w, 7, diagonal=True), costs, (0, 3), (w - 1, 3)


def test_five_obstacle_skip_retries_then_the_partial_path():
    # each slit is a landing cell walled off from here: the first try and five retries reach the open side past
    # five slits; a sixth slit ends the search 'blocked' where the wall stopped it, the partial path kept
    g, costs, a, b = _slits(5)
    p = classic_path(g, costs, a, b)
    assert p.outcome == "arrived" and p.moves == 20
    g, costs, a, b = _slits(6)
    p = classic_path(g, costs, a, b)
    assert p.outcome == "blocked" and p.cells == [(0, 3), (1, 3)] and p.moves == 1
    assert classic_path(g, costs, a, b, retries=6).arrived
    assert not classic_path(g, costs, a, b, retries=0).arrived and SKIP_RETRIES == 5
    m = Map(g)
    m.set_terrain([(x, y) for y in range(7) for x in range(g.width) if costs[y, x] == np.inf], "water")
    assert m.classic_path(a, b, unit="tracked").outcome == "blocked"
    assert m.classic_path(a, b, unit="tracked", retries=6).outcome == "arrived"


def test_moves_count_a_diagonal_as_one():
    costs = np.ones((5, 7))
    costs[0:4, 3] = np.inf
    p = classic_path(SquareGrid(7, 5, diagonal=True), costs, (1, 1), (5, 1))
    assert p.moves == 8 == len(p.cells) - 1 and p.length == pytest.approx(6 + 2 * 2 ** 0.5)  # 6 straight, 2 diagonal


def test_limits_past_int64_mean_no_limit():
    # max_steps=10**20 raised numba's 'int too big to convert'
    import numpy as np

    from wargrid import SquareGrid
    from wargrid.rts import classic_path

    p = classic_path(SquareGrid(6, 4), np.ones((4, 6)), (0, 0), (5, 3), max_steps=10**20, follow_limit=10**20,
                     retries=10**20)
    assert p.outcome == "arrived" and p.cells[-1] == (5, 3)
