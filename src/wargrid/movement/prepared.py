"""Prepared exact queries: ``prepare`` one movement class, ``distance_table`` with or without it.

``prepare(grid, costs)`` customizes, for one cost field, the board's customizable contraction hierarchy
(``wargrid.movement.cch``: the nested-dissection order and shortcut structure depend on the board's shape only; a
class is a customization of it). ``Map.prepare`` keeps one structure a board and shares it between every class it
prepares; the structure answers ``Map.path``, ``Map.paths``, ``Map.distance`` and ``Map.distance_table`` and stays
exact after edits (each edit is customized in before the next query).

Before anything is allocated, ``prepare`` compares what the structure and one class will hold at their peak
(``_need_bytes``) with what the process may still take, and raises ``PrepareMemoryError`` when it would not fit. The
measurements behind the design are in ``docs/design/prepared.md``.
"""

from __future__ import annotations

import math
import time
from typing import Sequence

import numpy as np
import numpy.typing as npt

from .. import _budget
from .._progress import Progress, check_progress, reporter
from ..costs import CostField
from ..errors import ArgumentError, PrepareMemoryError
from ..grids.boards import Grid, Topology
from .cch import METRIC_BYTES_PER_ARC, CustomizedPaths, Structure, structure
from .clearance import sized_costs
from .search import check_cells, check_costs, dijkstra_table, padded_id

__all__ = ["Prepared", "PrepareMemoryError", "prepare", "distance_table", "MEMORY_CAP"]

Prepared = CustomizedPaths
"""What ``prepare`` and ``Map.prepare`` return and the dispatcher consults."""

MEMORY_CAP: int | None = None
"""An upper bound (bytes) on what ``prepare`` may hold while it builds; ``None``: what the process may still take
(``wargrid._budget.available_memory``: the system's available memory, the memory cgroup's limit, ``RLIMIT_AS``)."""

STRUCTURE_BYTES_PER_ARC = 28
"""The shared structure's peak bytes an arc while it is built (upper node, lower node, down list entry and input
row, 16 bytes kept; the elimination game's lists and the sort before the down lists held beside them)."""


def arcs_bound(nodes: int) -> int:
    """An upper bound on the arcs of the structure of a board of ``nodes`` cells, known before it is built.

    Straight cuts leave about ``3.5 log2(nodes) - 20`` arcs a node on hex and
    square boards (measured from 64² to 1200², ``docs/design/prepared.md``);
    the bound takes 4 a doubling.

    >>> arcs_bound(512 * 512) >= 44 * 512 * 512, arcs_bound(1)
    (True, 8)
    """
    per_node = max(8.0, 4.0 * math.log2(max(nodes, 2)) - 20.0)
    return int(per_node * max(nodes, 1))


def _need_bytes(topo: Topology, shared: Structure | None) -> int:
    """What a class's customization (and the structure, unless ``shared``) holds at its peak (bytes)."""
    if shared is not None:
        return int(shared.up_head.shape[0]) * METRIC_BYTES_PER_ARC
    arcs = arcs_bound(int(np.count_nonzero(topo.valid)))
    return arcs * (STRUCTURE_BYTES_PER_ARC + METRIC_BYTES_PER_ARC) + topo.padded_size * topo.ndir * 8


def _available_bytes() -> int:
    avail = _budget.available_memory()
    if avail is None:  # pragma: no cover - systems that tell nothing
        avail = 1 << 62
    return avail if MEMORY_CAP is None else min(avail, int(MEMORY_CAP))


def prepare(
    grid: Grid,
    costs: CostField,
    *,
    progress: Progress = True,
    shared: Structure | None = None,
) -> CustomizedPaths:
    """Customize the board's hierarchy for ``costs`` (see the module notes and ``wargrid.movement.cch``).

    Parameters
    ----------
    grid : Grid
        The board.
    costs : CostField
        What the movement class pays (``Map.cost_field(unit=...)`` or ``CostField.from_arrays``).
    progress : bool or callable, default True
        The library's convention (``wargrid._progress``): ``True`` a bar on
        stderr when that is a terminal and the build takes more than a
        second, ``False`` or ``None`` nothing, a callable gets ``(done,
        total)``: two steps, the board's structure (none with ``shared``)
        and the class's customization.
    shared : Structure, optional
        The board's structure, built before (``CustomizedPaths.structure`` of
        another class of the same board): only the customization runs.

    Returns
    -------
    CustomizedPaths

    Raises
    ------
    PrepareMemoryError
        The build would need more memory than is available (checked before allocating).
    TypeError
        ``costs`` is no ``CostField`` of ``grid``, ``progress`` none of the above (``ArgumentTypeError``).

    >>> from wargrid import HexGrid
    >>> g = HexGrid(6, 5)
    >>> c = np.ones((5, 6)); c[1:4, 3] = np.inf
    >>> pp = prepare(g, CostField.from_arrays(g, c))
    >>> p = pp.path(pp.costs, g.topology.padded_id(0, 2), g.topology.padded_id(5, 2))
    >>> p.cost, p.cells[:3]
    (6.0, [(0, 2), (1, 1), (2, 1)])
    >>> prepare(g, CostField.from_arrays(g, np.ones((5, 6))), shared=pp.structure).structure is pp.structure
    True
    """
    costs = check_costs(grid, costs)
    progress = check_progress(progress)
    topo = grid.topology
    if topo.padded_size >= (1 << 31) - 1:
        raise ArgumentError(f"prepare serves boards of fewer than 2**31 padded cells, got {topo.padded_size}")
    if shared is not None and shared.rank_of.shape[0] != topo.padded_size:
        raise ArgumentError(f"shared is the structure of another board ({shared.rank_of.shape[0]} padded cells, "
                            f"this board has {topo.padded_size})")
    need = _need_bytes(topo, shared)
    avail = _available_bytes()
    if need > avail:
        raise PrepareMemoryError(
            f"prepare needs about {need / 2**20:.0f} MiB for this {grid.width} x {grid.height} board, "
            f"{avail / 2**20:.0f} MiB are left to this process (the least of the system's available memory, the "
            f"memory cgroup's limit, RLIMIT_AS and wargrid.movement.prepared.MEMORY_CAP); queries without prepare "
            f"stay exact"
        )
    with reporter(progress, 2, f"prepare {costs.unit or 'paths'}", unit="step") as tick:
        t0 = time.perf_counter()
        st = structure(topo) if shared is None else shared
        tick(1)
        pp = CustomizedPaths(st, costs, time.perf_counter() - t0)
        tick(2)
    return pp


def _cell_list(grid: Grid, cells: object, name: str) -> npt.NDArray[np.int64]:
    got = check_cells(grid, cells, name)
    if not got:
        raise ArgumentError(f"{name} must hold at least one (x, y) cell, got an empty list")
    topo = grid.topology
    return np.array([padded_id(topo, c) for c in got], dtype=np.int64)


def distance_table(
    grid: Grid,
    costs: CostField,
    sources: Sequence[tuple[int, int]],
    targets: Sequence[tuple[int, int]],
    *,
    prepared: Prepared | None = None,
    size: int = 1,
) -> npt.NDArray[np.float64]:
    """``(len(sources), len(targets))`` cheapest costs from every source to every target (``inf``: unreachable).

    With ``prepared`` (a ``CustomizedPaths`` of this board), the hierarchy's
    bucket method; otherwise one Dijkstra a source, stopped when every
    target is settled.

    Parameters
    ----------
    grid : Grid
        The board.
    costs : CostField
        What the movement class pays.
    sources, targets : list of (x, y)
        Cells on the board (at least one each).
    prepared : CustomizedPaths, optional
        A hierarchy of this board (``prepare``); one-cell units only, so not
        used with ``size`` > 1.
    size : int
        A unit bigger than one cell (``wargrid.movement.clearance``): the
        cells are the footprint's anchors.

    Raises
    ------
    ValueError, IndexError
        An empty list, a cell off the board.

    >>> from wargrid import SquareGrid
    >>> g = SquareGrid(4, 3)
    >>> distance_table(g, CostField.from_arrays(g, np.ones((3, 4))), [(0, 0), (3, 2)], [(3, 0)]).tolist()
    [[3.0], [2.0]]
    """
    costs = check_costs(grid, costs)
    src = _cell_list(grid, sources, "sources")
    tgt = _cell_list(grid, targets, "targets")
    _budget.check_table_memory(len(src), len(tgt))
    sized = sized_costs(grid, costs, size)
    if sized is not costs:
        costs, prepared = sized, None
    if prepared is not None:
        return prepared.table(costs, src, tgt)
    return dijkstra_table(costs, src, tgt)
