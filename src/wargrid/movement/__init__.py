"""Movement over any board: A*, Jump Point Search, Dijkstra fields, ranges, flow fields, zones of control, turns.

Functions take a grid and cost arrays, never a ``Map``; ``Map.path``,
``Map.movement_range`` and friends are thin wrappers over them.
"""

from .fields import FlowField, MovementRange, flow_field, movement_range
from .search import Costs, Path, astar, distance_field, find_path, paths
from .turns import Route, route

__all__ = [
    "Path", "Costs", "find_path", "astar", "distance_field", "paths",
    "MovementRange", "FlowField", "movement_range", "flow_field", "Route", "route",
]
