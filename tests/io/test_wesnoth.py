"""Battle for Wesnoth maps (``tests/data/wesnoth``: maps written for these tests in Wesnoth's format).

Costs are checked three ways: literal values worked out by hand from Wesnoth's
rules, every cell of maps that use every core code against the slow oracle of
``wesnoth_oracle.py`` (written from the rules in words over the tests' own copy
of the facts), and random maps against the same oracle.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import (HexGrid, Map, MapFileError, Marker, load_map, load_wesnoth, save_map, save_wesnoth, wesnoth_cost,
                     wesnoth_movetypes, wesnoth_terrain_name)
from wargrid.io._names import TerrainNames, free_symbols
from wargrid.io.wesnoth import WESNOTH_TERRAINS
from wargrid.terrain import TerrainTable

import wesnoth_oracle as oracle

DATA = Path(__file__).resolve().parents[1] / "data" / "wesnoth"
INF = math.inf


def mismatches(m: Map, codes: list[list[str]], units: list[str] | None = None) -> tuple[int, int]:
    """(cells x movetypes compared, how many differ from the oracle) for a board and its codes by row."""
    compared = bad = 0
    for mt in units or oracle.movetypes():
        got = m.costs(unit=mt)
        for y, row in enumerate(codes):
            for x, code in enumerate(row):
                if code.startswith("_off"):
                    assert not m.grid.contains((x, y))
                    continue
                want = oracle.cost(code, mt)
                compared += 1
                bad += got[y, x] != (INF if want == 99 else float(want))
    return compared, bad


# -- literal values, worked out by hand from Wesnoth's rules ------------------------------------------------------

@pytest.mark.parametrize(
    "code, movetype, cost",
    [
        ("Aa^Fda", "smallfoot", 3),  # snowy forest: the worse of snow (frozen 3) and forest 2
        ("Aa^Fda", "foot", 3),  # foot is smallfoot
        ("Uu^Tf", "mounted", 4),  # mushrooms on cave: the worse of cave 4 and fungus 3
        ("Ur", "mounted", 1), ("Urb", "mounted", 1), ("Ur", "smallfoot", 1),  # cave paths are flat
        ("Uu", "mounted", 4), ("Uu", "smallfoot", 2),
        ("Gs^Fds", "mounted", 3),  # -,Gt,-,Ft: worse of flat 1 and forest 3
        ("Hd^Vh", "smallfoot", 1),  # -,Dt,Ht,+,Vt: worst of sand 2 and hills 2, then best with village 1
        ("Uu^Uf", "mounted", 4),  # the old mushroom overlay ignores the base: fungus 4
        ("Mm^Xm", "fly", INF),  # -,Mt,Xt: impassable has no entry (99)
        ("Ww^Bsb|", "swimmer", 1),  # Wst,+,Gt: better of shallow water 1 and flat 2
        ("Ww^Bsb|", "smallfoot", 1), ("Ww^Bsb|", "mounted", 1),
        ("Wwf^Fp", "smallfoot", 3),  # -,Gt,Wst,-,Ft: the worst of flat, shallow water and forest
        ("Wwf", "smallfoot", 1), ("Wwf", "mounted", 1),  # ford: the best of flat and shallow water
        ("Xu", "smallfoot", INF), ("Xu", "fly", INF),  # impassable for everyone
        ("Qxu", "smallfoot", INF), ("Qxu", "fly", 1),  # unwalkable: flyers cross it
        ("Wo", "smallfoot", INF), ("Wo", "swimmer", 1),
        ("Kh", "smallfoot", 1), ("Ch", "mounted", 1), ("Gg^Vh", "mounted", 1),  # keeps, castles, villages
        ("Mm", "mounted", INF), ("Mm", "smallfoot", 3), ("Mm", "dwarvishfoot", 1),
        ("Hh^Fp", "mounted", 3), ("Hh^Fp", "woodland", 2),  # worse of hills and forest
        ("Ss", "lizard", 1), ("Dd", "dunefoot", 1),
    ],
)
def test_literal_costs(code: str, movetype: str, cost: float) -> None:
    assert wesnoth_cost(code, movetype) == cost


def test_literal_costs_on_a_board(tmp_path: Path) -> None:
    p = tmp_path / "a.map"
    p.write_text("Gg, Gg, Gg, Gg, Gg\nGg, Aa^Fda, Uu^Tf, Ur, Gg\nGg, Urb, Hd^Vh, Mm^Xm, Gg\nGg, Gg, Gg, Gg, Gg\n")
    m = load_wesnoth(p)
    assert m.costs(unit="foot").tolist() == [[3, 2, 1], [1, 1, INF]]
    assert m.costs(unit="smallfoot").tolist() == [[3, 2, 1], [1, 1, INF]]
    assert m.costs(unit="mounted").tolist() == [[3, 4, 1], [1, 1, INF]]
    assert m.costs(unit="fly").tolist() == [[1, 3, 1], [1, 1, INF]]
    assert m.terrain_name((0, 0)) == "snow" and m.overlay_name((0, 0)) == "snow__deciduous_forest_winter_snow"
    assert m.terrain_name((2, 0)) == "cave_path" and m.overlay_name((2, 0)) is None
    assert m.terrain_name((2, 1)) == "regular_mountains" and m.overlay_name((2, 1)) == "cloud"
    assert [mk.cells for mk in m.markers if mk.kind == "village"] == [((1, 1),)]


def test_classes_are_foot_then_every_core_movetype() -> None:
    m = load_wesnoth(DATA / "two_rivers.map")
    names = wesnoth_movetypes()
    assert m.terrains.classes == ("foot",) + names
    assert set(names) == set(oracle.movetypes()) and len(names) == 36
    assert {"smallfoot", "orcishfoot", "elusivefoot", "mounted", "woodland", "treefolk", "armoredfoot", "dwarvishfoot",
            "mountainfoot", "undeadfoot", "lizard", "fly", "smallfly", "float", "deepsea", "swimmer", "naga"} <= set(names)
    np.testing.assert_array_equal(m.costs(unit="foot"), m.costs(unit="smallfoot"))
    np.testing.assert_array_equal(m.costs(), m.costs(unit="foot"))  # foot is the default class


# -- every code, against the oracle ------------------------------------------------------------------------------

def test_a_map_of_every_core_code_loads_with_wesnoths_costs(tmp_path: Path) -> None:
    text = (DATA / "every_code.map").read_text()
    used = {c for row in oracle.board_codes(text) for c in row}
    for code in oracle.terrains():  # every code of the table is on the map (an overlay on some base)
        assert code in used or any(u.endswith(code) for u in used if code.startswith("^")), code
    m = load_wesnoth(DATA / "every_code.map")
    compared, bad = mismatches(m, oracle.board_codes(text))
    assert bad == 0 and compared == 36 * (len(m.grid))
    villages = {mk.cells[0] for mk in m.markers if mk.kind == "village"}
    codes = oracle.board_codes(text)
    assert villages == {(x, y) for y, row in enumerate(codes) for x, c in enumerate(row)
                        if not c.startswith("_off") and oracle.village(c)}
    save_wesnoth(m, tmp_path / "back.map")
    assert load_wesnoth(tmp_path / "back.map") == m


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mixed_maps_match_the_oracle(tmp_path: Path, seed: int) -> None:
    cells = oracle.mixed_cells(30 * 20, seed)
    text = oracle.map_text(cells, 30, seed=seed)
    p = tmp_path / "mixed.map"
    p.write_text(text)
    compared, bad = mismatches(load_wesnoth(p), oracle.board_codes(text))
    assert bad == 0 and compared == 36 * (30 * 20 - 1)


@pytest.mark.slow
def test_every_base_under_every_overlay_matches_the_oracle(tmp_path: Path) -> None:
    cells = oracle.all_pairs_cells()
    text = oracle.map_text(cells, 150, seed=4)
    p = tmp_path / "pairs.map"
    p.write_text(text)
    m = load_wesnoth(p)
    compared, bad = mismatches(m, oracle.board_codes(text))
    assert bad == 0 and compared == 36 * len(m.grid) and len(m.grid) > 19000


_CODES = st.one_of(
    st.tuples(st.sampled_from(oracle.bases()), st.sampled_from([""] + oracle.overlays())).map("".join),
    st.sampled_from(oracle.whole_pairs()),
)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6), st.integers(1, 5), st.data())
def test_random_maps_match_the_oracle(tmp_path_factory: pytest.TempPathFactory, w: int, h: int, data: st.DataObject) -> None:
    codes = [[data.draw(_CODES) for _ in range(w)] for _ in range(h)]
    rows = [["Gg"] * (w + 2)] + [["Gg"] + r + ["Gg"] for r in codes] + [["Gg"] * (w + 2)]
    p = tmp_path_factory.mktemp("w") / "r.map"
    p.write_text("".join(", ".join(r) + "\n" for r in rows))
    m = load_wesnoth(p)
    compared, bad = mismatches(m, codes)
    assert bad == 0 and compared == 36 * w * h
    assert len(m.terrains) == len({c.split("^")[0] for r in codes for c in r} | {c for r in codes for c in r if "^" in c})


# -- the two hand-made maps --------------------------------------------------------------------------------------

def test_a_two_player_map_loads_as_an_odd_q_flat_hex_board() -> None:
    m = load_wesnoth(DATA / "two_rivers.map")
    assert m.grid.shape == (10, 14) and m.grid.orientation == "flat" and m.grid.offset == "odd-q"
    assert not m.grid.contains((13, 8)) and not m.grid.contains((12, 9)) and len(m.grid) == 137  # _off^_usr
    t = m.terrain_name
    assert (t((0, 0)), t((2, 0)), t((4, 0)), t((6, 0)), t((1, 1)), t((2, 1))) == (
        "grassland", "savanna", "hills_regular", "regular_mountains", "human_keep", "human_castle")
    assert m.overlay_name((2, 0)) == "savanna__pine_forest" and m.overlay_name((6, 1)) == "cloud"
    assert (t((0, 5)), t((5, 5)), t((9, 5)), t((0, 4)), t((3, 2))) == (
        "medium_shallow_water", "ford", "deep_water_medium", "swamp_water_reed", "dirt")
    assert m.overlay_name((3, 5)) == "medium_shallow_water__bridge"
    starts = [mk for mk in m.markers if mk.kind == "start"]
    assert starts == [Marker("1", ((1, 1),), kind="start", properties={"side": 1}),
                      Marker("2", ((10, 9),), kind="start", properties={"side": 2})]
    assert sorted(mk.cells[0] for mk in m.markers if mk.kind == "village") == [(0, 3), (1, 8), (4, 1), (6, 6), (11, 1), (13, 7)]
    text = (DATA / "two_rivers.map").read_text()
    assert mismatches(m, oracle.board_codes(text))[1] == 0


def test_paths_and_ranges_run_on_it() -> None:
    m = load_wesnoth(DATA / "two_rivers.map")
    p = m.path((1, 1), (10, 9), unit="foot")
    assert p is not None and p.cells[0] == (1, 1) and p.cells[-1] == (10, 9)
    costs = m.costs(unit="foot")
    assert p.cost == sum(costs[y, x] for x, y in p.cells[1:])
    assert all(math.isfinite(costs[y, x]) for x, y in p.cells)
    horse = m.movement_range((1, 1), 4, unit="mounted")
    assert (1, 1) in horse.cells() and (6, 0) not in horse.cells()  # mountains are closed to horses
    assert m.path((1, 1), (6, 1), unit="fly") is None  # Mm^Xm: impassable even to flyers


def test_bridges_are_entered_from_any_side_at_their_cost() -> None:
    m = load_wesnoth(DATA / "two_rivers.map")
    assert m.edges is None  # Wesnoth has no per-side costs
    b = load_wesnoth(DATA / "bridges_1_12.map")  # a header and unpadded cells; '/' and '\' bridges
    assert b.grid == HexGrid(5, 4, orientation="flat", offset="odd-q") and b.markers == (Marker("3", ((2, 2),), kind="start", properties={"side": 3}),)
    assert b.edges is None
    for cell in ((1, 1), (3, 1)):
        assert "bridge" in str(b.overlay_name(cell))
        for s in b.grid.steps(cell):  # every neighbour on land steps onto the bridge at the bridge's cost
            if math.isfinite(b.costs(unit="foot")[s.cell[1], s.cell[0]]):
                r = b.path(s.cell, cell, unit="foot")
                assert r is not None and r.cost == b.costs(unit="foot")[cell[1], cell[0]]


@pytest.mark.parametrize("name", ["two_rivers.map", "bridges_1_12.map", "every_code.map"])
def test_load_save_load_is_identity(tmp_path: Path, name: str) -> None:
    m = load_wesnoth(DATA / name)
    save_wesnoth(m, tmp_path / "out.map")
    text = (tmp_path / "out.map").read_text()
    assert not text.startswith("border_size")
    assert load_wesnoth(tmp_path / "out.map") == m
    if name != "every_code.map":  # the same codes, cell for cell (whole codes like Mm^Xm stay whole)
        assert oracle.board_codes(text) == [[c.split(" ")[-1] for c in r] for r in _codes_of(DATA / name)]
    save_map(m, tmp_path / "m.wargrid.json")  # markers through wargrid's own format
    assert load_map(tmp_path / "m.wargrid.json") == m


def _codes_of(path: Path) -> list[list[str]]:
    text = path.read_text()
    lines = text.splitlines()
    while lines and ("=" in lines[0] or not lines[0].strip()):
        lines.pop(0)
    rows = [[c.strip() for c in line.split(",")] for line in lines if line.strip()]
    return [r[1:-1] for r in rows[1:-1]]


def test_hand_built_boards_save_as_typical_codes(tmp_path: Path) -> None:
    m = Map(HexGrid(3, 2, orientation="flat", offset="odd-q"), terrains=WESNOTH_TERRAINS)
    m.set_terrain([(1, 0)], "keep")
    m.set_terrain([(2, 0)], "forest")
    m.set_overlay([(0, 1)], "impassable")
    m.set_overlay([(1, 1)], "village")
    save_wesnoth(m, tmp_path / "h.map")
    codes = oracle.board_codes((tmp_path / "h.map").read_text())
    assert codes == [["Gg", "Kh", "Gs^Fp"], ["Gg^Xo", "Gg^Vh", "Gg"]]
    back = load_wesnoth(tmp_path / "h.map")
    assert back.costs(unit="smallfoot")[1, 0] == INF and back.costs(unit="mounted")[0, 2] == 3


# -- bad files ----------------------------------------------------------------------------------------------------

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
        ("Gg, Gg, Gg, Gg\nGg, Gg, Zz^Efm, Gg\nGg, Gg, Gg, Gg\n", "column 3: unknown terrain code 'Zz^Efm': its base 'Zz'", 2),
        ("Gg, Gg, Gg\nGg, Gg, Gg\nGg, Gg^Zz, Gg\nGg, Gg, Gg\n", "unknown terrain code 'Gg^Zz': its overlay '^Zz'", 3),
        ("Gg, Gg, Gg\nGg, Hh^Xm, Gg\nGg, Gg, Gg\n", "unknown terrain code 'Hh^Xm'", 2),  # ^Xm exists only whole
    ],
)
def test_bad_files_name_the_file_and_line(tmp_path: Path, text: str, words: str, line: int | None) -> None:
    p = tmp_path / "bad.map"
    p.write_text(text)
    with pytest.raises(MapFileError) as e:
        load_wesnoth(p)
    assert words in str(e.value) and str(p) in str(e.value) and e.value.line == line


def test_a_byte_order_mark_is_not_part_of_the_first_code(tmp_path: Path) -> None:
    p = tmp_path / "bom.map"
    p.write_bytes("Hh^Fp, Gg\nGg, Kh\n".encode("utf-8-sig"))
    m = load_wesnoth(p, border_size=0)
    assert m.overlay_name((0, 0)) == "hills_regular__pine_forest" and m.costs(unit="mounted")[0, 0] == 3


def test_size_is_checked_before_the_board_is_built(tmp_path: Path) -> None:
    p = tmp_path / "big.map"
    p.write_text(("Gg," * 99 + "Gg\n") * 100)
    with pytest.raises(MapFileError, match="cap of 100 cells"):
        load_wesnoth(p, max_cells=100)


def test_many_distinct_unknown_codes_fail_up_front(tmp_path: Path) -> None:
    # 36.3: 40,000 distinct unknown codes took a quadratic symbol search, then a raw OverflowError
    n = 202
    p = tmp_path / "hostile.map"
    p.write_text("".join(", ".join(f"Zz{y * n + x}" for x in range(n)) + "\n" for y in range(n)))
    with pytest.raises(MapFileError) as e:
        load_wesnoth(p)
    assert "unknown terrain code 'Zz203'" in str(e.value) and e.value.line == 2 and str(p) in str(e.value)


def test_symbols_for_many_names_are_found_in_one_pass() -> None:
    names = TerrainNames(TerrainTable.default())
    ids = [names.id(f"kind {k}") for k in range(8000)]
    assert ids == list(range(10, 8010))
    table = names.table()
    assert len({t.symbol for t in table}) == len(table) == 8010
    s = free_symbols("ab")
    assert next(s) == "c"


def test_save_refuses_other_boards_and_names_unknown_terrains(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="flat-top odd-q"):
        save_wesnoth(Map(HexGrid(3, 3, orientation="pointy")), tmp_path / "x.map")
    m = Map(HexGrid(3, 3, orientation="flat", offset="odd-q"))  # the default table: water and coast have codes
    m.set_terrain([(0, 0)], "water")
    save_wesnoth(m, tmp_path / "d.map")
    assert load_wesnoth(tmp_path / "d.map").terrain_name((0, 0)) == "deep_water_medium"  # Wo
    from wargrid import Terrain

    odd = Map(HexGrid(2, 2, orientation="flat", offset="odd-q"),
              terrains=TerrainTable([Terrain("lava-flow", "L", "#ff0000", costs={"foot": 1})]))
    with pytest.raises(ValueError, match="'lava-flow' at \\(0, 0\\) has no Wesnoth code"):
        save_wesnoth(odd, tmp_path / "o.map")
    assert not (tmp_path / "o.map").exists()


def test_cost_and_name_helpers_refuse_what_they_do_not_know() -> None:
    assert wesnoth_terrain_name("Gs^Fp") == "savanna__pine_forest" and wesnoth_terrain_name("Mm^Xm") == "cloud"
    with pytest.raises(ValueError, match="'Zz' is not a code"):
        wesnoth_terrain_name("Zz")
    with pytest.raises(ValueError, match="core terrain list, got 'Gg\\^Zz'"):
        wesnoth_cost("Gg^Zz", "smallfoot")
    with pytest.raises(ValueError, match="unknown movetype 'tank'"):
        wesnoth_cost("Gg", "tank")


def test_a_board_of_thousands_of_distinct_codes_gets_a_terrain_for_each(tmp_path: Path) -> None:
    cells = oracle.all_pairs_cells()[:3000]  # 3,000 distinct Base^Overlay codes on 22 bases
    p = tmp_path / "pairs.map"
    p.write_text(oracle.map_text(cells, 60))
    m = load_wesnoth(p)
    # the last cell is off the map; a terrain for each other code and for each base
    assert len(m.terrains) == len(cells) - 1 + len({c.split("^")[0] for c in cells[:-1]})
    assert len({t.symbol for t in m.terrains}) == len(m.terrains)
