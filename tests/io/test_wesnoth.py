"""Battle for Wesnoth maps (``tests/data/wesnoth``, written for these tests in Wesnoth's format)."""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import numpy as np
import pytest

from wargrid import HexGrid, Map, MapFileError, Marker, load_map, load_wesnoth, save_map, save_wesnoth
from wargrid.io.errors import MapFileWarning
from wargrid.io.wesnoth import WESNOTH_TERRAINS

DATA = Path(__file__).resolve().parents[1] / "data" / "wesnoth"


def test_a_two_player_map_loads_as_an_odd_q_flat_hex_board() -> None:
    m = load_wesnoth(DATA / "two_rivers.map")
    assert m.grid.shape == (10, 14) and m.grid.orientation == "flat" and m.grid.offset == "odd-q"
    assert not m.grid.contains((13, 8)) and not m.grid.contains((12, 9)) and len(m.grid) == 137  # _off^_usr
    assert m.terrains == WESNOTH_TERRAINS
    t = m.terrain_name
    assert (t((0, 0)), t((2, 0)), t((4, 0)), t((6, 0)), t((1, 1)), t((2, 1))) == ("plains", "plains", "hills", "mountains", "keep", "castle")
    assert m.overlay_name((2, 0)) == "forest" and m.overlay_name((6, 1)) == "impassable"
    assert (t((0, 5)), t((5, 5)), t((9, 5)), t((0, 4)), t((3, 2))) == ("shallow_water", "ford", "deep_water", "swamp", "road")
    assert m.overlay_name((3, 5)) == "bridge" and t((3, 5)) == "shallow_water"
    starts = [mk for mk in m.markers if mk.kind == "start"]
    assert starts == [Marker("1", ((1, 1),), kind="start", properties={"side": 1}),
                      Marker("2", ((10, 9),), kind="start", properties={"side": 2})]
    assert sorted(mk.cells[0] for mk in m.markers if mk.kind == "village") == [(0, 3), (1, 8), (4, 1), (6, 6), (11, 1), (13, 7)]
    assert all(m.overlay_name(mk.cells[0]) == "village" for mk in m.markers if mk.kind == "village")


def test_paths_and_ranges_run_on_it() -> None:
    m = load_wesnoth(DATA / "two_rivers.map")
    p = m.path((1, 1), (10, 9), unit="foot")
    assert p is not None and p.cells[0] == (1, 1) and p.cells[-1] == (10, 9)
    costs = m.costs(unit="foot")
    assert p.cost == sum(costs[y, x] for x, y in p.cells[1:])
    assert all(math.isfinite(costs[y, x]) for x, y in p.cells)
    river = [c for c in p.cells if c[1] == 5]
    assert river and all(m.terrain_name(c) in ("ford",) or m.overlay_name(c) == "bridge" for c in river)
    horse = m.movement_range((1, 1), 4, unit="mounted")
    assert (1, 1) in horse.cells() and (6, 0) not in horse.cells()  # mountains are closed to horses
    assert m.path((1, 1), (6, 1), unit="fly") is None  # ^Xm: impassable even to flyers


def test_bridges_join_only_the_two_cells_they_span() -> None:
    m = load_wesnoth(DATA / "two_rivers.map")
    # a '|' bridge: up and down are open, the four slanted sides are walls (both ways)
    for x in (3, 10):
        nbs = {s.cell: s.direction for s in m.grid.steps((x, 5))}
        open_ = {c for c, d in nbs.items() if not math.isinf(m.edges[5, x, d])}
        assert open_ == {(x, 4), (x, 6)}
        for c in set(nbs) - open_:
            back = next(s.direction for s in m.grid.steps(c) if s.cell == (x, 5))
            assert math.isinf(m.edges[c[1], c[0], back])
    b = load_wesnoth(DATA / "bridges_1_12.map")  # a header and unpadded cells; '/' and '\' bridges
    assert b.grid == HexGrid(5, 4, orientation="flat", offset="odd-q") and b.markers == (Marker("3", ((2, 2),), kind="start", properties={"side": 3}),)

    def open_sides(cell):
        return {s.cell for s in b.grid.steps(cell) if not math.isinf(b.edges[cell[1], cell[0], s.direction])}

    # (1, 1) sits in an odd (lowered) column: NE is (2, 1), SW is (0, 2); (3, 1) likewise: NW (2, 1), SE (4, 2)
    assert open_sides((1, 1)) == {(2, 1), (0, 2)}
    assert open_sides((3, 1)) == {(2, 1), (4, 2)}


@pytest.mark.parametrize("name", ["two_rivers.map", "bridges_1_12.map"])
def test_load_save_load_is_identity(tmp_path: Path, name: str) -> None:
    m = load_wesnoth(DATA / name)
    save_wesnoth(m, tmp_path / "out.map")
    text = (tmp_path / "out.map").read_text()
    assert not text.startswith("border_size") and "1 Kh" in text or "3 Kh" in text
    assert load_wesnoth(tmp_path / "out.map") == m
    save_map(m, tmp_path / "m.wargrid.json")  # markers and the bridge edges through wargrid's own format
    assert load_map(tmp_path / "m.wargrid.json") == m


def test_unknown_codes_scenery_and_border_options(tmp_path: Path) -> None:
    p = tmp_path / "u.map"
    p.write_text("Gg, Gg, Gg\nGg, Zz^Efm, Gg\nGg, Gg, Gg\n")
    with pytest.warns(MapFileWarning) as w:
        m = load_wesnoth(p)
    text = " ".join(str(x.message) for x in w)
    assert "Zz" in text and "^Efm" in text
    assert m.terrain_name((0, 0)) == "Zz" and m.overlay_name((0, 0)) is None
    save_wesnoth(m, tmp_path / "u2.map")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MapFileWarning)
        assert load_wesnoth(tmp_path / "u2.map") == m
        whole = load_wesnoth(p, border_size=0)
    assert whole.shape == (3, 3)


@pytest.mark.parametrize(
    "text, words, line",
    [
        ("Gg, Gg\nGg\n", "a row has 1 cells", 2),
        ("Gg, Gg, Gg\nGg, G!g, Gg\nGg, Gg, Gg\n", "'G!g' is not a terrain code", 2),
        ("border_size=2\n\nGg\n", "border_size must be 0 or 1", 1),
        ("usage=mask\nborder_size=0\n\nGg\n", "not a map", 1),
        ("Gg, Gg\nGg, Gg\n", "no board is left", None),
        ("border_size=1\nusage=map\n\n", "no rows", None),
        ("Gg, Gg, Gg\nGg, _off^_usr, Gg\nGg, Gg, Gg\n", "every cell is off the map", None),
    ],
)
def test_bad_files_name_the_file_and_line(tmp_path: Path, text: str, words: str, line: int | None) -> None:
    p = tmp_path / "bad.map"
    p.write_text(text)
    with pytest.raises(MapFileError) as e:
        load_wesnoth(p)
    assert words in str(e.value) and str(p) in str(e.value) and e.value.line == line


def test_size_is_checked_before_the_board_is_built(tmp_path: Path) -> None:
    p = tmp_path / "big.map"
    p.write_text(("Gg," * 99 + "Gg\n") * 100)
    with pytest.raises(MapFileError, match="cap of 100 cells"):
        load_wesnoth(p, max_cells=100)


def test_save_refuses_other_boards_and_names_unknown_terrains(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="flat-top odd-q"):
        save_wesnoth(Map(HexGrid(3, 3, orientation="pointy")), tmp_path / "x.map")
    m = Map(HexGrid(3, 3, orientation="flat", offset="odd-q"))  # the default table: water and coast have codes
    m.set_terrain([(0, 0)], "water")
    save_wesnoth(m, tmp_path / "d.map")
    assert load_wesnoth(tmp_path / "d.map").terrain_name((0, 0)) == "deep_water"
    from wargrid import Terrain, TerrainTable

    odd = Map(HexGrid(2, 2, orientation="flat", offset="odd-q"),
              terrains=TerrainTable([Terrain("lava-flow", "L", "#ff0000", costs={"foot": 1})]))
    with pytest.raises(ValueError, match="'lava-flow' at \\(0, 0\\) has no Wesnoth code"):
        save_wesnoth(odd, tmp_path / "o.map")
    assert not (tmp_path / "o.map").exists()
