"""The one grid model: every board is a ``(height, width)`` rectangle of cells.

Users address a cell as ``(x, y)`` = (column, row); arrays are indexed
``[y, x]``; inside, a cell is the integer ``id = y * width + x``. The board's
``Topology`` is the only place that knows the tile shape: it holds the
neighbour offsets, step lengths, parity rule, corner-cutting rule and wrap
flag that every kernel uses, so each algorithm is written once.

>>> g = HexGrid(4, 3, orientation="flat", offset="odd-q")
>>> g.neighbors((1, 1))
[(2, 2), (2, 1), (1, 0), (0, 1), (0, 2), (1, 2)]
>>> g.distance((0, 0), (3, 2))
4
>>> SquareGrid(3, 3, diagonal=True).id((2, 1))
5
"""

from __future__ import annotations

import math
import functools
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, NamedTuple, Sequence

import numpy as np
from numpy.typing import NDArray

from .._deprecation import warn_renamed
from .._kernels.bundles import INFO_FIELDS, INFO_PW, TopoArgs, TopoBundle
from ..errors import ArgumentError, ArgumentTypeError, CellError
from .._validate import check_cell_pair, check_choice, check_int, check_positive_int, check_real
from .hexes import HEX_DIRECTIONS, Hex, Layout, axial_to_offset_array, hex_to_offset, offset_to_axial_array, offset_to_hex
from .square import SQUARE4_DIRECTIONS, SQUARE8_DIRECTIONS

__all__ = [
    "Grid",
    "SquareGrid",
    "HexGrid",
    "StaggeredGrid",
    "HexLikeGrid",
    "Topology",
    "Step",
    "CORNER_RULES",
    "hexagon_board",
    "triangle_board",
    "parallelogram_board",
    "HexBoard",
]

CORNER_RULES = ("always", "no-obstacle", "one-obstacle")
"""Diagonal steps on square-8 boards: always allowed; only when both orthogonal
cells beside the step are passable (the Moving AI rule, the default); or when at
most one of them is blocked."""

_SQRT2 = math.sqrt(2.0)
_SQRT3 = math.sqrt(3.0)
MAX_CELLS = 1 << 28  # 268 M cells: far past any real board, well inside int64 ids


class Step(NamedTuple):
    """One step from a cell: the neighbour reached, the direction index and the step length."""

    cell: tuple[int, int]
    direction: int
    length: float


@dataclass(frozen=True, eq=False)
class Topology:
    """The compact neighbour rule every kernel uses (arrays are small and read-only).

    Kernels work on a board padded by one blocked cell on every side: the padded
    width is ``pw = width + 2`` and the padded id of ``(x, y)`` is
    ``(y + 1) * pw + x + 1``. A step in direction ``d`` from padded id ``p``
    goes to ``p + offsets[par, d]``, where ``par`` is ``x & 1`` when
    ``parity_mode == 1`` (hex columns shoved), ``y & 1`` when ``parity_mode == 2``
    (hex rows shoved), else 0. With ``wrap`` set, a step that lands on the
    left padding column (padded x 0) adds ``width``, and one that lands on the
    right padding column (padded x ``width + 1``) subtracts ``width``.

    A diagonal step ``d`` (``corner[d, 0] >= 0``) also looks at the cells in
    directions ``corner[d, 0]`` and ``corner[d, 1]``; ``corner_rule`` 0 ignores
    them, 1 needs both passable, 2 needs one passable.

    ``heuristic`` selects the kernels' admissible distance: 0 manhattan,
    1 octile, 2 hex (then ``hex_kind`` 0..3 is odd-q, even-q, odd-r, even-r).
    """

    width: int
    height: int
    ndir: int
    dx: NDArray[np.int64]  # (2, ndir)
    dy: NDArray[np.int64]  # (2, ndir)
    offsets: NDArray[np.int64]  # (2, ndir), padded flat offsets
    step: NDArray[np.float64]  # (ndir,) step lengths
    corner: NDArray[np.int64]  # (ndir, 2)
    parity_mode: int
    corner_rule: int
    wrap: int
    heuristic: int
    hex_kind: int
    valid: NDArray[np.bool_] = field(repr=False)  # (height, width)

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Unpickled arrays come back writable: freeze them again, and build the cached kernel arguments afresh.

        Numba compiles a kernel once per array flag, so a writable copy of the topology made every kernel that
        reads it compile a second time (the whole RTS simulation, 40 CPU s, for a pickled one).

        >>> import pickle
        >>> from wargrid import SquareGrid
        >>> t = SquareGrid(3, 2).topology; _ = t.kernel_args
        >>> u = pickle.loads(pickle.dumps(t))
        >>> u.offsets.flags.writeable, u.kernel_args.off.flags.writeable, u.kernel_args.info.flags.writeable
        (False, False, True)
        """
        state = dict(state)
        state.pop("kernel_args", None)  # cached: rebuilt with the flags they were built with
        state.pop("kernel_bundle", None)
        state.pop("masked_out", None)
        for value in state.values():
            if isinstance(value, np.ndarray):
                value.setflags(write=False)
        self.__dict__.update(state)

    @property
    def pw(self) -> int:
        """Padded width."""
        return self.width + 2

    @property
    def ph(self) -> int:
        """Padded height."""
        return self.height + 2

    @property
    def padded_size(self) -> int:
        """Number of cells of the padded board."""
        return self.pw * self.ph

    def pad(self, layer: np.ndarray, fill: float | int) -> np.ndarray:
        """A ``(height, width)`` layer as a flat padded array; invalid cells and padding get ``fill``.

        >>> t = SquareGrid(2, 1).topology
        >>> t.pad(np.array([[1.0, 2.0]]), np.inf).reshape(3, 4)[1].tolist()
        [inf, 1.0, 2.0, inf]
        """
        layer = np.asarray(layer)
        if layer.shape != (self.height, self.width):
            raise ArgumentError(f"layer must have shape (height, width) = {(self.height, self.width)}, got {layer.shape}")
        out = np.full((self.ph, self.pw), fill, dtype=layer.dtype)
        out[1:-1, 1:-1] = np.where(self.valid, layer, fill)
        return out.ravel()

    def unpad(self, flat: np.ndarray) -> np.ndarray:
        """A flat padded array back to a ``(height, width)`` array (a copy), indexed ``[y, x]``.

        >>> from wargrid import SquareGrid
        >>> t = SquareGrid(6, 4).topology
        >>> int(t.unpad(t.pad(np.arange(24).reshape(4, 6), -1))[3, 5])
        23
        """
        return np.asarray(flat).reshape(self.ph, self.pw)[1:-1, 1:-1].copy()

    def padded_id(self, x: int, y: int) -> int:
        """Padded id of cell ``(x, y)``: ``(y + 1) * pw + x + 1``.

        >>> from wargrid import SquareGrid
        >>> SquareGrid(6, 4).topology.padded_id(0, 0)
        9
        """
        return (y + 1) * self.pw + x + 1

    def cells_of(self, padded: np.ndarray) -> list[tuple[int, int]]:
        """Padded ids to a list of ``(x, y)`` cells.

        >>> from wargrid import SquareGrid
        >>> SquareGrid(6, 4).topology.cells_of(np.array([9, 38]))
        [(0, 0), (5, 3)]
        """
        pw = self.pw
        p = np.asarray(padded, dtype=np.int64)
        if p.shape[0] <= 64:  # short paths: plain Python beats numpy's fixed cost per call
            return [(v % pw - 1, v // pw - 1) for v in p.tolist()]
        return list(zip((p % pw - 1).tolist(), (p // pw - 1).tolist()))

    @functools.cached_property
    def masked_out(self) -> NDArray[np.bool_] | None:
        """Padded flags of the cells inside the rectangle that the mask leaves out (their costs must be ``inf``);
        ``None`` when the mask holds every cell (built once).

        >>> from wargrid import SquareGrid
        >>> SquareGrid(2, 1).topology.masked_out is None
        True
        >>> np.flatnonzero(SquareGrid(2, 1).with_mask(np.array([[True, False]])).topology.masked_out).tolist()
        [6]
        """
        if self.valid.all():
            return None
        out = np.zeros((self.ph, self.pw), dtype=np.bool_)
        out[1:-1, 1:-1] = ~self.valid  # (``pad`` writes its fill on these very cells)
        flat = out.ravel()
        flat.setflags(write=False)
        return flat

    @functools.cached_property
    def kernel_args(self) -> TopoArgs:
        """The topology as the step kernels read it (``wargrid._kernels.bundles``; built once).

        >>> from wargrid import SquareGrid
        >>> t = SquareGrid(6, 4).topology
        >>> int(t.kernel_args.info[INFO_PW]), t.kernel_args.step.tolist()
        (8, [1.0, 1.0, 1.0, 1.0])
        """
        info = np.array([getattr(self, name) for name in INFO_FIELDS], dtype=np.int64)
        return TopoArgs(
            off=np.ascontiguousarray(self.offsets, dtype=np.int64).ravel(),
            step=np.ascontiguousarray(self.step, dtype=np.float64),
            corner=np.ascontiguousarray(self.corner, dtype=np.int64).ravel(),
            info=info,
        )

    @functools.cached_property
    def kernel_bundle(self) -> TopoBundle:
        """The search kernels' topology argument: ``kernel_args`` with the x and y parts of the offsets.

        >>> from wargrid import HexGrid
        >>> HexGrid(4, 3).topology.kernel_bundle.dy.tolist()[:6]
        [0, -1, -1, -1, 0, 1]
        """
        a = self.kernel_args
        return TopoBundle(
            off=a.off,
            dx=np.ascontiguousarray(self.dx, dtype=np.int64).ravel(),
            dy=np.ascontiguousarray(self.dy, dtype=np.int64).ravel(),
            step=a.step,
            corner=a.corner,
            info=a.info,
        )

    def padded_ids(self, ids: np.ndarray) -> NDArray[np.int64]:
        """Cell ids to padded ids (vectorised).

        >>> from wargrid import SquareGrid
        >>> SquareGrid(6, 4).topology.padded_ids(np.array([0, 23])).tolist()
        [9, 38]
        """
        i = np.asarray(ids, dtype=np.int64)
        return (i // self.width + 1) * self.pw + i % self.width + 1

    def cell_ids(self, padded: np.ndarray) -> NDArray[np.int64]:
        """Padded ids to cell ids (vectorised).

        >>> from wargrid import SquareGrid
        >>> SquareGrid(6, 4).topology.cell_ids(np.array([9, 38])).tolist()
        [0, 23]
        """
        p = np.asarray(padded, dtype=np.int64)
        return (p // self.pw - 1) * self.width + p % self.pw - 1

    def parity(self, xs: np.ndarray | int, ys: np.ndarray | int) -> NDArray[np.int64]:
        """The row of ``dx``, ``dy`` and ``offsets`` that serves each cell ``(x, y)`` (0 or 1).

        Hex and staggered boards shove every other column (odd-q, even-q) or
        row (odd-r, even-r), so a cell's neighbour offsets depend on the
        parity of its x or y; square boards use row 0 everywhere. ``xs`` and
        ``ys`` broadcast; cells off the board are fine (wrapped or padding).

        >>> from wargrid import HexGrid, SquareGrid
        >>> HexGrid(4, 3, offset="odd-q").topology.parity(np.arange(4), 0).tolist()
        [0, 1, 0, 1]
        >>> HexGrid(4, 3, orientation="pointy").topology.parity(1, np.arange(3)).tolist()
        [0, 1, 0]
        >>> SquareGrid(3, 3).topology.parity(np.arange(3), 1).tolist()
        [0, 0, 0]
        """
        x, y = np.broadcast_arrays(np.asarray(xs, dtype=np.int64), np.asarray(ys, dtype=np.int64))
        mx, my = self.parity_masks
        return (x & mx) | (y & my)

    @property
    def parity_masks(self) -> tuple[int, int]:
        """``(mx, my)`` with ``parity(x, y) == (x & mx) | (y & my)``: the bit masks kernels use.

        >>> from wargrid import HexGrid, SquareGrid
        >>> HexGrid(3, 3).topology.parity_masks, HexGrid(3, 3, orientation="pointy").topology.parity_masks
        ((1, 0), (0, 1))
        >>> SquareGrid(3, 3).topology.parity_masks
        (0, 0)
        """
        return (int(self.parity_mode == 1), int(self.parity_mode == 2))

    def step_deltas(self, xs: np.ndarray | int, ys: np.ndarray | int) -> tuple[np.ndarray, np.ndarray]:
        """``(dx, dy)``, each of shape ``xs.shape + (ndir,)``: the step to every neighbour of each cell.

        Wrap is not applied (a step may leave the rectangle).

        >>> from wargrid import HexGrid
        >>> dx, dy = HexGrid(4, 3).topology.step_deltas(np.array([0, 1]), np.array([1, 1]))
        >>> dy.tolist()
        [[0, -1, -1, -1, 0, 1], [1, 0, -1, 0, 1, 1]]
        """
        par = self.parity(xs, ys)
        return self.dx[par], self.dy[par]

    def neighbors(self, padded: np.ndarray) -> np.ndarray:
        """``(k, ndir)`` padded ids of the neighbours of ``k`` padded ids, wrap applied.

        Each id must be a cell of the rectangle (not padding). A neighbour may be
        a padding cell or a masked-out cell: ``pad(valid)`` says which are on the board.

        >>> from wargrid import SquareGrid
        >>> t = SquareGrid(3, 2, wrap_x=True).topology
        >>> t.neighbors(np.array([t.padded_id(0, 0)])).tolist()
        [[7, 1, 8, 11]]
        """
        p = np.asarray(padded, dtype=np.int64)
        x = p % self.pw - 1
        y = p // self.pw - 1
        q = p[..., None] + self.offsets[self.parity(x, y)]
        if self.wrap:
            qx = q % self.pw
            q = np.where(qx == 0, q + self.width, np.where(qx == self.width + 1, q - self.width, q))
        return q

    def directions(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Direction of the step from each padded id ``a`` to padded id ``b`` (the first if several; ``-1``: none).

        >>> from wargrid import SquareGrid
        >>> t = SquareGrid(3, 1, wrap_x=True).topology
        >>> t.directions(np.array([t.padded_id(0, 0), t.padded_id(0, 0)]), np.array([t.padded_id(2, 0), t.padded_id(0, 0)])).tolist()
        [2, -1]
        """
        b = np.asarray(b, dtype=np.int64)
        hit = self.neighbors(a) == b[..., None]
        return np.where(hit.any(axis=-1), hit.argmax(axis=-1), -1)

    def _inner(self) -> tuple[np.ndarray, np.ndarray]:
        """Every padded id, and whether it lies inside the rectangle (not padding)."""
        ids = np.arange(self.padded_size, dtype=np.int64)
        x = ids % self.pw - 1
        y = ids // self.pw - 1
        return ids, (x >= 0) & (x < self.width) & (y >= 0) & (y < self.height)

    def neighbours(self, padded: np.ndarray) -> np.ndarray:
        """Deprecated spelling of ``neighbors``."""
        warn_renamed("Topology.neighbours", "Topology.neighbors")
        return self.neighbors(padded)

    def neighbour_table(self) -> np.ndarray:
        """Deprecated spelling of ``neighbor_table``."""
        warn_renamed("Topology.neighbour_table", "Topology.neighbor_table")
        return self.neighbor_table()

    def neighbor_table(self) -> np.ndarray:
        """``(padded_size, ndir)`` padded id of every padded cell's neighbour in every direction.

        Wrap is applied; rows of padding cells are ``-1``. A neighbour may be
        padding or masked out (see ``pad(valid)``). Built on each call: it
        takes ``8 * ndir`` bytes per cell, too much to keep beside a big board.

        >>> from wargrid import SquareGrid
        >>> t = SquareGrid(2, 1).topology
        >>> t.neighbor_table()[t.padded_id(0, 0)].tolist(), t.neighbor_table()[0].tolist()
        ([6, 1, 4, 9], [-1, -1, -1, -1])
        """
        ids, inner = self._inner()
        out = np.full((self.padded_size, self.ndir), -1, dtype=np.int64)
        out[inner] = self.neighbors(ids[inner])
        return out

    def edge_rise(self, elev: np.ndarray) -> np.ndarray:
        """``(padded_size * ndir,)`` rise of every step: ``max(elev[neighbour] - elev[cell], 0)``.

        ``elev`` is a flat padded elevation (``pad(elevation, 0.0)``); entry
        ``p * ndir + d`` is the climb of the step from padded id ``p`` in
        direction ``d`` (wrap applied), the layout of a padded edge-cost
        array. Steps from padding cells rise 0.

        >>> from wargrid import SquareGrid
        >>> t = SquareGrid(2, 1).topology
        >>> rise = t.edge_rise(t.pad(np.array([[1.0, 3.0]]), 0.0)).reshape(-1, t.ndir)
        >>> rise[t.padded_id(0, 0)].tolist(), rise[t.padded_id(1, 0)].tolist()
        ([2.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0])
        """
        elev = np.asarray(elev, dtype=np.float64)
        if elev.shape != (self.padded_size,):
            raise ArgumentError(f"elev must be a flat padded array of {self.padded_size} values, got shape {elev.shape}")
        ids, inner = self._inner()
        out = np.zeros((self.padded_size, self.ndir), dtype=np.float64)
        q = self.neighbors(ids[inner])
        out[inner] = np.maximum(elev[q] - elev[ids[inner], None], 0.0)
        return out.ravel()


_HEX_KINDS = ("odd-q", "even-q", "odd-r", "even-r")


class Grid:
    """Base of every board: size, valid-cell mask, ids, neighbours, distances, drawing geometry.

    Use ``SquareGrid``, ``HexGrid`` or ``StaggeredGrid`` (or the shaped hex
    boards) to make one.
    """

    kind: str = "grid"

    def __init__(self, width: int, height: int, *, wrap_x: bool = False, mask: np.ndarray | None = None) -> None:
        self.width = check_positive_int(width, "width")
        self.height = check_positive_int(height, "height")
        if self.width * self.height > MAX_CELLS:
            raise ArgumentError(f"width * height must be at most {MAX_CELLS} cells, got {self.width} x {self.height}")
        if not isinstance(wrap_x, (bool, np.bool_)):
            raise ArgumentTypeError(f"wrap_x must be True or False, got {wrap_x!r}")
        self.wrap_x = bool(wrap_x)
        if self.wrap_x and self.width < 3:
            raise ArgumentError(
                f"wrap_x needs a width of at least 3, got {self.width}: on a narrower ring a cell "
                "would be its own neighbour, or the same neighbour twice"
            )
        if mask is None:
            m = np.ones((self.height, self.width), dtype=bool)
        else:
            m = np.asarray(mask)
            if m.shape != (self.height, self.width):
                raise ArgumentError(f"mask must have shape (height, width) = {(self.height, self.width)}, got {m.shape}")
            if m.dtype != bool:
                raise ArgumentTypeError(f"mask must be a boolean array, got dtype {m.dtype}")
            if not m.any():
                raise ArgumentError("mask must mark at least one valid cell")
            m = m.copy()
        m.setflags(write=False)
        self.mask = m
        self._topology: Topology | None = None

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Unpickled, the mask is read-only again (pickle makes it writable, and a topology built later shares it).

        >>> import pickle
        >>> from wargrid import SquareGrid
        >>> pickle.loads(pickle.dumps(SquareGrid(3, 2))).mask.flags.writeable
        False
        """
        self.__dict__.update(state)
        self.mask.setflags(write=False)

    # -- identity --------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, int]:
        """``(height, width)``: the shape of every layer."""
        return (self.height, self.width)

    @property
    def size(self) -> int:
        """Number of cells of the rectangle (``width * height``)."""
        return self.width * self.height

    @property
    def ndir(self) -> int:
        """Number of neighbour directions."""
        return self.topology.ndir

    def _key(self) -> tuple[object, ...]:
        return (self.kind, self.width, self.height, self.wrap_x) + self._extra_key()

    def _extra_key(self) -> tuple[object, ...]:
        return ()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Grid):
            return NotImplemented
        return self._key() == other._key() and np.array_equal(self.mask, other.mask)

    def __hash__(self) -> int:
        return hash(self._key())

    def describe(self) -> dict[str, str | int]:
        """The constructor arguments as plain data (used by the map file format).

        >>> from wargrid import SquareGrid
        >>> SquareGrid(6, 4).describe()['kind']
        'square'
        """
        d: dict[str, str | int] = {"kind": self.kind, "width": self.width, "height": self.height, "wrap_x": self.wrap_x}
        d.update(self._describe_extra())
        return d

    def _describe_extra(self) -> dict[str, str | int]:
        return {}

    def with_mask(self, mask: np.ndarray) -> "Grid":
        """The same board (kind, size, orientation, wrap) with valid-cell mask ``mask``.

        Parameters
        ----------
        mask : ndarray of bool, shape ``(height, width)``
            The cells on the board (at least one).

        Returns
        -------
        Grid
            A new grid of this grid's type; this one is unchanged.

        Raises
        ------
        ValueError
            A wrong shape, or no valid cell.
        TypeError
            A mask that is not boolean.

        Examples
        --------
        >>> import numpy as np
        >>> from wargrid import HexGrid
        >>> g = HexGrid(4, 3, orientation="pointy"); m = np.ones((3, 4), dtype=bool); m[0, 0] = False
        >>> g2 = g.with_mask(m); type(g2).__name__, g2.describe() == g.describe(), len(g2)
        ('HexGrid', True, 11)
        """
        checked = Grid(self.width, self.height, mask=mask).mask  # the checks of every constructor
        g = object.__new__(type(self))
        g.__dict__.update(self.__dict__)
        g.mask = checked
        g._topology = None
        return g

    # -- cells -----------------------------------------------------------------
    def contains(self, cell: tuple[int, int]) -> bool:
        """Whether ``cell`` is on the board (inside the rectangle and the mask).

        >>> SquareGrid(2, 2).contains((2, 0))
        False
        """
        x, y = check_cell_pair(cell, "cell")
        return 0 <= x < self.width and 0 <= y < self.height and bool(self.mask[y, x])

    def check_cell(self, cell: tuple[int, int], name: str = "cell") -> tuple[int, int]:
        """Return ``cell`` (an ``(x, y)`` pair) as ints, or raise ``IndexError`` naming ``name`` if it is off the board.

        >>> from wargrid import SquareGrid
        >>> SquareGrid(6, 4).check_cell((5, 3))
        (5, 3)
        >>> SquareGrid(6, 4).check_cell((6, 0), "goal")
        Traceback (most recent call last):
        wargrid.errors.CellError: goal (6, 0) is off the board: x must be in 0..5 and y in 0..3
        """
        x, y = check_cell_pair(cell, name)
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise CellError(
                f"{name} {(x, y)} is off the board: x must be in 0..{self.width - 1} and y in 0..{self.height - 1}"
            )
        if not self.mask[y, x]:
            raise CellError(f"{name} {(x, y)} is outside the board's shape (masked out)")
        return x, y

    def check_cells(self, cells: Any, name: str = "cells") -> list[tuple[int, int]]:
        """A single ``(x, y)``, a sequence of them or an ``(n, 2)`` array, each checked on the board.

        >>> from wargrid import SquareGrid
        >>> SquareGrid(6, 4).check_cells((5, 3)), SquareGrid(6, 4).check_cells([(0, 0), (1, 2)])
        ([(5, 3)], [(0, 0), (1, 2)])
        """
        if isinstance(cells, np.ndarray) and cells.ndim == 2 and cells.shape[1] == 2:
            cells = [tuple(c) for c in cells.tolist()]
        if isinstance(cells, tuple) and len(cells) == 2 and all(isinstance(v, (int, np.integer)) for v in cells):
            cells = [cells]
        try:
            items = list(cells)
        except TypeError:
            raise ArgumentTypeError(f"{name} must be an (x, y) cell or a list of them, got {cells!r}") from None
        return [self.check_cell(c, f"{name}[{i}]") for i, c in enumerate(items)]

    def id(self, cell: tuple[int, int]) -> int:
        """The integer id ``y * width + x`` of ``cell``.

        >>> HexGrid(5, 4).id((3, 2))
        13
        """
        x, y = self.check_cell(cell)
        return y * self.width + x

    def cell(self, cell_id: int) -> tuple[int, int]:
        """The ``(x, y)`` of an id.

        >>> HexGrid(5, 4).cell(13)
        (3, 2)
        """
        i = check_int(cell_id, "cell_id")
        if not 0 <= i < self.size:
            raise CellError(f"cell_id {i} is off the board: must be in 0..{self.size - 1}")
        x, y = i % self.width, i // self.width
        if not self.mask[y, x]:
            raise CellError(f"cell_id {i} {(x, y)} is outside the board's shape (masked out)")
        return x, y

    def ids(self, xs: np.ndarray, ys: np.ndarray) -> NDArray[np.int64]:
        """Vectorised ``id``: arrays of x and y to ids (bounds checked).

        >>> from wargrid import SquareGrid
        >>> SquareGrid(6, 4).ids(np.array([0, 5]), np.array([0, 3])).tolist()
        [0, 23]
        """
        x = np.asarray(xs)
        y = np.asarray(ys)
        if x.dtype.kind not in "iu" or y.dtype.kind not in "iu":
            raise ArgumentTypeError(f"xs and ys must be integer arrays, got {x.dtype} and {y.dtype}")
        x, y = np.broadcast_arrays(x.astype(np.int64), y.astype(np.int64))
        bad = (x < 0) | (x >= self.width) | (y < 0) | (y >= self.height)
        if bad.any():
            i = int(np.flatnonzero(bad.ravel())[0])
            raise CellError(f"cell {(int(x.ravel()[i]), int(y.ravel()[i]))} is off the board {self.width}x{self.height}")
        ids: NDArray[np.int64] = y * self.width + x
        return ids

    def cells_of(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Vectorised ``cell``: ids to ``(xs, ys)`` arrays.

        >>> from wargrid import SquareGrid
        >>> xs, ys = SquareGrid(6, 4).cells_of(np.array([0, 23])); xs.tolist(), ys.tolist()
        ([0, 5], [0, 3])
        """
        i = np.asarray(ids)
        if i.dtype.kind not in "iu":
            raise ArgumentTypeError(f"ids must be an integer array, got {i.dtype}")
        i = i.astype(np.int64)
        if ((i < 0) | (i >= self.size)).any():
            raise CellError(f"ids must be in 0..{self.size - 1}")
        return i % self.width, i // self.width

    def cells(self) -> Iterator[tuple[int, int]]:
        """Every valid cell as ``(x, y)``, row by row.

        >>> from wargrid import SquareGrid
        >>> list(SquareGrid(6, 4).cells())[:3]
        [(0, 0), (1, 0), (2, 0)]
        """
        ys, xs = np.nonzero(self.mask)
        for x, y in zip(xs.tolist(), ys.tolist()):
            yield (x, y)

    def __len__(self) -> int:
        return int(self.mask.sum())

    # -- neighbours ------------------------------------------------------------
    @property
    def topology(self) -> Topology:
        """The kernels' neighbour data (built once)."""
        if self._topology is None:
            self._topology = self._build_topology()
        return self._topology

    def _build_topology(self) -> Topology:  # pragma: no cover - abstract
        raise NotImplementedError

    def _step(self, x: int, y: int, d: int) -> tuple[int, int] | None:
        t = self.topology
        par = int(t.parity(x, y))
        nx, ny = x + int(t.dx[par, d]), y + int(t.dy[par, d])
        if self.wrap_x:
            nx %= self.width
        if not (0 <= nx < self.width and 0 <= ny < self.height) or not self.mask[ny, nx]:
            return None
        return nx, ny

    def steps(self, cell: tuple[int, int]) -> list[Step]:
        """Every neighbour of ``cell`` with its direction and step length.

        Passability is not considered here (a ``Map`` adds it): the corner rule
        of square-8 boards is applied by the movement kernels.

        >>> SquareGrid(3, 3, diagonal=True).steps((0, 0))[2]
        Step(cell=(1, 1), direction=7, length=1.4142135623730951)
        """
        x, y = self.check_cell(cell)
        t = self.topology
        out = []
        for d in range(t.ndir):
            n = self._step(x, y, d)
            if n is not None:
                out.append(Step(n, d, float(t.step[d])))
        return out

    def neighbors(self, cell: tuple[int, int]) -> list[tuple[int, int]]:
        """The neighbours of ``cell``, in direction order.

        >>> SquareGrid(3, 3).neighbors((0, 0))
        [(1, 0), (0, 1)]
        >>> SquareGrid(3, 3, wrap_x=True).neighbors((0, 0))
        [(1, 0), (2, 0), (0, 1)]
        """
        return [s.cell for s in self.steps(cell)]

    def neighbor_ids(self, *, wrap: bool = True) -> np.ndarray:
        """``(size, ndir)`` id of every cell's neighbour in every direction; ``-1``: none.

        Rows of masked-out cells are all ``-1``. ``wrap=False`` leaves out the
        steps across the seam of a wrapped board (pictures draw it flat).

        >>> from wargrid import SquareGrid
        >>> SquareGrid(3, 1, wrap_x=True).neighbor_ids().tolist()
        [[1, -1, 2, -1], [2, -1, 0, -1], [0, -1, 1, -1]]
        >>> SquareGrid(3, 1, wrap_x=True).neighbor_ids(wrap=False)[0].tolist()
        [1, -1, -1, -1]
        """
        t = self.topology
        ys, xs = np.divmod(np.arange(self.size, dtype=np.int64), self.width)
        dx, dy = t.step_deltas(xs, ys)
        nx, ny = xs[:, None] + dx, ys[:, None] + dy
        if wrap and self.wrap_x:
            nx = nx % self.width
        valid = self.mask.ravel()
        ok = (nx >= 0) & (nx < self.width) & (ny >= 0) & (ny < self.height)
        nid = np.where(ok, ny * self.width + nx, 0)
        ok &= valid[nid] & valid[:, None]
        return np.where(ok, nid, -1)

    def neighbour_ids(self, *, wrap: bool = True) -> np.ndarray:
        """Deprecated spelling of ``neighbor_ids``."""
        warn_renamed("Grid.neighbour_ids", "Grid.neighbor_ids")
        return self.neighbor_ids(wrap=wrap)

    def neighbor(self, cell: tuple[int, int], direction: int) -> tuple[int, int] | None:
        """The neighbour in ``direction``, or ``None`` past the edge of the board.

        >>> from wargrid import SquareGrid
        >>> SquareGrid(6, 4).neighbor((0, 0), 0), SquareGrid(6, 4).neighbor((0, 0), 2)
        ((1, 0), None)
        """
        x, y = self.check_cell(cell)
        d = check_int(direction, "direction")
        if not 0 <= d < self.ndir:
            raise ArgumentError(f"direction must be in 0..{self.ndir - 1}, got {d}")
        return self._step(x, y, d)

    # -- distance --------------------------------------------------------------
    def distance(self, a: tuple[int, int], b: tuple[int, int]) -> float:
        """Length of the shortest path between two cells on an open board.

        Manhattan on square-4, octile on square-8, hex steps on hex and
        staggered boards; shorter the other way round on a wrapped board.
        """
        raise NotImplementedError  # pragma: no cover

    # -- drawing geometry (unit size) -------------------------------------------
    def center(self, cell: tuple[int, int]) -> tuple[float, float]:
        """Centre of ``cell`` in drawing units (a square tile is 1 x 1; a hex has corner radius 1).

        >>> from wargrid import SquareGrid
        >>> SquareGrid(6, 4).center((2, 1))
        (2.5, 1.5)
        """
        x, y = self.check_cell(cell)
        cx, cy = self.centers_of(np.array([x]), np.array([y]))
        return float(cx[0]), float(cy[0])

    def polygon(self, cell: tuple[int, int]) -> list[tuple[float, float]]:
        """Corners of ``cell`` in drawing units, clockwise on screen.

        >>> from wargrid import SquareGrid
        >>> SquareGrid(6, 4).polygon((0, 0))
        [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
        """
        cx, cy = self.center(cell)
        return [(cx + dx, cy + dy) for dx, dy in self.corner_offsets()]

    def centers_of(self, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Vectorised ``center`` over arrays of x and y.

        >>> from wargrid import SquareGrid
        >>> cx, cy = SquareGrid(6, 4).centers_of(np.array([0, 5]), np.array([0, 3])); cx.tolist(), cy.tolist()
        ([0.5, 5.5], [0.5, 3.5])
        """
        raise NotImplementedError  # pragma: no cover

    def corner_offsets(self) -> list[tuple[float, float]]:
        """Offsets of a tile's corners from its centre, in drawing units.

        >>> from wargrid import SquareGrid
        >>> SquareGrid(6, 4).corner_offsets()[0]
        (-0.5, -0.5)
        """
        raise NotImplementedError  # pragma: no cover

    def bounds(self) -> tuple[float, float, float, float]:
        """``(xmin, ymin, xmax, ymax)`` of the whole board in drawing units.

        >>> from wargrid import SquareGrid
        >>> SquareGrid(6, 4).bounds()
        (0.0, 0.0, 6.0, 4.0)
        """
        ys, xs = np.nonzero(self.mask)
        cx, cy = self.centers_of(xs, ys)
        off = np.array(self.corner_offsets())
        return (
            float(cx.min() + off[:, 0].min()),
            float(cy.min() + off[:, 1].min()),
            float(cx.max() + off[:, 0].max()),
            float(cy.max() + off[:, 1].max()),
        )

    def cell_at(self, px: float, py: float) -> tuple[int, int] | None:
        """The cell under drawing point ``(px, py)``, or ``None`` off the board.

        >>> from wargrid import SquareGrid
        >>> SquareGrid(6, 4).cell_at(2.5, 1.5), SquareGrid(6, 4).cell_at(-1.0, 0.0)
        ((2, 1), None)
        """
        raise NotImplementedError  # pragma: no cover

    def cell_ids_at(self, px: np.ndarray, py: np.ndarray) -> np.ndarray:
        """Vectorised ``cell_at``: ids of the cells under drawing points, ``-1`` off the board.

        Hex boards round in float32 (the arrays are as big as a picture), so a
        point within about ``1e-6`` of a tile's side may land on the other tile.

        >>> from wargrid import HexGrid
        >>> g = HexGrid(4, 4)
        >>> cx, cy = g.centers_of(np.array([2, 3]), np.array([3, 0]))
        >>> g.cell_ids_at(cx, cy).tolist() == [g.id((2, 3)), g.id((3, 0))]
        True
        >>> g.cell_ids_at(np.array([-5.0]), np.array([0.0])).tolist()
        [-1]
        """
        px, py = np.broadcast_arrays(np.asarray(px, np.float64), np.asarray(py, np.float64))
        x, y = self._cells_under(px, py)
        inside = (x >= 0) & (x < self.width) & (y >= 0) & (y < self.height)
        xc = np.where(inside, x, 0)
        yc = np.where(inside, y, 0)
        inside &= self.mask[yc, xc]
        return np.where(inside, yc * self.width + xc, -1).astype(np.int64)

    def _cells_under(self, px: np.ndarray, py: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(x, y)`` int64 arrays of the tiles under drawing points, unchecked."""
        raise NotImplementedError  # pragma: no cover

    def __repr__(self) -> str:
        extra = "".join(f", {k}={v!r}" for k, v in self._describe_extra().items())
        wrap = ", wrap_x=True" if self.wrap_x else ""
        shaped = "" if self.mask.all() else f", mask=<{len(self)} cells>"
        return f"{type(self).__name__}({self.width}, {self.height}{extra}{wrap}{shaped})"


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    a.setflags(write=False)
    return a


class SquareGrid(Grid):
    """A square board with 4 or 8 directions.

    ``corner_rule`` (8 directions only) decides when a diagonal step may pass
    between two orthogonal cells: 'always', 'no-obstacle' (both passable; the
    Moving AI rule and the default) or 'one-obstacle' (at least one passable).

    >>> g = SquareGrid(10, 8, diagonal=True)
    >>> round(g.distance((0, 0), (3, 1)), 4)
    3.4142
    """

    kind = "square"

    def __init__(
        self,
        width: int,
        height: int,
        *,
        diagonal: bool = False,
        corner_rule: str = "no-obstacle",
        wrap_x: bool = False,
        mask: np.ndarray | None = None,
    ) -> None:
        if not isinstance(diagonal, (bool, np.bool_)):
            raise ArgumentTypeError(f"diagonal must be True or False, got {diagonal!r}")
        check_choice(corner_rule, "corner_rule", CORNER_RULES)
        self.diagonal = bool(diagonal)
        self.corner_rule = corner_rule
        super().__init__(width, height, wrap_x=wrap_x, mask=mask)

    def _extra_key(self) -> tuple[object, ...]:
        return (self.diagonal, self.corner_rule if self.diagonal else None)

    def _describe_extra(self) -> dict[str, str | int]:
        d: dict[str, str | int] = {"diagonal": self.diagonal}
        if self.diagonal:
            d["corner_rule"] = self.corner_rule
        return d

    def _build_topology(self) -> Topology:
        dirs = SQUARE8_DIRECTIONS if self.diagonal else SQUARE4_DIRECTIONS
        n = len(dirs)
        dx = np.array([[d[0] for d in dirs]] * 2, dtype=np.int64)
        dy = np.array([[d[1] for d in dirs]] * 2, dtype=np.int64)
        pw = self.width + 2
        step = np.array([_SQRT2 if (a and b) else 1.0 for a, b in dirs], dtype=np.float64)
        corner = np.full((n, 2), -1, dtype=np.int64)
        if self.diagonal:
            for d, (a, b) in enumerate(dirs):
                if a and b:
                    corner[d] = (dirs.index((a, 0)), dirs.index((0, b)))
        return Topology(
            width=self.width,
            height=self.height,
            ndir=n,
            dx=_frozen(dx),
            dy=_frozen(dy),
            offsets=_frozen(dy * pw + dx),
            step=_frozen(step),
            corner=_frozen(corner),
            parity_mode=0,
            corner_rule=CORNER_RULES.index(self.corner_rule) if self.diagonal else 0,
            wrap=int(self.wrap_x),
            heuristic=1 if self.diagonal else 0,
            hex_kind=0,
            valid=self.mask,
        )

    def _deltas(self, a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
        ax, ay = self.check_cell(a, "a")
        bx, by = self.check_cell(b, "b")
        dx, dy = abs(ax - bx), abs(ay - by)
        if self.wrap_x:
            dx = min(dx, self.width - dx)
        return dx, dy

    def distance(self, a: tuple[int, int], b: tuple[int, int]) -> float:
        """Manhattan (4 directions) or octile (8 directions) distance.

        >>> SquareGrid(10, 10).distance((0, 0), (3, 4))
        7
        >>> SquareGrid(10, 10, wrap_x=True).distance((0, 0), (9, 0))
        1
        """
        dx, dy = self._deltas(a, b)
        if self.diagonal:
            return max(dx, dy) + (_SQRT2 - 1.0) * min(dx, dy)
        return dx + dy

    def centers_of(self, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.asarray(xs, dtype=np.float64) + 0.5, np.asarray(ys, dtype=np.float64) + 0.5

    def corner_offsets(self) -> list[tuple[float, float]]:
        return [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]

    def _cells_under(self, px: np.ndarray, py: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.floor(px).astype(np.int64), np.floor(py).astype(np.int64)

    def cell_at(self, px: float, py: float) -> tuple[int, int] | None:
        """The cell under a drawing point.

        >>> SquareGrid(4, 4).cell_at(2.3, 0.9)
        (2, 0)
        """
        px, py = check_real(px, "px"), check_real(py, "py")
        x, y = math.floor(px), math.floor(py)
        if 0 <= x < self.width and 0 <= y < self.height and self.mask[y, x]:
            return x, y
        return None


class HexLikeGrid(Grid):
    """Base of the boards with hex adjacency: ``HexGrid`` and ``StaggeredGrid``.

    Six directions from an offset kind (``offset``: odd-q, even-q, odd-r or
    even-r), so every cell also has axial hex coordinates (``to_hex``,
    ``hexes_of``) and hex distances. Test a board with
    ``isinstance(grid, HexLikeGrid)``.

    >>> from wargrid import HexGrid, SquareGrid, StaggeredGrid
    >>> [isinstance(g, HexLikeGrid) for g in (HexGrid(3, 3), StaggeredGrid(3, 3), SquareGrid(3, 3))]
    [True, True, False]
    >>> StaggeredGrid(3, 3, stagger="rows").offset
    'odd-r'
    """

    offset: str

    def _check_wrap_parity(self) -> None:
        if self.wrap_x and self.offset in ("odd-q", "even-q") and self.width % 2:
            raise ArgumentError(
                f"wrap_x on a board whose columns are shoved ({self.offset!r}) needs an even width, got {self.width}"
            )

    def _build_topology(self) -> Topology:
        kind = self.offset
        col_parity = kind in ("odd-q", "even-q")
        dx = np.zeros((2, 6), dtype=np.int64)
        dy = np.zeros((2, 6), dtype=np.int64)
        for par in (0, 1):
            # a representative cell of this parity, far from any edge
            x, y = (par + 4, 4) if col_parity else (4, par + 4)
            h = offset_to_hex(x, y, kind)
            for d, dh in enumerate(HEX_DIRECTIONS):
                nx, ny = hex_to_offset(h + dh, kind)
                dx[par, d], dy[par, d] = nx - x, ny - y
        pw = self.width + 2
        return Topology(
            width=self.width,
            height=self.height,
            ndir=6,
            dx=_frozen(dx),
            dy=_frozen(dy),
            offsets=_frozen(dy * pw + dx),
            step=_frozen(np.ones(6, dtype=np.float64)),
            corner=_frozen(np.full((6, 2), -1, dtype=np.int64)),
            parity_mode=1 if col_parity else 2,
            corner_rule=0,
            wrap=int(self.wrap_x),
            heuristic=2,
            hex_kind=_HEX_KINDS.index(kind),
            valid=self.mask,
        )

    def to_hex(self, cell: tuple[int, int]) -> Hex:
        """The axial Hex of ``cell`` under the board's offset kind.

        >>> HexGrid(4, 4).to_hex((3, 1))
        Hex(q=3, r=0)
        """
        x, y = self.check_cell(cell)
        return offset_to_hex(x, y, self.offset)

    def from_hex(self, h: Hex) -> tuple[int, int]:
        """The cell of a Hex (``IndexError`` when it is off the board; wrapped in x on a wrapped board).

        >>> HexGrid(4, 4).from_hex(Hex(3, 0))
        (3, 1)
        """
        if not isinstance(h, Hex):
            raise ArgumentTypeError(f"h must be a Hex, got {type(h).__name__} {h!r}")
        x, y = hex_to_offset(h, self.offset)
        if self.wrap_x:
            x %= self.width
        return self.check_cell((x, y), "hex")

    def hexes_of(self, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Vectorised ``to_hex``: arrays of x, y to arrays of q, r."""
        return offset_to_axial_array(xs, ys, self.offset)

    def cells_of_hexes(self, q: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Vectorised ``from_hex`` without bounds checks: arrays of q, r to x, y."""
        return axial_to_offset_array(q, r, self.offset)

    def distance(self, a: tuple[int, int], b: tuple[int, int]) -> int:
        """Hex steps between two cells (the shorter way round on a wrapped board).

        >>> HexGrid(8, 8, wrap_x=True).distance((0, 0), (7, 0))
        1
        """
        ha = offset_to_hex(*self.check_cell(a, "a"), self.offset)
        bx, by = self.check_cell(b, "b")
        shifts = (-self.width, 0, self.width) if self.wrap_x else (0,)
        return min(ha.distance(offset_to_hex(bx + s, by, self.offset)) for s in shifts)

    def _describe_extra(self) -> dict[str, str | int]:
        return {"offset": self.offset}


class HexGrid(HexLikeGrid):
    """A hex board stored as a rectangle in offset coordinates.

    ``orientation`` 'flat' goes with offset 'odd-q' or 'even-q' (columns
    shoved), 'pointy' with 'odd-r' or 'even-r' (rows shoved). When only the
    orientation is given, the offset defaults to 'odd-q' or 'odd-r'.

    >>> HexGrid(6, 4, orientation="pointy")
    HexGrid(6, 4, orientation='pointy', offset='odd-r')
    >>> HexGrid(6, 4, orientation="pointy", offset="even-r").neighbors((0, 0))
    [(1, 0), (0, 1), (1, 1)]
    """

    kind = "hex"

    def __init__(
        self,
        width: int,
        height: int,
        *,
        orientation: str = "flat",
        offset: str | None = None,
        wrap_x: bool = False,
        mask: np.ndarray | None = None,
    ) -> None:
        check_choice(orientation, "orientation", ("flat", "pointy"))
        if offset is None:
            offset = "odd-q" if orientation == "flat" else "odd-r"
        allowed = ("odd-q", "even-q") if orientation == "flat" else ("odd-r", "even-r")
        check_choice(offset, "offset", _HEX_KINDS)
        if offset not in allowed:
            raise ArgumentError(
                f"offset {offset!r} does not go with orientation {orientation!r}: use one of {', '.join(map(repr, allowed))}"
            )
        self.orientation = orientation
        self.offset = offset
        super().__init__(width, height, wrap_x=wrap_x, mask=mask)
        self._check_wrap_parity()
        self.layout = Layout(orientation, (1.0, 1.0), (0.0, 0.0))

    @classmethod
    def from_hexes(cls, hexes: Iterable[tuple[int, ...] | Hex], *, orientation: str = "flat",
                   offset: str | None = None) -> HexBoard:
        """A masked board holding exactly ``hexes`` (a map kept as a dict of cube coordinates).

        The board is the smallest rectangle of the offset kind that holds
        the hexes after a translation in hex space (so neighbours stay
        neighbours); its mask marks them. Duplicates are one cell.

        Parameters
        ----------
        hexes : iterable of tuple of int, or of Hex
            Cube ``(q, r, s)`` coordinates with ``q + r + s == 0``, or axial
            ``(q, r)``, all of one kind (``Hex`` objects count as cube).
        orientation : str
            'flat' or 'pointy'.
        offset : str, optional
            The offset kind of the rectangle (default: the orientation's odd kind).

        Returns
        -------
        HexBoard
            ``grid`` (the board), ``cells`` (given coordinate -> ``(x, y)``)
            and ``origin`` (given hex = ``grid.to_hex(cell) + origin``).

        Raises
        ------
        ValueError
            No hexes, coordinates of mixed lengths, ``q + r + s != 0``, or
            a spread past the largest board (``ArgumentError``).
        TypeError
            A coordinate that is not an integer, or ``hexes`` not iterable
            (``ArgumentTypeError``).

        Examples
        --------
        >>> ring = [tuple(h) for h in Hex(0, 0).ring(1)]
        >>> b = HexGrid.from_hexes(ring)
        >>> b.grid.shape, len(b.grid), b.cells[(1, -1, 0)]
        ((3, 3), 6, (2, 1))
        """
        return _from_hexes(hexes, orientation, offset)

    def _extra_key(self) -> tuple[object, ...]:
        return (self.orientation, self.offset)

    def _describe_extra(self) -> dict[str, str | int]:
        return {"orientation": self.orientation, "offset": self.offset}

    def centers_of(self, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        q, r = self.hexes_of(xs, ys)
        return self.layout.hex_to_pixel_array(q, r)

    def corner_offsets(self) -> list[tuple[float, float]]:
        return [self.layout.corner_offset(i) for i in range(6)]

    def _cells_under(self, px: np.ndarray, py: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        # cube rounding of a unit-size layout in float32: the arrays are as big as a picture
        x = px.astype(np.float32)
        y = py.astype(np.float32)
        if self.orientation == "flat":
            fq = x * np.float32(2.0 / 3.0)
            fr = x * np.float32(-1.0 / 3.0) + y * np.float32(_SQRT3 / 3.0)
        else:
            fq = x * np.float32(_SQRT3 / 3.0) + y * np.float32(-1.0 / 3.0)
            fr = y * np.float32(2.0 / 3.0)
        del x, y
        fs = -fq - fr
        q, r, s = np.rint(fq), np.rint(fr), np.rint(fs)
        dq, dr, ds = np.abs(q - fq), np.abs(r - fr), np.abs(s - fs)
        del fq, fr, fs
        fix_q = (dq > dr) & (dq > ds)
        fix_r = ~fix_q & (dr > ds)
        qi = np.where(fix_q, -r - s, q).astype(np.int64)
        ri = np.where(fix_r, -qi - s, r).astype(np.int64)
        return self.cells_of_hexes(qi, ri)

    def cell_at(self, px: float, py: float) -> tuple[int, int] | None:
        """The cell under a drawing point.

        >>> g = HexGrid(4, 4)
        >>> g.cell_at(*g.center((2, 3)))
        (2, 3)
        """
        px, py = check_real(px, "px"), check_real(py, "py")
        h = self.layout.pixel_to_hex(px, py)
        x, y = hex_to_offset(h, self.offset)
        if 0 <= x < self.width and 0 <= y < self.height and self.mask[y, x]:
            return x, y
        return None


@dataclass(frozen=True, eq=False)
class HexBoard:
    """A hex board made from a set of hexes (``HexGrid.from_hexes``).

    ``grid`` is the masked ``HexGrid`` just big enough for them; ``cells``
    maps each coordinate as given (the tuple, or the ``Hex``) to its board
    cell ``(x, y)``; ``origin`` is the given hex that sits at the board's
    ``Hex(0, 0)``, so a given hex is ``grid.to_hex(cell) + origin``.
    """

    grid: HexGrid
    cells: dict[object, tuple[int, int]]
    origin: Hex

    def hex_of(self, cell: tuple[int, int]) -> Hex:
        """The hex, in the given coordinates, of board cell ``cell``.

        >>> b = HexGrid.from_hexes([(5, -2, -3), (6, -2, -4)])
        >>> b.hex_of(b.cells[(6, -2, -4)])
        Hex(q=6, r=-2)
        """
        return self.grid.to_hex(cell) + self.origin


def _from_hexes(hexes: object, orientation: str, offset: str | None) -> HexBoard:
    if isinstance(hexes, (str, bytes)) or not hasattr(hexes, "__iter__"):
        raise ArgumentTypeError(f"hexes must be an iterable of (q, r, s) or (q, r) tuples, got {type(hexes).__name__} {hexes!r}")
    keys: list[object] = []
    qr: list[tuple[int, int]] = []
    size = None
    for i, h in enumerate(hexes):
        if isinstance(h, Hex):
            coords: tuple[int, ...] = (h.q, h.r, h.s)
        elif isinstance(h, (tuple, list)):
            coords = tuple(check_int(v, f"hexes[{i}]", hint="hex coordinates are integers") for v in h)
        else:
            raise ArgumentTypeError(f"hexes[{i}] must be a (q, r, s) or (q, r) tuple or a Hex, got {type(h).__name__} {h!r}")
        if len(coords) not in (2, 3):
            raise ArgumentError(f"hexes[{i}] must have 3 cube (q, r, s) or 2 axial (q, r) coordinates, got {h!r}")
        if size is None:
            size = len(coords)
        elif len(coords) != size:
            raise ArgumentError(f"hexes must all be cube (q, r, s) or all axial (q, r): hexes[{i}] = {h!r} has "
                                f"{len(coords)} coordinates, the first had {size}")
        if size == 3 and sum(coords) != 0:
            raise ArgumentError(f"hexes[{i}] = {h!r} is not a cube coordinate: q + r + s must be 0, got {sum(coords)}")
        keys.append(h if isinstance(h, Hex) else tuple(coords))
        qr.append((coords[0], coords[1]))
    if not qr:
        raise ArgumentError("hexes must hold at least one hex")
    kind = HexGrid(1, 1, orientation=orientation, offset=offset).offset
    q0, r0 = min(c[0] for c in qr), min(c[1] for c in qr)
    span = max(max(c[0] for c in qr) - q0, max(c[1] for c in qr) - r0)
    if span >= 1 << 32:  # no board is that wide (and 10**20 raised "Python int too large to convert to C long")
        raise ArgumentError(f"hexes span {span + 1} hexes along q or r: past any board's size")
    a = np.array([(x - q0, y - r0) for x, y in qr], dtype=np.int64)  # (a translation in hex space, undone below)
    q, r = a[:, 0], a[:, 1]
    # translate in hex space so that the offset coordinates start at 0: first along the parity
    # axis (the parity follows), then along the other axis (a shift of whole rows or columns)
    if kind in ("odd-q", "even-q"):
        cols, rows = axial_to_offset_array(q - q.min(), r, kind)
    else:
        cols, rows = axial_to_offset_array(q, r - r.min(), kind)
    cols, rows = cols - cols.min(), rows - rows.min()
    width, height = int(cols.max()) + 1, int(rows.max()) + 1
    _check_shape_size("len(hexes)", len(qr), width * height)
    mask = np.zeros((height, width), dtype=bool)
    mask[rows, cols] = True
    grid = HexGrid(width, height, orientation=orientation, offset=kind, mask=mask)
    cells = {k: (int(x), int(y)) for k, x, y in zip(keys, cols.tolist(), rows.tolist())}
    origin = Hex(qr[0][0], qr[0][1]) - grid.to_hex(cells[keys[0]])
    return HexBoard(grid=grid, cells=cells, origin=origin)


class StaggeredGrid(HexLikeGrid):
    """Rectangular tiles with six directions, as in classic console strategy games.

    ``stagger='columns'``: odd columns sit half a tile lower (the adjacency of
    odd-q hexes); ``stagger='rows'``: odd rows sit half a tile to the right (the
    adjacency of odd-r hexes). Tiles are drawn as 1 x 1 rectangles.

    >>> g = StaggeredGrid(4, 4)
    >>> g.neighbors((1, 1))
    [(2, 2), (2, 1), (1, 0), (0, 1), (0, 2), (1, 2)]
    >>> g.center((1, 1))
    (1.5, 2.0)
    """

    kind = "staggered"

    def __init__(
        self,
        width: int,
        height: int,
        *,
        stagger: str = "columns",
        wrap_x: bool = False,
        mask: np.ndarray | None = None,
    ) -> None:
        check_choice(stagger, "stagger", ("columns", "rows"))
        self.stagger = stagger
        self.offset = "odd-q" if stagger == "columns" else "odd-r"
        super().__init__(width, height, wrap_x=wrap_x, mask=mask)
        self._check_wrap_parity()

    def _extra_key(self) -> tuple[object, ...]:
        return (self.stagger,)

    def _describe_extra(self) -> dict[str, str | int]:
        return {"stagger": self.stagger}

    def centers_of(self, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x = np.asarray(xs, dtype=np.float64)
        y = np.asarray(ys, dtype=np.float64)
        xi = np.asarray(xs).astype(np.int64)
        yi = np.asarray(ys).astype(np.int64)
        if self.stagger == "columns":
            return x + 0.5, y + 0.5 + 0.5 * (xi & 1)
        return x + 0.5 + 0.5 * (yi & 1), y + 0.5

    def corner_offsets(self) -> list[tuple[float, float]]:
        return [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]

    def _cells_under(self, px: np.ndarray, py: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.stagger == "columns":
            x = np.floor(px).astype(np.int64)
            return x, np.floor(py - 0.5 * (x & 1)).astype(np.int64)
        y = np.floor(py).astype(np.int64)
        return np.floor(px - 0.5 * (y & 1)).astype(np.int64), y

    def cell_at(self, px: float, py: float) -> tuple[int, int] | None:
        """The cell under a drawing point.

        >>> StaggeredGrid(4, 4).cell_at(1.5, 1.2)
        (1, 0)
        """
        px, py = check_real(px, "px"), check_real(py, "py")
        if self.stagger == "columns":
            x = math.floor(px)
            y = math.floor(py - 0.5 * (x & 1))
        else:
            y = math.floor(py)
            x = math.floor(px - 0.5 * (y & 1))
        if 0 <= x < self.width and 0 <= y < self.height and self.mask[y, x]:
            return x, y
        return None


# -- shaped hex boards -----------------------------------------------------------

_SHAPE_BYTES_PER_CELL = 4  # peak memory of a shaped board over its bounding rectangle (measured: ~3.5)


def _check_shape_size(name: str, value: int, bound_cells: int) -> None:
    """Refuse a shaped board whose bounding rectangle is past ``MAX_CELLS``, or
    than memory can hold, before drawing it."""
    from .._budget import check_memory

    if bound_cells > MAX_CELLS:
        raise ArgumentError(f"{name}={value} makes a board of more than {MAX_CELLS} cells")
    check_memory(_SHAPE_BYTES_PER_CELL * bound_cells, what="a shaped board", name=name, value=value)


_SHAPE_CHUNK = 1 << 20  # hexes placed at a time when a shaped board's mask is drawn


def _shaped(q_lo: int, r_lo: NDArray[np.int64], r_hi: NDArray[np.int64], orientation: str, offset: str | None) -> HexGrid:
    """The hex board holding, for each ``q = q_lo + i``, the hexes ``(q, r)`` with
    ``r_lo[i] <= r <= r_hi[i]``; drawn in chunks, never a Python object per hex."""
    probe = HexGrid(1, 1, orientation=orientation, offset=offset)
    kind = probe.offset
    qs = np.arange(q_lo, q_lo + r_lo.size, dtype=np.int64)
    # translate in hex space along the parity axis so that parity is kept,
    # then shift the other offset coordinate to start at 0; an offset
    # coordinate grows with r for a fixed q, so the ends of each run bound it
    if kind in ("odd-q", "even-q"):
        dq, dr = -int(qs.min()), 0
    else:
        dq, dr = 0, -int(r_lo.min())
    c0, w0 = axial_to_offset_array(qs + dq, r_lo + dr, kind)
    c1, w1 = axial_to_offset_array(qs + dq, r_hi + dr, kind)
    shift_c, shift_r = (0, int(w0.min())) if kind in ("odd-q", "even-q") else (int(c0.min()), 0)
    width = int(max(c0.max(), c1.max())) - shift_c + 1
    height = int(max(w0.max(), w1.max())) - shift_r + 1
    mask = np.zeros((height, width), dtype=bool)
    lengths = r_hi - r_lo + 1
    ends = np.cumsum(lengths)
    i = 0
    while i < qs.size:
        j = max(i + 1, int(np.searchsorted(ends, (ends[i - 1] if i else 0) + _SHAPE_CHUNK, side="right")))
        n = lengths[i:j]
        q = np.repeat(qs[i:j], n)
        r = np.repeat(r_lo[i:j], n) + (np.arange(int(n.sum()), dtype=np.int64) - np.repeat(np.cumsum(n) - n, n))
        cols, rows = axial_to_offset_array(q + dq, r + dr, kind)
        mask[rows - shift_r, cols - shift_c] = True
        i = j
    return HexGrid(width, height, orientation=orientation, offset=kind, mask=mask)


def hexagon_board(radius: int, *, orientation: str = "flat", offset: str | None = None) -> HexGrid:
    """A hexagon-shaped hex board: every hex within ``radius`` of the centre.

    Parameters
    ----------
    radius : int
        Hexes from the centre to the edge (``>= 0``).
    orientation : str
        'flat' or 'pointy'.
    offset : str, optional
        The offset kind of the rectangle the board is stored in (default: the orientation's odd kind).

    Returns
    -------
    HexGrid
        A ``(2 * radius + 1)``-square board whose mask holds the hexagon.

    Raises
    ------
    ValueError
        A negative ``radius`` (``ArgumentError``).

    Examples
    --------
    >>> g = hexagon_board(2)
    >>> len(g), g.shape
    (19, (5, 5))
    """
    radius = check_int(radius, "radius")
    if radius < 0:
        raise ArgumentError(f"radius must be >= 0, got {radius}")
    _check_shape_size("radius", radius, (2 * radius + 1) ** 2)
    q = np.arange(-radius, radius + 1, dtype=np.int64)
    return _shaped(-radius, np.maximum(-radius, -q - radius), np.minimum(radius, -q + radius), orientation, offset)


def triangle_board(size: int, *, orientation: str = "flat", offset: str | None = None) -> HexGrid:
    """A triangle-shaped hex board with ``size`` hexes along each side.

    Parameters
    ----------
    size : int
        Hexes along each side (``>= 1``).
    orientation : str
        'flat' or 'pointy'.
    offset : str, optional
        The offset kind of the rectangle the board is stored in (default: the orientation's odd kind).

    Returns
    -------
    HexGrid
        A board whose mask holds the triangle.

    Examples
    --------
    >>> len(triangle_board(4))
    10
    """
    size = check_positive_int(size, "size")
    _check_shape_size("size", size, size * size)
    q = np.arange(size, dtype=np.int64)
    return _shaped(0, np.zeros(size, dtype=np.int64), size - 1 - q, orientation, offset)


def parallelogram_board(q_size: int, r_size: int, *, orientation: str = "flat", offset: str | None = None) -> HexGrid:
    """A parallelogram (rhombus) of ``q_size`` x ``r_size`` hexes.

    Parameters
    ----------
    q_size, r_size : int
        Hexes along the two axes (``>= 1``).
    orientation : str
        'flat' or 'pointy'.
    offset : str, optional
        The offset kind of the rectangle the board is stored in (default: the orientation's odd kind).

    Returns
    -------
    HexGrid
        A board whose mask holds the parallelogram.

    Examples
    --------
    >>> len(parallelogram_board(3, 4))
    12
    """
    q_size = check_positive_int(q_size, "q_size")
    r_size = check_positive_int(r_size, "r_size")
    _check_shape_size("q_size * r_size", q_size * r_size, q_size * r_size)
    return _shaped(0, np.zeros(q_size, dtype=np.int64), np.full(q_size, r_size - 1, dtype=np.int64), orientation, offset)


def unwrap_cells(grid: Grid, cells: Sequence[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """Virtual x, y of a walk of neighbouring cells: on a wrapped board x keeps going across the seam.

    >>> from wargrid import SquareGrid
    >>> unwrap_cells(SquareGrid(4, 1, wrap_x=True), [(1, 0), (0, 0), (3, 0), (2, 0)])[0].tolist()
    [1, 0, -1, -2]
    """
    xs = np.array([c[0] for c in cells], dtype=np.int64)
    ys = np.array([c[1] for c in cells], dtype=np.int64)
    if grid.wrap_x and len(xs) > 1:
        d = np.diff(xs)
        d = np.where(d > 1, d - grid.width, np.where(d < -1, d + grid.width, d))
        xs = np.concatenate([xs[:1], xs[0] + np.cumsum(d)])
    return xs, ys
