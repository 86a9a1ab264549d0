"""Occupancy: sub-spots, vehicles, buildings and reservations never overlap."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import HexGrid, ResourceError, SquareGrid, StaggeredGrid
from wargrid.rts import Occupancy, spot_offsets

GRIDS = [SquareGrid(4, 3), SquareGrid(4, 3, diagonal=True), HexGrid(4, 3), HexGrid(4, 3, orientation="pointy"), StaggeredGrid(4, 3)]


@pytest.mark.parametrize("grid", GRIDS, ids=repr)
def test_spots_inside_their_cell(grid):
    off = spot_offsets(grid)
    assert off[0].tolist() == [0, 0]
    assert len(off) == 1 + len(grid.corner_offsets())
    assert len({tuple(o) for o in off}) == len(off)
    # every spot stays inside the cell's lepton box
    assert (np.abs(off) < 128).all()


def test_nearest_spot_and_fair_ties():
    occ = Occupancy(SquareGrid(3, 3), seed=3)
    # near the top-left corner of cell (1, 1): spot 1 (offset -64, -64)
    assert occ.free_spot((1, 1), near=(256 + 10, 256 + 10)) == 1
    occ.place(5, (1, 1), kind="infantry", spot=1)
    # spot 1 taken: the centre is now nearest to that point
    assert occ.free_spot((1, 1), near=(256 + 10, 256 + 10)) == 0
    # the four corners are equally near the centre: after the centre is taken, ties are broken at random but fairly
    occ2 = Occupancy(SquareGrid(3, 3), seed=0)
    occ2.place(1, (1, 1), kind="infantry", spot=0)
    counts = Counter(occ2.free_spot((1, 1), near=(384, 384)) for _ in range(800))
    assert set(counts) == {1, 2, 3, 4}
    assert min(counts.values()) > 140
    # same seed, same choices
    a = Occupancy(SquareGrid(3, 3), seed=9)
    b = Occupancy(SquareGrid(3, 3), seed=9)
    assert [a.free_spot((0, 0)) for _ in range(20)] == [b.free_spot((0, 0)) for _ in range(20)]


def test_kinds_exclude_each_other():
    occ = Occupancy(SquareGrid(4, 1))
    occ.place(1, (0, 0), kind="infantry")
    assert "infantry 1" in occ.blocker((0, 0), "vehicle")
    with pytest.raises(ValueError, match="cannot take vehicle unit 2"):
        occ.place(2, (0, 0), kind="vehicle")
    occ.place_building(3, [(2, 0), (3, 0)])
    assert occ.occupants((3, 0)) == [3]
    with pytest.raises(ValueError, match="building 3"):
        occ.place(4, (2, 0), kind="infantry")
    for k in range(5):
        occ.place(10 + k, (1, 0), kind="infantry")
    assert occ.blocker((1, 0), "infantry") == "every sub-spot is taken"
    with pytest.raises(ValueError, match="every sub-spot is taken"):
        occ.place(20, (1, 0), kind="infantry")


def test_reservations():
    occ = Occupancy(SquareGrid(3, 1))
    assert occ.reserve(1, (1, 0)) is not None
    assert occ.reserve(2, (1, 0)) is None
    assert occ.reserve(2, (1, 0), kind="infantry") is None
    assert "reserved by unit 1" in occ.blocker((1, 0), "infantry")
    occ.place(1, (1, 0))  # uses the reservation up
    assert occ.reservation(1) is None
    assert occ.position(1).cell == (1, 0)
    s = occ.reserve(2, (2, 0), kind="infantry", near=(3 * 256 - 1, 0))
    assert s.spot == 2
    assert occ.place(2, (2, 0), kind="infantry").spot == 2  # the reserved spot
    occ.release(2)
    occ.remove(1)
    assert occ.blocker((1, 0), "vehicle") is None


def test_bad_input():
    occ = Occupancy(SquareGrid(3, 3))
    with pytest.raises(IndexError, match=r"cell \(3, 0\) is off the board"):
        occ.place(1, (3, 0))
    with pytest.raises(ValueError, match="kind must be one of 'infantry', 'vehicle'"):
        occ.place(1, (0, 0), kind="tank")
    with pytest.raises(ValueError, match="uid must be >= 0"):
        occ.place(-1, (0, 0))
    with pytest.raises(TypeError, match="grid must be a wargrid Grid"):
        Occupancy("board")
    with pytest.raises(ValueError, match="spot must be None for a vehicle"):
        occ.place(1, (0, 0), spot=2)
    occ.place(1, (0, 0), kind="infantry", spot=2)
    with pytest.raises(ValueError, match="spot 2 of cell"):
        occ.place(2, (0, 0), kind="infantry", spot=2)
    # ids past int64 raised OverflowError where they were stored; 2**31 - 1 asked for 80 GiB of per-unit arrays
    for call in (lambda: occ.place(10**20, (1, 1)), lambda: occ.reserve(10**20, (1, 1)),
                 lambda: occ.place_building(10**20, [(1, 1)]), lambda: occ.grow(10**20)):
        with pytest.raises(ValueError, match=r"(uid|n) must be at most"):
            call()
    # a point past int64 picks the nearest spot exactly (OverflowError in numpy before)
    assert occ.free_spot((2, 2), near=(10**20, 2 * 256 + 128), rule="nearest") in (2, 3)


def test_a_refused_growth_changes_nothing(monkeypatch):
    occ = Occupancy(SquareGrid(3, 3))
    occ.place(1, (0, 0))
    occ.reserve(1, (1, 0))

    def refuse(need, **kw):
        raise ResourceError("no memory")

    monkeypatch.setattr("wargrid.rts.occupancy.check_memory", refuse)
    before = occ.claims()
    for call in (lambda: occ.place(40, (2, 2)), lambda: occ.reserve(40, (2, 2)),
                 lambda: occ.place_building(40, [(2, 2)])):
        with pytest.raises(ResourceError):
            call()
        assert occ.claims() == before and occ.units() == [1]


ops = st.lists(
    st.tuples(
        st.sampled_from(["place", "reserve", "remove", "release"]),
        st.integers(0, 7),
        st.integers(0, 3),
        st.integers(0, 2),
        st.sampled_from(["infantry", "vehicle"]),
        st.integers(0, 767),
        st.integers(0, 511),
    ),
    max_size=60,
)


@settings(max_examples=60)
@given(st.sampled_from(GRIDS), ops, st.integers(0, 100))
def test_space_never_doubly_claimed(grid, script, seed):
    occ = Occupancy(grid, seed=seed)
    for op, uid, x, y, kind, lx, ly in script:
        cell = (x, y)
        if op == "place":
            try:
                occ.place(uid, cell, kind=kind, near=(lx, ly))
            except ValueError:
                pass
        elif op == "reserve":
            occ.reserve(uid, cell, kind=kind)
        elif op == "remove":
            occ.remove(uid)
        else:
            occ.release(uid)
        by_cell: dict = {}
        for c, s, u in occ.claims():
            by_cell.setdefault(c, {}).setdefault(s, set()).add(u)
        for c, claims in by_cell.items():
            for s, uids in claims.items():
                assert len(uids) == 1, (c, s, uids)  # one unit per space
            if -1 in claims:  # a whole-cell claim leaves room for no one else
                assert len(set().union(*claims.values())) == 1, (c, claims)


# -- the classic spot rule (the classic engine's Spot_Index and Closest_Free_Spot) --------------------------------

def test_classic_spot_centre_within_octagonal_distance_60():
    occ = Occupancy(SquareGrid(3, 3), seed=0)
    base = 256 + 128  # the centre of cell (1, 1)
    # octagonal distance max + min // 2: (59, 0) -> 59 and (40, 39) -> 59 ask for the centre; (60, 0) and (40, 40) do not
    for dx, dy in [(59, 0), (40, 39), (-40, -39), (0, -59)]:
        assert occ.free_spot((1, 1), near=(base + dx, base + dy)) == 0, (dx, dy)
    # else the quadrant: 1 upper left, 2 upper right, 3 lower right, 4 lower left (y grows downwards)
    for dx, dy, want in [(60, 0, 2), (40, 40, 3), (-40, 40, 4), (-60, -1, 1), (60, 60, 3), (0, 60, 4), (127, -127, 2)]:
        assert occ.free_spot((1, 1), near=(base + dx, base + dy)) == want, (dx, dy)
    # the nearest-spot rule (an extension) takes the centre for (60, 1): 60 leptons from it, 90 from spot 3
    assert occ.free_spot((1, 1), near=(base + 60, base + 1), rule="nearest") == 0


def test_classic_spot_when_the_asked_one_is_taken():
    occ = Occupancy(SquareGrid(3, 3), seed=0)
    base = 256 + 128
    occ.place(10, (1, 1), kind="infantry", spot=3)  # lower right taken: the centre is next
    assert occ.free_spot((1, 1), near=(base + 100, base + 100)) == 0
    occ.place(11, (1, 1), kind="infantry", spot=0)  # then the upper right (2), then lower left (4), then upper left (1)
    assert occ.free_spot((1, 1), near=(base + 100, base + 100)) == 2
    occ.place(12, (1, 1), kind="infantry", spot=2)
    assert occ.free_spot((1, 1), near=(base + 100, base + 100)) == 4
    # a taken centre: any corner, by one of four rotations (seeded, so each appears)
    firsts = set()
    for seed in range(12):
        o = Occupancy(SquareGrid(3, 3), seed=seed)
        o.place(1, (1, 1), kind="infantry", spot=0)
        firsts.add(o.free_spot((1, 1), near=(base, base)))
    assert firsts == {1, 2, 3, 4}


def test_classic_spot_scales_with_the_cell_and_hex_boards_keep_the_nearest():
    occ = Occupancy(SquareGrid(2, 2), leptons=512)
    assert occ.free_spot((0, 0), near=(256 + 119, 256)) == 0 and occ.free_spot((0, 0), near=(256 + 120, 256)) == 2
    from wargrid import HexGrid
    h = Occupancy(HexGrid(3, 3))
    assert h.free_spot((1, 1), near=(256 + 128, 256 + 128)) == 0
    with pytest.raises(ValueError, match="rule"):
        occ.free_spot((0, 0), near=(0, 0), rule="best")
