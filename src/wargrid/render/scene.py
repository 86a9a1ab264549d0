"""What both picture writers need from a board: its layers, colours and road lines.

>>> shade("#000000", "#ffffff", 0.5)
'#808080'
"""

from __future__ import annotations

import numpy as np

from ..grids.boards import Grid
from .geometry import Frame
from .overlays import rgb

__all__ = ["board_of", "default_cell_size", "road_segments", "shade"]

_BLANK = "#ece6d6"


def shade(low: str, high: str, t: float) -> str:
    """The colour ``t`` of the way from ``low`` to ``high``."""
    a, b = np.array(rgb(low)), np.array(rgb(high))
    c = np.round(a + (b - a) * float(t)).astype(int)
    return "#%02x%02x%02x" % tuple(int(v) for v in c)


def board_of(board: object) -> tuple[Grid, np.ndarray, np.ndarray | None, list[str]]:
    """``(grid, terrain ids, overlay ids or None, colour per terrain id)`` of a ``Map`` or ``Grid``."""
    if isinstance(board, Grid):
        return board, np.zeros(board.shape, dtype=np.int64), None, [_BLANK]
    grid = getattr(board, "grid", None)
    if not isinstance(grid, Grid) or not hasattr(board, "terrain") or not hasattr(board, "terrains"):
        raise TypeError(f"board must be a wargrid Map or Grid, got {type(board).__name__}")
    overlay = getattr(board, "overlay", None)
    if overlay is not None and not (overlay >= 0).any():
        overlay = None
    return grid, np.asarray(board.terrain, dtype=np.int64), overlay, list(board.terrains.colors())


def default_cell_size(grid: Grid) -> float:
    """Pixels per drawing unit: 24 on small boards, less on big ones (about 2000 pixels across)."""
    x0, y0, x1, y1 = grid.bounds()
    span = max(x1 - x0, y1 - y0, 1e-9)
    return float(min(24.0, max(1.0, 2000.0 / span)))


def road_segments(grid: Grid, overlay: np.ndarray, frame: Frame) -> list[tuple[int, np.ndarray]]:
    """Lines joining the centres of neighbouring overlay cells (roads, bridges), by overlay id.

    A lone overlay cell gives a zero-length segment (drawn as a dot with a round cap).
    """
    t = grid.topology
    ys, xs = np.nonzero((overlay >= 0) & grid.mask)
    if xs.size == 0:
        return []
    par = (xs & 1) if t.parity_mode == 1 else (ys & 1) if t.parity_mode == 2 else np.zeros_like(xs)
    ids = ys * grid.width + xs
    own = overlay[ys, xs]
    linked = np.zeros(xs.size, dtype=bool)
    ax, ay = frame.centers(xs, ys)
    p_all, q_all, t_all = [], [], []
    for d in range(t.ndir):
        nx = xs + t.dx[par, d]
        ny = ys + t.dy[par, d]
        ok = (nx >= 0) & (nx < grid.width) & (ny >= 0) & (ny < grid.height)
        nxc, nyc = np.where(ok, nx, 0), np.where(ok, ny, 0)
        ok &= (overlay[nyc, nxc] >= 0) & grid.mask[nyc, nxc]
        linked |= ok
        ok &= (nyc * grid.width + nxc) > ids  # each link once
        if not ok.any():
            continue
        bx, by = frame.centers(nxc[ok], nyc[ok])
        a = np.stack([ax[ok], ay[ok]], 1)
        b = np.stack([bx, by], 1)
        mid = (a + b) / 2.0
        # each half of a link in the colour of the cell it belongs to
        p_all += [a, mid]
        q_all += [mid, b]
        t_all += [own[ok], overlay[nyc[ok], nxc[ok]]]
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
