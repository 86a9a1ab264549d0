"""SVG pictures of a board: one polygon per cell, terrain colours from the table, overlays on top.

The markup is built with numpy and one string-format call per layer, so a
512 x 512 board (262 144 polygons) is written in a few seconds.

>>> from wargrid import HexGrid, Map
>>> from wargrid.render import Coordinates
>>> svg = render_svg(Map(HexGrid(3, 2)), overlays=[Coordinates()])
>>> svg.count("<polygon"), svg.count("<text")
(6, 6)
"""

from __future__ import annotations

import os
from typing import Sequence

import numpy as np

from ..errors import ArgumentTypeError
from .._xml import escape, quoteattr
from ..grids.board import Board
from ..grids.boards import Grid
from .geometry import Frame
from .overlays import CellMask, CellValues, Coordinates, Markers, Polyline, Regions, check_overlays
from .scene import RIVER_COLOR, WALL_COLOR, board_of, default_cell_size, edge_segments, edges_of, region_borders, road_segments, shade

__all__ = ["render_svg"]


def _polys_markup(poly: np.ndarray, classes: np.ndarray, attr: str = "class") -> str:
    """``<polygon>`` elements, one per row of ``poly``, with a per-row class number."""
    n, k, _ = poly.shape
    if n == 0:
        return ""
    tmpl = f'<polygon {attr}="c%d" points="' + " ".join(["%.1f,%.1f"] * k) + '"/>\n'
    rows = np.concatenate([classes.reshape(n, 1).astype(np.float64), poly.reshape(n, 2 * k)], axis=1)
    return (tmpl * int(n)) % tuple(rows.ravel().tolist())


def _segments_markup(seg: np.ndarray) -> str:
    n = len(seg)
    if n == 0:
        return ""
    return ('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>\n' * n) % tuple(seg.reshape(n, 4).ravel().tolist())


def _style(prefix: str, colors: Sequence[str], opacity: float | None = None) -> str:
    op = "" if opacity is None else f";fill-opacity:{opacity:g}"
    return "".join(f".{prefix} .c{i}{{fill:{c}{op}}}\n" for i, c in enumerate(colors))


def render_svg(
    board: Grid | Board,
    path: str | os.PathLike[str] | None = None,
    *,
    overlays: Sequence[object] = (),
    cell_size: float | None = None,
    grid_lines: bool = True,
    roads: bool = True,
    title: str | None = None,
) -> str:
    """The SVG markup of ``board`` (a ``Map`` or a ``Grid``) with ``overlays``; also written to ``path`` if given.

    ``cell_size`` is pixels per drawing unit (a square tile is 1 unit, a hex has
    corner radius 1); by default it shrinks on big boards to keep the picture
    at most about 2000 pixels wide.

    >>> from wargrid import SquareGrid, Map
    >>> from wargrid.render import Polyline
    >>> s = render_svg(Map(SquareGrid(4, 3)), overlays=[Polyline([(0, 0), (1, 0), (2, 1)])])
    >>> s.count("<polygon"), s.count("<polyline")
    (12, 1)
    """
    grid, terrain, overlay_layer, colors = board_of(board)
    if not isinstance(grid_lines, bool) or not isinstance(roads, bool):
        raise ArgumentTypeError("grid_lines and roads must be True or False")
    if title is not None and not isinstance(title, str):
        raise ArgumentTypeError(f"title must be a string or None, got {type(title).__name__}")
    ovs = check_overlays(overlays, grid)
    frame = Frame.for_grid(grid, cell_size=default_cell_size(grid) if cell_size is None else cell_size)
    s = frame.scale
    ys, xs = np.nonzero(grid.mask)
    ids = ys.astype(np.int64) * grid.width + xs
    poly = frame.polygons(xs, ys)

    out = [
        '<?xml version="1.0" encoding="UTF-8"?>\n',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{frame.width}" height="{frame.height}" '
        f'viewBox="0 0 {frame.width} {frame.height}">\n',
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>\n")
    stroke = f"stroke:#00000033;stroke-width:{max(0.3, s * 0.03):.2f}" if grid_lines else "stroke:none"
    style = [f".cells polygon{{{stroke}}}\n", _style("cells", colors)]
    body = [f'<rect width="{frame.width}" height="{frame.height}" fill="#ffffff"/>\n']
    body.append('<g class="cells">\n')
    body.append(_polys_markup(poly, terrain.ravel()[ids]))
    body.append("</g>\n")

    if roads and overlay_layer is not None:
        for tid, seg in road_segments(grid, overlay_layer, frame):
            body.append(
                f'<g class="overlay-terrain" stroke="{colors[tid]}" stroke-width="{max(1.0, s * 0.3):.1f}" '
                f'stroke-linecap="round">\n'
            )
            body.append(_segments_markup(seg))
            body.append("</g>\n")

    edges = edges_of(board)
    if edges is not None:
        walls, rivers = edge_segments(grid, edges, poly, ids, frame.cells_under)
        for name, seg, color, width in (("rivers", rivers, RIVER_COLOR, 0.18), ("walls", walls, WALL_COLOR, 0.14)):
            if len(seg):
                body.append(f'<g class="edges-{name}" stroke="{color}" stroke-width="{max(1.0, s * width):.1f}" '
                            f'stroke-linecap="round">\n')
                body.append(_segments_markup(seg))
                body.append("</g>\n")

    for k, ov in enumerate(ovs):
        cls = f"o{k}"
        name = quoteattr(ov.name)
        if isinstance(ov, CellMask):
            sel = ov.mask.ravel()[ids]
            body.append(f'<g class="{cls}" data-overlay={name} fill="{ov.color}" fill-opacity="{ov.alpha:g}" stroke="none">\n')
            body.append(_polys_markup(poly[sel], np.zeros(int(sel.sum()))))
            body.append("</g>\n")
        elif isinstance(ov, CellValues):
            frac = ov.fractions().ravel()[ids]
            sel = np.isfinite(frac)
            bins = np.minimum((frac[sel] * 16).astype(np.int64), 15)
            style.append(_style(cls, [shade(ov.low, ov.high, b / 15.0) for b in range(16)], ov.alpha))
            body.append(f'<g class="{cls}" data-overlay={name} stroke="none">\n')
            body.append(_polys_markup(poly[sel], bins))
            body.append("</g>\n")
        elif isinstance(ov, Regions):
            lab = ov.labels.ravel()[ids]
            sel = lab >= 0
            style.append(_style(cls, ov.color_list(), ov.alpha))
            body.append(f'<g class="{cls}" data-overlay={name} stroke="none">\n')
            body.append(_polys_markup(poly[sel], lab[sel]))
            body.append("</g>\n")
            if ov.borders:
                seg = region_borders(ov.labels, poly, ids, frame.cells_under)
                body.append(
                    f'<g class="{cls}-borders" stroke="{ov.border_color}" stroke-width="{max(1.0, s * 0.12):.1f}" '
                    f'stroke-linecap="round">\n'
                )
                body.append(_segments_markup(seg))
                body.append("</g>\n")
        elif isinstance(ov, Polyline):
            if ov.cells:
                cx, cy = frame.centers(np.array([c[0] for c in ov.cells]), np.array([c[1] for c in ov.cells]))
                pts = " ".join(f"{a:.1f},{b:.1f}" for a, b in zip(cx.tolist(), cy.tolist()))
                body.append(
                    f'<polyline data-overlay={name} points="{pts}" fill="none" stroke="{ov.color}" '
                    f'stroke-width="{max(1.0, s * ov.width):.1f}" stroke-linejoin="round" stroke-linecap="round"/>\n'
                )
        elif isinstance(ov, Markers):
            if ov.cells:
                cx, cy = frame.centers(np.array([c[0] for c in ov.cells]), np.array([c[1] for c in ov.cells]))
                body.append(f'<g data-overlay={name} fill="{ov.color}" stroke="#ffffff" stroke-width="1">\n')
                for i, (a, b) in enumerate(zip(cx.tolist(), cy.tolist())):
                    body.append(f'<circle cx="{a:.1f}" cy="{b:.1f}" r="{max(1.5, s * ov.radius):.1f}"/>\n')
                    if ov.labels is not None:
                        body.append(
                            f'<text x="{a + s * ov.radius * 1.3:.1f}" y="{b:.1f}" font-size="{max(6.0, s * 0.6):.1f}" '
                            f'font-family="sans-serif" stroke="none">{escape(ov.labels[i])}</text>\n'
                        )
                body.append("</g>\n")
        elif isinstance(ov, Coordinates):
            cx, cy = frame.centers(xs, ys)
            size = s * (0.42 if grid.kind == "hex" else 0.28)
            n = len(xs)
            body.append(
                f'<g data-overlay={name} fill="{ov.color}" font-size="{size:.1f}" font-family="sans-serif" '
                f'text-anchor="middle" dominant-baseline="central">\n'
            )
            rows = np.stack([cx, cy, xs.astype(np.float64), ys.astype(np.float64)], axis=1)
            body.append(('<text x="%.1f" y="%.1f">%d,%d</text>\n' * n) % tuple(rows.ravel().tolist()))
            body.append("</g>\n")
    out.append("<style>\n" + "".join(style) + "</style>\n")
    out.extend(body)
    out.append("</svg>\n")
    text = "".join(out)
    if path is not None:
        from .._files import atomic_write

        atomic_write(path, text)
    return text
