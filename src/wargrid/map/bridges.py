"""Bridges on a ``Map``: hit points, stages (whole, damaged, destroyed), damage and repair, and their events.

A bridge is a set of cells that carry an overlay terrain (``'bridge'`` by
default) while it stands. Its stage follows its hit points, as in the classic
engine, whose bridges are whole, damaged (still crossable) or destroyed:

- ``'whole'``: ``hp > DAMAGED_AT * max_hp``;
- ``'damaged'``: ``0 < hp <= DAMAGED_AT * max_hp`` (a half: the classic
  yellow condition); the bridge still carries every unit it carried whole;
- ``'destroyed'``: ``hp == 0``; its overlay is taken off (or replaced by its
  ``ruin``), so the cells are what lies under it: water, impassable for
  ground units and open to ships.

The overlay is laid and taken off through the map's one edit path, so
costs, zones, units following the map (``rts.Simulation``) and the
'overlay_changed' and 'zones_changed' events follow. Then the map fires
'bridge_destroyed' (``data``: ``bridge``, the ``Bridge`` after the hit;
``splits``, a ``ZoneSplit`` for each zone set the map keeps (every class and
wall rule whose zones were asked for) that the bridge held together;
``intact``, the number of bridges still standing: 0 once all are down),
'bridge_repaired' (when a destroyed bridge stands again; ``splits`` then are
the zones it joins) and 'bridge_damaged' (whole to damaged). The classic
engine's "all bridges destroyed" is ``not m.intact_bridges``.

Edit a bridge's cells through these methods only: a ``set_overlay`` on them
is not seen by the bridge. Bridges are part of the map: copies, pickles,
wargrid's own map files and map equality keep them.

>>> from wargrid import Map, SquareGrid
>>> m = Map(SquareGrid(5, 1)); m.set_terrain([(2, 0)], "water")
>>> b = m.add_bridge([(2, 0)], max_hp=100)
>>> m.damage_bridge(b, 60).stage, m.connected((0, 0), (4, 0))
('damaged', True)
>>> m.damage_bridge(b, 40).stage, m.connected((0, 0), (4, 0)), m.intact_bridges
('destroyed', False, ())
>>> m.repair_bridge(b).stage, m.connected((0, 0), (4, 0))
('whole', True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Sequence

import numpy as np

from .._validate import check_real
from ..errors import ArgumentError, ArgumentTypeError, CallbackError
from .core import Cell, MapCore

__all__ = ["Bridge", "ZoneSplit", "BridgeEdits", "BRIDGE_STAGES", "DAMAGED_AT"]

BRIDGE_STAGES = ("whole", "damaged", "destroyed")
"""A bridge's stages, from its hit points (see the module notes)."""

DAMAGED_AT = 0.5
"""A standing bridge is 'damaged' at or below this fraction of its ``max_hp`` (the classic yellow condition)."""


@dataclass(frozen=True)
class Bridge:
    """One bridge of a map, as it is now: a record (``Map`` methods return the new one after each change).

    ``id`` is its index in ``Map.bridges``; ``cells`` the ``(x, y)`` cells it
    covers; ``overlay`` the terrain it lays on them while it stands, ``ruin``
    the one while it is down (``None``: the ground shows).

    >>> b = Bridge(0, ((3, 1),), hp=40.0, max_hp=100.0)
    >>> b.stage, b.standing
    ('damaged', True)
    """

    id: int
    cells: tuple[Cell, ...]
    hp: float
    max_hp: float
    overlay: str = "bridge"
    ruin: str | None = None

    @property
    def stage(self) -> str:
        """'whole', 'damaged' or 'destroyed' (``BRIDGE_STAGES``), from ``hp``."""
        if self.hp <= 0:
            return "destroyed"
        return "damaged" if self.hp <= DAMAGED_AT * self.max_hp else "whole"

    @property
    def standing(self) -> bool:
        """Whether it carries units ('whole' or 'damaged')."""
        return self.hp > 0


@dataclass(frozen=True)
class ZoneSplit:
    """Zones a bridge held together, for movement class ``unit`` under wall rule ``walls``.

    ``zone`` is the id of the one zone while the bridge stands, ``parts`` the
    zone ids on either side while it is down (no longer connected).
    """

    unit: str
    walls: str
    zone: int
    parts: tuple[int, ...]


def _splits(whole: dict[tuple[str, str], np.ndarray], apart: dict[tuple[str, str], np.ndarray]) -> list[ZoneSplit]:
    """For each zone set, the zones of ``whole`` whose cells lie in two or more zones of ``apart``."""
    out: list[ZoneSplit] = []
    for key, w in whole.items():
        a = apart[key]
        keep = (w >= 0) & (a >= 0)
        for z in np.unique(w[keep]).tolist():
            parts = tuple(np.unique(a[keep & (w == z)]).tolist())
            if len(parts) > 1:
                out.append(ZoneSplit(key[0], key[1], int(z), parts))
    return out


class BridgeEdits(MapCore):
    """Bridges with hit points on a ``Map`` (see ``wargrid.map.bridges``)."""

    @property
    def bridges(self) -> tuple[Bridge, ...]:
        """Every bridge of the map, by id, as it is now.

        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(4, 1)); _ = m.add_bridge([(1, 0), (2, 0)])
        >>> [(b.id, b.stage) for b in m.bridges]
        [(0, 'whole')]
        """
        return tuple(self._bridges)

    @property
    def intact_bridges(self) -> tuple[Bridge, ...]:
        """The bridges still standing (whole or damaged); empty: all bridges are destroyed (or there are none).

        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(4, 1)); b = m.add_bridge([(1, 0)], max_hp=10)
        >>> _ = m.damage_bridge(b, 10); m.intact_bridges
        ()
        """
        return tuple(b for b in self._bridges if b.standing)

    def add_bridge(
        self,
        cells: Sequence[Cell],
        *,
        max_hp: float = 100.0,
        hp: float | None = None,
        overlay: str = "bridge",
        ruin: str | None = None,
    ) -> Bridge:
        """Build a bridge on ``cells``: lay ``overlay`` on them (``ruin`` when ``hp`` is 0) and return it.

        Parameters
        ----------
        cells : sequence of (x, y)
            The cells it covers (on the board, not on another bridge).
        max_hp : float
            Its hit points when whole (``> 0``).
        hp : float, optional
            Its hit points now (``0 .. max_hp``; default ``max_hp``).
        overlay : str
            The terrain it lays while it stands.
        ruin : str, optional
            The terrain it lays while it is down (default: none, the ground shows).

        Returns
        -------
        Bridge

        Raises
        ------
        IndexError
            A cell off the board (``CellError``).
        ValueError
            No cells, a cell of another bridge, an unknown terrain or hit points out of range (``ArgumentError``).

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(5, 1)); m.set_terrain([(2, 0)], "water")
        >>> b = m.add_bridge([(2, 0)], max_hp=300, hp=120)
        >>> b.id, b.stage, m.overlay_name((2, 0)), m.connected((0, 0), (4, 0))
        (0, 'damaged', 'bridge', True)
        """
        xs, ys, pts = self._cells(cells, "cells")
        if not pts:
            raise ArgumentError("cells must hold at least one (x, y) cell for the bridge")
        top = check_real(max_hp, "max_hp")
        if not 0 < top < math.inf:
            raise ArgumentError(f"max_hp must be > 0 and finite, got {top}")
        now = top if hp is None else check_real(hp, "hp", minimum=0.0)
        if now > top:
            raise ArgumentError(f"hp must be <= max_hp = {top}, got {now}")
        for name, what in ((overlay, "overlay"), (ruin, "ruin")):
            if name is not None and not isinstance(name, str):
                raise ArgumentTypeError(f"{what} must be a terrain name, got {type(name).__name__} {name!r}")
            if name is not None:
                self.terrains.index(name)
        with self._lock:
            taken = {c for b in self._bridges for c in b.cells}
            for c in pts:
                if c in taken:
                    raise ArgumentError(f"cell {c} already belongs to a bridge")
            b = Bridge(len(self._bridges), tuple(dict.fromkeys(pts)), now, top, overlay, ruin)
            self._bridges.append(b)
            errors = self._overlay_collect(xs, ys, pts, overlay if b.standing else ruin)
        if errors:
            raise CallbackError("overlay_changed", errors)
        return b

    def damage_bridge(self, bridge: Bridge | int, damage: float) -> Bridge:
        """Take ``damage`` hit points off ``bridge`` (not below 0) and return it as it is now.

        At 0 the bridge is destroyed: its overlay is taken off and the map
        fires 'bridge_destroyed' with the zones it split (see the module notes).

        Parameters
        ----------
        bridge : Bridge or int
            The bridge or its id.
        damage : float
            Hit points to take off (``>= 0``).

        Returns
        -------
        Bridge

        Raises
        ------
        ValueError
            An unknown bridge or a negative ``damage`` (``ArgumentError``).
        CallbackError
            A callback of the events raised (the change is complete).

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(3, 1)); m.set_terrain([(1, 0)], "water"); b = m.add_bridge([(1, 0)], max_hp=100)
        >>> [m.damage_bridge(b, 30).stage for _ in range(4)]
        ['whole', 'damaged', 'damaged', 'destroyed']
        """
        amount = check_real(damage, "damage", minimum=0.0, allow_inf=True)
        with self._lock:
            b = self._bridge(bridge)
            return self._set_bridge_hp(b, max(0.0, b.hp - amount))

    def repair_bridge(self, bridge: Bridge | int, hp: float | None = None) -> Bridge:
        """Give ``bridge`` back ``hp`` hit points (default: all, up to ``max_hp``) and return it as it is now.

        A destroyed bridge that gets hit points stands again: its overlay is
        laid back and the map fires 'bridge_repaired' with the zones it joins.

        Parameters
        ----------
        bridge : Bridge or int
            The bridge or its id.
        hp : float, optional
            Hit points to add (``>= 0``; default: up to ``max_hp``).

        Returns
        -------
        Bridge

        Raises
        ------
        ValueError
            An unknown bridge or a negative ``hp`` (``ArgumentError``).
        CallbackError
            A callback of the events raised (the change is complete).

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(3, 1)); m.set_terrain([(1, 0)], "water"); b = m.add_bridge([(1, 0)], hp=0)
        >>> m.repair_bridge(b, 20).stage, m.repair_bridge(b).hp
        ('damaged', 100.0)
        """
        amount = math.inf if hp is None else check_real(hp, "hp", minimum=0.0, allow_inf=True)
        with self._lock:
            b = self._bridge(bridge)
            return self._set_bridge_hp(b, min(b.max_hp, b.hp + amount))

    def _bridge(self, bridge: Bridge | int) -> Bridge:
        i = bridge.id if isinstance(bridge, Bridge) else bridge
        if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)):
            raise ArgumentTypeError(f"bridge must be a Bridge or a bridge id, got {type(bridge).__name__} {bridge!r}")
        if not 0 <= i < len(self._bridges):
            raise ArgumentError(f"unknown bridge {int(i)}; the map has {len(self._bridges)} bridges (ids 0..{len(self._bridges) - 1})")
        b: Bridge = self._bridges[int(i)]
        return b

    def _set_bridge_hp(self, b: Bridge, hp: float) -> Bridge:
        """Give ``b`` ``hp`` hit points (under the map's lock); lay or lift its overlay and fire its events."""
        new = replace(b, hp=hp)
        self._bridges[b.id] = new
        errors: list[BaseException] = []
        if new.standing != b.standing:
            around = self._around_bridge(b)
            before = self._zone_labels_at(around)
            cells = tuple(c for c in b.cells if self.grid.contains(c))  # a playable rectangle may leave some out
            xs = np.array([c[0] for c in cells], dtype=np.int64)
            ys = np.array([c[1] for c in cells], dtype=np.int64)
            errors += self._overlay_collect(xs, ys, cells, new.overlay if new.standing else new.ruin)
            after = self._zone_labels_at(around)
            event = "bridge_repaired" if new.standing else "bridge_destroyed"
            splits = _splits(after, before) if new.standing else _splits(before, after)
            errors += self._fire(event, b.cells, {"bridge": new, "splits": splits, "intact": len(self.intact_bridges)})
        elif new.stage != b.stage and new.stage == "damaged":
            errors += self._fire("bridge_damaged", b.cells, {"bridge": new})
        if errors:
            raise CallbackError("bridge", errors)
        return new

    def _around_bridge(self, b: Bridge) -> np.ndarray:
        """Padded ids of the cells next to ``b`` (its banks), itself left out."""
        t = self.grid.topology
        own = np.array([t.padded_id(x, y) for x, y in b.cells if self.grid.contains((x, y))], dtype=np.int64)
        near = np.unique(t.neighbors(own).ravel())
        return near[~np.isin(near, own)]

    def _zone_labels_at(self, padded: np.ndarray) -> dict[tuple[str, str], np.ndarray]:
        """Zone ids at padded cells ``padded`` in each zone set the map keeps."""
        out = {}
        for unit, walls in self.derived.zone_keys():
            z = self.derived.zones_if_built(unit, walls)
            if z is not None:
                out[(unit, walls)] = np.array([z.label_at(int(p)) for p in padded], dtype=np.int64)
        return out
