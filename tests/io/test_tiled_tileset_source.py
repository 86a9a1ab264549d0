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
