"""The simulation's meetings (head-on, crossing, crowds), the classic engine's other rules, and a space oracle."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import HexGrid, Map, SquareGrid, StaggeredGrid
from wargrid.rts import Simulation, classic_path
from wargrid.movement.turning import turning_path

from rts_oracle import legal_steps

from wargrid import scenarios  # the crowd scenarios, small


def _oracle_run(sim: Simulation, ticks: int) -> None:
    """Run ``sim`` checking every tick: no shared cell or spot, every step a legal move (no wall crossed)."""
    seen = {u: 0 for u in range(len(sim.report().units) + 64)}
    costs = {}
    for _ in range(ticks):
        sim.step()
        sim.check()
        stands: dict[tuple[int, int], list[int]] = {}
        for uid, u in sim.units.items():
            if not u.mobile:
                continue
            c = costs.setdefault(u.unit, sim.map.costs(unit=u.unit))
            stands.setdefault(u.cell, []).append(uid)
            assert math.isfinite(c[u.cell[1], u.cell[0]]), f"unit {uid} stands in a wall at {u.cell}"
            for a, b in zip(u.trail[seen.get(uid, 0):], u.trail[seen.get(uid, 0) + 1:]):
                assert b in legal_steps(sim.grid, c, a), f"unit {uid} stepped {a} -> {b} through a wall"
            seen[uid] = max(len(u.trail) - 1, 0)
        for cell, who in stands.items():
            kinds = {sim.get(w).kind for w in who}
            assert len(who) == 1 or kinds == {"infantry"}, f"units {who} share cell {cell}"
        if sim._settled():
            break


@pytest.mark.slow
@pytest.mark.parametrize("make, n, ticks", [(scenarios.corridor, 4, 1500), (scenarios.crossing, 6, 1500), (scenarios.crowd, 24, 2000)])
def test_crowd_scenarios_all_arrive(make, n, ticks):
    sim = make(n) if make is not scenarios.crowd else make(n, 12)
    _oracle_run(sim, ticks)
    states = sim.report().states()
    assert set(states.values()) == {"arrived"}, sim.report().reasons()


def test_head_on_trade_places():
    sim = scenarios.corridor(3, 12)
    sim.run(2000)
    assert set(sim.report().states().values()) == {"arrived"}
    assert any(e.what == "swap" for e in sim.events)


def test_crowd_packs_around_its_goal():
    sim = scenarios.crowd(20, 12)
    sim.run(2000)
    cells = [sim.get(u).cell for u in sim.report().states()]
    assert (6, 6) in cells
    # each unit stopped with no free neighbour nearer the goal than where it stands
    held = set(cells)
    for c in cells:
        d = (c[0] - 6) ** 2 + (c[1] - 6) ** 2
        for n in sim.grid.neighbors(c):
            if (n[0] - 6) ** 2 + (n[1] - 6) ** 2 < d:
                assert n in held, f"{c} stopped with free {n} nearer the goal"


def test_goal_on_blocked_cell_goes_to_nearest_reachable():
    m = Map(SquareGrid(8, 5))
    m.set_terrain([(5, y) for y in range(5)], "water")
    sim = Simulation(m, seed=0)
    u = sim.add_unit((0, 2), unit="tracked", goal=(5, 2))  # a goal in the river
    sim.run(300)
    assert sim.get(u).state == "arrived" and sim.get(u).cell == (4, 2)
    sim2 = Simulation(Map(SquareGrid(8, 5)), seed=0)
    sim2.add_obstacle([(6, 2)], hp=None)
    v = sim2.add_unit((0, 2), unit="tracked", goal=(6, 2))  # a goal on a building
    sim2.run(300)
    assert sim2.get(v).state == "arrived" and sim2.get(v).cell == (5, 2)


def test_goal_on_occupied_cell_stops_next_to_it():
    sim = Simulation(Map(SquareGrid(8, 5)), seed=0)
    parked = sim.add_unit((6, 2), unit="tracked")
    u = sim.add_unit((0, 2), unit="tracked", goal=(6, 2))
    sim.run(400)
    assert sim.get(u).state == "arrived" and sim.get(u).cell in sim.grid.neighbors((6, 2))
    assert sim.get(parked).cell == (6, 2)


def test_units_on_a_fallen_bridge_are_destroyed_others_replan():
    m = Map(SquareGrid(9, 7))
    m.set_terrain([(4, y) for y in range(7)], "water")
    m.set_overlay([(4, 1), (4, 5)], "bridge")
    sim = Simulation(m, seed=0)
    on = sim.add_unit((4, 1), unit="tracked")  # parked on the bridge
    going = sim.add_unit((0, 1), unit="tracked", goal=(8, 1))
    sim.run(3)
    m.set_overlay([(4, 1)], None)
    assert sim.get(on).state == "destroyed"
    assert any(e.uid == on and e.what == "destroyed" and "ground gave way" in e.detail for e in sim.events)
    sim.run(600)
    t = sim.get(going)
    assert t.state == "arrived" and (4, 5) in t.trail and (4, 1) not in t.trail
    sim.check()


def test_a_simulation_keeps_its_board_when_the_map_shrinks_its_playable_rectangle():
    """``Map.set_playable`` puts the right half of the board off the map's board; the simulation made before keeps
    its cells' costs: an edit elsewhere afterwards loses no unit there, and the unit there, its route made
    before, goes on to its goal."""
    m = Map(SquareGrid(10, 4))
    sim = Simulation(m, seed=1)
    right = sim.add_unit((8, 1), unit="tracked", goal=(9, 3), speed=128)
    left = sim.add_unit((0, 1), unit="tracked", goal=(3, 1), speed=128)
    sim.run(2)
    m.set_playable((0, 0, 5, 4))
    m.set_terrain([(2, 3)], "water")
    sim.run(50)
    assert sim.get(right).state == "arrived" and sim.get(right).cell == (9, 3)
    assert sim.get(left).state == "arrived"
    assert not any(e.what == "destroyed" for e in sim.events)
    parked = sim.add_unit((4, 0), unit="tracked")
    m.set_terrain([(4, 0)], "water")  # (an edit of a cell both boards hold still reaches the simulation)
    assert sim.get(parked).state == "destroyed" and sim.get(right).state == "arrived"
    sim.check()


def test_damaged_units_are_slower_down_to_a_floor_linear_rule():
    m = Map(SquareGrid(6, 3))
    sim = Simulation(m, seed=0, health_rule="linear")
    whole = sim.add_unit((0, 0), unit="tracked", goal=(5, 0), speed=128)
    half = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=128, hp=75, max_hp=100)
    wreck = sim.add_unit((0, 2), unit="tracked", goal=(5, 2), speed=128, hp=10, max_hp=100)
    sim.run(200)
    at = {e.uid: e.tick for e in sim.events if e.what == "arrived"}
    # plains cost 2: 64, 48 and (floor 0.5) 32 leptons a tick; 256 leptons a cell, 5 cells
    assert at[whole] == 5 * 4 and at[half] == 5 * math.ceil(256 / 48) and at[wreck] == 5 * 8
    sim2 = Simulation(Map(SquareGrid(6, 1)), seed=0, health_rule="linear")
    u = sim2.add_unit((0, 0), unit="tracked", goal=(5, 0), speed=128)
    sim2.hit(u, 60)
    sim2.run(200)
    assert [e.tick for e in sim2.events if e.what == "arrived"] == [5 * 8]


@pytest.mark.parametrize("rule, ticks", [
    # 11 cells of plains (cost 2) at speed 64: 32 leptons a tick, 8 ticks a cell, 88 whole. The classic rule
    # keeps full speed above yellow health (hp / max_hp > 1/2) and takes a quarter off at or below it:
    # 24 leptons a tick, ceil(256 / 24) = 11 ticks a cell, 121 ticks. The linear rule scales with health.
    ("classic", {100: 88, 80: 88, 60: 88, 51: 88, 50: 121, 30: 121, 10: 121}),
    ("linear", {100: 88, 80: 121, 60: 154, 51: 176, 50: 176, 30: 176, 10: 176}),
])
def test_health_rules_ticks_for_eleven_cells(rule, ticks):
    for hp, want in ticks.items():
        sim = Simulation(Map(SquareGrid(12, 1)), seed=1, health_rule=rule)
        u = sim.add_unit((0, 0), unit="tracked", goal=(11, 0), speed=64, hp=hp, max_hp=100)
        sim.run(300)
        assert [e.tick for e in sim.events if e.uid == u and e.what == "arrived"] == [want], (rule, hp)


def test_classic_health_rule_is_the_default_and_hits_count():
    sim = Simulation(Map(SquareGrid(12, 1)), seed=1)
    assert sim.health_rule == "classic"
    u = sim.add_unit((0, 0), unit="tracked", goal=(11, 0), speed=64)
    sim.hit(u, 50)  # to yellow health from the start: 121 ticks, not 88
    sim.run(300)
    assert [e.tick for e in sim.events if e.what == "arrived"] == [121]
    with pytest.raises(ValueError, match="health_rule"):
        Simulation(Map(SquareGrid(3, 1)), health_rule="smooth")


def test_vehicle_with_turn_rate_follows_the_turning_search():
    m = Map(SquareGrid(7, 5, diagonal=True))
    m.set_terrain([(3, y) for y in range(4)], "water")
    sim = Simulation(m, seed=0)
    fast = sim.add_unit((1, 1), unit="tracked", goal=(5, 1), speed=128)
    slow = sim.add_unit((1, 3), unit="tracked", goal=(5, 3), speed=128, turn_rate=0.5, facing=4)
    sim.run(400)
    tp = turning_path(m.grid, m.cost_field(unit="tracked"), (1, 3), (5, 3), facing=4, turn_rate=0.5, speed=0.5)
    assert sim.get(slow).plans[0] == [c for i, c in enumerate(tp.cells) if i == 0 or tp.cells[i - 1] != c]
    at = {e.uid: e.tick for e in sim.events if e.what == "arrived"}
    assert sim.get(slow).state == "arrived" and sim.get(fast).state == "arrived"
    assert sim.get(slow).reason == "" and at[slow] > len(sim.get(slow).trail) * 4  # turning took ticks


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 12), st.sampled_from(["sq8", "hex"]))
def test_classic_pieces_never_exceed_max_steps(seed, n, kind):
    rng = np.random.default_rng(seed)
    g = SquareGrid(12, 9, diagonal=True) if kind == "sq8" else HexGrid(12, 9)
    costs = np.where(rng.random(g.shape) < 0.3, np.inf, 1.0)
    s = (int(rng.integers(12)), int(rng.integers(9)))
    t = (int(rng.integers(12)), int(rng.integers(9)))
    costs[s[1], s[0]] = 1.0
    p = classic_path(g, costs, s, t, max_steps=n)
    assert len(p.directions) <= n and len(p.cells) <= n + 1
    assert p.cells[0] == s


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(st.sampled_from(["sq8", "sq4", "hex", "stag"]), st.integers(0, 10_000), st.integers(4, 14))
def test_no_shared_space_and_no_wall_crossed(kind, seed, n_units):
    grid = {"sq8": SquareGrid(10, 8, diagonal=True), "sq4": SquareGrid(10, 8), "hex": HexGrid(10, 8),
            "stag": StaggeredGrid(10, 8)}[kind]
    rng = np.random.default_rng(seed)
    m = Map(grid)
    m.set_terrain([grid.cell(int(i)) for i in rng.choice(grid.size, size=grid.size // 6, replace=False)], "water")
    sim = Simulation(m, seed=seed, patience=3)
    free = [c for c in grid.cells() if m.terrain_name(c) != "water"]
    rng.shuffle(free)
    for i in range(n_units):
        inf = i % 3 == 0
        sim.add_unit(free[i], kind="infantry" if inf else "vehicle", unit="foot" if inf else "tracked", team=i % 2,
                     goal=free[(i * 7 + 3) % len(free)], speed=int(rng.integers(40, 200)))
    _oracle_run(sim, 200)


@pytest.mark.parametrize("grid", [SquareGrid(2, 1), HexGrid(2, 1)])
def test_tank_trades_places_with_all_the_soldiers_of_a_cell(grid):
    sim = Simulation(Map(grid), seed=0)
    tank = sim.add_unit((0, 0), unit="tracked", goal=(1, 0), speed=100)
    feet = [sim.add_unit((1, 0), kind="infantry", unit="foot", goal=(0, 0), speed=60) for _ in range(2)]
    _oracle_run(sim, 200)
    assert sim.report().states() == {tank: "arrived", feet[0]: "arrived", feet[1]: "arrived"}
    assert [sim.get(u).cell for u in (tank, *feet)] == [(1, 0), (0, 0), (0, 0)]
    assert [e.detail for e in sim.events if e.what == "swap"] in (
        [f"traded places with unit {feet[0]} (3 units)"], [f"traded places with unit {feet[1]} (3 units)"],
        [f"traded places with unit {tank} (3 units)"])


def _pocket() -> tuple[Simulation, int, int]:
    """A corridor one cell wide with a pocket above (3, 1): a tank on its goal (3, 1), a column passing through."""
    m = Map(SquareGrid(7, 3))
    m.set_terrain([(x, y) for x in range(7) for y in (0, 2) if (x, y) != (3, 0)], "water")
    sim = Simulation(m, seed=0)
    home = sim.add_unit((3, 1), unit="tracked", goal=(3, 1), speed=128)
    passing = sim.add_unit((0, 1), unit="tracked", goal=(6, 1), speed=128)
    return sim, home, passing


def test_unit_asked_aside_goes_back_to_its_goal():
    sim, home, passing = _pocket()
    _oracle_run(sim, 300)
    assert sim.get(passing).cell == (6, 1) and sim.get(home).cell == (3, 1)
    assert sim.get(home).trail == [(3, 1), (3, 0), (3, 1)]  # aside into the pocket, and back once the way is clear
    aside = [e.tick for e in sim.events if e.uid == home and e.what == "aside"]
    back = [e.tick for e in sim.events if e.uid == home and e.what == "arrived"]
    assert len(aside) == 1 and back[-1] > aside[0]
    assert scenarios.units_away(sim) == []


def test_unit_moved_off_its_goal_waits_while_the_goal_is_held_at_home():
    sim, home, passing = _pocket()
    while sim.get(passing).cell != (3, 1):  # the tank steps aside into the pocket, the other one enters its goal
        sim.step()
    sim.order(passing, (3, 1))  # and takes it as its own: the tank stays aside
    _oracle_run(sim, 300)
    assert sim.get(passing).cell == (3, 1) and sim.get(home).cell == (3, 0)
    assert sim.get(home).state == "arrived" and scenarios.units_away(sim) == []
    sim.order(passing, (6, 1))  # it leaves: the tank goes back
    _oracle_run(sim, 300)
    assert sim.get(home).cell == (3, 1) and sim.get(passing).cell == (6, 1)


def test_crowd_units_stay_put_while_the_goal_is_held_at_home():
    sim = scenarios.crowd(20, 12)
    sim.run(2000)
    before = {u: sim.get(u).cell for u in sim.report().states()}
    sim.run(200, until_settled=False)  # nobody moves: the goal's holder is at home
    assert {u: sim.get(u).cell for u in before} == before
    assert scenarios.units_away(sim) == []
