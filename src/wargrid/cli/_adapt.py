"""Turn the results of Map queries into arrays the pictures and JSON need.

The verbs use the capabilities through these few functions so that a change
in a result's shape is mended in one place.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from ..errors import ArgumentTypeError

_COST_NAMES = ("cost", "costs", "distance", "distances", "spent", "dist")
_LEFT_NAMES = ("left", "remaining", "points_left")
_MASK_NAMES = ("visible", "mask", "seen", "reachable", "cells")


def range_costs(result: Any, shape: tuple[int, int], budget: float) -> np.ndarray:
    """``(height, width)`` cost to reach each cell (``inf``: out of range) from a movement-range result."""
    arr = _array_attr(result, shape, _COST_NAMES)
    if arr is not None:
        arr = arr.astype(np.float64)
        return np.where(arr <= budget, arr, np.inf)
    arr = _array_attr(result, shape, _LEFT_NAMES)
    if arr is not None:
        arr = arr.astype(np.float64)
        return np.where(np.isfinite(arr) & (arr >= 0), budget - arr, np.inf)
    cells = _cells_of(result)
    if cells is not None:
        out = np.full(shape, np.inf)
        costs = getattr(result, "costs", None)
        for i, (x, y) in enumerate(cells):
            out[y, x] = float(costs[i]) if costs is not None and not isinstance(costs, np.ndarray) else 0.0
        return out
    raise ArgumentTypeError(f"cannot read a movement range from {type(result).__name__}")


def path_cells(result: Any) -> list[tuple[int, int]]:
    """The ``(x, y)`` cells of a path result."""
    cells = getattr(result, "cells", result)
    return [(int(c[0]), int(c[1])) for c in cells]


def path_cost(result: Any) -> float:
    """The cost of a path result."""
    for name in ("cost", "length", "total"):
        v = getattr(result, name, None)
        if v is not None and not callable(v):
            return float(v)
    raise ArgumentTypeError(f"cannot read a path cost from {type(result).__name__}")


def bool_layer(result: Any, shape: tuple[int, int]) -> np.ndarray:
    """A ``(height, width)`` bool layer from a sight/fog result (an array, or an object holding one, or cells)."""
    arr = _array_attr(result, shape, _MASK_NAMES)
    if arr is not None:
        return arr.astype(bool) if arr.dtype == bool else (arr > 0)
    cells = _cells_of(result)
    if cells is not None:
        out = np.zeros(shape, dtype=bool)
        for x, y in cells:
            out[y, x] = True
        return out
    raise ArgumentTypeError(f"cannot read a cell layer from {type(result).__name__}")


def label_layer(result: Any, shape: tuple[int, int]) -> np.ndarray:
    """A ``(height, width)`` int label layer (``< 0``: none) from a zones/partition result."""
    arr = _array_attr(result, shape, ("labels", "owner", "owners", "zones", "territory"))
    if arr is None:
        raise ArgumentTypeError(f"cannot read labels from {type(result).__name__}")
    return np.asarray(arr).astype(np.int64)


def _array_attr(result: Any, shape: tuple[int, int], names: tuple[str, ...]) -> np.ndarray | None:
    if isinstance(result, np.ndarray):
        return result if result.shape == shape else None
    for n in names:
        v = getattr(result, n, None)
        if isinstance(v, np.ndarray) and v.shape == shape:
            return v
    return None


def _cells_of(result: Any) -> list[tuple[int, int]] | None:
    cells = getattr(result, "cells", None)
    if cells is None and isinstance(result, (list, tuple, set, frozenset)):
        cells = result
    if cells is None:
        return None
    try:
        return [(int(c[0]), int(c[1])) for c in cells]
    except (TypeError, IndexError, ValueError):
        return None
