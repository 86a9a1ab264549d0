"""Sight: field of view, line of sight, the visibility polygon and fog of war.

- ``field_of_view`` / ``line_of_sight``: square boards use symmetric
  shadowcasting with exact integer slopes; hex and staggered boards the
  two-nudge hex line rule (see ``wargrid.sight.fov``). They always agree.
- ``visibility_polygon``: the lit polygon around a float point on a square or hex board.
- ``Fog``: explored and visible layers per team, updated incrementally, with the
  shroud tools (``reveal``, ``shroud``, ``shroud_edge``, and the classic
  ``fix_shroud`` and ``shroud_tiles``).

``Map.fov``, ``Map.line_of_sight``, ``Map.visibility_polygon`` and ``Map.fog``
hand these the map's sight-blocking terrain (and elevation).

>>> import numpy as np
>>> from wargrid import SquareGrid
>>> from wargrid.sight import field_of_view
>>> int(field_of_view(SquareGrid(5, 5), np.zeros((5, 5), dtype=bool), (2, 2), radius=1).sum())
5
"""

from .fog import Fog, FogView
from .fov import field_of_view
from .los import line_of_sight
from .polygon import FacingEdges, VisibilityPolygon, facing_edges, visibility_polygon

__all__ = ["field_of_view", "line_of_sight", "visibility_polygon", "VisibilityPolygon", "facing_edges", "FacingEdges", "Fog", "FogView"]
