"""``wargrid fov`` and sight on a Moving AI map."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from wargrid import Map, SquareGrid
from wargrid.cli import main

MOVINGAI = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "movingai"


def _map_file(tmp_path: Path) -> str:
    from wargrid.io.native import save_map

    m = Map(SquareGrid(7, 3))
    m.set_terrain([(3, 0), (3, 1), (3, 2)], "forest")
    path = tmp_path / "wall.json"
    save_map(m, path)
    return str(path)


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


def test_movingai_map_blocks_sight():
    from wargrid.io.movingai import load_movingai

    m = load_movingai(MOVINGAI / "32room_000.map")
    text = (MOVINGAI / "32room_000.map").read_text().split("map\n", 1)[1].split()
    walls = np.array([[c in "@OT" for c in row] for row in text])
    assert np.array_equal(m.blocks_sight(), walls)
    # inside a 31x31 room, a viewer sees the whole room
    v = m.fov((10, 10), radius=None)
    assert v[1:32, 1:32].all()
    floors = np.argwhere(~walls[:40, :40])
    rng = np.random.default_rng(0)
    for y, x in floors[rng.choice(len(floors), size=40, replace=False)]:
        a = (int(x), int(y))
        va = m.fov(a, radius=20)
        for by, bx in np.argwhere(va & ~walls)[:30]:
            assert m.fov((int(bx), int(by)), radius=20)[a[1], a[0]]
            assert m.line_of_sight((int(bx), int(by)), a)
