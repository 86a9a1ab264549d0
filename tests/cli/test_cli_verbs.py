"""Every verb run as a subprocess (its help in this process), with its error paths: exit codes 0 / 1 / 2, one line
on stderr."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import wargrid
from wargrid import HexGrid, Map
from wargrid.cli import main

MOVINGAI = Path(__file__).resolve().parents[1] / "data" / "movingai"


def wargrid_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "wargrid", *args], capture_output=True, text=True, timeout=600)


def one_clean_line(r: subprocess.CompletedProcess) -> str:
    assert "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    return lines[0]


@pytest.fixture(scope="module")
def board(tmp_path_factory) -> Path:
    """A small hand-made hex map: a water wall with one gap."""
    m = Map(HexGrid(8, 6))
    m.set_terrain([(4, y) for y in range(5)], "water")
    m.set_overlay([(0, 0), (1, 0)], "road")
    p = tmp_path_factory.mktemp("cli") / "b.json"
    wargrid.save_map(m, p)
    return p


@pytest.mark.parametrize("verb", ["demo", "generate", "render", "path", "range", "convert", "bench"])
def test_help_of_every_verb(capsys, verb: str) -> None:
    # the parser in this process (a Python start and import each, 2 CPU s, were the test's whole cost): ``wargrid
    # --help`` and a verb's usage error run as subprocesses in test_cli_demo.py
    assert main([verb, "--help"]) == 0 and "usage: wargrid " + verb in capsys.readouterr().out


def test_generate_then_render_png(tmp_path: Path) -> None:
    out = tmp_path / "g.npz"
    r = wargrid_cli("generate", str(out), "--size", "20x12", "--seed", "5", "--kind", "square", "--diagonal",
                    "--picture", str(tmp_path / "g.svg"))
    assert r.returncode == 0, r.stderr
    m = wargrid.load_map(out)
    assert m == wargrid.generate(20, 12, seed=5, kind="square", diagonal=True)
    assert ET.parse(tmp_path / "g.svg").getroot().tag.endswith("svg")
    r = wargrid_cli("render", str(out), str(tmp_path / "g.png"), "--cell-size", "8")
    assert r.returncode == 0, r.stderr
    assert Image.open(tmp_path / "g.png").size == (20 * 8 + 8, 12 * 8 + 8)


@pytest.mark.slow
def test_path_json_and_text(board: Path) -> None:
    r = wargrid_cli("path", str(board), "0,0", "7,0", "--json", "--unit", "foot")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["found"] and d["cells"][0] == [0, 0] and d["cells"][-1] == [7, 0]
    m = wargrid.load_map(board)
    assert d["cost"] == m.path((0, 0), (7, 0), unit="foot").cost
    assert [4, 5] in d["cells"]  # through the gap
    r = wargrid_cli("path", str(board), "0,0", "7,0")
    assert r.returncode == 0 and "cost" in r.stdout


def test_path_unreachable_is_exit_1(board: Path) -> None:
    r = wargrid_cli("path", str(board), "0,0", "4,0", "--json")
    assert r.returncode == 1
    assert json.loads(r.stdout)["found"] is False
    assert "no path" in one_clean_line(r)


@pytest.mark.slow
def test_path_errors(board: Path, tmp_path: Path) -> None:
    r = wargrid_cli("path", str(board), "0,0", "99,0")
    assert r.returncode == 1 and "goal" in one_clean_line(r)
    r = wargrid_cli("path", str(board), "0,0", "banana")
    assert r.returncode == 2 and "x,y" in one_clean_line(r)
    r = wargrid_cli("path", str(board), "0,0", "1,0", "--unit", "dragon")
    assert r.returncode == 1 and "dragon" in one_clean_line(r)
    r = wargrid_cli("path", str(tmp_path / "missing.json"), "0,0", "1,0")
    assert r.returncode == 1 and "missing.json" in one_clean_line(r)
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    r = wargrid_cli("path", str(bad), "0,0", "1,0")
    assert r.returncode == 1 and "bad.json:1" in one_clean_line(r)


@pytest.mark.slow
def test_range_json(board: Path) -> None:
    r = wargrid_cli("range", str(board), "0,0", "4", "--json", "--unit", "cavalry")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    got = {tuple(c["cell"]): c["cost"] for c in d["cells"]}
    m = wargrid.load_map(board)
    want = m.distance_field((0, 0), unit="cavalry", max_cost=4)
    ys, xs = np.nonzero(np.isfinite(want))
    assert got == {(int(x), int(y)): float(want[y, x]) for x, y in zip(xs, ys)}
    assert all(c["left"] == 4 - c["cost"] for c in d["cells"])
    r = wargrid_cli("range", str(board), "0,0", "-3")
    assert r.returncode == 2 and "BUDGET" in one_clean_line(r)


@pytest.mark.slow
def test_convert_round_trip_and_errors(board: Path, tmp_path: Path) -> None:
    tmx = tmp_path / "b.tmx"
    r = wargrid_cli("convert", str(board), str(tmx), "--encoding", "base64", "--compression", "gzip")
    assert r.returncode == 0, r.stderr
    back = tmp_path / "c.json"
    assert wargrid_cli("convert", str(tmx), str(back)).returncode == 0
    assert wargrid.load_map(back) == wargrid.load_map(board)
    r = wargrid_cli("convert", str(board), str(tmp_path / "x.docx"))
    assert r.returncode == 2 and "OUT" in one_clean_line(r)
    evil = tmp_path / "evil.tmx"
    evil.write_text('<?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]><map>&x;</map>')
    r = wargrid_cli("convert", str(evil), str(tmp_path / "e.json"))
    assert r.returncode == 1 and "evil.tmx" in one_clean_line(r)
    assert not (tmp_path / "e.json").exists()


def test_convert_movingai(tmp_path: Path) -> None:
    out = tmp_path / "arena.json"
    r = wargrid_cli("convert", str(MOVINGAI / "arena.map"), str(out))
    assert r.returncode == 0, r.stderr
    assert wargrid.load_map(out).shape == (49, 49)


@pytest.mark.slow
def test_render_errors(board: Path, tmp_path: Path) -> None:
    r = wargrid_cli("render", str(board), str(tmp_path / "x.gif"))
    assert r.returncode == 2 and ".svg or .png" in one_clean_line(r)
    r = wargrid_cli("render", str(board), str(tmp_path / "x.svg"), "--path", "0,0", "4,0")
    assert r.returncode == 1 and "no path" in one_clean_line(r)
    r = wargrid_cli("render", str(board), str(tmp_path / "y.svg"), "--path", "0,0", "7,0", "--zones", "--range", "0,0")
    assert r.returncode == 0, r.stderr
    names = {g.get("data-overlay") for g in ET.parse(tmp_path / "y.svg").getroot().iter() if g.get("data-overlay")}
    assert {"path", "regions", "values"} <= names


@pytest.mark.slow
def test_bench_movingai() -> None:
    r = wargrid_cli("bench", "movingai", str(MOVINGAI / "arena.map.scen"), "--limit", "30")
    assert r.returncode == 0, r.stderr
    assert "30 scenarios" in r.stdout and "30 optimal, 0 wrong" in r.stdout and "per query" in r.stdout


@pytest.mark.slow
def test_bench_errors(tmp_path: Path) -> None:
    r = wargrid_cli("bench", "movingai", str(tmp_path / "none.scen"))
    assert r.returncode == 1 and "none.scen" in one_clean_line(r)
    r = wargrid_cli("bench")
    assert r.returncode == 2
    wrong = tmp_path / "arena.map.scen"
    lines = (MOVINGAI / "arena.map.scen").read_text().splitlines()[:3]
    parts = lines[1].split("\t")
    parts[-1] = "9999"
    wrong.write_text("\n".join([lines[0], "\t".join(parts)]) + "\n")
    r = wargrid_cli("bench", "movingai", str(wrong), "--map", str(MOVINGAI / "arena.map"))
    assert r.returncode == 1 and "1 wrong" in r.stdout


def test_in_process_main_returns_codes(board: Path, capsys, tmp_path: Path) -> None:
    assert main(["path", str(board), "0,0", "1,0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["found"]
    (tmp_path / "file").write_text("x")
    assert main(["generate", str(tmp_path / "file" / "y.json"), "--size", "4"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error" in err
    assert main(["range", str(board), "0,0", "x"]) == 2
