"""Movement over any board: A*, Jump Point Search, Dijkstra fields, ranges, flow fields, zones of control, turns.

Functions take a grid and a ``CostField``, never a ``Map``; one dispatcher
(``dispatch.dispatch_path``) chooses the search for every path query; ``Map.path``,
``Map.movement_range`` and friends are thin wrappers over them.
"""

from .fields import FlowField, MovementRange, flow_field, movement_range
from ..costs import CostField
from .dispatch import astar, find_path, path_over_arrays, paths, shortest_path
from .search import Path, distance_field
from .turns import Route, route

__all__ = [
    "Path", "CostField", "shortest_path", "path_over_arrays", "find_path", "astar", "distance_field", "paths",
    "MovementRange", "FlowField", "movement_range", "flow_field", "Route", "route",
]
