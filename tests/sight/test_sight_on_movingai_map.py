"""Sight on a Moving AI map: its walls block sight, a room is seen whole, and sight is symmetric."""

from __future__ import annotations

from pathlib import Path

import numpy as np

MOVINGAI = Path(__file__).resolve().parents[1] / "data" / "movingai"


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
