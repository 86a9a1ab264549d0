"""Seeded random boards that look like a strategy-game map.

Coherent value noise (numpy only: additions, products and floors, so the
same seed gives the same board on every machine) makes the height and the
moisture of the land; from them come water, coast, plains, forest, swamp,
hills and mountains. Rivers run downhill from the high ground to the sea as
water cells, with a few fords; roads join towns along cheap ground and
become bridges where they cross a river.

>>> m = generate(24, 16, seed=7)
>>> m.grid
HexGrid(24, 16, orientation='flat', offset='odd-q')
>>> generate(24, 16, seed=7) == m
True
>>> m.count("water") > 0 and m.count("road") > 0
True
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

import numpy as np
from numpy.typing import NDArray

from .errors import ArgumentError, ArgumentTypeError
from ._progress import Progress, ticker
from ._validate import check_choice, check_int, check_positive_int, check_real, check_seed
from .grids.boards import Grid, HexGrid, SquareGrid, StaggeredGrid
from .map import Map
from .terrain import TerrainTable

if TYPE_CHECKING:  # pragma: no cover - typing_extensions has Unpack on Python 3.10 too
    from typing_extensions import Unpack

__all__ = ["generate", "generate_board", "GeneratedBoard", "BoardOptions", "make_grid"]

_Floats = NDArray[np.float64]

BOARD_KINDS = ("hex", "square", "staggered")
"""The board kinds (``kind=``): the one meaning of ``kind`` in the map API (see the glossary)."""
KINDS = BOARD_KINDS


@dataclass(frozen=True)
class GeneratedBoard:
    """A generated map with the towns its roads join (``(x, y)`` cells) and the seed used."""

    map: Map
    towns: tuple[tuple[int, int], ...]
    seed: int


def make_grid(
    width: int,
    height: int,
    *,
    kind: str = "hex",
    orientation: str = "flat",
    offset: str | None = None,
    diagonal: bool = False,
    stagger: str = "columns",
    wrap_x: bool = False,
) -> Grid:
    """The board of ``kind`` ('hex', 'square', 'staggered') with the options that kind takes.

    >>> make_grid(4, 3, kind="square", diagonal=True)
    SquareGrid(4, 3, diagonal=True, corner_rule='no-obstacle')
    """
    check_choice(kind, "kind", KINDS)
    if kind == "hex":
        return HexGrid(width, height, orientation=orientation, offset=offset, wrap_x=wrap_x)
    if kind == "square":
        return SquareGrid(width, height, diagonal=diagonal, wrap_x=wrap_x)
    return StaggeredGrid(width, height, stagger=stagger, wrap_x=wrap_x)


class BoardOptions(TypedDict, total=False):
    """The keyword options of ``generate`` and ``generate_board`` (see ``generate_board``)."""

    kind: str
    seed: int
    orientation: str
    offset: str | None
    diagonal: bool
    stagger: str
    wrap_x: bool
    water: float
    forest: float
    towns: int | None
    rivers: int | None
    progress: Progress


def generate(width: int, height: int, **options: Unpack[BoardOptions]) -> Map:
    """A seeded strategy-game board of ``width`` x ``height`` cells: ``generate_board(...).map``.

    Takes the keyword options of ``generate_board`` (``BoardOptions``).

    Parameters
    ----------
    width, height : int
        Board size in cells.
    **options
        The keyword options of ``generate_board`` (``kind``, ``seed``, ``water``, ``progress`` ...).

    Returns
    -------
    Map

    Examples
    --------
    >>> m = generate(16, 12, kind="square", seed=1)
    >>> m.terrain.shape, sorted(set(m.terrains.names[i] for i in m.terrain.ravel()))[:2]
    ((12, 16), ['coast', 'forest'])
    """
    return generate_board(width, height, **options).map


MAX_GENERATE_CELLS = 1 << 22
"""The largest board ``generate_board`` makes (2048 x 2048): generation takes
about 25 us and 450 bytes a cell (measured at 1024 x 1024), so this is about
two minutes and 2 GB."""

GENERATE_BYTES_PER_CELL = 450


def _check_budget(width: int, height: int) -> None:
    """Refuse, before any work, a board past ``MAX_GENERATE_CELLS`` or than memory can hold."""
    from ._budget import check_memory

    cells = width * height
    if cells > MAX_GENERATE_CELLS:
        raise ArgumentError(
            f"width * height = {width} x {height} = {cells} cells is past the limit of {MAX_GENERATE_CELLS} "
            f"cells for a generated board (about 25 us and {GENERATE_BYTES_PER_CELL} bytes a cell); "
            "generate a smaller board"
        )
    check_memory(GENERATE_BYTES_PER_CELL * cells, what="generate_board", name="width * height", value=cells)


def generate_board(
    width: int,
    height: int,
    *,
    kind: str = "hex",
    seed: int = 0,
    orientation: str = "flat",
    offset: str | None = None,
    diagonal: bool = False,
    stagger: str = "columns",
    wrap_x: bool = False,
    water: float = 0.3,
    forest: float = 0.3,
    towns: int | None = None,
    rivers: int | None = None,
    progress: Progress = True,
) -> GeneratedBoard:
    """A seeded board and its towns.

    ``water`` and ``forest`` are the rough shares of sea and of woodland on
    land (0..0.9); ``towns`` and ``rivers`` default to a number that suits
    the board's size. The terrain table is ``TerrainTable.default()``; roads
    and bridges are overlays; the height of the land is the elevation layer
    (0..1000, with ``climb_cost`` 0 so it does not change movement costs).
    Boards are at most ``MAX_GENERATE_CELLS`` cells (``ArgumentError``), and
    one that memory cannot hold is refused up front (``ResourceError``).

    Parameters
    ----------
    width, height : int
        Board size in cells (``>= 1``; at most ``MAX_GENERATE_CELLS`` together).
    kind : str
        'hex', 'square' or 'staggered'.
    seed : int
        The same seed gives the same board (``>= 0``).
    orientation, offset, diagonal, stagger, wrap_x
        The board kind's options (see ``make_grid``).
    water, forest : float
        Rough shares of sea, and of woodland on land (0..0.9).
    towns, rivers : int, optional
        How many (default: a number that suits the board's size).
    progress : bool or callable
        ``True``: a bar on a terminal for long work; a callable gets ``(done, total)`` steps
        (the land, the rivers, the towns, then one a road); see ``wargrid._progress``.

    Returns
    -------
    GeneratedBoard
        The map, its towns and the seed.

    Raises
    ------
    ValueError
        An option out of range, or a board past ``MAX_GENERATE_CELLS`` (``ArgumentError``).
    TypeError
        A seed that is not a non-negative integer (``ArgumentTypeError``).
    ResourceError
        A board memory cannot hold, refused before any work.

    Examples
    --------
    >>> b = generate_board(20, 14, seed=3, towns=3)
    >>> len(b.towns), b.map.overlay_name(b.towns[0])
    (3, 'road')
    """
    seed_v = check_seed(seed)
    if seed_v is None:
        raise ArgumentTypeError("seed must be a non-negative integer (the same seed gives the same board)")
    width = check_positive_int(width, "width")
    height = check_positive_int(height, "height")
    _check_budget(width, height)
    grid = make_grid(width, height, kind=kind, orientation=orientation, offset=offset, diagonal=diagonal,
                     stagger=stagger, wrap_x=wrap_x)
    water = check_real(water, "water", minimum=0.0)
    forest = check_real(forest, "forest", minimum=0.0)
    if water > 0.9 or forest > 0.9:
        raise ArgumentError(f"water and forest must be in 0..0.9, got water={water}, forest={forest}")
    area = width * height
    n_towns = max(2, min(12, area // 150)) if towns is None else check_int(towns, "towns")
    n_rivers = max(1, min(10, area // 400)) if rivers is None else check_int(rivers, "rivers")
    if n_towns < 0 or n_rivers < 0:
        raise ArgumentError(f"towns and rivers must be >= 0, got towns={n_towns}, rivers={n_rivers}")

    # progress: the land, the rivers, the towns, then one step a road (the most of the work)
    tick = ticker(progress, 3 + max(n_towns - 1, 0), "generate")
    rng = np.random.Generator(np.random.PCG64(seed_v))
    t = TerrainTable.default()
    T = {name: t.index(name) for name in t.names}
    ys, xs = np.mgrid[0:height, 0:width]
    cx, cy = grid.centers_of(xs.ravel(), ys.ravel())
    x0, y0, x1, y1 = grid.bounds()
    span = max(x1 - x0, y1 - y0)
    u = (cx - x0) / span
    v = (cy - y0) / span
    period = (x1 - x0) / span if wrap_x else None

    base = max(2.0, span / 14.0)  # about one hill or lake every 14 tiles
    elev = _fbm(rng, u, v, base, 5, period)
    moist = _fbm(rng, u, v, base * 1.5, 4, period)
    if not wrap_x:  # sea toward the edges: an island or a coast, not a cut-out of a continent
        ex = np.minimum(cx - x0, x1 - cx) / max(x1 - x0, 1e-9)
        ey = np.minimum(cy - y0, y1 - cy) / max(y1 - y0, 1e-9)
        edge = np.minimum(np.minimum(ex, ey) * 8.0, 1.0)
        elev = elev * (0.55 + 0.45 * edge) - 0.25 * (1.0 - edge)
    elev = elev.reshape(height, width)
    moist = moist.reshape(height, width)

    valid = grid.mask
    nb = np.ascontiguousarray(grid.neighbor_ids().T)  # (ndir, size): neighbour ids, -1 for none
    ev = elev[valid]
    sea_level = float(np.quantile(ev, water)) if water > 0 else float(ev.min()) - 1.0
    land = valid & (elev > sea_level)
    lv = elev[land] if land.any() else ev
    hill_level = float(np.quantile(lv, 0.78))
    mount_level = float(np.quantile(lv, 0.93))
    terrain = np.full((height, width), T["plains"], dtype=np.int16)
    terrain[~land] = T["water"]
    terrain[land & (elev > hill_level)] = T["hills"]
    terrain[land & (elev > mount_level)] = T["mountains"]
    low = land & (elev <= hill_level)
    if low.any() and forest > 0:
        forest_level = float(np.quantile(moist[low], 1.0 - forest))
        terrain[low & (moist > forest_level)] = T["forest"]
    wet = land & (elev < sea_level + 0.04 * (mount_level - sea_level)) & (moist > np.quantile(moist[valid], 0.7))
    terrain[wet] = T["swamp"]
    sea = ~land & valid
    coast = land & _touches(nb, sea) & (terrain != T["mountains"])
    terrain[coast] = T["coast"]

    tick(1)
    # rivers: from high ground down to the sea, as water cells with a few fords
    river = np.zeros((height, width), dtype=bool)
    flat_elev = np.where(valid, elev, np.inf).ravel()
    starts = np.flatnonzero((land & (elev > hill_level)).ravel())
    if starts.size:
        picks = rng.permutation(starts)[: n_rivers]
        for s in picks.tolist():
            _run_river(int(s), flat_elev, nb, land.ravel(), river.ravel(), rng)
    river &= land
    terrain[river] = T["water"]
    fords = river & (rng.random((height, width)) < 0.08)
    terrain[fords] = T["ford"]

    tick(2)
    # towns: spread-out dry lowland cells; roads join them along cheap ground
    elevation = np.round((elev - elev[valid].min()) / max(float(np.ptp(elev[valid])), 1e-12) * 1000.0)
    overlay = np.full((height, width), -1, dtype=np.int16)
    good = valid & np.isin(terrain, [T["plains"], T["forest"], T["hills"]])
    town_cells = _place_towns(rng, good, cx.reshape(height, width), cy.reshape(height, width), n_towns)
    road_cost = np.full(t.cost_matrix().shape[0], np.inf)
    for name, c in {"plains": 1.0, "coast": 1.5, "forest": 2.0, "hills": 3.0, "swamp": 4.0, "ford": 3.0,
                    "mountains": 9.0}.items():
        road_cost[T[name]] = c
    cell_cost = road_cost[terrain].ravel()
    cell_cost[river.ravel()] = 6.0  # a bridge is dear: cross rivers seldom
    cell_cost[~valid.ravel()] = np.inf
    on_road = np.zeros(area, dtype=bool)
    first = np.flatnonzero(nb[0] >= 0)
    unit = float(np.min(np.hypot(cx[nb[0, first]] - cx[first], cy[nb[0, first]] - cy[first]))) if first.size else 1.0
    tick(3)
    for k, (a, b) in enumerate(_spanning_pairs(town_cells, cx.reshape(height, width), cy.reshape(height, width))):
        route = _cheapest(nb, np.where(on_road, 0.5, cell_cost), a[1] * width + a[0], b[1] * width + b[0], cx, cy, unit)
        if route is not None:
            on_road[route] = True
        tick(4 + k)
    for x, y in town_cells:
        on_road[y * width + x] = True
    road = on_road.reshape(height, width)
    overlay[road] = T["road"]
    overlay[road & river] = T["bridge"]
    terrain[road & river & (terrain == T["ford"])] = T["water"]
    overlay[road & (terrain == T["water"])] = T["bridge"]

    m = Map(grid, terrain=terrain, terrains=t, overlay=overlay, elevation=elevation)
    tick(tick.total)
    return GeneratedBoard(m, tuple(town_cells), seed_v)


# -- noise ----------------------------------------------------------------------------

def _value_noise(rng: np.random.Generator, u: _Floats, v: _Floats, freq: float, period: float | None) -> _Floats:
    """Smooth value noise in 0..1 with ``freq`` lattice cells per board span."""
    fu = u * freq
    fv = v * freq
    nu = int(np.floor(fu.max())) + 2
    nv = int(np.floor(fv.max())) + 2
    if period is not None:  # make the lattice repeat after the board's width
        nu = max(1, int(round(period * freq)))
        fu = u / period * nu
    lat = rng.random((nv + 1, nu + 1))
    iu = np.floor(fu).astype(np.int64)
    iv = np.floor(fv).astype(np.int64)
    tu = fu - iu
    tv = fv - iv
    su = tu * tu * (3.0 - 2.0 * tu)
    sv = tv * tv * (3.0 - 2.0 * tv)
    if period is not None:
        iu0 = iu % nu
        iu1 = (iu + 1) % nu
    else:
        iu0, iu1 = iu, iu + 1
    a = lat[iv, iu0] * (1.0 - su) + lat[iv, iu1] * su
    b = lat[iv + 1, iu0] * (1.0 - su) + lat[iv + 1, iu1] * su
    return a * (1.0 - sv) + b * sv


def _fbm(rng: np.random.Generator, u: _Floats, v: _Floats, base: float, octaves: int, period: float | None) -> _Floats:
    total = np.zeros_like(u)
    amp, freq, norm = 1.0, base, 0.0
    for _ in range(octaves):
        total += amp * _value_noise(rng, u, v, freq, period)
        norm += amp
        amp *= 0.5
        freq *= 2.0
    return total / norm


# -- neighbours and searches ---------------------------------------------------------

def _touches(nb: NDArray[np.int64], layer: NDArray[np.bool_]) -> NDArray[np.bool_]:
    flat = layer.ravel()
    hit = np.zeros(flat.size, dtype=bool)
    for row in nb:
        hit |= (row >= 0) & flat[np.maximum(row, 0)]
    return hit.reshape(layer.shape)


def _run_river(start: int, elev: _Floats, nb: NDArray[np.int64], land: NDArray[np.bool_], river: NDArray[np.bool_],
               rng: np.random.Generator) -> None:
    """Walk downhill (the lowest unvisited neighbour) until the sea or a dead end."""
    cur = start
    seen = {cur}
    for _ in range(elev.size):
        river[cur] = True
        cand = [int(c) for c in nb[:, cur] if c >= 0 and c not in seen]
        if not cand:
            return
        if any(not land[c] for c in cand):
            return
        jitter = rng.random(len(cand)) * 1e-3
        nxt = cand[int(np.argmin(elev[cand] + jitter))]
        if river[nxt]:  # joined another river
            return
        seen.add(nxt)
        cur = nxt


def _place_towns(rng: np.random.Generator, good: NDArray[np.bool_], cx: _Floats, cy: _Floats, n: int) -> list[tuple[int, int]]:
    """Farthest-point picks among ``good`` cells, starting from a random one."""
    ys, xs = np.nonzero(good)
    if n == 0 or xs.size == 0:
        return []
    px, py = cx[ys, xs], cy[ys, xs]
    first = int(rng.integers(xs.size))
    chosen = [first]
    d = (px - px[first]) ** 2 + (py - py[first]) ** 2
    while len(chosen) < min(n, xs.size):
        i = int(np.argmax(d))
        if d[i] <= 0:
            break
        chosen.append(i)
        d = np.minimum(d, (px - px[i]) ** 2 + (py - py[i]) ** 2)
    return [(int(xs[i]), int(ys[i])) for i in chosen]


_TownPair = tuple[tuple[int, int], tuple[int, int]]


def _spanning_pairs(towns: list[tuple[int, int]], cx: _Floats, cy: _Floats) -> list[_TownPair]:
    """Town pairs of a minimum spanning tree by straight-line distance (Prim), in the order they join the tree.

    Each town outside the tree keeps its nearest town inside (the earliest to join on a tie); the next pair is the
    nearest, ties going to the inside town that joined first, then to the outside town listed first. Quadratic in
    the towns (the search over every inside and outside pair it replaced took 16 s for 200 towns).
    """
    n = len(towns)
    if n < 2:
        return []
    pts = np.array([(cx[y, x], cy[y, x]) for x, y in towns])
    near = ((pts - pts[0]) ** 2).sum(axis=1)  # squared distance to the nearest town in the tree
    via = np.zeros(n, dtype=np.int64)  # that town's place in the order of joining
    order = [0]
    outside = np.ones(n, dtype=bool)
    outside[0] = False
    pairs: list[_TownPair] = []
    while len(order) < n:
        cand = np.flatnonzero(outside)
        j = int(cand[np.lexsort((cand, via[cand], near[cand]))[0]])
        pairs.append((towns[order[int(via[j])]], towns[j]))
        outside[j] = False
        order.append(j)
        d = ((pts - pts[j]) ** 2).sum(axis=1)
        closer = outside & (d < near)
        near[closer] = d[closer]
        via[closer] = len(order) - 1
    return pairs


def _cheapest(nb: NDArray[np.int64], cost: _Floats, a: int, b: int, px: _Floats, py: _Floats, unit: float) -> list[int] | None:
    """A cheap route from ``a`` to ``b`` paying the cost of each cell entered.

    Best-first with the straight-line distance in steps (at plains cost) as the
    guide: not always the cheapest, but a road that goes where a road would.
    """
    bx, by = float(px[b]), float(py[b])
    dist = {a: 0.0}
    prev: dict[int, int] = {}
    heap = [(0.0, 0.0, a)]
    done = set()
    while heap:
        _, d, c = heapq.heappop(heap)
        if c in done:
            continue
        if c == b:
            out = [b]
            while out[-1] != a:
                out.append(prev[out[-1]])
            return out[::-1]
        done.add(c)
        for n in nb[:, c].tolist():
            if n < 0 or n in done:
                continue
            nd = d + float(cost[n])
            if nd < dist.get(n, np.inf):
                dist[n] = nd
                prev[n] = c
                h = ((float(px[n]) - bx) ** 2 + (float(py[n]) - by) ** 2) ** 0.5 / unit
                heapq.heappush(heap, (nd + h, nd, n))
    return None
