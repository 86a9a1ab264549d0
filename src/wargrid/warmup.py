"""``warm_up``: compile (or load from the disk cache) the kernels of chosen capabilities ahead of the first query.

A kernel compiles the first time it runs on a fresh install (seconds for
movement, tens of seconds for territory); afterwards numba loads it from the
disk cache (well under a second). A server or a notebook calls ``warm_up`` at
start so that no player's first click waits for it.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from .errors import ArgumentError
from .generate import make_grid
from .map import Map

__all__ = ["warm_up", "CAPABILITIES", "BOARD_KINDS"]

BOARD_KINDS: dict[str, dict[str, object]] = {
    "square-4": {"kind": "square", "diagonal": False},
    "square-8": {"kind": "square", "diagonal": True},
    "hex-flat": {"kind": "hex", "orientation": "flat"},
    "hex-pointy": {"kind": "hex", "orientation": "pointy"},
    "staggered": {"kind": "staggered"},
}
"""The board kinds warmed, as ``make_grid`` keyword options (kernels differ per topology)."""


def _movement(m: Map, kind: str) -> None:
    m.path((0, 0), (3, 2))
    m.movement_range((0, 0), 3.0, enemies=[(2, 2)], attack_range=1)
    m.zones()
    m.connected((0, 0), (3, 2))
    m.flow_field((3, 2)).path_from((0, 0))
    m.route((0, 0), (3, 2), points_per_turn=2.0)
    m.distance_table([(0, 0)], [(3, 2), (1, 1)])
    m.path((0, 0), (2, 1), size=2)  # clearance and footprint kernels
    _prepared(Map(make_grid(12, 10, **BOARD_KINDS[kind])))  # type: ignore[arg-type]


def _prepared(m: Map) -> None:
    """The prepared structure's kernels: build, query over every arc and over the query arcs, table, an edit."""
    cp = m.prepare(progress=False)
    m.path((0, 0), (11, 9))  # over every arc, until queries have paid for the query arcs
    m.distance((0, 0), (11, 9))
    m.distance_table([(0, 0), (5, 5)], [(11, 9), (3, 7)])
    cp.build_query_arcs()
    m.path((0, 0), (11, 9))
    m.distance((0, 0), (11, 9))
    m.distance_table([(0, 0), (5, 5)], [(11, 9), (3, 7), (9, 1)])
    m.set_terrain([(5, 5)], "water")  # an edit customized in
    m.path((0, 0), (11, 9))
    m.distance((0, 0), (11, 9))


def _sight(m: Map, kind: str) -> None:
    m.fov((1, 1), radius=2)
    m.line_of_sight((0, 0), (3, 2))
    m.fov((1, 1), radius=2, elevation="heightmap")
    m.fog(["a", "b"], radius=2).place(1, "a", (0, 0))
    if kind == "square-4":
        m.visibility_polygon((0.5, 0.5))


def _territory(m: Map, kind: str) -> None:
    m.partition(2)
    m.start_positions(2, radius=1)


def _rts(m: Map, kind: str) -> None:
    m.classic_path((0, 0), (3, 2))
    m.ladder_path((0, 0), (3, 2), np.zeros(m.shape, dtype=np.int8))
    if kind == "square-4":  # the crowd planner's board (its kernels read a graph: one board kind warms them)
        from .grids import SquareGrid
        from .rts.crowd import warm_up_planner

        warm_up_planner(m)
        warm_up_planner(Map(SquareGrid(256, 256)))  # 65 536 nodes and more: the distance tables' int32 variants


def _tactics(m: Map, kind: str) -> None:
    m.area("cone", (1, 1), length=2, width=1, mask="sight")
    path = m.path((0, 0), (3, 2))
    if path is not None:
        m.smooth_path(path)
    m.group_move([(0, 0), (1, 0)], (3, 2))
    m.turning_path((0, 0), (3, 2), facing=0, turn_rate=1)
    m.influence([((0, 0), "a"), ((3, 2), "b")], radius=4.0)


CAPABILITIES: dict[str, Callable[[Map, str], None]] = {
    "movement": _movement, "sight": _sight, "territory": _territory, "rts": _rts, "tactics": _tactics,
}
"""What ``warm_up`` can warm, and the queries each runs on tiny boards."""


def warm_up(*capabilities: str) -> list[str]:
    """Compile (or load from the disk cache) the kernels of ``capabilities`` now; none named: all of them.

    Runs each capability's queries once on a tiny board of every kind, so a
    later first query does not wait for compilation. Returns the capabilities
    warmed, in order. Raises ``ArgumentError`` for an unknown name (before any
    work); an error of a query itself propagates.

    Parameters
    ----------
    *capabilities : str
        Names from ``CAPABILITIES`` ('movement', 'sight', 'territory', 'rts', 'tactics'); none: all.

    Returns
    -------
    list of str
        The capabilities warmed, in order, each once.

    Raises
    ------
    ValueError
        An unknown capability (``ArgumentError``), before any work.

    Examples
    --------
    >>> warm_up("movement")
    ['movement']
    >>> warm_up("flying")
    Traceback (most recent call last):
    ...
    wargrid.errors.ArgumentError: unknown capability 'flying'; choose from movement, sight, territory, rts, tactics
    """
    for name in capabilities:  # before the dict: a list is unhashable, an array's `in` ambiguous
        if not isinstance(name, str) or name not in CAPABILITIES:
            raise ArgumentError(f"unknown capability {name!r}; choose from {', '.join(CAPABILITIES)}")
    names = list(dict.fromkeys(capabilities)) or list(CAPABILITIES)
    for name in names:
        if name not in CAPABILITIES:
            raise ArgumentError(f"unknown capability {name!r}; choose from {', '.join(CAPABILITIES)}")
    for name in names:
        for kind, kw in BOARD_KINDS.items():
            CAPABILITIES[name](Map(make_grid(4, 3, **kw)), kind)  # type: ignore[arg-type]
    return names
