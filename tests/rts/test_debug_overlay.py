"""The RTS debug overlay: goal, cached path, reserved cell and true position agree with the simulation."""

from __future__ import annotations

import json
import math

import pytest

from wargrid import HexGrid, Map, SquareGrid, StaggeredGrid
from wargrid.render import render_svg
from wargrid.rts import Simulation
from wargrid.render import debug_svg
from wargrid.tactics import debug_json, unit_debug


def on_segment(p, a, b):
    ab = math.dist(a, b)
    return abs(math.dist(a, p) + math.dist(p, b) - ab) < 1e-9


@pytest.mark.parametrize("grid", [SquareGrid(8, 6, diagonal=True), HexGrid(8, 6), StaggeredGrid(8, 6)], ids=str)
def test_debug_agrees_with_the_simulation(grid):
    m = Map(grid)
    m.set_terrain([(3, 1), (3, 2), (3, 3)], "mountains")
    sim = Simulation(m, seed=3)
    units = [
        sim.add_unit((0, 0), unit="tracked", goal=(7, 5), speed=90),
        sim.add_unit((0, 5), unit="tracked", goal=(7, 0), speed=60),
        sim.add_unit((1, 2), kind="infantry", unit="foot", goal=(6, 2), speed=40),
    ]
    sim.add_obstacle([(5, 4)], hp=None)
    seen_moving = False
    for _ in range(120):
        sim.step()
        for uid in units:
            d = unit_debug(sim, uid)
            u = sim.get(uid)
            assert d.path[0] == u.cell and d.goal == u.goal and d.state == u.state
            assert d.lepton == tuple(sim.lepton(uid))
            res = sim.occupancy.reservation(uid)
            assert d.reserved == (None if res is None else res.cell)
            if u.next_cell is not None:
                seen_moving = True
                assert d.path[1] == u.next_cell
                assert on_segment(d.point, grid.center(u.cell), grid.center(u.next_cell))
                assert 0.0 <= d.progress <= 1.0
            else:
                assert d.point == grid.center(u.cell)
            if isinstance(grid, SquareGrid):  # drawing units are cells: the lepton position (rounded down) itself
                assert abs(d.point[0] - d.lepton[0] / 256) < 1 / 256 and abs(d.point[1] - d.lepton[1] / 256) < 1 / 256
            # consecutive cells of the cached path are neighbours
            for a, b in zip(d.path[:-1], d.path[1:]):
                assert b in grid.neighbors(a)
            data = d.to_json()
            assert json.loads(json.dumps(data)) == data
            render_svg(m, overlays=d.overlays())  # the overlays are valid for the renderer
    assert seen_moving
    out = debug_json(sim)
    assert [u["uid"] for u in out["units"]] == units and out["tick"] == sim.tick
    svg = debug_svg(sim, units[:2])
    assert svg.count('class="unit-position"') == 2 and svg.rstrip().endswith("</svg>")


def test_debug_svg_writes_a_file(tmp_path):
    sim = Simulation(Map(HexGrid(5, 4)), seed=0)
    sim.add_unit((0, 0), goal=(4, 3), speed=100)
    sim.step()
    target = tmp_path / "debug.svg"
    s = debug_svg(sim, path=target)
    assert target.read_text(encoding="utf-8") == s and 'class="unit-heading"' in s


def test_bad_input():
    sim = Simulation(Map(SquareGrid(3, 3)), seed=0)
    with pytest.raises(TypeError, match="sim"):
        unit_debug(Map(SquareGrid(3, 3)), 0)
    with pytest.raises(KeyError, match="uid 7"):
        unit_debug(sim, 7)
    with pytest.raises(TypeError, match="uid"):
        unit_debug(sim, "a")
    with pytest.raises(TypeError, match="uids\\[0\\]"):
        debug_json(sim, ["x"])
