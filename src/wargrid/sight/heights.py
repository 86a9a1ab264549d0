"""Line of sight over a heightmap: a viewer on a hill sees over lower ground; higher ground between blocks.

The plain sight rules (``wargrid.sight.fov``) ask only whether sight-blocking
terrain stands between two cells. Here the board's elevation layer is a
surface, and sight is a straight line in three dimensions:

- the eye is ``viewer_height`` above the ground of the viewer's cell, the
  point looked at ``target_height`` above the ground of the target cell, both
  over the cells' centres (drawing coordinates: ``grid.center``);
- the line is traced over every tile the segment between the two centres
  crosses (square, hex and staggered tiles alike, masks and wrap included);
- a tile the segment touches, other than the two ends (even at a corner or
  along an edge only: a line never squeezes between two tiles that meet at a
  corner), blocks when its top rises strictly above the line somewhere over it. A tile's top is its elevation; terrain that blocks
  sight (forest, mountains: ``blocks_sight``) stands ``cover_height`` higher
  (default ``inf``: it always blocks, as in the plain rules);
  cells off the board or masked out never block (nothing stands there: a
  line between two edge cells of a hex board may pass over the jagged edge).

Symmetry: ``a`` sees ``b`` exactly when ``b`` sees ``a`` with the two heights
swapped, so with ``viewer_height == target_height`` sight is symmetric. With
an eye above a target on the ground (the default 1 and 0) it is not: a
lookout on a tower sees a soldier in a hollow who cannot see the lookout's
feet, which is the rule.

``sight_args`` lays out a ``SightBoard`` (``wargrid.sight.board.prepare``,
with its elevation) for the kernels; ``height_line_of_sight`` and
``height_fov`` answer on it.

>>> import numpy as np
>>> from wargrid import SquareGrid
>>> from wargrid.sight.board import prepare
>>> g = SquareGrid(5, 1)
>>> ridge = prepare(g, np.zeros((1, 5), dtype=bool), np.array([[0.0, 0.0, 2.0, 0.0, 0.0]]))
>>> height_line_of_sight(ridge, (0, 0), (4, 0))
False
>>> hill = prepare(g, np.zeros((1, 5), dtype=bool), np.array([[5.0, 0.0, 2.0, 0.0, 0.0]]))
>>> height_line_of_sight(hill, (0, 0), (4, 0)), height_line_of_sight(hill, (0, 0), (3, 0))
(True, False)
"""

from __future__ import annotations

import math
import threading
import weakref
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..errors import ArgumentError, ArgumentTypeError
from .._validate import check_real
from ..grids.boards import Grid
from .board import SightBoard, kernels

__all__ = ["height_line_of_sight", "height_fov", "sight_args", "ground_heights", "check_height_mode"]

_ARGS: weakref.WeakKeyDictionary[SightBoard, dict[float, tuple[Any, ...]]] = weakref.WeakKeyDictionary()
"""``board -> {cover_height: kernel tuple}`` while the sight board lives (a map edit makes a new board)."""
_LOCK = threading.Lock()


def ground_heights(board: SightBoard, *, cover_height: float = math.inf) -> NDArray[np.float64]:
    """``(height, width)`` height of each tile's top: elevation (0 without a layer), plus ``cover_height`` on
    sight-blocking terrain; ``-inf`` on masked-out cells (they never block).

    >>> from wargrid import SquareGrid
    >>> from wargrid.sight.board import prepare
    >>> b = prepare(SquareGrid(3, 1), np.array([[False, True, False]]), np.array([[1.0, 1.0, 2.0]]))
    >>> ground_heights(b, cover_height=0.5).tolist()
    [[1.0, 1.5, 2.0]]
    """
    cover_height = _check_cover(cover_height)  # 'x' raised numpy's UFuncTypeError
    g = board.grid
    inner = g.topology.unpad(board.bh)
    if board.elevation is None:
        blocks = inner == 1
        ground = np.zeros(g.shape)
    else:
        blocks = np.isfinite(inner)
        ground = board.elevation.astype(np.float64)
    with np.errstate(invalid="ignore"):  # 0 * inf never happens: cover only where blocks
        top = np.where(blocks, ground + cover_height, ground)
    return np.where(g.mask, top, -np.inf)


def _check_cover(cover_height: Any) -> float:
    return check_real(cover_height, "cover_height", minimum=0.0, allow_inf=True)


def sight_args(board: SightBoard, *, cover_height: float = math.inf) -> tuple[Any, ...]:
    """The kernels' board tuple (see ``wargrid._kernels.sight.heights``), cached while ``board`` lives."""
    cover = _check_cover(cover_height)
    with _LOCK:
        per = _ARGS.setdefault(board, {})
    got = per.get(cover)
    if got is None:
        base = np.zeros(board.grid.shape) if board.elevation is None else board.elevation
        got = per[cover] = _layout(board.grid, ground_heights(board, cover_height=cover), base)
    return got


def _layout(g: Grid, top: NDArray[np.float64], base: NDArray[np.float64]) -> tuple[Any, ...]:
    t = g.topology
    ground = t.pad(top, -np.inf)
    ys, xs = np.divmod(np.arange(t.padded_size, dtype=np.int64), t.pw)
    cx, cy = g.centers_of(xs - 1, ys - 1)
    c0x, c0y = g.centers_of(np.array([0]), np.array([0]))
    c1x, c1y = g.centers_of(np.array([g.width]), np.array([0]))
    corners = np.array(g.corner_offsets(), dtype=np.float64)
    area2 = float(np.sum(corners[:, 0] * np.roll(corners[:, 1], -1) - np.roll(corners[:, 0], -1) * corners[:, 1]))
    nxt = np.roll(corners, -1, axis=0)
    ex, ey = nxt[:, 0] - corners[:, 0], nxt[:, 1] - corners[:, 1]
    # outward normals: (ey, -ex) for counter-clockwise corners (positive area), the opposite otherwise
    sgn = 1.0 if area2 > 0 else -1.0
    nx, ny = sgn * ey, -sgn * ex
    hh = nx * corners[:, 0] + ny * corners[:, 1]
    return (ground, np.ascontiguousarray(cx, dtype=np.float64), np.ascontiguousarray(cy, dtype=np.float64),
            np.ascontiguousarray(nx), np.ascontiguousarray(ny), np.ascontiguousarray(hh), g.width, g.height, t.pw,
            int(t.wrap), float(c1x[0] - c0x[0]), float(c1y[0] - c0y[0]), t.pad(np.asarray(base, dtype=np.float64), 0.0),
            float(np.max(np.sum(corners * corners, axis=1))) * (1.0 + 1e-6) + 1e-9)


def _heights(viewer_height: Any, target_height: Any) -> tuple[float, float]:
    return (check_real(viewer_height, "viewer_height", minimum=0.0),
            check_real(target_height, "target_height", minimum=0.0))


def height_line_of_sight(board: SightBoard, a: Any, b: Any, *, viewer_height: float = 1.0, target_height: float = 0.0,
                         cover_height: float = math.inf) -> bool:
    """Whether an eye ``viewer_height`` above cell ``a`` sees the point ``target_height`` above cell ``b``
    (cells ``(x, y)``; see the module notes).

    >>> import numpy as np
    >>> from wargrid import HexGrid
    >>> from wargrid.sight.board import prepare
    >>> elev = np.zeros((1, 5)); elev[0, 2] = 1.5
    >>> b = prepare(HexGrid(5, 1), np.zeros((1, 5), dtype=bool), elev)
    >>> height_line_of_sight(b, (0, 0), (4, 0)), height_line_of_sight(b, (0, 0), (4, 0), viewer_height=2.0, target_height=2.0)
    (False, True)
    """
    if not isinstance(board, SightBoard):
        raise ArgumentTypeError(f"board must be a SightBoard (wargrid.sight.board.prepare), got {type(board).__name__}")
    ax, ay = board.cell(a, "a")
    bx, by = board.cell(b, "b")
    eye, target = _heights(viewer_height, target_height)
    hb = sight_args(board, cover_height=cover_height)
    if (ax, ay) == (bx, by):
        return True
    return bool(kernels("heights").height_los(hb, ax, ay, bx, by, eye, target))


def height_fov(board: SightBoard, origin: Any, *, radius: int | None, metric: str | None = None,
               viewer_height: float = 1.0, target_height: float = 0.0,
               cover_height: float = math.inf) -> NDArray[np.bool_]:
    """Boolean ``(height, width)``: the cells within ``radius`` (``metric`` as in ``Map.fov``) that an eye
    ``viewer_height`` above ``origin`` sees at ``target_height`` above their ground: ``height_line_of_sight``
    for each.

    >>> import numpy as np
    >>> from wargrid import SquareGrid
    >>> from wargrid.sight.board import prepare
    >>> elev = np.array([[3.0, 0.0, 1.0, 0.0, 0.0]])
    >>> height_fov(prepare(SquareGrid(5, 1), np.zeros((1, 5), dtype=bool), elev), (0, 0), radius=None).astype(int).tolist()
    [[1, 1, 1, 0, 1]]
    """
    if not isinstance(board, SightBoard):
        raise ArgumentTypeError(f"board must be a SightBoard (wargrid.sight.board.prepare), got {type(board).__name__}")
    ox, oy = board.cell(origin, "origin")
    code = board.metric_code(metric)
    r = board.radius(radius)
    eye, target = _heights(viewer_height, target_height)
    hb = sight_args(board, cover_height=cover_height)
    g = board.grid
    out = np.zeros(g.size, dtype=np.bool_)
    kernels("heights").height_fov(hb, ox, oy, eye, target, code, r, g.topology.hex_kind, out)
    return out.reshape(g.shape)


def check_height_mode(elevation: Any) -> bool | str:
    """``elevation`` as ``Map.fov`` and ``Map.line_of_sight`` take it: ``True``, ``False`` or ``'heightmap'``."""
    if isinstance(elevation, (bool, np.bool_)):
        return bool(elevation)
    if isinstance(elevation, str):
        if elevation == "heightmap":
            return "heightmap"
        raise ArgumentError(f"elevation must be True, False or 'heightmap', got {elevation!r}")
    raise ArgumentTypeError(f"elevation must be True, False or 'heightmap', got {elevation!r}")
