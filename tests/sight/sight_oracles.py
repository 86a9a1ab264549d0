"""Slow, obviously-right sight oracles: Fractions and plain Python."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

HALF = Fraction(1, 2)


def ford_fov(blocks: np.ndarray, origin: tuple[int, int]) -> set[tuple[int, int]]:
    """Symmetric shadowcasting exactly as published (recursive, Fraction slopes).

    Off-board tiles are walls that are never reported.
    """
    H, W = blocks.shape
    ox, oy = origin
    seen = {(ox, oy)}

    def blocking(x: int, y: int) -> bool:
        return not (0 <= x < W and 0 <= y < H) or bool(blocks[y, x])

    for quadrant in range(4):
        def transform(depth: int, col: int) -> tuple[int, int]:
            if quadrant == 0:
                return ox + col, oy - depth
            if quadrant == 1:
                return ox + depth, oy + col
            if quadrant == 2:
                return ox + col, oy + depth
            return ox - depth, oy + col

        def scan(depth: int, start: Fraction, end: Fraction) -> None:
            prev = None
            lo = math.floor(depth * start + HALF)
            hi = math.ceil(depth * end - HALF)
            for col in range(lo, hi + 1):
                x, y = transform(depth, col)
                wall = blocking(x, y)
                if wall or (depth * start <= col <= depth * end):
                    if 0 <= x < W and 0 <= y < H:
                        seen.add((x, y))
                if prev is True and not wall:
                    start = Fraction(2 * col - 1, 2 * depth)
                if prev is False and wall:
                    scan(depth + 1, start, Fraction(2 * col - 1, 2 * depth))
                prev = wall
            if prev is False:
                scan(depth + 1, start, end)

        scan(1, Fraction(-1), Fraction(1))
    return seen


def within(dx: int, dy: int, metric: str, r: int) -> bool:
    """The radius rule, in floats with a margin (integers make it exact enough here)."""
    ax, ay = abs(dx), abs(dy)
    if metric == "euclidean":
        return ax * ax + ay * ay <= r * r
    if metric == "chebyshev":
        return max(ax, ay) <= r
    if metric == "manhattan":
        return ax + ay <= r
    return max(ax, ay) + (math.sqrt(2) - 1) * min(ax, ay) <= r + 1e-9
