"""The named bundles that cross the Python/kernel line, and the slots of a topology's ``info`` array.

Numba-free: Python builds the bundles (``wargrid.grids.Topology.kernel_args``
and ``kernel_bundle``, ``SearchState.arrays``, a Dijkstra field's arrays) and
reads them by name; the kernels read them. Kernels unpack a bundle at their
top (``off, dx, dy, step, corner, info = topo``) and read ``info`` by the slot
numbers below; ``tests/grids/test_topology.py`` ties the two together.

>>> TopoArgs._fields
('off', 'step', 'corner', 'info')
>>> INFO_FIELDS.index("pw") == INFO_PW
True
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "TopoArgs", "TopoBundle", "SearchArrays", "FieldArrays", "INFO_FIELDS", "INFO_NDIR", "INFO_PARITY_MODE", "INFO_CORNER_RULE", "INFO_WRAP",
    "INFO_WIDTH", "INFO_PW", "INFO_HEURISTIC", "INFO_HEX_KIND",
    "REPAIR_LAST", "REPAIR_FEWEST", "REPAIR_STALLED", "SightArgs", "SegmentGeometry", "ClassicGeometry",
]

INFO_FIELDS = ("ndir", "parity_mode", "corner_rule", "wrap", "width", "pw", "heuristic", "hex_kind")
"""The slots of a bundle's ``info`` array (int64), in order."""

INFO_NDIR, INFO_PARITY_MODE, INFO_CORNER_RULE, INFO_WRAP, INFO_WIDTH, INFO_PW, INFO_HEURISTIC, INFO_HEX_KIND = range(8)


class TopoArgs(NamedTuple):
    """The topology as the step kernels read it."""

    off: NDArray[np.int64]
    """``(2 * ndir,)`` padded flat offsets, parity-major."""
    step: NDArray[np.float64]
    """``(ndir,)`` step lengths."""
    corner: NDArray[np.int64]
    """``(2 * ndir,)`` the two directions a diagonal step looks at (``-1``: none)."""
    info: NDArray[np.int64]
    """``INFO_FIELDS`` as int64."""


class TopoBundle(NamedTuple):
    """The search kernels' topology argument: ``TopoArgs`` with the x and y parts of the offsets."""

    off: NDArray[np.int64]
    dx: NDArray[np.int64]
    """``(2 * ndir,)`` x part of each step, parity-major like ``off``."""
    dy: NDArray[np.int64]
    step: NDArray[np.float64]
    corner: NDArray[np.int64]
    info: NDArray[np.int64]


class SearchArrays(NamedTuple):
    """An A* search's reusable state (``wargrid.movement.search.SearchState.arrays``), one entry a state."""

    g: NDArray[np.float64]
    """Cost so far."""
    parent: NDArray[np.integer]
    """The state it was reached from."""
    stamp: NDArray[np.int32]
    """The query's generation when the state was touched (2 * gen open, 2 * gen + 1 closed)."""
    pos: NDArray[np.integer]
    """The state's slot in the open list."""
    hf: NDArray[np.float64]
    """The open list's ``f`` by slot."""
    hg: NDArray[np.float64]
    """The open list's ``g`` by slot."""
    hid: NDArray[np.integer]
    """The open list's state by slot."""


class FieldArrays(NamedTuple):
    """A Dijkstra field's output and scratch, one entry a padded cell."""

    dist: NDArray[np.float64]
    parent: NDArray[np.int32]
    pdir: NDArray[np.int8]
    """The direction of the step that reached the cell (``-1``: a source or unreached)."""
    pos: NDArray[np.int32]
    hf: NDArray[np.float64]
    hid: NDArray[np.int32]


REPAIR_LAST, REPAIR_FEWEST, REPAIR_STALLED = range(3)
"""The slots of the scattered partition's repair state (``territory.scattered.scatter_repair``'s ``state``, int64):
over-sized cells in the last round, the fewest seen, and rounds since the fewest last fell."""


class SightArgs(NamedTuple):
    """A board as every sight kernel reads it (``wargrid.sight.board.SightBoard.args``)."""

    bh: NDArray[np.int8] | NDArray[np.float64]
    """Padded blocking heights: int8 (0 open, 1 blocks) without elevation, float64 heights with it."""
    off: float
    """The height of padding and masked-out cells."""
    pw: int
    width: int
    height: int
    wrap: int
    hex_kind: int


class SegmentGeometry(NamedTuple):
    """Cell centres and corners for straight segments over a board (``wargrid.tactics.smoothing``)."""

    cx: NDArray[np.float64]
    """Padded x of each cell's centre."""
    cy: NDArray[np.float64]
    wshift: float
    """How far the drawing moves in x across the wrap seam."""
    corners: NDArray[np.float64]
    """The tile's corner offsets from its centre."""
    stamp: NDArray[np.int32]
    """Generation stamps, one a padded cell (cleared in place)."""
    pw: int
    width: int
    height: int
    wrap: int
    square: bool
    """Square tiles on the integer lattice: walked column by column instead of flood filled."""


class ClassicGeometry(NamedTuple):
    """The board as the classic straight-line + edge-following pathfinder reads it (``wargrid.rts.classic``)."""

    inb: NDArray[np.uint8]
    """1 on the board, 0 on the padding, one a padded cell."""
    cx: NDArray[np.float64]
    cy: NDArray[np.float64]
    period: float
    """The drawing's period across the wrap seam (0: no wrap)."""
    order: NDArray[np.int64]
    """The directions sorted by angle."""
    rank: NDArray[np.int64]
    """Each direction's place in ``order``."""
