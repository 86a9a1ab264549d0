"""``Map``: a board plus layers, edits with events, and everything derived from them kept up to date.

A ``Map`` is a typed core (``MapCore``: the layers, the edits that change
them, the events they fire, and one owner of derived state, ``Derived``)
plus thin query methods, one group a capability (movement, zones, sight,
territory, RTS, tactics). The query methods hand a capability module the
grid and the arrays it needs; the capability modules never import the map.

>>> from wargrid import HexGrid, Map
>>> m = Map(HexGrid(6, 4))
>>> m.set_terrain([(2, 1), (3, 1)], "forest")
>>> m.terrain_name((2, 1)), float(m.costs(unit="cavalry")[1, 2])
('forest', 4.0)

Layers are read-only; a map pickles in any state (derived state and
listeners are rebuilt, not pickled):

>>> import pickle
>>> fog = m.fog(["red"])
>>> pickle.loads(pickle.dumps(m)) == m
True
"""

from __future__ import annotations

from .bridges import BRIDGE_STAGES, DAMAGED_AT, Bridge, BridgeEdits, ZoneSplit
from .core import EVENTS, CallbackError, MapCore, MapEdit, MapEvent, Marker
from .derived import Derived
from .interop import InteropQueries
from .movement import MovementQueries
from .rts import RtsQueries
from .sight import MapSightBoard
from .tactics import TacticsQueries
from .territory import TerritoryQueries
from .zones import ZoneQueries

__all__ = ["Map", "MapCore", "MapEdit", "MapEvent", "Marker", "EVENTS", "CallbackError", "Derived", "MapSightBoard",
           "Bridge", "ZoneSplit", "BRIDGE_STAGES", "DAMAGED_AT"]


class Map(MovementQueries, ZoneQueries, TacticsQueries, TerritoryQueries, RtsQueries, InteropQueries, BridgeEdits):
    """A board with terrain, overlay, elevation and edge-cost layers, and the queries over them.

    See ``MapCore`` for the layers and edits; the query methods are listed
    per capability in ``MovementQueries``, ``ZoneQueries``, ``SightQueries``,
    ``TacticsQueries``, ``TerritoryQueries`` and ``RtsQueries``; exports and pictures in ``InteropQueries``;
    bridges with hit points in ``BridgeEdits``.

    >>> from wargrid import SquareGrid
    >>> m = Map(SquareGrid(5, 1)); m.set_terrain([(2, 0)], "water")
    >>> m.path((0, 0), (4, 0)) is None, m.connected((0, 0), (1, 0))
    (True, True)
    """
