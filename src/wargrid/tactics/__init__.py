"""Tactical geometry and smooth movement: attack areas, any-angle paths, group moves, turning vehicles, unit debugging,
influence maps.

Functions take a grid and arrays, never a ``Map``; ``Map.area``,
``Map.smooth_path`` and friends are thin wrappers over them.
"""

from .anyangle import AnyAnglePath, any_angle_path
from .areas import AREA_SHAPES, Area, area, area_mask, rotate_shape
from ..rts.debug import UnitDebug, debug_json, unit_debug
from .groups import GroupMove, assign, group_move
from .influence import Influence, influence_map
from .smoothing import SmoothPath, line_clear, segment_cost, smooth_path
from ..movement.turning import TrackPoint, TurnPath, turn_track, turning_path

__all__ = ["AREA_SHAPES", "Area", "area", "area_mask", "rotate_shape", "SmoothPath", "line_clear", "smooth_path",
           "segment_cost", "AnyAnglePath", "any_angle_path",
           "GroupMove", "assign", "group_move", "TrackPoint", "TurnPath", "turn_track", "turning_path",
           "UnitDebug", "debug_json", "unit_debug", "Influence", "influence_map"]
