"""The playable rectangle (the classic radar area, OpenRA's Bounds): cells outside are off the board."""

import os
import pickle

import numpy as np
import pytest

from wargrid import ArgumentError, CellError, HexGrid, Map, SquareGrid
from wargrid.io.native import load_map, save_map
from wargrid.rts import Simulation


def _map() -> Map:
    # a 10 x 8 container, the playable rectangle columns 2..7, rows 1..5
    return Map(SquareGrid(10, 8, diagonal=True), playable=(2, 1, 6, 5))


def test_grid_is_the_container_masked_to_the_rectangle():
    m = _map()
    assert m.playable == (2, 1, 6, 5)
    assert m.container.mask.all() and len(m.container) == 80
    assert len(m.grid) == 30
    inside = np.zeros((8, 10), dtype=bool)
    inside[1:6, 2:8] = True
    assert np.array_equal(m.grid.mask, inside)


def test_no_query_reaches_outside():
    m = _map()
    with pytest.raises(CellError):
        m.path((2, 1), (9, 7))
    assert m.passable(unit="foot")[0].sum() == 0 and m.passable(unit="foot")[1, 2:8].all()
    # the only way between the two halves of a wall across the rectangle is outside it
    m.set_terrain([(5, y) for y in range(1, 6)], "water")
    assert m.path((2, 3), (7, 3), unit="foot") is None
    assert m.classic_path((2, 3), (7, 3), unit="foot").outcome != "arrived"
    zones = m.zones(unit="foot")
    assert (zones[~m.grid.mask] == -1).all() and len(np.unique(zones[m.grid.mask & (zones >= 0)])) == 2
    seen = m.fov((3, 3), radius=20)
    assert not seen[~m.grid.mask].any() and seen[3, 3]
    assert m.distance_field([(2, 1)], unit="foot")[7, 9] == np.inf


def test_set_playable_moves_it_on_the_one_invalidation_path():
    m = _map()
    seen = []
    m.on("playable_changed", seen.append)
    z0 = m.zones(unit="foot")
    assert z0[7, 9] == -1
    m.set_playable(None)
    assert m.playable is None and len(m.grid) == 80 and m.zones(unit="foot")[7, 9] >= 0
    assert m.path((2, 1), (9, 7)).cells[-1] == (9, 7)
    m.set_playable((0, 0, 3, 2))
    assert len(m.grid) == 6 and m.path((0, 0), (2, 1)) is not None
    assert [(e.data["old"], e.data["new"]) for e in seen] == [((2, 1, 6, 5), None), (None, (0, 0, 3, 2))]


def test_edits_outside_are_refused():
    m = _map()
    with pytest.raises(CellError):
        m.set_terrain([(0, 0)], "water")


def test_masked_board_and_rectangle_intersect():
    from wargrid import hexagon_board
    g = hexagon_board(3)
    m = Map(g, playable=(0, 0, 7, 3))
    assert np.array_equal(m.grid.mask, g.mask & (np.arange(7)[:, None] < 3))
    assert isinstance(m.grid, HexGrid) and m.grid.describe() == g.describe()


@pytest.mark.parametrize("bad, err", [
    ((0, 0, 11, 1), ArgumentError), ((-1, 0, 2, 2), ArgumentError), ((0, 0, 0, 2), ArgumentError),
    ((0, 0, 2), TypeError), ((0.5, 0, 2, 2), TypeError), ("0042", TypeError),
])
def test_bad_rectangles(bad, err):
    with pytest.raises(err):
        Map(SquareGrid(10, 8), playable=bad)
    m = Map(SquareGrid(10, 8))
    with pytest.raises(err):
        m.set_playable(bad)
    assert m.playable is None


def test_kept_by_pickle_copy_and_files(tmp_path):
    m = _map()
    m.set_terrain([(3, 3)], "forest")
    for c in (pickle.loads(pickle.dumps(m)), m.copy()):
        assert c == m and c.playable == (2, 1, 6, 5) and c.container == m.container
    for name in ("a.wargrid.json", "a.npz"):
        p = os.path.join(tmp_path, name)
        save_map(m, p)
        back = load_map(p)
        assert back == m and back.playable == m.playable and len(back.container) == 80
    assert m != Map(SquareGrid(10, 8, diagonal=True))


def test_simulation_keeps_to_the_rectangle():
    m = Map(SquareGrid(12, 5), playable=(0, 0, 12, 3))
    m.set_terrain([(6, y) for y in range(0, 3)], "water")  # the rectangle is cut; the way round is outside
    sim = Simulation(m, seed=1)
    u = sim.add_unit((1, 1), unit="foot", goal=(10, 1), speed=128)
    assert sim.run(200).states()[u] != "arrived"
    m.set_playable(None)
    sim = Simulation(m, seed=1)
    u = sim.add_unit((1, 1), unit="foot", goal=(10, 1), speed=128)
    assert sim.run(400).states()[u] == "arrived"
