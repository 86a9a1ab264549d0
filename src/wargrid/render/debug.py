"""``debug_svg``: a picture of an RTS simulation that explains every unit (``wargrid.rts.debug`` gives the data).

Each unit is drawn with its cached path, goal and reserved cell
(``overlays_for(UnitDebug)``), a dot at its true sub-cell position and a line
from there to the cell it has reserved.
"""

from __future__ import annotations

from typing import Any, Sequence

from .._files import atomic_write
from ..rts.debug import check_simulation, debug_uids, unit_debug
from .geometry import Frame
from .overlays import Overlay, palette
from .results import overlays_for
from .scene import default_cell_size
from .svg import render_svg

__all__ = ["debug_svg"]


def debug_svg(sim: Any, uids: Sequence[int] | None = None, path: Any = None, *, cell_size: float | None = None) -> str:
    """An SVG picture of the board with every unit's debug overlays, plus a dot at its true sub-cell
    position and a line from there to its reserved cell; also written to ``path`` if given.

    >>> from wargrid import Map, SquareGrid
    >>> from wargrid.rts import Simulation
    >>> from wargrid.render import debug_svg
    >>> sim = Simulation(Map(SquareGrid(5, 3)), seed=0)
    >>> _ = sim.add_unit((0, 1), goal=(4, 1), speed=100); sim.step()
    >>> s = debug_svg(sim); s.count('class="unit-position"'), s.count('class="unit-heading"')
    (1, 1)
    """
    sim = check_simulation(sim)
    infos = [unit_debug(sim, u) for u in debug_uids(sim, uids)]
    colors = palette(max(1, len(infos)))
    overlays: list[Overlay] = []
    for info, col in zip(infos, colors):
        overlays.extend(overlays_for(info, color=col))
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
        atomic_write(path, svg)
    return svg
