"""Moving AI .map/.scen reading and writing, and the benchmark's optimal lengths."""

from __future__ import annotations

import math
from pathlib import Path as FilePath

import numpy as np
import pytest

from wargrid import Map, MapFileError, SquareGrid, load_movingai, load_movingai_scenarios, save_movingai, save_movingai_scenarios
from wargrid.errors import ArgumentError
from wargrid.io.movingai import MAX_MOVINGAI_CELLS, MOVINGAI_TERRAINS, Scenario
from wargrid.movement import shortest_path

DATA = FilePath(__file__).resolve().parents[1] / "data" / "movingai"
MAPS = sorted(p.name for p in DATA.glob("*.map"))


def _tolerance(name: str) -> float:
    # the HOG2 maze file prints 6 significant digits (README: up to 0.0051 off)
    return 0.01 if name.startswith("maze") else 1e-4


def _check(name: str, scenarios) -> None:
    m = load_movingai(DATA / name)
    cd = m.cost_field()
    tol = _tolerance(name)
    for s in scenarios:
        assert s.map.endswith(name) and (s.width, s.height) == (m.width, m.height)
        for search in ("auto", "astar", "jps"):
            p = shortest_path(m.grid, cd, s.start, s.goal, search=search)
            assert p is not None, (name, s)
            assert abs(p.cost - s.optimal) <= tol, (name, search, s, p.cost)


def test_data_is_there():
    assert len(MAPS) == 8


@pytest.mark.parametrize("name", MAPS)
def test_sample_of_every_map(name):
    """A sample of every map; every scenario is checked by ``benchmarks/check_movingai.py`` (minutes)."""
    sc = load_movingai_scenarios(DATA / (name + ".scen"))
    # every 10th bucket's first problem, and the longest problem
    sample = [s for s in sc[::100]] + [sc[-1]]
    _check(name, sample)


def test_reader_rules(tmp_path):
    f = tmp_path / "t.map"
    f.write_text("type octile\nheight 3\nwidth 4\nmap\n.GS@\nOTW.\n....\n")
    m = load_movingai(f)
    assert m.grid == SquareGrid(4, 3, diagonal=True, corner_rule="no-obstacle")
    assert m.passable().tolist() == [[True, True, True, False], [False, False, False, True], [True] * 4]
    assert m.terrains is MOVINGAI_TERRAINS and m.terrain_name((1, 0)) == "grass"
    assert m.path((0, 0), (2, 0)).cost == 2.0


def test_round_trip(tmp_path):
    src = DATA / "arena.map"
    m = load_movingai(src)
    out = tmp_path / "arena.map"
    save_movingai(m, out)
    assert out.read_bytes().replace(b"\r\n", b"\n") == src.read_bytes().replace(b"\r\n", b"\n")
    assert load_movingai(out) == m
    sc = load_movingai_scenarios(str(src) + ".scen")
    save_movingai_scenarios(sc, tmp_path / "a.scen")
    back = load_movingai_scenarios(tmp_path / "a.scen")
    assert [(s.bucket, s.start, s.goal) for s in back] == [(s.bucket, s.start, s.goal) for s in sc]
    assert all(abs(a.optimal - b.optimal) < 1e-8 for a, b in zip(back, sc))


def test_save_other_maps_by_passability(tmp_path):
    m = Map(SquareGrid(3, 1))
    m.set_terrain([(1, 0)], "water")
    save_movingai(m, tmp_path / "w.map")
    assert (tmp_path / "w.map").read_text().splitlines()[-1] == ".@."
    with pytest.raises(TypeError, match="SquareGrid"):
        from wargrid import HexGrid

        save_movingai(Map(HexGrid(2, 2)), tmp_path / "h.map")


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("type hex\nheight 1\nwidth 1\nmap\n.\n", 1, "type octile"),
        ("type octile\nheight x\nwidth 1\nmap\n.\n", 2, "height must be an integer"),
        ("type octile\nheight 1\nwidth 0\nmap\n.\n", 3, "width must be >= 1"),
        ("type octile\nheight 1\nwidth 1\nmop\n.\n", 4, "expected 'map'"),
        ("type octile\nheight 2\nwidth 2\nmap\n..\n.\n", 6, "row 1 has 1 characters"),
        ("type octile\nheight 2\nwidth 2\nmap\n..\n", 6, "ends after 1 of 2 rows"),
        ("type octile\nheight 1\nwidth 2\nmap\n.x\n", 5, "unknown terrain 'x' at x=1"),
        ("type octile\nheight 1\nwidth 2\nmap\n..\n..\n", 6, "unexpected text"),
        (f"type octile\nheight {MAX_MOVINGAI_CELLS}\nwidth 2\nmap\n..\n", 3, "past the limit"),
    ],
)
def test_malformed_map(tmp_path, text, line, words):
    f = tmp_path / "bad.map"
    f.write_text(text)
    with pytest.raises(ValueError, match=f"bad.map:{line}: .*{words}"):
        load_movingai(f)


def test_binary_map(tmp_path):
    f = tmp_path / "bin.map"
    f.write_bytes(b"type octile\nheight 1\nwidth 1\nmap\n\xff\n")
    with pytest.raises(ValueError, match="bin.map"):
        load_movingai(f)


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("version 2\n", 1, "version 1"),
        ("", 1, "empty file"),
        ("version 1\n0\ta.map\t4\t4\t0\t0\t3\n", 2, "9 fields"),
        ("version 1\n0\ta.map\t4\t4\t0\tq\t3\t0\t3.0\n", 2, "start_y must be an integer"),
        ("version 1\n0\ta.map\t4\t4\t0\t0\t3\t0\tfar\n", 2, "optimal length must be a number"),
        ("version 1\n0\ta.map\t4\t4\t0\t0\t3\t0\t1\n0\ta.map\t4\t4\t0\t0\t4\t0\t3.0\n", 3, "goal"),
        ("version 1\n0\ta.map\t4\t4\t0\t0\t3\t0\tnan\n", 2, "finite"),
    ],
)
def test_malformed_scenarios(tmp_path, text, line, words):
    f = tmp_path / "bad.scen"
    f.write_text(text)
    with pytest.raises(ValueError, match=f"bad.scen:{line}: .*{words}"):
        load_movingai_scenarios(f)


def test_scenario_fields():
    sc = load_movingai_scenarios(DATA / "arena.map.scen")
    assert sc[0] == Scenario(0, "arena.map", 49, 49, (19, 26), (19, 29), 3.0)
    assert len(sc) == 130 and math.isclose(sc[1].optimal, 2.41421356)
    with pytest.raises(MapFileError, match="nope.map: cannot read: No such file"):
        load_movingai(DATA / "nope.map")
    assert np.all(load_movingai(DATA / "arena.map").passable().sum() == 2054)


def test_files_that_start_with_a_byte_order_mark_are_read(tmp_path):
    # refused before: 'not an ASCII Moving AI map', "expected 'version 1', got '\ufeffversion 1'"
    bom = b"\xef\xbb\xbf"
    (tmp_path / "a.map").write_bytes(bom + b"type octile\nheight 1\nwidth 3\nmap\n.@.\n")
    assert load_movingai(tmp_path / "a.map").shape == (1, 3)
    (tmp_path / "a.scen").write_bytes(bom + b"version 1\n0\ta.map\t3\t1\t0\t0\t2\t0\t2\n")
    assert load_movingai_scenarios(tmp_path / "a.scen")[0].goal == (2, 0)


@pytest.mark.parametrize("third, end, first", [("0\t0\t3\t3", "start (0, 0)", 2), ("3\t3\t2\t2", "goal (2, 2)", 3)])
def test_agents_sharing_a_start_or_a_goal_are_named_with_their_lines(tmp_path, third, end, first):
    from wargrid.io import load_movingai_agents

    p = tmp_path / "a.scen"
    p.write_text(f"version 1\n0\ta.map\t4\t4\t0\t0\t3\t0\t3\n0\ta.map\t4\t4\t1\t1\t2\t2\t2\n\n0\ta.map\t4\t4\t{third}\t2\n")
    assert load_movingai_agents(p, agents=2) == ([(0, 0), (1, 1)], [(3, 0), (2, 2)])
    with pytest.raises(MapFileError, match=rf"a\.scen:5: agent 2's {end.replace('(', '[(]').replace(')', '[)]')} is "
                                           rf"agent {first - 2}'s .* too \(line {first}\)"):
        load_movingai_agents(p, agents=3)


@pytest.mark.parametrize("scenario, match", [
    (Scenario(0, "a.map", 4, 4, (0, 0), (1, 1), math.nan), "optimal length must be a number"),  # 'nan' was written
    (Scenario(0, "a.map", -1, 4, (0, 0), (1, 1), 1.0), "width must be an integer"),
    (Scenario(0, "a.map", 4, 4, (9, 0), (1, 1), 1.0), r"start \(9, 0\) is outside the 4 x 4 map"),
    (Scenario(0, "a\nb.map", 4, 4, (0, 0), (1, 1), 1.0), "map must be a file name on one line"),
])
def test_save_scenarios_refuses_what_would_not_read_back(tmp_path, scenario, match):
    good = Scenario(0, "a.map", 4, 4, (0, 0), (1, 1), 1.0)
    with pytest.raises(ArgumentError, match=rf"scenarios\[1\] cannot be written so that it reads back: {match}"):
        save_movingai_scenarios([good, scenario], tmp_path / "a.scen")
    assert not (tmp_path / "a.scen").exists()
