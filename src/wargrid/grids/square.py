"""Square-board metrics and neighbour directions.

Directions are counted counter-clockwise from east on a screen whose ``y``
grows downward, so north is ``(0, -1)``.

>>> square_neighbors((2, 2))
[(3, 2), (2, 1), (1, 2), (2, 3)]
>>> manhattan((0, 0), (3, 4)), chebyshev((0, 0), (3, 4)), octagonal((0, 0), (3, 4))
(7, 4, 5)
>>> round(octile((0, 0), (3, 4)), 4), euclidean((0, 0), (3, 4))
(5.2426, 5.0)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..errors import ArgumentError
from .._validate import check_cell_pair

__all__ = [
    "SQUARE4_DIRECTIONS",
    "SQUARE8_DIRECTIONS",
    "square_neighbors",
    "manhattan",
    "chebyshev",
    "octile",
    "euclidean",
    "octagonal",
    "METRICS",
    "metric_array",
]

SQUARE4_DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (0, -1), (-1, 0), (0, 1))
"""East, north, west, south as ``(dx, dy)``."""

SQUARE8_DIRECTIONS: tuple[tuple[int, int], ...] = (
    (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1),
)
"""East, north-east, north, north-west, west, south-west, south, south-east."""

_SQRT2 = math.sqrt(2.0)


def square_neighbors(cell: tuple[int, int], *, diagonal: bool = False) -> list[tuple[int, int]]:
    """The 4 (or 8 with ``diagonal=True``) neighbours of ``cell`` on an unbounded board.

    Parameters
    ----------
    cell : tuple of int
        ``(x, y)``.
    diagonal : bool
        Also the four diagonal neighbours.

    Returns
    -------
    list of tuple of int
        The neighbours, in direction order (east first).

    Examples
    --------
    >>> square_neighbors((0, 0), diagonal=True)[:3]
    [(1, 0), (1, -1), (0, -1)]
    """
    x, y = check_cell_pair(cell, "cell")
    dirs = SQUARE8_DIRECTIONS if diagonal else SQUARE4_DIRECTIONS
    return [(x + dx, y + dy) for dx, dy in dirs]


def _deltas(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    ax, ay = check_cell_pair(a, "a")
    bx, by = check_cell_pair(b, "b")
    return abs(ax - bx), abs(ay - by)


def manhattan(a: tuple[int, int], b: tuple[int, int]) -> int:
    """``|dx| + |dy|``: steps on a 4-direction board; cells are ``(x, y)``.

    Parameters
    ----------
    a, b : tuple of int
        Cells as ``(x, y)``.

    Returns
    -------
    int

    Examples
    --------
    >>> manhattan((0, 0), (5, 3))
    8
    """
    dx, dy = _deltas(a, b)
    return dx + dy


def chebyshev(a: tuple[int, int], b: tuple[int, int]) -> int:
    """``max(|dx|, |dy|)``: steps on an 8-direction board; cells are ``(x, y)``.

    Parameters
    ----------
    a, b : tuple of int
        Cells as ``(x, y)``.

    Returns
    -------
    int

    Examples
    --------
    >>> chebyshev((0, 0), (5, 3))
    5
    """
    dx, dy = _deltas(a, b)
    return max(dx, dy)


def octile(a: tuple[int, int], b: tuple[int, int]) -> float:
    """Length of the shortest 8-direction path with diagonal steps of ``sqrt(2)``.

    Parameters
    ----------
    a, b : tuple of int
        Cells as ``(x, y)``.

    Returns
    -------
    float
        ``max(dx, dy) + (sqrt(2) - 1) * min(dx, dy)``.

    Examples
    --------
    >>> round(octile((0, 0), (5, 3)), 4)
    6.2426
    """
    dx, dy = _deltas(a, b)
    return max(dx, dy) + (_SQRT2 - 1.0) * min(dx, dy)


def euclidean(a: tuple[int, int], b: tuple[int, int]) -> float:
    """Straight-line distance between cell centres; cells are ``(x, y)``.

    Parameters
    ----------
    a, b : tuple of int
        Cells as ``(x, y)``.

    Returns
    -------
    float

    Examples
    --------
    >>> euclidean((1, 1), (4, 5))
    5.0
    """
    dx, dy = _deltas(a, b)
    return math.hypot(dx, dy)


def octagonal(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Integer approximation ``max(dx, dy) + min(dx, dy) // 2`` used by classic RTS engines.

    Parameters
    ----------
    a, b : tuple of int
        Cells as ``(x, y)``.

    Returns
    -------
    int

    Examples
    --------
    >>> octagonal((0, 0), (5, 3))
    6
    """
    dx, dy = _deltas(a, b)
    return max(dx, dy) + min(dx, dy) // 2


METRICS = {
    "manhattan": manhattan,
    "chebyshev": chebyshev,
    "octile": octile,
    "euclidean": euclidean,
    "octagonal": octagonal,
}
"""The square metrics by name."""


def metric_array(name: str, dx: ArrayLike, dy: ArrayLike) -> NDArray[np.number[Any]]:
    """Vectorised metric over arrays of (absolute or signed) offsets.

    >>> metric_array("chebyshev", np.array([3, -1]), np.array([4, 0])).tolist()
    [4, 1]
    """
    if not isinstance(name, str) or name not in METRICS:
        raise ArgumentError(f"name must be one of {', '.join(map(repr, METRICS))}; got {name!r}")
    ax = np.abs(np.asarray(dx))
    ay = np.abs(np.asarray(dy))
    hi, lo = np.maximum(ax, ay), np.minimum(ax, ay)
    out: NDArray[np.number[Any]]  # integer offsets stay integers, except for octile and euclidean
    if name == "manhattan":
        out = ax + ay
    elif name == "chebyshev":
        out = hi
    elif name == "octile":
        out = hi + (_SQRT2 - 1.0) * lo
    elif name == "euclidean":
        out = np.hypot(ax, ay)
    else:
        out = hi + lo // 2
    return out
