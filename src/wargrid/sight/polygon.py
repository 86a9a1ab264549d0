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
    for ln, a, b in _merge(hl, hs, hside):
        parts.append((a, ln, b, ln))
    left = (lx < xs) & ~sub[sy, sx - 1]
    right = (lx > xs + 1) & ~sub[sy, sx + 1]
    vl = np.concatenate([xs[left], xs[right] + 1])
    vs = np.concatenate([ys[left], ys[right]])
    vside = np.concatenate([np.zeros(left.sum(), int), np.ones(right.sum(), int)])
    for ln, a, b in _merge(vl, vs, vside):
        parts.append((ln, a, ln, b))
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
) -> VisibilityPolygon:
    """The polygon lit by a light at float point ``light = (x, y)`` on a square board.

    ``blocks`` is the boolean ``(height, width)`` layer of sight-blocking
    tiles (masked-out cells block too); ``bounds`` an optional
    ``(x0, y0, x1, y1)`` box that closes the polygon (default: the board).
    The light may not be strictly inside a blocking tile.

    >>> from wargrid import SquareGrid
    >>> p = visibility_polygon(SquareGrid(4, 4), np.zeros((4, 4), dtype=bool), (1.0, 1.0))
    >>> round(p.area, 9), len(p)
    (16.0, 4)
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
    tx, ty = int(math.floor(lx)), int(math.floor(ly))
    if lx != tx and ly != ty and tx < grid.width and ty < grid.height and blk[ty, tx]:
        raise ArgumentError(f"light {(lx, ly)} is inside the blocking tile {(tx, ty)}")

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
    return VisibilityPolygon(light=(lx, ly), points=_drop_collinear(poly[keep]))


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
