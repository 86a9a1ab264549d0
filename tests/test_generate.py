"""Generated boards: seeded, reproducible, strategy-map-like, for every board kind."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import wargrid
from wargrid import GeneratedBoard, generate, generate_board


def digest(m: wargrid.Map) -> str:
    h = hashlib.sha256()
    for a in (m.terrain, m.overlay, m.elevation):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:16]


def test_same_seed_same_board_literal() -> None:
    # a literal fingerprint: the same seed gives the same board on every machine
    m = generate(32, 24, seed=11)
    assert digest(m) == digest(generate(32, 24, seed=11))
    assert digest(m) == GOLDEN


GOLDEN = "8cbc6df8f0b2167e"


def test_different_seeds_differ() -> None:
    assert digest(generate(24, 16, seed=1)) != digest(generate(24, 16, seed=2))


@pytest.mark.parametrize(
    "opts",
    [
        dict(kind="hex"),
        dict(kind="hex", orientation="pointy", offset="even-r"),
        dict(kind="hex", offset="even-q", wrap_x=True),
        dict(kind="square"),
        dict(kind="square", diagonal=True, wrap_x=True),
        dict(kind="staggered", stagger="rows"),
        dict(kind="staggered"),
    ],
)
def test_every_kind_has_the_usual_terrains(opts: dict) -> None:
    b = generate_board(48, 36, seed=4, **opts)
    assert isinstance(b, GeneratedBoard)
    m = b.map
    for name in ("water", "coast", "plains", "forest", "hills", "mountains", "road"):
        assert m.count(name) > 0, name
    # towns are on the road network and on land
    for t in b.towns:
        assert m.overlay_name(t) == "road"
        assert m.terrain_name(t) not in ("water", "mountains")
    # roads never run over open sea except as bridges
    water = m.terrain == m.terrains.index("water")
    assert not (water & (m.overlay == m.terrains.index("road"))).any()


def test_bridges_where_roads_cross_rivers() -> None:
    found = False
    for seed in range(6):
        m = generate(60, 40, seed=seed)
        if m.count("bridge"):
            ys, xs = np.nonzero(m.overlay == m.terrains.index("bridge"))
            assert all(m.terrain_name((int(x), int(y))) == "water" for x, y in zip(xs, ys))
            found = True
    assert found


@settings(max_examples=15)
@given(w=st.integers(1, 12), h=st.integers(1, 12), seed=st.integers(0, 2**32),
       kind=st.sampled_from(["hex", "square", "staggered"]))
def test_any_size_works_and_is_reproducible(w: int, h: int, seed: int, kind: str) -> None:
    m = generate(w, h, seed=seed, kind=kind)
    assert m.shape == (h, w)
    assert digest(m) == digest(generate(w, h, seed=seed, kind=kind))


@pytest.mark.parametrize(
    "kwargs, exc, words",
    [
        (dict(width=0, height=5), ValueError, "width"),
        (dict(width=5, height=5, kind="triangle"), ValueError, "kind"),
        (dict(width=5, height=5, seed=-1), ValueError, "seed"),
        (dict(width=5, height=5, seed=1.5), TypeError, "seed"),
        (dict(width=5, height=5, water=2.0), ValueError, "water"),
        (dict(width=5, height=5, towns=-1), ValueError, "towns"),
        (dict(width=5, height=5, orientation="pointy", offset="odd-q"), ValueError, "offset"),
    ],
)
def test_bad_options(kwargs: dict, exc: type, words: str) -> None:
    with pytest.raises(exc, match=words):
        generate(**kwargs)


def test_more_towns_than_the_land_holds_is_quick() -> None:
    # the roads' spanning tree searched every pair inside and outside it for each town it added (200 towns: 16 s;
    # --towns 99999999999999999999 on the default 40x28 board never ended); quadratic now, the same pairs
    b = generate_board(40, 28, seed=0, towns=10**20)
    assert 100 < len(b.towns) < 40 * 28 and len(set(b.towns)) == len(b.towns)


def test_spanning_pairs_break_ties_as_the_pairwise_search_did() -> None:
    from wargrid.generate import _spanning_pairs

    # a unit square and its centre's row: every side ties; the town that joined first wins, then the lower index
    cx = np.array([[0.0, 1.0, 2.0], [0.0, 1.0, 2.0]])
    cy = np.array([[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]])
    towns = [(1, 0), (0, 0), (2, 0), (1, 1), (0, 1), (2, 1)]
    assert _spanning_pairs(towns, cx, cy) == [((1, 0), (0, 0)), ((1, 0), (2, 0)), ((1, 0), (1, 1)), ((0, 0), (0, 1)),
                                              ((2, 0), (2, 1))]
