"""The playground's query endpoints answer what wargrid answers, and refuse bad requests clearly.

Each endpoint is checked against a direct call of the library (or, where the
playground composes, against a slow plain-Python version of the composition),
on small boards whose terrain the test sets by hand.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from wargrid import HexGrid, Map, SquareGrid, StaggeredGrid
from wargrid.serve.api import MAX_RADIUS
from wargrid.serve.app import create_app

# the worker's first partition compiles its kernels from cold (a loaded machine took over 30 s, the default
# limit, whose own behaviour tests/serve/test_serve_limits.py checks)
APP = create_app(capacity=64, work_timeout=600)
CLIENT = TestClient(APP, base_url="http://127.0.0.1", raise_server_exceptions=False)


def session(m: Map) -> str:
    return APP.state.store.add(m, source="test").id


def call(name: str, **payload):
    return CLIENT.post(f"/api/{name}", json=payload)


def ok(r) -> dict:
    assert r.status_code == 200, r.text
    return r.json()


def bad(r, status: int = 400) -> str:
    assert r.status_code == status, r.text
    return r.json()["error"]


def lake_map(grid) -> Map:
    """A board with a wall of water down column 2 except at the bottom row, and a forest."""
    m = Map(grid)
    h = grid.height
    m.set_terrain([(2, y) for y in range(h - 1)], "water")
    m.set_terrain([(4, 1)], "forest")
    return m


GRIDS = [SquareGrid(7, 5), SquareGrid(7, 5, diagonal=True), HexGrid(7, 5), HexGrid(7, 5, orientation="pointy"), StaggeredGrid(7, 5)]


# -- path ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("grid", GRIDS, ids=repr)
def test_path_matches_the_library(grid):
    m = lake_map(grid)
    sid = session(m)
    for unit in ("foot", "cavalry", "naval"):
        got = ok(call("path", session=sid, start=[0, 0], goal=[6, 0], unit=unit))
        want = m.path((0, 0), (6, 0), unit=unit)
        if want is None:
            assert got["cells"] is None and got["cost"] is None
        else:
            assert [tuple(c) for c in got["cells"]] == want.cells
            assert got["cost"] == pytest.approx(want.cost)
            # the path goes round the lake through the bottom row
            assert any(y == grid.height - 1 for _, y in got["cells"])
        assert got["unit"] == unit


def test_path_literal_square():
    m = lake_map(SquareGrid(7, 5))
    got = ok(call("path", session=session(m), start=[0, 0], goal=[6, 0], unit="cavalry"))
    # plains cost cavalry 1 a step: round the lake is 4 down, 6 across, 4 up
    assert got["cost"] == 14.0 and len(got["cells"]) == 15


def test_path_unreachable_and_enemies():
    m = Map(SquareGrid(5, 1))
    sid = session(m)
    assert ok(call("path", session=sid, start=[0, 0], goal=[4, 0], unit="naval"))["cells"] is None
    # an enemy standing in the only corridor blocks it
    assert ok(call("path", session=sid, start=[0, 0], goal=[4, 0], enemies=[[2, 0]]))["cells"] is None
    assert ok(call("path", session=sid, start=[0, 0], goal=[4, 0], enemies=[]))["cost"] == 8.0
    # a friend in the corridor is passed through, but the goal it stands on cannot be the end of a move
    assert ok(call("path", session=sid, start=[0, 0], goal=[4, 0], friends=[[2, 0]]))["cost"] == 8.0
    assert ok(call("path", session=sid, start=[0, 0], goal=[4, 0], friends=[[4, 0]]))["cells"] is None


@pytest.mark.parametrize(
    ("fields", "needle"),
    [
        ({"start": [0, 0]}, "missing field(s) goal"),
        ({"start": [0, 0], "goal": [9, 0]}, "goal [9, 0] is off the board"),
        ({"start": [0, "a"], "goal": [1, 0]}, "start must be an [x, y] pair of integers"),
        ({"start": [0, 0], "goal": [1, 0], "unit": "dragon"}, "unit must be one of 'foot'"),
        ({"start": [0, 0], "goal": [1, 0], "enemies": [[0, 0, 1]]}, "enemies[0] must be an [x, y] pair"),
        ({"start": [0, 0], "goal": [1, 0], "enemies": [[0, 0]] * 300}, "at most 200"),
        ({"start": [0, 0], "goal": [1, 0], "weight": 2}, "unknown field(s) weight"),
    ],
)
def test_path_bad_requests(fields, needle):
    sid = session(Map(SquareGrid(5, 5)))
    assert needle in bad(call("path", session=sid, **fields))


# -- range -----------------------------------------------------------------------------------------

def range_oracle(m: Map, start, budget: float, unit: str) -> dict:
    """Plain Dijkstra over grid.steps and Map.costs: points left in every cell reached within budget."""
    import heapq

    cost = m.costs(unit=unit)
    dist = {start: 0.0}
    heap = [(0.0, start)]
    while heap:
        d, c = heapq.heappop(heap)
        if d > dist[c]:
            continue
        for s in m.grid.steps(c):
            x, y = s.cell
            nd = d + cost[y, x]
            if nd <= budget + 1e-9 and nd < dist.get(s.cell, math.inf):
                dist[s.cell] = nd
                heapq.heappush(heap, (nd, s.cell))
    return {c: budget - d for c, d in dist.items()}


@pytest.mark.parametrize("grid", GRIDS[:1] + GRIDS[2:], ids=repr)  # no diagonals: no corner rule in the oracle
def test_range_matches_dijkstra(grid):
    m = lake_map(grid)
    sid = session(m)
    got = ok(call("range", session=sid, start=[1, 2], budget=7.5, unit="foot"))
    left = {(x, y): v for x, y, v in got["cells"]}
    want = range_oracle(m, (1, 2), 7.5, "foot")
    assert left.keys() == want.keys()
    for c, v in want.items():
        assert left[c] == pytest.approx(v)
    assert got["budget"] == 7.5 and got["unit"] == "foot"


def test_range_zones_of_control_literal():
    m = Map(SquareGrid(6, 3))
    got = ok(call("range", session=session(m), start=[0, 1], budget=100, unit="cavalry", enemies=[[3, 1]]))
    reached = {(x, y) for x, y, _ in got["cells"]}
    # the enemy's neighbours end the move: nothing past them, and the enemy's own cell is not entered
    assert {(2, 1), (3, 0), (3, 2)} <= reached
    assert not any(x >= 4 for x, _ in reached) and (3, 1) not in reached
    assert sorted(map(tuple, got["zoc"])) == [(2, 1), (3, 0), (3, 2)]


def test_range_friends_are_crossed_not_stopped_on():
    m = Map(SquareGrid(5, 1))
    got = ok(call("range", session=session(m), start=[0, 0], budget=100, unit="cavalry", friends=[[2, 0]]))
    assert [c[:2] for c in got["cells"]] == [[0, 0], [1, 0], [3, 0], [4, 0]]


def test_range_zero_budget_is_the_start():
    got = ok(call("range", session=session(Map(HexGrid(4, 4))), start=[1, 1], budget=0))
    assert got["cells"] == [[1, 1, 0.0]]


@pytest.mark.parametrize(
    ("fields", "needle"),
    [
        ({"start": [0, 0], "budget": -1}, "budget must be in 0.0..1000000.0, got -1"),
        ({"start": [0, 0], "budget": "8"}, "budget must be a finite number"),
        ({"start": [0, 0], "budget": 1e300}, "budget must be in"),
        ({"start": [0, 0]}, "missing field(s) budget"),
        ({"start": [5, 0], "budget": 3}, "start [5, 0] is off the board"),
    ],
)
def test_range_bad_requests(fields, needle):
    sid = session(Map(SquareGrid(5, 5)))
    assert needle in bad(call("range", session=sid, **fields))


def test_range_rejects_nan_in_json():
    sid = session(Map(SquareGrid(5, 5)))
    r = CLIENT.post("/api/range", content=b'{"session": "%s", "start": [0, 0], "budget": NaN}' % sid.encode(),
                    headers={"Content-Type": "application/json"})
    assert "budget must be a finite number" in bad(r)


# -- zones ---------------------------------------------------------------------------------------

def test_zones():
    m = Map(SquareGrid(5, 3))
    m.set_terrain([(2, 0), (2, 1), (2, 2)], "water")
    got = ok(call("zones", session=session(m), unit="foot"))
    assert got["count"] == 2
    labels = np.array(got["labels"]).reshape(3, 5)
    assert (labels[:, 2] == -1).all()
    assert len(set(labels[:, :2].ravel())) == 1 and len(set(labels[:, 3:].ravel())) == 1
    assert labels[0, 0] != labels[0, 4]
    assert np.array_equal(labels, m.zones(unit="foot"))
    assert "unit must be one of" in bad(call("zones", session=session(m), unit=3))


# -- sight --------------------------------------------------------------------------------------

@pytest.mark.parametrize("grid", GRIDS, ids=repr)
def test_fov_matches_the_library(grid):
    m = lake_map(grid)
    m.set_terrain([(3, 2)], "mountains")
    got = ok(call("fov", session=session(m), origin=[3, 3], radius=4))
    want = m.fov((3, 3), radius=4)
    assert got["visible"] == np.flatnonzero(want.ravel()).tolist()
    assert (3 * 7 + 3) in got["visible"]
    if isinstance(grid, SquareGrid):
        # the polygon is clipped to the sight radius (plus half a tile: the cells in range)
        want_poly = m.visibility_polygon((3.5, 3.5), radius=4.5).points
        assert np.allclose(np.array(got["polygon"]), want_poly, atol=1e-4)
        assert np.hypot(*(np.array(got["polygon"]) - 3.5).T).max() <= 4.5 + 1e-3
    if isinstance(grid, HexGrid):
        # hex boards: the light at the origin's centre, clipped to the cells in range
        c = grid.center((3, 3))
        want_poly = m.visibility_polygon(c, radius=4.5 * math.sqrt(3)).points
        assert np.allclose(np.array(got["polygon"]), want_poly, atol=1e-4)
    if not isinstance(grid, (SquareGrid, HexGrid)):
        assert got["polygon"] is None  # staggered boards have no polygon


def test_visibility_polygon_follows_the_light():
    m = Map(SquareGrid(6, 6))
    m.set_terrain([(2, 2), (3, 2)], "mountains")
    sid = session(m)
    a = ok(call("fov", session=sid, origin=[2, 4], radius=5, point=[2.1, 4.9]))["polygon"]
    b = ok(call("fov", session=sid, origin=[2, 4], radius=5, point=[2.9, 4.1]))["polygon"]
    assert a != b
    assert np.allclose(np.array(b), m.visibility_polygon((2.9, 4.1), radius=5.5).points, atol=1e-4)
    # every corner lies on the board
    assert all(0 <= x <= 6 and 0 <= y <= 6 for x, y in a + b)
    # the light must stay inside its tile; hex boards ignore the point
    msg = bad(call("fov", session=sid, origin=[2, 4], radius=5, point=[3.5, 4.5]))
    assert "point[0] (x) must be in 2..3, got 3.5" in msg
    assert "point must be an [x, y] pair" in bad(call("fov", session=sid, origin=[2, 4], radius=5, point=[1]))
    h = ok(call("fov", session=session(Map(HexGrid(4, 4))), origin=[1, 1], radius=2, point=[9, 9]))
    assert np.allclose(np.array(h["polygon"]), Map(HexGrid(4, 4)).visibility_polygon(HexGrid(4, 4).center((1, 1)),
                                                                                       radius=2.5 * math.sqrt(3)).points, atol=1e-4)


@pytest.mark.parametrize(
    ("fields", "needle"),
    [
        ({"origin": [0, 0], "radius": MAX_RADIUS + 1}, f"radius must be in 0..{MAX_RADIUS}"),
        ({"origin": [0, 0], "radius": 2.5}, "radius must be an integer"),
        ({"origin": [0, 0]}, "missing field(s) radius"),
        ({"origin": [-1, 0], "radius": 2}, "origin [-1, 0] is off the board"),
    ],
)
def test_fov_bad_requests(fields, needle):
    assert needle in bad(call("fov", session=session(Map(SquareGrid(5, 5))), **fields))


def test_fog_is_the_union_of_the_teams_views_and_remembers():
    m = lake_map(HexGrid(9, 7))
    sid = session(m)
    units = [[1, 0, 0, 0], [2, 6, 5, 0], [3, 4, 4, 1]]
    got = ok(call("fog", session=sid, units=units, team=0, radius=2))
    want = m.fov((0, 0), radius=2) | m.fov((6, 5), radius=2)
    assert got["visible"] == np.flatnonzero(want.ravel()).tolist()
    assert got["explored"] == got["visible"]
    red = ok(call("fog", session=sid, units=units, team=1, radius=2))
    assert red["visible"] == np.flatnonzero(m.fov((4, 4), radius=2).ravel()).tolist()
    # blue's first unit walks away: what it saw stays explored, not visible
    units[0] = [1, 0, 6, 0]
    moved = ok(call("fog", session=sid, units=units, team=0, radius=2))
    now = m.fov((0, 6), radius=2) | m.fov((6, 5), radius=2)
    assert moved["visible"] == np.flatnonzero(now.ravel()).tolist()
    assert set(moved["explored"]) == set(np.flatnonzero((now | want).ravel()).tolist())
    # a unit taken off the board no longer sees
    gone = ok(call("fog", session=sid, units=units[1:], team=0, radius=2))
    assert gone["visible"] == np.flatnonzero(m.fov((6, 5), radius=2).ravel()).tolist()


@settings(max_examples=15)
@given(
    st.lists(st.tuples(st.integers(0, 5), st.integers(0, 4), st.integers(0, 1)), max_size=5, unique_by=lambda u: u[:2]),
    st.integers(0, 1),
    st.integers(0, 3),
)
def test_fog_property_union_of_fov(units, team, radius):
    m = lake_map(SquareGrid(6, 5))
    body = [[i, x, y, t] for i, (x, y, t) in enumerate(units)]
    got = ok(call("fog", session=session(m), units=body, team=team, radius=radius))
    want = np.zeros(m.shape, dtype=bool)
    for x, y, t in units:
        if t == team:
            want |= m.fov((x, y), radius=radius)
    assert got["visible"] == np.flatnonzero(want.ravel()).tolist()


@pytest.mark.parametrize(
    ("fields", "needle"),
    [
        ({"units": [[1, 0, 0]], "team": 0, "radius": 2}, "units[0] must be an [id, x, y, team] list"),
        ({"units": [[1, 0, 0, 2]], "team": 0, "radius": 2}, "units[0] team must be in 0..1"),
        ({"units": [[1, 0, 0, 0], [1, 1, 1, 0]], "team": 0, "radius": 2}, "repeats unit id 1"),
        ({"units": [[1, 9, 0, 0]], "team": 0, "radius": 2}, "units[0] cell [9, 0] is off the board"),
        ({"units": [], "team": 5, "radius": 2}, "team must be in 0..1"),
        ({"units": {}, "team": 0, "radius": 2}, "units must be a list"),
    ],
)
def test_fog_bad_requests(fields, needle):
    assert needle in bad(call("fog", session=session(Map(SquareGrid(5, 5))), **fields))


# -- territory ---------------------------------------------------------------------------------

@pytest.mark.parametrize("grid", [HexGrid(8, 6), SquareGrid(8, 6)], ids=repr)
def test_partition_is_exact_and_fair(grid):
    m = lake_map(grid)
    got = ok(call("partition", session=session(m), players=3))
    owners = np.array(got["owners"]).reshape(grid.shape)
    land = m.passable(unit="foot")
    # every land cell has exactly one owner, water none
    assert ((owners >= 0) == land).all()
    assert sorted(set(owners[land].tolist())) == [0, 1, 2]
    assert got["sizes"] == [int((owners == k).sum()) for k in range(3)]
    assert max(got["sizes"]) - min(got["sizes"]) <= 1
    assert got["report"]["balanced"] is True
    assert len(got["seeds"]) == 3
    for k, (x, y) in enumerate(got["seeds"]):
        assert owners[y, x] == k


def test_partition_scattered():
    got = ok(call("partition", session=session(Map(HexGrid(6, 4))), players=2, mode="scattered", max_chunk=6))
    assert got["mode"] == "scattered"
    assert max(got["report"]["largest_chunk"]) <= 6
    # two players on an open hex board cannot both keep to small chunks (the Hex theorem): a clear 400
    msg = bad(call("partition", session=session(Map(HexGrid(6, 4))), players=2, mode="scattered", max_chunk=2))
    assert "max_chunk" in msg


@pytest.mark.parametrize(
    ("fields", "needle"),
    [
        ({"players": 0}, "players must be in 1..16"),
        ({"players": 17}, "players must be in 1..16"),
        ({"players": 2, "mode": "voronoi"}, "mode must be one of 'compact', 'scattered'"),
        ({"players": 2, "mode": "scattered", "max_chunk": 0}, "max_chunk must be in 1.."),
        ({}, "missing field(s) players"),
    ],
)
def test_partition_bad_requests(fields, needle):
    assert needle in bad(call("partition", session=session(Map(SquareGrid(5, 5))), **fields))


def test_partition_impossible_request_is_a_clear_400():
    m = Map(SquareGrid(3, 1))
    msg = bad(call("partition", session=session(m), players=5))
    assert msg


# -- paint follows into the queries -------------------------------------------------------------

def test_paint_changes_paths_zones_and_sight():
    m = Map(SquareGrid(5, 3))
    sid = session(m)
    before = ok(call("path", session=sid, start=[0, 1], goal=[4, 1], unit="foot"))
    assert before["cost"] == 8.0
    ok(call("paint", session=sid, cells=[[2, 0], [2, 1], [2, 2]], terrain="water"))
    assert ok(call("path", session=sid, start=[0, 1], goal=[4, 1], unit="foot"))["cells"] is None
    assert ok(call("zones", session=sid, unit="foot"))["count"] == 2
    ok(call("paint", session=sid, cells=[[2, 1]], terrain="forest"))
    assert ok(call("path", session=sid, start=[0, 1], goal=[4, 1], unit="foot"))["cost"] == 8.0
    seen = ok(call("fov", session=sid, origin=[0, 1], radius=4))["visible"]
    assert (1 * 5 + 4) not in seen  # the forest hides the far side


# -- properties over generated boards -------------------------------------------------------------

KINDS = ("square-4", "square-8", "hex-flat", "hex-pointy", "staggered")


@settings(max_examples=20)
@given(st.sampled_from(KINDS), st.integers(2, 9), st.integers(2, 7), st.integers(0, 50), st.data())
def test_every_path_is_adjacent_passable_cells_whose_costs_add_up(kind, w, h, seed, data):
    b = ok(call("board", kind=kind, width=w, height=h, seed=seed))
    m = APP.state.store.get(b["session"]).map
    unit = data.draw(st.sampled_from(b["classes"]))
    start = [data.draw(st.integers(0, w - 1)), data.draw(st.integers(0, h - 1))]
    goal = [data.draw(st.integers(0, w - 1)), data.draw(st.integers(0, h - 1))]
    got = ok(call("path", session=b["session"], start=start, goal=goal, unit=unit))
    cost = m.costs(unit=unit)
    if got["cells"] is None:
        return
    cells = [tuple(c) for c in got["cells"]]
    assert cells[0] == tuple(start) and cells[-1] == tuple(goal)
    total = 0.0
    for a, c in zip(cells, cells[1:]):
        step = next(s for s in m.grid.steps(a) if s.cell == c)  # StopIteration: not neighbours
        assert math.isfinite(cost[c[1], c[0]])
        total += cost[c[1], c[0]] * (step.length if kind == "square-8" else 1.0)
    assert got["cost"] == pytest.approx(total)


@settings(max_examples=15)
@given(st.sampled_from(KINDS), st.integers(1, 12), st.integers(1, 12), st.integers(0, 10**6))
def test_board_description_is_the_grid_geometry(kind, w, h, seed):
    b = ok(call("board", kind=kind, width=w, height=h, seed=seed))
    g = APP.state.store.get(b["session"]).map.grid
    assert len(b["centers"]) == 2 * w * h and len(b["terrain"]) == w * h == len(b["overlay"])
    x, y = w // 2, h // 2
    cx, cy = g.center((x, y))
    i = y * w + x
    assert b["centers"][2 * i] == pytest.approx(cx, abs=1e-4) and b["centers"][2 * i + 1] == pytest.approx(cy, abs=1e-4)
    assert b["corners"] == [[pytest.approx(a, abs=1e-6), pytest.approx(c, abs=1e-6)] for a, c in g.corner_offsets()]
    # the cell under a point near each corner, pulled a little toward the centre, is the cell itself
    for dx, dy in g.corner_offsets():
        assert g.cell_at(cx + 0.8 * dx, cy + 0.8 * dy) == (x, y)


def test_explain_binary_arrays_are_the_lists():
    import base64

    m = Map(SquareGrid(6, 4, diagonal=True))
    m.set_terrain([(2, 1), (2, 2)], "forest")
    s = session(m)
    lists = ok(call("explain", session=s, start=[0, 0], goal=[5, 3]))
    packed = ok(call("explain", session=s, start=[0, 0], goal=[5, 3], arrays="binary"))
    assert lists["arrays"] == "lists" and packed["arrays"] == "binary"
    for key in ("order", "came_from", "opened", "opened_at"):
        assert np.frombuffer(base64.b64decode(packed[key]), dtype="<i4").tolist() == lists[key], key
    for key in ("cost", "h"):  # the search's own float32 values
        assert np.frombuffer(base64.b64decode(packed[key]), dtype="<f4").tolist() == pytest.approx(lists[key], rel=1e-6), key
    assert lists["order"][:3] == [0, 7, 14] and lists["cost"][1] == pytest.approx(2 * math.sqrt(2))
    assert "arrays" in bad(call("explain", session=s, start=[0, 0], arrays="zip"))


@pytest.mark.parametrize("grid", [SquareGrid(7, 5, diagonal=True), HexGrid(6, 5), StaggeredGrid(6, 5)])
def test_field_is_the_librarys_flow_field(grid):
    import base64

    m = Map(grid)
    m.set_terrain([(2, 1), (2, 2), (2, 3)], "water")
    m.set_terrain([(4, 2)], "forest")
    a = ok(call("field", session=session(m), goal=[5, 4]))
    f = m.flow_field((5, 4), unit="foot")
    cost = np.frombuffer(base64.b64decode(a["cost"]), "<f4").reshape(grid.height, grid.width)
    nxt = np.frombuffer(base64.b64decode(a["next"]), "i1").reshape(grid.height, grid.width)
    assert np.array_equal(np.isinf(cost), np.isinf(f.cost))
    assert np.allclose(cost[np.isfinite(cost)], f.cost[np.isfinite(f.cost)])
    assert np.array_equal(nxt, f.next)
    assert a["reached"] == int(np.isfinite(f.cost).sum()) and a["top"] == pytest.approx(f.cost[np.isfinite(f.cost)].max())
    assert "water" in bad(call("field", session=session(m), goal=[2, 2]))
    assert "goal" in bad(call("field", session=session(m), goal=[9, 9]))
