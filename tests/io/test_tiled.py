"""Tiled TMX and TMJ: the hand-written hex maps, round trips for every board kind, hostile files."""

from __future__ import annotations

import base64
import gzip
import json
import os
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import wargrid
from wargrid import HexGrid, Map, MapFileError, SquareGrid, StaggeredGrid, generate
from wargrid.io.tiled import load_tiled, save_tiled

from io_maps import maps

DATA = Path(__file__).resolve().parent / "data"
_S = settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture])


def names(m: Map) -> list[str]:
    return ["".join(m.terrains[int(i)].symbol for i in row) for row in m.terrain]


def test_hand_written_pointy_hex_tmx() -> None:
    m = load_tiled(DATA / "hand_hex_pointy.tmx")
    assert m.grid == HexGrid(5, 4, orientation="pointy", offset="even-r")
    assert m.terrain_name((0, 0)) == "plains"
    assert m.terrain_name((2, 0)) == "forest"
    assert m.terrain_name((3, 0)) == "water"
    assert m.terrain_name((2, 1)) == "forest"  # gid 2 with the horizontal-flip bit set
    assert m.terrain_name((4, 1)) == "mountains"
    assert [m.overlay_name((x, 1)) for x in range(5)] == ["road", "road", "road", "bridge", None]
    assert m.overlay_name((0, 0)) is None


def test_hand_written_flat_hex_tmj_with_named_property_and_hole() -> None:
    m = load_tiled(DATA / "hand_hex_flat.tmj", terrain_property="kind")
    assert m.grid.kind == "hex" and m.grid.orientation == "flat" and m.grid.offset == "odd-q"
    assert m.shape == (3, 4)
    assert not m.grid.contains((3, 0))  # gid 0: outside the board's shape
    assert m.terrain_name((0, 0)) == "hills" and m.terrain_name((1, 0)) == "swamp" and m.terrain_name((2, 0)) == "coast"
    assert load_tiled(DATA / "hand_hex_flat.tmj") == m  # 'kind' is one of the names looked at
    with pytest.raises(MapFileError, match="ground names layer 'nothing', which the map does not have"):
        load_tiled(DATA / "hand_hex_flat.tmj", ground="nothing")


def test_tile_to_terrain_mapping_wins() -> None:
    m = load_tiled(DATA / "hand_hex_flat.tmj", tile_terrain={1: "plains", 2: "forest", 3: "water"})
    assert m.terrain_name((0, 0)) == "plains" and m.terrain_name((2, 0)) == "water"


def _normalised(m: Map) -> Map:
    """What Tiled can hold: terrain and overlay on the board's cells (no elevation, no edges)."""
    c = Map(m.grid, terrain=np.where(m.grid.mask, m.terrain, 0), terrains=m.terrains,
            overlay=np.where(m.grid.mask, m.overlay, -1))
    return c


@_S
@given(m=maps(extras=False), suffix=st.sampled_from([".tmx", ".tmj"]),
       enc=st.sampled_from([("csv", None), ("base64", None), ("base64", "zlib"), ("base64", "gzip")]))
def test_round_trip_every_kind(tmp_path: Path, m: Map, suffix: str, enc: tuple) -> None:
    m = Map(m.grid, terrain=m.terrain, terrains=m.terrains,
            overlay=np.where(np.arange(m.grid.size).reshape(m.shape) % 3 == 0, 5, -1))
    p = tmp_path / f"r{suffix}"
    save_tiled(m, p, encoding=enc[0], compression=enc[1], tileset_image=False)
    assert load_tiled(p) == _normalised(m)


def test_written_map_reads_back_and_rewrites_identically(tmp_path: Path) -> None:
    m = generate(20, 12, seed=3, kind="staggered")
    save_tiled(m, tmp_path / "a.tmx")
    a = load_tiled(tmp_path / "a.tmx")
    assert isinstance(a.grid, StaggeredGrid)
    assert a == m  # elevation and edge costs (the rivers) ride along as map properties
    save_tiled(a, tmp_path / "b.tmx")
    assert (tmp_path / "a.tmx").read_text().replace("a-terrain", "x") == (tmp_path / "b.tmx").read_text().replace("b-terrain", "x")
    assert (tmp_path / "a-terrain.png").exists()
    # the hand-written map read and written back keeps what wargrid understands
    h = load_tiled(DATA / "hand_hex_pointy.tmx")
    save_tiled(h, tmp_path / "h.tmj")
    assert load_tiled(tmp_path / "h.tmj") == h


def test_tmx_written_looks_like_tiled(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    save_tiled(Map(HexGrid(4, 4, orientation="flat", offset="even-q")), tmp_path / "f.tmx")
    root = ET.parse(tmp_path / "f.tmx").getroot()
    assert root.get("orientation") == "hexagonal" and root.get("staggeraxis") == "x"
    assert root.get("staggerindex") == "even" and root.get("hexsidelength") == "16"
    ts = root.find("tileset")
    assert ts.get("firstgid") == "1" and ts.find("image").get("source") == "f-terrain.png"
    assert ts.find("tile/properties/property").get("value") == "plains"


# -- hostile and broken files ---------------------------------------------------------

def tmx(data: str, *, w: int = 2, h: int = 2, enc: str = 'encoding="csv"', extra: str = "", head: str = "") -> str:
    return (f'<?xml version="1.0"?>\n{head}<map orientation="orthogonal" width="{w}" height="{h}" tilewidth="32" '
            f'tileheight="32" infinite="0">{extra}<tileset firstgid="1" name="t" tilewidth="32" tileheight="32">'
            f'<tile id="0"><properties><property name="terrain" value="plains"/></properties></tile></tileset>'
            f'<layer name="g" width="{w}" height="{h}"><data {enc}>{data}</data></layer></map>')


BOMB = ('<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
        '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>\n')


@pytest.mark.parametrize(
    "text, words",
    [
        (tmx("1,1,1"), "CSV data has 3 tiles"),
        (tmx("1,1,1,x"), "not a tile id"),
        (tmx("!!!notbase64", enc='encoding="base64"'), "bad base64"),
        (tmx(base64.b64encode(b"\x01\x00\x00\x00").decode(), enc='encoding="base64"'), "data holds 1 tiles"),
        (tmx(base64.b64encode(b"garbage").decode(), enc='encoding="base64" compression="zlib"'), "bad zlib"),
        (tmx("AAAA", enc='encoding="base64" compression="zstd"'), "zstd"),
        (tmx("1", w=100000, h=100000), "cap"),
        (tmx("1,1,1,1", w=0), "width must be >= 1"),
        (tmx("1,1,1,1").replace('"orthogonal"', '"hexagonal" staggeraxis="z"'), "staggeraxis must be x or y"),
        (tmx("1,1,1,1").replace('infinite="0"', 'infinite="1"'), "infinite"),
        (tmx("1,1,1,1")[:-30], "not well-formed XML"),
        (tmx("&lol3;,1,1,1", head=BOMB), "unsafe XML"),
        (tmx("&xxe;,1,1,1", head='<!DOCTYPE m [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n'), "unsafe XML"),
        (tmx("0,0,0,0"), "empty"),
        ("<tileset/>", "not a Tiled map"),
    ],
)
def test_bad_tmx(tmp_path: Path, text: str, words: str) -> None:
    p = tmp_path / "bad.tmx"
    p.write_text(text)
    with pytest.raises(MapFileError) as e:
        load_tiled(p)
    assert str(p) in str(e.value)
    assert words in str(e.value)


def test_zlib_bomb_is_capped(tmp_path: Path) -> None:
    big = zlib.compress(b"\x01\x00\x00\x00" * 4_000_000)  # 16 MB of tiles for a 2x2 map
    p = tmp_path / "bomb.tmx"
    p.write_text(tmx(base64.b64encode(big).decode(), enc='encoding="base64" compression="zlib"'))
    with pytest.raises(MapFileError, match="needs 2 x 2"):
        load_tiled(p)
    good = tmx(base64.b64encode(gzip.compress(b"\x01\x00\x00\x00" * 4)).decode(), enc='encoding="base64" compression="gzip"')
    p.write_text(good)
    assert load_tiled(p).shape == (2, 2)


def test_broken_xml_names_line(tmp_path: Path) -> None:
    p = tmp_path / "l.tmx"
    p.write_text('<?xml version="1.0"?>\n<map>\n<layer>\n</map>\n')
    with pytest.raises(MapFileError) as e:
        load_tiled(p)
    assert e.value.line == 4 and e.value.path == str(p)


@pytest.mark.parametrize(
    "mutate, words",
    [
        (lambda d: d["layers"][0].__setitem__("data", [1, 1]), "needs 2 x 2"),
        (lambda d: d.__setitem__("width", "wide"), "width must be an integer"),
        (lambda d: d["layers"][0].update(width=3), "layer 'g' is 3 x 2"),
        (lambda d: d.__setitem__("type", "tileset"), "not a Tiled JSON map"),
        (lambda d: d["layers"][0].update(encoding="base64", data="@@@"), "bad base64"),
        (lambda d: d["layers"][0].__setitem__("data", [1, 1, 1, -5]), "tile ids must be"),
    ],
)
def test_bad_tmj(tmp_path: Path, mutate, words: str) -> None:
    d = {"type": "map", "orientation": "orthogonal", "width": 2, "height": 2, "tilewidth": 32, "tileheight": 32,
         "tilesets": [{"firstgid": 1, "tiles": [{"id": 0, "properties": [{"name": "terrain", "value": "plains"}]}]}],
         "layers": [{"type": "tilelayer", "name": "g", "width": 2, "height": 2, "data": [1, 1, 1, 1]}]}
    p = tmp_path / "bad.tmj"
    p.write_text(json.dumps(d))
    assert load_tiled(p).shape == (2, 2)
    mutate(d)
    p.write_text(json.dumps(d))
    with pytest.raises(MapFileError) as e:
        load_tiled(p)
    assert str(p) in str(e.value) and words in str(e.value)


def test_broken_json_names_line(tmp_path: Path) -> None:
    p = tmp_path / "b.tmj"
    p.write_text('{"type": "map",\n "width": 3,\n oops}')
    with pytest.raises(MapFileError) as e:
        load_tiled(p)
    assert e.value.line == 3


def test_external_tsx(tmp_path: Path) -> None:
    (tmp_path / "t.tsx").write_text('<?xml version="1.0"?><tileset name="t"><tile id="0"><properties>'
                                    '<property name="terrain" value="forest"/></properties></tile></tileset>')
    p = tmp_path / "e.tmx"
    p.write_text(tmx("1,1,1,1").replace('<tileset firstgid="1" name="t" tilewidth="32" tileheight="32">'
                                         '<tile id="0"><properties><property name="terrain" value="plains"/></properties></tile></tileset>',
                                         '<tileset firstgid="1" source="t.tsx"/>'))
    assert load_tiled(p).terrain_name((1, 1)) == "forest"


def test_write_options_and_atomicity(tmp_path: Path) -> None:
    m = Map(SquareGrid(3, 3))
    with pytest.raises(ValueError, match="encoding"):
        save_tiled(m, tmp_path / "a.tmx", encoding="xml")
    with pytest.raises(ValueError, match="compression"):
        save_tiled(m, tmp_path / "a.tmx", compression="zlib")
    with pytest.raises(ValueError, match="path"):
        save_tiled(m, tmp_path / "a.txt")
    assert os.listdir(tmp_path) == []


def test_custom_terrain_table_rides_along(tmp_path: Path) -> None:
    from wargrid import Terrain, TerrainTable

    t = TerrainTable([Terrain("floor", ".", "#dddddd", costs={"walk": 1}), Terrain("wall", "#", "#333333")])
    m = Map(SquareGrid(3, 2, diagonal=True), terrains=t, terrain=np.array([[0, 1, 0], [1, 0, 0]]))
    for name in ("c.tmx", "c.tmj"):
        save_tiled(m, tmp_path / name, tileset_image=False)
        assert load_tiled(tmp_path / name) == m
    # read with the default table instead, the names go through the synonym table: floor is plains
    other = load_tiled(tmp_path / "c.tmx", terrains=wargrid.TerrainTable.default(), strict=True)
    assert [other.terrain_name((x, 0)) for x in range(3)] == ["plains", "wall", "plains"]


def test_unknown_terrain_is_added_with_a_warning_unless_strict(tmp_path: Path) -> None:
    p = tmp_path / "lava.tmx"
    p.write_text(tmx("1,1,1,1").replace("plains", "Purple Haze"))
    with pytest.warns(wargrid.io.errors.MapFileWarning, match="purple_haze"):
        m = load_tiled(p)
    assert m.terrain_name((0, 0)) == "purple_haze"
    assert m.terrains.names[:10] == wargrid.TerrainTable.default().names
    assert [m.terrains.cost("purple_haze", c) for c in m.terrains.classes] == [1.0] * 5
    assert not m.terrains["purple_haze"].blocks_sight
    with pytest.raises(MapFileError, match="'Purple Haze', which is not in the terrain table") as e:
        load_tiled(p, strict=True)
    assert str(p) in str(e.value)


def test_movingai_to_tiled_and_back(tmp_path: Path) -> None:
    from wargrid import load_movingai

    m = load_movingai(DATA.parents[1] / "data" / "movingai" / "32room_000.map")
    save_tiled(m, tmp_path / "room.tmj", encoding="base64", compression="zlib")
    assert load_tiled(tmp_path / "room.tmj") == m


@pytest.mark.parametrize("ext", [".tmx", ".tmj"])
def test_a_tiled_map_that_starts_with_a_byte_order_mark_is_read(tmp_path, ext):
    # a TMX with a BOM was taken for JSON ('not valid JSON'), a TMJ refused ('Unexpected UTF-8 BOM')
    m = Map(SquareGrid(5, 3))
    p = tmp_path / f"a{ext}"
    save_tiled(m, p)
    p.write_bytes(b"\xef\xbb\xbf" + p.read_bytes())
    assert load_tiled(p).shape == (3, 5)
