"""Units moving: re-checks on the entry ladder, map edits, determinism, no shared space."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from wargrid import CallbackError, HexGrid, Map, SquareGrid, StaggeredGrid
from wargrid.rts import Simulation


def test_speed_depends_on_terrain():
    m = Map(SquareGrid(6, 2))
    m.set_overlay([(x, 0) for x in range(6)], "road")
    sim = Simulation(m, seed=0)
    fast = sim.add_unit((0, 0), unit="tracked", goal=(5, 0), speed=96)  # road: cost 1.5 -> 64 leptons a tick
    slow = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=96)  # plains: cost 2 -> 48 leptons a tick
    sim.run(200)
    arrived = {e.uid: e.tick for e in sim.events if e.what == "arrived"}
    assert arrived[fast] == 5 * 4 and arrived[slow] == 5 * 6
    assert sim.get(fast).trail == [(x, 0) for x in range(6)]


def test_waits_for_moving_unit_then_passes():
    m = Map(SquareGrid(6, 1))
    sim = Simulation(m, seed=0)
    lead = sim.add_unit((1, 0), unit="tracked", goal=(5, 0), speed=32)
    chase = sim.add_unit((0, 0), unit="tracked", goal=(4, 0), speed=128)
    sim.run(300)
    assert sim.report().states() == {lead: "arrived", chase: "arrived"}


def test_friend_moves_aside():
    m = Map(SquareGrid(5, 3))
    sim = Simulation(m, seed=0)
    for y in range(3):
        sim.add_unit((2, y), unit="tracked")  # a line of friends across the board
    tank = sim.add_unit((0, 1), unit="tracked", goal=(4, 1))
    sim.run(300)
    assert sim.get(tank).state == "arrived"
    assert any(e.what == "aside" for e in sim.events)


def test_attacks_destroyable_obstacle_only_when_allowed():
    m = Map(SquareGrid(5, 1))
    sim = Simulation(m, seed=0)
    wall = sim.add_obstacle([(2, 0)], hp=50)
    tank = sim.add_unit((0, 0), unit="tracked", goal=(4, 0), damage=20)
    sim.run(200)
    assert sim.get(wall).state == "destroyed" and sim.get(tank).state == "arrived"
    sim2 = Simulation(Map(SquareGrid(5, 1)), seed=0)
    sim2.add_obstacle([(2, 0)], hp=50)
    jeep = sim2.add_unit((0, 0), unit="wheeled", goal=(4, 0))
    sim2.run(50)
    assert sim2.get(jeep).state == "stuck" and "no way" in sim2.get(jeep).reason
    sim3 = Simulation(Map(SquareGrid(5, 1)), seed=0)
    sim3.add_obstacle([(2, 0)], hp=None)  # a building: never destroyed
    t3 = sim3.add_unit((0, 0), unit="tracked", goal=(4, 0), damage=20)
    sim3.run(50)
    assert sim3.get(t3).state == "stuck"


def test_hidden_enemy_is_found_and_bypassed():
    m = Map(SquareGrid(6, 3))
    sim = Simulation(m, seed=0)
    sim.add_unit((3, 1), unit="tracked", team=1, cloaked=True)
    tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1))
    assert sim.categories(tank)[1, 3] == 1  # CLOAKED_ENEMY: looks free
    sim.run(300)
    assert sim.get(tank).state == "arrived"
    assert any(e.what == "found" for e in sim.events)
    assert (3, 1) not in sim.get(tank).trail


def test_close_enough_and_stopping():
    m = Map(SquareGrid(8, 1))
    sim = Simulation(m, seed=0)
    u = sim.add_unit((0, 0), unit="tracked", goal=(7, 0), close_enough=600)
    sim.run(500)
    assert sim.get(u).state == "arrived" and sim.get(u).cell == (5, 0)
    sim.order(u, None)
    assert sim.get(u).goal is None


def test_route_replans_after_map_edit_and_raising_callback_keeps_map_consistent():
    m = Map(SquareGrid(9, 7))
    m.set_terrain([(4, y) for y in range(7)], "water")
    m.set_overlay([(4, 1), (4, 5)], "bridge")
    sim = Simulation(m, seed=0, piece=30)
    tank = sim.add_unit((0, 1), unit="tracked", goal=(8, 1), speed=64)
    sim.run(6)
    assert (4, 1) in sim.get(tank).plans[0]

    def boom(ev):
        raise RuntimeError("observer failed")

    m.on("overlay_changed", boom)
    before = m.version
    with pytest.raises(CallbackError) as e:
        m.set_overlay([(4, 1)], None)
    assert isinstance(e.value.errors[0], RuntimeError)
    # the edit is whole, the costs are rebuilt, and the simulation (a later subscriber) still heard of it
    assert m.version == before + 1 and m.overlay_name((4, 1)) is None
    assert np.isinf(m.costs(unit="tracked")[1, 4]) and np.isfinite(m.costs(unit="tracked")[5, 4])
    assert any(ev.event == "overlay_changed" for ev in sim.map_events)
    m.off("overlay_changed", boom)
    sim.run(400)
    t = sim.get(tank)
    assert t.state == "arrived" and (4, 5) in t.trail and (4, 1) not in t.trail
    assert any(e.what == "replan" and "map changed" in e.detail for e in sim.events)
    sim.close()
    m.set_overlay([(4, 1)], "bridge")
    assert not any(ev.event == "overlay_changed" and ev.data.get("new") == "bridge" for ev in sim.map_events)


def test_goal_cut_off_reports_why():
    m = Map(SquareGrid(5, 3))
    m.set_terrain([(2, y) for y in range(3)], "water")
    sim = Simulation(m, seed=0)
    u = sim.add_unit((0, 0), unit="tracked", goal=(4, 0))
    sim.run(20)
    assert sim.get(u).state == "stuck" and "not connected" in sim.get(u).reason
    m.set_terrain([(2, 1)], "plains")  # a way opens: the unit tries again
    sim.run(200)
    assert sim.get(u).state == "arrived"


@pytest.mark.parametrize(
    "call, err, words",
    [
        (lambda s: s.add_unit((9, 9)), IndexError, "cell (9, 9) is off the board"),
        (lambda s: s.add_unit((0, 0), speed=-5), ValueError, "speed must be > 0"),
        (lambda s: s.add_unit((0, 0), speed=1.5), TypeError, "speed must be an integer"),
        (lambda s: s.add_unit((0, 0), unit="hover"), ValueError, "unknown unit class 'hover'"),
        (lambda s: s.add_unit((0, 0), kind="plane"), ValueError, "kind must be one of"),
        (lambda s: s.add_unit((0, 0), goal=(0, 5)), IndexError, "goal (0, 5) is off the board"),
        (lambda s: s.add_unit((0, 0), hp=-1), ValueError, "hp must be a finite number >= 0"),
        (lambda s: s.add_unit((0, 0), close_enough=-1), ValueError, "close_enough must be >= 0"),
        (lambda s: s.add_unit((2, 0), unit="tracked"), ValueError, "impassable for movement class 'tracked'"),
        (lambda s: s.get(42), KeyError, "uid 42 is not a unit"),
        (lambda s: s.run(-1), ValueError, "ticks must be >= 0"),
        (lambda s: Simulation(s.map, pathfinder="jps"), ValueError, "pathfinder must be one of"),
        (lambda s: Simulation(s.map, piece=0), ValueError, "piece must be >= 1"),
        (lambda s: Simulation("map"), TypeError, "map must be a wargrid Map"),
        (lambda s: s.add_obstacle([(0, 0)], hp=0), ValueError, "hp must be > 0"),
        (lambda s: s.run(3, until_settled="no"), TypeError, "until_settled must be True or False"),
        (lambda s: s.add_unit((0, 0), turn_rate=1e-300), ValueError, "turn_rate must be at least MIN_TURN_RATE"),
        (lambda s: Simulation(s.map, leptons=1 << 62), ValueError, "leptons must be at most MAX_SPEED"),
    ],
)
def test_bad_input(call, err, words):
    m = Map(SquareGrid(3, 3))
    m.set_terrain([(2, 0)], "water")
    sim = Simulation(m)
    with pytest.raises(err) as e:
        call(sim)
    assert words in str(e.value)


def test_a_bad_goal_adds_no_unit():
    sim = Simulation(Map(SquareGrid(3, 3)))
    with pytest.raises(IndexError, match="goal"):
        sim.add_unit((0, 0), goal=(5, 5))
    assert len(sim.units) == 0 and sim.add_unit((0, 0)) == 0  # the cell is still free


def test_positions_on_the_largest_lepton_scale_stay_exact():
    sim = Simulation(Map(SquareGrid(6, 4)), leptons=1 << 30)
    sim.add_unit((5, 3), goal=(4, 2), speed=1 << 29)
    sim.step(); sim.step()
    x, y = sim.positions()[0].tolist()
    assert 4 << 30 < x < 6 << 30 and 2 << 30 < y < 4 << 30


def _run(kind, seed, n_units, pathfinder, ticks=150):
    grid = {"sq8": SquareGrid(8, 6, diagonal=True), "sq4": SquareGrid(8, 6), "hex": HexGrid(8, 6), "stag": StaggeredGrid(8, 6)}[kind]
    rng = np.random.default_rng(seed)
    m = Map(grid)
    walls = [grid.cell(int(i)) for i in rng.choice(grid.size, size=grid.size // 6, replace=False)]
    m.set_terrain(walls, "water")
    sim = Simulation(m, seed=seed, pathfinder=pathfinder, piece=5)
    free = [c for c in grid.cells() if m.terrain_name(c) != "water"]
    rng.shuffle(free)
    for i in range(n_units):
        kind_u = "infantry" if i % 3 == 0 else "vehicle"
        sim.add_unit(free[i], kind=kind_u, unit="foot" if kind_u == "infantry" else "tracked", team=i % 2,
                     goal=free[-1 - i], speed=int(rng.integers(40, 200)), damage=float(rng.choice([0.0, 30.0])))
    # idle friends, a hidden enemy and a crate in the way
    sim.add_unit(free[n_units], unit="tracked", team=0)
    sim.add_unit(free[n_units + 1], kind="infantry", unit="foot", team=1, cloaked=True)
    sim.add_obstacle([free[n_units + 2]], hp=60)
    trace = []
    for _ in range(ticks):
        sim.step()
        sim.check()  # no two units ever claim one space
        trace.append(tuple(sim.lepton(u) for u in sorted(sim.units)))
    return sim, trace


@settings(max_examples=12)
@given(st.sampled_from(["sq8", "sq4", "hex", "stag"]), st.integers(0, 10_000), st.integers(2, 7), st.sampled_from(["astar", "classic"]))
@example("sq4", 7574, 7, "astar")  # the run ends on the tick a unit pushed off its goal turns back to it
def test_random_simulations(kind, seed, n_units, pathfinder):
    sim, trace = _run(kind, seed, n_units, pathfinder)
    # 'idle' with a goal: ordered (or pushed off its goal) this tick, its route planned the next
    idle = [uid for uid, u in sim.units.items() if u.goal is not None and u.mobile and u.state == "idle"]
    if idle:
        sim.step()
        assert all(sim.get(uid).state != "idle" for uid in idle)
    for u in sim.units.values():
        if u.goal is None or not u.mobile:
            continue
        assert u.state in ("arrived", "waiting", "stuck", "moving", "attacking", "destroyed", "idle")
        if u.state in ("waiting", "stuck"):
            assert u.reason  # says why
        # every step of the trail is a move to a neighbour
        for a, b in zip(u.trail, u.trail[1:]):
            assert b in sim.grid.neighbors(a)
    # same seed, same run
    _, trace2 = _run(kind, seed, n_units, pathfinder)
    assert trace == trace2


def test_a_unit_rerouting_round_an_idle_friend_says_why() -> None:
    """Found by random exploration: a tank sitting on another's goal, its way blocked by an idle friend, plans
    again and again; it waits, and (like every waiting unit) says why."""
    sim, _ = _run("sq8", 4, 4, "astar")
    for u in sim.units.values():
        if u.state in ("waiting", "stuck"):
            assert u.reason, u


def test_zones_after_random_edits_equal_a_fresh_labelling():
    rng = np.random.default_rng(7)
    for grid in (SquareGrid(9, 7, diagonal=True), HexGrid(8, 6, wrap_x=True)):
        m = Map(grid)
        m.zones(unit="tracked")
        seen = []
        m.on("zones_changed", seen.append)
        names = ["water", "plains", "forest", "mountains"]
        for _ in range(40):
            cells = [grid.cell(int(i)) for i in rng.choice(grid.size, size=int(rng.integers(1, 4)), replace=False)]
            m.set_terrain(cells, names[int(rng.integers(len(names)))])
            fresh = Map(grid, terrain=m.terrain.copy()).zones(unit="tracked")
            z = m.zones(unit="tracked")
            assert ((z < 0) == (fresh < 0)).all()
            # the same partition: a one-to-one map between labels
            pairs = set(zip(z[z >= 0].tolist(), fresh[fresh >= 0].tolist()))
            assert len(pairs) == len({a for a, _ in pairs}) == len({b for _, b in pairs})
        assert seen and all(ev.data["unit"] == "tracked" for ev in seen)


def test_any_seed_the_checks_allow_makes_a_simulation():
    # seed=10**20 passed check_seed, then its 64-bit kernel key overflowed (OverflowError)
    sim = Simulation(Map(SquareGrid(3, 3)), seed=10**20)
    sim.add_unit((0, 0), goal=(2, 2))
    assert sim.run(100).states()[0] == "arrived"


def test_a_pickled_simulation_compiles_no_kernel_again():
    # an unpickled topology's arrays came back writable: every kernel of a tick compiled once more for them
    import pickle

    from wargrid._kernels.rts import sim as k, simcrowd

    sim, _ = _run("sq8", 3, 6, "astar", ticks=20)
    kernels = (k.tick_units, k.categories_of, simcrowd.crowd_pass)
    before = [len(f.signatures) for f in kernels]
    copy = pickle.loads(pickle.dumps(sim))
    for _ in range(20):
        copy.step()
    copy.check()
    assert copy._tb[0] is copy.grid.topology.kernel_args.off and not copy._tb[0].flags.writeable
    assert [len(f.signatures) for f in kernels] == before


def test_the_tick_compiles_its_event_helpers_once():
    # the event codes and wait reasons were bare constants, literals to numba: ``_event`` compiled ten times,
    # ``_arrive``, ``_wait``, ``category`` and ``_rate`` twice (none at all when the tick came from the disk cache)
    from wargrid._kernels.rts import sim as k

    _run("sq8", 3, 6, "astar", ticks=20)
    assert all(len(f.signatures) <= 1 for f in (k._event, k._arrive, k._wait, k.category, k._rate))


def test_an_edit_beside_obstacles_alone():
    # obstacles have no movement class: an edit read the cost row of class 0 that no unit had made (IndexError)
    m = Map(SquareGrid(4, 3))
    sim = Simulation(m)
    sim.add_obstacle([(2, 1)], hp=None)
    m.set_terrain([(0, 0)], "plains")
    tank = sim.add_unit((0, 1), unit="tracked", goal=(3, 1))
    m.set_terrain([(1, 0)], "water")
    assert sim.run(200).states()[tank] == "arrived"


@pytest.mark.parametrize("kind, pathfinder", [("sq8", "astar"), ("hex", "classic"), ("sq4", "astar")])
def test_a_pickled_simulation_goes_on_as_the_original(kind, pathfinder):
    # pickling raised "cannot pickle '_thread.RLock' object" (the map's zones the simulation keeps)
    import pickle

    sim, _ = _run(kind, 3, 6, pathfinder, ticks=20)
    copy = pickle.loads(pickle.dumps(sim))
    assert copy.map is not sim.map and copy.tick == sim.tick

    def go_on(s):
        trace = []
        for t in range(60):
            if t == 10:  # an edit after the load: the copy listens to its own map
                s.map.set_terrain([(0, 0)], "water")
            s.step()
            s.check()
            trace.append(tuple(s.lepton(u) for u in sorted(s.units)))
        return trace, list(s.events)

    assert go_on(copy) == go_on(sim)
    assert any(ev.event == "terrain_changed" for ev in copy.map_events)
    sim.close()
    closed = pickle.loads(pickle.dumps(sim))
    heard = len(closed.map_events)
    closed.map.set_terrain([(1, 0)], "water")
    assert len(closed.map_events) == heard  # a closed simulation stays deaf to its map
