"""wargrid's own map file: round trips, atomic writes, bad files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import wargrid
from wargrid import HexGrid, Map, MapFileError, SquareGrid, Terrain, TerrainTable, load_map, save_map

from io_maps import maps

_S = settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])


@_S
@given(m=maps())
def test_json_round_trip(tmp_path: Path, m: Map) -> None:
    p = tmp_path / "m.wargrid.json"
    save_map(m, p)
    assert load_map(p) == m


@_S
@given(m=maps())
def test_npz_round_trip(tmp_path: Path, m: Map) -> None:
    p = tmp_path / "m.npz"
    save_map(m, p)
    back = load_map(p)
    assert back == m
    assert back.grid.describe() == m.grid.describe()


def test_json_is_readable(tmp_path: Path) -> None:
    m = Map(HexGrid(4, 2, orientation="pointy"))
    m.set_terrain([(1, 0)], "forest")
    m.set_overlay([(2, 1)], "road")
    p = tmp_path / "a.json"
    save_map(m, p)
    d = json.loads(p.read_text())
    assert d["format"] == "wargrid-map"
    assert d["grid"] == {"kind": "hex", "width": 4, "height": 2, "wrap_x": False, "orientation": "pointy", "offset": "odd-r"}
    assert d["layers"]["terrain"] == [".f..", "...."]
    assert d["layers"]["overlay"] == ["    ", "  = "]


def test_custom_terrain_table_round_trip(tmp_path: Path) -> None:
    t = TerrainTable([Terrain("floor", '"', "#dddddd", costs={"walk": 1}), Terrain("wall", "\\", "#333333", blocks_sight=True)])
    m = Map(SquareGrid(3, 2, diagonal=True), terrains=t, terrain=np.array([[0, 1, 0], [1, 0, 0]]))
    save_map(m, tmp_path / "c.json")
    assert load_map(tmp_path / "c.json") == m


def test_generated_board_round_trip(tmp_path: Path) -> None:
    m = wargrid.generate(30, 20, seed=5)
    for name in ("g.json", "g.npz"):
        save_map(m, tmp_path / name)
        assert load_map(tmp_path / name) == m


def _half_written(f, *args, **kwargs) -> None:
    f.write(b"PK\x03\x04 half a file")
    raise ValueError("the disk is full")


def test_failed_write_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(np, "savez_compressed", _half_written)
    p = tmp_path / "bad.npz"
    with pytest.raises(ValueError, match="disk is full"):
        save_map(Map(SquareGrid(3, 3)), p)
    assert os.listdir(tmp_path) == []


def test_failed_write_keeps_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = tmp_path / "keep.npz"
    save_map(Map(SquareGrid(2, 2)), p)
    before = p.read_bytes()
    monkeypatch.setattr(np, "savez_compressed", _half_written)
    with pytest.raises(ValueError, match="disk is full"):
        save_map(Map(SquareGrid(3, 3)), p)
    assert p.read_bytes() == before
    assert os.listdir(tmp_path) == ["keep.npz"]


def test_layers_are_read_only_so_no_unsavable_map_can_be_made() -> None:
    m = Map(SquareGrid(3, 3))
    with pytest.raises(ValueError, match="read-only"):
        m.terrain[0, 0] = 1
    with pytest.raises(ValueError, match="finite"):
        m.set_elevation(np.array([[np.nan] * 3] * 3))


def _good(tmp_path: Path) -> dict:
    save_map(Map(HexGrid(3, 2)), tmp_path / "g.json")
    return json.loads((tmp_path / "g.json").read_text())


@pytest.mark.parametrize(
    "mutate, words",
    [
        (lambda d: d["layers"].__setitem__("terrain", ["...", ".."]), "row 1"),
        (lambda d: d["layers"].__setitem__("terrain", ["...", ".Q."]), "unknown terrain symbol 'Q'"),
        (lambda d: d["grid"].__setitem__("width", 0), "width"),
        (lambda d: d["grid"].update(width=100000, height=100000), "cap"),
        (lambda d: d["grid"].__setitem__("kind", "triangle"), "kind"),
        (lambda d: d.__setitem__("format", "other"), "not a wargrid map"),
        (lambda d: d.__setitem__("version", 99), "version"),
        (lambda d: d["layers"].__setitem__("edges", [[0, 0, 9, 1]]), "edges[0]"),
        (lambda d: d["layers"].__setitem__("edges", [[0, 0, 1, -1]]), "edges[0]"),
        (lambda d: d.pop("terrains"), "terrains"),
    ],
)
def test_bad_json_content(tmp_path: Path, mutate, words: str) -> None:
    d = _good(tmp_path)
    mutate(d)
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(d))
    with pytest.raises(MapFileError) as e:
        load_map(p)
    assert str(p) in str(e.value) and words in str(e.value)


def test_broken_json_names_line(tmp_path: Path) -> None:
    p = tmp_path / "t.json"
    p.write_text('{\n "format": "wargrid-map",\n "version": 1,\n')
    with pytest.raises(MapFileError) as e:
        load_map(p)
    assert e.value.path == str(p) and e.value.line == 4


def test_binary_and_truncated_npz(tmp_path: Path) -> None:
    p = tmp_path / "b.npz"
    save_map(Map(SquareGrid(20, 20)), p)
    p.write_bytes(p.read_bytes()[:100])
    with pytest.raises(MapFileError, match="b.npz"):
        load_map(p)
    q = tmp_path / "x.json"
    q.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(MapFileError, match="x.json"):
        load_map(q)


def test_npz_huge_declared_array(tmp_path: Path) -> None:
    p = tmp_path / "h.npz"
    m = Map(SquareGrid(4, 4))
    save_map(m, p)
    header = json.dumps({"format": "wargrid-map", "version": 1, "grid": {"kind": "square", "width": 4, "height": 4},
                         "terrains": m.terrains.to_dict()})
    np.savez_compressed(p, header=np.array(header), terrain=np.zeros((2000, 2000), dtype=np.int16))
    with pytest.raises(MapFileError, match="cap"):
        load_map(p, max_cells=1000)


def test_missing_file() -> None:
    with pytest.raises(MapFileError, match="nope.json"):
        load_map("nope.json")


def test_a_json_map_that_starts_with_a_byte_order_mark_is_read(tmp_path):
    # Windows editors write a UTF-8 BOM: it was refused ('not valid JSON: Unexpected UTF-8 BOM')
    m = Map(SquareGrid(5, 3))
    p = tmp_path / "a.json"
    save_map(m, p)
    p.write_bytes(b"\xef\xbb\xbf" + p.read_bytes())
    assert load_map(p).shape == (3, 5)
