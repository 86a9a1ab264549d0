"""Sub-cell positions in integer leptons: ``wargrid.grids.leptons``, named here too for RTS code.

>>> from wargrid.rts.leptons import cell_to_lepton
>>> cell_to_lepton((2, 1))
Lepton(x=640, y=384)
"""

from __future__ import annotations

from ..grids.leptons import (
    LEPTONS_PER_CELL,
    Lepton,
    cell_to_lepton,
    cells_to_leptons,
    lepton_to_cell,
    lepton_to_pixel,
    leptons_to_cells,
    leptons_to_pixels,
    octagonal_distance,
    octagonal_distances,
    pack_cell,
    pixel_to_lepton,
    pixels_to_leptons,
    unpack_cell,
)

__all__ = [
    "LEPTONS_PER_CELL", "Lepton", "cell_to_lepton", "cells_to_leptons", "lepton_to_cell", "lepton_to_pixel",
    "leptons_to_cells", "leptons_to_pixels", "octagonal_distance", "octagonal_distances", "pack_cell", "pixel_to_lepton", "pixels_to_leptons", "unpack_cell",
]
