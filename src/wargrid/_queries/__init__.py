"""The thin query methods of ``Map``, one mixin per capability.

Each mixin hands a capability module the grid and the arrays it needs; the
capability modules never import the map. Each file is owned by its capability.
"""

from .movement import MovementQueries
from .rts import RtsQueries
from .sight import SightQueries
from .tactics import TacticsQueries
from .territory import TerritoryQueries
from .zones import ZoneQueries

__all__ = ["ZoneQueries", "MovementQueries", "SightQueries", "TerritoryQueries", "RtsQueries", "TacticsQueries"]
