"""OpenRA maps: map.bin versions, archives and folders, tilesets and where they are found, the RA
locomotor table, Bounds as the playable area, actors; terrain types equal an independent reader's."""

from __future__ import annotations

import math
import os
import stat
import struct
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import wargrid
from wargrid import MapFileError, load_openra
from wargrid.io import openra_locomotors
from wargrid.io.openra import is_openra_map

from openra_maps import (
    RA_TYPES,
    Template,
    Tileset,
    map_bin,
    map_yaml,
    ra_like_tileset,
    slow_terrain,
    type_tile,
    write_folder,
    write_oramap,
)

INF = math.inf


@pytest.fixture(autouse=True)
def _no_installation(monkeypatch):
    """No test sees a real OpenRA installation (or the user's OPENRA_DIR)."""
    monkeypatch.delenv("OPENRA_DIR", raising=False)
    monkeypatch.setattr("wargrid.io.openra.OPENRA_INSTALL_DIRS", {"linux": (), "win32": (), "darwin": ()})


def _tilesets(tmp: Path, ts: Tileset | None = None, name: str = "madeup.yaml") -> Path:
    d = tmp / "tilesets"
    d.mkdir(exist_ok=True)
    (d / name).write_text((ts or ra_like_tileset()).yaml())
    return d


def _row_map(names: list[str]) -> list[list[tuple[int, int]]]:
    return [[type_tile(n) for n in names]]


# -- containers and map.bin versions ------------------------------------------------------------------


@pytest.mark.parametrize("version,gap", [(1, 0), (2, 0), (2, 9)])
@pytest.mark.parametrize("container", ["zip", "folder"])
def test_versions_and_containers(tmp_path, version, gap, container):
    tiles = [[type_tile("Water"), type_tile("Road"), (255, 3)],
             [type_tile("Rough"), (40, 1), (65535, 255)]]
    binary = map_bin(tiles, version=version, gap=gap)
    yaml = map_yaml(3, 2)
    _tilesets(tmp_path)
    p = (write_oramap(tmp_path / "m.oramap", yaml, binary) if container == "zip"
         else write_folder(tmp_path / "m", yaml, binary))
    m = load_openra(p)
    assert [[m.terrain_name((x, y)) for x in range(3)] for y in range(2)] == [
        ["Water", "Road", "Clear"], ["Rough", "Beach", "Clear"]]
    assert m.grid == wargrid.SquareGrid(3, 2, diagonal=True, corner_rule="always")
    assert m.properties["mod"] == "ra" and m.properties["title"] == "Test map"


def test_version_1_has_no_offsets_and_columns_come_first(tmp_path):
    # one byte per field laid out by hand: a 1 x 2 map, cell (0, 0) then (0, 1)
    binary = bytes([1, 1, 0, 2, 0]) + struct.pack("<HBHB", 12, 0, 7, 0) + bytes(4)
    _tilesets(tmp_path)
    m = load_openra(write_folder(tmp_path / "m", map_yaml(1, 2), binary))
    assert (m.terrain_name((0, 0)), m.terrain_name((0, 1))) == ("Water", "Road")


def test_offsets_are_followed_height_layer_and_absent_tiles(tmp_path):
    _tilesets(tmp_path)
    w, h = 2, 1
    tiles = struct.pack("<HBHB", *type_tile("Road"), *type_tile("Water"))
    # a height layer between tiles and resources (as Tiberian Sun's editor writes), resources last
    binary = struct.pack("<BHHIII", 2, w, h, 17, 23, 25) + tiles + bytes([3, 4]) + bytes([1, 5, 0, 0])
    m = load_openra(write_folder(tmp_path / "a", map_yaml(w, h), binary))
    assert (m.terrain_name((0, 0)), m.terrain_name((1, 0))) == ("Ore", "Water")  # ore on the road
    # no tile layer: every cell holds template 0, index 0 (here unknown, so the default tile)
    binary = struct.pack("<BHHIII", 2, w, h, 0, 0, 17) + bytes(4)
    m = load_openra(write_folder(tmp_path / "b", map_yaml(w, h), binary))
    assert (m.terrain_name((0, 0)), m.terrain_name((1, 0))) == ("Clear", "Clear")


def test_map_yaml_path_and_any_file_name(tmp_path):
    _tilesets(tmp_path)
    binary = map_bin(_row_map(["Road", "Water"]))
    folder = write_folder(tmp_path / "m", map_yaml(2, 1), binary)
    assert load_openra(folder / "map.yaml") == load_openra(folder)
    p = write_oramap(tmp_path / "no_extension", map_yaml(2, 1), binary)
    assert load_openra(p).terrain_name((1, 0)) == "Water"
    assert is_openra_map(p) and is_openra_map(folder) and not is_openra_map(tmp_path / "tilesets" / "madeup.yaml")


def test_short_runs_of_spaces_count_for_nothing(tmp_path):
    _tilesets(tmp_path)
    yaml = map_yaml(1, 1).replace("Tileset: MADEUP", "  Tileset: MADEUP").replace("\t\tName: Neutral", "\t  \tName: N")
    m = load_openra(write_folder(tmp_path / "m", yaml, map_bin([[type_tile("Road")]])))
    assert m.terrain_name((0, 0)) == "Road"


def test_four_space_indentation_and_comments(tmp_path):
    d = tmp_path / "tilesets"
    d.mkdir()
    (d / "x.yaml").write_text(ra_like_tileset().yaml(indent="    "))
    yaml = map_yaml(2, 1).replace("Title: Test map", "Title: A \\# B  # the title")
    m = load_openra(write_folder(tmp_path / "m", yaml, map_bin(_row_map(["Tree", "Wall"]))))
    assert m.properties["title"] == "A # B"
    assert (m.terrain_name((0, 0)), m.terrain_name((1, 0))) == ("Tree", "Wall")


# -- tiles: default tile, index 255, resources ---------------------------------------------------------


def test_default_tile_for_unknown_templates_indices_and_empty_slots(tmp_path):
    ts = ra_like_tileset()
    ts.templates.insert(0, Template(0, 1, 1, {0: "Rough"}))  # the first template listed is the default
    _tilesets(tmp_path, ts)
    tiles = [[(999, 0), (40, 2), (3, 5), (40, 3)]]  # unknown id; empty slot; index past 1x1; a listed slot
    m = load_openra(write_folder(tmp_path / "m", map_yaml(4, 1), map_bin(tiles)))
    assert [m.terrain_name((x, 0)) for x in range(4)] == ["Rough", "Rough", "Rough", "Rock"]


def test_index_255_picks_the_variant_of_the_cell(tmp_path):
    variants = {k: ("Clear" if k != 6 else "Rough") for k in range(16)}
    ts = Tileset("MADEUP", [Template(255, 1, 1, variants, pick_any=True)], ["Clear", "Rough"])
    _tilesets(tmp_path, ts)
    tiles = [[(255, 255)] * 5 for _ in range(5)]
    m = load_openra(write_folder(tmp_path / "m", map_yaml(5, 5), map_bin(tiles)))
    rough = {(x, y) for y in range(5) for x in range(5) if m.terrain_name((x, y)) == "Rough"}
    assert rough == {(2, 1)}  # (u % 4) + 4 * (v % 4) == 6


def test_resources_on_allowed_flat_tiles_without_buildings(tmp_path):
    ts = ra_like_tileset()
    ts.templates.append(Template(50, 1, 1, {0: "Clear"}, ramps={0: 1}))
    _tilesets(tmp_path, ts)
    tiles = [[type_tile("Clear"), type_tile("Road"), type_tile("Rough"), type_tile("Clear"), (50, 0),
              type_tile("Clear")]]
    res = [[(1, 5), (2, 1), (1, 9), (0, 0), (1, 3), (2, 2)]]
    yaml = map_yaml(6, 1, actors=[("Actor0", "brik", 5, 0)])  # a wall stands on the last cell
    m = load_openra(write_folder(tmp_path / "m", yaml, map_bin(tiles, res)))
    assert [m.terrain_name((x, 0)) for x in range(6)] == ["Ore", "Gems", "Rough", "Clear", "Clear", "Clear"]


# -- the RA locomotor table ----------------------------------------------------------------------------

RA_TABLE = {  # FORMAT's table of RA's TerrainSpeeds, as costs (10000 // percent) / 100
    "foot": {"Clear": 1.0, "Rough": 1.12, "Road": 0.9, "Bridge": 0.9, "Ore": 1.12, "Gems": 1.12, "Beach": 1.12},
    "wheeled": {"Clear": 1.0, "Rough": 2.0, "Road": 0.8, "Bridge": 0.8, "Ore": 1.13, "Gems": 1.13, "Beach": 2.0},
    "heavywheeled": {"Clear": 1.0, "Rough": 2.0, "Road": 0.8, "Bridge": 0.8, "Ore": 1.13, "Gems": 1.13, "Beach": 2.0},
    "lighttracked": {"Clear": 1.0, "Rough": 1.13, "Road": 0.8, "Bridge": 0.8, "Ore": 1.13, "Gems": 1.13, "Beach": 1.13},
    "tracked": {"Clear": 1.0, "Rough": 1.13, "Road": 0.8, "Bridge": 0.8, "Ore": 1.13, "Gems": 1.13, "Beach": 1.13},
    "heavytracked": {"Clear": 1.0, "Rough": 1.13, "Road": 0.8, "Bridge": 0.8, "Ore": 1.13, "Gems": 1.13, "Beach": 1.13},
    "naval": {"Water": 1.0},
    "lcraft": {"Water": 1.0, "Beach": 1.42},
}


def test_ra_locomotor_costs(tmp_path):
    _tilesets(tmp_path)
    m = load_openra(write_folder(tmp_path / "m", map_yaml(12, 1), map_bin(_row_map(RA_TYPES))))
    assert set(m.terrains.classes) == set(RA_TABLE)
    for loc, costs in RA_TABLE.items():
        for t in RA_TYPES:
            assert m.terrains.cost(t, loc) == costs.get(t, INF), (loc, t)
        row = m.cost_field(unit=loc).cells()[0]
        assert row.tolist() == [costs.get(t, INF) for t in RA_TYPES]
    assert openra_locomotors("ra")["lcraft"] == RA_TABLE["lcraft"]


def test_other_mods_locomotors():
    cnc = openra_locomotors("cnc")
    assert cnc["foot"]["Tiberium"] == 3.0  # a PathingCost, not 10000 // 78
    assert cnc["wheeled"]["Rough"] == 1.58 and "Water" not in cnc["tracked"]
    d2k = openra_locomotors("d2k")
    assert set(d2k) == {"foot", "vehicle", "tank", "devastator", "worm"}
    assert d2k["vehicle"]["Dune"] == 2.0 and "Rock" not in d2k["worm"] and "Cliff" not in d2k["foot"]
    with pytest.raises(ValueError, match="mod must be one of"):
        openra_locomotors("tibsun")


def test_paths_follow_the_locomotor_table(tmp_path):
    # row 1 is Rough between two Clear cells, rows 0 and 2 Clear: straight on for foot (Rough 1.12),
    # round for wheeled (Rough 2); row 0 has a Road piece foot walks onto when it saves
    w, h = 7, 3
    tiles = [[type_tile("Clear")] * w, [type_tile("Rough")] * w, [type_tile("Clear")] * w]
    tiles[1][0] = tiles[1][w - 1] = type_tile("Clear")
    _tilesets(tmp_path)
    m = load_openra(write_folder(tmp_path / "m", map_yaml(w, h), map_bin(tiles)))
    foot = m.path((0, 1), (6, 1), unit="foot")
    wheeled = m.path((0, 1), (6, 1), unit="wheeled")
    assert foot.cells == [(x, 1) for x in range(7)]
    assert foot.cost == pytest.approx(5 * 1.12 + 1.0)
    assert len(wheeled.cells) == 7 and all(y != 1 for _, y in wheeled.cells[1:-1])
    assert wheeled.cost == pytest.approx(2 * math.sqrt(2) + 4 * 1.0)
    assert m.path((0, 0), (6, 0), unit="naval") is None
    assert m.path((0, 0), (6, 0), unit="lcraft") is None


def test_diagonal_between_two_blocked_cells(tmp_path):
    tiles = [[type_tile("Clear"), type_tile("Rock")], [type_tile("Rock"), type_tile("Clear")]]
    _tilesets(tmp_path)
    m = load_openra(write_folder(tmp_path / "m", map_yaml(2, 2), map_bin(tiles)))
    p = m.path((0, 0), (1, 1), unit="foot")
    assert p is not None and p.cost == pytest.approx(math.sqrt(2))


def test_map_rules_change_terrain_speeds(tmp_path):
    _tilesets(tmp_path)
    rules = "World:\n\tLocomotor@FOOT:\n\t\tTerrainSpeeds:\n\t\t\tWater: 50\n\t\t\t-Rough:\n"
    yaml = map_yaml(3, 1, extra="Rules: extra.yaml\n\t^BaseWorld:\n\t\tLocomotor@WHEELED:\n\t\t\tTerrainSpeeds:\n"
                                 "\t\t\t\tTree: 25\n")
    p = write_oramap(tmp_path / "m.oramap", yaml, map_bin(_row_map(["Water", "Rough", "Tree"])),
                     {"extra.yaml": rules.encode()})
    m = load_openra(p)
    assert m.terrains.cost("Water", "foot") == 2.0 and m.terrains.cost("Rough", "foot") == INF
    assert m.terrains.cost("Tree", "wheeled") == 4.0 and m.terrains.cost("Tree", "foot") == INF


# -- Bounds ---------------------------------------------------------------------------------------------


def _bounded(tmp_path):
    w, h = 8, 6
    tiles = [[type_tile("Clear")] * w for _ in range(h)]
    for y in range(1, 5):
        tiles[y][3] = type_tile("Rock")  # a wall inside the bounds; the way round is outside them
    _tilesets(tmp_path)
    yaml = map_yaml(w, h, bounds=(1, 1, 6, 4))
    return load_openra(write_folder(tmp_path / "m", yaml, map_bin(tiles)))


def test_bounds_are_the_playable_rectangle(tmp_path):
    m = _bounded(tmp_path)
    want = np.zeros((6, 8), dtype=bool)
    want[1:5, 1:7] = True
    assert np.array_equal(m.grid.mask, want)
    assert m.playable == (1, 1, 6, 4) and m.container.mask.all()
    assert m.terrains.names[m.terrain[0, 0]] == "Clear"  # read, though off the playable area


def test_bounds_respected_by_paths_sight_and_partitions(tmp_path):
    m = _bounded(tmp_path)
    assert m.path((1, 1), (6, 1), unit="foot") is None  # the way round the wall would leave the bounds
    assert not m.cost_field(unit="foot").cells()[~m.grid.mask].any() or np.isinf(
        m.cost_field(unit="foot").cells()[~m.grid.mask]).all()
    seen = m.fov((1, 1), radius=None)
    assert seen[1:5, 1:3].all() and not seen[~m.grid.mask].any()
    owners = m.partition(2, unit="foot", progress=False).owners
    assert (owners[~m.grid.mask] == -1).all() and (owners[1:5, 1:3] >= 0).all()
    with pytest.raises(IndexError):
        m.path((0, 0), (1, 1), unit="foot")


def test_bad_bounds(tmp_path):
    _tilesets(tmp_path)
    yaml = map_yaml(2, 1, bounds=(1, 0, 2, 1))
    with pytest.raises(MapFileError, match=r"map\.yaml:7: Bounds 1,0,2,1"):
        load_openra(write_folder(tmp_path / "m", yaml, map_bin(_row_map(["Clear", "Clear"]))))


# -- actors ---------------------------------------------------------------------------------------------


def test_actors_markers_and_obstacles(tmp_path):
    w, h = 8, 6
    tiles = [[type_tile("Clear")] * w for _ in range(h)]
    tiles[5][7] = type_tile("Road")
    _tilesets(tmp_path)
    actors = [("mpspawn1", "mpspawn", 0, 0), ("Actor1", "t01", 1, 0), ("Actor2", "FACT", 4, 1),
              ("Actor3", "sbag", 7, 5), ("Actor4", "minv", 6, 0), ("Actor5", "e1", 2, 4),
              ("Actor6", "brik", 0, 5), ("Actor7", "t01", 7, 0)]
    m = load_openra(write_folder(tmp_path / "m", map_yaml(w, h, actors=actors), map_bin(tiles)))
    by = {mk.name: mk for mk in m.markers}
    assert by["mpspawn1"].kind == "start" and by["mpspawn1"].cells == ((0, 0),)
    assert by["Actor5"].kind == "actor" and by["Actor5"].properties["owner"] == "Neutral"
    assert by["Actor2"].kind == "building" and by["Actor2"].properties["type"] == "fact"
    # fact is 3x4 'xxX xxx XxX ===': nine blocking cells, the bottom row passable
    fact = {(4 + dx, 1 + dy) for dy in range(3) for dx in range(3)}
    assert set(by["Actor2"].cells) == fact | {(4, 4), (5, 4), (6, 4)}
    assert set(by["Actor1"].cells) == {(1, 1)}  # t01: '__ x_', the lower-left cell only
    assert "Actor7" in by and by["Actor7"].cells == ((7, 1),)  # its other column lies off the map
    foot = m.passable(unit="foot")
    for (x, y) in fact | {(1, 1), (7, 1)}:
        assert not foot[y, x] and m.overlay_name((x, y)) == "Actor"
    assert foot[4, 4] and foot[0, 0]
    # a sandbag: crushed by heavywheeled, lighttracked, tracked and heavytracked; on Road it costs the road's
    assert m.overlay_name((7, 5)) == "Actor-wall-Road"
    for loc in ("foot", "wheeled"):
        assert m.cost_field(unit=loc).cells()[5, 7] == INF
    for loc in ("heavywheeled", "lighttracked", "tracked", "heavytracked"):
        assert m.cost_field(unit=loc).cells()[5, 7] == 0.8
    # a concrete wall: only heavytracked crushes heavywall
    assert m.cost_field(unit="heavytracked").cells()[5, 0] == 1.0 and m.cost_field(unit="tracked").cells()[5, 0] == INF
    # a minefield: every ground locomotor drives on
    assert all(m.cost_field(unit=u).cells()[0, 6] == 1.0 for u in ("foot", "wheeled", "tracked"))


def test_actors_outside_the_bounds_stay_on_the_map(tmp_path):
    _tilesets(tmp_path)
    yaml = map_yaml(4, 4, bounds=(1, 1, 2, 2), actors=[("a", "mpspawn", 0, 0), ("b", "mpspawn", 2, 2),
                                                       ("c", "t08", 3, 3), ("d", "e1", 9, 9)])
    m = load_openra(write_folder(tmp_path / "m", yaml, map_bin([[type_tile("Clear")] * 4] * 4)))
    assert [(mk.name, mk.cells) for mk in m.markers] == [("a", ((0, 0),)), ("b", ((2, 2),)), ("c", ((3, 3),))]
    with pytest.raises(IndexError):
        m.overlay_name((3, 3))  # off the playable board: queries refuse the cell
    assert m.overlay[3, 3] >= 0 and not m.grid.contains((3, 3))


# -- tilesets: where they are found ---------------------------------------------------------------------


def _two_tilesets(tmp_path):
    """Two tilesets with the same Id: 'Rough' everywhere in one, 'Water' in the other."""
    def one(t):
        return Tileset("MADEUP", [Template(255, 1, 1, {0: t}, pick_any=True)], [t]).yaml()
    return one("Rough"), one("Water")


def test_tileset_lookup_order(tmp_path, monkeypatch):
    rough, water = _two_tilesets(tmp_path)
    maps = tmp_path / "maps"
    p = write_oramap(maps.mkdir() or maps / "m.oramap", map_yaml(1, 1), map_bin([[(255, 0)]]))
    install = tmp_path / "openra" / "mods" / "ra" / "tilesets"
    install.mkdir(parents=True)
    (install / "madeup.yaml").write_text(water)
    monkeypatch.setenv("OPENRA_DIR", str(tmp_path / "openra"))
    assert load_openra(p).terrain_name((0, 0)) == "Water"  # the installation
    (tmp_path / "tilesets").mkdir()
    (tmp_path / "tilesets" / "sibling.yaml").write_text(rough)
    assert load_openra(p).terrain_name((0, 0)) == "Rough"  # ../tilesets beside the maps' folder
    (maps / "tilesets").mkdir()
    (maps / "tilesets" / "mine.yaml").write_text(water)
    assert load_openra(p).terrain_name((0, 0)) == "Water"  # the map's own folder before that
    (maps / "tilesets" / "mine.yaml").write_text(rough)
    assert load_openra(p).terrain_name((0, 0)) == "Rough"  # next to the map before the installation
    (maps / "tilesets" / "ra").mkdir()
    (maps / "tilesets" / "ra" / "mine.yaml").write_text(water)
    assert load_openra(p).terrain_name((0, 0)) == "Water"  # the mod's own folder first
    given_dir = tmp_path / "given"
    given_dir.mkdir()
    (given_dir / "any_name.yaml").write_text(rough)
    assert load_openra(p, tilesets=given_dir).terrain_name((0, 0)) == "Rough"  # tilesets= first of all
    assert load_openra(p, tilesets=[install / "madeup.yaml"]).terrain_name((0, 0)) == "Water"  # a file


def test_install_dirs_by_platform(tmp_path, monkeypatch):
    _, water = _two_tilesets(tmp_path)
    root = tmp_path / "OpenRA - Red Alert.app" / "Contents" / "Resources"
    (root / "mods" / "ra" / "tilesets").mkdir(parents=True)
    (root / "mods" / "ra" / "tilesets" / "t.yaml").write_text(water)
    monkeypatch.setattr("wargrid.io.openra.OPENRA_INSTALL_DIRS",
                        {"linux": (str(tmp_path / "OpenRA - {game}.app/Contents/Resources"),)})
    monkeypatch.setattr("wargrid.io.openra.sys.platform", "linux")
    p = write_oramap(tmp_path / "m.oramap", map_yaml(1, 1), map_bin([[(255, 0)]]))
    assert load_openra(p).terrain_name((0, 0)) == "Water"


def test_tileset_not_found_names_it_and_the_places(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENRA_DIR", str(tmp_path / "nowhere"))
    p = write_oramap(tmp_path / "m.oramap", map_yaml(1, 1, tileset="SNOWY"), map_bin([[(255, 0)]]))
    with pytest.raises(MapFileError) as e:
        load_openra(p, tilesets=tmp_path / "given")
    msg = str(e.value)
    assert "m.oramap!map.yaml:5" in msg and "'SNOWY'" in msg
    for place in (tmp_path / "given", tmp_path / "tilesets" / "ra", tmp_path / "nowhere" / "mods" / "ra" / "tilesets"):
        assert str(place) in msg


def test_mods_keep_their_own_tilesets(tmp_path):
    ra = Tileset("DESERT", [Template(255, 1, 1, {0: "Clear"}, pick_any=True)], ["Clear"])
    cnc = Tileset("DESERT", [Template(255, 1, 1, {0: "Rough"}, pick_any=True)], ["Rough"])
    d = tmp_path / "tilesets"
    (d / "cnc").mkdir(parents=True)
    (d / "desert.yaml").write_text(ra.yaml())
    (d / "cnc" / "desert.yaml").write_text(cnc.yaml())
    p_ra = write_oramap(tmp_path / "a.oramap", map_yaml(1, 1, tileset="DESERT"), map_bin([[(255, 0)]]))
    p_cnc = write_oramap(tmp_path / "b.oramap", map_yaml(1, 1, tileset="DESERT", mod="cnc"), map_bin([[(255, 0)]]))
    assert load_openra(p_ra, tilesets=d).terrain_name((0, 0)) == "Clear"
    m = load_openra(p_cnc, tilesets=d)
    assert m.terrain_name((0, 0)) == "Rough" and "chem" in m.terrains.classes


def test_another_mods_tileset_of_the_same_id_is_skipped(tmp_path):
    ra = Tileset("TEMPERAT", [Template(255, 1, 1, {0: "Clear"}, pick_any=True)], ["Clear", "Ore", "Gems"])
    cnc = Tileset("TEMPERAT", [Template(255, 1, 1, {0: "Rough"}, pick_any=True)], ["Rough", "Tiberium"])
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir(), second.mkdir()
    (first / "temperat.yaml").write_text(ra.yaml())
    (second / "temperat.yaml").write_text(cnc.yaml())
    p = write_oramap(tmp_path / "td.oramap", map_yaml(1, 1, tileset="TEMPERAT", mod="cnc"), map_bin([[(255, 0)]]))
    assert load_openra(p, tilesets=[first, second]).terrain_name((0, 0)) == "Rough"
    with pytest.raises(MapFileError, match=r"skipped .*first/temperat\.yaml \(names Gems, Ore: another mod's"):
        load_openra(p, tilesets=[first])


def test_d2k_map_with_spice(tmp_path):
    ts = Tileset("ARRAKIS", [Template(0, 1, 1, {0: "SpiceSand"}), Template(1, 1, 1, {0: "Rock"}),
                             Template(2, 1, 1, {0: "Cliff"}), Template(3, 1, 1, {0: "Dune"})],
                 ["SpiceSand", "Rock", "Cliff", "Dune", "Spice"])
    (tmp_path / "d2k").mkdir()
    (tmp_path / "d2k" / "arrakis.yaml").write_text(ts.yaml())
    tiles = [[(0, 0), (1, 0), (2, 0), (3, 0), (9, 0)]]
    res = [[(1, 4), (1, 4), (0, 0), (0, 0), (0, 0)]]
    yaml = map_yaml(5, 1, tileset="ARRAKIS", mod="d2k")
    m = load_openra(write_oramap(tmp_path / "d.oramap", yaml, map_bin(tiles, res)), tilesets=tmp_path)
    assert [m.terrain_name((x, 0)) for x in range(5)] == ["Spice", "Rock", "Cliff", "Dune", "SpiceSand"]
    assert m.terrains.cost("Dune", "vehicle") == 2.0 and m.terrains.cost("Cliff", "foot") == INF
    assert m.terrains.cost("Rock", "worm") == INF and m.terrains.cost("Spice", "worm") == 1.0


# -- bad files ------------------------------------------------------------------------------------------


def _zip_with(tmp_path, members):
    p = tmp_path / "bad.oramap"
    with zipfile.ZipFile(p, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    return p


@pytest.mark.parametrize("binary,match", [
    (b"\x03\x01\x00\x01\x00", "layout version 3"),
    (b"\x02\x02\x00\x01\x00", "holds a 2 x 1 map"),
    (b"\x02\x01\x00", "too short"),
    (struct.pack("<BHHIII", 2, 1, 1, 17, 0, 900) + bytes(5), "resource layer"),
    (struct.pack("<BHHIII", 2, 1, 1, 3, 0, 0) + bytes(5), "tile layer"),
])
def test_bad_map_bin(tmp_path, binary, match):
    _tilesets(tmp_path)
    p = write_folder(tmp_path / "m", map_yaml(1, 1), binary)
    with pytest.raises(MapFileError, match=match) as e:
        load_openra(p)
    assert "map.bin" in str(e.value)


@pytest.mark.parametrize("yaml,match", [
    ("MapFormat: 12\nRequiresMod: ra\nTileset: MADEUP\nMapSize: 1,x\n", r"map\.yaml:4: MapSize must be 2 integers"),
    ("MapFormat: 12\nRequiresMod: ra\nTileset: MADEUP\n", "MapSize is missing"),
    ("MapFormat: 12\nRequiresMod: ts\nTileset: TEMPERATE\nMapSize: 1,1\n", r"map\.yaml:2: Tiberian Sun"),
    ("MapFormat: 12\nRequiresMod: zz\nTileset: X\nMapSize: 1,1\n", "'zz' is not a mod"),
    ("MapFormat: 12\n\t\tRequiresMod: ra\n", r"map\.yaml:2: indented"),
    ("Tileset: MADEUP\nMapSize: 1,1\n", "RequiresMod is missing"),
])
def test_bad_map_yaml(tmp_path, yaml, match):
    _tilesets(tmp_path)
    with pytest.raises(MapFileError, match=match):
        load_openra(write_folder(tmp_path / "m", yaml, map_bin([[(255, 0)]])))


def test_size_caps_and_regular_files(tmp_path, monkeypatch):
    _tilesets(tmp_path)
    with pytest.raises(MapFileError, match="larger than the cap of 3 cells"):
        load_openra(write_folder(tmp_path / "m", map_yaml(2, 2), map_bin([[(255, 0)] * 2] * 2)), max_cells=3)
    # a zip bomb: map.yaml unpacks past the cap
    monkeypatch.setattr("wargrid.io.openra.MAX_YAML_BYTES", 1000)
    p = write_oramap(tmp_path / "big.oramap", map_yaml(1, 1) + "#" * 5000 + "\n", map_bin([[(255, 0)]]))
    with pytest.raises(MapFileError, match=r"big\.oramap!map\.yaml: .*more than the 1000"):
        load_openra(p)
    monkeypatch.undo()
    # a member that is a symbolic link
    p = tmp_path / "link.oramap"
    with zipfile.ZipFile(p, "w") as z:
        z.writestr("map.yaml", map_yaml(1, 1))
        info = zipfile.ZipInfo("map.bin")
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        z.writestr(info, "/etc/passwd")
    with pytest.raises(MapFileError, match="'map.bin' is not a regular file"):
        load_openra(p)
    if hasattr(os, "mkfifo"):
        folder = tmp_path / "fifo"
        folder.mkdir()
        (folder / "map.yaml").write_text(map_yaml(1, 1))
        os.mkfifo(folder / "map.bin")
        with pytest.raises(MapFileError, match="not a regular file"):
            load_openra(folder)


def test_not_a_map(tmp_path):
    p = tmp_path / "x.oramap"
    p.write_text("hello")
    with pytest.raises(MapFileError, match="not an OpenRA map"):
        load_openra(p)
    with pytest.raises(MapFileError, match="no map.bin"):
        load_openra(_zip_with(tmp_path, {"map.yaml": "MapFormat: 12\n"}))
    with pytest.raises(MapFileError, match="no such file"):
        load_openra(tmp_path / "missing.oramap")
    with pytest.raises(TypeError, match="tilesets must be a path"):
        load_openra(p, tilesets=3)


def test_bad_tileset_names_its_file_and_line(tmp_path):
    d = tmp_path / "tilesets"
    d.mkdir()
    (d / "bad.yaml").write_text("General:\n\tId: MADEUP\nTemplates:\n\tTemplate@1:\n\t\tId: 1\n\t\tTiles:\n\t\t\tx: Clear\n")
    with pytest.raises(MapFileError, match=r"bad\.yaml:7: a tile index must be a number"):
        load_openra(write_folder(tmp_path / "m", map_yaml(1, 1), map_bin([[(1, 0)]])))
    # a terrain type that is no terrain name: an ArgumentError from the terrain table before
    (d / "bad.yaml").write_text("General:\n\tId: MADEUP\nTemplates:\n\tTemplate@1:\n\t\tId: 1\n\t\tTiles:\n\t\t\t0: \"\n")
    with pytest.raises(MapFileError, match=r"bad\.yaml:7: terrain type must be a word .* got '\"'"):
        load_openra(tmp_path / "m")
    (d / "bad.yaml").write_text("General:\n\tId: MADEUP\nTerrain:\n\tTerrainType@a b:\n\t\tType: a b\n")
    with pytest.raises(MapFileError, match=r"bad\.yaml:4: terrain type must be a word .* got 'a b'"):
        load_openra(tmp_path / "m")


# -- the independent reader --------------------------------------------------------------------------

_TYPES = ["Clear", "Rough", "Road", "Water", "Rock", "Beach", "Tree"]


@st.composite
def tilesets(draw):
    ids = draw(st.lists(st.sampled_from([0, 1, 2, 7, 40, 255, 300, 65535]), min_size=1, max_size=5, unique=True))
    templates = []
    for tid in ids:
        pick_any = draw(st.booleans())
        w, h = (1, 1) if pick_any else (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
        slots = draw(st.integers(1, 16)) if pick_any else w * h
        keys = draw(st.lists(st.integers(0, slots - 1), min_size=1, max_size=slots, unique=True))
        if 0 not in keys and not templates:
            keys.append(0)  # the default tile exists
        tiles = {k: draw(st.sampled_from(_TYPES)) for k in keys}
        ramps = {k: 1 for k in keys if draw(st.integers(0, 5)) == 0}
        templates.append(Template(tid, w, h, tiles, pick_any, ramps))
    return Tileset("HYPO", templates, list(_TYPES))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ts=tilesets(), data=st.data())
def test_terrain_types_equal_an_independent_reader(tmp_path_factory, ts, data):
    tmp = tmp_path_factory.mktemp("hypo")
    w, h = data.draw(st.integers(1, 9)), data.draw(st.integers(1, 9))
    ids = [t.id for t in ts.templates] + [3, 999]
    tile = st.tuples(st.sampled_from(ids), st.one_of(st.integers(0, 20), st.just(255), st.integers(0, 255)))
    tiles = [[data.draw(tile) for _ in range(w)] for _ in range(h)]
    res = [[data.draw(st.tuples(st.integers(0, 3), st.integers(0, 12))) for _ in range(w)] for _ in range(h)]
    version = data.draw(st.sampled_from([1, 2]))
    binary = map_bin(tiles, res, version=version, gap=data.draw(st.integers(0, 4)) if version == 2 else 0)
    (tmp / "hypo.yaml").write_text(ts.yaml(indent=data.draw(st.sampled_from(["\t", "    "]))))
    left, top = data.draw(st.integers(0, w - 1)), data.draw(st.integers(0, h - 1))
    bounds = (left, top, data.draw(st.integers(1, w - left)), data.draw(st.integers(1, h - top)))
    yaml = map_yaml(w, h, tileset="HYPO", bounds=bounds)
    p = (write_oramap(tmp / "h.oramap", yaml, binary) if data.draw(st.booleans())
         else write_folder(tmp / "h", yaml, binary))
    m = load_openra(p, tilesets=tmp)
    want = slow_terrain(binary, ts)
    got = [[m.terrains.names[int(m.terrain[y, x])] for x in range(w)] for y in range(h)]
    assert got == want
    mask = [[bounds[0] <= x < bounds[0] + bounds[2] and bounds[1] <= y < bounds[1] + bounds[3] for x in range(w)]
            for y in range(h)]
    assert m.grid.mask.tolist() == mask and m.playable == bounds


# -- the command line -----------------------------------------------------------------------------------


def test_convert_reads_openra_maps_by_content(tmp_path, capsys):
    from wargrid.cli import main

    d = _tilesets(tmp_path)
    tiles = [[type_tile("Water"), type_tile("Road")], [type_tile("Rock"), (255, 0)]]
    src = write_oramap(tmp_path / "download", map_yaml(2, 2, bounds=(0, 0, 2, 1)), map_bin(tiles))
    out = tmp_path / "out.json"
    assert main(["convert", str(src), str(out), "--tilesets", str(d)]) == 0
    m = wargrid.load_map(out)
    assert m == load_openra(src, tilesets=d)
    assert m.terrain_name((1, 0)) == "Road" and m.grid.mask.tolist() == [[True, True], [False, False]]
    folder = write_folder(tmp_path / "far" / "away" / "m", map_yaml(2, 2), map_bin(tiles))
    assert main(["convert", str(folder), str(tmp_path / "f.json")]) == 1  # the tileset is not next to it
    assert "tileset 'MADEUP'" in capsys.readouterr().err
    assert main(["convert", str(folder), str(tmp_path / "f.json"), "--tilesets", str(d)]) == 0
    assert main(["convert", str(folder), str(tmp_path / "f.oramap"), "--tilesets", str(d)]) == 2


def test_damaged_archives_raise_map_file_errors_only(tmp_path):
    _tilesets(tmp_path)
    tiles = [[type_tile(n) for n in RA_TYPES[:4]], [type_tile(n) for n in RA_TYPES[4:8]]]
    yaml = map_yaml(4, 2, actors=[("a", "fact", 0, 0), ("b", "mpspawn", 3, 1)])
    good = write_oramap(tmp_path / "good.oramap", yaml, map_bin(tiles)).read_bytes()
    rng = np.random.default_rng(7)
    for k in range(150):
        raw = bytearray(good)
        if k % 3 == 0:
            raw = raw[: rng.integers(0, len(raw))]
        else:
            for at in rng.integers(0, len(raw), size=1 + k % 4):
                raw[at] = int(rng.integers(0, 256))
        p = tmp_path / f"bad{k}.oramap"
        p.write_bytes(bytes(raw))
        try:
            load_openra(p)
        except MapFileError:
            pass
