"""``wargrid fov``: the view as text and JSON, line of sight, and its error paths."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wargrid import Map, SquareGrid
from wargrid.cli import main


def _map_file(tmp_path: Path) -> str:
    from wargrid.io.native import save_map

    m = Map(SquareGrid(7, 3))
    m.set_terrain([(3, 0), (3, 1), (3, 2)], "forest")
    path = tmp_path / "wall.json"
    save_map(m, path)
    return str(path)


@pytest.mark.xdist_group("sight")  # compiles the sight kernels: with the sight tests
def test_cli_fov_text_json_and_los(tmp_path, capsys):
    f = _map_file(tmp_path)
    assert main(["fov", f, "1,1", "--radius", "5"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("12 cells seen from (1, 1)")
    assert ".@.#" in out
    assert main(["fov", f, "1,1", "--json", "--radius", "1", "--metric", "chebyshev"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert len(got["cells"]) == 9 and [0, 0] in got["cells"]
    assert main(["fov", f, "0,1", "--to", "6,1"]) == 0
    assert "hidden" in capsys.readouterr().out
    assert main(["fov", f, "0,1", "--to", "2,1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["visible"] is True


def test_cli_fov_bad_input(tmp_path, capsys):
    f = _map_file(tmp_path)
    assert main(["fov", f, "9,9"]) == 1
    assert "ORIGIN" in capsys.readouterr().err
    assert main(["fov", f, "1,1", "--radius", "-1"]) == 2
    assert main(["fov", f, "1,1", "--metric", "hex"]) == 1
