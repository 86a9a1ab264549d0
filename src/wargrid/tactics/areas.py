"""Attack and effect areas: shapes around a cell or along a board direction.

Every shape is defined once, over *lattice offsets* from the origin cell:

- square boards: ``(dx, dy)`` in cells;
- hex and staggered boards: the axial ``Hex`` difference ``(dq, dr)``
  (a staggered board has the adjacency of odd-q / odd-r hexes).

A lattice offset has a step count (the board's own metric: manhattan on
square-4, chebyshev on square-8, hex steps on hex and staggered boards) and a
position in the *ideal lattice* where neighbouring centres are 1 apart
(square: ``(dx, dy)``; hex: ``(dq + dr / 2, dr * sqrt(3) / 2)``). Kinds:

- ``'line'``: the ``length`` cells straight along ``direction``;
- ``'cross'``: arms of ``length`` cells; square boards: four arms at right
  angles (the '+' for an even square-8 direction, the 'x' for an odd one);
  hex boards: six arms, along the three axes;
- ``'cone'`` (alias ``'sector'``): cells within ``length`` steps whose angle
  from ``direction`` is at most ``width`` half-steps: ``width`` counts 60°
  wedges on hex boards (1..6: 60°..360°, a 60° rotation of the base wedge for
  each direction) and 45° slices on square boards (1..8, whichever board
  kind, so a square-4 board also has 45° cones);
- ``'ring'``: exactly ``radius`` steps away;
- ``'radius'``: at most ``radius`` steps away (filled);
- ``'circle'``: real distance between cell centres in the ideal lattice at
  most ``radius`` (a float) - the circumscribed-circle attacks of hex games.

``line``, ``cross`` and ``cone`` leave out the origin, ``ring``, ``radius``
and ``circle`` hold it (``ring`` only for radius 0); ``include_origin``
overrides. Cells off the board or outside its shape are dropped; wrapped
boards wrap (lines walk on round the seam; the other shapes measure a cell the shortest way round). Cells are listed nearest first (ideal-lattice distance), ties by
``(y, x)``.

>>> from wargrid import HexGrid, SquareGrid
>>> area(SquareGrid(5, 5), "line", (0, 2), direction=0, length=3).cells
[(1, 2), (2, 2), (3, 2)]
>>> len(area(HexGrid(9, 9), "radius", (4, 4), radius=2))
19
>>> len(area(HexGrid(9, 9), "cone", (4, 4), direction=0, length=2, width=1))
4
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterator, TypeGuard

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..errors import ArgumentError, ArgumentTypeError
from .._budget import check_memory
from .._validate import check_choice, check_int, check_real
from ..grids.boards import Grid, HexLikeGrid
from ..grids.hexes import HEX_DIRECTIONS

__all__ = ["Area", "AREA_SHAPES", "area", "area_mask", "lattice_offsets", "rotate_shape"]

AREA_SHAPES = ("line", "cross", "cone", "sector", "ring", "radius", "circle")
"""The shapes ``area`` knows ('sector' is another name for 'cone')."""

_SQRT3_2 = math.sqrt(3.0) / 2.0
_EPS = 1e-9
_NEEDS = {
    "line": ("length",),
    "cross": ("length",),
    "cone": ("length", "width"),
    "sector": ("length", "width"),
    "ring": ("radius",),
    "radius": ("radius",),
    "circle": ("radius",),
}
_DEFAULT_ORIGIN = {"line": False, "cross": False, "cone": False, "sector": False, "ring": True, "radius": True, "circle": True}


@dataclass(frozen=True)
class Area:
    """The cells of an area: ``cells`` as ``(x, y)`` (nearest first) and ``mask``, a ``(height, width)`` bool array;
    ``reach``: no cell is more steps from the origin (the board's metric)."""

    shape: str
    origin: tuple[int, int]
    cells: list[tuple[int, int]]
    mask: NDArray[np.bool_] = field(repr=False)
    reach: int = 0

    def __len__(self) -> int:
        return len(self.cells)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return iter(self.cells)

    def __contains__(self, cell: object) -> bool:
        return cell in set(self.cells)


def is_hex(grid: Grid) -> TypeGuard[HexLikeGrid]:
    """Whether ``grid`` has hex adjacency (hex and staggered boards).

    >>> from wargrid import StaggeredGrid
    >>> is_hex(StaggeredGrid(3, 3))
    True
    """
    return isinstance(grid, HexLikeGrid)


def lattice_directions(grid: Grid) -> NDArray[np.int64]:
    """``(ndir, 2)`` lattice offsets of the board's directions (``(dx, dy)`` or ``(dq, dr)``).

    >>> from wargrid import SquareGrid
    >>> lattice_directions(SquareGrid(3, 3)).tolist()
    [[1, 0], [0, -1], [-1, 0], [0, 1]]
    """
    if is_hex(grid):
        return np.array([(h.q, h.r) for h in HEX_DIRECTIONS], dtype=np.int64)
    t = grid.topology
    return np.stack([t.dx[0], t.dy[0]], axis=1).astype(np.int64)


def lattice_xy(grid: Grid, a: ArrayLike, b: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Ideal-lattice positions (neighbouring centres 1 apart) of lattice offsets ``(a, b)``.

    >>> from wargrid import HexGrid
    >>> x, y = lattice_xy(HexGrid(3, 3), np.array([0]), np.array([1]))
    >>> round(float(np.hypot(x[0], y[0])), 6)
    1.0
    """
    fa = np.asarray(a, dtype=np.float64)
    fb = np.asarray(b, dtype=np.float64)
    if is_hex(grid):
        return fa + fb / 2.0, fb * _SQRT3_2
    return fa, fb


def lattice_offsets(grid: Grid, reach: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Every lattice offset within ``reach`` steps (both components int64).

    >>> from wargrid import HexGrid
    >>> len(lattice_offsets(HexGrid(3, 3), 1)[0])
    7
    """
    reach = check_int(reach, "reach")
    if reach < 0:
        raise ArgumentError(f"reach must be >= 0 steps, got {reach}")
    check_memory(40 * (2 * reach + 1) ** 2, what="the lattice offsets", name="reach", value=reach)
    rng = np.arange(-reach, reach + 1, dtype=np.int64)
    ga, gb = np.meshgrid(rng, rng, indexing="ij")
    a, b = ga.ravel(), gb.ravel()
    keep = steps_of(grid, a, b) <= reach
    return a[keep], b[keep]


def steps_of(grid: Grid, a: ArrayLike, b: ArrayLike) -> NDArray[np.int64]:
    """Steps on an open board for lattice offsets ``(a, b)`` (the board's own metric).

    >>> from wargrid import SquareGrid
    >>> steps_of(SquareGrid(3, 3, diagonal=True), np.array([2]), np.array([-1])).tolist()
    [2]
    """
    ia = np.asarray(a, dtype=np.int64)
    ib = np.asarray(b, dtype=np.int64)
    if is_hex(grid):
        hex_steps: NDArray[np.int64] = (np.abs(ia) + np.abs(ib) + np.abs(ia + ib)) // 2
        return hex_steps
    if grid.topology.ndir == 8:
        return np.maximum(np.abs(ia), np.abs(ib))
    return np.abs(ia) + np.abs(ib)


def to_cells(
    grid: Grid, origin: tuple[int, int], a: NDArray[np.int64], b: NDArray[np.int64]
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.bool_]]:
    """Lattice offsets from ``origin`` to cells: ``(xs, ys, on_board)`` (wrapped in x on a wrapped board).

    >>> from wargrid import SquareGrid
    >>> xs, ys, ok = to_cells(SquareGrid(3, 3), (1, 1), np.array([1, 2]), np.array([0, 0]))
    >>> xs.tolist(), ok.tolist()
    ([2, 3], [True, False])
    """
    ox, oy = origin
    if is_hex(grid):
        q0, r0 = grid.hexes_of(np.array([ox]), np.array([oy]))
        xs, ys = grid.cells_of_hexes(a + q0[0], b + r0[0])
    else:
        xs, ys = a + ox, b + oy
    xs = np.asarray(xs, dtype=np.int64)
    ys = np.asarray(ys, dtype=np.int64)
    if grid.wrap_x:
        xs = xs % grid.width
    ok = (xs >= 0) & (xs < grid.width) & (ys >= 0) & (ys < grid.height)
    ok[ok] = grid.mask[ys[ok], xs[ok]]
    return xs, ys, ok


def shortest(grid: Grid, origin: tuple[int, int], a: NDArray[np.int64], b: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Whether each lattice offset is (one of) the shortest ways to its cell on a wrapped board.

    >>> from wargrid import SquareGrid
    >>> shortest(SquareGrid(5, 1, wrap_x=True), (0, 0), np.array([1, 4]), np.array([0, 0])).tolist()
    [True, False]
    """
    s = steps_of(grid, a, b)
    best = s.copy()
    for shift in (-grid.width, grid.width):
        if is_hex(grid):
            q0, r0 = grid.hexes_of(np.array([origin[0]]), np.array([origin[1]]))
            xs, ys = grid.cells_of_hexes(a + q0[0], b + r0[0])
            q, r = grid.hexes_of(np.asarray(xs) + shift, np.asarray(ys))
            alt = steps_of(grid, q - q0[0], r - r0[0])
        else:
            alt = steps_of(grid, a + shift, b)
        best = np.minimum(best, alt)
    return np.equal(s, best)


def _opt_int(v: Any, name: str, lo: int, hi: int | None = None) -> int:
    n = check_int(v, name)
    if n < lo or (hi is not None and n > hi):
        allowed = f">= {lo}" if hi is None else f"in {lo}..{hi}"
        raise ArgumentError(f"{name} must be {allowed}, got {n}")
    return n


def _check_args(
    grid: Grid, shape: Any, direction: Any, length: Any, radius: Any, width: Any
) -> tuple[int, int | None, float | None, int | None, int]:
    if not isinstance(grid, Grid):
        raise ArgumentTypeError(f"grid must be a wargrid Grid, got {type(grid).__name__}")
    check_choice(shape, "shape", AREA_SHAPES)
    ndir = grid.topology.ndir
    direction = _opt_int(direction, "direction", 0, ndir - 1)
    given = {"length": length, "radius": radius, "width": width}
    for name, v in given.items():
        if name in _NEEDS[shape] and v is None:
            raise ArgumentError(f"shape {shape!r} needs {name}= (it uses {', '.join(_NEEDS[shape])})")
        if name not in _NEEDS[shape] and v is not None:
            raise ArgumentError(f"{name}= does not apply to shape {shape!r} (it uses {', '.join(_NEEDS[shape])})")
    limit = grid.width + grid.height
    if length is not None:
        length = _opt_int(length, "length", 1)
    if width is not None:
        width = _opt_int(width, "width", 1, 6 if is_hex(grid) else 8)
    if radius is not None:
        if shape == "circle":
            radius = check_real(radius, "radius", minimum=0.0)
        else:
            radius = _opt_int(radius, "radius", 0)
    reach = length if length is not None else radius
    if shape == "circle":
        # a centre k steps away is at least k * sqrt(3) / 2 (hex), k (square-8) or k / sqrt(2) (square-4) away
        scale = 1.0 / _SQRT3_2 if is_hex(grid) else (1.0 if grid.topology.ndir == 8 else math.sqrt(2.0))
        reach = math.floor(radius * scale + _EPS)
    return direction, length, radius, width, min(int(reach), limit)


def _select(grid: Grid, shape: str, direction: int, length: Any, radius: Any, width: Any,
            a: NDArray[np.int64], b: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Which lattice offsets ``(a, b)`` belong to the shape (the one definition of every shape)."""
    s = steps_of(grid, a, b)
    inside: NDArray[np.bool_]  # comparisons with the shape's own option (int or float)
    if shape == "ring":
        inside = s == radius
        return inside
    if shape == "radius":
        inside = s <= radius
        return inside
    x, y = lattice_xy(grid, a, b)
    if shape == "circle":
        inside = x * x + y * y <= radius * radius + _EPS
        return inside
    dirs = lattice_directions(grid)
    if shape == "line":
        arms = [direction]
    elif shape == "cross":
        every = 1 if is_hex(grid) else len(dirs) // 4
        arms = [(direction + every * j) % len(dirs) for j in range(len(dirs) // every)]
    else:  # cone / sector
        dx, dy = lattice_xy(grid, dirs[direction, 0], dirs[direction, 1])
        half = math.radians(width * (30.0 if is_hex(grid) else 22.5))
        norm = np.hypot(x, y)
        cos = (x * dx + y * dy) / np.where(norm > 0, norm * math.hypot(float(dx), float(dy)), 1.0)
        inside = (s >= 1) & (s <= length) & (cos >= math.cos(half) - _EPS)
        return inside
    keep = np.zeros(a.shape, dtype=bool)
    for d in arms:
        da, db = int(dirs[d, 0]), int(dirs[d, 1])
        keep |= (a * db - b * da == 0) & (a * da + b * db > 0) & (s <= length)
    return keep


def area(
    grid: Grid,
    shape: str,
    origin: tuple[int, int],
    *,
    direction: int = 0,
    length: int | None = None,
    radius: float | None = None,
    width: int | None = None,
    include_origin: bool | None = None,
) -> Area:
    """The cells of shape ``shape`` around ``origin`` (an ``(x, y)`` cell); see the module text.

    >>> from wargrid import SquareGrid
    >>> area(SquareGrid(5, 5, diagonal=True), "cross", (2, 2), direction=1, length=1).cells
    [(1, 1), (3, 1), (1, 3), (3, 3)]
    >>> int(area(SquareGrid(5, 5), "circle", (2, 2), radius=1.5).mask.sum())
    9
    """
    direction, length, radius, width, reach = _check_args(grid, shape, direction, length, radius, width)
    origin = grid.check_cell(origin, "origin")
    if include_origin is None:
        include_origin = _DEFAULT_ORIGIN[shape] and (shape != "ring" or radius == 0)
    elif not isinstance(include_origin, (bool, np.bool_)):
        raise ArgumentTypeError(f"include_origin must be True, False or None, got {include_origin!r}")
    a, b = lattice_offsets(grid, reach)
    keep = _select(grid, shape, direction, length, radius, width, a, b)
    zero = (a == 0) & (b == 0)
    keep = (keep & ~zero) | (zero & bool(include_origin))
    a, b = a[keep], b[keep]
    xs, ys, ok = to_cells(grid, origin, a, b)
    if grid.wrap_x and shape not in ("line", "cross"):  # measured the shortest way round
        ok &= shortest(grid, origin, a, b)
    lx, ly = lattice_xy(grid, a[ok], b[ok])
    xs, ys = xs[ok], ys[ok]
    order = np.lexsort((xs, ys, np.round(lx * lx + ly * ly, 9)))
    mask = np.zeros(grid.shape, dtype=bool)
    cells: list[tuple[int, int]] = []
    for x, y in zip(xs[order].tolist(), ys[order].tolist()):
        if not mask[y, x]:  # a wrapped board can bring a cell back twice
            mask[y, x] = True
            cells.append((x, y))
    return Area(shape, origin, cells, mask, reach)


def area_mask(grid: Grid, shape: str, origin: tuple[int, int], **options: Any) -> NDArray[np.bool_]:
    """``area(...).mask``: the ``(height, width)`` bool form.

    >>> from wargrid import HexGrid
    >>> int(area_mask(HexGrid(7, 7), "ring", (3, 3), radius=2).sum())
    12
    """
    return area(grid, shape, origin, **options).mask


def rotate_shape(grid: Grid, cells: Any, origin: tuple[int, int], steps: int) -> list[tuple[int, int]]:
    """Turn any shape (a list of ``(x, y)`` cells) about ``origin`` by ``steps`` board directions.

    One step takes direction ``d`` to ``d + 1`` (counter-clockwise on screen,
    as ``Hex.turn``: the one rotation convention of wargrid):
    60 degrees on hex and staggered boards, 90 on square-4 boards; on
    square-8 boards only even steps (90 degrees) map cells onto cells, odd
    ones raise ``ValueError``. Cells turned off the board are dropped; a
    wrapped board wraps.

    >>> from wargrid import HexGrid, SquareGrid
    >>> rotate_shape(SquareGrid(5, 5), [(3, 2), (4, 2)], (2, 2), 1)
    [(2, 1), (2, 0)]
    >>> g = HexGrid(7, 7)
    >>> rotate_shape(g, [g.neighbor((3, 3), 0)], (3, 3), 2) == [g.neighbor((3, 3), 2)]
    True
    """
    origin = grid.check_cell(origin, "origin")
    steps = check_int(steps, "steps")
    ndir = grid.topology.ndir
    if ndir == 8:
        if steps % 2:
            raise ArgumentError(f"steps must be even on a square-8 board (45 degrees does not map cells onto cells), got {steps}")
        quarter = (steps // 2) % 4
    elif ndir == 4:
        quarter = steps % 4
    try:
        items = [grid.check_cell(c, f"cells[{i}]") for i, c in enumerate(cells)]
    except TypeError:
        raise ArgumentTypeError(f"cells must be a list of (x, y) cells, got {type(cells).__name__}") from None
    if not items:
        return []
    xs = np.array([c[0] for c in items], dtype=np.int64)
    ys = np.array([c[1] for c in items], dtype=np.int64)
    if is_hex(grid):
        q, r = grid.hexes_of(xs, ys)
        q0, r0 = grid.hexes_of(np.array([origin[0]]), np.array([origin[1]]))
        a, b = q - q0[0], r - r0[0]
        if grid.wrap_x:  # the shortest offset round the seam
            best = steps_of(grid, a, b)
            for shift in (-grid.width, grid.width):
                qs, rs = grid.hexes_of(xs + shift, ys)
                a2, b2 = qs - q0[0], rs - r0[0]
                better = steps_of(grid, a2, b2) < best
                a, b = np.where(better, a2, a), np.where(better, b2, b)
                best = np.minimum(best, steps_of(grid, a2, b2))
        for _ in range(steps % 6):  # rotate_left in cube terms: (q, r, s) -> (-s, -q, -r)
            a, b = a + b, -a
    else:
        a, b = xs - origin[0], ys - origin[1]
        if grid.wrap_x:
            a = (a + grid.width // 2) % grid.width - grid.width // 2
        for _ in range(quarter):  # (dx, dy) -> (dy, -dx): east to north on a y-down screen
            a, b = b, -a
    tx, ty, ok = to_cells(grid, origin, a, b)
    return [(int(x), int(y)) for x, y, k in zip(tx.tolist(), ty.tolist(), ok.tolist()) if k]
