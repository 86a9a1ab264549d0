"""``notebook_svg`` and ``notebook_png``: what a notebook shows for a board or a result on it.

``_repr_svg_`` gives the SVG markup; ``_repr_png_`` the PNG bytes when
Pillow is installed (``wargrid[png]``), ``None`` otherwise, so a notebook
without Pillow still shows the SVG.

Imports only the drawing modules (no capability); ``wargrid.render.results``
uses it to show every result type in a notebook.

>>> from wargrid import SquareGrid
>>> from wargrid.render.overlays import Polyline
>>> notebook_svg(SquareGrid(3, 2), [Polyline([(0, 0), (2, 1)])]).count("<polyline")
1
>>> notebook_svg(SquareGrid(300, 300)) is None
True
"""

from __future__ import annotations

import importlib.util
import io
from typing import Sequence

import numpy as np

from ..grids.board import Board
from ..grids.boards import Grid
from .overlays import CellMask, CellValues, Overlay
from .svg import render_svg

__all__ = ["MAX_NOTEBOOK_CELLS", "notebook_svg", "notebook_png", "mask_overlay", "values_overlay"]

MAX_NOTEBOOK_CELLS = 65_536
"""Largest board a notebook draws by itself (``_repr_svg_``): bigger boards make SVG too heavy for a page."""


def notebook_svg(board: Grid | Board, overlays: Sequence[Overlay] = ()) -> str | None:
    """The SVG markup of ``board`` with ``overlays``, or ``None`` on boards over ``MAX_NOTEBOOK_CELLS`` cells.

    Parameters
    ----------
    board : Grid or Map
        The board to draw (a ``Map`` adds its terrain colours, roads and rivers).
    overlays : sequence of Overlay
        Drawn on the board in order.

    Returns
    -------
    str or None
        The markup; ``None`` (a notebook then shows the ``repr``) when the board is too big.
    """
    grid = board if isinstance(board, Grid) else board.grid
    if grid.width * grid.height > MAX_NOTEBOOK_CELLS:
        return None
    return render_svg(board, overlays=list(overlays))


def notebook_png(board: Grid | Board, overlays: Sequence[Overlay] = ()) -> bytes | None:
    """The PNG bytes of ``board`` with ``overlays``; ``None`` without Pillow or on boards over ``MAX_NOTEBOOK_CELLS``.

    Parameters
    ----------
    board : Grid or Map
        The board to draw.
    overlays : sequence of Overlay
        Drawn on the board in order.

    Returns
    -------
    bytes or None

    Examples
    --------
    >>> from wargrid import SquareGrid
    >>> notebook_png(SquareGrid(3, 2))[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    grid = board if isinstance(board, Grid) else board.grid
    if grid.width * grid.height > MAX_NOTEBOOK_CELLS or importlib.util.find_spec("PIL") is None:
        return None
    from .png import render_png

    buf = io.BytesIO()
    render_png(board, overlays=list(overlays)).save(buf, format="PNG")
    return buf.getvalue()


def mask_overlay(mask: np.ndarray, color: str = "#1f77b4") -> CellMask:
    """The overlay of a ``(height, width)`` bool mask (a movement range, a field of view)."""
    return CellMask(mask, color=color, alpha=0.45)


def values_overlay(values: np.ndarray) -> CellValues:
    """The overlay of ``(height, width)`` numbers as colours (a distance or flow field; ``inf``: no colour)."""
    return CellValues(np.where(np.isfinite(values), values, np.nan).astype(np.float64))
