"""Input checks shared by every public entry point.

Each raises an error that names the argument, the value and what is allowed.
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Iterable
from typing import Any, Sequence

import numpy as np
from numpy.typing import NDArray
from .errors import ArgumentError, ArgumentTypeError

__all__ = ["as_float", "check_int", "check_choice", "check_positive_int", "check_real", "check_cell_pair", "check_seed", "check_bool_layer",
           "check_iterable", "check_path"]


def check_int(v: Any, name: str, *, hint: str = "") -> int:
    """Return ``v`` as an ``int``; booleans, floats and strings raise ``TypeError``."""
    if type(v) is int:  # the common case, without the abstract-class checks below
        return v
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (numbers.Integral, np.integer)):
        extra = f" ({hint})" if hint else ""
        raise ArgumentTypeError(f"{name} must be an integer, got {type(v).__name__} {v!r}{extra}")
    return int(v)


def check_positive_int(v: Any, name: str, *, minimum: int = 1) -> int:
    """An integer ``>= minimum``."""
    n = check_int(v, name)
    if n < minimum:
        raise ArgumentError(f"{name} must be >= {minimum}, got {n}")
    return n


_FLOAT_INT = 1 << 1023
"""Integers of smaller magnitude convert to a float without overflow."""


def as_float(v: Any, name: str) -> float:
    """``float(v)``; an integer past what a float holds (``float`` raises ``OverflowError``) is an ``ArgumentError``
    naming ``name``.

    >>> as_float(3, "cost"), as_float(np.uint64(2**64 - 1), "cost")
    (3.0, 1.8446744073709552e+19)
    >>> as_float(10**400, "cost")
    Traceback (most recent call last):
    wargrid.errors.ArgumentError: cost must be a finite number, got an integer of 1329 bits (a float holds at most 1024)
    >>> from fractions import Fraction
    >>> as_float(Fraction(10**400, 3), "cost")
    Traceback (most recent call last):
    wargrid.errors.ArgumentError: cost must be a finite number, got a Fraction past a float's range
    """
    try:
        return float(v)
    except OverflowError:
        if isinstance(v, (numbers.Integral, np.integer)):
            raise ArgumentError(f"{name} must be a finite number, got an integer of {int(v).bit_length()} bits (a float "
                                "holds at most 1024)") from None
        raise ArgumentError(f"{name} must be a finite number, got a {type(v).__name__} past a float's range") from None


def check_real(v: Any, name: str, *, minimum: float | None = None, allow_inf: bool = False) -> float:
    """A finite real number (``inf`` only with ``allow_inf``), never NaN."""
    if type(v) is float or type(v) is int and -_FLOAT_INT < v < _FLOAT_INT:  # the common cases skip the checks below
        f = float(v)
        if math.isfinite(f) and (minimum is None or f >= minimum):
            return f
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (numbers.Real, np.integer, np.floating)):
        raise ArgumentTypeError(f"{name} must be a number, got {type(v).__name__} {v!r}")
    f = as_float(v, name)
    if math.isnan(f) or (math.isinf(f) and not allow_inf):
        raise ArgumentError(f"{name} must be a finite number, got {f}")
    if minimum is not None and f < minimum:
        raise ArgumentError(f"{name} must be >= {minimum}, got {f}")
    return f


def check_choice(v: Any, name: str, choices: Sequence[str]) -> str:
    """``v`` must be one of ``choices``."""
    if not isinstance(v, str) or v not in choices:
        allowed = ", ".join(repr(c) for c in choices)
        raise ArgumentError(f"{name} must be one of {allowed}; got {v!r}")
    return v


def check_cell_pair(v: Any, name: str) -> tuple[int, int]:
    """A cell given as an ``(x, y)`` pair of integers."""
    if type(v) is tuple and len(v) == 2 and type(v[0]) is int and type(v[1]) is int:
        return v
    try:
        x, y = v
    except (TypeError, ValueError):
        raise ArgumentTypeError(f"{name} must be an (x, y) pair of integers, got {v!r}") from None
    return check_int(x, f"{name}[0] (x)"), check_int(y, f"{name}[1] (y)")


def check_seed(seed: Any, name: str = "seed") -> int | None:
    """``None`` or a non-negative integer."""
    if seed is None:
        return None
    n = check_int(seed, name)
    if n < 0:
        raise ArgumentError(f"{name} must be >= 0 or None, got {n}")
    return n


def check_bool_layer(v: Any, name: str, shape: tuple[int, int]) -> NDArray[np.bool_]:
    """A boolean layer of the board's ``(height, width)`` shape, indexed ``[y, x]``.

    Returns ``np.asarray(v)`` (no copy); a wrong shape raises ``ValueError``,
    a non-boolean dtype ``TypeError``.

    >>> check_bool_layer(np.zeros((4, 6), dtype=bool), "blocks", (4, 6)).shape
    (4, 6)
    >>> check_bool_layer(np.zeros((4, 6)), "blocks", (4, 6))
    Traceback (most recent call last):
    wargrid.errors.ArgumentTypeError: blocks must be a boolean array, got dtype float64
    """
    a = np.asarray(v)
    if a.shape != tuple(shape):
        raise ArgumentError(f"{name} must have shape (height, width) = {tuple(shape)}, got {a.shape}")
    if a.dtype != bool:
        raise ArgumentTypeError(f"{name} must be a boolean array, got dtype {a.dtype}")
    return a


def check_iterable(v: Any, name: str, what: str) -> Iterable[Any]:
    """``v`` must be iterable (and not a string): ``what`` says what it should hold.

    >>> check_iterable(3, "cells", "a list of (x, y) cells")
    Traceback (most recent call last):
    wargrid.errors.ArgumentTypeError: cells must be a list of (x, y) cells, got int 3
    """
    if isinstance(v, (str, bytes)) or not isinstance(v, Iterable) or isinstance(v, np.ndarray) and v.ndim == 0:
        raise ArgumentTypeError(f"{name} must be {what}, got {type(v).__name__} {v!r}")  # (0-d: not iterable)
    return v


def check_path(v: Any, name: str = "path") -> str | os.PathLike[str]:
    """``v`` if it names a file: a ``str`` or a path-like object (``pathlib.Path``); ``bytes`` decoded as
    ``os.fsdecode`` does (``os.fspath`` takes them).

    >>> check_path(b"a.map")
    'a.map'
    >>> check_path(None)
    Traceback (most recent call last):
    wargrid.errors.ArgumentTypeError: path must be a file name (a str or a pathlib.Path), got NoneType None
    """
    if isinstance(v, bytes):
        return os.fsdecode(v)
    if not isinstance(v, (str, os.PathLike)):
        raise ArgumentTypeError(f"{name} must be a file name (a str or a pathlib.Path), got {type(v).__name__} {v!r}")
    return v
