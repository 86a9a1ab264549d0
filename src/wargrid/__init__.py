"""wargrid: the map layer of a strategy game.

Hex, square and staggered boards; movement, sight and territory over them.
``import wargrid`` compiles nothing: kernels compile on first use and are
cached on disk.

>>> import wargrid
>>> wargrid.Hex(1, -2).neighbor(2)
Hex(q=1, r=-3)
"""

from .grids import *  # noqa: F401,F403
from .grids import __all__ as _grid_names
from .costs import CostField
from .errors import (  # noqa: F401 - the error classes, all in one module
    ArgumentError, ArgumentTypeError, CellError, InfeasibleError, MapFileWarning, MissingExtraError, PartitionError,
    ConsistencyError, PrepareMemoryError, ResourceError, UnknownError, WargridError,
)
from .map import EVENTS, CallbackError, Map, MapEdit, MapEvent, Marker
from .terrain import INF, Terrain, TerrainTable
from .generate import GeneratedBoard, generate, generate_board
from .io.errors import MapFileError
from .io.native import load_map, save_map
from .io.tiled import load_tiled, save_tiled
from .io.wesnoth import load_wesnoth, save_wesnoth, wesnoth_cost, wesnoth_movetypes, wesnoth_terrain_name
from .io.openra import load_openra
from .movement import FlowField, MovementRange, Path, Route
from .warmup import warm_up
from .sight import (
    FacingEdges, Fog, FogView, VisibilityPolygon, facing_edges, field_of_view, line_of_sight, visibility_polygon,
)
from .io.movingai import Scenario, load_movingai, load_movingai_scenarios, save_movingai, save_movingai_scenarios
from . import rts  # noqa: E402 - numpy only; its kernels compile on first use
from . import render  # noqa: E402,F401 - registers how results are drawn (a notebook's pictures)
from .survey import survey  # noqa: E402 - Dask and pyarrow are imported only when a survey runs

__version__ = "0.1.0"

__all__ = list(_grid_names) + [
    "Map", "MapEvent", "MapEdit", "Marker", "CostField", "CallbackError", "EVENTS",
    "WargridError", "ArgumentError", "ArgumentTypeError", "CellError", "UnknownError", "ResourceError",
    "PrepareMemoryError", "InfeasibleError", "PartitionError", "MissingExtraError", "MapFileWarning", "ConsistencyError",
    "Terrain", "TerrainTable", "INF",
    "generate", "generate_board", "GeneratedBoard", "MapFileError", "load_map", "save_map", "load_tiled", "save_tiled",
    "load_wesnoth", "save_wesnoth", "wesnoth_cost", "wesnoth_movetypes", "wesnoth_terrain_name", "load_openra",
    "Path", "MovementRange", "FlowField", "Route", "Scenario", "load_movingai", "load_movingai_scenarios", "save_movingai", "save_movingai_scenarios",
    "Fog", "FogView", "VisibilityPolygon", "field_of_view", "line_of_sight", "visibility_polygon",
    "FacingEdges", "facing_edges",
    "warm_up", "survey",
]
