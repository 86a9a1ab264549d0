"""Hostile Tiled files: a tileset that is a device or a pipe, CSV data with digits of other scripts."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from wargrid import MapFileError, load_tiled

TMX = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="3" height="1"
     tilewidth="32" tileheight="32" infinite="0">
 <tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="1" columns="1">
  <tile id="0"><properties><property name="terrain" value="plains"/></properties></tile>
 </tileset>
 <layer id="1" name="ground" width="3" height="1"><data encoding="csv">{data}</data></layer>
</map>
"""


def _tmj(tmp_path: Path, source: str) -> Path:
    doc = {"type": "map", "version": "1.10", "orientation": "orthogonal", "width": 2, "height": 1,
           "tilewidth": 32, "tileheight": 32, "infinite": False,
           "layers": [{"type": "tilelayer", "name": "g", "width": 2, "height": 1, "data": [1, 1]}],
           "tilesets": [{"firstgid": 1, "source": source}]}
    p = tmp_path / "m.tmj"
    p.write_text(json.dumps(doc))
    return p


def test_a_json_map_whose_tileset_is_a_device_is_refused(tmp_path: Path) -> None:
    with pytest.raises(MapFileError, match="not a regular file"):
        load_tiled(_tmj(tmp_path, "/dev/zero"), default_terrain="plains")


def test_a_json_map_whose_tileset_is_a_pipe_is_refused_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.tsj")
    with pytest.raises(MapFileError, match="pipe.tsj"):
        load_tiled(_tmj(tmp_path, "pipe.tsj"), default_terrain="plains")


@pytest.mark.parametrize("value", ["\u00b2", "\u0663", "+1", "1_0", "0x1"])
def test_csv_tile_ids_are_plain_decimals(tmp_path: Path, value: str) -> None:
    p = tmp_path / "m.tmx"
    p.write_text(TMX.format(data=f"1,1,{value}"), encoding="utf-8")
    with pytest.raises(MapFileError, match="not a tile id"):
        load_tiled(p)


def test_plain_csv_still_loads(tmp_path: Path) -> None:
    p = tmp_path / "m.tmx"
    p.write_text(TMX.format(data="1, 1,\n1"), encoding="utf-8")
    assert load_tiled(p).count("plains") == 3
