"""Reading and writing boards: Moving AI ``.map`` / ``.scen`` files."""

from .movingai import (
    MAX_MOVINGAI_CELLS,
    MOVINGAI_TERRAINS,
    Scenario,
    load_movingai,
    load_movingai_scenarios,
    save_movingai,
    save_movingai_scenarios,
)

__all__ = [
    "MOVINGAI_TERRAINS",
    "MAX_MOVINGAI_CELLS",
    "Scenario",
    "load_movingai",
    "load_movingai_scenarios",
    "save_movingai",
    "save_movingai_scenarios",
]
