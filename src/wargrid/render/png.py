"""PNG pictures of a board: every pixel looks up its cell (numpy), overlays blend per cell.

Lines (roads, paths), markers and text are drawn with Pillow on top.

>>> import numpy as np
>>> from wargrid import HexGrid, Map
>>> img = render_png(Map(HexGrid(4, 3)), cell_size=10)
>>> img.size
(73, 69)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Sequence

import numpy as np
from numpy.typing import NDArray

from .._extras import require
from ..errors import ArgumentTypeError
from ..grids.board import Board
from ..grids.boards import Grid
from .geometry import Frame
from .overlays import CellMask, CellValues, Coordinates, Markers, Polyline, Regions, check_overlays, rgb
from .scene import RIVER_COLOR, WALL_COLOR, board_of, default_cell_size, edge_segments, edges_of, road_segments

if TYPE_CHECKING:
    from PIL.Image import Image as PILImage

__all__ = ["render_png", "raster"]

_BACKGROUND = (255, 255, 255)


def _colors(colors: Sequence[str]) -> np.ndarray:
    return np.array([rgb(c) for c in colors], dtype=np.float32).reshape(-1, 3)


@lru_cache(maxsize=4)
def raster(frame: Frame) -> np.ndarray:
    """``(height, width)`` cell id under each pixel centre of ``frame`` (``-1``: background; read-only, cached).

    Several pictures of one board share the lookup.
    """
    ids = np.empty((frame.height, frame.width), dtype=np.int64)
    px = np.arange(frame.width, dtype=np.float64)[None, :] + 0.5
    step = max(1, (1 << 16) // max(1, frame.width))  # blocks of rows that stay in cache
    for y0 in range(0, frame.height, step):
        py = np.arange(y0, min(frame.height, y0 + step), dtype=np.float64)[:, None] + 0.5
        ids[y0:y0 + py.shape[0]] = frame.cells_under(px, py)
    ids.setflags(write=False)
    return ids


@dataclass(frozen=True)
class _Line:
    """A polyline in pixels, drawn after the per-cell layers."""

    points: NDArray[np.float64]  # (k, 2) pixel x, y
    color: str
    width: int


@dataclass(frozen=True)
class _Dots:
    """Markers in pixels, with optional text beside them."""

    points: NDArray[np.float64]  # (k, 2) pixel x, y
    color: str
    radius: float
    labels: Sequence[str] | None


@dataclass(frozen=True)
class _Labels:
    """Every cell's ``x,y`` written in it."""

    color: str


def _blend(img: np.ndarray, where: np.ndarray, color: np.ndarray, alpha: float | np.ndarray) -> None:
    a = alpha[..., None] if isinstance(alpha, np.ndarray) else alpha
    img[where] = img[where] * (1.0 - a) + color * a


def render_png(
    board: Grid | Board,
    path: str | os.PathLike[str] | None = None,
    *,
    overlays: Sequence[object] = (),
    cell_size: float | None = None,
    grid_lines: bool = True,
    roads: bool = True,
) -> PILImage:
    """A Pillow ``Image`` of ``board`` (a ``Map`` or ``Grid``) with ``overlays``; also saved to ``path`` if given.

    Same options and overlays as ``render_svg``.

    >>> from wargrid import SquareGrid, Map
    >>> from wargrid.render import Polyline
    >>> img = render_png(Map(SquareGrid(5, 5)), overlays=[Polyline([(0, 2), (4, 2)], color="#ff0000")], cell_size=10)
    >>> img.getpixel((25, 29))
    (255, 0, 0)
    """
    require("PIL", extra="png", feature="PNG pictures")
    from PIL import Image, ImageDraw

    grid, terrain, overlay_layer, colors = board_of(board)
    if not isinstance(grid_lines, bool) or not isinstance(roads, bool):
        raise ArgumentTypeError("grid_lines and roads must be True or False")
    ovs = check_overlays(overlays, grid)
    frame = Frame.for_grid(grid, cell_size=default_cell_size(grid) if cell_size is None else cell_size)
    s = frame.scale
    ids = raster(frame)
    on = ids >= 0
    cid = np.where(on, ids, 0)
    img = np.empty(ids.shape + (3,), dtype=np.float32)
    img[...] = _BACKGROUND
    pal = _colors(colors)
    img[on] = pal[terrain.ravel()[cid[on]]]
    if grid_lines and s >= 6:
        edge = np.zeros_like(on)
        edge[:, :-1] |= ids[:, :-1] != ids[:, 1:]
        edge[:-1, :] |= ids[:-1, :] != ids[1:, :]
        _blend(img, edge & on, np.zeros(3), 0.2)

    edges = edges_of(board)
    if (roads and overlay_layer is not None) or edges is not None:
        # roads, bridges, rivers and walls belong to the ground: under the overlays
        base = Image.fromarray(np.clip(np.round(img), 0, 255).astype(np.uint8), "RGB")
        bd = ImageDraw.Draw(base)
        if roads and overlay_layer is not None:
            for tid, seg in road_segments(grid, overlay_layer, frame):
                width = max(1, round(s * 0.3))
                for (x0, y0), (x1, y1) in seg.tolist():
                    bd.line([(x0, y0), (x1, y1)], fill=colors[tid], width=width)
                    r = width / 2.0
                    bd.ellipse([x1 - r, y1 - r, x1 + r, y1 + r], fill=colors[tid])
        if edges is not None:
            ys, xs = np.nonzero(grid.mask)
            walls, rivers = edge_segments(grid, edges, frame.polygons(xs, ys), ys * grid.width + xs, frame.cells_under)
            for seg, color, rel_width in ((rivers, RIVER_COLOR, 0.18), (walls, WALL_COLOR, 0.14)):
                for (x0, y0), (x1, y1) in seg.tolist():
                    bd.line([(x0, y0), (x1, y1)], fill=color, width=max(1, round(s * rel_width)))
        img = np.asarray(base, dtype=np.float32).copy()

    pending_lines: list[_Line | _Dots | _Labels] = []  # drawn with Pillow after the per-cell layers
    for ov in ovs:
        if isinstance(ov, CellMask):
            hit = on & ov.mask.ravel()[cid]
            _blend(img, hit, np.array(rgb(ov.color), dtype=np.float64), ov.alpha)
        elif isinstance(ov, CellValues):
            frac = ov.fractions().ravel()[cid]
            hit = on & np.isfinite(frac)
            lo, hi = np.array(rgb(ov.low), float), np.array(rgb(ov.high), float)
            f = frac[hit][:, None]
            img[hit] = img[hit] * (1.0 - ov.alpha) + (lo + (hi - lo) * f) * ov.alpha
        elif isinstance(ov, Regions):
            lab = np.where(on, ov.labels.ravel()[cid], -1)
            hit = lab >= 0
            cols = _colors(ov.color_list())
            if hit.any():
                img[hit] = img[hit] * (1.0 - ov.alpha) + cols[lab[hit]] * ov.alpha
            if ov.borders:
                b = np.zeros_like(hit)
                dx = lab[:, :-1] != lab[:, 1:]
                dy = lab[:-1, :] != lab[1:, :]
                b[:, :-1] |= dx
                b[:, 1:] |= dx
                b[:-1, :] |= dy
                b[1:, :] |= dy
                b &= hit
                img[b] = rgb(ov.border_color)
        elif isinstance(ov, Polyline):
            if len(ov.cells) >= 1:
                cx, cy = frame.centers(np.array([c[0] for c in ov.cells]), np.array([c[1] for c in ov.cells]))
                pending_lines.append(_Line(np.stack([cx, cy], 1), ov.color, max(1, round(s * ov.width))))
        elif isinstance(ov, Markers):
            if ov.cells:
                cx, cy = frame.centers(np.array([c[0] for c in ov.cells]), np.array([c[1] for c in ov.cells]))
                pending_lines.append(_Dots(np.stack([cx, cy], 1), ov.color, max(1.5, s * ov.radius), ov.labels))
        elif isinstance(ov, Coordinates):
            pending_lines.append(_Labels(ov.color))

    im = Image.fromarray(np.clip(np.round(img), 0, 255).astype(np.uint8), "RGB")
    draw = ImageDraw.Draw(im)
    for item in pending_lines:
        if isinstance(item, _Line):
            xy = [tuple(p) for p in item.points.tolist()]
            if len(xy) == 1:
                xy = xy * 2
            draw.line(xy, fill=item.color, width=item.width, joint="curve")
        elif isinstance(item, _Dots):
            r, labels = item.radius, item.labels
            for i, (x, y) in enumerate(item.points.tolist()):
                draw.ellipse([x - r, y - r, x + r, y + r], fill=item.color, outline="#ffffff")
                if labels is not None:
                    draw.text((x + r * 1.3, y - 5), labels[i], fill=item.color)
        elif s >= 14:
            ys, xs = np.nonzero(grid.mask)
            cx, cy = frame.centers(xs, ys)
            for x, y, a, b in zip(xs.tolist(), ys.tolist(), cx.tolist(), cy.tolist()):
                draw.text((a, b), f"{x},{y}", fill=item.color, anchor="mm")
    if path is not None:
        from .._files import atomic_write_with

        atomic_write_with(path, lambda f: im.save(f, format="PNG", compress_level=3))
    return im
