"""What both picture writers need from a board: its layers, colours and road lines.

>>> shade("#000000", "#ffffff", 0.5)
'#808080'
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from ..errors import ArgumentTypeError
from ..grids.board import Board
from ..grids.boards import Grid
from .geometry import Frame
from .overlays import rgb

__all__ = ["edges_of", "board_of", "default_cell_size", "road_segments", "shade", "region_borders", "edge_segments"]

_BLANK = "#ece6d6"


def shade(low: str, high: str, t: float) -> str:
    """The colour ``t`` of the way from ``low`` to ``high``."""
    a, b = np.array(rgb(low)), np.array(rgb(high))
    c = np.round(a + (b - a) * float(t)).astype(int)
    return "#%02x%02x%02x" % tuple(int(v) for v in c)


def board_of(board: Grid | Board) -> tuple[Grid, np.ndarray, np.ndarray | None, list[str]]:
    """``(grid, terrain ids, overlay ids or None, colour per terrain id)`` of a ``Board`` (a ``Map``) or ``Grid``.

    >>> from wargrid import SquareGrid
    >>> grid, terrain, overlay, colors = board_of(SquareGrid(6, 4))
    >>> terrain.shape, overlay, len(colors)
    ((4, 6), None, 1)
    """
    if isinstance(board, Grid):
        return board, np.zeros(board.shape, dtype=np.int64), None, [_BLANK]
    if not isinstance(board, Board) or not isinstance(board.grid, Grid):
        raise ArgumentTypeError(f"board must be a wargrid Map or Grid, got {type(board).__name__}")
    overlay: np.ndarray | None = board.overlay
    if overlay is not None and not (overlay >= 0).any():
        overlay = None
    return board.grid, np.asarray(board.terrain, dtype=np.int64), overlay, list(board.terrains.colors())


def edges_of(board: Grid | Board) -> np.ndarray | None:
    """The ``(height, width, ndir)`` edge costs of a ``Board`` (``None`` for a grid or a board without any).

    >>> from wargrid import Map, SquareGrid
    >>> m = Map(SquareGrid(6, 4)); edges_of(m) is None
    True
    >>> m.set_edge((0, 0), (1, 0), float("inf")); edges_of(m).shape
    (4, 6, 4)
    """
    if isinstance(board, Grid):
        return None
    e = board.edges
    if e is not None and e.any():
        return e
    return None


WALL_COLOR = "#202020"
RIVER_COLOR = "#2f6fc0"


def default_cell_size(grid: Grid) -> float:
    """Pixels per drawing unit: 24 on small boards, less on big ones (about 2000 pixels across).

    >>> from wargrid import SquareGrid
    >>> default_cell_size(SquareGrid(6, 4))
    24.0
    """
    x0, y0, x1, y1 = grid.bounds()
    span = max(x1 - x0, y1 - y0, 1e-9)
    return float(min(24.0, max(1.0, 2000.0 / span)))


def _half_sides(poly: np.ndarray, cells_under: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Each polygon side split in halves (a staggered tile's long side meets two cells), with
    the id of the cell just outside each half's midpoint: ``[(start, end, other_id), ...]``."""
    a = poly
    b = np.roll(poly, -1, axis=1)
    mid = (a + b) / 2.0
    center = poly.mean(axis=1, keepdims=True)
    out = []
    for p, q in ((a, mid), (mid, b)):
        m = (p + q) / 2.0
        probe = m + 0.1 * (m - center)
        out.append((p, q, cells_under(probe[..., 0], probe[..., 1])))
    return out


def _stack(parts: list[np.ndarray]) -> np.ndarray:
    return np.concatenate(parts, axis=0) if parts else np.zeros((0, 2, 2))


def region_borders(
    labels: np.ndarray, poly: np.ndarray, ids: np.ndarray, cells_under: Callable[[np.ndarray, np.ndarray], np.ndarray]
) -> np.ndarray:
    """``(k, 2, 2)`` pixel segments where a cell's label differs from the cell across its side."""
    flat_labels = labels.ravel()
    own = flat_labels[ids][:, None]
    out = []
    for p, q, other in _half_sides(poly, cells_under):
        other_lab = np.where(other >= 0, flat_labels[np.maximum(other, 0)], -1)
        # a labelled cell draws its side unless the cell across has the same label;
        # two labelled cells share a side: the lower id draws it
        draw = (own >= 0) & (other_lab != own) & ((other_lab < 0) | (other > ids[:, None]))
        if draw.any():
            out.append(np.stack([p[draw], q[draw]], axis=1))
    return _stack(out)


def edge_segments(
    grid: Grid, edges: np.ndarray, poly: np.ndarray, ids: np.ndarray, cells_under: Callable[[np.ndarray, np.ndarray], np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """Sides carrying an edge cost: ``(walls, rivers)`` as ``(k, 2, 2)`` pixel segments.

    A wall costs ``inf`` to cross; any other extra cost (a river) is drawn as water.
    """
    nb = grid.neighbor_ids(wrap=False)
    cost = edges.reshape(-1, edges.shape[-1])
    walls, rivers = [], []
    for p, q, other in _half_sides(poly, cells_under):
        for d in range(nb.shape[1]):
            c = cost[ids, d][:, None]
            hit = (other >= 0) & (nb[ids, d][:, None] == other) & (c > 0)
            if hit.any():
                wall = hit & np.isinf(c)
                river = hit & ~np.isinf(c)
                if wall.any():
                    walls.append(np.stack([p[wall], q[wall]], axis=1))
                if river.any():
                    rivers.append(np.stack([p[river], q[river]], axis=1))
    return _stack(walls), _stack(rivers)


def road_segments(grid: Grid, overlay: np.ndarray, frame: Frame) -> list[tuple[int, np.ndarray]]:
    """Lines joining the centres of neighbouring overlay cells (roads, bridges), by overlay id.

    A lone overlay cell gives a zero-length segment (drawn as a dot with a round cap).
    """
    ys, xs = np.nonzero((overlay >= 0) & grid.mask)
    if xs.size == 0:
        return []
    ids = ys * grid.width + xs
    own = overlay[ys, xs]
    flat = overlay.ravel()
    nb = grid.neighbor_ids(wrap=False)[ids].T
    linked = np.zeros(xs.size, dtype=bool)
    ax, ay = frame.centers(xs, ys)
    p_all, q_all, t_all = [], [], []
    for row in nb:
        ok = (row >= 0) & (flat[np.maximum(row, 0)] >= 0)
        linked |= ok
        ok &= row > ids  # each link once
        if not ok.any():
            continue
        nyc, nxc = np.divmod(row[ok], grid.width)
        bx, by = frame.centers(nxc, nyc)
        a = np.stack([ax[ok], ay[ok]], 1)
        b = np.stack([bx, by], 1)
        mid = (a + b) / 2.0
        # each half of a link in the colour of the cell it belongs to
        p_all += [a, mid]
        q_all += [mid, b]
        t_all += [own[ok], flat[row[ok]]]
    lone = ~linked
    if lone.any():
        pt = np.stack([ax[lone], ay[lone]], 1)
        p_all.append(pt)
        q_all.append(pt)
        t_all.append(own[lone])
    p = np.concatenate(p_all)
    q = np.concatenate(q_all)
    tids = np.concatenate(t_all)
    seg = np.stack([p, q], 1)
    return [(int(tid), seg[tids == tid]) for tid in np.unique(tids).tolist()]
