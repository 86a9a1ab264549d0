"""Tiled maps as games make them: one test per convention ``load_tiled`` recognises (see ``docs/import.md``).

Every map here is built by the test, in the layout and with the property
names that released games use: tilesets in a sibling folder, old DOCTYPE
lines, collision layers and objects, several ground layers, costs and names
in tile properties (custom classes too), decoration-only tilesets.
"""

from __future__ import annotations

import base64
import json
import math
import os
import re
import tracemalloc
import warnings
import zlib
from pathlib import Path

import numpy as np
import pytest

import wargrid
from wargrid import MapFileError, Terrain, TerrainTable
from wargrid.io.errors import MapFileWarning
from wargrid.io.tiled import load_tiled, save_tiled
from wargrid.io._tiled_rules import SYNONYMS, canonical

W, H = 4, 3


def prop(name: str, value: object) -> str:
    typ = "bool" if isinstance(value, bool) else "int" if isinstance(value, int) else "float" if isinstance(value, float) else None
    val = str(value).lower() if isinstance(value, bool) else str(value)
    return f'<property name="{name}"{f" type={chr(34)}{typ}{chr(34)}" if typ else ""} value="{val}"/>'


def tile(tid: int, *props: str, extra: str = "") -> str:
    return f'<tile id="{tid}"><properties>{"".join(props)}</properties>{extra}</tile>'


def tileset(first: int, name: str, *tiles: str) -> str:
    return f'<tileset firstgid="{first}" name="{name}" tilewidth="16" tileheight="16">{"".join(tiles)}</tileset>'


def layer(name: str, rows: list[list[int]], attrs: str = "", props: str = "") -> str:
    data = ",\n".join(",".join(map(str, r)) for r in rows)
    ps = f"<properties>{props}</properties>" if props else ""
    return f'<layer name="{name}" width="{len(rows[0])}" height="{len(rows)}"{attrs}>{ps}<data encoding="csv">{data}</data></layer>'


def tmx(*body: str, w: int = W, h: int = H, head: str = "", orientation: str = "orthogonal") -> str:
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n{head}<map version="1.10" orientation="{orientation}" width="{w}" '
            f'height="{h}" tilewidth="16" tileheight="16">' + "".join(body) + "</map>")


GROUND = tileset(1, "ground", tile(0, prop("terrain", "plains")), tile(1, prop("terrain", "water")),
                 tile(2, prop("terrain", "forest")))
FULL = [[1] * W for _ in range(H)]


def write(tmp_path: Path, text: str, name: str = "m.tmx") -> Path:
    p = tmp_path / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


def names(m: wargrid.Map) -> list[list[str]]:
    return [[m.terrain_name((x, y)) if m.grid.mask[y, x] else "-" for x in range(m.grid.width)] for y in range(m.grid.height)]


def walls(m: wargrid.Map) -> int:
    return m.count("wall") if "wall" in m.terrains.names else 0


def quiet(path: Path, **kw: object) -> wargrid.Map:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MapFileWarning)
        return load_tiled(path, **kw)


# -- files and tilesets ---------------------------------------------------------------------

def test_tilesets_in_a_sibling_folder_are_followed_relative_to_the_map(tmp_path: Path) -> None:
    ts = ('<?xml version="1.0"?><tileset name="outdoor" tilewidth="16" tileheight="16">'
          + tile(0, prop("type", "Tall Grass")) + tile(1, prop("type", "Deep Water")) + "</tileset>")
    write(tmp_path, ts, "game/tilesets/[A] outdoor set.tsx")
    p = write(tmp_path, tmx('<tileset firstgid="1" source="../tilesets/[A] outdoor set.tsx"/>',
                            layer("Ground", [[1, 1, 2, 2]] * H)), "game/maps/town.tmx")
    m = load_tiled(p)
    assert names(m)[0] == ["plains", "plains", "water", "water"]
    tsj = {"name": "json", "tilewidth": 16, "tileheight": 16, "tiles": [{"id": 0, "properties": [{"name": "solid", "type": "bool", "value": True}]}]}
    write(tmp_path, json.dumps(tsj), "game/tilesets/walls.tsj")
    tmj = {"type": "map", "orientation": "orthogonal", "width": 2, "height": 1, "tilewidth": 16, "tileheight": 16,
           "tilesets": [{"firstgid": 1, "source": "../tilesets/walls.tsj"}, {"firstgid": 5, "name": "g", "tiles": [
               {"id": 0, "properties": [{"name": "terrain", "type": "string", "value": "hills"}]}]}],
           "layers": [{"type": "tilelayer", "name": "g", "width": 2, "height": 1, "data": [1, 5]}]}
    j = write(tmp_path, json.dumps(tmj), "game/maps/j.tmj")
    assert names(load_tiled(j)) == [["wall", "hills"]]


def test_a_missing_or_bad_tileset_names_itself_and_the_path_tried(tmp_path: Path) -> None:
    p = write(tmp_path, tmx('<tileset firstgid="1" source="../tilesets/gone.tsx"/>', layer("g", FULL)), "maps/m.tmx")
    with pytest.raises(MapFileError) as e:
        load_tiled(p)
    assert "'../tilesets/gone.tsx'" in str(e.value) and str((tmp_path / "tilesets" / "gone.tsx").resolve()) in str(e.value)
    assert str(p) in str(e.value)
    write(tmp_path, "<notatileset/>", "tilesets/gone.tsx")
    with pytest.raises(MapFileError, match="not a Tiled tileset"):
        load_tiled(p)
    os.mkfifo(tmp_path / "tilesets" / "pipe.tsx")  # never opened: a read would block for ever
    p2 = write(tmp_path, tmx('<tileset firstgid="1" source="../tilesets/pipe.tsx"/>', layer("g", FULL)), "maps/p.tmx")
    with pytest.raises(MapFileError, match="not a regular file"):
        load_tiled(p2)


def test_tilesets_of_a_map_are_capped_together_and_read_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import wargrid.io._tiled_parse as parse

    write(tmp_path, '<tileset name="a" tilewidth="16" tileheight="16">' + tile(0, prop("terrain", "forest")) + " " * 3000
          + "</tileset>", "a.tsx")
    write(tmp_path, '<tileset name="b" tilewidth="16" tileheight="16">' + " " * 3000 + "</tileset>", "b.tsx")
    monkeypatch.setattr(parse, "MAX_MAP_TILESET_BYTES", 5000)
    same = write(tmp_path, tmx('<tileset firstgid="1" source="a.tsx"/>', '<tileset firstgid="2" source="./a.tsx"/>',
                               layer("g", FULL)))
    assert load_tiled(same).count("forest") == W * H  # one file named twice is read once
    both = write(tmp_path, tmx('<tileset firstgid="1" source="a.tsx"/>', '<tileset firstgid="2" source="b.tsx"/>',
                               layer("g", FULL)), "both.tmx")
    with pytest.raises(MapFileError, match="tilesets together are larger than 5000 bytes"):
        load_tiled(both)


def test_root_confines_tilesets_for_servers(tmp_path: Path) -> None:
    write(tmp_path, '<tileset name="t" tilewidth="16" tileheight="16">' + tile(0, prop("terrain", "swamp")) + "</tileset>",
          "common/t.tsx")
    p = write(tmp_path, tmx('<tileset firstgid="1" source="../common/t.tsx"/>', layer("g", FULL)), "upload/m.tmx")
    assert load_tiled(p).count("swamp") == W * H
    with pytest.raises(MapFileError, match=r"lies outside .*upload.* \(root=\)"):
        load_tiled(p, root=tmp_path / "upload")
    link = tmp_path / "upload" / "t.tsx"
    link.symlink_to(tmp_path / "common" / "t.tsx")  # a link out of the folder is outside too
    p2 = write(tmp_path, tmx('<tileset firstgid="1" source="t.tsx"/>', layer("g", FULL)), "upload/l.tmx")
    with pytest.raises(MapFileError, match="lies outside"):
        load_tiled(p2, root=tmp_path / "upload")


@pytest.mark.parametrize("head", [
    '<!DOCTYPE map SYSTEM "http://mapeditor.org/dtd/1.0/map.dtd">\n',
    "<!-- saved by an old Tiled -->\n<!DOCTYPE map SYSTEM 'map.dtd'>\n",
    '<!DOCTYPE map PUBLIC "-//mapeditor//DTD map//EN" "http://mapeditor.org/dtd/1.0/map.dtd">\n',
    "<!DOCTYPE map>\n",
])
def test_an_old_doctype_line_loads(tmp_path: Path, head: str) -> None:
    m = load_tiled(write(tmp_path, tmx(GROUND, layer("g", FULL), head=head)))
    assert m.count("plains") == W * H


@pytest.mark.parametrize("head", [
    '<!DOCTYPE map SYSTEM "map.dtd" [<!ENTITY x "plains">]>\n',
    '<!DOCTYPE map [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n',
    '<!DOCTYPE map SYSTEM "map.dtd">\n<!DOCTYPE map SYSTEM "map.dtd">\n',
])
def test_entities_and_internal_subsets_stay_refused(tmp_path: Path, head: str) -> None:
    with pytest.raises(MapFileError, match="unsafe XML|not well-formed"):
        load_tiled(write(tmp_path, tmx(GROUND, layer("g", FULL), head=head)))


# -- walls ------------------------------------------------------------------------------------

WALLS = [[0, 5, 0, 0], [0, 5, 0, 0], [0, 0, 0, 7]]  # two tilesets' tiles: any tile blocks
COLLISION_SET = tileset(5, "collision") + tileset(7, "collision 2")


@pytest.mark.parametrize("name", ["Collision", "collisions", "COLLIDE", "Walls", "wall", "Blocked", "blocking", "Obstacles",
                                  "solid", "Collision Layer", "collision_layer", "trees_blocking", "walls blocking",
                                  "Impassable", "unwalkable"])
def test_a_collision_layer_by_name_blocks_every_land_class(tmp_path: Path, name: str) -> None:
    p = write(tmp_path, tmx(GROUND, COLLISION_SET, layer("Ground", FULL), layer(name, WALLS, ' visible="0"')))
    m = load_tiled(p)
    assert names(m) == [["plains", "wall", "plains", "plains"], ["plains", "wall", "plains", "plains"],
                        ["plains", "plains", "plains", "wall"]]
    assert all(math.isinf(m.terrains.cost("wall", c)) for c in m.terrains.classes)
    assert m.path((0, 0), (3, 0)).cells[1] == (0, 1) or (1, 0) not in m.path((0, 0), (3, 0)).cells


def test_a_collision_tile_where_no_ground_is_drawn_is_a_wall_on_the_board(tmp_path: Path) -> None:
    ground = [[1, 1, 0, 0]] * H
    m = load_tiled(write(tmp_path, tmx(GROUND, COLLISION_SET, layer("Ground", ground), layer("Collision", WALLS))))
    assert names(m) == [["plains", "wall", "-", "-"], ["plains", "wall", "-", "-"], ["plains", "plains", "-", "wall"]]


@pytest.mark.parametrize("name", ["Ground 2", "funiture_nonblocking", "water_nonblocking", "non-blocking", "Fringe", "Over"])
def test_other_layer_names_do_not_block(tmp_path: Path, name: str) -> None:
    m = quiet(write(tmp_path, tmx(GROUND, COLLISION_SET, layer("Ground", FULL), layer(name, WALLS))))
    assert walls(m) == 0


@pytest.mark.parametrize("key", ["collides", "collision", "solid", "blocked", "Collides"])
def test_a_layer_with_a_blocking_property_is_a_collision_layer(tmp_path: Path, key: str) -> None:
    p = write(tmp_path, tmx(GROUND, COLLISION_SET, layer("Ground", FULL), layer("Layer 3", WALLS, props=prop(key, True))))
    assert walls(load_tiled(p)) == 3
    off = write(tmp_path, tmx(GROUND, COLLISION_SET, layer("Ground", FULL), layer("Layer 3", WALLS, props=prop(key, False))),
                "off.tmx")
    assert walls(quiet(off)) == 0


def test_collision_layers_option_overrides_and_water_under_a_wall_stays_water(tmp_path: Path) -> None:
    ground = [[2, 2, 1, 1]] * H  # water in the first two columns
    p = write(tmp_path, tmx(GROUND, COLLISION_SET, layer("Ground", ground), layer("Collision", WALLS), layer("Deco", WALLS)))
    m = load_tiled(p)
    assert names(m)[0] == ["water", "water", "plains", "plains"]  # (1, 0) is water under the wall: boats still go
    assert names(m)[2] == ["water", "water", "plains", "wall"]
    assert walls(quiet(p, collision_layers=[])) == 0
    assert names(quiet(p, collision_layers=["Deco"]))[2][3] == "wall"
    assert walls(quiet(p, collision_terrain=None)) == 0
    rock = quiet(p, collision_terrain="mountains")
    assert rock.terrain_name((3, 2)) == "mountains"
    with pytest.raises(MapFileError, match="collision_layers names layer 'Nope'"):
        load_tiled(p, collision_layers=["Nope"])


@pytest.mark.parametrize("p", [prop("collides", True), prop("collision", True), prop("solid", "true"), prop("blocked", 1),
                               prop("walkable", False), prop("passable", False), prop("available", "false"),
                               prop("Walkable", False)])
def test_tile_properties_that_block(tmp_path: Path, p: str) -> None:
    ts = tileset(5, "props", tile(0, p))
    m = quiet(write(tmp_path, tmx(GROUND, ts, layer("Ground", FULL), layer("Objects", [[0, 5, 0, 0]] + [[0] * W] * 2))))
    assert m.terrain_name((1, 0)) == "wall" and walls(m) == 1


def test_blocking_tiles_in_a_hidden_meta_layer_block(tmp_path: Path) -> None:
    meta = tileset(5, "meta", tile(0, prop("Collidable", "True")), tile(1, prop("Collectable", "True")))
    rows = [[0, 5, 6, 0], [0, 0, 0, 0], [5, 0, 0, 0]]
    m = load_tiled(write(tmp_path, tmx(GROUND, meta, layer("Background", FULL), layer("Meta", rows, ' visible="0"'))))
    assert names(m) == [["plains", "wall", "plains", "plains"], ["plains"] * 4, ["wall", "plains", "plains", "plains"]]
    assert walls(load_tiled(write(tmp_path, tmx(GROUND, meta, layer("Background", FULL), layer("Meta", rows, ' visible="0"')),
                                  "n.tmx"), collision_terrain=None)) == 0


@pytest.mark.parametrize("p", [prop("walkable", True), prop("solid", False), prop("collides", "maybe")])
def test_tile_properties_that_do_not_block(tmp_path: Path, p: str) -> None:
    ts = tileset(5, "props", tile(0, p, prop("terrain", "hills")))
    m = load_tiled(write(tmp_path, tmx(GROUND, ts, layer("Ground", [[5] * W] * H))))
    assert m.count("hills") == W * H


def test_a_tile_with_a_collision_shape_blocks_a_point_does_not(tmp_path: Path) -> None:
    shape = '<objectgroup draworder="index"><object id="1" x="0" y="8" width="16" height="8"/></objectgroup>'
    poly = '<objectgroup><object id="1" x="0" y="0"><polygon points="0,0 16,0 8,16"/></object></objectgroup>'
    point = '<objectgroup><object id="1" x="8" y="8"><point/></object></objectgroup>'
    ts = tileset(5, "t", tile(0, prop("terrain", "forest"), extra=shape), tile(1, extra=poly), tile(2, extra=point))
    m = quiet(write(tmp_path, tmx(GROUND, ts, layer("Ground", FULL), layer("Trees", [[5, 6, 7, 0]] + [[0] * W] * 2))))
    assert names(m)[0] == ["wall", "wall", "plains", "plains"]


def test_collision_objects_block_the_cells_they_cover(tmp_path: Path) -> None:
    objects = ('<objectgroup name="Collisions">'
               '<object id="1" type="collision" x="16" y="0" width="32" height="16"/>'  # cells (1, 0), (2, 0)
               '<object id="2" x="0" y="16"><polygon points="0,0 16,0 16,16 0,16"/></object>'  # cell (0, 1)
               '<object id="3" name="spawn" x="56" y="40"><point/></object>'  # a point is a marker
               '</objectgroup>'
               '<objectgroup name="Events">'
               '<object id="4" class="Wall" x="48" y="16" width="16" height="16"/>'  # classed: (3, 1)
               '<object id="5" name="door" x="8" y="40"><point/></object>'
               '<object id="6" x="16" y="32" width="16" height="16"><properties>' + prop("collides", True) + '</properties></object>'
               '</objectgroup>')
    m = load_tiled(write(tmp_path, tmx(GROUND, layer("Ground", FULL), objects)))
    assert names(m) == [["plains", "wall", "wall", "plains"], ["wall", "plains", "plains", "wall"],
                        ["plains", "wall", "plains", "plains"]]
    assert [(mk.name, mk.cells) for mk in m.markers] == [("spawn", ((3, 2),)), ("door", ((0, 2),))]
    assert walls(quiet(write(tmp_path, tmx(GROUND, layer("Ground", FULL), objects), "o.tmx"), collision_layers=[])) == 0


# -- the ground -------------------------------------------------------------------------------

def test_the_ground_is_the_topmost_tile_naming_a_terrain_over_visible_layers(tmp_path: Path) -> None:
    deco = tileset(5, "decoration")  # tiles that name nothing: trees drawn over the ground, a spawn zone
    helper = [[5, 0, 0, 0], [5, 5, 0, 0], [0, 0, 0, 0]]
    trees = [[0, 3, 3, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    hidden = [[2] * W] * H
    p = write(tmp_path, tmx(GROUND, deco, layer("Spawn zone", helper), layer("Ground", FULL), layer("Forest", trees),
                            layer("Helper", helper), layer("Old water", hidden, ' visible="0"'), w=W, h=H))
    m = load_tiled(p)  # no warning: every drawn cell has a tile naming a terrain under the decoration
    assert names(m) == [["plains", "forest", "forest", "plains"], ["plains"] * 4, ["plains"] * 4]
    assert names(load_tiled(p, ground="Ground")) == [["plains"] * 4] * 3
    assert names(load_tiled(p, ground=["Old water"])) == [["water"] * 4] * 3


def test_a_cell_without_any_tile_is_off_the_board(tmp_path: Path) -> None:
    p = write(tmp_path, tmx(GROUND, layer("a", [[1, 1, 0, 0]] * H), layer("b", [[0, 0, 3, 0]] * H)))
    assert names(load_tiled(p))[0] == ["plains", "plains", "forest", "-"]


# -- names and costs in tile properties ---------------------------------------------------------

@pytest.mark.parametrize("key", ["terrain", "Terrain", "terrain_type", "type", "kind", "material", "surface"])
def test_a_terrain_name_in_a_tile_property(tmp_path: Path, key: str) -> None:
    ts = tileset(1, "t", tile(0, prop(key, "SWAMP")))
    assert load_tiled(write(tmp_path, tmx(ts, layer("g", FULL)))).count("swamp") == W * H


def test_a_terrain_name_in_the_tile_class_and_in_a_known_name_property(tmp_path: Path) -> None:
    ts = ('<tileset firstgid="1" name="t" tilewidth="16" tileheight="16"><tile id="0" class="Forest"/>'
          '<tile id="1" type="hill"/>' + tile(2, prop("name", "Lake")) + "</tileset>")
    m = load_tiled(write(tmp_path, tmx(ts, layer("g", [[1, 2, 3, 3]] * H))))
    assert names(m)[0] == ["forest", "hills", "water", "water"]


@pytest.mark.parametrize(("p", "cost"), [(prop("move_cost", 3), 3.0), (prop("moveCost", 2), 2.0), (prop("cost", 1.5), 1.5),
                                         (prop("movement_cost", "4"), 4.0), (prop("moveCost", 99), math.inf),
                                         (prop("cost", 0), math.inf), (prop("cost", -1), math.inf),
                                         (prop("speed", 2.0), 0.5), (prop("speed", 0.5), 2.0), (prop("speed", 50), 2.0),
                                         (prop("speed", 0), math.inf)])
def test_a_cost_in_a_tile_property(tmp_path: Path, p: str, cost: float) -> None:
    ts = tileset(1, "t", tile(0, p, prop("name", "Mud Flats")))
    m = load_tiled(write(tmp_path, tmx(ts, layer("g", FULL))))
    t = m.terrains[int(m.terrain[0, 0])]
    land = ("foot", "cavalry", "wheeled", "tracked")
    assert [t.cost(c) for c in land] == [cost] * 4
    assert math.isinf(t.cost("naval"))
    if math.isfinite(cost):
        assert m.path((0, 0), (1, 0)).cost == pytest.approx(cost)


def test_costed_tiles_share_a_terrain_by_name_and_cost(tmp_path: Path) -> None:
    ts = tileset(1, "t", tile(0, prop("moveCost", 2), prop("name", "Flora")), tile(1, prop("moveCost", 2), prop("name", "Flora")),
                 tile(2, prop("moveCost", 3), prop("name", "Flora")), tile(3, prop("moveCost", 2)), tile(4, prop("moveCost", 99), prop("name", "Chasm")))
    m = load_tiled(write(tmp_path, tmx(ts, layer("g", [[1, 2, 3, 4]] * 2 + [[5] * 4]))))
    assert names(m) == [["flora", "flora", "flora_3", "cost_2"]] * 2 + [["impassable"] * 4]
    assert m.terrains.cost("flora_3", "foot") == 3.0 and not m.terrains["impassable"].blocks_sight


def test_class_properties_are_expanded(tmp_path: Path) -> None:
    member = ('<property name="data" type="class" propertytype="TileData"><properties>'
              + prop("walkable", False) + "</properties></property>")
    cost = ('<property name="movement" type="class" propertytype="Move"><properties>' + prop("cost", 3)
            + prop("terrain", "Marsh") + "</properties></property>")
    ts = tileset(1, "t", tile(0, prop("terrain", "plains")), tile(1, member), tile(2, cost))
    m = load_tiled(write(tmp_path, tmx(ts, layer("g", [[1, 2, 3, 3]] * H))))
    assert names(m)[0][:2] == ["plains", "wall"] and m.terrains[int(m.terrain[0, 2])].cost("foot") == 3.0
    tmj = {"type": "map", "orientation": "orthogonal", "width": 2, "height": 1, "tilewidth": 16, "tileheight": 16,
           "tilesets": [{"firstgid": 1, "name": "t", "tiles": [
               {"id": 0, "properties": [{"name": "info", "type": "class", "propertytype": "Info", "value": {"kind": "woods"}}]},
               {"id": 1, "properties": [{"name": "info", "type": "class", "propertytype": "Info",
                                         "value": {"nested": {"solid": True}}}]}]}],
           "layers": [{"type": "tilelayer", "name": "g", "width": 2, "height": 1, "data": [1, 2]}]}
    assert names(load_tiled(write(tmp_path, json.dumps(tmj), "c.tmj"))) == [["forest", "wall"]]


# -- the synonym table ------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "terrain"), [
    ("Deep Water", "water"), ("OCEAN", "water"), ("Lakes", "water"), ("river", "water"), ("DEEP_WATER", "water"),
    ("water2", "water"), ("shallowWater", "water"), ("cliffs", "mountains"), ("Rock", "mountains"), ("Mountain", "mountains"),
    ("Woods", "forest"), ("jungle", "forest"), ("Trees", "forest"), ("hill", "hills"), ("Highlands", "hills"),
    ("marsh", "swamp"), ("bog", "swamp"), ("path", "road"), ("Streets", "road"), ("Bridge", "bridge"),
    ("bridge over water", "bridge"), ("sand", "coast"), ("Desert", "coast"), ("beach", "coast"), ("Grass", "plains"),
    ("Stone Floor", "plains"), ("dirt", "plains"), ("Field1", "plains"), ("Snow", "snow"), ("ice", "snow"),
    ("Lava", "impassable"), ("chasm", "impassable"), ("void", "impassable"), ("pit", "impassable"),
    ("Wall", "wall"), ("building", "wall"), ("Solid Block", "wall"),
])
def test_names_go_through_the_synonym_table(tmp_path: Path, name: str, terrain: str) -> None:
    ts = tileset(1, "t", tile(0, prop("terrain", name)))
    with warnings.catch_warnings():
        warnings.simplefilter("error", MapFileWarning)  # documented names add no warning
        m = load_tiled(write(tmp_path, tmx(ts, layer("g", FULL))))
    assert m.terrain_name((0, 0)) == terrain
    t = m.terrains[terrain]
    if terrain in ("water", "wall", "impassable"):
        assert all(math.isinf(t.cost(c)) for c in ("foot", "cavalry", "wheeled", "tracked"))


def test_water_and_wall_like_names_are_never_cost_1_for_everyone(tmp_path: Path) -> None:
    table = TerrainTable([Terrain("floor", ".", "#dddddd", costs={"walk": 1, "boat": 1})], classes=("walk", "boat"))
    ts = tileset(1, "t", tile(0, prop("terrain", "Ocean")), tile(1, prop("terrain", "Stone Wall")), tile(2, prop("terrain", "Pit")),
                 tile(3, prop("terrain", "Cliffs")))
    m = quiet(write(tmp_path, tmx(ts, layer("g", [[1, 2, 3, 4]] * H))), terrains=table)
    ocean, wall, pit, cliff = (m.terrains[int(m.terrain[0, x])] for x in range(4))
    assert math.isinf(ocean.cost("walk")) and ocean.cost("boat") == 1.0
    assert all(math.isinf(t.cost(c)) for t in (wall, pit) for c in ("walk", "boat"))
    assert cliff.cost("walk") > 1 and math.isinf(cliff.cost("boat"))


def test_the_docs_list_the_synonym_table() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "import.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| ([a-z, ]+) \| `(\w+)`", page, flags=re.M))
    documented = {target: {w.strip() for w in words.split(",")} for words, target in rows.items()}
    for target, words in SYNONYMS:
        assert target in documented, target
        for w in documented[target]:
            assert canonical(w) == target, (w, target)
        for w in words:
            assert any(w == d.replace(" ", "") or canonical(d) == target for d in documented[target])


# -- tiles that name nothing -------------------------------------------------------------------------

def test_decoration_only_tiles_take_the_default_terrain_with_one_warning(tmp_path: Path) -> None:
    deco = tileset(1, "furniture") + tileset(9, "lamps")
    p = write(tmp_path, tmx(deco, GROUND.replace('firstgid="1"', 'firstgid="20"'),
                            layer("g", [[1, 2, 9, 20], [1, 1, 1, 20], [0, 0, 0, 20]])))
    with pytest.warns(MapFileWarning) as caught:
        m = load_tiled(p)
    assert len(caught) == 1
    text = str(caught[0].message)
    assert "6 cells" in text and "3 tiles" in text and "'furniture' (2)" in text and "'lamps' (1)" in text
    assert names(m) == [["plains"] * 4, ["plains"] * 4, ["-", "-", "-", "plains"]]
    with warnings.catch_warnings():
        warnings.simplefilter("error", MapFileWarning)
        assert load_tiled(p, default_terrain="hills").count("hills") == 6
    with pytest.raises(MapFileError, match=r"tile 1 \(of tileset 'furniture'\)"):
        load_tiled(p, strict=True)


# -- round trips ---------------------------------------------------------------------------------------

def test_multi_line_string_properties_survive_tmx_and_tmj(tmp_path: Path) -> None:
    text = '{\n  "obstacle": [1, 2],\n  "note": "a < b & c"\n}'
    m = wargrid.Map(wargrid.SquareGrid(3, 2), properties={"story": text, "single": "one line"},
                    markers=[wargrid.Marker("gate", ((1, 1),), kind="door", properties={"script": "open()\nwait(2)\n"})])
    for name in ("r.tmx", "r.tmj"):
        save_tiled(m, tmp_path / name, tileset_image=False)
        back = load_tiled(tmp_path / name)
        assert back == m and back.properties["story"] == text and back.markers[0].properties["script"] == "open()\nwait(2)\n"
    old = tmx(GROUND, layer("g", FULL)).replace("<tileset", '<properties><property name="note">line one\nline two</property>'
                                                 "</properties><tileset", 1)
    assert load_tiled(write(tmp_path, old, "old.tmx")).properties["note"] == "line one\nline two"


@pytest.mark.parametrize("orientation", ["isometric", "staggered"])
def test_infinite_isometric_maps_keep_their_size_and_origin(tmp_path: Path, orientation: str) -> None:
    chunk = np.zeros((16, 16), dtype=int)
    chunk[3:9, 5:12] = 1
    chunk[4, 6] = 3
    stagger = {"staggeraxis": "y", "staggerindex": "odd"} if orientation == "staggered" else {}
    hx, hy = (1440, 80) if orientation == "staggered" else (720, 144)  # the centre of tile (22, 4) in object space
    tmj = {"type": "map", "orientation": orientation, "width": 48, "height": 32, "tilewidth": 64, "tileheight": 32,
           "infinite": True, **stagger,
           "tilesets": [{"firstgid": 1, "name": "t", "tiles": [
               {"id": 0, "properties": [{"name": "terrain", "type": "string", "value": "plains"}]},
               {"id": 2, "properties": [{"name": "terrain", "type": "string", "value": "forest"}]}]}],
           "layers": [{"type": "tilelayer", "name": "g", "startx": -16, "starty": -16, "width": 48, "height": 32,
                       "chunks": [{"x": -16, "y": -16, "width": 16, "height": 16, "data": chunk.ravel().tolist()},
                                  {"x": 16, "y": 0, "width": 16, "height": 16, "data": chunk.ravel().tolist()}]},
                      {"type": "objectgroup", "name": "o", "objects": [{"id": 1, "name": "hero", "x": hx, "y": hy, "point": True}]}]}
    m = load_tiled(write(tmp_path, json.dumps(tmj), "inf.tmj"))
    origin = "-11,-14" if orientation == "staggered" else "-11,-13"  # staggered: the stagger axis starts even
    assert m.properties["tiled.origin"] == origin and m.count("forest") == 2
    assert len(m.markers) == 1 and len(m.markers[0].cells) == 1  # the tile at (22, 4)
    for name in ("a.tmj", "a.tmx"):
        save_tiled(m, tmp_path / name, tileset_image=False)
        back = load_tiled(tmp_path / name)
        assert back == m and back.properties["tiled.origin"] == origin
        again = tmp_path / f"again-{name}"
        save_tiled(back, again, tileset_image=False)
        assert again.read_text() == (tmp_path / name).read_text()


# -- bounded memory (hostile files) ----------------------------------------------------------------------

def test_many_compressed_layers_are_capped_in_total_before_they_inflate(tmp_path: Path) -> None:
    side, n = 512, 40  # each layer is a few hundred bytes of zlib, a megabyte decoded
    data = base64.b64encode(zlib.compress(np.ones(side * side, dtype="<u4").tobytes(), 9)).decode()
    layers = "".join(f'<layer name="l{k}" width="{side}" height="{side}"><data encoding="base64" compression="zlib">{data}'
                     "</data></layer>" for k in range(n))
    p = write(tmp_path, tmx(GROUND, layers, w=side, h=side))
    assert p.stat().st_size < 100_000
    tracemalloc.start()
    try:
        with pytest.raises(MapFileError, match="more than the cap of 1048576 tiles") as e:
            load_tiled(p, max_cells=1 << 20)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "counted over all layers" in str(e.value) and str(p) in str(e.value)
    assert peak < 5 * 4 * (1 << 20) + 10_000_000  # four layers decoded at most, not forty
    assert quiet(p, max_cells=n * side * side).count("plains") == side * side  # the cap allows what it says


def test_many_chunked_layers_are_capped_by_their_box(tmp_path: Path) -> None:
    chunks = [{"x": x, "y": 0, "width": 16, "height": 16, "data": [1] * 256} for x in (0, 4096)]
    tmj = {"type": "map", "orientation": "orthogonal", "infinite": True, "width": 16, "height": 16, "tilewidth": 16,
           "tileheight": 16, "tilesets": [{"firstgid": 1, "name": "t", "tiles": []}],
           "layers": [{"type": "tilelayer", "name": f"l{k}", "chunks": chunks} for k in range(64)]}
    with pytest.raises(MapFileError, match="64 tile layers over the chunks' 4112 x 16 tiles exceed the cap"):
        load_tiled(write(tmp_path, json.dumps(tmj), "c.tmj"), max_cells=1 << 20)


def test_objects_are_capped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import wargrid.io._tiled_parse as parse

    monkeypatch.setattr(parse, "MAX_TILED_OBJECTS", 50)
    many = "<objectgroup name='o'>" + "".join(f'<object id="{k}" x="1" y="1"><point/></object>' for k in range(60)) + "</objectgroup>"
    with pytest.raises(MapFileError, match="more than 50 objects or polygon points"):
        load_tiled(write(tmp_path, tmx(GROUND, layer("g", FULL), many)))
    pts = " ".join(f"{k},0" for k in range(60))
    poly = f"<objectgroup name='o'><object id='1' x='0' y='0'><polyline points='{pts}'/></object></objectgroup>"
    with pytest.raises(MapFileError, match="more than 50 objects or polygon points"):
        load_tiled(write(tmp_path, tmx(GROUND, layer("g", FULL), poly), "p.tmx"))


def test_objects_covering_the_map_again_and_again_are_capped(tmp_path: Path) -> None:
    big = "".join(f'<object id="{k}" name="zone" x="0" y="0" width="16000" height="16000"/>' for k in range(200))
    p = write(tmp_path, tmx(GROUND, layer("g", [[1] * 200] * 200), f"<objectgroup name='zones'>{big}</objectgroup>", w=200, h=200))
    with pytest.raises(MapFileError, match="objects cover more cells"):
        load_tiled(p, max_cells=1 << 16)


# -- a real map (CC0, tests/data/tiled_games/sunnyland/README.md) -------------------------------------------

def test_a_real_platformer_level_loads_with_no_options_and_its_solid_tiles_block(tmp_path: Path) -> None:
    folder = Path(__file__).resolve().parents[1] / "data" / "tiled_games" / "sunnyland"
    raw = json.loads((folder / "level1.tmj").read_text(encoding="utf-8"))
    solid = set()  # tiles marked solid, or with a collision rectangle or polygon (props: crates, platforms)
    for ref in raw["tilesets"]:
        ts = json.loads((folder / ref["source"]).read_text(encoding="utf-8"))
        for t in ts.get("tiles", []):
            shapes = (t.get("objectgroup") or {}).get("objects", [])
            if any(p["name"] == "solid" and p["value"] is True for p in t.get("properties", [])) or any(
                    o.get("polygon") or (o.get("width", 0) > 0 and o.get("height", 0) > 0) for o in shapes):
                solid.add(ref["firstgid"] + t["id"])
    w, h = raw["width"], raw["height"]
    layers = [np.array(la["data"], dtype=np.int64).reshape(h, w) & 0x0FFFFFFF for la in raw["layers"] if la["type"] == "tilelayer"]
    expect_wall = np.zeros((h, w), dtype=bool)
    drawn = np.zeros((h, w), dtype=bool)
    for a in layers:
        expect_wall |= np.isin(a, list(solid))
        drawn |= a != 0
    with pytest.warns(MapFileWarning, match="drawn only with tiles that name no terrain"):  # decoration: plains, one warning
        m = load_tiled(folder / "level1.tmj")
    assert m.shape == (h, w) and m.grid.kind == "square"
    assert np.array_equal(m.grid.mask, drawn | expect_wall)
    wall = m.terrains.index("wall")
    assert np.array_equal(m.terrain == wall, expect_wall & m.grid.mask) and expect_wall.sum() > 100
    assert np.isinf(m.costs(unit="foot")[expect_wall]).all() and np.isfinite(m.costs(unit="foot")[m.grid.mask & ~expect_wall]).all()
    for name in ("again.tmj", "again.tmx"):
        save_tiled(m, tmp_path / name, tileset_image=False)
        assert load_tiled(tmp_path / name) == m
