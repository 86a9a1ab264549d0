"""``wargrid render``: draw a map file as SVG or PNG, with optional path, range, zones and coordinates."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..map import Map
from . import CliError
from ._common import PICTURES, PNG_BYTES_PER_PIXEL, Subparsers, check_memory, check_output, load_map, out_path, parse_cell

if TYPE_CHECKING:
    from ..render.overlays import Overlay


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    p = sub.add_parser("render", help="draw a map file as an SVG or PNG picture",
                       description="Draw MAP (any format wargrid reads) to OUT (.svg or .png) with optional overlays.")
    p.add_argument("map", metavar="MAP", help="map file")
    p.add_argument("out", metavar="OUT", help="picture to write: .svg or .png")
    p.add_argument("--cell-size", type=float, default=None, help="pixels per tile unit (default: fits ~2000 px)")
    p.add_argument("--coordinates", action="store_true", help="write each cell's x,y in it")
    p.add_argument("--no-grid", action="store_true", help="no tile outlines")
    p.add_argument("--path", nargs=2, type=parse_cell, metavar=("START", "GOAL"), help="draw the path between x,y cells")
    p.add_argument("--range", type=parse_cell, metavar="START", help="shade the movement range from x,y")
    p.add_argument("--budget", type=float, default=10.0, help="movement points for --range (default 10)")
    p.add_argument("--zones", action="store_true", help="colour the connectivity zones of --unit")
    p.add_argument("--unit", default=None, help="movement class (default: the terrain table's first)")
    return p


def draw(m: Map, out: str, overlays: list[Overlay], *, cell_size: float | None = None, grid_lines: bool = True) -> None:
    """Write ``m`` with ``overlays`` to ``out`` as SVG or PNG (by extension)."""
    suffix = Path(out).suffix.lower()
    if suffix == ".svg":
        from ..render import render_svg

        render_svg(m, out_path(out), overlays=overlays, cell_size=cell_size, grid_lines=grid_lines)
    elif suffix == ".png":
        from ..render.png import render_png

        render_png(m, out_path(out), overlays=overlays, cell_size=cell_size, grid_lines=grid_lines)
    else:
        raise CliError(f"the picture must end in .svg or .png, got {Path(out).name!r}", 2)


def check_picture_memory(m: Map, cell_size: float | None) -> None:
    """Refuse, before drawing, a PNG picture of ``m`` too big for this machine's memory."""
    from ..render.geometry import Frame
    from ..render.scene import default_cell_size

    frame = Frame.for_grid(m.grid, cell_size=default_cell_size(m.grid) if cell_size is None else cell_size)
    check_memory(frame.width * frame.height * PNG_BYTES_PER_PIXEL, f"a {frame.width}x{frame.height} pixel picture",
                 "Ask for a smaller --cell-size, or an .svg picture.")


def run(args: argparse.Namespace) -> int:
    from ..render import CellValues, Coordinates, Markers, Polyline, Regions

    check_output(args.out, "OUT", PICTURES)
    m = load_map(args.map)
    if Path(args.out).suffix.lower() == ".png":
        check_picture_memory(m, args.cell_size)
    unit = m.unit_class(args.unit)
    overlays: list[Overlay] = []
    if args.zones:
        lab = m.zones(unit=unit)
        _, inv = np.unique(lab, return_inverse=True)
        overlays.append(Regions(np.where(lab >= 0, inv.reshape(lab.shape) - (1 if (lab < 0).any() else 0), -1)))
    if args.range:
        from .range import reach

        cost = reach(m, args.range, args.budget, unit)
        overlays.append(CellValues(np.where(np.isfinite(cost), args.budget - cost, np.inf), low="#fff3b0", high="#1a9850"))
        overlays.append(Markers([args.range]))
    if args.path:
        a, b = args.path
        p = m.path(a, b, unit=unit)
        if p is None:
            raise CliError(f"no path from {a} to {b} for {unit!r}")
        overlays += [Polyline(p.cells), Markers([a, b])]
    if args.coordinates:
        overlays.append(Coordinates())
    draw(m, args.out, overlays, cell_size=args.cell_size, grid_lines=not args.no_grid)
    print(f"wrote {args.out}")
    return 0
