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

``UnitDebug.overlays()`` gives render overlays (``wargrid.render``), and
``to_json()`` plain data for the playground; ``debug_svg`` draws every unit
with its exact sub-cell position as a dot.

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
from typing import TYPE_CHECKING, Any, Sequence, TypedDict

from ..errors import ArgumentTypeError
from .._validate import check_int

if TYPE_CHECKING:
    from ..render.overlays import Overlay

__all__ = ["UnitDebug", "unit_debug", "debug_json", "debug_svg"]


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

    def overlays(self, *, color: str = "#1f77b4") -> list[Overlay]:
        """Render overlays: the cached path (a line), the goal, the reserved cell and the unit's cell.

        >>> from wargrid import Map, SquareGrid
        >>> from wargrid.rts import Simulation
        >>> sim = Simulation(Map(SquareGrid(4, 2)), seed=0)
        >>> u = sim.add_unit((0, 0), goal=(3, 0)); sim.step()
        >>> [o.name for o in unit_debug(sim, u).overlays()]
        ['unit 0 path', 'unit 0 goal', 'unit 0 reserved', 'unit 0 cell']
        """
        from ..render.overlays import Markers, Polyline

        out: list[Overlay] = []
        if len(self.path) > 1:
            out.append(Polyline(list(self.path), color=color, width=0.15, name=f"unit {self.uid} path"))
        if self.goal is not None:
            out.append(Markers([self.goal], color=color, labels=["goal"], radius=0.3, name=f"unit {self.uid} goal"))
        if self.reserved is not None:
            out.append(Markers([self.reserved], color="#ff7f0e", labels=["next"], radius=0.2,
                               name=f"unit {self.uid} reserved"))
        out.append(Markers([self.cell], color="#111111", labels=[f"{self.uid} {self.state}"], radius=0.12,
                           name=f"unit {self.uid} cell"))
        return out

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


def _sim(sim: Any) -> Any:
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
    sim = _sim(sim)
    u = sim.unit(check_int(uid, "uid"))
    path = [u.cell]
    if u.next_cell is not None:
        path.append(u.next_cell)
    path.extend(c for c in u.route if c != path[-1])
    res = sim.occupancy.reservation(u.uid)
    progress = 0.0
    px, py = sim.grid.center(u.cell)
    if u.next_cell is not None and u.step_len:
        progress = min(1.0, u.progress / u.step_len)
        from .smoothing import unwrap_cells

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


def _uids(sim: Any, uids: Sequence[int] | None) -> list[int]:
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
    sim = _sim(sim)
    out: DebugJSON = {"tick": int(sim.tick), "units": [unit_debug(sim, u).to_json() for u in _uids(sim, uids)]}
    json.dumps(out)  # the promise: plain data
    return out


def debug_svg(sim: Any, uids: Sequence[int] | None = None, path: Any = None, *, cell_size: float | None = None) -> str:
    """An SVG picture of the board with every unit's debug overlays, plus a dot at its true sub-cell
    position and a line from there to its reserved cell; also written to ``path`` if given.

    >>> from wargrid import Map, SquareGrid
    >>> from wargrid.rts import Simulation
    >>> sim = Simulation(Map(SquareGrid(5, 3)), seed=0)
    >>> _ = sim.add_unit((0, 1), goal=(4, 1), speed=100); sim.step()
    >>> s = debug_svg(sim); s.count('class="unit-position"'), s.count('class="unit-heading"')
    (1, 1)
    """
    from ..render.geometry import Frame
    from ..render.overlays import palette
    from ..render.scene import default_cell_size
    from ..render.svg import render_svg

    sim = _sim(sim)
    ids = _uids(sim, uids)
    infos = [unit_debug(sim, u) for u in ids]
    colors = palette(max(1, len(infos)))
    overlays: list[Overlay] = []
    for info, col in zip(infos, colors):
        overlays.extend(info.overlays(color=col))
    cs = default_cell_size(sim.grid) if cell_size is None else cell_size
    svg = render_svg(sim.map, overlays=overlays, cell_size=cs)
    frame = Frame.for_grid(sim.grid, cell_size=cs)
    s = frame.scale
    extra = ['<g class="unit-debug">\n']
    for info, col in zip(infos, colors):
        x, y = info.point[0] * s + frame.ox, info.point[1] * s + frame.oy
        if info.reserved is not None:
            rx, ry = sim.grid.center(info.reserved)
            extra.append(
                f'<line class="unit-heading" x1="{x:.2f}" y1="{y:.2f}" x2="{rx * s + frame.ox:.2f}" '
                f'y2="{ry * s + frame.oy:.2f}" stroke="#ff7f0e" stroke-width="{max(1.0, s * 0.06):.2f}"/>\n'
            )
        extra.append(
            f'<circle class="unit-position" data-uid="{info.uid}" cx="{x:.2f}" cy="{y:.2f}" '
            f'r="{max(1.5, s * 0.12):.2f}" fill="{col}" stroke="#000000"/>\n'
        )
    extra.append("</g>\n")
    i = svg.rindex("</svg>")
    svg = svg[:i] + "".join(extra) + svg[i:]
    if path is not None:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(svg)
    return svg
