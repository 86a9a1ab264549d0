"""The visibility polygon of a light at any point of a square or hex tile board (2D lighting).

Square boards: tile ``(x, y)`` covers ``[x, x + 1] x [y, y + 1]`` in board
units (the drawing units of ``SquareGrid``); the light is a float point
``(px, py)``. The polygon is built in four steps:

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

Hex boards (``HexGrid``): the light is a float point in the board's drawing
units (``grid.center(cell)``, a hex of corner radius 1, the layout of
``grid.layout``). The segments are the hex edges of sight-blocking hexes
that face the light (the light strictly outside the edge's line), plus the
box (by default ``grid.bounds()``). Hexes off the board block, as masked-out
ones do, so the polygon never leaves the board's hexes. Rays are cast the
same way and cut against every segment at once (numpy), a hair past every
segment end; a ray that enters a blocking hex at once is dark.

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
import numbers
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..errors import ArgumentError, ArgumentTypeError
from .._validate import check_bool_layer, check_real
from ..grids.boards import Grid, HexGrid, SquareGrid

__all__ = ["VisibilityPolygon", "visibility_polygon", "FacingEdges", "facing_edges"]

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
        px, py = _points(x, "x"), _points(y, "y")
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


def _points(v: ArrayLike, name: str) -> NDArray[np.float64]:
    """``v`` as float64 coordinates, or an error naming it (a string raised numpy's conversion error)."""
    a = np.asarray(v)
    if a.dtype == object and a.size and all(isinstance(e, numbers.Real) and not isinstance(e, bool) for e in a.flat):
        a = np.asarray([float(e) for e in a.flat]).reshape(a.shape)  # Fractions and other real numbers
    if a.dtype.kind not in "iuf":
        raise ArgumentTypeError(f"{name} must be a number or an array of numbers, got {type(v).__name__} {v!r}")
    return a.astype(np.float64)


def _check_point(point: Any, name: str) -> tuple[float, float]:
    try:
        px, py = point
    except (TypeError, ValueError):
        raise ArgumentTypeError(f"{name} must be an (x, y) pair of numbers, got {point!r}") from None
    return check_real(px, f"{name}[0] (x)"), check_real(py, f"{name}[1] (y)")


def _check_bounds(bounds: Any, grid: Grid) -> tuple[float, float, float, float]:
    board = (0.0, 0.0, float(grid.width), float(grid.height)) if isinstance(grid, SquareGrid) else grid.bounds()
    if bounds is None:
        return board
    try:
        x0, y0, x1, y1 = bounds
    except (TypeError, ValueError):
        raise ArgumentTypeError(f"bounds must be (x0, y0, x1, y1) or None, got {bounds!r}") from None
    x0, y0, x1, y1 = (check_real(v, f"bounds[{i}]") for i, v in enumerate((x0, y0, x1, y1)))
    x0, y0 = max(x0, board[0]), max(y0, board[1])
    x1, y1 = min(x1, board[2]), min(y1, board[3])
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


def _open_own_tile(grid: Grid, blk: NDArray[np.bool_], lx: float, ly: float) -> NDArray[np.bool_]:
    """``blk`` with the light's own square tile open (a viewer sees out of the forest it stands in)."""
    tx, ty = int(math.floor(lx)), int(math.floor(ly))
    if lx != tx and ly != ty and tx < grid.width and ty < grid.height and blk[ty, tx]:
        blk = blk.copy()
        blk[ty, tx] = False
    return blk


@dataclass(frozen=True, eq=False)
class FacingEdges:
    """The edges of sight-blocking tiles that face a light, linked into outlines (Monaco's edge list).

    ``segments`` is an ``(n, 4)`` array of ``(x0, y0, x1, y1)``: each a run
    of collinear tile edges that touch, between a blocking tile and an open
    one, with the light strictly on the open side. Each runs clockwise on
    screen as seen from the light (y grows downwards: the cross product of
    ``start - light`` and ``end - light`` is positive). ``next[i]`` is the
    segment that starts where segment ``i`` ends (the outline turns a
    corner), ``prev[i]`` the one that ends where it starts; ``-1`` marks a
    loose end, where a shadow edge starts (the polygon casts rays there).
    """

    light: tuple[float, float]
    segments: NDArray[np.float64]
    prev: NDArray[np.int64]
    next: NDArray[np.int64]

    def __len__(self) -> int:
        return len(self.segments)


def facing_edges(
    grid: Grid, blocks: NDArray[np.bool_], light: tuple[float, float], *, bounds: Sequence[float] | None = None
) -> FacingEdges:
    """The edges of blocking tiles that face ``light`` on a square board, with prev/next links.

    These are the edges ``visibility_polygon`` casts its rays at (steps 1
    and 2 of the module notes), without the box: a renderer draws them (the
    lit faces of walls), and the loose ends (``prev`` or ``next`` ``-1``)
    are where shadows start.

    Parameters
    ----------
    grid : SquareGrid
        The board; tile ``(x, y)`` covers ``[x, x + 1] x [y, y + 1]``.
    blocks : ndarray of bool, shape ``(height, width)``
        Sight-blocking tiles (masked-out cells block too; the light's own
        tile is open, as in ``visibility_polygon``).
    light : tuple of float
        The light's point; it must lie inside ``bounds``.
    bounds : sequence of float, optional
        An ``(x0, y0, x1, y1)`` box the edges are cut to (default: the board).

    Returns
    -------
    FacingEdges

    Raises
    ------
    TypeError
        ``grid`` is not a ``SquareGrid``, ``light`` not a pair of numbers,
        ``blocks`` not boolean (``ArgumentTypeError``).
    ValueError
        ``light`` outside ``bounds``, a bad box, or ``blocks`` of the wrong shape (``ArgumentError``).

    Examples
    --------
    >>> from wargrid import SquareGrid
    >>> walls = np.zeros((5, 5), dtype=bool); walls[2, 2] = True
    >>> e = facing_edges(SquareGrid(5, 5), walls, (0.5, 0.5))
    >>> e.segments.tolist(), e.prev.tolist(), e.next.tolist()
    ([[3.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 3.0]], [-1, 0], [1, -1])
    """
    if not isinstance(grid, SquareGrid):
        raise ArgumentTypeError(f"grid must be a SquareGrid (facing edges are square tile edges), got {type(grid).__name__}")
    blk = check_bool_layer(blocks, "blocks", grid.shape) | ~grid.mask
    lx, ly = _check_point(light, "light")
    box = _check_bounds(bounds, grid)
    if not (box[0] <= lx <= box[2] and box[1] <= ly <= box[3]):
        raise ArgumentError(f"light {(lx, ly)} must be inside the bounds {box}")
    seg = _segments(_open_own_tile(grid, blk, lx, ly), lx, ly, box)[:-4].copy()  # without the box's four sides
    ax, ay, bx, by = seg[:, 0] - lx, seg[:, 1] - ly, seg[:, 2] - lx, seg[:, 3] - ly
    flip = ax * by - ay * bx < 0
    seg[flip] = seg[flip][:, [2, 3, 0, 1]]
    starts = {(a, b): i for i, (a, b) in enumerate(seg[:, 0:2].tolist())}
    nxt = np.array([starts.get((a, b), -1) for a, b in seg[:, 2:4].tolist()], dtype=np.int64)
    prev = np.full(len(seg), -1, dtype=np.int64)
    linked = nxt >= 0
    prev[nxt[linked]] = np.flatnonzero(linked)
    return FacingEdges((lx, ly), seg, prev, nxt)


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
    """The polygon lit by a light at float point ``light = (x, y)`` on a square or hex board.

    Parameters
    ----------
    grid : SquareGrid or HexGrid
        The board. Square tile ``(x, y)`` covers ``[x, x + 1] x [y, y + 1]``;
        a hex is drawn as by ``grid.center`` and ``grid.polygon`` (corner
        radius 1).
    blocks : ndarray of bool, shape ``(height, width)``
        Sight-blocking tiles (masked-out cells block too, and on hex boards
        the hexes off the board). The tile holding the light is treated as
        open: a viewer standing in a forest sees out of it.
    light : tuple of float
        The light's point in drawing units; it must lie inside ``bounds``.
    bounds : sequence of float, optional
        An ``(x0, y0, x1, y1)`` box that closes the polygon (default: the
        board, ``grid.bounds()`` on hex boards), cut to the board.
    radius : float, optional
        When given (a positive number of drawing units), the polygon is
        clipped to the disc of this radius around the light.

    Returns
    -------
    VisibilityPolygon
        The vertices in order of angle around the light.

    Raises
    ------
    TypeError
        ``grid`` is neither a ``SquareGrid`` nor a ``HexGrid``, ``light`` is
        not a pair of numbers, or ``blocks`` is not boolean (``ArgumentTypeError``).
    ValueError
        ``light`` lies outside ``bounds``, ``bounds`` is not a proper box,
        ``radius`` is not positive, or ``blocks`` has the wrong shape (``ArgumentError``).

    Examples
    --------
    >>> from wargrid import HexGrid, SquareGrid
    >>> p = visibility_polygon(SquareGrid(4, 4), np.zeros((4, 4), dtype=bool), (1.0, 1.0))
    >>> round(p.area, 9), len(p)
    (16.0, 4)
    >>> round(visibility_polygon(SquareGrid(9, 9), np.zeros((9, 9), dtype=bool), (4.5, 4.5), radius=2).area, 2)
    12.56
    >>> g = HexGrid(5, 5); walls = np.zeros((5, 5), dtype=bool); walls[2, 3] = True
    >>> p = visibility_polygon(g, walls, g.center((1, 2)))
    >>> bool(p.contains(*g.center((3, 2)))), bool(p.contains(*g.center((4, 2)))), bool(p.contains(*g.center((1, 0))))
    (False, False, True)
    """
    from .._kernels.sight.polygon import march_rays

    if not isinstance(grid, (SquareGrid, HexGrid)):
        raise ArgumentTypeError(f"grid must be a SquareGrid or a HexGrid (the polygon is built from tile edges), got {type(grid).__name__}")
    blk = check_bool_layer(blocks, "blocks", grid.shape)
    blk = blk | ~grid.mask
    lx, ly = _check_point(light, "light")
    box = _check_bounds(bounds, grid)
    if not (box[0] <= lx <= box[2] and box[1] <= ly <= box[3]):
        raise ArgumentError(f"light {(lx, ly)} must be inside the bounds {box}")
    reach = None if radius is None else check_real(radius, "radius")
    if reach is not None and not reach > 0:
        raise ArgumentError(f"radius must be a positive number of board units, got {radius!r}")
    if isinstance(grid, HexGrid):
        return _hex_polygon(grid, blk, lx, ly, box, reach)
    blk = _open_own_tile(grid, blk, lx, ly)
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
    dx, dy = _rays(np.concatenate(targets), lx, ly)
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
    return _finish(poly, lx, ly, reach)


def _finish(poly: NDArray[np.float64], lx: float, ly: float, reach: float | None) -> VisibilityPolygon:
    """Step 4's end: drop repeated and collinear vertices, clip to the disc."""
    keep = np.ones(len(poly), dtype=bool)
    keep[1:] = np.hypot(*(poly[1:] - poly[:-1]).T) > 1e-9
    poly = _drop_collinear(poly[keep])
    if reach is not None:
        poly = _clip_to_disc(poly, lx, ly, reach)
    return VisibilityPolygon(light=(lx, ly), points=poly)


def _rays(pts: NDArray[np.float64], lx: float, ly: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Step 3's directions: at every target point, and a hair to either side of it."""
    pts = np.unique(pts, axis=0)
    pts = pts[np.hypot(pts[:, 0] - lx, pts[:, 1] - ly) > 1e-12]
    base = np.arctan2(pts[:, 1] - ly, pts[:, 0] - lx)
    ang = np.unique(np.concatenate([base - _EPS_ANGLE, base, base + _EPS_ANGLE]))
    return np.cos(ang), np.sin(ang)


_RAY_CHUNK = 1 << 21  # ray-segment pairs cut at once on hex boards


def _hex_obstacles(grid: HexGrid, blk: NDArray[np.bool_]) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.bool_]]:
    """The blocking hexes as axial ``(q, r)``, with the ring just off the board, and the
    ``(height + 2, width + 2)`` blocking layer of that padded rectangle (``[y + 1, x + 1]``)."""
    h, w = blk.shape
    pad = np.ones((h + 2, w + 2), dtype=bool)
    pad[1:-1, 1:-1] = blk
    ys, xs = np.nonzero(pad)
    q, r = grid.hexes_of(xs - 1, ys - 1)
    return q, r, pad


def _clip_to_box(seg: NDArray[np.float64], box: tuple[float, float, float, float]) -> NDArray[np.float64]:
    """The parts of ``(S, 4)`` segments inside the box (Liang-Barsky): their ends, where a box side cuts
    a wall, are where rays must go."""
    x0, y0, x1, y1 = box
    dx, dy = seg[:, 2] - seg[:, 0], seg[:, 3] - seg[:, 1]
    t0, t1 = np.zeros(len(seg)), np.ones(len(seg))
    ok = np.ones(len(seg), dtype=bool)
    for p, q in ((-dx, seg[:, 0] - x0), (dx, x1 - seg[:, 0]), (-dy, seg[:, 1] - y0), (dy, y1 - seg[:, 1])):
        par = p == 0
        ok &= ~par | (q >= 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            r = q / p
        t0 = np.where(~par & (p < 0), np.maximum(t0, r), t0)
        t1 = np.where(~par & (p > 0), np.minimum(t1, r), t1)
    ok &= t0 < t1
    return np.stack([seg[:, 0] + t0 * dx, seg[:, 1] + t0 * dy, seg[:, 0] + t1 * dx, seg[:, 1] + t1 * dy], axis=1)[ok]


def _hex_polygon(grid: HexGrid, blk: NDArray[np.bool_], lx: float, ly: float,
                 box: tuple[float, float, float, float], reach: float | None) -> VisibilityPolygon:
    """The visibility polygon on a hex board: facing hex edges as segments, rays cut against all of them."""
    lay = grid.layout
    h, w = blk.shape
    q, r, pad = _hex_obstacles(grid, blk)
    corners = np.array(grid.corner_offsets())  # (6, 2)
    # the light's own hex, when the light is strictly inside it, is open: a viewer sees out of a forest
    own = lay.pixel_to_hex(lx, ly)
    ox, oy = grid.cells_of_hexes(np.array([own.q]), np.array([own.r]))
    cx, cy = lay.hex_to_pixel(own)
    a, b = corners, np.roll(corners, -1, axis=0)
    inward = (a[:, 0] - (lx - cx)) * (b[:, 1] - (ly - cy)) - (a[:, 1] - (ly - cy)) * (b[:, 0] - (lx - cx))
    strictly = bool(np.all(inward > 1e-9)) or bool(np.all(inward < -1e-9))
    if strictly:
        keep = ~((q == own.q) & (r == own.r))
        q, r = q[keep], r[keep]
        if 0 <= ox[0] + 1 < w + 2 and 0 <= oy[0] + 1 < h + 2:
            pad = pad.copy()
            pad[oy[0] + 1, ox[0] + 1] = False
    hx, hy = lay.hex_to_pixel_array(q, r)
    if reach is not None:
        near = np.hypot(hx - lx, hy - ly) <= reach + 1.0 + 1e-9  # only hexes that reach into the disc matter
        hx, hy = hx[near], hy[near]
    # step 1: every edge k (corner k to corner k + 1) of every blocking hex that faces the light
    x0 = hx[:, None] + a[None, :, 0]
    y0 = hy[:, None] + a[None, :, 1]
    x1 = hx[:, None] + b[None, :, 0]
    y1 = hy[:, None] + b[None, :, 1]
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    facing = (lx - mx) * (mx - hx[:, None]) + (ly - my) * (my - hy[:, None]) > 1e-12
    bx0, by0, bx1, by1 = box
    seg = np.concatenate([
        _clip_to_box(np.stack([x0[facing], y0[facing], x1[facing], y1[facing]], axis=1), box),
        np.array([(bx0, by0, bx1, by0), (bx1, by0, bx1, by1), (bx1, by1, bx0, by1), (bx0, by1, bx0, by0)]),
    ])
    # step 3: rays at every segment end and at the corners of blocking hexes the light may touch
    # (their edges through the light face nowhere, but the shadow runs along them), a hair to each side,
    # cut against every segment
    touch = np.hypot(hx - lx, hy - ly) <= 1.0 + 1e-9
    near = np.stack([x0[touch].ravel(), y0[touch].ravel()], axis=1)
    inbox = (near[:, 0] >= bx0 - 1e-9) & (near[:, 0] <= bx1 + 1e-9) & (near[:, 1] >= by0 - 1e-9) & (near[:, 1] <= by1 + 1e-9)
    dx, dy = _rays(np.concatenate([seg[:, 0:2], seg[:, 2:4], near[inbox]]), lx, ly)
    t = np.empty(dx.size)
    ex, ey = seg[:, 2] - seg[:, 0], seg[:, 3] - seg[:, 1]
    ax, ay = seg[:, 0] - lx, seg[:, 1] - ly
    step = max(1, _RAY_CHUNK // len(seg))
    for i in range(0, dx.size, step):
        ddx, ddy = dx[i:i + step, None], dy[i:i + step, None]
        den = ddx * ey - ddy * ex
        with np.errstate(divide="ignore", invalid="ignore"):
            tt = (ax * ey - ay * ex) / den
            uu = (ax * ddy - ay * ddx) / den
        ok = (den != 0) & (tt > 1e-12) & (uu >= -1e-12) & (uu <= 1 + 1e-12)  # a box side through the light is no hit
        t[i:i + step] = np.where(ok, tt, np.inf).min(axis=1)
    # directions that enter a blocking hex (or leave the box) at once are dark: the hit is the light itself
    probe = 1e-7
    pq, pr = lay.pixel_to_hex_array(lx + probe * dx, ly + probe * dy)
    px_, py_ = grid.cells_of_hexes(pq, pr)
    inside = (px_ >= -1) & (px_ <= w) & (py_ >= -1) & (py_ <= h)
    dark = ~inside | pad[np.clip(py_ + 1, 0, h + 1), np.clip(px_ + 1, 0, w + 1)]
    out = ((lx <= bx0) & (dx < 0)) | ((lx >= bx1) & (dx > 0)) | ((ly <= by0) & (dy < 0)) | ((ly >= by1) & (dy > 0))
    t = np.where(dark | out | ~np.isfinite(t), 0.0, t)
    return _finish(np.stack([lx + t * dx, ly + t * dy], axis=1), lx, ly, reach)


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
            # inside by its midpoint and both ends (the disc is convex): an edge that only touches the circle
            # (a tangent, its midpoint on the circle within rounding) is outside
            inside = math.hypot(ax + tm * dx, ay + tm * dy) < r and all(
                math.hypot(ax + t * dx, ay + t * dy) <= r * (1 + 1e-9) for t in (t0, t1))
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
