"""Fog of war: incremental updates equal fog recomputed from scratch."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import HexGrid, Map, SquareGrid
from wargrid.sight import field_of_view
from wargrid.sight.fog import Fog

TEAMS = ["red", "blue", "green"]


@st.composite
def games(draw):
    square = draw(st.booleans())
    w = draw(st.integers(3, 12))
    h = draw(st.integers(3, 12))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    blocks = rng.random((h, w)) < 0.2
    wrap = draw(st.booleans()) and w % 2 == 0 and w >= 4
    grid = SquareGrid(w, h, wrap_x=wrap) if square else HexGrid(w, h, wrap_x=wrap)
    nunits = draw(st.integers(1, 6))
    steps = draw(st.integers(1, 25))
    regrow = draw(st.sampled_from([None, 0, 2, 5]))
    allied = draw(st.booleans())
    return grid, blocks, rng, nunits, steps, regrow, allied


@settings(max_examples=40)
@given(games())
def test_incremental_equals_recomputed(game):
    grid, blocks, rng, nunits, steps, regrow, allied = game
    h, w = blocks.shape
    from wargrid.sight.board import prepare

    fog = Fog(prepare(grid, blocks), TEAMS, radius=3, regrow=regrow, alliances=[("red", "green")] if allied else [])
    pos, team, radius = {}, {}, {}
    last = {t: np.full((h, w), -1) for t in TEAMS}

    def cell():
        return int(rng.integers(w)), int(rng.integers(h))

    def truth():
        vis = {t: np.zeros((h, w), dtype=int) for t in TEAMS}
        for u, c in pos.items():
            vis[team[u]] += field_of_view(grid, blocks, c, radius=radius[u])
        for t in TEAMS:
            last[t][vis[t] > 0] = fog.time
        return vis

    def check(vis):
        for t in TEAMS:
            assert np.array_equal(fog.counts(t), vis[t])
        for t in TEAMS + [None]:
            group = TEAMS if t is None else ([t] + (["green"] if t == "red" else ["red"] if t == "green" else [])
                                              if allied else [t])
            v = np.any([vis[g] > 0 for g in group], axis=0)
            known = np.any([(last[g] >= 0) & ((fog.time - last[g] <= regrow) if regrow is not None else True)
                            for g in group], axis=0)
            view = fog.view(team=t)
            assert np.array_equal(view.visible, v)
            assert np.array_equal(view.explored, known | v)

    for u in range(nunits):
        pos[u], team[u], radius[u] = cell(), TEAMS[u % 3], int(rng.integers(0, 4))
        fog.place(u, team[u], pos[u], radius=radius[u])
        check(truth())
    for _ in range(steps):
        action = rng.random()
        if action < 0.1 and pos:
            u = list(pos)[int(rng.integers(len(pos)))]
            fog.remove(u)
            del pos[u]
        elif action < 0.2:
            u = max(pos, default=-1) + 1 + 100
            pos[u], team[u], radius[u] = cell(), TEAMS[int(rng.integers(3))], 3
            fog.place(u, team[u], pos[u])
        elif action < 0.4:
            fog.tick(int(rng.integers(1, 3)))
        elif pos:
            batch = {u: cell() for u in list(pos)[: int(rng.integers(1, len(pos) + 1))]}
            pos.update(batch)
            if action < 0.7:
                fog.move_many(batch)
            else:
                for u, c in batch.items():
                    fog.move(u, c)
        check(truth())


def test_map_edits_update_the_fog():
    m = Map(SquareGrid(9, 1))
    fog = m.fog(["red"], radius=None)
    fog.place("a", "red", (0, 0))
    assert fog.visible("red").all()
    m.set_terrain([(4, 0)], "forest")
    assert fog.visible("red").astype(int).tolist() == [[1, 1, 1, 1, 1, 0, 0, 0, 0]]
    assert fog.explored("red").all()


def test_regrowth_fades_after_n_ticks():
    m = Map(HexGrid(12, 3))
    fog = m.fog(["red", "blue"], radius=1, regrow=2)
    fog.place(7, "red", (0, 1))
    fog.move(7, (11, 1))
    assert fog.explored("red")[1, 0]
    fog.tick(2)
    assert fog.explored("red")[1, 0]
    fog.tick()
    assert not fog.explored("red")[1, 0] and fog.explored("red")[1, 11]
    assert not fog.view(team="blue").explored.any()
    assert np.array_equal(fog.spectator().visible, fog.visible("red"))


def test_bad_input():
    m = Map(SquareGrid(4, 4))
    with pytest.raises(ValueError, match="teams"):
        m.fog([])
    with pytest.raises(TypeError, match="teams"):
        m.fog("red")
    with pytest.raises(ValueError, match="regrow"):
        m.fog(["a"], regrow=-1)
    with pytest.raises(ValueError, match="radius"):
        m.fog(["a"], radius=-2)
    fog = m.fog(["a", "b"])
    with pytest.raises(ValueError, match="team"):
        fog.place(1, "c", (0, 0))
    with pytest.raises(IndexError, match="cell"):
        fog.place(1, "a", (9, 0))
    fog.place(1, "a", (0, 0))
    with pytest.raises(ValueError, match="already"):
        fog.place(1, "a", (0, 0))
    with pytest.raises(KeyError, match="unit"):
        fog.move(2, (0, 0))
    with pytest.raises(ValueError, match="team"):
        fog.ally("a", "z")


@settings(max_examples=40)
@given(st.integers(3, 10), st.integers(1, 10), st.booleans(), st.booleans(), st.integers(0, 2**32 - 1),
       st.integers(0, 12))
def test_visible_cells_are_unique_and_match_fov(w, h, square, wrap, seed, r):
    from wargrid.sight.board import prepare
    from wargrid.sight.fov import fov_array, visible_cells

    w += w % 2
    grid = SquareGrid(w, h, wrap_x=wrap) if square else HexGrid(w, h, wrap_x=wrap)
    rng = np.random.default_rng(seed)
    board = prepare(grid, rng.random((h, w)) < 0.2)
    o = (int(rng.integers(w)), int(rng.integers(h)))
    ids = visible_cells(board, o, radius=r)
    assert len(np.unique(ids)) == len(ids)
    assert sorted(ids.tolist()) == np.flatnonzero(fov_array(board, o, radius=r)).tolist()


def test_dropped_fog_stops_listening():
    import gc
    import weakref

    m = Map(SquareGrid(4, 4))
    fog = m.fog(["a"])
    ref = weakref.ref(fog)
    del fog
    gc.collect()
    assert ref() is None  # the map keeps no reference to a fog
    m.set_terrain([(0, 0)], "forest")


def test_fog_follows_edits_and_pickles_with_its_map():
    import pickle

    m = Map(SquareGrid(6, 1))
    fog = m.fog(["red"], radius=5)
    fog.place("scout", "red", (0, 0))
    assert fog.visible("red").all()
    m.set_terrain([(2, 0)], "forest")  # forest blocks sight: cells behind it go dark
    assert fog.visible("red").astype(int).tolist() == [[1, 1, 1, 0, 0, 0]]
    m2, fog2 = pickle.loads(pickle.dumps((m, fog)))
    assert m2 == m and fog2.visible("red").astype(int).tolist() == [[1, 1, 1, 0, 0, 0]]
    m2.set_terrain([(2, 0)], "plains")  # the unpickled fog follows the unpickled map
    assert fog2.visible("red").all() and not fog.visible("red").all()


@pytest.mark.parametrize("square", [True, False])
def test_move_many_equals_moves_with_elevation(square):
    rng = np.random.default_rng(5)
    grid = SquareGrid(16, 12) if square else HexGrid(16, 12)
    terrain = np.where(rng.random((12, 16)) < 0.25, 1, 0).astype(np.int16)  # forest or plains
    m = Map(grid, terrain=terrain, elevation=rng.integers(0, 3, (12, 16)).astype(float))
    assert m.terrains.names[1] == "forest"
    a, b = m.fog(TEAMS, radius=4), m.fog(TEAMS, radius=4)
    for u in range(12):
        c = (int(rng.integers(16)), int(rng.integers(12)))
        a.place(u, TEAMS[u % 3], c)
        b.place(u, TEAMS[u % 3], c)
    for _ in range(5):
        moves = {u: (int(rng.integers(16)), int(rng.integers(12))) for u in range(0, 12, 2)}
        a.move_many(moves)
        for u, c in moves.items():
            b.move(u, c)
        a.tick()
        b.tick()
        for t in TEAMS:
            assert np.array_equal(a.counts(t), b.counts(t))
            assert np.array_equal(a.explored(t), b.explored(t))
    with pytest.raises(TypeError, match="moves"):
        a.move_many([(0, (1, 1))])
    with pytest.raises(IndexError, match="moves"):
        a.move_many({0: (99, 0)})


def test_place_names_a_unit_id_that_cannot_be_hashed():
    # a tuple holding a list passed the Hashable check, then dict lookup raised 'unhashable type: list'
    from wargrid.errors import ArgumentTypeError

    fog = Map(SquareGrid(6, 4)).fog(["blue"])
    with pytest.raises(ArgumentTypeError, match=r"unit must be a hashable id .* got tuple \('a', \[1\]\)"):
        fog.place(("a", [1]), "blue", (0, 0))
    fog.place(("a", 1), "blue", (0, 0))
    assert fog.units[("a", 1)] == ("blue", (0, 0))
