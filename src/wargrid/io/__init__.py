"""Reading and writing boards: wargrid's own format, Moving AI ``.map`` / ``.scen`` files, Tiled TMX / TMJ, Wesnoth ``.map``, OpenRA maps (read)."""

from .movingai import (
    MAX_MOVINGAI_CELLS,
    MOVINGAI_TERRAINS,
    Scenario,
    load_movingai,
    load_movingai_agents,
    load_movingai_scenarios,
    save_movingai,
    save_movingai_scenarios,
)
from .errors import MapFileError
from .native import load_map, save_map
from .openra import load_openra, openra_locomotors
from .tiled import load_tiled, save_tiled
from .wesnoth import WESNOTH_TERRAINS, load_wesnoth, save_wesnoth, wesnoth_cost, wesnoth_movetypes, wesnoth_terrain_name

__all__ = [
    "MOVINGAI_TERRAINS",
    "MAX_MOVINGAI_CELLS",
    "Scenario",
    "load_movingai",
    "load_movingai_agents",
    "load_movingai_scenarios",
    "save_movingai",
    "save_movingai_scenarios",
    "MapFileError",
    "load_map",
    "save_map",
    "load_tiled",
    "save_tiled",
    "load_wesnoth",
    "save_wesnoth",
    "WESNOTH_TERRAINS",
    "wesnoth_cost",
    "wesnoth_movetypes",
    "wesnoth_terrain_name",
    "load_openra",
    "openra_locomotors",
]
