"""``wargrid demo`` and the command-line skeleton: ``python -m wargrid`` as a subprocess, the exit codes."""

from __future__ import annotations

import pytest

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from wargrid.cli import main

SVG = "{http://www.w3.org/2000/svg}"


def wargrid(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "wargrid", *args], capture_output=True, text=True, cwd=cwd, timeout=600)


@pytest.mark.slow
def test_demo_writes_page_and_hex_coordinates(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    r = wargrid("demo", "--out", str(out), "--size", "16x12", "--seed", "3")
    assert r.returncode == 0, r.stderr
    assert "[1/" in r.stdout and "index.html" in r.stdout
    assert "failed" not in r.stdout, r.stdout  # every capability ran
    assert "skipped" not in r.stdout, r.stdout  # and none is missing
    page = (out / "index.html").read_text()
    assert "<table>" in page and "generate the board" in page
    root = ET.parse(out / "coordinates.svg").getroot()
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert len(list(root.iter(f"{SVG}polygon"))) == 12 * 8
    assert "0,0" in texts and "11,7" in texts and len(texts) == 12 * 8
    assert (out / "board.svg").exists()


def test_help_lists_every_verb() -> None:
    r = wargrid("--help")
    assert r.returncode == 0
    for verb in ("demo",):
        assert verb in r.stdout


# the skeleton's exit codes in this process (``main``); ``python -m wargrid`` itself runs in test_help_lists_every_verb
def test_bad_option_is_usage_error(capsys) -> None:
    assert main(["demo", "--size", "banana"]) == 2
    err = capsys.readouterr().err
    assert "size" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_no_verb_prints_help_exit_2(capsys) -> None:
    assert main([]) == 2
    assert "VERB" in capsys.readouterr().out


def test_unknown_verb(capsys) -> None:
    assert main(["frobnicate"]) == 2 and "Traceback" not in capsys.readouterr().err


def test_demo_unwritable_out(tmp_path: Path, capsys) -> None:
    f = tmp_path / "file"
    f.write_text("x")
    assert main(["demo", "--out", str(f / "sub"), "--size", "8"]) == 1
    err = capsys.readouterr().err
    assert "error" in err and "Traceback" not in err


def test_demo_loads_the_bridge_example_from_the_checkout() -> None:
    from wargrid.cli.demo import load_example

    example = load_example("bridge_scenario")
    assert example is not None and example.bridge_scenario(seed=0, ticks=1).start == (2, 4)
    assert load_example("bridge_scenario") is example
    assert load_example("no_such_example") is None


@pytest.mark.slow
def test_demo_without_the_checkout_says_so_and_goes_on(tmp_path: Path, monkeypatch, capsys) -> None:
    from wargrid.cli import demo, main

    monkeypatch.setattr(demo, "EXAMPLES", tmp_path / "wheel" / "examples")
    assert demo.load_example("bridge_scenario") is None
    assert main(["demo", "--out", str(tmp_path / "demo"), "--size", "10x8", "--seed", "2"]) == 0
    lines = [l for l in capsys.readouterr().out.splitlines() if "bridge" in l]
    assert len(lines) == 1 and "needs the source checkout" in lines[0]
    assert "failed" not in lines[0] and (tmp_path / "demo" / "index.html").exists()
