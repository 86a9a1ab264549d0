"""Line of sight over a heightmap: the straight segment between two cell centres, traced cell by cell.

The board is one tuple ``hb = (ground, cx, cy, nx, ny, hh, width, height, pw, wrap, wsx, wsy, base, r2)``:

- ``ground[p]`` (padded flat): the height a cell's top stands at (its
  elevation, plus the cover of sight-blocking terrain); ``-inf`` for padding
  and masked-out cells (they never block, and are never reported);
- ``base[p]``: the elevation the eye and the target stand on (their cell's,
  without the cover);
- ``r2``: the square of a tile's radius (centre to farthest corner), a little
  more: a tile whose centre lies further from a point does not touch it;
- ``cx[p]``, ``cy[p]``: the padded cells' centres in drawing units (the
  padding ring included, so a segment that grazes the board's edge is traced);
- every tile is the same convex polygon around its centre: ``{q :
  nx[i] * (q - c).x + ny[i] * (q - c).y <= hh[i]}`` for each edge ``i``;
- on a board wrapped in x (``wrap``), a cell's *virtual* column ``vx`` may
  leave ``0..width-1``: its centre moves by ``(wsx, wsy)`` a board width.

Tracing: the segment ``S(t) = A + t (B - A)``, ``0 <= t <= 1``, from the
centre of ``a`` to that of ``b`` is clipped against each tile's polygon
(Cyrus-Beck). Where the segment leaves the current tile, every tile of the
3 x 3 box of offset neighbours (on every board kind touching tiles lie
there) that touches it there is looked at, and the walk goes on in the one
that holds the segment furthest. A tile other than ``a`` and ``b`` that the
segment touches, even at a corner or along an edge only, blocks when its
top rises strictly above the sight line somewhere over it: above the lower
of the line's heights where the segment enters and leaves it (a line never
squeezes between two tiles that meet at a corner). The line runs from
``za`` over ``a`` to ``zb`` over ``b``. The touched tiles do not depend on
the direction, so the rule is symmetric when ``za`` and ``zb`` swap with the
ends; entry kernels trace from the endpoint with the smaller padded id all
the same, so that rounding is the same both ways.
"""

from __future__ import annotations

import numpy as np

from .._jit import helper, jit
from .fov import within
from .hex_lines import to_axial

_EPS = 1e-9
_GROW = 1e-9


@helper
def _centre(hb, vx, vy):
    """Centre of the virtual cell ``(vx, vy)`` and its padded id (the real cell's)."""
    cx = hb[1]
    cy = hb[2]
    width = hb[6]
    pw = hb[8]
    wrap = hb[9]
    wsx = hb[10]
    wsy = hb[11]
    k = 0
    x = vx
    if wrap:
        x = vx % width
        k = (vx - x) // width
    p = (vy + 1) * pw + x + 1
    return cx[p] + k * wsx, cy[p] + k * wsy, p


@helper
def _clip(hb, px, py, ax, ay, dx, dy):
    """``(t0, t1)``: the part of the segment inside the tile centred at ``(px, py)`` (``t0 > t1``: none).

    Tiles are grown by ``_GROW`` drawing units, so that a segment running
    exactly along an edge lies inside both tiles despite rounding.
    """
    nx = hb[3]
    ny = hb[4]
    hh = hb[5]
    t0 = -np.inf
    t1 = np.inf
    for i in range(nx.shape[0]):
        den = nx[i] * dx + ny[i] * dy
        num = hh[i] + _GROW - (nx[i] * (ax - px) + ny[i] * (ay - py))
        if abs(den) < 1e-12:
            if num < 0.0:
                return 1.0, 0.0
        elif den > 0.0:
            t = num / den
            if t < t1:
                t1 = t
        else:
            t = num / den
            if t > t0:
                t0 = t
    return t0, t1


@jit
def trace_clear(hb, ax, ay, bx, by, za, zb):
    """Whether no tile but the ends' that the segment from ``(ax, ay)`` to ``(bx, by)`` touches rises above
    the line (virtual columns allowed)."""
    ground = hb[0]
    height = hb[7]
    pw = hb[8]
    wrap = hb[9]
    r2 = hb[13]
    sx, sy, _ = _centre(hb, ax, ay)
    ex, ey, _ = _centre(hb, bx, by)
    dx = ex - sx
    dy = ey - sy
    dz = zb - za
    cx_, cy_ = ax, ay
    _, t_out = _clip(hb, sx, sy, sx, sy, dx, dy)
    limit = 4 * (abs(bx - ax) + abs(by - ay)) + 8
    for _ in range(limit):
        if cx_ == bx and cy_ == by:
            return True
        best = -1.0
        nxc = cx_
        nyc = cy_
        qx = sx + t_out * dx  # where the segment leaves the current tile
        qy = sy + t_out * dy
        for oy in range(-1, 2):
            for ox in range(-1, 2):
                if ox == 0 and oy == 0:
                    continue
                vx = cx_ + ox
                vy = cy_ + oy
                if vy < -1 or vy > height:
                    continue
                if not wrap and (vx < -1 or vx > pw - 2):
                    continue
                px, py, p = _centre(hb, vx, vy)
                if (px - qx) * (px - qx) + (py - qy) * (py - qy) > r2:
                    continue  # a tile touching the exit point holds it: its centre is within the tile's radius
                t0, t1 = _clip(hb, px, py, sx, sy, dx, dy)
                if t0 > t_out + _EPS or t1 < t_out - _EPS:
                    continue  # does not touch the segment where it leaves the current tile
                if not ((vx == ax and vy == ay) or (vx == bx and vy == by)):
                    t_a = t0 if t0 > 0.0 else 0.0
                    t_b = t1 if t1 < 1.0 else 1.0
                    low = min(za + dz * t_a, za + dz * t_b)  # the line is straight: lowest at one end over the tile
                    if ground[p] > low:
                        return False
                if t1 > t_out + _EPS and t1 > best:
                    best = t1
                    nxc = vx
                    nyc = vy
        if best < 0.0:  # numerically lost (a convex tiling always has a next tile): refuse to see through
            return False
        cx_ = nxc
        cy_ = nyc
        t_out = best
    return False


@helper
def _ordered_clear(hb, ax, ay, bx, by, za, zb):
    """``trace_clear`` from the end with the smaller padded id (virtual columns compared as given)."""
    pw = hb[8]
    if (by + 1) * pw + bx + 1 < (ay + 1) * pw + ax + 1:
        return trace_clear(hb, bx, by, ax, ay, zb, za)
    return trace_clear(hb, ax, ay, bx, by, za, zb)


@helper
def height_los(hb, ax, ay, bx, by, eye, target):
    """Whether a viewer ``eye`` above the ground of ``a`` sees a point ``target`` above the ground of ``b``."""
    base = hb[12]
    width = hb[6]
    pw = hb[8]
    wrap = hb[9]
    za = base[(ay + 1) * pw + ax + 1] + eye
    zb = base[(by + 1) * pw + bx + 1] + target
    if wrap:
        half = width // 2
        for shift in (-width, 0, width):
            ux = bx + shift
            if -half <= ux - ax <= half and _ordered_clear(hb, ax, ay, ux, by, za, zb):
                return True
        return False
    return _ordered_clear(hb, ax, ay, bx, by, za, zb)


@jit
def height_fov(hb, ox, oy, eye, target, metric, radius, kind, out):
    """``out[y * width + x] = True`` for every on-board cell within ``radius`` that ``height_los`` sees; the count.

    ``metric`` as in ``fov`` (0..3 on square boards, 4: hex steps with offset ``kind``); on a board wrapped
    in x the distance is to the nearer copy of a cell.
    """
    ground = hb[0]
    width = hb[6]
    height = hb[7]
    pw = hb[8]
    wrap = hb[9]
    n = 0
    aq, ar = to_axial(ox, oy, kind)
    y0 = oy - radius if oy - radius > 0 else 0
    y1 = oy + radius if oy + radius < height - 1 else height - 1
    x0 = 0
    x1 = width - 1
    if not wrap or 2 * radius + 1 < width:
        x0 = ox - radius
        x1 = ox + radius
    if not wrap:
        x0 = x0 if x0 > 0 else 0
        x1 = x1 if x1 < width - 1 else width - 1
    for y in range(y0, y1 + 1):
        for vx in range(x0, x1 + 1):
            x = vx % width if wrap else vx
            if ground[(y + 1) * pw + x + 1] == -np.inf:
                continue
            best = -1
            for sh in (-width, 0, width):
                ux = x + sh
                if sh != 0 and not wrap:
                    continue
                if wrap and (ux - ox > width // 2 or ox - ux > width // 2):
                    continue
                if metric == 4:
                    q, r = to_axial(ux, y, kind)
                    dq = q - aq
                    dr = r - ar
                    d = max(abs(dq), abs(dr), abs(dq + dr))
                    ok = d <= radius
                else:
                    ok = within(abs(ux - ox), abs(y - oy), metric, radius)
                if ok:
                    best = 1
            if best < 0 or out[y * width + x]:
                continue
            if (x == ox and y == oy) or height_los(hb, ox, oy, x, y, eye, target):
                out[y * width + x] = True
                n += 1
    return n
