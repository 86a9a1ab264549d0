"""An external tileset is read only from a regular file of bounded size."""

from __future__ import annotations

from pathlib import Path

import pytest

import wargrid

TMX = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="2" height="1"
     tilewidth="32" tileheight="32" infinite="0">
 <tileset firstgid="1" source="{source}"/>
 <layer id="1" name="ground" width="2" height="1"><data encoding="csv">1,1</data></layer>
</map>
"""


def write(tmp_path: Path, source: str) -> Path:
    p = tmp_path / "m.tmx"
    p.write_text(TMX.format(source=source), encoding="utf-8")
    return p


def test_device_as_tileset_is_refused(tmp_path: Path) -> None:
    with pytest.raises(wargrid.MapFileError, match="not a regular file") as info:
        wargrid.load_tiled(write(tmp_path, "/dev/zero"))
    assert "m.tmx" in str(info.value)


def test_oversized_tileset_is_refused(tmp_path: Path) -> None:
    (tmp_path / "big.tsx").write_bytes(b"<tileset>" + b" " * (9 << 20) + b"</tileset>")
    with pytest.raises(wargrid.MapFileError, match="larger than"):
        wargrid.load_tiled(write(tmp_path, "big.tsx"))


def test_missing_tileset_names_the_map(tmp_path: Path) -> None:
    with pytest.raises(wargrid.MapFileError, match="m.tmx"):
        wargrid.load_tiled(write(tmp_path, "nowhere.tsx"))


def test_a_tileset_that_starts_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    tsx = '<tileset name="t" tilewidth="32" tileheight="32"><tile id="0"><properties><property name="terrain" ' \
          'value="plains"/></properties></tile></tileset>'
    (tmp_path / "t.tsx").write_bytes(b"\xef\xbb\xbf" + tsx.encode())
    (tmp_path / "t.tsj").write_bytes(b"\xef\xbb\xbf" + b'{"name": "t", "tilewidth": 32, "tileheight": 32, "tiles": '
                                                   b'[{"id": 0, "properties": [{"name": "terrain", "type": "string", "value": "plains"}]}]}')
    assert wargrid.load_tiled(write(tmp_path, "t.tsx")).shape == (1, 2)
    assert wargrid.load_tiled(write(tmp_path, "t.tsj")).shape == (1, 2)
