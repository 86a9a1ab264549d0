"""Turning vehicles: the facing search against a plain-Python Dijkstra, continuous turn tracks, bad input."""

from __future__ import annotations

import heapq
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import HexGrid, Map, SquareGrid, StaggeredGrid
from wargrid.tactics import turn_track, turning_path

GRIDS = {
    "square4": SquareGrid(7, 6),
    "square8": SquareGrid(7, 6, diagonal=True),
    "square8-one": SquareGrid(7, 6, diagonal=True, corner_rule="one-obstacle"),
    "hex": HexGrid(7, 6),
    "hex-r-wrap": HexGrid(7, 6, orientation="pointy", offset="even-r", wrap_x=True),
    "staggered": StaggeredGrid(7, 6, stagger="rows"),
}
IDS = list(GRIDS)


def oracle(m, unit, start, f0, goal, rate, speed, final=None, pivot=True):
    """Slow Dijkstra over (cell, facing) built on the grid's public neighbour API."""
    g = m.grid
    t = g.topology
    n = t.ndir
    cost = m.costs(unit=unit)
    ok = np.isfinite(cost)

    def free(c):
        return c is not None and bool(ok[c[1], c[0]])

    dist = {(start, f0): 0.0}
    heap = [(0.0, start, f0)]
    while heap:
        d, c, f = heapq.heappop(heap)
        if d > dist[(c, f)]:
            continue
        if c == goal and (final is None or f == final):
            return d
        nxt = []

        def move(d):
            q = g.neighbor(c, d)
            if not free(q):
                return None
            c0, c1 = int(t.corner[d, 0]), int(t.corner[d, 1])
            if c0 >= 0 and t.corner_rule:
                a, b = free(g.neighbor(c, c0)), free(g.neighbor(c, c1))
                if not ((a and b) if t.corner_rule == 1 else (a or b)):
                    return None
            return q, float(t.step[d]) * float(cost[q[1], q[0]]) / speed

        got = move(f)
        if got:
            nxt.append(((got[0], f), got[1]))
        for nf in ((f + 1) % n, (f - 1) % n):
            if pivot:
                nxt.append(((c, nf), 1.0 / rate))
            else:
                got = move(nf)
                if got:
                    nxt.append(((got[0], nf), max(got[1], 1.0 / rate)))
        for s, w in nxt:
            if d + w < dist.get(s, math.inf):
                dist[s] = d + w
                heapq.heappush(heap, (d + w, s[0], s[1]))
    return None


def random_map(g, seed):
    """A board with random mountains and hills, its generator and two distinct free cells (or None)."""
    rng = np.random.default_rng(seed)
    m = Map(g)
    for name, p in (("mountains", 0.2), ("hills", 0.2)):
        cells = [(int(x), int(y)) for y, x in zip(*np.nonzero(rng.random(g.shape) < p))]
        if cells:
            m.set_terrain(cells, name)
    free = [c for c in g.cells() if m.passable(unit="cavalry")[c[1], c[0]]]
    if len(free) < 2:
        return m, rng, None
    return m, rng, tuple(free[i] for i in rng.choice(len(free), 2, replace=False))


@pytest.mark.parametrize("name", IDS)
@settings(max_examples=20)
@given(seed=st.integers(0, 10**6), rate=st.sampled_from([0.25, 0.5, 1.0, 2.0, 3.0]),
       speed=st.sampled_from([0.5, 1.0, 2.0]), final=st.booleans(), pivot=st.booleans())
def test_facing_search_matches_oracle(name, seed, rate, speed, final, pivot):
    g = GRIDS[name]
    m, rng, pair = random_map(g, seed)
    if pair is None:
        return
    a, b = pair
    f0 = int(rng.integers(g.ndir))
    ff = int(rng.integers(g.ndir)) if final else None
    p = m.turning_path(a, b, unit="cavalry", facing=f0, turn_rate=rate, speed=speed, final_facing=ff, pivot=pivot)
    want = oracle(m, "cavalry", a, f0, b, rate, speed, ff, pivot)
    if want is None:
        assert p is None
        return
    assert math.isclose(p.time, want, rel_tol=1e-9, abs_tol=1e-9)
    assert p.states[0] == (a, f0) and p.states[-1][0] == b
    if ff is not None:
        assert p.states[-1][1] == ff
    # every transition is one move straight ahead or one facing step
    for (c0, f0_), (c1, f1) in zip(p.states[:-1], p.states[1:]):
        if c0 == c1:
            assert pivot and (f1 - f0_) % g.ndir in (1, g.ndir - 1)
        else:
            assert g.neighbor(c0, f1) == c1 and (f0_ == f1 or (not pivot and (f1 - f0_) % g.ndir in (1, g.ndir - 1)))
    assert math.isclose(sum(p.step_times), p.time)
    check_track(g, p)


def check_track(g, p):
    track = p.track()
    rate = p.turn_rate
    dt = min(1.0, 1.0 / rate)
    assert track[0].t == 0.0 and math.isclose(track[-1].t, p.time)
    assert np.allclose((track[0].x, track[0].y), g.center(p.states[0][0]))
    if not g.wrap_x:
        assert np.allclose((track[-1].x, track[-1].y), g.center(p.states[-1][0]))
    assert track[0].facing == p.states[0][1] and track[-1].facing == p.states[-1][1]
    start = p.states[0][0]
    assert track[0].lepton == (start[0] * 256 + 128, start[1] * 256 + 128)
    for q in track:  # the lepton position names the cell the unit is over (or the next one)
        cell = (q.lepton[0] // 256, q.lepton[1] // 256)
        assert cell in p.cells or any(cell in g.neighbors(c) for c in p.cells)
    # fastest straight motion along the path, in drawing units per tick
    cells = p.cells
    fastest = 0.0
    moves = [(a, b, t) for (a, _), (b, _), t in zip(p.states[:-1], p.states[1:], p.step_times) if a != b]
    for a, b, t in moves:
        if g.wrap_x and abs(a[0] - b[0]) > 1:
            continue
        fastest = max(fastest, math.dist(g.center(a), g.center(b)) / t)
    n = g.ndir
    for q0, q1 in zip(track[:-1], track[1:]):
        assert q1.t - q0.t <= dt + 1e-9
        d = (q1.facing - q0.facing) % n
        assert d in (0, 1, n - 1), (q0, q1)
        assert abs(((q1.heading - q0.heading + n / 2) % n) - n / 2) <= 1 + 1e-9
        if not g.wrap_x:
            assert math.dist((q0.x, q0.y), (q1.x, q1.y)) <= fastest * (q1.t - q0.t) + 1e-9
    assert len(cells) >= 1


@pytest.mark.parametrize("name", IDS)
@settings(max_examples=10)
@given(seed=st.integers(0, 10**6), rate=st.sampled_from([0.3, 1.0, 2.5]))
def test_turn_track_of_a_grid_path(name, seed, rate):
    g = GRIDS[name]
    m, rng, pair = random_map(g, seed)
    if pair is None:
        return
    a, b = pair
    path = m.path(a, b, unit="cavalry")
    if path is None:
        return
    p = turn_track(g, m.cost_field(unit="cavalry"), path.cells, facing=int(rng.integers(g.ndir)), turn_rate=rate)
    assert p.cells == path.cells
    assert math.isclose(p.time, path.cost + p.facing_steps / rate)
    check_track(g, p)
    # the turning search is never slower than driving the grid path
    best = m.turning_path(a, b, unit="cavalry", facing=p.states[0][1], turn_rate=rate)
    assert best.time <= p.time + 1e-9


def test_no_pivot_needs_room():
    corridor = Map(SquareGrid(6, 1))
    assert corridor.turning_path((2, 0), (4, 0), unit="cavalry", facing=2, turn_rate=1, pivot=False) is None
    p = corridor.turning_path((2, 0), (4, 0), unit="cavalry", facing=2, turn_rate=1, pivot=True)
    assert p.time == 4.0
    narrow = Map(SquareGrid(8, 3, diagonal=True))  # a U-turn on 45 degree steps needs 4 rows
    assert narrow.turning_path((4, 1), (6, 1), unit="cavalry", facing=4, turn_rate=1, pivot=False) is None
    hall = Map(SquareGrid(8, 6, diagonal=True))
    p = hall.turning_path((4, 1), (6, 1), unit="cavalry", facing=4, turn_rate=1, pivot=False)
    assert p is not None and all(a[0] != b[0] for a, b in zip(p.states[:-1], p.states[1:]))
    assert max(c[1] for c in p.cells) - min(c[1] for c in p.cells) >= 3
    with pytest.raises(ValueError, match="pivot=False"):
        turn_track(hall.grid, hall.cost_field(unit="cavalry"), [(4, 1), (5, 1)], facing=4, turn_rate=1, pivot=False)
    with pytest.raises(TypeError, match="pivot"):
        hall.turning_path((4, 1), (6, 1), unit="cavalry", facing=4, turn_rate=1, pivot=0)
    # a bend of one facing step is taken while moving, at the slower of the move and the turn
    t = turn_track(hall.grid, hall.cost_field(unit="cavalry"), [(0, 1), (1, 1), (2, 0)], facing=0, turn_rate=0.5,
                   pivot=False)
    assert t.states == [((0, 1), 0), ((1, 1), 0), ((2, 0), 1)] and t.time == 1.0 + 2.0


def test_reference_values():
    m = Map(SquareGrid(6, 3))
    # facing west, the goal east: turn twice (180 degrees on square-4) then drive
    p = m.turning_path((0, 1), (3, 1), unit="cavalry", facing=2, turn_rate=1)
    assert p.facing_steps == 2 and p.time == 5.0 and p.cells == [(0, 1), (1, 1), (2, 1), (3, 1)]
    # slow turning prefers the straight road even when it is longer
    m = Map(SquareGrid(5, 5, diagonal=True))
    p = m.turning_path((0, 0), (4, 0), unit="cavalry", facing=0, turn_rate=0.01)
    assert p.facing_steps == 0 and p.time == 4.0
    # a final facing costs the turns at the end
    q = m.turning_path((0, 0), (4, 0), unit="cavalry", facing=0, turn_rate=1, final_facing=4)
    assert q.time == 8.0
    walled = Map(SquareGrid(3, 1))
    walled.set_terrain([(1, 0)], "mountains")
    assert walled.turning_path((0, 0), (2, 0), unit="cavalry", facing=0, turn_rate=1) is None


@pytest.mark.parametrize(
    "opts, err, words",
    [
        ({"turn_rate": 0}, ValueError, "turn_rate"),
        ({"turn_rate": -1}, ValueError, "turn_rate"),
        ({"turn_rate": float("nan")}, ValueError, "turn_rate"),
        ({"turn_rate": "fast"}, TypeError, "turn_rate"),
        ({"turn_rate": 1, "facing": 8}, ValueError, "facing"),
        ({"turn_rate": 1, "facing": 1.0}, TypeError, "facing"),
        ({"turn_rate": 1, "speed": 0}, ValueError, "speed"),
        ({"turn_rate": 1, "final_facing": -1}, ValueError, "final_facing"),
        ({"turn_rate": 5e-324}, ValueError, "turn_rate must be at least MIN_TURN_RATE"),
        ({"turn_rate": 1, "speed": 1e-300}, ValueError, "speed must be at least MIN_SPEED"),
    ],
)
def test_bad_input(opts, err, words):
    m = Map(SquareGrid(4, 4, diagonal=True))
    kw = {"facing": 0, **opts}
    with pytest.raises(err, match=words):
        m.turning_path((0, 0), (3, 3), unit="cavalry", **kw)


def test_bad_track_input():
    m = Map(SquareGrid(4, 4))
    cd = m.cost_field(unit="cavalry")
    with pytest.raises(ValueError, match="turn_rate"):
        turn_track(m.grid, cd, [(0, 0), (1, 0)], facing=0, turn_rate=0.0)
    with pytest.raises(ValueError, match="neighbour"):
        turn_track(m.grid, cd, [(0, 0), (2, 0)], facing=0, turn_rate=1)
    with pytest.raises(ValueError, match="at least one"):
        turn_track(m.grid, cd, [], facing=0, turn_rate=1)
    slow = turn_track(m.grid, cd, [(0, 0), (1, 0), (1, 1)], facing=0, turn_rate=1e-8)  # a turn of 10**8 ticks
    with pytest.raises(MemoryError, match="MAX_TRACK_FRAMES"):
        slow.track()
    fast = turn_track(m.grid, cd, [(0, 0), (1, 0)], facing=0, turn_rate=1e300)  # frames of 1e-300 ticks (a hang before)
    with pytest.raises(MemoryError, match=r"frames of min\(1, 1 / turn_rate\) = 1e-300 ticks"):
        fast.track()
    m.set_terrain([(3, 3)], "water")
    with pytest.raises(ValueError, match="impassable"):
        m.turning_path((3, 3), (0, 0), unit="cavalry", facing=0, turn_rate=1)
