"""Sight: field of view, line of sight, the visibility polygon and fog of war.

>>> import numpy as np
>>> from wargrid import SquareGrid
>>> from wargrid.sight import field_of_view
>>> int(field_of_view(SquareGrid(5, 5), np.zeros((5, 5), dtype=bool), (2, 2), radius=1).sum())
5
"""

from .fov import field_of_view
from .los import line_of_sight

__all__ = ["field_of_view", "line_of_sight"]
