"""Seeing what an RTS unit intends: its goal, cached path, next reserved cell and true sub-cell position at once.

Drawing only "the path" hides why a unit stopped: a unit waiting for a
reservation, one whose cached route ends short of the goal, and one halfway
through a step all look alike. ``unit_debug`` reads a
``wargrid.rts.Simulation`` (never changing it) and returns a ``UnitDebug``:

- ``goal``: the cell it was ordered to;
- ``path``: the cached route it will follow: its cell, the cell it is
  stepping into, then the rest of the current route piece; ``plan``: the
  whole last plan;
- ``reserved``: the cell it holds a reservation on (``Occupancy``), if any;
- ``lepton``: its position in leptons, ``point``: the same true position in
  drawing units (between the two cell centres by the step's progress),
  ``progress``: 0..1 along the current step;
- ``state`` and ``reason`` (why it waits or is stuck).

``to_json()`` gives plain data for the playground; ``wargrid.render`` draws
it (``UnitDebug.overlays()``, and ``wargrid.render.debug_svg`` draws every unit
with its exact sub-cell position as a dot).

>>> from wargrid import Map, SquareGrid
>>> from wargrid.rts import Simulation
>>> sim = Simulation(Map(SquareGrid(6, 3)), seed=1)
>>> tank = sim.add_unit((0, 1), unit="tracked", goal=(5, 1), speed=100)
>>> sim.step(); sim.step()
>>> d = unit_debug(sim, tank)
>>> d.state, d.goal, d.path[:3], d.reserved, d.lepton
('moving', (5, 1), [(0, 1), (1, 1), (2, 1)], (1, 1), (228, 384))
>>> d.to_json()["point"]
[0.890625, 1.5]
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Sequence, TypedDict

from ..errors import ArgumentTypeError
from .._validate import check_int

from .._display import overlays_of

__all__ = ["UnitDebug", "unit_debug", "debug_json"]


class UnitDebugJSON(TypedDict):
    """``UnitDebug.to_json()``: cells as ``[x, y]`` lists, ``None`` as null."""

    uid: int
    kind: str
    state: str
    reason: str
    cell: list[int] | None
    goal: list[int] | None
    path: list[list[int] | None]
    plan: list[list[int] | None]
    reserved: list[int] | None
    lepton: list[int]
    point: list[float]
    progress: float


class DebugJSON(TypedDict):
    """``debug_json()``: the tick and one ``UnitDebugJSON`` a unit."""

    tick: int
    units: list[UnitDebugJSON]


@dataclass(frozen=True)
class UnitDebug:
    """Everything that explains one unit's movement now (see the module text)."""

    uid: int
    kind: str
    state: str
    reason: str
    cell: tuple[int, int]
    goal: tuple[int, int] | None
    path: list[tuple[int, int]]
    plan: list[tuple[int, int]] = field(repr=False)
    reserved: tuple[int, int] | None = None
    lepton: tuple[int, int] = (0, 0)
    point: tuple[float, float] = (0.0, 0.0)
    progress: float = 0.0

    def overlays(self, *, color: str = "#1f77b4") -> list[Any]:
        """Render overlays: the cached path (a line), the goal, the reserved cell and the unit's cell.

        >>> from wargrid import Map, SquareGrid
        >>> from wargrid.rts import Simulation
        >>> sim = Simulation(Map(SquareGrid(4, 2)), seed=0)
        >>> u = sim.add_unit((0, 0), goal=(3, 0)); sim.step()
        >>> [o.name for o in unit_debug(sim, u).overlays()]
        ['unit 0 path', 'unit 0 goal', 'unit 0 reserved', 'unit 0 cell']
        """
        return overlays_of(self, color=color)

    def to_json(self) -> UnitDebugJSON:
        """Plain JSON-able data: cells as ``[x, y]`` lists, ``None`` as null."""
        def c(v: tuple[int, int] | None) -> list[int] | None:
            return None if v is None else [int(v[0]), int(v[1])]

        return {
            "uid": self.uid,
            "kind": self.kind,
            "state": self.state,
            "reason": self.reason,
            "cell": c(self.cell),
            "goal": c(self.goal),
            "path": [c(p) for p in self.path],
            "plan": [c(p) for p in self.plan],
            "reserved": c(self.reserved),
            "lepton": [int(self.lepton[0]), int(self.lepton[1])],
            "point": [float(self.point[0]), float(self.point[1])],
            "progress": float(self.progress),
        }


def check_simulation(sim: Any) -> Any:
    """``sim`` if it is a ``wargrid.rts.Simulation``, else ``ArgumentTypeError``."""
    from ..rts.sim import Simulation

    if not isinstance(sim, Simulation):
        raise ArgumentTypeError(f"sim must be a wargrid.rts.Simulation, got {type(sim).__name__}")
    return sim


def unit_debug(sim: Any, uid: int) -> UnitDebug:
    """What unit ``uid`` of simulation ``sim`` intends now (``KeyError`` for an unknown id).

    >>> from wargrid import Map, HexGrid
    >>> from wargrid.rts import Simulation
    >>> sim = Simulation(Map(HexGrid(4, 4)), seed=0)
    >>> u = sim.add_unit((0, 0), goal=(3, 3))
    >>> unit_debug(sim, u).state, unit_debug(sim, u).reserved
    ('idle', None)
    """
    sim = check_simulation(sim)
    u = sim.get(check_int(uid, "uid"))
    path = [u.cell]
    if u.next_cell is not None:
        path.append(u.next_cell)
    path.extend(c for c in u.route if c != path[-1])
    res = sim.occupancy.reservation(u.uid)
    progress = 0.0
    px, py = sim.grid.center(u.cell)
    if u.next_cell is not None and u.step_len:
        progress = min(1.0, u.progress / u.step_len)
        from ..grids.boards import unwrap_cells

        vx, vy = unwrap_cells(sim.grid, [u.cell, u.next_cell])
        cx, cy = sim.grid.centers_of(vx, vy)
        px = float(cx[0] + progress * (cx[1] - cx[0]))
        py = float(cy[0] + progress * (cy[1] - cy[0]))
    lx, ly = sim.lepton(u.uid)
    return UnitDebug(
        uid=u.uid,
        kind=u.kind,
        state=u.state,
        reason=u.reason,
        cell=u.cell,
        goal=u.goal,
        path=path,
        plan=list(u.plans[-1]) if u.plans else [],
        reserved=None if res is None else res.cell,
        lepton=(int(lx), int(ly)),
        point=(float(px), float(py)),
        progress=float(progress),
    )


def debug_uids(sim: Any, uids: Sequence[int] | None) -> list[int]:
    """``uids`` checked, or (``None``) every unit of a moving kind."""
    if uids is None:
        return [v.uid for v in sim.units.values() if v.kind in ("infantry", "vehicle")]
    return [check_int(u, f"uids[{i}]") for i, u in enumerate(uids)]


def debug_json(sim: Any, uids: Sequence[int] | None = None) -> DebugJSON:
    """``{"tick": ..., "units": [UnitDebug.to_json(), ...]}`` for ``uids`` (default: every moving kind).

    >>> from wargrid import Map, HexGrid
    >>> from wargrid.rts import Simulation
    >>> sim = Simulation(Map(HexGrid(5, 5)), seed=0)
    >>> _ = sim.add_unit((0, 0), goal=(4, 4)); _ = sim.add_unit((4, 0), kind="infantry")
    >>> d = debug_json(sim); d["tick"], [u["state"] for u in d["units"]]
    (0, ['idle', 'idle'])
    """
    sim = check_simulation(sim)
    out: DebugJSON = {"tick": int(sim.tick), "units": [unit_debug(sim, u).to_json() for u in debug_uids(sim, uids)]}
    json.dumps(out)  # the promise: plain data
    return out
