"""Influence maps: one Dijkstra bounded by a radius per unit, its strength decayed by path cost, summed per team.

A multi-source Dijkstra per team would give each cell the decayed strength of
the *nearest* unit only; the sum over every unit needs each unit's own
distances, so each unit runs its own search, bounded by ``radius`` (its cost
is the area within the radius, not the board): the movement package's
Dijkstra kernels (the plain one where the board allows), then the decayed
strength is added over the box of cells the radius can reach (no step costs
less than ``min_cost``), and the distances there are reset for the next unit.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from ..bundles import FieldArrays
from ..movement.dijkstra import dijkstra, dijkstra_plain
from ..movement.steps import INF, topo_info
from ..sight.fov import hex_fov, square_fov


@jit
def influence(cell, edge, moves, uniform, min_cost, topo, sources, team, strength, radius, linear, factor,
              sb, sight, heights, square, out):
    """Add every unit's decayed strength to ``out[team * n + p]`` over the padded cells ``p`` within ``radius`` of it.

    ``cell``/``edge``/``topo``: the cost field and topology bundle of the
    movement kernels; ``moves``: the plain kernels' step bits (empty: use the
    general kernel), ``uniform``/``min_cost`` as the cost field says.
    ``sources``: padded ids of the units, ``team`` their team index,
    ``strength`` their strength. A unit adds ``strength * (1 - d / radius)``
    (``linear``) or ``strength * factor ** d`` to each cell at path cost ``d <
    radius`` (``<=`` when not linear). With ``sight`` > 0 a unit adds only to
    the cells in its field of view within ``sight`` cells (``sb``: the sight
    board tuple of ``sight.fov``; ``heights``: each viewer's eye height;
    ``square``: the square kernel, else the hex one). A unit on an impassable
    cell adds its strength to its own cell only. Returns the number of cells
    settled.
    """
    _, _, _, wrap, width, pw, _, _ = topo_info(topo[5])
    n = cell.shape[0]
    height = n // pw - 2
    dist = np.full(n, INF)
    parent = np.empty(n, dtype=np.int32)
    pdir = np.empty(n, dtype=np.int8)
    pos = np.empty(n, dtype=np.int32)
    hf = np.empty(n, dtype=np.float64)
    hid = np.empty(n, dtype=np.int32)
    field = FieldArrays(dist, parent, pdir, pos, hf, hid)  # the searches' own types (FieldArrays, bool flags, int64
    no = np.bool_(False)  # metric): the signatures the movement and sight kernels compile for, not one more each
    stop = np.zeros(0, dtype=np.uint8)
    src = np.empty(1, dtype=np.int64)
    seen = np.zeros(n, dtype=np.int64)
    buf = np.empty(0, dtype=np.int64)
    swidth = sb[3]
    sheight = sb[4]
    swrap = sb[5]
    if sight > 0:
        if square:
            cap = 4 * (sight * sight + 2 * sight) + 1
        else:
            cap = 3 * sight * (sight + 1) + 1
        most = (1 + swrap) * swidth * sheight + 1
        buf = np.empty(cap if cap < most else most, dtype=np.int64)
    reach = width + height  # steps a search can take: every step costs at least min_cost
    if min_cost > 0.0 and radius / min_cost < reach:
        reach = int(radius / min_cost) + 1
    plain = moves.shape[0] > 0
    settled = 0
    for ui in range(sources.shape[0]):
        s = sources[ui]
        base = team[ui] * n
        st = strength[ui]
        if cell[s] == INF:
            out[base + s] += st
            continue
        sx = s % pw - 1
        sy = s // pw - 1
        if sight > 0:
            if square:
                nv = square_fov(sb, sx, sy, heights[ui], np.int64(1), sight, buf)
            else:
                nv = hex_fov(sb, sx, sy, heights[ui], sight, buf)
            for i in range(nv):
                c = buf[i]
                seen[(c // width + 1) * pw + c % width + 1] = ui + 1
        src[0] = s
        if plain:
            settled += dijkstra_plain(cell, moves, uniform, min_cost, src, topo, radius, no, no, field)
        else:
            settled += dijkstra(cell, edge, stop, src, topo, radius, no, field)
        y0 = sy - reach if sy - reach > 0 else 0
        y1 = sy + reach if sy + reach < height - 1 else height - 1
        x0 = sx - reach
        x1 = sx + reach
        if wrap and 2 * reach + 1 >= width:
            x0 = 0
            x1 = width - 1
        elif not wrap:
            x0 = x0 if x0 > 0 else 0
            x1 = x1 if x1 < width - 1 else width - 1
        for y in range(y0, y1 + 1):
            row = (y + 1) * pw + 1
            for vx in range(x0, x1 + 1):
                p = row + (vx % width if wrap else vx)
                d = dist[p]
                if d == INF:
                    continue
                dist[p] = INF
                if sight > 0 and seen[p] != ui + 1:
                    continue
                if linear:
                    if d < radius:
                        out[base + p] += st * (1.0 - d / radius)
                else:
                    out[base + p] += st * factor ** d
    return settled
