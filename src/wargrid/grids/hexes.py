"""Hex coordinates: cube/axial ``Hex``, offset and doubled coordinates, rounding,
lines, rings, spirals, rotation, reflection and the hex <-> pixel ``Layout``.

The formulas and names follow the public hex-grid guide by Red Blob Games, so
code written with that guide in mind reads naturally:

>>> h = Hex(1, -2)
>>> h.s
1
>>> h.neighbor(2)
Hex(q=1, r=-3)
>>> Hex(0, 0).distance(Hex(3, -1))
3
>>> hex_to_offset(Hex(3, -1), "odd-q")
(3, 0)
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any, Iterator, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._budget import check_memory
from ..errors import ArgumentError, ArgumentTypeError
from .._validate import check_choice, check_int

__all__ = [
    "Hex",
    "HEX_DIRECTIONS",
    "HEX_DIAGONALS",
    "OFFSET_KINDS",
    "DOUBLED_KINDS",
    "hex_round",
    "hex_direction",
    "hex_to_offset",
    "offset_to_hex",
    "hex_to_doubled",
    "doubled_to_hex",
    "offset_to_axial_array",
    "axial_to_offset_array",
    "hex_round_array",
    "Layout",
    "MAX_HEX_LIST",
]

OFFSET_KINDS = ("odd-q", "even-q", "odd-r", "even-r")
DOUBLED_KINDS = ("doubled-height", "doubled-width")
_AXES = ("q", "r", "s")


@dataclass(frozen=True, order=True, slots=True)
class Hex:
    """A hex in axial coordinates ``(q, r)``; the cube coordinate ``s`` is ``-q - r``.

    Immutable, hashable and ordered by ``(q, r)``. Arithmetic: ``a + b``,
    ``a - b``, ``a * k`` for an int ``k``.

    >>> Hex(1, 2) + Hex(0, -1)
    Hex(q=1, r=1)
    >>> Hex(1, 2) * 2
    Hex(q=2, r=4)
    >>> sorted({Hex(1, 0), Hex(0, 1)})
    [Hex(q=0, r=1), Hex(q=1, r=0)]
    """

    q: int
    r: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "q", check_int(self.q, "q", hint="use hex_round() for fractional hexes"))
        object.__setattr__(self, "r", check_int(self.r, "r", hint="use hex_round() for fractional hexes"))

    @property
    def s(self) -> int:
        """The third cube coordinate, ``-q - r``."""
        return -self.q - self.r

    # -- arithmetic ---------------------------------------------------------
    def __add__(self, other: Hex) -> Hex:
        if not isinstance(other, Hex):
            return NotImplemented
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        if not isinstance(other, Hex):
            return NotImplemented
        return Hex(self.q - other.q, self.r - other.r)

    def __mul__(self, k: int) -> Hex:
        if isinstance(k, Hex):
            return NotImplemented
        k = check_int(k, "k")
        return Hex(self.q * k, self.r * k)

    __rmul__ = __mul__

    def __neg__(self) -> Hex:
        return Hex(-self.q, -self.r)

    # -- metrics and neighbours ----------------------------------------------
    def length(self) -> int:
        """Distance from the origin.

        >>> Hex(2, -5).length()
        5
        """
        return (abs(self.q) + abs(self.r) + abs(self.s)) // 2

    def distance(self, other: Hex) -> int:
        """Number of hex steps between two hexes.

        >>> Hex(0, 0).distance(Hex(-2, 3))
        3
        """
        _check_hex(other, "other")
        return (self - other).length()

    def neighbor(self, direction: int) -> Hex:
        """The neighbour in ``direction`` (0..5, see ``HEX_DIRECTIONS``).

        >>> Hex(1, -2).neighbor(2)
        Hex(q=1, r=-3)
        """
        return self + hex_direction(direction)

    def neighbors(self) -> list[Hex]:
        """The six neighbours, in direction order.

        >>> Hex(0, 0).neighbors()[:2]
        [Hex(q=1, r=0), Hex(q=1, r=-1)]
        """
        return [self + d for d in HEX_DIRECTIONS]

    def diagonal(self, direction: int) -> Hex:
        """The diagonal neighbour in ``direction`` (0..5, see ``HEX_DIAGONALS``).

        >>> Hex(1, -2).diagonal(3)
        Hex(q=-1, r=-1)
        """
        direction = check_int(direction, "direction")
        if not 0 <= direction < 6:
            raise ArgumentError(f"direction must be in 0..5, got {direction}")
        return self + HEX_DIAGONALS[direction]

    # -- rotation and reflection ---------------------------------------------
    def rotate_left(self) -> Hex:
        """Rotate 60 degrees counter-clockwise (in cube terms) about the origin.

        >>> Hex(1, 0).rotate_left()
        Hex(q=1, r=-1)
        """
        return Hex(-self.s, -self.q)

    def rotate_right(self) -> Hex:
        """Rotate 60 degrees clockwise about the origin.

        >>> Hex(1, 0).rotate_right()
        Hex(q=0, r=1)
        """
        return Hex(-self.r, -self.s)

    def turn(self, steps: int, *, center: Hex | None = None) -> Hex:
        """Turn by ``steps`` * 60 degrees about ``center``: positive is counter-clockwise on screen.

        One step takes direction ``d`` to direction ``d + 1`` (``rotate_left``),
        the convention of every rotation in wargrid (``tactics.rotate_shape``
        too); negative steps turn clockwise.

        Parameters
        ----------
        steps : int
            Sixths of a full turn (any integer; ``6`` is a full turn).
        center : Hex, optional
            The hex turned about (default: the origin).

        Returns
        -------
        Hex

        Raises
        ------
        TypeError
            ``steps`` not an integer, ``center`` not a ``Hex``.

        Examples
        --------
        >>> Hex(1, 0).turn(1) == Hex(1, 0).rotate_left() == HEX_DIRECTIONS[1]
        True
        >>> Hex(2, 0).turn(-1, center=Hex(1, 0))
        Hex(q=1, r=1)
        """
        steps = check_int(steps, "steps") % 6
        c = Hex(0, 0) if center is None else _check_hex(center, "center")
        v = self - c
        for _ in range(steps):
            v = v.rotate_left()
        return v + c

    def rotate(self, steps: int, *, center: Hex | None = None) -> Hex:
        """Deprecated: ``h.rotate(k)`` is ``h.turn(-k)`` (positive steps here turn clockwise).

        ``rotate`` turned the other way from ``tactics.rotate_shape``; ``turn``
        is the one convention (positive: counter-clockwise, direction ``d`` to
        ``d + 1``). ``rotate`` warns (``DeprecationWarning``) and will be
        removed; its arguments are checked as ``turn`` checks them.

        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore", DeprecationWarning)
        ...     Hex(2, 0).rotate(1, center=Hex(1, 0)) == Hex(2, 0).turn(-1, center=Hex(1, 0))
        True
        """
        steps = check_int(steps, "steps")
        warnings.warn("Hex.rotate(k) is deprecated: use Hex.turn(-k) (positive turns counter-clockwise, "
                      "as rotate_shape does)", DeprecationWarning, stacklevel=2)
        return self.turn(-steps, center=center)

    def reflect(self, axis: str, *, center: Hex | None = None) -> Hex:
        """Mirror across the line through ``center`` where one coordinate is fixed.

        ``axis`` is 'q', 'r' or 's': the coordinate that stays the same; the
        other two swap.

        >>> Hex(1, -3).reflect("q")
        Hex(q=1, r=2)
        """
        check_choice(axis, "axis", _AXES)
        c = Hex(0, 0) if center is None else _check_hex(center, "center")
        v = self - c
        q, r, s = v.q, v.r, v.s
        if axis == "q":
            out = Hex(q, s)
        elif axis == "r":
            out = Hex(s, r)
        else:
            out = Hex(r, q)
        return out + c

    # -- shapes ---------------------------------------------------------------
    def ring(self, radius: int) -> list[Hex]:
        """The hexes at exactly ``radius`` steps, in the guide's order.

        Starts at ``self + direction(4) * radius`` and walks directions 0..5.

        >>> Hex(0, 0).ring(1)[:3]
        [Hex(q=-1, r=1), Hex(q=0, r=1), Hex(q=1, r=0)]
        >>> len(Hex(0, 0).ring(3))
        18

        Lists are capped at ``MAX_HEX_LIST`` hexes (about 120 bytes each);
        ``ring_array`` gives bigger rings as arrays.
        """
        radius = _check_radius(radius)
        if radius == 0:
            return [self]
        out = []
        h = self + hex_direction(4) * radius
        for i in range(6):
            for _ in range(radius):
                out.append(h)
                h = h.neighbor(i)
        return out

    def spiral(self, radius: int) -> list[Hex]:
        """The centre, then rings 1..radius.

        >>> len(Hex(0, 0).spiral(2))
        19

        Capped at ``MAX_HEX_LIST`` hexes; ``spiral_array`` gives bigger spirals as arrays.
        """
        radius = _check_radius(radius, area=True)
        out = [self]
        for k in range(1, radius + 1):
            out.extend(self.ring(k))
        return out

    def ring_array(self, radius: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """``ring(radius)`` as two arrays ``(q, r)``, same order, for rings too big for a list.

        Bounded by the memory the system has available (about 40 bytes a hex).

        >>> q, r = Hex(0, 0).ring_array(1); q.tolist(), r.tolist()
        ([-1, 0, 1, 1, 0, -1], [1, 1, 0, -1, -1, 0])
        """
        radius = _check_radius_array(radius, 6 * check_int(radius, "radius"), "ring_array")
        _check_int64_reach(self, radius, "ring_array")
        if radius == 0:
            return np.array([self.q], dtype=np.int64), np.array([self.r], dtype=np.int64)
        side = np.repeat(np.arange(6, dtype=np.int64), radius)
        j = np.tile(np.arange(radius, dtype=np.int64), 6)
        return self._ring_cells(side, j, radius)

    def spiral_array(self, radius: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """``spiral(radius)`` as two arrays ``(q, r)``, same order, for spirals too big for a list.

        Bounded by the memory the system has available (about 100 bytes a hex).

        >>> q, r = Hex(2, 0).spiral_array(1); q.tolist(), r.tolist()
        ([2, 1, 2, 3, 3, 2, 1], [0, 1, 1, 0, -1, -1, 0])
        """
        r_in = check_int(radius, "radius")
        radius = _check_radius_array(radius, 3 * r_in * (r_in + 1) + 1 if r_in >= 0 else 0, "spiral_array")
        _check_int64_reach(self, radius, "spiral_array")
        m = np.arange(3 * radius * (radius + 1), dtype=np.int64)  # positions after the centre
        # ring k holds positions 3k(k-1) .. 3k(k+1)-1: k is the largest with 3k(k-1) <= m
        k = np.floor((3 + np.sqrt(9 + 12 * m.astype(np.float64))) / 6).astype(np.int64)
        k += 3 * (k + 1) * k <= m  # float rounding, either way
        k -= 3 * k * (k - 1) > m
        pos = m - 3 * k * (k - 1)
        q, r = self._ring_cells(pos // np.maximum(k, 1), pos % np.maximum(k, 1), k)
        return np.concatenate(([self.q], q)), np.concatenate(([self.r], r))

    def _ring_cells(self, side: NDArray[np.int64], j: NDArray[np.int64],
                    k: int | NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """The ``j``-th hex of side ``side`` of the ring of radius ``k`` (the walk ``ring`` takes)."""
        dq = np.array([d.q for d in HEX_DIRECTIONS], dtype=np.int64)
        dr = np.array([d.r for d in HEX_DIRECTIONS], dtype=np.int64)
        cq = np.concatenate(([0], np.cumsum(dq)[:-1])) + dq[4]  # the side's first hex, per unit of radius
        cr = np.concatenate(([0], np.cumsum(dr)[:-1])) + dr[4]
        return self.q + k * cq[side] + dq[side] * j, self.r + k * cr[side] + dr[side] * j

    def range(self, radius: int) -> list[Hex]:
        """Every hex within ``radius`` steps, ordered by ``(q, r)``.

        >>> len(Hex(5, 5).range(1))
        7
        """
        radius = _check_radius(radius, area=True)
        out = []
        for dq in range(-radius, radius + 1):
            for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
                out.append(Hex(self.q + dq, self.r + dr))
        return out

    def line_to(self, other: Hex) -> list[Hex]:
        """The hexes on the straight line to ``other``, both ends included.

        Linear interpolation in cube space, sampled at ``distance + 1`` points
        and rounded. To make ties fall the same way every time, both ends are
        nudged by the fixed cube vector ``(+2e-6, +1e-6, -3e-6)`` before
        interpolating (the guide's nudge), so a point exactly on an edge
        between two hexes goes to the one with the larger ``q``, then ``r``
        (the nudge crosses every edge kind towards that hex).

        >>> Hex(0, 0).line_to(Hex(2, -1))
        [Hex(q=0, r=0), Hex(q=1, r=0), Hex(q=2, r=-1)]
        >>> Hex(0, 0).line_to(Hex(1, 1))
        [Hex(q=0, r=0), Hex(q=1, r=0), Hex(q=1, r=1)]
        """
        _check_hex(other, "other")
        n = self.distance(other)
        if n >= _MAX_HEXES:
            raise ArgumentError(f"other {other} is {n} steps away: a line of more than {_MAX_HEXES} hexes")
        eq, er = 2e-6, 1e-6
        aq, ar = self.q + eq, self.r + er
        bq, br = other.q + eq, other.r + er
        if n == 0:
            return [self]
        step = 1.0 / n
        return [hex_round(aq + (bq - aq) * step * i, ar + (br - ar) * step * i) for i in range(n + 1)]

    def to_offset(self, offset: str) -> tuple[int, int]:
        """Shortcut for ``hex_to_offset(self, offset)``: the board cell ``(x, y)``.

        >>> Hex(1, 2).to_offset("odd-r")
        (2, 2)
        """
        return hex_to_offset(self, offset)

    def __iter__(self) -> Iterator[int]:
        yield self.q
        yield self.r
        yield self.s

    def __repr__(self) -> str:
        return f"Hex(q={self.q}, r={self.r})"


def _check_hex(h: object, name: str) -> Hex:
    if not isinstance(h, Hex):
        raise ArgumentTypeError(f"{name} must be a Hex, got {type(h).__name__} {h!r}")
    return h


MAX_HEX_LIST = 1 << 21
"""The longest list of ``Hex`` a method builds (2,097,152 hexes, about 250 MB); bigger shapes come as arrays."""

_MAX_HEXES = 1 << 28  # the longest line: past any board (grids.boards.MAX_CELLS)
_LIST_BYTES_PER_HEX = 128  # a Hex, its two ints and the list's slot, measured with tracemalloc
_ARRAY_BYTES_PER_HEX = 112  # spiral_array's int64 temporaries at their peak


def _check_radius(radius: object, *, area: bool = False) -> int:
    radius = check_int(radius, "radius")
    if radius < 0:
        raise ArgumentError(f"radius must be >= 0, got {radius}")
    n = 3 * radius * (radius + 1) + 1 if area else 6 * radius
    if n > MAX_HEX_LIST:
        form = "spiral_array" if area else "ring_array"
        raise ArgumentError(f"radius={radius} would list {n} hexes, more than MAX_HEX_LIST = {MAX_HEX_LIST} "
                            f"(about {_LIST_BYTES_PER_HEX} bytes each); use Hex.{form} for bigger shapes")
    check_memory(n * _LIST_BYTES_PER_HEX, what="a list of hexes", name="radius", value=radius)
    return radius


def _check_radius_array(radius: object, n: int, what: str) -> int:
    radius = check_int(radius, "radius")
    if radius < 0:
        raise ArgumentError(f"radius must be >= 0, got {radius}")
    if radius > 1 << 30:
        raise ArgumentError(f"radius must be at most {1 << 30} for {what}, got {radius}")
    check_memory(n * _ARRAY_BYTES_PER_HEX, what=f"Hex.{what}", name="radius", value=radius)
    return radius


def _check_int64_reach(h: Hex, radius: int, what: str) -> None:
    """The arrays of ``what`` hold int64: every hex within ``radius`` of ``h`` must fit (numpy wrapped them round)."""
    if max(abs(h.q), abs(h.r)) + radius >= 1 << 63:
        raise ArgumentError(f"{what} gives int64 arrays: the hexes within radius {radius} of {h!r} do not fit in "
                            f"them (|q| and |r| + radius must stay below 2**63); use ring() or spiral() for Python ints")


HEX_DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1),
)
"""The six neighbour directions in (q, r); d-th is (1,0,-1), (1,-1,0), (0,-1,1), (-1,0,1), (-1,1,0), (0,1,-1) in cube."""

HEX_DIAGONALS: tuple[Hex, ...] = (
    Hex(2, -1), Hex(1, -2), Hex(-1, -1), Hex(-2, 1), Hex(-1, 2), Hex(1, 1),
)
"""The six diagonal directions: (2,-1,-1), (1,-2,1), (-1,-1,2), (-2,1,1), (-1,2,-1), (1,1,-2) in cube."""


def hex_direction(direction: int) -> Hex:
    """The unit vector of ``direction`` (0..5).

    Parameters
    ----------
    direction : int
        0..5, the directions of ``Hex.neighbor``.

    Returns
    -------
    Hex

    Raises
    ------
    ValueError
        ``direction`` outside 0..5 (``ArgumentError``).

    Examples
    --------
    >>> hex_direction(0)
    Hex(q=1, r=0)
    """
    direction = check_int(direction, "direction")
    if not 0 <= direction < 6:
        raise ArgumentError(f"direction must be in 0..5, got {direction}")
    return HEX_DIRECTIONS[direction]


def hex_round(q: float, r: float) -> Hex:
    """Round fractional axial coordinates to the nearest Hex (cube rounding).

    Each cube coordinate is rounded half up, so a point exactly on the edge
    between two hexes goes to the one with the larger ``q``, then the larger
    ``r``, wherever the edge is (rounding commutes with moving by whole hexes).

    Parameters
    ----------
    q, r : float
        Fractional axial coordinates.

    Returns
    -------
    Hex

    Examples
    --------
    >>> hex_round(0.5, 0.0), hex_round(1.5, 0.0), hex_round(0.0, 0.5)
    (Hex(q=1, r=0), Hex(q=2, r=0), Hex(q=0, r=1))
    >>> hex_round(0.6, 0.3)
    Hex(q=1, r=0)
    >>> hex_round(-0.4, 1.2)
    Hex(q=0, r=1)
    """
    q = _check_real(q, "q")
    r = _check_real(r, "r")
    s = -q - r
    rq, rr, rs = _round_half_up(q), _round_half_up(r), _round_half_up(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))


def _round_half_up(x: float) -> float:
    # not round(): Python rounds halves to even, which would break ties one way
    # at q = 0.5 and the other at q = 1.5
    f = math.floor(x)
    return f + 1.0 if x - f >= 0.5 else f


def _check_real(v: object, name: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise ArgumentTypeError(f"{name} must be a real number, got {type(v).__name__} {v!r}")
    f = float(v)
    if not math.isfinite(f):
        raise ArgumentError(f"{name} must be finite, got {f}")
    return f


# -- offset and doubled coordinates ------------------------------------------

def hex_to_offset(h: Hex, offset: str) -> tuple[int, int]:
    """Axial hex to offset ``(col, row)``.

    ``offset`` is 'odd-q' or 'even-q' (flat-top, columns shoved) or 'odd-r' or
    'even-r' (pointy-top, rows shoved).

    Parameters
    ----------
    h : Hex
        The axial hex.
    offset : str
        'odd-q' or 'even-q' (flat-top) or 'odd-r' or 'even-r' (pointy-top).

    Returns
    -------
    tuple of int
        ``(col, row)``.

    Examples
    --------
    >>> hex_to_offset(Hex(1, 2), "odd-q"), hex_to_offset(Hex(1, 2), "even-r")
    ((1, 2), (2, 2))
    """
    _check_hex(h, "hex")
    check_choice(offset, "offset", OFFSET_KINDS)
    q, r = h.q, h.r
    if offset == "odd-q":
        return q, r + (q - (q & 1)) // 2
    if offset == "even-q":
        return q, r + (q + (q & 1)) // 2
    if offset == "odd-r":
        return q + (r - (r & 1)) // 2, r
    return q + (r + (r & 1)) // 2, r


def offset_to_hex(col: int, row: int, offset: str) -> Hex:
    """Offset ``(col, row)`` to the axial Hex; the inverse of ``hex_to_offset``.

    Parameters
    ----------
    col, row : int
        Offset coordinates.
    offset : str
        'odd-q' or 'even-q' (flat-top) or 'odd-r' or 'even-r' (pointy-top).

    Returns
    -------
    Hex

    Examples
    --------
    >>> offset_to_hex(1, 2, "odd-q")
    Hex(q=1, r=2)
    >>> offset_to_hex(3, 0, "odd-q")
    Hex(q=3, r=-1)
    """
    col = check_int(col, "col")
    row = check_int(row, "row")
    check_choice(offset, "offset", OFFSET_KINDS)
    if offset == "odd-q":
        return Hex(col, row - (col - (col & 1)) // 2)
    if offset == "even-q":
        return Hex(col, row - (col + (col & 1)) // 2)
    if offset == "odd-r":
        return Hex(col - (row - (row & 1)) // 2, row)
    return Hex(col - (row + (row & 1)) // 2, row)


def hex_to_doubled(h: Hex, doubled: str) -> tuple[int, int]:
    """Axial hex to doubled ``(col, row)``.

    'doubled-height' (flat-top): ``col = q, row = 2r + q``; 'doubled-width'
    (pointy-top): ``col = 2q + r, row = r``.

    Parameters
    ----------
    h : Hex
        The axial hex.
    doubled : str
        'doubled-height' or 'doubled-width'.

    Returns
    -------
    tuple of int
        ``(col, row)``.

    Examples
    --------
    >>> hex_to_doubled(Hex(1, 2), "doubled-height"), hex_to_doubled(Hex(1, 2), "doubled-width")
    ((1, 5), (4, 2))
    """
    _check_hex(h, "hex")
    check_choice(doubled, "doubled", DOUBLED_KINDS)
    if doubled == "doubled-height":
        return h.q, 2 * h.r + h.q
    return 2 * h.q + h.r, h.r


def doubled_to_hex(col: int, row: int, doubled: str) -> Hex:
    """Doubled ``(col, row)`` to axial; ``col + row`` must be even.

    Parameters
    ----------
    col, row : int
        Doubled coordinates (``col + row`` even).
    doubled : str
        'doubled-height' or 'doubled-width'.

    Returns
    -------
    Hex

    Raises
    ------
    ValueError
        ``col + row`` odd (``ArgumentError``).

    Examples
    --------
    >>> doubled_to_hex(1, 5, "doubled-height")
    Hex(q=1, r=2)
    """
    col = check_int(col, "col")
    row = check_int(row, "row")
    check_choice(doubled, "doubled", DOUBLED_KINDS)
    if (col + row) % 2:
        raise ArgumentError(f"doubled coordinates need col + row even, got col={col}, row={row}")
    if doubled == "doubled-height":
        return Hex(col, (row - col) // 2)
    return Hex((col - row) // 2, row)


# -- vectorised forms ----------------------------------------------------------

def _int_array(a: ArrayLike, name: str) -> NDArray[np.int64]:
    arr = np.asarray(a)
    if arr.dtype.kind not in "iu":
        raise ArgumentTypeError(f"{name} must be an integer array, got dtype {arr.dtype}")
    if arr.dtype == np.uint64 and arr.size and int(arr.max()) >= 1 << 63:  # the cast would wrap it negative
        raise ArgumentError(f"{name} must fit int64, got {int(arr.max())}")
    return arr.astype(np.int64, copy=False)


def _real_array(a: ArrayLike, name: str) -> NDArray[np.float64]:
    arr = np.asarray(a)
    if arr.dtype.kind == "O":  # numbers numpy holds as objects (Fractions, Decimals): their floats
        if any(v is None for v in arr.flat):  # numpy would make each None a NaN
            raise ArgumentTypeError(f"{name} must be a number or an array of numbers, got None in an object array")
        try:
            return np.asarray(arr, dtype=np.float64)
        except (TypeError, ValueError, ArithmeticError):
            pass
    if arr.dtype.kind not in "iuf":  # a string raised numpy's "could not convert string to float"
        raise ArgumentTypeError(f"{name} must be a number or an array of numbers, got dtype {arr.dtype}")
    return arr.astype(np.float64, copy=False)


def _broadcast(a: NDArray[Any], b: NDArray[Any], na: str, nb: str) -> tuple[NDArray[Any], NDArray[Any]]:
    """``a`` and ``b`` broadcast together, or an error naming both (numpy's named 'arg 0' and 'arg 1')."""
    try:
        x, y = np.broadcast_arrays(a, b)
    except ValueError:
        raise ArgumentError(f"{na} and {nb} must have shapes that broadcast together, got {a.shape} and {b.shape}") from None
    return x, y


def offset_to_axial_array(cols: ArrayLike, rows: ArrayLike, offset: str) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Vectorised ``offset_to_hex``: integer arrays of columns and rows to ``(q, r)``.

    Parameters
    ----------
    cols, rows : array_like of int
        Offset coordinates, of one shape.
    offset : str
        'odd-q' or 'even-q' (flat-top) or 'odd-r' or 'even-r' (pointy-top).

    Returns
    -------
    tuple of ndarray of int64
        ``(q, r)``.

    Examples
    --------
    >>> q, r = offset_to_axial_array([0, 1, 2, 3], [0, 0, 0, 0], "odd-q")
    >>> q.tolist(), r.tolist()
    ([0, 1, 2, 3], [0, 0, -1, -1])
    """
    check_choice(offset, "offset", OFFSET_KINDS)
    c, r = _broadcast(_int_array(cols, "cols"), _int_array(rows, "rows"), "cols", "rows")
    if offset == "odd-q":
        return c.copy(), r - (c - (c & 1)) // 2
    if offset == "even-q":
        return c.copy(), r - (c + (c & 1)) // 2
    if offset == "odd-r":
        return c - (r - (r & 1)) // 2, r.copy()
    return c - (r + (r & 1)) // 2, r.copy()


def axial_to_offset_array(q: ArrayLike, r: ArrayLike, offset: str) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Vectorised ``hex_to_offset``: integer ``(q, r)`` arrays to ``(cols, rows)``.

    Parameters
    ----------
    q, r : array_like of int
        Axial coordinates, of one shape.
    offset : str
        'odd-q' or 'even-q' (flat-top) or 'odd-r' or 'even-r' (pointy-top).

    Returns
    -------
    tuple of ndarray of int64
        ``(cols, rows)``.

    Examples
    --------
    >>> c, r = axial_to_offset_array([0, 1, 2, 3], [0, 0, -1, -1], "odd-q")
    >>> c.tolist(), r.tolist()
    ([0, 1, 2, 3], [0, 0, 0, 0])
    """
    check_choice(offset, "offset", OFFSET_KINDS)
    qq, rr = _broadcast(_int_array(q, "q"), _int_array(r, "r"), "q", "r")
    if offset == "odd-q":
        return qq.copy(), rr + (qq - (qq & 1)) // 2
    if offset == "even-q":
        return qq.copy(), rr + (qq + (qq & 1)) // 2
    if offset == "odd-r":
        return qq + (rr - (rr & 1)) // 2, rr.copy()
    return qq + (rr + (rr & 1)) // 2, rr.copy()


def hex_round_array(q: ArrayLike, r: ArrayLike) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Vectorised ``hex_round``: float arrays to integer ``(q, r)`` arrays.

    Parameters
    ----------
    q, r : array_like of float
        Fractional axial coordinates, of one shape.

    Returns
    -------
    tuple of ndarray of int64
        ``(q, r)``, of the shape of the inputs.

    Raises
    ------
    ValueError
        A NaN or infinite coordinate (``ArgumentError``).

    Examples
    --------
    >>> q, r = hex_round_array([0.6, -0.4], [0.3, 1.2])
    >>> q.tolist(), r.tolist()
    ([1, 0], [0, 1])
    """
    fq, fr = _broadcast(_real_array(q, "q"), _real_array(r, "r"), "q", "r")
    if not (np.isfinite(fq).all() and np.isfinite(fr).all()):
        raise ArgumentError("q and r must be finite (no NaN or inf)")
    if fq.size and max(np.abs(fq).max(), np.abs(fr).max()) >= 2.0**62:  # the rounded q, r and s must fit int64
        raise ArgumentError("q and r must lie within +-2**62 (the hexes are int64 arrays); use hex_round() for Python ints")
    fs = -fq - fr
    rq, rr, rs = _round_half_up_array(fq), _round_half_up_array(fr), _round_half_up_array(fs)
    dq, dr, ds = np.abs(rq - fq), np.abs(rr - fr), np.abs(rs - fs)
    fix_q = (dq > dr) & (dq > ds)
    fix_r = ~fix_q & (dr > ds)
    rq = np.where(fix_q, -rr - rs, rq)
    rr = np.where(fix_r, -rq - rs, rr)
    return rq.astype(np.int64), rr.astype(np.int64)


def _round_half_up_array(x: NDArray[np.float64]) -> NDArray[np.float64]:
    f = np.floor(x)
    return np.where(x - f >= 0.5, f + 1.0, f)


# -- layout --------------------------------------------------------------------

_SQRT3 = math.sqrt(3.0)
# forward matrix f0..f3, backward b0..b3, start angle (in sixths of a turn)
_ORIENTATIONS = {
    "pointy": ((_SQRT3, _SQRT3 / 2.0, 0.0, 1.5), (_SQRT3 / 3.0, -1.0 / 3.0, 0.0, 2.0 / 3.0), 0.5),
    "flat": ((1.5, 0.0, _SQRT3 / 2.0, _SQRT3), (2.0 / 3.0, 0.0, -1.0 / 3.0, _SQRT3 / 3.0), 0.0),
}


class Layout:
    """Hex <-> pixel conversion; screen ``y`` grows downward.

    ``orientation`` is 'flat' or 'pointy', ``size`` the ``(sx, sy)`` distance from
    a hex centre to a corner, ``origin`` the pixel of ``Hex(0, 0)``'s centre.

    >>> lay = Layout("pointy", (10, 10), (0, 0))
    >>> x, y = lay.hex_to_pixel(Hex(1, 0))
    >>> round(x, 3), round(y, 3)
    (17.321, 0.0)
    >>> lay.pixel_to_hex(x, y)
    Hex(q=1, r=0)
    """

    __slots__ = ("orientation", "size", "origin", "_f", "_b", "_start")

    def __init__(self, orientation: str, size: Sequence[float], origin: Sequence[float] = (0.0, 0.0)) -> None:
        check_choice(orientation, "orientation", tuple(_ORIENTATIONS))
        self.orientation = orientation
        self.size = _check_pair(size, "size", positive=True)
        self.origin = _check_pair(origin, "origin")
        self._f, self._b, self._start = _ORIENTATIONS[orientation]

    def __repr__(self) -> str:
        return f"Layout({self.orientation!r}, size={self.size}, origin={self.origin})"

    def hex_to_pixel(self, h: Hex) -> tuple[float, float]:
        """Centre of ``h`` in pixels.

        >>> Layout("flat", (1, 1)).hex_to_pixel(Hex(2, 0))
        (3.0, 1.7320508075688772)
        """
        _check_hex(h, "hex")
        f = self._f
        x = (f[0] * h.q + f[1] * h.r) * self.size[0]
        y = (f[2] * h.q + f[3] * h.r) * self.size[1]
        return x + self.origin[0], y + self.origin[1]

    def pixel_to_fractional(self, x: float, y: float) -> tuple[float, float]:
        """Fractional axial ``(q, r)`` under pixel ``(x, y)``.

        >>> q, r = Layout("flat", (1, 1)).pixel_to_fractional(1.5, 0.8660254037844386)
        >>> round(q, 9), abs(round(r, 9))
        (1.0, 0.0)
        """
        x = _check_real(x, "x")
        y = _check_real(y, "y")
        b = self._b
        px = (x - self.origin[0]) / self.size[0]
        py = (y - self.origin[1]) / self.size[1]
        q = b[0] * px + b[1] * py
        r = b[2] * px + b[3] * py
        return q, r

    def pixel_to_hex(self, x: float, y: float) -> Hex:
        """The hex containing pixel ``(x, y)``.

        >>> Layout("flat", (1, 1)).pixel_to_hex(3.0, 1.7)
        Hex(q=2, r=0)
        """
        return hex_round(*self.pixel_to_fractional(x, y))

    def corner_offset(self, corner: int) -> tuple[float, float]:
        """Offset of corner ``corner`` (0..5) from a hex centre.

        >>> Layout("flat", (1, 1)).corner_offset(0)
        (1.0, 0.0)
        """
        k = check_int(corner, "corner")
        if not 0 <= k < 6:
            raise ArgumentError(f"corner must be 0..5, got {k}")
        angle = 2.0 * math.pi * (self._start + k) / 6.0
        return self.size[0] * math.cos(angle), self.size[1] * math.sin(angle)

    def corners(self, h: Hex) -> list[tuple[float, float]]:
        """The six corners of ``h`` in pixels, going clockwise on screen.

        >>> [tuple(round(v, 3) for v in c) for c in Layout("flat", (1, 1)).corners(Hex(0, 0))][:2]
        [(1.0, 0.0), (0.5, 0.866)]
        """
        cx, cy = self.hex_to_pixel(h)
        out = []
        for i in range(6):
            dx, dy = self.corner_offset(i)
            out.append((cx + dx, cy + dy))
        return out

    # vectorised
    def hex_to_pixel_array(self, q: ArrayLike, r: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Vectorised ``hex_to_pixel`` over ``(q, r)`` arrays.

        >>> x, y = Layout("flat", (1, 1)).hex_to_pixel_array(np.array([0, 2]), np.array([0, 0]))
        >>> x.tolist()
        [0.0, 3.0]
        """
        qq, rr = _broadcast(_real_array(q, "q"), _real_array(r, "r"), "q", "r")
        f = self._f
        x = (f[0] * qq + f[1] * rr) * self.size[0] + self.origin[0]
        y = (f[2] * qq + f[3] * rr) * self.size[1] + self.origin[1]
        return x, y

    def pixel_to_hex_array(self, x: ArrayLike, y: ArrayLike) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Vectorised ``pixel_to_hex``: pixel arrays to integer ``(q, r)`` arrays.

        >>> q, r = Layout("flat", (1, 1)).pixel_to_hex_array(np.array([0.0, 3.0]), np.array([0.0, 1.7]))
        >>> q.tolist(), r.tolist()
        ([0, 2], [0, 0])
        """
        xx, yy = _broadcast(_real_array(x, "x"), _real_array(y, "y"), "x", "y")
        b = self._b
        px = (xx - self.origin[0]) / self.size[0]
        py = (yy - self.origin[1]) / self.size[1]
        return hex_round_array(b[0] * px + b[1] * py, b[2] * px + b[3] * py)


def _check_pair(v: Any, name: str, *, positive: bool = False) -> tuple[float, float]:
    try:
        va, vb = v
    except (TypeError, ValueError):
        raise ArgumentTypeError(f"{name} must be a pair of numbers (x, y), got {v!r}") from None
    a = _check_real(va, f"{name}[0]")
    b = _check_real(vb, f"{name}[1]")
    if positive and (a <= 0 or b <= 0):
        raise ArgumentError(f"{name} must be positive, got {(a, b)}")
    return a, b
