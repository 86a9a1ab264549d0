"""The bridge scenario: a tank crosses a battlefield, the bridge on its route is destroyed, it replans.

    python examples/bridge_scenario.py [picture.svg] [--seed N] [--board square|hex|staggered]

Prints what happened (map events, zone splits, the units' decisions) and
draws both routes: red before the bridge fell, blue after, black the way
the tank actually drove. ``wargrid demo`` imports this file and runs
``bridge_scenario``.

A river runs down the middle of the board with two crossings: a bridge in
the north, which every land unit can use, and a ford in the south, which
tracked units can wade but wheeled ones cannot. A tank and a supply truck
head east over the bridge. Half-way there the bridge is shelled: the first
hit leaves it damaged (still crossable, 'bridge_damaged'), the second
destroys it (``Map.damage_bridge``: its overlay is taken off and the river
shows): the map fires 'overlay_changed', the wheeled zones split in two
('zones_changed'), then 'bridge_destroyed' with the zones it split; with no
intact bridge left (``Map.intact_bridges``) the scenario reports "all
bridges destroyed", the tank replans through the ford and the truck reports
that its goal is cut off.

>>> r = bridge_scenario(seed=0)
>>> r.tank_state, r.truck_state, r.all_bridges_destroyed
('arrived', 'stuck', True)
>>> set(r.bridge) <= set(r.route_before), set(r.ford) & set(r.route_after) != set()
(True, True)
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from wargrid import HexGrid, Map, SquareGrid, StaggeredGrid
from wargrid.map import Bridge
from wargrid.render import Markers, Polyline, render_svg
from wargrid.rts import Simulation

__all__ = ["bridge_scenario", "BridgeScenario", "BOARDS", "main"]


@dataclass
class BridgeScenario:
    """What happened: the routes planned before and after the bridge fell, the way driven, and the events seen."""

    map: Map
    start: tuple[int, int]
    goal: tuple[int, int]
    bridge: list[tuple[int, int]]
    ford: list[tuple[int, int]]
    bridge_splits: list[Any]
    route_before: list[tuple[int, int]]
    route_after: list[tuple[int, int]]
    trail: list[tuple[int, int]]
    destroyed_at: int
    tank_state: str
    truck_state: str
    truck_reason: str
    all_bridges_destroyed: bool
    events: list[tuple[int, str, str]] = field(default_factory=list)
    zones_changed: list[dict] = field(default_factory=list)

    def picture(self, path: str | None = None) -> str:
        """An SVG of the battlefield with the route before (red), the route after (blue) and the way driven (black).

        Written to ``path`` when given; the markup is returned.

        >>> bridge_scenario(seed=0).picture().count("<polyline")
        3
        """
        overlays = [
            Polyline(self.route_before, color="#d62728", width=0.3, name="route before"),
            Polyline(self.route_after, color="#1f77b4", width=0.3, name="route after"),
            Polyline(self.trail, color="#111111", width=0.12, name="driven"),
            Markers([self.start, self.goal], color="#111111", labels=["tank", "goal"]),
        ]
        return render_svg(self.map, path, overlays=overlays, title="Bridge destroyed: the tank replans through the ford")


BOARDS = ("square", "hex", "staggered")

BRIDGE_HP = 200.0
"""The bridge's hit points; each shell takes ``SHELL`` off (the second destroys it)."""

SHELL = 120.0
"""Board kinds the scenario can be played on."""


def _whole(v: Any, name: str, minimum: int) -> int:
    """``v`` as an integer ``>= minimum``, or an error naming ``name``."""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {type(v).__name__} {v!r}")
    if v < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {v}")
    return int(v)


def _battlefield(seed: int | None, board: str) -> tuple[Map, Bridge, list[tuple[int, int]]]:
    w, h = 26, 15
    grid = {"square": SquareGrid(w, h, diagonal=True), "hex": HexGrid(w, h), "staggered": StaggeredGrid(w, h)}[board]
    m = Map(grid)
    rng = np.random.default_rng(seed)
    # scattered woods and hills, kept off the river banks and the start and goal
    for name, n in (("forest", 40), ("hills", 20)):
        xs = rng.integers(0, w, n)
        ys = rng.integers(0, h, n)
        cells = [(int(x), int(y)) for x, y in zip(xs, ys) if abs(int(x) - 12.5) > 3 and 2 < int(x) < w - 3]
        if cells:
            m.set_terrain(cells, name)
    river = [(x, y) for y in range(h) for x in (12, 13)]
    m.set_terrain(river, "water")
    ford = [(12, 11), (13, 11)]
    bridge = m.add_bridge([(12, 3), (13, 3)], max_hp=BRIDGE_HP)
    m.set_terrain(ford, "ford")
    return m, bridge, ford


def bridge_scenario(*, seed: int | None = 0, board: str = "square", ticks: int = 2000) -> BridgeScenario:
    """Run the bridge scenario and return what happened.

    ``seed`` places the woods and drives the simulation's tie-breaks;
    ``board`` is 'square' (8 directions), 'hex' or 'staggered'.

    >>> bridge_scenario(seed=3).route_after[-1]
    (23, 4)
    >>> bridge_scenario(seed=1, board="hex").tank_state
    'arrived'
    """
    seed = None if seed is None else _whole(seed, "seed", 0)
    if not isinstance(board, str) or board not in BOARDS:
        raise ValueError(f"board must be one of {', '.join(map(repr, BOARDS))}; got {board!r}")
    ticks = _whole(ticks, "ticks", 1)
    m, bridge, ford = _battlefield(seed, board)
    start, goal = (2, 4), (23, 4)
    events: list[tuple[int, str, str]] = []
    zones: list[dict] = []
    splits: list[Any] = []
    sim = Simulation(m, seed=seed, piece=40)

    def seen(ev: Any) -> None:
        if ev.event.startswith("bridge_"):
            b = ev.data["bridge"]
            detail = f"bridge {b.id} {b.stage} (hp {b.hp:g} of {b.max_hp:g})"
            if ev.event == "bridge_destroyed":
                splits.extend(ev.data["splits"])
                detail += "; zones split: " + ", ".join(f"{s.unit} {s.zone} -> {list(s.parts)}" for s in ev.data["splits"])
        else:
            detail = ", ".join(f"{k}={v}" for k, v in ev.data.items())
        events.append((sim.tick, ev.event, detail))
        if ev.event == "zones_changed":
            zones.append(dict(ev.data))
        if ev.event == "bridge_destroyed" and not m.intact_bridges:
            events.append((sim.tick, "all_bridges_destroyed", "no bridge is left standing"))

    for kind in ("overlay_changed", "terrain_changed", "zones_changed", "bridge_damaged", "bridge_destroyed"):
        m.on(kind, seen)
    m.zones(unit="wheeled")  # follow the wheeled zones from now on
    tank = sim.add_unit(start, unit="tracked", goal=goal, speed=96)
    truck = sim.add_unit((start[0], start[1] + 2), unit="wheeled", goal=(goal[0], goal[1] + 2), speed=96)
    destroyed_at = -1
    all_gone = False
    for _ in range(ticks):
        sim.step()
        if destroyed_at < 0 and sim.get(tank).cell[0] >= 6 and bridge.hp == bridge.max_hp:
            bridge = m.damage_bridge(bridge, SHELL)  # damaged: still crossable
        if destroyed_at < 0 and sim.get(tank).cell[0] >= 8:
            destroyed_at = sim.tick
            bridge = m.damage_bridge(bridge, SHELL)  # the bridge falls into the river
            all_gone = not m.intact_bridges
        if destroyed_at >= 0 and sim.get(tank).state == "arrived" and sim.get(truck).state in ("arrived", "stuck"):
            break
    t = sim.get(tank)
    events += [(e.tick, f"unit {e.uid} {e.what}", e.detail) for e in sim.events]
    events.sort(key=lambda e: e[0])
    sim.close()
    return BridgeScenario(
        map=m,
        start=start,
        goal=goal,
        bridge=list(bridge.cells),
        ford=ford,
        bridge_splits=splits,
        route_before=t.plans[0],
        route_after=t.plans[-1] if len(t.plans) > 1 else t.plans[0],
        trail=list(t.trail),
        destroyed_at=destroyed_at,
        tank_state=t.state,
        truck_state=sim.get(truck).state,
        truck_reason=sim.get(truck).reason,
        all_bridges_destroyed=all_gone,
        events=events,
        zones_changed=zones,
    )


def main(argv: Sequence[str] | None = None) -> None:
    """Run the scenario from the command line: print what happened and draw the picture."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("picture", nargs="?", default="bridge_scenario.svg", help="where to write the SVG")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--board", choices=BOARDS, default="square")
    args = ap.parse_args(argv)
    r = bridge_scenario(seed=args.seed, board=args.board)
    for tick, what, detail in r.events:
        print(f"tick {tick:4}  {what:24} {detail}")
    print(f"route before: {len(r.route_before) - 1} steps over the bridge at {r.bridge}")
    print(f"route after:  {len(r.route_after) - 1} steps from {r.route_after[0]} through the ford at {r.ford}")
    print(f"tank: {r.tank_state}; truck: {r.truck_state} ({r.truck_reason})")
    r.picture(args.picture)
    print(f"picture: {args.picture}")


if __name__ == "__main__":
    main()
