"""``wargrid demo``: everything wargrid does, on one generated board, in one HTML page.

Generates a board, then shows a unit's movement range, zones of control, A*
paths for foot and cavalry, connectivity zones, sight, fog and its shroud tools, territories (compact and scattered),
the classic RTS pathfinder, the bridge scenario from ``examples/``, attack
areas, an any-angle path, a unit bigger than one cell, sight over the heightmap and influence maps. Writes SVG and PNG pictures, ``index.html`` with a table of what was computed and how long it
took, and the generated map file. One line of progress per step.
"""

from __future__ import annotations

import argparse
import html
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Callable, TypedDict, cast

import numpy as np

from ..generate import GeneratedBoard
from ..grids.boards import HexGrid
from ..map import Map
from ..movement.fields import MovementRange
from . import CliError
from ._folders import make_folder
from ._common import Progress, StepNote, Subparsers, add_grid_options, grid_options, parse_size, timed, verb_parser

if TYPE_CHECKING:
    from ..render.overlays import Overlay

BUDGET = 12.0

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
"""The checkout's ``examples/`` folder (beside ``src/``; absent when wargrid is installed from a wheel)."""


def load_example(name: str) -> ModuleType | None:
    """The module ``examples/<name>.py`` of the source checkout, or ``None`` when wargrid runs from a wheel.

    >>> load_example("no_such_example") is None
    True
    """
    path = EXAMPLES / f"{name}.py"
    if not (EXAMPLES.parent / "src" / "wargrid").is_dir() or not path.is_file():
        return None
    key = f"wargrid_examples.{name}"
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, path)
    if spec is None or spec.loader is None:  # pragma: no cover - a .py file always has a loader
        return None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[key] = mod  # dataclasses look their module up while the file runs
    try:
        spec.loader.exec_module(mod)
    except BaseException:
        del sys.modules[key]
        raise
    return mod


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    p = verb_parser(sub, "demo", examples=["wargrid demo",
                              "wargrid demo --out my-demo --seed 3 --size 60x40 --kind square --diagonal"],
                    help="generate a board and show what wargrid computes on it (HTML page + pictures)",
                       description=__doc__.split("\n\n")[1] if __doc__ else None)
    p.add_argument("--out", default="wargrid-demo", help="folder to write into (default ./wargrid-demo)")
    p.add_argument("--seed", type=int, default=7, help="board seed (default 7)")
    p.add_argument("--size", type=parse_size, default=(40, 28), help="board size WIDTHxHEIGHT (default 40x28)")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    add_grid_options(p)
    return p


class _Item(TypedDict):
    """One picture or result on the page."""

    name: str
    title: str
    text: str
    files: list[str]


class _Demo:
    board: GeneratedBoard  # set by the first step
    m: Map

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.out = Path(args.out)
        self.items: list[_Item] = []  # one per picture / result on the page
        self.trail: list[tuple[int, int]] | None = None  # the foot path, walked by the fog scout
        self.pair: tuple[tuple[int, int], tuple[int, int]] | None = None  # start and goal of the paths

    def picture(self, name: str, title: str, overlays: list[Overlay], text: str, board: Map | None = None,
                png: bool = False) -> None:
        from ..render import render_svg

        m = self.m if board is None else board
        render_svg(m, self.out / f"{name}.svg", overlays=overlays, title=title)
        files = [f"{name}.svg"]
        if png:
            try:
                from ..render.png import render_png
            except ImportError:
                pass
            else:
                from ..render.scene import default_cell_size

                render_png(m, self.out / f"{name}.png", overlays=overlays,
                           cell_size=min(14.0, default_cell_size(m.grid)))
                files.append(f"{name}.png")
        self.items.append({"name": name, "title": title, "text": text, "files": files})


def run(args: argparse.Namespace) -> int:
    from ..generate import generate_board
    from ..render import CellMask, CellValues, Coordinates, Markers, Polyline, Regions

    if args.seed < 0:
        raise CliError(f"--seed must be >= 0, got {args.seed}", 2)
    out = Path(args.out)
    try:
        make_folder(out)
    except OSError as exc:
        raise CliError(f"cannot create the output folder {out}: {exc.strerror or exc}") from None
    d = _Demo(args)
    w, h = args.size
    steps: list[tuple[str, Callable[[StepNote], None]]] = []

    def gen(note: StepNote) -> None:
        d.board = timed(note, generate_board, w, h, seed=args.seed, **grid_options(args))
        d.m = d.board.map
        note["note"] = f"{d.m.grid!r}, {len(d.board.towns)} towns"

    def save(note: StepNote) -> None:
        from ..io.native import save_map

        save_map(d.m, out / "board.wargrid.json")
        note["note"] = "board.wargrid.json"

    def board_picture(note: StepNote) -> None:
        towns = Markers(d.board.towns, color="#222222", labels=[f"T{i}" for i in range(len(d.board.towns))])
        d.picture("board", "The generated board", [towns],
                  f"{w} x {h} {d.m.grid.kind} board, seed {args.seed}: terrain, rivers, roads and bridges, towns.", png=True)

    def coords(note: StepNote) -> None:
        from ..generate import generate

        small = generate(12, 8, seed=args.seed, kind="hex", orientation=args.orientation, offset=args.offset)
        hexes = cast(HexGrid, small.grid)
        d.picture("coordinates", "Hex cells and their (x, y) coordinates", [Coordinates()],
                  f"A 12 x 8 {hexes.orientation}-top hex board ({hexes.offset}); "
                  "each cell shows its (x, y) = (column, row).", board=small)

    steps += [("generate the board", gen), ("save the map file", save), ("draw the board", board_picture),
              ("draw hex coordinates", coords)]

    def start_goal() -> tuple[tuple[int, int], tuple[int, int]]:
        """The two towns farthest apart that a foot unit can travel between."""
        if d.pair is not None:
            return d.pair
        towns = list(d.board.towns)
        g = d.m.grid
        best = None
        for i, a in enumerate(towns):
            for b in towns[i + 1:]:
                dist = g.distance(a, b)
                if best is None or dist > best[0]:
                    if d.m.connected(a, b, unit="foot"):
                        best = (dist, a, b)
        if best is None:
            cells = list(zip(*np.nonzero(np.isfinite(d.m.costs(unit="foot")))))
            if len(cells) < 2:
                raise CliError("the generated board has no land to walk on; try another --seed")
            (y0, x0), (y1, x1) = cells[0], cells[-1]
            best = (0, (int(x0), int(y0)), (int(x1), int(y1)))
        d.pair = (best[1], best[2])
        return d.pair

    def move_range(note: StepNote) -> None:
        start, _ = start_goal()
        cost = _range_cost(timed(note, d.m.movement_range, start, BUDGET, unit="foot"))
        left = np.where(np.isfinite(cost), BUDGET - cost, np.inf)
        n = int(np.isfinite(cost).sum())
        note["note"] = f"{n} cells"
        d.picture("range", f"Movement range: foot, {BUDGET:g} points", [
            CellValues(left, low="#f3e8ff", high="#6a1b9a", alpha=0.7, name="points left"),
            Regions(np.where(np.isfinite(cost), 0, -1), alpha=0.0, name="range border"),
            Markers([start], color="#000000", labels=["unit"])],
            f"A foot unit at {start} with {BUDGET:g} movement points reaches {n} cells; darker = more points left.",
            png=True)

    def zoc(note: StepNote) -> None:
        start, _ = start_goal()
        free_cost = _range_cost(timed(note, d.m.movement_range, start, BUDGET, unit="foot"))
        # two enemy units a few steps away, on cells the free range reaches
        g = d.m.grid
        cand = [c for c in g.cells() if np.isfinite(free_cost[c[1], c[0]]) and 3 <= g.distance(start, c) <= 4]
        if not cand:
            note["note"] = "skipped: no room for enemies near the unit"
            return
        # enemies stand where they cut most: amid the cells the unit could reach
        cand.sort(key=lambda c: -sum(np.isfinite(free_cost[y, x]) for x, y in g.neighbors(c)))
        enemies = [cand[0]]
        far = [c for c in cand if g.distance(c, enemies[0]) >= 3]
        if far:
            enemies.append(far[0])
        cost = _range_cost(timed(note, d.m.movement_range, start, BUDGET, unit="foot", enemies=enemies))
        zone = np.zeros(d.m.shape, dtype=bool)
        for e in enemies:
            for x, y in g.neighbors(e):
                zone[y, x] = True
        n_free, n_held = int(np.isfinite(free_cost).sum()), int(np.isfinite(cost).sum())
        note["note"] = f"{n_held} cells with enemies near, {n_free} without"
        left = np.where(np.isfinite(cost), BUDGET - cost, np.inf)
        d.picture("zoc", "Zones of control", [
            CellValues(left, low="#f3e8ff", high="#6a1b9a", alpha=0.7, name="points left"),
            CellMask(zone, color="#d62728", alpha=0.45, name="zones of control"),
            Markers(enemies, color="#d62728", labels=["enemy"] * len(enemies)),
            Markers([start], color="#000000", labels=["unit"])],
            f"The same foot unit with two enemies near: it must stop on entering a cell next to an enemy (red), "
            f"so it reaches {n_held} cells instead of {n_free}.", png=True)

    def paths(note: StepNote) -> None:
        a, b = start_goal()
        ovs: list[Overlay] = []
        lines: list[str] = []
        for unit, color, width in (("foot", "#d62728", 0.45), ("cavalry", "#1f3fbf", 0.2)):
            before = note["compute"] or 0.0
            p = timed(note, d.m.path, a, b, unit=unit)
            dt = (note["compute"] or 0.0) - before
            if p is None:
                lines.append(f"{unit}: no path")
                continue
            ovs.append(Polyline(p.cells, color=color, width=width, name=f"path {unit}"))
            if unit == "foot":
                d.trail = p.cells
            lines.append(f"{unit} ({'wide red' if unit == 'foot' else 'thin blue'} line): {len(p.cells)} cells, cost {p.cost:g}, {dt * 1000:.1f} ms")
        note["note"] = "; ".join(l.split(" (")[0] + l.split(")")[-1] for l in lines)
        ovs.append(Markers([a, b], labels=["from", "to"]))
        d.picture("paths", "A* paths: foot vs cavalry", ovs,
                  f"From {a} to {b}. Cavalry is fast on plains and roads but slow in forest. " + "; ".join(lines) + ".",
                  png=True)

    def zones(note: StepNote) -> None:
        land = timed(note, d.m.zones, unit="wheeled")
        sea = timed(note, d.m.zones, unit="naval")
        _, land = np.unique(land, return_inverse=True)
        _, sea = np.unique(sea, return_inverse=True)
        land = land.reshape(d.m.shape) - (1 if (d.m.zones(unit="wheeled") < 0).any() else 0)
        sea = sea.reshape(d.m.shape) - (1 if (d.m.zones(unit="naval") < 0).any() else 0)
        n_land = int(land.max()) + 1
        lab = np.where(land >= 0, land, np.where(sea >= 0, sea + n_land, -1))
        n_sea = int(lab.max()) + 1 - n_land
        note["note"] = f"{n_land} land zones (wheeled), {n_sea} water zones (naval)"
        d.picture("zones", "Connectivity zones: wheeled units and ships", [Regions(lab, alpha=0.4)],
                  f"Each colour is an area a unit cannot leave: {n_land} for wheeled units (they cross neither "
                  f"water, swamp, fords nor mountains) and {n_sea} for ships (each lake is its own). "
                  "A path query between two zones answers 'no path' at once.", png=True)

    def sight(note: StepNote) -> None:
        start, _ = start_goal()
        seen = timed(note, d.m.fov, start, radius=8)
        note["note"] = f"{int(seen.sum())} cells seen"
        d.picture("sight", "Field of view (radius 8)", [CellMask(~seen & d.m.grid.mask, color="#000000", alpha=0.55),
                                                         Markers([start], labels=["eye"])],
                  f"What a unit at {start} sees within 8 cells; forest and mountains block sight; the rest is darkened.",
                  png=True)

    def fog(note: StepNote) -> None:
        trail = d.trail
        if trail is None:
            note["note"] = "skipped: no path to walk"
            return

        def march() -> tuple[np.ndarray, np.ndarray]:
            f = d.m.fog(["red", "blue"], radius=4)
            f.place("scout", "red", trail[0])
            for c in trail[1:]:
                f.move("scout", c)
            return f.visible("red"), f.explored("red")

        vis, exp = timed(note, march)
        note["note"] = f"{int(vis.sum())} visible, {int(exp.sum())} explored"
        d.picture("fog", "Fog of war after a scout's march", [
            CellMask(~exp & d.m.grid.mask, color="#000000", alpha=0.8, name="unexplored"),
            CellMask(exp & ~vis, color="#ffffff", alpha=0.45, name="explored, not in sight"),
            Markers([trail[-1]], color="#d62728", labels=["scout"])],
            f"A red scout (sight 4) walked the foot path; black: never seen, pale: seen before, clear: in sight now.",
            png=True)

    def territories(note: StepNote) -> None:
        players = 4
        lab = timed(note, d.m.partition, players, unit="foot", seed=args.seed).owners
        sizes = [int((lab == i).sum()) for i in range(players)]
        note["note"] = f"{players} players, cells {sizes}"
        d.picture("territories", "Territories: the land split between 4 players", [Regions(lab, alpha=0.45)],
                  f"The land foot units can stand on, divided into {players} compact, balanced territories "
                  f"(cells each: {', '.join(map(str, sizes))}).", png=True)

    def scattered(note: StepNote) -> None:
        players, cap = 4, 4
        rep = timed(note, d.m.partition, players, mode="scattered", max_chunk=cap, unit="foot", seed=args.seed)
        hist = rep.report.chunk_histogram
        counts = ", ".join(f"{int(hist[k])} of {k}" for k in range(1, len(hist)) if hist[k])
        note["note"] = f"{int(hist.sum())} chunks, mean {rep.report.mean_chunk:.2f} cells"
        d.picture("scattered", f"Scattered territories: chunks of at most {cap} cells", [Regions(rep.owners, alpha=0.85, colors=["#e41a1c", "#377eb8", "#4daf4a", "#ffd92f"])],
                  f"The same land split between {players} players in scattered chunks of up to {cap} touching cells "
                  f"(outlined), balanced exactly: chunks {counts}.", png=True)

    def shroud(note: StepNote) -> None:
        trail = d.trail
        if trail is None:
            note["note"] = "skipped: no path to walk"
            return
        g = d.m.grid

        def tools() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            f = d.m.fog(["red", "blue"], radius=4)
            f.place("scout", "red", trail[0])
            for c in trail[1:]:
                f.move("scout", c)
            spy = np.zeros(g.shape, dtype=bool)  # a spy's map of the far corner
            spy[: g.height // 3, -(g.width // 4):] = True
            f.reveal("red", spy)
            gap = np.zeros(g.shape, dtype=bool)  # a gap generator over the start of the march
            x0, y0 = trail[0]
            gap[max(0, y0 - 4):y0 + 5, max(0, x0 - 4):x0 + 5] = True
            f.shroud("red", gap)
            return f.explored("red"), f.shroud_edge("red"), gap

        exp, edge, gap = timed(note, tools)
        note["note"] = f"{int((edge > 0).sum())} edge cells"
        d.picture("shroud", "Shroud tools: a spy's map, a gap generator and the shroud's edge", [
            CellMask(~exp & g.mask, color="#000000", alpha=0.8, name="unexplored"),
            CellMask(gap & ~exp, color="#7b3294", alpha=0.35, name="re-shrouded"),
            CellMask(edge > 0, color="#ff7f00", alpha=0.6, name="shroud edge"),
            Markers([trail[-1]], color="#d62728", labels=["scout"])],
            "The scout's march, plus a spy's map of the top right corner (revealed) and a gap generator over the "
            "start (purple: explored again only where the scout sees now). Orange: known cells that border unknown "
            "ones; each carries a bit mask of the directions of its unknown neighbours (8 on square boards, 6 on "
            "hex boards), from which a renderer picks its edge tiles.", png=True)

    def rts(note: StepNote) -> None:
        b = generate_board(w, h, seed=args.seed, kind="square", diagonal=True)
        sq = b.map
        towns = list(b.towns)
        pairs = [(a, c) for i, a in enumerate(towns) for c in towns[i + 1:] if sq.connected(a, c, unit="tracked")]
        if not pairs:
            note["note"] = "skipped: no two towns joined by land"
            return
        a, c = max(pairs, key=lambda pr: sq.grid.distance(*pr))
        best = timed(note, sq.path, a, c, unit="tracked")
        if best is None:  # the towns were chosen connected: not expected
            note["note"] = f"skipped: no A* path from {a} to {c}"
            return
        before = note["compute"] or 0.0
        classic = timed(note, sq.classic_path, a, c, unit="tracked")
        t_classic = (note["compute"] or 0.0) - before
        note["note"] = f"A* cost {best.cost:g}; classic cost {classic.cost:g} ({classic.outcome}) in {t_classic * 1000:.1f} ms"
        d.picture("rts", "RTS: the classic pathfinder against A*", [
            Polyline(best.cells, color="#1f3fbf", width=0.45, name="A*"),
            Polyline(classic.cells, color="#ff7f0e", width=0.2, name="classic"),
            Markers([a, c], labels=["from", "to"])],
            f"On a square board with 8 directions (same seed), tracked units from {a} to {c}: optimal A* "
            f"(wide blue, cost {best.cost:g}) and the classic RTS pathfinder -- straight line, wall following, "
            f"move optimiser (thin orange, cost {classic.cost:g}, {classic.outcome}).", board=sq, png=True)

    def bridge(note: StepNote) -> None:
        example = load_example("bridge_scenario")
        if example is None:
            note["note"] = "skipped: the bridge scenario is examples/bridge_scenario.py, which needs the source checkout"
            return
        sc = timed(note, example.bridge_scenario, seed=args.seed)
        name = "bridge"
        sc.picture(str(out / f"{name}.svg"))
        splits = [z for z in sc.zones_changed if len(z["new"]) > len(z["old"])]
        note["note"] = (f"bridge down at tick {sc.destroyed_at}; tank {sc.tank_state}; "
                        f"zones split for {', '.join(z['unit'] for z in splits) or 'no class'}")
        d.items.append({"name": name, "title": "RTS: a bridge is destroyed under a tank's route", "files": [f"{name}.svg"],
                        "text": f"A tank drives from {sc.start} to {sc.goal} over the bridge at {sc.bridge[0]}. At tick "
                                f"{sc.destroyed_at} the bridge is destroyed: the map fires its events, the connectivity zones "
                                f"split ({len(splits)} class(es)), and the tank replans through the ford at {sc.ford[0]} "
                                f"(first route {len(sc.route_before)} cells, new route {len(sc.route_after)} cells). "
                                f"A truck cannot ford: {sc.truck_state} ({sc.truck_reason})."})

    def areas(note: StepNote) -> None:
        fn = d.m.area
        g = d.m.grid
        land = [t for t in d.board.towns if np.isfinite(d.m.costs(unit="foot")[t[1], t[0]])] or [start_goal()[0]]
        start = min(land, key=lambda t: (t[0] - g.width / 2) ** 2 + (t[1] - g.height / 2) ** 2)
        # face the cone where it reaches most: the direction a player would pick
        cones = [fn("cone", start, direction=k, length=6, width=1, mask="sight") for k in range(d.m.grid.ndir)]
        best = max(range(len(cones)), key=lambda k: len(cones[k].cells))
        cone = timed(note, fn, "cone", start, direction=best, length=6, width=1, mask="sight")
        full = fn("cone", start, direction=best, length=6, width=1)
        ring = fn("ring", start, radius=3)
        cross = fn("cross", start, length=2)
        note["note"] = (f"cone {len(cone.cells)} of {len(full.cells)} cells in sight, "
                        f"ring {len(ring.cells)}, cross {len(cross.cells)}")
        d.picture("areas", "Attack areas: a cone masked by sight, a ring and a cross", [
            CellMask(full.mask & ~cone.mask, color="#d62728", alpha=0.2, name="cone, out of sight"),
            CellMask(cone.mask, color="#d62728", alpha=0.55, name="cone"),
            CellMask(ring.mask, color="#1f3fbf", alpha=0.35, name="ring"),
            CellMask(cross.mask, color="#ffbf00", alpha=0.5, name="cross"),
            Markers([start], labels=["origin"])],
            f"From {start}: a 6-cell cone toward direction {best}; the part the origin can see is strong red, "
            "the part hidden by forest or mountains pale red; "
            "the ring at radius 3 (blue) and a cross along the board's axes (yellow).", png=True)

    def smooth(note: StepNote) -> None:
        if d.pair is None:
            note["note"] = "skipped: no start and goal"
            return
        a, b = d.pair
        grid_path = d.m.path(a, b, unit="foot")
        if grid_path is None:
            note["note"] = "skipped: no foot path"
            return
        sp = timed(note, d.m.smooth_path, grid_path, unit="foot")
        aa = d.m.any_angle_path(a, b, unit="foot") if not d.m.grid.wrap_x else None
        legs = [Polyline(grid_path.cells, color="#888888", width=0.2, name="grid path"),
                Polyline(list(sp.cells), color="#d62728", width=0.35, name="smoothed")]
        if aa is not None:
            legs.append(Polyline(list(aa.cells), color="#1f3fbf", width=0.25, name="any-angle (Theta*)"))
        any_note = f", Theta* cost {aa.cost:.1f} in {len(aa.cells)} waypoints" if aa is not None else ""
        note["note"] = (f"{len(grid_path.cells)} cells -> {len(sp.cells)} waypoints, length {sp.length:.1f}, "
                        f"cost {sp.cost:.1f} <= grid {sp.grid_cost:.1f}{any_note}")
        d.picture("smooth", "Any-angle path: the foot path pulled straight where it costs no more", [
            *legs, Markers([a, b], labels=["from", "to"])],
            f"The foot path ({len(grid_path.cells)} cells, cost {sp.grid_cost:.1f}, grey) pulled into "
            f"{len(sp.cells)} straight legs (red, cost {sp.cost:.1f}) wherever the straight line stays on ground foot "
            "soldiers can cross and costs no more than the stretch it replaces"
            + (f"; blue: the any-angle search (Theta*) over terrain costs, cost {aa.cost:.1f}." if aa else "."),
            png=True)

    def big_unit(note: StepNote) -> None:
        from ..movement.clearance import footprint

        a, b = start_goal()
        g = d.m.grid
        clear = timed(note, d.m.clearance, unit="foot")
        room = list(zip(*np.nonzero(clear >= 2)))
        if not room:
            note["note"] = "no cell has room for a 2-cell unit on this board"
            return
        a2 = min(((int(x), int(y)) for y, x in room), key=lambda c: g.distance(a, c))
        reach = d.m.movement_range(a2, 1e9, unit="foot", size=2)
        b2 = min(reach.cells(), key=lambda c: g.distance(b, c))
        big = timed(note, d.m.path, a2, b2, unit="foot", size=2)
        small = d.m.path(a2, b2, unit="foot")
        assert big is not None and small is not None  # b2 was taken from the big unit's range
        covered = np.zeros(d.m.shape, dtype=bool)
        for c in big.cells:
            for x, y in footprint(g, c, 2):
                covered[y, x] = True
        shape = "2 x 2 block" if g.kind == "square" else "7-hex ball"
        note["note"] = f"size 2 ({shape}): cost {big.cost:g} vs {small.cost:g} for one cell"
        d.picture("big_unit", "A unit bigger than one cell: clearance and its path", [
            CellValues(np.where(clear > 0, np.minimum(clear, 6), np.nan).astype(float), low="#f7fbff", high="#08306b",
                       alpha=0.55, name="clearance"),
            CellMask(covered, color="#d62728", alpha=0.35, name="footprint along the path"),
            Polyline(small.cells, color="#888888", width=0.2, name="one-cell path"),
            Polyline(big.cells, color="#d62728", width=0.35, name="size-2 path"),
            Markers([a2, b2], labels=["from", "to"])],
            f"Blue: clearance for foot units (the largest unit that fits with its anchor on the cell; darker = more "
            f"room). A size-2 foot unit ({shape}) from {a2} to {b2} (red, its footprint shaded; cost {big.cost:g}) "
            f"keeps out of gaps a one-cell unit takes (grey, cost {small.cost:g}).", png=True)

    def heightmap_sight(note: StepNote) -> None:
        g = d.m.grid
        elev = d.m.elevation
        land = np.isfinite(d.m.costs(unit="foot")) & g.mask & ~d.m.blocks_sight()
        if elev is None or not land.any():
            note["note"] = "no elevation layer on this board"
            return
        y, x = np.unravel_index(int(np.argmax(np.where(land, elev, -np.inf))), elev.shape)
        eye = (int(x), int(y))
        radius = max(4, min(12, max(g.width, g.height) // 3))
        plain = d.m.fov(eye, radius=radius)
        seen = timed(note, d.m.fov, eye, radius=radius, elevation="heightmap", viewer_height=20.0, cover_height=40.0)
        note["note"] = f"{int(seen.sum())} cells seen over the heightmap, {int(plain.sum())} by the plain rules"
        d.picture("heightmap_sight", "Sight over the heightmap, from the highest hill", [
            CellMask(~seen & g.mask, color="#000000", alpha=0.55, name="hidden by the ground"),
            CellMask(seen & ~plain, color="#2ca02c", alpha=0.45, name="seen only from the height"),
            Markers([eye], labels=["eye"])],
            f"An eye 20 units above the highest open land cell {eye} (elevation {elev[eye[1], eye[0]]:g} of 0..1000), "
            f"radius {radius}: a cell is seen when the straight line to its ground clears every tile between; forest "
            f"and mountains stand 40 units above their ground. Dark: hidden; green: seen from the height but not by "
            f"the plain sight rules. "
            f"{int(seen.sum())} cells against {int(plain.sum())}.", png=True)

    def influence(note: StepNote) -> None:
        g = d.m.grid
        land = [t for t in d.board.towns if np.isfinite(d.m.costs(unit="foot")[t[1], t[0]])]
        if len(land) < 2:
            land = list(start_goal())
        sides = ["west" if t[0] < g.width / 2 else "east" for t in land]
        if len(set(sides)) < 2:
            sides[-1] = "east" if sides[-1] == "west" else "west"
        units = [(t, s, 1.0 / sides.count(s)) for t, s in zip(land, sides)]  # each side's towns weigh 1 in all
        radius = 0.75 * max(g.width, g.height) * d.m.cost_field(unit="foot").min_cost
        inf = timed(note, d.m.influence, units, radius=radius, unit="foot")
        note["note"] = (f"{len(units)} towns, {int(inf.frontier.sum())} frontier cells, "
                        f"{int(inf.contested.sum())} contested")
        d.picture("influence", "Influence maps: who holds the ground", inf.overlays(),
                  f"Each town is a unit of the side of the board it stands on ({', '.join(map(str, inf.teams))}; a side's towns weigh 1 in all); "
                  f"influence falls off linearly with the foot path cost up to {radius:g}. Colours: the team with the "
                  f"most influence (borders are the front: {int(inf.frontier.sum())} frontier cells); dark: contested "
                  f"cells where the second team has at least half the first's influence.", png=True)

    steps += [("movement range", move_range), ("zones of control", zoc), ("A* paths foot vs cavalry", paths), ("connectivity zones", zones),
              ("sight", sight), ("fog of war", fog), ("shroud tools", shroud), ("territories", territories),
              ("scattered territories", scattered),
              ("RTS pathfinder", rts), ("RTS bridge scenario", bridge), ("attack areas", areas),
              ("any-angle path", smooth), ("big unit (clearance)", big_unit),
              ("heightmap sight", heightmap_sight), ("influence maps", influence)]

    prog = Progress(len(steps) + 1, quiet=args.quiet)
    if not args.quiet:
        print(f"wargrid demo: writing into {out.resolve()}")
        print("(kernels compile on first use and are cached on disk: the first run is slower)")
    with prog.run():
        for name, fn in steps:
            with prog.step(name) as note:
                try:
                    fn(note)
                except CliError:
                    raise
                except Exception as exc:  # one capability failing must not hide the others
                    if name in ("generate the board",):
                        raise
                    note["note"] = f"failed: {type(exc).__name__}: {exc}"
        with prog.step("write index.html") as note:
            _write_html(out, d, prog.rows, args)
            note["note"] = "index.html"
    page = (out / "index.html").resolve()
    print(f"open {page}" if not args.quiet else str(page))
    return 0


def _range_cost(r: MovementRange) -> np.ndarray:
    """``(height, width)`` cost to reach each cell the unit can end its move on (``inf`` elsewhere)."""
    return np.where(r.reachable, r.cost, np.inf)


def _write_html(out: Path, d: _Demo, rows: list[tuple[str, float, StepNote]], args: argparse.Namespace) -> None:
    from .._files import atomic_write

    e = html.escape
    def ms(v: float | None) -> str:
        return "" if v is None else f"{v * 1000:.1f} ms"

    table = "\n".join(
        f"<tr><td>{e(n)}</td><td class=num>{ms(note['compute'])}</td><td class=num>{ms(t)}</td>"
        f"<td>{e(note['note'])}</td></tr>"
        for n, t, note in rows
    )
    figs = []
    for it in d.items:
        links = " ".join(f'<a href="{e(f)}">{e(f)}</a>' for f in it["files"])
        figs.append(
            f'<figure><figcaption><h2>{e(it["title"])}</h2><p>{e(it["text"])}</p><p>{links}</p></figcaption>'
            f'<img src="{e(it["files"][0])}" alt="{e(it["title"])}"></figure>'
        )
    w, h = args.size
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>wargrid demo</title>
<style>
body {{ font-family: sans-serif; margin: 2em; max-width: 1200px; color: #222; }}
table {{ border-collapse: collapse; }} td, th {{ border-bottom: 1px solid #ddd; padding: 4px 10px; text-align: left; }}
td.num {{ text-align: right; font-variant-numeric: tabular-nums; }}
figure {{ margin: 2em 0; }} img {{ max-width: 100%; border: 1px solid #ccc; }}
</style></head><body>
<h1>wargrid demo</h1>
<p>A {w} x {h} {e(args.kind)} board generated with seed {args.seed}. "computing" is the time
wargrid spent on the query (the first run includes compiling kernels); the rest of a step is drawing and writing files. Run again with
<code>wargrid demo --seed N --size WxH --kind hex|square|staggered</code>.</p>
<h2>What was computed</h2>
<table><tr><th>step</th><th>computing</th><th>step in all (with pictures)</th><th>result</th></tr>
{table}
</table>
{''.join(figs)}
</body></html>
"""
    atomic_write(out / "index.html", page)
