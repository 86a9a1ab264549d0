"""The entry ladder: ordered categories, costs, and the rising threshold."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import HexGrid, Map, SquareGrid
from wargrid.rts import (
    CLASSIC_ENTRY_COSTS, DEFAULT_ENTRY_COSTS, TRAVEL_ENTRY_COSTS, Entry, check_entry, entry_costs, ladder_path,
)

from rts_oracle import check_walk, dijkstra


def test_order_and_names():
    assert Entry.OK < Entry.CLOAKED_ENEMY < Entry.MOVING_UNIT < Entry.DESTROYABLE_OBSTACLE
    assert Entry.DESTROYABLE_OBSTACLE < Entry.TEMP_BLOCKED_BY_FRIEND < Entry.IMPASSABLE
    assert [int(e) for e in Entry] == list(range(6))
    assert check_entry("cloaked_enemy") is Entry.CLOAKED_ENEMY
    assert math.isinf(DEFAULT_ENTRY_COSTS[Entry.IMPASSABLE])


def test_threshold_rises_step_by_step():
    g = SquareGrid(5, 3)
    cats = np.zeros((3, 5), dtype=np.int64)
    cats[:, 2] = [Entry.MOVING_UNIT, Entry.DESTROYABLE_OBSTACLE, Entry.TEMP_BLOCKED_BY_FRIEND]
    base = np.ones((3, 5))
    p = ladder_path(g, base, cats, (0, 1), (4, 1), threshold=Entry.OK)
    # OK and CLOAKED fail; MOVING_UNIT opens the top row
    assert p.tried == (0, 1, 2) and p.threshold is Entry.MOVING_UNIT
    assert (2, 0) in p.cells
    assert p.cost == pytest.approx(dijkstra(g, entry_costs(base, cats, threshold=2), (0, 1), (4, 1)))
    # the moving unit made very expensive: still taken, it is the only way at that threshold
    p2 = ladder_path(g, base, cats, (0, 1), (4, 1), threshold=Entry.OK, category_costs={"MOVING_UNIT": 50})
    assert p2.threshold is Entry.MOVING_UNIT and p2.cost > 50
    # blocked for good below the limit
    assert ladder_path(g, base, cats, (0, 1), (4, 1), threshold=0, max_threshold=1) is None
    # nearest: the way to the cell nearest the goal
    p3 = ladder_path(g, base, cats, (0, 1), (4, 1), threshold=0, max_threshold=1, nearest=True)
    assert p3 is not None and p3.cells[-1][0] == 1


def test_start_category_ignored_and_impassable_never():
    g = HexGrid(4, 4)
    cats = np.full((4, 4), int(Entry.IMPASSABLE))
    cats[0, :] = Entry.OK
    p = ladder_path(g, np.ones((4, 4)), cats, (0, 0), (3, 0))
    assert p.cells[-1] == (3, 0)
    cats[0, 0] = Entry.IMPASSABLE  # the unit stands there
    assert ladder_path(g, np.ones((4, 4)), cats, (0, 0), (3, 0)) is not None
    assert ladder_path(g, np.ones((4, 4)), cats, (0, 0), (0, 3)) is None


def test_map_method():
    m = Map(SquareGrid(4, 1))
    cats = np.array([[0, 3, 0, 0]])
    p = m.ladder_path((0, 0), (3, 0), cats, unit="tracked")
    assert p.threshold is Entry.DESTROYABLE_OBSTACLE
    assert p.cost == pytest.approx(1 + 8 + 1)  # classic: the category's cost, the terrain only passable or not
    p = m.ladder_path((0, 0), (3, 0), cats, unit="tracked", measure="travel")
    assert p.cost == pytest.approx(2 + (2 + 8) + 2)  # travel: terrain (plains 2 for tracks) + the category's extra


def test_classic_table_order_and_meaning():
    assert [CLASSIC_ENTRY_COSTS[e] for e in Entry][:5] == [1, 1, 3, 8, 10]  # Passable_Cell's table
    assert DEFAULT_ENTRY_COSTS is CLASSIC_ENTRY_COSTS
    assert CLASSIC_ENTRY_COSTS[Entry.DESTROYABLE_OBSTACLE] < CLASSIC_ENTRY_COSTS[Entry.TEMP_BLOCKED_BY_FRIEND]
    assert TRAVEL_ENTRY_COSTS[Entry.TEMP_BLOCKED_BY_FRIEND] < TRAVEL_ENTRY_COSTS[Entry.DESTROYABLE_OBSTACLE]
    # two ways of three cells: the top through a friend standing still, the bottom through a wall
    g = SquareGrid(3, 3)
    cats = np.zeros((3, 3), dtype=np.int64)
    cats[1, :] = Entry.IMPASSABLE
    cats[0, 1] = Entry.TEMP_BLOCKED_BY_FRIEND
    cats[2, 1] = Entry.DESTROYABLE_OBSTACLE
    cats[0, 0] = cats[2, 0] = Entry.OK
    cats[1, 0] = Entry.OK  # the start column is open
    cats[1, 2] = Entry.OK
    base = np.ones((3, 3))
    p = ladder_path(g, base, cats, (0, 1), (2, 1), max_threshold=Entry.TEMP_BLOCKED_BY_FRIEND)
    # classic: the wall (8) beats the friend (10); at threshold DESTROYABLE the friend is not even open
    assert p.threshold is Entry.DESTROYABLE_OBSTACLE and (1, 2) in p.cells and p.cost == 1 + 8 + 1 + 1
    cats[2, 1] = Entry.IMPASSABLE
    p = ladder_path(g, base, cats, (0, 1), (2, 1))
    assert p.threshold is Entry.TEMP_BLOCKED_BY_FRIEND and (1, 0) in p.cells and p.cost == 1 + 10 + 1 + 1
    # with both allowed at once, the search takes the wall in the classic table and the friend in the travel one
    cats[2, 1] = Entry.DESTROYABLE_OBSTACLE
    both = dict(threshold=Entry.TEMP_BLOCKED_BY_FRIEND, max_threshold=Entry.TEMP_BLOCKED_BY_FRIEND)
    assert (1, 2) in ladder_path(g, base, cats, (0, 1), (2, 1), **both).cells
    t = ladder_path(g, base, cats, (0, 1), (2, 1), measure="travel", **both)
    assert (1, 0) in t.cells and t.cost == 1 + (1 + 4) + 1 + 1


def test_threat_filter():
    g = SquareGrid(5, 3)
    base = np.ones((3, 5))
    cats = np.zeros((3, 5), dtype=np.int64)
    threat = np.zeros((3, 5))
    threat[1, 1:4] = [5, 9, 5]  # the straight way is under threat 9 in its middle; the rows beside it at 0
    p = ladder_path(g, base, cats, (0, 1), (4, 1), threat=threat, max_threat=8)
    assert (2, 1) not in p.cells and p.cost == 6
    assert ladder_path(g, base, cats, (0, 1), (4, 1), threat=threat, max_threat=9).cost == 4
    threat[:, 2] = 9  # a line of threat across the board: no way under the limit
    assert ladder_path(g, base, cats, (0, 1), (4, 1), threat=threat, max_threat=8) is None
    threat[1, 0] = 100  # the start cell's own threat does not count
    assert ladder_path(g, base, cats, (0, 1), (4, 1), threat=threat, max_threat=9).cost == 4
    with pytest.raises(ValueError, match="go together"):
        ladder_path(g, base, cats, (0, 1), (4, 1), threat=threat)
    with pytest.raises(ValueError, match="threat must have shape"):
        ladder_path(g, base, cats, (0, 1), (4, 1), threat=np.zeros((2, 2)), max_threat=1)
    with pytest.raises(ValueError, match="measure"):
        ladder_path(g, base, cats, (0, 1), (4, 1), measure="fast")


@pytest.mark.parametrize(
    "kwargs, err, words",
    [
        ({"threshold": "FLYING"}, ValueError, "threshold 'FLYING' is not a known category"),
        ({"threshold": 9}, ValueError, "threshold 9 is not a known category"),
        ({"threshold": 1.5}, TypeError, "threshold must be an Entry"),
        ({"threshold": 4, "max_threshold": 2}, ValueError, "must not be below threshold"),
        ({"max_threshold": "impassable"}, ValueError, "below IMPASSABLE"),
        ({"categories": np.full((2, 2), 7)}, ValueError, "categories holds 7, not a known category"),
        ({"categories": np.zeros((2, 2))}, TypeError, "categories must be an integer array"),
        ({"categories": np.zeros((1, 2), dtype=int)}, ValueError, "categories must have shape"),
        ({"category_costs": {"OK": -1}}, ValueError, "category_costs[OK] must be a number >= 0"),
        ({"category_costs": {"WET": 1}}, ValueError, "category_costs key 'WET' is not a known category"),
        ({"start": (5, 5)}, IndexError, "start (5, 5) is off the board"),
        ({"goal": (-1, 0)}, IndexError, "goal (-1, 0) is off the board"),
    ],
)
def test_bad_input(kwargs, err, words):
    args = {"categories": np.zeros((2, 2), dtype=int), "start": (0, 0), "goal": (1, 1)}
    args.update(kwargs)
    with pytest.raises(err) as e:
        ladder_path(SquareGrid(2, 2), np.ones((2, 2)), args.pop("categories"), args.pop("start"), args.pop("goal"), **args)
    assert words in str(e.value)


@settings(max_examples=40)
@given(st.integers(0, 10_000), st.integers(0, 4), st.sampled_from(["square8", "hex"]))
def test_ladder_finds_the_cheapest_at_the_lowest_threshold(seed, lo, kind):
    rng = np.random.default_rng(seed)
    g = SquareGrid(6, 5, diagonal=True) if kind == "square8" else HexGrid(6, 5)
    cats = rng.integers(0, 6, size=g.shape)
    base = rng.choice([1.0, 2.0, np.inf], size=g.shape, p=[0.6, 0.3, 0.1])
    a, b = (0, 0), (5, 4)
    base[0, 0] = base[4, 5] = 1.0
    p = ladder_path(g, base, cats, a, b, threshold=lo)
    starts = cats.copy()
    starts[0, 0] = 0
    for t in range(lo, 5):
        best = dijkstra(g, entry_costs(base, starts, threshold=t), a, b)
        if math.isfinite(best):
            assert p is not None and p.threshold == t and p.cost == pytest.approx(best)
            assert check_walk(g, entry_costs(base, starts, threshold=t), p.cells) == pytest.approx(best)
            break
    else:
        assert p is None
