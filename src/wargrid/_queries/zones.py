"""``Map`` query methods for connectivity zones: thin wrappers over ``wargrid.movement.zones``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..movement.zones import ZoneState


class ZoneQueries:
    """Mixed into ``Map``; ``self`` is the map.

    A map has no zone state until ``zones`` or ``connected`` is first asked
    for a movement class; from then on the labels of that class follow every
    edit (only the zones around the change are re-labelled) and the map fires
    'zones_changed' with ``unit``, ``old`` and ``new`` zone ids.
    """

    _zone_state: dict[str, ZoneState]

    def zones(self: Any, unit: str | None = None) -> np.ndarray:
        """``(height, width)`` int32 zone ids for ``unit`` (``-1``: impassable or off the board).

        Cells with the same id are connected for that movement class
        (diagonals follow the corner rule, walls both ways disconnect). Ids
        stay stable across edits that do not touch a zone; they need not be
        ``0..n-1``.

        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(5, 2))
        >>> m.set_terrain([(2, 0), (2, 1)], "water")
        >>> m.zones().tolist()
        [[0, 0, -1, 1, 1], [0, 0, -1, 1, 1]]
        >>> m.zones("naval").tolist()
        [[-1, -1, 0, -1, -1], [-1, -1, 0, -1, -1]]
        """
        return self._zones_for(unit).labels()

    def connected(self: Any, a: tuple[int, int], b: tuple[int, int], *, unit: str | None = None) -> bool:
        """Whether ``unit`` can travel between cells ``a`` and ``b`` ((x, y) each), in O(1).

        An impassable cell is connected to nothing, not even itself. With
        one-way walls (``set_edge(..., both_ways=False)``) ``True`` means
        "linked", not necessarily reachable both ways; ``False`` is always
        unreachable.

        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(5, 1))
        >>> m.connected((0, 0), (4, 0))
        True
        >>> m.set_terrain([(2, 0)], "water")
        >>> m.connected((0, 0), (4, 0)), m.connected((2, 0), (2, 0), unit="naval")
        (False, True)
        """
        ax, ay = self.grid.check_cell(a, "a")
        bx, by = self.grid.check_cell(b, "b")
        t = self.grid.topology
        return self._zones_for(unit).connected(t.padded_id(ax, ay), t.padded_id(bx, by))

    def _zones_for(self: Any, unit: str | None) -> ZoneState:
        name = self.unit_class(unit)
        states = getattr(self, "_zone_state", None)
        if states is None:
            states = self._zone_state = {}
            self._subscribe_internal(self._zones_after_edit)
        z = states.get(name)
        if z is None:
            cd = self.cost_data(name)
            z = states[name] = ZoneState(self.grid.topology, cd.cell, cd.edge)
        return z

    def _zones_after_edit(self: Any, kind: str, ids: np.ndarray) -> None:
        """Internal listener: update every class's zones, then fire 'zones_changed' per class."""
        changes = []
        for name, z in self._zone_state.items():
            cd = self.cost_data(name)
            change = z.update(cd.cell, cd.edge, ids, full=kind == "elevation_changed")
            if change is not None:
                changes.append((name, change))
        if changes:
            cells = [self.grid.cell(int(i)) for i in np.unique(ids)] if kind != "elevation_changed" else []
            for name, change in changes:
                self.emit("zones_changed", cells, unit=name, old=list(change.old), new=list(change.new))
