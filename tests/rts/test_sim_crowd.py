"""The simulation's crowd rule (``Simulation(crowd=True)``): vehicles in each other's way move as one (PIBT)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import HexGrid, Map, SquareGrid
from wargrid.errors import ArgumentTypeError
from wargrid.io import MOVINGAI_TERRAINS, load_movingai, load_movingai_agents
from wargrid.rts import LEPTONS_PER_CELL, Simulation

DOOR = ["...@......",
        "..........",
        "...@......"]
"""Two rooms joined by a door at (3, 1): nine units cross from the left three columns to the right three."""
STARTS = [(0, 1), (1, 1), (2, 1), (0, 0), (1, 0), (2, 0), (0, 2), (1, 2), (2, 2)]
GOALS = [(9, 1), (8, 1), (7, 1), (9, 0), (8, 0), (7, 0), (9, 2), (8, 2), (7, 2)]


def _board(rows: list[str], diagonal: bool = False) -> Map:
    terrain = np.array([[3 if c == "@" else 0 for c in r] for r in rows], dtype=np.int16)
    return Map(SquareGrid(len(rows[0]), len(rows), diagonal=diagonal), terrain=terrain, terrains=MOVINGAI_TERRAINS)


def _arrival(sim: Simulation, goals: np.ndarray, ticks: int, rows: slice = slice(None)) -> int | None:
    """The tick every unit (of ``rows``, by ``uid``) stands on its goal (``goals``, a row each) at last, stepping up
    to ``ticks``."""
    for t in range(1, ticks + 1):
        sim.step()
        if (sim.cells()[rows] == goals).all():
            return t
    return None


def _crossing(crowd: bool, seed: int = 0, ticks: int = 200) -> tuple[Simulation, int | None]:
    sim = Simulation(_board(DOOR), seed=seed, crowd=crowd)
    for a, b in zip(STARTS, GOALS):
        sim.add_unit(a, unit="walk", goal=b, speed=LEPTONS_PER_CELL)
    goals = np.array(GOALS)
    for t in range(1, ticks + 1):
        sim.step()
        if (sim.cells() == goals).all():
            return sim, t
    return sim, None


def test_a_crowd_passes_a_door_the_plain_rule_queues_at() -> None:
    """Each unit on its own turn, a unit checked before the one ahead of it finds that one still there and waits;
    the crowd moves the column as one, the unit ahead first."""
    assert _crossing(False)[1] == 36
    sim, t = _crossing(True)
    assert t == 17
    sim.check()


def test_the_crowd_rule_is_fixed_by_the_seed() -> None:
    a, ta = _crossing(True, seed=5)
    b, tb = _crossing(True, seed=5)
    assert ta == tb
    assert [(e.tick, e.uid, e.what, e.detail) for e in a.events] == [(e.tick, e.uid, e.what, e.detail) for e in b.events]
    assert [a.get(u).trail for u in range(len(STARTS))] == [b.get(u).trail for u in range(len(STARTS))]


def test_crowd_must_be_a_bool() -> None:
    with pytest.raises(ArgumentTypeError, match="crowd must be True or False"):
        Simulation(_board(DOOR), crowd="yes")  # type: ignore[arg-type]


CAVE = ["@@@@@@@@@..@@@@@",
        "@@@@@@@@....@@@@",
        "@@@@@@@@.......@",
        "@@@@@@@@........",
        "@@@@@@@@@.......",
        "@@@@@@@@@@.....@",
        "@@@@@@@@@@.....@",
        "@@@@@@@@@@.....@",
        "@@@@@@@@@@....@@",
        "@@@@@@@@@@....@@",
        "@@@@@@@@@.....@@",
        "@..@@@@@@....@@@",
        "....@@@@.....@@@",
        "............@@@@",
        "............@@@@",
        "@...........@@@@",
        "@...........@@@@",
        "@...........@@@@",
        "@@.........@@@@@",
        "@@@@.....@@@@@@@"]
"""A cave (bench_crowd's generator, 24 x 24, seed 1, cropped) and forty units crossing it (its random pairs)."""
CAVE_STARTS = [(11, 11), (13, 5), (10, 10), (9, 11), (6, 18), (8, 16), (14, 6), (8, 17), (5, 17), (11, 3), (2, 15),
               (9, 1), (9, 17), (1, 17), (12, 2), (14, 7), (11, 10), (10, 3), (11, 6), (8, 15), (1, 16), (10, 15),
               (13, 3), (13, 10), (6, 14), (9, 15), (12, 5), (15, 4), (10, 14), (10, 5), (12, 12), (9, 12), (5, 18),
               (6, 15), (5, 13), (3, 12), (4, 15), (8, 13), (12, 7), (11, 9)]
CAVE_GOALS = [(7, 18), (10, 9), (10, 7), (7, 13), (11, 8), (8, 14), (10, 13), (6, 14), (13, 2), (8, 12), (2, 12),
              (10, 11), (6, 19), (12, 4), (5, 19), (1, 13), (9, 14), (9, 12), (11, 5), (2, 14), (6, 15), (7, 17),
              (5, 17), (10, 16), (3, 17), (11, 4), (13, 4), (5, 14), (11, 15), (6, 16), (9, 11), (1, 15), (10, 5),
              (10, 2), (5, 18), (8, 2), (1, 17), (11, 14), (5, 15), (12, 3)]


def test_units_pushed_off_their_routes_arrive_when_the_distance_tables_run_short(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pool of eight chunks for forty goals' tables: rows are finished by breadth-first search when it runs
    short. (Estimating distances until the pool came back, as before, left a unit going to and fro in a dead end
    of the cave for good: the pool never came back.) 25 ticks before the front rule (``crowd_pass``), 36 with it
    before the band of the critical units (``simcrowd.CRITICAL``), 30 before the front rule read the pusher's
    distances and the band was decided every ``AGE`` ticks; with the default pool the cave takes 25, 26, 25, 28
    ticks at seeds 0..3 (30, 25, 25, 30 before those two; 36, 25, 25, 30 before the band; 25, 33, 26, 25 before
    the front rule)."""
    from wargrid.rts import sim as simmod

    monkeypatch.setattr(simmod._CrowdRule, "min_chunks", 8)
    monkeypatch.setattr(simmod._CrowdRule, "chunks_per_row", 0)
    sim = Simulation(_board(CAVE), seed=0, crowd=True)
    for a, b in zip(CAVE_STARTS, CAVE_GOALS):
        sim.add_unit(a, unit="walk", goal=b, speed=LEPTONS_PER_CELL)
    assert _arrival(sim, np.array(CAVE_GOALS), 400) == 25
    sim.check()


def test_a_unit_pushed_off_its_goal_does_not_take_it_back_before_the_slow_unit_that_pushed_it() -> None:
    """Mixed speeds (the stress campaign's seed 248): a slow unit pushed unit 23 off its goal on the way to its
    own goal behind it; unit 23, back by the crowd rule as soon as it landed, retook its goal before the slow
    one entered it, for good (still going to and fro at tick 4000). Now a unit that arrived goes back on its
    own turn, as without the rule: every unit arrives (at tick 125; 128 before soldiers traded places with friends
    with nothing to do before asking them aside, 162 before soldiers parted or went along in a trade, and vehicles
    traded places with soldiers at home)."""
    from wargrid.scenarios import mixed_army, units_away

    sim = mixed_army("hex", 10, 41, 0.33, seed=248)
    sim.crowd = True
    rep = sim.run(4000)
    assert rep.tick == 125
    assert [s for _, s, _, _ in rep.units if s != "arrived"] == []
    assert units_away(sim) == []


DEAD_END = [".....@",
            "@...@.",
            "......"]
"""The bottom right corner of the stress campaign's seed 161 (square-8, its cells (13..18, 16..18)): a dead end
(5, 1)-(5, 2)-(4, 2) off a room, no corner cut round the water at (4, 1) and (5, 0)."""


def _dead_end(seed: int, speeds: tuple[int, int]) -> Simulation:
    m = Map(SquareGrid(6, 3, diagonal=True))
    m.set_terrain([(x, y) for y, r in enumerate(DEAD_END) for x, c in enumerate(r) if c == "@"], "water")
    sim = Simulation(m, seed=seed)
    sim.add_unit((5, 2), unit="tracked", goal=(5, 2), speed=speeds[0])  # on its goal, in the way
    sim.add_unit((5, 1), unit="tracked", goal=(4, 2), speed=speeds[1])  # at the end, its goal beyond the other
    return sim


@pytest.mark.parametrize(("seed", "speeds", "ticks"), [
    (0, (85, 200), 16), (0, (200, 85), 16), (0, (128, 128), 19), (1, (85, 200), 30), (1, (200, 85), 22),
    (1, (128, 128), 11), (2, (85, 200), 16), (3, (85, 200), 30), (4, (85, 200), 31), (4, (128, 128), 19)])
def test_two_tanks_each_with_its_goal_beyond_the_other_in_a_dead_end_trade_places(
        seed: int, speeds: tuple[int, int], ticks: int) -> None:
    """PIBT cannot pass two units in a corridor: the one that lost the priority was pushed back along it, came
    back once the other had settled and pushed it out of its goal, for good (still going to and fro at tick
    2000 at each of these seeds and speeds); they trade places now (``simcrowd._trade_places``)."""
    from wargrid.scenarios import units_away

    sim = _dead_end(seed, speeds)
    rep = sim.run(2000)
    assert rep.tick == ticks
    assert [s for _, s, _, _ in rep.units] == ["arrived", "arrived"]
    assert [sim.get(u).cell for u in (0, 1)] == [(5, 2), (4, 2)]
    assert units_away(sim) == []
    assert any(e.what == "swap" for e in sim.events)
    sim.check()


@pytest.mark.parametrize(("seed", "ticks"), [(0, 88), (30, 155), (161, 152)])
def test_the_stress_campaigns_corridor_cases_arrive(seed: int, ticks: int) -> None:
    """The stress campaign's seeds 0, 30 and 161 (``bench_rts.py --stress``: square-8, 14, 11 and 19 a side,
    30, 44 and 43 units, a third infantry or none): two vehicles in a dead end, each with its goal beyond the
    other, went to and fro for 4000 ticks; every unit arrives and stays home now (seeds 30 and 161 at ticks 155 and
    152: 188 and 174 before trades went before the chains on boards with diagonals too, ``simcrowd.crowd_pass``;
    seed 30 182 before soldiers traded places with friends with nothing to do before asking them aside, 243 before soldiers parted or went along in a trade, and vehicles traded places with soldiers at home; 239 before the
    crowd rule pushed on the vehicles soldiers wait for)."""
    from wargrid.scenarios import mixed_army, units_away

    size, n, foot = {0: (14, 30, 0.33), 30: (11, 44, 0.33), 161: (19, 43, 0.0)}[seed]
    sim = mixed_army("square8", size, n, foot, seed=seed)
    rep = sim.run(4000)
    assert rep.tick == ticks
    assert [s for _, s, _, _ in rep.units if s != "arrived"] == []
    assert units_away(sim) == []


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(2, 14), speed=st.sampled_from([64, 128, 256, 512]))
def test_no_two_vehicles_share_a_cell_nor_pass_through_each_other(seed: int, n: int, speed: int) -> None:
    """Every tick, on random boards: every vehicle on its own cell, and two vehicles trade cells only by a trade
    of places (a 'swap' event, both landing on one tick); every unit arrives or is still on its way."""
    rng = np.random.default_rng(seed)
    w, h = 7, 6
    walls = rng.random((h, w)) < 0.2
    m = _board(["".join("@" if walls[y, x] else "." for x in range(w)) for y in range(h)])
    zones = m.zones()
    free = np.argwhere(zones >= 0)
    if len(free) < 2 * n:
        return
    big = np.bincount(zones[zones >= 0]).argmax()
    cells = [(int(x), int(y)) for y, x in free if zones[y, x] == big]
    if len(cells) < n + 1:
        return
    pick = rng.permutation(len(cells))
    starts = [cells[i] for i in pick[:n]]
    goals = [cells[i] for i in rng.permutation(len(cells))[:n]]
    sim = Simulation(m, seed=seed, crowd=True)
    for a, b in zip(starts, goals):
        sim.add_unit(a, unit="walk", goal=b, speed=speed)
    prev = sim.cells().copy()
    steps = LEPTONS_PER_CELL // speed + 1  # the ticks a trade of places takes to land
    for _ in range(60):
        sim.step()
        sim.check()
        now = sim.cells().copy()
        assert len({tuple(c) for c in now.tolist()}) == n, "two vehicles on one cell"
        traded = any(e.what == "swap" and e.tick > sim.tick - steps - 1 for e in sim.events)
        for i in range(n):
            for j in range(i + 1, n):
                if (now[i] == prev[j]).all() and (now[j] == prev[i]).all() and not (now[i] == prev[i]).all():
                    assert traded, f"units {i} and {j} passed through each other at tick {sim.tick} without a trade"
        prev = now


def test_no_unit_moves_two_cells_in_a_tick() -> None:
    """At one cell a tick, a unit that stepped this tick is neither traded places with nor asked aside again in
    it (a unit's own turn could move one the crowd rule had just moved: two cells in one tick)."""
    rng = np.random.default_rng(7)
    wall = rng.random((32, 32)) < 0.1
    terrain = np.where(wall, 3, 0).astype(np.int16)
    m = Map(SquareGrid(32, 32), terrain=terrain, terrains=MOVINGAI_TERRAINS)
    z = m.zones()
    ys, xs = np.nonzero(z == np.bincount(z[z >= 0]).argmax())
    pick = rng.choice(len(xs), 400, replace=False)
    sim = Simulation(m, seed=3, crowd=True)
    for a, b in zip(pick[:200], pick[200:]):
        sim.add_unit((int(xs[a]), int(ys[a])), unit="walk", goal=(int(xs[b]), int(ys[b])), speed=LEPTONS_PER_CELL)
    prev = sim.positions().astype(np.int64)
    for _ in range(40):
        sim.step()
        now = sim.positions().astype(np.int64)
        assert np.abs(now - prev).sum(axis=1).max() <= LEPTONS_PER_CELL
        prev = now
    sim.check()


def test_two_hundred_vehicles_on_the_mapf_benchmark_arrive_within_a_tenth_of_lacams_makespan() -> None:
    """random-32-32-10, the scenario's first 200 lines (tests/data/mapf), one vehicle an agent: every unit on
    its goal, the last arrival within 1.1 x LaCAM's makespan (57, its first solution on this instance: at most
    62) and the sum of arrival ticks below LaCAM's sum of costs (7165), at every seed. (A tick in the crowd a
    step of priority, nearer units first, took 69, 63 and 70 ticks at seeds 0, 1 and 5.)"""
    data = Path(__file__).resolve().parent.parent / "data" / "mapf"
    m = load_movingai(data / "random-32-32-10.map", diagonal=False)
    starts, goals = load_movingai_agents(data / "random-32-32-10-random-1.scen", agents=200)
    want = np.array(goals)
    spans = []
    for seed in range(8):
        sim = Simulation(m, seed=seed)
        for a, b in zip(starts, goals):
            sim.add_unit(a, unit="walk", goal=b, speed=LEPTONS_PER_CELL)
        last = np.where((np.array(starts) != want).any(axis=1), 0, -1)  # the last tick off goal (-1: never)
        for t in range(1, 200):
            sim.step()
            off = (sim.cells() != want).any(axis=1)
            last[off] = t
            if not off.any():
                break
        assert (sim.cells() == want).all()
        arrival = last + 1  # a plan's timesteps: the tick after which the unit stays on its goal
        assert arrival.sum() < 7165
        spans.append(int(arrival.max()))
    assert max(spans) <= 62
    # 54 54 53 54 53 54 54 53 (sums 52 057) before trades went before the chains (sums 52 319 now), 54 57 55 55 54
    # 54 57 54 (sums 52 226) before two units trading places at the mouth of a one-cell door, 54 55 54 54 54 55 54
    # 55 (sums 52 589) before a unit that stepped on went first among equal keys,
    # 54 54 54 54 54 57 54 54 before the front rule read the pusher's distances and the band was decided every
    # ``AGE`` ticks (sums 52 989), 57 54 54 55 55 54 55 56 before the front rule
    assert spans == [53, 53, 53, 54, 53, 54, 53, 53]


def test_a_group_sent_to_one_cell_counts_every_tick_in_the_crowd() -> None:
    # 60 vehicles ordered to one cell: units sharing a goal keep PIBT's priority (a tick in the crowd a step), so
    # the units nearest the goal settle first; counting the crowd's ticks in fives (as for units with goals of
    # their own) let the outer units push the settled ones for 466 ticks instead of 319
    from wargrid.scenarios import crowd

    sim = crowd(60)
    rep = sim.run(3000)
    assert [s for _, s, _, _ in rep.units] == ["arrived"] * 60
    assert rep.tick == 319


PASSAGE = ["......@@@@@@@@@@@@......",
           "........................",
           "........................",
           "........................",
           "......@@@@@@@@@@@@......",
           "......@@@@@@@@@@@@......"]
"""Two rooms of 6 x 6 joined by a passage three cells wide and twelve long."""


def _head_on(seed: int) -> int | None:
    """Twelve units cross the passage each way (random cells of one room to random cells of the other)."""
    m = _board(PASSAGE)
    left = [(x, y) for x in range(6) for y in range(6)]
    right = [(23 - x, y) for x in range(6) for y in range(6)]
    rng = np.random.default_rng(seed)
    a, b, c, d = (rng.permutation(36)[:12] for _ in range(4))
    starts = [left[i] for i in a] + [right[i] for i in c]
    goals = [right[i] for i in b] + [left[i] for i in d]
    sim = Simulation(m, seed=seed, crowd=True)
    for s, g in zip(starts, goals):
        sim.add_unit(s, unit="walk", goal=g, speed=LEPTONS_PER_CELL)
    want = np.array(goals)
    for t in range(1, 201):
        sim.step()
        if (sim.cells() == want).all():
            sim.check()
            return t
    return None


def test_two_streams_meeting_head_on_in_a_passage_keep_right() -> None:
    """Each unit on its way (more than ``KEEP_RIGHT`` steps from its goal) prefers the cell on the right of its
    way among cells as near its goal: the two streams take the two sides of the passage instead of pushing each
    other back and forth in it (46, 39, 41 and 44 ticks for seeds 0..3 before). Seeds 0..7: 37, 36, 33, 32, 35,
    32, 42, 40 when only units blocked by a standing friend joined the crowd, 32, 35, 37, 40, 32, 34, 31, 35 with
    every unit on its way in it (the same over seeds 0..11: 36.8 and 37.1 ticks on average)."""
    ticks = [_head_on(seed) for seed in range(8)]
    assert all(t is not None and t <= 40 for t in ticks), ticks
    assert sum(ticks) <= 36 * len(ticks), ticks


@pytest.mark.slow
def test_a_unit_no_estimate_leads_on_searches_its_row_out_of_the_ticks_budget() -> None:
    """2000 random pairs on an open 192 x 192 board with 2 % walls at random: the tables' budget of a tick never
    reached some units' rows, and a unit whose every neighbour nearer its goal was a wall (a local minimum of the
    coordinates' bound) stood there, waiting for a route behind 2000 others: the last arrived at tick 429, the
    agents' own distances at most 314. Such a unit now searches its row out of the tick's budget
    (``simcrowd.STALL_BUDGET``): 318 ticks."""
    rng = np.random.default_rng(0)
    wall = rng.random((192, 192)) < 0.02
    m = Map(SquareGrid(192, 192), terrain=np.where(wall, 3, 0).astype(np.int16), terrains=MOVINGAI_TERRAINS)
    z = m.zones()
    ys, xs = np.nonzero(z == np.bincount(z[z >= 0]).argmax())
    a, b = rng.choice(len(xs), 2000, replace=False), rng.choice(len(xs), 2000, replace=False)
    sim = Simulation(m, seed=0, crowd=True)
    for i, j in zip(a, b):
        sim.add_unit((int(xs[i]), int(ys[i])), unit="walk", goal=(int(xs[j]), int(ys[j])), speed=LEPTONS_PER_CELL)
    want = np.array([(int(xs[j]), int(ys[j])) for j in b])
    for t in range(1, 401):
        sim.step()
        if (sim.cells() == want).all():
            break
    assert (sim.cells() == want).all()
    assert t <= 330  # 314 x 1.05
    sim.check()


def _edge_column(seed: int, lanes: int = 3) -> tuple[int, int]:
    """A block of six rows of ``lanes`` units going north along the east edge of an open 8 x 24 board, each six
    cells up, past a unit on its goal at the edge; returns the ticks until every unit is on its goal and the
    farthest the unit on its goal was pushed from it."""
    m = Map(SquareGrid(8, 24), terrain=np.zeros((24, 8), dtype=np.int16), terrains=MOVINGAI_TERRAINS)
    sim = Simulation(m, seed=seed, crowd=True)
    goals = [(7, 14)]
    sim.add_unit((7, 14), unit="walk", goal=(7, 14), speed=LEPTONS_PER_CELL)
    for y in range(18, 24):
        for x in range(8 - lanes, 8):
            sim.add_unit((x, y), unit="walk", goal=(x, y - 18), speed=LEPTONS_PER_CELL)
            goals.append((x, y - 18))
    want = np.array(goals)
    far = 0
    for t in range(1, 201):
        sim.step()
        x, y = sim.cells()[0]
        far = max(far, abs(int(x) - 7) + abs(int(y) - 14))
        if (sim.cells() == want).all():
            sim.check()
            return t, far
    return 0, far


def test_a_unit_pushed_off_its_goal_steps_out_of_the_way_not_ahead_of_the_pusher() -> None:
    """A unit pushed aside keeps off the cell one step further along the way of the member pushing it (the front
    rule, 4-connected boards): ahead of it, it was pushed again at the next tick (a unit off its goal was driven
    26 cells along a board's edge, empty-48-48 with 600 random pairs: makespan 97 against 79). Here, at seeds
    0..3, the unit on its goal was pushed 9, 10, 13 and 14 cells away and the block took 30, 34, 35 and 34 ticks
    before the rule (28, 22, 30, 26 ticks and 8, 5, 7, 4 cells before it read the pusher's distances and the band
    was decided every ``AGE`` ticks; 28, 27, 27, 25 ticks and 8, 5, 7, 6 cells before a unit that stepped on went
    first among equal keys: the block's units set out together, so among equals the order is now who moved last,
    and at seed 2 the rear of the block pushed the unit 12 cells before it got round)."""
    runs = [_edge_column(seed) for seed in range(4)]
    assert [t for t, _ in runs] == [25, 25, 34, 25]
    assert [f for _, f in runs] == [5, 7, 12, 5]


MAZE = ["@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
        "@....@........................@@",
        "@....@........................@@",
        "@....@........................@@",
        "@....@........................@@",
        "@....@@@@@@@@@@@....@@@@@@....@@",
        "@....@.........@.........@....@@",
        "@....@.........@.........@....@@",
        "@....@.........@.........@....@@",
        "@....@.........@.........@....@@",
        "@....@....@....@@@@@@@@@@@....@@",
        "@.........@....@..............@@",
        "@.........@....@..............@@",
        "@.........@....@..............@@",
        "@.........@....@..............@@",
        "@@@@@@@@@@@....@....@@@@@@....@@",
        "@.........@.........@....@....@@",
        "@.........@.........@....@....@@",
        "@.........@.........@....@....@@",
        "@.........@.........@....@....@@",
        "@....@@@@@@@@@@@@@@@@....@....@@",
        "@.............................@@",
        "@.............................@@",
        "@.............................@@",
        "@.............................@@",
        "@....@@@@@@@@@@@@@@@@@@@@@@@@@@@",
        "@.............................@@",
        "@.............................@@",
        "@.............................@@",
        "@.............................@@",
        "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
        "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@"]
"""maze-32-32-4 of ``benchmarks/mapf_families.py``: a maze of corridors four wide."""


def test_the_units_that_set_the_makespan_go_first_in_a_dense_maze() -> None:
    """100 random pairs on a maze with corridors four wide (``bench_crowd.py --map maze-32-32-4.map --random-pairs
    100 --seed 2``): the last unit arrives at tick 106, within a tenth of the planner's makespan (105 timesteps).
    Before the band of the critical units (``simcrowd.CRITICAL``) 134: a unit far from its goal, held back early,
    kept the priority of its distance when it joined and was pushed to and fro at the junctions crossed by
    streams."""
    sim, goals = _random_pairs(MAZE, 100, 2)
    arrived = _arrival(sim, goals, 400)
    assert arrived is not None and arrived <= 115  # 1.1 x 105
    sim.check()


def _random_pairs(rows: list[str], n: int, seed: int, diagonal: bool = False) -> tuple[Simulation, np.ndarray]:
    """A simulation of ``n`` vehicles between random distinct starts and distinct goals on the board ``rows``
    (one zone), drawn as ``bench_crowd.py --random-pairs n --seed seed`` draws them; and the goals."""
    m = _board(rows, diagonal)
    ys, xs = np.nonzero(m.zones() >= 0)
    rng = np.random.default_rng(seed)
    a = rng.choice(len(xs), n, replace=False)
    b = rng.choice(len(xs), n, replace=False)
    goals = np.array([(int(xs[i]), int(ys[i])) for i in b])
    sim = Simulation(m, seed=seed, crowd=True)
    for i, g in zip(a, goals):
        sim.add_unit((int(xs[i]), int(ys[i])), unit="walk", goal=(int(g[0]), int(g[1])), speed=LEPTONS_PER_CELL)
    return sim, goals


ROOMS = ["@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
         "@...@...@...@...............@@@@",
         "@...@...........@...@...@...@@@@",
         "@.......@...@...@...@...@...@@@@",
         "@.@@@@@@@.@@@.@@@@@.@@.@@@.@@@@@",
         "@...@...@...@...@.......@...@@@@",
         "@.......@...@...@...@...@...@@@@",
         "@...@...@.......@...@.......@@@@",
         "@@.@@@@@@@@.@@.@@@@@@@@.@@@.@@@@",
         "@...@...........@...@...@...@@@@",
         "@.......@...@...@...@.......@@@@",
         "@...@...@...@...........@...@@@@",
         "@@.@@.@@@@@.@@@@@@.@@@.@@@.@@@@@",
         "@...@.......@...@...@...@...@@@@",
         "@...@...@...@...@.......@...@@@@",
         "@...@...@...@...@...@...@...@@@@",
         "@@.@@@.@@@@.@@.@@@@@@@@@@@@.@@@@",
         "@...@...@...@...@.......@...@@@@",
         "@...@...@.......@...@...@...@@@@",
         "@...@...@...@.......@.......@@@@",
         "@@@@@.@@@.@@@@@.@.@@@@@@@.@@@@@@",
         "@...@...@...@...@...@.......@@@@",
         "@.......@...@...........@...@@@@",
         "@...@.......@...@...@...@...@@@@",
         "@@.@@.@@@@.@@.@@@@@@@@.@@@@.@@@@",
         "@.......@...@...@.......@...@@@@",
         "@...@...@...@...@...@...@...@@@@",
         "@...@...@...........@...@...@@@@",
         "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
         "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
         "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
         "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@"]
"""room-32-32-4 of ``benchmarks/mapf_families.py``: rooms of three by three cells joined by one-cell doors."""


@pytest.mark.parametrize(("n", "seed", "ticks"), [(50, 2, 49), (100, 13, 57)])
def test_units_at_one_cell_doors_step_off_the_way_of_the_unit_pushing_them(n: int, seed: int, ticks: int) -> None:
    """Random pairs on rooms joined by one-cell doors (``bench_crowd.py --map room-32-32-4.map --random-pairs N
    --seed S``; the planner's makespans 44-47 and 68): the last unit arrives at tick 49 and 57 (54 with 100 pairs
    before a unit traded before the chains only from nearer its goal than at its last such trade, ``traded``; 48
    and 64 before trades went before the chains, ``simcrowd.crowd_pass``: with 50 pairs a unit crossing the crowd at
    (12, 18) lost two ticks more, the sum of arrivals 1551 against 1567; 70 before two units
    trading places at the mouth of a door, ``simcrowd._trade_places``). 59 and 62 before a
    unit that stepped on went first among equal keys (``simcrowd._critical_band``): with 50 pairs, at the door
    (12, 18), two units of equal keys on either side went first in turn by the tick's random order, pushing each
    other back through it from tick 40 to 47; with 100 pairs a crowd at another door was crossed later (on these
    rooms one run moves by up to 15 % with the order of equals, docs/design/kernels.md). Before a unit that a
    member on its way may push kept off the cells nearer that member's goal (the front rule, as the planner's
    ``DODGE``) and before the band was decided every ``AGE`` ticks, 62 and 80: with 50 pairs, at the door (12, 18),
    the goal of a unit, two streams pushed each other back through it in turn for six ticks, a unit at the band's
    edge going in and out of it as the farthest unit stepped to and fro."""
    sim, goals = _random_pairs(ROOMS, n, seed)
    assert _arrival(sim, goals, 300) == ticks
    sim.check()


@pytest.mark.parametrize(("n", "seed", "ticks"), [(100, 6, 53), (200, 3, 84)])
def test_two_units_head_on_at_the_mouth_of_a_one_cell_door_trade_places(n: int, seed: int, ticks: int) -> None:
    """Random pairs on rooms joined by one-cell doors (``bench_crowd.py --map room-32-32-4.map --random-pairs N
    --seed S``; the planner's makespans 52 and 104): every unit arrives, the last at tick 53 and 84 (81 with 200
    pairs before a unit traded before the chains only from nearer its goal than at its last such trade, 95 before
    trades went before the chains, ``simcrowd.crowd_pass``). Before two units
    that want each other's cells, one of them standing at the mouth of a door (the cell behind it, on the axis of its
    best step, has two ways out, opposite), traded places (``simcrowd._trade_places``), 60 and 118: with 100 pairs,
    a unit that had just come through the door (11, 16) was pushed back through it by the units of the stream
    coming the other way, three times in seven ticks, once four cells (the room beyond packed with that stream's
    units, it had no other cell); with 200 pairs (traced before the change), units settled on their goals in a packed room were
    pushed out through its door ahead of a passing unit, eight cells, and came back last."""
    sim, goals = _random_pairs(ROOMS, n, seed)
    assert _arrival(sim, goals, 300) == ticks
    sim.check()


@pytest.mark.parametrize(("n", "seed", "ticks"), [(100, 3, 60), (200, 4, 94)])
def test_units_trade_places_at_one_cell_doors_before_the_chains_push_them_back(n: int, seed: int, ticks: int) -> None:
    """Random pairs on rooms joined by one-cell doors (``bench_crowd.py --map room-32-32-4.map --random-pairs N
    --seed S``; the planner's makespans 69 and 102): the last unit arrives at tick 60 and 94 (59 and 93 before a
    unit traded so only from nearer its goal than at its last such trade), 83 and 121 before two
    units that cannot go round each other, both farther than ``NEAR_HOME`` from their goals, traded places before
    any push chain (``simcrowd.crowd_pass``): a unit at a door was pushed back from it by a chain of the stream
    coming through the other way, its trade with the door's holder refused while the root behind that holder wanted
    the door first."""
    sim, goals = _random_pairs(ROOMS, n, seed)
    assert _arrival(sim, goals, 300) == ticks
    sim.check()


@pytest.mark.parametrize(("seed", "ticks"), [(1, 74), (5, 68)])
def test_units_trade_places_before_the_chains_on_rooms_with_diagonals(seed: int, ticks: int) -> None:
    """room-32-32-4 as a square board with diagonals (corner rule no-obstacle: a door's diagonals are cut by its
    walls), 100 random pairs: the last unit arrives at tick 74 and 68 (66 and 65 before a unit traded so only from
    nearer its goal than at its last such trade), 74 and 77 while trades before the chains
    (``simcrowd.crowd_pass``) were for 4-connected boards only (seeds 0..5 62 66 66 68 63 65 against 68 74 71 74
    70 77; on the campaign of ``crowd_square8.py`` they settle run 286, 20 units off their goals at tick 5000
    before)."""
    sim, goals = _random_pairs(ROOMS, 100, seed, diagonal=True)
    assert _arrival(sim, goals, 300) == ticks
    sim.check()


CORRIDORS = ["@@@@..@@.@..@.",
             ".@.....@@..@@.",
             "@@@@@..@@@@..@",
             ".@..@@.@..@.@.",
             "...........@@@",
             "@@.@@@....@@.@",
             "@@@...@....@.@",
             "....@.@@.@@...",
             "@.@..@.@.@..@@",
             "@..@..@......@",
             "@.@@..@..@..@.",
             "@..@.@@@@@.@.@",
             "..........@.@@",
             "@@..@@....@.@."]
"""A 14 x 14 board of random walls (42 % of the cells) and the corridors between them: 41 units (six soldiers, four
cloaked), three in four of the open cells of its largest part held."""
CORRIDOR_STARTS = [(6, 3), (2, 1), (5, 1), (10, 9), (0, 3), (7, 4), (5, 2), (12, 7), (12, 5), (10, 11), (2, 5),
                   (8, 9), (3, 3), (8, 5), (4, 4), (11, 7), (12, 6), (8, 4), (4, 1), (6, 5), (9, 6), (2, 3), (0, 4),
                   (7, 5), (10, 8), (8, 10), (8, 6), (9, 3), (7, 10), (9, 5), (11, 9), (8, 3), (4, 0), (8, 8), (3, 1),
                   (12, 9), (2, 4), (10, 4), (1, 4), (8, 7), (9, 4)]
CORRIDOR_GOALS = [(9, 3), (10, 6), (8, 5), (10, 8), (7, 5), (10, 11), (9, 4), (7, 4), (8, 7), (4, 4), (11, 10),
                  (2, 3), (9, 5), (8, 8), (7, 9), (5, 4), (3, 3), (8, 9), (8, 10), (11, 8), (0, 4), (8, 3), (11, 7),
                  (4, 1), (5, 2), (12, 6), (7, 10), (5, 0), (6, 4), (12, 7), (0, 3), (6, 1), (9, 6), (6, 2), (9, 9),
                  (1, 4), (10, 10), (6, 5), (2, 1), (8, 4), (11, 9)]


def test_early_trades_of_a_unit_end_where_they_bring_it_no_nearer_its_goal_than_its_last() -> None:
    """A unit trades places before the chains (``simcrowd.crowd_pass``) only from nearer its goal than it last did
    so: each such trade brings both units a step nearer, and it did not bound them. On this board 15 units were
    still off their goals at tick 3000, traded early and pushed back by the chains in turn (each unit at most nine
    times, about nine moves a tick at the end); every unit home at tick 59 now (55 without trades before the
    chains)."""
    sim = Simulation(_board(CORRIDORS), seed=487, crowd=True)
    for i, (a, b) in enumerate(zip(CORRIDOR_STARTS, CORRIDOR_GOALS)):
        sim.add_unit(a, unit="walk", goal=b, speed=256, kind="infantry" if i in (2, 4, 17, 26, 29, 37) else "vehicle",
                     cloaked=i in (9, 20, 22, 38))
    assert _arrival(sim, np.array(CORRIDOR_GOALS), 400) == 59
    sim.check()


def _door_on_a_wrap_board(seed: int, roll: int) -> int | None:
    """Two streams of four units crossing a one-cell door in a wall column of a 10 x 5 wrap-around board (a second
    wall opposite, so there is no way round), the whole scene rolled ``roll`` columns east; the tick all arrive."""
    w, h, xw, ydoor = 10, 5, 3, 2
    ter = np.zeros((h, w), dtype=np.int16)
    ter[:, xw] = 3
    ter[ydoor, xw] = 0
    ter[:, (xw + w // 2) % w] = 3
    m = Map(SquareGrid(w, h, wrap_x=True), terrain=np.roll(ter, roll, axis=1), terrains=MOVINGAI_TERRAINS)
    rng = np.random.default_rng(seed)
    left = [((xw - 1 - i) % w, y) for i in range(2) for y in range(h)]
    right = [((xw + 1 + i) % w, y) for i in range(2) for y in range(h)]
    rng.shuffle(left)
    rng.shuffle(right)
    sim = Simulation(m, seed=seed, crowd=True)
    goals = []
    for k in range(8):
        a, b = (left[k], right[k]) if k % 2 == 0 else (right[k], left[k])
        sim.add_unit(((a[0] + roll) % w, a[1]), unit="walk", goal=((b[0] + roll) % w, b[1]), speed=LEPTONS_PER_CELL)
        goals.append(((b[0] + roll) % w, b[1]))
    return _arrival(sim, np.array(goals), 150)


@pytest.mark.parametrize("seed", [2, 5])
def test_a_door_on_a_wrap_boards_seam_is_a_door(seed: int) -> None:
    """The same door scene rolled so that the door sits at x = 3, on the seam (x = 0) and at x = 9: the same tick
    (13 and 14; 17 and 19 before trades went before the chains, ``simcrowd.crowd_pass``). The door's cells were
    found by their ids in line (``2 p - q``), which a step across the seam is not: a door on the seam was no door,
    and the scene took 16 and 13 ticks there."""
    ticks = [_door_on_a_wrap_board(seed, roll) for roll in (0, 7, 6)]
    assert ticks == [{2: 13, 5: 14}[seed]] * 3


def test_a_unit_that_stepped_on_goes_first_among_equals_in_a_dense_maze() -> None:
    """200 random pairs on the maze with corridors four wide (``bench_crowd.py --map maze-32-32-4.map --random-pairs
    200 --seed 3``; the planner's makespan 102-103 timesteps): the last unit arrives at tick 109 (108 before the
    crowd rule refused rings that only churn goals, ``simcrowd._churns``). Before a unit that
    stepped nearer its goal since its last choice went first among the units of equal whole part and band
    (``simcrowd._critical_band``), 122: the streams crossing the corridors of the east took the junctions in turn,
    and the last unit, 75 steps from its goal, lost some 30 ticks there."""
    sim, goals = _random_pairs(MAZE, 200, 3)
    assert _arrival(sim, goals, 400) == 109
    sim.check()


def test_three_vehicles_rotate_in_a_packed_board_with_diagonals_whose_last_step_is_diagonal() -> None:
    """11 x 7 square board with diagonals (corner rule one-obstacle), 33 vehicles at a cell a tick, 30 on their
    goals: three must rotate, (5, 4) -> (4, 4) -> (4, 5) -> (5, 6), the last step a diagonal (its unit's only step
    nearer). A rule that ranked slow diagonals behind staying left them off their goals for good; all home at once."""
    rows = ["....#...#.#", ".##.#.#...#", "...#.#....#", ".#.......#.", "......##...", ".#.#.#.....", "..#........"]
    s = [(2, 2), (1, 2), (6, 3), (7, 1), (5, 4), (7, 2), (0, 6), (8, 5), (4, 2), (1, 0), (3, 6), (4, 6), (2, 5), (8, 4),
         (8, 2), (0, 5), (4, 5), (9, 5), (0, 2), (9, 0), (9, 2), (4, 4), (7, 6), (10, 5), (6, 6), (3, 0), (9, 1), (8, 6),
         (7, 5), (1, 4), (8, 1), (6, 0), (9, 4)]
    g = list(s)
    g[4], g[16], g[21] = (4, 4), (5, 6), (4, 5)
    rock = MOVINGAI_TERRAINS.names.index("out_of_bounds")
    terrain = np.array([[rock if c == "#" else 0 for c in r] for r in rows], dtype=np.int16)
    m = Map(SquareGrid(11, 7, diagonal=True, corner_rule="one-obstacle"), terrain=terrain, terrains=MOVINGAI_TERRAINS)
    for seed in range(4):
        sim = Simulation(m, seed=seed)
        for a, b in zip(s, g):
            sim.add_unit(a, unit="walk", goal=b, speed=256)
        for _ in range(200):
            sim.step()
            if (sim.cells() == np.array(g)).all():
                break
        sim.check()
        assert sim.cells().tolist() == [list(c) for c in g], seed


OPEN = ["." * 32] * 32
"""empty-32-32 of ``benchmarks/mapf_families.py``: an open 32 x 32 board."""


def test_a_packed_crowd_moves_its_long_rings_and_arrives_within_a_tenth_of_the_planners_makespan() -> None:
    """921 random pairs on an open 32 x 32 board, nine cells in ten held (``bench_crowd.py --map empty-32-32.map
    --random-pairs 921 --seed 0``; the planner's first plan 110 timesteps): the last unit arrives at tick 106, and
    rings of more than 64 units trade places as one. Before, 114: such rings were refused, and every unit behind
    them stood."""
    sim, goals = _random_pairs(OPEN, 921, 0)
    assert _arrival(sim, goals, 400) == 106
    sizes = [int(e.detail.rpartition("(")[2].split()[0]) for e in sim.events if e.what == "swap"]
    assert max(sizes) > 64
    sim.check()


def test_a_packed_crowd_of_mixed_speeds_trades_places_in_rings_of_64_at_most() -> None:
    """The same 921 pairs, every other vehicle at half the speed: a ring moves at its slowest member's pace, so rings
    of more than ``CROWD_CYCLE`` (64) units start only where every member has one speed (a 94 % full 25 x 40 board
    of speeds 64-512 took 3371 ticks with long rings of mixed speeds against 2091 without)."""
    sim0, goals = _random_pairs(OPEN, 921, 0)
    sim = Simulation(sim0.map, seed=0, crowd=True)
    for u, g in enumerate(goals.tolist()):
        speed = LEPTONS_PER_CELL if u % 2 == 0 else LEPTONS_PER_CELL // 2
        sim.add_unit(tuple(int(c) for c in sim0.cells()[u]), unit="walk", goal=(g[0], g[1]), speed=speed)
    for _ in range(120):
        sim.step()
    sizes = [int(e.detail.rpartition("(")[2].split()[0]) for e in sim.events if e.what == "swap"]
    assert sizes and max(sizes) <= 64
    sim.check()


def _largest_zone(seed: int, w: int, h: int, walls: float) -> list[str] | None:
    """A ``w`` x ``h`` 4-connected board's rows with ``walls`` of its cells walls at random (``seed``) and only its
    largest zone open; None where that zone has fewer than 4 cells."""
    wall = np.random.default_rng(seed).random((h, w)) < walls
    z = _board(["".join("@" if wall[y, x] else "." for x in range(w)) for y in range(h)]).zones()
    if (z >= 0).sum() < 4:
        return None
    keep = z == np.bincount(z[z >= 0]).argmax()
    return ["".join("." if keep[y, x] else "@" for x in range(w)) for y in range(h)]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), w=st.integers(4, 10), h=st.integers(3, 8), walls=st.sampled_from([0.0, 0.1]),
       fill=st.floats(0.6, 0.95))
def test_every_unit_arrives_in_a_packed_crowd_on_a_small_board(seed: int, w: int, h: int, walls: float,
                                                              fill: float) -> None:
    """Random pairs filling 60-95 % of a small 4-connected board's largest zone (some boards with a tenth of their
    cells walls): every unit arrives, and the simulation's state stays sound."""
    rows = _largest_zone(seed, w, h, walls)
    if rows is None:
        return
    n = max(2, int(fill * "".join(rows).count(".")))
    sim, goals = _random_pairs(rows, n, seed)
    assert _arrival(sim, goals, 1000) is not None


def _diagonal_crowd(seed: int, n: int, size: int = 12) -> tuple[Simulation, np.ndarray]:
    """``n`` vehicles at one cell a tick with random goals on an open square board with diagonals (Moving AI
    terrain: a step costs 1, so a diagonal step takes two ticks and a straight one one)."""
    m = Map(SquareGrid(size, size, diagonal=True), terrain=np.zeros((size, size), dtype=np.int16),
            terrains=MOVINGAI_TERRAINS)
    rng = np.random.default_rng(seed)
    a = rng.choice(size * size, n, replace=False)
    b = rng.choice(size * size, n, replace=False)
    sim = Simulation(m, seed=seed)
    for s, g in zip(a.tolist(), b.tolist()):
        sim.add_unit((s % size, s // size), unit="walk", goal=(g % size, g // size), speed=LEPTONS_PER_CELL)
    return sim, np.array([(g % size, g // size) for g in b.tolist()], dtype=np.int64)


@pytest.mark.parametrize(("seed", "ticks"), [(0, 44), (1, 42)])
def test_a_dense_crowd_on_a_square_board_with_diagonals_steps_straight_where_a_diagonal_takes_two_ticks(
        seed: int, ticks: int) -> None:
    """100 vehicles on 12 x 12 (70 % of the cells), random goals: the tables count a diagonal step as one, and a
    crowd choosing by them stepped diagonally a third of its moves, each holding two cells for two ticks; a
    diagonal that takes as long as two straight steps counts ``simcrowd.DIAGONAL`` steps more among the
    candidates while the unit has its ``simcrowd.PATIENCE`` (before: the last unit on its goal at tick 57 at both
    seeds)."""
    sim, goals = _diagonal_crowd(seed, 100)
    assert _arrival(sim, goals, 1000) == ticks
    sim.check()


def _review_board(cid: int) -> tuple[Map, list[tuple[int, int]], list[tuple[int, int]], list[int]]:
    """A random board of a review's campaign of square boards with diagonals (mud of cost 2, walls, a corner
    rule by ``cid``), its largest zone 30-80 % held by vehicles with random goals, speeds mixed or all 256."""
    from wargrid.terrain import Terrain, TerrainTable

    table = TerrainTable([Terrain("floor", ".", "#dddddd", costs={"walk": 1}),
                          Terrain("mud", "m", "#886644", costs={"walk": 2}),
                          Terrain("wall", "#", "#333333", costs={"walk": float("inf")})])
    rng = np.random.default_rng(1000 + cid)
    n = int(rng.integers(9, 33))
    rule = ["always", "no-obstacle", "one-obstacle"][cid % 3]
    wrap = bool(rng.random() < 0.2)
    p = float(rng.choice([0.0, 0.1, 0.2]))
    mud = float(rng.choice([0.0, 0.0, 0.2]))
    r = rng.random((n, n))
    t = np.where(r < p, 2, np.where(r < p + mud, 1, 0)).astype(np.int16)
    m = Map(SquareGrid(n, n, diagonal=True, corner_rule=rule, wrap_x=wrap), terrain=t, terrains=table)
    z = m.zones(unit="walk")
    keep = np.bincount(z[z >= 0]).argmax()
    ys, xs = np.nonzero(z == keep)
    k = max(2, int(float(rng.uniform(0.3, 0.8)) * len(xs)))
    a = rng.choice(len(xs), k, replace=False)
    b = rng.choice(len(xs), k, replace=False)
    speeds = rng.choice([80, 128, 256, 512], k) if rng.random() < 0.6 else np.full(k, 256)
    return (m, [(int(xs[i]), int(ys[i])) for i in a], [(int(xs[i]), int(ys[i])) for i in b],
            [int(v) for v in speeds])


@pytest.mark.slow
def test_a_packed_board_with_diagonals_where_raised_diagonals_held_two_units_off_their_goals_for_good() -> None:
    """30 x 30, corner rule one-obstacle, 388 vehicles at one cell a tick (a review's run 41 of 300): with every
    slow diagonal raised for good two units never arrived (3000 ticks); with the raise spent after
    ``simcrowd.PATIENCE`` ticks without coming nearer every unit is home at tick 216 (211 before trades went before
    the chains on boards with diagonals too, ``simcrowd.crowd_pass``; 188 with no raise; 230 where a diagonal past a
    wall was raised too)."""
    m, s, g, speeds = _review_board(41)
    assert (m.grid.width, len(s), set(speeds)) == (30, 388, {256})
    sim = Simulation(m, seed=41)
    for a, b, v in zip(s, g, speeds):
        sim.add_unit(a, unit="walk", goal=b, speed=v)
    assert _arrival(sim, np.array(g, dtype=np.int64), 1000) == 216
    sim.check()


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), size=st.integers(5, 10), walls=st.floats(0.0, 0.3),
       full=st.floats(0.2, 0.9), rule=st.sampled_from(["always", "no-obstacle", "one-obstacle"]),
       speeds=st.sampled_from([(256,), (128, 256, 512), (80, 256, 300)]))
def test_every_vehicle_arrives_on_small_random_boards_with_diagonals(
        seed: int, size: int, walls: float, full: float, rule: str, speeds: tuple[int, ...]) -> None:
    """Random small square boards with diagonals, walls and every corner rule, 20-90 % of the largest zone held by
    vehicles with random goals at speeds where a diagonal takes twice the ticks of a straight step (256) or not:
    every unit is on its goal within 2000 ticks, each on its own cell."""
    rng = np.random.default_rng(seed)
    rock = MOVINGAI_TERRAINS.names.index("out_of_bounds")
    t = np.where(rng.random((size, size)) < walls, rock, 0).astype(np.int16)
    m = Map(SquareGrid(size, size, diagonal=True, corner_rule=rule), terrain=t, terrains=MOVINGAI_TERRAINS)
    z = m.zones(unit="walk")
    if not (z >= 0).any():
        return
    ys, xs = np.nonzero(z == np.bincount(z[z >= 0]).argmax())
    n = max(1, int(full * len(xs)))
    a = rng.choice(len(xs), n, replace=False)
    b = rng.choice(len(xs), n, replace=False)
    sim = Simulation(m, seed=seed)
    for i, j in zip(a.tolist(), b.tolist()):
        sim.add_unit((int(xs[i]), int(ys[i])), unit="walk", goal=(int(xs[j]), int(ys[j])),
                     speed=int(rng.choice(speeds)))
    goals = np.array([(int(xs[j]), int(ys[j])) for j in b.tolist()], dtype=np.int64)
    assert _arrival(sim, goals, 2000) is not None
    sim.check()


def test_a_diagonal_past_a_wall_is_not_raised_on_stairs_of_walls() -> None:
    """Two rooms joined by diagonal stairs of walls (``benchmarks/crowd_square8.py``'s board, corner rule
    ``always``), 40 vehicles at one cell a tick with random goals (seed 0): every one is home at tick 43. A diagonal
    with a wall at one of its corners is the way there, not a detour of two straight steps, and counts as one step;
    raised as in the open (``simcrowd.DIAGONAL``), the last arrived at tick 98."""
    t = np.full((16, 24), 1, dtype=np.int16)  # Moving AI terrain: 0 ground, 1 "out_of_bounds"
    t[1:8, 1:8] = 0
    t[8:15, 16:23] = 0
    for k in range(9):
        t[min(7 + k, 14), 7 + k] = 0
        t[1 + k, 8 + k] = 0
    rock = MOVINGAI_TERRAINS.names.index("out_of_bounds")
    m = Map(SquareGrid(24, 16, diagonal=True, corner_rule="always"), terrain=np.where(t == 1, rock, 0).astype(np.int16),
            terrains=MOVINGAI_TERRAINS)
    z = m.zones(unit="walk")
    ys, xs = np.nonzero(z == np.bincount(z[z >= 0]).argmax())
    assert len(xs) == 114
    rng = np.random.default_rng(0)
    a, b = rng.choice(len(xs), 40, replace=False), rng.choice(len(xs), 40, replace=False)
    sim = Simulation(m, seed=0)
    for i, j in zip(a, b):
        sim.add_unit((int(xs[i]), int(ys[i])), unit="walk", goal=(int(xs[j]), int(ys[j])), speed=LEPTONS_PER_CELL)
    assert _arrival(sim, np.array([(int(xs[j]), int(ys[j])) for j in b], dtype=np.int64), 400) == 43
    sim.check()


def _soldiers_among_vehicles_at_home(seed: int, n: int = 5, corners: tuple[tuple[int, int], ...] = ((0, 0), (4, 4)),
                                     home: bool = True, crowd: bool = True) -> tuple[Simulation, np.ndarray]:
    """An ``n`` x ``n`` board with a vehicle on every cell but the middle and the ``corners``, at home there (with no
    goal when not ``home``); a soldier in the middle cell for each corner, going to it. Every cell beside a soldier
    holds a vehicle with no free cell beside it. The goals: the vehicles' cells, then the corners."""
    m = Map(SquareGrid(n, n), terrain=np.zeros((n, n), dtype=np.int16), terrains=MOVINGAI_TERRAINS)
    sim = Simulation(m, seed=seed, crowd=crowd)
    mid = (n // 2, n // 2)
    goals = [(x, y) for y in range(n) for x in range(n) if (x, y) != mid and (x, y) not in corners]
    for g in goals:
        sim.add_unit(g, unit="walk", goal=g if home else None)
    for g in corners:
        sim.add_unit(mid, unit="walk", goal=g, kind="infantry")
        goals.append(g)
    return sim, np.array(goals, dtype=np.int64)


@pytest.mark.parametrize(("seed", "ticks"), [(1, 122), (2, 116)])
def test_soldiers_among_vehicles_at_home_on_a_packed_board_reach_their_goals(seed: int, ticks: int) -> None:
    """The vehicle a soldier waits for, with no free cell beside it, is pushed on by the crowd rule (``simcrowd``'s
    ``WAIT_ASKS``): a chain of vehicles steps towards a free cell and the soldier goes on. Before, each soldier waited
    for good for a vehicle to move aside (and a trade of places with it would have carried off the other soldier):
    neither ever left the middle cell. (163 and 97 ticks before a soldier traded places with a vehicle with nothing
    to do before asking it aside, and the push waited for it: ``WAIT_ASKS``.)"""
    sim, goals = _soldiers_among_vehicles_at_home(seed)
    assert _arrival(sim, goals, 1000) == ticks
    assert any(e.what == "aside" and e.detail.endswith(("unit 22", "unit 23")) for e in sim.events)
    sim.check()


SEVEN_TICKS = {0: (31, 93), 1: (27, 70), 2: (25, 70), 3: (26, 100), 4: (31, 175), 5: (27, 224), 6: (25, 65),
               7: (28, 90)}
"""The 7 x 7 board of vehicles at home with one soldier going from its middle to the corner (0, 0): (the tick the
soldier first stands on its goal, the tick every unit stands on its own at last) at seeds 0..7."""


@pytest.mark.parametrize("seed", range(8))
def test_a_lone_soldier_among_vehicles_at_home_reaches_the_one_free_corner(seed: int) -> None:
    """A soldier alone in the middle of a board of vehicles at home, its goal the one free cell: the vehicles it
    waits for are traded places with (a soldier trades with a friend with nothing to do before asking it aside) or,
    where it cannot trade with one at home for ``2 * WAIT_ASKS`` turns, pushed on (``simcrowd._asks``), and go back
    home. Before the trade came first: soldier home at 39 37 43 35 40 35 45 35, every unit at 43 60 130 56 111 58 69
    117 (the vehicles traded off their goals come back later; docs/design/kernels.md)."""
    sim, goals = _soldiers_among_vehicles_at_home(seed, n=7, corners=((0, 0),))
    first = None
    for t in range(1, 1001):
        sim.step()
        cells = sim.cells()
        if first is None and (cells[-1] == goals[-1]).all():
            first = t
        if (cells == goals).all():
            break
    assert (first, t) == SEVEN_TICKS[seed]
    sim.check()


def _soldiers_settle(sim: Simulation, soldiers: int, ticks: int) -> int | None:
    """The tick the run settles at, stepping up to ``ticks``: the last ``soldiers`` units (soldiers) each arrived, on
    its goal or stopped beside it where a unit at home holds it (``_crowd``; a vehicle with no goal is at home where
    it stands), and no unit moves or waits."""
    report = sim.run(ticks)
    states = report.states()
    if any(states[u] != "arrived" for u in range(len(states) - soldiers, len(states))):
        return None
    return report.tick if report.tick < ticks else None


@pytest.mark.parametrize(("seed", "ticks"), [(1, 63), (2, 63)])
def test_soldiers_among_vehicles_with_no_goal_on_a_packed_board_get_through(seed: int, ticks: int) -> None:
    """The 5 x 5 board, its vehicles given no goal: the vehicle a soldier waits for is pushed on as one at home is
    (the crowd rule ran only when some vehicle had a goal: both soldiers waited in the middle cell for good), and a
    vehicle pushed aside stays where it was put (an idle unit makes way, as one asked aside does). The only free
    cells are the corners, so a pushed vehicle may end on a soldier's goal: the soldier stops beside it."""
    sim, goals = _soldiers_among_vehicles_at_home(seed, home=False)
    start = sim.cells()[:-2].copy()
    assert _soldiers_settle(sim, 2, 1000) == ticks
    assert (np.abs(sim.cells()[-2:] - goals[-2:]).sum(axis=1) <= 1).all()
    assert any(e.what == "aside" and e.detail.endswith(("unit 22", "unit 23")) for e in sim.events)
    put = sim.cells()[:-2].copy()
    assert (put != start).any()
    sim.run(50)
    assert (sim.cells()[:-2] == put).all()
    sim.check()


def _soldier_pairs_among_idle_vehicles(seed: int, w: int, h: int, walls: float, fill: float) -> Simulation | None:
    """Vehicles with no goal on ``fill`` of a small 4-connected board's largest zone (``walls`` of its cells walls),
    three cells at least left free, and two soldiers in each of two of the other cells, each going to a cell at
    random (None where the zone is too small)."""
    rows = _largest_zone(seed, w, h, walls)
    if rows is None:
        return None
    m = _board(rows)
    ys, xs = np.nonzero(m.zones() >= 0)
    rng = np.random.default_rng(seed + 1)
    perm = rng.permutation(len(xs))
    nv = min(len(xs) - 5, int(fill * len(xs)))  # (a free cell at least, wherever the soldiers stand: a push ends in one)
    if nv < 1:
        return None
    sim = Simulation(m, seed=seed)
    for i in perm[:nv].tolist():
        sim.add_unit((int(xs[i]), int(ys[i])), unit="walk")
    for i in perm[nv:nv + 2].tolist():
        for _ in range(2):
            j = int(rng.integers(len(xs)))
            sim.add_unit((int(xs[i]), int(ys[i])), unit="walk", goal=(int(xs[j]), int(ys[j])), kind="infantry")
    return sim


def _soldier_pairs_settle(seed: int, w: int, h: int, walls: float, fill: float) -> None:
    sim = _soldier_pairs_among_idle_vehicles(seed, w, h, walls, fill)
    if sim is None:
        return
    assert _soldiers_settle(sim, 4, 2000) is not None
    sim.check()


SOLDIER_PAIRS = dict(seed=st.integers(0, 2**31 - 1), w=st.integers(4, 8), h=st.integers(3, 7),
                     walls=st.sampled_from([0.0, 0.1]), fill=st.floats(0.7, 0.95))


@settings(max_examples=30, deadline=None)
@given(**SOLDIER_PAIRS)
def test_soldiers_two_to_a_cell_among_vehicles_with_no_goal_settle(seed: int, w: int, h: int, walls: float,
                                                                   fill: float) -> None:
    """Vehicles with no goal on 70-95 % of a small 4-connected board (some boards with a tenth of their cells
    walls), pairs of soldiers in two of the other cells, each going to a cell at random, and a cell free of units
    wherever the four soldiers end (three left free at the start: with one, the first pair can part onto the last
    two free cells and no vehicle can move again): every soldier arrives (on its goal, or beside it where a vehicle
    with no goal holds it) and the run settles, and the simulation's state stays sound. Behind walls the soldiers'
    own cell can be the only way from the vehicles in their way to the free cells: the soldiers part, or go along
    in the trade of places (``test_soldiers_behind_walls_let_the_vehicle_in_their_way_through``)."""
    _soldier_pairs_settle(seed, w, h, walls, fill)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(**SOLDIER_PAIRS)
def test_soldiers_two_to_a_cell_among_vehicles_with_no_goal_settle_many(seed: int, w: int, h: int, walls: float,
                                                                        fill: float) -> None:
    """The test above with 300 examples (about 15 s). The old deadlock behind walls comes about once in 600
    random examples, so this is exploration more than a guard (hypothesis's derandomized examples follow the
    test's source: a run of the old code once failed at seed 6722, 7 x 4, fill 0.75, another did not); the guard
    is the literal cases below."""
    _soldier_pairs_settle(seed, w, h, walls, fill)


@pytest.mark.parametrize(("seed", "w", "h", "fill", "ticks", "parts"),
                         [(157, 8, 3, 0.8, 51, True), (591901790, 5, 4, 0.9413505445924519, 30, True),
                          (1004716840, 7, 3, 0.7712287964564215, 40, False)])
def test_soldiers_behind_walls_let_the_vehicle_in_their_way_through(seed: int, w: int, h: int, fill: float,
                                                                   ticks: int, parts: bool) -> None:
    """Two soldiers in one cell going different ways, each waiting for a vehicle with no goal whose only way to
    a free cell is the soldiers' own cell (walls round it): a trade of places would carry off the other soldier,
    so both waited there for good (seed 157 on 8 x 3: the pair at (5, 1) between the vehicles on (4, 1) and (5,
    0), the free cells (6, 1) and (7, 1) beyond it). Now the cell-mate steps aside to a free cell (``sim._part``)
    and the soldier trades alone, or, where no cell beside theirs is free, the cell-mate goes along in the trade
    and plans its way anew from there (the last case: no cell beside the pair's is free). Before, every case
    stood at tick 2000 with the pair in its cell."""
    sim = _soldier_pairs_among_idle_vehicles(seed, w, h, 0.1, fill)
    assert sim is not None
    assert _soldiers_settle(sim, 4, 2000) == ticks
    n = len(sim.cells())
    asked = [e for e in sim.events if e.what == "asked" and e.uid >= n - 4 and int(e.detail.split()[1]) >= n - 4]
    assert bool(asked) == parts  # a soldier asked its cell-mate aside
    sim.check()


def test_a_soldier_attacking_is_neither_carried_off_nor_asked_aside_by_its_cell_mate() -> None:
    """Soldier ``w`` attacks the enemy beside its cell; its cell-mate ``u`` waits for the idle vehicles on its way
    home. Neither a trade of places carries ``w`` along nor ``u`` asks it aside: it stays on its target (it was
    carried off at tick 3 and came back at tick 21, 381 damage in 400 ticks)."""
    m = Map(SquareGrid(6, 3))
    m.set_terrain([(x, y) for x in range(6) for y in (0, 2)], "water")
    sim = Simulation(m, seed=1)
    sim.add_unit((0, 1), unit="tracked")
    sim.add_unit((1, 1), unit="tracked")
    sim.add_unit((2, 1), kind="infantry", unit="foot", goal=(0, 1))
    w = sim.add_unit((2, 1), kind="infantry", unit="foot", goal=(5, 1), damage=1.0)
    e = sim.add_unit((3, 1), unit="tracked", team=1, hp=1e6)
    for _ in range(400):
        sim.step()
        assert tuple(sim.cells()[w]) == (2, 1)
    assert sim.get(e).hp == 1e6 - 400
    assert not [x for x in sim.events if x.what in ("swap", "asked")]
    sim.check()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), w=st.integers(4, 9), h=st.integers(3, 7), walls=st.sampled_from([0.0, 0.1]),
       fill=st.floats(0.6, 0.95))
def test_every_unit_arrives_in_a_packed_crowd_of_soldiers_among_vehicles(seed: int, w: int, h: int, walls: float,
                                                                         fill: float) -> None:
    """Random pairs filling 60-95 % of a small 4-connected board's largest zone, a seventh of the units soldiers, a
    tenth cloaked, speeds mixed: every unit arrives, and the simulation's state stays sound."""
    rows = _largest_zone(seed, w, h, walls)
    if rows is None:
        return
    m = _board(rows)
    ys, xs = np.nonzero(m.zones() >= 0)
    n = max(2, int(fill * len(xs)))
    rng = np.random.default_rng(seed + 1)
    a = rng.choice(len(xs), n, replace=False)
    b = rng.choice(len(xs), n, replace=False)
    sim = Simulation(m, seed=seed)
    for i, j in zip(a.tolist(), b.tolist()):
        sim.add_unit((int(xs[i]), int(ys[i])), unit="walk", goal=(int(xs[j]), int(ys[j])),
                     speed=int(rng.choice([80, 128, 256, 512])),
                     kind="infantry" if rng.random() < 1 / 7 else "vehicle", cloaked=bool(rng.random() < 0.1))
    goals = np.array([(int(xs[j]), int(ys[j])) for j in b.tolist()], dtype=np.int64)
    assert _arrival(sim, goals, 3000) is not None
    sim.check()


def _churning_crowd() -> tuple[Simulation, np.ndarray]:
    """A 32 x 12 4-connected board, a fifth of its cells walls, 269 units on 94 % of its largest zone (a seventh
    soldiers, a tenth cloaked, speeds 80-512): ``benchmarks/crowd_square8.py soldiers``'s run 7."""
    rng = np.random.default_rng(77007)
    w, h = int(rng.integers(8, 40)), int(rng.integers(8, 40))
    share = float(rng.uniform(0.0, 0.3))
    wall = rng.random((h, w)) < share
    m = _board(["".join("@" if wall[y, x] else "." for x in range(w)) for y in range(h)])
    z = m.zones()
    ys, xs = np.nonzero(z == np.bincount(z[z >= 0]).argmax())
    k = int(float(rng.uniform(0.6, 0.95)) * len(xs))
    a, b = rng.choice(len(xs), k, replace=False), rng.choice(len(xs), k, replace=False)
    speeds, infantry, cloaked = rng.choice([80, 128, 256, 300, 512], k), rng.random(k) < 1 / 7, rng.random(k) < 1 / 10
    sim = Simulation(m, seed=7)
    for i, j, v, s, c in zip(a.tolist(), b.tolist(), speeds.tolist(), infantry.tolist(), cloaked.tolist()):
        sim.add_unit((int(xs[i]), int(ys[i])), unit="walk", goal=(int(xs[j]), int(ys[j])), speed=int(v),
                     kind="infantry" if s else "vehicle", cloaked=bool(c))
    return sim, np.array([(int(xs[j]), int(ys[j])) for j in b.tolist()], dtype=np.int64)


@pytest.mark.slow
def test_a_packed_crowd_does_not_take_vehicles_at_home_round_in_rings_for_good() -> None:
    """The crowd rule refuses a ring of units near their goals that takes vehicles at home off their goals and
    brings no more units home (``simcrowd._churns``). Before, vehicles pushed off their goals went back by such rings, each pushing others
    at home off theirs: 68 units were still off their goals at tick 3000, about 11 moves a tick. (Every unit home
    at tick 906; 1070 before a unit traded before the chains only from nearer its goal than at its last such trade
    (``simcrowd.crowd_pass``), 912 while soldiers traded first with soldiers at home too, 859 before soldiers traded
    places with friend vehicles with nothing to do before asking them aside, 1034
    before trades went before the chains, ``simcrowd.crowd_pass``; 1161 before soldiers parted or went along in a
    trade, and vehicles traded places with soldiers at home.)"""
    sim, goals = _churning_crowd()
    assert len(goals) == 269
    assert _arrival(sim, goals, 3000) == 906
    sim.check()


MIX_HEX = ["......#.", ".#......", "..#.....", "#..#....", "..#..#..", "........", ".##.#.#.", "#...##.."]
"""``benchmarks/crowd_mix.py --dense``'s seed 442: an 8 x 8 hex board, 35 units, 7 of them soldiers."""
MIX_STARTS = [(6, 2), (6, 3), (2, 3), (4, 5), (6, 7), (5, 2), (5, 3), (0, 1), (7, 2), (6, 5), (5, 1), (7, 7), (1, 7),
              (4, 1), (0, 6), (5, 0), (0, 5), (1, 3), (3, 4), (2, 0), (1, 2), (4, 2), (3, 0), (4, 4), (0, 0), (6, 4),
              (0, 2), (7, 0), (1, 0), (3, 6), (7, 1), (3, 1), (6, 1), (2, 5), (0, 4)]
MIX_GOALS = [(7, 5), (6, 4), (7, 4), (6, 7), (3, 0), (5, 1), (7, 0), (3, 7), (4, 2), (1, 4), (4, 5), (0, 4), (1, 0),
             (3, 5), (6, 1), (3, 6), (3, 2), (6, 2), (7, 2), (5, 0), (2, 7), (5, 3), (0, 6), (2, 0), (0, 2), (1, 7),
             (6, 5), (4, 3), (2, 5), (6, 3), (2, 3), (7, 6), (0, 1), (3, 4), (3, 1)]
MIX_SOLDIERS = {2, 3, 15, 23, 26, 27, 30}


def test_soldiers_and_vehicles_mixed_on_a_packed_hex_board_all_arrive() -> None:
    """Soldiers that trade places with friend vehicles with nothing to do before asking them aside, the push of the
    crowd rule left to soldiers that cannot trade with one at home, and a soldier and a vehicle that want each
    other's cells trading with the soldier's cell-mates carried along: every unit on its goal at tick 28 (it went
    to and fro for good before)."""
    terrain = np.array([[3 if c == "#" else 0 for c in r] for r in MIX_HEX], dtype=np.int16)
    sim = Simulation(Map(HexGrid(8, 8), terrain=terrain, terrains=MOVINGAI_TERRAINS), seed=442)
    for i, (a, b) in enumerate(zip(MIX_STARTS, MIX_GOALS)):
        sim.add_unit(a, unit="walk", goal=b, speed=LEPTONS_PER_CELL,
                     kind="infantry" if i in MIX_SOLDIERS else "vehicle")
    assert _arrival(sim, np.array(MIX_GOALS), 1500) == 28
    sim.check()


def test_two_full_soldier_cells_each_sending_one_soldier_to_the_other_settle() -> None:
    """Two cells full of soldiers (five spots), all at home but one in each, sent to the other cell: a soldier
    traded first with a soldier at home (a rule for vehicles with nothing to do), which traded back, for good (seed
    2 never settled). Soldiers trade with soldiers as before: every one home by tick 7."""
    a, b = (1, 0), (2, 0)
    for seed in range(4):
        sim = Simulation(Map(SquareGrid(4, 1)), seed=seed)
        cells = [(a, a)] * 4 + [(a, b)] + [(b, b)] * 4 + [(b, a)]
        for start, goal in cells:
            sim.add_unit(start, unit="foot", goal=goal, speed=LEPTONS_PER_CELL, kind="infantry")
        assert _arrival(sim, np.array([g for _, g in cells]), 300) == (7 if seed in (1, 2) else 2)
        sim.check()


def _mixed_crowd(seed: int, kind: int, w: int, h: int, walls: float, fill: float) -> tuple[Simulation, np.ndarray]:
    """A small board (hex, square or square-8 by ``kind``) with ``walls`` of its cells walls, ``fill`` of its largest
    zone held by units on distinct cells, a third to a half soldiers, each sent to a distinct cell of the zone."""
    rng = np.random.default_rng(seed)
    grid = HexGrid(w, h) if kind == 0 else SquareGrid(w, h, diagonal=kind == 2)
    m = Map(grid, terrain=np.where(rng.random((h, w)) < walls, 3, 0).astype(np.int16), terrains=MOVINGAI_TERRAINS)
    z = m.zones(unit="walk")
    ys, xs = np.nonzero(z == np.bincount(z[z >= 0]).argmax())
    k = max(2, int(fill * len(xs)))
    a, b = rng.choice(len(xs), k, replace=False), rng.choice(len(xs), k, replace=False)
    soldier = rng.random(k) < rng.uniform(1 / 3, 1 / 2)
    sim = Simulation(m, seed=seed)
    for i, j, s in zip(a.tolist(), b.tolist(), soldier.tolist()):
        sim.add_unit((int(xs[i]), int(ys[i])), unit="walk", goal=(int(xs[j]), int(ys[j])), speed=LEPTONS_PER_CELL,
                     kind="infantry" if s else "vehicle")
    return sim, np.array([(int(xs[j]), int(ys[j])) for j in b.tolist()], dtype=np.int64)


MIXED_CROWDS = dict(seed=st.integers(0, 2**31 - 1), kind=st.integers(0, 2), w=st.integers(4, 9), h=st.integers(4, 9),
                    walls=st.sampled_from([0.0, 0.1]), fill=st.floats(0.5, 0.95))


@settings(max_examples=20, deadline=None)
@given(**MIXED_CROWDS)
def test_soldiers_and_vehicles_mixed_on_small_packed_boards_all_arrive(seed: int, kind: int, w: int, h: int,
                                                                      walls: float, fill: float) -> None:
    """Vehicles and soldiers with goals on half to nineteen twentieths of a small hex, square or square-8 board:
    every unit stands on its goal within 1500 ticks (``benchmarks/crowd_mix.py --dense`` on smaller boards), and the
    simulation's state stays sound."""
    sim, goals = _mixed_crowd(seed, kind, w, h, walls, fill)
    assert _arrival(sim, goals, 1500) is not None
    sim.check()


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(**MIXED_CROWDS)
def test_soldiers_and_vehicles_mixed_on_small_packed_boards_all_arrive_many(seed: int, kind: int, w: int, h: int,
                                                                           walls: float, fill: float) -> None:
    """The test above with 200 examples. Of 400 random examples (``numpy`` draws) the old rules left one looping
    (seed 980936834, hex 7 x 9, a tenth walls, 95 % held); the guard is the literal case above."""
    sim, goals = _mixed_crowd(seed, kind, w, h, walls, fill)
    assert _arrival(sim, goals, 1500) is not None
    sim.check()
