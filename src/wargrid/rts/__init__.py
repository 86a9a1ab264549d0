"""Real-time strategy detail: leptons, occupancy, the entry ladder, the classic pathfinder, moving units.

- ``leptons``: integer sub-cell positions (256 a cell), packed cell numbers,
  the octagonal distance;
- ``occupancy``: infantry sub-spots, vehicles, buildings, reservations;
- ``ladder``: "can this unit enter this cell?" as an ordered ``Entry`` with
  costs, and searches whose threshold rises one step at a time;
- ``classic``: the straight-line + edge-following pathfinder and its move
  optimiser (also ``Map.classic_path``);
- ``sim``: units that move tick by tick and re-check every next cell
  (``examples/bridge_scenario.py`` plays one out: a bridge falls under a
  tank's route);
- ``crowd``: collision-free timed paths for many agents at once (``plan_crowd``,
  LaCAM over PIBT) and their checker (``check_plan``);
- ``tracks``: the curved lines vehicles drive through a turn, in leptons
  (``track``, ``path_track``).

Importing this package compiles nothing; kernels compile on first use.

>>> from wargrid import rts
>>> rts.octagonal_distance((0, 0), (512, 256))
640
"""

from .leptons import (
    LEPTONS_PER_CELL,
    Lepton,
    cell_to_lepton,
    cells_to_leptons,
    lepton_to_cell,
    leptons_to_cells,
    octagonal_distance,
    octagonal_distances,
    pack_cell,
    unpack_cell,
)
from .._deprecation import module_aliases
from .classic import OUTCOMES, ClassicPath, classic_path
from .ladder import (
    CLASSIC_ENTRY_COSTS, DEFAULT_ENTRY_COSTS, MEASURES, TRAVEL_ENTRY_COSTS, Entry, LadderPath, check_entry, entry_costs,
    ladder_path,
)
from .occupancy import OCCUPANT_KINDS, Occupancy, Spot, spot_offsets
from .crowd import OBJECTIVES, CrowdPlan, check_plan, plan_crowd
from .tracks import DEFAULT_STEP, TRACK_KINDS, TRACK_RADII, PathTrack, Track, path_track, track
from .sim import PATHFINDERS, STATES, UNIT_KINDS, SimEvent, SimReport, SimUnit, Simulation

__all__ = [
    "LEPTONS_PER_CELL", "Lepton", "cell_to_lepton", "cells_to_leptons", "lepton_to_cell", "leptons_to_cells",
    "octagonal_distance", "octagonal_distances", "pack_cell", "unpack_cell",
    "OCCUPANT_KINDS", "Occupancy", "Spot", "spot_offsets",
    "OUTCOMES", "ClassicPath", "classic_path",
    "DEFAULT_ENTRY_COSTS", "CLASSIC_ENTRY_COSTS", "TRAVEL_ENTRY_COSTS", "MEASURES", "Entry", "LadderPath", "check_entry", "entry_costs", "ladder_path",
    "PATHFINDERS", "STATES", "UNIT_KINDS", "SimEvent", "SimReport", "SimUnit", "Simulation",
    "OBJECTIVES", "CrowdPlan", "check_plan", "plan_crowd",
    "DEFAULT_STEP", "TRACK_KINDS", "TRACK_RADII", "PathTrack", "Track", "path_track", "track",
]

__getattr__ = module_aliases("wargrid.rts", {
    "KINDS": ("wargrid.rts.OCCUPANT_KINDS", OCCUPANT_KINDS),
    "STATUSES": ("wargrid.rts.OUTCOMES", OUTCOMES),
})
