"""Curved tracks: how a vehicle drives through the cells of a path, in leptons, turning while it advances.

On square boards a vehicle faces one of the 8 directions of ``Grid.neighbor``
(0 east, 1 north-east, 2 north, ... 7 south-east; ``y`` grows downwards, so
north is ``-y``). A *track* is the line a vehicle drives through one cell of a
path: it starts at the centre of the cell it comes from, crosses the cell it
turns in and ends at the centre of the cell it goes to. Points are offsets in
leptons (256 a cell) from the centre of the cell turned in.

- ``kind='straight'``: no turn, a straight line.
- ``kind='curve'``: a turn of 45 or 90 degrees (one or two facing steps)
  cuts the corner with a circular arc tangent to the straight lines between
  the cell centres; the facing turns while the vehicle advances.
- ``kind='pivot'``: a sharper turn (135 or 180 degrees), or any turn of a unit
  that turns on the spot (``pivot=True``): the vehicle drives to the centre,
  turns there (frames whose position does not change) and drives on.

The classic engine's tracks (Red Alert's drive tables) are hand-drawn
curves, a point a screen pixel (``256 / 24`` leptons) apart, spanning two path
steps: from the centre of the cell before the turn to the centre of the cell
after it. wargrid builds them instead as circular arcs whose radius is set so
that each curve has the classic track's length (within 1%) and passes the
corner at the classic distance (within a few leptons); ``TRACK_RADII``:

- 45 degrees (an orthogonal and a diagonal step): 340 leptons;
- 90 degrees between orthogonal steps: 208 leptons;
- 90 degrees between diagonal steps: 104 leptons.

``path_track`` applies the same curves at every bend of a path of cells (an
extension: the classic engine picks one track per pair of steps). Where two
bends are too close for both arcs (the arcs would overlap on the segment
between them) both arcs shrink to half that segment, so the line stays
continuous and the facing never turns by more than the bend.

Points are sampled evenly along the line and rounded to whole leptons, at most
``step`` leptons apart (default one classic pixel, ``256 / 24``); the
``headings`` are the facing as a continuous number (``1.5``: halfway from
north-east to north), in ``[0, 8)``.

>>> t = track(2, 0)                      # driving north, then east: a 90 degree right turn
>>> t.kind, t.points[0].tolist(), t.points[-1].tolist(), round(t.length, 1)
('curve', [0, 256], [256, 0], 422.7)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
from numpy.typing import NDArray

from .._validate import check_cell_pair, check_int, check_iterable, check_real
from ..errors import ArgumentError, ArgumentTypeError
from ..grids.leptons import LEPTONS_PER_CELL
from ..grids.square import SQUARE8_DIRECTIONS

__all__ = ["TRACK_KINDS", "TRACK_RADII", "DEFAULT_STEP", "Track", "PathTrack", "track", "path_track"]

TRACK_KINDS = ("straight", "curve", "pivot")
"""What a track does in its cell: drive straight, curve (45 or 90 degrees), turn on the spot."""

TRACK_RADII: dict[str, float] = {"turn45": 340.0, "turn90": 208.0, "turn90_diagonal": 104.0}
"""Arc radius in leptons of each curve: 45 degrees, 90 degrees between orthogonal steps, 90 degrees between
diagonal steps (set so that a curve has the classic track's length and passes the corner where it does)."""

DEFAULT_STEP = LEPTONS_PER_CELL / 24
"""The default distance between track points in leptons: one pixel of the classic engine (24 a cell)."""

_NDIR = 8
_QUARTER = math.pi / 4
_ROUNDING = math.sqrt(2.0)  # the most rounding to whole leptons adds to the distance between two points


@dataclass(frozen=True)
class Track:
    """The line a vehicle drives through one cell (see the module text).

    ``points``: ``(n, 2)`` int64 offsets ``(x, y)`` in leptons from the centre of the cell turned in, from
    the centre of the cell before it to the centre of the cell after it; ``headings``: ``(n,)`` float64
    facings as continuous numbers in ``[0, 8)``; ``turn``: signed facing steps (``+`` left, counter-clockwise
    on screen; a U-turn is ``+4``); ``radius``: the arc's radius in leptons (0 unless ``kind='curve'``);
    ``length``: the distance driven in leptons (of the exact line, before rounding)."""

    from_facing: int
    to_facing: int
    turn: int
    kind: str
    radius: float
    length: float
    points: NDArray[np.int64] = field(repr=False)
    headings: NDArray[np.float64] = field(repr=False)

    @property
    def facings(self) -> NDArray[np.int64]:
        """The nearest board direction at each point."""
        return _nearest(self.headings)


@dataclass(frozen=True)
class PathTrack:
    """The line a vehicle drives along a path of cells: ``points`` ``(n, 2)`` int64 absolute positions in
    leptons, ``headings`` ``(n,)`` float64 in ``[0, 8)``, ``length`` in leptons, the cells where it curved
    (``curves``) and where it turned on the spot (``pivots``, the start cell too when ``facing`` differs from
    the first step)."""

    points: NDArray[np.int64] = field(repr=False)
    headings: NDArray[np.float64] = field(repr=False)
    length: float
    curves: list[tuple[int, int]]
    pivots: list[tuple[int, int]]

    @property
    def facings(self) -> NDArray[np.int64]:
        """The nearest board direction at each point."""
        return _nearest(self.headings)


def _nearest(h: NDArray[np.float64]) -> NDArray[np.int64]:
    return (np.floor(h + 0.5).astype(np.int64)) % _NDIR


def _unit(d: int) -> tuple[float, float]:
    dx, dy = SQUARE8_DIRECTIONS[d]
    n = math.hypot(dx, dy)
    return dx / n, dy / n


def _turn(a: int, b: int) -> int:
    k = (b - a) % _NDIR
    return k - _NDIR if k > 4 else k


def _radius(a: int, k: int) -> float:
    if abs(k) == 1:
        return TRACK_RADII["turn45"]
    return TRACK_RADII["turn90_diagonal"] if a % 2 else TRACK_RADII["turn90"]


# A route is a list of pieces: ("line", x, y, ux, uy, length, heading), ("arc", ox, oy, radius, alpha0, sign,
# length, heading0) or ("spin", x, y, heading0, dheading).
_Piece = tuple[Any, ...]


def _pieces(centres: NDArray[np.float64], dirs: list[int], start_heading: int, curve: list[bool],
            limit: list[float]) -> tuple[list[_Piece], float]:
    """Pieces along the cell centres: ``dirs[i]`` leads from centre ``i`` to ``i + 1``; vertex ``i`` (1..m-2)
    curves if ``curve[i]`` with tangent length at most ``limit[i]``, else spins when the direction changes."""
    out: list[_Piece] = []
    total = 0.0
    x, y = float(centres[0, 0]), float(centres[0, 1])
    if dirs and dirs[0] != start_heading:
        out.append(("spin", x, y, float(start_heading), float(_turn(start_heading, dirs[0]))))
    for i, d in enumerate(dirs):
        ux, uy = _unit(d)
        ex, ey = float(centres[i + 1, 0]), float(centres[i + 1, 1])
        nxt = i + 1
        t_out = 0.0
        if nxt < len(dirs) and curve[nxt]:
            k = _turn(d, dirs[nxt])
            theta = abs(k) * _QUARTER
            r = _radius(d, k)
            t_out = min(r * math.tan(theta / 2), limit[nxt])
        # the straight part: from the current point to the next tangent point (or the centre)
        seg = math.hypot(ex - x, ey - y) - t_out
        if seg > 1e-9:
            out.append(("line", x, y, ux, uy, seg, float(d)))
            total += seg
        x, y = ex - t_out * ux, ey - t_out * uy
        if nxt < len(dirs):
            d2 = dirs[nxt]
            k = _turn(d, d2)
            if curve[nxt]:
                s = 1 if k > 0 else -1
                theta = abs(k) * _QUARTER
                r = t_out / math.tan(theta / 2)
                a0 = d * _QUARTER
                nx, ny = s * -math.sin(a0), s * -math.cos(a0)
                ox, oy = x + r * nx, y + r * ny
                out.append(("arc", ox, oy, r, a0, s, r * theta, float(d)))
                total += r * theta
                vx, vy = _unit(d2)
                x, y = ex + t_out * vx, ey + t_out * vy
            elif k:
                out.append(("spin", x, y, float(d), float(k)))
    return out, total


def _sample(pieces: list[_Piece], step: float, pivot_step: float, x0: float, y0: float,
            h0: float) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    xs: list[NDArray[np.float64]] = [np.array([x0])]
    ys: list[NDArray[np.float64]] = [np.array([y0])]
    hs: list[NDArray[np.float64]] = [np.array([h0])]
    run: list[_Piece] = []

    def flush() -> None:
        if not run:
            return
        lengths = np.array([p[6] if p[0] == "arc" else p[5] for p in run])
        total = float(lengths.sum())
        n = max(1, math.ceil(total / (step - _ROUNDING)))
        s = total * np.arange(1, n + 1) / n
        ends = np.cumsum(lengths)
        which = np.minimum(np.searchsorted(ends, s - 1e-9), len(run) - 1)
        local = s - (ends - lengths)[which]
        for j, p in enumerate(run):
            sel = which == j
            if not sel.any():
                continue
            u = np.minimum(local[sel], lengths[j])
            if p[0] == "line":
                _, px, py, ux, uy, _, h = p
                xs.append(px + u * ux)
                ys.append(py + u * uy)
                hs.append(np.full(u.shape, h))
            else:
                _, ox, oy, r, a0, sg, _, hh = p
                a = a0 + sg * u / r
                xs.append(ox - r * sg * -np.sin(a))
                ys.append(oy - r * sg * -np.cos(a))
                hs.append(hh + sg * (u / r) / _QUARTER)
        run.clear()

    for p in pieces:
        if p[0] == "spin":
            flush()
            _, px, py, hh, dh = p
            m = max(1, math.ceil(abs(dh) / pivot_step))
            xs.append(np.full(m, px))
            ys.append(np.full(m, py))
            hs.append(hh + dh * np.arange(1, m + 1) / m)
        else:
            run.append(p)
    flush()
    pts = np.stack([np.concatenate(xs), np.concatenate(ys)], axis=1)
    h = np.concatenate(hs) % _NDIR
    h[h >= _NDIR] = 0.0  # a tiny negative heading wraps to exactly 8.0 in floating point
    return np.floor(pts + 0.5).astype(np.int64), h


def _check_facing(v: Any, name: str) -> int:
    f = check_int(v, name)
    if not 0 <= f < _NDIR:
        raise ArgumentError(f"{name} must be a square-8 direction 0..7 (0 east, 2 north, 4 west, 6 south), got {f}")
    return f


def _check_options(pivot: Any, step: Any, pivot_step: Any) -> tuple[bool, float, float]:
    if not isinstance(pivot, (bool, np.bool_)):
        raise ArgumentTypeError(f"pivot must be True or False, got {type(pivot).__name__} {pivot!r}")
    st = check_real(step, "step")
    if not 4 <= st <= LEPTONS_PER_CELL:
        raise ArgumentError(f"step must be between 4 and {LEPTONS_PER_CELL} leptons, got {st}")
    ps = check_real(pivot_step, "pivot_step")
    if not 0 < ps <= 4:
        raise ArgumentError(f"pivot_step must be > 0 and <= 4 facing steps a frame, got {ps}")
    return bool(pivot), st, ps


def track(from_facing: int, to_facing: int, *, pivot: bool = False, step: float = DEFAULT_STEP,
          pivot_step: float = 0.25) -> Track:
    """The track through one cell entered facing ``from_facing`` and left facing ``to_facing``.

    Parameters
    ----------
    from_facing, to_facing : int
        Square-8 directions ``0..7`` (``Grid.neighbor``'s numbering: 0 east, 2 north, 4 west, 6 south).
    pivot : bool
        Turn on the spot at the centre even for 45 and 90 degree turns (units that pivot, as tanks may).
    step : float
        The most leptons between two consecutive points, ``4..256`` (default one classic pixel).
    pivot_step : float
        The most facing steps turned between two frames on the spot, ``(0, 4]``.

    Returns
    -------
    Track
        From the centre of the cell before (``-256 *`` the ``from_facing`` step) to the centre of the cell
        after (``+256 *`` the ``to_facing`` step), offsets from the centre of the cell turned in.

    Raises
    ------
    ArgumentError, ArgumentTypeError
        A facing outside ``0..7``, a ``step`` or ``pivot_step`` out of range, a non-bool ``pivot``.

    Examples
    --------
    >>> t = track(0, 1)                                  # east, then north-east: 45 degrees left
    >>> t.kind, t.turn, t.points[-1].tolist(), float(t.headings[-1])
    ('curve', 1, [256, -256], 1.0)
    >>> track(0, 4).kind, track(0, 2, pivot=True).kind
    ('pivot', 'pivot')
    """
    a = _check_facing(from_facing, "from_facing")
    b = _check_facing(to_facing, "to_facing")
    pv, st, ps = _check_options(pivot, step, pivot_step)
    k = _turn(a, b)
    da, db = SQUARE8_DIRECTIONS[a], SQUARE8_DIRECTIONS[b]
    c = LEPTONS_PER_CELL
    centres = np.array([[-da[0] * c, -da[1] * c], [0, 0], [db[0] * c, db[1] * c]], dtype=np.float64)
    bends = k != 0 and abs(k) <= 2 and not pv
    limit = min(math.hypot(*da), math.hypot(*db)) * c
    pieces, length = _pieces(centres, [a, b], a, [False, bends, False], [0.0, limit, 0.0])
    pts, hs = _sample(pieces, st, ps, centres[0, 0], centres[0, 1], float(a))
    kind = "straight" if k == 0 else ("curve" if bends else "pivot")
    radius = _radius(a, k) if bends else 0.0
    return Track(from_facing=a, to_facing=b, turn=k, kind=kind, radius=radius, length=length, points=pts,
                 headings=hs)


def path_track(cells: Sequence[tuple[int, int]], *, facing: int | None = None, pivot: bool = False,
               step: float = DEFAULT_STEP, pivot_step: float = 0.25) -> PathTrack:
    """The lepton points a vehicle drives along a path of cells (each cell a square-8 neighbour of the last).

    The line joins the cell centres; it curves at each bend of 45 or 90 degrees (``TRACK_RADII``, arcs
    shrunk to half a segment where two bends share it) and turns on the spot at sharper bends, at every
    bend with ``pivot=True``, and at the start when ``facing`` is not the first step's direction.

    Parameters
    ----------
    cells : sequence of (x, y)
        The path, one cell after another; at least one cell.
    facing : int, optional
        The vehicle's facing at the start (``0..7``); default the first step's direction.
    pivot : bool
        Turn on the spot at every bend (units that pivot).
    step : float
        The most leptons between two consecutive points, ``4..256``.
    pivot_step : float
        The most facing steps turned between two frames on the spot, ``(0, 4]``.

    Returns
    -------
    PathTrack

    Raises
    ------
    ArgumentError, ArgumentTypeError
        An empty path, two consecutive cells that are not square-8 neighbours, bad options.

    Examples
    --------
    >>> p = path_track([(0, 1), (1, 1), (2, 1), (2, 0)])
    >>> p.points[0].tolist(), p.points[-1].tolist(), p.curves, p.pivots
    ([128, 384], [640, 128], [(2, 1)], [])
    >>> path_track([(0, 0), (1, 0), (0, 0)]).pivots      # a U-turn turns on the spot
    [(1, 0)]
    """
    pv, st, ps = _check_options(pivot, step, pivot_step)
    cs = [check_cell_pair(c, "cells[]") for c in check_iterable(cells, "cells", "a sequence of (x, y) cells")]
    if not cs:
        raise ArgumentError("cells must hold at least one cell, got an empty path")
    dirs: list[int] = []
    for i in range(1, len(cs)):
        step_xy = (cs[i][0] - cs[i - 1][0], cs[i][1] - cs[i - 1][1])
        if step_xy not in SQUARE8_DIRECTIONS:
            raise ArgumentError(
                f"cells[{i - 1}] {cs[i - 1]} and cells[{i}] {cs[i]} are not square-8 neighbours: each cell of the "
                "path must be one of the 8 cells around the one before it"
            )
        dirs.append(SQUARE8_DIRECTIONS.index(step_xy))
    f0 = dirs[0] if dirs else 0
    if facing is not None:
        f0 = _check_facing(facing, "facing")
    half = LEPTONS_PER_CELL // 2
    centres = np.array([[x * LEPTONS_PER_CELL + half, y * LEPTONS_PER_CELL + half] for x, y in cs], dtype=np.float64)
    m = len(cs)
    turns = [0] + [_turn(dirs[i - 1], dirs[i]) for i in range(1, m - 1)] + [0]
    curve = [False] + [(not pv) and 1 <= abs(turns[i]) <= 2 for i in range(1, m - 1)] + [False]
    seglen = [math.hypot(*SQUARE8_DIRECTIONS[d]) * LEPTONS_PER_CELL for d in dirs]
    limit = [0.0] * m
    for i in range(1, m - 1):
        if curve[i]:
            lin = seglen[i - 1] / 2 if curve[i - 1] else seglen[i - 1]
            lout = seglen[i] / 2 if curve[i + 1] else seglen[i]
            limit[i] = min(lin, lout)
    pieces, length = _pieces(centres, dirs, f0, curve, limit)
    pts, hs = _sample(pieces, st, ps, centres[0, 0], centres[0, 1], float(f0))
    curves = [cs[i] for i in range(1, m - 1) if curve[i]]
    pivots = [cs[i] for i in range(1, m - 1) if turns[i] and not curve[i]]
    if dirs and f0 != dirs[0]:
        pivots.insert(0, cs[0])
    return PathTrack(points=pts, headings=hs, length=length, curves=curves, pivots=pivots)
