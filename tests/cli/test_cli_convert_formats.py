"""``wargrid convert`` reads a ``.map`` as every verb does: Moving AI or Wesnoth by its first line; special files
are refused, not read."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from wargrid import load_map
from wargrid.cli import main

WESNOTH = "Gg, Gg, Gg, Gg\nGg, Ww, Hh, Gg\nGg, Gs^Fp, Gg, Gg\nGg, Gg, Gg, Gg\n"


def test_convert_reads_a_wesnoth_map(tmp_path: Path, capsys) -> None:
    src = tmp_path / "scenario.map"
    src.write_text(WESNOTH)
    out = tmp_path / "scenario.json"
    assert main(["convert", str(src), str(out)]) == 0, capsys.readouterr().err
    m = load_map(out)
    assert m.grid.kind == "hex" and m.shape == (2, 2)  # the border ring is dropped
    assert main(["convert", str(src), str(tmp_path / "scenario.tmx")]) == 0


def test_convert_still_reads_a_moving_ai_map(tmp_path: Path) -> None:
    src = tmp_path / "arena.map"
    src.write_text("type octile\nheight 2\nwidth 3\nmap\n..@\n.T.\n")
    assert main(["convert", str(src), str(tmp_path / "arena.json")]) == 0
    assert load_map(tmp_path / "arena.json").shape == (2, 3)


def test_convert_refuses_an_unknown_map_by_its_first_line(tmp_path: Path, capsys) -> None:
    src = tmp_path / "notes.map"
    src.write_text("hello\n")
    assert main(["convert", str(src), str(tmp_path / "n.json")]) == 1
    assert "notes.map is not a map wargrid reads" in capsys.readouterr().err


def test_convert_refuses_a_fifo_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.map"
    os.mkfifo(fifo)
    r = subprocess.run([sys.executable, "-m", "wargrid", "convert", str(fifo), str(tmp_path / "p.json")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "not a regular file (a FIFO)" in r.stderr, r.stderr
