"""Curved vehicle tracks (``wargrid.rts.tracks``).

The classic numbers below are facts read from Red Alert's published drive
tables (GPL, CnC_Remastered_Collection, REDALERT/DRIVE.CPP): each turn track
runs from the centre of the cell before the turn to the centre of the cell
after it; its length (the sum of the distances between its points, plus the
first point's distance from the start centre) and how near it passes the
centre of the cell turned in, in leptons. No table is copied here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import ArgumentError, WargridError
from wargrid.grids.square import SQUARE8_DIRECTIONS
from wargrid.rts import DEFAULT_STEP, TRACK_RADII, PathTrack, Track, path_track, track

# classic track: (from, to) in wargrid facings -> (length, closest approach to the corner cell's centre)
CLASSIC = {
    (2, 1): (604.2, 31.4),  # north, then north-east (45 degrees)
    (1, 0): (603.2, 29.1),  # north-east, then east (45 degrees)
    (2, 0): (421.5, 82.8),  # north, then east (90 degrees)
    (1, 7): (679.5, 43.0),  # north-east, then south-east (90 degrees, diagonal)
}


def gaps(points: np.ndarray) -> np.ndarray:
    return np.hypot(*np.diff(points.astype(float), axis=0).T)


def heading_gaps(h: np.ndarray) -> np.ndarray:
    d = np.abs(np.diff(h)) % 8
    return np.minimum(d, 8 - d)


@pytest.mark.parametrize("turn", sorted(CLASSIC))
def test_curves_have_the_classic_length_and_pass_the_corner_where_the_classic_tracks_do(turn: tuple[int, int]) -> None:
    length, apex = CLASSIC[turn]
    t = track(*turn)
    assert t.kind == "curve"
    assert t.length == pytest.approx(length, rel=0.01)
    near = np.hypot(*t.points.astype(float).T).min()
    assert near == pytest.approx(apex, abs=4.0)
    # the drawn points add up to the exact length, up to rounding
    assert gaps(t.points).sum() == pytest.approx(t.length, rel=0.01)


def test_literal_tracks() -> None:
    t = track(2, 2)  # straight north: from the cell below to the cell above
    assert (t.kind, t.turn, t.radius, t.length) == ("straight", 0, 0.0, 512.0)
    assert t.points[0].tolist() == [0, 256] and t.points[-1].tolist() == [0, -256]
    assert set(t.facings.tolist()) == {2}
    t = track(1, 1)
    assert t.points[0].tolist() == [-256, 256] and t.points[-1].tolist() == [256, -256]
    assert t.length == pytest.approx(512 * math.sqrt(2))
    t = track(2, 0)  # north then east, 90 degrees right
    assert (t.kind, t.turn, t.radius) == ("curve", -2, TRACK_RADII["turn90"])
    assert t.points[0].tolist() == [0, 256] and t.points[-1].tolist() == [256, 0]
    assert t.length == pytest.approx(96 + 104 * math.pi)  # 2 * (256 - 208) straight + a quarter circle of 208
    assert (t.facings[0], t.facings[-1], t.headings[-1]) == (2, 0, 0.0)
    t = track(2, 3)  # north then north-west, 45 degrees left
    assert (t.kind, t.turn, t.radius) == ("curve", 1, 340.0)
    assert t.points[-1].tolist() == [-256, -256] and t.headings[-1] == 3.0
    t = track(1, 7)  # north-east then south-east
    assert (t.turn, t.radius) == (-2, 104.0)
    assert t.points[0].tolist() == [-256, 256] and t.points[-1].tolist() == [256, 256]
    t = track(0, 4)  # a U-turn turns on the spot at the centre
    assert (t.kind, t.turn, t.radius) == ("pivot", 4, 0.0)
    assert t.points[-1].tolist() == [-256, 0] and t.length == 512.0
    spot = np.flatnonzero((t.points == 0).all(axis=1))
    assert len(spot) == 1 + 4 / 0.25  # arrives, then 16 frames turning a quarter step each
    assert t.headings[spot[-1]] == 4.0
    assert track(0, 3).kind == "pivot" and track(0, 5).turn == -3


def test_units_that_pivot_turn_on_the_spot() -> None:
    t = track(2, 0, pivot=True)
    assert (t.kind, t.radius, t.length) == ("pivot", 0.0, 512.0)
    assert [0, 0] in t.points.tolist()
    assert track(2, 2, pivot=True).kind == "straight"


@pytest.mark.parametrize("a", range(8))
@pytest.mark.parametrize("b", range(8))
@pytest.mark.parametrize("step", [DEFAULT_STEP, 4.0, 37.5])
def test_every_track_is_continuous_and_ends_at_the_next_centre(a: int, b: int, step: float) -> None:
    t = track(a, b, step=step)
    da, db = SQUARE8_DIRECTIONS[a], SQUARE8_DIRECTIONS[b]
    assert t.points[0].tolist() == [-256 * da[0], -256 * da[1]]
    assert t.points[-1].tolist() == [256 * db[0], 256 * db[1]]
    assert gaps(t.points).max() <= step
    # on an arc the heading turns by the arc step over the radius; on the spot by pivot_step (0.25)
    most = step / t.radius / (math.pi / 4) + 1e-9 if t.radius else 0.25
    assert heading_gaps(t.headings).max() <= most
    assert (t.headings[0], t.headings[-1]) == (a, b)
    assert ((0 <= t.headings) & (t.headings < 8)).all()
    assert t.points.dtype == np.int64 and t.points.shape == (len(t.headings), 2)


@pytest.mark.parametrize("a", range(8))
@pytest.mark.parametrize("k", [1, 2])
def test_left_and_right_turns_mirror_each_other(a: int, k: int) -> None:
    left, right = track(a, (a + k) % 8), track(a, (a - k) % 8)
    assert (left.turn, right.turn) == (k, -k)
    assert left.length == pytest.approx(right.length) and left.radius == right.radius
    # reflect across the line of the entry direction: mirror image of the left turn is the right turn
    ux, uy = np.array(SQUARE8_DIRECTIONS[a], float) / math.hypot(*SQUARE8_DIRECTIONS[a])
    p = left.points.astype(float)
    along = p @ np.array([ux, uy])
    mirrored = 2 * np.outer(along, [ux, uy]) - p
    assert len(mirrored) == len(right.points)
    assert np.abs(mirrored - right.points).max() <= 1.0  # rounding to whole leptons
    assert np.allclose((2 * a - left.headings) % 8, right.headings % 8)


def test_rotating_a_track_by_90_degrees_gives_the_track_of_the_rotated_facings() -> None:
    for a, b in [(2, 1), (2, 0), (1, 7), (1, 0)]:
        t, r = track(a, b), track((a + 2) % 8, (b + 2) % 8)
        # a quarter turn counter-clockwise on screen (y down): (x, y) -> (y, -x)
        rot = np.stack([t.points[:, 1], -t.points[:, 0]], axis=1)
        assert np.abs(rot - r.points).max() <= 1


def test_path_track_curves_at_bends_and_pivots_where_it_must() -> None:
    cells = [(0, 2), (1, 2), (2, 2), (2, 1), (2, 0), (3, 0)]  # east, north (90 left), east (90 right)
    p = path_track(cells)
    assert isinstance(p, PathTrack)
    assert p.points[0].tolist() == [128, 640] and p.points[-1].tolist() == [896, 128]
    assert p.curves == [(2, 2), (2, 0)] and p.pivots == []
    assert gaps(p.points).max() <= DEFAULT_STEP
    # the two bends are two cells apart and the last segment is one cell (256 > 208): both keep the full
    # 90 degree radius, each saving 2 * 208 - 104 * pi leptons on the corner it cuts
    assert p.length == pytest.approx(5 * 256 - 2 * (2 * 208 - 104 * math.pi))
    assert (p.facings[0], p.facings[-1]) == (0, 0)
    assert 2 in p.facings.tolist()


def test_close_bends_shrink_to_half_a_segment_and_stay_continuous() -> None:
    cells = [(0, 3), (0, 2), (1, 1), (1, 0), (2, -1)]  # north, north-east, north, north-east: a zigzag
    p = path_track(cells)
    assert p.curves == [(0, 2), (1, 1), (1, 0)] and p.pivots == []
    assert gaps(p.points).max() <= DEFAULT_STEP
    assert heading_gaps(p.headings).max() < 0.5
    assert p.points[-1].tolist() == [2 * 256 + 128, -256 + 128]
    straight = 2 * 256 + 2 * 256 * math.sqrt(2)
    assert p.length < straight


def test_path_track_pivots() -> None:
    p = path_track([(0, 0), (1, 0), (1, 1), (0, 0)])  # east, south (90 right), north-west (135 right)
    assert p.curves == [(1, 0)] and p.pivots == [(1, 1)]
    p = path_track([(0, 0), (1, 0), (1, 1)], pivot=True)
    assert p.curves == [] and p.pivots == [(1, 0)]
    assert [384, 128] in p.points.tolist()
    p = path_track([(0, 0), (1, 0)], facing=4)  # facing west, drives east: turns at the start
    assert p.pivots == [(0, 0)] and p.headings[0] == 4.0 and p.facings[-1] == 0
    one = path_track([(3, 4)])
    assert one.points.tolist() == [[896, 1152]] and one.length == 0.0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 7), min_size=1, max_size=12), st.booleans(),
       st.floats(4.0, 64.0))
def test_path_track_properties(dirs: list[int], pivot: bool, step: float) -> None:
    cells = [(0, 0)]
    for d in dirs:
        dx, dy = SQUARE8_DIRECTIONS[d]
        cells.append((cells[-1][0] + dx, cells[-1][1] + dy))
    p = path_track(cells, pivot=pivot, step=step)
    assert p.points[0].tolist() == [128, 128]
    assert p.points[-1].tolist() == [cells[-1][0] * 256 + 128, cells[-1][1] * 256 + 128]
    assert gaps(p.points).max(initial=0) <= step
    assert p.headings[-1] == dirs[-1]
    # never longer than the line through the centres, and every point within a cell of some path cell
    centres = sum(math.hypot(*SQUARE8_DIRECTIONS[d]) * 256 for d in dirs)
    assert p.length <= centres + 1e-6
    cell_of = p.points // 256
    path = np.array(cells)
    assert (np.abs(cell_of[:, None, :] - path[None, :, :]).max(axis=2) <= 1).any(axis=1).all()
    if pivot:
        assert p.curves == []


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: track(8, 0), "from_facing must be a square-8 direction"),
        (lambda: track(0, -1), "to_facing"),
        (lambda: track(0, 1, step=2), "step must be between 4 and 256"),
        (lambda: track(0, 1, step=float("nan")), "step"),
        (lambda: track(0, 1, pivot_step=0), "pivot_step"),
        (lambda: path_track([]), "at least one cell"),
        (lambda: path_track([(0, 0), (2, 0)]), "not square-8 neighbours"),
        (lambda: path_track([(0, 0), (0, 0)]), "not square-8 neighbours"),
        (lambda: path_track([(0, 0), (1, 0)], facing=9), "facing"),
    ],
)
def test_bad_values(call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ArgumentError, match=message):
        call()


def test_bad_types() -> None:
    with pytest.raises(TypeError, match="from_facing must be an integer"):
        track(1.5, 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="pivot must be True or False"):
        track(0, 1, pivot=1)  # type: ignore[arg-type]
    with pytest.raises(WargridError):
        path_track(5)  # type: ignore[arg-type]
    with pytest.raises(WargridError):
        path_track([(0, 0), "ab"])  # type: ignore[list-item]
    assert isinstance(track(0, 1), Track)
