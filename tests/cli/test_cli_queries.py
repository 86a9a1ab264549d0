"""The query verbs added for a complete CLI: partition, zones, starts, area, route, table, warm-up (text and --json)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import wargrid
from wargrid import HexGrid, Map
from wargrid.cli import main, verbs


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> tuple[Map, Path]:
    """A hex map cut in two by water, with one crossing at the bottom."""
    m = Map(HexGrid(8, 6))
    m.set_terrain([(4, y) for y in range(5)], "water")
    p = tmp_path_factory.mktemp("cliq") / "b.json"
    wargrid.save_map(m, p)
    return m, p


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize("verb", verbs())
def test_every_verb_has_examples_and_exit_codes(capsys: pytest.CaptureFixture[str], verb: str) -> None:
    code, out, _ = run(capsys, verb, "--help")
    assert code == 0
    assert "examples:\n  wargrid " + verb in out and "exit codes:" in out


def test_zones(capsys, board) -> None:
    m, p = board
    code, out, _ = run(capsys, "zones", str(p))
    assert code == 0 and out.startswith("1 zones for foot")
    d = run_json(capsys, "zones", str(p), "--unit", "naval")
    assert np.array_equal(np.array(d["labels"]), m.zones(unit="naval"))
    assert d["zones"] == 1 and sum(d["sizes"].values()) == 5


def test_starts(capsys, board) -> None:
    m, p = board
    expect = m.start_positions(2, seed=3)
    code, out, _ = run(capsys, "starts", str(p), "2", "--seed", "3")
    assert code == 0 and f"player 1: {expect.cells[0][0]},{expect.cells[0][1]}" in out
    d = run_json(capsys, "starts", str(p), "2", "--seed", "3")
    assert [tuple(c) for c in d["cells"]] == list(expect.cells) and d["min_distance"] == expect.min_distance


def test_area(capsys, board) -> None:
    m, p = board
    expect = m.area("line", (0, 1), length=6, mask="terrain")
    code, out, _ = run(capsys, "area", str(p), "line", "0,1", "--length", "6", "--mask", "terrain")
    assert code == 0 and out.splitlines()[0] == f"line around (0, 1): {len(expect.cells)} cells"
    d = run_json(capsys, "area", str(p), "line", "0,1", "--length", "6", "--mask", "terrain")
    assert [tuple(c) for c in d["cells"]] == expect.cells and (4, 1) not in expect.cells
    code, _, err = run(capsys, "area", str(p), "cone", "0,1", "--length", "2")
    assert code == 1 and "width" in err
    # --radius was read as a float, and 'ring' and 'radius' refuse 2.0 ("radius must be an integer"): never usable
    for shape, radius in (("ring", 2), ("radius", 2), ("circle", 2.5)):
        d = run_json(capsys, "area", str(p), shape, "3,1", "--radius", str(radius))
        assert [tuple(c) for c in d["cells"]] == m.area(shape, (3, 1), radius=radius).cells
    code, _, err = run(capsys, "area", str(p), "ring", "3,1", "--radius", "two")
    assert code == 2 and "a radius is a number" in err


def test_route(capsys, board) -> None:
    m, p = board
    expect = m.route((0, 0), (7, 0), points_per_turn=3)
    code, out, _ = run(capsys, "route", str(p), "0,0", "7,0", "--points", "3")
    assert code == 0 and out.startswith(f"route for foot from (0, 0) to (7, 0): {expect.turns} turns")
    assert len(out.splitlines()) == 1 + expect.turns
    d = run_json(capsys, "route", str(p), "0,0", "7,0", "--points", "3")
    assert d["turns"] == expect.turns and d["turn_at"] == expect.turn_at and d["cost"] == expect.cost
    code, out, err = run(capsys, "route", str(p), "0,0", "7,0", "--points", "3", "--unit", "naval")
    assert code == 1 and out == "" and "no route" in err


def test_table(capsys, board) -> None:
    m, p = board
    code, out, _ = run(capsys, "table", str(p), "--from", "0,0", "7,0", "--to", "7,5", "4,0")
    lines = out.splitlines()
    assert code == 0 and lines[0].split() == ["7,5", "4,0"]
    expect = m.distance_table([(0, 0), (7, 0)], [(7, 5), (4, 0)])
    assert lines[1].split() == ["0,0", f"{expect[0, 0]:g}", "-"]
    d = run_json(capsys, "table", str(p), "--from", "0,0", "7,0")
    assert d["targets"] == [[0, 0], [7, 0]]
    full = m.distance_table([(0, 0), (7, 0)], [(0, 0), (7, 0)])
    assert d["costs"] == full.tolist()


@pytest.mark.xdist_group("territory")  # compiles the partition's kernels: with the territory tests
def test_partition(capsys, board) -> None:
    m, p = board
    expect = m.partition(3, seed=1)
    code, out, _ = run(capsys, "partition", str(p), "3", "--seed", "1")
    assert code == 0 and f"player 1: {int(expect.report.cells[0])} cells" in out
    d = run_json(capsys, "partition", str(p), "3", "--seed", "1")
    assert np.array_equal(np.array(d["owners"]), expect.owners) and d["cells"] == expect.report.cells.tolist()


@pytest.mark.slow
def test_warm_up(capsys) -> None:
    code, out, _ = run(capsys, "warm-up", "sight")
    assert code == 0 and out.startswith("warmed sight in ")
    assert run_json(capsys, "warm-up", "movement", "sight")["warmed"] == ["movement", "sight"]
    code, _, err = run(capsys, "warm-up", "flying")
    assert code == 2 and "invalid choice" in err


def test_generate_convert_render_json(capsys, tmp_path: Path) -> None:
    out = tmp_path / "g.json"
    d = run_json(capsys, "generate", str(out), "--size", "9x7", "--seed", "4")
    m = wargrid.load_map(out)
    assert d["wrote"] == str(out) and (d["width"], d["height"]) == (9, 7) and d["cells"]["water"] == m.count("water")
    d = run_json(capsys, "convert", str(out), str(tmp_path / "g.tmx"))
    assert d["wrote"].endswith("g.tmx") and d["kind"] == m.grid.kind
    d = run_json(capsys, "render", str(out), str(tmp_path / "g.svg"), "--coordinates")
    assert d == {"wrote": str(tmp_path / "g.svg"), "overlays": ["Coordinates"]}
