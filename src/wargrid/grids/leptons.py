"""Sub-cell positions in integer leptons.

A lepton is a fixed fraction of a cell: ``LEPTONS_PER_CELL = 256`` by default.
A position ``(lx, ly)`` in leptons lies in cell ``(lx // 256, ly // 256)``; the
centre of cell ``(x, y)`` is its corner plus half a cell, ``(x * 256 + 128,
y * 256 + 128)``. Leptons count along the board's ``(x, y)`` cell rectangle,
so the same arithmetic serves square, hex and staggered boards (on hex boards
a lepton position names a cell and a place inside its box, not a point of the
drawing). A packed cell number is the cell id ``y * width + x``.

Pixels: on a picture where a cell is ``cell_size`` pixels wide and high and
pixel ``(0, 0)`` is the top-left corner of cell ``(0, 0)``, a lepton is
``cell_size / leptons`` pixels: ``lepton_to_pixel`` scales exactly,
``pixel_to_lepton`` rounds to the nearest lepton, so leptons -> pixels ->
leptons gives back the same leptons.

>>> cell_to_lepton((2, 1))
Lepton(x=640, y=384)
>>> lepton_to_cell(Lepton(640, 300))
(2, 1)
>>> octagonal_distance((0, 0), (256, 512))
640
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from ..errors import ArgumentError, ArgumentTypeError, CellError
from .._validate import check_cell_pair, check_int, check_positive_int, check_real

__all__ = [
    "LEPTONS_PER_CELL",
    "Lepton",
    "cell_to_lepton",
    "lepton_to_cell",
    "pack_cell",
    "unpack_cell",
    "octagonal_distance",
    "octagonal_distances",
    "cells_to_leptons",
    "leptons_to_cells",
    "lepton_to_pixel",
    "pixel_to_lepton",
    "leptons_to_pixels",
    "pixels_to_leptons",
]

LEPTONS_PER_CELL = 256
"""Leptons along one side of a cell (the classic engines' value)."""


class Lepton(NamedTuple):
    """A position in leptons, ``x`` along columns and ``y`` along rows."""

    x: int
    y: int


def check_lepton_scale(leptons: Any) -> int:
    n = check_positive_int(leptons, "leptons", minimum=2)
    if n % 2:
        raise ArgumentError(f"leptons must be even so that a cell has an integer centre, got {n}")
    return n


def check_lepton_point(p: Any, name: str) -> tuple[int, int]:
    """A lepton position given as an ``(x, y)`` pair of integers."""
    return check_cell_pair(p, name)


def cell_to_lepton(cell: tuple[int, int], *, leptons: int = LEPTONS_PER_CELL) -> Lepton:
    """The centre of ``cell`` in leptons (corner + half a cell).

    >>> cell_to_lepton((0, 0)), cell_to_lepton((1, 0), leptons=16)
    (Lepton(x=128, y=128), Lepton(x=24, y=8))
    """
    n = check_lepton_scale(leptons)
    x, y = check_cell_pair(cell, "cell")
    return Lepton(x * n + n // 2, y * n + n // 2)


def lepton_to_cell(point: tuple[int, int], *, leptons: int = LEPTONS_PER_CELL) -> tuple[int, int]:
    """The cell ``(x, y)`` that holds a lepton position (floor division, so -1 lepton is cell -1).

    >>> lepton_to_cell((255, 256)), lepton_to_cell((-1, 0))
    ((0, 1), (-1, 0))
    """
    n = check_lepton_scale(leptons)
    x, y = check_lepton_point(point, "point")
    return x // n, y // n


def pack_cell(cell: tuple[int, int], width: int) -> int:
    """The packed cell number ``y * width + x`` (``IndexError`` when ``x`` is outside ``0..width-1`` or ``y < 0``).

    >>> pack_cell((3, 2), 10)
    23
    """
    width = check_positive_int(width, "width")
    x, y = check_cell_pair(cell, "cell")
    if not 0 <= x < width or y < 0:
        raise CellError(f"cell {(x, y)} is off the board: x must be in 0..{width - 1} and y >= 0")
    return y * width + x


def unpack_cell(number: int, width: int) -> tuple[int, int]:
    """The ``(x, y)`` of a packed cell number.

    >>> unpack_cell(23, 10)
    (3, 2)
    """
    width = check_positive_int(width, "width")
    n = check_int(number, "number")
    if n < 0:
        raise CellError(f"number must be >= 0, got {n}")
    return n % width, n // width


def octagonal_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """The classic engines' integer distance between two lepton positions: ``max + min // 2``.

    It over-estimates the straight-line distance by at most about 12 % and
    needs no square root.

    >>> octagonal_distance((0, 0), (300, -100))
    350
    """
    ax, ay = check_lepton_point(a, "a")
    bx, by = check_lepton_point(b, "b")
    dx, dy = abs(ax - bx), abs(ay - by)
    return max(dx, dy) + min(dx, dy) // 2


def _int_points(a: Any, name: str, bound: int = 1 << 61) -> np.ndarray:
    """``a`` as an int64 array of ``(x, y)`` points within ``+-bound`` (``bound`` at least ``2**63 - 1``: any int64;
    ``np.abs`` of the least int64 wraps round to itself, so the check is on the least and largest)."""
    arr = np.asarray(a)
    if arr.dtype.kind not in "iu":
        raise ArgumentTypeError(f"{name} must be an integer array of lepton positions, got dtype {arr.dtype}")
    if arr.ndim == 0 or arr.shape[-1] != 2:
        raise ArgumentError(f"{name} must have shape (..., 2) holding (x, y) leptons, got {arr.shape}")
    out = arr.astype(np.int64)
    if out.size and (arr.dtype == np.uint64 and int(arr.max()) >= 1 << 63
                     or bound < (1 << 63) - 1 and (int(out.min()) < -bound or int(out.max()) > bound)):
        raise ArgumentError(f"{name} must lie within +-{bound} (int64 arithmetic: numpy wrapped past it silently), "
                            f"got {int(arr.max()) if int(arr.max()) > bound else int(arr.min())}")
    return out


def octagonal_distances(a: np.ndarray, b: np.ndarray) -> NDArray[np.integer[Any]]:
    """Vectorised ``octagonal_distance`` over ``(..., 2)`` integer arrays (broadcast).

    >>> octagonal_distances(np.array([[0, 0], [10, 10]]), np.array([0, 4])).tolist()
    [4, 13]
    """
    pa = _int_points(a, "a")
    pb = _int_points(b, "b")
    try:
        np.broadcast_shapes(pa.shape, pb.shape)
    except ValueError:
        raise ArgumentError(f"a and b must broadcast together, got shapes {pa.shape} and {pb.shape}") from None
    d = np.abs(pa - pb)
    dist: NDArray[np.integer[Any]] = np.maximum(d[..., 0], d[..., 1]) + np.minimum(d[..., 0], d[..., 1]) // 2
    return dist


def cells_to_leptons(cells: np.ndarray, *, leptons: int = LEPTONS_PER_CELL) -> np.ndarray:
    """Vectorised ``cell_to_lepton``: ``(..., 2)`` cells ``(x, y)`` to their centres in leptons.

    >>> cells_to_leptons(np.array([[0, 0], [2, 1]])).tolist()
    [[128, 128], [640, 384]]
    """
    n = check_lepton_scale(leptons)
    c = _int_points(cells, "cells", (1 << 62) // n)
    return c * n + n // 2


def leptons_to_cells(points: np.ndarray, *, leptons: int = LEPTONS_PER_CELL) -> np.ndarray:
    """Vectorised ``lepton_to_cell``: ``(..., 2)`` lepton positions to cells ``(x, y)``.

    >>> leptons_to_cells(np.array([[255, 256], [-1, 0]])).tolist()
    [[0, 1], [-1, 0]]
    """
    n = check_lepton_scale(leptons)
    return _int_points(points, "points", (1 << 63) - 1) // n  # (floor division cannot wrap: any int64)


def _check_cell_size(cell_size: Any) -> float:
    size = check_real(cell_size, "cell_size")
    if not size > 0:
        raise ArgumentError(f"cell_size must be a positive number of pixels, got {cell_size!r}")
    return size


def lepton_to_pixel(point: tuple[int, int], *, cell_size: float, leptons: int = LEPTONS_PER_CELL) -> tuple[float, float]:
    """The pixel ``(px, py)`` of a lepton position on a picture whose cells are ``cell_size`` pixels.

    Parameters
    ----------
    point : tuple of int
        The ``(x, y)`` position in leptons.
    cell_size : float
        Pixels along one side of a cell (> 0).
    leptons : int
        Leptons along one side of a cell (even, >= 2).

    Returns
    -------
    tuple of float
        ``(x, y) * cell_size / leptons``.

    Raises
    ------
    ValueError
        ``cell_size`` not positive, or ``leptons`` odd or < 2 (``ArgumentError``).
    TypeError
        ``point`` not a pair of integers (``ArgumentTypeError``).

    Examples
    --------
    >>> lepton_to_pixel((128, 384), cell_size=32)
    (16.0, 48.0)
    """
    n = check_lepton_scale(leptons)
    size = _check_cell_size(cell_size)
    x, y = check_lepton_point(point, "point")
    return x * size / n, y * size / n


def pixel_to_lepton(pixel: tuple[float, float], *, cell_size: float, leptons: int = LEPTONS_PER_CELL) -> Lepton:
    """The lepton position nearest to pixel ``(px, py)`` on a picture whose cells are ``cell_size`` pixels.

    Halves round up (toward +inf), so the result does not depend on the sign.

    Parameters
    ----------
    pixel : tuple of float
        The ``(px, py)`` pixel; ``(0, 0)`` is the top-left corner of cell ``(0, 0)``.
    cell_size, leptons
        As in ``lepton_to_pixel``.

    Returns
    -------
    Lepton

    Raises
    ------
    ValueError
        ``cell_size`` not positive, a NaN or infinite pixel, or ``leptons`` odd or < 2 (``ArgumentError``).
    TypeError
        ``pixel`` not a pair of numbers (``ArgumentTypeError``).

    Examples
    --------
    >>> pixel_to_lepton((16.0, 47.9), cell_size=32)
    Lepton(x=128, y=383)
    >>> lepton_to_cell(pixel_to_lepton((100, 5), cell_size=32))
    (3, 0)
    """
    n = check_lepton_scale(leptons)
    size = _check_cell_size(cell_size)
    try:
        px, py = pixel
    except (TypeError, ValueError):
        raise ArgumentTypeError(f"pixel must be a (px, py) pair of numbers, got {pixel!r}") from None
    fx, fy = check_real(px, "pixel[0]"), check_real(py, "pixel[1]")
    return Lepton(int(np.floor(fx * n / size + 0.5)), int(np.floor(fy * n / size + 0.5)))


def leptons_to_pixels(points: np.ndarray, *, cell_size: float, leptons: int = LEPTONS_PER_CELL) -> NDArray[np.float64]:
    """Vectorised ``lepton_to_pixel``: ``(..., 2)`` integer lepton positions to float pixels.

    >>> leptons_to_pixels(np.array([[128, 384], [0, 256]]), cell_size=32).tolist()
    [[16.0, 48.0], [0.0, 32.0]]
    """
    n = check_lepton_scale(leptons)
    size = _check_cell_size(cell_size)
    out: NDArray[np.float64] = _int_points(points, "points") * size / n
    return out


def pixels_to_leptons(pixels: np.ndarray, *, cell_size: float, leptons: int = LEPTONS_PER_CELL) -> NDArray[np.int64]:
    """Vectorised ``pixel_to_lepton``: ``(..., 2)`` float pixels to the nearest int64 lepton positions.

    >>> pixels_to_leptons(np.array([[16.0, 47.9], [0.06, 32.0]]), cell_size=32).tolist()
    [[128, 383], [0, 256]]
    """
    n = check_lepton_scale(leptons)
    size = _check_cell_size(cell_size)
    p = np.asarray(pixels, dtype=np.float64)
    if p.ndim == 0 or p.shape[-1] != 2:
        raise ArgumentError(f"pixels must have shape (..., 2) holding (px, py) pixels, got {p.shape}")
    if not np.isfinite(p).all():
        raise ArgumentError("pixels must be finite (no NaN or inf)")
    out: NDArray[np.int64] = np.floor(p * n / size + 0.5).astype(np.int64)
    return out
