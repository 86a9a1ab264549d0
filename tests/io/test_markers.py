"""``Map.markers`` and ``Map.properties``: set when built, part of equality, pickling, copies and files."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from wargrid import CellError, HexGrid, Map, Marker, SquareGrid, load_map, load_tiled, save_map


def test_markers_and_properties_ride_with_the_map(tmp_path: Path) -> None:
    mk = Marker("red", [(1, 2), (2, 2)], kind="spawn", properties={"player": 1, "ai": False, "gold": 2.5, "name": "Ann"})
    m = Map(HexGrid(5, 4), markers=[mk], properties={"author": "me", "turns": 30})
    assert m.markers == (mk,) and mk.cells == ((1, 2), (2, 2))
    assert dict(m.properties) == {"author": "me", "turns": 30}
    with pytest.raises(TypeError):
        m.properties["author"] = "you"  # type: ignore[index]
    assert pickle.loads(pickle.dumps(m)) == m and m.copy() == m
    assert Map(HexGrid(5, 4), markers=[mk]) != m and Map(HexGrid(5, 4), properties=dict(m.properties)) != m
    for name in ("m.wargrid.json", "m.npz"):
        save_map(m, tmp_path / name)
        assert load_map(tmp_path / name) == m


def test_bad_markers_are_refused() -> None:
    with pytest.raises(CellError, match="marker 'x' cell"):
        Map(SquareGrid(3, 3), markers=[Marker("x", ((5, 5),))])
    with pytest.raises(TypeError, match="Marker objects"):
        Map(SquareGrid(3, 3), markers=[("x", ((0, 0),))])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="str, int, float or bool"):
        Marker("x", ((0, 0),), properties={"where": [1, 2]})
    with pytest.raises(TypeError, match="str, int, float or bool"):
        Map(SquareGrid(3, 3), properties={"nested": {"a": 1}})


def test_xml_tile_elements_are_read(tmp_path: Path) -> None:
    tiles = "".join(f'<tile gid="{g}"/>' for g in (1, 2, 2, 1))
    p = tmp_path / "x.tmx"
    p.write_text('<?xml version="1.0"?><map orientation="orthogonal" width="2" height="2" tilewidth="8" tileheight="8">'
                 '<tileset firstgid="1" name="t" tilewidth="8" tileheight="8"><tile id="0" class="hills"/>'
                 '<tile id="1" type="water"/></tileset>'
                 f'<layer name="g" width="2" height="2"><data>{tiles}</data></layer></map>')
    m = load_tiled(p)
    assert [[m.terrain_name((x, y)) for x in range(2)] for y in range(2)] == [["hills", "water"], ["water", "hills"]]
