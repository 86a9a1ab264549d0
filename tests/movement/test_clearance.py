"""Units bigger than one cell: clearance maps, footprint cost fields and paths, against brute-force oracles.

The oracles here know nothing of the kernels: a footprint is written from its
definition (a ``k x k`` block anchored at the top-left on square boards, the
hex ball of radius ``k - 1`` in cube coordinates on hex boards), it fits when
every one of its cells is on the board and passable, and the best path is a
plain Dijkstra over the anchors whose footprint fits.
"""

from __future__ import annotations

import heapq
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from wargrid import HexGrid, Map, SquareGrid, StaggeredGrid, hexagon_board
from wargrid.costs import CostField
from wargrid.errors import ArgumentError, ArgumentTypeError, WargridError
from wargrid.grids.boards import HexLikeGrid
from wargrid.grids.hexes import Hex, hex_to_offset, offset_to_hex
from wargrid.grids.square import SQUARE8_DIRECTIONS
from wargrid.movement import shortest_path, movement_range, paths
from wargrid.movement.clearance import clearance_map, footprint, footprint_costs, max_size

from movement_oracle import boards

INF = math.inf


# -- the oracle ------------------------------------------------------------------------------


def geometric_footprint(g, anchor, k):
    """Every cell of the footprint, by definition, before looking at the board (wrap applied)."""
    x, y = anchor
    if isinstance(g, SquareGrid):
        cells = [(x + i, y + j) for j in range(k) for i in range(k)]
    else:
        h = offset_to_hex(x, y, g.offset)
        r = k - 1
        cells = [hex_to_offset(h + Hex(dq, dr), g.offset)
                 for dq in range(-r, r + 1) for dr in range(max(-r, -dq - r), min(r, -dq + r) + 1)]
    return [(cx % g.width if g.wrap_x else cx, cy) for cx, cy in cells]


def on_board(g, c):
    x, y = c
    return 0 <= x < g.width and 0 <= y < g.height and bool(g.mask[y, x])


def fits(g, cost, anchor, k):
    return all(on_board(g, c) and math.isfinite(cost[c[1], c[0]]) for c in geometric_footprint(g, anchor, k))


def oracle_clearance(g, cost):
    out = np.zeros(g.shape, dtype=np.int64)
    for x, y in g.cells():
        k = 0
        while fits(g, cost, (x, y), k + 1):
            k += 1
        out[y, x] = k
    return out


def step_cost(g, cost, edges, a, b, d, length, k):
    """A big unit's step from anchor ``a`` to anchor ``b`` in direction ``d``, or ``None`` when it may not move so."""
    if not (fits(g, cost, a, k) and fits(g, cost, b, k)):
        return None
    if isinstance(g, SquareGrid) and g.diagonal and g.corner_rule != "always":
        dx, dy = SQUARE8_DIRECTIONS[d]
        if dx and dy:
            wx = lambda c: (c[0] % g.width if g.wrap_x else c[0], c[1])  # noqa: E731
            s1 = on_board(g, wx((a[0] + dx, a[1]))) and fits(g, cost, wx((a[0] + dx, a[1])), k)
            s2 = on_board(g, wx((a[0], a[1] + dy))) and fits(g, cost, wx((a[0], a[1] + dy)), k)
            if not ((s1 and s2) if g.corner_rule == "no-obstacle" else (s1 or s2)):
                return None
    sc = length * max(cost[c[1], c[0]] for c in geometric_footprint(g, b, k))
    if edges is not None:
        sc += max(edges[c[1], c[0], d] for c in geometric_footprint(g, a, k))
    return sc if math.isfinite(sc) else None


def oracle_dijkstra(g, cost, edges, start, k):
    dist = {}
    heap = [(0.0, start)]
    while heap:
        d, u = heapq.heappop(heap)
        if u in dist:
            continue
        dist[u] = d
        for s in g.steps(u):
            sc = step_cost(g, cost, edges, u, s.cell, s.direction, s.length, k)
            if sc is not None and s.cell not in dist:
                heapq.heappush(heap, (d + sc, s.cell))
    return dist


def walk_cost(g, cost, edges, cells, k):
    """The cost of walking ``cells`` as a unit of size ``k``, checking every anchor's footprint fits along the way."""
    total = 0.0
    for a, b in zip(cells[:-1], cells[1:]):
        step = [s for s in g.steps(a) if s.cell == b]
        assert step, f"{a} -> {b} is not a step"
        sc = min(c for c in (step_cost(g, cost, edges, a, b, s.direction, s.length, k) for s in step) if c is not None)
        total += sc
    assert len(cells) == 1 or all(fits(g, cost, c, k) for c in cells)  # a path of one cell may start stranded
    return total


# -- clearance -------------------------------------------------------------------------------


@settings(max_examples=150)
@given(boards(max_side=8, edges=False))
def test_clearance_matches_the_footprint_definition(board):
    g, cost, _ = board
    got = clearance_map(g, CostField.from_arrays(g, cost))
    assert got.tolist() == oracle_clearance(g, cost).tolist()


@pytest.mark.parametrize("grid", [
    SquareGrid(6, 5), SquareGrid(6, 5, diagonal=True), HexGrid(7, 6), HexGrid(7, 6, orientation="pointy", offset="even-r"),
    HexGrid(6, 7, offset="even-q"), StaggeredGrid(6, 6), StaggeredGrid(6, 7, stagger="rows"), hexagon_board(3),
    SquareGrid(6, 4, wrap_x=True),
])
def test_footprint_lists_the_definition(grid):
    cost = np.ones(grid.shape)
    for anchor in grid.cells():
        for k in range(1, max_size(grid) + 1):
            want = sorted((c for c in geometric_footprint(grid, anchor, k) if on_board(grid, c)), key=lambda c: (c[1], c[0]))
            assert footprint(grid, anchor, k) == want
            assert (clearance_map(grid, CostField.from_arrays(grid, cost))[anchor[1], anchor[0]] >= k) == fits(grid, cost, anchor, k)


def test_hex_footprints_are_balls():
    g = HexGrid(9, 9)
    assert [len(footprint(g, (4, 4), k)) for k in (1, 2, 3, 4, 5)] == [1, 7, 19, 37, 61]
    assert all(g.distance((4, 4), c) <= 2 for c in footprint(g, (4, 4), 3))
    assert max_size(g) == 5 and max_size(SquareGrid(9, 4)) == 4 and max_size(hexagon_board(3)) == 4


def test_footprint_costs_take_the_dearest_cell():
    g = SquareGrid(4, 3)
    c = np.array([[1.0, 2.0, 1.0, 1.0], [1.0, 1.0, 3.0, 1.0], [1.0, 1.0, 1.0, np.inf]])
    f = footprint_costs(g, CostField.from_arrays(g, c), 2)
    assert f.cells().tolist() == [[2.0, 3.0, 3.0, np.inf], [1.0, 3.0, np.inf, np.inf], [np.inf] * 4]
    assert footprint_costs(g, CostField.from_arrays(g, c), 1).cells().tolist() == c.tolist()


# -- paths and ranges ------------------------------------------------------------------------


@settings(max_examples=200)
@given(boards(max_side=8), st.integers(2, 3), st.data())
def test_big_unit_paths_fit_and_are_optimal(board, k, data):
    g, cost, edges = board
    if k > max_size(g):
        return
    field = CostField.from_arrays(g, cost, edges)
    cells = list(g.cells())
    start = data.draw(st.sampled_from(cells))
    goal = data.draw(st.sampled_from(cells))
    dist = oracle_dijkstra(g, cost, edges, start, k) if fits(g, cost, start, k) else {start: 0.0}
    p = shortest_path(g, field, start, goal, size=k)
    if goal not in dist:
        assert p is None
        return
    assert p is not None and p.cells[0] == start and p.cells[-1] == goal
    assert p.cost == pytest.approx(dist[goal])
    assert walk_cost(g, cost, edges, p.cells, k) == pytest.approx(p.cost)
    r = movement_range(g, field, start, dist[goal], size=k)
    assert r.reachable[goal[1], goal[0]]
    want = {c for c, d in dist.items() if d <= dist[goal] + 1e-9}
    assert set(r.cells()) == want


@settings(max_examples=60)
@given(boards(max_side=9, edges=False, uniform=True), st.data())
def test_uniform_square8_big_paths_agree_with_the_oracle_whatever_the_search(board, data):
    g, cost, _ = board
    if not isinstance(g, SquareGrid) or max_size(g) < 2:
        return
    field = CostField.from_arrays(g, cost)
    cells = list(g.cells())
    pairs = [(data.draw(st.sampled_from(cells)), data.draw(st.sampled_from(cells))) for _ in range(3)]
    got = paths(g, field, pairs, size=2, workers=1)
    for (s, t), p in zip(pairs, got):
        dist = oracle_dijkstra(g, cost, None, s, 2) if fits(g, cost, s, 2) else {s: 0.0}
        assert (p is None) == (t not in dist)
        if p is not None:
            assert p.cost == pytest.approx(dist[t])


def test_map_path_goes_around_a_gap_too_narrow():
    # a wall with a one-cell gap: a 2 x 2 tank goes round by the wide gap at the bottom
    m = Map(SquareGrid(9, 9))
    m.set_terrain([(4, y) for y in range(9) if y not in (2, 6, 7)], "water")
    small = m.path((0, 2), (7, 2), unit="foot")
    big = m.path((0, 2), (7, 2), unit="foot", size=2)
    assert small is not None and big is not None
    assert (4, 2) in small.cells and (4, 6) in big.cells and big.cost > small.cost
    assert all(m.clearance(unit="foot")[y, x] >= 2 for x, y in big.cells)
    assert m.path((0, 0), (7, 0), unit="foot", size=3) is None
    assert m.paths([((0, 2), (7, 2))], unit="foot", size=2)[0].cells == big.cells


def test_map_big_unit_follows_edits_and_hex_layouts():
    for g in (HexGrid(9, 7), HexGrid(9, 7, orientation="pointy", offset="even-r"), StaggeredGrid(9, 7)):
        m = Map(g)
        p = m.path((1, 3), (7, 3), unit="foot", size=2)
        assert p is not None and p.cost == m.path((1, 3), (7, 3), unit="foot").cost  # open ground: as short as one cell's
        m.set_terrain([(4, y) for y in range(7) if y != 3], "water")
        assert m.path((1, 3), (7, 3), unit="foot", size=2) is None  # only one hex wide: a 7-hex unit cannot pass
        assert m.path((1, 3), (7, 3), unit="foot") is not None
        r = m.movement_range((1, 3), 10, unit="foot", size=2)
        assert all(x < 4 for x, _ in r.cells())


def test_movement_range_of_a_big_unit_on_terrain():
    # a hill costing 6 at (3, 0): the 2 x 2 anchors (2, 0) and (3, 0) cover it and pay 6 to enter
    g = SquareGrid(6, 3)
    c = np.ones((3, 6))
    c[0, 3] = 6.0
    f = CostField.from_arrays(g, c)
    r = movement_range(g, f, (0, 0), 20, size=2)
    assert r.cost.tolist() == [[0.0, 1.0, 7.0, 10.0, 6.0, INF], [1.0, 2.0, 3.0, 4.0, 5.0, INF], [INF] * 6]
    p = shortest_path(g, f, (0, 0), (4, 0), size=2)
    assert p.cost == 6.0 and (2, 0) not in p.cells and (3, 0) not in p.cells


@settings(max_examples=40)
@given(boards(max_side=7, edges=False), st.integers(2, 3), st.booleans(), st.data())
def test_big_unit_distances_fields_tables_and_flows_agree_with_the_oracle(board, k, prepared, data):
    g, cost, _ = board
    if k > max_size(g):
        return
    m = Map(g)
    m.set_terrain([c for c in g.cells() if not math.isfinite(cost[c[1], c[0]])], "water")
    if prepared:
        m.prepare(unit="foot", progress=False)  # one cell's structure: a big unit must not use it
    cells = list(g.cells())
    a = data.draw(st.sampled_from(cells))
    want = oracle_dijkstra(g, m.costs(unit="foot"), None, a, k)
    field = m.distance_field(a, unit="foot", size=k)
    table = m.distance_table([a], cells, unit="foot", size=k)
    flow = m.flow_field(a, unit="foot", size=k)
    for j, b in enumerate(cells):
        w = want.get(b, INF) if fits(g, m.costs(unit="foot"), a, k) else (0.0 if b == a else INF)
        assert math.isclose(field[b[1], b[0]], w) or field[b[1], b[0]] == w
        assert math.isclose(table[0, j], w) or table[0, j] == w
        assert math.isclose(m.distance(a, b, unit="foot", size=k), w) or m.distance(a, b, unit="foot", size=k) == w
        back = oracle_dijkstra(g, m.costs(unit="foot"), None, b, k).get(a, INF) if fits(g, m.costs(unit="foot"), b, k) else INF
        if b != a and math.isfinite(back):  # the flow from b leads to a at the big unit's cost
            p = flow.path_from(b)
            assert p is not None and p.cells[-1] == a and math.isclose(walk_cost(g, m.costs(unit="foot"), None, p.cells, k), back)


def test_map_big_unit_distance_goes_round_the_narrow_gap_even_when_prepared():
    m = Map(SquareGrid(9, 9))
    m.set_terrain([(4, y) for y in range(9) if y not in (2, 6, 7)], "water")
    m.prepare(unit="foot", progress=False)
    big = m.path((0, 2), (7, 2), unit="foot", size=2)
    assert m.distance((0, 2), (7, 2), unit="foot", size=2) == big.cost > m.distance((0, 2), (7, 2), unit="foot")
    assert m.distance_table([(0, 2)], [(7, 2), (0, 2)], unit="foot", size=2).tolist() == [[big.cost, 0.0]]
    assert m.distance_field((0, 2), unit="foot", size=2)[2, 7] == big.cost
    flow = m.flow_field((7, 2), unit="foot", size=2).path_from((0, 2))
    assert (4, 6) in flow.cells and walk_cost(m.grid, m.costs(unit="foot"), None, flow.cells, 2) == big.cost


# -- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize("size,err", [(0, ArgumentError), (-2, ArgumentError), (9, ArgumentError), (2.0, ArgumentTypeError),
                                      ("2", ArgumentTypeError), (True, ArgumentTypeError), (None, ArgumentTypeError)])
def test_bad_sizes_are_refused_clearly(size, err):
    m = Map(SquareGrid(8, 5))
    for call in (lambda: m.path((0, 0), (3, 3), size=size), lambda: m.movement_range((0, 0), 3, size=size),
                 lambda: m.paths([((0, 0), (1, 1))], size=size), lambda: footprint(m.grid, (0, 0), size),
                 lambda: m.distance((0, 0), (3, 3), size=size), lambda: m.distance_field((0, 0), size=size),
                 lambda: m.distance_table([(0, 0)], [(3, 3)], size=size), lambda: m.flow_field((3, 3), size=size)):
        with pytest.raises(err, match="size") as e:
            call()
        assert isinstance(e.value, WargridError)


def test_zones_of_control_are_refused_for_big_units():
    m = Map(SquareGrid(8, 5))
    with pytest.raises(ArgumentError, match="one-cell"):
        m.path((0, 0), (4, 3), size=2, enemies=[(6, 0)])
    with pytest.raises(ArgumentError, match="one-cell"):
        m.movement_range((0, 0), 4, size=2, enemies=[(6, 0)])


def test_hex_grid_classes_share_the_footprint_rule():
    assert issubclass(StaggeredGrid, HexLikeGrid) and issubclass(HexGrid, HexLikeGrid)


@pytest.mark.parametrize("size, err", [(10**20, ArgumentError), ("x", ArgumentTypeError), (None, ArgumentTypeError),
                                       (0, ArgumentError), (1.0, ArgumentTypeError)])
def test_footprint_costs_checks_its_size(size, err):
    # an unchecked size reached the footprint kernel: OverflowError for 10**20, numpy's errors for the others
    g = SquareGrid(3, 2)
    with pytest.raises(err, match="size"):
        footprint_costs(g, CostField.from_arrays(g, np.ones((2, 3))), size)
