"""The visibility polygon of a light at any point of a square tile board (2D lighting).

Tile ``(x, y)`` covers ``[x, x + 1] x [y, y + 1]`` in board units (the
drawing units of ``SquareGrid``); the light is a float point ``(px, py)``.
The polygon is built in four steps:

1. collect the edges of sight-blocking tiles that face the light (an edge
   between a blocking tile and an open one, with the light strictly on the
   open side), plus the four sides of the bounding box;
2. link them into chains: runs of collinear edges that touch become one
   segment;
3. cast a ray at every chain end (and a hair to either side of it): the
   rays beside a loose end slip past it to the nearest edge behind, which
   they cut. A ray is marched tile by tile from the light until it enters a
   blocking tile, so its cost is the length it travels, not the number of
   edges on the board;
4. walk the hits in order of angle around the light: that is the polygon.

Hits are computed in floating point: a vertex on a shadow edge can be off
by about ``1e-7`` times its distance from the light.

The light may sit on a tile corner or edge (directions that enter a blocking
tile at once are dark), in a closed room (the polygon is the room), or on an
open board (the polygon is closed by the bounding box, by default the board).
A light strictly inside a blocking tile (a viewer standing in a forest) sees
out of it: its own tile is treated as open, as field of view treats the
viewer's cell. ``radius`` clips the polygon to the disc of that radius around
the light (the arc drawn as chords at most ``ARC_STEP`` radians apart), so
the lit area ends where the sight radius does.

>>> import numpy as np
>>> from wargrid import SquareGrid
>>> walls = np.zeros((3, 3), dtype=bool); walls[1, 1] = True
>>> p = visibility_polygon(SquareGrid(3, 3), walls, (0.5, 1.5))
>>> bool(p.contains(0.5, 0.5)), bool(p.contains(2.5, 1.5)), bool(p.contains(1.2, 0.3))
(True, False, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..errors import ArgumentError, ArgumentTypeError
from .._validate import check_bool_layer, check_real
from ..grids.boards import Grid, SquareGrid

__all__ = ["VisibilityPolygon", "visibility_polygon"]

_EPS_ANGLE = 1e-7
ARC_STEP = math.pi / 45  # the largest angle between two vertices of a clipped arc (4 degrees)


@dataclass(frozen=True, eq=False)
class VisibilityPolygon:
    """The lit region around ``light``: ``points`` is an ``(n, 2)`` array of ``(x, y)`` vertices in order of angle."""

    light: tuple[float, float]
    points: NDArray[np.float64]

    def __len__(self) -> int:
        return len(self.points)

    @property
    def area(self) -> float:
        """Area of the polygon (shoelace formula)."""
        x, y = self.points[:, 0], self.points[:, 1]
        return float(abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2.0)

    def contains(self, x: ArrayLike, y: ArrayLike) -> NDArray[np.bool_]:
        """Whether the points ``(x, y)`` (scalars or arrays) lie inside the polygon (even-odd rule).

        >>> VisibilityPolygon((0.5, 0.5), np.array([[0.0, 0], [1, 0], [1, 1], [0, 1]])).contains([0.5, 2.0], 0.5)
        array([ True, False])
        """
        px = np.asarray(x, dtype=np.float64)
        py = np.asarray(y, dtype=np.float64)
        px, py = np.broadcast_arrays(px, py)
        inside = np.zeros(px.shape, dtype=bool)
        pts = self.points
        x0, y0 = pts[:, 0], pts[:, 1]
        x1, y1 = np.roll(x0, -1), np.roll(y0, -1)
        for a, b, c, d in zip(x0, y0, x1, y1):
            crosses = (b > py) != (d > py)
            with np.errstate(divide="ignore", invalid="ignore"):
                xc = a + (py - b) * (c - a) / (d - b)
            inside ^= crosses & (px < xc)
        return inside


def _check_point(point: Any, name: str) -> tuple[float, float]:
    try:
        px, py = point
    except (TypeError, ValueError):
        raise ArgumentTypeError(f"{name} must be an (x, y) pair of numbers, got {point!r}") from None
    return check_real(px, f"{name}[0] (x)"), check_real(py, f"{name}[1] (y)")


def _check_bounds(bounds: Any, grid: Grid) -> tuple[float, float, float, float]:
    if bounds is None:
        return 0.0, 0.0, float(grid.width), float(grid.height)
    try:
        x0, y0, x1, y1 = bounds
    except (TypeError, ValueError):
        raise ArgumentTypeError(f"bounds must be (x0, y0, x1, y1) or None, got {bounds!r}") from None
    x0, y0, x1, y1 = (check_real(v, f"bounds[{i}]") for i, v in enumerate((x0, y0, x1, y1)))
    x0, y0 = max(x0, 0.0), max(y0, 0.0)
    x1, y1 = min(x1, float(grid.width)), min(y1, float(grid.height))
    if not (x0 < x1 and y0 < y1):
        raise ArgumentError(f"bounds must overlap the board with x0 < x1 and y0 < y1, got {bounds!r}")
    return x0, y0, x1, y1


def _merge(line: NDArray[np.int64], start: NDArray[np.int64], side: NDArray[np.int64]) -> NDArray[np.float64]:
    """Runs of unit edges on one line, facing one side, that touch: ``(k, 3)`` of line, start, end."""
    if line.size == 0:
        return np.zeros((0, 3))
    order = np.lexsort((start, line, side))
    line, start, side = line[order], start[order], side[order]
    new = np.ones(line.size, dtype=bool)
    new[1:] = (line[1:] != line[:-1]) | (side[1:] != side[:-1]) | (start[1:] != start[:-1] + 1)
    first = np.flatnonzero(new)
    last = np.append(first[1:], line.size) - 1
    return np.stack([line[first], start[first], start[last] + 1], axis=1).astype(np.float64)


def _segments(blk: NDArray[np.bool_], lx: float, ly: float, box: tuple[float, float, float, float]) -> NDArray[np.float64]:
    """Steps 1 and 2: the chains of facing edges, plus the box, as ``(S, 4)`` segments."""
    x0, y0, x1, y1 = box
    h, w = blk.shape
    # blocking tiles that reach inside the box, padded with open cells so every edge is found
    gx0, gy0 = int(math.floor(x0)), int(math.floor(y0))
    gx1, gy1 = int(math.ceil(x1)), int(math.ceil(y1))
    sub = np.zeros((gy1 - gy0 + 2, gx1 - gx0 + 2), dtype=bool)
    sub[1:-1, 1:-1] = blk[gy0:gy1, gx0:gx1]
    ys, xs = np.nonzero(sub[1:-1, 1:-1])
    xs = xs + gx0
    ys = ys + gy0
    sy, sx = ys - gy0 + 1, xs - gx0 + 1
    parts = []
    # horizontal edges: top (line y, faces up) and bottom (line y + 1, faces down)
    top = (ly < ys) & ~sub[sy - 1, sx]
    bot = (ly > ys + 1) & ~sub[sy + 1, sx]
    hl = np.concatenate([ys[top], ys[bot] + 1])
    hs = np.concatenate([xs[top], xs[bot]])
    hside = np.concatenate([np.zeros(top.sum(), int), np.ones(bot.sum(), int)])
    # every chain is cut to the box (a box off the tile lines cuts walls): its ends are where rays must go
    for ln, a, b in _merge(hl, hs, hside):
        if y0 <= ln <= y1 and max(a, x0) < min(b, x1):
            parts.append((max(a, x0), ln, min(b, x1), ln))
    left = (lx < xs) & ~sub[sy, sx - 1]
    right = (lx > xs + 1) & ~sub[sy, sx + 1]
    vl = np.concatenate([xs[left], xs[right] + 1])
    vs = np.concatenate([ys[left], ys[right]])
    vside = np.concatenate([np.zeros(left.sum(), int), np.ones(right.sum(), int)])
    for ln, a, b in _merge(vl, vs, vside):
        if x0 <= ln <= x1 and max(a, y0) < min(b, y1):
            parts.append((ln, max(a, y0), ln, min(b, y1)))
    parts += [(x0, y0, x1, y0), (x1, y0, x1, y1), (x1, y1, x0, y1), (x0, y1, x0, y0)]
    return np.array(parts, dtype=np.float64)


def _first_tiles(v: float, d: NDArray[np.float64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Along one axis, the tile index a ray from ``v`` with direction ``d`` enters first.

    Two indices per ray: equal, except for a ray running exactly along a grid line.
    """
    f = math.floor(v)
    if v != f:
        a = np.full(d.shape, f, dtype=np.int64)
        return a, a
    return np.where(d > 0, f, f - 1).astype(np.int64), np.where(d < 0, f - 1, f).astype(np.int64)


def _enters_blocking(blk: NDArray[np.bool_], lx: float, ly: float, dx: NDArray[np.float64],
                     dy: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Rays that enter a blocking tile (or leave the board) right at the light.

    A ray running along a tile edge is dark only when the tiles on both sides block.
    """
    h, w = blk.shape
    cols = _first_tiles(lx, dx)
    rows = _first_tiles(ly, dy)
    dark = np.ones(dx.shape, dtype=bool)
    for c in cols:
        for r in rows:
            inside = (c >= 0) & (c < w) & (r >= 0) & (r < h)
            dark &= ~inside | blk[np.clip(r, 0, h - 1), np.clip(c, 0, w - 1)]
    return dark


def visibility_polygon(
    grid: Grid,
    blocks: NDArray[np.bool_],
    light: tuple[float, float],
    *,
    bounds: Sequence[float] | None = None,
    radius: float | None = None,
) -> VisibilityPolygon:
    """The polygon lit by a light at float point ``light = (x, y)`` on a square board.

    Parameters
    ----------
    grid
        The square board.
    blocks
        The boolean ``(height, width)`` layer of sight-blocking tiles
        (masked-out cells block too). The tile holding the light is treated as
        open: a viewer standing in a forest sees out of it.
    light
        The light's float point; it must lie inside ``bounds``.
    bounds
        An optional ``(x0, y0, x1, y1)`` box that closes the polygon (default:
        the board).
    radius
        When given (a positive number), the polygon is clipped to the disc of
        this radius around the light.

    Returns
    -------
    VisibilityPolygon
        The vertices in order of angle around the light.

    Raises
    ------
    ArgumentTypeError
        ``grid`` is not a ``SquareGrid``, or ``light`` is not a pair of numbers.
    ArgumentError
        ``light`` lies outside ``bounds``, ``bounds`` is not a proper box,
        ``radius`` is not positive, or ``blocks`` has the wrong shape.

    >>> from wargrid import SquareGrid
    >>> p = visibility_polygon(SquareGrid(4, 4), np.zeros((4, 4), dtype=bool), (1.0, 1.0))
    >>> round(p.area, 9), len(p)
    (16.0, 4)
    >>> round(visibility_polygon(SquareGrid(9, 9), np.zeros((9, 9), dtype=bool), (4.5, 4.5), radius=2).area, 2)
    12.56
    """
    from .._kernels.sight.polygon import march_rays

    if not isinstance(grid, SquareGrid):
        raise ArgumentTypeError(f"grid must be a SquareGrid (the polygon is built from square tile edges), got {type(grid).__name__}")
    blk = check_bool_layer(blocks, "blocks", grid.shape)
    blk = blk | ~grid.mask
    lx, ly = _check_point(light, "light")
    box = _check_bounds(bounds, grid)
    if not (box[0] <= lx <= box[2] and box[1] <= ly <= box[3]):
        raise ArgumentError(f"light {(lx, ly)} must be inside the bounds {box}")
    reach = None if radius is None else check_real(radius, "radius")
    if reach is not None and not reach > 0:
        raise ArgumentError(f"radius must be a positive number of board units, got {radius!r}")
    tx, ty = int(math.floor(lx)), int(math.floor(ly))
    if lx != tx and ly != ty and tx < grid.width and ty < grid.height and blk[ty, tx]:
        blk = blk.copy()
        blk[ty, tx] = False  # the viewer's own tile: it sees out of the forest it stands in
    if reach is not None:  # nothing beyond the disc matters: a smaller box is fewer edges and shorter rays
        box = (max(box[0], lx - reach), max(box[1], ly - reach), min(box[2], lx + reach), min(box[3], ly + reach))

    seg = _segments(blk, lx, ly, box)
    # step 3: rays at every chain end, at the corners of blocking tiles the light touches, a hair to each side
    targets = [seg[:, 0:2], seg[:, 2:4]]
    for cx in {math.floor(lx), math.ceil(lx)}:
        for cy in {math.floor(ly), math.ceil(ly)}:
            for ox in (-1, 0):
                for oy in (-1, 0):
                    if 0 <= cx + ox < grid.width and 0 <= cy + oy < grid.height and blk[cy + oy, cx + ox]:
                        targets.append(np.array([[cx + ox, cy + oy], [cx + ox + 1, cy + oy], [cx + ox, cy + oy + 1],
                                                 [cx + ox + 1, cy + oy + 1]], dtype=np.float64))
    pts = np.unique(np.concatenate(targets), axis=0)
    pts = pts[np.hypot(pts[:, 0] - lx, pts[:, 1] - ly) > 1e-12]
    base = np.arctan2(pts[:, 1] - ly, pts[:, 0] - lx)
    ang = np.unique(np.concatenate([base - _EPS_ANGLE, base, base + _EPS_ANGLE]))
    dx, dy = np.cos(ang), np.sin(ang)
    t = march_rays(lx, ly, dx, dy, blk.astype(np.uint8), *box)
    # directions that enter a blocking tile (or leave the box) at once are dark: the hit is the light itself
    out = ((lx <= box[0]) & (dx < 0)) | ((lx >= box[2]) & (dx > 0)) | ((ly <= box[1]) & (dy < 0)) | ((ly >= box[3]) & (dy > 0))
    t = np.where(out | _enters_blocking(blk, lx, ly, dx, dy), 0.0, t)
    t = np.where(np.isfinite(t), t, 0.0)
    # step 4: walk the hits in order of angle
    poly = np.stack([lx + t * dx, ly + t * dy], axis=1)
    # every hit lies on a tile edge or the box: snap the coordinate that rounding left a hair off it
    for axis, lo, hi in ((0, box[0], box[2]), (1, box[1], box[3])):
        v = poly[:, axis]
        r = np.round(v)
        v[np.abs(v - r) < 1e-9] = r[np.abs(v - r) < 1e-9]
        v[np.abs(v - lo) < 1e-9] = lo
        v[np.abs(v - hi) < 1e-9] = hi
    keep = np.ones(len(poly), dtype=bool)
    keep[1:] = np.hypot(*(poly[1:] - poly[:-1]).T) > 1e-12
    poly = _drop_collinear(poly[keep])
    if reach is not None:
        poly = _clip_to_disc(poly, lx, ly, reach)
    return VisibilityPolygon(light=(lx, ly), points=poly)


def _clip_to_disc(p: NDArray[np.float64], lx: float, ly: float, r: float) -> NDArray[np.float64]:
    """Clip a polygon that is star-shaped around the light (vertices in order of angle) to the disc of radius ``r``.

    Every edge is cut where it crosses the circle; each piece is inside or
    outside the disc by its midpoint. Inside pieces are kept; each run of
    outside pieces is replaced by the arc from where it left the disc to where
    it comes back (counter-clockwise, the order of the vertices).
    """
    pieces: list[tuple[float, float, float, float, bool]] = []  # relative to the light: x0, y0, x1, y1, inside
    n = len(p)
    for i in range(n):
        ax, ay = p[i, 0] - lx, p[i, 1] - ly
        bx, by = p[(i + 1) % n, 0] - lx, p[(i + 1) % n, 1] - ly
        dx, dy = bx - ax, by - ay
        qa = dx * dx + dy * dy
        if qa == 0:
            continue
        # |a + t (b - a)|^2 = r^2
        qb = 2 * (ax * dx + ay * dy)
        disc = qb * qb - 4 * qa * (ax * ax + ay * ay - r * r)
        cuts = [0.0]
        if disc > 0:
            root = math.sqrt(disc)
            cuts += [t for t in sorted(((-qb - root) / (2 * qa), (-qb + root) / (2 * qa))) if 0 < t < 1]
        cuts.append(1.0)
        for t0, t1 in zip(cuts, cuts[1:]):
            tm = (t0 + t1) / 2
            inside = math.hypot(ax + tm * dx, ay + tm * dy) < r
            pieces.append((ax + t0 * dx, ay + t0 * dy, ax + t1 * dx, ay + t1 * dy, inside))
    out: list[tuple[float, float]] = []

    def arc(x0: float, y0: float, x1: float, y1: float, *, whole: bool = False) -> None:
        a0 = math.atan2(y0, x0)
        span = 2 * math.pi if whole else (math.atan2(y1, x1) - a0) % (2 * math.pi)
        k = int(math.ceil(span / ARC_STEP))
        out.append((x0 + lx, y0 + ly))
        for m in range(1, k):
            a = a0 + span * m / k
            out.append((lx + r * math.cos(a), ly + r * math.sin(a)))

    if not pieces:
        return p
    if not any(q[4] for q in pieces):
        # the disc lies wholly inside the polygon
        arc(r, 0.0, r, 0.0, whole=True)
        return np.array(out, dtype=np.float64)
    first = next(i for i, q in enumerate(pieces) if q[4])
    pieces = pieces[first:] + pieces[:first]  # start inside, so every outside run is whole
    i = 0
    while i < len(pieces):
        x0, y0, _, _, inside = pieces[i]
        if inside:
            out.append((x0 + lx, y0 + ly))
            i += 1
            continue
        j = i
        while j + 1 < len(pieces) and not pieces[j + 1][4]:
            j += 1
        arc(x0, y0, pieces[j][2], pieces[j][3])
        i = j + 1
    return np.array(out, dtype=np.float64)


def _drop_collinear(p: NDArray[np.float64]) -> NDArray[np.float64]:
    """Drop the vertices that lie on the straight line through their two neighbours (and between them)."""
    if len(p) < 4:
        return p
    a = p - np.roll(p, 1, axis=0)
    b = np.roll(p, -1, axis=0) - p
    cross = a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]
    dot = (a * b).sum(axis=1)
    size = np.hypot(a[:, 0], a[:, 1]) * np.hypot(b[:, 0], b[:, 1])
    keep = ~((np.abs(cross) <= 1e-9 * size) & (dot > 0))
    return p[keep] if keep.sum() >= 3 else p
