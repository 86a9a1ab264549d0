"""Bad input over the whole public API: a clear error naming the argument, never a crash or a hang.

Each case calls one public entry point with a value a user could plausibly
pass by mistake and checks the exception type (TypeError, ValueError,
IndexError or a documented subclass) and that the message names the argument.
Every check runs before a kernel, so nothing here compiles a search.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import wargrid as W
from wargrid import rts

SQ = W.generate(8, 6, kind="square", seed=1)
HEX = W.generate(8, 6, kind="hex", seed=1)
SHAPED = W.Map(W.hexagon_board(2))  # (0, 0) is masked out
assert not SHAPED.grid.mask[0, 0]
BIG = 2**63 - 1
SMALL = -(2**63)

# -- scalars -----------------------------------------------------------------------------
NOT_INT = [pytest.param(v, id=i) for i, v in
           [("str", "3"), ("float", 3.5), ("None", None), ("bool", True), ("np-float", np.float64(3)), ("nan", float("nan"))]]
NOT_REAL = [pytest.param(v, id=i) for i, v in [("str", "3"), ("None", None), ("bool", True), ("list", [1.0])]]
NON_FINITE = [pytest.param(v, id=i) for i, v in [("nan", float("nan")), ("inf", float("inf")), ("-inf", -float("inf"))]]

# (id, call taking the bad value, name the message must carry)
INT_ARGS = [
    ("Grid.width", lambda v: W.Grid(v, 4), "width"),
    ("HexGrid.height", lambda v: W.HexGrid(4, v), "height"),
    ("SquareGrid.width", lambda v: W.SquareGrid(v, 4), "width"),
    ("StaggeredGrid.width", lambda v: W.StaggeredGrid(v, 4), "width"),
    ("hexagon_board", lambda v: W.hexagon_board(v), "radius"),
    ("triangle_board", lambda v: W.triangle_board(v), "size"),
    ("parallelogram_board", lambda v: W.parallelogram_board(v, 2), "q_size"),
    ("hex_direction", lambda v: W.hex_direction(v), "direction"),
    ("Hex", lambda v: W.Hex(v, 0), "q"),
    ("Hex.range", lambda v: W.Hex(0, 0).range(v), "radius"),
    ("Hex.turn", lambda v: W.Hex(0, 0).turn(v), "steps"),
    ("offset_to_hex", lambda v: W.offset_to_hex(v, 0, "odd-q"), "col"),
    ("doubled_to_hex", lambda v: W.doubled_to_hex(0, v, "doubled-width"), "row"),
    ("manhattan", lambda v: W.manhattan((v, 0), (0, 0)), r"a\[0\]"),
    ("octile", lambda v: W.octile((0, 0), (0, v)), r"b\[1\]"),
    ("square_neighbors", lambda v: W.square_neighbors((v, 0)), r"cell\[0\]"),
    ("Grid.cell", lambda v: SQ.grid.cell(v), "cell_id"),
    ("Grid.neighbor", lambda v: SQ.grid.neighbor((1, 1), v), "direction"),
    ("generate.width", lambda v: W.generate(v, 4), "width"),
    ("generate.seed", lambda v: W.generate(4, 4, seed=v), "seed"),
    ("generate.towns", lambda v: W.generate(4, 4, towns=v), "towns"),
    ("Map.movement_range.attack_range", lambda v: SQ.movement_range((1, 1), 3, attack_range=v), "attack_range"),
    ("Map.fov.radius", lambda v: SQ.fov((1, 1), radius=v), "radius"),
    ("Map.partition.players", lambda v: SQ.partition(v), "players"),
    ("Map.partition.seed", lambda v: SQ.partition(2, seed=v), "seed"),
    ("Map.start_positions.players", lambda v: SQ.start_positions(v), "players"),
    ("Map.start_positions.radius", lambda v: SQ.start_positions(2, radius=v), "radius"),
    ("Map.turning_path.facing", lambda v: SQ.turning_path((1, 1), (3, 3), facing=v, turn_rate=1.0), "facing"),
    ("Map.paths.workers", lambda v: SQ.paths([((1, 1), (2, 2))], workers=v), "workers"),
    ("Map.classic_path.max_steps", lambda v: SQ.classic_path((1, 1), (3, 3), max_steps=v), "max_steps"),
    ("load_map.max_cells", lambda v: W.load_map("missing.json", max_cells=v), "max_cells"),
    ("load_tiled.max_cells", lambda v: W.load_tiled("missing.tmx", max_cells=v), "max_cells"),
    ("load_openra.max_cells", lambda v: W.load_openra("missing.oramap", max_cells=v), "max_cells"),
    ("rts.cell_to_lepton.leptons", lambda v: rts.cell_to_lepton((1, 0), leptons=v), "leptons"),
    ("rts.lepton_to_cell", lambda v: rts.lepton_to_cell((v, 0)), r"point\[0\]"),
    ("rts.pack_cell.width", lambda v: rts.pack_cell((1, 0), v), "width"),
    ("rts.unpack_cell", lambda v: rts.unpack_cell(v, 8), "number"),
    ("rts.octagonal_distance", lambda v: rts.octagonal_distance((v, 0), (0, 0)), r"a\[0\]"),
    ("rts.Occupancy.seed", lambda v: rts.Occupancy(SQ.grid, seed=v), "seed"),
    ("rts.Occupancy.place.uid", lambda v: rts.Occupancy(SQ.grid).place(v, (1, 1)), "uid"),
    ("rts.spot_offsets.leptons", lambda v: rts.spot_offsets(SQ.grid, leptons=v), "leptons"),
    ("rts.Simulation.piece", lambda v: rts.Simulation(SQ, piece=v), "piece"),
    ("rts.Simulation.patience", lambda v: rts.Simulation(SQ, patience=v), "patience"),
    ("rts.Simulation.run", lambda v: rts.Simulation(SQ).run(v), "ticks"),
    ("rts.Simulation.get", lambda v: rts.Simulation(SQ).get(v), "uid"),
    ("Fog.tick", lambda v: SQ.fog(["a"]).tick(v), r"\bn\b"),
]

REAL_ARGS = [
    ("hex_round", lambda v: W.hex_round(v, 0.0), "q"),
    ("Layout.size", lambda v: W.Layout("flat", (v, 1.0)), r"size\[0\]"),
    ("Map.climb_cost", lambda v: W.Map(W.SquareGrid(3, 3), climb_cost=v), "climb_cost"),
    ("Map.set_edge.cost", lambda v: SQ.copy().set_edge((1, 1), (2, 1), v), "cost"),
    ("Map.path.weight", lambda v: SQ.path((1, 1), (2, 2), weight=v), "weight"),
    ("Map.movement_range.max_cost", lambda v: SQ.movement_range((1, 1), v), "max_cost"),
    ("Map.distance_field.max_cost", lambda v: SQ.distance_field([(1, 1)], max_cost=v), "max_cost"),
    ("Map.route.points_per_turn", lambda v: SQ.route((1, 1), (3, 3), points_per_turn=v), "points_per_turn"),
    ("Map.area.radius", lambda v: SQ.area("circle", (2, 2), radius=v), "radius"),
    ("Map.turning_path.turn_rate", lambda v: SQ.turning_path((1, 1), (3, 3), facing=0, turn_rate=v), "turn_rate"),
    ("generate.water", lambda v: W.generate(4, 4, water=v), "water"),
    ("Grid.cell_at.px", lambda v: SQ.grid.cell_at(v, 0.0), "px"),
    ("HexGrid.cell_at.py", lambda v: HEX.grid.cell_at(0.0, v), "py"),
    ("StaggeredGrid.cell_at.px", lambda v: W.StaggeredGrid(3, 3).cell_at(v, 0.0), "px"),
]
# reals that must also be finite (inf is not a meaningful value for them)
FINITE_ONLY = {"hex_round", "Layout.size", "Map.climb_cost", "Map.path.weight", "Map.movement_range.max_cost",
               "Map.route.points_per_turn", "Map.area.radius", "Map.turning_path.turn_rate", "generate.water",
               "Grid.cell_at.px", "HexGrid.cell_at.py", "StaggeredGrid.cell_at.px"}


# None is a documented value for these (no towns, the whole board, no cap, a random seed)
NONE_ALLOWED = {"generate.towns", "Map.fov.radius", "Map.classic_path.max_steps", "rts.Occupancy.seed"}


@pytest.mark.parametrize("value", NOT_INT)
@pytest.mark.parametrize("name,call,arg", INT_ARGS, ids=[c[0] for c in INT_ARGS])
def test_integer_arguments_refuse_non_integers(name, call, arg, value):
    if value is None and name in NONE_ALLOWED:
        call(value)
        return
    with pytest.raises((ValueError, TypeError) if value != value else TypeError, match=arg):
        call(value)


@pytest.mark.parametrize("value", NOT_REAL)
@pytest.mark.parametrize("name,call,arg", REAL_ARGS, ids=[c[0] for c in REAL_ARGS])
def test_real_arguments_refuse_non_numbers(name, call, arg, value):
    if value is None and name in ("Map.distance_field.max_cost", "Map.area.radius"):
        return  # None means "no cap" / "the kind's default"
    with pytest.raises(TypeError, match=arg):
        call(value)


@pytest.mark.parametrize("value", NON_FINITE)
@pytest.mark.parametrize("name,call,arg", [c for c in REAL_ARGS if c[0] in FINITE_ONLY],
                         ids=[c[0] for c in REAL_ARGS if c[0] in FINITE_ONLY])
def test_real_arguments_refuse_nan_and_inf(name, call, arg, value):
    with pytest.raises(ValueError, match=arg):
        call(value)


@pytest.mark.parametrize("name,call,arg", [
    ("Map.set_edge.cost", lambda: SQ.copy().set_edge((1, 1), (2, 1), float("nan")), "cost"),
    ("Map.distance_field.max_cost", lambda: SQ.distance_field([(1, 1)], max_cost=float("nan")), "max_cost"),
    ("Grid.width", lambda: W.Grid(0, 4), "width"),
    ("HexGrid.height", lambda: W.HexGrid(4, -1), "height"),
    ("Grid.huge", lambda: W.SquareGrid(BIG, BIG), "width \\* height"),
    ("hexagon_board.neg", lambda: W.hexagon_board(-1), "radius"),
    ("hexagon_board.huge", lambda: W.hexagon_board(BIG), "radius"),
    ("triangle_board.huge", lambda: W.triangle_board(10**9), "size"),
    ("parallelogram_board.huge", lambda: W.parallelogram_board(10**5, 10**5), "q_size"),
    ("triangle_board.zero", lambda: W.triangle_board(0), "size"),
    ("hex_direction.huge", lambda: W.hex_direction(BIG), "direction"),
    ("Hex.range.neg", lambda: W.Hex(0, 0).range(-1), "radius"),
    ("Layout.size.zero", lambda: W.Layout("flat", (0.0, 1.0)), "size"),
    ("generate.seed.neg", lambda: W.generate(4, 4, seed=-1), "seed"),
    ("generate.towns.neg", lambda: W.generate(4, 4, towns=-1), "towns"),
    ("generate.water.range", lambda: W.generate(4, 4, water=3.5), "water"),
    ("Map.climb_cost.neg", lambda: W.Map(W.SquareGrid(3, 3), climb_cost=-1), "climb_cost"),
    ("Map.set_edge.neg", lambda: SQ.copy().set_edge((1, 1), (2, 1), -1.0), "cost"),
    ("Map.path.weight.low", lambda: SQ.path((1, 1), (2, 2), weight=0.5), "weight"),
    ("Map.movement_range.max_cost.neg", lambda: SQ.movement_range((1, 1), -1), "max_cost"),
    ("Map.movement_range.attack.neg", lambda: SQ.movement_range((1, 1), 3, attack_range=-1), "attack_range"),
    ("Map.route.ppt.zero", lambda: SQ.route((1, 1), (3, 3), points_per_turn=0), "points_per_turn"),
    ("Map.fov.radius.neg", lambda: SQ.fov((1, 1), radius=-1), "radius"),
    ("Map.partition.players.zero", lambda: SQ.partition(0), "players"),
    ("Map.partition.players.huge", lambda: SQ.partition(BIG), "players"),
    ("Map.start_positions.players.huge", lambda: SQ.start_positions(BIG), "players"),
    ("Map.start_positions.radius.neg", lambda: SQ.start_positions(2, radius=-1), "radius"),
    ("Map.turning_path.facing.huge", lambda: SQ.turning_path((1, 1), (3, 3), facing=BIG, turn_rate=1.0), "facing"),
    ("Map.turning_path.turn_rate.zero", lambda: SQ.turning_path((1, 1), (3, 3), facing=0, turn_rate=0.0),
     "turn_rate"),
    ("Map.paths.workers.zero", lambda: SQ.paths([((1, 1), (2, 2))], workers=0), "workers"),
    ("Map.classic_path.max_steps.neg", lambda: SQ.classic_path((1, 1), (3, 3), max_steps=-1), "max_steps"),
    ("load_map.max_cells.zero", lambda: W.load_map("missing.json", max_cells=0), "max_cells"),
    ("load_tiled.max_cells.neg", lambda: W.load_tiled("missing.tmx", max_cells=-5), "max_cells"),
    ("load_openra.max_cells.neg", lambda: W.load_openra("missing.oramap", max_cells=-5), "max_cells"),
    ("rts.leptons.zero", lambda: rts.cell_to_lepton((1, 0), leptons=0), "leptons"),
    ("rts.leptons.odd", lambda: rts.cell_to_lepton((1, 0), leptons=BIG), "leptons"),
    ("rts.pack_cell.off", lambda: rts.pack_cell((-1, 0), 8), "cell"),
    ("rts.pack_cell.huge", lambda: rts.pack_cell((BIG, 0), 8), "cell"),
    ("rts.unpack_cell.neg", lambda: rts.unpack_cell(-1, 8), "number"),
    ("rts.check_entry.neg", lambda: rts.check_entry(-1), "category"),
    ("rts.check_entry.huge", lambda: rts.check_entry(BIG), "category"),
    ("rts.Simulation.piece.zero", lambda: rts.Simulation(SQ, piece=0), "piece"),
    ("rts.Simulation.patience.neg", lambda: rts.Simulation(SQ, patience=-1), "patience"),
], ids=lambda v: v if isinstance(v, str) and "." in v else "")
def test_out_of_range_values(name, call, arg):
    with pytest.raises((ValueError, IndexError), match=arg):
        call()


# -- cells ---------------------------------------------------------------------------------
BAD_CELLS = [
    pytest.param((8, 0), IndexError, id="off-x"),
    pytest.param((0, 6), IndexError, id="off-y"),
    pytest.param((-1, 0), IndexError, id="negative"),
    pytest.param((BIG, BIG), IndexError, id="int64-max"),
    pytest.param((SMALL, 0), IndexError, id="int64-min"),
    pytest.param((2**70, 0), IndexError, id="past-int64"),
    pytest.param("ab", TypeError, id="str"),
    pytest.param((1, 2, 3), TypeError, id="triple"),
    pytest.param(None, TypeError, id="None"),
    pytest.param((1.0, 2.0), TypeError, id="floats"),
    pytest.param((True, 1), TypeError, id="bool"),
]

# (id, call taking the cell, the name the message must carry); run on SQ and on the masked SHAPED board
CELL_ARGS = [
    ("path.start", lambda m, c: m.path(c, (1, 1)), "start"),
    ("path.goal", lambda m, c: m.path((1, 1), c), "goal"),
    ("paths", lambda m, c: m.paths([((1, 1), c)]), r"pairs\[0\]"),
    ("route", lambda m, c: m.route(c, (1, 1), points_per_turn=3), "start"),
    ("movement_range", lambda m, c: m.movement_range(c, 3), "start"),
    ("movement_range.enemies", lambda m, c: m.movement_range((1, 1), 3, enemies=[c]), r"enemies\[0\]"),
    ("distance_field", lambda m, c: m.distance_field([c]), r"sources\[0\]"),
    ("flow_field", lambda m, c: m.flow_field([c]), "goal"),
    ("connected", lambda m, c: m.connected(c, (1, 1)), r"\ba\b"),
    ("fov", lambda m, c: m.fov(c, radius=3), "origin"),
    ("line_of_sight", lambda m, c: m.line_of_sight((1, 1), c), r"\bb\b"),
    ("terrain_name", lambda m, c: m.terrain_name(c), "cell"),
    ("overlay_name", lambda m, c: m.overlay_name(c), "cell"),
    ("set_terrain", lambda m, c: m.copy().set_terrain([(1, 1), c], "forest"), r"cells\[1\]"),
    ("set_overlay", lambda m, c: m.copy().set_overlay([c], "road"), r"cells\[0\]"),
    ("set_edge", lambda m, c: m.copy().set_edge(c, (1, 1), 2.0), r"\ba\b"),
    ("emit", lambda m, c: m.copy()._emit("terrain_changed", [c]), r"cells\[0\]"),
    ("area", lambda m, c: m.area("circle", c, radius=2), "origin"),
    ("classic_path", lambda m, c: m.classic_path(c, (1, 1)), "start"),
    ("ladder_path", lambda m, c: m.ladder_path((1, 1), c, np.zeros(m.shape, np.int8)), "goal"),
    ("turning_path", lambda m, c: m.turning_path(c, (1, 1), facing=0, turn_rate=1.0), "start"),
    ("group_move", lambda m, c: m.group_move([c], (1, 1)), r"cells\[0\]"),
    ("partition.starts", lambda m, c: m.partition(2, starts=[c, (1, 1)]), r"starts\[0\]"),
    ("field_of_view", lambda m, c: W.field_of_view(m.grid, m.blocks_sight(), c, radius=3), "origin"),
    ("fn.line_of_sight", lambda m, c: W.line_of_sight(m.grid, m.blocks_sight(), c, (1, 1)), r"\ba\b"),
    ("rts.classic_path", lambda m, c: rts.classic_path(m.grid, np.ones(m.shape), (1, 1), c), "goal"),
    ("rts.Simulation.add_unit", lambda m, c: rts.Simulation(m).add_unit(c), "cell"),
    ("rts.Simulation.add_unit.goal", lambda m, c: rts.Simulation(m).add_unit((1, 1), goal=c or "ab"), "goal"),
    ("rts.Occupancy.place", lambda m, c: rts.Occupancy(m.grid).place(1, c), "cell"),
    ("Grid.neighbors", lambda m, c: m.grid.neighbors(c), "cell"),
    ("Grid.id", lambda m, c: m.grid.id(c), "cell"),
    ("MovementRange.path_to", lambda m, c: m.movement_range((1, 1), 3).path_to(c), "cell"),
]


@pytest.mark.parametrize("cell,exc", BAD_CELLS)
@pytest.mark.parametrize("name,call,arg", CELL_ARGS, ids=[c[0] for c in CELL_ARGS])
def test_cells_off_the_board_or_malformed(name, call, arg, cell, exc):
    with pytest.raises(exc, match=arg):
        call(SQ, cell)


@pytest.mark.parametrize("name,call,arg", CELL_ARGS, ids=[c[0] for c in CELL_ARGS])
def test_masked_cells(name, call, arg):
    with pytest.raises(IndexError, match=arg + ".*masked"):
        call(SHAPED, (0, 0))


# -- names ---------------------------------------------------------------------------------
NAME_ARGS = [
    ("set_terrain", lambda v: SQ.copy().set_terrain([(1, 1)], v), "terrain"),
    ("set_overlay", lambda v: SQ.copy().set_overlay([(1, 1)], v), "terrain"),
    ("count", lambda v: SQ.count(v), "terrain"),
    ("costs", lambda v: SQ.costs(unit=v), "unit class"),
    ("cost_field", lambda v: SQ.cost_field(unit=v), "unit class"),
    ("passable", lambda v: SQ.passable(unit=v), "unit class"),
    ("zones", lambda v: SQ.zones(unit=v), "unit class"),
    ("path.unit", lambda v: SQ.path((1, 1), (2, 2), unit=v), "unit class"),
    ("on", lambda v: SQ.copy().on(v, print), "event"),
    ("off", lambda v: SQ.copy().off(v, print), "event"),
    ("emit", lambda v: SQ.copy()._emit(v), "event"),
    ("area.shape", lambda v: SQ.area(v, (1, 1), radius=2), "shape"),
    ("area.mask", lambda v: SQ.area("circle", (1, 1), radius=2, mask=v), "mask"),
    ("partition.mode", lambda v: SQ.partition(2, mode=v), "mode"),
    ("fov.metric", lambda v: SQ.fov((1, 1), radius=2, metric=v), "metric"),
    ("fog.metric", lambda v: SQ.fog(["a"], metric=v), "metric"),
    ("Fog.view", lambda v: SQ.fog(["a"]).view(team=v), "team"),
    ("HexGrid.orientation", lambda v: W.HexGrid(3, 3, orientation=v), "orientation"),
    ("HexGrid.offset", lambda v: W.HexGrid(3, 3, offset=v), "offset"),
    ("SquareGrid.corner_rule", lambda v: W.SquareGrid(3, 3, corner_rule=v), "corner_rule"),
    ("StaggeredGrid.stagger", lambda v: W.StaggeredGrid(3, 3, stagger=v), "stagger"),
    ("generate.kind", lambda v: W.generate(4, 4, kind=v), "kind"),
    ("hex_to_offset.offset", lambda v: W.hex_to_offset(W.Hex(0, 0), v), "offset"),
    ("offset_to_axial_array.offset", lambda v: W.offset_to_axial_array([0], [0], v), "offset"),
    ("Layout.orientation", lambda v: W.Layout(v, (1, 1)), "orientation"),
    ("Hex.reflect", lambda v: W.Hex(0, 0).reflect(v), "axis"),
    ("save_tiled.encoding", lambda v: W.save_tiled(SQ, "never.tmx", encoding=v), "encoding"),
    ("save_map.encoding", lambda v: W.save_map(SQ, "never.json", encoding=v), "encoding"),
    ("save_movingai.unit", lambda v: W.save_movingai(SQ, "never.map", unit=v), "unit class"),
    ("rts.Simulation.pathfinder", lambda v: rts.Simulation(SQ, pathfinder=v), "pathfinder"),
    ("rts.Simulation.add_unit.kind", lambda v: rts.Simulation(SQ).add_unit((1, 1), kind=v), "kind"),
    ("rts.Simulation.add_unit.unit", lambda v: rts.Simulation(SQ).add_unit((1, 1), unit=v), "unit class"),
    ("rts.check_entry", lambda v: rts.check_entry(v if v != 3 else 2.0), "category"),  # 3 is a valid Entry
]


@pytest.mark.parametrize("value", [pytest.param("nope", id="unknown"), pytest.param("", id="empty"),
                                   pytest.param("FOREST", id="upper"), pytest.param(3, id="int")])
@pytest.mark.parametrize("name,call,arg", NAME_ARGS, ids=[c[0] for c in NAME_ARGS])
def test_unknown_names(name, call, arg, value, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the writers' cases would write here if they wrongly succeeded
    with pytest.raises((ValueError, TypeError), match=arg):
        call(value)
    assert list(tmp_path.iterdir()) == []


# -- objects, sequences and arrays --------------------------------------------------------------
@pytest.mark.parametrize("name,call,exc,arg", [
    ("Map.grid", lambda: W.Map("board"), TypeError, "grid"),
    ("Map.terrain.shape", lambda: W.Map(SQ.grid, terrain=np.zeros((8, 6), np.int64)), ValueError, "terrain"),
    ("Map.terrain.ids", lambda: W.Map(SQ.grid, terrain=np.full((6, 8), 99)), ValueError, "terrain"),
    ("Map.terrain.dtype", lambda: W.Map(SQ.grid, terrain=np.full((6, 8), "a")), (TypeError, ValueError), "terrain"),
    ("Map.overlay.shape", lambda: W.Map(SQ.grid, overlay=np.zeros(48, np.int64)), ValueError, "overlay"),
    ("Map.elevation.nan", lambda: W.Map(SQ.grid, elevation=np.full((6, 8), np.nan)), ValueError, "elevation"),
    ("Map.elevation.shape", lambda: W.Map(SQ.grid, elevation=np.zeros((0, 0))), ValueError, "elevation"),
    ("set_elevation.inf", lambda: SQ.copy().set_elevation(np.full((6, 8), np.inf)), ValueError, "elevation"),
    ("Grid.mask.shape", lambda: W.SquareGrid(8, 6, mask=np.ones((6, 7), bool)), ValueError, "mask"),
    ("Grid.mask.empty", lambda: W.SquareGrid(8, 6, mask=np.zeros((6, 8), bool)), ValueError, "mask"),
    ("set_terrain.not-a-list", lambda: SQ.copy().set_terrain(3, "forest"), TypeError, "cells"),
    ("set_terrain.one-cell", lambda: SQ.copy().set_terrain((1, 1), "forest"), TypeError, "cells"),
    ("emit.not-a-list", lambda: SQ.copy()._emit("terrain_changed", 5), TypeError, "cells"),
    ("on.callback", lambda: SQ.copy().on("terrain_changed", 3), TypeError, "callback"),
    ("distance_field.int", lambda: SQ.distance_field(3), TypeError, "sources"),
    ("flow_field.None", lambda: SQ.flow_field(None), TypeError, "goal"),
    ("group_move.int", lambda: SQ.group_move(3, (1, 1)), TypeError, "cells"),
    ("smooth_path.int", lambda: SQ.smooth_path(3), TypeError, "path"),
    ("fog.teams", lambda: SQ.fog(3), TypeError, "teams"),
    ("field_of_view.blocks.shape", lambda: W.field_of_view(SQ.grid, np.zeros((8, 6), bool), (1, 1), radius=2),
     ValueError, "blocks"),
    ("line_of_sight.blocks.1d", lambda: W.line_of_sight(SQ.grid, np.zeros(48, bool), (1, 1), (2, 2)),
     ValueError, "blocks"),
    ("visibility_polygon.staggered", lambda: W.visibility_polygon(W.StaggeredGrid(8, 6), np.zeros((6, 8), bool), (1.5, 1.5)),
     TypeError, "grid"),
    ("visibility_polygon.light.off", lambda: SQ.visibility_polygon((BIG, BIG)), ValueError, "light"),
    ("rts.classic_path.costs.shape", lambda: rts.classic_path(SQ.grid, np.ones((8, 6)), (1, 1), (2, 2)),
     ValueError, "cell_costs"),
    ("rts.classic_path.costs.nan", lambda: rts.classic_path(SQ.grid, np.full((6, 8), np.nan), (1, 1), (2, 2)),
     ValueError, "cell_costs"),
    ("ladder_path.categories.shape", lambda: SQ.ladder_path((1, 1), (2, 2), np.zeros((8, 6), np.int8)),
     ValueError, "categories"),
    ("ladder_path.categories.range", lambda: SQ.ladder_path((1, 1), (2, 2), np.full((6, 8), 9)),
     ValueError, "categories"),
    ("rts.entry_costs.categories.shape", lambda: rts.entry_costs(np.ones((6, 8)), np.zeros((8, 6), np.int8)),
     ValueError, "categories"),
    ("rts.entry_costs.cell_costs.nan", lambda: rts.entry_costs(np.full((6, 8), np.nan), np.zeros((6, 8), np.int8)),
     ValueError, "cell_costs"),
    ("rts.entry_costs.cell_costs.neg", lambda: rts.entry_costs(np.full((6, 8), -1.0), np.zeros((6, 8), np.int8)),
     ValueError, "cell_costs"),
    ("rts.entry_costs.cell_costs.str", lambda: rts.entry_costs(np.full((6, 8), "x"), np.zeros((6, 8), np.int8)),
     TypeError, "cell_costs"),
    ("rts.entry_costs.categories.float", lambda: rts.entry_costs(np.ones((6, 8)), np.full((6, 8), 2.7)),
     TypeError, "categories"),
    ("rts.entry_costs.categories.object", lambda: rts.entry_costs(np.ones((1, 3)), np.array([[10**20, 2, None]])),
     TypeError, "categories"),
    ("rts.entry_costs.categories.huge", lambda: rts.entry_costs(np.ones((1, 3)), np.array([[2**64 - 1, 2, 3]], np.uint64)),
     ValueError, "categories"),
    ("partition.weights.shape", lambda: SQ.partition(2, weights=np.ones((8, 6))), ValueError, "weights"),
    ("partition.weights.nan", lambda: SQ.partition(2, weights=np.full((6, 8), np.nan)), ValueError, "weights"),
    ("start_positions.value.shape", lambda: SQ.start_positions(2, value=np.ones(48)), ValueError, "value"),
    ("rts.cells_to_leptons.float", lambda: rts.cells_to_leptons(np.zeros((3, 2))), TypeError, "cells"),
    ("rts.cells_to_leptons.shape", lambda: rts.cells_to_leptons(np.zeros(48, np.int64)), ValueError, "cells"),
    ("rts.octagonal_distances.float", lambda: rts.octagonal_distances(np.zeros((3, 2)), np.zeros((3, 2))),
     TypeError, r"\ba\b"),
    ("rts.octagonal_distances.shape",
     lambda: rts.octagonal_distances(np.zeros((3, 2), np.int64), np.zeros((4, 2), np.int64)), ValueError,
     r"\ba\b|\bb\b"),
    ("rts.Occupancy.grid", lambda: rts.Occupancy("grid"), TypeError, "grid"),
    ("rts.spot_offsets.grid", lambda: rts.spot_offsets(3), TypeError, "grid"),
    ("rts.Simulation.map", lambda: rts.Simulation(None), TypeError, "map"),
    ("save_map.m", lambda: W.save_map("map", "never.json"), TypeError, r"\bm\b"),
    ("save_tiled.m", lambda: W.save_tiled(None, "never.tmx"), TypeError, r"\bm\b"),
    ("save_movingai.map", lambda: W.save_movingai(3, "never.map"), TypeError, "map"),
    ("save_movingai.hex", lambda: W.save_movingai(HEX, "never.map"), TypeError, "SquareGrid"),
    ("save_movingai_scenarios.items", lambda: W.save_movingai_scenarios(["x"], "never.scen"), TypeError,
     r"scenarios\[0\]"),
    ("TerrainTable.items", lambda: W.TerrainTable(["plains"]), TypeError, "terrains"),
    ("Hex.distance", lambda: W.Hex(0, 0).distance((1, 1)), TypeError, "other"),
    ("hex_to_offset.hex", lambda: W.hex_to_offset((1, 1), "odd-q"), TypeError, "hex"),
], ids=lambda v: v if isinstance(v, str) and "." in v else "")
def test_bad_objects_and_arrays(name, call, exc, arg, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a call that wrongly succeeded would write here, not in the repo
    with pytest.raises(exc, match=arg):
        call()
    assert list(tmp_path.iterdir()) == []


def test_valid_neighbours_of_the_bad_values_still_work():
    """The checks are not too strict: the edge of every range is accepted."""
    assert W.hexagon_board(0).shape == (1, 1)
    assert SQ.grid.cell_at(8.5, 0.0) is None and SQ.grid.cell_at(-0.5, 0.0) is None
    assert SQ.distance_field([(1, 1)], max_cost=float("inf")).shape == SQ.shape
    m = SQ.copy()
    seen = []
    m.on("terrain_changed", seen.append)
    m._emit("terrain_changed", [(1, 1), np.array([2, 2])])
    m._emit("terrain_changed")
    assert [e.cells for e in seen] == [((1, 1), (2, 2)), ()]


# -- pictures ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name,call,exc,arg", [
    ("render_svg.board", lambda R: R.render_svg("x"), TypeError, "board"),
    ("render_svg.overlays", lambda R: R.render_svg(SQ, overlays=[3]), TypeError, r"overlays\[0\]"),
    ("render_svg.cell_size", lambda R: R.render_svg(SQ, cell_size=float("nan")), ValueError, "cell_size"),
    ("CellMask.shape", lambda R: R.render_svg(SQ, overlays=[R.CellMask(np.zeros((8, 6), bool))]), ValueError, "mask"),
    ("CellMask.color", lambda R: R.render_svg(SQ, overlays=[R.CellMask(np.zeros((6, 8), bool), color='#fff"/>')]),
     ValueError, "color"),
    ("CellMask.alpha", lambda R: R.render_svg(SQ, overlays=[R.CellMask(np.zeros((6, 8), bool), alpha=-1.0)]),
     ValueError, "alpha"),
    ("Polyline.cells", lambda R: R.render_svg(SQ, overlays=[R.Polyline([(BIG, 0)])]), IndexError, r"cells\[0\]"),
    ("Markers.cells", lambda R: R.render_svg(SQ, overlays=[R.Markers([(-1, 0)])]), IndexError, r"cells\[0\]"),
    ("Regions.dtype", lambda R: R.render_svg(SQ, overlays=[R.Regions(np.full((6, 8), 0.5))]), TypeError, "labels"),
    ("Regions.huge-label", lambda R: R.render_svg(SQ, overlays=[R.Regions(np.full((6, 8), BIG))]), ValueError,
     "labels"),
    ("palette.str", lambda R: R.palette("a"), TypeError, r"\bn\b"),
    ("palette.huge", lambda R: R.palette(10**12), ValueError, r"\bn\b"),
], ids=lambda v: v if isinstance(v, str) and "." in v else "")
def test_render_bad_input(name, call, exc, arg):
    from wargrid import render

    with pytest.raises(exc, match=arg):
        call(render)


def test_render_escapes_text():
    from wargrid import render

    svg = render.render_svg(SQ, title="<script>", overlays=[render.Markers([(0, 0)], labels=['"/><script>'])])
    assert "<script>" not in svg


@pytest.mark.parametrize("name,call,arg", [
    ("Hex.ring", lambda: W.Hex(0, 0).ring(BIG), "radius"),
    ("Hex.range", lambda: W.Hex(0, 0).range(10**6), "radius"),
    ("Hex.spiral", lambda: W.Hex(0, 0).spiral(10**6), "radius"),
    ("Hex.line_to", lambda: W.Hex(0, 0).line_to(W.Hex(BIG, 0)), "other"),
], ids=lambda v: v if isinstance(v, str) and "." in v else "")
def test_hex_lists_past_any_board_are_refused_not_built(name, call, arg):
    with pytest.raises(ValueError, match=arg):
        call()


@pytest.mark.parametrize("name,call,arg", [
    ("partition.starts", lambda v: SQ.partition(2, starts="ab" if v is None else v), "starts"),  # None: default
    ("Simulation.add_obstacle", lambda v: rts.Simulation(SQ).add_obstacle(v), "cells"),
    ("TerrainTable", lambda v: W.TerrainTable(v), "terrains"),
    ("save_movingai_scenarios", lambda v: W.save_movingai_scenarios(v, "never.scen"), "scenarios"),
    ("Map.set_overlay", lambda v: SQ.copy().set_overlay(v, "road"), "cells"),
], ids=lambda v: v if isinstance(v, str) and "." in v or v in ("TerrainTable", "save_movingai_scenarios") else "")
@pytest.mark.parametrize("value", [pytest.param(3, id="int"), pytest.param(None, id="None"),
                                   pytest.param(2.5, id="float")])
def test_lists_given_a_scalar(name, call, arg, value, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(TypeError, match=arg):
        call(value)
    assert list(tmp_path.iterdir()) == []


from wargrid.movement.trace import trace_search  # noqa: E402 - beside the cases that use it

# an array where a name belongs: `name in CHOICES` asked numpy for an array's truth value (ValueError: ambiguous)
ARRAY_FOR_A_NAME = [
    ("Map.on.event", lambda a: SQ.on(a, print), ValueError, "event"),
    ("Map.fov.metric.square", lambda a: SQ.fov((1, 1), radius=2, metric=a), TypeError, "metric"),
    ("Map.fov.metric.hex", lambda a: HEX.fov((1, 1), radius=2, metric=a), TypeError, "metric"),
    ("Fog.place.team", lambda a: SQ.fog(["red", "blue"]).place("scout", a, (1, 1)), ValueError, "team"),
    ("Fog.place.unit", lambda a: SQ.fog(["red", "blue"]).place([], "red", (1, 1)), TypeError, "unit"),
    ("Terrain.wall", lambda a: W.Terrain("sandbags", "S", "#c2b280", wall=a), ValueError, "wall"),
    ("metric_array.name", lambda a: W.grids.square.metric_array(a, [1], [2]), ValueError, "name"),
    ("VisibilityPolygon.contains.x", lambda a: SQ.visibility_polygon((0.5, 0.5)).contains("x", 2.5), TypeError, r"\bx\b"),
    ("save_tiled.encoding", lambda a: W.save_tiled(SQ, "never.tmj", encoding=a), ValueError, "encoding"),
    ("save_tiled.compression", lambda a: W.save_tiled(SQ, "never.tmj", encoding="base64", compression=a), ValueError,
     "compression"),
    ("wesnoth_cost.movetype", lambda a: W.wesnoth_cost("Gg", a), ValueError, "movetype"),
    ("openra_locomotors.mod", lambda a: W.io.openra_locomotors(list(a)), ValueError, "mod"),
    ("grid_from_description.kind", lambda a: W.io.native.grid_from_description({"kind": a, "width": 4, "height": 3}),
     ValueError, "kind"),
    ("shortest_path.search", lambda a: W.movement.shortest_path(SQ.grid, SQ.cost_field(), (1, 1), (2, 2), search=a),
     ValueError, "search"),
    ("save_map.encoding", lambda a: W.save_map(SQ, "never.json", encoding=a), ValueError, "encoding"),
    ("warm_up.capabilities", lambda a: W.warm_up(a), ValueError, "capability"),
    ("warm_up.list", lambda a: W.warm_up([]), ValueError, "capability"),
    ("trace_search.algorithm", lambda a: trace_search(SQ.cost_field(), (0, 0), (2, 0), algorithm=a),
     ValueError, "algorithm"),
]


@pytest.mark.parametrize("name, call, exc, arg", ARRAY_FOR_A_NAME, ids=[c[0] for c in ARRAY_FOR_A_NAME])
def test_an_array_where_a_name_belongs(name, call, exc, arg):
    for a in (np.array([]), np.array(["red", "blue"])):
        with pytest.raises(exc, match=arg):
            call(a)


@pytest.mark.parametrize("corner, exc", [(float("inf"), TypeError), ("x", TypeError), (6, ValueError), (-1, ValueError)])
def test_hex_layout_corner_is_0_to_5(corner, exc):
    # inf raised 'math domain error', 'x' a TypeError from float + str, 6 or -1 gave another corner's offset
    with pytest.raises(exc, match="corner"):
        W.Layout("flat", (1, 1)).corner_offset(corner)


def test_terrain_costs_name_a_list_given_for_a_name():
    # 'unhashable type: list' from a dict look-up before
    with pytest.raises(TypeError, match="unit must be a movement class name"):
        W.Terrain("marsh", "m", "#557755", costs={"foot": 3}).cost([])
    with pytest.raises(ValueError, match="walls must be one of"):
        W.TerrainTable.default().cost_matrix(walls=[])


def test_lattice_offsets_and_ground_heights_check_their_numbers():
    from wargrid.sight.board import prepare
    from wargrid.sight.heights import ground_heights
    from wargrid.tactics.areas import lattice_offsets

    with pytest.raises(TypeError, match="reach"):
        lattice_offsets(W.HexGrid(3, 3), "x")  # bad operand type for unary -
    with pytest.raises(ValueError, match="reach must be >= 0"):
        lattice_offsets(W.HexGrid(3, 3), -1)
    with pytest.raises(MemoryError, match="reach=100000000000000000000"):
        lattice_offsets(W.HexGrid(3, 3), 10**20)  # numpy's 'Maximum allowed size exceeded'
    b = prepare(W.SquareGrid(3, 1), np.array([[False, True, False]]), np.array([[1.0, 1.0, 2.0]]))
    with pytest.raises(TypeError, match="cover_height"):
        ground_heights(b, cover_height="x")


@pytest.mark.parametrize("call", [
    lambda p: W.load_map(p), lambda p: W.save_map(SQ, p), lambda p: W.load_tiled(p), lambda p: W.save_tiled(SQ, p),
    lambda p: W.load_movingai(p), lambda p: W.save_movingai(SQ, p), lambda p: W.load_movingai_scenarios(p),
    lambda p: W.save_movingai_scenarios([], p), lambda p: W.io.load_movingai_agents(p, agents=1),
    lambda p: W.load_wesnoth(p), lambda p: W.save_wesnoth(HEX, p), lambda p: W.load_openra(p),
], ids=["load_map", "save_map", "load_tiled", "save_tiled", "load_movingai", "save_movingai", "load_scenarios",
        "save_scenarios", "load_agents", "load_wesnoth", "save_wesnoth", "load_openra"])
@pytest.mark.parametrize("path", [None, 3, ["a.json"]], ids=["None", "int", "list"])
def test_readers_and_writers_name_a_path_that_is_no_file_name(call, path):
    # os.fspath's 'expected str, bytes or os.PathLike object, not NoneType' named no argument
    with pytest.raises(W.ArgumentTypeError, match="path must be a file name"):
        call(path)


def test_readers_and_writers_take_bytes_paths(tmp_path):
    # os.fspath takes bytes, and load_movingai(b"...") read a map before the path check refused them
    b = bytes(tmp_path)
    W.save_map(SQ, b + b"/a.json")
    assert W.load_map(b + b"/a.json").shape == SQ.shape
    W.save_movingai(SQ, b + b"/a.map")
    assert W.load_movingai(b + b"/a.map").shape == SQ.shape
    W.save_tiled(SQ, b + b"/a.tmx")
    assert W.load_tiled(b + b"/a.tmx").shape == SQ.shape
    m = W.load_wesnoth(os.fsencode(Path(__file__).parent / "data" / "wesnoth" / "two_rivers.map"))
    W.save_wesnoth(m, b + b"/a.map")
    assert W.load_wesnoth(b + b"/a.map").shape == m.shape
    W.save_movingai_scenarios([], b + b"/a.scen")
    assert W.load_movingai_scenarios(b + b"/a.scen") == []
