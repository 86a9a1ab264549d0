"""The command line refuses clearly, before computing: unknown formats, bad outputs, jobs too big for memory."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from wargrid import Map, SquareGrid
from wargrid.cli import _common, main
from wargrid.io.native import load_map, save_map

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def board(tmp_path):
    path = tmp_path / "b.json"
    save_map(Map(SquareGrid(8, 6)), path)
    return str(path)


def test_generate_refuses_an_unknown_extension(tmp_path, capsys):
    out = tmp_path / "out.xyz"
    assert main(["generate", str(out), "--size", "4"]) == 2
    assert "OUT must end in one of .json, .npz, .tmx, .tmj, .map" in capsys.readouterr().err
    assert not out.exists()


def test_generate_format_option_names_the_format(tmp_path, capsys):
    out = tmp_path / "out.bin"
    assert main(["generate", str(out), "--size", "5x4", "--format", "npz"]) == 0
    assert out.read_bytes()[:2] == b"PK"  # a zip (npz), not JSON
    npz = tmp_path / "copy.npz"
    npz.write_bytes(out.read_bytes())
    assert load_map(npz).shape == (4, 5)
    assert main(["generate", str(tmp_path / "t.tmx"), "--format", "tmj"]) == 2
    assert "must end in .tmj" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [["path", "{b}", "-1,0", "3,3"], ["path", "{b}", "0,0", "-3,-2"], ["range", "{b}", "-1,0", "4"],
     ["fov", "{b}", "1,1", "--to", "-1,0"], ["render", "{b}", "{tmp}/o.svg", "--path", "-1,0", "2,2"]],
)
def test_negative_cells_parse_as_cells(argv, board, tmp_path, capsys):
    args = [a.format(b=board, tmp=tmp_path) for a in argv]
    assert main(args) == 1  # parsed, then refused as off the board
    err = capsys.readouterr().err
    assert "is off the board" in err and "required" not in err and "expected one argument" not in err


def test_fov_checks_its_picture_before_computing(board, capsys, monkeypatch):
    def no_map(path):
        raise AssertionError("the map was read before the output was checked")

    monkeypatch.setattr("wargrid.cli.fov.load_map", no_map)
    assert main(["fov", board, "1,1", "--out", "x.gif"]) == 2
    assert "--out must end in .svg or .png" in capsys.readouterr().err


def test_outputs_in_an_unusable_place_are_refused_first(board, tmp_path, capsys):
    folder = tmp_path / "pic.svg"
    folder.mkdir()
    assert main(["fov", board, "1,1", "--out", str(folder)]) == 1
    assert "is a folder" in capsys.readouterr().err
    assert main(["generate", str(tmp_path / "b.json"), "--picture", "p.gif"]) == 2
    assert "--picture must end in .svg or .png" in capsys.readouterr().err


def test_render_refuses_a_picture_too_big_for_memory(board, tmp_path, capsys):
    out = tmp_path / "o.png"
    assert main(["render", board, str(out), "--cell-size", "100000"]) == 1
    err = capsys.readouterr().err
    assert "pixel picture would need about" in err and "TiB of memory" in err and "Traceback" not in err
    assert not out.exists()


def test_generate_refuses_a_board_too_big_for_memory(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(_common, "available_memory", lambda: 2 * 2**30)  # a 2 GiB machine

    def no_board(*a, **kw):
        raise AssertionError("the board was generated before the memory was checked")

    monkeypatch.setattr(importlib.import_module("wargrid.generate"), "generate_board", no_board)
    assert main(["generate", str(tmp_path / "big.json"), "--size", "4096"]) == 1
    err = capsys.readouterr().err
    assert "a 4096x4096 board would need about 7.0 GiB of memory; 2.0 GiB is free" in err


def test_available_memory_is_a_positive_number_or_unknown():
    free = _common.available_memory()
    assert free is None or free > 0


def test_a_map_file_is_read_by_its_first_line(tmp_path, capsys):
    wesnoth = REPO / "tests" / "data" / "wesnoth" / "two_rivers.map"
    assert main(["path", str(wesnoth), "0,0", "3,3", "--json"]) == 0
    assert '"found": true' in capsys.readouterr().out
    movingai = REPO / "tests" / "data" / "movingai" / "32room_000.map"
    assert _common.load_map(str(movingai)).shape == (512, 512)
    bad = tmp_path / "notes.map"
    bad.write_text("hello\nworld\n")
    assert main(["path", str(bad), "0,0", "1,1"]) != 0
    err = capsys.readouterr().err
    assert "notes.map is not a map wargrid reads" in err and "'type octile'" in err and "'hello'" in err


def test_a_map_file_that_starts_with_a_byte_order_mark_is_read(tmp_path, capsys):
    # the first line '\ufefftype octile' was 'not a map wargrid reads'
    (tmp_path / "a.map").write_bytes(b"\xef\xbb\xbftype octile\nheight 1\nwidth 3\nmap\n...\n")
    (tmp_path / "b.map").write_bytes(b"\xef\xbb\xbf" + b"Gg, Gg, Gg, Gg\n" * 4)
    assert main(["zones", str(tmp_path / "a.map")]) == 0
    assert main(["zones", str(tmp_path / "b.map")]) == 0
    assert "zone 0" in capsys.readouterr().out


def test_a_failed_verb_leaves_no_output_folder_behind(tmp_path, monkeypatch):
    # the output's folders were made before the input was read: 'render missing.json a/b/out.svg' left a/b
    monkeypatch.chdir(tmp_path)
    save_map(Map(SquareGrid(4, 3)), tmp_path / "b.json")
    assert main(["render", "missing.json", "a/b/out.svg"]) == 1
    assert main(["convert", "b.json", "c/d/out.tmx", "--compression", "zlib"]) == 2
    assert main(["fov", "b.json", "9,9", "--out", "e/f.svg"]) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.json"]
    (tmp_path / "afile").write_text("")
    assert main(["render", "b.json", "afile/x.svg"]) == 1  # a file where a folder belongs is named
    assert main(["render", "b.json", "g/h/ok.svg"]) == 0 and (tmp_path / "g" / "h" / "ok.svg").is_file()
    assert main(["generate", "i/j.json", "--size", "4"]) == 0 and (tmp_path / "i" / "j.json").is_file()
